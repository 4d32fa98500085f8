"""Scans and reductions over any associative operator, checked as test_bisect
does: one shared test class run against every implementation, each compared
with a trusted reference (itertools.accumulate, functools.reduce, math.fsum)."""

import functools
import itertools
import math
import operator
import random
import unittest

import main
from tests.support import AWKWARD_LENGTHS, close, random_floats


def matmul2(p, q):
    """2x2 matrix product of ((a, b), (c, d)) tuples: associative, not commutative."""
    (a, b), (c, d) = p
    (e, f), (g, h) = q
    return ((a * e + b * g, a * f + b * h), (c * e + d * g, c * f + d * h))


def random_matrices(n, seed=0):
    rng = random.Random(seed)
    return [((rng.randint(-3, 3), rng.randint(-3, 3)), (rng.randint(-3, 3), rng.randint(-3, 3)))
            for _ in range(n)]


class ScanContract:
    """What every inclusive scan must do; subclasses set `scan`."""

    scan = None

    def run_scan(self, xs, op=operator.add):
        return type(self).scan(xs, op)

    def test_ints_match_accumulate_exactly(self):
        rng = random.Random(3)
        for n in AWKWARD_LENGTHS:
            xs = [rng.randint(-1000, 1000) for _ in range(n)]
            self.assertEqual(self.run_scan(xs), list(itertools.accumulate(xs)), n)

    def test_string_concatenation_keeps_order(self):
        # Not commutative: any swapped operands would show up in the strings.
        for n in AWKWARD_LENGTHS:
            xs = [chr(ord("a") + i % 26) + str(i) for i in range(n)]
            self.assertEqual(self.run_scan(xs), list(itertools.accumulate(xs)), n)

    def test_matrix_products_match_accumulate(self):
        for n in (0, 1, 2, 3, 5, 8, 13, 16, 17):
            xs = random_matrices(n, seed=n)
            self.assertEqual(self.run_scan(xs, matmul2), list(itertools.accumulate(xs, matmul2)), n)

    def test_floats_close_to_fsum_of_each_prefix(self):
        xs = random_floats(1024, seed=5)
        scale = math.fsum(map(abs, xs))
        out = self.run_scan(xs)
        for i in (0, 1, 2, 511, 1022, 1023):
            self.assertTrue(close(out[i], math.fsum(xs[:i + 1]), rel=1e-12, scale=scale), i)

    def test_floats_agree_with_serial_scan(self):
        for n in AWKWARD_LENGTHS:
            xs = random_floats(n, seed=2)
            self.assertEqual(main.count_mismatches(main.serial_scan(xs), self.run_scan(xs)), 0, n)

    def test_does_not_modify_input(self):
        xs = random_floats(100)
        before = list(xs)
        self.run_scan(xs)
        self.assertEqual(xs, before)

    def test_rejects_values_op_cannot_combine(self):
        with self.assertRaisesRegex(TypeError, type(self).scan.__name__ + " requires"):
            self.run_scan([1.0, "b", 2.0])


class TestSerialScan(ScanContract, unittest.TestCase):
    scan = staticmethod(main.serial_scan)


class TestParallelScan(ScanContract, unittest.TestCase):
    scan = staticmethod(main.parallel_scan)

    def test_parallel_scan_runs_ceil_log2_rounds(self):
        for n in AWKWARD_LENGTHS:
            rounds = len(list(main._hillis_steele_offsets(n)))
            self.assertEqual(rounds, 0 if n <= 1 else main.depth(n)[1], n)


class TestBrentKungScan(ScanContract, unittest.TestCase):
    scan = staticmethod(main.brent_kung_scan)


def exclusive(xs, op=operator.add, identity=0):
    """The exclusive scan from itertools.accumulate: [identity, x0, x0 op x1, ...]."""
    return [identity] + list(itertools.accumulate(xs, op))[:-1] if xs else []


