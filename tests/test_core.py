"""The lesson's functions against independent references: closed forms,
math.fsum, exact integer arithmetic, and a fake clock for the timing."""

import doctest
import itertools
import math
import random
import sys
import unittest
from decimal import Decimal
from fractions import Fraction

import main
from tests.support import AWKWARD_LENGTHS, close, random_floats


def load_tests(loader, tests, ignore):
    """Run main.py's docstring examples as part of the suite (python -OO strips
    the docstrings, and with them the examples: then only the rest runs)."""
    if sys.flags.optimize < 2:
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

    def test_rnn_style_keeps_exact_numbers_exact(self):
        self.assertEqual(main.rnn_style([Fraction(1)] * 3, Fraction(9, 10)), Fraction(271, 100))
        self.assertEqual(main.rnn_style([Decimal(1)] * 3, Decimal("0.9")), Decimal("2.71"))
        self.assertEqual(main.rnn_style([1, 2, 3], 2), 11)          # ints: 1*4 + 2*2 + 3
        self.assertIsInstance(main.rnn_style([1, 2, 3], 2), int)
        self.assertEqual(repr(main.rnn_style([])), "0.0")

    def test_rnn_style_rejects_non_numbers(self):
        for bad in (["a", "b"], 5, [1.0, None]):
            with self.assertRaisesRegex(TypeError, "rnn_style requires"):
                main.rnn_style(bad)
        with self.assertRaisesRegex(TypeError, "rnn_style requires"):
            main.rnn_style([1.0], decay="0.9")


class TestRnnTanh(unittest.TestCase):
    def test_rnn_tanh_is_nested_tanh(self):
        # Written out for three steps, innermost first.
        w, (a, b, c) = 0.7, (0.3, -1.2, 2.0)
        expected = math.tanh(w * math.tanh(w * math.tanh(a) + b) + c)
        self.assertEqual(main.rnn_tanh([a, b, c], w), expected)

    def test_rnn_tanh_with_w_zero_forgets_all_but_the_last_input(self):
        for n in AWKWARD_LENGTHS[1:]:
            xs = random_floats(n)
            self.assertEqual(main.rnn_tanh(xs, 0.0), math.tanh(xs[-1]))

    def test_rnn_tanh_reaches_the_fixed_point_on_constant_input(self):
        # h* = tanh(w h* + x), found by bisection on g(h) = tanh(w h + x) - h, decreasing for w < 1.
        for w, x in ((0.9, 0.5), (0.5, -1.0), (0.99, 0.1)):
            lo, hi = -1.0, 1.0
            for _ in range(200):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if math.tanh(w * mid + x) > mid else (lo, mid)
            self.assertTrue(close(main.rnn_tanh([x] * 5_000, w), lo, rel=1e-9), (w, x))

    def test_rnn_tanh_states_stay_in_the_open_interval(self):
        self.assertLess(abs(main.rnn_tanh([5.0] * 100, 3.0)), 1.0 + 1e-15)
        self.assertEqual(main.rnn_tanh([]), 0.0)


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
    # A fake clock: each timeit sample reads the clock twice, so successive
    # samples last the given seconds, whatever the statement is.
    def fake_clock(self, elapsed):
        readings = itertools.chain.from_iterable((0.0, e) for e in elapsed)
        return lambda: next(readings)

    def test_long_first_calls_are_samples_then_rounds_alternate(self):
        # Both first calls last longer than SAMPLE_SECONDS, so each is one-call
        # samples and the first call is the first sample. Then rnn, attn, rnn, attn.
        samples = [1.0, 2.0, 5.0, 3.0, 4.0, 0.5]
        clock = self.fake_clock(samples)
        self.assertEqual(main.benchmark(10, reps=3, timer=clock), (1.0, 0.5))

    def test_sample_per_call_keeps_every_sample_in_order(self):
        clock = self.fake_clock([1.0, 2.0, 5.0, 3.0, 4.0, 0.5])
        got = main.sample_per_call(["a", "b"], {"a": 0, "b": 0}, reps=3, timer=clock)
        self.assertEqual(got, [[1.0, 5.0, 4.0], [2.0, 3.0, 0.5]])

    def test_short_first_call_sizes_the_samples_and_is_not_one(self):
        # rnn: two calibration calls (the faster, 1e-4 s, sets the loop count), then
        # one sample per round of `loops` calls; attn's first call is a sample.
        loops = main._loop_count(1e-4)
        self.assertEqual(loops, math.ceil(main.SAMPLE_SECONDS / 1e-4))
        clock = self.fake_clock([2e-4, 1e-4, 1.0, 0.005, 2.0, 0.006, 3.0, 0.004])
        rnn, attn = main.sample_per_call(["a", "b"], {"a": 0, "b": 0}, reps=3, timer=clock)
        self.assertEqual(rnn, [0.005 / loops, 0.006 / loops, 0.004 / loops])
        self.assertEqual(attn, [1.0, 2.0, 3.0])

    def test_loop_count_fills_the_target(self):
        # A 1 ms call against a 5 ms target gives 5 calls a sample.
        self.assertEqual(main._loop_count(0.001, target=0.005), 5)
        self.assertEqual(main._loop_count(0.010, target=0.005), 1)
        self.assertEqual(main._loop_count(0.0, target=0.005), 1_000)

    def test_benchmark_real_clock_positive(self):
        rnn_s, attn_s = main.benchmark(100, reps=1)
        self.assertGreater(rnn_s, 0)
        self.assertGreater(attn_s, 0)

    def test_spread_is_worst_over_best(self):
        self.assertEqual(main.spread([2.0, 3.0, 2.5]), 1.5)
        self.assertEqual(main.spread([7.0]), 1.0)


