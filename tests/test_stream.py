"""Part 9: streaming memory and one attention read against a direct softmax, and
the model-scale figures against their formulas."""

import math
import unittest

import main
from tests.support import HUGE, close

# Calls of this part's public functions that raise ValueError (gathered, with
# every other file's, by tests/test_errors.py).
BAD_CALLS = {
    "stream_rows": [(((0,),), {}), (((HUGE,),), {}), (((8,), HUGE), {}), (((),), {}),
                    (((8,), 8, 0), {})],
    "kv_cache_bytes": [((-1, 1, 1, 1), {}), ((1, 1, 1, 1, -2), {})],
    "ssm_state_bytes": [((-1, 1, 1), {}), ((1, 1, 1), {"d_conv": -4})],
}


class TestStream(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.result = main.stream_rows(tokens=(16, 64, 256), reps=1)

    def test_the_section_opens_with_what_it_measured(self):
        text = " ".join(main.render_stream(self.result).split())
        rows = self.result["measured"]
        self.assertIn(f"The KV cache grew from {main.format_bytes(rows[0]['cache_bytes'])} at "
                      f"T = {rows[0]['tokens']:,} to", text.splitlines()[0])
        self.assertIn("the recurrent state stayed", text)

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
        for got, want in zip(main._attention_read(q, keys, values), expected):
            self.assertTrue(close(got, want, rel=1e-12))

    def test_model_scale_figures(self):
        self.assertEqual(main.kv_cache_bytes(1, 32, 32, 128), 512 * 2**10)
        self.assertEqual(main.kv_cache_bytes(1, 32, 8, 128), 128 * 2**10)
        self.assertEqual(main.kv_cache_bytes(32_768, 32, 32, 128), 16 * 2**30)
        self.assertEqual(main.ssm_state_bytes(48, 2_048, 16), int(7.5 * 2**20))
        self.assertEqual(main.ssm_state_bytes(48, 2_048, 16, d_conv=0), 6 * 2**20)
        self.assertEqual(main.ssm_state_bytes(64, 4_096, 16), 20 * 2**20)   # 64 x 8,192 x 20 x 2
        listed = main.stream_models()
        ssm = listed[-1]
        self.assertEqual((ssm["kind"], ssm["state_bytes"]), ("ssm state", 20 * 2**20))
        models = {m["name"].split(",")[0]: m for m in listed if m["kind"] == "kv cache"}
        # 24 GiB less Llama-2-7B's 6.74e9 fp16 weights (12.6 GiB), in tokens of 512 KiB.
        self.assertEqual(models["Llama-2-7B"]["tokens_fit_beside_weights"],
                         {"24": (24 * 2**30 - 2 * 6_738_415_616) // 2**19,
                          "80": (80 * 2**30 - 2 * 6_738_415_616) // 2**19})
        self.assertEqual(models["Llama-2-7B"]["tokens_fit_beside_weights"]["24"], 23_446)
        self.assertEqual(models["Llama-3-8B"]["passes_ssm_state_at"], 161)    # 20 MiB / 128 KiB
        for m in models.values():
            n = m["passes_ssm_state_at"]
            self.assertGreater(n * m["bytes_per_token"], ssm["state_bytes"])
            self.assertLessEqual((n - 1) * m["bytes_per_token"], ssm["state_bytes"])

    def test_render_reads_one_length_and_lengths_that_fall(self):
        one = main.render_stream(main.stream_rows((1,), 1, 1))
        self.assertIn("bytes a token here; the state stays one size", " ".join(one.split()))
        self.assertNotIn("grew", one)
        falling = " ".join(main.render_stream(main.stream_rows((64, 2), 4, 1)).split())
        self.assertIn("grew from", falling)
        self.assertIn("at T = 2 to", falling)       # from the fewest tokens, whatever the order

    def test_the_growth_sentence_reads_the_work_not_one_timing(self):
        def row(tokens, seconds):
            return {"tokens": tokens, "cache_bytes": 100 * tokens, "cache_token_s": seconds,
                    "state_token_s": 1e-4}
        for seconds in (4e-5, 1e-4, 1.5e-5):
            text = " ".join(main._cache_growth([row(100, 1e-5), row(400, seconds)], 4).split())
            self.assertEqual(text, "The cache grows by 100 bytes a token (16 in fp16). The "
                             "next token reads all of it, so T tokens cost work growing as T^2.")

    def test_a_callers_memory_tracing_is_left_on(self):
        import tracemalloc
        tracemalloc.start()
        try:
            main.stream_rows((4,), 2, 1)
            self.assertTrue(tracemalloc.is_tracing())
        finally:
            tracemalloc.stop()

    def test_stream_renders_from_its_json(self):
        out = main.render_stream(self.result)
        self.assertIn("bytes a token", out)
        self.assertIn("23,446", out)
        self.assertLessEqual(max(len(line) for line in out.splitlines()), 79)


if __name__ == "__main__":
    unittest.main()
