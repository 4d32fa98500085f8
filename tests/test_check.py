"""check: a learner's own solutions graded. A corpus of right and wrong
solutions, each with the verdict and the words it must get, graded in this
process from the events a grading child would send; the plain data that
crosses from the child; the report; the command line. The grader's real child
processes (hangs, exits, limits, threads, pools, signals) are tested in
test_processes, whose children run while the other files' tests do."""

import contextlib
import json
import operator
import os
import shutil
import tempfile
import unittest

import main
from tests.support import NAN, ahead, patched, run_main

# Calls of check's public functions that raise ValueError (gathered, with
# every other file's, by tests/test_errors.py).
BAD_CALLS = {
    "check_solutions": [(("x.py",), {"seconds": 0}), (("x.py",), {"seconds": NAN})],
    "read_solution": [((os.devnull,), {})],                 # a device, not a file
}

HILLIS_STEELE = '''
def parallel_scan(xs, op=operator.add):
    out, step = list(xs), 1
    while step < len(out):
        out = out[:step] + [op(out[i - step], out[i]) for i in range(step, len(out))]
        step *= 2
    return out
'''

LOOP = '''
def {name}(xs, op=operator.add):
    out = []
    for x in xs:
        out.append(op(out[-1], x) if out else x)
    return out
'''

# Blelloch's exclusive scan (needs an identity: here the first value's own
# left neighbour never is one), made inclusive by combining each element in.
BLELLOCH = '''
def parallel_scan(xs, op=operator.add):
    n = len(xs)
    if n == 0:
        return []
    size = 1 << (n - 1).bit_length()
    tree = list(xs) + [None] * (size - n)
    def comb(a, b):
        return b if a is None else a if b is None else op(a, b)
    d = 1
    while d < size:
        for i in range(2 * d - 1, size, 2 * d):
            tree[i] = comb(tree[i - d], tree[i])
        d *= 2
    tree[size - 1] = None
    while d > 1:
        d //= 2
        for i in range(2 * d - 1, size, 2 * d):
            tree[i - d], tree[i] = tree[i], comb(tree[i], tree[i - d])
    return [comb(tree[i], xs[i]) for i in range(n)]
'''

