"""Bad input at the public boundary: a value that means nothing (a size below 1, a
NaN decay, a bool for a count) is a ValueError saying what is required, before
any work; a value of the wrong type (a str, None, a float for a count) is the
TypeError Python gives it. Each test file holds BAD_CALLS, calls of its part's functions
that must raise, and NO_BAD_INPUT, its functions with nothing to refuse
(renderers, closed forms, constructors); gathered, they cover every public one."""

import unittest

import main
from tests.support import NAN, gathered


NO_BAD_INPUT = {"main"}         # the command line: a bad argument is status 2 (test_cli.py)

# A value of the wrong type: the TypeError Python gives it (operator.index, math).
WRONG_TYPES = [(main.depth, ("8",)), (main.benchmark, (1000, 2.0)), (main.scan_check, (None,)),
               (main.train_section, (), {"seeds": 1.5}), (main.generate_rows, ((8,), 4, None)),
               (main.hidden_rows, ([1, "8"],)), (main.linear_recurrence_scan, ([1.0], [1j])),
               (main.linear_recurrence_scan, ([1.0], 1j)), (main.Counted, (1.0, None)),
               (main.Counted, (1.0, main.Tally()), {"depth": NAN}),
               (main.check_solutions, ("mine.py",), {"seconds": "10"})]


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

    def test_a_value_of_the_wrong_type_is_pythons_type_error(self):
        for function, args, *kwargs in WRONG_TYPES:
            with self.subTest(call=f"{function.__name__}{args!r:.60} {kwargs}"):
                with self.assertRaises(TypeError):
                    function(*args, **(kwargs or [{}])[0])

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
