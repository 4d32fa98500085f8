"""check: right solutions in many styles pass; each classic slip fails with its
words; every shape of answer gets a verdict; the exit status of each verdict;
graded in this process with the grading process's own code. Then `python
main.py check` itself, for what only real processes show: hangs, crashes,
exits, limits, what a function starts, and check ended by a signal."""

import contextlib
import importlib
import importlib.util
import io
import itertools
import json
import math
import os
import re
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
from tests.support import (NAN, PYTHON, ROOT, VECTOR, InProcess, gone_within,
                           graded_in_this_process, raising, run_main, scripted_steps)

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
    t0 = time.perf_counter()
    rnn_style(xs)
    t1 = time.perf_counter()
    attention_style(xs)
    return t1 - t0, time.perf_counter() - t1

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

SERIAL = '''
import operator
def serial_scan(xs, op=operator.add):
    out = []
    for x in xs:
        out.append(op(out[-1], x) if out else x)
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

BLELLOCH = '''
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
'''

TREES = '''
import operator
def tree(values, op):
    while len(values) > 1:
        values = [op(values[i], values[i + 1]) if i + 1 < len(values) else values[i]
                  for i in range(0, len(values), 2)]
    return values[0]
def parallel_scan(xs, op=operator.add):
    return [tree(list(xs[:i + 1]), op) for i in range(len(xs))]
'''



def replaced(source, old, new):
    assert old in source, old
    return source.replace(old, new)


# Right solutions, in the styles learners write: each must pass.
RIGHT = {
    "the lesson's own code, but depth": (LESSON, "rnn_style attention_style serial_scan "
                                                 "parallel_scan"),
    "h from 0, an int for no values": (replaced(LESSON, "h = 0.0", "h = 0"), "rnn_style"),
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
    "Blelloch's exclusive scan, padded with None, made inclusive": (BLELLOCH,
                                                                    "parallel_scan"),
    "op after another parameter, so by keyword": (
        replaced(SERIAL, "def serial_scan(xs, op=operator.add):",
                 "def serial_scan(xs, reverse=False, op=operator.add):"), "serial_scan"),
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
    "namedtuples": ('''
import collections, math
Depth = collections.namedtuple("Depth", "chain tree")
def depth(n):
    return Depth(n, max(1, (n - 1).bit_length()))
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
    "a function that deletes a builtin": (
        "import builtins\ndef depth(n):\n    if hasattr(builtins, 'type'):\n"
        "        del builtins.type\n    return n, max(1, (n - 1).bit_length())\n", "depth"),
    "a scan that sends op and its values through pickle, as a multiprocessing.Pool does": (
        replaced(HILLIS_STEELE, "    out, step = list(xs), 1", "    import pickle\n"
                 "    op, xs = pickle.loads(pickle.dumps((op, list(xs))))\n"
                 "    out, step = list(xs), 1"), "parallel_scan"),
    "the Easy exercise, with main.py's weights": (VECTOR, "rnn_style_vector"),
}


