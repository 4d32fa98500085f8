"""The cost model: a step is one operation on one lane, a multiply-add one
operation. Counted by hand; the fewest steps on P lanes; and one count of the
recurrence's chain in every section that prints it."""

import math
import unittest
from unittest import mock

import main
from tests.support import AWKWARD_LENGTHS


class TestCounted(unittest.TestCase):
    def test_adds_and_multiplies_by_hand(self):
        # e = (a + b) + (c + d): 3 adds, depth 2; f = e * 2.0: a multiply, depth 3.
        tally = main.Tally()
        a, b, c, d = (main.Counted(v, tally) for v in (1, 2, 3, 4))
        e = (a + b) + (c + d)
        self.assertEqual((e.value, e.depth, tally.work), (10, 2, 3))
        f = e * 2.0
        self.assertEqual((f.value, f.depth, tally.work), (20.0, 3, 4))
        # plain numbers on either side; strings, not commutative, keep their order
        tally = main.Tally()
        x = main.Counted(5, tally)
        self.assertEqual(((1 + x).value, (x + 1).value, (3 * x).depth, tally.work), (6, 6, 1, 3))
        self.assertEqual(("a" + main.Counted("b", tally)).value, "ab")
        self.assertEqual((main.Counted("a", tally) + "b").value, "ab")
        self.assertEqual((main.Counted("a", tally) * 2).value, "aa")

    def test_a_multiply_that_feeds_an_add_is_one_multiply_add(self):
        tally = main.Tally()
        a, b, c = (main.Counted(v, tally) for v in (2, 3, 4))
        madd = a * b + c                        # one operation, one deep
        self.assertEqual((madd.value, madd.depth, tally.work), (10, 1, 1))
        madd = c + a * b                        # the product on either side
        self.assertEqual((madd.value, madd.depth, tally.work), (10, 1, 2))
        # as deep as its product, or one more than its addend
        deep = (a + b) + c                      # depth 2, 2 operations
        madd = a * b + deep
        self.assertEqual((madd.depth, tally.work), (3, 5))
        # two products: one multiply, then a multiply-add
        before = tally.work
        both = a * b + b * c
        self.assertEqual((both.value, both.depth, tally.work - before), (18, 2, 2))
        # a product that feeds a multiply, or nothing, is a multiply of its own
        before = tally.work
        self.assertEqual(((a * b) * c).depth, 2)
        self.assertEqual(tally.work - before, 2)

    def test_the_recurrence_is_one_multiply_add_an_input(self):
        for n in AWKWARD_LENGTHS:
            self.assertEqual(main.measure_work_depth(main.rnn_style, n), (n, n), n)
        # the tanh RNN: a multiply-add, then tanh
        tally = main.Tally()
        states = main.tanh_training([main.Counted(0.1, tally) for _ in range(10)])
        self.assertEqual((states[-1].depth, tally.work), (20, 20))


class TestFewestSteps(unittest.TestCase):
    def test_fewest_steps_is_the_work_shared_out_or_the_depth(self):
        for work, depth, lanes, steps in ((10, 3, 1, 10), (10, 3, 4, 3), (10, 3, 3, 4),
                                          (4_160, 7, 10_000, 7), (10_100, 7, 1_000, 11)):
            self.assertEqual(main.fewest_steps(work, depth, lanes), steps)

    def test_an_update_is_as_deep_as_a_tree_over_its_inputs(self):
        for width in range(1, 300):
            self.assertEqual(main.update_depth(width), math.ceil(math.log2(width + 1)), width)

    def test_the_idle_share_is_the_madds_over_the_lane_steps(self):
        # width 64 on 10,000 lanes: 4,160 madds in at least 7 steps
        self.assertAlmostEqual(main.idle_share(64), 1 - 4_160 / 70_000)
        self.assertAlmostEqual(main.idle_share(1), 1 - 2 / 10_000)
        # madds that outnumber the lanes fill them, as far as the steps go
        self.assertAlmostEqual(main.idle_share(2_048), 1 - 4_196_352 / (420 * 10_000))
        self.assertEqual(main.idle_share(64, lanes=64), 0.0)      # 65 full steps, 7 deep
        for width in range(1, 200):
            self.assertGreater(main.idle_share(width), 0.0, width)   # idle at every width here


