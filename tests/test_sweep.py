"""Part 2, the Hard exercise: the exponent fit on data of known slope, the
sentence that reads it, and the section through the command line."""

import unittest

import main
from tests.support import run_main, run_section

BAD_CALLS = {
    "sweep": [(((0,),), {}), (((10,), 0), {}), (((10,), 1, 0), {}), (((10,), 1, True), {})],
}


class TestSweep(unittest.TestCase):
    def test_the_sentence_follows_the_fitted_slopes_and_opens_the_section(self):
        self.assertIn("slope about 1", main.slope_reading(0.97, 1.05))
        small = main.slope_reading(0.47, 0.12)            # the sizes 1 ... 16
        self.assertIn("well below 1", small)
        self.assertNotIn("slope about 1", small)
        self.assertIn("far from 1", main.slope_reading(1.6, 0.9))
        self.assertIn("no slope", main.slope_reading(None, None))
        # the edges of "about 1": 0.8 to 1.2, each included
        for low, high, about in ((0.8, 1.2, True), (0.79, 1.0, False), (1.0, 1.21, False)):
            self.assertEqual("slope about 1" in main.slope_reading(low, high), about, (low, high))
        rows = [{"n": n, "rnn_s": 1e-7 * n ** 0.47, "attn_s": 1e-7 * n ** 0.12, "ratio": 1.0,
                 "chain_steps": n, "tree_steps": main.lane_steps(n, 4), "spread": 1.0}
                for n in (1, 4, 16)]
        text = main.render_sweep({"rows": rows, "rnn_exponent": 0.47, "attn_exponent": 0.12,
                                  "fit_from_n": 1, "reading": small, "lanes": 4,
                                  "modelled": main.modelled_reading(rows, 4)})
        self.assertTrue(text.splitlines()[1].startswith("Measured: Both slopes are well below"))
        self.assertIn("tree steps, P = 4", text)

    def test_the_modelled_steps_are_log2_n_up_to_p_lanes_then_n_over_p_and_read_so(self):
        for n in (1, 2, 3, 64, 1_000, 10_000):          # a tree of depth ceil(log2 N)
            self.assertEqual(main.lane_steps(n, 10_000), (n - 1).bit_length(), n)
        for n, lanes in ((65_536, 10_000), (10**6, 1_000), (4_097, 64)):
            bound = (n - 1) / lanes + (n - 1).bit_length()     # Brent (1974)
            self.assertLessEqual(main.lane_steps(n, lanes), bound, (n, lanes))
            self.assertGreaterEqual(main.lane_steps(n, lanes), (n - 1) / lanes)

        def reading(sizes, lanes):
            rows = [{"n": n, "tree_steps": main.lane_steps(n, lanes)} for n in sizes]
            return main.modelled_reading(rows, lanes)
        self.assertIn("from 6 to 16 as N goes from 64 to 65,536. That is about log2 N, since N "
                      "<= P.", reading((64, 65_536), 10**5))
        self.assertIn("about log2 N up to N = P, then N / P + log2 P", reading((64, 65_536),
                                                                               10_000))
        self.assertIn("every N being past P", reading((1_024, 4_096), 16))
        # the largest N equal to P: still "since N <= P"
        self.assertIn("since N <= P", reading((64, 1_024), 1_024))
        self.assertIn("up to N = P", reading((64, 1_025), 1_024))

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
        self.assertRegex(out, r"rnn_style N\^-?\d+\.\d\d, attention_style N\^-?\d+\.\d\d")
        self.assertLessEqual(max(len(line) for line in out.splitlines()), 80)
        self.assertEqual([r["n"] for r in data["rows"]], [64, 128, 1024, 2048])
        self.assertEqual(data["fit_from_n"], 1024)
        self.assertEqual([(r["chain_steps"], r["tree_steps"]) for r in data["rows"]],
                         [(64, 6), (128, 7), (1024, 10), (2048, 11)])     # N <= 10,000 lanes
        self.assertIsInstance(data["rnn_exponent"], float)
        self.assertTrue(main.sweep_headline(data).endswith(
            "modelled on 10,000 lanes, the tree takes 6 to 11 steps"))
        status, out, _ = run_main("sweep", "--sizes", "500", "--reps", "1")
        self.assertEqual(status, 0)
        self.assertIn("fitted growth: n/a (the fit needs two sizes)", out)


if __name__ == "__main__":
    unittest.main()
