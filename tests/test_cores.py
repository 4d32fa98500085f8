"""The cores section: every split computation against its serial reference, in
this process and on a real process pool (P = 1, 2, 3, uneven chunks), the
warm-up error of the tanh split, and the line printed where processes cannot
start. The pool is shut down by the class that starts it, whatever happens."""

import json
import math
import unittest
from unittest import mock
from fractions import Fraction

import main
from tests.support import HUGE, close, raising, run_main

# Calls of this part's public functions that raise ValueError (gathered, with
# every other file's, by tests/test_errors.py).
BAD_CALLS = {
    "parallel_mean": [((10, 0), {}), ((HUGE, 2), {}), ((10, HUGE), {})],
    "parallel_final_state": [((10, 0.9, 0), {}), ((HUGE, 0.9, 2), {})],
    "parallel_states": [((10, 0.9, 11), {}), ((HUGE, 0.9, 2), {})],
    "parallel_tanh": [((10, 0.9, 0, 0), {}), ((HUGE, 0.9, 0, 2), {})],
    "cores_section": [((0,), {}), ((HUGE,), {}), ((10, 0), {})],
}

SIZES = (7, 1_000, 1_001)


def serial_states(step, n):
    """Every state of h = step(h, x) over the seed input, written out as a plain loop."""
    states, h = [], 0.0
    for i in range(n):
        h = step(h, 0.001 * (i % 17))
        states.append(h)
    return states


def summaries(states, parts):
    return [(states[a], states[b - 1], math.fsum(states[a:b]))
            for a, b in main.chunk_bounds(len(states), parts)]


class TestChunkBounds(unittest.TestCase):
    def test_chunks_cover_the_range_in_order_and_differ_by_one_at_most(self):
        for n in (1, 2, 7, 100, 1_001):
            for parts in range(1, min(n, 9) + 1):
                bounds = main.chunk_bounds(n, parts)
                self.assertEqual([i for a, b in bounds for i in range(a, b)], list(range(n)))
                lengths = [b - a for a, b in bounds]
                self.assertLessEqual(max(lengths) - min(lengths), 1)

    def test_seed_chunks_are_slices_of_the_seed_input(self):
        xs = main.seed_input(100)
        for a, b in main.chunk_bounds(100, 7):
            self.assertEqual(main._seed_chunk(a, b), xs[a:b])


class SplitContract:
    """Every split against its serial reference; subclasses set `pool`."""

    pool = None

    def test_mean_matches_the_exact_mean(self):
        for n in SIZES:
            exact = sum(Fraction(0.001 * (i % 17)) for i in range(n)) / n
            for p in (1, 2, 3):
                self.assertTrue(close(main.parallel_mean(n, p, self.pool), float(exact),
                                      rel=1e-12), (n, p))

    def test_final_state_matches_rnn_style(self):
        for n in SIZES:
            for decay in (0.9, main.CORES_DECAY):
                want = main.rnn_style(main.seed_input(n), decay)
                for p in (1, 2, 3):
                    got = main.parallel_final_state(n, decay, p, self.pool)
                    self.assertTrue(close(got, want, rel=1e-9), (n, decay, p))

    def test_every_state_matches_the_serial_states(self):
        for n in SIZES:
            states = main.rnn_states(main.seed_input(n), 1 - 1e-7)
            for p in (1, 2, 3):
                got = main.parallel_states(n, 1 - 1e-7, p, self.pool)
                for g, w in zip(got, summaries(states, p)):
                    for a, b in zip(g, w):
                        self.assertTrue(close(a, b, rel=1e-9, scale=1e-3), (n, p))

    def test_tanh_with_a_long_warm_up_matches_the_serial_states(self):
        states = serial_states(lambda h, x: math.tanh(0.9 * h + x), 1_001)
        for p in (1, 2, 3):
            got = main.parallel_tanh(1_001, 0.9, 400, p, self.pool)
            for g, w in zip(got, summaries(states, p)):
                for a, b in zip(g, w):
                    self.assertTrue(close(a, b, rel=1e-12, scale=1e-3), p)

    def test_tanh_without_warm_up_is_wrong_at_each_later_chunk_start(self):
        states = serial_states(lambda h, x: math.tanh(0.9 * h + x), 1_000)
        got = main.parallel_tanh(1_000, 0.9, 0, 2, self.pool)
        # the first chunk starts at h = 0 anyway
        self.assertEqual(got[0][0], states[0])
        self.assertGreater(abs(got[1][0] - states[500]), 1e-3)


class TestSplitsInThisProcess(SplitContract, unittest.TestCase):
    pool = None


