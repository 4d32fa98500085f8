"""Part 2, the Hard exercise: the exponent fit on data of known slope, the
sentence that reads it, and the section through the command line."""

import math
import unittest

import main
from tests.support import run_main, run_section


class TestSweep(unittest.TestCase):
    def test_the_sentence_follows_the_fitted_slopes_and_opens_the_section(self):
        about = "both times grow in proportion to N"
        self.assertEqual(main.slope_reading(1.0, 1.0), about + " (fitted slopes 1.00 and 1.00). "
                         "On one core each does N additions one after another: sum() in C, the "
                         "loop in Python.")
        self.assertIn(about + " (fitted slopes 0.97 and 1.05)", main.slope_reading(0.97, 1.05))
        small = main.slope_reading(0.47, 0.12)            # the sizes 1 ... 16
        self.assertIn("both grow slower than N (fitted slopes 0.47 and 0.12)", small)
        self.assertNotIn(about, small)
        self.assertIn("a slope far from 1", main.slope_reading(1.6, 0.9))
        self.assertIn("a slope far from 1", main.slope_reading(0.5, 1.0))    # one below, one at 1
        # the headline names each slope with its function, and the lanes as printed
        result = {"rows": [{"n": 64, "tree_steps": 6}, {"n": 128, "tree_steps": 7}],
                  "rnn_exponent": 1.1, "attn_exponent": 0.9, "lanes": 10_000}
        self.assertEqual(main.sweep_headline(result), "measured slopes 1.10 (the loop) and 0.90 "
                         "(the sum); modelled on 10,000 lanes, the tree takes 6 to 7 steps")
        self.assertIn("no slope", main.slope_reading(None, None))
        # the edges of "about 1": 0.8 to 1.2, each included
        for low, high, is_about in ((0.8, 1.2, True), (0.79, 1.0, False), (1.0, 1.21, False)):
            self.assertEqual(about in main.slope_reading(low, high), is_about, (low, high))
        rows = [{"n": n, "rnn_s": 1e-7 * n ** 0.47, "attn_s": 1e-7 * n ** 0.12, "ratio": 1.0,
                 "chain_steps": n, "tree_steps": main.lane_steps(n, 4), "spread": 1.0}
                for n in (1, 4, 16)]
        text = main.render_sweep({"rows": rows, "rnn_exponent": 0.47, "attn_exponent": 0.12,
                                  "fit_from_n": 1, "reading": small, "lanes": 4,
                                  "modelled": main.modelled_reading(rows, 4)})
        self.assertTrue(" ".join(text.split()).startswith(
            "=== exercise (hard): sequence-length sweep on this CPU === The Hard exercise asks "
            "for the shape of the curves over N = 1 to 16: both grow slower than N"), text)
        # the fit's first N said where it is not the first N shown
        self.assertNotIn("fitted from", text)
        later = main.render_sweep({"rows": rows, "rnn_exponent": 0.47, "attn_exponent": 0.12,
                                   "fit_from_n": 4, "reading": small, "lanes": 4,
                                   "modelled": main.modelled_reading(rows, 4)})
        self.assertIn("More: the slopes are fitted from N = 4 on", " ".join(later.split()))
        # the measured table first, with the times alone; the modelled steps after
        tables = [line.split() for line in text.splitlines() if line.lstrip().startswith("N ")]
        self.assertEqual(tables, [["N", "rnn", "/", "call", "attn", "/", "call"],
                                  ["N", "chain", "steps", "tree", "steps,", "P", "=", "4"]])

    def test_the_modelled_steps_are_log2_n_up_to_p_lanes_then_n_over_p_and_read_so(self):
        for n in (1, 2, 3, 64, 1_000, 10_000):          # a tree of depth ceil(log2 N)
            self.assertEqual(main.lane_steps(n, 10_000), (n - 1).bit_length(), n)
        for n, lanes in ((65_536, 10_000), (10**6, 1_000), (4_097, 64)):
            bound = (n - 1) / lanes + (n - 1).bit_length()     # Brent (1974)
            self.assertLessEqual(main.lane_steps(n, lanes), bound, (n, lanes))
            self.assertGreaterEqual(main.lane_steps(n, lanes), (n - 1) / lanes)

        def reading(sizes, lanes):
            rows = [{"n": n, "tree_steps": main.lane_steps(n, lanes)} for n in sizes]
            return " ".join(main.modelled_reading(rows, lanes).split())
        self.assertIn("the tree sum takes 6 to 16 steps. With N <= P, that is log2 N",
                      reading((64, 65_536), 10**5))
        # 65,536 values on 10,000 lanes: chunks of 7 added in 6 steps, then the
        # ceil(65,536 / 7) = 9,363 partial sums in a tree of ceil(log2 9,363) levels
        levels = math.ceil(math.log2(math.ceil(65_536 / 7)))
        self.assertIn(f"takes 6 to {6 + levels} steps. Past N = P, each lane first adds up its "
                      f"own share: 7 values in 6 steps at N = 65,536. Then the partial sums "
                      f"meet in a tree of {levels} levels.", reading((64, 65_536), 10_000))
        # the largest N equal to P: still "N <= P"; one more is past it
        self.assertIn("With N <= P", reading((64, 1_024), 1_024))
        self.assertIn("Past N = P", reading((64, 1_025), 1_024))
        self.assertIn("takes 9 steps.", reading((500,), 10_000))   # one size: one count

    def test_fit_exponent_recovers_known_slopes_and_is_least_squares_on_noise(self):
        ns = [64 * 2 ** k for k in range(10)]
        for k in (0.0, 0.5, 1.0, 2.0):
            self.assertAlmostEqual(main.fit_exponent(ns, [3e-7 * n ** k for n in ns]), k, places=9)
        # Alternating +-10% noise on an n**1 line: the slope stays close to 1.
        ns = [2 ** k for k in range(6, 17)]
        ts = [1e-8 * n * (1.1 if i % 2 else 0.9) for i, n in enumerate(ns)]
        self.assertAlmostEqual(main.fit_exponent(ns, ts), 1.0, delta=0.02)

    def test_sweep_section_text_and_json_and_one_size_without_a_fit(self):
        sizes = "64,128,1024,2048"
        out, data = run_section(self, "sweep", "--sizes", sizes, "--reps", "1")
        # The format, not the value: a noisy one-sample fit over two sizes may come out negative.
        self.assertRegex(" ".join(out.split()), r"\(fitted slopes -?\d+\.\d\d and -?\d+\.\d\d\)")
        self.assertLessEqual(max(len(line) for line in out.splitlines()), 80)
        self.assertEqual([r["n"] for r in data["rows"]], [64, 128, 1024, 2048])
        self.assertEqual(data["fit_from_n"], 1024)
        self.assertIn("N  chain steps  tree steps, P = 10,000", out)
        self.assertEqual([(r["chain_steps"], r["tree_steps"]) for r in data["rows"]],
                         [(64, 6), (128, 7), (1024, 10), (2048, 11)])     # N <= 10,000 lanes
        self.assertIsInstance(data["rnn_exponent"], float)
        self.assertTrue(main.sweep_headline(data).endswith(
            "modelled on 10,000 lanes, the tree takes 6 to 11 steps"))
        status, out, _ = run_main("sweep", "--sizes", "500", "--reps", "1")
        self.assertEqual(status, 0)
        self.assertIn("over N = 500: with one size there is no slope to read.",
                      " ".join(out.split()))


if __name__ == "__main__":
    unittest.main()
