"""Part 12: the work and depth of training on a known sequence and of
generating, against the counts worked out by hand for each model."""

import math
import unittest

import main
from tests.support import HUGE

# Calls of this part's public functions that raise ValueError (gathered, with
# every other file's, by tests/test_errors.py).
BAD_CALLS = {
    "teacher_rows": [(((1,),), {}), (((HUGE,),), {}), (((),), {})],
}


_ROWS = {}


def rows_for(n):
    """Return teacher_rows at n by model; every size the tests use is computed once."""
    if not _ROWS:
        for r in main.teacher_rows(sizes=(2, 5, 8, 16, 32, 64)):
            _ROWS.setdefault(r["n"], {})[r["model"]] = r
    return _ROWS[n]


class TestTraining(unittest.TestCase):
    def test_attention_is_every_position_at_once(self):
        # A position over m keys: q*k and exp (depth 2), a tree of m (ceil(log2 m)),
        # then 1/total beside the weighted tree, and one multiply: 4 + ceil(log2 N).
        # Work per position: 5m (m products, m exps, m - 1 adds, 1/total, m products,
        # m - 1 adds, one multiply), so 5N(N + 1)/2 in all.
        for n in (2, 5, 16, 64):
            r = rows_for(n)["attention"]
            self.assertEqual(r["train_depth"], 4 + math.ceil(math.log2(n)), n)
            self.assertEqual(r["train_work"], 5 * n * (n + 1) // 2, n)

    def test_the_tanh_rnn_is_a_chain_even_with_every_input_known(self):
        # w*h, + x, tanh per step; the first w*h is w*0.0, not counted: 3N - 1.
        for n in (2, 16, 64):
            r = rows_for(n)["tanh RNN"]
            self.assertEqual((r["train_depth"], r["train_work"]), (3 * n - 1, 3 * n - 1))

    def test_the_scan_gives_the_linear_recurrence_log_depth(self):
        for k in (3, 5, 6):
            n = 2 ** k
            r = rows_for(n)["linear, by scan"]
            self.assertEqual(r["train_depth"], 2 * k)
            self.assertEqual(r["train_work"], 2 * (n * k - n + 1))     # part 4's formula


class TestGenerating(unittest.TestCase):
    def test_every_model_goes_one_token_at_a_time(self):
        n = 16
        rows = rows_for(n)
        self.assertEqual(rows["tanh RNN"]["generate_depth"], 3 * n - 1)
        self.assertEqual(rows["linear, by scan"]["generate_depth"], 2 * n - 1)
        # Each token needs the one before, then its own depth, 4 + ceil(log2 t): the
        # total grows as N log N, not as N.
        self.assertEqual(rows["attention"]["generate_depth"],
                         sum(4 + math.ceil(math.log2(t)) for t in range(1, n + 1)))
        for r in rows.values():
            self.assertGreaterEqual(r["generate_depth"], n, r["model"])

    def test_attentions_work_per_token_grows_with_the_tokens_behind_it(self):
        small, large = rows_for(8), rows_for(32)
        for model in ("tanh RNN", "linear, by scan"):
            self.assertLess(abs(large[model]["generate_work"] / 32
                                - small[model]["generate_work"] / 8), 0.2, model)
        self.assertGreater(large["attention"]["generate_work"] / 32,
                           3 * small["attention"]["generate_work"] / 8)

    def test_renders_within_79_columns(self):
        text = main.render_teacher(main.teacher_rows(sizes=(8, 16)))
        self.assertLessEqual(max(map(len, text.splitlines())), 79)
        text = " ".join(text.split())
        self.assertIn("depth 8 and 8 at N = 16, against the tanh RNN's 47", text)


    def test_the_default_sizes_fit_79_columns(self):
        # The section's own sizes with numbers as wide as theirs, written out.
        rows = [{"model": m, "n": n, "train_work": 2_620_000, "train_depth": 3_071,
                 "generate_work": 2_623_488, "generate_depth": 13_313}
                for m in main.TEACHER_MODELS for n in main.TEACHER_SIZES]
        self.assertLessEqual(max(map(len, main.render_teacher(rows).splitlines())), 79)

if __name__ == "__main__":
    unittest.main()
