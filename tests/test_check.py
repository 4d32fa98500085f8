"""check: a learner's own solutions graded. Right and wrong solutions, each
graded in this process with the grading process's own code (TestVerdicts);
then the grading process itself, for what only a real process shows: hangs,
exits, limits, what the file starts, a forged channel, signals."""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
from unittest import mock

import main
from tests.support import NAN, PYTHON, ROOT, alive, gone_within, raising, run_main

# Calls of check's public functions that raise ValueError (gathered, with
# every other file's, by tests/test_errors.py).
BAD_CALLS = {
    "check_solutions": [((os.devnull,), {}), (("x.py",), {"seconds": 0}),
                        (("x.py",), {"seconds": NAN}), (("x.py",), {"names": ["mean"]})],
}

# The lesson's Python functions as the lesson writes them (the seed script).
LESSON = '''
import math
import time


def rnn_style(xs, decay=0.9):
    h = 0.0
    for x in xs:
        h = decay * h + x
    return h


def attention_style(xs):
    return sum(xs) / len(xs)


def serial_scan(xs):
    out = []
    acc = 0.0
    for x in xs:
        acc += x
        out.append(acc)
    return out


def parallel_scan(xs):
    out = list(xs)
    step = 1
    n = len(out)
    while step < n:
        new = list(out)
        for i in range(step, n):
            new[i] = out[i] + out[i - step]
        out = new
        step *= 2
    return out


def benchmark(n, reps=3):
    xs = [0.001 * (i % 17) for i in range(n)]
    best_rnn = math.inf
    for _ in range(reps):
        t0 = time.perf_counter()
        _ = rnn_style(xs)
        best_rnn = min(best_rnn, time.perf_counter() - t0)
    best_attn = math.inf
    for _ in range(reps):
        t0 = time.perf_counter()
        _ = attention_style(xs)
        best_attn = min(best_attn, time.perf_counter() - t0)
    return best_rnn, best_attn


def depth(n):
    rnn_depth = n
    attn_depth = max(1, math.ceil(math.log2(n)))
    return rnn_depth, attn_depth
'''

HILLIS_STEELE = '''
import operator
def parallel_scan(xs, op=operator.add):
    out, step = list(xs), 1
    while step < len(out):
        out = out[:step] + [op(out[i - step], out[i]) for i in range(step, len(out))]
        step *= 2
    return out
'''

LOOP = '''
import operator
def {name}(xs, op=operator.add):
    out = []
    for x in xs:
        out.append(op(out[-1], x) if out else x)
    return out
'''

# Exercise 1 as the template asks for it: right, until a test changes one line.
VECTOR = '''
from main import hidden_weights
def rnn_style_vector(xs, width=64, decay=0.9):
    A, b = hidden_weights(width, decay)
    h = [0.0] * width
    for x in xs:
        h = [sum(a * v for a, v in zip(row, h)) + bi * x for row, bi in zip(A, b)]
    return h
'''


def replaced(source, old, new):
    assert old in source, old
    return source.replace(old, new)