# Wrong solutions: (source, function, verdict, words its detail must hold). The
# words are the learner's: which input, what came back, and the slip.
WRONG = {
    # rnn_style
    "rnn_style returns every state": (
        replaced(LESSON, "    return h", "    return [h]"), "rnn_style", "FAIL",
        "at xs = [3], decay = 0.5: got a list, [3.0], where a number belongs: return one "
        "number, not a list of them"),
    "rnn_style returns (h,)": (
        replaced(LESSON, "    return h", "    return (h,)"), "rnn_style", "FAIL",
        "got a tuple, (3.0,), where a number belongs"),
    "decay * (h + x)": (replaced(LESSON, "decay * h + x", "decay * (h + x)"), "rnn_style",
                        "FAIL", "at xs = [3], decay = 0.5: got 1.5, expected 3.0: decay * (h + "
                                "x) where decay * h + x belongs: only h decays"),
    "h + decay * x": (replaced(LESSON, "decay * h + x", "h + decay * x"), "rnn_style", "FAIL",
                      "h + decay * x where decay * h + x belongs"),
    "the first x counted twice": (
        replaced(LESSON, "    h = 0.0\n", "    h = xs[0] if xs else 0.0\n"), "rnn_style",
        "FAIL", "got 4.5, expected 3.0: the first x is counted twice"),
    "decay ignored": (replaced(LESSON, "h = decay * h + x", "h = 0.9 * h + x"), "rnn_style",
                      "FAIL", "at xs = [1, 2], decay = 0.5: got 2.9, expected 2.5: this is the "
                              "answer for decay = 0.9"),
    "decay ignored and decay * (h + x): two slips": (
        replaced(LESSON, "h = decay * h + x", "h = 0.9 * (h + x)"), "rnn_style", "FAIL",
        "decay * (h + x) where decay * h + x belongs: only h decays; and this is the answer for "
        "decay = 0.9"),
    "h += x": (replaced(LESSON, "h = decay * h + x", "h += x"), "rnn_style", "FAIL",
               "at xs = [1, 2], decay = 0.5: got 3.0, expected 2.5: h += x leaves the decay out: "
               "h = decay * h + x"),
    "a wrong default decay": (replaced(LESSON, "def rnn_style(xs, decay=0.9):",
                                       "def rnn_style(xs, decay=0.5):"), "rnn_style", "FAIL",
                              "at xs = [1, 2]: got 2.5, expected 2.9: wrong only where called "
                              "with its defaults"),
    # attention_style
    "the sum": ("def attention_style(xs):\n    return sum(xs)\n", "attention_style", "FAIL",
                "at xs = [1, 2]: got 3, expected 1.5: this is the sum"),
    "attention_style returns [mean]": (
        "def attention_style(xs):\n    return [sum(xs) / len(xs)]\n", "attention_style", "FAIL",
        "got a list, [3.0], where a number belongs"),
    "the mean over N - 1": ("def attention_style(xs):\n    return sum(xs) / (len(xs) - 1)\n",
                            "attention_style", "FAIL",
                            "ZeroDivisionError: division by zero\nthis divides by len(xs) - 1"),
    "the mean over N - 1, guarded": (
        "def attention_style(xs):\n    return sum(xs) / max(1, len(xs) - 1)\n",
        "attention_style", "FAIL", "at xs = [1, 2]: got 3.0, expected 1.5: this divides by "
                                   "len(xs) - 1"),
    "// in the mean": ("def attention_style(xs):\n    return sum(xs) // len(xs)\n",
                       "attention_style", "FAIL", "at xs = [1, 2]: got 1, expected 1.5: // "
                                                  "rounds down"),
    # depth
    "depth by n.bit_length()": (
        "def depth(n):\n    return n, n.bit_length()\n", "depth", "FAIL",
        "at n = 2: got (2, 2), expected (2, 1): first difference at [1]: n.bit_length() is one "
        "too many at powers of two"),
    "depth 0 for one value": ("def depth(n):\n    return n, (n - 1).bit_length()\n", "depth",
                              "FAIL", "at n = 1: got (1, 0), expected (1, 1): first difference "
                                      "at [1]: one value still takes depth 1"),
    "depth as a float's floor, 0 for one value: three slips": (
        "import math\ndef depth(n):\n    return n, math.floor(math.log2(n))\n", "depth", "FAIL",
        "this is floor(log2 n), rounded down; the depth is ceil(log2 n); and a float's log2 "
        "rounds for large n (math.log2, math.frexp): (n - 1).bit_length() is exact at every n; "
        "and one value still takes depth 1 here"),
    "depth as a floor": ("def depth(n):\n    return n, max(1, n.bit_length() - 1)\n",
                         "depth", "FAIL", "at n = 3: got (3, 1), expected (3, 2): first "
                                          "difference at [1]: this is floor(log2 n)"),
    "depth by math.log(n, 2)": (
        "import math\ndef depth(n):\n    return n, max(1, math.ceil(math.log(n, 2)))\n",
        "depth", "FAIL", "at n = 536870912: got (536870912, 30), expected (536870912, 29): "
                         "first difference at [1]: math.log(n, 2) is a float that rounds"),
    "the lesson's own depth, a float log2": (
        LESSON, "depth", "FAIL", "at n = 562949953421313: got (562949953421313, 49), expected "
                                 "(562949953421313, 50): first difference at [1]: a float's "
                                 "log2 rounds for large n"),
    "depth by int(log2(n - 1)) + 1": (
        "import math\ndef depth(n):\n    return n, 1 if n == 1 else int(math.log2(n - 1)) + 1\n",
        "depth", "FAIL", "a float's log2 rounds for large n (math.log2, math.frexp)"),
    # issue 80: numpy's log2 without numpy: a float's log2, and none past 64 bits
    "depth by numpy's log2": ('''
import math
def log2(n):                # as numpy.log2 of an int: a float's, and none past 64 bits
    if n >= 2**64:
        raise TypeError("no log2 of an object")
    return math.log2(n)
def depth(n):
    return n, max(1, math.ceil(log2(n)))
''', "depth", "FAIL", "at n = 562949953421313: got (562949953421313, 49), expected "
                      "(562949953421313, 50): first difference at [1]: numpy's log2 is a float's "
                      "log2, which rounds for large n, and it takes no int past 2**64 - 1: (n - "
                      "1).bit_length() is exact at every n"),
    "depth by math.frexp": (
        "import math\ndef depth(n):\n    return n, max(1, math.frexp(n - 1)[1])\n", "depth",
        "FAIL", "a float's log2 rounds for large n"),
    "the chain n - 1 deep": (
        "def depth(n):\n    return n - 1, max(1, (n - 1).bit_length())\n", "depth", "FAIL",
        "at n = 1: got (0, 1), expected (1, 1): first difference at [0]: the chain of n steps "
        "is n deep"),
    "depth by the natural log": (
        "import math\ndef depth(n):\n    return n, max(1, math.ceil(math.log(n)))\n", "depth",
        "FAIL", "math.log(n) is the natural log, base e"),
    "depth by log10": ("import math\ndef depth(n):\n    return n, max(1, math.ceil("
                       "math.log10(n)))\n", "depth", "FAIL", "math.log10(n) is base 10"),
    "depth as a float": ("import math\ndef depth(n):\n    return n, max(1.0, math.log2(n))\n",
                         "depth", "FAIL", "first difference at [1]: a float where an int "
                                          "belongs"),
    "depth as a list": ("def depth(n):\n    return [n, max(1, (n - 1).bit_length())]\n",
                        "depth", "FAIL", "at n = 1: got a list, [1, 1], where a tuple belongs: "
                                         "return a tuple"),
    # the scans: first on small ints and letters, where the slip shows
    "an exclusive scan": (
        "def serial_scan(xs, op=None):\n    out, total = [], 0\n    for x in xs:\n"
        "        out.append(total)\n        total += x\n    return out\n", "serial_scan",
        "FAIL", "at xs = [3] (op: +): got [0], expected [3]: first difference at [0]: your first "
                "total is 0: this is the exclusive scan"),
    # it ignores op too, but its 0 meets every op first: the answers show the exclusive scan
    "an exclusive scan that ignores op": (
        "def serial_scan(xs, op=None):\n    out, total = [], 0\n    for x in xs:\n"
        "        out.append(total)\n        total = total + x\n    return out\n", "serial_scan",
        "FAIL", "got [0], expected [3]: first difference at [0]: these are the totals of +: "
                "combine with op, which here is not +; and your first total is 0: this is the "
                "exclusive scan"),
    "an exclusive scan shifted right": (
        "import itertools, operator\ndef serial_scan(xs, op=operator.add):\n"
        "    return [0] + list(itertools.accumulate(xs, op))[:-1] if xs else []\n",
        "serial_scan", "FAIL", "at xs = [3] (op: +): got [0], expected [3]: first difference at "
                               "[0]: your first total is 0: this is the exclusive scan"),
    "no default op": (replaced(SERIAL, "def serial_scan(xs, op=operator.add):",
                               "def serial_scan(xs, op):"), "serial_scan", "FAIL",
                      "wrong only where called with its defaults"),
    "operands swapped, in a loop": (
        replaced(SERIAL, "op(out[-1], x)", "op(x, out[-1])"), "serial_scan", "FAIL",
        "at xs = ['a', 'b'] (op: +): got ['a', 'ba'], expected ['a', 'ab']: first difference "
        "at [1]: op's operands are swapped"),
    "operands swapped, in a recursion": (
        replaced(SKLANSKY, "op(left[-1], r)", "op(r, left[-1])"), "parallel_scan", "FAIL",
        "op's operands are swapped: the earlier values go left, op(earlier, later)"),
    "op ignored and operands swapped: two slips": (
        replaced(SERIAL, "op(out[-1], x)", "x + out[-1]"), "serial_scan", "FAIL",
        "these are the totals of +: combine with op, which here is not +; and op's operands "
        "are swapped"),
    "op ignored": (replaced(HILLIS_STEELE, "op(out[i - step], out[i])", "out[i - step] + out[i]"),
                   "parallel_scan", "FAIL", "(op: their composition): got [(2, 1), (2, 1, 2, "
                                            "3)], expected [(2, 1), (4, 5)]"),
    "the first total missing": (
        "import itertools, operator\ndef serial_scan(xs, op=operator.add):\n"
        "    return list(itertools.accumulate(xs, op))[1:]\n", "serial_scan", "FAIL",
        "at xs = [3] (op: +): got [], expected [3]; 0 values where 1 belong: the first total "
        "is missing"),
    "the last total missing": (
        "import itertools, operator\ndef serial_scan(xs, op=operator.add):\n"
        "    return list(itertools.accumulate(xs, op))[:-1]\n", "serial_scan", "FAIL",
        "one total short"),
    "values turned into floats": (
        "import itertools, operator\ndef serial_scan(xs, op=operator.add):\n"
        "    return list(itertools.accumulate((float(x) for x in xs), op))\n", "serial_scan",
        "FAIL",
        "at xs = [9007199254740995] (op: +): got [9007199254740996.0], expected "
        "[9007199254740995]: first difference at [0]: a float where an int belongs (ints are "
        "exact, floats round): the values are turned into floats"),
    "maps turned into lists": (
        "import itertools, operator\ndef serial_scan(xs, op=operator.add):\n"
        "    return [list(t) if isinstance(t, tuple) else t for t in itertools.accumulate(xs, "
        "op)]\n", "serial_scan", "FAIL", "first difference at [0], a list where a tuple belongs"),
    "a total that starts from 0": (
        "def serial_scan(xs, op=lambda a, b: a + b):\n    out, total = [], 0\n    for x in xs:\n"
        "        total = op(total, x)\n        out.append(total)\n    return out\n",
        "serial_scan", "FAIL", "your total starts from 0, which op cannot take (0 + 'a' fails; "
        "0.0 also turns ints into floats): start the total from xs[0]"),
    # issue 76: the new value on the left, and a total from 0.0, each named
    "a total that starts from 0, the new value on the left": (
        "import operator\ndef serial_scan(xs, op=operator.add):\n    total = 0\n"
        "    out = []\n    for x in xs:\n        total = op(x, total)\n"
        "        out.append(total)\n    return out\n", "serial_scan", "FAIL",
        "TypeError: can only concatenate str (not \"int\") to str\nop's operands are swapped: "
        "the earlier values go left, op(earlier, later); and your total starts from 0"),
    "a total that starts from 0.0": (
        "import operator\ndef serial_scan(xs, op=operator.add):\n    total = 0.0\n"
        "    out = []\n    for x in xs:\n        total = op(total, x)\n"
        "        out.append(total)\n    return out\n", "serial_scan", "FAIL",
        "at xs = [9007199254740995] (op: +): got [9007199254740996.0], expected "
        "[9007199254740995]: first difference at [0]: a float where an int belongs (ints are "
        "exact, floats round): your total starts from 0"),
    "the last total left out by range(1, len(xs) - 1)": (
        "import operator\ndef serial_scan(xs, op=operator.add):\n    if not xs:\n"
        "        return []\n    out = [xs[0]]\n    for i in range(1, len(xs) - 1):\n"
        "        out.append(op(out[-1], xs[i]))\n    return out\n", "serial_scan", "FAIL",
        "at xs = [1, 2] (op: +): got [1], expected [1, 3]; 1 value where 2 belong: one total "
        "short"),
    "padded with 0, operands in order": ('''
import operator
def parallel_scan(xs, op=operator.add):
    n, size = len(xs), 1
    while size < n:
        size *= 2
    out, step = [0] * (size - n) + list(xs), 1
    while step < size:
        out = out[:step] + [op(out[i - step], out[i]) for i in range(step, size)]
        step *= 2
    return out[size - n:]
''', "parallel_scan", "FAIL", "it pads xs with 0, which op cannot take"),
    "step += 1": (replaced(HILLIS_STEELE, "step *= 2", "step += 1"), "parallel_scan", "FAIL",
                  "step grows by 1: it doubles each round"),
    "the first round 2 back": (replaced(HILLIS_STEELE, "list(xs), 1", "list(xs), 2"),
                               "parallel_scan", "FAIL", "step starts at 1"),
    "one round short": (replaced(HILLIS_STEELE, "while step <", "while 2 * step <"),
                        "parallel_scan", "FAIL", "one round short: go on while step < len(xs)"),
    "rounds while step < len(xs) - 1": (
        replaced(HILLIS_STEELE, "while step < len(out)", "while step < len(out) - 1"),
        "parallel_scan", "FAIL", "one round short: go on while step < len(xs)"),
    "ten rounds, fixed": (
        replaced(HILLIS_STEELE, "    while step < len(out):", "    for _ in range(10):"),
        "parallel_scan", "FAIL", "wrong only on the long inputs, a thousand values or more"),
    "one buffer reused from the second round": ('''
import operator
def parallel_scan(xs, op=operator.add):
    out, new, step = list(xs), list(xs), 1
    while step < len(out):
        for i in range(step, len(out)):
            new[i] = op(out[i - step], out[i])
        out = new
        step *= 2
    return out
''', "parallel_scan", "FAIL", "a round updated its list in place"),
    # issue 80: 0 as op's identity in a parallel scan, in its three shapes, in the words
    # of a parallel scan (a serial scan's total from 0 has its own)
    "Blelloch with 0 as its identity": (
        replaced(replaced(replaced(BLELLOCH, "[None] * (size - n)", "[0] * (size - n)"),
                          "tree[-1] = None", "tree[-1] = 0"),
                 "    if n < 2:\n        return list(xs)\n", ""), "parallel_scan", "FAIL",
        "TypeError: unsupported operand type(s) for +: 'int' and 'str'\nit uses 0 as op's "
        "identity (to pad, to seed a sweep, or before xs[0] in a round), and op cannot take 0 "
        "(0 + 'a' fails; 0.0 also turns ints into floats): use None and skip it, or let each "
        "loop stop at len(xs)"),
    "Blelloch with 0 as its identity, one value returned as it is": (
        replaced(BLELLOCH, "[None] * (size - n)", "[0] * (size - n)").replace(
            "tree[-1] = None", "tree[-1] = 0"), "parallel_scan", "FAIL",
        "at xs = ['a', 'b'] (op: +): it raised:"),
    "0 before xs[0] in each round": (
        replaced(HILLIS_STEELE, "out = out[:step] + [op(out[i - step], out[i]) for i in "
                                "range(step, len(out))]",
                 "out = [op(out[i - step] if i >= step else 0, out[i]) for i in range(len(out))]"),
        "parallel_scan", "FAIL", "TypeError: unsupported operand type(s) for +: 'int' and "
                                 "'str'\nit uses 0 as op's identity"),
    "rounds while step < len(xs) // 2": (
        replaced(HILLIS_STEELE, "while step < len(out)", "while step < len(xs) // 2"),
        "parallel_scan", "FAIL", "a round or two short: go on while step < len(xs), not "
                                 "len(xs) // 2"),
    "rounds as floor(log2 N)": (
        replaced(HILLIS_STEELE, "    while step < len(out):", "    import math\n"
                 "    for _ in range(int(math.log2(len(out))) if out else 0):"),
        "parallel_scan", "FAIL", "one round short where N is not a power of two"),
    "each round one place late": (replaced(HILLIS_STEELE, "range(step, len(out))",
                                           "range(step + 1, len(out))").replace(
        "out[:step]", "out[:step + 1]"), "parallel_scan", "FAIL",
        "each round starts one place late"),
    "each round one place early": (replaced(HILLIS_STEELE, "range(step, len(out))]",
                                            "range(step, len(out) - 1)] + out[-1:]"),
                                   "parallel_scan", "FAIL", "each round stops one place early"),
    "in place": ('''
import operator
def parallel_scan(xs, op=operator.add):
    out, step = list(xs), 1
    while step < len(out):
        for i in range(step, len(out)):
            out[i] = op(out[i - step], out[i])
        step *= 2
    return out
''', "parallel_scan", "FAIL", "a round updated its list in place"),
    "Brent-Kung written for powers of two only": ('''
import operator
def parallel_scan(xs, op=operator.add):
    out, n, d = list(xs), len(xs), 1
    while d < n:
        for i in range(2 * d - 1, n, 2 * d):
            out[i] = op(out[i - d], out[i])
        d *= 2
    d = n // 2
    while d > 1:
        d //= 2
        for i in range(3 * d - 1, n, 2 * d):
            out[i] = op(out[i - d], out[i])
    return out
''', "parallel_scan", "FAIL", "at xs = [4, 9, 3] (op: +): got [4, 13, 3], expected [4, 13, "
                            "16]: first difference at [2]: wrong only where N is not a power "
                            "of two"),
    "a loop": (SERIAL.replace("serial_scan", "parallel_scan"), "parallel_scan", "not parallel",
               "correct, but its depth at N = 8 is 7, over 2 ceil(log2 N) = 6; the exercise "
               "asks for 3 rounds of side-by-side combines"),
    "serial up to 64, then Hillis-Steele": (
        replaced(HILLIS_STEELE, "    out, step", "    if len(xs) <= 64:\n        out = []\n"
                 "        for x in xs:\n            out.append(op(out[-1], x) if out else x)\n"
                 "        return out\n    out, step"), "parallel_scan", "not parallel",
        "its depth at N = 8 is 7"),
    "parallel only for operator.add": (
        replaced(HILLIS_STEELE, "    out, step = list(xs), 1", "    if op is not operator.add:\n"
                 "        out = []\n        for x in xs:\n"
                 "            out.append(op(out[-1], x) if out else x)\n        return out\n"
                 "    out, step = list(xs), 1"), "parallel_scan", "not parallel",
        "correct, but its depth at N = 8 is 7"),
    "totals kept in 64 bits, as numpy's int64 keeps them": (
        replaced(SERIAL, "out.append(op(out[-1], x) if out else x)",
                 "total = op(out[-1], x) if out else x\n"
                 "        out.append((total + 2**63) % 2**64 - 2**63 if type(total) is int "
                 "else total)"), "serial_scan", "FAIL",
        "(1,023 ints past 2**62, whose totals overflow 64 bits, op: +): got "
        "-8950339409160934331 at [5], expected 9496404664548617285: your totals overflow 64 "
        "bits, first at out[5]: past 2**63 - 1 they wrap round, as numpy's int64 does; keep "
        "Python's ints, which never overflow"),
    # issue 74: answers rounded, named as rounding (not as the defaults), for rnn_style
    # (whose decay 0.5 answers survive rounding) and attention_style alike
    "rnn_style rounded to 6 places": (
        replaced(LESSON, "    return h\n", "    return round(h, 6)\n"), "rnn_style", "FAIL",
        "at xs = [4, 6, 7, 3, 4, 1, 2, 3], decay = 0.9: got 19.729564, expected "
        "19.729563600000002: your answers are rounded to 6 decimals: return the value itself"),
    "attention_style rounded to a whole number": (
        "def attention_style(xs):\n    return round(sum(xs) / len(xs))\n", "attention_style",
        "FAIL", "at xs = [1, 2]: got 2, expected 1.5: your answers are rounded to 0 decimals"),
    "attention_style rounded to 3 places": (
        "def attention_style(xs):\n    return round(sum(xs) / len(xs), 3)\n",
        "attention_style", "FAIL", "at xs = [4, 9, 3]: got 5.333, expected 5.333333333333333: "
                                   "your answers are rounded to 3 decimals"),
    "rnn_style_vector rounded to 4 places": (
        replaced(VECTOR, "    return h", "    return [round(v, 4) for v in h]"),
        "rnn_style_vector", "FAIL", "your answers are rounded to 4 decimals"),
    "wrong only for the empty list": (
        replaced(SERIAL, "    return out", "    return out or [0]"), "serial_scan", "FAIL",
        "at xs = [] (op: +): got [0], expected []; 1 value where 0 belong: wrong only for the "
        "empty list"),
    "shortens its input, its answers right": (
        "import itertools, operator\ndef serial_scan(xs, op=operator.add):\n"
        "    out = list(itertools.accumulate(xs, op))\n    if xs:\n        xs.pop()\n"
        "    return out\n", "serial_scan", "FAIL", "at xs = [3] (op: +): it changed its input"),
    "a bool for no values, where Python's True == 1 would pass": (
        replaced(LESSON, "    h = 0.0\n", "    if not xs:\n        return False\n    h = 0.0\n"),
        "rnn_style", "FAIL", "at xs = []: got a bool, False, where a number belongs"),
    "changes its input": ("def serial_scan(xs, op=None):\n    for i in range(1, len(xs)):\n"
                          "        xs[i] = xs[i - 1] + xs[i]\n    return xs\n", "serial_scan",
                          "FAIL", "at xs = [1, 2] (op: +): it changed its input: leave xs as "
                                  "it is"),
    "width 8 by default": (replaced(VECTOR, "width=64", "width=8"), "rnn_style_vector", "FAIL",
                           "at xs = [1, 2]: got 2.505795475877605 at [0], expected "
                           "2.309131782546354; 8 values where 64 belong: wrong only where "
                           "called with its defaults"),
    "a recursion that drops op": (replaced(SKLANSKY, "parallel_scan(xs[:half], op)",
                                           "parallel_scan(xs[:half])"), "parallel_scan", "FAIL",
                                  "your recursion calls itself without op: pass on op"),
    # the Easy exercise
    # issue 80: b left out, the decay applied twice, a tanh, float32; one with the decay
    # ignored too, both named
    "b left out": (replaced(VECTOR, "+ bi * x for row, bi", "+ x for row, bi"),
                   "rnn_style_vector", "FAIL",
                   "at xs = [1, 2, 3], width = 2: got [5.609999999999999, 5.609999999999999], "
                   "expected [5.13, 3.285]: first difference at [0]: x is added to every unit "
                   "where b*x belongs: unit i adds b[i] * x"),
    "b left out, and the decay ignored: two slips": (
        replaced(replaced(VECTOR, "+ bi * x for row, bi", "+ x for row, bi"),
                 "hidden_weights(width, decay)", "hidden_weights(width)"), "rnn_style_vector",
        "FAIL", "x is added to every unit where b*x belongs: unit i adds b[i] * x; and this is "
                "the answer for decay = 0.9"),
    "the decay applied twice": (
        replaced(VECTOR, "h = [sum(", "h = [decay * sum("), "rnn_style_vector", "FAIL",
        "at xs = [1, 2, 3], width = 1: got [5.2761], expected [5.609999999999999]: first "
        "difference at [0]: the decay is applied twice: A = hidden_weights(width, decay)[0] "
        "holds it already, so h = A.h + b*x, with no decay of its own"),
    "a tanh on each unit": (
        replaced(replaced(VECTOR, "h = [sum(a * hj for a, hj in zip(row, h)) + bi * x for",
                          "h = [math.tanh(sum(a * hj for a, hj in zip(row, h)) + bi * x) for"),
                 "from main", "import math\nfrom main"), "rnn_style_vector", "FAIL",
        "at xs = [1, 2, 3], width = 1: got [0.9991671079572833], expected [5.609999999999999]: "
        "first difference at [0]: this is tanh of the step: the recurrence here is linear, with "
        "no tanh (main.py's rnn_tanh is the one with it)"),
    "rnn_style with a tanh": (
        replaced(LESSON, "h = decay * h + x", "h = math.tanh(decay * h + x)"), "rnn_style", "FAIL",
        "at xs = [3], decay = 0.5: got 0.9950547536867305, expected 3.0: this is tanh of the "
        "step"),
    # numpy's float32 without numpy: each answer rounded to 24 bits
    "rnn_style_vector in float32": (
        replaced(replaced(VECTOR, "    return h", "    return [struct.unpack('f', struct.pack("
                                                   "'f', v))[0] for v in h]"),
                 "from main", "import struct\nfrom main"), "rnn_style_vector", "FAIL",
        "at xs = [1, 2, 3], width = 1: got [5.610000133514404], expected [5.609999999999999]: "
        "first difference at [0]: your answers are float32, numpy's single precision, good to "
        "about 7 digits: keep float64, numpy's default, or Python's floats"),
    "attention_style in float32": (
        "import struct\ndef attention_style(xs):\n"
        "    return struct.unpack('f', struct.pack('f', sum(xs) / len(xs)))[0]\n",
        "attention_style", "FAIL", "at xs = [4, 9, 3]: got 5.333333492279053, expected "
                                   "5.333333333333333: your answers are float32"),
    "one row shared by every unit": (
        replaced(VECTOR, "for row, bi in zip(A, b)", "for row, bi in zip([A[0]] * width, b)"),
        "rnn_style_vector", "FAIL", "at xs = [1, 2, 3], width = 2: got [5.175, 3.675], expected "
                                    "[5.13, 3.285]: first difference at [0]: every unit used "
                                    "the same row of A"),
    "a transposed matrix": (
        replaced(VECTOR, "zip(row, h)) + bi * x for row, bi in zip(A, b)",
                 "zip(row, h)) + bi * x for row, bi in zip(zip(*A), b)"), "rnn_style_vector",
        "FAIL", "A is transposed: unit i sums A[i][j] * h[j] over j"),
    "the state updated in place": (
        replaced(VECTOR, "        h = [sum(a * hj for a, hj in zip(row, h)) + bi * x for row, bi"
                         " in zip(A, b)]",
                 "        for i in range(width):\n            h[i] = sum(a * hj for a, hj in "
                 "zip(A[i], h)) + b[i] * x"), "rnn_style_vector", "FAIL",
        "h was updated in place, so later units read this step's values"),
    # what a learner's code does besides answering
    "an exception": ("def attention_style(xs):\n    return sum(xs) / 0\n", "attention_style",
                     "FAIL", "ZeroDivisionError: division by zero"),
    "a recursion without end": ("def serial_scan(xs, op=None):\n    return serial_scan(xs, op)\n",
                                "serial_scan", "FAIL", "RecursionError"),
    "an int past float's range where a float belongs": (
        "def attention_style(xs):\n    return 10 ** 400\n", "attention_style", "FAIL",
        "at xs = [3]: got " + "1" + "0" * 76 + "..., expected 3.0"),          # cut to 80
    "a list that holds itself": (
        "def serial_scan(xs, op=None):\n    out = []\n    out.append(out)\n    return out\n",
        "serial_scan", "FAIL", "a list nested more than 20 deep (or holding itself)"),
    "a list nested 5,000 deep, past Python's recursion limit": (
        "def serial_scan(xs, op=None):\n    out = []\n    for _ in range(5_000):\n"
        "        out = [out]\n    return out\n", "serial_scan", "FAIL",
        "a list nested more than 20 deep"),
    "sys.exit inside": ("import sys\ndef depth(n):\n    sys.exit(3)\n", "depth", "FAIL",
                        "at n = 1: it called sys.exit(3): return the value instead"),
    "reads input": ("def depth(n):\n    return n, int(input())\n", "depth", "FAIL",
                    "it read input (input()?)"),
    "not written": ("def depth(n):\n    raise NotImplementedError\n", "depth",
                    "not written yet", ""),
}