@unittest.skipUnless(main._cpu_count() >= 2, "needs two CPUs")
class TestSplitsOnAProcessPool(SplitContract, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.pool = main.WorkerPool(3)

    @classmethod
    def tearDownClass(cls):
        cls.pool.close()


class TestWarmup(unittest.TestCase):
    def test_error_falls_with_the_warm_up_down_to_rounding(self):
        rows = main.warmup_errors(20_000, 0.9, 4, (0, 50, 100, 200, 400))
        errors = [r["max_abs_error"] for r in rows]
        self.assertEqual(errors, sorted(errors, reverse=True))
        self.assertGreater(errors[0], 1e-2)
        self.assertLess(errors[-1], 1e-15)
        # above rounding it follows the product
        for r in rows[:3]:
            self.assertLess(abs(math.log10(r["max_abs_error"] / r["predicted"])), 0.2, r)

    def test_a_warm_up_fails_where_the_step_does_not_contract_from_every_start(self):
        # w = 2 has two stable states: a chunk started from 0 can settle in the wrong
        # one for good. w = 0.9 contracts from every start: the error vanishes.
        warmup = main.warmup_table()
        table = {w["w"]: w["rows"] for w in warmup["weights"]}
        self.assertGreater(table[2.0][-1]["max_abs_error"], 1.0)
        self.assertEqual(table[2.0][-1]["steps"], 2_000)
        self.assertLess(table[0.9][3]["max_abs_error"], 1e-12)         # after 200 steps
        # small along the true states
        self.assertLess(table[2.0][-1]["predicted"], 1e-100)

    def test_a_negative_weight_is_predicted_by_the_product_of_magnitudes(self):
        # The factors w(1 - h^2) are negative for w < 0: the prediction multiplies
        # their sizes, as the error does.
        for r in main.warmup_errors(20_000, -0.9, 2, (0, 50, 100)):
            self.assertGreater(r["predicted"], 0, r)
            self.assertLess(abs(math.log10(r["max_abs_error"] / r["predicted"])), 0.2, r)

    def test_no_warm_up_error_is_the_state_it_forgot(self):
        # Starting from 0 instead of h, one step later the error is exactly what tanh makes of it.
        n = 1_000
        states = serial_states(lambda h, x: math.tanh(0.9 * h + x), n)
        start = main.chunk_bounds(n, 2)[1][0]
        x = 0.001 * (start % 17)
        row = main.warmup_errors(n, 0.9, 2, (0,))[0]
        self.assertEqual(row["max_abs_error"], abs(math.tanh(x) - states[start]))


class TestSplitsGiveTheLoopsAnswer(unittest.TestCase):
    """Where the composed floats overflow, the split answers as the serial loop does."""

    def test_final_state_overflowing_to_infinity(self):
        for decay in (2.0, -2.0, 5, 1.5):
            want = main.rnn_style(main.seed_input(3_000), decay)
            self.assertEqual(main.parallel_final_state(3_000, decay, 2), want, decay)


class TestCoresSection(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # N = 4,000, samples as short as the other sections' and a spin a
        # hundredth as long: the fields, not the times, are tested
        with mock.patch.multiple(main, CORES_SAMPLE_SECONDS=main.SAMPLE_SECONDS,
                     CORES_SPIN=main.CORES_SPIN // 100):
            cls.status, out, cls.err = run_main("cores", "--sizes", "4000", "--reps", "1",
                                                "--json")
        cls.data = json.loads(out)["cores"]

    def test_json_has_the_documented_fields(self):
        self.assertEqual((self.status, self.err), (0, ""))
        d = self.data
        if not d["available"]:
            self.skipTest(d["reason"])
        self.assertLessEqual({"cpus", "start_method", "n", "rows", "warmup", "spin"}, set(d))
        self.assertEqual(d["n"], 4_000)
        self.assertIn(d["start_method"], ("fork", "spawn"))
        for row in d["rows"]:
            self.assertLessEqual({"task", "processes", "seconds", "speedup", "max_rel_error"},
                                 set(row))
            self.assertLess(row["max_rel_error"], 1e-9, row)
            if row["processes"] == 1:
                self.assertEqual(row["speedup"], 1.0)
        self.assertEqual([w["w"] for w in d["warmup"]["weights"]], list(main.WARMUP_WEIGHTS))
        text = main.render_cores(d)
        self.assertLessEqual(max(len(line) for line in text.splitlines()), 79)

    def test_a_run_short_of_cores_is_found_and_said(self):
        if not self.data["available"]:
            self.skipTest(self.data["reason"])
        spin = self.data["spin"]
        self.assertEqual(spin["short_of_cores"], spin["cores_used"] < 0.8 * spin["processes"])
        for short in (False, True):
            data = dict(self.data, spin=dict(spin, short_of_cores=short))
            said = "short of the cores" in " ".join(main.render_cores(data).split())
            self.assertEqual(said, short)

    def test_a_speedup_below_one_is_called_a_slowdown(self):
        self.assertEqual(main._as_fast(0.85), "slower (0.85x the serial speed)")
        self.assertEqual(main._as_fast(1.52), "1.52x as fast")

    def test_processes_that_cannot_start_are_one_line_and_the_run_goes_on(self):
        # Two CPUs as far as the section can tell, so that it tries to start processes.
        with mock.patch.multiple(main, _cpu_count=lambda: 2,
                                 WorkerPool=raising(OSError("no fork here"))):
            status, out, err = run_main("cores", "depth", "--sizes", "1000", "--reps", "1")
        self.assertEqual((status, err), (0, ""))
        self.assertIn("not run: processes cannot start here (no fork here)", out)
        self.assertIn("=== serial-depth comparison ===", out)

    def test_one_value_is_said_in_one_line_and_the_run_goes_on(self):
        status, out, err = run_main("cores", "depth", "--sizes", "1", "--reps", "1")
        self.assertEqual((status, err), (0, ""))
        self.assertIn("not run: N = 1: one value has no split", out)
        self.assertIn("=== serial-depth comparison ===", out)

    def test_one_cpu_is_said_in_one_line(self):
        with mock.patch.multiple(main, _cpu_count=lambda: 1):
            result = main.cores_section(1_000, 1)
        self.assertFalse(result["available"])
        self.assertEqual(main.render_cores(result).splitlines()[1],
                         "not run: 1 CPU available: nothing runs side by side")


if __name__ == "__main__":
    unittest.main()
