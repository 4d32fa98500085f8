"""The Easy and Hard exercises: the vector hidden state against rnn_style and
a straightforward reference, the exponent fit on data of known slope, the
text chart on fixed points, and both sections through the command line."""

import math
import random
import unittest

import main
from tests.support import AWKWARD_LENGTHS, close, random_floats, run_main, run_section


def reference_vector_rnn(xs, A, b):
    """The recurrence h = A.h + b*x written with plain index loops."""
    width = len(b)
    h = [0.0] * width
    for x in xs:
        new = []
        for i in range(width):
            total = 0.0
            for j in range(width):
                total += A[i][j] * h[j]
            new.append(total + b[i] * x)
        h = new
    return h


class TestRnnStyleVector(unittest.TestCase):
    def test_rnn_style_vector_width_1_is_exactly_rnn_style(self):
        for n in AWKWARD_LENGTHS:
            xs = random_floats(n)
            for decay in (0.9, 0.5):
                self.assertEqual(main.rnn_style_vector(xs, 1, decay), [main.rnn_style(xs, decay)])

    def test_rnn_style_vector_matches_index_loop_reference(self):
        for width in (2, 3, 8, 17):
            A, b = main.hidden_weights(width, 0.9)
            for n in (0, 1, 2, 33):
                xs = random_floats(n, seed=width)
                got = main.rnn_style_vector(xs, width)
                for g, r in zip(got, reference_vector_rnn(xs, A, b)):
                    self.assertTrue(close(g, r, rel=1e-12), (width, n))

    def test_rnn_style_vector_units_differ(self):
        h = main.rnn_style_vector([1.0] * 20, width=8)
        self.assertEqual(len(set(h)), 8)

    def test_rnn_style_vector_stays_stable_and_reaches_fixed_point(self):
        # On constant input 1 the state converges to h* with h* = A.h* + b.
        A, b = main.hidden_weights(16, 0.9)
        h = main.rnn_style_vector([1.0] * 400, width=16)
        for i in range(16):
            self.assertTrue(close(sum(a * hj for a, hj in zip(A[i], h)) + b[i], h[i], rel=1e-12))
        self.assertLess(max(h), 10.0)          # bounded by max(b) / (1 - decay)

    def test_hidden_weights_are_dense_with_rows_summing_to_decay(self):
        A, b = main.hidden_weights(64, 0.9)
        self.assertTrue(all(a > 0 for row in A for a in row))
        for row in A:
            self.assertAlmostEqual(math.fsum(row), 0.9, places=12)
        self.assertEqual(b[0], 1.0)

    def test_rnn_style_vector_rejects_bad_width_and_input(self):
        for bad in (2.0, "8", True):
            with self.assertRaisesRegex(TypeError, "rnn_style_vector requires width to be an int"):
                main.rnn_style_vector([1.0], width=bad)
        with self.assertRaisesRegex(ValueError, "rnn_style_vector requires width >= 1"):
            main.rnn_style_vector([1.0], width=0)
        with self.assertRaisesRegex(TypeError, "rnn_style_vector requires an iterable of numbers"):
            main.rnn_style_vector(["a"], width=2)


def compose_dense(first, second, tally):
    """(A1, c1) then (A2, c2) is (A2.A1, A2.c1 + c2), with every multiplication counted."""
    (A1, c1), (A2, c2) = first, second
    d = len(c1)

    def mul(a, b):
        tally.append(1)
        return a * b

    A = [[sum(mul(A2[i][k], A1[k][j]) for k in range(d)) for j in range(d)] for i in range(d)]
    c = [sum(mul(A2[i][k], c1[k]) for k in range(d)) + c2[i] for i in range(d)]
    return A, c


class TestCombineCost(unittest.TestCase):
    def random_map(self, d, rng):
        return ([[rng.uniform(-1, 1) for _ in range(d)] for _ in range(d)], [rng.uniform(-1, 1) for _ in range(d)])

    def test_dense_combine_multiplications_are_counted_by_running_one(self):
        rng = random.Random(3)
        for d in (1, 2, 3, 8):
            tally = []
            compose_dense(self.random_map(d, rng), self.random_map(d, rng), tally)
            self.assertEqual(len(tally), main.combine_madds(d)[1], d)
            self.assertEqual(main.combine_madds(d)[0], d * d)
            self.assertEqual(main.combine_madds(d)[2], 2 * d)     # diagonal: A2*A1 and A2*c1 elementwise

    def test_the_combined_map_is_two_steps_in_one(self):
        # Applying the composed map equals applying the two steps one after the other.
        rng = random.Random(4)
        first, second = self.random_map(4, rng), self.random_map(4, rng)
        h = [rng.uniform(-1, 1) for _ in range(4)]

        def apply(m, v):
            A, c = m
            return [sum(a * x for a, x in zip(row, v)) + ci for row, ci in zip(A, c)]

        both = apply(compose_dense(first, second, []), h)
        for got, want in zip(both, apply(second, apply(first, h))):
            self.assertTrue(close(got, want, rel=1e-12))


