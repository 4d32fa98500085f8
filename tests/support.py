"""Shared inputs, fakes and readers for the tests, as CPython keeps its own in
test.support: awkward lengths, fixed-seed inputs, a fake clock, scripted times,
the contract every inclusive scan meets, running the command line and check's
grader in this process, a figure's words, the README, and main.py's source facts.
No test module imports another: what two of them share is here."""

import ast
import contextlib
import io
import itertools
import json
import math
import operator
import os
import random
import re
import sys
import time
from unittest import mock
import xml.etree.ElementTree as ET

import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAIN_PY = os.path.join(ROOT, "main.py")
NAN, INF = float("nan"), float("inf")
HUGE = 10**18                   # past every limit: a call with it must refuse, not run
# The tests' own child processes: python -S, without site-packages. The project
# is standard library only, and nothing installed there (a .pth file that runs
# at every start) should slow or change what a test sees.
PYTHON = (sys.executable, "-S")

# 0, 1, 2, 3, powers of two and their neighbours, and the lesson's 1,024.
AWKWARD_LENGTHS = (0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 1023, 1024,
                   1025)


def random_floats(n, seed=0):
    """Return n fixed-seed floats in [-1, 1)."""
    return main.uniform_inputs(n, random.Random(seed * 100_003 + n))


def close(a, b, rel=1e-9, scale=1.0):
    """Return True if a and b agree within rel times max(|a|, |b|, scale)."""
    return abs(a - b) <= rel * max(abs(a), abs(b), scale)


def central_difference(f, xs, index, eps=1e-6):
    """(f(xs with xs[index] + eps) - f(xs with xs[index] - eps)) / (2 eps)."""
    up, down = list(xs), list(xs)
    up[index] += eps
    down[index] -= eps
    return (f(up) - f(down)) / (2 * eps)


def run_main(*argv):
    """Run main.main(argv) in this process; return (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main.main(list(argv))
    return status, out.getvalue(), err.getvalue()


def alive(pid):
    """Return True if the process exists and is not a zombie waiting to be reaped (Linux)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def gone_within(pids, seconds):
    """Return True once none of the pids is alive, False if one still is after `seconds`."""
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def run_section(test, name, *options):
    """Run main.main([name, *options, "--json"]) once, asserting that it succeeds
    quietly; return (the section's text, rendered from the JSON, and its data)."""
    status, out, err = run_main(name, *options, "--json")
    test.assertEqual((status, err), (0, ""), (name, options))
    data = json.loads(out)[name]
    return main.SECTIONS[name].render(data), data


def raising(exception):
    """Return a function that raises exception, whatever it is called with."""
    def function(*args, **kwargs):
        raise exception
    return function


def fake_clock(elapsed):
    """Return a timer whose successive timeit samples last the given seconds:
    each sample reads the clock twice, whatever is timed."""
    readings = itertools.chain.from_iterable((0.0, e) for e in elapsed)
    return lambda: next(readings)


def matmul2(p, q):
    """2x2 matrix product of ((a, b), (c, d)) tuples: associative, not commutative."""
    (a, b), (c, d) = p
    (e, f), (g, h) = q
    return ((a * e + b * g, a * f + b * h), (c * e + d * g, c * f + d * h))


def random_matrices(n, seed=0):
    """Return n fixed-seed 2x2 matrices with entries in -3 ... 3."""
    e = random.Random(seed).choices(range(-3, 4), k=4 * n)    # one call: randint is slow
    return [((e[i], e[i + 1]), (e[i + 2], e[i + 3])) for i in range(0, 4 * n, 4)]