# name: (source, the function graded, verdict, words its detail must hold)
SOLUTIONS = {
    "Hillis-Steele": (HILLIS_STEELE, "parallel_scan", "pass",
                      "correct and parallel: depth 10 and 9,217 combines at N = 1,024"),
    "Blelloch, made inclusive": (BLELLOCH, "parallel_scan", "pass", "correct and parallel"),
    "a loop": (LOOP.format(name="parallel_scan"), "parallel_scan", "not parallel",
               "its depth at N = 100 is 99 (a chain"),
    "Hillis-Steele at powers of two only": (
        HILLIS_STEELE.replace("    out, step", "    if len(xs) & (len(xs) - 1):\n"
                              "        return serial(xs, op)\n    out, step")
        + LOOP.format(name="serial"), "parallel_scan", "not parallel", "at N = 100 is 99"),
    "off by one round": (HILLIS_STEELE.replace("step < len(out)", "step < len(out) - 1"),
                         "parallel_scan", "FAIL", "at N = 2 with random floats: got "
                         "[0.4835739785214588, 0.5903871311313933], expected"),
    "wrong order": (HILLIS_STEELE.replace("op(out[i - step], out[i])",
                                          "op(out[i], out[i - step])"), "parallel_scan",
                    "FAIL", "got ['a', 'ba'], expected ['a', 'ab']: "
                    "op(out[i], out[i - step]) where op(out[i - step], out[i]) belongs"),
    "wrong order, serial": (LOOP.format(name="serial_scan").replace("op(out[-1], x)",
                                                                    "op(x, out[-1])"),
                            "serial_scan", "FAIL", "op(x, total) where op(total, x) belongs"),
    "ignores op": (HILLIS_STEELE.replace("op(out[i - step], out[i])", "out[i - step] + out[i]"),
                   "parallel_scan", "FAIL", "with affine maps (op: their composition, not +): "
                   "got [[573297, 698098], [573297, 698098, 543109, 999356]]"),
    "exclusive": ('''
def serial_scan(xs, op=operator.add):
    out, total = [], 0
    for x in xs:
        out.append(total)
        total = op(total, x)
    return out
''', "serial_scan", "FAIL", "at N = 1 with random floats: got [0], expected [0.2458"
                           "0338977940386]: your first total is 0: this is the exclusive scan"),
    "starts from 0.0": ('''
def serial_scan(xs, op=operator.add):
    out, total = [], 0.0
    for x in xs:
        total = op(total, x)
        out.append(total)
    return out
''', "serial_scan", "FAIL", "at N = 1 with strings (op: concatenation) it gave op 0.0, "
                           "which is no value of the list"),
    "changes its input": ('''
def serial_scan(xs, op=operator.add):
    for i in range(1, len(xs)):
        xs[i] = op(xs[i - 1], xs[i])
    return xs
''', "serial_scan", "FAIL", "at N = 2 with random floats it changed its input"),
    "raises": ('''
def attention_style(xs):
    return sum(xs) / (len(xs) - 1)
''', "attention_style", "FAIL", "ZeroDivisionError"),
    "the sum": ("def attention_style(xs):\n    return sum(xs)\n", "attention_style", "FAIL",
                "this is the sum"),
    "depth off by one": ("def depth(n):\n    return n, n.bit_length()\n", "depth", "FAIL",
                         "at n = 2: got [2, 2], expected [2, 1]"),
    "depth by math.log2": ("import math\ndef depth(n):\n    return n, max(1, math.ceil("
                           "math.log2(n)))\n", "depth", "FAIL",
                           "at n = 2**60 + 1: got [1152921504606846977, 60], expected "
                           "[1152921504606846977, 61]: math.log2 rounds for large n"),
    "depth 0 for one value": ("def depth(n):\n    return n, (n - 1).bit_length()\n", "depth",
                              "FAIL", "one value still takes depth 1"),
    "ignores decay": ('''
def rnn_style(xs, decay=0.9):
    h = 0.0
    for x in xs:
        h = 0.9 * h + x
    return h
''', "rnn_style", "FAIL", "decay 0.5: got 1.0256037118007062, expected 0.8321741203921227: "
                          "this is the answer for decay = 0.9"),
    "the vector state ignores decay": ('''
from main import hidden_weights
def rnn_style_vector(xs, width=64, decay=0.9):
    A, b = hidden_weights(width)
    h = [0.0] * width
    for x in xs:
        h = [sum(a * v for a, v in zip(row, h)) + bi * x for row, bi in zip(A, b)]
    return h
''', "rnn_style_vector", "FAIL", "width 1, decay 0.5: got [1.0256037118007062], expected "
                                 "[0.8321741203921227]: this is the answer for decay = 0.9"),
    "a float that equals everything": ('''
class Yes(float):
    def __eq__(self, other):
        return True
    __ne__ = __sub__ = __rsub__ = lambda self, other: 0.0
def attention_style(xs):
    return Yes(12.5)
''', "attention_style", "FAIL", "got 12.5, expected 0.2458"),
    "an int too large for a float": ("def rnn_style(xs, decay=0.9):\n    return 10 ** 400\n",
                                     "rnn_style", "FAIL", "got 1000000000"),
    "a repr that raises": ('''
class Odd:
    def __repr__(self):
        raise ValueError("no")
def attention_style(xs):
    return Odd()
''', "attention_style", "FAIL", "got Odd: an object whose repr() raised"),
    "sys.exit inside": ("import sys\ndef depth(n):\n    sys.exit(3)\n", "depth", "FAIL",
                        "at n = 1 it called sys.exit(3): return the value instead"),
    "KeyboardInterrupt inside": ("def depth(n):\n    raise KeyboardInterrupt\n", "depth",
                                 "FAIL", "at n = 1 it raised:"),
    "a generator": ("def serial_scan(xs, op=None):\n    yield from xs\n", "serial_scan", "FAIL",
                    "return a list, not a generator"),
    "not written": ("def depth(n):\n    raise NotImplementedError\n", "depth",
                    "not written yet", ""),
}

