"""Part 4: work and depth counted against their formulas; the work-efficient
scans against itertools.accumulate; steps on P lanes against a simulation and
a search of every schedule."""

import itertools
import json
import math
import operator
import random
import re
import unittest
from unittest import mock

import main
from tests.support import (AWKWARD_LENGTHS, ScanContract, close, matmul2, random_floats,
                           random_matrices)


def evaluate(formula, n):
    """Return a printed formula ("2N - log2 N - 2", "2(N log2 N - N + 1)") at N = n, a
    power of two: read as Python reads it once products are written out."""
    python = formula.replace("log2 N", "k").replace("N", "n")
    python = re.sub(r"(\d|n|k|\))\s*(?=[nk(])", r"\1*", python)    # 2n, n k, 2( are products
    return eval(python, {"n": n, "k": n.bit_length() - 1})


def hillis_steele_combines(n):
    """Count the combines of Hillis-Steele round by round: n - 2**k in round k."""
    total, step = 0, 1
    while step < n:
        total += n - step
        step *= 2
    return total


def exclusive(xs, op=operator.add, identity=0):
    """The exclusive scan from itertools.accumulate: [identity, x0, x0 op x1, ...]."""
    return [identity] + list(itertools.accumulate(xs, op))[:-1] if xs else []


def simulate_reduction(xs, lanes):
    """Return (total, steps, operations): xs summed step by step, each lane adding
    one pair a step, as many pairs as there are lanes and pairs."""
    values, steps, operations = list(xs), 0, 0
    while len(values) > 1:
        pairs = min(lanes, len(values) // 2)
        values = [values[2 * i] + values[2 * i + 1] for i in range(pairs)] + values[2 * pairs:]
        operations += pairs
        steps += 1
    return values[0], steps, operations


def fewest_by_search(n, lanes):
    """Return the fewest steps to sum n values on `lanes` lanes over every schedule:
    a step may add any number of pairs, up to one a lane and half the values."""
    fewest = [0, 0]                             # 0 and 1 values: nothing to add
    for c in range(2, n + 1):
        fewest.append(1 + min(fewest[c - r] for r in range(1, min(lanes, c // 2) + 1)))
    return fewest[n]


class TestCountedWorkAndDepth(unittest.TestCase):
    def test_counted_against_the_formulas(self):
        # (Counted by hand, a multiply-add fused: tests/test_steps.py)
        for k in (1, 2, 5, 7):
            n = 2 ** k
            expected = {
                "rnn_style": (n, n),                    # a multiply-add an input
                "sum()": (n, n),
                "tree_reduce": (n - 1, k),
                "serial_scan": (n - 1, n - 1),
                "parallel_scan": (hillis_steele_combines(n), k),
                "brent_kung_scan": (2 * n - k - 2, 2 * k - 2 if k > 1 else 1),
                "blelloch_scan": (2 * n - 2, 2 * k - 1),
                # a combine: one multiply-add, the decays' product too where counted
                "linear_recurrence_scan": (hillis_steele_combines(n), k),
                "the same, a decay per step": (2 * hillis_steele_combines(n), k),
            }
            for name, (algorithm, _, _) in main.WORK_ALGORITHMS.items():
                self.assertEqual(main.measure_work_depth(algorithm, n), expected[name], (name, n))
        # each formula the section prints, evaluated at N, is the count measured there
        for k in (3, 6, 10):
            n = 2 ** k
            for name, (algorithm, work_formula, depth_formula) in main.WORK_ALGORITHMS.items():
                measured = main.measure_work_depth(algorithm, n)
                self.assertEqual((evaluate(work_formula, n), evaluate(depth_formula, n)),
                                 measured, (name, n))
        for n in AWKWARD_LENGTHS[1:]:
            work, dep = main.measure_work_depth(main.tree_reduce, n)
            self.assertEqual(work, n - 1)
            self.assertEqual(dep, main.depth(n)[1] if n > 1 else 0)

    def test_brent_kung_and_blelloch_are_work_efficient_and_log_depth(self):
        for n in AWKWARD_LENGTHS[2:]:
            work, dep = main.measure_work_depth(main.brent_kung_scan, n)
            self.assertLessEqual(work, 2 * n, n)
            self.assertLessEqual(dep, 2 * main.depth(n)[1], n)
        # Blelloch padded to M, the next power of two: at most 2(M - 1) combines (those of
        # two padding identities alone are not counted), depth at most 2 log2 M.
        for n in AWKWARD_LENGTHS[2:]:
            k = main.depth(n)[1]
            work, dep = main.measure_work_depth(main.blelloch_scan, n)
            self.assertLessEqual(work, 2 * (2 ** k - 1), n)
            self.assertLessEqual(dep, 2 * k, n)


class TestBrentKungScan(ScanContract, unittest.TestCase):
    scan = staticmethod(main.brent_kung_scan)


class TestBlellochAndLanes(unittest.TestCase):
    """Blelloch's exclusive scan: out[i] combines everything before i."""

    def test_blelloch_matches_a_shifted_accumulate_in_order(self):
        self.assertEqual(main.blelloch_scan([3, 1, 7, 0, 4, 1, 6, 3]),
                         [0, 3, 4, 11, 11, 15, 16, 22])
        rng = random.Random(8)
        for n in AWKWARD_LENGTHS:
            xs = [rng.randint(-1000, 1000) for _ in range(n)]
            self.assertEqual(main.blelloch_scan(xs), exclusive(xs), n)
        # Not commutative: a swapped combine would show.
        identity = ((1, 0), (0, 1))
        for n in (0, 1, 2, 3, 5, 8, 13, 16, 17):
            words = [chr(ord("a") + i % 26) + str(i) for i in range(n)]
            self.assertEqual(main.blelloch_scan(words, identity=""),
                             exclusive(words, identity=""), n)
            mats = random_matrices(n, seed=n)
            self.assertEqual(main.blelloch_scan(mats, matmul2, identity),
                             exclusive(mats, matmul2, identity), n)

    def test_floats_close_to_fsum_of_each_prefix(self):
        xs = random_floats(1000, seed=6)
        scale = math.fsum(map(abs, xs))
        out = main.blelloch_scan(xs, identity=0.0)
        for i in (0, 1, 2, 511, 998, 999):
            self.assertTrue(close(out[i], math.fsum(xs[:i]), rel=1e-12, scale=scale), i)
        before = list(xs)
        main.blelloch_scan(xs)
        self.assertEqual(xs, before)                            # its input unchanged

    PAIRS = [(n, p) for n in (1, 2, 3, 5, 7, 8, 9, 16, 17, 100, 1000, 1023, 1024, 1025)
             for p in (1, 2, 3, 4, 7, 8, 64, 1000, 5000)]

    def test_lane_steps_match_a_simulation_and_brents_bound(self):
        # Includes lanes > n, n = 1 and sizes that lanes do not divide.
        for n, p in self.PAIRS:
            xs = random_floats(n, seed=p)
            total, steps, operations = simulate_reduction(xs, p)
            self.assertEqual(main.lane_steps(n, p), max(1, steps), (n, p))
            self.assertEqual(operations, n - 1, (n, p))
            self.assertTrue(close(total, math.fsum(xs), scale=math.fsum(map(abs, xs))), (n, p))
        self.assertEqual(simulate_reduction(list(range(1, 1001)), 7)[0], 500_500)
        # no schedule is faster (n = 1 aside: one step, as depth counts it)
        for n, p in self.PAIRS:
            if n <= 100:
                self.assertEqual(main.lane_steps(n, p), max(1, fewest_by_search(n, p)), (n, p))
        self.assertEqual(main.lane_steps(1, 10_000), main.depth(1)[1])
        self.assertEqual(main.lane_steps(65_536, 10_000), 19)       # 20 in fixed chunks
        for n in (2, 3, 100, 1024, 1025):
            self.assertEqual(main.lane_steps(n, 1), n - 1)
            self.assertEqual(main.lane_steps(n, n), (n - 1).bit_length())
            self.assertEqual(main.lane_steps(n, 10 * n), (n - 1).bit_length())
        # Brent's bound: time <= work / P + depth, with work n - 1 and depth ceil(log2 n).
        for n, p in self.PAIRS:
            self.assertLessEqual(main.lane_steps(n, p), (n - 1) / p + (n - 1).bit_length() + 1,
                                 (n, p))

    def test_the_scan_on_p_lanes_is_its_work_on_one_lane_and_its_rounds_on_n(self):
        for n in AWKWARD_LENGTHS[1:]:
            work, dep = main.measure_work_depth(main.linear_recurrence_scan, n)
            self.assertEqual(main.scan_lane_steps(n, 1), work, n)
            self.assertEqual(main.scan_lane_steps(n, n), dep, n)
            self.assertEqual(main.scan_lane_steps(n, 3), sum(
                -(-(n - 2 ** k) // 3) for k in range(main.depth(n)[1]) if 2 ** k < n), n)

    def test_work_section_text_and_json(self):
        # Sizes 16 and 64: the formulas are checked above.
        result = json.loads(json.dumps(main.work_section((16, 64))))
        data = result["rows"]
        self.assertEqual(result["findings"], {
            "n": 64, "least_work": "serial_scan", "least_depth": "parallel_scan",
            "fewest_lanes": 1, "most_lanes": 1_024, "work_decides": True,
            "depth_decides": True})
        said = " ".join(main.render_work(result).split())
        self.assertIn("More: each algorithm, counted as its code ran: N = 64 work formula", said)
        at = {(r["algorithm"], r["n"]): r for r in data}
        self.assertEqual(at["parallel_scan", 64], {"algorithm": "parallel_scan", "n": 64,
                                                   "work": 321, "depth": 6})
        self.assertEqual((at["blelloch_scan", 64]["work"], at["brent_kung_scan", 64]["work"]),
                         (126, 120))
        self.assertEqual(at["the same, a decay per step", 64]["work"], 2 * 321)
        self.assertEqual(result["lanes"], [
            {"lanes": p, "sum_steps": main.lane_steps(64, p), "loop_steps": 64,
             "scan_steps": main.scan_lane_steps(64, p)} for p in main.WORK_LANES])
        self.assertEqual([r["scan_steps"] for r in result["lanes"]], [321, 41, 6, 6])
        self.assertIn("The lesson says depth, not operation count, decides the time. Here both "
                      "decide: on 1 lane the work, on 1,024 lanes the depth. The recurrence is "
                      "linear, so it can also run as a scan (linear_recurrence_scan, below): 321 "
                      "steps on 1 lane and 6 on 1,024 lanes. Its loop takes 64 on any number of "
                      "lanes.", said)
        # the row of a decay per step: twice the work, said beside its formula
        self.assertIn("A decay per step doubles the work: a combine multiplies two decays too.",
                      said)

    def test_the_answer_is_chosen_from_the_steps(self):
        # each set of lanes flips the answer: (work decides, depth decides) and the words
        cases = [((1, 64), (True, True), "Here both decide: on 1 lane the work, on 64 lanes"),
                 ((1, 2), (True, False), "Here the work decides, from 1 lane to 2 lanes."),
                 ((16, 64), (False, True), "Here the depth decides, from 16 lanes to 64 lanes.")]
        for lanes, decides, words in cases:
            result = main.work_section((64,), lanes=lanes)
            found = result["findings"]
            self.assertEqual((found["work_decides"], found["depth_decides"]), decides, lanes)
            said = " ".join(main.render_work(result).split())
            self.assertIn(words, said)
            # all's summary says the same answer
            self.assertIn("Here " + main.work_verdict(found) + ".", said)
        # a scan as fast as the loop on the fewest lanes: the work does not decide there
        with mock.patch.object(main, "scan_lane_steps", lambda n, lanes: n):
            even = main.work_section((64,), lanes=(1, 64))
        self.assertEqual((even["findings"]["work_decides"], even["findings"]["depth_decides"]),
                         (False, False))
        self.assertIn("Here the scan is never faster nor slower, from 1 lane to 64 lanes.",
                      " ".join(main.render_work(even).split()))


if __name__ == "__main__":
    unittest.main()
