"""The README's sample output against what the program prints: every line of
a sample (a fenced block that opens with a section header) must be a line the
program prints, digits and time units aside, so that a sample cannot drift."""

import math
import os
import re
import tempfile
import unittest
from unittest import mock

import main
from tests.support import ROOT, VECTOR, graded_in_this_process, readme, run_main, scripted_steps

NUMBER = re.compile(r"-?[0-9][0-9,._]*(e[-+]?[0-9]+)?( ?(ns|µs|us|ms|s)\b)?")


def masked(line):
    """Return the line with every number (and the time unit after it) as '#',
    and runs of spaces as one: column widths follow the numbers' widths."""
    return " ".join(NUMBER.sub("#", line).split())


def readme_samples(header="=== "):
    """Return the lines of every fenced block of README.md that opens with header,
    but a check's sample when the header is the default run's."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        blocks = re.findall(r"^```\n(.*?)^```", f.read(), re.M | re.S)
    return [line for block in blocks if block.startswith(header)
            and (header != "=== " or not block.startswith("=== check"))
            for line in block.splitlines() if line.strip()]


# The solution whose grades the README shows: right, not written, wrong, and the Easy
# exercise right (tests.support's VECTOR).
MINE = """\
import operator
def rnn_style(xs, decay=0.9):
    h = 0.0
    for x in xs:
        h = decay * h + x
    return h
def attention_style(xs):
    raise NotImplementedError
def depth(n):
    return n, n.bit_length()
def serial_scan(xs, op=operator.add):
    out = []
    for x in xs:
        out.append(op(out[-1], x) if out else x)
    return out
def parallel_scan(xs, op=operator.add):
    out, step = list(xs), 1
    while step < len(out):
        out = out[:step] + [op(out[i], out[i - step]) for i in range(step, len(out))]
        step *= 2
    return out
""" + VECTOR


def fixed_samples(n, reps):
    """Times that depend on N alone: rnn_style 30 ns a value, attention_style
    5 ns a value times (1 + N / 1,000), so that the ratio changes with N."""
    return [n * 3e-8], [n * 5e-9 * (1 + n / 1_000)]


class TestReadmeSamples(unittest.TestCase):
    def test_every_sample_line_is_printed_by_the_program_and_by_check(self):
        samples = readme_samples()
        self.assertGreater(len(samples), 25)             # the whole default run
        # two sizes whose ratios differ, as the README's four do: the same wording
        with mock.patch.object(main, "_benchmark_samples", fixed_samples):
            status, out, _ = run_main("--sizes", "1000,2000")
        self.assertEqual(status, 0)
        printed = {masked(line) for line in out.splitlines()}
        for line in samples:
            self.assertIn(masked(line), printed, line)
        # masking keeps the words
        self.assertEqual(masked("1,000,000     23.2 ms      3.60 ms        6.5x"), "# # # #x")
        self.assertEqual(masked("last value (serial):   -30.92"), "last value (serial): #")
        self.assertNotEqual(masked("depth: serial scan 1,023 dependent combines"),
                            masked("depth: serial scan 1,023 independent combines"))
        # graded in this process, with the grading process's own code (tests.support)
        samples = readme_samples("=== check")
        self.assertGreater(len(samples), 5)
        here = os.getcwd()
        with tempfile.TemporaryDirectory() as folder:
            os.chdir(folder)
            try:
                with open("mine.py", "w", encoding="utf-8") as f:
                    f.write(MINE)
                with graded_in_this_process(), \
                     mock.patch.object(main, "_time_steps", scripted_steps):
                    status, out, _ = run_main("check", "mine.py")
            finally:
                os.chdir(here)
        self.assertEqual(status, 1)
        # one flow of words: where a line wraps depends on how many digits a time has
        self.assertEqual(masked(" ".join(samples)), masked(out))

    def test_the_errata_quote_the_lesson_as_it_is(self):
        # the lesson's key terms, verbatim; its concept section says Flash Attention
        # "later fixed" the memory wall, and the README must not say otherwise
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        self.assertIn('"Attention memory = O(N²) in sequence length; Flash Attention hides the '
                      'constants, not the scaling"', readme)
        self.assertNotIn("improved the memory wall's constant", readme)


class TestWordsThatWereLoose(unittest.TestCase):
    """Sentences a careful reviewer found imprecise (issue 60), as they now read."""

    def everywhere(self):
        texts = []
        for path in ("main.py", "README.md", os.path.join("outputs",
                                                         "skill-architecture-picker.md")):
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                texts.append(" ".join(f.read().split()))
        return " ".join(texts)

    def test_a_tanh_step_lacks_a_combine_of_fixed_size_not_an_exact_scan(self):
        text = self.everywhere()
        for loose in ("no exact scan", "not linear, so not a scan", "no exact regrouping",
                      "no regrouping is exact"):
            self.assertNotIn(loose, text)
        self.assertIn("A tanh step does not compose: tanh(w*tanh(w*h + x1) + x2) is no single "
                      "tanh(a*h + b), so no pair stands for a run of them.",
                      " ".join(main.render_ssm(main.ssm_check(64)).split()))

    def test_brents_two_bounds_and_the_derivative_are_said_as_they_are(self):
        work = " ".join(main.render_work(main.work_section((8, 16))).split())
        self.assertIn("A tree sum's steps are the fewest possible on P lanes, within Brent's "
                      "(1974) bounds max(work / P, depth) and work / P + depth.", work)
        self.assertNotIn("about max(work / P, depth)", self.everywhere())
        headline = main.SECTIONS["gradient"].headline(main.gradient_rows())
        self.assertTrue(headline.startswith("50 steps back, the tanh RNN passes 3e-11"), headline)
        self.assertIn("the last state's derivative with respect to an input 50 steps back",
                      " ".join(main.render_gradient(main.gradient_rows()).split()))

    def test_capacity_says_what_associative_recall_is_before_its_numbers(self):
        lines = main.render_capacity(main.capacity_rows(reads=64)).splitlines()
        self.assertEqual(lines[1], "Associative recall: write n key-value pairs into one state, "
                                   "then read each")


def bullets(heading):
    """Return the bullet lines of the README's section under heading."""
    text = readme().split(heading, 1)[1].split("\n## ", 1)[0]
    return [line for line in text.splitlines() if line.startswith("- ")]


