"""Bad input at the public boundary: where the maths breaks, or where a call
would hang or exhaust memory, a public function raises a ValueError that says
what it requires, before doing any work. (A wrong type raises whatever
TypeError Python raises on its own.) Each test file holds the table of its
part's functions; gathered here, the tables must cover every public function."""

import inspect
import os
import random
import unittest

import main
from tests.support import HUGE, INF, NAN, gathered


# function name: [(args, kwargs), ...], each call raising ValueError: the
# machinery's functions here; each part's in its own test file.
BAD_CALLS = {
    "seed_input": [((-1,), {}), ((HUGE,), {})],
    "uniform_inputs": [((HUGE, random.Random(0)), {})],
    "sample_per_call": [(([int], 0), {}), (([int], main.MAX_REPS + 1), {})],
    "spread": [(([],), {}), (([0.0, 1.0],), {})],
    "format_seconds": [((-1.0,), {}), ((NAN,), {}), ((INF,), {})],
    "format_bytes": [((-1,), {})],
}

# Public functions with no input of their own where the maths breaks or a call
# could run away: renderers (they read what their compute function returns),
# closed forms of a few numbers, constructors and the command line.
NO_BAD_INPUT = {"main"}


def public_functions():
    return {name for name, obj in vars(main).items()
            if inspect.isfunction(obj) and obj.__module__ == "main" and not name.startswith("_")
            and not name.startswith(("render_", "figure_"))}


class TestBadInput(unittest.TestCase):
    def test_each_bad_call_raises_a_value_error_that_says_what_is_required(self):
        for name, calls in gathered("BAD_CALLS").items():
            for args, kwargs in calls:
                with self.subTest(call=f"{name}{args!r:.60} {kwargs}"):
                    with self.assertRaisesRegex(ValueError, r"^\w+ requires "):
                        getattr(main, name)(*args, **kwargs)

    def test_every_public_function_is_in_the_table_or_has_no_bad_input(self):
        bad, none = set(gathered("BAD_CALLS")), set(gathered("NO_BAD_INPUT"))
        self.assertEqual(bad | none, public_functions())
        self.assertFalse(bad & none)


if __name__ == "__main__":
    unittest.main()
