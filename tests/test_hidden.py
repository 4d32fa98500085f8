"""Part 1, the Easy exercise: the vector state against rnn_style and an index
reference, a combine's cost counted by running one, and the section."""

import json
import math
import random
import unittest
from unittest import mock

import main
from tests.support import AWKWARD_LENGTHS, close, random_floats, run_main


def reference_vector_rnn(xs, A, b):
    """The recurrence h = A.h + b*x written with indices."""
    h, units = [0.0] * len(b), range(len(b))
    for x in xs:
        h = [math.fsum(A[i][j] * h[j] for j in units) + b[i] * x for i in units]
    return h


def three_digits(ratio):
    """A ratio to three significant digits, with commas past 999: 1.00x, 378x, 2,080x."""
    rounded = round(ratio, 2 - math.floor(math.log10(ratio)))
    whole = len(str(int(rounded)))                  # digits before the point
    return f"{rounded:.{3 - whole}f}x" if whole <= 3 else f"{int(rounded):,}x"


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


class TestHidden(unittest.TestCase):
    def test_rnn_style_vector_is_rnn_style_at_width_1_and_the_index_reference(self):
        for n in AWKWARD_LENGTHS:
            xs = random_floats(n)
            for decay in (0.9, 0.5):
                self.assertEqual(main.rnn_style_vector(xs, 1, decay), [main.rnn_style(xs, decay)])
        for width in (2, 3, 8, 17):
            A, b = main.hidden_weights(width, 0.9)
            for n in (0, 1, 2, 33):
                xs = random_floats(n, seed=width)
                got = main.rnn_style_vector(xs, width)
                for g, r in zip(got, reference_vector_rnn(xs, A, b)):
                    self.assertTrue(close(g, r, rel=1e-12), (width, n))

    def test_the_state_reaches_its_fixed_point_weights_dense_rows_summing_to_decay(self):
        # On constant input 1 the state converges to h* with h* = A.h* + b.
        A, b = main.hidden_weights(16, 0.9)
        h = main.rnn_style_vector([1.0] * 400, width=16)
        for i in range(16):
            self.assertTrue(close(sum(a * hj for a, hj in zip(A[i], h)) + b[i], h[i], rel=1e-12))
        self.assertLess(max(h), 10.0)          # bounded by max(b) / (1 - decay)
        A, b = main.hidden_weights(64, 0.9)
        self.assertTrue(all(a > 0 for row in A for a in row))
        for row in A:
            self.assertAlmostEqual(math.fsum(row), 0.9, places=12)
        self.assertEqual(b[0], 1.0)

    def random_map(self, d, rng):
        return ([[rng.uniform(-1, 1) for _ in range(d)] for _ in range(d)],
                [rng.uniform(-1, 1) for _ in range(d)])

    def test_a_dense_combines_madds_counted_by_running_it_and_the_section(self):
        rng = random.Random(3)
        for d in (1, 2, 3, 8):
            tally = []
            compose_dense(self.random_map(d, rng), self.random_map(d, rng), tally)
            self.assertEqual(len(tally), main.combine_madds(d)[1], d)
            self.assertEqual(main.combine_madds(d)[0], d * d + d)      # A.h, then b*x
            # diagonal: A2*A1 and A2*c1 elementwise
            self.assertEqual(main.combine_madds(d)[2], 2 * d)
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
        status, out, err = run_main("hidden", "--reps", "1", "--json")
        self.assertEqual((status, err), (0, ""))
        rows = json.loads(out)["hidden"]
        out = main.render_hidden(rows)
        # width 1 does 1 + 1 madds a step, width 64 does 64^2 + 64 = 4,160: 2,080 times as many
        self.assertIn("for 2,080x the multiply-adds", " ".join(out.split()))
        self.assertEqual([r["width"] for r in rows], [1, 8, 64])
        self.assertEqual(rows[0]["growth"], 1.0)
        for r in rows:
            self.assertLessEqual({"width", "step_s", "growth", "depth", "spread"}, set(r))
            self.assertEqual(r["depth"], main.HIDDEN_STEPS)
            w = r["width"]
            self.assertEqual((r["madds_per_step"], r["madds_per_combine"],
                              r["madds_per_diagonal_combine"]),
                             (w ** 2 + w, w ** 3 + w ** 2, 2 * w))
        # the lesson's 10,000 lanes: 64^2 + 64 = 4,160 madds, at least ceil(log2 65) = 7
        # steps deep: at most 4,160 of 70,000 lane-steps busy; 2 of 10,000 at width 1
        self.assertIn(f"An update of width 64 takes at least 7 steps (ceil(log2 65)): each new "
                      f"h_i sums 65 products (64 from A.h, and b*x), two at a time. Its 4,160 "
                      f"madds fill at most {4_160 / 70_000:.0%} of those 7 steps x 10,000 lanes: "
                      f"at least {1 - 4_160 / 70_000:.0%} sit idle. At width 1, "
                      f"{1 - 2 / 10_000:.2%} sit idle: the lesson's 99%.", " ".join(out.split()))
        # width 2,048: 4,196,352 madds fill 420 steps of 10,000 lanes all but 0.09%
        wide = [dict(r, width=2_048, madds_per_step=2_048 ** 2 + 2_048, update_depth=12,
                     update_steps=420, idle_share=main.idle_share(2_048))
                if r["width"] == 64 else r
                for r in rows]
        self.assertIn("takes at least 420 steps for its 4,196,352 madds. Its madds could keep "
                      "nearly every lane busy.",
                      " ".join(main.render_hidden(wide).split()))
        # width 512: 262,656 madds in 27 steps of 10,000 lanes leave 3% idle, said so
        nearly = [dict(r, width=512, madds_per_step=512 ** 2 + 512, update_depth=10,
                       update_steps=27, idle_share=main.idle_share(512))
                  if r["width"] == 64 else r
                  for r in rows]
        self.assertIn(f"at least {1 - 262_656 / 270_000:.0%} sit idle",
                      " ".join(main.render_hidden(nearly).split()))
        # the reading's edge: growth under half the madds' is the interpreter's cost
        self.assertEqual(main.growth_reading(1_040, 2_080, 1, 2),
                         "The time grew about as the madds")
        # time = F + c a madd: 64's over 1's is (F + 4,160c) / (F + 2c), under 1,040
        # exactly when F > 2,080c / 1,039, over 2c: the fixed cost outweighs 2 madds
        for fixed, c in ((2.01, 1.0), (10.0, 1.0)):
            growth = (fixed + 4_160 * c) / (fixed + 2 * c)
            self.assertLess(growth, 1_040)
            self.assertEqual(main.growth_reading(growth, 2_080, 1, 2),
                             "The time grew less, as at width 1 an update's fixed cost "
                             "outweighs its 2 madds")
        self.assertEqual(main.growth_reading((2 + 4_160) / 4, 2_080, 1, 2),   # F = 2c
                         "The time grew about as the madds")
        # the growth column is against the first width, named in its header; "per" is
        # per, "/" divides (as in rnn / attn)
        self.assertIn("width  time per update  vs width 1  madds per update", out)
        eight = main.render_hidden([dict(r, growth=r["growth"] / rows[1]["growth"])
                                    for r in rows[1:]])
        self.assertIn("vs width 8", eight)
        self.assertIn("the state's width: width 64 took", " ".join(eight.split()))
        self.assertIn("width 8's time, for 58x the multiply-adds", " ".join(eight.split()))
        self.assertIn("width 1's time, for 2,080x the multiply-adds", " ".join(out.split()))
        # the question first, answered with the table's last growth
        self.assertTrue(out.splitlines()[1].startswith("The Easy exercise asks how an update's "
                                                       "time grows with the state's width"))
        # the inputs are not a width: 64 is the default's widest state, not its length
        self.assertNotIn(main.HIDDEN_STEPS, main.HIDDEN_WIDTHS)


    def test_a_rows_spread_is_its_own_samples(self):
        # width 1's samples 5x apart, width 8's 2x: each row says its own
        def samples(calls, reps):
            return [[2.0 ** -20, 5 * 2.0 ** -20]] + [[2e-6, 4e-6]] * (len(calls) - 1)
        with mock.patch.object(main, "sample_per_call", samples):
            rows = main.hidden_rows((1, 8), reps=2)
        self.assertEqual([r["spread"] for r in rows], [5.0, 2.0])
        self.assertIn("noisy: at width 1, the slowest sample took 5.00x the fastest",
                      " ".join(main.render_hidden(rows).split()))

    def test_the_widths_are_timed_together_in_turn_width_1_first_as_the_base(self):
        timed = []

        def samples(calls, reps):
            timed.append([len(call.args[2]) for call in calls])     # b: one weight a unit
            return [[1e-6 * len(call.args[2])] * reps for call in calls]
        for asked, rows_of in (((1, 8, 64), [1, 8, 64]), ((100,), [1, 100]),
                               ((64, 8), [1, 8, 64]), ((1,), [1])):
            timed.clear()
            with self.subTest(asked), mock.patch.object(main, "sample_per_call", samples):
                rows = main.hidden_rows(asked, reps=2)
                self.assertEqual(timed, [rows_of])              # one call: the widths in turn
                self.assertEqual([r["width"] for r in rows], rows_of)
                text = " ".join(main.render_hidden(rows).split())
                self.assertIn("vs width 1", text)
        with mock.patch.object(main, "sample_per_call", samples):
            alone = " ".join(main.render_hidden(main.hidden_rows((100,), reps=1)).split())
            single = " ".join(main.render_hidden(main.hidden_rows((1,), reps=1)).split())
        self.assertIn("width: width 100 took 100x width 1's time, for 5,050x the "
                      "multiply-adds", alone)
        self.assertIn("grows with the state's width: with width 1 alone, there is no growth "
                      "to read.", single)

    def test_the_growth_is_the_ratio_of_the_two_times_printed(self):
        # The issue's own numbers: 827 ns and 313 us a step print a growth of 378x
        # (313 / 0.827 = 378.5), whatever width 1 would take if timed again.
        steps = main.HIDDEN_STEPS
        per_step = {1: [827e-9, 900e-9, 2e-6], 8: [3.1e-6, 3.5e-6, 3.2e-6],
                    64: [313e-6, 400e-6, 350e-6]}

        def samples(calls, reps):
            return [[t * steps for t in per_step[len(call.args[2])]] for call in calls]
        with mock.patch.object(main, "sample_per_call", samples):
            rows = main.hidden_rows((1, 8, 64), reps=3)
        text = main.render_hidden(rows)
        printed = {}
        for line in text.splitlines():
            cells = line.split()
            if cells and cells[0] in ("1", "8", "64"):
                printed[int(cells[0])] = cells
        self.assertEqual(printed[64][1:4], ["313", "µs", "378x"])
        self.assertEqual(printed[1][1:4], ["827", "ns", "1.00x"])
        units = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3}
        for w, cells in printed.items():
            ratio = (float(cells[1]) * units[cells[2]]) / (float(printed[1][1]) * 1e-9)
            self.assertEqual(cells[3], three_digits(ratio), w)
            row = next(r for r in rows if r["width"] == w)
            self.assertEqual(row["growth"], main.as_printed(row["step_s"])
                             / main.as_printed(rows[0]["step_s"]))
        self.assertIn("the state's width: width 64 took 378x width 1's time",
                      " ".join(text.split()))
        self.assertEqual(main.SECTIONS["hidden"].headline(rows),
                         "width 64 took 378x width 1's time per update")

    def test_the_growth_column_and_the_reading_follow_scripted_times(self):
        # the step of width w is scripted to take w**power microseconds a step, so the
        # growth is (64 / 1)**power: 1.0 against 2,080x the madds, or 2,080 itself
        for power, says in ((0.5, "The time grew less, as at width 1 an update's fixed cost "
                                  "outweighs its 2 madds"),
                            (math.log(2080, 64), "The time grew about as the madds")):
            def samples(calls, reps):
                times = [1e-6 * len(call.args[2]) ** power * main.HIDDEN_STEPS for call in calls]
                return [[t] * reps for t in times]
            with self.subTest(power=power), mock.patch.object(main, "sample_per_call", samples):
                rows = main.hidden_rows((1, 8, 64), reps=2)
                text = " ".join(main.render_hidden(rows).split())
            self.assertEqual([r["growth"] for r in rows],     # of the times as printed
                             [float(f"{w ** power:.2e}") for w in (1, 8, 64)])
            self.assertIn(says, text)
            # the table's columns in their order: width, time, growth, madds
            line = next(l for l in main.render_hidden(rows).splitlines() if l.startswith("   64"))
            cells = line.split()
            self.assertEqual(cells[0], "64")
            self.assertEqual(" ".join(cells[1:3]), main.format_seconds(64 ** power * 1e-6))
            self.assertEqual(cells[3:5], [three_digits(64 ** power), "4,160"])


if __name__ == "__main__":
    unittest.main()
