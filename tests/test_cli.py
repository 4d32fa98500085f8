"""The command line: sections, options, JSON, bad arguments, output that cannot
be encoded or written, and exit codes; in-process through main.main([...]),
and as a real child process for what only a process shows."""

import difflib
import io
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

import main
from tests import expected
from tests.support import MAIN_PY, PYTHON, ROOT, assert_valid_figure, run_main

FAST = ("--sizes", "1000", "--reps", "1")

# Which sections read which option, as the sections declare it.
OPTION_USERS = {}
for _name, _section in main.SECTIONS.items():
    for _option in _section.options:
        OPTION_USERS.setdefault(_option.flag, set()).add(_name)


def flat(text):
    return " ".join(text.split())


def prose(text):
    """Return the words and sentences of text outside its tables, charts and
    headings (a table row has two spaces or more between its cells)."""
    lines = [line for line in text.splitlines() if line.strip()
             and not line.lstrip().startswith("===") and not re.search(r"\S {2,}\S|[|]", line)]
    words = " ".join(lines).split()
    return words, re.split(r"(?<=[.!?])\s+", " ".join(words))


def toy_rows(n):
    return [{"k": k, "square": k * k} for k in range(1, n + 1)]


def toy_section():
    """A throwaway part, declared as a part in main.py declares itself: an
    option of its own, a table, a figure, a headline."""
    width = main.Option("--toy-width", "W", 1, 60, False, "the toy's width (1 to 60; default 3)")
    return main.Section(summary="a throwaway part", compute=lambda o: toy_rows(o.toy_width or 3),
                        render=lambda rows: "=== a toy ===\n" + main._table(
                            ("k", "k^2"), [(r["k"], r["square"]) for r in rows]),
                        options=(width,), figure=lambda rows: main.Figure(
                            f"{len(rows)} squares").svg(),
                        headline=lambda rows: f"{len(rows)} squares")


# `python main.py train` that says when the training has begun, inside main(): a
# signal sent then lands in the training, not in the import.
TRAIN = ("import sys, main\n"
         "def train_models(*args, real=main.train_models):\n"
         "    print('ready', flush=True)\n"
         "    return real(*args)\n"
         "main.train_models = train_models\n"
         "sys.exit(main.main(['train', '--lengths', '5', '--steps', '%d', '--seeds', '1']))")


def start_training(steps, **kwargs):
    child = subprocess.Popen([*PYTHON, "-c", TRAIN % steps], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, **kwargs)
    child.stdout.readline()                     # "ready": main() has begun
    return child


