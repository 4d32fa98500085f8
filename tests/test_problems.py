"""The lesson's other two problems and its streaming row, measured: gradients
against finite differences and closed forms, recall against a direct
re-computation and the normal prediction, memory against the formulas."""

import json
import math
import operator
import random
import unittest

import main
from tests.support import close, random_floats, run_section


def central_difference(f, xs, index, eps=1e-6):
    """(f(xs with xs[index] + eps) - f(xs with xs[index] - eps)) / (2 eps)."""
    up, down = list(xs), list(xs)
    up[index] += eps
    down[index] -= eps
    return (f(up) - f(down)) / (2 * eps)


class TestInputGradients(unittest.TestCase):
    def test_match_central_differences_of_rnn_tanh(self):
        # A difference with eps = 1e-6 carries a rounding error near 1e-16 / 1e-6 = 1e-10:
        # good to 1e-5 relative down to gradients of 1e-4; below, rounding wins.
        for w in (0.5, 0.9, 2.0):
            xs = random_floats(60, seed=int(10 * w))
            grads = main.input_gradients(xs, w)
            for k in range(len(xs)):
                if grads[k] < 1e-4:
                    break
                numeric = central_difference(lambda v: main.rnn_tanh(v, w), xs, len(xs) - 1 - k)
                self.assertTrue(close(grads[k], numeric, rel=1e-5, scale=0.0), (w, k, grads[k], numeric))

    def test_two_steps_by_hand(self):
        # h1 = tanh(x1), h2 = tanh(w h1 + x2): dh2/dx2 = 1 - h2^2, dh2/dx1 = (1 - h2^2) w (1 - h1^2).
        w, x1, x2 = 0.7, 0.3, -0.4
        h1 = math.tanh(x1)
        h2 = math.tanh(w * h1 + x2)
        g = main.input_gradients([x1, x2], w)
        self.assertTrue(close(g[0], 1 - h2 * h2, rel=1e-15))
        self.assertTrue(close(g[1], (1 - h2 * h2) * w * (1 - h1 * h1), rel=1e-15))

    def test_linear_recurrence_gradient_is_decay_to_the_k(self):
        # rnn_style is linear in its inputs: a finite difference is exact up to rounding.
        xs = random_floats(40, seed=1)
        for k in (0, 1, 5, 20, 39):
            numeric = central_difference(main.rnn_style, xs, len(xs) - 1 - k, eps=1e-3)
            self.assertTrue(close(numeric, 0.9 ** k, rel=1e-9, scale=0.0), k)

    def test_empty_and_zero_weight(self):
        self.assertEqual(main.input_gradients([]), [])
        g = main.input_gradients([0.2, -0.5, 0.1], 0.0)          # w = 0: only the last input reaches h_N
        self.assertEqual(g[1:], [0.0, 0.0])


class TestAttentionWeight(unittest.TestCase):
    def test_closed_form_is_the_softmax(self):
        for n in (2, 10, 200, 5_000):
            scores = [0.0] * (n - 1) + [5.0]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            self.assertTrue(close(main.attention_weight(n), exps[-1] / math.fsum(exps), rel=1e-12), n)
        self.assertAlmostEqual(main.attention_weight(200), 0.4272, places=4)
        self.assertEqual(main.attention_weight(1), 1.0)


class TestGradientSection(unittest.TestCase):
    def test_gradient_section_text_and_json(self):
        out, data = run_section(self, "gradient")
        rows = {r["k"]: r for r in data["rows"]}
        self.assertEqual(sorted(rows), list(main.GRADIENT_DISTANCES))
        self.assertEqual(set(rows[1]), {"k", "linear", "tanh", "tanh_wide", "gated", "attention"})
        rng = random.Random(data["seed"])
        xs = [rng.uniform(-1.0, 1.0) for _ in range(data["n"])]
        for k, r in rows.items():
            self.assertEqual(r["linear"], 0.9 ** k)
            self.assertEqual(r["gated"], data["forget_gate"] ** k)
            self.assertEqual(r["attention"], main.attention_weight(data["n"]))
            self.assertEqual(r["tanh"], main.input_gradients(xs, data["w"])[k])
        self.assertLess(rows[50]["tanh"], 1e-10)                 # the lesson's 50 tokens back
        self.assertGreater(rows[100]["gated"], 0.3)
        self.assertIn("3.3e-11", out)
        self.assertIn("0.43 of the", out)


def recall_reference(n, d, rng):
    """recall_draw written out with index loops, and the cache as a true argmax of dot products."""
    keys = [rng.getrandbits(d) for _ in range(n)]
    values = [rng.choice((-1, 1)) for _ in range(n)]
    vectors = [[1 if (key >> t) & 1 else -1 for t in range(d)] for key in keys]
    state = [0] * d
    for i in range(n):
        for t in range(d):
            state[t] += values[i] * vectors[i][t]
    state_right = cache_right = 0
    for j in range(n):
        read = sum(state[t] * vectors[j][t] for t in range(d))
        state_right += read * values[j] > 0
        dots = [sum(map(operator.mul, vectors[i], vectors[j])) for i in range(n)]
        cache_right += values[dots.index(max(dots))] == values[j]
    return state_right, cache_right


