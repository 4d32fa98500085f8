"""Work and depth measured with the counting type, and the linear recurrence
computed by a parallel scan, against the serial recurrence."""

import json
import unittest
from decimal import Decimal
from fractions import Fraction

import main
from tests.support import AWKWARD_LENGTHS, close, random_floats, run_section


class TestCounted(unittest.TestCase):
    def test_counted_tiny_graph_by_hand(self):
        # e = (a + b) + (c + d): 3 additions, depth 2; f = e * 2.0: 4 ops, depth 3.
        tally = main.Tally()
        a, b, c, d = (main.Counted(v, tally) for v in (1, 2, 3, 4))
        e = (a + b) + (c + d)
        self.assertEqual((e.value, e.depth, tally.work), (10, 2, 3))
        f = e * 2.0
        self.assertEqual((f.value, f.depth, tally.work), (20.0, 3, 4))

    def test_counted_with_plain_numbers_on_either_side(self):
        tally = main.Tally()
        x = main.Counted(5, tally)
        self.assertEqual((1 + x).value, 6)
        self.assertEqual((x + 1).value, 6)
        self.assertEqual((3 * x).depth, 1)
        self.assertEqual(tally.work, 3)

    def test_counted_keeps_operand_order(self):
        # Strings are not commutative: the wrapped values must combine in order.
        tally = main.Tally()
        self.assertEqual(("a" + main.Counted("b", tally)).value, "ab")
        self.assertEqual((main.Counted("a", tally) + "b").value, "ab")


def hillis_steele_combines(n):
    """Count the combines of Hillis-Steele round by round: n - 2**k in round k."""
    total, step = 0, 1
    while step < n:
        total += n - step
        step *= 2
    return total


class TestMeasuredWorkDepth(unittest.TestCase):
    def test_measured_counts_match_the_formulas_at_powers_of_two(self):
        for k in (1, 2, 5, 10):
            n = 2 ** k
            expected = {
                "recurrence": (2 * n - 1, 2 * n - 1),
                "sum": (n, n),
                "tree_reduce": (n - 1, k),
                "serial_scan": (n - 1, n - 1),
                "hillis_steele": (hillis_steele_combines(n), k),
                "brent_kung": (2 * n - k - 2, 2 * k - 2 if k > 1 else 1),
                "blelloch": (2 * n - 2, 2 * k - 1),
                "linear_scan": (2 * hillis_steele_combines(n), 2 * k),
                "linear_scan_selective": (3 * hillis_steele_combines(n), 2 * k),
            }
            for name, (_, algorithm, _, _) in main.WORK_ALGORITHMS.items():
                self.assertEqual(main.measure_work_depth(algorithm, n), expected[name], (name, n))

    def test_hillis_steele_at_1024_is_9217(self):
        self.assertEqual(main.measure_work_depth(main.parallel_scan, 1024), (9217, 10))

    def test_tree_reduce_depth_is_the_depth_formula_at_any_length(self):
        for n in AWKWARD_LENGTHS[1:]:
            work, dep = main.measure_work_depth(main.tree_reduce, n)
            self.assertEqual(work, n - 1)
            self.assertEqual(dep, main.depth(n)[1] if n > 1 else 0)

    def test_brent_kung_is_work_efficient_and_log_depth_at_any_length(self):
        for n in AWKWARD_LENGTHS[2:]:
            work, dep = main.measure_work_depth(main.brent_kung_scan, n)
            self.assertLessEqual(work, 2 * n, n)
            self.assertLessEqual(dep, 2 * main.depth(n)[1], n)

    def test_blelloch_pads_to_a_power_of_two(self):
        # Padded to M, the next power of two: at most 2(M - 1) combines (those of
        # two padding identities alone are not counted), depth at most 2 log2 M.
        for n in AWKWARD_LENGTHS[2:]:
            k = main.depth(n)[1]
            work, dep = main.measure_work_depth(main.blelloch_scan, n)
            self.assertLessEqual(work, 2 * (2 ** k - 1), n)
            self.assertLessEqual(dep, 2 * k, n)