class TestFitExponent(unittest.TestCase):
    def test_fit_exponent_recovers_known_slopes(self):
        ns = [64 * 2 ** k for k in range(10)]
        for k in (0.0, 0.5, 1.0, 2.0):
            self.assertAlmostEqual(main.fit_exponent(ns, [3e-7 * n ** k for n in ns]), k, places=9)

    def test_fit_exponent_is_least_squares_on_noisy_data(self):
        # Alternating +-10% noise on an n**1 line: the slope stays close to 1.
        ns = [2 ** k for k in range(6, 17)]
        ts = [1e-8 * n * (1.1 if i % 2 else 0.9) for i, n in enumerate(ns)]
        self.assertAlmostEqual(main.fit_exponent(ns, ts), 1.0, delta=0.02)

    def test_fit_exponent_needs_two_sizes(self):
        with self.assertRaises(ValueError):
            main.fit_exponent([100, 100], [1.0, 2.0])
        with self.assertRaises(ValueError):
            main.fit_exponent([1, 2], [1.0])


class TestPlotLogLog(unittest.TestCase):
    def grid(self, lines, height):
        """Return the plotting area (height rows of text after the '|')."""
        return [line.split("|", 1)[1] if "|" in line else "" for line in lines[:height]]

    def test_plot_places_extremes_in_the_corners(self):
        lines = main.plot_loglog({"r": [(10, 1e-3), (1000, 1e-1)], "a": [(10, 1e-5)]},
                                 width=21, height=5)
        rows = self.grid(lines, 5)
        self.assertEqual(rows[0].rstrip(), " " * 20 + "r")      # largest n, largest time
        self.assertEqual(rows[2].rstrip(), "r")                 # 1e-3 is halfway up in log
        self.assertEqual(rows[4].rstrip(), "a")                 # smallest time, bottom-left

    def test_plot_marks_shared_cells(self):
        lines = main.plot_loglog({"r": [(1, 1.0), (4, 4.0)], "a": [(1, 1.0)]}, width=5, height=3)
        self.assertEqual(self.grid(lines, 3)[2].rstrip(), "#")

    def test_plot_rejects_empty_or_non_positive_points(self):
        for series in ({}, {"r": []}, {"r": [(0, 1.0)]}, {"r": [(10, 0.0)]}):
            with self.assertRaisesRegex(ValueError, "plot_loglog requires"):
                main.plot_loglog(series)

    def test_plot_labels_axes(self):
        lines = main.plot_loglog({"r": [(64, 1e-6), (65_536, 1e-3)]}, width=40, height=10)
        text = "\n".join(lines)
        for label in ("1 µs", "1 ms", "64", "65,536", "N (log)"):
            self.assertIn(label, text)
        self.assertLessEqual(max(len(line) for line in lines), 80)


class TestExerciseSections(unittest.TestCase):
    def test_hidden_section_text_and_json(self):
        out, data = run_section(self, "hidden", "--reps", "1")
        self.assertIn("width^2", out)
        rows = data
        self.assertEqual([r["width"] for r in rows], [1, 8, 64])
        self.assertEqual(rows[0]["growth"], 1.0)
        for r in rows:
            self.assertLessEqual({"width", "step_s", "growth", "depth", "spread"}, set(r))
            self.assertEqual(r["depth"], main.HIDDEN_STEPS)
            w = r["width"]
            self.assertEqual((r["madds_per_step"], r["madds_per_combine"], r["madds_per_diagonal_combine"]),
                             (w ** 2, w ** 3 + w ** 2, 2 * w))
        self.assertIn("266,240", out)           # 64^3 + 64^2

    def test_sweep_section_text_and_json(self):
        sizes = "64,128,1024,2048"
        out, data = run_section(self, "sweep", "--sizes", sizes, "--reps", "1")
        self.assertIn("N (log)", out)
        # The format, not the value: a noisy one-sample fit over two sizes may come out negative.
        self.assertRegex(out, r"rnn_style N\^-?\d+\.\d\d, attention_style N\^-?\d+\.\d\d")
        self.assertLessEqual(max(len(line) for line in out.splitlines()), 80)
        self.assertEqual([r["n"] for r in data["rows"]], [64, 128, 1024, 2048])
        self.assertEqual(data["fit_from_n"], 1024)
        self.assertIsInstance(data["rnn_exponent"], float)

    def test_sweep_with_one_size_has_no_exponent(self):
        status, out, _ = run_main("sweep", "--sizes", "500", "--reps", "1")
        self.assertEqual(status, 0)
        self.assertIn("fitted growth: n/a (the fit needs two sizes)", out)

    def test_default_run_has_no_exercise_sections(self):
        _, out, _ = run_main("--sizes", "100", "--reps", "1")
        self.assertEqual(out.count("=== "), 3)
        self.assertNotIn("=== exercise", out)


if __name__ == "__main__":
    unittest.main()
