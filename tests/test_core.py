"""The lesson's functions against independent references: closed forms,
math.fsum, exact integer arithmetic, and a fake clock for the timing."""

import doctest
import itertools
import math
import random
import re
import unittest

import main
from tests.support import AWKWARD_LENGTHS, close, random_floats


def load_tests(loader, tests, ignore):
    """Run main.py's docstring examples as part of the suite."""
    tests.addTests(doctest.DocTestSuite(main))
    return tests


class TestRnnStyle(unittest.TestCase):
    def test_rnn_style_ones_is_geometric_series(self):
        # h_N on N ones is 1 + d + ... + d**(N-1) = (1 - d**N) / (1 - d).
        for n in AWKWARD_LENGTHS:
            for d in (0.9, 0.5, 0.99):
                self.assertTrue(close(main.rnn_style([1.0] * n, d), (1 - d ** n) / (1 - d)), (n, d))

    def test_rnn_style_matches_weighted_fsum(self):
        # h_N = sum_t d**(N-1-t) * x_t, summed exactly by math.fsum.
        for n in AWKWARD_LENGTHS:
            xs = random_floats(n)
            expected = math.fsum(0.9 ** (n - 1 - t) * x for t, x in enumerate(xs))
            self.assertTrue(close(main.rnn_style(xs), expected, scale=1.0), n)

    def test_rnn_style_empty_is_zero(self):
        self.assertEqual(main.rnn_style([]), 0.0)

    def test_rnn_style_decay_one_is_plain_sum(self):
        self.assertEqual(main.rnn_style([1, 2, 3], decay=1), 6)

    def test_rnn_style_rejects_non_numbers(self):
        for bad in (["a", "b"], 5, [1.0, None]):
            with self.assertRaisesRegex(TypeError, "rnn_style requires"):
                main.rnn_style(bad)
        with self.assertRaisesRegex(TypeError, "rnn_style requires"):
            main.rnn_style([1.0], decay="0.9")


class TestAttentionStyle(unittest.TestCase):
    def test_attention_style_is_the_mean(self):
        for n in AWKWARD_LENGTHS[1:]:
            xs = random_floats(n)
            self.assertTrue(close(main.attention_style(xs), math.fsum(xs) / n), n)

    def test_attention_style_is_order_independent(self):
        xs = random_floats(1024)
        shuffled = xs[:]
        random.Random(1).shuffle(shuffled)
        self.assertTrue(close(main.attention_style(xs), main.attention_style(shuffled)))

    def test_attention_style_empty_raises_value_error(self):
        with self.assertRaisesRegex(ValueError, "attention_style requires at least one value"):
            main.attention_style([])

    def test_attention_style_rejects_non_sequences(self):
        for bad in (iter([1.0]), 3, ["x"]):
            with self.assertRaisesRegex(TypeError, "attention_style requires"):
                main.attention_style(bad)


class TestDepth(unittest.TestCase):
    def test_depth_matches_smallest_power_of_two(self):
        # attention depth is the smallest k >= 1 with 2**k >= n, found by counting.
        for n in list(range(1, 300)) + [1023, 1024, 1025, 262_144]:
            k = 1
            while 2 ** k < n:
                k += 1
            self.assertEqual(main.depth(n), (n, k), n)

    def test_depth_exact_above_float_precision(self):
        # float log2 rounds 2**60 + 1 down to 60; the exact answer is 61.
        for e in (53, 60, 100, 1000):
            self.assertEqual(main.depth(2 ** e), (2 ** e, e))
            self.assertEqual(main.depth(2 ** e + 1), (2 ** e + 1, e + 1))

    def test_depth_rejects_bad_n(self):
        for bad in (1.0, "8", True, None):
            with self.assertRaisesRegex(TypeError, "depth requires n to be an int"):
                main.depth(bad)
        for bad in (0, -5):
            with self.assertRaisesRegex(ValueError, "depth requires n >= 1"):
                main.depth(bad)


class TestBenchmark(unittest.TestCase):
    def fake_clock(self, elapsed):
        """Return a timer whose successive samples last the given seconds."""
        readings = itertools.chain.from_iterable((0.0, e) for e in elapsed)
        return lambda: next(readings)

    def test_benchmark_interleaves_and_keeps_the_minimum(self):
        # Calibration: two one-call samples per function, each longer than the
        # target, so each sample is one call. Then rnn, attn, rnn, attn, rnn, attn.
        calibration = [1.0, 1.0, 1.0, 1.0]
        samples = [5.0, 2.0, 4.0, 3.0, 6.0, 1.0]
        clock = self.fake_clock(calibration + samples)
        self.assertEqual(main.benchmark(10, reps=3, timer=clock), (4.0, 1.0))

    def test_loop_count_fills_the_target(self):
        # A one-call sample of 1 ms against a 5 ms target gives 5 calls a sample.
        self.assertEqual(main._loop_count(_FixedTimer(0.001), target=0.005), 5)
        self.assertEqual(main._loop_count(_FixedTimer(0.010), target=0.005), 1)

    def test_benchmark_divides_by_loop_count(self):
        # One-call samples of 0.1 ms; then one sample per function of 1 ms and 2 ms.
        loops = main._loop_count(_FixedTimer(0.0001))
        clock = self.fake_clock([0.0001] * 4 + [0.001, 0.002])
        rnn_s, attn_s = main.benchmark(10, reps=1, timer=clock)
        self.assertAlmostEqual(rnn_s, 0.001 / loops)
        self.assertAlmostEqual(attn_s, 0.002 / loops)

    def test_benchmark_real_clock_positive(self):
        rnn_s, attn_s = main.benchmark(100, reps=1)
        self.assertGreater(rnn_s, 0)
        self.assertGreater(attn_s, 0)

    def test_benchmark_rejects_bad_arguments(self):
        for kwargs in ({"n": 1.5}, {"n": True}, {"n": 10, "reps": "3"}, {"n": 10, "reps": False}):
            with self.assertRaisesRegex(TypeError, "benchmark requires"):
                main.benchmark(**kwargs)
        for kwargs in ({"n": 0}, {"n": 10, "reps": 0}):
            with self.assertRaisesRegex(ValueError, "benchmark requires"):
                main.benchmark(**kwargs)


class _FixedTimer:
    """A stand-in for timeit.Timer whose every sample lasts `seconds`."""

    def __init__(self, seconds):
        self.seconds = seconds

    def timeit(self, number):
        return self.seconds


class TestFormatSeconds(unittest.TestCase):
    def test_format_seconds_never_prints_zero(self):
        for s in (1e-12, 3e-9, 4.2e-7, 1.234e-5, 0.00099, 0.5, 12.0, 250.0):
            number = re.search(r"[0-9.]+", main.format_seconds(s)).group()
            self.assertGreaterEqual(float(number), 1.0, s)

    def test_format_seconds_keeps_three_significant_digits(self):
        self.assertEqual(main.format_seconds(0.004183), "4.18 ms")
        self.assertEqual(main.format_seconds(0.0412), "41.2 ms")
        self.assertEqual(main.format_seconds(4.12e-7), "412 ns")
        self.assertEqual(main.format_seconds(1e-12), "< 1 ns")


if __name__ == "__main__":
    unittest.main()