# name: (source, the function graded, verdict, words its detail must hold)
SOLUTIONS = {
    "Hillis-Steele": (HILLIS_STEELE, "parallel_scan", "pass",
                      "correct and parallel: depth 10 and 9,217 combines at N = 1,024"),
    "a loop": (LOOP.format(name="parallel_scan"), "parallel_scan", "not parallel",
               "with op left out its depth at N = 100 is 99 (a chain"),
    "parallel only for +": (replaced(HILLIS_STEELE, "    out, step", "    if op is not "
                                     "operator.add:\n        return loop(xs, op)\n    out, step")
                            + LOOP.format(name="loop"), "parallel_scan", "not parallel",
                            "with op given its depth at N = 100 is 99"),
    "square-root blocks": ('''
import math, operator
def parallel_scan(xs, op=operator.add):
    out, size = [], max(1, math.isqrt(len(xs)))
    for start in range(0, len(xs), size):
        block = [xs[start]]
        for x in xs[start + 1:start + size]:
            block.append(op(block[-1], x))
        out += [op(out[-1], v) for v in block] if out else block
    return out
''', "parallel_scan", "not parallel", "(growing about as N^0.5)"),
    "wrong order": (replaced(HILLIS_STEELE, "op(out[i - step], out[i])",
                             "op(out[i], out[i - step])"), "parallel_scan", "FAIL",
                    "got ['a', 'ba'], expected ['a', 'ab']: op(out[i], out[i - step]) where"),
    "wrong order, serial": (replaced(LOOP.format(name="serial_scan"), "op(out[-1], x)",
                                     "op(x, out[-1])"), "serial_scan", "FAIL",
                            "op(x, total) where op(total, x) belongs"),
    "step from 2": (replaced(HILLIS_STEELE, "list(xs), 1", "list(xs), 2"), "parallel_scan",
                    "FAIL", "either your first round combines with the value 2 back"),
    "one round short": (replaced(HILLIS_STEELE, "while step <", "while 2 * step <"),
                        "parallel_scan", "FAIL", "or one round short"),
    "in place": ('''
import operator
def parallel_scan(xs, op=operator.add):
    out, step = list(xs), 1
    while step < len(out):
        for i in range(step, len(out)):
            out[i] = op(out[i - step], out[i])
        step *= 2
    return out
''', "parallel_scan", "FAIL", "updated in place from left to right"),
    "a recursion that drops op": ('''
import operator
def parallel_scan(xs, op=operator.add):
    if len(xs) <= 1:
        return list(xs)
    left, right = parallel_scan(xs[:len(xs) // 2]), parallel_scan(xs[len(xs) // 2:])
    return left + [op(left[-1], r) for r in right]
''', "parallel_scan", "FAIL", "your recursion calls itself without op: pass op on"),
    "ignores op": (replaced(HILLIS_STEELE, "op(out[i - step], out[i])",
                            "out[i - step] + out[i]"), "parallel_scan", "FAIL",
                   "these are the totals of +"),
    "+ for numbers": (replaced(LOOP.format(name="serial_scan"), "op(out[-1], x) if out",
                               "out[-1] + x if out and isinstance(x, float) else op(out[-1], x)"
                               " if out"), "serial_scan", "FAIL", "floats near 1 (op: *)"),
    "ints made floats": (replaced(LOOP.format(name="serial_scan"), "for x in xs:", "for x in ("
                                  "float(x) if type(x) is int else x for x in xs):"),
                         "serial_scan", "FAIL",
                         "a float where an int belongs"),
    "* as its default": (replaced(LOOP.format(name="serial_scan"), "operator.add",
                                  "operator.mul"), "serial_scan", "FAIL",
                         "at N = 2, random floats, op left out"),
    "op without a default": (replaced(LOOP.format(name="serial_scan"), "op=operator.add", "op"),
                             "serial_scan", "FAIL", "missing 1 required positional argument"),
    "exclusive": ('''
def serial_scan(xs, op=None):
    out, total = [], 0
    for x in xs:
        out.append(total)
        total += x
    return out
''', "serial_scan", "FAIL", "got [0], expected [-0.7312715117751976]: your first total is 0"),
    "starts from 0.0": ('''
def serial_scan(xs, op=None):
    out, total = [], 0.0
    for x in xs:
        total = op(total, x) if op else total + x
        out.append(total)
    return out
''', "serial_scan", "FAIL", "it gave op 0.0, which is no value of the list"),
    "changes its input": ('''
def serial_scan(xs, op=None):
    for i in range(1, len(xs)):
        xs[i] = xs[i - 1] + xs[i]
    return xs
''', "serial_scan", "FAIL", "at N = 2, random floats, op left out (xs = [0.9120685437784988, "
                           "0.8956549741186988]): it changed its input"),
    "one list for every call": (replaced(LOOP.format(name="serial_scan"), "    out = []\n", "")
                                + "out = []\n", "serial_scan", "FAIL",
                                "it returned the list it returned the call before"),
    "an iterator": ("import itertools\ndef serial_scan(xs, op=None):\n"
                    "    return map(float, xs)\n", "serial_scan", "FAIL",
                    "return a list (list(...) makes one)"),
    "raises": ("def attention_style(xs):\n    return sum(xs) / (len(xs) - 1)\n",
               "attention_style", "FAIL", "ZeroDivisionError"),
    "the sum": ("def attention_style(xs):\n    return sum(xs)\n", "attention_style", "FAIL",
                "this is the sum"),
    "ignores decay": (replaced(LESSON, "h = decay * h + x", "h = 0.9 * h + x"), "rnn_style",
                      "FAIL", "decay 0.5 (xs = [0.9120685437784988, 0.8956549741186988]): got "
                         "1.7165166635193478, expected 1.3516892460079482: this is the answer "
                         "for decay = 0.9"),
    "depth off by one": ("def depth(n):\n    return n, n.bit_length()\n", "depth", "FAIL",
                         "at n = 2: got [2, 2], expected [2, 1]"),
    "depth 0 for one value": ("def depth(n):\n    return n, (n - 1).bit_length()\n", "depth",
                              "FAIL", "one value still takes depth 1"),
    "depth by math.log": ("import math\ndef depth(n):\n    return n, max(1, math.ceil("
                          "math.log(n, 2)))\n", "depth", "FAIL",
                          "at n = 2**29: got [536870912, 30], expected [536870912, 29]: "
                          "math.log rounds"),
    "depth as a float": ("import math\ndef depth(n):\n    return n, max(1.0, math.log2(n))\n",
                         "depth", "FAIL", "a float where an int belongs"),
    "depth by int(log2(n - 1)) + 1": (
        "import math\ndef depth(n):\n    return n, 1 if n == 1 else int(math.log2(n - 1)) + 1\n",
        "depth", "pass", "past 2**48 its float logarithm rounds (at n = 2**49 it gave 50, not "
        "49)"),
    "sys.exit inside": ("import sys\ndef depth(n):\n    sys.exit(3)\n", "depth", "FAIL",
                        "at n = 1 it called sys.exit(3): return the value instead"),
    "reads input": ("def depth(n):\n    return n, int(input())\n", "depth", "FAIL",
                    "it read input (input()?)"),
    "a float that equals everything": ('''
class Yes(float):
    def __eq__(self, other):
        return True
def attention_style(xs):
    return Yes(12.5)
''', "attention_style", "FAIL", "got 12.5, expected -0.7312715117751976"),
    "an int too large to send": ("def rnn_style(xs, decay=0.9):\n    return 10 ** 5000\n",
                                 "rnn_style", "FAIL", "got an int of about 5,000 digits"),
    "the vector state ignores decay": (replaced(VECTOR, "(width, decay)", "(width)"),
                                       "rnn_style_vector", "FAIL",
                                       "this is the answer for decay = 0.9"),
    "the vector state transposed": (replaced(VECTOR, "zip(row, h)) + bi * x for row, bi in "
                                             "zip(A, b)", "((A[j][i], h[j]) for j in range("
                                             "width))) + b[i] * x for i in range(width)"),
                                    "rnn_style_vector", "FAIL",
                                    "this is the answer for A transposed"),
    "width 8 as its default": (replaced(VECTOR, "width=64", "width=8"), "rnn_style_vector",
                               "FAIL", "at N = 0, width left out (64)"),
    "benchmark of constants": ("from main import rnn_style, attention_style\n"
                               "def benchmark(n, reps=3):\n    return 0.01, 0.001\n",
                               "benchmark", "FAIL", "called rnn_style 0 times"),
    "benchmark swapped": (replaced(LESSON, "return best_rnn, best_attn",
                                   "return best_attn, best_rnn"), "benchmark", "FAIL",
                          "returned attention_style's time first"),
    "benchmark with a sleep": (replaced(LESSON, "_ = rnn_style(xs)\n",
                                        "_ = rnn_style(xs)\n        time.sleep(0.005)\n"),
                               "benchmark", "FAIL", "a sleep or a print inside the timing?"),
    "benchmark sampled once": (replaced(LESSON, "for _ in range(reps)", "for _ in range(1)"),
                               "benchmark", "FAIL", "called rnn_style 1 time"),
    "benchmark, negative times": (replaced(LESSON, "time.perf_counter() - t0",
                                           "t0 - time.perf_counter()"),
                                  "benchmark", "FAIL", "both above 0"),
    "a lambda": ("import math\nattention_style = lambda xs: math.fsum(xs) / len(xs)\n",
                 "attention_style", "pass", ""),
    "a partial": ("import functools, math\ndef mean(total, xs):\n    return total(xs) / len(xs)\n"
                  "attention_style = functools.partial(mean, math.fsum)\n", "attention_style",
                  "pass", ""),
    "an instance": ("import math\nclass Mean:\n    def __call__(self, xs):\n"
                    "        return math.fsum(xs) / len(xs)\nattention_style = Mean()\n",
                    "attention_style", "pass", ""),
    "not written": ("def depth(n):\n    raise NotImplementedError\n", "depth",
                    "not written yet", ""),
}


