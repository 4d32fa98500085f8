"""Bad input at the public boundary: a value that means nothing (a size below 1, a
NaN decay, a bool for a count) is a ValueError saying what is required, before
any work; a value of the wrong type (a str, None, a float for a count) is the
TypeError Python gives it. BAD_CALLS holds, for each public function, calls that
must raise; NO_BAD_INPUT, those with nothing to refuse (renderers, closed forms,
constructors): together they cover every public one."""

import os
import unittest

import main
from tests.support import HUGE, INF, NAN

# Calls that must raise a ValueError, by function, in main.py's order of parts.
BAD_CALLS = {
    # the lesson
    "rnn_style": [(([1.0], INF), {}), (([1.0], NAN), {})],
    "attention_style": [(([],), {})],
    "depth": [((0,), {}), ((-5,), {}), ((True,), {})],            # True is no count
    "rnn_tanh": [(([1.0],), {"w": NAN}), (([1.0],), {"w": INF})],
    "tree_reduce": [(([],), {})],
    "benchmark": [((0,), {}), ((HUGE,), {}), ((10, 0), {}), ((True,), {}), ((10, True), {})],
    "scan_check": [((0,), {}), ((10**400,), {})],
    "wallclock_section": [(((0,),), {}), (((10,), 0), {}), (((),), {})],
    # 1. hidden
    "hidden_weights": [((0,), {}), ((HUGE,), {}), ((4,), {"decay": NAN})],
    "rnn_style_vector": [(([1.0], 0), {}), (([1.0], HUGE), {})],
    "hidden_rows": [(((1,), 0), {}), (((1,), HUGE), {}), (((1,), 1, 0), {}), (((),), {}),
                    (((0,),), {})],
    # 2. sweep
    "sweep": [(((0,),), {}), (((10,), 0), {}), (((10,), 1, 0), {}), (((10,), 1, True), {})],
    # 3. ssm
    "linear_recurrence_scan": [(([1.0, 2.0], [0.9]), {}), (([1.0], NAN), {}),
                               (([1.0, 2.0], [NAN, 0.9]), {}), (([1.0], [INF]), {})],
    "ssm_check": [((0,), {}), ((HUGE,), {})],
    # 4. work
    "measure_work_depth": [((sum, -1), {}), ((sum, HUGE), {})],
    "work_section": [(((),), {}), (((HUGE,),), {}), (((8,), (0,)), {}),
                     ((range(1, 100),), {})],         # more sizes than a list option takes
    "Counted": [((1.0, main.Tally()), {"depth": -5}), ((1.0, main.Tally()), {"depth": True})],
    # 5. cost
    "cost_table": [((), {"k": 1}), ((), {"k": 0}), ((), {"r": 1}), ((), {"sizes": (-5,)}),
                   ((), {"sizes": (0,)}), ((), {"sizes": ()}), ((), {"memory_sizes": (0,)})],
    "attention_matrix_bytes": [((-1,), {}), ((4, -1), {})],
    # 6. gradient
    "gradient_rows": [((1,), {}), ((HUGE,), {}), ((10, 0, (10,)), {}), ((10, 0, (-1,)), {}),
                      ((10, 0, []), {})],
    # 7. capacity
    "capacity_rows": [((), {"reads": HUGE}), ((), {"reads": 0}), ((), {"d": 0}),
                      ((), {"sizes": ()}), ((), {"sizes": (HUGE,)})],
    # 8. generate
    "generate_rows": [(((1,),), {}), (((HUGE,),), {}), (((),), {}), (((8,), 0), {})],
    "kv_cache_bytes": [((-1, 1, 1, 1), {}), ((1, 1, 1, 1, -2), {})],
    "ssm_state_bytes": [((-1, 1, 1), {}), ((1, 1, 1), {"d_conv": -4})],
    # 9. train
    "train_section": [((), {"steps": 0}), ((), {"steps": HUGE}), ((), {"lengths": ()}),
                      ((), {"lengths": (1,)}), ((), {"seeds": 0}),
                      ((), {"lengths": (100,), "steps": 100_001, "seeds": 1})],
    # check (tests/test_check.py holds the same, until check's rewrite lands)
    "check_solutions": [((os.devnull,), {}), (("x.py",), {"seconds": 0}),
                        (("x.py",), {"seconds": 0.1}), (("x.py",), {"seconds": NAN}),
                        (("x.py",), {"seconds": 1e300}), (("x.py",), {"names": ["mean"]}),
                        (("x.py",), {"names": []})],
}

# Public functions with nothing to refuse: scans that take any list, a closed form, a
# composition, and the command line, where a bad argument is status 2 (test_cli.py).
NO_BAD_INPUT = {"serial_scan", "parallel_scan", "depth_rows", "compose_affine",
                "brent_kung_scan", "blelloch_scan", "main"}

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
        for name, calls in BAD_CALLS.items():
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
        self.assertEqual(set(BAD_CALLS) | NO_BAD_INPUT, public_functions())
        self.assertFalse(set(BAD_CALLS) & NO_BAD_INPUT)


if __name__ == "__main__":
    unittest.main()
