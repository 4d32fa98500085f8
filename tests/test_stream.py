"""Part 9: streaming memory, and one attention read against a direct softmax."""

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

    def test_stream_renders_from_its_json(self):
        out = main.render_stream(self.result)
        self.assertIn("bytes a token", out)
        self.assertLessEqual(max(len(line) for line in out.splitlines()), 79)


if __name__ == "__main__":
    unittest.main()