class InProcess:
    """check's grading process, run in this one: the same requests and
    answers, through JSON, from a file written in a folder of its own."""

    def __init__(self, source, name="solution.py"):
        self.folder = tempfile.mkdtemp()
        path = os.path.join(self.folder, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(source))
        self.state = {"module": None, "last": {}, "raised": None}
        modules, sys_path = set(sys.modules), list(sys.path)
        try:
            self.file = self.ask({"kind": "import", "path": path}, 0)
        finally:
            sys.path[:] = sys_path
            for module in set(sys.modules) - modules:
                del sys.modules[module]
            shutil.rmtree(self.folder)

    def ask(self, request, seconds):
        answer = main._answer(json.loads(json.dumps(request)), self.state)
        return json.loads(json.dumps(answer))

    def grade(self, name):
        return main._grade(self, name, self.file, main.CHECK_SECONDS)


def graded_here(source):
    """Return check_solutions' report of a file, graded by InProcess."""
    grader = InProcess(source)
    here = [n for n in main.CHECKED if grader.file.get("found", {}).get(n) == "here"]
    return main._report(grader.file, {n: (*grader.grade(n), None) for n in here}, main.CHECKED)


class TestVerdicts(unittest.TestCase):
    def test_each_solution_gets_its_verdict_and_its_words(self):
        for label, (source, name, verdict, words) in SOLUTIONS.items():
            with self.subTest(label):
                got, detail = InProcess(source).grade(name)
                self.assertEqual(got, verdict, detail)
                self.assertIn(words, detail.replace("\n", " "))

    def test_the_lessons_own_code_passes(self):
        grader = InProcess(LESSON)
        verdicts = {name: grader.grade(name) for name in main.CHECKED
                    if name != "rnn_style_vector"}
        self.assertEqual({name: v for name, (v, _) in verdicts.items()},
                         dict.fromkeys(verdicts, "pass"), verdicts)
        self.assertIn("graded on sums only", verdicts["serial_scan"][1])
        self.assertIn("depth 10 and 9,217 combines", verdicts["parallel_scan"][1])
        # math.log2 first rounds at n = 2**49 + 1, where it gives 49
        self.assertIn("at n = 2**49 + 1 it gave 49, not 50", verdicts["depth"][1])

    def test_this_projects_own_functions_pass(self):
        graded = ["serial_scan", "rnn_style_vector"]    # the others pass in the tests above
        source = "from main import *\n" + "".join(
            f"{name} = lambda *args, f={name}: f(*args)\n" for name in graded)
        grader = InProcess(source)
        for name in graded:
            self.assertEqual(grader.grade(name)[0], "pass", name)

    def test_only_what_this_project_defines_is_imported(self):
        grader = InProcess("import math\nfrom main import depth, serial_scan\n"
                           "attention_style = math.fsum\n")
        self.assertEqual({n: w for n, w in grader.file["found"].items() if w != "missing"},
                         {"depth": "main.py", "serial_scan": "main.py",
                          "attention_style": "here"})

    def test_a_learners_traceback_shows_only_the_learners_lines(self):
        _, detail = InProcess(SOLUTIONS["raises"][0]).grade("attention_style")
        self.assertIn('solution.py", line 2, in attention_style', detail)
        self.assertNotIn("main.py", detail)

    def test_a_deep_recursion_shows_its_last_lines_and_how_many_more(self):
        _, detail = InProcess("def depth(n):\n    return depth(n + 1)\n").grade("depth")
        self.assertLessEqual(detail.count("solution.py"), 4)
        self.assertRegex(detail, r"\.\.\. [0-9,]+ earlier calls in your file")
        self.assertIn("RecursionError", detail)

    def test_far_more_work_than_hillis_steele_is_flagged(self):
        class TreePerPrefix:        # the counts of a scan that sums each prefix as a tree
            def ask(self, request, seconds):
                n = request["args"][0]
                return {"work": n * (n - 1) // 2, "depth": (n - 1).bit_length(),
                        "totals": list(range(1, n + 1))}
        self.assertEqual(main._parallel_verdict(TreePerPrefix(), 10, True), (
            "pass", "correct and parallel: depth 10 and 523,776 combines at N = 1,024, against "
            "Hillis-Steele's 10 rounds and 9,217 combines; 57 times its work (a tree for each "
            "prefix?)"))

    def test_an_import_that_raises_fails_the_file_and_grades_nothing(self):
        report = graded_here("1 / 0\n")
        self.assertEqual((report["file"]["verdict"], report["functions"]), ("FAIL", []))
        self.assertIn("ZeroDivisionError", report["file"]["detail"])

    def test_a_file_nested_too_deeply_to_compile_is_not_python(self):
        self.assertEqual(InProcess("x = " + "-" * 10_000 + "1\n").file,
                         {"not_python": ": nested too deeply to compile"})

    def test_a_long_input_is_shown_as_how_to_rebuild_it(self):
        case = next(c for c in main._check_cases("serial_scan")
                    if c["input"] == ("maps", 1_025))
        words = main._input_words(case)
        rng_line = words.split("xs: ")[1].rstrip(")")
        names = {}
        exec("import random\n" + rng_line.replace("; ", "\nxs = "), names)
        self.assertEqual(names["xs"], case["args"][0])