class TestBlellochScan(unittest.TestCase):
    """Blelloch's exclusive scan: out[i] combines everything before i."""

    def test_blellochs_own_example(self):
        self.assertEqual(main.blelloch_scan([3, 1, 7, 0, 4, 1, 6, 3]), [0, 3, 4, 11, 11, 15, 16, 22])

    def test_ints_match_shifted_accumulate_at_awkward_lengths(self):
        rng = random.Random(8)
        for n in AWKWARD_LENGTHS:
            xs = [rng.randint(-1000, 1000) for _ in range(n)]
            self.assertEqual(main.blelloch_scan(xs), exclusive(xs), n)

    def test_strings_and_matrices_keep_order(self):
        # Not commutative: a swapped combine would show.
        identity = ((1, 0), (0, 1))
        for n in (0, 1, 2, 3, 5, 8, 13, 16, 17):
            words = [chr(ord("a") + i % 26) + str(i) for i in range(n)]
            self.assertEqual(main.blelloch_scan(words, identity=""), exclusive(words, identity=""), n)
            mats = random_matrices(n, seed=n)
            self.assertEqual(main.blelloch_scan(mats, matmul2, identity), exclusive(mats, matmul2, identity), n)

    def test_floats_close_to_fsum_of_each_prefix(self):
        xs = random_floats(1000, seed=6)
        scale = math.fsum(map(abs, xs))
        out = main.blelloch_scan(xs, identity=0.0)
        for i in (0, 1, 2, 511, 998, 999):
            self.assertTrue(close(out[i], math.fsum(xs[:i]), rel=1e-12, scale=scale), i)

    def test_does_not_modify_input(self):
        xs = random_floats(100)
        before = list(xs)
        main.blelloch_scan(xs)
        self.assertEqual(xs, before)

    def test_rejects_values_op_cannot_combine(self):
        with self.assertRaisesRegex(TypeError, "blelloch_scan requires"):
            main.blelloch_scan([1.0, "b", 2.0])


class TestTreeReduce(unittest.TestCase):
    def test_tree_reduce_matches_functools_reduce(self):
        for n in AWKWARD_LENGTHS[1:]:
            words = [str(i) for i in range(n)]
            self.assertEqual(main.tree_reduce(words), functools.reduce(operator.add, words), n)
            mats = random_matrices(n, seed=n)
            self.assertEqual(main.tree_reduce(mats, matmul2), functools.reduce(matmul2, mats), n)

    def test_tree_reduce_close_to_fsum(self):
        for n in AWKWARD_LENGTHS[1:]:
            xs = random_floats(n, seed=9)
            self.assertTrue(close(main.tree_reduce(xs), math.fsum(xs), scale=math.fsum(map(abs, xs))), n)

    def test_tree_reduce_errors(self):
        with self.assertRaisesRegex(ValueError, "tree_reduce requires at least one value"):
            main.tree_reduce([])
        with self.assertRaisesRegex(TypeError, "tree_reduce requires"):
            main.tree_reduce([1, "a"])


class TestCountMismatches(unittest.TestCase):
    def test_count_mismatches_is_relative_to_the_values(self):
        # 1e6 and 1e6 + 1e-4 differ by 1e-10 relative: not a mismatch; 0.1 apart is.
        self.assertEqual(main.count_mismatches([1e6, 0.0], [1e6 + 1e-4, 0.0]), 0)
        self.assertEqual(main.count_mismatches([1e6, 0.0], [1e6, 0.1]), 1)
        with self.assertRaises(ValueError):
            main.count_mismatches([1.0], [])

    def test_count_mismatches_counts_nan_and_infinity(self):
        # A broken scan that produced NaN or an infinity must not pass as "0 mismatches".
        nan, inf = float("nan"), float("inf")
        self.assertEqual(main.count_mismatches([1.0, 2.0, 3.0], [1.0, nan, 3.0]), 1)
        self.assertEqual(main.count_mismatches([1.0, 2.0, 3.0], [inf, 2.0, -inf]), 2)
        self.assertEqual(main.count_mismatches([1.0, nan, inf], [1.0, nan, inf]), 0)   # the same
        self.assertEqual(main.count_mismatches([1.0, -inf], [1.0, inf]), 1)

    def test_count_mismatches_infinite_expected_does_not_widen_tolerance(self):
        # The tolerance comes from the finite values only (here 1e-9 x 1.0).
        self.assertEqual(main.count_mismatches([1.0, float("inf")], [1.5, float("inf")]), 1)


if __name__ == "__main__":
    unittest.main()
