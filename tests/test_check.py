"""check: right solutions in many styles and wrong ones with classic mistakes,
graded in this process with the grading process's own code; then `python main.py
check` itself, for what only real processes show: hangs, crashes, exits, limits,
what a function starts, and check ended by a signal."""

import io
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import types
import unittest
from unittest import mock

import main
from tests.support import NAN, PYTHON, ROOT, gone_within, run_main

BAD_CALLS = {
    "check_solutions": [((os.devnull,), {}), (("x.py",), {"seconds": 0}),
                        (("x.py",), {"seconds": NAN}), (("x.py",), {"seconds": 1e300}),
                        (("x.py",), {"names": ["mean"]}), (("x.py",), {"names": []})],
}

# The lesson's Python functions as the lesson writes them (its code/main.py).
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

# Hillis-Steele with its rounds written as loops.
LOOP_ROUNDS = '''
import operator
def parallel_scan(xs, op=operator.add):
    out, step = list(xs), 1
    while step < len(out):
        new = list(out)
        for i in range(step, len(out)):
            new[i] = op(out[i - step], out[i])
        out, step = new, step * 2
    return out
'''

SKLANSKY = '''
import operator
def parallel_scan(xs, op=operator.add):
    if len(xs) <= 1:
        return list(xs)
    half = len(xs) // 2
    left, right = parallel_scan(xs[:half], op), parallel_scan(xs[half:], op)
    return left + [op(left[-1], r) for r in right]
'''

LOOP = '''
import operator
def {name}(xs, op=operator.add):
    out = []
    for x in xs:
        out.append(op(out[-1], x) if out else x)
    return out
'''

SERIAL = LOOP.format(name="serial_scan")
# Brent and Kung's work-efficient scan, as a learner writes it.
BRENT_KUNG = '''
def parallel_scan(xs, op=lambda a, b: a + b):
    out, d = list(xs), 1
    while d < len(out):                 # up-sweep: the total of each block of 2d
        for i in range(2 * d - 1, len(out), 2 * d):
            out[i] = op(out[i - d], out[i])
        d *= 2
    while d > 1:                        # down-sweep: the prefixes between the blocks
        d //= 2
        for i in range(3 * d - 1, len(out), 2 * d):
            out[i] = op(out[i - d], out[i])
    return out
'''


def replaced(source, old, new):
    assert old in source, old
    return source.replace(old, new)


def serial_scan_where(condition):
    """Return Hillis-Steele's parallel_scan, a serial loop where condition holds."""
    return replaced(HILLIS_STEELE, "    out, step", f"    if {condition}:\n        return "
                    "loop(xs, op)\n    out, step") + LOOP.format(name="loop")


# Right solutions, in the styles learners write: each must pass.
RIGHT = {
    "the lesson's own code": (LESSON, "rnn_style attention_style serial_scan parallel_scan "
                                      "depth"),
    "h from 0, an int for no values (item 1)": (replaced(LESSON, "h = 0.0", "h = 0"),
                                                "rnn_style"),
    "a loop with op": (SERIAL, "serial_scan"),
    "Hillis-Steele": (HILLIS_STEELE, "parallel_scan"),
    "functools.reduce and itertools.accumulate": ('''
import functools, itertools, operator
def rnn_style(xs, decay=0.9):
    return functools.reduce(lambda h, x: decay * h + x, xs, 0.0)
def serial_scan(xs, op=operator.add):
    return list(itertools.accumulate(xs, op))
''', "rnn_style serial_scan"),
    "a recursion (Sklansky: halves, then the left total onto the right)": (SKLANSKY,
                                                                            "parallel_scan"),
    "Brent-Kung, in place on a copy": (BRENT_KUNG, "parallel_scan"),
    "Blelloch's exclusive scan, padded, made inclusive": ('''
def parallel_scan(xs, op=lambda a, b: a + b):
    n = len(xs)
    if n < 2:
        return list(xs)
    size = 1 << (n - 1).bit_length()
    tree = list(xs) + [None] * (size - n)
    def f(a, b):
        return b if a is None else a if b is None else op(a, b)
    d = 1
    while d < size:
        for i in range(2 * d - 1, size, 2 * d):
            tree[i] = f(tree[i - d], tree[i])
        d *= 2
    tree[-1] = None
    while d > 1:
        d //= 2
        for i in range(2 * d - 1, size, 2 * d):
            tree[i - d], tree[i] = tree[i], f(tree[i], tree[i - d])
    return [f(e, x) for e, x in zip(tree, xs)]
''', "parallel_scan"),
    "keyword-only op, extra keyword arguments, a generator inside": ('''
import operator
def serial_scan(xs, *, op=operator.add, **options):
    def totals():
        total = None
        for x in xs:
            total = x if total is None else op(total, x)
            yield total
    return list(totals())
''', "serial_scan"),
    "a class with __call__, a closure, a lambda": ('''
import math
class Mean:
    def __call__(self, xs):
        return math.fsum(xs) / len(xs)
attention_style = Mean()
def make(decay_default):
    def rnn_style(xs, decay=decay_default):
        h = 0.0
        for x in xs:
            h = decay * h + x
        return h
    return rnn_style
rnn_style = make(0.9)
depth = lambda n: (n, max(1, (n - 1).bit_length()))
''', "attention_style rnn_style depth"),
    "depth by int(log2(n - 1)) + 1, exact to 2**48": (
        "import math\ndef depth(n):\n    return n, 1 if n == 1 else int(math.log2(n - 1)) + 1\n",
        "depth"),
    "namedtuples": ('''
import collections, math
Depth = collections.namedtuple("Depth", "chain tree")
def depth(n):
    return Depth(n, max(1, math.ceil(math.log2(n))))
''', "depth"),
    # numpy's numbers without numpy: a float subclass (numpy.float64 is one) and
    # an integer that is not an int (numpy.int64 is registered as numbers.Integral)
    "numbers that are not exactly float or int": ('''
import numbers
class float64(float):
    def __repr__(self):
        return f"np.float64({float(self)!r})"
class int64:
    def __init__(self, value):
        self.value = value
    def __int__(self):
        return self.value
    __index__ = __int__
numbers.Integral.register(int64)
def rnn_style(xs, decay=0.9):
    h = float64(0.0)
    for x in xs:
        h = float64(decay * h + x)
    return h
def depth(n):
    return int64(n), int64(max(1, (n - 1).bit_length()))
''', "rnn_style depth"),
    # issue 57, item 5: it runs under `python FILE`, so under check too
    "a function that deletes a builtin (item 5)": (
        "import builtins\ndef depth(n):\n    if hasattr(builtins, 'type'):\n"
        "        del builtins.type\n    return n, max(1, (n - 1).bit_length())\n", "depth"),
    "a scan that sends op and its values through pickle, as a multiprocessing.Pool does": (
        replaced(HILLIS_STEELE, "    out, step = list(xs), 1", "    import pickle\n"
                 "    op, xs = pickle.loads(pickle.dumps((op, list(xs))))\n"
                 "    out, step = list(xs), 1"), "parallel_scan"),
}