class TestPlainData(unittest.TestCase):
    """Only plain data crosses from the grading process."""

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
        self.assertEqual(main._plain(1j), {"object": "complex: 1j", "iterator": False})
        self.assertTrue(main._plain(iter([]))["iterator"])

    def test_same_is_strict_about_kinds_and_never_equal_on_nan(self):
        self.assertTrue(main._same([1.0, 2.0 + 1e-12], [1.0, 2.0]))
        self.assertFalse(main._same([True, 1], [1, 1]))
        self.assertFalse(main._same([1.0], [1]))
        self.assertFalse(main._same(float("nan"), float("nan")))
        self.assertTrue(main._same([float("inf"), 1.0], [float("inf"), 1.0 + 1e-12]))
        self.assertFalse(main._same([5.0, 1.0], [float("inf"), 1.0]))   # no infinite tolerance
        self.assertFalse(main._same([[1, 2], [3, True]], [[1, 2], [3, 1]]))
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
        report = self.report(depth="pass")
        report["functions"][0]["printed"] = {"lines": 1_257, "head": ["a", "b", "c"]}
        lines = main.render_check("f.py", report).splitlines()
        self.assertEqual(lines[2], "       it printed 1,257 lines; the first 3:")
        self.assertEqual(len(lines), 7)


class TestCommandLine(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.folder)

    def write(self, name, source):
        path = os.path.join(self.folder, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
        return path

    def test_the_template_is_python_and_unchanged_is_not_written_yet(self):
        status, template, _ = run_main("check", "--template")
        self.assertEqual(status, 0)
        self.assertTrue(template.startswith('"""My solutions'))
        with mock.patch.object(main, "check_solutions", lambda path: graded_here(template)):
            status, out, err = run_main("check", "template.py")
        self.assertEqual((status, err), (1, ""))
        for name in main.CHECKED:
            self.assertIn(f"{name:<16}  not written yet", out)

    def test_check_help_is_status_0(self):
        status, out, err = run_main("check", "--help")
        self.assertEqual((status, err), (0, ""))
        self.assertIn("check --template", out)

    @unittest.skipUnless(hasattr(os, "mkfifo"), "a FIFO")
    def test_bad_arguments_are_one_line_and_status_2(self):
        fifo = os.path.join(self.folder, "fifo")
        os.mkfifo(fifo)                 # with no writer: open() alone would block
        for argv in (["check"], ["check", "a.py", "b.py"], ["check", fifo],
                     ["check", os.path.join(self.folder, "missing.py")], ["check", self.folder],
                     ["check", self.write("big.py", "#" * (main.CHECK_MAX_BYTES + 1))]):
            status, out, err = run_main(*argv)
            self.assertEqual((status, out), (2, ""), argv)
            self.assertEqual(len(err.splitlines()), 1, err)

    def test_a_file_that_is_not_python_is_one_line_and_status_2(self):
        with mock.patch.object(main, "check_solutions", lambda path: graded_here("def f(:\n")):
            status, out, err = run_main("check", "syntax.py")
        self.assertEqual((status, out), (2, ""))
        self.assertRegex(err, r"^main.py: error: 'syntax.py' is not Python \(line 1\): [^\n]+\n$")

    def test_a_machine_limit_is_not_a_file_error(self):
        path = self.write("mine.py", "def depth(n):\n    return n, 1\n")
        no_processes = raising(BlockingIOError(11, "Resource temporarily unavailable"))
        with mock.patch.object(main, "_Grader", no_processes):
            status, out, err = run_main("check", path)
        self.assertEqual((status, out), (1, ""))
        self.assertIn("check not run: this machine's limit was reached", err)


# --------------------------------------------------------------------------
# The grading process itself: a real process is the point here.

FILES = {
    # a hang that starts a process in a session of its own
    "stuck.py": '''
        import os, subprocess, time


        def rnn_style(xs, decay=0.9):
            with open(__file__ + ".pid", "w") as f:
                f.write(str(subprocess.Popen(["sleep", "300"], start_new_session=True).pid))
            while True:
                time.sleep(0.01)
        ''',
    # an exit, endless memory, a forged answer on the channel
    "ends.py": '''
        import os, time


        def attention_style(xs):
            os._exit(3)


        def serial_scan(xs, op=None):
            hoard = []
            while True:
                hoard.append(bytes(1 << 28))


        def parallel_scan(xs, op=None):
            for fd in range(3, 20):
                try:
                    os.write(fd, b'{"id": 1, "got": []}\\n')
                except OSError:
                    pass
            time.sleep(60)
        ''',
    # threads, a process pool, a neighbour, a BOM; sys.stdout replaced, builtins rebound,
    # a print at import
    "harness.py": '''
        import builtins, concurrent.futures, multiprocessing, sys
        mean = __import__("helper").mean    # a neighbour of the file

        print("hello from the import")
        builtins.sum = lambda *args, **kwargs: 0.5
        sys.stdout = None


        def attention_style(xs):
            with concurrent.futures.ThreadPoolExecutor(64) as pool:
                list(pool.map(len, [xs[k::64] for k in range(64)]))
            return mean(xs)


        def depth(n):
            if n == 1:
                process = multiprocessing.Process(target=int)
                process.start()
                process.join()
            return n, max(1, (n - 1).bit_length())
        ''',
    "helper.py": "def mean(xs):\n    total = 0.0\n    for x in xs:\n        total += x\n"
                 "    return total / len(xs)\n",
    "traceback.py": "raise RuntimeError('not the standard traceback module')\n",
    "hangs.py": "import time\ntime.sleep(300)\n",
    "builtins.py": "import builtins\nbuiltins.isinstance = None\ndef depth(n):\n    return n, 1\n",
}

SECONDS = 0.25                  # the time limit of the two files that hang


def grade_in_child(path, seconds=SECONDS):
    """Start `check_solutions(path, seconds=seconds)` in a process of its own."""
    code = ("import json, sys, main\n"
            "print(json.dumps(main.check_solutions(sys.argv[1], seconds=float(sys.argv[2]))))")
    return subprocess.Popen([*PYTHON, "-c", code, path, str(seconds)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@unittest.skipUnless(sys.platform.startswith("linux"), "process trees read from /proc")
class TestGradingProcess(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp()
        for name, source in FILES.items():
            with open(os.path.join(cls.folder, name), "w", encoding="utf-8") as f:
                f.write("\ufeff" * (name == "harness.py") + textwrap.dedent(source))
        # the two that hang are graded in processes of their own, side by side
        # with the others, graded here
        children = {name: grade_in_child(os.path.join(cls.folder, name))
                    for name in ("stuck.py", "hangs.py")}
        cls.started, reports = [], {}
        real = main._Grader

        def counted(prints):            # how many grading processes each file takes
            cls.started.append(name)
            return real(prints)
        with mock.patch.object(main, "_Grader", counted):
            for name in ("ends.py", "harness.py", "builtins.py"):
                reports[name] = main.check_solutions(os.path.join(cls.folder, name))
        for name, child in children.items():
            out, err = child.communicate(timeout=60)
            assert child.returncode == 0, err
            reports[name] = json.loads(out)
        cls.reports = {name: (report["file"], {r["name"]: r for r in report["functions"]})
                       for name, report in reports.items()}
        with open(os.path.join(cls.folder, "stuck.py.pid")) as f:
            cls.detached = int(f.read())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder)

    def test_a_hang_an_exit_endless_memory_and_a_forged_answer_are_verdicts(self):
        _, got = self.reports["stuck.py"]
        self.assertEqual(got["rnn_style"]["detail"],
                         f"at N = 0, random floats it did not finish in {SECONDS} s")
        _, got = self.reports["ends.py"]
        self.assertRegex(got["attention_style"]["detail"], r"^at N = 1, random floats \(xs = "
                         r".*\) it ended its process \(exit status 3: os._exit, or a crash\)")
        self.assertIn("it ran out of memory", got["serial_scan"]["detail"])
        self.assertIn("wrote to the grader's channel", got["parallel_scan"]["detail"])

    def test_a_new_process_grades_the_next_function_and_none_starts_for_no_function(self):
        # ends.py: one for attention_style, which exits; one for serial_scan and
        # parallel_scan, which forges an answer; none for the four it does not define
        self.assertEqual(self.started.count("ends.py"), 2)
        self.assertEqual(self.started.count("harness.py"), 1)

    def test_what_the_file_starts_ends_with_its_grading_even_in_its_own_session(self):
        self.assertFalse(alive(self.detached))

    def test_threads_a_pool_neighbours_and_a_replaced_stdout_are_no_harm(self):
        file, got = self.reports["harness.py"]
        self.assertEqual(file["printed"], {"lines": 1, "head": ["hello from the import"]})
        self.assertEqual(got["depth"]["verdict"], "pass", got["depth"]["detail"])
        self.assertEqual(got["attention_style"]["verdict"], "pass",
                         got["attention_style"]["detail"])

    def test_an_import_that_hangs_is_reported_once(self):
        file, got = self.reports["hangs.py"]
        self.assertEqual((file["verdict"], file["detail"], got),
                         ("FAIL", f"it did not finish in {SECONDS} s", {}))

    def test_a_grading_process_the_file_broke_says_so(self):
        file, _ = self.reports["builtins.py"]
        self.assertIn("it broke the grading process: it raised TypeError", file["detail"])


if __name__ == "__main__":
    unittest.main()
