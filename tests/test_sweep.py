"""Part 2, the Hard exercise: the exponent fit on data of known slope, the
sentence that reads it, and the section through the command line."""

import math
import unittest
from unittest import mock

import main
from tests.support import run_main, run_section
from tests.support import texts


class TestSweep(unittest.TestCase):
    def test_the_sentence_follows_the_fitted_slopes_and_opens_the_section(self):
        about = "Both times grow in proportion to N"
        self.assertEqual(main.slope_reading(1.0, 1.0), about + " (log-log slopes: rnn_style "
                         "1.00, attention_style 1.00). On one core each does N operations in "
                         "turn: sum() in C, the loop in Python.")
        self.assertIn(about + " (log-log slopes: rnn_style 0.97, attention_style 1.05)",
                      main.slope_reading(0.97, 1.05))
        small = main.slope_reading(0.47, 0.12)            # the sizes 1 ... 16
        self.assertIn("Both grow slower than N (log-log slopes: rnn_style 0.47, attention_style "
                      "0.12)", small)
        self.assertNotIn(about, small)
        self.assertIn("A slope is far from 1", main.slope_reading(1.6, 0.9))
        self.assertIn("A slope is far from 1", main.slope_reading(0.5, 1.0))  # one below, one at 1
        # the headline names each slope with its function, and the lanes as printed
        result = {"rows": [{"n": 64, "tree_steps": 6}, {"n": 128, "tree_steps": 7}],
                  "rnn_exponent": 1.1, "attn_exponent": 0.9, "lanes": 10_000}
        self.assertEqual(main.sweep_headline(result), "log-log slopes 1.10 and 0.90")
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
            "for the shape of the curves over N = 1 to 16. Both grow slower than N"), text)
        # the fit's first N said where it is not the first N shown
        self.assertNotIn("fitted from", text)
        later = main.render_sweep({"rows": rows, "rnn_exponent": 0.47, "attn_exponent": 0.12,
                                   "fit_from_n": 4, "reading": small, "lanes": 4,
                                   "modelled": main.modelled_reading(rows, 4)})
        self.assertIn("More: the slopes are fitted from N = 4 on", " ".join(later.split()))
        # the measured table first, with the times alone; the modelled steps after
        tables = [line.split() for line in text.splitlines()      # a header: cells two apart
                  if line.lstrip().startswith("N ") and "  " in line.strip()]
        self.assertEqual(tables, [["N", "rnn", "per", "call", "attn", "per", "call"],
                                  ["N", "chain", "steps", "tree", "steps,", "P", "=", "4"]])

    def test_the_figures_subtitle_reads_the_slopes_as_the_text_does(self):
        # times scripted as c * N**k at each N: the fit finds k, and k alone picks the
        # subtitle and the text's reading; each pair of slopes flips it to another case
        sizes = (1_024, 4_096, 16_384)
        cases = {(1.0, 1.0): ("top: both slopes near 1, each time in proportion to N",
                              "Both times grow in proportion to N"),
                 (0.0, 0.0): ("top: both slopes below 1: at these sizes, a call's fixed cost",
                              "Both grow slower than N"),
                 (1.6, 1.0): ("top: a slope far from 1: too few or too small sizes",
                              "A slope is far from 1"),
                 (0.5, 0.9): ("top: a slope far from 1", "A slope is far from 1")}
        for (rnn, attn), (subtitle, reading) in cases.items():
            def samples(n, reps):
                return [3e-8 * n ** rnn], [5e-9 * n ** attn]
            with self.subTest(rnn=rnn, attn=attn), \
                    mock.patch.object(main, "_benchmark_samples", samples):
                result = main.sweep(sizes, 1)
                self.assertAlmostEqual(result["rnn_exponent"], rnn, places=9)
                self.assertAlmostEqual(result["attn_exponent"], attn, places=9)
                drawn = texts(main.figure_sweep(result))
                said = " ".join(main.render_sweep(result).split())
                self.assertIn(subtitle, drawn)
                self.assertIn(f"{reading} (log-log slopes: rnn_style {rnn:.2f}, attention_style "
                              f"{attn:.2f})", said)
                others = [s for s, _ in cases.values() if not subtitle.startswith(s[:12])]
                for other in others:
                    self.assertNotIn(other, drawn)
        # read as printed: 0.796 prints 0.80, inside "about 1"; 0.794 prints 0.79
        self.assertEqual(main.slope_case(0.796, 1.204), "about 1")
        self.assertEqual(main.slope_case(0.794, 1.0), "far from 1")
        self.assertIn("in proportion to N (log-log slopes: rnn_style 0.80, attention_style 1.20)",
                      main.slope_reading(0.796, 1.204))

    def test_the_modelled_steps_are_log2_n_up_to_p_lanes_then_n_over_p_and_read_so(self):
        for n in (2, 3, 64, 1_000, 10_000, 20_000):     # a tree of depth ceil(log2 N)
            self.assertEqual(main.lane_steps(n, 10_000), (n - 1).bit_length(), n)
        self.assertEqual(main.lane_steps(1, 10_000), 1)             # as depth(1) counts it
        for n, lanes in ((65_536, 10_000), (10**6, 1_000), (4_097, 64)):
            bound = (n - 1) / lanes + (n - 1).bit_length()     # Brent (1974)
            self.assertLessEqual(main.lane_steps(n, lanes), bound, (n, lanes))
            self.assertGreaterEqual(main.lane_steps(n, lanes), (n - 1) / lanes)

        def reading(sizes, lanes):
            rows = [{"n": n, "tree_steps": main.lane_steps(n, lanes)} for n in sizes]
            return " ".join(main.modelled_reading(rows, lanes).split())
        self.assertIn("a tree sum takes 6 to 16 steps, the fewest possible. With "
                      "N <= 2P, that is log2 N", reading((64, 65_536), 10**5))
        # 65,536 values on 10,000 lanes: 5 steps of 10,000 adds leave 15,536 values,
        # then ceil(log2 15,536) halvings
        halvings = math.ceil(math.log2(65_536 - 5 * 10_000))
        self.assertIn(f"takes 6 to {5 + halvings} steps, the fewest possible. A lane adds one "
                      "pair a step, so a step removes at most P values. Once 2P = 20,000 or "
                      "fewer remain, each step halves them, rounded up. At N = 65,536, 5 steps "
                      f"leave 15,536, then {halvings} halve them: {5 + halvings} in all.",
                      reading((64, 65_536), 10_000))
        # the worked N is the first past 2P, where the steps jump: 32,768 - 2 x 10,000
        # leaves 12,768, then ceil(log2 12,768) = 14 halvings
        self.assertIn("At N = 32,768, 2 steps leave 12,768, then 14 halve them: 16 in all.",
                      reading((16_384, 32_768, 65_536), 10_000))
        # the largest N equal to 2P: still "N <= 2P"; one more is past it
        self.assertIn("With N <= 2P", reading((64, 2_048), 1_024))
        self.assertIn("At N = 3,072, 1 step leaves 2,048, then 11 halve them: 12 in all.",
                      reading((64, 3_072), 1_024))
        self.assertIn("takes 9 steps, the fewest", reading((500,), 10_000))   # one size

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
        self.assertRegex(" ".join(out.split()),
                         r"\(log-log slopes: rnn_style -?\d+\.\d\d, attention_style -?\d+\.\d\d\)")
        self.assertLessEqual(max(len(line) for line in out.splitlines()), 80)
        self.assertEqual([r["n"] for r in data["rows"]], [64, 128, 1024, 2048])
        self.assertEqual(data["fit_from_n"], 1024)
        self.assertIn("N  chain steps  tree steps, P = 10,000", out)
        self.assertEqual([(r["chain_steps"], r["tree_steps"]) for r in data["rows"]],
                         [(64, 6), (128, 7), (1024, 10), (2048, 11)])     # N <= 10,000 lanes
        self.assertIsInstance(data["rnn_exponent"], float)
        self.assertEqual(main.sweep_headline(data), "log-log slopes {:.2f} and {:.2f}".format(
            data["rnn_exponent"], data["attn_exponent"]))
        status, out, _ = run_main("sweep", "--sizes", "500", "--reps", "1")
        self.assertEqual(status, 0)
        self.assertIn("over N = 500. With one size there is no slope to read.",
                      " ".join(out.split()))


if __name__ == "__main__":
    unittest.main()