class ScanContract:
    """What every inclusive scan must do; subclasses set `scan`."""

    scan = None

    def run_scan(self, xs, op=operator.add):
        return type(self).scan(xs, op)

    def test_ints_strings_and_matrix_products_match_accumulate_exactly(self):
        # Strings and matrices are not commutative: swapped operands would show.
        rng = random.Random(3)
        for n in AWKWARD_LENGTHS:
            xs = [rng.randint(-1000, 1000) for _ in range(n)]
            self.assertEqual(self.run_scan(xs), list(itertools.accumulate(xs)), n)
            xs = [chr(ord("a") + i % 26) + str(i) for i in range(n)]
            self.assertEqual(self.run_scan(xs), list(itertools.accumulate(xs)), n)
        for n in (0, 1, 2, 3, 5, 8, 13, 16, 17):
            xs = random_matrices(n, seed=n)
            self.assertEqual(self.run_scan(xs, matmul2), list(itertools.accumulate(xs, matmul2)),
                             n)

    def test_floats_close_to_fsum_of_each_prefix_and_to_serial_scan(self):
        xs = random_floats(1024, seed=5)
        scale = math.fsum(map(abs, xs))
        out = self.run_scan(xs)
        for i in (0, 1, 2, 511, 1022, 1023):
            self.assertTrue(close(out[i], math.fsum(xs[:i + 1]), rel=1e-12, scale=scale), i)
        for n in AWKWARD_LENGTHS:
            xs = random_floats(n, seed=2)
            self.assertEqual(main.count_mismatches(main.serial_scan(xs), self.run_scan(xs)), 0, n)

    def test_its_input_and_lists_concatenated_are_left_unchanged(self):
        xs = random_floats(100)
        before = list(xs)
        self.run_scan(xs)
        self.assertEqual(xs, before)
        # + on lists: a scan that adds in place (acc += x) would change xs[0]
        xs = [[k] for k in range(9)]
        self.assertEqual(self.run_scan(xs), list(itertools.accumulate(xs)))
        self.assertEqual(xs, [[k] for k in range(9)])


# Each section's data, computed small, as `all` would compute it with small options.
SMALL = {"depth": main.depth_rows,
         "wallclock": lambda: main.wallclock_section((1_000, 2_000), 1),
         "scan": lambda: main.scan_check(64), "hidden": lambda: main.hidden_rows((1, 2), reps=1),
         "sweep": lambda: main.sweep((64, 128, 20_000), 1), "ssm": lambda: main.ssm_check(64),
         "work": lambda: main.work_section((8, 1_024)), "cost": main.cost_table,
         "gradient": main.gradient_rows, "capacity": lambda: main.capacity_rows(reads=64),
         "generate": lambda: main.generate_rows((8, 16)),
         "train": lambda: main.train_section((3,), 20, 1)}


def scripted_samples(functions, reps=3, **kwargs):
    """Stand in for sample_per_call: function k's every sample is 2 (k + 1) us a call."""
    return [[2e-6 * (k + 1)] * reps for k in range(len(functions))]


# ---------------------------------------------------------------------------
# check's grader in this process (a copy of tests/test_check.py's, which keeps
# its own until check's rewrite lands; then test_check imports these from here)
# ---------------------------------------------------------------------------

# A right rnn_style_vector, as a learner writes it.
VECTOR = '''
from main import hidden_weights
def rnn_style_vector(xs, width=64, decay=0.9):
    A, b = hidden_weights(width, decay)
    h = [0.0] * width
    for x in xs:
        h = [sum(a * hj for a, hj in zip(row, h)) + bi * x for row, bi in zip(A, b)]
    return h
'''


class InProcess:
    """check's grading process, run in this one: the same requests and answers,
    through JSON, each key one that main.py lists; its limits set, as on POSIX;
    what the file changed in sys.path and sys.modules is undone when it closes."""

    def __init__(self, path, seconds=None):
        self.path, self.state = path, {"limits": ["memory", "writes"]}
        self.printed = None
        self.modules, self.sys_path, self.argv = dict(sys.modules), list(sys.path), sys.argv[:]
        sys.path.insert(0, os.path.dirname(path))
        self.opened = self.ask({"import": 1})

    def ask(self, request):
        if not set(request) <= set(main.CHECK_REQUESTS):
            raise AssertionError(f"a request key not in CHECK_REQUESTS: {request}")
        with mock.patch.object(sys, "stdin", io.StringIO()), \
             mock.patch.object(sys, "stdout", io.StringIO()):      # input() reads nothing
            answer = main._child_answer(request, self.path, self.state)
        if not set(answer) <= set(main.CHECK_ANSWERS):
            raise AssertionError(f"an answer key not in CHECK_ANSWERS: {answer}")
        return json.loads(json.dumps(answer), object_hook=main._python)

    def close(self):
        sys.path[:], sys.argv[:] = self.sys_path, self.argv
        sys.modules.clear()
        sys.modules.update(self.modules)
        self.printed = (None, None)