# Wrong solutions: (source, function, verdict, words its detail must hold).
WRONG = {
    "a loop": (LOOP.format(name="parallel_scan"), "parallel_scan", "not parallel",
               "its depth at N = 8 is 7, over 2 ceil(log2 N) = 6"),
    "serial up to 64, then Hillis-Steele (item 4)": (
        serial_scan_where("len(xs) <= 64"), "parallel_scan", "not parallel",
        "its depth at N = 8 is 7"),
    "Hillis-Steele up to 2,000, then serial": (
        serial_scan_where("len(xs) > 2_000"), "parallel_scan", "not parallel",
        "its depth at N = 4,097 is 4,096"),
    "wrong order": (replaced(HILLIS_STEELE, "op(out[i - step], out[i])",
                             "op(out[i], out[i - step])"), "parallel_scan", "FAIL",
                    "got ['a', 'ba'], expected ['a', 'ab']: op(out[i], out[i - step]) where"),
    "wrong order, keyword-only op (item 2)": (
        replaced(replaced(SERIAL, "(xs, op", "(xs, *, op"),
                 "op(out[-1], x)", "op(x, out[-1])"),
        "serial_scan", "FAIL", "op(x, total) where op(total, x) belongs"),
    "step from 2": (replaced(HILLIS_STEELE, "list(xs), 1", "list(xs), 2"), "parallel_scan",
                    "FAIL", ": your first round combines with the value 2 back: step starts at 1"),
    "one round short": (replaced(HILLIS_STEELE, "while step <", "while 2 * step <"),
                        "parallel_scan", "FAIL", ": one round short: go on"),
    "rounds of floor(log2 N)": (
        replaced(LOOP_ROUNDS, "    while step < len(out):", "    import math\n"
                 "    for _ in range(int(math.log2(len(xs))) if xs else 0):"),
        "parallel_scan", "FAIL", "one round short where N is not a power of two"),
    "rounds while step <= N // 2": (
        replaced(LOOP_ROUNDS, "while step < len(out)", "while step <= len(out) // 2"),
        "parallel_scan", "FAIL", "one round short where N is not a power of two"),
    "a round that starts late (item 6)": (
        replaced(LOOP_ROUNDS, "range(step, len(out))", "range(step + 1, len(out))"),
        "parallel_scan", "FAIL", ": each round starts one place late"),
    "a round that ends early (item 6)": (
        replaced(LOOP_ROUNDS, "range(step, len(out))", "range(step, len(out) - 1)"),
        "parallel_scan", "FAIL", ": each round stops one place early"),
    "in place": (replaced(LOOP_ROUNDS, "new = list(out)", "new = out"), "parallel_scan", "FAIL",
                 "updated in place from left to right"),
    "a recursion that drops op": (
        replaced(SKLANSKY, "parallel_scan(xs[:half], op), parallel_scan(xs[half:], op)",
                 "parallel_scan(xs[:half]), parallel_scan(xs[half:])"),
        "parallel_scan", "FAIL", "your recursion calls itself without op: pass op on"),
    "ignores op": (replaced(HILLIS_STEELE, "op(out[i - step], out[i])", "out[i - step] + out[i]"),
                   "parallel_scan", "FAIL", "these are the totals of +"),
    "a tuple (item 3)": (replaced(HILLIS_STEELE, "    return out", "    return tuple(out)"),
                         "parallel_scan", "FAIL", "return a list, not a tuple"),
    "a tuple from serial_scan (item 3)": (
        replaced(SERIAL, "    return out", "    return tuple(out)"), "serial_scan", "FAIL",
        "got (-0.7312715117751976,), expected [-0.7312715117751976]: return a list, not a "
        "tuple"),
    "an exclusive scan without a guard for the empty list": (
        replaced(HILLIS_STEELE, "    out, step = list(xs), 1",
                 "    out, step = [0] + list(xs[:-1]), 1"), "parallel_scan", "FAIL",
        "at N = 1, random floats, called without op (xs = [-0.7312715117751976]): got [0], "
        "expected [-0.7312715117751976]: your first total is 0: this is the exclusive scan"),
    "wrong only for the empty list: xs[0] read first": (
        replaced(HILLIS_STEELE, "    out, step = list(xs), 1",
                 "    out, step = [xs[0]] + list(xs[1:]), 1"), "parallel_scan", "FAIL",
        "wrong only for the empty list; otherwise correct and parallel: depth 13 and 45,070 "
        "combines at N = 4,097"),
    "wrong only for the empty list: a list of one zero": (
        replaced(SERIAL, "    return out", "    return out or [0]"), "serial_scan", "FAIL",
        "wrong only for the empty list; otherwise correct at N = 0, random floats, called "
        "without op: got [0], expected []"),
    "a total that starts from 0, which letters cannot take": (
        "def serial_scan(xs, op=lambda a, b: a + b):\n    out, total = [], 0\n    for x in xs:\n"
        "        total = op(total, x)\n        out.append(total)\n    return out\n",
        "serial_scan", "FAIL", "your total starts from 0, which op cannot take: start from "
        "xs[0]"),
    "an array returned, as numpy's": (
        "class Array:\n    shape = ()\n    def __init__(self, values):\n"
        "        self.values = values\n    def tolist(self):\n        return self.values\n"
        "def serial_scan(xs, op=None):\n    return Array(list(xs))\n", "serial_scan", "FAIL",
        "return a list (an array's .tolist() makes one)"),
    # issue 59: each classic slip named
    "depth by n.bit_length() (item 1)": (
        "def depth(n):\n    return n, n.bit_length()\n", "depth", "FAIL",
        "at n = 2: got (2, 2), expected (2, 1): n.bit_length() is one too many at powers of "
        "two: use (n - 1).bit_length()"),
    "depth by math.floor(math.log2(n)) (item 2)": (
        "import math\ndef depth(n):\n    return n, math.floor(math.log2(n))\n", "depth", "FAIL",
        "at n = 1: got (1, 0), expected (1, 1): this is floor(log2 n), rounded down"),
    "depth by the natural log (item 2)": (
        "import math\ndef depth(n):\n    return n, max(1, math.ceil(math.log(n)))\n", "depth",
        "FAIL", "math.log(n) is the natural log, base e"),
    "rounds while step < len(xs) // 2 (item 3)": (
        replaced(LOOP_ROUNDS, "while step < len(out)", "while step < len(xs) // 2"),
        "parallel_scan", "FAIL", "one round short: go on while step < len(xs), not len(xs) // 2"),
    "a serial scan one total short (item 4)": (
        "import operator\ndef serial_scan(xs, op=operator.add):\n    out = []\n"
        "    for i in range(len(xs) - 1):\n        out.append(xs[0] if i == 0 else "
        "op(out[-1], xs[i]))\n    return out\n", "serial_scan", "FAIL",
        "one total short: out has a total for each of the len(xs) values"),
    "a total from 0, the new value on the left (item 5)": (
        "def serial_scan(xs, op=lambda a, b: a + b):\n    out, total = [], 0\n    for x in xs:\n"
        "        total = op(x, total)\n        out.append(total)\n    return out\n",
        "serial_scan", "FAIL", "your total starts from 0, which op cannot take: start from "
        "xs[0]; and the total goes first, op(total, x): the earlier values go left"),
    "a CUDA-style Blelloch scan that returns the exclusive scan of + (item 6)": ('''
def parallel_scan(xs, op=None):
    n = len(xs)
    size = 1 << max(0, (n - 1).bit_length())
    tree = list(xs) + [0] * (size - n)
    d = 1
    while d < size:
        for i in range(2 * d - 1, size, 2 * d):
            tree[i] = tree[i - d] + tree[i]
        d *= 2
    tree[size - 1] = 0
    while d > 1:
        d //= 2
        for i in range(2 * d - 1, size, 2 * d):
            tree[i - d], tree[i] = tree[i], tree[i - d] + tree[i]
    return tree[:n]
''', "parallel_scan", "FAIL", "your first total is 0: this is the exclusive scan"),
    "* as its default": (replaced(SERIAL, "operator.add", "operator.mul"), "serial_scan", "FAIL",
                         "at N = 2, random floats, called without op"),
    "op without a default": (replaced(SERIAL, "op=operator.add", "op"),
                             "serial_scan", "FAIL", "missing 1 required positional argument"),
    "exclusive": ("def serial_scan(xs, op=None):\n    out, total = [], 0\n    for x in xs:\n"
                  "        out.append(total)\n        total += x\n    return out\n", "serial_scan",
                  "FAIL", "got [0], expected [-0.7312715117751976]: your first total is 0"),
    "changes its input": ("def serial_scan(xs, op=None):\n    for i in range(1, len(xs)):\n"
                          "        xs[i] = xs[i - 1] + xs[i]\n    return xs\n", "serial_scan",
                          "FAIL", "at N = 2, random floats, called without op (xs = "
                          "[0.9120685437784988, 0.8956549741186988]): it changed its input"),
    "an iterator": ("def serial_scan(xs, op=None):\n    return map(float, xs)\n",
                    "serial_scan", "FAIL", "return a list (list(...) makes one)"),
    "the sum": ("def attention_style(xs):\n    return sum(xs)\n", "attention_style", "FAIL",
                "this is the sum"),
    "ignores decay": (replaced(LESSON, "h = decay * h + x", "h = 0.9 * h + x"), "rnn_style",
                      "FAIL", "decay 0.5 (xs = [0.9120685437784988, 0.8956549741186988]): got "
                         "1.7165166635193478, expected 1.3516892460079482: this is the answer "
                         "for decay = 0.9"),
    "depth 0 for one value (item 3: shown as a tuple)": (
        "def depth(n):\n    return n, (n - 1).bit_length()\n", "depth", "FAIL",
        "at n = 1: got (1, 0), expected (1, 1): one value still takes depth 1"),
    "depth as a floor (item 6)": ("import math\ndef depth(n):\n    return n, max(1, int("
                                  "math.log2(n)))\n", "depth", "FAIL",
                                  "at n = 3: got (3, 1), expected (3, 2): this is floor"),
    "depth by math.log": ("import math\ndef depth(n):\n    return n, max(1, math.ceil("
                          "math.log(n, 2)))\n", "depth", "FAIL",
                          "at n = 2**29: got (536870912, 30), expected (536870912, 29): "
                          "math.log(n, 2) is a float that rounds"),
    "depth as a float": ("import math\ndef depth(n):\n    return n, max(1.0, math.log2(n))\n",
                         "depth", "FAIL", "a float where an int belongs"),
    "depth as a list": ("def depth(n):\n    return [n, max(1, (n - 1).bit_length())]\n",
                        "depth", "FAIL", "got [1, 1], expected (1, 1): return a tuple, not a "
                                         "list"),
    "an exception": ("def attention_style(xs):\n    return sum(xs) / 0\n", "attention_style",
                     "FAIL", "ZeroDivisionError: float division by zero"),
    "a recursion without end": ("def serial_scan(xs, op=None):\n    return serial_scan(xs, op)\n",
                                "serial_scan", "FAIL", "RecursionError"),
    "an answer of 20 MB": ("def attention_style(xs):\n    return 'x' * 20_000_000\n",
                           "attention_style", "FAIL", "at N = 1, random floats (xs = "
                           "[-0.7312715117751976]): got a str of 20,000,000 characters, too long "
                           "to show, expected -0.7312715117751976"),
    "sys.exit inside": ("import sys\ndef depth(n):\n    sys.exit(3)\n", "depth", "FAIL",
                        "at n = 1: it called sys.exit(3): return the value instead"),
    "reads input": ("def depth(n):\n    return n, int(input())\n", "depth", "FAIL",
                    "it read input (input()?)"),
    "an int too large to send": ("def rnn_style(xs, decay=0.9):\n    return 10 ** 5000\n",
                                 "rnn_style", "FAIL", "got an int of about 5,000 digits"),
    "not written": ("def depth(n):\n    raise NotImplementedError\n", "depth",
                    "not written yet", ""),
}


