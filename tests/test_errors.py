"""Bad input at the public boundary: where the maths breaks, or where a call
would hang or exhaust memory, a public function raises a ValueError that says
what it requires, before doing any work. (A wrong type raises whatever
TypeError Python raises on its own.) Each test file holds the table of its
part's functions; gathered here, the tables must cover every public function."""

import unittest

import main
from tests.support import gathered


# function name: [(args, kwargs), ...], each call raising ValueError: the
# machinery's functions here; each part's in its own test file.
BAD_CALLS = {
}

# Public functions with no input of their own where the maths breaks or a call
# could run away: renderers (they read what their compute function returns),
# closed forms of a few numbers, constructors and the command line.
NO_BAD_INPUT = {"main", "Counted"}


def public_functions():
    """main.__all__'s functions and classes: what refuses bad values at its door."""
    return {name for name in main.__all__ if callable(getattr(main, name))}


class TestBadInput(unittest.TestCase):
    def test_each_bad_call_raises_a_value_error_that_says_what_is_required(self):
        for name, calls in gathered("BAD_CALLS").items():
            for args, kwargs in calls:
                with self.subTest(call=f"{name}{args!r:.60} {kwargs}"):
                    with self.assertRaisesRegex(ValueError, r"^\w+ requires "):
                        getattr(main, name)(*args, **kwargs)

    def test_the_public_surface_holds_the_lessons_functions(self):
        lesson = {"rnn_style", "attention_style", "serial_scan", "parallel_scan", "benchmark",
                  "depth", "rnn_tanh", "tree_reduce"}
        self.assertLessEqual(lesson, set(main.__all__))
        self.assertTrue(all(hasattr(main, name) for name in main.__all__))

    def test_every_public_function_is_in_the_table_or_has_no_bad_input(self):
        bad, none = set(gathered("BAD_CALLS")), set(gathered("NO_BAD_INPUT"))
        self.assertEqual(bad | none, public_functions())
        self.assertFalse(bad & none)


if __name__ == "__main__":
    unittest.main()
