"""The ship-it artifact, outputs/skill-architecture-picker.md: the lesson's front
matter, parts and refusals, and its formulas against the numbers it prints."""

import os
import re
import unittest

import main
from tests.support import ROOT

SKILL = os.path.join(ROOT, "outputs", "skill-architecture-picker.md")


class TestSkillFile(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(SKILL, encoding="utf-8") as f:
            cls.text = f.read()
        front = cls.text.split("---")[1]
        cls.front = dict(line.split(":", 1) for line in front.strip().splitlines())

    def test_front_matter_parts_refusals_and_the_cache_and_state_formulas(self):
        self.assertEqual(set(self.front), {"name", "description", "version", "phase", "lesson",
                                           "tags"})
        self.assertEqual((self.front["phase"].strip(), self.front["lesson"].strip()), ("7", "1"))
        self.assertRegex(self.front["version"].strip(), r"^\d+\.\d+\.\d+$")
        for part in ("**Architecture**", "**Context strategy**", "**Training FLOPs**",
                     "**Inference memory**", "**Risk**"):
            self.assertIn(part, self.text)                  # the answer's five parts
        for refusal in ("Pure RNN above 1B training tokens",
                        "Full-attention transformer above 64K context",
                        "younger than 12 months"):
            self.assertIn(refusal, self.text)
        # The skill's figures, from main.kv_cache_bytes (2 * layers * KV heads * head dim * bytes).
        self.assertEqual(main.kv_cache_bytes(1, 32, 8, 128), 128 * 2**10)
        self.assertEqual(main.kv_cache_bytes(1, 32, 32, 128), 512 * 2**10)
        self.assertEqual(main.kv_cache_bytes(32_768, 32, 8, 128), 4 * 2**30)
        self.assertEqual(main.kv_cache_bytes(32_768, 32, 32, 128), 16 * 2**30)
        for figure in ("128 KiB per token (4 GiB at 32K tokens)",
                       "512 KiB per token (16 GiB at 32K)"):
            self.assertIn(figure, " ".join(self.text.split()))
        # The 200K example: 24 layers, 16 KV heads of 128.
        self.assertEqual(main.kv_cache_bytes(1, 24, 16, 128), 192 * 2**10)
        self.assertEqual(main.format_bytes(main.kv_cache_bytes(200_000, 24, 16, 128)), "36.6 GiB")
        self.assertIn("36.6 GiB at 200K", " ".join(self.text.split()))
        # layers * (expand * d) * d_state, plus layers * (expand * d) * d_conv, in fp16.
        self.assertEqual(main.ssm_state_bytes(48, 2048, 16, d_conv=0), 6 * 2**20)
        convolution = (main.ssm_state_bytes(48, 2048, 16)
                       - main.ssm_state_bytes(48, 2048, 16, d_conv=0))
        self.assertEqual(convolution, int(1.5 * 2**20))
        self.assertIn("6 MiB + 1.5 MiB in fp16", " ".join(self.text.split()))
        # The 200K example's 20 SSM layers: 3.1 MiB.
        # 3.125, rounded half to even
        self.assertEqual(main.format_bytes(main.ssm_state_bytes(20, 2048, 16)), "3.12 MiB")
        self.assertIn("= 3.1 MiB", " ".join(self.text.split()))

    def test_the_gradient_figures_are_the_gradient_sections(self):
        text = " ".join(self.text.split())
        data = main.gradient_rows()
        far = next(row for row in data["rows"] if row["k"] == 50)
        self.assertEqual(f"{far['tanh'] / data['tanh_last']:.0e}", "4e-11")
        self.assertIn("an input 50 steps back reached the last state at 4e-11 of the last input's "
                      "effect", text)
        self.assertEqual(f"{main.FORGET_GATE ** 100:.2f}", "0.37")
        self.assertIn("0.37 after 100 steps at a forget gate of 0.99", text)

    def test_sources_stated_as_they_say_and_serial_depth_not_tied_to_tokens(self):
        text = " ".join(self.text.split())
        self.assertIn("a little over 2x without fine-tuning", text)     # YaRN, dynamic scaling
        self.assertNotIn("about 4x", text)
        self.assertIn("linear-attention RNN (RWKV)", text)
        self.assertEqual(main.ssm_state_bytes(48, 2048, 16, d_conv=0, bytes_per_value=4),
                         12 * 2**20)
        self.assertIn("the 6 MiB of state become 12 MiB if the state is kept in fp32", text)
        self.assertIsNone(re.search(r"above, serial depth dominates", self.text))
        self.assertIn("does not grow with T", self.text)


if __name__ == "__main__":
    unittest.main()