# What a function may return, and the words check gives it: a verdict for every
# shape, never a traceback of check's own (issue 63, item 1).
SHAPES = {
    "a list where a number belongs": ("[xs]", "got [[3]], expected [3]: first difference at "
                                              "[0], a list where a number belongs"),
    "a number where a list belongs": ("sum(xs)", "got a number, 3, where a list belongs"),
    "a tuple": ("tuple(xs)", "got a tuple, (3,), where a list belongs"),
    "None": ("None", "got None where a list belongs: does it end with return?"),
    "a generator": ("(x for x in xs)", "got an iterator, <generator object"),
    "a generator, and how to make a list of it": ("(x for x in xs)", "where a list belongs: "
                                                  "return a list: list(...) makes one"),
    "NaN": ("[float('nan')] * len(xs)", "got [nan], expected [3]"),
    "a string": ("'abc'", "got a str, 'abc', where a list belongs"),
    "a dict": ("{}", "got a dict, {}, where a list belongs"),
    "nested lists": ("[[x] for x in xs]", "a list where a number belongs"),
    "floats where ints belong": ("[float(x) for x in xs]", "got [1.0, 2.0], expected [1, 3]: "
                                                           "first difference at [1]: a float "
                                                           "where an int belongs"),
    "a complex number": ("[1j]", "a complex where a number belongs"),
    "an array, as numpy's": ("Array(xs)", "got an array, Array, where a list belongs: return "
                                          "a list: an array's .tolist() makes one"),
    "a string of 20 MB": ("'x' * 20_000_000", "got a str, a str of 20,000,000 items, too long "
                                              "to show, where a list belongs"),
    "an int too large to send": ("[10 ** 5000]", "got [an int of about 5,000 digits]"),
    # its class by the name the learner wrote, with its article; no module of check's
    "an object of the file's own class": ("Ambiguous()", "got an Ambiguous, <Ambiguous object "
                                                         "at 0x"),
}
ARRAY = '''
class Array:
    shape = ()
    def __init__(self, values):
        self.values = list(values)
    def tolist(self):
        return self.values
    def __repr__(self):
        return "Array"
class Ambiguous:
    pass
'''


