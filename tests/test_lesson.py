"""The lesson's functions and sections against closed forms, math.fsum,
itertools.accumulate, exact ints and a scripted timer; and main.py's doctests."""

import doctest
import functools
import itertools
import math
import operator
import random
import sys
import unittest
from unittest import mock

import main
from tests.support import (AWKWARD_LENGTHS, INF, NAN, ScanContract, close, matmul2,
                           random_floats, random_matrices)


def load_tests(loader, tests, ignore):
    """Run main.py's docstring examples too (not under python -OO, which strips them)."""
    if sys.flags.optimize < 2:
        tests.addTests(doctest.DocTestSuite(main))
    return tests


class TestLessonFunctions(unittest.TestCase):
    def test_rnn_style_is_the_geometric_series_the_weighted_fsum_and_the_plain_sum(self):
        # h_N on N ones is 1 + d + ... + d**(N-1) = (1 - d**N) / (1 - d).
        for n in AWKWARD_LENGTHS:
            for d in (0.9, 0.5, 0.99):
                self.assertTrue(close(main.rnn_style([1.0] * n, d), (1 - d ** n) / (1 - d)),
                                (n, d))
        # h_N = sum_t d**(N-1-t) * x_t, summed exactly by math.fsum.
        for n in AWKWARD_LENGTHS:
            xs = random_floats(n)
            expected = math.fsum(0.9 ** (n - 1 - t) * x for t, x in enumerate(xs))
            self.assertTrue(close(main.rnn_style(xs), expected, scale=1.0), n)
        self.assertEqual((main.rnn_style([]), main.rnn_style([1, 2, 3], decay=1)), (0.0, 6))

    def test_rnn_tanh_is_nested_tanh_forgets_at_w_0_and_reaches_its_fixed_point(self):
        # Written out for three steps, innermost first.
        w, (a, b, c) = 0.7, (0.3, -1.2, 2.0)
        expected = math.tanh(w * math.tanh(w * math.tanh(a) + b) + c)
        self.assertEqual(main.rnn_tanh([a, b, c], w), expected)
        for n in AWKWARD_LENGTHS[1:]:
            xs = random_floats(n)
            self.assertEqual(main.rnn_tanh(xs, 0.0), math.tanh(xs[-1]))      # w = 0 forgets
        # h* = tanh(w h* + x), found by bisection on g(h) = tanh(w h + x) - h,
        # which decreases for w < 1.
        for w, x in ((0.9, 0.5), (0.5, -1.0), (0.99, 0.1)):
            lo, hi = -1.0, 1.0
            for _ in range(200):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if math.tanh(w * mid + x) > mid else (lo, mid)
            self.assertTrue(close(main.rnn_tanh([x] * 5_000, w), lo, rel=1e-9), (w, x))

    def test_attention_style_is_the_mean_and_depth_the_smallest_power_of_two(self):
        for n in AWKWARD_LENGTHS[1:]:
            xs = random_floats(n)
            self.assertTrue(close(main.attention_style(xs), math.fsum(xs) / n), n)
        xs = random_floats(1024)
        shuffled = xs[:]
        random.Random(1).shuffle(shuffled)
        self.assertTrue(close(main.attention_style(xs), main.attention_style(shuffled)))
        # attention depth is the smallest k >= 1 with 2**k >= n, found by counting.
        for n in list(range(1, 300)) + [1023, 1024, 1025, 262_144]:
            k = 1
            while 2 ** k < n:
                k += 1
            self.assertEqual(main.depth(n), (n, k), n)
        # float log2 rounds 2**60 + 1 down to 60; the exact answer is 61.
        for e in (53, 60, 100, 1000):
            self.assertEqual(main.depth(2 ** e), (2 ** e, e))
            self.assertEqual(main.depth(2 ** e + 1), (2 ** e + 1, e + 1))

    def test_the_first_call_is_a_timing_then_the_functions_take_turns(self):
        class Timer:                    # a stand-in for timeit.Timer: scripted seconds
            def __init__(self, stmt, timer=None):
                self.name = stmt.func.__name__

            def timeit(self, number):
                calls.append((self.name, number))
                return seconds.pop(0) * number

        seconds, calls = [1.0, 2.0, 5.0, 3.0, 4.0, 0.5], []
        with mock.patch.object(main.timeit, "Timer", Timer):
            self.assertEqual(main.benchmark(10, reps=3), (1.0, 0.5))
        self.assertEqual([name for name, _ in calls], ["rnn_style", "attention_style"] * 3)
        self.assertEqual([number for _, number in calls], [1] * 6)   # calls of 1 s each