class TestTheIdleLanes(unittest.TestCase):
    def test_an_update_takes_its_depth_or_its_madds_shared_out_whichever_is_more(self):
        # times scripted: the steps are what is read, not the clock
        def samples(calls, reps):
            return [[1e-6] * reps for _ in calls]
        with mock.patch.object(main, "sample_per_call", samples):
            rows = {r["width"]: r for r in main.hidden_rows((8, 512), reps=1)}
        self.assertEqual(rows[8]["update_steps"], 4)                   # ceil(log2 9)
        self.assertEqual(rows[512]["update_steps"], -(-(512 * 513) // 10_000))   # 27 > 10
        self.assertAlmostEqual(rows[512]["idle_share"], 1 - 512 * 513 / (27 * 10_000))


class TestOneCountOfSteps(unittest.TestCase):
    """The recurrence h = a*h + x at N is N steps wherever a section counts it, and
    its scan is as deep as its rounds."""

    def test_the_chain_is_n_in_every_section(self):
        for n in (2, 64, 100, 1_024):
            rounds = (n - 1).bit_length()
            self.assertEqual(main.depth(n)[0], n)
            self.assertEqual(main.measure_work_depth(main.linear_recurrence_scan, n)[1], rounds)
            ssm = main.ssm_check(n)
            self.assertEqual((ssm["serial_steps"], ssm["scan_rounds"]), (n, rounds), n)
            work = main.work_section((n,), lanes=(1, n))
            self.assertEqual([r["loop_steps"] for r in work["lanes"]], [n, n], n)
            self.assertEqual(work["lanes"][-1]["scan_steps"], rounds, n)
            at = {(r["algorithm"]): r for r in work["rows"]}
            self.assertEqual(at["rnn_style"]["depth"], n)
            self.assertEqual(at["linear_recurrence_scan"]["depth"], rounds)
            if n <= 256:                        # generating is N^2 work
                rows = {r["model"]: r for r in main.generate_rows((n,))}
                linear = rows["linear, by scan"]
                self.assertEqual((linear["generate_depth"], linear["train_depth"]), (n, rounds))
                self.assertEqual(rows["tanh RNN"]["train_depth"], 2 * n)
                read = sum(main.attention_read_parts(n, 1))
                self.assertEqual(rows["attention"]["train_depth"], read)
                self.assertEqual(rows["attention"]["last_token_depth"], read)
            # the sweep's modelled chain: N on any P, as in `depth`
            self.assertEqual(main.lane_steps(n, n), main.depth(n)[1])

    def test_cost_reads_attention_as_trees_in_the_same_steps(self):
        # scores: a multiply, then log2 d levels of multiply-adds; exp; the weighted sum
        # over n likewise; a last product: 10 + 1 + 18 + 1 at n = 2^17, d = 2^9
        self.assertEqual(main.attention_read_parts(131_072, 512), (10, 1, 18, 1))
        said = " ".join(main.render_cost(main.cost_table()).split())
        self.assertIn("Computed as trees, one query's read over n = 131,072 keys of width "
                      "d = 512 is 30 "
                      "steps deep. That is 10 for q.k, 1 for exp, 18 for the weighted sum (the "
                      "exps' sum runs beside it), 1 to divide.", said)

    def test_depth_and_sweep_agree_at_one(self):
        self.assertEqual(main.depth(1), (1, 1))
        self.assertEqual(main.lane_steps(1, 1), 1)
        self.assertEqual(main.lane_steps(1, 10_000), 1)

    def test_the_scan_sections_say_rounds_are_steps(self):
        said = " ".join(main.render_ssm(main.ssm_check(1_024)).split())
        self.assertIn("in 10 rounds. A round's combines run side by side in one step: 10 steps "
                      "deep, against the loop's 1,024.", said)
        said = " ".join(main.render_scan(main.scan_check(1_024)).split())
        self.assertIn("It takes 10 rounds of side-by-side adds: 10 steps deep. serial_scan "
                      "chains 1,023 adds, starting from x_1.", said)


if __name__ == "__main__":
    unittest.main()