class Odd:
    def __repr__(self):
        return "\x1b[31mred\r"


class InProcess:
    """check's grading process, run in this one: the same requests and answers,
    through JSON; what the file changed in sys.path and sys.modules is undone."""

    def __init__(self, path, seconds):
        self.path, self.state, self.printed = path, {}, None
        self.modules, self.sys_path = dict(sys.modules), list(sys.path)
        sys.path.insert(0, os.path.dirname(path))
        self.opened = self.ask({"import": 1}, seconds)

    def ask(self, request, seconds):
        with mock.patch.object(sys, "stdin", io.StringIO()):       # input() reads nothing
            answer = main._child_answer(request, self.path, self.state)
        return json.loads(json.dumps(answer), object_hook=main._python)

    def close(self):
        sys.path[:] = self.sys_path
        sys.modules.clear()
        sys.modules.update(self.modules)
        self.printed = (None, None)


def graded_here(source, names=main.CHECKED, grader=None):
    """Return check_solutions' report of source, its grading processes run in this
    one (InProcess, or grader)."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "solution.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(source))
        with mock.patch.object(main, "_Grader", grader or InProcess):
            return main.check_solutions(path, names)


def grade(source, name):
    """Return (verdict, detail) of one function of source."""
    graded = graded_here(source, [name])["functions"][0]
    return graded["verdict"], graded["detail"]


class TestMirror(unittest.TestCase):
    """A right scan's mirror: the depth of each output at N = 16."""

    def graded(self, source, name="parallel_scan"):
        return graded_here(source, [name])["functions"][0]

    def test_the_lessons_hillis_steele_output_i_is_at_depth_ceil_log2_of_i_plus_1(self):
        lesson = main._child_count(main.parallel_scan, 16, "keyword")   # traced, here
        self.assertEqual(lesson["depths"], [(i).bit_length() for i in range(16)])
        self.assertEqual(lesson["depths"], [0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4])
        self.assertEqual(self.graded(HILLIS_STEELE)["mirror"], lesson)

    def test_brent_kung_matches_its_closed_form_a_loop_is_a_chain_a_wrong_scan_has_none(self):
        # out[i] combines one block per set bit of i + 1, the largest of depth
        # floor(log2(i + 1)), then one more combine for each further block
        closed_form = [(i + 1).bit_length() - 1 + bin(i + 1).count("1") - 1 for i in range(16)]
        self.assertEqual(self.graded(BRENT_KUNG)["mirror"]["depths"], closed_form)
        self.assertEqual(self.graded(SERIAL, "serial_scan")["mirror"]["depths"], list(range(16)))
        loop = self.graded(LOOP.format(name="parallel_scan"))
        self.assertEqual((loop["verdict"], loop["mirror"]["depths"]),
                         ("not parallel", list(range(16))))
        wrong = replaced(HILLIS_STEELE, "list(xs), 1", "list(xs), 2")
        self.assertEqual(self.graded(wrong)["mirror"], None)

    def test_the_report_shows_the_depths_beside_hillis_steeles(self):
        graded = {"name": "parallel_scan", "verdict": "pass", "detail": "", "printed": None,
                  "mirror": {"depths": [0, 1, 2, 2, 3, 3, 4, 3, 4, 4, 5, 4, 5, 5, 6, 4]}}
        report = {"file": {"verdict": "imported", "detail": "", "printed": None},
                  "functions": [graded]}
        indent = " " * (len("parallel_scan") + 4)
        self.assertEqual(main.render_check("mine.py", report).splitlines()[-3:-1], [
            indent + "depth of out[0..15]: 0 1 2 2 3 3 4 3 4 4 5 4 5 5 6 4",
            indent + "Hillis-Steele:       0 1 2 2 3 3 3 3 4 4 4 4 4 4 4 4"])