class TestSeedInput(unittest.TestCase):
    def test_seed_input_is_the_seed_scripts_comprehension(self):
        for n in AWKWARD_LENGTHS + (1_000, 10_007):
            self.assertEqual(main.seed_input(n), [0.001 * (i % 17) for i in range(n)], n)

    def test_seed_input_floats_are_distinct_objects(self):
        # As in the seed, every element is its own float: the memory a loop reads.
        xs = main.seed_input(100)
        self.assertEqual(len({id(x) for x in xs}), 100)


class TestFormatting(unittest.TestCase):
    """Each formatter against the value it stands for: the number shown times its
    unit must give back the value to three significant digits."""

    def read_back(self, text, units):
        number, _, unit = text.partition(" ") if " " in text else (text.rstrip("KMGTP"), "", text[-1:])
        return float(number), units[unit], number

    def check_three_digits(self, values, formatter, units):
        for v in values:
            text = formatter(v)
            number, scale, digits = self.read_back(text, units)
            self.assertEqual(len(digits.replace(".", "").lstrip("0")), 3, (v, text))
            self.assertLess(number, 1000, (v, text))
            self.assertLessEqual(abs(number * scale - v), 0.005 * v, (v, text))

    def test_format_seconds_three_significant_digits_across_units(self):
        rng = random.Random(4)
        values = [10 ** rng.uniform(-9, 3) for _ in range(2_000)]
        values += [0.0009995, 0.0009996, 0.00099949, 0.9995, 9.995e-6, 99.95e-3, 999.5e-9]
        units = {"s": 1.0, "ms": 1e-3, "µs": 1e-6, "ns": 1e-9}
        self.check_three_digits(values, main.format_seconds, units)

    def test_format_seconds_edges(self):
        self.assertEqual(main.format_seconds(0.004183), "4.18 ms")
        self.assertEqual(main.format_seconds(4.12e-7), "412 ns")
        self.assertEqual(main.format_seconds(0.0009996), "1.00 ms")     # not "1000 µs"
        self.assertEqual(main.format_seconds(0.0009995), "999 µs")      # stored as 0.00099949999...
        self.assertEqual(main.format_seconds(1e-12), "< 1 ns")
        self.assertEqual(main.format_seconds(0), "< 1 ns")

    def test_format_bytes_three_significant_digits_across_units(self):
        rng = random.Random(5)
        values = [int(2 ** rng.uniform(10, 49.9)) for _ in range(2_000)]      # up to TiB, the largest unit
        values += [1023 * 2**30 + 2**29 + 1, 1000 * 2**20, 1024 * 2**30 - 1]
        units = {"KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}
        self.check_three_digits(values, main.format_bytes, units)

    def test_format_bytes_edges(self):
        self.assertEqual(main.format_bytes(1024 * 2**30), "1.00 TiB")   # not "1024 GiB"
        self.assertEqual(main.format_bytes(1000 * 2**20), "0.977 GiB")
        self.assertEqual(main.format_bytes(32 * 2**30), "32.0 GiB")
        self.assertEqual(main.format_bytes(512), "512 B")

    def test_format_count_three_significant_digits(self):
        rng = random.Random(6)
        values = [int(10 ** rng.uniform(3, 17)) for _ in range(2_000)] + [999_999, 999_500, 10**12 - 1]
        units = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
        self.check_three_digits(values, main._format_count, units)
        self.assertEqual(main._format_count(10**12 - 1), "1.00T")        # not "1000G"
        self.assertEqual(main._format_count(999), "999")


if __name__ == "__main__":
    unittest.main()