PATH = "/learner/solution.py"
CASES = {}


def cases(name):
    """check's cases for one function, computed once per run."""
    if name not in CASES:
        CASES[name] = main._check_cases(name)
    return CASES[name]


class _Decided(Exception):
    """The case just sent decides the verdict: the rest need not run."""


def record_of(function, name, path=PATH):
    """Run function as the grading child does, in this process, up to the first
    case that goes wrong (the verdict reads none after it); return the record
    check_solutions would build from the events."""
    events, expected = [], iter(cases(name))

    def send(event):
        events.append(event)
        if event["event"] == "case" and ("raised" in event or event["changed"]
                                         or not main._same(event["got"],
                                                           next(expected)["expected"])):
            raise _Decided
    with contextlib.suppress(_Decided):
        main._run_cases(function, cases(name), path, send)
        if name == "parallel_scan":
            main._run_work(function, path, send)
    return {"cases": [e for e in events if e["event"] == "case"],
            "work": [e for e in events if e["event"] == "work"],
            "stopped": None, "printed": None}


def load(source, path=PATH):
    """Return the names a solution's source defines, compiled as the file at path."""
    names = {"operator": operator, "__name__": "learner"}
    exec(compile(source, path, "exec"), names)
    return names


def grade_here(source, name):
    function = load(source)[name]
    return main._verdict(name, cases(name), record_of(function, name), main.CHECK_SECONDS)


def graded_here(path, names=main.CHECKED, seconds=main.CHECK_SECONDS):
    """check_solutions without its child processes: the same report, in this process."""
    path = os.path.abspath(path)
    names_in_file = load(main.read_solution(path).decode("utf-8"), path)
    found = {name: main._defined_in(names_in_file.get(name), path) for name in main.CHECKED}
    records = {name: record_of(names_in_file[name], name, path) for name in names
               if found[name] == "here"}
    return main._grades({"event": "imported", "found": found, "printed": None}, records,
                        {name: cases(name) for name in names}, names, seconds)


def graded_corpus():
    """(verdict, detail) of every solution, of this project's own functions
    and of part 4's brent_kung_scan, graded as above (0.15 s)."""
    graded = {label: grade_here(source, name)
              for label, (source, name, _, _) in SOLUTIONS.items()}
    ours = [(f"own {name}", getattr(main, name), name) for name in main.CHECKED]
    for label, function, name in ours + [("brent_kung_scan", main.brent_kung_scan,
                                          "parallel_scan")]:
        record = record_of(function, name, main.__file__)
        graded[label] = main._verdict(name, cases(name), record, main.CHECK_SECONDS)
    return graded


# Graded in a child process started as this file is imported, while the other
# files' tests run; the verdicts come back as JSON and are checked here.
CORPUS = ahead(graded_corpus)


