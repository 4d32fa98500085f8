"""Part 13: Newton's method for the tanh RNN against the serial loop."""

import math
import random
import unittest

import main
from tests.support import HUGE, INF, NAN

# Calls of this part's public functions that raise ValueError (gathered, with
# every other file's, by tests/test_errors.py).
BAD_CALLS = {
    "deer_solve": [(([0.5, NAN],), {"w": 0.9}), (([0.5],), {"w": INF}),
                   (([0.5],), {"w": 0.9, "max_iterations": HUGE})],
    "deer_section": [((), {"lengths": (0,)}), ((), {"max_iterations": HUGE}),
                     ((), {"weights": (NAN,)}), ((), {"weights": ()})],
}


class TestDeer(unittest.TestCase):
    def test_newton_reaches_the_serial_states(self):
        for w in (0.5, 0.9, 1.5, 3.0):
            for length in (1, 2, 17, 200):
                xs = main.uniform_inputs(length, random.Random(length))
                result = main.deer_solve(xs, w)
                states, iterations = result["states"], result["iterations"]
                serial = main.tanh_states(xs, w)
                self.assertLess(max(abs(a - b) for a, b in zip(states, serial)), 1e-12,
                                (w, length))
                self.assertLessEqual(iterations, length + 1)

    def test_t_plus_one_iterations_always_suffice(self):
        # A tolerance no iteration meets runs the guaranteed T + 1: exact to rounding.
        xs = main.uniform_inputs(40, random.Random(5), -2, 2)
        result = main.deer_solve(xs, 1.5, tolerance=-1.0)
        states, iterations = result["states"], result["iterations"]
        self.assertIsNone(iterations)
        self.assertLess(max(abs(a - b) for a, b in zip(states, main.tanh_states(xs, 1.5))), 1e-13)

    def test_an_overflow_is_never_converged(self):
        # w = 100 on inputs near 0: the first linearization's factors are near 100,
        # and 100^155 overflows. Every state returned as converged is finite and right.
        xs, serial = [0.001] * 200, main.tanh_states([0.001] * 200, 100.0)
        result = main.deer_solve(xs, 100.0)
        self.assertEqual((result["overflow"], result["iterations"]), ((1, 157), 46))
        self.assertTrue(all(map(math.isfinite, result["states"])))
        self.assertLess(max(abs(a - b) for a, b in zip(result["states"], serial)), 1e-12)
        short = main.deer_solve(xs, 100.0, max_iterations=10)
        self.assertIsNone(short["iterations"])
        self.assertFalse(all(map(math.isfinite, short["states"])))

    def test_non_finite_inputs_are_refused(self):
        for xs, w in (([0.5, math.nan, 0.1], 0.9), ([0.5], math.inf), ([math.inf], 0.5)):
            with self.assertRaises(ValueError):
                main.deer_solve(xs, w)

    def test_depth_per_iteration_is_counted_on_the_code_that_runs(self):
        for length in (1, 2, 5, 64, 100):
            self.assertEqual(main.newton_iteration_depth(length),
                             7 + 2 * (length - 1).bit_length(), length)

    def test_the_table(self):
        rows = main.deer_rows(weights=(0.5, 100.0), lengths=(16, 200), max_iterations=12)
        self.assertEqual(len(rows), 4)
        tally = main.Tally()
        chain = main._depth_of(main.tanh_training([main.Counted(0.1, tally)] * 16))
        for r in rows:
            if r["iterations"]:
                self.assertLess(r["max_abs_diff"], 1e-12)
                self.assertEqual(r["depth"], r["iterations"] * r["iteration_depth"])
            if r["length"] == 16:
                self.assertEqual(r["serial_depth"], chain)        # part 12's count
        result = {"rows": rows, "findings": main.deer_findings(rows)}
        text = main.render_deer(result)
        self.assertLessEqual(max(map(len, text.splitlines())), 79)
        # the findings follow the rows, and the sentences the findings
        found = result["findings"]
        self.assertEqual([(o["w"], o["length"], o["converged"]) for o in found["overflows"]],
                         [(100.0, 200, False)])
        self.assertIn("1 run overflowed, and it did not converge within 12 iterations.",
                      " ".join(text.split()))
        # the opening is chosen from the counts: a run that did not converge is said so
        self.assertEqual([(g["steps"], g["fewest"], g["most"], g["not_converged"])
                          for g in found["groups"]],
                         [("contracts", 5, 5, 0), ("expands", 3, 3, 1)])
        self.assertEqual(main._deer_opening(found["groups"]), "Newton's method took, where every "
                         "step contracts (w = 0.5), 5 iterations; where steps can expand "
                         "(w = 100), 3 iterations, and 1 of 2 runs did not converge within 12.")
        calm_rows = [r for r in rows if r["w"] == 0.5]
        calm_found = main.deer_findings(calm_rows)
        self.assertEqual((calm_found["overflows"], calm_found["most_when_contracting"]), ([], 5))
        calm = main.render_deer({"rows": calm_rows, "findings": calm_found})
        self.assertNotIn("expand (w", calm)
        self.assertNotIn("overflowed, and", " ".join(calm.split()))


if __name__ == "__main__":
    unittest.main()