class TestCapacity(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rows = main.capacity_rows()

    def test_recall_draw_matches_a_direct_recomputation(self):
        for n, d in ((1, 8), (5, 8), (40, 16), (100, 64)):
            self.assertEqual(main.recall_draw(n, d, random.Random(n)), recall_reference(n, d, random.Random(n)))

    def test_measured_recall_follows_the_normal_prediction(self):
        # About 2,400 reads a row: a standard error of at most sqrt(0.25 / 2400) = 0.010, so
        # 0.035 is three and a half of them; the normal approximation adds under 0.01 here.
        for r in self.rows:
            self.assertLess(abs(r["state_recall"] - r["predicted_recall"]), 0.035, r)
            self.assertEqual(r["cache_recall"], 1.0)
            self.assertGreaterEqual(r["n"] * r["draws"], main.CAPACITY_READS)

    def test_recall_falls_toward_a_coin_flip_and_memory_follows_n(self):
        recalls = [r["state_recall"] for r in self.rows]
        self.assertEqual(recalls, sorted(recalls, reverse=True))
        self.assertGreater(recalls[0], 0.95)
        self.assertLess(recalls[-1], 0.7)
        for r in self.rows:
            self.assertEqual((r["state_numbers"], r["cache_numbers"]), (r["d"], r["n"] * (r["d"] + 1)))

    def test_predicted_recall_closed_form(self):
        self.assertTrue(close(main.predicted_recall(65, 64), 0.5 * (1 + math.erf(1 / math.sqrt(2))), rel=1e-15))
        self.assertEqual(main.predicted_recall(1, 64), 1.0)
        self.assertLess(main.predicted_recall(10**6, 64), 0.51)

    def test_capacity_renders_from_its_json(self):
        data = json.loads(json.dumps(self.rows))
        out = main.render_capacity(data)
        self.assertIn("toward a coin flip", " ".join(out.split()))
        self.assertLessEqual(max(len(line) for line in out.splitlines()), 79)


class TestStream(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.result = main.stream_rows(tokens=(16, 64, 256), reps=1)

    def test_cache_grows_linearly_and_the_state_stays(self):
        rows = self.result["measured"]
        per_token = [r["cache_bytes"] / r["tokens"] for r in rows]
        self.assertLess(max(per_token) / min(per_token), 1.05)          # linear in T
        self.assertEqual(len({r["state_bytes"] for r in rows}), 1)      # constant
        # A key and a value of 64 floats: at least 2 * 64 float objects of 24 bytes.
        self.assertGreater(per_token[-1], 2 * 64 * 24)

    def test_attention_step_reads_the_cache(self):
        # One read against a direct softmax-weighted sum.
        xs, _ = main._stream_inputs(5, 4, 0)
        cache = main._kv_pairs(xs)
        keys, values = [k for k, _ in cache], [v for _, v in cache]
        q = xs[-1]
        scores = [sum(a * b for a, b in zip(q, k)) / 2 for k in keys]
        weights = [math.exp(s) / math.fsum(math.exp(t) for t in scores) for s in scores]
        expected = [math.fsum(w * v[i] for w, v in zip(weights, values)) for i in range(4)]
        for got, want in zip(main._attend(q, keys, values), expected):
            self.assertTrue(close(got, want, rel=1e-12))

    def test_model_scale_figures(self):
        self.assertEqual(main.kv_cache_bytes(1, 32, 32, 128), 512 * 2**10)
        self.assertEqual(main.kv_cache_bytes(1, 32, 8, 128), 128 * 2**10)
        self.assertEqual(main.kv_cache_bytes(32_768, 32, 32, 128), 16 * 2**30)
        self.assertEqual(main.ssm_state_bytes(48, 2_048, 16), int(7.5 * 2**20))
        self.assertEqual(main.ssm_state_bytes(48, 2_048, 16, d_conv=0), 6 * 2**20)
        listed = main.stream_models()
        ssm = listed[-1]
        self.assertEqual((ssm["kind"], ssm["state_bytes"]), ("ssm state", main.ssm_state_bytes(48, 2_048, 16)))
        models = {m["name"].split(",")[0]: m for m in listed if m["kind"] == "kv cache"}
        self.assertEqual(models["7B"]["fills_device_at"], {"24": 49_152, "80": 163_840})
        self.assertEqual(models["8B"]["passes_ssm_state_at"], 61)       # 7.5 MiB / 128 KiB = 60
        for m in models.values():
            n = m["passes_ssm_state_at"]
            self.assertGreater(n * m["bytes_per_token"], ssm["state_bytes"])
            self.assertLessEqual((n - 1) * m["bytes_per_token"], ssm["state_bytes"])

    def test_stream_renders_from_its_json(self):
        out = main.render_stream(json.loads(json.dumps(self.result)))
        self.assertIn("bytes per token", out)
        self.assertIn("49,152", out)
        self.assertLessEqual(max(len(line) for line in out.splitlines()), 79)


if __name__ == "__main__":
    unittest.main()