class TestVerdicts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.graded = {label: tuple(got) for label, got in CORPUS.returned().items()}

    def test_each_solution_gets_its_verdict_and_its_words(self):
        for label, (source, name, verdict, words) in SOLUTIONS.items():
            with self.subTest(label):
                got, detail = self.graded[label]
                self.assertEqual(got, verdict, detail)
                self.assertIn(words, detail.replace("\n", " "))

    def test_a_learners_traceback_shows_only_the_learners_lines(self):
        _, detail = self.graded["raises"]
        self.assertIn(f'File "{PATH}", line 3, in attention_style', detail)
        self.assertNotIn("main.py", detail)

    def test_a_deep_recursion_shows_its_last_lines_and_how_many_more(self):
        source = "def depth(n):\n    return depth(n + 1)\n"
        _, detail = grade_here(source, "depth")
        self.assertLessEqual(detail.count(f'File "{PATH}"'), 4)
        self.assertRegex(detail, r"\.\.\. [0-9,]+ earlier calls in your file")
        self.assertIn("RecursionError", detail)

    def test_this_projects_own_functions_pass(self):
        details = {}
        for name in main.CHECKED:
            verdict, details[name] = self.graded[f"own {name}"]
            self.assertEqual(verdict, "pass", (name, details[name]))
        # the README's figure: measured on the running code (depth 10 and 9,217
        # combines), and the formula check compares with (10 rounds and 9,217)
        self.assertIn("depth 10 and 9,217 combines at N = 1,024, against Hillis-Steele's 10 "
                      "rounds and 9,217 combines", details["parallel_scan"])

    def test_part_4s_brent_kung_scan_is_correct_and_parallel(self):
        self.assertEqual(self.graded["brent_kung_scan"], (
            "pass", "correct and parallel: depth 18 and 2,036 combines at N = 1,024, against "
            "Hillis-Steele's 10 rounds and 9,217 combines"))

    def test_a_stop_names_the_case_it_stopped_at(self):
        record = {"cases": [], "work": [], "printed": None, "stopped": "did not finish in 10 s"}
        self.assertEqual(main._verdict("depth", cases("depth"), record, 10),
                         ("FAIL", "at n = 1 it did not finish in 10 s"))


class ScriptedChild:
    """A stand-in for _GradingProcess that sends the events of a child which
    imports the file and then ends before it starts any function."""
    started = 0

    def __init__(self, job):
        type(self).started += 1
        if type(self).started > 3:          # the same child again and again: no progress
            raise RuntimeError("check_solutions started the same grading again")
        self.events = iter([{"event": "imported", "printed": None,
                             "found": dict.fromkeys(main.CHECKED, "here")}])
        self.ended = "exit status 4"

    def receive(self, deadline):
        return next(self.events, {"event": "ended"})

    def close(self, wait=0.0):
        pass


class TestRestarts(unittest.TestCase):
    def test_a_child_that_ends_between_two_functions_fails_the_next_one(self):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "mine.py")
            with open(path, "w", encoding="utf-8") as f:
                f.write("def depth(n):\n    return n, 1\n")
            with patched(main, _GradingProcess=ScriptedChild):
                ScriptedChild.started = 0
                report = main.check_solutions(path, ("depth", "serial_scan"))
        self.assertEqual([(r["name"], r["verdict"], r["detail"]) for r in report["functions"]],
                         [("depth", "FAIL", "at n = 1 it ended its process (exit status 4: "
                           "os._exit, or a crash)"),
                          ("serial_scan", "FAIL", "at N = 0 with random floats it ended its "
                           "process (exit status 4: os._exit, or a crash)")])


class TestPlainData(unittest.TestCase):
    """Only plain data crosses from the child: subclasses read as their base values."""

    def test_subclasses_read_as_what_they_are(self):
        class Liar(float):
            def __eq__(self, other):
                return True

        class Loud(str):
            def __str__(self):
                return "everything"
        got = main._plain([Liar(2.5), (1, Loud("a")), True, None])
        self.assertEqual(json.loads(json.dumps(got)), [2.5, [1, "a"], True, None])
        self.assertIs(type(got[0]), float)

    def test_what_is_not_plain_is_described(self):
        self.assertEqual(main._plain(1j), {"object": "complex: 1j"})
        self.assertEqual(main._plain(10 ** 5000), {"object": "an int of about 5,000 digits"})

    def test_same_is_strict_about_kinds_and_never_equal_on_nan(self):
        self.assertTrue(main._same([1.0, 2.0 + 1e-12], [1.0, 2.0]))
        self.assertFalse(main._same([True, 1], [1, 1]))
        self.assertFalse(main._same(float("nan"), float("nan")))
        self.assertTrue(main._same(float("inf"), float("inf")))        # alone or in a list
        self.assertTrue(main._same([float("inf"), 1.0], [float("inf"), 1.0 + 1e-12]))
        self.assertFalse(main._same([float("inf")], [-float("inf")]))
        self.assertFalse(main._same([5.0, 1.0], [float("inf"), 1.0]))   # no infinite tolerance
        self.assertTrue(main._same([[1, 2], [3, 4]], [[1, 2], [3, 4]]))
        self.assertFalse(main._same([[1, 2], [3, True]], [[1, 2], [3, 1]]))
        self.assertFalse(main._same(10 ** 400, 1.0))
        self.assertFalse(main._same({"object": "x"}, [1.0]))