class TestReadmeFacts(unittest.TestCase):
    """What the README says of main.py, held against main.py, and its length."""

    def test_it_lists_every_section_and_the_parts_in_their_order(self):
        listed = [re.match(r"- `(\w+)`: ", line).group(1) for line in bullets("## Every section")]
        self.assertEqual(listed, list(main.SECTIONS))
        parts = re.search(r"parts 1 to 9, one a section\s+\(([^)]*)\)", readme()).group(1)
        self.assertEqual(re.findall(r"`(\w+)`", parts),
                         [name for name in main.SECTIONS if name not in main.DEFAULT_SECTIONS])
        # each part's banner in main.py, numbered in that order
        with open(os.path.join(ROOT, "main.py"), encoding="utf-8") as f:
            banners = re.findall(r"^# (\d+)\. ", f.read(), re.M)
        self.assertEqual(banners, [str(k) for k in range(1, 10)])

    def test_it_reads_in_a_sitting(self):
        # at most 1,200 words, as wc -w counts them, and no sentence over 30 words
        text = readme()
        self.assertLessEqual(len(text.split()), 1_200)
        prose = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S).replace("\n- ", "\n\n- ")
        for paragraph in prose.split("\n\n"):
            for sentence in re.split(r"(?<=[.!?])\s+", " ".join(paragraph.split())):
                self.assertLessEqual(len(sentence.split()), 30, sentence)
        # the exercises come before the list of sections
        self.assertLess(text.index("## The exercises"), text.index("## Every section"))

    def test_the_exercise_path_comes_before_any_long_sample_and_says_what_grades(self):
        text = readme()
        path = text.split("## Start here", 1)[1].split("\n## ", 1)[0]
        for words in ("check --template > mine.py", "`rnn_style_vector` (Easy)",
                      "`parallel_scan` (Medium)", "python main.py check mine.py"):
            self.assertIn(words, path)
        long_samples = [m.start() for m in re.finditer(r"^```\n(.*?)^```", text, re.M | re.S)
                        if m.group(1).count("\n") > 10]
        self.assertLess(text.index("## Start here"), min(long_samples))
        self.assertLess(text.index("## The exercises"), min(long_samples))
        # each exercise says what grades the learner's own code, and no section is
        # said to grade it
        easy, medium = bullets("## The exercises")[:2]
        self.assertIn("`check` grades your `rnn_style_vector`", easy)
        self.assertIn("`check` grades your `parallel_scan`", medium)
        self.assertNotIn("`python main.py scan` checks it", text)

    def test_the_idle_silicon_is_said_with_the_shares_hidden_computes(self):
        # the lesson's "99% idle" on its 10,000 lanes: an update of width w is w^2 + w
        # madds in at least ceil(log2(w + 1)) steps
        said = " ".join(readme().split())
        share = {w: 1 - (w * w + w) / (10_000 * math.ceil(math.log2(w + 1))) for w in (8, 64, 100)}
        self.assertIn(f"on 10,000 lanes at least {share[8]:.1%} sit idle at width 8, "
                      f"{share[64]:.0%} at 64, {share[100]:.0%} at 100 (`hidden`).", said)
        self.assertEqual(main.GPU_LANES, 10_000)
        for w in (8, 64, 100):
            self.assertAlmostEqual(main.idle_share(w), share[w])

    def test_the_work_answer_is_the_work_sections(self):
        result = main.work_section((1_024,))
        one, many = result["lanes"][0], result["lanes"][-1]
        self.assertIn(f"The recurrence's scan takes {one['scan_steps']:,} steps on one lane, "
                      f"nine times its loop's {one['loop_steps']:,}, and {many['scan_steps']} "
                      f"on {many['lanes']:,} lanes (`work`).", " ".join(readme().split()))
        self.assertEqual(one["scan_steps"] // one["loop_steps"], 9)

    def test_the_easy_exercises_widths_are_main_pys(self):
        widths = _readable(main.HIDDEN_WIDTHS)
        self.assertIn(f"at widths {widths}", " ".join(readme().split()))


def _readable(values):
    return main._readable_list([str(v) for v in values])


if __name__ == "__main__":
    unittest.main()