class TestCommandLine(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.status, cls.text, _ = run_main("--help")            # read by the help tests

    def assert_order(self, out, *headers):
        positions = [out.index(h) for h in headers]
        self.assertEqual(positions, sorted(positions), headers)

    def test_default_run_prints_the_lesson_sections_in_order_with_their_findings(self):
        status, out, err = run_main(*FAST)
        self.assertEqual((status, err, out.count("=== ")), (0, "", 3))
        self.assert_order(out, "=== serial-depth comparison ===",
                          "=== wall-clock on this machine (pure Python) ===",
                          "=== prefix-sum equivalence check ===", "takeaway:",
                          "python main.py all")
        for words in ("depth ratio", "262,144", "14,564x"):     # 262144 / 18
            self.assertIn(words, run_main("depth")[1])
        # the ratio grows with N, as the line under the table says
        ratios = [r["depth_ratio"] for r in main.depth_rows()]
        self.assertEqual(ratios, sorted(set(ratios)))
        self.assertIn("This ratio of steps, not of seconds, grows with N.",
                      main.render_depth(main.depth_rows()))
        out = run_main("wallclock", *FAST)[1]
        self.assertNotIn("0.00", out)
        self.assertIn("That gap is Python's loop against C's, not depth.", flat(out))
        self.assertIn("It takes 1 round of side-by-side adds: 1 step deep. serial_scan chains "
                      "1 add, starting from x_1.",
                      flat(run_main("scan", "--length", "2")[1]))

    def test_all_runs_every_section_in_the_lessons_order(self):
        stand_ins = {name: section._replace(compute=lambda o: None,
                                            render=lambda r, name=name: f"=== {name} ===",
                                            headline=lambda r: "x")
                     for name, section in main.SECTIONS.items()}
        with mock.patch.dict(main.SECTIONS, stand_ins):
            status, out, _ = run_main("all")
        self.assertEqual(status, 0)
        self.assertEqual(re.findall(r"^=== (\w+) ===$", out, re.M), list(main.SECTIONS))

    def test_all_sends_each_section_out_before_the_next_one_computes(self):
        # A stream as a pipe is: what is written waits in a buffer until flushed. The
        # log says, in order, each compute and each text flushed; a section's text must
        # be flushed before the next section computes, the summary last.
        log = []

        class Pipe:
            def __init__(self):
                self.waiting = ""

            def write(self, text):
                self.waiting += text

            def flush(self):
                if self.waiting:
                    log.append(("out", self.waiting))
                self.waiting = ""

        stand_ins = {name: section._replace(compute=lambda o, name=name: log.append(
                                                ("compute", name)),
                                            render=lambda r, name=name: f"=== {name} ===",
                                            headline=lambda r: "x", refuse=None)
                     for name, section in main.SECTIONS.items()}
        with mock.patch.dict(main.SECTIONS, stand_ins), mock.patch.object(sys, "stdout", Pipe()):
            self.assertEqual(main.main(["all"]), 0)
        expected = []
        for name in main.SECTIONS:
            expected += [("compute", name), "out"]
        self.assertEqual([event if event[0] == "compute" else "out" for event in log],
                         expected + ["out"])
        outs = [text for kind, text in log if kind == "out"]
        for name, text in zip(main.SECTIONS, outs):
            self.assertIn(f"=== {name} ===", text)
        self.assertIn("=== the lesson's three problems and three exercises, as found here ===",
                      outs[-1])
        # --json: still one document, written once at the end
        log.clear()
        with mock.patch.dict(main.SECTIONS, stand_ins), mock.patch.object(sys, "stdout", Pipe()):
            self.assertEqual(main.main(["all", "--json"]), 0)
        outs = [text for kind, text in log if kind == "out"]
        self.assertEqual(len(outs), 1)
        self.assertEqual(json.loads(outs[0]), dict.fromkeys(main.SECTIONS))
        self.assertEqual([event for event in log if event[0] == "compute"],
                         [("compute", name) for name in main.SECTIONS])

    def test_a_training_too_long_is_refused_before_any_section_prints(self):
        # `all` prints as it goes: train's limit is asked before the first section runs
        ran = []
        stand_ins = {name: section._replace(compute=lambda o, name=name: ran.append(name))
                     for name, section in main.SECTIONS.items()}
        with mock.patch.dict(main.SECTIONS, stand_ins):
            self.assert_usage_error(["all", "--steps", "100000", "--seeds", "20"],
                                    "steps x seeds x the sum of the lengths at most 10_000_000")
        self.assertEqual(ran, [])

    def test_named_sections_print_in_their_order_options_anywhere(self):
        status, out, _ = run_main("scan", "depth")
        self.assertEqual(status, 0)
        self.assert_order(out, "prefix-sum", "serial-depth")
        self.assertNotIn("wall-clock", out)
        self.assertNotIn("takeaway:", out)
        status, out, _ = run_main("depth", "--", "scan")           # after --, sections
        self.assert_order(out, "serial-depth", "prefix-sum")
        status, out, err = run_main("depth", "--json", "scan")
        self.assertEqual((status, err, list(json.loads(out))), (0, "", ["depth", "scan"]))
        status, out, err = run_main("wallclock", "--reps", "1", "scan", "--sizes", "100")
        self.assertEqual((status, err), (0, ""))
        self.assert_order(out, "=== wall-clock", "=== prefix-sum")

    def test_a_section_named_twice_is_computed_and_printed_once(self):
        calls = []
        depth = main.SECTIONS["depth"]
        counted = depth._replace(compute=lambda opts: calls.append(1) or depth.compute(opts))
        with mock.patch.dict(main.SECTIONS, depth=counted):
            status, out, _ = run_main("depth", "scan", "depth", "depth")
        self.assertEqual((status, len(calls), out.count("=== serial-depth")), (0, 1, 1))
        self.assert_order(out, "serial-depth", "prefix-sum")

    def test_unknown_sections_are_an_error(self):
        for argv in (["all", "bogus"], ["bogus", "all"]):
            self.assert_usage_error(argv, "unknown section 'bogus'")

    def test_nothing_is_installed_and_the_script_carries_its_pep_723_metadata(self):
        with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
            project = f.read()
        self.assertNotIn("[project.scripts]", project)
        self.assertIn("py-modules = []", project)                 # no module named main
        with open(MAIN_PY, encoding="utf-8") as f:
            source = f.read()
        # PEP 723's reference regular expression, and what the block must say
        blocks = re.findall(r"(?m)^# /// (?P<type>[a-zA-Z0-9-]+)$\s"
                            r"(?P<content>(^#(| .*)$\s)+)^# ///$", source)
        self.assertEqual([b[0] for b in blocks], ["script"])
        content = "".join(line[2:] for line in blocks[0][1].splitlines(keepends=True))
        self.assertEqual(content, 'requires-python = ">=3.9"\ndependencies = []\n')


    def test_the_default_run_is_short_and_its_sentences_too(self):
        with mock.patch.object(main, "_benchmark_samples", lambda n, reps: ([3e-8 * n],
                                                                            [5e-9 * n])):
            status, out, _ = run_main()
        words, sentences = prose(out)
        self.assertEqual(status, 0)
        self.assertLessEqual(len(words), 150)
        self.assertLessEqual(max(len(s.split()) for s in sentences), 30)

    # `all` ends with a line for each of the lesson's three problems and three
    # exercises, each its finding, ended once.
    def opening(self, results):
        lines = main._summary(results).splitlines()
        self.assertEqual(lines[0],
                         "=== the lesson's three problems and three exercises, as found here ===")
        return lines[1:]

    def test_a_range_of_one_value_is_that_value_and_a_sentence_ends_once(self):
        rows = [{"n": 1_000, "rnn_s": 4.8e-5, "attn_s": 1e-5, "ratio": 4.8, "spread": 1.0}]
        for low, high, said in ((4.8, 4.8, "4.8x"), (3.2, 5.4, "3.2x to 5.4x")):
            result = {"rows": rows, "reps": 3,
                      "finding": {"slower": "rnn_style", "low": low, "high": high}}
            self.assertIn(f"Here rnn_style took {said} as long (fastest of 3 timings).",
                          " ".join(main.render_wallclock(result).split()))
        one = main.sweep((64,), 1, 10)
        self.assertEqual(self.opening({"sweep": one}), ["sweep: one size, no slope."])
        # the three problems and the three exercises, in the lesson's order; no other
        self.assertEqual([name for name, s in main.SECTIONS.items() if s.headline],
                         ["depth", "scan", "hidden", "sweep", "gradient", "capacity"])
        self.assertEqual(self.opening({"wallclock": None, "ssm": None, "work": None,
                                       "cost": None, "generate": None, "train": None}), [])

    def test_json_has_a_key_per_section_its_fields_and_the_options_given(self):
        status, out, _ = run_main("--json", *FAST)
        self.assertEqual(status, 0)
        data = json.loads(out)
        self.assertEqual(list(data), ["depth", "wallclock", "scan"])
        self.assertEqual(data["depth"][0], {"n": 64, "rnn_depth": 64, "attn_depth": 6,
                                            "depth_ratio": 64 / 6})
        row = data["wallclock"]["rows"][0]
        self.assertEqual(data["wallclock"]["finding"],
                         main.wallclock_finding(data["wallclock"]["rows"]))
        self.assertEqual(set(row), {"n", "rnn_s", "attn_s", "ratio", "spread"})
        # the ratio of the two times as printed, to three significant digits
        self.assertEqual(row["ratio"],
                         float(f"{row['rnn_s']:.2e}") / float(f"{row['attn_s']:.2e}"))
        scan = data["scan"]
        self.assertLessEqual({"length", "mismatches", "serial_last", "parallel_last",
                              "serial_steps", "parallel_steps"}, set(scan))
        self.assertEqual((scan["length"], scan["mismatches"], scan["parallel_steps"]),
                         (1024, 0, 10))
        for sizes, expected in (("10,20", [10, 20]), ("1_000", [1000]), ("9,5,9", [9, 5]),
                                # zeros before a size in range: as many as anyone types
                                ("000000000064", [64])):
            _, out, _ = run_main("wallclock", "--json", "--sizes", sizes, "--reps", "1")
            self.assertEqual([r["n"] for r in json.loads(out)["wallclock"]["rows"]], expected)
        status, out, err = run_main("scan", "hidden", "--length", "5", "--widths", "1,3",
                                    "--reps", "1", "--json")
        self.assertEqual((status, err), (0, ""))
        data = json.loads(out)
        self.assertEqual((data["scan"]["length"], [r["width"] for r in data["hidden"]]),
                         (5, [1, 3]))

    BAD = (["nonsense"], ["--sizes", "0"], ["--sizes", "abc"], ["--sizes", "1,,2"],
           ["--sizes", str(main.MAX_SIZE + 1)], ["--reps", "0"], ["--reps", "101"],
           ["--reps", "x"], ["--frobnicate"], ["--sizes"], ["--length", "0"],
           ["--length", str(main.MAX_SCAN_LENGTH + 1)], ["--widths", str(main.MAX_WIDTH + 1)],
           ["--widths", "8,,16"], ["--lengths", "1"], ["--lengths", "1001"], ["--steps", "0"],
           ["--steps", "20000001"], ["--seeds", "21"], ["--seeds", "1,000"], ["--svg", ""],
           ["--", "--json"], ["--", "--reps", "0"], ["depth", "--", "--json"],
           ["train", "--steps", "100000", "--seeds", "20"])

    def assert_usage_error(self, argv, expected=""):
        """A bad argument: status 2, nothing on stdout, on stderr argparse's usage
        line and one line of error."""
        status, out, err = run_main(*argv)
        self.assertEqual((status, out), (2, ""), argv)
        usage, error = err.splitlines()
        self.assertEqual(usage, "usage: main.py [SECTION ...] [options]")
        self.assertTrue(error.startswith("main.py: error: "), err)
        self.assertIn(expected, error)
        return error

    def run_main(self, *argv):
        with mock.patch.object(sys, "stderr", io.StringIO()) as err:
            status, out, _ = run_main(*argv)
        return status, out, err.getvalue()

    def test_a_bad_argument_is_echoed_whole_up_to_40_characters_and_cut_at_40_past_them(self):
        for length, echoed in ((40, "y" * 40), (41, "y" * 37 + "...")):
            err = self.assert_usage_error(["y" * length], "unknown section")
            self.assertIn(f"unknown section '{echoed}' (choose from", err)
            self.assertEqual(len(echoed), 40)

    def test_bad_arguments_exit_2_with_one_line_on_stderr_not_echoed_whole(self):
        for argv in self.BAD:
            self.assert_usage_error(argv)
        self.assert_usage_error(["--sizes", ",".join(["5"] * 21)], "at most 20 values")
        for text in ("١٢", "１２", "+12", " 12 ", "12 ", "1__0", "_1", "1_", "1e3", "0x10",
                     "-5"):
            self.assert_usage_error(["--sizes", text], "digits 0-9")     # ASCII digits only
        self.assert_usage_error(["--sizes", "1,000,000"], "each must be from 1 to")   # 000
        err = self.assert_usage_error(["--sizes", "9" * 5_000], "from 1 to 10_000_000")
        self.assertNotIn("9" * main.ECHO_CHARS, err)
        self.assert_usage_error(["--", "--json"], "unknown section '--json'")     # after --
        err = self.assert_usage_error(["x" * 5_000])
        self.assertNotIn("x" * main.ECHO_CHARS, err)
        self.assertIn("x" * (main.ECHO_CHARS - 3) + "...", err)
        self.assert_usage_error(["train", "--steps", "100000", "--seeds", "20"],
                                "main.py: error: arguments --steps, --seeds and --lengths: steps "
                                "x seeds x the sum of the lengths at most 10_000_000, got "
                                "70_000_000 (--steps at most 14_285 with these seeds and lengths)")
        # refused before any section runs: depth, first, prints nothing
        self.assert_usage_error(["depth", "train", "--steps", "5000000"],
                                "steps x seeds x the sum of the lengths at most 10_000_000, got "
                                "700_000_000 (--steps at most 71_428")
        # an option that no section chosen reads is said, not ignored; one that some does is fine
        self.assert_usage_error(["depth", "--reps", "3"], "argument --reps: read by wallclock, "
                                                          "hidden and sweep, none of the sections "
                                                          "chosen")
        self.assert_usage_error(["--lengths", "5"], "argument --lengths: read by train")
        # main() itself takes a list of strings, as sys.argv[1:] is one
        for argv in ("depth", [5], [None]):
            with self.assertRaisesRegex(TypeError, r"^main requires a list of strings"):
                main.main(argv)

    def test_help_fits_79_columns_and_lists_each_section_with_its_options(self):
        self.assertEqual(self.status, 0)
        self.assertTrue(self.text.startswith("usage: main.py"))
        self.assertLessEqual(max(len(line) for line in self.text.splitlines()), 79)
        lines = self.text.splitlines()
        for name in main.SECTIONS:
            options = sorted(o for o, users in OPTION_USERS.items() if name in users)
            start = [k for k, line in enumerate(lines) if line.startswith(f"  {name} ")]
            self.assertEqual(len(start), 1, name)
            entry = lines[start[0]]                     # with its continuation lines
            for line in lines[start[0] + 1:]:
                if not line.startswith(" " * 13):
                    break
                entry += " " + line.strip()
            listed = re.findall(r"--[a-z]+(?:-[a-z]+)*", entry)     # --tally-n is one flag
            self.assertEqual(sorted(listed), options, entry)
        self.assertTrue(any(line.startswith("  all ") for line in lines))
        self.assertNotIn("Hillis-\n", self.text)       # no word broken at its hyphen

    def option_help(self, option):
        """Return the help of one option: its line and the deeper-indented lines under it."""
        lines = self.text.splitlines()
        start = next(k for k, line in enumerate(lines) if line.startswith(f"  {option} "))
        end = next(k for k in range(start + 1, len(lines)) if not lines[k].startswith("    "))
        return " ".join(lines[start:end])

    def test_option_help_states_its_limits_as_the_parser_checks_them(self):
        for option, users in OPTION_USERS.items():
            section = main.SECTIONS[min(users)]
            o = next(o for o in section.options if o.flag == option)
            self.assertIn(f"{o.low:_} to {o.high:_}", flat(self.option_help(option)), option)
            # written as they are typed: the parser takes the limits as --help writes them
            parse = main._option_type(o)
            self.assertEqual([parse(f"{o.low:_}"), parse(f"{o.high:_}")],
                             [[o.low], [o.high]] if o.many else [o.low, o.high], option)
        self.assertIn("(1 to 20; default 3)", flat(self.option_help("--reps")))
        self.assertIn("(each 2 to 100; default 5,10,20)", flat(self.option_help("--lengths")))
        self.assertIn("a million take about 8 MB, 16 MB at peak",
                      flat(self.option_help("--sizes")))
        # "the fastest kept": of samples 30, 10 and 20 us a call, the table shows 10 us
        self.assertIn("timings of each function, the fastest kept",
                      flat(self.option_help("--reps")))
        with mock.patch.object(main, "sample_per_call",
                               lambda functions, reps: [[3e-5, 1e-5, 2e-5]] * len(functions)):
            row = main.wallclock_rows((1_000,), 3)[0]
        self.assertEqual((row["rnn_s"], row["attn_s"]), (1e-5, 1e-5))

    # The README's rule: a new part is one block in main.py. Registered here at run time, the
    # toy part gets everything else without another edit.
    def run_toy(self, *argv):
        with mock.patch.dict(main.SECTIONS, toy=toy_section()):
            return run_main(*argv)

    def test_a_new_part_runs_alone_in_all_as_json_as_a_figure_with_help(self):
        status, out, err = self.run_toy("toy", "--toy-width", "2")
        self.assertEqual((status, err), (0, ""))
        self.assertTrue(out.startswith("=== a toy ===\n"))
        status, out, _ = self.run_toy("depth", "toy", "--json")
        self.assertEqual(json.loads(out)["toy"], [{"k": k, "square": k * k} for k in (1, 2, 3)])
        with mock.patch.multiple(main, _run=lambda opts: print(opts.sections) or 0):
            self.assertIn("'toy'", self.run_toy("all")[1])
        self.assertNotIn("toy", main.SECTIONS)                  # and it is gone again
        assert_valid_figure(self, toy_section().figure(toy_rows(2)), "toy")
        with tempfile.TemporaryDirectory() as directory:
            status, _, err = self.run_toy("toy", "--svg", directory)
            self.assertEqual((status, os.listdir(directory)), (0, ["toy.svg"]))
        self.assertIn("toy.svg", err)
        status, out, _ = self.run_toy("--help")
        self.assertEqual(status, 0)
        self.assertIn("toy a throwaway part (--toy-width)", flat(out))
        self.assertIn("--toy-width W the toy's width (1 to 60; default 3)", flat(out))
        self.assertLessEqual(max(map(len, out.splitlines())), 79)
        for bad in ("0", "61", "x", "3,4"):
            status, out, err = self.run_toy("toy", "--toy-width", bad)
            self.assertEqual((status, out, err.count("\n")), (2, "", 2), bad)
            self.assertIn("main.py: error: argument --toy-width: ", err)


class TestTheWordsPrinted(unittest.TestCase):
    def test_every_output_prints_what_its_file_in_tests_data_holds(self):
        # each section's text and figure's words, --help, check --help, terms, check's
        # slips and hints, the bad commands' errors: a change of one word, number or
        # space that a learner sees fails here (tests/expected.py says what each holds)
        printed, written = expected.printed(), expected.written()
        self.assertEqual(set(written), set(printed), "python -m tests.expected writes them")
        differences = []
        for name, text in printed.items():
            text = expected.as_written(text)
            if text != written[name]:
                differences += difflib.unified_diff(
                    written[name].splitlines(keepends=True), text.splitlines(keepends=True),
                    f"tests/data/{name}.txt", "printed now")
        if differences:
            self.fail("\n" + "".join(differences) + "\nIf the change is meant: python -m "
                      "tests.expected, then read git diff tests/ before committing")


@unittest.skipUnless(os.name == "posix", "needs POSIX file descriptors and signals")
class TestSubprocess(unittest.TestCase):
    """What only a real process shows: what importing main loads, how
    `python main.py` ends on a signal or a closed pipe, and its exit status and
    stderr with its stdout an ASCII terminal or short of memory."""

    def test_an_ascii_terminal_gets_escapes_and_importing_main_loads_little(self):
        # every sample fixed at 20 us; the first line lists the heavy modules
        # that importing main alone brought in
        code = ("import sys, main\n"
                "heavy = {'argparse', 'json', 'subprocess'} & set(sys.modules)\n"
                "print('imported:', sorted(heavy))\n"
                "main._benchmark_samples = lambda n, reps: ([2e-5], [2e-5])\n"
                "sys.exit(main.main(sys.argv[1:]))")
        child = subprocess.run([*PYTHON, "-c", code, "wallclock", *FAST], cwd=ROOT,
                               capture_output=True, env=dict(os.environ, PYTHONIOENCODING="ascii"),
                               timeout=60)
        out = child.stdout.decode("ascii")
        self.assertEqual((child.returncode, child.stderr), (0, b""))
        self.assertEqual(out.splitlines()[0], "imported: []")
        self.assertRegex(out, r"1,000 +20\.0 \\xb5s +20\.0 \\xb5s +1\.0x")

    def test_a_closed_pipe_ends_every_command_quietly_buffered_or_not(self):
        # status 1 and nothing on stderr, stdout buffered as on a learner's machine
        # (no PYTHONUNBUFFERED) or not; the reader is gone before any write
        # `all` over cheap stand-ins for the sections: what it prints goes out as in
        # `python main.py all`, from main() under __main__, in a fraction of the time
        toy = ("import sys, main\n"
               "section = main.Section('a toy', lambda o: 1, lambda r: 'toy\\n' * 9, None, (),"
               " lambda r: 'a toy')\n"
               "main.SECTIONS = dict.fromkeys(main.SECTIONS, section)\n"
               "sys.exit(main.main())")
        plain = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
        # every command prints through main(), which flushes where the pipe is caught:
        # the sections, `all`, and argparse's help, which exits first
        buffered = [("main.py", *FAST), ("-c", toy, "all"), ("main.py", "--help"),
                    ("main.py", "check", "--help")]
        unbuffered = [("main.py", *FAST), ("main.py", "depth", "-h")]
        for env, argvs in ((plain, buffered), (dict(plain, PYTHONUNBUFFERED="1"), unbuffered)):
            for argv in argvs:
                child = subprocess.Popen([*PYTHON, *argv], cwd=ROOT, env=env,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                child.stdout.close()
                _, err = child.communicate()
                # --help: argparse ignores a failed write and exits 0, as Python's own
                statuses = (0, 1) if argv[-1] in ("--help", "-h") else (1,)
                self.assertIn(child.returncode, statuses, argv)
                self.assertEqual(err, b"", (argv, "PYTHONUNBUFFERED" in env))

    def test_a_closed_stdout_ends_every_command_quietly_with_its_usual_status(self):
        # `python main.py >&-`: Python sets sys.stdout to None and print() writes
        # nothing; each command ends as it would have, a bad argument with 2
        for argv, status in ((FAST, 0), (("--help",), 0), (("nosuch",), 2)):
            child = subprocess.run([*PYTHON, "main.py", *argv], cwd=ROOT, capture_output=True,
                                   preexec_fn=lambda: os.close(1), timeout=60)
            self.assertEqual(child.returncode, status, argv)
            self.assertNotIn(b"Traceback", child.stderr, argv)

    def test_output_reaches_a_stdout_that_is_not_a_file(self):
        class Notebook:                 # a notebook's stdout: write and flush, nothing more
            def __init__(self):
                self.text = ""

            def write(self, text):
                self.text += text

            def flush(self):
                pass
        notebook = Notebook()
        with mock.patch.object(sys, "stdout", notebook):
            self.assertEqual(main.main(["depth"]), 0)
        self.assertIn("=== serial-depth comparison ===", notebook.text)

    def test_ctrl_c_exits_130_sigterm_ends_it_and_an_ignored_hangup_stays_ignored(self):
        # Python's own conventions: main() installs no signal handler. Ctrl-C
        # (Python's handler restored: `cmd &` in a script leaves SIGINT ignored)
        # is status 130 and no traceback; SIGTERM's default action ends the
        # process; under nohup (SIGHUP ignored) the training runs to its end.
        def interruptible():
            signal.signal(signal.SIGINT, signal.default_int_handler)

        def hangup_ignored():
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
        for signum, steps, before, status in (
                (signal.SIGINT, 10**6, interruptible, 130),
                (signal.SIGTERM, 10**6, None, -signal.SIGTERM),
                (signal.SIGHUP, 20, hangup_ignored, 0)):
            child = start_training(steps, preexec_fn=before)
            child.send_signal(signum)
            out, err = child.communicate(timeout=60)
            self.assertEqual((child.returncode, err), (status, b""), signum)
            self.assertEqual(b"=== problem 2" in out, signum == signal.SIGHUP)


if __name__ == "__main__":
    unittest.main()
