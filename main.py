# /// script
# requires-python = ">=3.9"
# dependencies = []
# ///
"""Why transformers: the serial depth of a recurrence against a reduction.

The runnable companion to "Why Transformers - The Problems with RNNs", lesson 1
of phase 7 of the open curriculum rohitg00/ai-engineering-from-scratch. An RNN
computes h_t = f(h_{t-1}, x_t): step t waits for step t-1, so N tokens are a
chain of N dependent steps. Attention is a reduction: a sum of N values can be
arranged as a tree of pairwise additions, of depth ceil(log2 N).

    python main.py              # the lesson's three sections
    python main.py all --svg f  # every section, and its figures in f/
    python main.py --help       # every section and option
    python main.py terms [WORD] # every term the sections print, in plain words
    python main.py check F.py   # your own solutions of the exercises, graded
    python -m unittest          # the tests, and the examples in the docstrings

The file reads in the lesson's order: the six functions of the lesson's own
script (its code/main.py), its three sections and the helpers they use, all
read without leaving that region; then the numbered parts, its exercises and
other claims, each ending with its entry in SECTIONS; then the machinery. A part uses
the lesson, earlier parts and the machinery, never a later part.
Standard library only; Python 3.9 or newer.
"""

import collections
import collections.abc
import contextlib
import errno
import functools
import html
import itertools
import math
import numbers
import operator
import os
import random
import re
import sys
import textwrap
import time
import timeit

# What a reader may call: the lesson's functions, each section's compute step,
# what the exercises and the README name, and the command line. These refuse
# bad values at their door; everything else trusts its caller.
__all__ = [
    "rnn_style", "attention_style", "serial_scan", "parallel_scan", "benchmark", "depth",
    "rnn_tanh", "tree_reduce",
    "depth_rows", "wallclock_section", "scan_check", "hidden_rows", "sweep", "ssm_check",
    "work_section", "cost_table", "gradient_rows", "capacity_rows",
    "generate_rows", "train_section",
    "hidden_weights", "rnn_style_vector", "linear_recurrence_scan", "compose_affine",
    "Counted", "measure_work_depth", "brent_kung_scan", "blelloch_scan",
    "attention_matrix_bytes", "kv_cache_bytes", "ssm_state_bytes",
    "check_solutions", "CHECK_TEMPLATE", "GLOSSARY", "main",
]


# ============================================================================
# The lesson: a recurrence against a reduction
# ============================================================================
# parallel_scan below answers the Medium exercise, and rnn_style_vector (part 1)
# the Easy one. To write your own first: python main.py check --template > mine.py

def rnn_style(xs, decay=0.9):
    """Return the last state of the recurrence h = decay*h + x, from h = 0.

    Each step needs the h of the step before: a chain of len(xs) steps.

    >>> rnn_style([1.0, 1.0, 1.0])          # 1 + 0.9 + 0.81
    2.71
    """
    if not math.isfinite(decay):
        raise ValueError(f"rnn_style requires a finite decay, got {decay!r}")
    h = 0.0
    for x in xs:
        h = decay * h + x                   # cannot start before the previous h exists
    return h


def attention_style(xs):
    """Return the mean of xs: every x counts independently of the others.

    >>> attention_style([1.0, 2.0, 3.0, 6.0])
    3.0
    """
    if len(xs) == 0:
        raise ValueError("attention_style requires at least one value")
    return sum(xs) / len(xs)


def serial_scan(xs, op=operator.add):
    """Return the running totals: out[i] == xs[0] op xs[1] op ... op xs[i].

    One combine after another. op must be associative; it need not be
    commutative, nor have a zero: the first total is xs[0] itself.

    >>> serial_scan([1, 2, 3, 4])
    [1, 3, 6, 10]
    """
    out = []
    for x in xs:
        out.append(op(out[-1], x) if out else x)    # each total waits for the one before
    return out


def parallel_scan(xs, op=operator.add):
    """Return serial_scan's totals, computed as Hillis and Steele (1986) do.

    In round k every element combines with the one 2**k places back. The
    combines of a round are independent, so with N processors the scan
    takes ceil(log2 N) steps. The same numbers as serial_scan, up to rounding.

    >>> parallel_scan([1, 2, 3, 4, 5])
    [1, 3, 6, 10, 15]
    """
    out = list(xs)
    step = 1
    while step < len(out):
        new = list(out)
        for i in range(step, len(out)):     # every i of a round at once, on a GPU
            new[i] = op(out[i - step], out[i])
        out = new
        step *= 2
    return out


def benchmark(n, reps=3):
    """Return (rnn_seconds, attention_seconds): the best seconds per call of
    rnn_style and attention_style on seed_input(n), of `reps` samples each.

    Timed as timeit times, with the garbage collector off (sample_per_call): a
    sample runs enough calls to last SAMPLE_SECONDS, and the two functions take
    turns, so that a change in the machine's speed hits both. The best sample
    is kept, because slower ones come from interference.

    >>> rnn_s, attn_s = benchmark(1_000, reps=1)
    >>> rnn_s > 0 and attn_s > 0
    True
    """
    _require_size("benchmark", "n", n)
    _require_size("benchmark", "reps", reps, high=MAX_REPS)
    rnn, attn = _benchmark_samples(n, reps)
    return min(rnn), min(attn)


def _benchmark_samples(n, reps):
    """Return benchmark's samples: rnn_style's, attention_style's."""
    xs = seed_input(n)
    return sample_per_call([functools.partial(f, xs) for f in (rnn_style, attention_style)],
                           reps)


def depth(n):
    """Return (rnn_depth, attention_depth) for a sequence of n elements: the
    longest chain of steps that must run one after another. n for the
    recurrence; ceil(log2 n), but at least 1, for a tree of pairwise sums.

    >>> depth(1024)
    (1024, 10)
    >>> depth(1025)
    (1025, 11)
    """
    if isinstance(n, bool) or operator.index(n) < 1:
        raise ValueError(f"depth requires n >= 1, got {n!r}")
    return n, max(1, (n - 1).bit_length())     # exact: no float log2


def rnn_tanh(xs, w=0.9):
    """Return the last state of the classic RNN step h = tanh(w*h + x), from h = 0.

    Two steps compose to tanh(w*tanh(w*h + x1) + x2), which is not of the form
    tanh(a*h + b): no pair of numbers can carry a run of steps, as (a, b) does for
    the linear step, so a scan has no combine of fixed size to work with.

    >>> round(rnn_tanh([1.0, 1.0, 1.0]), 6)
    0.950815
    """
    if not math.isfinite(w):
        raise ValueError(f"rnn_tanh requires a finite w, got {w!r}")
    states = tanh_states(xs, w)
    return states[-1] if states else 0.0


def tanh_states(xs, w=0.9, h=0.0):
    """Return every state h_1 ... h_N of h_t = tanh(w*h_{t-1} + x_t), from h_0 = h."""
    states = []
    for x in xs:
        h = math.tanh(w * h + x)
        states.append(h)
    return states


def tree_reduce(xs, op=operator.add):
    """Return xs[0] op xs[1] op ... op xs[-1], combined pairwise up a balanced
    tree: the combines of a level are independent, so ceil(log2 N) levels.

    >>> tree_reduce([1, 2, 3, 4, 5])
    15
    """
    level = list(xs)
    if not level:
        raise ValueError("tree_reduce requires at least one value")
    while len(level) > 1:
        level = _pairwise(level, op)
    return level[0]


def _pairwise(level, op):
    """Return one level up the tree: neighbours combined in pairs, an odd last one kept."""
    pairs = list(map(op, level[0::2], level[1::2]))
    return pairs + level[-1:] if len(level) % 2 else pairs


# ----------------------------------------------------------------------------
# The lesson's three sections, each computed as data and then rendered
# ----------------------------------------------------------------------------

DEPTH_SIZES = (64, 512, 4_096, 32_768, 262_144)
WALLCLOCK_SIZES = (1_000, 10_000, 100_000, 1_000_000)
TIMING_REPS = 3                 # timings per function: the fastest is kept
SCAN_LENGTH = 1_024
SCAN_SEED = 7
SCAN_REL_TOL = 1e-9
MAX_SIZE = 10_000_000           # the longest sequence accepted: 80 MB of references
MAX_SCAN_LENGTH = 1_000_000     # both scans' lists and a round's: about 160 MB at peak
MAX_REPS = 20                   # timings at most
MAX_LIST = 20                   # how many values a list of sizes (--sizes, --widths) takes


def depth_rows(sizes=DEPTH_SIZES):
    """Return the depth table: a dict per size with both depths and their ratio."""
    rows = []
    for n in sizes:
        rnn_depth, attn_depth = depth(n)
        rows.append({"n": n, "rnn_depth": rnn_depth, "attn_depth": attn_depth,
                     "depth_ratio": rnn_depth / attn_depth})
    return rows


def render_depth(rows):
    """Return the depth table as text."""
    table = _table(("N", "rnn depth", "attn depth", "depth ratio"),
                   [(f"{r['n']:,}", f"{r['rnn_depth']:,}", f"{r['attn_depth']:,}",
                     f"{r['depth_ratio']:,.0f}x") for r in rows])
    return "\n".join([
        "=== serial-depth comparison ===",
        *_wrap("A recurrence is a chain: from h = 0, step t waits for step t-1, so N inputs "
               "are N steps deep. attention_style's sum can be a tree of pairs, ceil(log2 N) "
               "deep."),
        table,
        "This ratio of steps, not of seconds, grows with N.",
    ])


def wallclock_rows(sizes=WALLCLOCK_SIZES, reps=TIMING_REPS):
    """Return per size benchmark's seconds per call of both functions, their ratio (of
    the times as printed, as_printed) and
    how far apart their samples were (the slowest over the fastest, the worse of the
    two)."""
    rows = []
    for n in sizes:
        rnn, attn = _benchmark_samples(n, reps)
        rows.append({"n": n, "rnn_s": min(rnn), "attn_s": min(attn),
                     "ratio": as_printed(min(rnn)) / as_printed(min(attn)),
                     "spread": max(max(rnn) / min(rnn), max(attn) / min(attn))})
    return rows


def wallclock_finding(rows):
    """Return {"slower": "rnn_style", "attention_style" or "both" (each at some N),
    "low", "high"}: which was the slower at each N, and the range of rnn / attn."""
    ratios = [r["ratio"] for r in rows]
    slower = ("rnn_style" if min(ratios) > 1 else "attention_style" if max(ratios) < 1
              else "both")
    return {"slower": slower, "low": min(ratios), "high": max(ratios)}


def wallclock_section(sizes=WALLCLOCK_SIZES, reps=TIMING_REPS):
    """Return the wall-clock table (wallclock_rows) and what it shows (wallclock_finding)."""
    rows = wallclock_rows(_require_sizes("wallclock_section", "size", sizes),
                          _require_size("wallclock_section", "reps", reps, high=MAX_REPS))
    return {"rows": rows, "reps": reps, "finding": wallclock_finding(rows)}


def render_wallclock(result):
    """Return the wall-clock table as text: the lesson's claim and what was measured
    first, then the table, then why."""
    found = result["finding"]
    span = _span(_format_ratio(found["low"]), _format_ratio(found["high"]))
    best = f"fastest of {result['reps']} timings" if result["reps"] > 1 else "one timing each"
    measured = {"rnn_style": f"Here rnn_style took {span} as long ({best}).",
                "attention_style": f"Here the mean was the slower at every N ({best}).",
                "both": f"Here neither was the slower at every N ({best})."}
    return "\n".join([
        "=== wall-clock on this machine (pure Python) ===",
        *_wrap("The lesson says the mean, attention_style, wins even in pure Python: sum() "
               "runs in C. " + measured[found["slower"]]),
        _timing_table(result["rows"]),
        *_spread_note([(f"N = {r['n']:,}", r["spread"]) for r in result["rows"]]),
        *_wrap("That gap is Python's loop against C's, not depth."),
    ])


def scan_check(length=SCAN_LENGTH, seed=SCAN_SEED):
    """Return the scan comparison on `length` fixed-seed random floats in [-1, 1)."""
    xs = uniform_inputs(_require_size("scan_check", "length", length, high=MAX_SCAN_LENGTH),
                        random.Random(_require_seed("scan_check", seed)))
    serial, parallel = serial_scan(xs), parallel_scan(xs)
    return {"length": length, "seed": seed, "rel_tol": SCAN_REL_TOL,
            "mismatches": count_mismatches(serial, parallel),
            "serial_last": serial[-1], "parallel_last": parallel[-1],
            "same_last": serial[-1] == parallel[-1],
            "serial_steps": length - 1,
            "parallel_steps": (length - 1).bit_length()}    # rounds: ceil(log2 N), 0 for N = 1


def count_mismatches(expected, actual, rel_tol=SCAN_REL_TOL):
    """Return how many positions differ by more than rel_tol times the largest
    finite |expected|; a NaN or an infinity on either side always counts.

    >>> count_mismatches([1.0, 2.0, 3.0], [1.0, 2.0, 3.5])
    1
    """
    tol = rel_tol * max((abs(e) for e in expected if math.isfinite(e)), default=0.0)
    return sum(1 for e, a in zip(expected, actual) if not abs(e - a) <= tol)   # NaN: not <=


def render_scan(result):
    """Return the scan comparison as text."""
    r = result
    same = ("gives serial_scan's running totals" if r["mismatches"] == 0 else
            f"differs from serial_scan's running totals at "
            f"{_quantity(r['mismatches'], 'position')}")
    rounds = (f"It takes {_quantity(r['parallel_steps'], 'round')} of side-by-side adds: "
              f"{_quantity(r['parallel_steps'], 'step')} deep. serial_scan chains "
              f"{_quantity(r['serial_steps'], 'add')}, starting from x_1"
              if r["length"] > 1 else "With one value there is nothing to combine")
    return "\n".join([
        "=== prefix-sum equivalence check ===",
        *_wrap(f"On {_quantity(r['length'], 'float')}, parallel_scan (Hillis-Steele) "
               f"{same}. {rounds}."),
        f"totals off by over {r['rel_tol']:g} of the largest total: {r['mismatches']} of "
        f"{r['length']:,}",
        f"last value (serial):   {r['serial_last']!r}",
        f"last value (parallel): {r['parallel_last']!r}",
        "The last values agree to the last digit." if r["same_last"] else
        "The last digits differ: rounding follows the order of additions.",
    ])


# A timing table says so when a function's samples disagree by more than this
# (worst / best), as timeit warns: a sample four times the best was interrupted.
SPREAD_WARNING = 4


def _spread_note(spreads):
    """Return a line naming the noisiest (what, spread) pair, if above SPREAD_WARNING."""
    what, worst = max(spreads, key=lambda pair: pair[1])
    if round(worst, 2) <= SPREAD_WARNING:          # as printed: 4.004 reads 4.00, not noisy
        return []
    return _wrap(f"noisy: at {what}, the slowest sample took {worst:.2f}x the fastest; the "
                 "fastest is shown.")


def _timing_table(rows):
    """Return the per-call times of both functions as a table."""
    return _table(("N", "rnn per call", "attn per call", "rnn / attn"),
                  [(f"{r['n']:,}", format_seconds(r["rnn_s"]), format_seconds(r["attn_s"]),
                    _format_ratio(r["ratio"])) for r in rows])


def _table(headers, rows, left=0):
    """Return rows of cells as a text table, the first `left` columns left-aligned."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows)]
    return "\n".join(
        "  ".join(str(cell).ljust(w) if k < left else str(cell).rjust(w)
                  for k, (cell, w) in enumerate(zip(line, widths))).rstrip()
        for line in (headers, *rows))


def _wrap(text, width=78):
    """Return text as lines of at most `width` characters, broken at spaces only."""
    return textwrap.wrap(text, width, break_on_hyphens=False)


# ----------------------------------------------------------------------------
# What the lesson's functions and sections use: their checks, their inputs,
# their timing loop (as timeit times) and their number formats. The parts below
# use them too.
# ----------------------------------------------------------------------------

ECHO_CHARS = 40                 # how much of a bad argument an error message repeats


def _require_size(func, name, n, low=1, high=MAX_SIZE):
    """Return n if it is a whole number from low to high; else raise ValueError naming
    func (a bool is no count), or operator.index's TypeError for what is no whole number."""
    if isinstance(n, bool) or not low <= operator.index(n) <= high:
        shown = f"about 2**{n.bit_length() - 1}" if abs(n) > 10**15 else repr(n)
        limit = f"from {low:_} to {high:_}" if high < math.inf else f"of at least {low:_}"
        raise ValueError(f"{func} requires {name} to be a whole number {limit}, got {shown}")
    return n


def _require_seed(func, seed):
    """Return seed if it is an int, as random.Random(seed) takes it reproducibly."""
    return _require_size(func, "seed", seed, low=0, high=2**64)


def _require_sizes(func, name, values, low=1, high=MAX_SIZE):
    """Return values as a list of 1 to MAX_LIST ints, each from low to high."""
    values = list(itertools.islice(values, MAX_LIST + 1))
    if not 1 <= len(values) <= MAX_LIST:
        raise ValueError(f"{func} requires from 1 to {MAX_LIST} values of {name}")
    return [_require_size(func, name, v, low, high) for v in values]