class Odd:
    def __repr__(self):
        return "\x1b[31mred\r"


@contextlib.contextmanager
def grading_process(source):
    """Yield the grading process (InProcess) of source, saved as solution.py in a
    folder of its own."""
    with tempfile.TemporaryDirectory() as folder:
        child = InProcess(write(folder, "solution.py", textwrap.dedent(source)))
        try:
            yield child
        finally:
            child.close()


def judged(source, name, answers=None):
    """Return the judge's (verdict, detail, mirror) of one function of source, asked
    through its grading process; where answers (a function of the request) gives
    an answer, that answer instead: a stop, say."""
    with grading_process(source) as child:
        def ask(request):
            return (answers and answers(request)) or child.ask(request)
        return main._judge(ask, child.opened, name)


def graded_here(source, names=main.CHECKED):
    """Return check_solutions' report of source, end to end, its grading processes
    run in this one."""
    with tempfile.TemporaryDirectory() as folder:
        path = write(folder, "solution.py", textwrap.dedent(source))
        with graded_in_this_process():
            return main.check_solutions(path, names)


def grade(source, name):
    """Return (verdict, detail) of one function of source, as the judge gives them."""
    return judged(source, name)[:2]


def judgement(source, name):
    """Return one function's grade as a dict: its verdict, detail and mirror."""
    return dict(zip(("verdict", "detail", "mirror"), judged(source, name)))


def flat(text):
    return " ".join(text.split())




