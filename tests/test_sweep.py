"""Part 2, the Hard exercise: the exponent fit on data of known slope, the
sentence that reads it, and the section through the command line."""

import unittest

import main
from tests.support import run_main, run_section

BAD_CALLS = {
    "sweep": [(((0,),), {}), (((10,), 0), {})],
}


class TestSweep(unittest.TestCase):
    def test_the_sentence_follows_the_fitted_slopes_and_opens_the_section(self):
        self.assertIn("slope about 1", main.slope_reading(0.97, 1.05))
        small = main.slope_reading(0.47, 0.12)            # the sizes 1 ... 16
        self.assertIn("well below 1", small)
        self.assertNotIn("slope about 1", small)
        self.assertIn("far from 1", main.slope_reading(1.6, 0.9))
        self.assertIn("no slope", main.slope_reading(None, None))
        rows = [{"n": n, "rnn_s": 1e-7 * n ** 0.47, "attn_s": 1e-7 * n ** 0.12, "ratio": 1.0}
                for n in (1, 4, 16)]
        text = main.render_sweep({"rows": rows, "rnn_exponent": 0.47, "attn_exponent": 0.12,
                                  "fit_from_n": 1, "reading": small})
        self.assertTrue(text.splitlines()[1].startswith("Both slopes are well below 1"))

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
        self.assertIsInstance(data["rnn_exponent"], float)
        status, out, _ = run_main("sweep", "--sizes", "500", "--reps", "1")
        self.assertEqual(status, 0)
        self.assertIn("fitted growth: n/a (the fit needs two sizes)", out)


if __name__ == "__main__":
    unittest.main()
