"""The ship-it artifact, outputs/skill-architecture-picker.md: the front matter the
lesson asks for, the five parts of its answer, its three refusals, and the
formulas a reader would copy, checked against the numbers they print."""

import os
import re
import unittest

from tests.support import ROOT

SKILL = os.path.join(ROOT, "outputs", "skill-architecture-picker.md")


class TestSkillFile(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(SKILL, encoding="utf-8") as f:
            cls.text = f.read()
        front = cls.text.split("---")[1]
        cls.front = dict(line.split(":", 1) for line in front.strip().splitlines())

    def test_front_matter_has_the_lessons_fields(self):
        self.assertEqual(set(self.front), {"name", "description", "version", "phase", "lesson", "tags"})
        self.assertEqual((self.front["phase"].strip(), self.front["lesson"].strip()), ("7", "1"))
        self.assertRegex(self.front["version"].strip(), r"^\d+\.\d+\.\d+$")

    def test_answer_has_the_five_parts(self):
        for part in ("**Architecture**", "**Context strategy**", "**Training FLOPs**",
                     "**Inference memory**", "**Risk**"):
            self.assertIn(part, self.text)

    def test_the_three_refusals(self):
        for refusal in ("Pure RNN above 1B training tokens", "Full-attention transformer above 64K context",
                        "younger than 12 months"):
            self.assertIn(refusal, self.text)

    def test_kv_cache_examples_follow_the_formula(self):
        # 2 * layers * KV heads * head dim * 2 bytes per token.
        self.assertEqual(2 * 32 * 8 * 128 * 2, 128 * 2**10)
        self.assertEqual(2 * 32 * 32 * 128 * 2, 512 * 2**10)
        self.assertIn("128 KiB per token", self.text)
        self.assertIn("512 KiB per token", self.text)
        self.assertEqual(2 * 24 * 2048 * 2, 192 * 2**10)
        self.assertAlmostEqual(200_000 * 192 * 2**10 / 2**30, 36.6, places=1)
        self.assertIn("36.6 GiB at 200K", self.text)

    def test_ssm_state_example_follows_the_formula(self):
        # layers * (expand * d) * d_state, plus layers * (expand * d) * d_conv, in fp16.
        self.assertEqual(48 * (2 * 2048) * 16 * 2, 6 * 2**20)
        self.assertEqual(48 * (2 * 2048) * 4 * 2, int(1.5 * 2**20))
        self.assertIn("6 MiB + 1.5 MiB in fp16", self.text)

    def test_serial_depth_is_not_tied_to_the_token_budget(self):
        self.assertIsNone(re.search(r"above, serial depth dominates", self.text))
        self.assertIn("does not grow with T", self.text)


if __name__ == "__main__":
    unittest.main()
