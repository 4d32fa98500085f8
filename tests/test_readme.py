"""The README's sample output against what the program prints: every line of
a sample (a fenced block that opens with a section header) must be a line the
program prints, digits and time units aside, so that a sample cannot drift."""

import json
import os
import re
import tempfile
import unittest
from unittest import mock

import main
from tests.support import ROOT, run_main
from tests.test_check import VECTOR, InProcess

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
# exercise right (tests/test_check.py's).
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
        # graded in this process, with the grading process's own code (tests/test_check.py)
        samples = readme_samples("=== check")
        self.assertGreater(len(samples), 5)
        here = os.getcwd()
        with tempfile.TemporaryDirectory() as folder:
            os.chdir(folder)
            try:
                with open("mine.py", "w", encoding="utf-8") as f:
                    f.write(MINE)
                with mock.patch.object(main, "_Grader", InProcess):
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
        self.assertIn("not to one step tanh(a*h + b): a scan has no combine of fixed size",
                      " ".join(main.render_ssm(main.ssm_check(64)).split()))

    def test_brents_two_bounds_and_the_derivative_are_said_as_they_are(self):
        work = " ".join(main.render_work(main.work_section((8, 16))).split())
        self.assertIn("takes from max(work / P, depth) to work / P + depth steps (Brent 1974)",
                      work)
        self.assertNotIn("about max(work / P, depth)", self.everywhere())
        headline = main.SECTIONS["gradient"].headline(main.gradient_rows())
        self.assertTrue(headline.startswith("the derivative of a tanh RNN's last state in an "
                                            "input 50 steps back is 3e-11"), headline)

    def test_capacity_says_what_associative_recall_is_before_its_numbers(self):
        lines = main.render_capacity(main.capacity_rows(reads=64)).splitlines()
        self.assertEqual(lines[1], "Associative recall: write n key-value pairs into one state, "
                                   "then ask for each")


def readme():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        return f.read()


def table_rows(heading):
    """Return the rows of the README's table under heading, each a list of cells, the
    header and its rule left out."""
    text = readme().split(heading, 1)[1].split("\n## ", 1)[0]
    lines = [line for line in text.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[1:]]


def part_of_each_definition():
    """Return {name: its part} for main.py's top-level definitions: 0 the lesson,
    1 to N the numbered parts, None the machinery."""
    part, found = 0, {}
    with open(os.path.join(ROOT, "main.py"), encoding="utf-8") as f:
        for line in f:
            banner = re.match(r"# (\d+)\. ", line)
            if banner:
                part = int(banner.group(1))
            elif line.startswith("# Machinery"):
                part = None
            definition = re.match(r"(?:def|class) (\w+)|([A-Z_]+) = ", line)
            if definition:
                found[definition.group(1) or definition.group(2)] = part
    return found


# Each classic slip check names, as the README's list of them says it.
README_SLIPS = {
    "decay ignored": "an ignored decay", "decay inside": "`decay * (h + x)`",
    "decay on x": "`h + decay * x`", "first twice": "the first x counted twice",
    "sum": "the sum", "n - 1": "a mean over N - 1", "floor division": "`//`",
    "at least 1": 'a missing "at least 1"', "floor": "a floor",
    "float log": "`math.log(n, 2)`", "natural log": "the natural log", "log10": "`log10`",
    "bit_length": "`n.bit_length()`", "swapped": "operands swapped", "plus": "an ignored `op`",
    "exclusive": "the exclusive scan", "from 0": "a total from 0", "padded 0": "a padding of 0",
    "first missing": "the first or the last total missing",
    "last missing": "the first or the last total missing",
    "floats": "values turned into floats", "step 2": "a round short or off by one",
    "round short": "a round short", "half rounds": "a round short",
    "floor rounds": "a round short", "late start": "off by one", "early end": "off by one",
    "step + 1": "`step += 1`", "in place": "an in-place round",
    "powers of two": "right only where N is a power of two",
    "empty only": "wrong only for the empty list", "shared row": "one row of A for every unit",
    "transposed": "A transposed", "in place, vector": "h updated in place",
}


class TestReadmeFacts(unittest.TestCase):
    """What the README says of main.py, held against main.py: a fact written twice
    fails here when one copy changes."""

    def test_the_map_names_every_part_and_where_each_name_is_defined(self):
        parts = part_of_each_definition()
        mentioned = set()
        for lesson, where in table_rows("## Where each step of the lesson lives"):
            numbers = {int(n) for n in re.findall(r"\bparts? (\d+)(?: and (\d+))?", where)
                       for n in n if n}
            mentioned |= numbers
            for name in re.findall(r"`(\w+)`", where):
                if name in parts:
                    self.assertIn(parts[name], numbers | {0, None}, (lesson, name))
        self.assertEqual(mentioned, {p for p in parts.values() if p})

    def test_the_section_table_reads_its_numbers_from_the_sections(self):
        rows = {row[0].strip("`"): row[2] for row in
                table_rows("## Every other section")}
        data = {name: json.loads(run_main(name, "--json")[1])[name]
                for name in ("ssm", "work", "cost", "gradient", "capacity", "generate",
                             "hidden")}
        work = {(r["algorithm"], r["n"]): r for r in data["work"]["rows"]}
        gradient = {r["k"]: r for r in data["gradient"]["rows"]}
        capacity, generate = data["capacity"][0], {(r["model"], r["n"]): r
                                                   for r in data["generate"]}
        ssm, hidden = data["ssm"], data["hidden"]
        memory = next(r for r in data["cost"]["memory"] if r["n"] == 131_072)    # 128K tokens
        said = {
            "ssm": f"in {ssm['scan_rounds']} rounds at N = {ssm['length']:,}, within "
                   f"{ssm['max_rel_diff']:.0e}",
            "work": f"Hillis–Steele {work['parallel_scan', 1024]['work']:,} combines at depth "
                    f"{work['parallel_scan', 1024]['depth']}, Brent–Kung "
                    f"{work['brent_kung_scan', 1024]['work']:,} at depth "
                    f"{work['brent_kung_scan', 1024]['depth']}",
            "cost": f"one {memory['n']:,}-token attention matrix is {memory['bytes'] / 2**30:g} "
                    "GiB",
            "gradient": f"50 steps back is {gradient[50]['tanh']:.1e}",
            "capacity": f"from {capacity['exact_recall']:.2f} at {capacity['n']} pairs",
            "generate": f"({generate['attention', 256]['train_depth']} at N = 256) against a "
                        f"tanh RNN's 3N - 1",
            "hidden": f"for {hidden[-1]['madds_per_step'] // hidden[0]['madds_per_step']:,} "
                      "times the multiply-adds",
        }
        for name, words in said.items():
            self.assertIn(words, rows[name], name)
        self.assertEqual(set(rows), set(main.SECTIONS) - set(main.DEFAULT_SECTIONS))

    def test_the_readme_names_every_slip_check_names(self):
        text = " ".join(readme().split())
        self.assertEqual(set(README_SLIPS), set(main.CHECK_SLIPS))
        for slip, words in README_SLIPS.items():
            self.assertIn(words, text, slip)


if __name__ == "__main__":
    unittest.main()
