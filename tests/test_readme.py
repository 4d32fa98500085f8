"""The README's sample output against what the program prints: every line of
a sample (a fenced block that opens with a section header) must be a line the
program prints, digits and time units aside, so that a sample cannot drift."""

import os
import re
import unittest

from tests.support import ROOT, run_main

NUMBER = re.compile(r"-?[0-9][0-9,._]*(e[-+]?[0-9]+)?( ?(ns|µs|us|ms|s)\b)?")


def masked(line):
    """Return the line with every number (and the time unit after it) as '#',
    and runs of spaces as one: column widths follow the numbers' widths."""
    return " ".join(NUMBER.sub("#", line).split())


def readme_samples():
    """Return the lines of every fenced block of README.md that opens with '=== '."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        blocks = re.findall(r"^```\n(.*?)^```", f.read(), re.M | re.S)
    return [line for block in blocks if block.startswith("=== ")
            for line in block.splitlines() if line.strip()]


class TestReadmeSamples(unittest.TestCase):
    def test_every_sample_line_is_printed_by_the_program(self):
        samples = readme_samples()
        self.assertGreater(len(samples), 30)             # the whole default run
        status, out, _ = run_main("--sizes", "1000", "--reps", "1")
        self.assertEqual(status, 0)
        printed = {masked(line) for line in out.splitlines()}
        for line in samples:
            self.assertIn(masked(line), printed, line)

    def test_masking_keeps_the_words(self):
        self.assertEqual(masked("1,000,000     23.2 ms      3.60 ms        6.5x"), "# # # #x")
        self.assertEqual(masked("last value (serial):   -30.92"), "last value (serial): #")
        self.assertNotEqual(masked("depth: serial scan 1,023 dependent combines"),
                            masked("depth: serial scan 1,023 independent combines"))


if __name__ == "__main__":
    unittest.main()