def graded_in_this_process():
    """Return a patch that makes check, end to end, grade in this process: its one
    stand-in for the grading class."""
    return mock.patch.object(main, "_Grader", InProcess)


def scripted_steps(function):
    """Stand in for check's timing of a right rnn_style_vector: no test reads a clock."""
    return {"yours": [1e-6, 8e-6, 2e-4], "lesson": [5e-7, 4e-6, 1e-4],
            "spreads": [(f"width {w}", 1.1) for w in main.HIDDEN_WIDTHS]}


# ---------------------------------------------------------------------------
# Figures, the README and main.py's source, read as a test reads them
# ---------------------------------------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


def texts(svg):
    """Return every text of a figure, one a line, in drawing order."""
    return "\n".join(e.text or "" for e in ET.fromstring(svg.encode()).iter(SVG + "text"))


def assert_valid_figure(test, svg, name):
    """Check that svg parses, has a 640-wide viewBox and a title, stays small, fetches nothing."""
    root = ET.fromstring(svg.encode())
    test.assertEqual(root.tag, SVG + "svg", name)
    test.assertRegex(root.get("viewBox"), r"^0 0 640 \d+$", name)
    test.assertTrue(root.find(SVG + "title").text, name)
    test.assertLess(len(svg.encode()), 40_000, name)
    test.assertNotIn("<script", svg)
    test.assertNotRegex(svg, r'(href|src)="http', name)      # nothing fetched


def readme():
    """Return README.md's text."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        return f.read()


def source_facts():
    """Return, from one parse of main.py: each top-level statement's line, what it
    defines, the section it registers and the names it uses; the modules imported;
    every string but docstrings and the glossary's, lowercased; their acronyms."""
    with open(MAIN_PY, encoding="utf-8") as f:
        body = ast.parse(f.read()).body
    statements, imports, strings = [], set(), []
    docstrings = {id(_docstring(body))}
    for statement in body:
        target = statement.targets[0] if isinstance(statement, ast.Assign) else None
        glossary = getattr(target, "id", None) in ("GLOSSARY", "__all__")
        names = set()
        for node in ast.walk(statement):            # a definition before its docstring
            if isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                docstrings.add(id(_docstring(node.body)))
            elif isinstance(node, ast.Import):
                imports.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                imports.add(node.module.split(".")[0])
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and id(node) not in docstrings and not glossary):
                strings.append(node.value)
        registers = (isinstance(target, ast.Subscript) and getattr(target.value, "id", None)
                     == "SECTIONS")
        statements.append({
            "line": statement.lineno,
            "function": statement.name if isinstance(statement, ast.FunctionDef) else None,
            "class": statement.name if isinstance(statement, ast.ClassDef) else None,
            "registers": ast.literal_eval(target.slice) if registers else None,
            "uses": sorted(names)})
    text = " ".join(strings)
    return {"statements": statements, "imports": sorted(imports), "strings": text.lower(),
            "acronyms": sorted(set(re.findall(r"(?<![\w#-])[A-Z]{2,}[0-9]*(?![\w-])", text)))}


def _docstring(body):
    """Return the constant that is the docstring of a body of statements, or None."""
    first = body[0] if body else None
    return first.value if isinstance(first, ast.Expr) and isinstance(first.value,
                                                                       ast.Constant) else None