# `python main.py check` itself, in real processes (TestGradingProcesses), for
# what only a process shows: BUGS, the honest bugs that end a process or fill its
# limits, and what a function may start (it writes their pids into the file
# $STARTED); HANGS, a hang in C code that holds the GIL, in which check is ended
# by SIGKILL or two Ctrl-Cs. An endless loop is TestAsOnWindows' PORTABLE.
BUGS = '''
import os, subprocess, threading, time

def parallel_scan(xs, op=None):         # a list that grows without end
    hoard = []
    while True:
        hoard.append(bytes(1 << 26))

def attention_style(xs):                # os._exit
    print("\\x1b[31mleaving\\r", flush=True)
    os._exit(3)

def rnn_style(xs, decay=0.9):           # a flood of prints
    while True:
        print("x" * 30_000)

def chatter():
    while True:
        print("late", flush=True)
        time.sleep(0.01)

def depth(n):                           # a thread left running, a process started
    import resource                     # and no CPU limit, so process_time ticks finely
    if resource.getrlimit(resource.RLIMIT_CPU)[0] != resource.RLIM_INFINITY:
        return n, 0
    if n == 1:
        threading.Thread(target=chatter, daemon=True).start()
        with open(os.environ["STARTED"], "a") as f:
            f.write(f"{subprocess.Popen(['sleep', '60']).pid}\\n")
    return n, max(1, (n - 1).bit_length())

def serial_scan(xs, op=None):           # what depth started has ended by now
    with open(os.environ["STARTED"]) as f:
        started = [int(pid) for pid in f.read().split()]
    gone = not any(os.path.exists(f"/proc/{pid}") and open(f"/proc/{pid}/stat").read().split(
        ")")[-1].split()[0] != "Z" for pid in started)
    out = []
    for x in xs:
        out.append((op(out[-1], x) if op else out[-1] + x) if out else x)
    return out if gone else []
'''