class TestSerialScan(ScanContract, unittest.TestCase):
    scan = staticmethod(main.serial_scan)


class TestParallelScan(ScanContract, unittest.TestCase):
    scan = staticmethod(main.parallel_scan)

    def test_parallel_scan_runs_ceil_log2_rounds(self):
        for n in AWKWARD_LENGTHS:
            _, rounds = main.measure_work_depth(main.parallel_scan, n)     # depth: its rounds
            self.assertEqual(rounds, 0 if n <= 1 else main.depth(n)[1], n)


class TestTreeReduceAndScanCheck(unittest.TestCase):
    def test_tree_reduce_matches_functools_reduce_and_fsum(self):
        for n in AWKWARD_LENGTHS[1:]:
            words = [str(i) for i in range(n)]
            self.assertEqual(main.tree_reduce(words), functools.reduce(operator.add, words), n)
            mats = random_matrices(n, seed=n)
            self.assertEqual(main.tree_reduce(mats, matmul2), functools.reduce(matmul2, mats), n)
            xs = random_floats(n, seed=9)
            self.assertTrue(close(main.tree_reduce(xs), math.fsum(xs),
                                  scale=math.fsum(map(abs, xs))), n)

    def test_count_mismatches_is_relative_and_counts_nan_and_infinity(self):
        # 1e6 and 1e6 + 1e-4 differ by 1e-10 relative: not a mismatch; 0.1 apart is.
        self.assertEqual(main.count_mismatches([1e6, 0.0], [1e6 + 1e-4, 0.0]), 0)
        self.assertEqual(main.count_mismatches([1e6, 0.0], [1e6, 0.1]), 1)
        # all zeros: no tolerance at all, and equal values still agree
        self.assertEqual(main.count_mismatches([0.0, 0.0], [0.0, 0.0]), 0)
        # a broken scan's NaN or infinity is no pass; an infinity widens no tolerance
        self.assertEqual(main.count_mismatches([1.0, 2.0, 3.0], [1.0, NAN, 3.0]), 1)
        self.assertEqual(main.count_mismatches([1.0, 2.0, 3.0], [INF, 2.0, -INF]), 2)
        self.assertEqual(main.count_mismatches([1.0, NAN, INF], [1.0, NAN, INF]), 2)
        self.assertEqual(main.count_mismatches([1.0, 5.0, INF], [1.5, 5.0, 0.0]), 2)

    def test_the_check_and_its_sentences_follow_the_numbers(self):
        result = main.scan_check(64)
        xs = main.uniform_inputs(64, random.Random(main.SCAN_SEED))
        serial = list(itertools.accumulate(xs))
        self.assertEqual(result["serial_last"], serial[-1])
        self.assertEqual(result["same_last"], result["serial_last"] == result["parallel_last"])
        self.assertEqual((result["serial_steps"], result["parallel_steps"]), (63, 6))
        for same, words in ((True, "agree to the last digit"), (False, "The last digits differ")):
            self.assertIn(words, main.render_scan(dict(result, same_last=same)))
        self.assertIn("With one value there is nothing to combine",
                      main.render_scan(main.scan_check(1)))
        # mismatches counted are said, the positions and the rounds after them
        self.assertIn("On 64 floats, parallel_scan (Hillis-Steele) differs from "
                      "serial_scan's running totals at 3 positions. It takes 6 rounds of "
                      "side-by-side adds: 6 steps deep. serial_scan chains 63 adds, starting "
                      "from x_1.",
                      " ".join(main.render_scan(dict(result, mismatches=3)).split()))


if __name__ == "__main__":
    unittest.main()
