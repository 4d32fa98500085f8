"""Part 8: the depth of training and of generating against counts worked out by
hand, and the memory each model holds against the KV-cache formula."""

import math
import unittest

import main
from tests.support import run_section


class TestGenerate(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        rows = main.generate_rows(sizes=(2, 5, 8, 16, 32, 64))
        cls.at = {(r["model"], r["n"]): r for r in rows}

    def test_training_attention_and_the_scan_are_log_depth_the_tanh_rnn_a_chain(self):
        # A position over m keys: q*k and exp (depth 2), a tree of m (ceil(log2 m)),
        # then 1/total beside the weighted tree, and one multiply: 4 + ceil(log2 N).
        for n in (2, 5, 16, 64):
            self.assertEqual(self.at["attention", n]["train_depth"], 4 + math.ceil(math.log2(n)))
        # the tanh RNN is a chain even with every input known: a multiply-add w*h + x,
        # then tanh, per step: 2N
        for n in (2, 16, 64):
            self.assertEqual(self.at["tanh RNN", n]["train_depth"], 2 * n)
        for k in (3, 5, 6):                     # the scan's rounds, log2 N
            self.assertEqual(self.at["linear, by scan", 2 ** k]["train_depth"], k)

    def test_generating_goes_a_token_at_a_time_a_cache_grows_the_section_says_so(self):
        n = 16
        self.assertEqual(self.at["tanh RNN", n]["generate_depth"], 2 * n)
        self.assertEqual(self.at["linear, by scan", n]["generate_depth"], n)
        # the sentence follows the depths: a model faster than a token at a time is said
        rows = [dict(r) for r in self.at.values()]
        self.assertIn("every model generates a chain",
                      " ".join(main.render_generate(rows).split()))
        rows[0]["generate_depth"] = rows[0]["n"] - 1
        self.assertIn("Some model makes its tokens in fewer steps than tokens",
                      " ".join(main.render_generate(rows).split()))
        # Each token needs the one before, then its own depth, 4 + ceil(log2 t): the
        # total grows as N log N, not as N.
        self.assertEqual(self.at["attention", n]["generate_depth"],
                         sum(4 + math.ceil(math.log2(t)) for t in range(1, n + 1)))
        for (model, n), r in self.at.items():
            # a key and a value of d numbers a token, or d numbers in all; 2 bytes each
            expected = 2 * n * r["d"] * 2 if model == "attention" else r["d"] * 2
            self.assertEqual(r["held_bytes"], expected, (model, n))
        out, rows = run_section(self, "generate")
        text = " ".join(out.split())
        # the finding first, read from the table's last rows: which is deepest, holds most
        self.assertIn("=== training can run in parallel; generating, one token at a time === "
                      "The lesson says an RNN suits streaming, one token at a time. "
                      "Generating 256 tokens here, attention is the deepest, 2,817 steps, and "
                      "holds the most memory, 64.0 KiB. Each new token is the next "
                      "input", text)
        # token t adds 4 + ceil(log2 t) for attention, from 4 to 12; 2 and 1 for the others
        self.assertIn("A token adds 2 steps for the tanh RNN and 1 for the linear recurrence. "
                      "For attention, which reads all t tokens so far, it adds 4 + "
                      "ceil(log2 t): 4 to 12 at N = 256.", text)
        self.assertIn("The tanh RNN's 2 are a multiply-add, then tanh.", text)
        self.assertIn("so attention and the scan run in parallel: 12 and 8 steps deep. The "
                      "tanh RNN stays a chain: 512.", text)
        self.assertIn("Attention's read is q.k, exp, then two branches side by side: e*v then "
                      "its sum, and the exps' sum then 1/sum. Each is 1 + ceil(log2 t) deep; a "
                      "last product makes 4 + ceil(log2 t).", text)
        # which model is deepest, shallowest and holds most is read from the rows
        deeper = [dict(r, generate_depth=10**6) if r["model"] == "tanh RNN" else r for r in rows]
        said = " ".join(main.render_generate(deeper).split())
        self.assertIn("the tanh RNN is the deepest, 1,000,000 steps; attention holds the most "
                      "memory, 64.0 KiB.", said)
        cached = [dict(r, held_bytes=10**6) if r["model"] == "linear, by scan" else r
                  for r in rows]
        self.assertIn("attention is the deepest, 2,817 steps; the linear recurrence holds the "
                      "most memory, 977 KiB.",
                      " ".join(main.render_generate(cached).split()))
        last = {m: self.at[m, n]["last_token_depth"] for m in ("attention", "tanh RNN",
                                                               "linear, by scan")}
        self.assertEqual(last, {"attention": 4 + math.ceil(math.log2(n)), "tanh RNN": 2,
                                "linear, by scan": 1})
        self.assertIn("Steps are counted at width 1; memory at width d = 64, in fp16: the cache "
                      "keeps a 64-number key and value per token.", text)
        self.assertLessEqual(max(map(len, out.splitlines())), 79)
        fewer = [dict(r, generate_depth=1) for r in rows]
        self.assertIn("fewer steps than tokens", main.render_generate(fewer))


if __name__ == "__main__":
    unittest.main()