class TestReport(unittest.TestCase):
    def report(self, **functions):
        return {"file": {"verdict": "imported", "detail": "", "printed": None},
                "functions": [{"name": name, "verdict": verdict, "detail": "", "printed": None}
                              for name, verdict in functions.items()]}

    def test_the_tally_counts_only_functions_written(self):
        text = main.render_check("f.py", self.report(depth="pass", rnn_style="not written yet",
                                                     serial_scan="not attempted"))
        self.assertTrue(text.endswith("1 of 1 written passed."))
        text = main.render_check("f.py", self.report(depth="not written yet"))
        self.assertTrue(text.endswith("Nothing written yet: each function still raises "
                                      "NotImplementedError."))

    def test_printed_output_stays_beside_its_function_and_short(self):
        printed = main._Printed()
        for k in range(1_257):
            print("Counted(1, depth=0)", k, file=printed)
        report = self.report(depth="pass")
        report["functions"][0]["printed"] = printed.take()
        lines = main.render_check("f.py", report).splitlines()
        self.assertEqual(lines[2], "       it printed 1,257 lines; the first 3:")
        self.assertEqual(len(lines), 7)
        self.assertIsNone(printed.take())


class TestCommandLine(unittest.TestCase):
    """check's command line, graded in this process (test_processes runs the children)."""

    def setUp(self):
        self.directory = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.directory)

    def test_the_template_unchanged_is_not_written_yet_and_status_1(self):
        status, template, _ = run_main("check", "--template")
        self.assertEqual(status, 0)
        path = self.write("template.py", template)
        with patched(main, check_solutions=graded_here):  # children: in test_processes
            status, out, err = run_main("check", path)
        self.assertEqual((status, err), (1, ""))
        for name in main.CHECKED:
            self.assertIn(f"{name:<16}  not written yet", out)
        self.assertIn("Nothing written yet", out)

    def test_check_help_is_status_0(self):
        status, out, err = run_main("check", "--help")
        self.assertEqual((status, err), (0, ""))
        self.assertIn("check --template", out)

    def test_bad_arguments_are_one_line_and_status_2(self):
        big = self.write("big.py", "#" * (main.CHECK_MAX_BYTES + 1))
        for argv in (["check"], ["check", "a.py", "b.py"],
                     ["check", os.path.join(self.directory, "missing.py")],
                     ["check", self.directory], ["check", big]):
            status, out, err = run_main(*argv)
            self.assertEqual((status, out), (2, ""), argv)
            self.assertEqual(len(err.splitlines()), 1, err)

    def write(self, name, source):
        path = os.path.join(self.directory, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
        return path


class TestNotPython(unittest.TestCase):
    """Compiled in the grading child, under its limits: one line and status 2."""

    def test_a_syntax_error_and_an_expression_too_deep_are_one_line(self):
        sent = []
        job = {"path": "/learner/x.py", "regular": True}
        for source, words in ((b"def f(:\n", "(line 1)"),
                              (b"x = " + b"-" * 10_000 + b"1\n", "nested too deeply")):
            sent.clear()
            self.assertIsNone(main._learner_module(dict(job, source=source), sent.append))
            self.assertEqual(sent[0]["event"], "not python")
            self.assertIn(words, sent[0]["detail"])


if __name__ == "__main__":
    unittest.main()
