"""Bad input at the public boundary: a value that means nothing (a size below 1, a
NaN decay, a seed that is not an int) is a ValueError saying what is required,
before any work. Each test file holds BAD_CALLS, calls of its part's functions
that must raise, and NO_BAD_INPUT, its functions with nothing to refuse
(renderers, closed forms, constructors); gathered, they cover every public one."""

import unittest

import main
from tests.support import gathered


NO_BAD_INPUT = {"main"}         # the command line: a bad argument is status 2 (test_cli.py)


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