def seed_input(n):
    """Return the lesson's own input, [0.001 * (i % 17) for i in range(n)], made a
    period at a time (the comprehension would add a tenth to the default run)."""
    period = [0.001 * k for k in range(17)]
    return (period * (n // 17 + 1))[:n]


def uniform_inputs(n, rng, low=-1.0, high=1.0):
    """Return n floats drawn from rng.uniform(low, high), in order.

    >>> rng = random.Random(0)
    >>> uniform_inputs(100, random.Random(0)) == [rng.uniform(-1, 1) for _ in range(100)]
    True
    """
    draw, width = rng.random, high - low        # rng.uniform's own formula, inlined
    return [low + width * draw() for _ in range(n)]


# Each sample runs the function enough times to last about this long, so that
# a sample is long against the clock's resolution and its overhead.
SAMPLE_SECONDS = 0.00075


def sample_per_call(functions, reps=3, *, timer=time.perf_counter, seconds=SAMPLE_SECONDS):
    """Return, for each function (called with no arguments), a list of `reps`
    samples of its seconds per call.

    >>> [len(s) for s in sample_per_call([lambda: 1, lambda: 2], reps=2)]
    [2, 2]
    """
    timers = [timeit.Timer(f, timer=timer) for f in functions]
    loops, samples = [], []
    for t in timers:
        once = t.timeit(1)
        if once >= seconds:             # a call this long is a sample already
            loops.append(1)
            samples.append([once])
        else:
            loops.append(_loop_count(min(once, t.timeit(1)), seconds))
            samples.append([])
    for _ in range(reps):
        for t, count, taken in zip(timers, loops, samples):
            if len(taken) < reps:
                taken.append(t.timeit(count) / count)
    return samples


def _loop_count(once, target=SAMPLE_SECONDS):
    """Return how many calls of `once` seconds each make a sample of about `target` seconds."""
    if once <= 0:                       # a clock too coarse to see one call
        return 1_000
    return max(1, math.ceil(target / once))


SECOND_UNITS = {0: " s", -3: " ms", -6: " µs", -9: " ns"}     # by power of ten


def as_printed(seconds):
    """Return seconds rounded to the three significant digits format_seconds prints,
    so that a ratio of two times is the ratio of the times as printed.

    >>> as_printed(0.000231449), as_printed(4.0849e-05)
    (0.000231, 4.08e-05)
    """
    return float(f"{seconds:.2e}")


def format_seconds(seconds):
    """Return a duration in the unit that keeps three significant digits.

    >>> format_seconds(0.0009996), format_seconds(0.0)     # never 1000 µs, never 0.00
    ('1.00 ms', '< 1 ns')
    """
    return _significant(seconds, SECOND_UNITS) or "< 1 ns"


def _significant(value, units):
    """Return value >= 0 to three significant digits, rounded once, in the largest of
    units ({power of ten: suffix}) where it reads 1 or more; None below them all."""
    mantissa, exponent = f"{value:.2e}".split("e")     # '9.99', '-04'
    exponent = int(exponent)
    fitting = [power for power in units if power <= exponent]
    if value == 0 or not fitting:
        return None
    unit = max(fitting)
    point = exponent - unit + 1         # the digits before the point: 1, 2, 3 or more
    if point > 3:                       # past the largest unit: every digit
        return f"{value / 10 ** unit:.0f}{units[unit]}"
    digits = mantissa.replace(".", "")
    text = digits[:point]
    if point < 3:
        text += "." + digits[point:]
    return text + units[unit]


def _quantity(n, noun, plural=None):
    """Return '1 round', '2 rounds', '1,024 random floats'."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def _format_ratio(ratio):
    return f"{ratio:,.1f}x"


def _span(low, high):
    """Return 'low to high', or 'low' alone where the two read the same."""
    return low if low == high else f"{low} to {high}"


TAKEAWAY = "takeaway: a recurrence is N steps deep, a tree sum ceil(log2 N)."



# ============================================================================
# The lesson ends here. The numbered parts work its exercises and measure its other
# claims, each a section of the command line. Short names used below: N a
# sequence's length (n in arguments); x, h an input and a state; decay the
# linear step's factor, w the tanh step's; op an associative combine, and a
# combine one use of it; work how many operations run in all, depth the longest
# chain of them; d a state's or a model's width; madds multiply-adds.
# ============================================================================

FIGURE_N = 16                   # the depth figure's sequence


def figure_depth(rows):
    """Return the chain, the tree and the Hillis-Steele network for N = 16, as SVG."""
    n = FIGURE_N
    chain_depth, tree_depth = depth(n)
    fig = Figure(f"N = {n}: a recurrence is a chain, a reduction is a tree",
                 f"depth = longest path of dependent steps; the table's depth ratio at "
                 f"N = {rows[-1]['n']:,} is {rows[-1]['depth_ratio']:,.0f}x", height=630)
    xs = [38 + 34 * i for i in range(n)]
    fig.text(20, 66, f"recurrence h_t = f(h_(t-1), x_t): depth {chain_depth}", size=12,
             weight="bold")
    for i, x in enumerate(xs):
        if i:
            fig.line(xs[i - 1] + 9, 90, x - 9, 90, width=1.4)
        fig.node(x, 90, f"h{i + 1}", "chain")
    fig.text(20, 136, f"a sum, as a tree: depth {tree_depth}", size=12,
             weight="bold")
    level, y = [(x, f"x{i + 1}") for i, x in enumerate(xs)], 300
    for x, label in level:
        fig.node(x, y, label, "tree")
    for _ in range(tree_depth):
        up = [((a[0] + b[0]) / 2, "+") for a, b in zip(level[0::2], level[1::2])]
        for k, (x, _) in enumerate(up):
            for child in level[2 * k:2 * k + 2]:
                fig.line(child[0], y - 9, x, y - 31, width=1.0)
            fig.node(x, y - 40, "+", "tree", color="#cfe3f3")
        level, y = up + level[len(up) * 2:], y - 40
    rounds = list(itertools.takewhile(lambda s: s < n, (2 ** k for k in range(n))))
    fig.text(20, 346, f"Hillis-Steele scan: every prefix in {len(rounds)} rounds "
             "(a row a round)", size=12, weight="bold")
    for r in range(len(rounds) + 1):
        y = 370 + 52 * r
        for i, x in enumerate(xs):
            if r:
                fig.line(x, y - 43, x, y - 9, color="#888", width=0.8)
                if i >= rounds[r - 1]:
                    fig.line(xs[i - rounds[r - 1]], y - 43, x, y - 9, color=PALETTE[0], width=1.0)
            fig.node(x, y, "", "scan", color="#fff" if r == 0 else "#fde0c5")
        fig.text(xs[-1] + 18, y + 4, f"x_1 ... x_{n}" if r == 0 else
                 f"round {r}", size=10)
    y += 32
    fig.line(20, y, 44, y, color=PALETTE[0], width=1.0)
    fig.text(50, y + 4, f"adds the value {', '.join(map(str, rounds[:-1]))} or {rounds[-1]} "
             "places back", size=10)
    fig.line(290, y, 314, y, color="#888", width=0.8)
    fig.text(320, y + 4, "keeps its own value", size=10)
    return fig.svg()


# A part registers its section where it ends. A Section holds its summary for
# --help; compute, its data (what --json prints) from the options, each None
# where not given; render, the data as text; figure, the data as SVG, if it has
# one; options, the Options it reads; headline, what it found, for the sections
# `all` ends with (the lesson's three problems and three exercises), else None;
# refuse, if given, what is wrong with its options taken together (or None),
# asked before any section runs. An Option is declared by the first part
# that reads it: its limits are checked by the parser.

Section = collections.namedtuple(
    "Section", "summary compute render figure options headline refuse",
    defaults=(None, None))
Option = collections.namedtuple("Option", "flag metavar low high many help")
SECTIONS = {}

SIZES = Option("--sizes", "N,N,...", 1, MAX_SIZE, True, (
    f"sequence lengths, up to {MAX_LIST} separated by commas, each 1 to {MAX_SIZE:_} "
    "(default: each section's own); a million take about 8 MB, 16 MB at peak"))
REPS = Option("--reps", "K", 1, MAX_REPS, False, (
    f"timings of each function, the fastest kept (1 to {MAX_REPS}; default {TIMING_REPS})"))
LENGTH = Option("--length", "N", 1, MAX_SCAN_LENGTH, False, (
    f"the scan's length (1 to {MAX_SCAN_LENGTH:_}; default {SCAN_LENGTH:_}); a million take "
    "about 160 MB at peak"))


SECTIONS["depth"] = Section(
    summary="serial depth of the recurrence and the reduction",
    compute=lambda o: depth_rows(), render=render_depth, figure=figure_depth, options=(),
    headline=lambda rows: f"the chain is {rows[-1]['depth_ratio']:,.0f}x the tree's depth at "
             f"N = {rows[-1]['n']:,}")
SECTIONS["wallclock"] = Section(
    summary="both functions timed on this machine",
    compute=lambda o: wallclock_section(o.sizes or WALLCLOCK_SIZES, o.reps or TIMING_REPS),
    render=render_wallclock, figure=None, options=(SIZES, REPS))
SECTIONS["scan"] = Section(
    summary="Hillis-Steele scan checked against the serial scan",
    compute=lambda o: scan_check(o.length or SCAN_LENGTH), render=render_scan, figure=None,
    options=(LENGTH,),
    headline=lambda r: (f"parallel_scan {'matched' if r['mismatches'] == 0 else 'differed from'} "
                        f"serial_scan, {r['parallel_steps']} steps deep against "
                        f"{r['serial_steps']:,}"))


# ============================================================================
# The cost model: what a step is
# ============================================================================
#
# Every depth, step count, work count and idle share printed below comes from
# this one definition. A step is one operation on one lane. A multiply-add
# a*b + c is one operation, as a GPU's fused multiply-add is one instruction;
# an add, a multiply, exp, tanh and 1/x are one each. Work is how many
# operations run in all; depth, the longest chain of them, each waiting for the
# one before. So the recurrence h = a*h + x is one multiply-add an input, N
# steps deep at N, as the lesson counts it, and a tree sum of N values is
# ceil(log2 N) deep. Counted measures work and depth on the code that runs;
# lane_steps gives the fewest steps of a sum on P lanes, and fewest_steps a
# lower bound for any work of a given depth.

MAX_COUNTED = 1 << 16           # Counted inputs: Hillis-Steele makes N log2 N values of them


class Tally:
    """A shared count of operations (the work)."""

    __slots__ = ("work",)

    def __init__(self):
        self.work = 0


def _counted_add(reverse=False):
    """Return Counted's add (other + self when reverse): one operation, of depth
    1 + the deeper input; a product that feeds it is fused with it into one
    multiply-add, already counted. Written out because it runs millions of times."""
    def add(self, other):
        tally = self.tally
        if type(other) is Counted:
            value, deep, other_fused = other.value, other.depth, other.fusable
        else:
            value, deep, other_fused = other, 0, False
        if self.fusable and (not other_fused or self.depth >= deep):
            self.fusable = False            # a*b + c: as deep as a*b, or one more than c
            depth = self.depth if self.depth > deep else deep + 1
        elif other_fused:
            other.fusable = False
            depth = deep if deep > self.depth else self.depth + 1
        else:
            tally.work += 1
            depth = (self.depth if self.depth > deep else deep) + 1
        result = object.__new__(Counted)    # Counted(value, tally, depth), without the call
        result.value = value + self.value if reverse else self.value + value
        result.tally, result.depth, result.fusable = tally, depth, False
        return result
    return add


def _counted_mul(reverse=False):
    """Return Counted's multiply (other * self when reverse): one operation, of
    depth 1 + the deeper input, that an add taking it may fuse with."""
    def mul(self, other):
        tally = self.tally
        tally.work += 1
        if type(other) is Counted:
            depth = self.depth if self.depth > other.depth else other.depth
            other = other.value
        else:
            depth = self.depth
        result = object.__new__(Counted)
        result.value = other * self.value if reverse else self.value * other
        result.tally, result.depth, result.fusable = tally, depth + 1, True
        return result
    return mul


class Counted:
    """A number that counts the operations that produce it: its depth, and the work
    in a shared Tally. A multiply that feeds an add is one multiply-add.

    >>> tally = Tally()
    >>> a, b, c = (Counted(v, tally) for v in (1, 2, 3))
    >>> d = (a + b) * c + a                 # an add, then a multiply-add
    >>> d.value, d.depth, tally.work
    (10, 2, 2)
    """

    __slots__ = ("value", "depth", "tally", "fusable")

    def __init__(self, value, tally, depth=0):
        if type(tally) is not Tally:
            raise TypeError(f"Counted requires a Tally, got {tally!r:.40}")
        _require_size("Counted", "depth", depth, low=0, high=math.inf)
        self.value, self.tally, self.depth, self.fusable = value, tally, depth, False

    __add__, __radd__ = _counted_add(), _counted_add(reverse=True)
    __mul__, __rmul__ = _counted_mul(), _counted_mul(reverse=True)

    def __repr__(self):
        return f"Counted({self.value!r}, depth={self.depth})"


def _counted_op(fn, x):
    """Return fn(x), counted as one operation when x is a Counted (exp, tanh, 1/x)."""
    if isinstance(x, Counted):
        x.tally.work += 1
        return Counted(fn(x.value), x.tally, x.depth + 1)
    return fn(x)


def measure_work_depth(algorithm, n):
    """Return (work, depth) of algorithm(values) on n fresh Counted inputs.

    >>> measure_work_depth(tree_reduce, 8)
    (7, 3)
    >>> measure_work_depth(rnn_style, 8)    # a multiply-add an input
    (8, 8)
    """
    n = _require_size("measure_work_depth", "n", n, low=0, high=MAX_COUNTED)
    tally = Tally()
    result = algorithm([Counted(1.0, tally) for _ in range(n)])
    return tally.work, _depth_of(result)


def _depth_of(result):
    """Return the largest depth among a Counted or a (nested) list of them."""
    if isinstance(result, Counted):
        return result.depth
    if isinstance(result, (list, tuple)):
        return max((_depth_of(r) for r in result), default=0)
    return 0


def lane_steps(n, lanes):
    """Return the fewest steps in which `lanes` lanes sum n values, each lane adding
    one pair a step; at least 1, as depth() counts it.

    A step turns c values into at least c - min(lanes, c // 2), so no schedule
    beats this one: while more than 2 * lanes values remain, every lane adds a
    pair; then each step halves what is left, rounded up. With lanes >= n / 2 it
    is depth(n)'s tree.

    >>> lane_steps(65_536, 10_000)      # 5 steps with every lane busy, then 14 halvings
    19
    >>> lane_steps(1_024, 1_024) == depth(1_024)[1]
    True
    """
    return max(1, sum(lane_step_parts(n, lanes)))


def lane_step_parts(n, lanes):
    """Return lane_steps' two parts: the steps in which every lane adds a pair, and
    then the halvings of what is left.

    >>> lane_step_parts(65_536, 10_000)     # 65,536 - 5 x 10,000 = 15,536, then 14 halvings
    (5, 14)
    """
    busy = max(0, _ceil_div(n - 2 * lanes, lanes))
    return busy, (n - busy * lanes - 1).bit_length()


def fewest_steps(work, depth, lanes):
    """Return the fewest steps that `work` operations, `depth` of them in a chain,
    can take on `lanes` lanes: at least the work shared out, and at least the depth.

    >>> fewest_steps(4_160, 7, 10_000)
    7
    """
    return max(_ceil_div(work, lanes), depth)


# ============================================================================
# 1. Exercise (Easy): a vector hidden state
# ============================================================================

HIDDEN_WIDTHS = (1, 8, 64)
HIDDEN_STEPS = 100              # a short sequence (not 64, a width): what is timed is one update
MAX_WIDTH = 2_048               # a width x width matrix of floats: about 100 MB
GPU_LANES = 10_000              # the lesson's "10,000+ parallel cores" of a GPU

def hidden_weights(width, decay=0.9):
    """Return (A, b): the fixed weights of the vector recurrence h = A.h + b*x.

    >>> hidden_weights(2, 0.9)
    ([[0.6, 0.3], [0.3, 0.6]], [1.0, 0.5])
    """
    width = _require_size("hidden_weights", "width", width, high=MAX_WIDTH)
    if not math.isfinite(decay):
        raise ValueError(f"hidden_weights requires a finite decay, got {decay!r}")
    A = []
    for i in range(width):
        closeness = [1.0 / (1 + abs(i - j)) for j in range(width)]
        total = sum(closeness)
        A.append([decay * c / total for c in closeness])
    b = [1.0 / (1 + i) for i in range(width)]
    return A, b


def rnn_style_vector(xs, width=64, decay=0.9):
    """Return the final hidden state (width floats) of h = A.h + b*x, from h = 0.

    >>> rnn_style_vector([1.0, 1.0, 1.0], width=1) == [rnn_style([1.0, 1.0, 1.0])]
    True
    """
    return _vector_recurrence(xs, *hidden_weights(width, decay))


def _vector_recurrence(xs, A, b):
    """Return the final h of h = A.h + b*x from h = 0: the loop that hidden_rows times."""
    h = [0.0] * len(b)
    for x in xs:
        # Every new unit needs the whole previous h: a dense matrix-vector product.
        h = [sum(map(operator.mul, row, h)) + bi * x for row, bi in zip(A, b)]
    return h


def combine_madds(width):
    """Return the multiplications of one step h -> A.h + b*x of a `width`-unit state
    (A.h and b*x), of one scan combine of two such steps, and of a combine with A diagonal.

    >>> combine_madds(64)
    (4160, 266240, 128)
    """
    return width ** 2 + width, width ** 3 + width ** 2, 2 * width


def update_depth(width):
    """Return the fewest steps one update of a `width`-unit state takes on any number
    of lanes: each new unit combines width + 1 numbers (the old h and x), two at a
    time, so ceil(log2(width + 1)).

    >>> [update_depth(w) for w in (1, 8, 64)]
    [1, 4, 7]
    """
    return width.bit_length()


def update_steps(width, lanes=GPU_LANES):
    """Return the fewest steps one update of a `width`-unit state takes on `lanes`
    lanes: its width^2 + width multiply-adds, update_depth(width) of them in a chain.

    >>> [update_steps(w) for w in (1, 64, 2_048)]
    [1, 7, 420]
    """
    return fewest_steps(combine_madds(width)[0], update_depth(width), lanes)


def idle_share(width, lanes=GPU_LANES):
    """Return the least share of `lanes` lanes left idle by one update of a state of
    `width` units: its multiply-adds over the fewest steps they take (update_steps).
    0 where they could fill them.

    >>> [round(idle_share(w), 4) for w in (1, 8, 64, 100)]
    [0.9998, 0.9982, 0.9406, 0.8557]
    """
    return 1 - combine_madds(width)[0] / (lanes * update_steps(width, lanes))


def hidden_rows(widths=HIDDEN_WIDTHS, steps=HIDDEN_STEPS, reps=TIMING_REPS):
    """Return the best time per update at each width, from width 1 up: width 1 is
    always timed, as the base. A row's growth is its time over width 1's, the
    two times as the table prints them. The widths take turns, as benchmark's two
    functions do, so that a change in the machine's speed hits them all."""
    widths = _require_sizes("hidden_rows", "width", widths, high=MAX_WIDTH)
    _require_size("hidden_rows", "reps", reps, high=MAX_REPS)
    xs = seed_input(_require_size("hidden_rows", "steps", steps))
    widths = sorted({1, *widths})
    calls = [functools.partial(_vector_recurrence, xs, *hidden_weights(w)) for w in widths]
    samples = sample_per_call(calls, reps)
    base = min(samples[0]) / steps                  # width 1's time per update
    rows = []
    for w, s in zip(widths, samples):
        step, combine, diagonal = combine_madds(w)
        rows.append({"width": w, "step_s": min(s) / steps,
                     "growth": as_printed(min(s) / steps) / as_printed(base),
                     "madds_per_step": step, "madds_per_combine": combine,
                     "madds_per_diagonal_combine": diagonal, "depth": steps,
                     "update_depth": update_depth(w),
                     "update_steps": update_steps(w),
                     "idle_share": idle_share(w),
                     "spread": max(s) / min(s)})
    return rows


def _format_growth(ratio):
    """Return a ratio of two times to three significant digits, as precise as the times
    printed beside it.

    >>> [_format_growth(x) for x in (1.0, 6.071, 378.8, 203_607.0)]
    ['1.00x', '6.07x', '379x', '204,000x']
    """
    if ratio >= 999.5:
        return f"{float(f'{ratio:.3g}'):,.0f}x"
    return _three_digits(ratio) + "x"


def _share(share):
    """Return a share as a percentage, to two decimals above 99% or below 1% (99.98%
    and 0.02%, not 100% and 0%)."""
    return f"{share:.2%}" if share > 0.99 or share < 0.01 else f"{share:.0%}"


def growth_reading(growth, madds, first_width, first_madds):
    """Return what an update's growth in time says beside its growth in madds. If
    the time is a fixed cost F plus c a madd, a growth under half the madds' means
    F is over first_madds * c: at the first width, the fixed cost outweighs the madds."""
    if growth < madds / 2:
        return (f"The time grew less, as at width {first_width:,} an update's fixed cost "
                f"outweighs its {first_madds:,} madds")
    return "The time grew about as the madds"


def render_hidden(rows):
    """Return the hidden-width table as text: the exercise's question and its answer
    first, then the table, then the chain and the lanes an update leaves idle."""
    first, last = rows[0], rows[-1]
    table = _table(("width", "time per update", f"vs width {first['width']}", "madds per update"),
                   [(f"{r['width']:,}", format_seconds(r["step_s"]), _format_growth(r["growth"]),
                     f"{r['madds_per_step']:,}") for r in rows])
    madds = last["madds_per_step"] / first["madds_per_step"]
    answer = (f"width {last['width']:,} took {_format_growth(last['growth'])} width "
              f"{first['width']}'s time, for {madds:,.0f}x the multiply-adds (madds). "
              f"{growth_reading(last['growth'], madds, first['width'], first['madds_per_step'])}."
              if len(rows) > 1 else "with width 1 alone, there is no growth to read.")
    return "\n".join([
        "=== exercise (easy): a vector hidden state ===",
        *_wrap("The Easy exercise asks how an update's time grows with the state's width: "
               + answer),
        table,
        *_spread_note([(f"width {r['width']}", r["spread"]) for r in rows]),
        *_wrap(f"An update, h = A.h + b*x (A w-by-w, b w long), is w*(w + 1) madds. "
               f"Each time is for one update "
               f"of a chain of {first['depth']:,}."),
        *_wrap("More: " + idle_reading(last) + (
            f" At width {first['width']:,}, {_share(first['idle_share'])} sit idle: the lesson's "
            "99%."
            if len(rows) > 1 else "")),
    ])


def idle_reading(row):
    """Return what the cost model says of one update on the lesson's GPU: the fewest
    steps it takes, set by its depth or by its madds, and the least share of idle lanes."""
    w, madds, steps = row["width"], row["madds_per_step"], row["update_steps"]
    if steps == row["update_depth"]:
        why = (f"at least {_quantity(steps, 'step')} (ceil(log2 {w + 1:,})): each new h_i "
               f"sums {w + 1:,} products ({w:,} from A.h, and b*x), two at a time")
    else:
        why = f"at least {steps:,} steps for its {madds:,} madds"
    said = (f"the lesson's GPU has {GPU_LANES:,} lanes (cores), each doing one operation a "
            f"step. An update of width {w:,} takes {why}. ")
    if row["idle_share"] < 0.005:
        return said + "Its madds could keep nearly every lane busy."
    return said + (f"Its {madds:,} madds fill at most {_share(1 - row['idle_share'])} of those "
                   f"{steps:,} steps x {GPU_LANES:,} lanes: at least {_share(row['idle_share'])} "
                   "sit idle.")


WIDTHS = Option("--widths", "W,W,...", 1, MAX_WIDTH, True, (
    f"hidden-state widths (each 1 to {MAX_WIDTH:_}; default "
    f"{','.join(map(str, HIDDEN_WIDTHS))}); width 1, the base, is always timed"))

SECTIONS["hidden"] = Section(
    summary=f"exercise (easy): hidden state of width {', '.join(map(str, HIDDEN_WIDTHS))}",
    compute=lambda o: hidden_rows(o.widths or HIDDEN_WIDTHS, reps=o.reps or TIMING_REPS),
    render=render_hidden, figure=None, options=(WIDTHS, REPS),
    headline=lambda rows: f"width {rows[-1]['width']} took "
             f"{_format_growth(rows[-1]['growth'])} width {rows[0]['width']}'s time per update")


# ============================================================================
# 2. Exercise (Hard): sweep the sequence length, plot, explain
# ============================================================================
#
# On one core both curves are lines of slope 1. The lanes modelled here are a
# GPU's without its costs: on a real GPU a call's fixed cost to start dominates
# at these lengths, so a measured curve stays flat where the modelled count rises.

SWEEP_SIZES = tuple(2 ** k for k in range(6, 17))      # 64 ... 65,536
FIT_MIN_N = 1_024       # below this the fixed cost of a call is a visible share
SWEEP_LANES = GPU_LANES
MAX_LANES = 10**9


def fit_exponent(ns, seconds):
    """Return the slope of log(seconds) against log(n), by least squares.

    >>> round(fit_exponent([10, 100, 1000], [2e-6, 2e-5, 2e-4]), 6)
    1.0
    """
    ns, seconds = list(ns), list(seconds)
    xs = [math.log(n) for n in ns]
    ys = [math.log(t) for t in seconds]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return (sum((x - mx) * (y - my) for x, y in zip(xs, ys))
            / sum((x - mx) ** 2 for x in xs))


def sweep(sizes=SWEEP_SIZES, reps=TIMING_REPS, lanes=SWEEP_LANES):
    """Return the length sweep: per-call times at each size, the fitted exponents, and
    the steps a machine of `lanes` lanes would take: N for the chain, lane_steps for
    the tree."""
    lanes = _require_size("sweep", "lanes", lanes, high=MAX_LANES)
    rows = wallclock_rows(_require_sizes("sweep", "size", sizes),
                          _require_size("sweep", "reps", reps, high=MAX_REPS))
    for r in rows:
        r["chain_steps"], r["tree_steps"] = r["n"], lane_steps(r["n"], lanes)
    fitted = [r for r in rows if r["n"] >= FIT_MIN_N]
    if len({r["n"] for r in fitted}) < 2:
        fitted = rows
    ns = [r["n"] for r in fitted]

    def exponent(key):
        return fit_exponent(ns, [r[key] for r in fitted]) if len(set(ns)) >= 2 else None

    exponents = exponent("rnn_s"), exponent("attn_s")
    return {"rows": rows, "fit_from_n": min(ns), "rnn_exponent": exponents[0],
            "attn_exponent": exponents[1], "slopes": slope_case(*exponents),
            "reading": slope_reading(*exponents),
            "lanes": lanes, "modelled": modelled_reading(rows, lanes)}


def slope_case(rnn_exponent, attn_exponent):
    """Return what two fitted exponents show: "about 1" (both within 0.2 of it),
    "below 1" (both under 0.8), "far from 1", or None where there is no fit.

    >>> slope_case(0.96, 1.0), slope_case(0.0, 0.0), slope_case(0.5, 1.0)
    ('about 1', 'below 1', 'far from 1')
    """
    if None in (rnn_exponent, attn_exponent):
        return None
    exponents = (round(rnn_exponent, 2), round(attn_exponent, 2))     # as printed
    if all(0.8 <= k <= 1.2 for k in exponents):
        return "about 1"
    return "below 1" if max(exponents) < 0.8 else "far from 1"


# What each case of slope_case says: in the text, after the slopes; in the figure's
# subtitle, of its top panel.
SLOPE_WORDS = {
    "about 1": ("Both times grow in proportion to N {slopes}. On one core each does N "
                "operations in turn: sum() in C, the loop in Python.",
                "top: both slopes near 1, each time in proportion to N: one core runs no sum "
                "in parallel"),
    "below 1": ("Both grow slower than N {slopes}. At these sizes a call's fixed cost is a "
                "large share of its time.",
                "top: both slopes below 1: at these sizes, a call's fixed cost is a large "
                "share of its time"),
    "far from 1": ("A slope is far from 1 {slopes}, though each does N operations in turn: "
                   "too few or too small sizes, or a busy machine.",
                   "top: a slope far from 1: too few or too small sizes, or a busy machine"),
}


def slope_reading(rnn_exponent, attn_exponent):
    """Return what two fitted exponents say of the curves, by their slope_case."""
    case = slope_case(rnn_exponent, attn_exponent)
    if case is None:
        return "With one size there is no slope to read."
    slopes = (f"(log-log slopes: rnn_style {rnn_exponent:.2f}, attention_style "
              f"{attn_exponent:.2f})")
    return SLOPE_WORDS[case][0].format(slopes=slopes)


def modelled_reading(rows, lanes):
    """Return the sentences that read the modelled steps: the tree's log2 N while
    N <= 2P; past it, the rule of lane_steps, worked at the first N past 2P."""
    first, last = rows[0], rows[-1]
    steps = _span(f"{first['tree_steps']:,}", f"{last['tree_steps']:,}")
    said = f"On P = {lanes:,} lanes a tree sum takes {steps} steps, the fewest possible. "
    past = [r["n"] for r in rows if r["n"] > 2 * lanes]
    if not past:
        said += "With N <= 2P, that is log2 N, rounded up: the tree's depth."
    else:
        n = past[0]
        busy, halvings = lane_step_parts(n, lanes)
        said += ("A lane adds one pair a step, so a step removes at most P values. Once "
                 f"2P = {2 * lanes:,} or fewer remain, each step halves them, rounded up. "
                 f"At N = {n:,}, {_quantity(busy, 'step')} {'leaves' if busy == 1 else 'leave'} "
                 f"{n - busy * lanes:,}, then "
                 f"{halvings} halve them: {busy + halvings} in all.")
    return said


def render_sweep(result):
    """Return the sweep: the exercise's question and the curves' shape first, the
    measured table; then the fit's range and the steps modelled on P lanes."""
    rows = result["rows"]
    measured = _table(("N", "rnn per call", "attn per call"),
                      [(f"{r['n']:,}", format_seconds(r["rnn_s"]), format_seconds(r["attn_s"]))
                       for r in rows])
    modelled = _table(("N", "chain steps", f"tree steps, P = {result['lanes']:,}"),
                      [(f"{r['n']:,}", f"{r['chain_steps']:,}", f"{r['tree_steps']:,}")
                       for r in rows])
    gpu = "GPU would change the sum's curve, not the loop's. "
    more = "More: a " + gpu
    if result["rnn_exponent"] is not None and result["fit_from_n"] > rows[0]["n"]:
        more = (f"More: the slopes are fitted from N = {result['fit_from_n']:,} on, where a "
                "call's fixed cost is small. A " + gpu)
    return "\n".join([
        "=== exercise (hard): sequence-length sweep on this CPU ===",
        *_wrap("The Hard exercise asks for the shape of the curves over N = "
               + _span(f"{rows[0]['n']:,}", f"{rows[-1]['n']:,}") + ". " + result["reading"]),
        measured,
        *_spread_note([(f"N = {r['n']:,}", r["spread"]) for r in rows]),
        *_wrap(more + result["modelled"]),
        modelled,
    ])


def figure_sweep(result):
    """Return the sweep's times against N, log-log, with the fitted exponents; its
    subtitle reads them as the text does (slope_case)."""
    rows = result["rows"]
    fitted = result["rnn_exponent"] is not None
    fig = Figure("Measured on one core (top), modelled on P lanes (bottom)",
                 SLOPE_WORDS[result["slopes"]][1] if fitted
                 else MEASURED + "; one size: no line to fit", height=740)

    def label(name, key):
        return f"{name}, N^{result[key]:.2f}" if fitted else name
    series = [(label("rnn_style", "rnn_exponent"), [(r["n"], r["rnn_s"]) for r in rows]),
              (label("attention_style", "attn_exponent"), [(r["n"], r["attn_s"]) for r in rows])]
    n_axis = _axis_for("N (log)", [r["n"] for r in rows], log=True)
    _chart(fig, CHART_BOX, series, n_axis,
           _axis_for("time per call (log)", [p[1] for _, s in series for p in s], log=True,
                     seconds=True))
    steps = [("the chain: N steps", [(r["n"], r["chain_steps"]) for r in rows]),
             (f"the tree, P = {result['lanes']:,}", [(r["n"], r["tree_steps"]) for r in rows])]
    left, top, width, height = CHART_BOX
    _chart(fig, (left, top + height + 90, width, height), steps, n_axis,
           _axis_for("modelled steps (log)", [p[1] for _, s in steps for p in s], log=True))
    return fig.svg()


def sweep_headline(result):
    """Return what the sweep measured: the fitted slopes."""
    if result["rnn_exponent"] is None:
        return "one size, no slope"
    return f"log-log slopes {result['rnn_exponent']:.2f} and {result['attn_exponent']:.2f}"


LANES = Option("--lanes", "P", 1, MAX_LANES, False, (
    f"lanes P of the parallel machine modelled (1 to {MAX_LANES:_}; default {SWEEP_LANES:_})"))
SECTIONS["sweep"] = Section(
    summary=f"exercise (hard): lengths {SWEEP_SIZES[0]:,} ... {SWEEP_SIZES[-1]:,}, fitted",
    compute=lambda o: sweep(o.sizes or SWEEP_SIZES, o.reps or TIMING_REPS,
                            o.lanes or SWEEP_LANES),
    render=render_sweep, figure=figure_sweep, options=(SIZES, REPS, LANES),
    headline=sweep_headline)


# ============================================================================
# 3. The linear recurrence that state-space models parallelize
# ============================================================================
#
# rnn_style's step h -> a*h + x is an affine map of h. Doing one step after
# another is composing maps, and the composition of two affine maps is again
# an affine map: (a1, x1) then (a2, x2) is h -> a2*(a1*h + x1) + x2, the pair
# (a1*a2, a2*x1 + x2). Composition is associative, so a scan computes all the
# hidden states in ceil(log2 N) rounds (Blelloch 1990; Martin & Cundy 2018;
# Mamba's selective scan, Gu & Dao 2023).

SSM_LENGTH = 1_024
SSM_SEED = 11


def compose_affine(first, second):
    """Return the affine map `first` followed by `second`, each a pair (a, x) for h -> a*h + x.

    >>> compose_affine((0.5, 1.0), (2.0, 3.0))      # h -> 2*(0.5*h + 1) + 3
    (1.0, 5.0)
    """
    (a1, x1), (a2, x2) = first, second
    return a2 * a1, a2 * x1 + x2


def rnn_states(xs, decay=0.9):
    """Return every state h_1 ... h_N of h_t = a_t*h_{t-1} + x_t, from h_0 = 0, serially:
    one multiply-add an input, N in a chain.

    >>> rnn_states([1.0, 1.0, 1.0])
    [1.0, 1.9, 2.71]
    """
    decays = decay if isinstance(decay, collections.abc.Iterable) else itertools.repeat(decay)
    states, h = [], 0                       # an int 0: a Fraction's states stay exact
    for a, x in zip(decays, xs):
        h = a * h + x                       # waits for the h before
        states.append(h)
    return states


def linear_recurrence_scan(xs, decay=0.9):
    """Return every hidden state of h_t = a_t*h_{t-1} + x_t, computed by parallel_scan.

    >>> [round(h, 12) for h in linear_recurrence_scan([1.0, 1.0, 1.0])]
    [1.0, 1.9, 2.71]
    """
    xs = list(xs)
    return _linear_scan(xs, _decays("linear_recurrence_scan", decay, len(xs)))


def _linear_scan(xs, decays):
    """Return linear_recurrence_scan(xs, decays), the decays unchecked: counted values."""
    return [x for _, x in parallel_scan(list(zip(decays, xs)), compose_affine)]


def _decays(func, decay, n):
    """Return n per-step decays from a number or an iterable of n numbers, each
    finite and real."""
    decays = [decay] * n
    if isinstance(decay, collections.abc.Iterable):
        decays = list(decay)
    if len(decays) != n:
        raise ValueError(f"{func} requires one decay per input: "
                         f"got {len(decays)} decays for {n} inputs")
    for a in decays:
        if not math.isfinite(a):        # a complex: math's TypeError; a Fraction is fine
            raise ValueError(f"{func} requires a finite decay, got {a!r:.40}")
    return decays


def ssm_check(length=SSM_LENGTH, seed=SSM_SEED):
    """Return the linear scan against the serial loop, with fixed and selective decays."""
    rng = random.Random(_require_seed("ssm_check", seed))
    xs = uniform_inputs(_require_size("ssm_check", "length", length), rng)
    selective = uniform_inputs(length, rng, 0.5, 1.0)
    result = {"length": length, "seed": seed}
    for name, decay in (("fixed", 0.9), ("selective", selective)):
        serial, scanned = rnn_states(xs, decay), linear_recurrence_scan(xs, decay)
        largest = max(map(abs, serial))
        diff = max(abs(s - p) for s, p in zip(serial, scanned)) / largest
        result[f"{name}_max_rel_diff"] = diff
        if name == "fixed":             # a few states of each, side by side
            result["states"] = [{"t": t, "loop": serial[t - 1], "scan": scanned[t - 1]}
                                for t in sorted({1, 2, 3, length}) if t <= length]
    result["max_rel_diff"] = max(result["fixed_max_rel_diff"], result["selective_max_rel_diff"])
    result["serial_steps"] = length                         # a multiply-add an input
    result["scan_rounds"] = (length - 1).bit_length()      # ceil(log2 N) rounds, 0 for N = 1
    return result


def render_ssm(result):
    """Return the linear-scan check as text: the lesson's claim and the check first,
    a few states side by side, then why the combine exists and the selective case."""
    r = result
    same = r["fixed_max_rel_diff"] <= SCAN_REL_TOL
    table = _table(("state t", "loop: h_t", "scan: h_t"),
                   [(f"{s['t']:,}", f"{s['loop']:.12f}", f"{s['scan']:.12f}")
                    for s in r["states"]])
    a, x = (0.5, 1.0), (2.0, 3.0)
    both = compose_affine(a, x)
    return "\n".join([
        "=== the linear recurrence as a parallel scan (state-space models) ===",
        *_wrap("The lesson says state-space models train in parallel, their step "
               f"linear. Here a Hillis-Steele scan gave all {r['length']:,} states of "
               f"h = 0.9*h + x in "
               f"{_quantity(r['scan_rounds'], 'round')}."),
        *_wrap(f"A round's combines run side by side in one step: {r['scan_rounds']:,} steps "
               f"deep, against the loop's {r['serial_steps']:,}. They differ "
               f"by at most {r['fixed_max_rel_diff']:.1e} of the largest state"
               f"{'' if same else ', more than rounding'}."),
        table,
        *_wrap(f"More: two linear steps make one. h -> {a[0]:g}*h + {a[1]:g}, then "
               f"h -> {x[0]:g}*h + {x[1]:g}, is h -> {x[0]:g}*({a[0]:g}*h + {a[1]:g}) + "
               f"{x[1]:g} = {both[0]:g}*h + {both[1]:g}. As pairs, (a1, x1) then (a2, x2) is "
               "(a1*a2, a2*x1 + x2)."),
        *_wrap("The combine is associative but not commutative: a scan may regroup the steps, "
               "never reorder them. A tanh step does not compose: tanh(w*tanh(w*h + x1) + x2) "
               "is no single tanh(a*h + b), so no pair stands for a run of them."),
        *_wrap("With a random decay per step in [0.5, 1), as in Mamba's selective scan, loop "
               f"and scan agree within {r['selective_max_rel_diff']:.1e}."),
    ])


SECTIONS["ssm"] = Section(
    summary="the linear recurrence as a parallel scan (SSMs)",
    compute=lambda o: ssm_check(), render=render_ssm, figure=None, options=())


# ============================================================================
# 4. Work and depth, measured on the code that runs
# ============================================================================
#
# Every algorithm runs on Counted values (the cost model above): the work and
# the depth of its final values are counted as it runs. Besides the lesson's
# scan, two work-efficient scans are measured here.

WORK_SIZES = (64, 1_024, 4_096)


def brent_kung_scan(xs, op=operator.add):
    """Return the inclusive scan of xs with the work-efficient tree of Brent and Kung (1982).

    >>> brent_kung_scan([1, 2, 3, 4, 5, 6])
    [1, 3, 6, 10, 15, 21]
    """
    out = list(xs)
    n = len(out)
    d = 1
    while d < n:                            # up-sweep: blocks of 2d end at 2d-1, 4d-1, ...
        for i in range(2 * d - 1, n, 2 * d):
            out[i] = op(out[i - d], out[i])
        d *= 2
    while d > 1:                            # down-sweep: fill the block ends in between
        d //= 2
        for i in range(3 * d - 1, n, 2 * d):
            out[i] = op(out[i - d], out[i])
    return out


def blelloch_scan(xs, op=operator.add, identity=0):
    """Return the exclusive scan of xs as Blelloch (1990) computes it:
    out[0] == identity, out[i] == xs[0] op ... op xs[i-1].

    >>> blelloch_scan([3, 1, 7, 0, 4, 1, 6, 3])       # Blelloch's own example
    [0, 3, 4, 11, 11, 15, 16, 22]
    """
    values = list(xs)
    n = len(values)
    size = 1 << max(0, n - 1).bit_length()            # the next power of two >= n
    out = values + [identity] * (size - n)
    d = 1
    while d < size:                         # up-sweep: out[i] holds the sum of its block
        for i in range(2 * d - 1, size, 2 * d):
            out[i] = op(out[i - d], out[i])
        d *= 2
    out[size - 1] = identity                # the prefix before everything
    while d > 1:                            # down-sweep: each node hands its prefix down
        d //= 2
        for i in range(2 * d - 1, size, 2 * d):
            left_sum = out[i - d]
            out[i - d] = out[i]                         # left child: the node's prefix
            out[i] = op(out[i], left_sum)               # right child: prefix, then left block
    return out[:n]


def _selective_linear_scan(xs):
    """linear_recurrence_scan with a decay per step that is counted too (the
    values of a selective scan): the decays' products are work as well, so a
    combine is a multiply and a multiply-add."""
    return _linear_scan(xs, [Counted(0.9, x.tally) for x in xs])


# what runs: (the function, work formula, depth formula), N a power of two.
WORK_ALGORITHMS = {
    "rnn_style": (rnn_style, "N", "N"),
    "sum()": (sum, "N", "N"),
    "tree_reduce": (tree_reduce, "N - 1", "log2 N"),
    "serial_scan": (serial_scan, "N - 1", "N - 1"),
    "parallel_scan": (parallel_scan, "N log2 N - N + 1", "log2 N"),
    "brent_kung_scan": (brent_kung_scan, "2N - log2 N - 2", "2 log2 N - 2"),
    "blelloch_scan": (blelloch_scan, "2N - 2", "2 log2 N - 1"),
    "linear_recurrence_scan": (linear_recurrence_scan, "N log2 N - N + 1", "log2 N"),
    "the same, a decay per step": (_selective_linear_scan, "2(N log2 N - N + 1)", "log2 N"),
}
# the prefix scans compared for least work and least depth
SCANS = ("serial_scan", "parallel_scan", "brent_kung_scan", "blelloch_scan")


WORK_LANES = (1, 8, 64, 1_024)      # lanes P of the modelled machine


def scan_lane_steps(n, lanes):
    """Return the steps that Hillis-Steele's scan of n values takes on `lanes` lanes,
    round by round: round k has n - 2**k combines, shared out among the lanes.
    Its work on one lane; its rounds, ceil(log2 n), with a lane per combine.

    >>> scan_lane_steps(1_024, 1), scan_lane_steps(1_024, 1_024)
    (9217, 10)
    """
    step, steps = 1, 0
    while step < n:
        steps += _ceil_div(n - step, lanes)
        step *= 2
    return steps


def work_section(sizes=WORK_SIZES, lanes=WORK_LANES):
    """Return the measured work and depth of every algorithm at every size; the scans
    of least work and of least depth at N = 1,024 (or the largest N); and there the
    steps on P lanes of a tree sum (lane_steps), of the recurrence's loop (its depth)
    and of its scan (scan_lane_steps), with whether the work or the depth decides."""
    sizes = _require_sizes("work_section", "size", sizes, high=MAX_COUNTED)
    lanes = _require_sizes("work_section", "lane count", lanes, high=MAX_SIZE)
    at = {}
    for name, (algorithm, _, _) in WORK_ALGORITHMS.items():
        for n in sizes:
            work, dep = measure_work_depth(algorithm, n)
            at[name, n] = {"algorithm": name, "n": n, "work": work, "depth": dep}
    n = 1_024 if 1_024 in sizes else max(sizes)
    scans = [at[name, n] for name in SCANS]
    on_lanes = [{"lanes": p, "sum_steps": lane_steps(n, p),
                 "loop_steps": at["rnn_style", n]["depth"],
                 "scan_steps": scan_lane_steps(n, p)} for p in lanes]
    fewest = min(on_lanes, key=lambda r: r["lanes"])
    most = max(on_lanes, key=lambda r: r["lanes"])
    found = {"n": n, "least_work": min(scans, key=lambda r: r["work"])["algorithm"],
             "least_depth": min(scans, key=lambda r: r["depth"])["algorithm"],
             "fewest_lanes": fewest["lanes"], "most_lanes": most["lanes"],
             # the scan slower than the loop on few lanes, faster on many: both count
             "work_decides": fewest["scan_steps"] > fewest["loop_steps"],
             "depth_decides": most["scan_steps"] < most["loop_steps"]}
    return {"rows": list(at.values()), "findings": found, "lanes": on_lanes}


def work_verdict(found):
    """Return which decides, from the steps on P lanes: the work where the scan is
    slower than the loop on the fewest lanes, the depth where it is faster on the most."""
    on_few = _quantity(found["fewest_lanes"], "lane")
    on_many = _quantity(found["most_lanes"], "lane")
    if found["work_decides"] and found["depth_decides"]:
        return f"both decide: on {on_few} the work, on {on_many} the depth"
    if found["depth_decides"]:
        return f"the depth decides, from {on_few} to {on_many}"
    if found["work_decides"]:
        return f"the work decides, from {on_few} to {on_many}"
    return f"the scan is never faster nor slower, from {on_few} to {on_many}"


def work_answer(found, lanes):
    """Return the sentences that answer the lesson's claim from the steps on P lanes
    (work_verdict), with the recurrence's steps that show it."""
    few = next(r for r in lanes if r["lanes"] == found["fewest_lanes"])
    many = next(r for r in lanes if r["lanes"] == found["most_lanes"])
    return (f"Here {work_verdict(found)}. The recurrence is linear, so it can also run "
            f"as a scan (linear_recurrence_scan, below): {few['scan_steps']:,} steps on "
            f"{_quantity(few['lanes'], 'lane')} and {many['scan_steps']:,} on "
            f"{_quantity(many['lanes'], 'lane')}. Its loop takes {few['loop_steps']:,} on any "
            "number of lanes.")


def render_work(result):
    """Return the steps on P lanes first, with the lesson's claim they answer; then
    every algorithm's counted work and depth beside their formulas."""
    rows, found = result["rows"], result["findings"]
    n = found["n"]
    at = {(r["algorithm"], r["n"]): r for r in rows}
    lanes = _table(("lanes P", "tree sum", "recurrence: loop", "recurrence: scan"),
                   [(f"{r['lanes']:,}", f"{r['sum_steps']:,}", f"{r['loop_steps']:,}",
                     f"{r['scan_steps']:,}") for r in result["lanes"]])
    counted = _table(
        (f"N = {n:,}", "work", "formula", "depth", "formula"),
        [(name, f"{at[name, n]['work']:,}", work_f, f"{at[name, n]['depth']:,}", depth_f)
         for name, (_, work_f, depth_f) in WORK_ALGORITHMS.items()], left=1)
    return "\n".join([
        "=== work and depth, counted on the code that runs ===",
        *_wrap("The lesson says depth, not operation count, decides the time. "
               + work_answer(found, result["lanes"])),
        *_wrap(f"Steps at N = {n:,}; a lane (processor) does one operation a step, a multiply-add "
               "counting as one."),
        lanes,
        *_wrap("A tree sum's steps are the fewest possible on P lanes, within Brent's (1974) "
               "bounds max(work / P, depth) and work / P + depth."),
        *_wrap("More: each algorithm, counted as its code ran:"),
        counted,
        *_wrap("Formulas: N a power of two. A decay per step doubles the work: a combine "
               "multiplies two decays too."),
    ])


def figure_work(result):
    """Return the steps on P lanes of a tree sum, the recurrence's loop and its scan,
    log-log."""
    n = result["findings"]["n"]
    fig = Figure(f"Steps on P lanes, N = {n:,}, each lane one operation a step",
                 "the loop stays N; its scan falls from its work to its depth, as the tree "
                 "sum does")
    lanes = [r["lanes"] for r in result["lanes"]]
    steps = [("recurrence: loop", [(r["lanes"], r["loop_steps"]) for r in result["lanes"]]),
             ("recurrence: scan", [(r["lanes"], r["scan_steps"]) for r in result["lanes"]]),
             ("tree sum", [(r["lanes"], r["sum_steps"]) for r in result["lanes"]])]
    _chart(fig, CHART_BOX, steps, _axis_for("lanes P (log)", lanes, log=True, at_data=True),
           _axis_for("steps (log)", [v for _, s in steps for _, v in s], log=True))
    return fig.svg()


SECTIONS["work"] = Section(
    summary="work and depth of the scans, counted; steps on P lanes",
    compute=lambda o: work_section(), render=render_work, figure=figure_work, options=())


# ============================================================================
# 5. What attention costs (Vaswani et al. 2017, Table 1, with numbers)
# ============================================================================

COST_D = 512                    # model width d
COST_K = 3                      # convolution kernel width k
COST_R = 128                    # neighbourhood r of restricted self-attention
COST_SIZES = (512, 2_048, 131_072)
MAX_COST_N = 10**15             # closed forms only: exact ints, any size a table can show
MEMORY_SIZES = (2_048, 32_768, 131_072, 1_048_576)


# layer: Table 1's formulas as printed: operations per layer, sequential
# operations, maximum path length.
LAYER_FORMULAS = {"self-attention": ("n^2*d", "O(1)", "O(1)"),
                  "recurrent": ("n*d^2", "O(n)", "O(n)"),
                  "convolutional": ("k*n*d^2", "O(1)", "O(log_k n)"),
                  "restricted self-attention": ("r*n*d", "O(1)", "O(n/r)")}


def layer_costs(n, d, k, r):
    """Return Table 1's three columns per layer type, evaluated at n, d, k and r."""
    log_k = next(m for m in itertools.count() if k ** m >= n)      # exact: ints only
    return {"self-attention": (n * n * d, 1, 1), "recurrent": (n * d * d, n, n),
            "convolutional": (k * n * d * d, 1, log_k),
            "restricted self-attention": (r * n * d, 1, _ceil_div(n - 1, r - 1))}


def attention_matrix_bytes(n, bytes_per_value=2):
    """Return the bytes of one n x n attention matrix: one head, one layer (fp16 by default).

    >>> attention_matrix_bytes(131_072) == 32 * 2**30      # 128K tokens: 32 GiB
    True
    """
    _require_counts("attention_matrix_bytes", n=n, bytes_per_value=bytes_per_value)
    return n * n * bytes_per_value


def attention_read_parts(n, d):
    """Return the depth of one attention read over n tokens of width d, in steps of
    the cost model, by stage: the scores q.k (a multiply, then multiply-adds up a
    tree of d), exp, the weighted sum (likewise over n, beside the sum of weights and
    its 1/x), and a last product by that 1/sum. Part 8 counts the same at d = 1.

    >>> attention_read_parts(1, 1), sum(attention_read_parts(131_072, 512))
    ((1, 1, 1, 1), 30)
    """
    return 1 + (d - 1).bit_length(), 1, 1 + (n - 1).bit_length(), 1


def cost_table(sizes=COST_SIZES, d=COST_D, k=COST_K, r=COST_R, memory_sizes=MEMORY_SIZES):
    """Return Table 1 of Vaswani et al. at each n, and the attention matrix's memory."""
    sizes = _require_sizes("cost_table", "size", sizes, high=MAX_COST_N)
    memory_sizes = _require_sizes("cost_table", "memory size", memory_sizes, high=MAX_COST_N)
    d = _require_size("cost_table", "d", d, high=MAX_COST_N)
    k = _require_size("cost_table", "k", k, low=2, high=MAX_COST_N)
    r = _require_size("cost_table", "r", r, low=2, high=MAX_COST_N)
    layers = []
    for n in sizes:
        for name, (ops, sequential, path) in layer_costs(n, d, k, r).items():
            layers.append({"layer": name, "n": n, "operations": ops, "max_path_length": path,
                           "sequential_operations": sequential,
                           "formulas": list(LAYER_FORMULAS[name])})
    memory = [{"n": n, "bytes": attention_matrix_bytes(n)} for n in memory_sizes]
    contiguous = [{"n": n, "layers": _ceil_div(n - 1, k - 1)} for n in sizes]
    return {"d": d, "k": k, "r": r, "layers": layers, "memory": memory,
            "contiguous_conv_layers": contiguous,
            "attention_cheaper_below_n": d,         # n^2*d < n*d^2 while n < d
            "read_depth": {"n": max(sizes), "parts": attention_read_parts(max(sizes), d)}}


def render_cost(result):
    """Return the memory of one attention matrix first, with the lesson's claim it
    answers; then Table 1's three columns, each evaluated as written at each n."""
    read = result["read_depth"]
    parts = read["parts"]
    at = {(r["layer"], r["n"]): r for r in result["layers"]}
    sizes = sorted({r["n"] for r in result["layers"]})
    names = list(dict.fromkeys(r["layer"] for r in result["layers"]))
    big = sizes[-1]
    formulas = {name: at[name, big]["formulas"] for name in names}     # ops, sequential, path
    memory = result["memory"]
    memory_table = _table(("tokens n", "n x n matrix"),
                          [(f"{m['n']:,}", format_bytes(m["bytes"])) for m in memory])

    def column(header, k, key, cell):       # one of Table 1's columns: formula, then values
        return _table((header, "formula", *(f"n = {n:,}" for n in sizes)),
                      [(name, formulas[name][k], *(cell(at[name, n][key]) for n in sizes))
                       for name in names], left=2)
    return "\n".join([
        "=== what attention costs: its memory, and Table 1 of Vaswani et al. 2017 ===",
        *_wrap("The lesson says attention's memory grows as the square of the tokens n. Here "
               f"one attention matrix is {format_bytes(memory[0]['bytes'])} at "
               f"{memory[0]['n']:,} tokens and {format_bytes(memory[-1]['bytes'])} at "
               f"{memory[-1]['n']:,}."),
        memory_table,
        *_wrap("That is one head of one layer: n x n scores of 2 bytes (fp16), all stored. "
               "Flash Attention (Dao et al. 2022) computes them tile by tile and never stores "
               "the matrix, so its memory grows as n. The lesson's \"hides constants, not the "
               "scaling\" holds for its work, O(n^2), not its memory."),
        "",
        *_wrap(f"More: Table 1's columns are orders of growth, constants dropped. As "
               f"written, self-attention does fewer operations than a recurrent "
               f"layer only while n < d, the model width ({result['attention_cheaper_below_n']})."
               f" Kernel width k = {result['k']}. Restricted self-attention's causal "
               f"window is r = {result['r']} tokens, itself and the {result['r'] - 1} before it: "
               f"O(n/r) is ceil((n - 1) / {result['r'] - 1}) layers."),
        column("operations per layer", 0, "operations", _format_count),
        "",
        column("sequential operations", 1, "sequential_operations", "{:,}".format),
        "",
        column("maximum path length", 2, "max_path_length", "{:,}".format),
        *_wrap("Table 1 counts a matrix multiply as one sequential operation. Computed as "
               f"trees, one query's read over n = {read['n']:,} keys of width "
               f"d = {result['d']} is {sum(parts)} steps deep. That is {parts[0]} for q.k, "
               f"{parts[1]} for exp, {parts[2]} for the weighted sum (the exps' sum runs "
               f"beside it), {parts[3]} to divide."),
    ])


SECTIONS["cost"] = Section(
    summary="what attention costs: Vaswani et al. Table 1",
    compute=lambda o: cost_table(), render=render_cost, figure=None, options=())


# ============================================================================
# 6. The second problem: gradients fading over distance
# ============================================================================
#
# Training learns a dependency of the last state on an input k steps back
# through the derivative d h_N / d x_{N-k}. Through a recurrence it is a
# product of k per-step factors; through attention it is one weight, at any
# distance (Table 1's last column, maximum path length, as a number).

GRADIENT_N = 200
GRADIENT_SEED = 0
GRADIENT_DISTANCES = (1, 5, 10, 20, 50, 100)
GRADIENT_W = 0.9                # the tanh RNN's recurrent weight, as in rnn_tanh
FORGET_GATE = 0.99              # a gated cell's forget gate, held fixed
SCORE_GAP = 5.0                 # the needed token's score above the others'


def input_gradients(xs, w=0.9):
    """Return [d h_N / d x_{N-k} for k = 0, 1, ..., N-1] for the tanh recurrence
    h_t = tanh(w*h_{t-1} + x_t) from h_0 = 0 (rnn_tanh's last state).

    >>> [round(g, 6) for g in input_gradients([0.0, 0.0], w=0.5)]    # h stays 0
    [1.0, 0.5]
    """
    gradients, carry = [], 1.0          # carry = d h_N / d h_t, from t = N backwards
    for h in reversed(tanh_states(xs, w)):
        gradients.append(carry * (1 - h * h))
        carry *= w * (1 - h * h)
    return gradients


def attention_weight(n, gap=SCORE_GAP):
    """Return the attention weight a_j = e^gap / (e^gap + n - 1) of the one token
    whose score stands `gap` above the n - 1 others, whatever its distance.

    >>> round(attention_weight(200), 2)
    0.43
    """
    if n == 1:
        return 1.0                      # one token takes all the weight, whatever its score
    return 1 / (1 + (n - 1) * math.exp(-gap))


def gradient_rows(n=GRADIENT_N, seed=GRADIENT_SEED, distances=GRADIENT_DISTANCES):
    """Return how much of an input k steps back reaches the last state, for each
    k in distances, on n inputs in [-1, 1): 0.9**k, the tanh RNN at GRADIENT_W,
    a gated cell's FORGET_GATE**k, and attention's weight."""
    n = _require_size("gradient_rows", "n", n, low=2)
    _require_seed("gradient_rows", seed)
    distances = list(distances)
    if not distances or not 0 <= min(distances) <= max(distances) < n:
        raise ValueError(f"gradient_rows requires distances from 0 to n - 1 = {n - 1}")
    xs = uniform_inputs(n, random.Random(seed))
    tanh = input_gradients(xs, GRADIENT_W)
    rows = [{"k": k, "linear": 0.9 ** k, "tanh": tanh[k], "gated": FORGET_GATE ** k,
             "attention": attention_weight(n)} for k in distances]
    far = 50 if 50 in distances else max(distances)     # the distance the text reads
    return {"n": n, "seed": seed, "w": GRADIENT_W, "forget_gate": FORGET_GATE,
            "score_gap": SCORE_GAP, "rows": rows, "far": far, "tanh_last": tanh[0]}


def render_gradient(result):
    """Return the gradient table as text, with what it means for learning: the tanh
    RNN's derivative far back against the nearest distance shown, and attention's
    weight, explained where its column is first read."""
    r = result
    rows = r["rows"]
    table = _table(("k", "linear 0.9^k", f"tanh, w={r['w']:g}",
                    f"cell, f={r['forget_gate']:g}", "attention"),
                   [(f"{row['k']:,}", *(f"{row[key]:.2e}" for key in ("linear", "tanh", "gated",
                                                                       "attention")))
                    for row in rows])
    at = {row["k"]: row for row in rows}
    far, near = r["far"], rows[0]
    against = ""
    if near["k"] < far:
        back = "one step back" if near["k"] == 1 else f"at k = {near['k']:,}"
        against = f", against {near['tanh']:.2g} {back}"
    return "\n".join([
        "=== the second problem: how much of a token k steps back reaches the end ===",
        *_wrap(f"Through the tanh RNN (w = {r['w']:g}), the last state's derivative with "
               f"respect to an input {far} steps back is {at[far]['tanh']:.1e}{against}. "
               "Through attention, the output's derivative with respect to a value is its "
               f"weight, at any distance. That is {near['attention']:.2f} here: the token it "
               f"needs scores {r['score_gap']:g} above the {r['n'] - 1} others, so weighs "
               f"e^{r['score_gap']:g} = {math.exp(r['score_gap']):.0f} times any of them."),
        *_wrap(f"d h_N / d x_(N-k), and attention's weight, {r['n']} random inputs:"),
        table,
        *_wrap("Through tanh, x_(N-k) passes 1 - h^2 where it enters. Then come k factors "
               "w * (1 - h^2): the vanishing gradient. A gated cell (forget gate f near 1) "
               f"fades slowly: {at[far]['gated']:.2f} at {far}" + cell_against_attention(r)
               + "."),
    ])


def cell_against_attention(result):
    """Return where the gated cell's f^k falls below attention's weight: the first
    k with f^k < weight, as a clause; "" where it never does (f = 1)."""
    f, weight = result["forget_gate"], result["rows"][0]["attention"]
    if f >= 1 or weight >= 1:
        return ""
    k = math.floor(math.log(weight) / math.log(f)) + 1
    return f", below attention's {weight:.2f} from k = {k:,}"


GRADIENT_FLOOR = 1e-20          # the figure's lowest value: below it, 0.9^k would look flat


def figure_gradient(result):
    """Return each column against k in two panels: on a linear scale, where the
    values near 1 stand apart, named in a legend; then on a log scale down to
    GRADIENT_FLOOR, where the far ones do, each line named at its end (and where
    it stops above the floor, its name says so)."""
    rows = result["rows"]
    columns = (("linear 0.9^k", "linear"), (f"tanh, w = {result['w']:g}", "tanh"),
               (f"cell, f = {result['forget_gate']:g}", "gated"), ("attention", "attention"))
    fig = Figure("How much of an input k steps back reaches the end",
                 f"{result['n']} inputs; tanh by the chain rule, the rest closed forms; "
                 f"values below {GRADIENT_FLOOR:g} not drawn", height=740)
    x_axis = _axis_for("distance k", [0] + [r["k"] for r in rows])
    near = [(label, [(r["k"], r[key]) for r in rows]) for label, key in columns]
    _chart(fig, CHART_BOX, near, x_axis, _axis_for("derivative d h_N / d x_(N-k)", [0.0, 1.0]))
    series = [(label, [(r["k"], abs(r[key])) for r in rows if abs(r[key]) >= GRADIENT_FLOOR])
              for label, key in columns]
    y_axis = _axis_for("derivative d h_N / d x_(N-k) (log)",
                       [v for _, s in series for _, v in s if v > 0], log=True)
    left, top, width, height = CHART_BOX
    top += height + 90
    _chart(fig, (left, top, width, height), series, x_axis, y_axis, legend=False)
    # each line named at its last point, the names at least 13 px apart where lines meet
    ends = []
    for k, ((label, points), (_, key)) in enumerate(zip(series, columns)):
        below = [r["k"] for r in rows if abs(r[key]) < GRADIENT_FLOOR]
        if below:
            label += f" (at k = {below[0]}: below {GRADIENT_FLOOR:g})"
        if points:
            x, y = points[-1]
            ends.append((_position(y, y_axis, top + height, -height),
                         _position(x, x_axis, left, width), k, label))
    lowest = top + height + 13
    for y, x, k, label in sorted(ends, reverse=True):     # from the lowest up
        lowest = min(y, lowest - 13)
        fig.line(x + 5, lowest, x + 15, lowest, color=PALETTE[k], width=1.8, dash=DASHES[k])
        fig.text(x + 18, lowest + 4, label, size=10, color=PALETTE[k])
    return fig.svg()


SECTIONS["gradient"] = Section(
    summary="problem 2: how much of an input k steps back remains",
    compute=lambda o: gradient_rows(), render=render_gradient, figure=figure_gradient,
    options=(),
    headline=lambda r: f"{r['far']} steps back, the tanh RNN passes "
             f"{[x for x in r['rows'] if x['k'] == r['far']][0]['tanh']:.0e}; attention's "
             "weight stays")


# ============================================================================
# 7. The third problem: what a fixed-width state can hold
# ============================================================================
#
# Associative recall, the modern form of the bottleneck argument (Zoology,
# Arora et al. 2023; Jelassi et al. 2024): write n key -> value pairs into a
# state as a linear-attention or SSM layer does, one additive write per
# token, then ask for each value back by its key. The state has d numbers
# whatever n is; a KV cache keeps every pair.

CAPACITY_D = 64
CAPACITY_SIZES = tuple(CAPACITY_D * m // 4 for m in (1, 2, 4, 8, 16, 32))    # d/4 ... 8d
CAPACITY_READS = 2_400          # reads per size: recall to about +-0.02 (two standard errors)
CAPACITY_SEED = 3
MAX_READS = 1_000_000           # capacity reads per size
CAPACITY_BYTES = 2              # a number's bytes in fp16, as cost and generate count memory


def recall_draw(n, d, rng):
    """Return how many of n reads come back right from a state and from a cache, one draw."""
    keys = [rng.getrandbits(d) for _ in range(n)]
    values = [rng.choice((-1, 1)) for _ in range(n)]
    vectors = [[1 if key >> t & 1 else -1 for t in range(d)] for key in keys]
    state = [0] * d
    for vector, v in zip(vectors, values):              # write: s += v * k
        state = list(map(operator.add if v > 0 else operator.sub, state, vector))
    state_right = sum(1 for vector, v in zip(vectors, values)
                      if sum(map(operator.mul, state, vector)) * v > 0)    # a tie (0) is wrong
    # The cache: the stored key with the highest dot product. For +-1 keys that
    # is d, reached only by an equal key (one differing bit already gives d - 2),
    # so the first stored key equal to k_j is the argmax.
    cache_right = sum(1 for key, v in zip(keys, values) if values[keys.index(key)] == v)
    return state_right, cache_right


def exact_recall(n, d):
    """Return the exact share of right reads from a d-number state holding n
    pairs, for recall_draw's write and read: P(B > (n - 2) * d / 2) with
    B ~ Binomial((n - 1) * d, 1/2), a tie counting as wrong.

    >>> exact_recall(1, 64), round(exact_recall(64, 64), 4)
    (1.0, 0.8394)
    """
    trials = (n - 1) * d
    top = (n - 2) * d // 2                      # wrong reads: B <= top
    if top < 0:
        return 1.0
    term = math.exp(math.lgamma(trials + 1) - math.lgamma(top + 1)
                    - math.lgamma(trials - top + 1) - trials * math.log(2))
    wrong = 0.0
    for b in range(top, -1, -1):                # P(B = b), from b = top down
        wrong += term
        term *= b / (trials - b + 1)
        if term < wrong * 1e-17:
            break
    return 1.0 - wrong


def capacity_rows(sizes=CAPACITY_SIZES, d=CAPACITY_D, reads=CAPACITY_READS,
                  seed=CAPACITY_SEED):
    """Return, for each n in sizes, the share of right reads from a d-number state and
    from a KV cache over ceil(reads / n) draws, the exact share, and the numbers held
    and their bytes in fp16."""
    reads = _require_size("capacity_rows", "reads", reads, high=MAX_READS)
    d = _require_size("capacity_rows", "d", d, high=MAX_WIDTH)
    sizes = _require_sizes("capacity_rows", "size", sizes, high=MAX_SIZE // d)
    rng = random.Random(_require_seed("capacity_rows", seed))
    rows = []
    for n in sizes:
        draws = _ceil_div(reads, n)
        state_right = cache_right = 0
        for _ in range(draws):
            s, c = recall_draw(n, d, rng)
            state_right += s
            cache_right += c
        rows.append({"n": n, "d": d, "draws": draws, "state_recall": state_right / (n * draws),
                     "exact_recall": exact_recall(n, d),
                     "cache_recall": cache_right / (n * draws),
                     "state_numbers": d, "cache_numbers": n * (d + 1),
                     "state_bytes": d * CAPACITY_BYTES,
                     "cache_bytes": n * (d + 1) * CAPACITY_BYTES})
    return rows


def render_capacity(rows):
    """Return the recall table as text, with the trade it shows."""
    d = rows[0]["d"]
    table = _table(("pairs n", "n / d", "measured", "exact", "cache recall",
                    "state holds", "cache holds"),
                   [(f"{r['n']:,}", f"{r['n'] / r['d']:g}", f"{r['state_recall']:.3f}",
                     f"{r['exact_recall']:.3f}", f"{r['cache_recall']:.3f}",
                     format_bytes(r["state_bytes"]), format_bytes(r["cache_bytes"]))
                    for r in rows])
    first, last = rows[0], rows[-1]
    at_d = [r for r in rows if r["n"] == r["d"]]
    middle = f" and {at_d[0]['exact_recall']:.2f} at n = d" if at_d else ""
    cache = ("every read right" if min(r["cache_recall"] for r in rows) == 1 else
             f"at least {min(r['cache_recall'] for r in rows):.3f} right")
    return "\n".join([
        "=== the third problem: what a fixed-width state can hold ===",
        *_wrap("Associative recall: write n key-value pairs into one state, then read each "
               "value by its key."),
        *_wrap(f"A state of d = {d} numbers recalls {first['exact_recall']:.2f} of n = "
               f"{first['n']:,} stored pairs{middle}. At n = {last['n']:,} it recalls "
               f"{last['exact_recall']:.2f}, sliding toward a coin flip (0.5). A KV cache keeps "
               f"every pair, {cache}, in n*(d+1) fp16 numbers (keys and values)."),
        *_wrap(f"Keys are {d} random +-1s, values +-1, summed into s = sum of v*k; a read is "
               "right if sign(s.k) = v. Orthogonal keys would read up to n = d pairs exactly, "
               "but no more than d keys can be orthogonal."),
        table,
        *_wrap(f"measured: about {first['n'] * first['draws']:,} random reads a row; exact: "
               "the share right over every possible crosstalk (noise from other pairs)."),
    ])


def figure_capacity(rows):
    """Return recall against n/d: measured points, the exact curve and the cache."""
    fig = Figure(f"Recall from a state of {rows[0]['d']} numbers, against pairs per number",
                 "measured: random draws; exact: a binomial tail; a coin flip scores 0.5")
    at = [r["n"] / r["d"] for r in rows]
    d = rows[0]["d"]
    series = [(f"state of {d}, measured", list(zip(at, (r["state_recall"] for r in rows)))),
              (f"state of {d}, exact", list(zip(at, (r["exact_recall"] for r in rows)))),
              ("KV cache", list(zip(at, (r["cache_recall"] for r in rows)))),
              ("coin flip, 0.5", [(at[0], 0.5), (at[-1], 0.5)])]
    _chart(fig, CHART_BOX, series, _axis_for("pairs n / numbers d (log)", at, log=True,
                                             at_data=True),
           _axis_for("recall", [0.5, 1.0]), points_only=(series[0][0],))
    return fig.svg()


SECTIONS["capacity"] = Section(
    summary=f"problem 3: what a state of {CAPACITY_D} numbers can recall",
    compute=lambda o: capacity_rows(), render=render_capacity, figure=figure_capacity,
    options=(),
    headline=lambda rows: f"a {rows[-1]['d']}-number state recalls "
             f"{rows[-1]['exact_recall']:.2f} of {rows[-1]['n']:,} pairs")


# ============================================================================
# 8. Training can run in parallel; generating, one token at a time
# ============================================================================
#
# Training on a known sequence (teacher forcing) knows every input: attention
# and a linear recurrence by its scan compute all N positions at once.
# Generating, each output is the next input, so every model makes its tokens
# one after another. Three models of width 1, their depth counted by Counted.

GENERATE_SIZES = (64, 256)
GENERATE_D = 64                 # the width at which the memory held is counted
GENERATE_W = 0.5                # the tanh RNN's recurrent weight
GENERATE_DECAY = 0.9            # the linear recurrence's decay
GENERATE_SEED = 29
MAX_QUADRATIC_N = 4_096         # N^2 work in pure Python: 8M Counted operations


def kv_cache_bytes(tokens, layers, kv_heads, head_dim, bytes_per_value=2):
    """Return the bytes of a KV cache: 2 * tokens * layers * kv_heads *
    head_dim * bytes_per_value (a key and a value per token and layer; fp16).

    >>> kv_cache_bytes(32_768, 32, 32, 128) // 2**30  # GiB at 32K tokens
    16
    """
    _require_counts("kv_cache_bytes", tokens=tokens, layers=layers, kv_heads=kv_heads,
                    head_dim=head_dim, bytes_per_value=bytes_per_value)
    return 2 * tokens * layers * kv_heads * head_dim * bytes_per_value


def ssm_state_bytes(layers, d_model, d_state, expand=2, d_conv=4, bytes_per_value=2):
    """Return the bytes a Mamba-style SSM carries from token to token, whatever
    the context: per layer, the state of expand * d_model channels of d_state
    numbers each, and the convolution's last d_conv inputs of each channel.

    >>> ssm_state_bytes(48, 2_048, 16) / 2**20         # MiB: 6 of state, 1.5 of convolution
    7.5
    """
    _require_counts("ssm_state_bytes", layers=layers, d_model=d_model, d_state=d_state,
                    expand=expand, d_conv=d_conv, bytes_per_value=bytes_per_value)
    return layers * expand * d_model * (d_state + d_conv) * bytes_per_value


def _attention_output(q, keys):
    """Return softmax(q * k_j) . k_j over the keys (values = keys, width 1):
    scores side by side, their sums as trees."""
    weights = [_counted_op(math.exp, q * k) for k in keys]
    total = _counted_op(lambda t: 1 / t, tree_reduce(weights))
    return tree_reduce([w * k for w, k in zip(weights, keys)]) * total


def attention_training(xs):
    """Return every output of a causal attention layer when every input is known."""
    return [_attention_output(x, xs[:i + 1]) for i, x in enumerate(xs)]


def attention_generating(x, n):
    """Return n outputs of the same layer generating: each output is the next input."""
    cache, outputs = [], []
    for _ in range(n):
        cache.append(x)
        x = _attention_output(x, cache)
        outputs.append(x)
    return outputs


def tanh_training(xs, w=GENERATE_W):
    """Return every state of h = tanh(w*h + x) on known inputs: a chain all the same."""
    states, h = [], 0.0
    for x in xs:
        h = _counted_op(math.tanh, w * h + x)
        states.append(h)
    return states


def tanh_generating(x, n, w=GENERATE_W):
    """Return n states of the tanh RNN generating: each state is the next input."""
    states, h = [], 0.0
    for _ in range(n):
        h = x = _counted_op(math.tanh, w * h + x)
        states.append(h)
    return states


def scan_training(xs, decay=GENERATE_DECAY):
    """Return every state of h = decay*h + x on known inputs, by the scan (part 3)."""
    return linear_recurrence_scan(xs, decay)


def scan_generating(x, n, decay=GENERATE_DECAY):
    """Return n states of the linear recurrence generating: each the next input."""
    states, h = [], 0.0
    for _ in range(n):
        h = x = decay * h + x
        states.append(h)
    return states


# name: (training, generating, whether it keeps a KV cache)
GENERATE_MODELS = {"attention": (attention_training, attention_generating, True),
                   "tanh RNN": (tanh_training, tanh_generating, False),
                   "linear, by scan": (scan_training, scan_generating, False)}


def generate_rows(sizes=GENERATE_SIZES, d=GENERATE_D, seed=GENERATE_SEED):
    """Return per model and N the depth of training and of generating, and the bytes held."""
    d = _require_size("generate_rows", "d", d, high=MAX_SIZE)
    sizes = _require_sizes("generate_rows", "n", sizes, low=2, high=MAX_QUADRATIC_N)
    rng = random.Random(_require_seed("generate_rows", seed))
    rows, tally = [], Tally()           # counted values: their depth is what is read
    for name, (training, generating, cache) in GENERATE_MODELS.items():
        for n in sizes:
            values = uniform_inputs(n, rng, -0.5, 0.5)
            depths = [o.depth for o in generating(Counted(values[0], tally), n)]
            rows.append({
                "model": name, "n": n,
                "train_depth": _depth_of(training([Counted(v, tally) for v in values])),
                "generate_depth": depths[-1], "first_token_depth": depths[0],
                "last_token_depth": depths[-1] - depths[-2],
                "held_bytes": kv_cache_bytes(n, 1, 1, d) if cache else 2 * d, "d": d})
    return rows


# each model as a sentence names it
GENERATE_NAMES = {"attention": "attention", "tanh RNN": "the tanh RNN",
                  "linear, by scan": "the linear recurrence"}


def render_generate(rows):
    """Return the generating depths and the memory held first, with the lesson's claim
    they answer and why each model is as deep as it is; then training's depths."""
    at = {(r["model"], r["n"]): r for r in rows}
    big = max(r["n"] for r in rows)
    last = {m: at[m, big] for m in GENERATE_MODELS}
    attention, rnn, scan = last.values()
    deepest = max(last.values(), key=lambda r: r["generate_depth"])
    holding = max(last.values(), key=lambda r: r["held_bytes"])
    in_turn = all(r["generate_depth"] >= r["n"] for r in rows)
    d = rows[0]["d"]
    table = _table(("model", "N", "depth: training", "generating", "holds after N tokens"),
                   [(r["model"], f"{r['n']:,}", f"{r['train_depth']:,}",
                     f"{r['generate_depth']:,}", format_bytes(r["held_bytes"])) for r in rows],
                   left=1)
    found = (f"{GENERATE_NAMES[deepest['model']]} is the deepest, "
             f"{deepest['generate_depth']:,} steps")
    held = format_bytes(holding["held_bytes"])
    if holding is deepest:
        found += f", and holds the most memory, {held}"
    else:
        found += f"; {GENERATE_NAMES[holding['model']]} holds the most memory, {held}"
    why = ("Some model makes its tokens in fewer steps than tokens." if not in_turn else
           "Each new token is the next input: every model generates a chain. A token adds "
           f"{rnn['last_token_depth']} steps for the tanh RNN and {scan['last_token_depth']} "
           "for the linear recurrence. For attention, which reads all t tokens so far, it "
           f"adds {attention['first_token_depth']} + ceil(log2 t): "
           f"{attention['first_token_depth']} to {attention['last_token_depth']} at "
           f"N = {big:,}.")
    return "\n".join([
        "=== training can run in parallel; generating, one token at a time ===",
        *_wrap("The lesson says an RNN suits streaming, one token at a time. Generating "
               f"{big:,} tokens here, {found}."),
        *_wrap(why),
        table,
        *_wrap("More: training knows the whole sequence, so attention and the scan run in "
               f"parallel: {attention['train_depth']:,} and "
               f"{scan['train_depth']:,} steps deep. The tanh RNN stays a chain: "
               f"{rnn['train_depth']:,}."),
        *_wrap("Attention's read is q.k, exp, then two branches side by side: e*v then its "
               "sum, and the exps' sum then 1/sum. Each is 1 + ceil(log2 t) deep; a last product "
               f"makes {attention['first_token_depth']} + ceil(log2 t). The tanh RNN's "
               f"{rnn['last_token_depth']} are a multiply-add, then tanh."),
        *_wrap(f"Steps are counted at width 1; memory at width d = {d}, in fp16: the cache "
               f"keeps a {d}-number key and value per token."),
    ])


SECTIONS["generate"] = Section(
    summary="training can run in parallel, generating is one token at a time",
    compute=lambda o: generate_rows(), render=render_generate, figure=None, options=())


# ============================================================================
# 9. Problem 2, learned: three small models trained on the adding problem
# ============================================================================
#
# The adding problem: T pairs (value, marker), values uniform in [0, 1), one
# marker in each half, the target the sum of the two marked values (after Le,
# Jaitly and Hinton 2015; Hochreiter & Schmidhuber's 1997 form differs). A tanh
# RNN must carry the first value through T/2 or more tanh steps; a minGRU (Feng
# et al. 2024) carries it by a factor 1 - z_t, near 1 where its gate z_t is near
# 0; one attention read reaches every position in one hop.

TRAIN_LENGTHS = (5, 10, 20)
TRAIN_STEPS = 4_000             # single-example steps of Adam per run
TRAIN_SEEDS = 4                 # initializations of each model: seeds 1, 2, ...
TRAIN_CHUNK = 250               # examples made at a time, shared by every run of a length
TRAIN_RATE = 0.01               # Adam's learning rate
TRAIN_CLIP = 1.0                # the gradient's norm is clipped to this
TRAIN_TEST = 500                # held-out examples per T
TRAIN_SEED = 17                 # the seed of the training examples
RNN_WIDTH, MINGRU_WIDTH = 4, 4
MAX_TRAIN_LENGTH = 100
MAX_TRAIN_SEEDS = 20
MAX_TRAIN_WORK = 10_000_000     # steps x seeds x the sum of the lengths: 6 min here
BASELINE_MSE = 1 / 6            # answering 1, the mean: the variance of a sum of two U(0, 1)


def adding_problem(length, examples, seed=0):
    """Return `examples` fixed-seed (pairs, target) of the adding problem: pairs
    is `length` (value, marker) tuples, values uniform in [0, 1), markers 0
    but two, one in each half; target is the sum of the two marked values.

    >>> pairs, target = adding_problem(6, 1, seed=3)[0]
    >>> sum(m for _, m in pairs), target == sum(v for v, m in pairs if m)
    (2.0, True)
    """
    rng = random.Random(seed)
    out = []
    for _ in range(examples):
        values = [rng.random() for _ in range(length)]
        marked = (rng.randrange(length // 2), rng.randrange(length // 2, length))
        pairs = [(v, 1.0 if t in marked else 0.0) for t, v in enumerate(values)]
        out.append((pairs, values[marked[0]] + values[marked[1]]))
    return out


def _training_example(length, k):
    """Return example k of the training stream for `length`: the same for every model."""
    return adding_problem(length, 1, seed=(TRAIN_SEED * 1_000 + length) * 1_000_003 + k)[0]


# Each model is a flat list of parameters, cut into blocks by a list of sizes,
# and one function that returns (loss, gradient). Every sum of many floats in
# training is math.fsum, correctly rounded: the same on every Python (sum() of
# floats is compensated from 3.12 on, and over many Adam steps a last-bit
# difference grows into a different table).

def _blocks(params, sizes):
    """Return params cut into consecutive blocks of the given sizes."""
    blocks, at = [], 0
    for size in sizes:
        blocks.append(params[at:at + size])
        at += size
    return blocks


def _rows(flat, width):
    """Return a flat block as rows of `width` numbers."""
    return [flat[k:k + width] for k in range(0, len(flat), width)]


# The tanh RNN: h_t = tanh(Wx.x_t + Wh.h_(t-1) + b), y = c.h_T + c0, width H.

def rnn_sizes(width=RNN_WIDTH):
    """Return the sizes of the tanh RNN's blocks: Wx (H x 2), Wh (H x H), b, c, c0."""
    return (2 * width, width * width, width, width, 1)


def rnn_loss(params, pairs, target, width=RNN_WIDTH, gradient=True):
    """Return (squared error, its gradient by backpropagation through time) of the
    tanh RNN on one example; (squared error, None) with gradient=False."""
    fsum, mul = math.fsum, operator.mul
    wx, wh, b, c, (c0,) = _blocks(params, rnn_sizes(width))
    wx, wh = _rows(wx, 2), _rows(wh, width)
    states = [[0.0] * width]
    for value, marker in pairs:
        h = states[-1]
        states.append([math.tanh(w0 * value + w1 * marker + bi + fsum(map(mul, row, h)))
                       for (w0, w1), row, bi in zip(wx, wh, b)])
    error = fsum(map(mul, c, states[-1])) + c0 - target
    if not gradient:
        return error * error, None
    # Back through time: d loss / d a_t (a_t the pre-activation) for t = T ... 1,
    # each from the one after it through the columns of Wh.
    columns = list(zip(*wh))
    dh, da = [2 * error * ci for ci in c], []
    for t in range(len(pairs), 0, -1):
        d = [g * (1 - hi * hi) for g, hi in zip(dh, states[t])]
        da.append(d)
        if t > 1:                       # h_0 = 0 is no parameter: its gradient is not needed
            dh = [fsum(map(mul, d, column)) for column in columns]
    # Each parameter's gradient is a sum over the steps: one fsum per parameter.
    by_unit = list(zip(*da[::-1]))              # by_unit[i][t - 1]: unit i at step t
    before = list(zip(*states[:-1]))            # before[j][t - 1] = h_(t-1)[j]
    inputs = ([v for v, _ in pairs], [m for _, m in pairs])
    return error * error, (
        [fsum(map(mul, d, x)) for d in by_unit for x in inputs]
        + [fsum(map(mul, d, hj)) for d in by_unit for hj in before]
        + [fsum(d) for d in by_unit] + [2 * error * hi for hi in states[-1]] + [2 * error])


# The minGRU (Feng et al. 2024): z_t = sigmoid(Wz.x_t + bz), h~_t = Wh.x_t + bh,
# h_t = (1 - z_t) h_(t-1) + z_t h~_t, one channel at a time (width H), y = c.h_T
# + c0. The gate and the candidate read x_t only, never h_(t-1), so each channel
# is a linear recurrence with decays 1 - z_t: its states are a scan, and so is
# its gradient through time, run backwards.

def mingru_sizes(width=MINGRU_WIDTH):
    """Return the sizes of the minGRU's blocks: Wz (H x 2), bz, Wh (H x 2), bh, c, c0."""
    return (2 * width, width, 2 * width, width, width, 1)


def _mingru_gates(params, pairs, width):
    """Return, per channel, the decays 1 - z_t, the inputs z_t h~_t, z_t and h~_t."""
    wz, bz, wh, bh, _, _ = _blocks(params, mingru_sizes(width))
    channels = []
    for (wz0, wz1), bzi, (wh0, wh1), bhi in zip(_rows(wz, 2), bz, _rows(wh, 2), bh):
        z = [1 / (1 + math.exp(-(wz0 * v + wz1 * m + bzi))) for v, m in pairs]
        candidate = [wh0 * v + wh1 * m + bhi for v, m in pairs]
        channels.append(([1 - zt for zt in z], list(map(operator.mul, z, candidate)), z,
                         candidate))
    return channels


def mingru_loss(params, pairs, target, width=MINGRU_WIDTH, scan=True, gradient=True):
    """Return (squared error, its gradient) of the minGRU on one example, its states and
    their gradient by the scan (else by the loop); (squared error, None) with gradient=False."""
    fsum, mul = math.fsum, operator.mul
    recurrence = _linear_scan if scan else rnn_states
    channels = _mingru_gates(params, pairs, width)
    states = [recurrence(inputs, decays) for decays, inputs, _, _ in channels]
    c, (c0,) = _blocks(params, mingru_sizes(width))[4:]
    error = fsum(ci * h[-1] for ci, h in zip(c, states)) + c0 - target
    if not gradient:
        return error * error, None
    values, markers = [v for v, _ in pairs], [m for _, m in pairs]
    blocks = [[] for _ in range(6)]                     # gradients, block by block
    for ci, (decays, _, z, candidate), h in zip(c, channels, states):
        # d loss / d h_t: 2 error c_i at t = T, carried back by the decays: a
        # linear recurrence over the reversed steps, with one input, at its start.
        dh = recurrence([2 * error * ci] + [0.0] * (len(pairs) - 1), [0.0] + decays[:0:-1])
        dh.reverse()
        before = [0.0] + h[:-1]
        dz = [g * (cand - hb) * zt * (1 - zt)           # through the gate's sigmoid
              for g, zt, cand, hb in zip(dh, z, candidate, before)]
        dcand = list(map(mul, dh, z))
        blocks[0] += [fsum(map(mul, dz, values)), fsum(map(mul, dz, markers))]
        blocks[1].append(fsum(dz))
        blocks[2] += [fsum(map(mul, dcand, values)), fsum(map(mul, dcand, markers))]
        blocks[3].append(fsum(dcand))
        blocks[4].append(2 * error * h[-1])
    blocks[5].append(2 * error)
    return error * error, [g for block in blocks for g in block]


# One attention read: a score per position from its own inputs, s_t = u.x_t, a
# softmax over all T positions, the weighted sum of the values, y = c.r + c0.
# Parameters: u (2), c, c0. One read, not a transformer: a path of length 1.

def attention_loss(params, pairs, target, gradient=True):
    """Return (squared error, its gradient) of the one-read attention model."""
    fsum = math.fsum
    u0, u1, c, c0 = params
    scores = [u0 * v + u1 * m for v, m in pairs]
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = fsum(weights)
    weights = [w / total for w in weights]
    read = fsum(w * v for w, (v, _) in zip(weights, pairs))
    error = c * read + c0 - target
    if not gradient:
        return error * error, None
    dread = 2 * error * c
    ds = [w * dread * (v - read) for w, (v, _) in zip(weights, pairs)]   # softmax's Jacobian
    return error * error, [fsum(d * v for d, (v, _) in zip(ds, pairs)),
                           fsum(d * m for d, (_, m) in zip(ds, pairs)), 2 * error * read,
                           2 * error]


Model = collections.namedtuple("Model", "loss parameters")

TRAIN_MODELS = {
    "tanh_rnn": Model(rnn_loss, sum(rnn_sizes())),
    "mingru": Model(mingru_loss, sum(mingru_sizes())),
    "attention": Model(attention_loss, 4),
}


def initial_parameters(model, seed=1):
    """Return the model's starting parameters: uniform in +-0.5, from random.Random(seed)."""
    return uniform_inputs(TRAIN_MODELS[model].parameters, random.Random(seed), -0.5, 0.5)


def _adam_step(params, gradient, state, step):
    """Apply one step of Adam (beta1 0.9, beta2 0.999) to params, with the
    gradient's norm clipped to TRAIN_CLIP; state is (m, v), updated in place."""
    norm = math.sqrt(math.fsum(g * g for g in gradient))
    scale = min(1.0, TRAIN_CLIP / norm) if norm else 1.0
    m, v = state
    correction = math.sqrt(1 - 0.999 ** step) / (1 - 0.9 ** step)
    for k, g in enumerate(gradient):
        g *= scale
        m[k] = 0.9 * m[k] + 0.1 * g
        v[k] = 0.999 * v[k] + 0.001 * g * g
        params[k] -= TRAIN_RATE * correction * m[k] / (math.sqrt(v[k]) + 1e-8)


def _train_steps(model, params, moments, examples, first):
    """Train params in place on examples, steps first + 1, first + 2, ... of the run."""
    loss_of = TRAIN_MODELS[model].loss
    for step, (pairs, target) in enumerate(examples, start=first + 1):
        _adam_step(params, loss_of(params, pairs, target)[1], moments, step)


def _held_out(length):
    """Return the TRAIN_TEST held-out examples for `length`."""
    return adding_problem(length, TRAIN_TEST, seed=TRAIN_SEED + 1_000_000 + length)


def held_out_mse(model, params, length):
    """Return the model's mean squared error on TRAIN_TEST held-out examples."""
    loss_of = TRAIN_MODELS[model].loss
    return math.fsum(loss_of(params, pairs, target, gradient=False)[0]
                     for pairs, target in _held_out(length)) / TRAIN_TEST


def held_out_constant(length):
    """Return the held-out MSE of always answering 1 (its expectation: BASELINE_MSE)."""
    return math.fsum((target - 1) ** 2 for _, target in _held_out(length)) / TRAIN_TEST


def train_models(lengths=TRAIN_LENGTHS, steps=TRAIN_STEPS, seeds=TRAIN_SEEDS, progress=None):
    """Return the held-out MSE of each model trained at each length from each seed;
    after each chunk of examples, call progress(share of the work done, length)."""
    rows, done, total = [], 0, steps * sum(lengths)
    for length in lengths:
        runs = [(model, seed, initial_parameters(model, seed)) for seed in range(1, seeds + 1)
                for model in TRAIN_MODELS]
        moments = [([0.0] * len(p), [0.0] * len(p)) for _, _, p in runs]
        for first in range(0, steps, TRAIN_CHUNK):
            examples = [_training_example(length, k)
                        for k in range(first, min(steps, first + TRAIN_CHUNK))]
            for (model, _, params), state in zip(runs, moments):
                _train_steps(model, params, state, examples, first)
            done += len(examples) * length
            if progress is not None:
                progress(done / total, length)
        rows += [{"model": model, "length": length, "seed": seed,
                  "test_mse": held_out_mse(model, params, length)}
                 for model, seed, params in runs]
    return rows


def train_section(lengths=TRAIN_LENGTHS, steps=TRAIN_STEPS, seeds=TRAIN_SEEDS, progress=None):
    """Return train_models' rows, the constant's score, the verdicts and the wall time;
    refuse a run past MAX_TRAIN_WORK (_train_work_error). progress, if given, is
    called as train_models calls it."""
    lengths = _require_sizes("train_section", "length", lengths, low=2, high=MAX_TRAIN_LENGTH)
    steps = _require_size("train_section", "steps", steps, high=MAX_TRAIN_WORK)
    seeds = _require_size("train_section", "seeds", seeds, high=MAX_TRAIN_SEEDS)
    too_long = _train_work_error(lengths, steps, seeds)
    if too_long:
        raise ValueError(f"train_section requires {too_long}")
    began = time.perf_counter()
    rows = train_models(lengths, steps, seeds, progress)
    constant = [{"length": t, "test_mse": held_out_constant(t)} for t in lengths]
    verdicts = train_verdicts({"rows": rows, "constant": constant})
    return {"baseline": BASELINE_MSE, "steps": steps, "seeds": seeds,
            "widths": {"tanh_rnn": RNN_WIDTH, "mingru": MINGRU_WIDTH},
            "test_examples": TRAIN_TEST, "rows": rows, "constant": constant,
            "verdicts": [{"model": m, "length": t, "verdict": v}
                         for (m, t), v in verdicts.items()],
            "wall_s": time.perf_counter() - began}


def _train_work(lengths, steps, seeds):
    """Return a run's work, as MAX_TRAIN_WORK caps it: steps x seeds x the sum of the
    lengths."""
    return steps * seeds * sum(lengths)


def _train_work_error(lengths, steps, seeds):
    """Return what is wrong with a run longer than MAX_TRAIN_WORK, or None."""
    work = _train_work(lengths, steps, seeds)
    if work > MAX_TRAIN_WORK:
        return (f"steps x seeds x the sum of the lengths up to {MAX_TRAIN_WORK:,} (about "
                f"6 minutes here), got {work:,}")
    return None


def _train_options_error(opts):
    """Return what is wrong with --steps, --seeds and --lengths together, in the words
    of their --help, or None."""
    steps, seeds = opts.steps or TRAIN_STEPS, opts.seeds or TRAIN_SEEDS
    lengths = opts.lengths or TRAIN_LENGTHS
    work = _train_work(lengths, steps, seeds)
    if work <= MAX_TRAIN_WORK:
        return None
    return (f"arguments --steps, --seeds and --lengths: steps x seeds x the sum of the "
            f"lengths at most {MAX_TRAIN_WORK:_}, got {work:_} (--steps at most "
            f"{max(1, MAX_TRAIN_WORK // (seeds * sum(lengths))):_} with these seeds and lengths)")


MODEL_NAMES = {"tanh_rnn": "tanh RNN", "mingru": "minGRU", "attention": "one attention read"}
LEARNED, PART, NOTHING, VARIES = "learned", "learned some", "learned nothing", "varied"
LEARNED_SHARE, NOTHING_SHARE = 0.1, 0.9     # of answering 1's held-out MSE
# each verdict in words, as the table's note and `terms` say it
TRAIN_VERDICT_WORDS = {
    LEARNED: "each MSE at most 0.1 of answering 1's",
    PART: "each MSE under 0.9 of answering 1's, not all at most 0.1",
    NOTHING: "each MSE at least 0.9 of answering 1's",
    VARIES: "some MSEs at least 0.9 of answering 1's, some under",
}


def _learned(mse, constant):
    """Return what one run's held-out MSE shows, against the held-out constant's:
    learned (LEARNED_SHARE of its error or less), nothing (NOTHING_SHARE of it or
    more), or some."""
    if mse <= LEARNED_SHARE * constant:
        return LEARNED
    return NOTHING if mse >= NOTHING_SHARE * constant else PART


def _mse(x):
    """An MSE to two significant digits: what a rerun from another initialization supports.

    >>> [_mse(x) for x in (0.16666, 0.0511, 9.53e-05)]
    ['0.17', '0.051', '9.5e-05']
    """
    return f"{x:#.2g}" if x >= 1e-4 else f"{x:.1e}"


def train_verdicts(result):
    """Return {(model, T): verdict}: learned, or learned nothing, where every
    initialization did; else learned some where none learned nothing; else varied."""
    constant = {c["length"]: c["test_mse"] for c in result["constant"]}
    found = {}
    for r in result["rows"]:
        found.setdefault((r["model"], r["length"]), set()).add(
            _learned(r["test_mse"], constant[r["length"]]))
    return {key: seen.pop() if len(seen) == 1 else PART if NOTHING not in seen else VARIES
            for key, seen in found.items()}


def train_headline(result):
    """Return each model's verdict at the longest T."""
    longest = result["constant"][-1]["length"]
    said = []
    for v in result["verdicts"]:
        name = MODEL_NAMES[v["model"]]
        if v["length"] == longest and name.startswith("one"):
            said.append(f"{name} {v['verdict']}")
        elif v["length"] == longest:
            said.append(f"the {name} {v['verdict']}")
    return f"at T = {longest:,}, {_readable_list(said)}"


def render_train(result):
    """Return the training table: for each model and T, answering 1's held-out MSE,
    the best and the worst initialization's, and the verdict they give."""
    widths, constant = result["widths"], {c["length"]: c["test_mse"] for c in result["constant"]}
    verdicts = {(v["model"], v["length"]): v["verdict"] for v in result["verdicts"]}
    body = []
    for m, name in MODEL_NAMES.items():
        if m in widths:
            name += f", width {widths[m]}"
        for k, t in enumerate(constant):
            runs = [r["test_mse"] for r in result["rows"] if r["model"] == m and r["length"] == t]
            body.append((name if k == 0 else "", f"{t:,}", _mse(constant[t]), _mse(min(runs)),
                         _mse(max(runs)), verdicts[m, t]))
    table = _table(("model", "T", "answering 1", "best init", "worst init", "verdict"), body,
                   left=1)
    headline = train_headline(result)
    opening = headline[0].upper() + headline[1:] + "." + gate_reading(verdicts, max(constant))
    if short_run(result):
        opening += f" This run had {short_run(result)}."
    # answering 1, first printed in the table's header: said before it, as measured
    measured = _span(_mse(min(constant.values())), _mse(max(constant.values())))
    return "\n".join([
        "=== problem 2, in training: three models on the adding problem ===",
        *_wrap("The adding problem tests the lesson's second problem, gradients fading over "
               "distance. Its T inputs are values uniform in [0, 1), two of them marked; the "
               "target is their sum. The minGRU is a gated RNN with no tanh on its state; one "
               "attention read is one query over the T inputs."),
        *_wrap(opening),
        *_wrap(f"Always answering 1, the mean, has expected MSE 1/6, measured {measured}; each "
               f"MSE is on {result['test_examples']} held-out examples. Verdicts read "
               + ("the one initialization:" if result["seeds"] == 1 else
                  f"all {result['seeds']} initializations:")),
        *(line for verdict, words in TRAIN_VERDICT_WORDS.items()
          for line in _wrap(f"{verdict.capitalize()}: {words}.")),
        table,
        *_wrap((f"All runs took {format_seconds(result['wall_s'])}, with Adam."
                if short_run(result) else f"{result['steps']:,} steps of Adam per run, all in "
                f"{format_seconds(result['wall_s'])}.")),
    ])


# the verdicts from best to worst, to compare two models by
VERDICT_RANK = {LEARNED: 3, PART: 2, VARIES: 1, NOTHING: 0}


def gate_reading(verdicts, t):
    """Return, where the minGRU's verdict at T = t beats the tanh RNN's, that its gate
    (no tanh on the state) kept what fades through tanh; else ""."""
    if VERDICT_RANK[verdicts["mingru", t]] > VERDICT_RANK[verdicts["tanh_rnn", t]]:
        return (" Like an LSTM's cell, the minGRU's state passes no tanh from step to step: "
                "only its gate fades the gradient (see gradient).")
    return ""


def short_run(result):
    """Return a warning where the run had fewer steps than TRAIN_STEPS, or ""."""
    if result["steps"] >= TRAIN_STEPS:
        return ""
    return f"{result['steps']:,} steps, not {TRAIN_STEPS:,}: too few to judge a model"


def figure_train(result):
    """Return held-out MSE against T: each model's median over its initializations,
    and the held-out constant's score."""
    import statistics                   # imported here: only this figure needs it
    rows, floor = result["rows"], 1e-5
    fig = Figure("Held-out MSE on the adding problem, against the sequence length T",
                 f"{result['steps']:,} steps, median of "
                 f"{_quantity(result['seeds'], 'initialization')}; "
                 f"below {floor:g} drawn at {floor:g}")
    if short_run(result):
        fig.text(FIGURE_WIDTH / 2, 56, short_run(result), size=11, anchor="middle",
                 color="#D55E00")
    lengths = [c["length"] for c in result["constant"]]
    series = [(MODEL_NAMES[m], [(t, max(statistics.median(
        r["test_mse"] for r in rows if r["model"] == m and r["length"] == t), floor))
        for t in lengths]) for m in MODEL_NAMES]
    series.append(("always answering 1", [(c["length"], c["test_mse"])
                                          for c in result["constant"]]))
    x_axis = _axis_for("sequence length T (log)", lengths, log=True, at_data=True)
    y_axis = _axis_for("held-out MSE (log): lower is better", [floor, 0.5], log=True)
    _chart(fig, CHART_BOX, series, x_axis, y_axis)
    # the verdicts' line: at or below it, a run learned
    left, top, width, height = CHART_BOX
    line = [(_position(c["length"], x_axis, left, width),
             _position(LEARNED_SHARE * c["test_mse"], y_axis, top + height, -height))
            for c in result["constant"]]
    if len(line) == 1:                  # one T: a short stroke across it
        line = [(line[0][0] - 20, line[0][1]), (line[0][0] + 20, line[0][1])]
    fig.polyline(line, "#777", "3,3")
    x, y = line[-1]
    fig.text(x + 8, y + 4, "learned: at most a tenth of answering 1's", size=10, color="#555")
    return fig.svg()


LENGTHS = Option("--lengths", "T,T,...", 2, MAX_TRAIN_LENGTH, True, (
    f"sequence lengths T to train on (each 2 to {MAX_TRAIN_LENGTH}; default "
    f"{','.join(map(str, TRAIN_LENGTHS))})"))
STEPS = Option("--steps", "K", 1, MAX_TRAIN_WORK // 2, False, (    # one seed, one T of 2
    f"training steps per run (1 to {MAX_TRAIN_WORK // 2:_}; default {TRAIN_STEPS:_}); steps x "
    f"seeds x the sum of the lengths at most {MAX_TRAIN_WORK:_}, so "
    f"{MAX_TRAIN_WORK // (TRAIN_SEEDS * sum(TRAIN_LENGTHS)):_} with the default lengths and "
    "seeds"))
SEEDS = Option("--seeds", "S", 1, MAX_TRAIN_SEEDS, False, (
    f"initializations of each model, seeded 1 to S (1 to {MAX_TRAIN_SEEDS}; default "
    f"{TRAIN_SEEDS})"))

def _training_progress(share, length):
    """Show on a terminal's stderr how much of the training is done, on one line that
    the next report overwrites, and clear it at the end."""
    line = f"training: {share:.0%} done (T = {length:,})"
    sys.stderr.write("\r" + (line if share < 1 else " " * len(line) + "\r"))
    sys.stderr.flush()


SECTIONS["train"] = Section(
    summary="problem 2, in training: three models on the adding problem",
    compute=lambda o: train_section(
        o.lengths or TRAIN_LENGTHS, o.steps or TRAIN_STEPS, o.seeds or TRAIN_SEEDS,
        _training_progress if sys.stderr is not None and sys.stderr.isatty() else None),
    render=render_train, figure=figure_train, options=(LENGTHS, STEPS, SEEDS),
    refuse=_train_options_error)


# ============================================================================
# Machinery: limits and inputs
# ============================================================================

def _require_counts(func, **counts):
    """Raise ValueError unless every count is an int >= 0 (a size in bytes, say)."""
    for name, n in counts.items():
        _require_size(func, name, n, low=0, high=math.inf)


def _ceil_div(n, k):
    """Return ceil(n / k) for ints, exactly."""
    return -(-n // k)


# ============================================================================
# Machinery: formatting
# ============================================================================

BYTE_UNITS = ((" TiB", 2**40), (" GiB", 2**30), (" MiB", 2**20), (" KiB", 2**10))
COUNT_UNITS = {15: "P", 12: "T", 9: "G", 6: "M", 3: "K"}       # by power of ten


def format_bytes(size):
    """Return a byte count in binary units with three significant digits.

    >>> format_bytes(1_000 * 2**20)          # 1,000 MiB is 0.977 GiB
    '0.977 GiB'
    """
    larger = None
    for suffix, scale in BYTE_UNITS:
        text = _three_digits(size / scale)      # exact: a power of two divides
        if float(text) >= 1 and larger and float(text) >= 1000:
            return larger                       # 0.977 GiB, never 1000 MiB
        if float(text) >= 1:
            return text + suffix
        larger = text + suffix
    return f"{size} B"


def _three_digits(x):
    """Return x >= 0 with three significant digits: 0.977, 9.99, 12.3, 999."""
    for decimals, below in ((3, 0.9995), (2, 9.995), (1, 99.95)):
        if x < below:
            return f"{x:.{decimals}f}"
    return f"{x:.0f}"


def _format_count(x):
    """Return a large count with an SI prefix and three significant digits: 134M, 2.15G."""
    return _significant(x, COUNT_UNITS) or str(x)


# ============================================================================
# Machinery: figures, as SVG text
# ============================================================================
#
# One small plotting layer: a Figure collects SVG elements; _chart draws series
# on axes (linear or log) with ticks, lines, circles and a legend. Colours are
# the Okabe-Ito palette, which colour-blind readers can tell apart, and each
# series has its own dash too. Numbers are written with one decimal, so that the
# same results give the same bytes.

FIGURE_WIDTH, FIGURE_HEIGHT = 640, 400
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7")       # four series at most
DASHES = ("", "7,3", "2,3", "9,3,2,3")
MARKERS = ("circle", "square", "triangle", "diamond")       # a series told apart in grey too
SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _coord(x):
    """A coordinate, written the same way every time."""
    return f"{x:.1f}"


class Figure:
    """An SVG drawing of FIGURE_WIDTH x FIGURE_HEIGHT (a viewBox, so it scales),
    elements in the order they are added; svg() returns the document."""

    def __init__(self, title, subtitle="", height=FIGURE_HEIGHT):
        self.title, self.height, self.parts = title, height, []
        self.text(FIGURE_WIDTH / 2, 22, title, size=15, anchor="middle", weight="bold")
        if subtitle:
            self.text(FIGURE_WIDTH / 2, 40, subtitle, size=11, anchor="middle", color="#444")

    def text(self, x, y, text, size=11, anchor="start", weight="normal", color="#000",
             rotate=None):
        turn = f' transform="rotate({rotate} {_coord(x)} {_coord(y)})"' if rotate else ""
        self.parts.append(f'<text x="{_coord(x)}" y="{_coord(y)}" font-size="{size}" '
                          f'text-anchor="{anchor}" font-weight="{weight}" fill="{color}"{turn}>'
                          f'{html.escape(str(text))}</text>')

    def line(self, x1, y1, x2, y2, color="#000", width=1.0, dash=""):
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        self.parts.append(f'<line x1="{_coord(x1)}" y1="{_coord(y1)}" x2="{_coord(x2)}" '
                          f'y2="{_coord(y2)}" stroke="{color}" stroke-width="{width}"{dashes}/>')

    def polyline(self, points, color, dash=""):
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        path = " ".join(f"{_coord(x)},{_coord(y)}" for x, y in points)
        self.parts.append(f'<polyline points="{path}" fill="none" stroke="{color}" '
                          f'stroke-width="1.8"{dashes}/>')

    def dot(self, x, y, color, size=3.5, group="marker", shape="circle"):
        """A mark, outlined: a point of a series, or its mark in the legend; a circle,
        square, triangle or diamond."""
        outline = f'fill="{color}" stroke="#000" stroke-width="0.8" class="{group}"'
        if shape == "circle":
            self.parts.append(f'<circle cx="{_coord(x)}" cy="{_coord(y)}" r="{_coord(size)}" '
                              f'{outline}/>')
            return
        corners = {"square": ((-1, -1), (1, -1), (1, 1), (-1, 1)),
                   "triangle": ((0, -1.15), (1.3, 1.15), (-1.3, 1.15)),
                   "diamond": ((0, -1.35), (1.35, 0), (0, 1.35), (-1.35, 0))}[shape]
        path = " ".join(f"{_coord(x + size * dx)},{_coord(y + size * dy)}" for dx, dy in corners)
        self.parts.append(f'<polygon points="{path}" {outline}/>')

    def node(self, x, y, label, group, color="#fff"):
        """A labelled circle of a dependency graph."""
        wide = len(label) > 2                   # h10, x16: a larger circle, smaller type
        self.parts.append(f'<circle cx="{_coord(x)}" cy="{_coord(y)}" r="{11 if wide else 9}" '
                          f'fill="{color}" stroke="#000" class="{group}"/>')
        if label:
            self.text(x, y + 3, label, size=7 if wide else 8, anchor="middle")

    def svg(self):
        return "\n".join([
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{FIGURE_WIDTH}" '
            f'height="{self.height}" viewBox="0 0 {FIGURE_WIDTH} {self.height}" '
            'font-family="sans-serif">',
            f"<title>{html.escape(self.title)}</title>",
            f'<rect x="0" y="0" width="{FIGURE_WIDTH}" height="{self.height}" fill="#fff"/>',
            *self.parts, "</svg>", ""])


Axis = collections.namedtuple("Axis", "label log low high ticks seconds")


def _axis_for(label, values, log=False, at_data=False, seconds=False):
    """Return an Axis over the values, padded by one rule: a log axis out to the
    decades around them, ticked at those decades (at most about 8), a linear one
    by a twentieth of their span each way, ticked at round steps; with at_data,
    ticked at the values themselves."""
    lo, hi = min(values), max(values)
    if log:
        first = math.floor(math.log10(lo) - 0.05)
        last = math.ceil(math.log10(hi) + 0.05)
        every = math.ceil((last - first + 1) / 8)
        ticks = [10.0 ** k for k in range(first, last + 1) if k % every == 0]
        lo, hi = 10.0 ** first, 10.0 ** last
    else:
        pad = (hi - lo) / 20 or 1.0
        lo, hi = lo - pad, hi + pad
        raw = (hi - lo) / 5
        step = min((m * 10 ** math.floor(math.log10(raw)) for m in (1, 2, 5, 10)),
                   key=lambda s: abs(s - raw))
        ticks = [k * step for k in range(math.ceil(lo / step), math.floor(hi / step) + 1)]
    if at_data:
        ticks = sorted(set(values))
    return Axis(label, log, lo, hi, ticks, seconds)


def _tick_label(value, seconds=False):
    """Return a tick's label: a time, a plain number from 0.01 to a million, else a
    power of ten (10⁻⁴)."""
    if seconds:
        return format_seconds(value).replace(".00", "").replace(".0 ", " ")
    if value == 0 or 0.01 <= abs(value) < 1e6:
        return f"{value:,.2f}".rstrip("0").rstrip(".")
    return "10" + str(round(math.log10(abs(value)))).translate(SUPERSCRIPTS)


def _position(value, axis, start, length):
    """Return where value falls along an axis drawn from start over length."""
    if axis.log:
        share = math.log(value / axis.low) / math.log(axis.high / axis.low)
    else:
        share = (value - axis.low) / (axis.high - axis.low)
    return start + share * length


def _chart(fig, box, series, x_axis, y_axis, points_only=(), legend=True):
    """Draw series, each (label, [(x, y), ...]), in box (left, top, width, height) against
    the axes, those named in points_only without a line; each with its colour, dashes
    and marker, named in a legend to the right (or, without legend, by the caller)."""
    left, top, width, height = box
    for value in x_axis.ticks:
        x = _position(value, x_axis, left, width)
        fig.line(x, top + height, x, top + height + 4)
        fig.line(x, top, x, top + height, color="#ddd", width=0.6)
        fig.text(x, top + height + 16, _tick_label(value, x_axis.seconds), size=10,
                 anchor="middle")
    for value in y_axis.ticks:
        y = _position(value, y_axis, top + height, -height)
        fig.line(left - 4, y, left, y)
        fig.line(left, y, left + width, y, color="#ddd", width=0.6)
        fig.text(left - 7, y + 3.5, _tick_label(value, y_axis.seconds), size=10, anchor="end")
    fig.line(left, top + height, left + width, top + height)
    fig.line(left, top, left, top + height)
    fig.text(left + width / 2, top + height + 34, x_axis.label, size=11, anchor="middle")
    fig.text(left - 48, top + height / 2, y_axis.label, size=11, anchor="middle", rotate=-90)
    for k, (label, points) in enumerate(series):
        shown = [(_position(x, x_axis, left, width), _position(y, y_axis, top + height, -height))
                 for x, y in points]
        drawn = len(shown) > 1 and label not in points_only     # a line, not circles alone
        if drawn:
            fig.polyline(shown, PALETTE[k], DASHES[k])
        for x, y in shown:
            fig.dot(x, y, PALETTE[k], shape=MARKERS[k])
        ly = top + 8 + 15 * k
        if not legend:
            continue
        if drawn:
            fig.line(left + width + 10, ly, left + width + 34, ly, color=PALETTE[k], width=1.8,
                     dash=DASHES[k])
        fig.dot(left + width + 22, ly, PALETTE[k], group="legend", shape=MARKERS[k])
        fig.text(left + width + 40, ly + 4, label, size=10)


CHART_BOX = (72, 58, 350, 272)  # left, top, width, height; the legend goes to the right
MEASURED = "measured on one machine: times differ from machine to machine"


# ============================================================================
# Machinery: check, a learner's own solutions graded
# ============================================================================
#
# `python main.py check FILE.py` grades each function of FILE.py in a fresh
# Python of its own, where the file runs as `python FILE` runs it. Four steps,
# in this order: the cases (inputs whose answers are known, the small ones
# first, each with the answers of the classic slips there); the grading process
# (the learner's code runs there, and only plain data comes back, as lines of
# JSON); the judging (each answer against the expected one, then the slips that
# explain every answer); the report. The answers, the deadlines and the verdicts
# stay in this process. On POSIX the grading process also gets a group of its
# own, a keeper that ends the group once check is gone, and limits on its
# memory and on what it writes; elsewhere it ends itself when check's pipe closes.

CHECK_SECONDS = 10              # the time limit of each call, and of the import
CHECK_MIN_SECONDS = 0.5         # below it, a right file's calls may not fit on a busy machine
CHECK_MAX_SECONDS = 600
CHECK_BUDGET = 3                # a function's calls take at most this many times --seconds
CHECK_START = 5                 # seconds for a fresh Python and main.py to start, when busy
CHECK_MEMORY = 1 << 30          # the grading process's heap (RLIMIT_DATA: threads fit)
CHECK_WRITES = 1 << 26          # the most it may print, or write to one file
CHECK_SENT = 1 << 22            # the most items of an answer sent back
CHECK_NESTED = 20               # the most lists within lists of an answer sent back
CHECK_SMALL = (1, 2, 3, 5, 8)   # lengths where the slips are told apart
CHECK_LARGE = (1_023, 1_024, 1_025)
CHECK_DEPTH_LENGTHS = (*range(1, 71), 1_025, 2_049)     # where parallel_scan's depth is counted
MIRROR_N = 16                   # the mirror: each output's depth at this length

# What a learner writes: each function's parameters, and what the template says of
# it; the two exercises first, then the lesson's own four, optional practice.
CHECK_TASKS = {
    "rnn_style_vector": ("xs, width=64, decay=0.9", "Exercise (Easy): the last h of "
                         "h = A.h + b*x, from h = [0.0] * width, with the weights of "
                         "hidden_weights(width, decay): A, width rows of width floats, and b, "
                         "width floats."),
    "parallel_scan": ("xs, op=operator.add", "Exercise (Medium): serial_scan's list, in "
                      "rounds of side-by-side combines, about log2 N of them (Hillis-Steele, "
                      "say)."),
    "rnn_style": ("xs, decay=0.9", "Optional practice: the last h of h = decay*h + x over xs, "
                  "from h = 0."),
    "attention_style": ("xs", "Optional practice: the mean of xs (at least one value)."),
    "depth": ("n", "Optional practice: (n, ceil(log2 n), at least 1), a chain's and a tree's "
              "depth."),
    "serial_scan": ("xs, op=operator.add", "Optional practice: the list [xs[0], op(xs[0], "
                    "xs[1]), ...], leaving xs as it is."),
}
CHECKED = tuple(CHECK_TASKS)


def _docstring(text):
    """Return text as a function's docstring, indented, within 79 columns."""
    lines = textwrap.wrap(text, 69)
    if len(lines) == 1:
        return f'    """{text}"""\n'
    return '    """' + "\n    ".join(lines) + '\n    """\n'

CHECK_TEMPLATE = '''"""My solutions to the exercises of the lesson
"Why Transformers - The Problems with RNNs".

Save this file beside main.py and check it with:
    python main.py check THIS_FILE.py
The two exercises come first; the lesson's own four functions after them are
optional practice. Each raises NotImplementedError until you write it: those
left so share one line of the report. Delete one to leave it out.
"""
import operator

from main import hidden_weights     # rnn_style_vector's weights
''' + "".join(f"\n\ndef {name}({parameters}):\n{_docstring(says)}    raise NotImplementedError\n"
              for name, (parameters, says) in CHECK_TASKS.items())


def compose_maps(f, g):
    """Return the affine map f, then g: each a pair (a, b), h -> a*h + b mod 1,000,003."""
    return f[0] * g[0] % 1_000_003, (g[0] * f[1] + g[1]) % 1_000_003


# Each kind of input: its words, the op's name, and how it is built, with
# rng = random.Random(N). Small ints and letters show most slips at a glance;
# ints past 2**53 show a conversion to float; affine maps, an ignored op.
CHECK_INPUTS = {
    "ints": ("small ints", "add", "[rng.randrange(1, 10) for _ in range(N)]"),
    "big ints": ("ints past 2**53", "add", "[2**53 + rng.randrange(1, 10) for _ in range(N)]"),
    "huge ints": ("ints past 2**62, whose totals overflow 64 bits", "add",
                  "[rng.randrange(-2**62, 2**62) for _ in range(N)]"),
    "letters": ("letters", "add",
                "[chr(97 + i % 26) for i in range(N)]"),
    "maps": ("affine maps", "compose",
             "[(rng.randrange(2, 6), rng.randrange(1, 6)) for _ in range(N)]"),
    "floats": ("random floats", "add", "[rng.uniform(-1, 1) for _ in range(N)]"),
}
def _plus(a, b):
    """a + b, by a function that is not operator.add: a scan counted with it runs as
    it runs for any op, not by a path kept for operator.add."""
    return a + b


CHECK_OPS = {"add": operator.add, "compose": compose_maps, "plus": _plus}

# The classic slips, each in the learner's terms; check names one (or two
# together) only where its answers are the function's at every small case.
CHECK_SLIPS = {
    "decay ignored": "this is the answer for decay = 0.9: use the decay you are given",
    "no decay": "h += x leaves the decay out: h = decay * h + x",
    "decay inside": "decay * (h + x) where decay * h + x belongs: only h decays",
    "decay on x": "h + decay * x where decay * h + x belongs: the decay scales h",
    "first twice": "the first x is counted twice: start from h = 0, then step over every x",
    "tanh": ("this is tanh of the step: the recurrence here is linear, with no tanh (main.py's "
             "rnn_tanh is the one with it)"),
    "sum": "this is the sum: the mean divides it by len(xs)",
    "n - 1": "this divides by len(xs) - 1: the mean divides by len(xs)",
    "floor division": "// rounds down to a whole number: the mean divides with /",
    "at least 1": ("one value still takes depth 1 here: the lesson's depth is "
                   "ceil(log2 n), but at least 1"),
    "chain n - 1": "the chain of n steps is n deep: its depth is n, not n - 1",
    "floor": "this is floor(log2 n), rounded down; the depth is ceil(log2 n)",
    "float log": "math.log(n, 2) is a float that rounds: (n - 1).bit_length() is exact",
    "float log2": ("a float's log2 rounds for large n (math.log2, math.frexp): "
                   "(n - 1).bit_length() is exact at every n"),
    "numpy log2": ("numpy's log2 is a float's log2, which rounds for large n, and it takes no "
                   "int past 2**64 - 1: (n - 1).bit_length() is exact at every n"),
    "natural log": "math.log(n) is the natural log, base e: the depth is log2 n, rounded up",
    "log10": "math.log10(n) is base 10: the depth is log2 n, rounded up",
    "bit_length": "n.bit_length() is one too many at powers of two: use (n - 1).bit_length()",
    "swapped": "op's operands are swapped: the earlier values go left, op(earlier, later)",
    "plus": "these are the totals of +: combine with op, which here is not +",
    "exclusive": "your first total is 0: this is the exclusive scan; out[i] includes xs[i]",
    "from 0": ("your total starts from 0, which op cannot take (0 + 'a' fails; 0.0 also turns "
               "ints into floats): start the total from xs[0]; a scan built on an identity, "
               "Blelloch's, needs one op takes"),
    "padded 0": ("it pads xs with 0, which op cannot take: pad with values op takes, or let "
                 "each loop stop at len(xs)"),
    "identity 0": ("it uses 0 as op's identity (to pad, to seed a sweep, or before xs[0] in a "
                   "round), and op cannot take 0 (0 + 'a' fails; 0.0 also turns ints into "
                   "floats): use None and skip it, or let each loop stop at len(xs)"),
    "first missing": "the first total is missing: out[0] is xs[0] itself",
    "last missing": "one total short: out has a total for each of the len(xs) values",
    "floats": "the values are turned into floats, which round ints past 2**53: keep them",
    "step 2": "your first round combines with the value 2 back: step starts at 1",
    "step + 1": "step grows by 1: it doubles each round (step *= 2)",
    "round short": "one round short: go on while step < len(xs)",
    "half rounds": "a round or two short: go on while step < len(xs), not len(xs) // 2",
    "floor rounds": ("one round short where N is not a power of two: the rounds run while "
                     "step < len(xs), which is ceil(log2 N) rounds"),
    "late start": "each round starts one place late: range(step, len(out))",
    "early end": "each round stops one place early: range(step, len(out))",
    "in place": ("a round updated its list in place, so later combines read this round's "
                 "values: build each round in a new list"),
    "shared row": "every unit used the same row of A: unit i reads row A[i]",
    "transposed": "A is transposed: unit i sums A[i][j] * h[j] over j",
    "in place, vector": ("h was updated in place, so later units read this step's values: "
                         "build the new h in a new list"),
    "b left out": "x is added to every unit where b*x belongs: unit i adds b[i] * x",
    "decay twice": ("the decay is applied twice: A = hidden_weights(width, decay)[0] holds it "
                    "already, so h = A.h + b*x, with no decay of its own"),
    "rounded": "your answers are rounded to {places} decimals: return the value itself",
    "float32": ("your answers are float32, numpy's single precision, good to about 7 digits: "
                "keep float64, numpy's default, or Python's floats"),
    "overflow": ("your totals overflow 64 bits, first at out[{at}]: past 2**63 - 1 they wrap "
                 "round, as numpy's int64 does; keep Python's ints, which never overflow"),
    "empty only": "wrong only for the empty list",
    "defaults": ("wrong only where called with its defaults: give them as the template does "
                 "(decay=0.9, op=operator.add, width=64)"),
    "long only": ("wrong only on the long inputs, a thousand values or more: is a number of "
                  "rounds, or a size, fixed where it should grow with len(xs)?"),
    "powers of two": ("wrong only where N is not a power of two: pad to one (and cut the "
                      "padding off), or stop each loop at len(xs)"),
}


def _hillis_steele(xs, op, step=1, rounds=None, in_place=0, start=0, end=0, grow=2):
    """Return Hillis-Steele's scan as a learner may get it wrong: the first round
    `step` places back, at most `rounds` rounds, each from `start` past step to
    `end` before the end, in place from round `in_place` on (0: never), step
    multiplied by `grow` (0: plus 1)."""
    out, done = list(xs), 0
    while step < len(out) and (rounds is None or done < rounds):
        new = out if in_place and done + 1 >= in_place else list(out)
        for i in range(step + start, len(out) - end):
            new[i] = op(out[i - step], out[i])
        out, done = new, done + 1
        step = step * grow if grow else step + 1
    return out


def _from_zero(xs, op, exclusive=False, total=0):
    """Return the scan of a total started from 0 (or `total`), inclusive or exclusive."""
    out = []
    for x in xs:
        if exclusive:
            out.append(total)
        total = op(total, x)
        if not exclusive:
            out.append(total)
    return out


def _padded(xs, op):
    """Return the scan of xs padded with 0 to a power of two: 0 meets op where N is not one."""
    if len(xs) & (len(xs) - 1):
        op(xs[0], 0)
    return serial_scan(xs, op)


def _scan_slips(name, xs, op):
    """Return {slips: the answer they give} of a scan on xs, each answer a function."""
    ops = {(): op, ("swapped",): lambda a, b: op(b, a), ("plus",): operator.add,
           ("plus", "swapped"): lambda a, b: b + a}
    n = len(xs)
    shapes = {(): serial_scan, ("exclusive",): functools.partial(_from_zero, exclusive=True),
              ("from 0",): _from_zero, ("from 0, 0.0",): functools.partial(_from_zero, total=0.0),
              ("first missing",): lambda v, f: serial_scan(v, f)[1:],
              # an exclusive scan shifted right: 0, then every total but the last
              ("exclusive, shifted",): lambda v, f: [0] + serial_scan(v, f)[:-1],
              ("last missing",): lambda v, f: serial_scan(v, f)[:-1],
              # range(1, len(xs) - 1) after out = [xs[0]]: one value keeps its total
              ("last missing, after the first",):
                  lambda v, f: serial_scan(v, f)[:max(1, len(v) - 1)],
              ("floats",): lambda v, f: serial_scan([float(x) for x in v], f)}
    if name == "parallel_scan":
        for slip, how in {"step 2": {"step": 2}, "step + 1": {"grow": 0},
                          "round short": {"rounds": (n - 1).bit_length() - 1},
                          "round short, n - 1": {"rounds": max(0, n - 2).bit_length()},
                          "half rounds": {"rounds": max(0, n // 2 - 1).bit_length()},
                          "floor rounds": {"rounds": n.bit_length() - 1},
                          "in place": {"in_place": 1}, "in place, 2": {"in_place": 2},
                          "late start": {"start": 1},
                          "early end": {"end": 1}}.items():
            shapes[(slip,)] = functools.partial(_hillis_steele, **how)
        shapes[("padded 0",)] = _padded
    # in a parallel scan, a total from 0 is 0 taken as op's identity (Blelloch's, say)
    named = {"from 0": "identity 0"} if name == "parallel_scan" else {}
    slips = {}
    for a, f in ops.items():
        for b, shape in shapes.items():
            # two ways to one slip: "round short, n - 1" is "round short"
            key = tuple(dict.fromkeys(named.get(slip, slip) for slip in
                                      (slip.split(",")[0] for slip in a + b)))
            if key:
                slips[key] = slips.get(key, ()) + (functools.partial(shape, xs, f),)
    return slips


def _rnn_slips(xs, decay=0.9):
    """Return {slips: the answer they give} of rnn_style on xs: a step written wrong
    (or with a tanh), the first x taken twice, the decay ignored or left out, and each
    two or three of them together."""
    steps = {(): lambda h, x, a: a * h + x, ("decay inside",): lambda h, x, a: a * (h + x),
             ("decay on x",): lambda h, x, a: h + a * x,
             ("tanh",): lambda h, x, a: math.tanh(a * h + x)}
    slips = {}
    for step_slip, step in steps.items():
        for start_slip, start in {(): 0.0, ("first twice",): xs[0]}.items():
            for decay_slip, a in {(): decay, ("decay ignored",): 0.9, ("no decay",): 1}.items():
                slips[step_slip + start_slip + decay_slip] = functools.partial(
                    functools.reduce, lambda h, x, step=step, a=a: step(h, x, a), xs, start)
    del slips[()]
    return slips


def _mean_slips(xs):
    """Return {slips: the answer they give} of attention_style on xs."""
    return {("sum",): lambda: sum(xs),
            ("n - 1",): (lambda: sum(xs) / (len(xs) - 1),
                         lambda: sum(xs) / max(1, len(xs) - 1)),
            ("floor division",): lambda: sum(xs) // len(xs)}


def _numpy_log2(n):
    """Return numpy.log2(n) of an int n as numpy gives it, without numpy: the log2 of
    n as a float, -inf at 0; an n past 64 bits numpy holds as an object, which has
    no log2."""
    if n >= 2**64:
        raise TypeError("loop of ufunc does not support argument 0 of type int which has "
                        "no callable log2 method")
    return math.log2(n) if n else -math.inf


def _depth_slips(n):
    """Return {slips: the answer they give} of depth(n): each wrong rounding of log2 n
    (a float log2 written three ways, numpy's two), with and without the "at least
    1", with the chain n or n - 1 deep. Each tree's depth is a function: numpy's may
    raise."""
    def float_log2(log2):               # ceil(log2 n), and 1 + log2(n - 1) rounded down
        return lambda: math.ceil(log2(n)), lambda: int(log2(n - 1)) + 1 if n > 1 else 0
    bases = {(): (lambda: (n - 1).bit_length(),),
             ("floor",): (lambda: n.bit_length() - 1,),
             ("floor", "float log2"): (lambda: int(math.log2(n)),),
             ("floor", "numpy log2"): (lambda: int(_numpy_log2(n)),),
             ("float log",): (lambda: math.ceil(math.log(n, 2)),),
             ("float log2",): (*float_log2(math.log2), lambda: math.frexp(n - 1)[1]),
             ("numpy log2",): float_log2(_numpy_log2),
             ("natural log",): (lambda: math.ceil(math.log(n)),),
             ("log10",): (lambda: math.ceil(math.log10(n)),),
             ("bit_length",): (lambda: n.bit_length(),)}
    slips = {}
    for base_slip, trees in bases.items():
        for chain_slip, chain in {(): n, ("chain n - 1",): n - 1}.items():
            slips[base_slip + chain_slip] = tuple(
                lambda tree=tree, chain=chain: (chain, max(1, tree())) for tree in trees)
            slips[base_slip + chain_slip + ("at least 1",)] = tuple(
                lambda tree=tree, chain=chain: (chain, tree()) for tree in trees)
    del slips[()]
    return slips


def _vector_slips(xs, width=64, decay=0.9):
    """Return {slips: the answer they give} of rnn_style_vector: one row of A for
    every unit, A transposed, h updated in place, b left out (x added to every unit),
    the decay applied again on top of A's, a tanh on each unit; each with the decay
    ignored or not."""
    def right(A, b, a):
        return _vector_recurrence(xs, A, b)

    def shared_row(A, b, a):
        return _vector_recurrence(xs, [A[0]] * len(A), b)

    def transposed(A, b, a):
        return _vector_recurrence(xs, [list(column) for column in zip(*A)], b)

    def in_place(A, b, a):
        h = [0.0] * len(b)
        for x in xs:
            for i, (row, bi) in enumerate(zip(A, b)):
                h[i] = sum(map(operator.mul, row, h)) + bi * x
        return h

    def b_left_out(A, b, a):
        return _vector_recurrence(xs, A, [1.0] * len(b))

    def decay_twice(A, b, a):           # decay * A.h, where A holds the decay already
        return _vector_recurrence(xs, [[a * v for v in row] for row in A], b)

    def tanh(A, b, a):
        h = [0.0] * len(b)
        for x in xs:
            h = [math.tanh(sum(map(operator.mul, row, h)) + bi * x) for row, bi in zip(A, b)]
        return h
    slips = {}
    for kind, f in {(): right, ("shared row",): shared_row, ("transposed",): transposed,
                    ("in place, vector",): in_place, ("b left out",): b_left_out,
                    ("decay twice",): decay_twice, ("tanh",): tanh}.items():
        for slip, a in {(): decay, ("decay ignored",): 0.9}.items():
            slips[kind + slip] = functools.partial(f, *hidden_weights(width, a), a)
    del slips[()]
    return slips


def _check_input(kind, n):
    """Return the input of `kind` (a key of CHECK_INPUTS) of length n."""
    return eval(CHECK_INPUTS[kind][2], {"rng": random.Random(n), "N": n})


def _case(args, expected, slips=None, kind=None, op=None, defaults=False):
    """Return one case: the arguments, the op's name (None: called without op), the
    input's kind, whether it is empty, whether an optional argument is left to its
    default, the answer expected, and what makes the slips' answers, called only if
    an answer is wrong (None on a large case, or one called with its defaults)."""
    return {"args": args, "op": op, "kind": kind, "expected": expected, "slips": slips,
            "empty": isinstance(args[0], list) and not args[0], "defaults": defaults}


def _check_cases(name, takes_op=True):
    """Yield the cases a function is graded on: the empty input, then small ones
    with the classic slips' answers, then large ones, each made when it is reached
    (grading a wrong answer stops before the large ones)."""
    if name == "depth":
        # powers of two and their neighbours up to 2**64, where a float log2 rounds
        lengths = {1, 3, 5, 9, 1_023, 1_025} | {2 ** k + j for k in range(1, 65)
                                                for j in (-1, 0, 1)}
        for n in sorted(lengths):
            yield _case([n], depth(n), functools.partial(_depth_slips, n))
    elif name == "rnn_style_vector":
        yield from _vector_cases()
    elif name.endswith("_scan"):
        yield from _scan_cases(name, takes_op)
    else:
        yield from _mean_and_rnn_cases(name)


def _mean_and_rnn_cases(name):
    """Yield rnn_style's or attention_style's cases: small ints, then long floats."""
    if name == "rnn_style":
        yield _case([[]], 0.0, kind="ints")
    for n in CHECK_SMALL:
        xs = _check_input("ints", n)
        if name == "rnn_style":
            half = functools.partial(_rnn_slips, xs, 0.5)
            default = functools.partial(_rnn_slips, xs)
            yield _case([xs, 0.5], rnn_style(xs, 0.5), half, "ints")
            # the default call, after the same call with the default given
            yield _case([xs, 0.9], rnn_style(xs), default, "ints")
            yield _case([xs], rnn_style(xs), default, "ints", defaults=True)
        else:
            yield _case([xs], attention_style(xs), functools.partial(_mean_slips, xs), "ints")
    for n in CHECK_LARGE:
        xs = _check_input("floats", n)
        if name == "rnn_style":
            yield _case([xs, 0.5], rnn_style(xs, 0.5), kind="floats")
        else:
            yield _case([xs], attention_style(xs), kind="floats")


def _scan_cases(name, takes_op):
    """Yield a scan's cases: with op, on ints, ints past 2**53, letters and maps, then
    maps and ints whose totals overflow 64 bits, and once without op; without op, on
    ints and floats, as the lesson's own float scan takes them."""
    small, large = ["ints"], ["floats"]
    if takes_op:
        small, large = ["ints", "big ints", "letters", "maps"], ["maps", "huge ints"]
    yield _case([[]], [], kind="ints", op="add" if takes_op else None)
    for n, kinds in [(n, small) for n in CHECK_SMALL] + [(n, large) for n in CHECK_LARGE]:
        if n == CHECK_LARGE[0] and takes_op:        # op left to its default
            xs = _check_input("ints", CHECK_SMALL[-1])
            yield _case([xs], serial_scan(xs), kind="ints", defaults=True)
        for kind in kinds:
            xs, op_name = _check_input(kind, n), CHECK_INPUTS[kind][1]
            op = CHECK_OPS[op_name]
            slips = functools.partial(_scan_slips, name, xs, op) if n in CHECK_SMALL else None
            yield _case([xs], serial_scan(xs, op), slips, kind, op_name if takes_op else None)
    if takes_op:                        # the lesson's own input too: floats, which round
        xs = _check_input("floats", CHECK_LARGE[-1])
        yield _case([xs], serial_scan(xs), kind="floats", op="add")


def _vector_cases():
    """Yield rnn_style_vector's cases: no input, small ints at widths 1 to 4, floats."""
    yield _case([[], 4], [0.0] * 4)
    for args in (([1, 2, 3], 1), ([1, 2, 3], 2), ([1, 0, 0, 1], 3, 0.5), ([2, 1], 4, 0.5)):
        yield _case(list(args), rnn_style_vector(*args), functools.partial(_vector_slips, *args),
                    "ints")
    yield _case([[1, 2], 64, 0.9], rnn_style_vector([1, 2]), kind="ints")
    yield _case([[1, 2]], rnn_style_vector([1, 2]), kind="ints", defaults=True)
    xs = _check_input("floats", 64)
    yield _case([xs, 8], rnn_style_vector(xs, 8), kind="floats")


# ----------------------------------------------------------------------------
# The grading process: the learner's code runs there, and only plain data leaves.

# What crosses between check and a grading process, one JSON object a line each
# way. The judge asks with the requests; the grading process answers (_child_answer),
# and check's runner says "stopped" where no answer came.
CHECK_REQUESTS = {
    "import": "run the file: the first request, once",
    "name": "the function to call",
    "args": "its arguments (for count, [N]; for timed, [])",
    "op": "the op to give it, a key of CHECK_OPS, or None to give none",
    "count": "call it on N values that count their combines (Counted, the cost model's)",
    "timed": "time its update beside main.py's rnn_style_vector",
}
CHECK_ANSWERS = {
    "found": "the import: for each function, here, main.py or missing",
    "takes_op": "the import: for each function, whether it takes op",
    "not_python": "the import: why Python refused the file",
    "got": "a call: what it returned, as plain data (_plain)",
    "changed": "a call: whether it changed its input",
    "lost_op": "a call: whether a recursion called the function without op",
    "right": "a count: whether each out[i] combined inputs 0 to i",
    "depths": "a count: the depth of each output",
    "combines": "a count: the combines made in all",
    "untraced": "a count: the answer was not made of the values given",
    "yours": "timed: the learner's seconds per update at each width",
    "lesson": "timed: main.py's seconds per update at each width",
    "spreads": "timed: the slowest sample over the fastest, at each width",
    "raised": "the type of what the learner's code raised",
    "code": "what it raised: a SystemExit's code",
    "text": "what it raised: the last frames of the learner's file, and the message",
    "limit": "what it raised came from a limit set on the process: memory or writes",
    "stopped": "said by check's runner: no answer came, and why",
}

def _grading_process(path, watched):
    """Run the learner's file as `python FILE` runs it, then answer each JSON line of
    stdin with one on the first stdout; the file's prints go to stderr, in UTF-8,
    and input() reads nothing. On POSIX, `watched` is the read end of a pipe that only
    check writes to ("-" elsewhere): a keeper forked here, which runs none of the
    file's code, ends the process group once it closes. Everywhere, the process
    ends itself when check's requests end, so that nothing outlives check."""
    import inspect, json, queue, signal, threading, tokenize, traceback, types  # noqa: F401
    # Imported, and bound, before the file runs: its folder may hold an inspect.py,
    # and its code may rebind json.dumps.
    dumps, loads = json.dumps, json.loads
    state = {"limits": []}              # each limit set: a raise it causes is said as its own
    if watched != "-":
        if os.fork() == 0:              # the keeper: it holds none of the other pipes
            for fd in (0, 1, 2):
                os.close(fd)
            os.read(int(watched), 1)    # b"" once check, its only writer, has gone
            os.killpg(0, signal.SIGKILL)
        os.close(int(watched))
        import resource
        for name, limit, size in (("memory", resource.RLIMIT_DATA, CHECK_MEMORY),
                                  ("core", resource.RLIMIT_CORE, 0),
                                  ("writes", resource.RLIMIT_FSIZE, CHECK_WRITES)):
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(limit, (size, size))
                state["limits"].append(name)
    requests, answers = queue.Queue(), os.fdopen(os.dup(1), "w", encoding="utf-8")
    incoming = os.fdopen(os.dup(0), "rb")

    def read():                         # check's requests; at their end, check has gone
        for line in incoming:
            requests.put(line)
        os._exit(0)
    threading.Thread(target=read, daemon=True).start()
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(2, 1)
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(encoding="utf-8", errors="backslashreplace")
    sys.path.insert(0, os.path.dirname(path))
    while True:
        answer = _child_answer(loads(requests.get()), path, state)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        answers.write(f"{os.getpid()} {dumps(answer)}\n")    # a forked copy has its own pid
        answers.flush()


def _child_answer(request, path, state):
    """Return the answer to one request, or what the learner's code raised; state
    holds the limits set on this process, and the file's module once imported."""
    import traceback
    try:
        if "import" in request:
            state["module"], answer = _child_import(path)
            return answer
        return _child_call(state["module"], **request)
    except BaseException as exc:        # the learner's, whatever it is
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
        try:
            said = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        except Exception:               # a __str__ that raises
            said = type(exc).__name__
        answer = {"raised": type(exc).__name__, "code": _plain(getattr(exc, "code", None)),
                  "text": "".join(traceback.format_list(frames[-4:])) + said}
        if isinstance(exc, MemoryError) and "memory" in state["limits"]:
            answer["limit"] = "memory"
        if f"[Errno {errno.EFBIG}]" in answer["text"] and "writes" in state["limits"]:
            answer["limit"] = "writes"
        return answer


@contextlib.contextmanager
def _learners_code():
    """Run the block, the learner's code, then put back each builtin it deleted or
    replaced: check's own code needs them."""
    import builtins
    kept = dict(vars(builtins))
    try:
        yield
    finally:
        vars(builtins).update(kept)


def _child_import(path):
    """Run the file as `python FILE` does, but named __mp_main__, as multiprocessing
    runs it in a worker: `from __main__ import ...` finds its names, and its
    `if __name__ == "__main__":` block does not run. Return it, and for each of the
    lesson's functions where it is defined and how it takes op."""
    import tokenize
    import types
    try:
        with tokenize.open(path) as f:  # decoded as Python decodes a script
            code = compile(f.read(), path, "exec", dont_inherit=True)
    except (SyntaxError, UnicodeDecodeError, ValueError, RecursionError, MemoryError) as exc:
        where = f" (line {exc.lineno})" if getattr(exc, "lineno", None) else ""
        return None, {"not_python": f"{where}: {getattr(exc, 'msg', exc)}"}
    module = types.ModuleType("__mp_main__")
    module.__file__ = path
    sys.argv[:] = [path]                # as `python FILE` gives it
    sys.modules["__main__"] = sys.modules["__mp_main__"] = module
    with _learners_code():
        exec(code, vars(module))
    found, takes_op = {}, {}
    for name in (*CHECKED, "benchmark"):
        function = vars(module).get(name)
        found[name] = "missing"
        if callable(function):          # defined here, or imported from this script
            found[name] = "main.py" if getattr(function, "__module__", "") == __name__ else "here"
        takes_op[name] = _takes_op(function) is not None
    return module, {"found": found, "takes_op": takes_op}


def _takes_op(function):
    """Return how a function takes op: "keyword", "position", or None (it takes only xs)."""
    from inspect import Parameter, signature
    try:
        kinds = {p.name: p.kind for p in signature(function).parameters.values()}
    except (TypeError, ValueError):     # no signature to read: op by position
        return "position"
    if kinds.get("op") in (Parameter.POSITIONAL_OR_KEYWORD, Parameter.KEYWORD_ONLY):
        return "keyword"
    positional = [k for k in kinds.values() if k <= Parameter.POSITIONAL_OR_KEYWORD]
    if len(positional) > 1 or Parameter.VAR_POSITIONAL in kinds.values():
        return "position"
    return None


def _child_call(module, name, args, op=None, count=False, timed=False):
    """Return what module's function `name` gives on fresh copies of args, whether it
    changed them and whether a recursion dropped op; with count, its answer on
    values that count their combines (Counted, the cost model's); with timed, its seconds
    per update."""
    function = vars(module)[name]
    style = _takes_op(function)
    if timed:
        return _time_steps(function)
    xs = args[0]
    if count:                           # + on values that count it, where op is taken
        tally, op = Tally(), "plus" if style else None
        xs = [Counted(1 << i, tally) for i in range(args[0])]
    if op == "compose":
        xs = [tuple(x) for x in xs]     # JSON has no tuples
    given = [list(a) if type(a) is list else a for a in (xs, *args[1:])]     # fresh copies
    keywords = {}
    if op is not None and style == "position":
        given.append(CHECK_OPS[op])
    elif op is not None:
        keywords["op"] = CHECK_OPS[op]
    without_op = []

    def spy(*a, **k):                   # a recursion calls the function by its own name
        without_op.append(len(a) + len(k) < len(given) + len(keywords))
        return function(*a, **k)
    if op is not None:
        vars(module)[name] = spy
    try:
        with _learners_code():
            got = function(*given, **keywords)
    finally:
        vars(module)[name] = function
    if count:
        return _counted_answer(got, xs)
    changed = type(xs) is list and (len(given[0]) != len(xs)
                                    or any(map(operator.is_not, given[0], xs)))
    return {"got": _plain(got), "changed": changed, "lost_op": any(without_op)}


def _counted_answer(got, xs):
    """Return whether each out[i] of a scan of Counted 2**i adds up inputs 0 to i,
    the depth of each, and the combines made."""
    if not isinstance(got, (list, tuple)) or not all(type(v) is Counted for v in got):
        return {"untraced": True}
    right = len(got) == len(xs) and all(v.value == (2 << i) - 1 for i, v in enumerate(got))
    work = xs[0].tally.work if xs else 0
    return {"right": right, "depths": [v.depth for v in got], "combines": work}


def _time_steps(function):
    """Return the best seconds per step of function(xs, width) and of main.py's
    rnn_style_vector at each of HIDDEN_WIDTHS, the two timed in turn as benchmark times
    its two, and the spread of their samples at each width."""
    xs = seed_input(HIDDEN_STEPS)
    timed = {"yours": [], "lesson": [], "spreads": []}
    with _learners_code():
        for w in HIDDEN_WIDTHS:
            yours, lesson = sample_per_call([functools.partial(function, list(xs), w),
                                             functools.partial(rnn_style_vector, xs, w)],
                                            TIMING_REPS)
            timed["yours"].append(min(yours) / len(xs))     # the steps each call ran
            timed["lesson"].append(min(lesson) / len(xs))
            timed["spreads"].append((f"width {w}", max(max(yours) / min(yours),
                                                       max(lesson) / min(lesson))))
    return timed


def _plain(value, nested=0):
    """Return value as plain data for JSON, as Python compares values: any integer an
    int, any other real number a float, a str a str, a list a list, a tuple (a
    namedtuple too) {"tuple": [...]}; anything else {"object": its description,
    "kind": an iterator, an array or its type}. At most CHECK_SENT items, and
    CHECK_NESTED lists within lists (a list that holds itself is nested for ever)."""
    if isinstance(value, (str, list, tuple)) and len(value) > CHECK_SENT:
        return {"object": f"a {type(value).__name__} of {len(value):,} items, too long to show",
                "kind": f"a {type(value).__name__}"}
    if value is None or type(value) in (bool, float, str):
        return value
    if type(value) is int and value.bit_length() <= 4_000:     # the common case, first
        return value
    if isinstance(value, (list, tuple)) and nested >= CHECK_NESTED:
        return {"object": f"a {type(value).__name__} nested more than {CHECK_NESTED} deep "
                          "(or holding itself)", "kind": f"a {type(value).__name__}"}
    if isinstance(value, (list, tuple)):
        items = [_plain(item, nested + 1) for item in value]
        return items if isinstance(value, list) else {"tuple": items}
    if isinstance(value, numbers.Integral) and int(value).bit_length() > 4_000:
        return {"object": f"an int of about {int(value).bit_length() * 0.30103:,.0f} digits",
                "kind": "a number"}
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    kind = _a(type(value).__name__)
    if hasattr(value, "__next__"):
        kind = "an iterator"
    elif hasattr(value, "tolist") and hasattr(value, "shape"):
        kind = "an array"
    try:                                # the file's module is named as the learner named none
        text = repr(value).replace("__mp_main__.", "")[:2 * ECHO_CHARS]
    except Exception:
        text = "an object whose repr() raised"
    return {"object": text, "kind": kind}


def _a(noun):
    """Return the noun with its article: 'a list', 'an Ambiguous'."""
    return f"an {noun}" if noun[:1].lower() in "aeiou" else f"a {noun}"


# ----------------------------------------------------------------------------
# In this process: each grading process started, asked, judged and ended.

# The grading process's first lines: main.py loaded as module main, whatever its
# file's name, without the current folder on the path (it may hold an inspect.py).
CHECK_CHILD = """import sys
sys.path = [folder for folder in sys.path if folder]
import importlib.util
spec = importlib.util.spec_from_file_location("main", sys.argv[1])
main = sys.modules["main"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(main)
main._grading_process(*sys.argv[2:])
"""


class _Grader:
    """A grading process of the file at path, and its deadlines: `seconds` a call,
    CHECK_BUDGET x `seconds` in all. `opened` is what importing the file gave (what
    it defines, or why it failed); `ask` is what the judge asks it with; once
    closed, `printed` is what the import printed and what the calls printed."""

    def __init__(self, path, seconds):
        import queue
        import subprocess
        import tempfile
        import threading
        self.seconds = seconds
        self.prints, self.answers = tempfile.TemporaryFile(), queue.Queue()
        self.ends, self.printed = math.inf, None      # when its calls must have ended
        self.imported = CHECK_WRITES    # what it prints is the import's, until it answers
        watched, self.watch, posix = "-", None, {}
        if hasattr(os, "killpg"):       # POSIX: a group of its own, and the keeper's pipe
            watched, self.watch = os.pipe()
            posix = {"start_new_session": True, "pass_fds": (watched,)}
        self.process = subprocess.Popen(
            [sys.executable, "-c", CHECK_CHILD, os.path.abspath(__file__), path, str(watched)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.prints, **posix)
        if self.watch is not None:
            os.close(watched)
        threading.Thread(target=self._read, daemon=True).start()
        try:
            self.opened = self.ask({"import": 1}, CHECK_START)
        except BaseException:           # Ctrl-C while it starts: it ends now
            self.close()
            raise
        if self.printed is None:        # still running: what it prints now is the calls'
            self.imported = os.fstat(self.prints.fileno()).st_size
            self.ends = time.monotonic() + CHECK_BUDGET * seconds

    def _read(self):
        """Put each line the process answers on the queue, then b"" when it ends."""
        with self.process.stdout:       # closed here: a close elsewhere would wait for us
            for line in self.process.stdout:
                self.answers.put(line)
        self.answers.put(b"")

    def ask(self, request, start=0):
        """Return the answer to request, or {"stopped": why} if none came within
        `seconds` (plus `start`, for a fresh Python), or before CHECK_BUDGET x `seconds`
        since the import: the process then ends."""
        import json
        import queue
        import signal
        seconds = self.seconds
        limit, line = min(seconds, self.ends - time.monotonic()), None
        if limit > 0:
            with contextlib.suppress(OSError):      # if it is gone, its end says why
                self.process.stdin.write(json.dumps(request).encode() + b"\n")
                self.process.stdin.flush()
            with contextlib.suppress(queue.Empty):
                line = self.answers.get(timeout=limit + start)
                # a process the learner's code forked (and did not end) answers too: not heard
                while line and not line.startswith(b"%d " % self.process.pid):
                    line = self.answers.get(timeout=limit + start)
        if line:
            return json.loads(line.split(b" ", 1)[1], object_hook=_python)
        if line is None:                # no answer in time
            self.close()
            if limit < seconds:
                return {"stopped": f"its calls took {CHECK_BUDGET} x --seconds in all"}
            if start:
                return {"stopped": f"it did not finish in {seconds + start:g} s: {seconds:g} s "
                                   f"(--seconds), and {start:g} s for a fresh Python to start"}
            return {"stopped": f"it did not finish in {seconds:g} s (--seconds)"}
        status = self.process.wait()    # it ended by itself
        self.close()
        if status >= 0:
            return {"stopped": f"it ended its process (exit status {status}: os._exit, or a "
                               "crash)"}
        return {"stopped": f"its process was killed by a signal ({signal.strsignal(-status)})"}

    def close(self):
        """End the process and all it started (on POSIX, its group); then read what
        it printed, as `printed`: (the import's, the calls'). Each step is done once,
        however often a Ctrl-C interrupts it."""
        import signal
        if self.printed is not None:
            return
        watch, self.watch = self.watch, None
        if watch is not None:
            os.close(watch)             # the keeper ends the group, should this fail
            with contextlib.suppress(OSError):
                os.killpg(self.process.pid, signal.SIGKILL)
        self.process.kill()
        self.process.wait()
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        prints, self.prints, data = self.prints, None, b""
        if prints is not None:          # None: a Ctrl-C came while it was read
            with prints:
                prints.seek(0)
                data = prints.read(CHECK_WRITES)
        self.printed = (_printed(data[:self.imported]), _printed(data[self.imported:]))


def _printed(data):
    """Return {"lines", "head"} of what a process printed, or None if nothing."""
    if not data:
        return None
    lines = data.rstrip(b"\n").count(b"\n") + 1
    head = data[:1 << 16].decode("utf-8", "replace").split("\n")[:min(3, lines)]
    return {"lines": lines, "head": [_visible(s)[:2 * ECHO_CHARS] for s in head]}


def check_solutions(path, names=CHECKED, seconds=CHECK_SECONDS):
    """Return the grades of the learner's file at path: {"file": {"verdict", "detail",
    "printed"}, "functions": [{"name", "verdict", "detail", "printed", "mirror"}]}. A
    function is pass, FAIL, not parallel, not written yet, not in the file, or (for
    benchmark) not graded; a right scan's mirror is the depth of each of its outputs
    at N = MIRROR_N. Each is graded in a fresh Python of its own, `seconds` a call
    and CHECK_BUDGET x `seconds` in all; what it started ends with it."""
    import stat
    names = list(dict.fromkeys(names))
    if not names or not set(names) <= set(CHECKED):
        raise ValueError(f"check_solutions requires names among {', '.join(CHECKED)}, "
                         f"got {names!r:.80}")
    if not CHECK_MIN_SECONDS <= seconds <= CHECK_MAX_SECONDS:
        raise ValueError(f"check_solutions requires seconds from {CHECK_MIN_SECONDS} to "
                         f"{CHECK_MAX_SECONDS}, got {seconds!r:.20}")
    path = os.path.abspath(path)
    info = os.stat(path)                # not open() first: a FIFO would wait for a writer
    if not stat.S_ISREG(info.st_mode) or info.st_size > 1 << 20:
        raise ValueError(f"check_solutions requires a regular file of at most 1 MiB, "
                         f"got {path!r:.80}")
    open(path, "rb").close()            # an unreadable file: PermissionError, here
    first = _Grader(path, seconds)
    opened, functions, grader = first.opened, [], first
    try:
        for name in names if "found" in opened else []:
            where = opened["found"][name]
            grade = {"name": name, "verdict": "not in the file", "detail": "", "printed": None,
                     "mirror": None}
            if where == "main.py":
                grade["detail"] = "imported from main.py"
            if where == "here":
                grader = grader or _Grader(path, seconds)   # a process for each function
                try:
                    grade["verdict"], grade["detail"], grade["mirror"] = _judge(
                        grader.ask, grader.opened, name)
                finally:
                    grader.close()
                grade["printed"], grader = grader.printed[1], None
            functions.append(grade)
    finally:
        first.close()
    if "found" in opened and opened["found"]["benchmark"] == "here":
        functions.append({"name": "benchmark", "verdict": "not graded", "printed": None,
                          "mirror": None, "detail": "a time has no right answer; python "
                          f"{PROG} wallclock times the lesson's two functions"})
    file = {"verdict": "imported", "detail": "", "printed": first.printed[0]}
    if "not_python" in opened:
        file.update(verdict="not Python", detail=opened["not_python"])
    elif "found" not in opened:
        file.update(verdict="FAIL", detail=_stop_words(opened, importing=True))
    return {"file": file, "functions": functions}


# ----------------------------------------------------------------------------
# The judge: a plain function of `ask`, a function from a request (CHECK_REQUESTS)
# to an answer (CHECK_ANSWERS). It never sees a process or a deadline.

def _judge(ask, opened, name):
    """Return (verdict, detail, mirror) of function `name` of a file whose import
    answered `opened`, asking `ask` for its answers: its first wrong answer, with the
    slips whose answers are its own at every small case; or, every answer right, a
    scan's depth and the Easy exercise's step time."""
    if "found" not in opened:           # an import that failed only now
        return "FAIL", "importing it again, " + _stop_words(opened, importing=True), None
    takes_op = opened["takes_op"][name]
    answered, stopped = [], None        # (case, answer, what is wrong) of each case answered
    for case in _check_cases(name, takes_op):
        if case["slips"] is None and any(wrong for _, _, wrong in answered):
            break                       # past the small cases, with a wrong answer already
        answer = ask({"name": name, "args": case["args"], "op": case["op"]})
        if not answered and answer.get("raised") == "NotImplementedError":
            return "not written yet", "", None
        if "stopped" in answer:
            stopped = (case, answer)
            break
        answered.append((case, answer, _wrong(answer, case)))
    failed = [(case, answer, wrong) for case, answer, wrong in answered if wrong]
    if not failed and stopped:
        detail = _at(name, stopped[0]) + stopped[1]["stopped"]
        if len(answered) == 1:
            detail += "; the case before it was right"
        elif answered:
            detail += f"; the {len(answered):,} cases before it were right"
        return "FAIL", detail, None
    if not failed:
        return _right(ask, name, takes_op)
    case, answer, wrong = next((f for f in failed if not f[0]["empty"]), failed[0])
    detail = _at(name, case) + wrong
    slips = _slips(name, answered)
    if slips:                           # in the answer's line, or below a traceback
        detail += ("\n" if "raised" in answer else ": ") + "; and ".join(slips)
    return "FAIL", detail, None


def _slips(name, answered):
    """Return the words of the fewest slips whose answers are the function's at every
    small, non-empty case it answered, if one set of them does (an exception the same
    to its message first, then the same type); else of a pattern that every wrong
    answer fits: rounded, float32, overflowed, only the empty input, only a call with
    the defaults, only the long inputs, or (a scan) 0 taken as op's identity, or only
    N not a power of two."""
    if any(answer.get("changed") or answer.get("lost_op") for _, answer, _ in answered):
        return ()                       # a slip of its own, said already
    # None: a large case, or the empty one
    models = [(answer, case["slips"]()) for case, answer, _ in answered if case["slips"]]
    for exact in (True, False):
        fits = None                     # the slips that fit every case so far
        for answer, slips_of in models:
            fits = {slips for slips, answer_of in slips_of.items()
                    if (fits is None or slips in fits) and _same_outcome(answer, answer_of, exact)}
        fewest = sorted(fits or (), key=len)
        if fewest and (len(fewest) == 1 or len(fewest[0]) < len(fewest[1])):
            return tuple(CHECK_SLIPS[slip] for slip in fewest[0])
    pattern, facts = _wrong_pattern(name, answered)
    return (CHECK_SLIPS[pattern].format(**facts),) if pattern else ()


def _rounded_places(answered):
    """Return the fewest decimals k such that every answer is the expected one rounded
    to k places, or None."""
    answers = [(answer["got"], case["expected"], wrong) for case, answer, wrong in answered
               if "got" in answer]
    if len(answers) < len(answered):
        return None
    wrong = [(got, expected) for got, expected, w in answers if w]
    for k in range(16):                 # the wrong answers refute a k quickly, all confirm it
        if (all(_same(got, _rounded(expected, k)) for got, expected in wrong)
                and all(_same(got, _rounded(expected, k)) for got, expected, _ in answers)):
            return k
    return None


def _rounded(value, places):
    """Return value, a number or a list of them, with each float rounded to `places`."""
    if isinstance(value, list):
        return [_rounded(v, places) for v in value]
    return round(value, places) if type(value) is float else value


def _wrap64(value):
    """Return an int as a 64-bit integer keeps it, wrapped past 2**63 - 1."""
    return (value + 2**63) % 2**64 - 2**63


def _wrong_pattern(name, answered):
    """Return (the slip that every wrong answer fits, the facts its words need),
    where no model of a slip does: rounded, float32, overflow, empty only, defaults,
    long only, identity 0 or powers of two; else (None, {})."""
    wrong_answers = [(case, answer) for case, answer, w in answered if w]
    wrong = [case for case, _ in wrong_answers]
    right = [case for case, _, w in answered if not w]
    places = _rounded_places(answered)
    if places is not None:
        return "rounded", {"places": places}
    if all("got" in answer and _as_float32(answer["got"], case["expected"])
           for case, answer in wrong_answers):
        return "float32", {}
    if all(type(case["expected"]) is list and type(answer.get("got")) is list
           and all(type(e) is int for e in case["expected"])
           and answer["got"] == [_wrap64(e) for e in case["expected"]]
           for case, answer in wrong_answers):
        case, answer = wrong_answers[0]
        first = next(i for i, (g, e) in enumerate(zip(answer["got"], case["expected"]))
                     if g != e)
        return "overflow", {"at": first}
    if all(case["empty"] for case in wrong):
        return "empty only", {}
    if all(case["defaults"] for case in wrong) and any(case["args"][0] for case in right):
        return "defaults", {}
    if all(isinstance(case["args"][0], list) and len(case["args"][0]) > max(CHECK_SMALL)
           for case in wrong):
        return "long only", {}
    if not name.endswith("_scan"):
        return None, {}
    if name == "parallel_scan" and all(_meets_0(case, answer) for case, answer in wrong_answers):
        return "identity 0", {}
    right = [len(case["args"][0]) for case in right]
    wrong = [len(case["args"][0]) for case in wrong]
    if (max((n for n in right if n & (n - 1) == 0), default=0) >= 8 and min(wrong) <= 8
            and all(n & (n - 1) for n in wrong)):
        return "powers of two", {}
    return None, {}


def _as_float32(got, expected):
    """Return whether got is expected as float32 holds it (numpy's single precision,
    24 bits): each float of got a float32 value, within a relative 1e-6 of expected's
    (a few roundings to float32), where it is not expected's own."""
    if isinstance(expected, (list, tuple)):
        return (type(got) is type(expected) and len(got) == len(expected)
                and all(map(_as_float32, got, expected)))
    if _same(got, expected):
        return True
    if type(got) is not float or type(expected) not in (int, float) or not math.isfinite(got):
        return False
    import struct
    try:
        single = struct.unpack("f", struct.pack("f", got))[0]
    except OverflowError:               # past float32's range
        return False
    return single == got and abs(got - expected) <= 1e-6 * max(1.0, abs(expected))


def _meets_0(case, answer):
    """Return whether an answer is what op raises where it meets 0, on either side of
    the case's first value: 0 taken as op's identity."""
    if "raised" not in answer or not case["args"][0]:
        return False
    op, x = CHECK_OPS[case["op"] or "add"], case["args"][0][0]
    for a, b in ((0, x), (x, 0)):
        try:
            op(a, b)
        except TypeError as exc:
            if answer["raised"] == "TypeError" and answer["text"].endswith(f"TypeError: {exc}"):
                return True
    return False


def _same_outcome(answer, answer_of, exact=False):
    """Return whether a slip's answer (a function, which may raise, or a tuple of the
    ways to make that slip) is the learner's; an exception of the same type, and
    with exact, the same message."""
    if isinstance(answer_of, tuple):
        return any(_same_outcome(answer, way, exact) for way in answer_of)
    try:
        expected = answer_of()
    except Exception as exc:
        said = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        return (answer.get("raised") == type(exc).__name__
                and (not exact or answer["text"].endswith(said)))
    return "got" in answer and _same(answer["got"], expected)


def _at(name, case):
    """Return 'at xs = [...], decay = 0.5: ', the arguments as given, a long input as
    how to make it, and the kind of input and op where an op is given."""
    names = [p.split("=")[0].strip() for p in CHECK_TASKS[name][0].split(",")]
    shown = [f"{p} = {_show(a)}" for p, a in zip(names, case["args"])]
    words = []
    if len(shown[0]) > 2 * ECHO_CHARS:
        n = len(case["args"][0])
        recipe = CHECK_INPUTS[case["kind"]][2].replace("N", str(n))
        shown[0] = f"xs = {recipe} with rng = random.Random({n})"
        words.append(f"{n:,} {CHECK_INPUTS[case['kind']][0]}")
    if case["op"] is not None:
        words.append("op: " + {"add": "+", "compose": "their composition"}[case["op"]])
    said = f"at {', '.join(shown)}"
    if words:
        said += f" ({', '.join(words)})"
    return said + ": "


def _wrong(answer, case):
    """Return what is wrong with an answer (or an exception) in words, "" if it is right."""
    if "raised" in answer:
        return _stop_words(answer)
    if answer["changed"]:
        return "it changed its input: leave xs as it is"
    got, expected = answer["got"], case["expected"]
    if _same(got, expected):
        return ""
    if answer["lost_op"]:
        return _difference(got, expected) + ": your recursion calls itself without op: pass on op"
    return _difference(got, expected)


SHAPE_HINTS = {
    ("a list", "a number"): "return one number, not a list of them",
    ("a tuple", "a number"): "return one number, not a tuple of them",
    ("a number", "a list"): "return the list of every total, not one number",
    ("a list", "a tuple"): "return a tuple, as (n, depth) makes one",
    ("an iterator", "a list"): "return a list: list(...) makes one",
    ("an array", "a list"): "return a list: an array's .tolist() makes one",
    ("an array", "a number"): "return one number: float(...) makes one",
}


def _kind(value):
    """Return what a value is, in words: a number, a list, None, an iterator, ..."""
    if isinstance(value, _Described):
        return value.kind
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "a bool"
    if isinstance(value, (int, float)):
        return "a number"
    return {list: "a list", tuple: "a tuple", str: "a str"}.get(type(value), "an object")


def _difference(got, expected):
    """Return how got differs from expected, as unittest says it: a kind where another
    belongs, or the first position that differs, with both values and the lengths."""
    kind, wanted = _kind(got), _kind(expected)
    if kind != wanted:
        said = f"got {kind}, {_show(got)}, where {wanted} belongs"
        if got is None:
            return f"got None where {wanted} belongs: does it end with return?"
        hint = SHAPE_HINTS.get((kind, wanted))
        return f"{said}: {hint}" if hint else said
    said = f"got {_show(got)}, expected {_show(expected)}"
    if not isinstance(got, (list, tuple)):
        return said + _number_hint(got, expected)
    first = next((i for i, (g, e) in enumerate(zip(got, expected)) if not _same(g, e)), None)
    if first is not None:
        g, e = got[first], expected[first]
        if len(said) > 2 * ECHO_CHARS:  # too long to read whole: the first difference alone
            said = f"got {_show(g)} at [{first:,}], expected {_show(e)}"
        else:
            said += f": first difference at [{first:,}]"
        if _kind(g) != _kind(e):
            said += f", {_kind(g)} where {_kind(e)} belongs"
        said += _number_hint(g, e)
    if len(got) != len(expected):
        said += f"; {_quantity(len(got), 'value')} where {len(expected):,} belong"
    return said


def _number_hint(got, expected):
    """Return the words for a float where an int belongs, or ""."""
    if type(got) is float and type(expected) is int:
        return ": a float where an int belongs (ints are exact, floats round)"
    return ""


class _Described:
    """A value the grading process could only describe: what it is, and its kind."""

    def __init__(self, object, kind):
        self.text, self.kind = _visible(object), kind

    def __repr__(self):
        return self.text


def _python(data):
    """Return a JSON object of an answer as Python: a tuple, or a _Described."""
    if "tuple" in data:
        return tuple(data["tuple"])
    if "object" in data:
        return _Described(**data)
    return data


def _same(got, expected):
    """Return whether got equals expected as Python compares them, a float within
    SCAN_REL_TOL x max(1, |expected|): NaN never, an infinity only itself, a bool
    only a bool, a list only a list."""
    if isinstance(expected, (list, tuple)):
        return (type(got) is type(expected) and len(got) == len(expected)
                and all(map(_same, got, expected)))
    if type(got) in (int, float) and type(expected) in (int, float):
        if type(expected) is int or got == expected:
            return got == expected
        if type(got) is int and got.bit_length() > 1_000:      # past any float: never close
            return False
        tolerance = SCAN_REL_TOL * max(1.0, abs(expected))
        return math.isfinite(expected) and abs(got - expected) <= tolerance
    return type(got) is type(expected) and got == expected


def _right(ask, name, takes_op):
    """Return (verdict, detail, mirror) of a function that gave every answer right:
    parallel_scan's depth counted, rnn_style_vector's update timed."""
    notes = []
    if name.endswith("_scan") and not takes_op:
        notes.append("graded on sums only: with op=operator.add as a parameter it would be "
                     "checked with other combines too")
    if name == "rnn_style_vector":
        timed = ask({"name": name, "args": [], "timed": True})
        notes.append(_step_words(timed) if "yours" in timed
                     else "its step was not timed: " + _stop_words(timed))
    if name != "parallel_scan":
        return "pass", "\n".join(notes), None
    mirror = ask({"name": name, "args": [MIRROR_N], "count": True})
    verdict, detail = "pass", _not_counted(mirror)
    if not detail:
        verdict, detail = _parallel_verdict(ask)
    if verdict == "FAIL" or not mirror.get("right"):
        mirror = None
    return verdict, "; ".join(d for d in (detail, *notes) if d), mirror


def _step_words(timed):
    """Return the Easy exercise's answer on the learner's own step: its time at each
    width beside main.py's, the growth of each beside the growth of the madds."""
    yours, lesson = timed["yours"], timed["lesson"]
    first_madds = combine_madds(HIDDEN_WIDTHS[0])[0]
    madds = combine_madds(HIDDEN_WIDTHS[-1])[0] / first_madds
    grew = as_printed(yours[-1]) / as_printed(yours[0])     # the times as printed
    lesson_grew = as_printed(lesson[-1]) / as_printed(lesson[0])
    said = (f"How does an update's time grow with the width? Yours took "
            f"{_readable_list([format_seconds(t) for t in yours])} at widths "
            f"{_readable_list([str(w) for w in HIDDEN_WIDTHS])}; main.py's took "
            f"{_readable_list([format_seconds(t) for t in lesson])}. Yours grew "
            f"{_format_growth(grew)}, main.py's {_format_growth(lesson_grew)}, for "
            f"{madds:,.0f}x the madds. "
            f"{growth_reading(grew, madds, HIDDEN_WIDTHS[0], first_madds)}; the chain stays "
            f"{HIDDEN_STEPS} updates at every width.")
    if grew < lesson_grew / 10:
        said += (" Yours grew far less than main.py's: its madds run in compiled code "
                 "(numpy?), so the interpreter's cost per update is most of its time.")
    return " ".join([said, *_spread_note(timed["spreads"])])


def _not_counted(answer):
    """Return why a scan's combines could not be counted, in words, or ""."""
    if "stopped" in answer:
        return "its depth was not counted: " + answer["stopped"]
    if answer.get("untraced"):
        return "its depth was not counted: its answer is not made of the values it was given"
    if "raised" in answer:
        return (f"its depth was not counted: on values that count their combines (not "
                f"numbers), it raised {answer['raised']}")
    return ""


def _parallel_verdict(ask):
    """Return (verdict, detail) of a right parallel_scan: parallel if at every N of
    CHECK_DEPTH_LENGTHS its depth is at most 2 ceil(log2 N), as Brent-Kung's is. Past
    CHECK_LARGE, a scan already four times Hillis-Steele's work is counted no more."""
    counted = None                      # (N, answer) of the last length counted
    for n in CHECK_DEPTH_LENGTHS:
        if n > CHECK_LARGE[-1] and counted[1]["combines"] > 4 * _hillis_steele_work(counted[0]):
            break                       # N^2 combines: a longer count would take seconds
        answer = ask({"name": "parallel_scan", "args": [n], "count": True})
        at = f"at N = {n:,}, on values that count their combines"
        if "stopped" in answer:
            return "FAIL", f"{at}: {answer['stopped']}; its answers were right"
        if _not_counted(answer):
            return "pass", _not_counted(answer)
        if not answer["right"]:
            return "FAIL", f"{at}, its out[i] was not xs[0] op ... op xs[i]"
        deepest, rounds = max(answer["depths"]), depth(n)[1]
        if deepest > 2 * rounds:
            return "not parallel", (
                f"correct, but its depth at N = {n:,} is {deepest:,}, over 2 ceil(log2 N) = "
                f"{2 * rounds}; the exercise asks for {rounds} rounds of side-by-side combines")
        counted = n, answer
    n, answer = counted
    deepest, rounds = max(answer["depths"]), depth(n)[1]
    hillis_steele, work = _hillis_steele_work(n), answer["combines"]
    if work < n - 1:                    # no scan does fewer: they ran in other processes
        return "pass", (f"correct and parallel: depth {deepest:,} at N = {n:,} (its combines "
                        "ran in other processes, which check does not count)")
    detail = (f"correct and parallel: depth {deepest:,} and {work:,} combines at N = {n:,}, "
              f"against Hillis-Steele's {rounds} rounds and {hillis_steele:,} combines")
    if work > 4 * hillis_steele:
        detail += f"; {work / hillis_steele:.0f} times its work (a tree for each prefix?)"
    return "pass", detail


def _hillis_steele_work(n):
    """Return the combines of Hillis-Steele's scan of n values: n - 2**k in round k."""
    return sum(n - 2 ** k for k in range(depth(n)[1]))


def _stop_words(answer, importing=False):
    """Return why a call, or the import, gave no answer (it stopped, or raised), in words."""
    kind, text = answer.get("raised"), answer.get("text", "")
    if "stopped" in answer:
        return answer["stopped"]
    if kind == "SystemExit" and importing:
        return (f"it called sys.exit({_show(answer['code'])}) when imported: put that under "
                "if __name__ == \"__main__\":")
    if kind == "SystemExit":
        return f"it called sys.exit({_show(answer['code'])}): return the value instead"
    if kind == "EOFError":
        return ("it read input (input()?), which check does not give: read nothing when "
                "imported, or only under if __name__ == \"__main__\":")
    if answer.get("limit") == "writes":
        return f"it wrote more than {format_bytes(CHECK_WRITES)} (prints, or a file)"
    if answer.get("limit") == "memory":
        return f"it ran out of memory (the limit is {format_bytes(CHECK_MEMORY)})"
    return "it raised:\n" + "\n".join(map(_visible, text.split("\n")))


def _show(value):
    """Return a value as Python prints it, cut to 2 x ECHO_CHARS characters."""
    shown = repr(value)
    if len(shown) <= 2 * ECHO_CHARS:
        return shown
    return shown[:2 * ECHO_CHARS - 3] + "..."


def _visible(text):
    """Return text with its control characters (a colour code, a \\r) as escapes."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def render_check(path, report):
    """Return the grades as text: a line per function, its details, a right scan's
    depths beside Hillis-Steele's, and what it printed; one line for the functions
    not written yet."""
    file, functions = report["file"], report["functions"]
    lines = [f"=== check: {_visible(path)} ===", *_printed_lines("importing it", file["printed"],
                                                                 "")]
    if file["verdict"] != "imported":
        first, *rest = file["detail"].split("\n")
        lines += textwrap.wrap(f"importing the file: {first}", 79, subsequent_indent="  ")
        lines += [f"  {line}" for line in rest]
        return "\n".join(lines + ["Nothing graded."])
    width = max(len(r["name"]) for r in functions)
    indent = " " * (width + 4)
    # stubs left as they are, and silent, share one line: most are optional practice
    stubs = [r["name"] for r in functions if r["verdict"] == "not written yet"
             and not r["printed"]]
    for r in functions:
        if r["name"] in stubs:
            continue
        first, *rest = r["detail"].split("\n")
        head = f"{r['name']:<{width}}  {r['verdict']}"
        if first:
            head += f": {first}"
        lines += textwrap.wrap(head, 79, subsequent_indent=indent, break_on_hyphens=False)
        for line in rest:               # a traceback's lines as Python prints them
            lines += [indent + line] if line.startswith(" ") else textwrap.wrap(
                line, 79, initial_indent=indent, subsequent_indent=indent)
        lines += _mirror_lines(r["mirror"], indent)
        lines += _printed_lines("it", r["printed"], " " * (width + 2))
    if stubs:
        lines += textwrap.wrap(f"not written yet: {_readable_list(stubs)}", 79,
                               subsequent_indent="  ")
    return "\n".join(lines + [_check_summary(functions)])


def _mirror_lines(mirror, indent):
    """Return the depth of each output of a right scan, above Hillis-Steele's."""
    if mirror is None:
        return []
    # Hillis-Steele's out[i] is done after ceil(log2(i + 1)) rounds, i.bit_length()
    depths, lesson = mirror["depths"], [i.bit_length() for i in range(MIRROR_N)]
    theirs = " ".join(map(str, lesson))
    if depths == lesson:
        theirs = "the same"
    return [f"{indent}depth of out[i], N = {MIRROR_N}, in combines on its longest chain:",
            f"{indent}{'yours:':<15}" + " ".join(map(str, depths)),
            f"{indent}{'Hillis-Steele:':<15}{theirs}"]


def _printed_lines(who, what, indent):
    """Return what a process printed, its first lines, as lines of the report."""
    if not what:
        return []
    said = f"{indent}{who} printed {_quantity(what['lines'], 'line')}"
    if what["lines"] > len(what["head"]):
        said += f"; the first {len(what['head'])}"
    return [said + ":", *(f"{indent}| {line}" for line in what["head"])]


def _check_summary(functions):
    """Return the report's last line: how many of the functions written passed."""
    written = [r for r in functions if r["verdict"] in ("pass", "FAIL", "not parallel")]
    if written:
        passed = [r for r in written if r["verdict"] == "pass"]
        return f"{len(passed)} of {len(written)} written passed."
    if any(r["verdict"] == "not written yet" for r in functions):
        return "Nothing written yet: each function still raises NotImplementedError."
    return "None of the lesson's functions is in this file."


# ============================================================================
# Machinery: the glossary (python main.py terms)
# ============================================================================

# Every term a section prints, in plain words: `python main.py terms` prints
# them in alphabetical order, and a test checks that none is missing.

GLOSSARY = {
    # the columns of the sections' tables, as printed (a number in one left out:
    # `terms "vs width"` answers "vs width 1")
    "rnn depth": "`depth`'s serial depth of the recurrence at N: N steps, each waiting.",
    "attn depth": "`depth`'s depth of the sum as a tree at N: ceil(log2 N), at least 1.",
    "depth ratio": "rnn depth / attn depth: how many times deeper the chain is than the tree.",
    "rnn per call": "the best time of one call of rnn_style, the recurrence, on N inputs.",
    "attn per call": "the best time of one call of attention_style, the mean, on N inputs.",
    "rnn / attn": "rnn per call over attn per call: how many times as long the recurrence "
                  "took.",
    "time per update": "the best time of one update of the vector recurrence h = A.h + b*x.",
    "vs width": ("vs width 1: an update's time over width 1's, the two times as printed: how "
                 "many times as long it took."),
    "madds per update": ("the multiply-adds of one update of a state of that width: width^2 + "
                         "width."),
    "chain steps": "the steps the recurrence takes on any number of lanes: N, one at a time.",
    "tree steps": "the fewest steps in which P lanes sum N values (`sweep`): see lane.",
    "state t": "which state of the sequence: h_t, after the t-th input.",
    "loop: h_t": "the state h_t computed step by step, each step waiting for the one before.",
    "scan: h_t": "the same state computed by the parallel scan of the affine steps.",
    "lanes P": "how many lanes the modelled parallel machine has (`work`): see lane.",
    "tree sum": "the fewest steps in which P lanes sum N values (`work`, lane_steps).",
    "recurrence: loop": ("the steps of rnn_style's loop on P lanes: N, one multiply-add an "
                         "input, each waiting for the one before."),
    "recurrence: scan": ("the steps of the recurrence by Hillis-Steele's scan on P lanes, round "
                         "by round: its work on one lane, its rounds on N lanes."),
    "formula": "the closed form the count next to it follows, for N a power of two.",
    "tokens n": "how many tokens one attention matrix covers: n of them read n.",
    "n x n matrix": "the bytes of one attention matrix: n x n scores of 2 bytes (fp16).",
    "operations per layer": ("Table 1's first column: how one layer's multiplications grow "
                             "over n tokens of width d, constants dropped; the table evaluates "
                             "it at each n."),
    "maximum path length": ("Table 1's last column: the most layers (or recurrent steps) "
                            "between any two positions, counted causally here."),
    "Table 1": ("of Vaswani et al. 2017: self-attention, recurrent and convolutional layers "
                "compared by operations per layer, sequential operations and maximum path "
                "length."),
    "recurrent": "Table 1's recurrent layer: an RNN step per token, n steps in turn.",
    "convolutional": "Table 1's convolutional layer: a convolution of kernel width k.",
    f"linear {GRADIENT_W:g}^k": (f"the derivative through k linear steps h = {GRADIENT_W:g}*h "
                                 f"+ x: {GRADIENT_W:g} multiplied k times."),
    f"tanh, w={GRADIENT_W:g}": ("the derivative through k tanh steps, by the chain rule: a "
                                "product of w * (1 - h^2), one a step."),
    f"cell, f={FORGET_GATE:g}": ("the derivative through k steps of a gated cell whose forget "
                                 "gate is held at f: f^k."),
    "1 - h^2": "tanh's slope at its output h: at most 1, and smaller the further h is from 0.",
    "pairs n": "how many key-value pairs are written into the state.",
    "n / d": "the pairs stored per number of the state.",
    "measured": "the share of reads that came out right in random draws (`capacity`).",
    "exact": "the same share computed over every possible crosstalk: a binomial tail.",
    "cache recall": "the share of reads a KV cache gets right: it keeps every pair, so all.",
    "state holds": "the bytes the state keeps, whatever the pairs: d numbers in fp16.",
    "cache holds": "the bytes a KV cache keeps for n pairs: n keys of d and n values, in fp16.",
    "coin flip": "a guess right half of the time: a recall of 0.5, what a state tends to.",
    "s.k": "the dot product of the state s with a key k: the read of its value (`capacity`).",
    "recency": "an RNN's inductive bias: the latest inputs weigh most in its state.",
    "model": "in `generate` and `train`, the network a row is about.",
    "depth: training": "the depth of one forward pass over a sequence whose tokens are known.",
    "generating": ("the depth of making N tokens, each the next input: the chain from the "
                   "first token to the last."),
    "holds after N tokens": "the memory a model keeps while it generates: its KV cache, or "
                            "its state.",
    "best init": "the lowest held-out MSE among the initializations: lower is better.",
    "worst init": "the highest held-out MSE among the initializations.",
    "verdict": "what `train` reads from every initialization's MSE: learned, learned some, "
               "learned nothing or varied.",
    # the names in the tables: what each computes
    "rnn_style": "the lesson's recurrence: h = decay*h + x over the inputs; its last h.",
    "attention_style": "the lesson's reduction: the mean of the inputs, by sum() in C.",
    "sum()": "Python's built-in sum: one running total, a chain of adds in C.",
    "tree_reduce": "the sum as a tree of pairwise adds: depth ceil(log2 N).",
    "serial_scan": "every running total, one after another: N - 1 combines in a chain.",
    "parallel_scan": "the lesson's Hillis-Steele scan: every running total in ceil(log2 N) "
                     "rounds.",
    "brent_kung_scan": "Brent and Kung's scan (1982): about 2N combines in 2 log2 N levels.",
    "blelloch_scan": "Blelloch's exclusive scan (1990): about 2N combines in 2 log2 N levels.",
    "linear_recurrence_scan": "every state of h = a*h + x, by the parallel scan of its steps.",
    "the same, a decay per step": "linear_recurrence_scan with a decay of its own at each step, "
                           "counted too, as Mamba's selective scan.",
    "linear, by scan": "in `generate`: the linear recurrence h = decay*h + x, trained by its "
                       "scan.",
    "one attention read": "in `train`: one query reads every position once, in one hop.",
    "Brent": ("Brent's bound (1974): work W of depth D takes from max(W / P, D) to W / P + D "
              "steps on P lanes. Brent-Kung is a scan."),
    "h~": "the minGRU's candidate state: see candidate.",
    "^": "a power: n^2 is n times n, 0.9^k is 0.9 multiplied k times.",
    "*": "times: n*d is n times d.",
    "Adam": "an optimizer: it moves each parameter by its gradient's running mean, divided by "
            "the root of the running mean of the gradient's square.",
    "adding problem": "output the sum of the two marked values of a sequence, however far apart.",
    "affine map": "h -> a*h + x; two in a row are again one, which lets a scan combine steps.",
    "answering 1": "a model that always outputs 1, the mean answer: the MSE to beat, 1/6.",
    "associative": "grouping does not matter: (a + b) + c = a + (b + c); floats up to rounding.",
    "associative recall": "storing key -> value pairs, then asking for each value by its key.",
    "attention": "each output a sum of all values, weighted by how well a query matches each key.",
    "attention matrix": "the n x n scores (or weights) of one head in one layer.",
    "attention read": "one query's weighted sum of the values: one output of attention.",
    "binomial": "the count of heads in coin flips; its tail: the chance it lands beyond a number.",
    "Blelloch": "an exclusive work-efficient scan (1990): about 2 log2 N levels, 2N operations.",
    "Brent-Kung": "an inclusive work-efficient scan (1982): about 2 log2 N levels, 2N operations.",
    "causal": "looking back only: each position reads itself and the positions before it.",
    "ceil": "ceil(x): the smallest whole number at or above x.",
    "candidate": ("a gated RNN's proposed new state, h~ in the minGRU, which its gate z mixes "
                  "in: h = (1 - z)*h + z*h~."),
    "chain": "steps that each wait for the one before: its depth is its length.",
    "chain rule": "the derivative of a chain of steps is the product of its steps' derivatives.",
    "closed form": "a formula that gives a number without running the process it describes.",
    "combine": "one use of a scan's operation on two partial results.",
    "context window": "how many tokens a model reads at once: attention's n.",
    "compose": "to do one step, then another: composed, two affine steps are again one.",
    "convolution": "each output a weighted sum of the k nearest inputs, the same weights for all.",
    "core": "one processor of the CPU.",
    "cost model": ("how every depth and step is counted here: a step is one operation on one "
                   "lane; a multiply-add a*b + c is one operation."),
    "CPU": "the computer's main processor: a few cores.",
    "crosstalk": "what the other pairs stored in a state add to a read: noise on the value.",
    "decay": "the factor a of the linear step h = a*h + x: how much of the state a step keeps.",
    "depth": "the longest chain of operations that must run one after another.",
    "derivative": "how much an output changes per unit change of an input, for a small change.",
    "dilated": "a dilated convolution reads inputs a gap apart, the gap k times wider a layer.",
    "dot product": "s.k: the sum of the products of two vectors' matching entries.",
    "update": "one input's step of a vector recurrence: h -> A.h + b*x, all units at once.",
    "exclusive": "an exclusive scan's output i leaves out x_i; an inclusive one includes it.",
    "exp, e": "exp(x) = e^x, e = 2.718...: the softmax weighs each score by its exp.",
    "e-notation, e": "3.3e-11 is 3.3 x 10^-11: the e and the number after it are a power of ten.",
    "fitted growth": "the exponent k of the line N^k nearest the measured times, on log-log axes.",
    "log-log slope": "see fitted growth: a slope of 1 is time in proportion to N.",
    "fastest of K timings": ("the best of K timings of the same call: slower ones come from "
                             "interference, as timeit keeps its best."),
    "idle": "a lane with nothing to do in a step: no operation ready for it.",
    "d_k": "the width of a key and a query: a score is divided by sqrt(d_k).",
    "Flash Attention": "attention tile by tile, never storing the n x n scores: O(n) memory.",
    "float": "a number with a fraction, in 64 bits (Python's): exact to about 16 digits, then "
             "rounded; a very small or large one is printed in e-notation.",
    "forget gate": "an LSTM's gate that scales how much of the state it keeps.",
    "forward pass": "computing a model's outputs from its inputs.",
    "fp16": "16-bit floats: 2 bytes a number, as model weights and caches are often stored.",
    "gate": "a number from 0 to 1, computed by the model, that scales how much passes.",
    "gated cell": "a cell whose forget gate keeps a fraction f of its state a step.",
    "GPU": "a graphics processor: thousands of lanes doing one operation on many numbers at once.",
    "gradient": "how much the loss changes as each parameter, or an input, changes a little.",
    "GRU": "a gated recurrent unit: an RNN whose gates decide what of its state to keep.",
    "head": "one set of queries, keys and values in an attention layer: its own n x n scores.",
    "held-out": "held-out examples are kept out of training and used only to score the model.",
    "hidden state": "an RNN's state: what it carries from one step to the next.",
    "Hillis-Steele": "a scan in ceil(log2 N) rounds: round k combines each value with the one "
                     "2^k back.",
    "identity": "the value that changes nothing when combined: 0 for +, 1 for *.",
    "inductive bias": "what a model assumes before data: an RNN recency, attention no order.",
    "init": "see initialization.",
    "initialization": "the random parameters a model starts from, fixed by a seed.",
    "interpreter": "CPython, running Python an instruction at a time: tens of nanoseconds a step.",
    "kernel": "a convolution's k weights, slid along the sequence.",
    "key": "what a position offers to be matched (attention), or what a value is stored under.",
    "B, KiB, MiB, GiB, TiB": "bytes: B is one; KiB, MiB, GiB and TiB are 2^10, 2^20, 2^30 "
                             "and 2^40 of them.",
    "inclusive": "an inclusive scan's output i includes x_i; an exclusive one leaves it out.",
    "k": ("a distance back in the sequence (`gradient`), or a convolution's kernel width "
          "(`cost`); as a count's suffix K, a thousand."),
    "log-log": "a plot whose two axes are both logarithmic: a power law N^k is a line of slope k.",
    "matmul": "a matrix multiply.",
    "nonlinear": "not of the form a*h + b: tanh, a gate; such steps do not compose into one.",
    "work-efficient": "a parallel algorithm that does about as many operations as the serial one.",
    "K, M, G, T, P": "a count's thousands: 10^3, 10^6, 10^9, 10^12 and 10^15 (8.80T: 8.8 x "
                     "10^12 operations).",
    "MB, GB": "a million and a billion bytes: 10^6 and 10^9, a little less than MiB and GiB.",
    "KV cache": "the keys and values of every past token a transformer keeps while it generates.",
    "lane": "one processor of a modelled parallel machine: one operation a step.",
    "layer": "one stage of a model: its outputs are the next layer's inputs.",
    "learned": ("a verdict of `train`, over every initialization: "
                f"{TRAIN_VERDICT_WORDS[LEARNED]}."),
    "learned nothing": ("a verdict of `train`, over every initialization: "
                        f"{TRAIN_VERDICT_WORDS[NOTHING]}."),
    "learned some": ("a verdict of `train`, over every initialization, where not learned: "
                     f"{TRAIN_VERDICT_WORDS[PART]}."),
    "linear recurrence": "h_t = a_t*h_(t-1) + x_t: its steps are affine maps, so a scan runs it.",
    "log2": "log2 N: how many halvings take N down to 1 (log_k N: divisions by k).",
    "loss": "the number training lowers: here the MSE on a training example.",
    "LSTM": "long short-term memory (1997): an RNN whose gates let it keep a value many steps.",
    "madds": "multiply-adds a*b + c: one operation each, as a GPU's fused multiply-add is one "
             "instruction.",
    "multiply-add": "a*b + c, one operation in the cost model; madds counts them.",
    "Mamba": "a state-space model whose decays depend on each input (a selective scan; 2023).",
    "matrix multiply": "every row of one matrix times every column of another: dot products, all"
                       " side by side.",
    "minGRU": "a minimal GRU whose gate and candidate read only the input (Feng et al. 2024): a "
              "linear recurrence.",
    "MSE": "mean squared error: the average of (prediction - target)^2.",
    "d": "a width: of a state, or of a model's vectors (`cost`, `capacity`, `generate`).",
    "r": "the window of restricted self-attention: each position reads r positions (`cost`).",
    "window": "restricted self-attention's r positions; for a model, see context window.",
    "w": "the tanh RNN's recurrent weight, in h = tanh(w*h + x).",
    "f": "a gated cell's forget gate: the share of its state it keeps a step.",
    "h": "a state, the h of h = decay*h + x; h_t is the state after step t.",
    "x": ("an input value; x_t is the one at step t, xs the list of them. After a number, "
          "times: 6.0x is 6.0 times as long."),
    "a": "the decay of the linear step h = a*h + x (a_t when each step has its own).",
    "v": "a value: in `capacity` +1 or -1, stored under its key k.",
    "s": ("`capacity`'s state, s = the sum of v*k; after a time, seconds (see ns, µs, ms, "
          "s)."),
    "N": ("a sequence's length: its number of values or tokens (n in the functions' "
          "arguments)."),
    "ns, µs, ms, s, µ": ("times: a nanosecond is 10^-9 seconds, a microsecond 10^-6, a "
                         "millisecond 10^-3; µ is micro, a millionth."),
    "mismatches": ("the positions where parallel_scan's total differs from serial_scan's by "
                   "more than the tolerance printed beside it."),
    "noisy": (f"a timing whose slowest sample took over {SPREAD_WARNING} times its fastest: "
              "the machine was busy with something else."),
    "O(N)": ("grows at most in proportion to N, an upper bound: an order of growth, its "
             "constants dropped (O(n) in Table 1)."),
    "O(1)": "does not grow with n: bounded, whatever n is (Table 1: one matrix multiply).",
    "O(n^2)": "grows at most as n squared: twice the tokens, four times as much.",
    "O(log_k n)": ("grows as the logarithm of n to base k: a dilated convolution of kernel "
                   "width k spans n positions in about log_k n layers."),
    "O(n/r)": ("grows as n / r: restricted self-attention reaches r positions a layer "
               "(causally, ceil((n - 1) / (r - 1)) layers)."),
    "operation": ("an add, a multiply, a multiply-add a*b + c, exp, tanh or 1/x: one step on "
                  "one lane, and what work counts."),
    "optimizer": "the rule that turns gradients into parameter updates (Adam here).",
    "parameter": "a number a model learns: a weight or a bias.",
    "path length": "how many layers, or recurrent steps, a signal crosses between two positions.",
    "position": "a token's place in the sequence, 1 to n.",
    "prefix sum": "every running total of a sequence: out_i = x_1 + ... + x_i.",
    "P": ("the lanes of the modelled parallel machine (`sweep`, `work`); as a count's suffix, "
          "10^15 (see K, M, G, T, P)."),
    "parallel scan": "a scan whose combines run side by side in rounds: Hillis-Steele's, say.",
    "quadratic bottleneck": "attention's n x n scores: work, and memory if stored, grow as n^2.",
    "query": "what a position looks for: its dot product with each key is that key's score.",
    "recurrence": "a step that needs the previous step's result: h_t = f(h_(t-1), x_t).",
    "reduction": "combining many values into one, as a sum does.",
    "restricted self-attention": "attention over a window of r positions (`cost`: causal).",
    "RNN": "a recurrent neural network: one step at a time, carrying a state along.",
    "round": "one stage of a parallel scan: combines that run side by side.",
    "scan": "every running total of a sequence under an associative operation (inclusive).",
    "streaming": "producing outputs one token at a time, as they are asked for.",
    "score": ("how well a query matches a key: their dot product, divided by sqrt(d_k) in a "
              "transformer (Vaswani et al. 2017, 3.2.1), before the softmax; the one "
              "attention read trained here does not divide."),
    "seed": "the number that fixes a random generator, so that every run gives the same numbers.",
    "selective": "a selective scan's decay depends on each input (Mamba): still a scan.",
    "self-attention": "attention in which a sequence's positions read each other.",
    "sequential operations": "Table 1's operations one after another; a matrix multiply is one.",
    "serial": "one after another, each waiting for the one before.",
    "serial depth": "the longest chain of operations that must run in turn (depth).",
    "sign": "sign(x): +1 for x above 0, -1 below.",
    "slope": "see fitted growth.",
    "softmax": "turns scores into weights: exp(score), divided by the sum of them all.",
    "SSM": "a state-space model: a recurrence with a linear step, trained in parallel.",
    "state": "the numbers a recurrence carries from one step to the next.",
    "state-space model": "a recurrence with a linear step, trained in parallel (SSM).",
    "step": ("one operation on one lane, the cost model's unit; in a chain, each waits for the "
             "one before. The recurrence h = a*h + x is one step an input."),
    "T": "the sequence length in the training section: the adding problem's T pairs.",
    "vanishing gradient": ("a gradient that shrinks with each step it is carried back "
                           "through, until far inputs barely change the loss."),
    "tanh": "an S-shaped function from -1 to 1 whose slope, 1 - tanh^2, is at most 1.",
    "tanh RNN": ("the classic RNN step h = tanh(w*h + x): two steps do not make one step of "
                 "that form, so a scan has no combine of fixed size for it."),
    "tile": "a block of the n x n scores, computed, used and dropped.",
    "token": "one unit of a model's input or output: a word, part of one, or here a number.",
    "transformer": "a model of attention and feed-forward layers, with no recurrence (Vaswani et"
                   " al. 2017).",
    "tree": "combining values in pairs, then pairs of pairs: depth ceil(log2 N).",
    "value": "what a position offers to be read: attention sums the values, weighted.",
    "varied": ("a verdict of `train`: some initializations learned nothing, others "
               "more."),
    "wall-clock": "time as a clock on the wall measures it: what a run takes, waits included.",
    "weight": "attention's: a score after the softmax, 0 to 1, all summing to 1; a model's: a "
              "parameter.",
    "width": "how many numbers a state or a model's vectors hold (d).",
    "work": "how many operations run in all.",
}


def render_term(word, glossary=GLOSSARY):
    """Return word's entry, whatever its case, and every entry that lists it among
    others (T: the length, and the counts K, M, G, T, P), trying each of the word's
    forms in turn (_term_forms: 8.80T is T, n = 512 is n); else the one entry whose
    term holds it (Hillis: Hillis-Steele); else raise ValueError naming the nearest."""
    import difflib
    by_case = {term.casefold(): term for term in glossary}
    folded = word.casefold().replace("–", "-").replace("—", "-")      # Hillis–Steele
    found = []
    for key in _term_forms(folded):
        # the entry of the word itself first (T: the length), then those that list it
        found = ([term for k, term in by_case.items() if k == key]
                 + [term for k, term in by_case.items() if k != key and key in k.split(", ")])
        if found:
            break
    holding = [term for key, term in by_case.items() if folded in re.split(r"[\s,-]+", key)]
    if not found and len(holding) == 1:
        found = holding
    if not found:
        near = holding or [by_case[key] for key in
                           difflib.get_close_matches(folded, by_case, n=1, cutoff=0.75)]
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise ValueError(f"no term {_echo(word)} in the glossary{hint} "
                         f"(every term: python {PROG} terms)")
    return "\n".join(line for term in found for line in textwrap.wrap(
        f"{term}: {glossary[term]}", 79, subsequent_indent="    "))


def _term_forms(folded):
    """Yield the forms a printed word is looked up in, in turn: as it is; a number
    in e-notation; the unit after a number (8.80T: T, 48.9 µs: µs, 6.0x: x); a
    column without its number (n = 512: n; tree steps, P = 10,000: tree steps;
    vs width 1: vs width); a count as K (fastest of 3 timings); a plural."""
    yield folded
    if re.fullmatch(r"[\d.]+e[-+]?\d+", folded):
        yield "e-notation, e"
    yield re.sub(r"^[\d,.]+ ?", "", folded)
    yield re.sub(r"^(\w+) ?= ?[\d,.]+$", r"\1", folded)
    yield re.sub(r", [a-z]+ ?=? ?[\d,.]+$", "", folded)
    yield re.sub(r" [\d,.]+$", "", folded)
    yield re.sub(r"\b\d[\d,]*\b", "k", folded)          # fastest of 3 timings: of K
    yield folded[:-1]


def render_terms(glossary=GLOSSARY):
    """Return every term and its meaning, alphabetically, wrapped to 79 columns."""
    lines = ["=== every term the sections print, in plain words ==="]
    for term in sorted(glossary, key=str.casefold):
        lines += textwrap.wrap(f"{term}: {glossary[term]}", 79, subsequent_indent="    ")
    return "\n".join(lines)


# ============================================================================
# Machinery: the command line
# ============================================================================

PROG = "main.py"                # the name in messages: a script run where it is, never installed
DEFAULT_SECTIONS = ("depth", "wallclock", "scan")


def main(argv=None):
    """Run the command line with argv (default sys.argv[1:]); return the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    if isinstance(argv, str) or not all(isinstance(arg, str) for arg in argv):
        raise TypeError(f"main requires a list of strings, as sys.argv[1:], got {argv!r:.40}")
    argv = list(argv)
    with contextlib.suppress(AttributeError):   # not a file: a notebook's, a StringIO
        sys.stdout.reconfigure(errors="backslashreplace")      # µ on an ASCII terminal
    try:
        try:
            if argv[:1] == ["terms"]:
                status = _terms_command(argv[1:])
            elif argv[:1] == ["check"]:
                status = _check_command(argv[1:])
            else:
                status = _sections_command(argv)
        except SystemExit as exc:       # argparse's: --help (0), a bad argument (2)
            status = exc.code
        if sys.stdout is not None:      # None where file descriptor 1 is closed: print() is quiet
            sys.stdout.flush()          # here, where a closed pipe is caught, not at exit
        return status
    except KeyboardInterrupt:           # Ctrl-C: Python's own status for it, no traceback
        return 130
    except BrokenPipeError:             # the reader has gone: end quietly (Python's recipe)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _parser(**kwargs):
    """Return an argparse parser 79 columns wide that breaks no word at a hyphen."""
    import argparse

    class Formatter(argparse.RawDescriptionHelpFormatter):
        def __init__(self, prog):
            super().__init__(prog, width=79)

        def _split_lines(self, text, width):
            return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)
    return argparse.ArgumentParser(formatter_class=Formatter, **kwargs)


def _option_type(option):
    """Return argparse's type= for option: a whole number from option.low to
    option.high, or with option.many up to MAX_LIST of them, separated by commas."""
    import argparse

    def whole(text):
        if not re.fullmatch(r"[0-9]+(_[0-9]+)*", text):
            raise argparse.ArgumentTypeError(f"needs whole numbers written with the digits "
                                             f"0-9, got {_echo(text)}")
        digits = text.replace("_", "").lstrip("0") or "0"
        if len(digits) > len(str(option.high)) or not option.low <= int(digits) <= option.high:
            raise argparse.ArgumentTypeError(f"each must be from {option.low:_} to "
                                             f"{option.high:_}")
        return int(digits)

    def parse(text):
        if not option.many:
            return whole(text)
        values = text.split(",")
        if len(values) > MAX_LIST:
            raise argparse.ArgumentTypeError(f"takes at most {MAX_LIST} values")
        return list(dict.fromkeys(map(whole, values)))
    return parse


def _sections_command(argv):
    """Compute and print the sections argv names, with its options; return the status."""
    listing = []
    for name, section in SECTIONS.items():
        entry = f"{name:<10} {section.summary}"
        if section.options:
            entry += f" ({', '.join(o.flag for o in section.options)})"
        listing += textwrap.wrap(entry, 77, initial_indent="  ", subsequent_indent=" " * 13,
                                 break_on_hyphens=False)
    parser = _parser(prog=PROG, usage=f"{PROG} [SECTION ...] [options]", epilog=(
        "sections (in parentheses, the options they read):\n" + "\n".join(listing) +
        f"\n  {'all':<10} every section above\n\n"
        f"With no section: {' '.join(DEFAULT_SECTIONS)} (the lesson's three).\n"
        f"{PROG} terms [WORD]: every term the sections print, in plain words (or one).\n"
        f"{PROG} check FILE.py: grade your own solutions of the exercises;\n"
        f"{PROG} check --template prints a file to start from."),
        description="Why transformers: the serial depth of a recurrence against a reduction.")
    parser.add_argument("sections", nargs="*", metavar="SECTION",
                        help="sections to run, in this order (default: the lesson's three)")
    for option in dict.fromkeys(o for s in SECTIONS.values() for o in s.options):
        parser.add_argument(option.flag, type=_option_type(option), metavar=option.metavar,
                            help=option.help)
    parser.add_argument("--json", action="store_true",
                        help="print the results as one JSON object keyed by section")
    parser.add_argument("--svg", metavar="DIR", help=(
        "also draw each section's figure, where it has one "
        f"({', '.join(n for n, s in SECTIONS.items() if s.figure)}), to DIR/SECTION.svg"))
    after = []
    if "--" in argv:                    # after --, every word is a section's name
        argv, after = argv[:argv.index("--")], argv[argv.index("--") + 1:]
    opts = parser.parse_intermixed_args(argv)
    opts.sections += after
    for name in opts.sections:
        if name != "all" and name not in SECTIONS:
            parser.error(f"unknown section {_echo(name)} (choose from {', '.join(SECTIONS)}, "
                         "all)")
    if "all" in opts.sections:
        opts.sections = list(SECTIONS)
    opts.sections = list(dict.fromkeys(opts.sections or DEFAULT_SECTIONS))
    read = {o for name in opts.sections for o in SECTIONS[name].options}
    for option in dict.fromkeys(o for s in SECTIONS.values() for o in s.options):
        if getattr(opts, option.flag[2:].replace("-", "_")) is not None and option not in read:
            readers = [name for name, s in SECTIONS.items() if option in s.options]
            parser.error(f"argument {option.flag}: read by {_readable_list(readers)}, none of "
                         "the sections chosen")
    for name in opts.sections:          # before any section runs: `all` prints as it goes
        refuse = SECTIONS[name].refuse
        refusal = refuse(opts) if refuse is not None else None
        if refusal:
            parser.error(refusal)
    if opts.svg is not None:
        _require_figure_files(parser, opts.svg, [n for n in opts.sections if SECTIONS[n].figure])
    _run(opts)
    return 0


def _run(opts):
    """Compute and print each chosen section, each as soon as it is computed, and draw
    its figure with --svg; `all` ends with what the lesson's problems and exercises
    came to (_summary), --json with one JSON document."""
    results, drawn = {}, []
    for name in opts.sections:
        section = SECTIONS[name]
        results[name] = section.compute(opts)
        if opts.svg is not None and section.figure:
            drawn.append(_write_figure(opts.svg, name, section.figure(results[name])))
        if not opts.json:
            if len(results) > 1:
                print()
            # flushed: through a pipe, a section shows while the next one computes
            print(section.render(results[name]), flush=True)
    if opts.json:
        import json                     # imported here: a text run does not need it
        print(json.dumps(results, indent=2))
    elif opts.sections == list(SECTIONS):
        print("\n" + _summary(results))
    if opts.sections == list(DEFAULT_SECTIONS) and not opts.json:
        print(f"\n{TAKEAWAY}\nMore: python {PROG} all; python {PROG} terms")
    if opts.svg is not None:
        print(f"{PROG}: wrote {', '.join(drawn) or 'no figure: none of these sections draws one'}",
              file=sys.stderr)


def _summary(results):
    """Return the end of `all`: what the sections with a headline found, the
    lesson's three problems and its three exercises."""
    lines = ["=== the lesson's three problems and three exercises, as found here ==="]
    for name, result in results.items():
        if SECTIONS[name].headline is not None:
            said = SECTIONS[name].headline(result)
            lines += textwrap.wrap(f"{name}: {said}.", 79, subsequent_indent="  ")
    return "\n".join(lines)


def _terms_command(words):
    """Print every term, or the one that words name; return the exit status."""
    if not words:
        print(render_terms())
        return 0
    try:
        print(render_term(" ".join(words)))
    except ValueError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    return 0


CHECK_ABOUT = (
    "Grades your solutions of the exercises. FILE.py runs as python FILE.py runs it, "
    "except its if __name__ == \"__main__\": block. Each of {names} that it defines is "
    "called on inputs whose answers are known: small ones first (small ints, letters, ints "
    "past 2**53, affine maps), then long ones (N = {long}; for depth, n up to 2**64), and "
    "once with its defaults.",
    "Verdicts: pass; FAIL, shown on the smallest input that fails, with the classic slip "
    "that explains every answer where one does; not parallel, a right parallel_scan deeper "
    "than 2 ceil(log2 N); not written yet, it still raises NotImplementedError; not in the "
    "file, not defined there or imported from main.py; not graded, benchmark, since a time "
    "has no right answer. Numbers compare as Python compares them, floats to a relative "
    "{tol:g}; a bool is no number.",
    "A right parallel_scan is run again on values that count their combines, at N = "
    "{counted}: its depth and combines are said at the longest, N = {deepest}, past the long "
    "inputs (at {stop} for a scan past four times Hillis-Steele's combines), and the depth of "
    "each output at N = {mirror}, beside Hillis-Steele's. A right "
    "rnn_style_vector has its update timed beside main.py's, at widths {widths}.",
    "Each function runs in a fresh Python process of its own, S seconds a call and "
    "{budget} x S in all. On Linux and macOS the process and all it starts end when its "
    "grading ends, or when check ends, however it ends; it may write at most {writes}, and "
    "where the system enforces it (Linux) use at most {memory}. On Windows it ends soon "
    "after check, unless stuck in C code (a regular expression that never ends, say), and "
    "a process that your function starts may outlive it.")


def _check_command(argv):
    """Run `check [--seconds S] FILE.py` or `check --template`; return the
    exit status: 0 if every function written passed, 1 if not, 2 for a bad argument."""
    # check imports what it needs as it goes: a learner's json.py saved beside main.py
    # must not be found in place of Python's, so main.py's folder leaves the path.
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    about = [textwrap.fill(paragraph.format(
        names=_readable_list(CHECKED), long=_readable_list([f"{n:,}" for n in CHECK_LARGE]),
        tol=SCAN_REL_TOL, widths=_readable_list([str(w) for w in HIDDEN_WIDTHS]),
        counted=_depth_lengths(), deepest=f"{CHECK_DEPTH_LENGTHS[-1]:,}", mirror=MIRROR_N,
        stop=f"{CHECK_DEPTH_LENGTHS[-2]:,}",
        budget=CHECK_BUDGET, writes=format_bytes(CHECK_WRITES),
        memory=format_bytes(CHECK_MEMORY)), 79, break_on_hyphens=False)
        for paragraph in CHECK_ABOUT]
    parser = _parser(prog=f"{PROG} check", description="\n\n".join(about), epilog=(
        "Exit status: 0 if every function written passed, 1 if one did not (or none\n"
        "is written), 2 if FILE.py cannot be read or is not Python."))
    parser.add_argument("file", nargs="?", metavar="FILE.py", help="your solutions")
    parser.add_argument("--seconds", type=_check_seconds, default=CHECK_SECONDS, metavar="S",
                        help=(f"seconds a call may take ({CHECK_MIN_SECONDS} to "
                              f"{CHECK_MAX_SECONDS}; default "
                              f"{CHECK_SECONDS}); a function's calls take {CHECK_BUDGET} x S "
                              "in all at most"))
    parser.add_argument("--template", action="store_true", help=(
        "print a file to start from (it takes no FILE.py: save it with > mine.py)"))
    opts = parser.parse_args(argv)
    if opts.template and opts.file is None:
        print(CHECK_TEMPLATE, end="")
        return 0
    if opts.template or opts.file is None:
        parser.error("check takes one Python file, or --template alone (save it with "
                     "> mine.py)")
    try:
        report = check_solutions(opts.file, seconds=opts.seconds)
    except OSError as exc:
        parser.error(f"{_echo(exc.filename or opts.file)}: {exc.strerror or exc}")
    except ValueError as exc:
        parser.error(str(exc).replace("check_solutions requires", "check needs", 1))
    if report["file"]["verdict"] == "not Python":
        parser.error(f"{_echo(opts.file)} is not Python{report['file']['detail']}")
    print(render_check(opts.file, report))
    verdicts = {r["verdict"] for r in report["functions"]}
    if "pass" in verdicts and not verdicts & {"FAIL", "not parallel"}:
        return 0
    return 1


def _depth_lengths():
    """Return CHECK_DEPTH_LENGTHS in words: '1 to 70, 1,025 and 2,049'."""
    ns, runs = CHECK_DEPTH_LENGTHS, []
    for n in ns:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return _readable_list([f"{a:,}" if a == b else f"{a:,} to {b:,}" for a, b in runs])


def _check_seconds(text):
    """Return text as check's --seconds: a number from CHECK_MIN_SECONDS to CHECK_MAX_SECONDS."""
    import argparse
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not CHECK_MIN_SECONDS <= seconds <= CHECK_MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"needs a number from {CHECK_MIN_SECONDS} to "
                                         f"{CHECK_MAX_SECONDS}, got {_echo(text)}")
    return seconds


def _require_figure_files(parser, directory, names):
    """Refuse --svg DIR before any work unless DIR and each DIR/NAME.svg can be written:
    each is opened once for appending, and a file made only to try is removed."""
    import tempfile
    try:
        os.makedirs(directory, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory):
            pass
    except (OSError, ValueError) as exc:
        parser.error(f"argument --svg: cannot write to the directory {_echo(directory)}: "
                     f"{getattr(exc, 'strerror', None) or exc}")
    for name in names:
        path = os.path.join(directory, f"{name}.svg")
        existed = os.path.lexists(path)
        try:
            open(path, "a").close()
        except OSError as exc:
            parser.error(f"argument --svg: cannot write {_echo(path)}: {exc.strerror or exc}")
        if not existed:
            os.remove(path)


def _write_figure(directory, name, svg):
    """Write a figure to directory/name.svg; return its path."""
    path = os.path.join(directory, f"{name}.svg")
    with open(path, "w", encoding="utf-8") as f:
        f.write(svg)
    return path


def _echo(text):
    """Return text quoted for an error message, cut to ECHO_CHARS characters."""
    return repr(text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS - 3] + "...")


def _readable_list(words):
    """Return 'a', 'a and b', 'a, b and c'."""
    return " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)


if __name__ == "__main__":
    sys.exit(main())