HANGS = '''
import os, re, subprocess


def rnn_style(xs, decay=0.9):           # a regular expression that backtracks for ever
    with open(os.environ["STARTED"], "w") as f:
        f.write(f"{os.getpid()} {subprocess.Popen(['sleep', '60']).pid}\\n")
    re.match(r"(a+)+$", "a" * 40 + "!")
'''


def check(path, *options, **kwargs):
    """Start `python main.py check OPTIONS PATH`, its pids file beside PATH."""
    env = dict(os.environ, STARTED=path + ".pids")
    return subprocess.Popen([*PYTHON, "main.py", "check", *options, path], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def pids(path):
    """Return the pids a learner's file wrote beside it, whole lines only."""
    try:
        with open(path + ".pids") as f:
            return [int(pid) for line in f.read().split("\n")[:-1] for pid in line.split()]
    except FileNotFoundError:
        return []


class TestGrading(unittest.TestCase):
    @classmethod
    def setUpClass(cls):                # each right solution graded once, read by two tests
        cls.right = {label: {r["name"]: r for r in graded_here(source, names.split())[
            "functions"]} for label, (source, names) in RIGHT.items()}

    def test_every_right_solution_passes_every_wrong_one_gets_its_verdict_and_hint(self):
        for label, graded in self.right.items():
            for r in graded.values():
                with self.subTest(label, name=r["name"]):
                    self.assertEqual(r["verdict"], "pass", r["detail"])
        for label, (source, name, verdict, words) in WRONG.items():
            with self.subTest(label):
                got, detail = grade(source, name)
                self.assertEqual(got, verdict, detail)
                self.assertNotRegex(detail, r"Traced|Counted|_combine|_child|_grade")
                self.assertIn(words, detail.replace("\n", " "))
        # at N = 2 a round starting late and a round short give the same answer: the
        # cases after it tell them apart; an answer no known mistake gives gets none
        detail = grade(replaced(HILLIS_STEELE, "while step <", "while 2 * step <"),
                       "parallel_scan")[1]
        self.assertRegex(detail, r"^at N = 2, random floats, called without op \(xs = .*\]\): "
                                 r"got \[.*\], expected \[.*\]: one round short: go on while "
                                 r"step < len\(xs\)$")
        odd = replaced(HILLIS_STEELE, "    return out", "    return out[:-1] + out[-1:] * 2")
        self.assertRegex(grade(odd, "parallel_scan")[1],
                         r"^at N = 1, random floats, called without op \(xs = .*\]\): got "
                         r"\[.*\], expected \[.*\]$")

    def test_the_lessons_depth_passes_with_a_note_on_its_float_log2(self):
        # issue 59, item 8: max(1, math.ceil(math.log2(n))) gives 49 at 2**49 + 1
        lesson = self.right["the lesson's own code"]["depth"]
        self.assertEqual((lesson["verdict"], lesson["detail"]), (
            "pass", "a float log2 is exact only up to about 2**48, and gives 49 at 2**49 + 1: "
                    "(n - 1).bit_length() is exact at every n"))
        exact = self.right["a class with __call__, a closure, a lambda"]["depth"]
        self.assertEqual((exact["verdict"], exact["detail"]), ("pass", ""))

    def test_a_right_scan_too_slow_at_the_largest_n_says_its_answers_were_right(self):
        # issue 59, item 9: a tree for every prefix, on a machine too busy for N = 4,097
        class Busy(InProcess):
            def ask(self, request, seconds):
                if request.get("count") and request["args"] == [4_097]:
                    return {"stopped": "it did not finish in 10 s (--seconds)", "slow": True}
                return super().ask(request, seconds)
        graded = graded_here(HILLIS_STEELE, ["parallel_scan"], Busy)["functions"][0]
        self.assertEqual((graded["verdict"], graded["detail"]), (
            "FAIL", "at N = 4,097, on inputs that count their combines: it did not finish in "
                    "10 s (--seconds); its answers were right"))

    def test_a_scan_that_turns_its_inputs_into_floats_passes_its_depth_not_counted(self):
        for source in (replaced(HILLIS_STEELE, "list(xs), 1", "[float(x) for x in xs], 1"),
                       replaced(HILLIS_STEELE, "list(xs), 1", "list(map(float, xs)), 1")):
            source = source.replace("xs, op=operator.add", "xs")
            source = source.replace("op(out[i - step], out[i])", "out[i - step] + out[i]")
            self.assertEqual(grade(source, "parallel_scan"), (
                "pass", "its depth was not counted: it turns its inputs into floats; graded on "
                "sums only: with op=operator.add as a parameter it would be checked with other "
                "combines too"))

    def test_scans_without_op_are_graded_on_sums_and_a_parallel_ones_depth_reported(self):
        lesson = self.right["the lesson's own code"]
        self.assertEqual([lesson[name]["detail"][:20] for name in ("serial_scan", "parallel_scan",
                                                                     "depth")],
                         ["graded on sums only:", "correct and parallel", "a float log2 is exac"])
        hillis_steele = self.right["Hillis-Steele"]["parallel_scan"]
        self.assertEqual((hillis_steele["verdict"], hillis_steele["detail"]), (
            "pass", "correct and parallel: depth 13 and 45,070 combines at N = 4,097, against "
            "Hillis-Steele's 13 rounds and 45,070 combines"))

    def test_an_import_that_raises_a_file_not_python_and_a_long_input_rebuilt(self):
        raises = graded_here("1 / 0\n")
        self.assertEqual((raises["file"]["verdict"], raises["functions"]), ("FAIL", []))
        self.assertIn("ZeroDivisionError", raises["file"]["detail"])
        self.assertEqual(graded_here("def f(:\n")["file"]["detail"][:10], " (line 1):")
        deep = graded_here("x = " + "-" * 100_000 + "1\n")["file"]
        self.assertEqual(deep["verdict"], "not Python")
        # a long input is shown as how to rebuild it
        case = next(c for c in main._check_cases("serial_scan")
                    if c["input"] == ("maps", 1_025))
        rng_line = main._input_words(case).split("xs: ")[1].rstrip(")")
        names = {}
        exec("import random\n" + rng_line.replace("; ", "\nxs = "), names)
        self.assertEqual(names["xs"], case["args"][0])

    # Only plain data crosses from the grading process, and is shown as it is.
    def test_plain_data_tuples_objects_control_characters_and_equality(self):
        def sent(value):                # through the pipe, as check reads it
            return json.loads(json.dumps(main._plain(value)), object_hook=main._python)
        self.assertEqual(sent([1, (2.5, "a"), True, None]), [1, (2.5, "a"), True, None])
        self.assertEqual(repr(sent(1j)), "complex: 1j")
        self.assertTrue(sent(iter([])).iterator)
        self.assertEqual(main._show(sent((1, 0))), "(1, 0)")                  # item 3
        self.assertEqual(main._show(sent((1,))), "(1,)")
        self.assertEqual(repr(sent(Odd())), "Odd: \\x1b[31mred\\r")        # item 10
        # values compare as Python compares them, but an int wants an int
        self.assertTrue(main._same(0, 0.0))                                   # item 1
        self.assertTrue(main._same([1.0, 2.0 + 1e-12], [1.0, 2.0]))
        self.assertTrue(main._same(2.0, 2))                                   # as 2.0 == 2
        self.assertFalse(main._same(2.5, 2))
        self.assertFalse(main._same(True, 1.0))
        self.assertFalse(main._same(float("nan"), float("nan")))
        self.assertTrue(main._same([float("inf")], [float("inf")]))
        self.assertFalse(main._same([5.0], [float("inf")]))       # no infinite tolerance
        self.assertFalse(main._same([1, 2], (1, 2)))

    def report(self, **functions):
        return {"file": {"verdict": "imported", "detail": "", "printed": None},
                "functions": [{"name": name, "verdict": verdict, "detail": "", "printed": None,
                               "mirror": None}
                              for name, verdict in functions.items()]}

    def test_the_report_counts_only_functions_written_and_shows_prints_beside(self):
        text = main.render_check("f.py", self.report(depth="pass", rnn_style="not written yet",
                                                     serial_scan="not in the file"))
        self.assertTrue(text.endswith("1 of 1 written passed."))
        text = main.render_check("f.py", self.report(depth="not written yet"))
        self.assertTrue(text.endswith("Nothing written yet: each function still raises "
                                      "NotImplementedError."))
        # what a function printed stays beside it, and short
        report = self.report(depth="pass")
        report["functions"][0]["printed"] = {"lines": 1_257, "head": ["a", "b", "c"]}
        lines = main.render_check("f.py", report).splitlines()
        self.assertEqual(lines[2], "       it printed 1,257 lines; the first 3:")
        self.assertEqual(len(lines), 7)

    def setUp(self):
        self.folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.folder)

    def write(self, name, source):
        path = os.path.join(self.folder, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
        return path

    def test_the_template_unchanged_is_not_written_yet_help_fits_names_any_iterable(self):
        status, template, _ = run_main("check", "--template")
        self.assertEqual(status, 0)
        compile(template, "template.py", "exec")
        with mock.patch.object(main, "_Grader", InProcess):
            status, out, err = run_main("check", self.write("template.py", template))
        self.assertEqual((status, err), (1, ""))
        for name in main.CHECKED:
            self.assertIn(f"{name:<{max(map(len, main.CHECKED))}}  not written yet", out)
        status, out, err = run_main("check", "--help")
        self.assertEqual((status, err), (0, ""))
        self.assertIn("--template   print a file to start from", out)
        self.assertLessEqual(max(map(len, out.splitlines())), 79)
        path = self.write("mine.py", "def depth(n):\n    return n, 1\n")        # item 11
        report = main.check_solutions(path, names=iter(["depth"]), seconds=30)
        self.assertEqual([r["name"] for r in report["functions"]], ["depth"])

    def test_a_file_python_refuses_is_refused_with_pythons_reason(self):
        path = os.path.join(self.folder, "latin.py")
        with open(path, "wb") as f:
            f.write(b"# caf\xe9, in Latin-1\ndef depth(n):\n    return n, 1\n")
        with mock.patch.object(main, "_Grader", InProcess):
            status, out, err = run_main("check", path)
        self.assertEqual((status, out), (2, ""))
        self.assertTrue(err.splitlines()[-1].startswith(
            f"main.py check: error: {path!r} is not Python: "), err)
        self.assertIn("encoding", err)              # Python's own words
        _, detail = grade("class Odd(Exception):\n    def __str__(self):\n        raise "
                          "ValueError\ndef depth(n):\n    raise Odd\n", "depth")
        self.assertTrue(detail.endswith("\nOdd"), detail)     # its type, though str() raised

    @unittest.skipUnless(hasattr(os, "mkfifo"), "a FIFO")
    def test_bad_arguments_are_one_line_and_status_2(self):
        fifo = os.path.join(self.folder, "fifo")
        os.mkfifo(fifo)                 # with no writer: open() alone would block
        for argv in (["check"], ["check", "a.py", "b.py"], ["check", fifo],
                     ["check", os.path.join(self.folder, "missing.py")], ["check", self.folder],
                     ["check", "--seconds", "0", "a.py"], ["check", "--seconds", "1e3", "a.py"],
                     ["check", self.write("big.py", "#" * (1 << 20 | 1))],
                     ["check", "--template", "mine.py"],
                     ["check", self.write("syntax.py", "def f(:\n")]):
            status, out, err = run_main(*argv)
            self.assertEqual((status, out), (2, ""), argv)
            usage, error = err.splitlines()
            self.assertTrue(usage.startswith("usage: main.py check "), usage)
        self.assertRegex(error, r"^main.py check: error: '.*syntax.py' is not Python \(line 1\): ")


def write(folder, name, source):
    """Write source to folder/name; return its path."""
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    return path


def ctrl_c_as_at_a_terminal():
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@unittest.skipUnless(sys.platform.startswith("linux"), "processes read from /proc")
class TestGradingProcesses(unittest.TestCase):
    """`python main.py check` run for real, one process after another."""

    @classmethod
    def setUpClass(cls):
        cls.folder, cls.ended = tempfile.mkdtemp(), {}
        cls.addClassCleanup(shutil.rmtree, cls.folder)
        run = check(write(cls.folder, "bugs.py", BUGS))
        cls.ended["bugs.py"] = run.communicate(timeout=60), run.returncode
        cls.started = pids(os.path.join(cls.folder, "bugs.py"))

    def verdicts(self, name):
        """Return each function's block of the report, its lines joined."""
        (out, err), status = self.ended[name]
        self.assertEqual((status, err), (1, ""))
        blocks = {}
        for line in out.splitlines()[1:-1]:
            if line[:1].isalpha():
                name, line = line.split(maxsplit=1)
            blocks[name] = (blocks.get(name, "") + " " + line.strip()).strip()
        return blocks

    def test_each_honest_bug_is_its_own_verdict_its_prints_shown_the_next_graded(self):
        got = self.verdicts("bugs.py")
        self.assertTrue(got["attention_style"].startswith("FAIL: at N = 1, random floats (xs = "
                                                          "[-0.7312715117751976]): it ended "
                                                          "its process (exit status 3"))
        self.assertIn("it ran out of memory (the limit is 1.00 GiB)", got["parallel_scan"])
        self.assertIn("it wrote more than 64.0 MiB", got["rnn_style"])
        # what a function prints is shown, escaped and cut short
        out = self.ended["bugs.py"][0][0]
        self.assertIn("| \\x1b[31mleaving\\r", out)             # item 10
        self.assertRegex(out, r"it printed [\d,]+ lines; the first 3:")

    def test_what_a_function_started_ends_with_its_grading(self):
        (out, _), _ = self.ended["bugs.py"]
        self.assertRegex(out, r"depth +pass\n")                     # issue 57, item 3 too
        self.assertRegex(out, r"serial_scan +pass")               # item 9
        self.assertNotIn("late", out.split("serial_scan")[1])      # no stray prints
        self.assertTrue(gone_within(self.started, 1))

    def test_an_import_that_never_ends_is_the_files_verdict(self):
        path = write(tempfile.mkdtemp(dir=self.folder), "hangs.py", "while True:\n    pass\n")
        with mock.patch.object(main, "CHECK_START", 0):     # it fails however fast it starts
            report = main.check_solutions(path, seconds=0.25)
        found = report["file"]["verdict"], report["file"]["detail"], report["functions"]
        self.assertEqual(found, ("FAIL", "it did not finish in 0.25 s (--seconds)", []))

    def test_check_ended_by_sigkill_or_two_ctrl_cs_leaves_nothing_running(self):
        # while the learner's C code holds the GIL: the keeper ends its group. A
        # second Ctrl-C as Python exits ends check by SIGINT: to a shell, 130 too.
        for signals, statuses in (([signal.SIGKILL], [-signal.SIGKILL]),
                                  ([signal.SIGINT, signal.SIGINT], [130, -signal.SIGINT])):
            with self.subTest(signals=signals):
                path = write(tempfile.mkdtemp(dir=self.folder), "hangs.py", HANGS)
                run = check(path, preexec_fn=ctrl_c_as_at_a_terminal)
                deadline = time.monotonic() + 30
                while len(pids(path)) < 2:             # the grading process, its sleep
                    self.assertLess(time.monotonic(), deadline, "it never started")
                    time.sleep(0.01)
                for signum in signals:
                    run.send_signal(signum)
                out, _ = run.communicate(timeout=60)
                self.assertEqual(out, "")
                self.assertIn(run.returncode, statuses)
                self.assertTrue(gone_within(pids(path), 2))


# Hide what POSIX adds, as Windows has none of it: read at the start of every
# Python whose path holds this file (PYTHONPATH), check's and its grading processes'.
SITECUSTOMIZE = """
import os, signal, sys
for name in ("fork", "killpg", "setsid"):
    delattr(os, name)
del signal.pthread_sigmask
sys.modules["resource"] = None          # import resource: ImportError
"""

PORTABLE = """
import os
assert not hasattr(os, "killpg")        # run without POSIX's extras
def attention_style(xs):                # 7 calls, each a moment
    return sum(xs) / len(xs)
def serial_scan(xs, op=None):
    return [0] + list(xs[:-1])
def rnn_style(xs, decay=0.9):
    with open(os.environ["STARTED"], "w") as f:
        f.write(f"{os.getpid()}\\n")
    while True:
        pass
"""


@unittest.skipUnless(sys.platform.startswith("linux"), "processes read from /proc")
class TestAsOnWindows(unittest.TestCase):
    """check run for real as on Windows, without a process group, a keeper or limits:
    main.py saved as a browser saves a second copy, the learner's file named
    inspect.py, in a folder (the current one) that holds their own ast.py and dis.py."""

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp()
        cls.addClassCleanup(shutil.rmtree, cls.folder)
        extras, mine = (os.path.join(cls.folder, name) for name in ("extras", "mine"))
        os.mkdir(extras)
        os.mkdir(mine)
        write(extras, "sitecustomize.py", SITECUSTOMIZE)
        for module in ("ast.py", "dis.py"):
            write(mine, module, "raise ImportError('the learner\\'s own')\n")
        cls.path = write(mine, "inspect.py", PORTABLE)
        renamed = os.path.join(cls.folder, "main (1).py")
        shutil.copy(os.path.join(ROOT, "main.py"), renamed)
        env = dict(os.environ, PYTHONPATH=extras, STARTED=cls.path + ".pids")
        # not PYTHON (python -S): site reads sitecustomize
        cls.checked = subprocess.run([sys.executable, renamed, "check", "--seconds", "0.25",
                                  cls.path], cwd=mine, env=env, text=True, timeout=60,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        cls.out = " ".join(cls.checked.stdout.split())

    def test_a_right_a_wrong_and_a_hanging_function_are_graded_nothing_left_running(self):
        self.assertEqual((self.checked.returncode, self.checked.stderr), (1, ""))
        self.assertIn("rnn_style FAIL: at N = 0, random floats: it did not finish in 0.25 s "
                      "(--seconds)", self.out)
        self.assertIn("serial_scan FAIL: at N = 1, random floats, called without op (xs = "
                      "[-0.7312715117751976]): got [0], expected [-0.7312715117751976]",
                      self.out)
        self.assertTrue(gone_within(pids(self.path), 1))

    def test_main_py_and_the_file_may_have_any_name_beside_any_modules(self):
        self.assertIn("attention_style pass", self.out)


@unittest.skipUnless(sys.platform.startswith("linux"), "processes read from /proc")
class TestBudget(unittest.TestCase):
    def test_a_function_whose_calls_add_up_to_three_limits_stops_there(self):
        # a scripted clock, 0.45 s later at each reading: one reading a call, so the
        # 3 s its calls have after the import are gone at the seventh
        path = write(tempfile.mkdtemp(), "slow.py", "def depth(n):\n"
                                                    "    return n, max(1, (n - 1).bit_length())\n")
        self.addCleanup(shutil.rmtree, os.path.dirname(path))
        clock = itertools.count(step=0.45)
        with mock.patch.object(main, "time", types.SimpleNamespace(monotonic=lambda: next(clock))):
            graded = main.check_solutions(path, ["depth"], seconds=1)["functions"][0]
        self.assertEqual((graded["verdict"], graded["detail"]), (
            "FAIL", "at n = 9: its calls took 3 x --seconds in all; the 6 cases before it "
                    "were right"))


if __name__ == "__main__":
    unittest.main()
