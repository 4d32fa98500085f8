"""Part 5: the P-lane machine's step counts against step-by-step
simulations, sum() and math.fsum."""

import math
import operator
import random
import unittest

import main
from tests.support import HUGE, close, random_floats

# Calls of this part's public functions that raise ValueError (gathered, with
# every other file's, by tests/test_errors.py).
BAD_CALLS = {
    "lanes_section": [((), {"sizes": (0,)}), ((), {"lane_counts": (0,)}),
                      ((), {"lane_counts": (HUGE,)})],
}


def simulate_reduction(xs, lanes):
    """Return (total, steps, operations): the chunked reduction of xs run step
    by step, each lane folding its chunk, then the partials summed in pairs."""
    size = -(-len(xs) // lanes)
    chunks = [xs[i:i + size] for i in range(0, len(xs), size)]
    partials, steps, operations = [chunk[0] for chunk in chunks], 0, 0
    for j in range(1, size):                    # fold: lane k adds its chunk's j-th value
        for k, chunk in enumerate(chunks):
            if j < len(chunk):
                partials[k] += chunk[j]
                operations += 1
        steps += 1
    while len(partials) > 1:                    # combine: one level of pairs per step
        operations += len(partials) // 2
        partials = main._pairwise(partials, operator.add)
        steps += 1
    return partials[0], steps, operations


def rnn_step_inputs(width, batch, seed):
    """Return fixed-seed random (W, b, hs, xs) for one dense step of a batch."""
    rng = random.Random(seed)
    W = [main.uniform_inputs(width, rng) for _ in range(width)]
    b = main.uniform_inputs(width, rng)
    hs = [main.uniform_inputs(width, rng) for _ in range(batch)]
    return W, b, hs, main.uniform_inputs(batch, rng)


def simulate_rnn_step(width, batch, lanes, seed=0):
    """Return (steps, operations, states): one dense step h' = W.h + b*x for
    `batch` random states, run on `lanes` lanes step by step."""
    W, b, hs, xs = rnn_step_inputs(width, batch, seed)
    products = [((s, i), W[i][j], hs[s][j]) for s in range(batch) for i in range(width)
                for j in range(width)]
    products += [((s, i), b[i], xs[s]) for s in range(batch) for i in range(width)]
    terms = {(s, i): [] for s in range(batch) for i in range(width)}
    steps = 0
    for start in range(0, len(products), lanes):
        for key, factor, value in products[start:start + lanes]:
            terms[key].append(factor * value)
        steps += 1
    operations = len(products)
    while len(terms[0, 0]) > 1:                 # every unit has as many terms left
        pairs = [(key, k) for key, t in terms.items() for k in range(0, len(t) - 1, 2)]
        sums = {key: [] for key in terms}
        for start in range(0, len(pairs), lanes):
            for key, k in pairs[start:start + lanes]:
                sums[key].append(terms[key][k] + terms[key][k + 1])
            steps += 1
        operations += len(pairs)
        terms = {key: sums[key] + terms[key][len(sums[key]) * 2:] for key in terms}
    return steps, operations, [[terms[s, i][0] for i in range(width)] for s in range(batch)]


class TestLaneSteps(unittest.TestCase):
    PAIRS = [(n, p) for n in (1, 2, 3, 5, 7, 8, 9, 16, 17, 100, 1000, 1023, 1024, 1025)
             for p in (1, 2, 3, 4, 7, 8, 64, 1000, 5000)]

    def test_formula_matches_step_by_step_simulation(self):
        # Includes lanes > n, n = 1 and sizes that lanes do not divide.
        for n, p in self.PAIRS:
            xs = random_floats(n, seed=p)
            total, steps, operations = simulate_reduction(xs, p)
            self.assertEqual(main.lane_steps(n, p), (n, steps), (n, p))
            self.assertEqual(operations, n - 1, (n, p))
            self.assertTrue(close(total, math.fsum(xs), scale=math.fsum(map(abs, xs))), (n, p))

    def test_simulation_sums_integers_exactly(self):
        xs = list(range(1, 1001))
        self.assertEqual(simulate_reduction(xs, 7)[0], sum(xs))

    def test_one_lane_is_serial_and_many_lanes_are_log_depth(self):
        for n in (1, 2, 3, 100, 1024, 1025):
            self.assertEqual(main.lane_steps(n, 1), (n, n - 1))
            self.assertEqual(main.lane_steps(n, n)[1], (n - 1).bit_length())
            self.assertEqual(main.lane_steps(n, 10 * n)[1], (n - 1).bit_length())

    def test_brents_bound(self):
        # time <= work / P + depth, with work n - 1 and depth ceil(log2 n).
        for n, p in self.PAIRS:
            self.assertLessEqual(main.lane_steps(n, p)[1], (n - 1) / p + (n - 1).bit_length() + 1,
                                 (n, p))

    def test_utilization_of_the_recurrence_is_one_over_p(self):
        rows = main.lanes_rows((1_048_576,), (1, 16_384))
        self.assertEqual(rows[0]["recurrence_utilization"], 1.0)
        self.assertEqual(rows[1]["recurrence_utilization"], 1 / 16_384)
        self.assertLess(rows[1]["recurrence_utilization"], 0.0001)      # under 0.01%
        # chunks of 64, 16,384 partials
        self.assertEqual(rows[1]["reduction_steps"], 63 + 14)


class TestRnnStepOnLanes(unittest.TestCase):
    def test_formula_matches_step_by_step_simulation(self):
        # Widths with odd and even term counts, batches, lanes that do and do not
        # divide; the states against the step written as index loops, summed by fsum.
        for width in (1, 2, 3, 4, 5, 7, 8):
            for batch in (1, 2, 3, 5):
                W, b, hs, xs = rnn_step_inputs(width, batch, width)
                reference = [[math.fsum([*(W[i][j] * h[j] for j in range(width)), b[i] * x])
                              for i in range(width)] for h, x in zip(hs, xs)]
                for lanes in (1, 2, 3, 4, 7, 64, 1000):
                    steps, operations, states = simulate_rnn_step(width, batch, lanes, width)
                    self.assertEqual(main.rnn_step_steps(width, batch, lanes), (steps, operations),
                                     (width, batch, lanes))
                    for got, want in zip(states, reference):
                        for g, w in zip(got, want):
                            self.assertTrue(close(g, w, rel=1e-12, scale=1.0),
                                            (width, batch, lanes))

    def test_operations_and_one_lane(self):
        for width in (1, 5, 64, 512):
            for batch in (1, 32):
                steps, operations = main.rnn_step_steps(width, batch, 1)
                self.assertEqual(operations, batch * width * (2 * width + 1))
                self.assertEqual(steps, operations)                  # one lane: one op a step

    def test_enough_lanes_give_one_step_per_level(self):
        # Products in one step, then ceil(log2(width + 1)) levels of additions.
        for width in (1, 2, 3, 64, 512):
            steps, _ = main.rnn_step_steps(width, 1, 10**9)
            # ceil(log2(w + 1)) == w.bit_length()
            self.assertEqual(steps, 1 + (width).bit_length(), width)

    def test_width_512_keeps_most_of_16384_lanes_busy(self):
        steps, operations = main.rnn_step_steps(512, 1, 16_384)
        self.assertEqual((steps, operations), (38, 524_800))
        self.assertGreater(operations / (steps * 16_384), 0.8)


class TestLanesAndCostSections(unittest.TestCase):
    def test_lanes_section_text_and_json(self):
        data = main.lanes_section((1_000,))
        self.assertIn("0.00610%", main.render_lanes(data))
        rows = data["rows"]
        self.assertEqual([r["lanes"] for r in rows], list(main.LANES))
        self.assertLessEqual({"n", "lanes", "recurrence_steps", "reduction_steps",
                              "reduction_speedup", "recurrence_utilization",
                              "reduction_utilization"}, set(rows[0]))
        self.assertEqual(rows[-1]["reduction_steps"], 10)       # 16,384 lanes >= 1,000 values
        rnn = data["rnn_lanes"]
        self.assertEqual(len(rnn), len(main.RNN_WIDTHS) * len(main.RNN_BATCHES) * len(main.LANES))
        self.assertEqual(set(rnn[0]), {"width", "batch", "lanes", "steps", "operations", "busy"})
        for r in rnn:
            self.assertEqual((r["steps"], r["operations"]),
                             main.rnn_step_steps(r["width"], r["batch"], r["lanes"]))
            self.assertAlmostEqual(r["busy"], r["operations"] / (r["steps"] * r["lanes"]))


if __name__ == "__main__":
    unittest.main()
