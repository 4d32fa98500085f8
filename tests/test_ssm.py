"""Part 3: the linear recurrence computed by a parallel scan, against the serial
recurrence, an index loop, closed forms and exact numbers."""

import random
import unittest
from decimal import Decimal
from fractions import Fraction

import main
from tests.support import AWKWARD_LENGTHS, close, random_floats, run_section


class TestSsm(unittest.TestCase):
    def test_the_scan_is_the_serial_loop_geometric_selective_and_empty(self):
        f, g, h = (0.5, 1.0), (2.0, 3.0), (-1.0, 0.25)
        c = main.compose_affine
        self.assertEqual(c(c(f, g), h), c(f, c(g, h)))
        self.assertNotEqual(c(f, g), c(g, f))
        for n in AWKWARD_LENGTHS[1:]:
            xs = random_floats(n, seed=4)
            scanned = main.linear_recurrence_scan(xs, 0.9)
            serial = main.rnn_states(xs, 0.9)
            scale = max(map(abs, serial))
            for s, p in zip(serial, scanned):
                self.assertTrue(close(s, p, rel=1e-12, scale=scale), n)
            self.assertTrue(close(scanned[-1], main.rnn_style(xs, 0.9), rel=1e-12, scale=scale), n)
        self.assertEqual((main.linear_recurrence_scan([]), main.rnn_states([])), ([], []))
        states = main.linear_recurrence_scan([1.0] * 64, 0.5)
        for t, h in enumerate(states, start=1):
            self.assertTrue(close(h, (1 - 0.5 ** t) / (1 - 0.5), rel=1e-14))     # geometric
        xs = random_floats(100, seed=8)
        decays = [0.5 + 0.5 * abs(x) for x in random_floats(100, seed=9)]
        h, expected = 0.0, []
        for t in range(100):
            h = decays[t] * h + xs[t]
            expected.append(h)
        for e, p in zip(expected, main.linear_recurrence_scan(xs, decays)):
            self.assertTrue(close(e, p, rel=1e-12))             # selective, an index loop

    def test_exact_decays_stay_exact_and_both_return_the_same_types(self):
        cases = [([Fraction(1), Fraction(2), Fraction(-1)], Fraction(9, 10)),
                 ([Decimal(1), Decimal(2), Decimal(-1)], Decimal("0.9")),
                 ([1, 2, -1], 3),
                 ([1, 2, -1], 0.5),
                 ([1.0, 2.0, -1.0], [Fraction(1, 2), 2, 0.25])]
        for xs, decay in cases:
            serial, scanned = main.rnn_states(xs, decay), main.linear_recurrence_scan(xs, decay)
            self.assertEqual(serial, scanned, (xs, decay))
            # the loop's first state is a_1*0 + x_1 (a float where a float decay meets an
            # int x), the scan's x_1 itself: equal, and of one type from the second on
            self.assertEqual([type(h) for h in serial[1:]], [type(h) for h in scanned[1:]],
                             (xs, decay))
        self.assertEqual(main.rnn_states([Fraction(1)] * 3, Fraction(9, 10))[-1],
                         Fraction(271, 100))
        self.assertEqual(main.linear_recurrence_scan([Fraction(1)] * 3, Fraction(9, 10))[-1],
                         Fraction(271, 100))

    def test_an_infinite_decay_is_an_error_for_both_public_forms(self):
        # 0 * inf is nan, so no h_0 = 0 exists to start from: both refuse alike.
        for func in (main.rnn_style, main.linear_recurrence_scan):
            for decay in (float("inf"), float("nan")):
                with self.assertRaisesRegex(ValueError, "requires a finite decay"):
                    func([1.0, 2.0], decay)

    def test_ssm_section_text_and_json(self):
        out, data = run_section(self, "ssm")
        self.assertIn("tanh", out)
        # the combine it prints is compose_affine's: (2, 3) then (5, 7) is (10, 22)
        said = " ".join(out.split())
        self.assertIn("h -> 0.5*h + 1, then h -> 2*h + 3, is h -> 2*(0.5*h + 1) + 3 = 1*h + 5. "
                      "As pairs, (a1, x1) then (a2, x2) is (a1*a2, a2*x1 + x2).", said)
        self.assertEqual(main.compose_affine((0.5, 1), (2, 3)), (1, 5))
        a1, x1, a2, x2 = 2, 3, 5, 7
        self.assertEqual(main.compose_affine((a1, x1), (a2, x2)), (a1 * a2, a2 * x1 + x2))
        self.assertEqual((data["length"], data["serial_steps"], data["scan_rounds"]),
                         (1024, 1024, 10))
        self.assertLess(data["fixed_max_rel_diff"], 1e-12)
        self.assertLess(data["selective_max_rel_diff"], 1e-12)
        # the claim and its check first; the states shown are the loop's and the scan's
        self.assertTrue(said.startswith("=== the linear recurrence as a parallel scan "
                                        "(state-space models) === The lesson says state-space "
                                        "models train in parallel"), said)
        self.assertIn("a Hillis-Steele scan gave all 1,024 states of h = 0.9*h + x in 10 "
                      "rounds. A round's combines run side by side in one step: 10 steps deep, "
                      "against the loop's 1,024. They differ by at most "
                      f"{data['fixed_max_rel_diff']:.1e} of the largest state.", said)
        xs = main.uniform_inputs(1024, random.Random(main.SSM_SEED))
        loop = main.rnn_states(xs)
        self.assertEqual([(s["t"], s["loop"]) for s in data["states"]],
                         [(t, loop[t - 1]) for t in (1, 2, 3, 1024)])
        self.assertIn(f"{loop[-1]:.12f}", out)
        # each number read from its own field: the selective case's, each state's
        told = " ".join(main.render_ssm(dict(data, selective_max_rel_diff=2.5e-13, states=[
            {"t": 7, "loop": 0.125, "scan": 0.25}])).split())
        self.assertIn("as in Mamba's selective scan, loop and scan agree within 2.5e-13.", told)
        self.assertIn("7 0.125000000000 0.250000000000", told)
        # a difference past the tolerance is told as one
        differs = dict(data, fixed_max_rel_diff=1e-6)
        self.assertIn("They differ by at most 1.0e-06 of the largest state, more than rounding.",
                      " ".join(main.render_ssm(differs).split()))


if __name__ == "__main__":
    unittest.main()