class TestLinearRecurrenceScan(unittest.TestCase):
    def test_compose_affine_is_associative_not_commutative(self):
        f, g, h = (0.5, 1.0), (2.0, 3.0), (-1.0, 0.25)
        c = main.compose_affine
        self.assertEqual(c(c(f, g), h), c(f, c(g, h)))
        self.assertNotEqual(c(f, g), c(g, f))

    def test_matches_serial_states_and_rnn_style(self):
        for n in AWKWARD_LENGTHS[1:]:
            xs = random_floats(n, seed=4)
            scanned = main.linear_recurrence_scan(xs, 0.9)
            serial = main.rnn_states(xs, 0.9)
            scale = max(map(abs, serial))
            for s, p in zip(serial, scanned):
                self.assertTrue(close(s, p, rel=1e-12, scale=scale), n)
            self.assertTrue(close(scanned[-1], main.rnn_style(xs, 0.9), rel=1e-12, scale=scale), n)

    def test_ones_follow_the_geometric_series(self):
        states = main.linear_recurrence_scan([1.0] * 64, 0.5)
        for t, h in enumerate(states, start=1):
            self.assertTrue(close(h, (1 - 0.5 ** t) / (1 - 0.5), rel=1e-14))

    def test_selective_decays_match_an_index_loop(self):
        xs = random_floats(100, seed=8)
        decays = [0.5 + 0.5 * abs(x) for x in random_floats(100, seed=9)]
        h, expected = 0.0, []
        for t in range(100):
            h = decays[t] * h + xs[t]
            expected.append(h)
        for e, p in zip(expected, main.linear_recurrence_scan(xs, decays)):
            self.assertTrue(close(e, p, rel=1e-12))

    def test_empty_input_has_no_states(self):
        self.assertEqual(main.linear_recurrence_scan([]), [])
        self.assertEqual(main.rnn_states([]), [])

    def test_exact_decays_stay_exact_and_both_return_the_same_types(self):
        cases = [([Fraction(1), Fraction(2), Fraction(-1)], Fraction(9, 10)),
                 ([Decimal(1), Decimal(2), Decimal(-1)], Decimal("0.9")),
                 ([1, 2, -1], 3),
                 ([1, 2, -1], 0.5),
                 ([1.0, 2.0, -1.0], [Fraction(1, 2), 2, 0.25])]
        for xs, decay in cases:
            serial, scanned = main.rnn_states(xs, decay), main.linear_recurrence_scan(xs, decay)
            self.assertEqual(serial, scanned, (xs, decay))
            self.assertEqual([type(h) for h in serial], [type(h) for h in scanned], (xs, decay))
        self.assertEqual(main.rnn_states([Fraction(1)] * 3, Fraction(9, 10))[-1], Fraction(271, 100))
        self.assertEqual(main.linear_recurrence_scan([Fraction(1)] * 3, Fraction(9, 10))[-1],
                         Fraction(271, 100))

    def test_decay_errors(self):
        with self.assertRaisesRegex(ValueError, "linear_recurrence_scan requires one decay per input"):
            main.linear_recurrence_scan([1.0, 2.0], [0.9])
        with self.assertRaisesRegex(TypeError, "linear_recurrence_scan requires decay to be a number"):
            main.linear_recurrence_scan([1.0], None)
        with self.assertRaisesRegex(ValueError, "rnn_states requires one decay per input"):
            main.rnn_states([1.0], [0.9, 0.9])
        for func in (main.rnn_states, main.linear_recurrence_scan):
            with self.assertRaisesRegex(TypeError, "requires decay to be a number"):
                func([1.0, 2.0, 3.0], "0.9")          # not three decays '0', '.', '9'
        with self.assertRaisesRegex(TypeError, "linear_recurrence_scan requires xs"):
            main.linear_recurrence_scan(["a", "b"])   # not blamed on parallel_scan


class TestWorkAndSsmSections(unittest.TestCase):
    def test_work_section_text_and_json(self):
        # Sizes 64 and 1,024 rather than the section's default, which adds 4,096 (0.2 s more).
        data = json.loads(json.dumps(main.work_rows((64, 1024))))
        out = main.render_work(data)
        self.assertIn("least depth hillis_steele (10)", out)
        self.assertIn("equals the depth section's attn depth", out)
        self.assertIn("not\nbecause sum() runs in parallel; for floats, associative only up to rounding.", out)
        self.assertIn("3 operations a combine, not 2", out)
        at = {(r["algorithm"], r["n"]): r for r in data}
        self.assertEqual(at["hillis_steele", 1024], {"algorithm": "hillis_steele", "n": 1024, "work": 9217, "depth": 10})
        self.assertEqual((at["blelloch", 1024]["work"], at["brent_kung", 1024]["work"]), (2046, 2036))
        self.assertEqual(at["linear_scan_selective", 1024]["work"], 3 * 9217)

    def test_ssm_section_text_and_json(self):
        out, data = run_section(self, "ssm")
        self.assertIn("scan 10 rounds", out)
        self.assertIn("tanh", out)
        self.assertEqual((data["length"], data["serial_steps"], data["scan_rounds"]), (1024, 1023, 10))
        self.assertLess(data["fixed_max_rel_diff"], 1e-12)
        self.assertLess(data["selective_max_rel_diff"], 1e-12)


if __name__ == "__main__":
    unittest.main()