class TestGrading(unittest.TestCase):
    @classmethod
    def setUpClass(cls):                # each right solution graded once, read by the tests
        with mock.patch.object(main, "_time_steps", scripted_steps):
            cls.right = {label: {name: judgement(source, name) for name in names.split()}
                         for label, (source, names) in RIGHT.items()}
        cls.wrong_graded = {label: judgement(source, name)
                            for label, (source, name, _, _) in WRONG.items()}
        cls.wrong = {label: (r["verdict"], r["detail"]) for label, r in cls.wrong_graded.items()}

    def test_every_right_solution_passes(self):
        for label, graded in self.right.items():
            for name, r in graded.items():
                with self.subTest(label, name=name):
                    self.assertEqual(r["verdict"], "pass", r["detail"])

    def test_every_classic_slip_is_named_in_the_learners_terms(self):
        for label, (source, name, verdict, words) in WRONG.items():
            with self.subTest(label):
                got, detail = self.wrong[label]
                self.assertEqual(got, verdict, detail)
                self.assertNotRegex(detail, r"Counted|Tally|_child|_grade|main\.py\"")
                self.assertIn(words, flat(detail) if "\n" not in words else detail)

    def test_every_slip_is_named_by_some_wrong_solution(self):
        # each slip is named by some wrong solution above
        named = " ".join(detail for _, detail in self.wrong.values())
        for slip, words in main.CHECK_SLIPS.items():
            with self.subTest(slip):        # a number in the words: any number
                pattern = re.escape(flat(words))
                self.assertRegex(flat(named), re.sub(r"\\{\w+\\}", r"[0-9]+", pattern))

    def test_a_slip_is_named_only_where_it_explains_every_answer(self):
        # at xs = [2] a round short is right: only later cases show it, and there
        # the words are those of the slip that gives every answer
        self.assertIn("one round short", grade(replaced(HILLIS_STEELE, "while step <",
                                                       "while 2 * step <"), "parallel_scan")[1])
        # an answer no slip gives gets none: the first difference alone
        odd = replaced(HILLIS_STEELE, "    return out", "    return out[:-1] + out[-1:] * 2")
        self.assertEqual(grade(odd, "parallel_scan"), (
            "FAIL", "at xs = [3] (op: +): got [3, 3], expected [3]; 2 values where 1 belong"))
        # an exception is read as 0 taken for op's identity only where op raises it on
        # 0: a scan that raises on letters for a reason of its own gets no slip
        negated = replaced(HILLIS_STEELE, "op(out[i - step], out[i])",
                           "op(out[i - step], -(-out[i]))")
        verdict, detail = grade(negated, "parallel_scan")
        self.assertEqual(verdict, "FAIL")
        self.assertTrue(detail.endswith("TypeError: bad operand type for unary -: 'str'"), detail)
        for words in main.CHECK_SLIPS.values():
            self.assertNotIn(words, detail)

    @unittest.skipUnless(importlib.util.find_spec("numpy"), "numpy is not installed")
    def test_numpy_itself_gets_the_words_of_the_files_that_model_it(self):
        # loaded before the grading process run here, which cannot load it a second time
        importlib.import_module("numpy")
        numpy_files = {
            "depth by numpy's log2": "import numpy as np\ndef depth(n):\n"
                                     "    return n, max(1, int(np.ceil(np.log2(n))))\n",
            "rnn_style_vector in float32": '''
import numpy as np
from main import hidden_weights
def rnn_style_vector(xs, width=64, decay=0.9):
    A, b = (np.array(w, dtype=np.float32) for w in hidden_weights(width, decay))
    h = np.zeros(width, dtype=np.float32)
    for x in xs:
        h = A @ h + b * np.float32(x)
    return h.tolist()
'''}
        for label, source in numpy_files.items():
            _, name, verdict, words = WRONG[label]
            with self.subTest(label):
                self.assertEqual(grade(source, name), (verdict, words))
        # a float32 computed all along, not rounded once: its own numbers, the same slip
        source = ("import numpy as np\ndef rnn_style(xs, decay=0.9):\n    h = np.float32(0)\n"
                  "    for x in xs:\n        h = np.float32(decay) * h + np.float32(x)\n"
                  "    return h\n")
        self.assertEqual(grade(source, "rnn_style"), (
            "FAIL", "at xs = [1, 2], decay = 0.9: got 2.9000000953674316, expected 2.9: your "
                    "answers are float32, numpy's single precision, good to about 7 digits: keep "
                    "float64, numpy's default, or Python's floats"))

    def test_every_answer_shape_gets_a_verdict_in_checks_words(self):
        for label, (returned, words) in SHAPES.items():
            source = ARRAY + f"def serial_scan(xs):\n    return {returned}\n"
            with self.subTest(label):
                verdict, detail = grade(source, "serial_scan")
                self.assertEqual(verdict, "FAIL", detail)
                self.assertIn(words, flat(detail))
                self.assertNotIn("Traceback", detail)

    def test_a_failure_shows_the_smallest_input_that_fails_and_the_first_difference(self):
        # wrong only from N = 1,025 on: the input is how to make it, the difference
        # its first position, with both values
        late = replaced(SERIAL, "    return out", "    if len(out) > 1024:\n        out[600] = 0\n"
                        "    return out")
        verdict, detail = grade(late, "serial_scan")
        self.assertEqual(verdict, "FAIL")
        self.assertEqual(detail, "at xs = [(rng.randrange(2, 6), rng.randrange(1, 6)) for _ in "
                                 "range(1025)] with rng = random.Random(1025) (1,025 affine "
                                 "maps, op: their composition): got 0 at [600], expected "
                                 "(335388, 125004), a number where a tuple belongs: wrong only "
                                 "on the long inputs, a thousand values or more: is a number of "
                                 "rounds, or a size, fixed where it should grow with len(xs)?")
        # the recipe makes the input
        case = next(c for c in main._check_cases("serial_scan") if c["kind"] == "maps"
                    and len(c["args"][0]) == 1_025)
        import random
        self.assertEqual(eval(detail.split("xs = ")[1].split(" with")[0],
                              {"rng": random.Random(1025)}), case["args"][0])

    def test_a_float_off_by_a_millionth_fails_and_a_raise_after_right_answers_is_shown(self):
        # floats compare within 1e-9 of the largest, not 1e-6
        off = replaced(LESSON, "    return h\n", "    return h * (1 + 1e-6)\n")
        self.assertEqual(grade(off, "rnn_style")[0], "FAIL")
        # NotImplementedError after right answers is a failure, not "not written yet"
        partly = replaced(SERIAL, "    out = []", "    if len(xs) > 3:\n"
                          "        raise NotImplementedError\n    out = []")
        verdict, detail = grade(partly, "serial_scan")
        self.assertEqual(verdict, "FAIL")
        self.assertIn("at xs = [5, 6, 9, 1, 8] (op: +): it raised:", detail)
        self.assertTrue(detail.endswith("NotImplementedError"), detail)

    def test_where_two_slips_explain_the_answers_equally_neither_is_named(self):
        # at xs = [3], decay 0.5, decay * (h + x) and h + decay * x both give 1.5; the
        # grading process stops before a case tells them apart
        asked = []

        def stops_after_one(request):
            if any(earlier["args"][0] for earlier in asked):
                return {"stopped": "it did not finish in 10 s (--seconds)"}
            asked.append(request)
            return None                 # the grading process answers
        inside = replaced(LESSON, "decay * h + x", "decay * (h + x)")
        self.assertEqual(judged(inside, "rnn_style", stops_after_one)[:2],
                         ("FAIL", "at xs = [3], decay = 0.5: got 1.5, expected 3.0"))

    def test_a_right_scan_shows_its_depths_with_a_legend_and_its_work(self):
        hillis_steele = self.right["Hillis-Steele"]["parallel_scan"]
        self.assertEqual((hillis_steele["verdict"], hillis_steele["detail"]), (
            "pass", "correct and parallel: depth 12 and 20,493 combines at N = 2,049, against "
            "Hillis-Steele's 12 rounds and 20,493 combines"))
        self.assertEqual(hillis_steele["mirror"]["depths"], [i.bit_length() for i in range(16)])
        # Brent-Kung: out[i] combines one block per set bit of i + 1
        brent_kung = self.right["Brent-Kung, in place on a copy"]["parallel_scan"]
        self.assertEqual(brent_kung["mirror"]["depths"],
                         [(i + 1).bit_length() - 1 + bin(i + 1).count("1") - 1
                          for i in range(16)])
        # a tree for each prefix: N^2 / 2 combines, depth ceil(log2 N); graded up to
        # N = 129, not 2,049, where its million combines would take seconds
        with mock.patch.multiple(main, CHECK_LARGE=(127, 128, 129),
                                 CHECK_DEPTH_LENGTHS=(*range(1, 71), 129, 257)):
            verdict, detail = grade(TREES, "parallel_scan")
        self.assertEqual((verdict, detail), (
            "pass", f"correct and parallel: depth 8 and {129 * 128 // 2:,} combines at N = 129, "
                    f"against Hillis-Steele's 8 rounds and {main._hillis_steele_work(129):,} "
                    f"combines; {129 * 128 // 2 / main._hillis_steele_work(129):.0f} times its "
                    "work (a tree for each prefix?)"))
        report = {"file": {"verdict": "imported", "detail": "", "printed": None},
                  "functions": [dict(brent_kung, name="parallel_scan", printed=None)]}
        indent = " " * (len("parallel_scan") + 4)
        self.assertEqual(main.render_check("mine.py", report).splitlines()[-4:-1], [
            indent + "depth of out[i], N = 16, in combines on its longest chain:",
            indent + "yours:         0 1 2 2 3 3 4 3 4 4 5 4 5 5 6 4",
            indent + "Hillis-Steele: 0 1 2 2 3 3 3 3 4 4 4 4 4 4 4 4"])

    def test_the_lessons_own_code_passes_with_its_notes(self):
        lesson = self.right["the lesson's own code, but depth"]
        self.assertTrue(lesson["serial_scan"]["detail"].startswith("graded on sums only"))
        benchmark = graded_here(LESSON, ["rnn_style"])["functions"][-1]
        self.assertEqual(benchmark["verdict"], "not graded")
        self.assertEqual(benchmark["detail"], "a time has no right answer; python main.py "
                                              "wallclock times the lesson's two functions")
        # a function imported from main.py is not the learner's: not in the file, said why
        imported = graded_here("from main import depth\n", ["depth"])["functions"][0]
        self.assertEqual((imported["verdict"], imported["detail"]),
                         ("not in the file", "imported from main.py"))
        exact = self.right["a class with __call__, a closure, a lambda"]["depth"]
        self.assertEqual((exact["verdict"], exact["detail"]), ("pass", ""))

    def test_the_easy_exercise_times_the_learners_own_step_beside_main_pys(self):
        detail = self.right["the Easy exercise, with main.py's weights"]["rnn_style_vector"][
            "detail"]
        self.assertEqual(detail, main._step_words(scripted_steps(None)))

    def test_the_easy_exercise_is_timed_beside_main_pys_step_at_each_width(self):
        # scripted samples: the learner's step, then main.py's, at each width
        samples = iter([([2e-6, 9e-6, 3e-6], [1e-6, 1e-6, 1.5e-6])] * len(main.HIDDEN_WIDTHS))
        timed, steps_run = [], []

        def scripted(calls, reps):
            timed.append(calls)
            return next(samples)

        def learners(xs, width):        # counts the steps it is given
            steps_run.append(sum(1 for _ in xs))
            return [0.0] * width
        with mock.patch.object(main, "sample_per_call", scripted):
            got = main._time_steps(learners)
        steps = main.HIDDEN_STEPS
        self.assertEqual(got, {"yours": [2e-6 / steps] * 3, "lesson": [1e-6 / steps] * 3,
                               "spreads": [(f"width {w}", 4.5) for w in main.HIDDEN_WIDTHS]})
        # main.py's own step, at the same width, second
        self.assertEqual([calls[1].func for calls in timed], [main.rnn_style_vector] * 3)
        self.assertEqual([calls[1].args[1] for calls in timed], list(main.HIDDEN_WIDTHS))
        # each call runs the steps its time is divided by: the learner's, counted as it
        # runs, and main.py's, its input's length
        for calls in timed:
            calls[0]()
        self.assertEqual(steps_run, [steps] * len(main.HIDDEN_WIDTHS))
        self.assertEqual([len(calls[1].args[0]) for calls in timed],
                         [steps] * len(main.HIDDEN_WIDTHS))

    def test_a_scan_judged_not_parallel_shows_its_depths_beside_hillis_steeles(self):
        loop = self.wrong_graded["a loop"]
        self.assertEqual(loop["verdict"], "not parallel")
        self.assertEqual(loop["mirror"]["depths"], list(range(main.MIRROR_N)))
        # a right serial_scan shows none: its depth is no part of its exercise
        self.assertIsNone(self.right["a loop with op"]["serial_scan"]["mirror"])

    def test_a_step_that_could_not_be_timed_says_why(self):
        with mock.patch.object(main, "_time_steps", raising(RuntimeError("no clock"))):
            verdict, detail = grade(VECTOR, "rnn_style_vector")
        self.assertEqual(verdict, "pass")
        self.assertTrue(detail.startswith("its step was not timed: it raised:"), detail)
        self.assertTrue(detail.endswith("RuntimeError: no clock"), detail)

    def test_the_easy_exercises_words_follow_the_times(self):
        # the judging alone, on given times: each growth, the madds', the reading
        quiet = [("width 1", 1.1), ("width 8", 1.2), ("width 64", 1.3)]
        said = main._step_words({"yours": [1e-6, 8e-6, 2e-4], "lesson": [5e-7, 4e-6, 1e-4],
                                 "spreads": quiet})
        self.assertEqual(said, "How does an update's time grow with the width? Yours took "
                               "1.00 µs, 8.00 µs and 200 µs at widths 1, 8 and 64; main.py's "
                               "took 500 ns, 4.00 µs and 100 µs. Yours grew 200x, main.py's "
                               "200x, for 2,080x the madds. The time grew less, as at width 1 "
                               "an update's fixed cost outweighs its 2 madds; the chain "
                               f"stays {main.HIDDEN_STEPS} updates at every width.")
        # each growth is the ratio of the two times as printed: 333 µs / 1.23 µs is 271x
        said = main._step_words({"yours": [1.2345e-6, 8e-6, 3.33333e-4],
                                 "lesson": [5e-7, 4e-6, 1e-4], "spreads": quiet})
        self.assertIn("Yours took 1.23 µs, 8.00 µs and 333 µs", said)
        self.assertIn(f"Yours grew {333 / 1.23:.0f}x,", said)
        # growth as the madds, and far below main.py's (numpy), and a noisy sample
        said = main._step_words({"yours": [1e-6, 8e-6, 2e-3], "lesson": [5e-7, 4e-6, 1e-4],
                                 "spreads": quiet})
        self.assertIn("Yours grew 2,000x, main.py's 200x, for 2,080x the madds. The time "
                      "grew about as the madds;", said)
        said = main._step_words({"yours": [5e-6, 6e-6, 2e-5], "lesson": [5e-7, 4e-6, 1e-4],
                                 "spreads": quiet[:2] + [("width 64", 4.5)]})
        self.assertIn("Yours grew 4.00x, main.py's 200x, for 2,080x the madds. The time grew "
                      "less,", said)
        self.assertIn("Yours grew far less than main.py's: its madds run in compiled code", said)
        self.assertTrue(said.endswith("noisy: at width 64, the slowest sample took 4.50x the "
                                      "fastest; the fastest is shown."), said)
        # "far less" is under a tenth of main.py's growth: 20.0x against 200.0x is not
        unit = 2.0 ** -20                   # exact in binary: the growths are 20 and 200
        for last, far in ((20 * unit, False), (19.9 * unit, True)):
            said = main._step_words({"yours": [unit, 2 * unit, last],
                                     "lesson": [unit, 8 * unit, 200 * unit], "spreads": quiet})
            self.assertEqual("Yours grew far less" in said, far, last)

    def test_a_right_scan_too_slow_when_counted_says_its_answers_were_right(self):
        # a table of answers: the count at N = 1,025 stops; the grading process answers the rest
        table = {json.dumps({"name": "parallel_scan", "args": [1_025], "count": True}):
                 {"stopped": "it did not finish in 10 s (--seconds)"}}
        graded = judged(HILLIS_STEELE, "parallel_scan",
                        lambda request: table.get(json.dumps(request)))
        self.assertEqual(graded[:2], (
            "FAIL", "at N = 1,025, on values that count their combines: it did not finish in "
                    "10 s (--seconds); its answers were right"))

    def test_a_call_that_stops_says_how_many_cases_before_it_were_right(self):
        right = "def depth(n):\n    return n, max(1, (n - 1).bit_length())\n"
        for n, said in ((2, "the case before it was right"),
                        (3, "the 2 cases before it were right")):
            def stops_at(request, n=n):
                if request.get("args") == [n]:
                    return {"stopped": "it did not finish in 10 s (--seconds)"}
                return None
            self.assertEqual(judged(right, "depth", stops_at)[1], f"at n = {n}: it did not "
                             f"finish in 10 s (--seconds); {said}")

    def test_a_mirror_the_same_as_hillis_steeles_says_so(self):
        mirror = self.right["Hillis-Steele"]["parallel_scan"]["mirror"]
        lines = main._mirror_lines(mirror, "")
        self.assertEqual(lines[-1], "Hillis-Steele: the same")
        other = main._mirror_lines({"depths": list(range(16))}, "")
        self.assertEqual(other[-1], "Hillis-Steele: 0 1 2 2 3 3 3 3 4 4 4 4 4 4 4 4")

    def test_a_scan_without_op_that_turns_its_inputs_into_floats_passes_uncounted(self):
        # the lesson's own style, graded on sums: floats are fine there, and values
        # that count their combines, which are not numbers, cannot be converted
        source = ("def parallel_scan(xs):\n    out, step = [float(x) for x in xs], 1\n"
                  "    while step < len(out):\n        out = out[:step] + [out[i - step] + out[i] "
                  "for i in range(step, len(out))]\n        step *= 2\n    return out\n")
        self.assertEqual(grade(source, "parallel_scan"), (
            "pass", "its depth was not counted: on values that count their combines (not "
            "numbers), it raised TypeError; graded on sums only: with op=operator.add as a "
            "parameter it would be checked with other combines too"))
        # an answer of other values than those it was given (a copy into a class of
        # its own, say): uncounted, and said so
        self.assertEqual(main._not_counted({"untraced": True}), "its depth was not counted: "
                         "its answer is not made of the values it was given")

    def test_an_import_that_raises_or_exits_and_a_file_not_python(self):
        raises = graded_here("1 / 0\n")
        self.assertEqual((raises["file"]["verdict"], raises["functions"]), ("FAIL", []))
        self.assertTrue(main.render_check("f.py", raises).endswith("\nNothing graded."))
        self.assertIn("ZeroDivisionError", raises["file"]["detail"])
        exits = graded_here("import sys\nsys.exit(0)\n")["file"]
        self.assertEqual((exits["verdict"], exits["detail"]), (
            "FAIL", 'it called sys.exit(0) when imported: put that under if __name__ == '
                    '"__main__":'))
        # its arguments as `python FILE.py` gives them: none, so argparse finds none
        parses = graded_here("import argparse, sys\nassert sys.argv == [__file__]\n"
                             "argparse.ArgumentParser().parse_args()\n" + LESSON, ["rnn_style"])
        self.assertEqual(parses["functions"][0]["verdict"], "pass")
        self.assertEqual(graded_here("def f(:\n")["file"]["detail"][:10], " (line 1):")
        deep = graded_here("x = " + "-" * 100_000 + "1\n")["file"]
        self.assertEqual(deep["verdict"], "not Python")

    def test_a_traceback_shows_the_last_four_frames_of_the_learners_file(self):
        source = ("def attention_style(xs):\n    return a(xs)\ndef a(xs):\n    return b(xs)\n"
                  "def b(xs):\n    return c(xs)\ndef c(xs):\n    return d(xs)\n"
                  "def d(xs):\n    return xs[0] / 0\n")
        verdict, detail = grade(source, "attention_style")
        frames = re.findall(r"line \d+, in (\w+)", detail)
        self.assertEqual((verdict, frames), ("FAIL", ["a", "b", "c", "d"]))
        self.assertTrue(detail.endswith("ZeroDivisionError: division by zero"), detail)

    # Only plain data crosses from the grading process, and is shown as it is.
    def test_plain_data_tuples_objects_control_characters_and_equality(self):
        def sent(value):                # through the pipe, as check reads it
            return json.loads(json.dumps(main._plain(value)), object_hook=main._python)
        self.assertEqual(sent([1, (2.5, "a"), True, None]), [1, (2.5, "a"), True, None])
        # floats within 1e-9 of the larger of 1 and the expected value: near 0, 1e-9 itself
        self.assertEqual([main._same(x, 0.0) for x in (1e-10, 2e-9)], [True, False])
        self.assertEqual([main._same(1e6 + x, 1e6) for x in (1e-4, 1e-2)], [True, False])
        self.assertEqual(repr(sent(1j)), "1j")
        self.assertEqual(sent(iter([])).kind, "an iterator")
        self.assertEqual(main._show(sent((1,))), "(1,)")
        self.assertEqual(repr(sent(Odd())), "\\x1b[31mred\\r")
        # values compare as Python compares them
        self.assertTrue(main._same(0, 0.0))
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
                                                     serial_scan="not in the file",
                                                     benchmark="not graded"))
        self.assertTrue(text.endswith("1 of 1 written passed."))
        for report in (self.report(depth="not written yet"),
                       self.report(depth="not written yet", serial_scan="not in the file")):
            self.assertTrue(main.render_check("f.py", report).endswith(
                "Nothing written yet: each function still raises NotImplementedError."))
        text = main.render_check("f.py", self.report(depth="pass", parallel_scan="not parallel"))
        self.assertTrue(text.endswith("1 of 2 written passed."))
        text = main.render_check("f.py", self.report(depth="not in the file"))
        self.assertTrue(text.endswith("None of the lesson's functions is in this file."))
        report = self.report(depth="pass")
        report["functions"][0]["printed"] = {"lines": 1_257, "head": ["a", "b", "c"]}
        lines = main.render_check("f.py", report).splitlines()
        self.assertEqual(lines[2], "       it printed 1,257 lines; the first 3:")
        self.assertEqual(len(lines), 7)

    def test_what_check_help_says_of_the_cases_and_verdicts_is_what_runs(self):
        said = flat(run_main("check", "--help")[1])
        # small ints, letters, ints past 2**53, affine maps; for depth, n up to 2**64
        self.assertIn("small ones first (small ints, letters, ints past 2**53, affine maps)", said)
        big = [x for n in main.CHECK_SMALL for x in main._check_input("big ints", n)]
        self.assertGreater(min(big), 2**53)
        self.assertIn("for depth, n up to 2**64", said)
        ns = [case["args"][0] for case in main._check_cases("depth")]
        self.assertEqual(max(ns), 2**64 + 1)
        self.assertTrue({2**64 - 1, 2**64} <= set(ns))
        self.assertIn("then long ones (N = 1,023, 1,024 and 1,025;", said)
        self.assertEqual(main.CHECK_LARGE, (1_023, 1_024, 1_025))
        self.assertIn("a bool is no number", said)
        bool_slip = "a bool for no values, where Python's True == 1 would pass"
        self.assertEqual(self.wrong[bool_slip][0], "FAIL")
        # where a right scan's depth is counted, and where it is said
        self.assertIn("at N = 1 to 70, 1,025 and 2,049: its depth and combines are said at the "
                      "longest, N = 2,049, past the long inputs (at 1,025 for a scan", said)
        self.assertEqual(main.CHECK_DEPTH_LENGTHS, (*range(1, 71), 1_025, 2_049))
        self.assertLess(main.CHECK_LARGE[-1], main.CHECK_DEPTH_LENGTHS[-1])
        # not parallel: deeper than 2 ceil(log2 N), as counted at each N
        self.assertIn("not parallel, a right parallel_scan deeper than 2 ceil(log2 N)", said)

        def counts(deep, combines=2):   # a scan whose every output is deep(N) combines deep
            def ask(request):
                n = request["args"][0]
                return {"right": True, "depths": [deep(n)] * n, "combines": combines * n}
            return ask
        for extra, verdict in ((0, "pass"), (1, "not parallel")):
            deep = lambda n: 2 * math.ceil(math.log2(n)) + extra if n > 1 else extra
            self.assertEqual(main._parallel_verdict(counts(deep))[0], verdict, extra)
        # combines made in other processes are not counted here, and the detail says so
        self.assertEqual(main._parallel_verdict(counts(lambda n: max(1, n - 1).bit_length(), 0)), (
            "pass", "correct and parallel: depth 12 at N = 2,049 (its combines ran in other "
                    "processes, which check does not count)"))
        # the exit statuses the epilog says are those the verdicts give (below)
        self.assertIn("Exit status: 0 if every function written passed, 1 if one did not (or "
                      "none is written), 2 if FILE.py cannot be read or is not Python.", said)

    def test_the_exit_status_of_each_verdict(self):
        # 0 only if every function written passed; 1 for FAIL, not parallel, nothing
        # written or nothing in the file; not graded (benchmark) does not count
        right = replaced(LESSON, "math.ceil(math.log2(n))", "(n - 1).bit_length()")
        files = {0: [right], 1: [WRONG["a loop"][0], WRONG["the sum"][0], "x = 1\n",
                                 right + WRONG["a loop"][0],        # a pass beside not parallel
                                 "def depth(n):\n    raise NotImplementedError\n",
                                 "def benchmark(n):\n    return 1.0, 1.0\n"]}
        for status, sources in files.items():
            for source in sources:
                with self.subTest(source=source[:40]), tempfile.TemporaryDirectory() as folder:
                    path = os.path.join(folder, "mine.py")
                    with open(path, "w", encoding="utf-8") as f:
                        f.write(source)
                    with graded_in_this_process():
                        self.assertEqual(run_main("check", path)[0], status)

    def setUp(self):
        self.folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.folder)

    def write(self, name, source):
        path = os.path.join(self.folder, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
        return path

    def test_the_template_has_every_function_unchanged_it_is_not_written_yet(self):
        status, template, _ = run_main("check", "--template")
        self.assertEqual(status, 0)
        self.assertIn("def rnn_style_vector(xs, width=64, decay=0.9):", template)
        self.assertIn("from main import hidden_weights", template)
        self.assertIn("Save this file beside main.py and check it with:\n"
                      "    python main.py check THIS_FILE.py\n", template)
        with graded_in_this_process():
            status, out, err = run_main("check", self.write("template.py", template))
        self.assertEqual((status, err), (1, ""))
        # every stub left as it is: one line for them all, then the summary
        self.assertEqual(out.splitlines()[1:], [
            "not written yet: rnn_style_vector, parallel_scan, rnn_style, attention_style,",
            "  depth and serial_scan",
            "Nothing written yet: each function still raises NotImplementedError."])
        # the two exercises first, the lesson's four marked as optional practice; with
        # the exercises written, the four stubs left cost one line
        self.assertEqual(re.findall(r"^def (\w+)\(", template, re.M)[:2],
                         ["rnn_style_vector", "parallel_scan"])
        self.assertEqual(template.count('    """Optional practice: '), 4)
        with graded_in_this_process(), mock.patch.object(main, "_time_steps", scripted_steps):
            out = run_main("check", self.write("exercises.py", template + VECTOR +
                                                HILLIS_STEELE))[1]
        self.assertEqual(out.splitlines()[-2:], [
            "not written yet: rnn_style, attention_style, depth and serial_scan",
            "2 of 2 written passed."])
        status, out, err = run_main("check", "--help")
        self.assertEqual((status, err), (0, ""))
        self.assertIn("--template   print a file to start from", out)
        # the Easy exercise's widths, read from main.py: one line changes them everywhere
        with mock.patch.object(main, "HIDDEN_WIDTHS", (1, 4)):
            self.assertIn("at widths 1 and 4.", flat(run_main("check", "--help")[1]))
        # the template's docstrings: one line where they fit, wrapped where they do not
        self.assertIn('    """Optional practice: the mean of xs (at least one value)."""\n',
                      template)
        medium = '\n    """Exercise (Medium): serial_scan\'s list, in rounds of side-by-side\n'
        self.assertIn(medium, template)
        self.assertLessEqual(max(map(len, template.splitlines())), 79)
        self.assertLessEqual(max(map(len, out.splitlines())), 79)
        path = self.write("mine.py", "def depth(n):\n    return n, 1\n")
        report = main.check_solutions(path, names=iter(["depth"]), seconds=30)
        self.assertEqual([r["name"] for r in report["functions"]], ["depth"])

    def test_a_file_python_refuses_is_refused_with_pythons_reason(self):
        path = os.path.join(self.folder, "latin.py")
        with open(path, "wb") as f:
            f.write(b"# caf\xe9, in Latin-1\ndef depth(n):\n    return n, 1\n")
        with graded_in_this_process():
            status, out, err = run_main("check", path)
        self.assertEqual((status, out), (2, ""))
        self.assertTrue(err.splitlines()[-1].startswith(
            f"main.py check: error: {path!r} is not Python: "), err)
        self.assertIn("encoding", err)              # Python's own words
        _, detail = grade("class Odd(Exception):\n    def __str__(self):\n        raise "
                          "ValueError\ndef depth(n):\n    raise Odd\n", "depth")
        self.assertTrue(detail.endswith("\nOdd"), detail)     # its type, though str() raised

    @unittest.skipUnless(hasattr(os, "mkfifo"), "a FIFO")
    def test_a_file_that_cannot_be_graded_and_bad_arguments_are_one_line_and_status_2(self):
        fifo = os.path.join(self.folder, "fifo")
        os.mkfifo(fifo)                 # with no writer: open() alone would block
        unreadable = self.write("unreadable.py", "def depth(n):\n    return n, 1\n")
        os.chmod(unreadable, 0)
        argvs = [["check"], ["check", "a.py", "b.py"], ["check", fifo],
                 ["check", os.path.join(self.folder, "missing.py")], ["check", self.folder],
                 ["check", "--seconds", "0", "a.py"], ["check", "--seconds", "0.1", "a.py"],
                 ["check", "--seconds", "1e3", "a.py"],
                 ["check", self.write("big.py", "#" * (1 << 20 | 1))],
                 ["check", "--template", "mine.py"],
                 ["check", self.write("syntax.py", "def f(:\n")]]
        if os.geteuid() != 0:           # root reads every file
            argvs.append(["check", unreadable])
        for argv in [["check", "--seconds", "abc", "a.py"]] + argvs:
            status, out, err = run_main(*argv)
            self.assertEqual((status, out), (2, ""), argv)
            usage, error = err.splitlines()
            self.assertTrue(usage.startswith("usage: main.py check "), usage)
            if "--seconds" in argv:     # refused for the number, before the file is read
                self.assertIn("error: argument --seconds: needs a number from 0.5 to 600, got",
                              error)
        self.assertRegex(error, r"^main.py check: error: '.*syntax.py' is not Python \(line 1\): ")
        # what --help says of --seconds is what the parser takes
        status, out, _ = run_main("check", "--help")
        self.assertIn(f"({main.CHECK_MIN_SECONDS} to {main.CHECK_MAX_SECONDS}; default "
                      f"{main.CHECK_SECONDS})", flat(out))

    def test_a_file_it_may_not_read_is_status_2_before_any_grading(self):
        # as a file with no read permission is to anyone but root
        path = self.write("mine.py", "x = 1\n")
        denied = PermissionError(13, "Permission denied", path)
        with mock.patch("builtins.open", side_effect=denied), \
             mock.patch("subprocess.Popen") as started:
            status, out, err = run_main("check", path)
        self.assertEqual((status, out, started.called), (2, "", False))
        self.assertTrue(err.endswith(f"error: {path!r}: Permission denied\n"), err)


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
            "FAIL", "at n = 8: its calls took 3 x --seconds in all; the 6 cases before it "
                    "were right"))


def write(folder, name, source):
    """Write source to folder/name; return its path."""
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    return path


def ctrl_c_as_at_a_terminal():
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# `python main.py check` itself, in real processes, for what only a process
# shows: BUGS, the honest bugs that end a process or fill its limits, and what a
# function may start (it writes their pids into the file $STARTED); HANGS, a
# hang in C code that holds the GIL, in which check is ended by SIGKILL or two
# Ctrl-Cs. An endless loop is TestAsOnWindows' PORTABLE.
BUGS = '''
import os, signal, subprocess, threading, time

def parallel_scan(xs, op=None):         # a list that grows without end
    hoard = []
    while True:
        hoard.append(bytes(1 << 26))

def rnn_style_vector(xs, width=64, decay=0.9):     # a signal that kills its process
    os.kill(os.getpid(), signal.SIGKILL)

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

def depth(n):                           # a thread, a process and a fork left running
    import resource                     # and no CPU limit, so process_time ticks finely
    if resource.getrlimit(resource.RLIMIT_CPU)[0] != resource.RLIM_INFINITY:
        return n, 0
    if n == 1:
        threading.Thread(target=chatter, daemon=True).start()
        with open(os.environ["STARTED"], "a") as f:
            f.write(f"{subprocess.Popen(['sleep', '60']).pid}\\n")
    if n == 3 and os.fork() == 0:       # a helper that forgets os._exit: it answers too
        with open(os.environ["STARTED"], "a") as f:
            f.write(f"{os.getpid()}\\n")
        return 0, 0
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
    env.update(kwargs.pop("env", {}))
    return subprocess.Popen([*kwargs.pop("python", PYTHON), kwargs.pop("script", "main.py"),
                             "check", *options, path], cwd=kwargs.pop("cwd", ROOT), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def pids(path):
    """Return the pids a learner's file wrote beside it, whole lines only."""
    try:
        with open(path + ".pids") as f:
            return [int(pid) for line in f.read().split("\n")[:-1] for pid in line.split()]
    except FileNotFoundError:
        return []


def started(path, count):
    """Wait until the file beside path names `count` pids; return them."""
    deadline = time.monotonic() + 30
    while len(pids(path)) < count:
        if time.monotonic() > deadline:
            raise AssertionError("it never started")
        time.sleep(0.01)
    return pids(path)


@unittest.skipUnless(sys.platform.startswith("linux"), "processes read from /proc")
class TestGradingProcesses(unittest.TestCase):
    """`python main.py check` run for real, one process after another."""

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp()
        cls.addClassCleanup(shutil.rmtree, cls.folder)
        run = check(write(cls.folder, "bugs.py", BUGS))
        (cls.out, cls.err), cls.status = run.communicate(timeout=60), run.returncode
        cls.started = pids(os.path.join(cls.folder, "bugs.py"))

    def verdicts(self):
        """Return each function's block of the report, its lines joined."""
        self.assertEqual((self.status, self.err), (1, ""))
        blocks = {}
        for line in self.out.splitlines()[1:-1]:
            if line[:1].isalpha():
                name, line = line.split(maxsplit=1)
            blocks[name] = (blocks.get(name, "") + " " + line.strip()).strip()
        return blocks

    def test_each_honest_bug_is_its_own_verdict_its_prints_shown_the_next_graded(self):
        got = self.verdicts()
        self.assertTrue(got["attention_style"].startswith("FAIL: at xs = [3]: it ended its "
                                                          "process (exit status 3"))
        self.assertIn("it ran out of memory (the limit is 1.00 GiB)", got["parallel_scan"])
        self.assertIn("it wrote more than 64.0 MiB (prints, or a file)", got["rnn_style"])
        self.assertEqual(got["rnn_style_vector"], "FAIL: at xs = [], width = 4: its process was "
                         f"killed by a signal ({signal.strsignal(signal.SIGKILL)})")
        # what a function prints is shown, escaped and cut short
        self.assertIn("| \\x1b[31mleaving\\r", self.out)
        self.assertRegex(self.out, r"it printed [\d,]+ lines; the first 3:")

    def test_what_a_function_started_ends_with_its_grading(self):
        self.assertRegex(self.out, r"depth +pass\n")
        self.assertRegex(self.out, r"serial_scan +pass")
        self.assertNotIn("late", self.out.split("serial_scan")[1])      # no stray prints
        self.assertTrue(gone_within(self.started, 1))

    def test_an_import_that_never_ends_is_the_files_verdict(self):
        path = write(tempfile.mkdtemp(dir=self.folder), "hangs.py", "while True:\n    pass\n")
        # it fails however fast it starts; a tenth of a second is enough to see it.
        # The time said is the time waited, with each of its parts
        with mock.patch.multiple(main, CHECK_START=0.05, CHECK_MIN_SECONDS=0.1):
            report = main.check_solutions(path, seconds=0.1)
        found = report["file"]["verdict"], report["file"]["detail"], report["functions"]
        self.assertEqual(found, ("FAIL", "it did not finish in 0.15 s: 0.1 s (--seconds), and "
                                         "0.05 s for a fresh Python to start", []))

    def test_check_ended_by_sigkill_or_two_ctrl_cs_leaves_nothing_running(self):
        # while the learner's C code holds the GIL: the keeper ends its group. A
        # second Ctrl-C as Python exits ends check by SIGINT: to a shell, 130 too.
        for signals, statuses in (([signal.SIGKILL], [-signal.SIGKILL]),
                                  ([signal.SIGINT, signal.SIGINT], [130, -signal.SIGINT])):
            with self.subTest(signals=signals):
                path = write(tempfile.mkdtemp(dir=self.folder), "hangs.py", HANGS)
                run = check(path, preexec_fn=ctrl_c_as_at_a_terminal)
                started(path, 2)        # the grading process, its sleep
                for signum in signals:
                    run.send_signal(signum)
                out, err = run.communicate(timeout=60)
                self.assertEqual((out, err), ("", ""))
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
import json, os
assert not hasattr(os, "killpg")        # run without POSIX's extras
json.dumps = None                       # the learner's own business: check keeps its own
def attention_style(xs):                # right, and it prints a check mark
    print("\\u2713")
    return sum(xs) / len(xs)
def serial_scan(xs, op=None):           # out of memory: no limit is set, so none is stated
    raise MemoryError
def rnn_style(xs, decay=0.9):
    with open(os.environ["STARTED"], "a") as f:
        f.write(f"{os.getpid()}\\n")
    while True:
        pass
"""


@unittest.skipUnless(sys.platform.startswith("linux"), "processes read from /proc")
class TestAsOnWindows(unittest.TestCase):
    """check run for real as on Windows, without a process group, a keeper or limits,
    its console in cp1252: main.py saved as a browser saves a second copy, beside the
    learner's own json.py, queue.py, subprocess.py and argparse.py; the learner's file
    named inspect.py, in a folder (the current one) that holds their ast.py and dis.py."""

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
        for module in ("json.py", "queue.py", "subprocess.py", "argparse.py"):   # beside main.py
            write(cls.folder, module, "raise ImportError('the learner\\'s own')\n")
        cls.path = write(mine, "inspect.py", PORTABLE)
        cls.renamed = os.path.join(cls.folder, "main (1).py")
        shutil.copy(os.path.join(ROOT, "main.py"), cls.renamed)
        cls.env = {"PYTHONPATH": extras, "PYTHONIOENCODING": "cp1252"}
        # not PYTHON (python -S): site reads sitecustomize
        run = check(cls.path, "--seconds", "0.5", python=[sys.executable], script=cls.renamed,
                    cwd=mine, env=cls.env)
        (cls.stdout, cls.stderr), cls.status = run.communicate(timeout=60), run.returncode
        cls.out = " ".join(cls.stdout.split())

    def test_a_right_a_failing_and_a_hanging_function_are_graded_nothing_left_running(self):
        self.assertEqual((self.status, self.stderr), (1, ""))
        self.assertIn("rnn_style FAIL: at xs = []: it did not finish in 0.5 s (--seconds)",
                      self.out)
        self.assertRegex(self.out, r"serial_scan FAIL: at xs = \[3\] \(op: \+\): it raised: "
                                   r"File .* MemoryError 1 of 3 written passed\.")
        self.assertNotIn("the limit is", self.out)
        self.assertTrue(gone_within(pids(self.path), 1))

    def test_main_py_and_the_file_may_have_any_name_and_print_in_utf_8(self):
        # the check mark crossed in UTF-8; this console (cp1252) shows it escaped
        self.assertIn("attention_style pass it printed 8 lines; the first 3: | \\u2713", self.out)

    def test_a_grading_process_ends_soon_after_a_killed_check(self):
        if os.path.exists(self.path + ".pids"):
            os.remove(self.path + ".pids")      # the first run's
        run = check(self.path, python=[sys.executable], script=self.renamed,
                    cwd=os.path.dirname(self.path), env=self.env)
        spinning = started(self.path, 1)          # rnn_style's endless loop
        run.kill()
        run.communicate(timeout=60)
        self.assertTrue(gone_within(spinning, 2))


if __name__ == "__main__":
    unittest.main()
