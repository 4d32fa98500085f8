"""Why transformers: the serial-depth gap between a recurrence and a reduction.

The runnable companion to "Why Transformers - The Problems with RNNs" (phase 7,
lesson 1 of the AI-engineering curriculum). An RNN computes h_t = f(h_{t-1}, x_t):
step t waits for step t-1, so N tokens are a chain of N dependent steps. Attention
is an order-independent reduction: its additions can be arranged as a tree whose
depth is ceil(log2 N). No neural network here; the bottleneck is simulated with
plain numbers so that it can be measured on any laptop.

Run it:

    python main.py                  # the lesson's three sections
    python main.py scan depth       # only the sections named, in that order
    python main.py --json           # the same results as one JSON object
    python main.py --help           # every section and option

Sections:

    depth      serial depth of the recurrence and of the reduction (step 2)
    wallclock  both timed on this machine, per call (step 3)
    scan       Hillis-Steele parallel prefix sum checked against the serial one
               (the Medium exercise)
    hidden     a vector hidden state of width 1, 8, 64, timed per step (Easy)
    sweep      lengths 64 ... 65,536 timed, plotted log-log, exponents fitted (Hard)

The first three run by default; `python main.py all` runs every section.

Standard library only; Python 3.9 or newer. Tests: python -m unittest
"""

import argparse
import json
import math
import operator
import os
import random
import sys
import time
import timeit

# Sizes of the lesson's tables (the seed script's).
DEPTH_SIZES = (64, 512, 4_096, 32_768, 262_144)
WALLCLOCK_SIZES = (1_000, 10_000, 100_000, 1_000_000)
SCAN_LENGTH = 1_024
SCAN_SEED = 7
SCAN_REL_TOL = 1e-9

# Each timing sample runs the function enough times to last about this long,
# so that a sample is long against the clock's resolution and its overhead.
SAMPLE_SECONDS = 0.002

# Bounds of the command-line options.
MAX_SIZE = 10_000_000
MAX_REPS = 100


def _require_int(func, name, value, low=1, high=None):
    """Raise TypeError unless value is an int (not a bool), ValueError unless low <= value <= high."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{func} requires {name} to be an int, got {type(value).__name__}")
    if value < low or (high is not None and value > high):
        bound = f">= {low}" if high is None else f"from {low} to {high}"
        raise ValueError(f"{func} requires {name} {bound}, got {value}")


# ============================================================================
# 1. Recurrence and reduction (the lesson's step 1)
# ============================================================================

def rnn_style(xs, decay=0.9):
    """Return the last hidden state of the recurrence h = decay*h + x, from h = 0.0.

    Step t needs the h of step t-1, so the N steps form one chain: work N,
    depth N, whatever hardware runs it. An empty sequence returns 0.0.

    >>> rnn_style([1.0, 1.0, 1.0])          # 1 + 0.9 + 0.81
    2.71
    >>> rnn_style([])
    0.0
    """
    h = 0.0
    try:
        for x in xs:
            h = decay * h + x           # cannot start before the previous h exists
    except TypeError as exc:
        raise TypeError(f"rnn_style requires an iterable of numbers and a numeric decay ({exc})") from None
    return h


def attention_style(xs):
    """Return the mean of xs: an order-independent reduction.

    Every x contributes independently of the others, so the N-1 additions can
    be arranged as a tree of depth ceil(log2 N). (CPython's sum() itself adds
    left to right, in C; see the `work` section for the measured depths.)

    >>> attention_style([1.0, 2.0, 3.0, 6.0])
    3.0
    >>> attention_style([])
    Traceback (most recent call last):
      ...
    ValueError: attention_style requires at least one value
    """
    try:
        n = len(xs)
        total = sum(xs)
    except TypeError as exc:
        raise TypeError(f"attention_style requires a sequence of numbers ({exc})") from None
    if n == 0:
        raise ValueError("attention_style requires at least one value")
    return total / n


# ============================================================================
# 2. Serial depth (the lesson's step 2)
# ============================================================================

def depth(n):
    """Return (rnn_depth, attention_depth) for a sequence of n elements.

    The depth is the longest chain of operations that must run one after
    another. The recurrence's is n; a balanced tree reduction's is
    ceil(log2 n), at least 1. Exact for every int n >= 1: integer arithmetic,
    no float log2 (which rounds wrongly above 2**53).

    >>> depth(1024)
    (1024, 10)
    >>> depth(1025)
    (1025, 11)
    >>> depth(2**60 + 1)[1]
    61
    """
    _require_int("depth", "n", n)
    return n, max(1, (n - 1).bit_length())     # (n-1).bit_length() == ceil(log2 n)


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
        table,
        "Both do about N additions; the depth is the longest chain of them that",
        "must run one after another. depth ratio = rnn depth / attn depth: how many",
        "times shorter the reduction's chain is, the most that enough parallel",
        "units could gain. A count, not a measured time.",
    ])


# ============================================================================
# 3. Wall-clock time on this machine (the lesson's step 3)
# ============================================================================

def seed_input(n):
    """Return the seed script's input: [0.001 * (i % 17) for i in range(n)].

    >>> seed_input(3)
    [0.0, 0.001, 0.002]
    """
    return [0.001 * (i % 17) for i in range(n)]


def _loop_count(timer, target=SAMPLE_SECONDS):
    """Return how many calls make one sample last about `target` seconds (at least 1)."""
    once = min(timer.timeit(1), timer.timeit(1))       # the first call also warms caches
    if once >= target:
        return 1
    return max(1, math.ceil(target / once)) if once > 0 else 1_000


def benchmark(n, reps=3, *, timer=time.perf_counter):
    """Return (rnn_seconds, attention_seconds): seconds per call on seed_input(n).

    Timed as the timeit module does it (garbage collector off during a
    sample): each sample runs enough calls to last about SAMPLE_SECONDS, the
    two functions' samples alternate so that a change in the machine's speed
    hits both, and the minimum over `reps` samples is kept, since slower
    samples come from interference, not from the code.

    >>> rnn_s, attn_s = benchmark(1_000, reps=1)
    >>> rnn_s > 0 and attn_s > 0
    True
    """
    _require_int("benchmark", "n", n)
    _require_int("benchmark", "reps", reps)
    namespace = {"rnn_style": rnn_style, "attention_style": attention_style, "xs": seed_input(n)}
    rnn_s, attn_s = best_per_call(["rnn_style(xs)", "attention_style(xs)"], namespace, reps, timer)
    return rnn_s, attn_s


def best_per_call(statements, namespace, reps=3, timer=time.perf_counter):
    """Return the best seconds per call of each statement, timed in alternation.

    Each statement gets its own timeit.Timer and loop count; then `reps`
    rounds each take one sample of every statement in turn (a, b, a, b, ...)
    and the minimum per call is kept.
    """
    timers = [timeit.Timer(stmt, timer=timer, globals=namespace) for stmt in statements]
    loops = [_loop_count(t) for t in timers]
    best = [math.inf] * len(timers)
    for _ in range(reps):
        for k, t in enumerate(timers):
            best[k] = min(best[k], t.timeit(loops[k]) / loops[k])
    return best


def wallclock_rows(sizes=WALLCLOCK_SIZES, reps=3):
    """Return the wall-clock table: per-call seconds of both functions and their ratio."""
    rows = []
    for n in sizes:
        rnn_s, attn_s = benchmark(n, reps)
        rows.append({"n": n, "rnn_s": rnn_s, "attn_s": attn_s,
                     "ratio": rnn_s / attn_s if attn_s > 0 else None})
    return rows


def format_seconds(seconds):
    """Return a duration in the unit that keeps three significant digits.

    Never "0.00": a duration under a nanosecond reads "< 1 ns".

    >>> format_seconds(0.0000312)
    '31.2 µs'
    >>> format_seconds(2.5)
    '2.50 s'
    >>> format_seconds(0.0)
    '< 1 ns'
    """
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale:
            value = seconds / scale
            decimals = 0 if value >= 100 else 1 if value >= 10 else 2
            return f"{value:.{decimals}f} {unit}"
    return "< 1 ns"


def _format_ratio(ratio):
    return "n/a" if ratio is None else f"{ratio:.1f}x"


def _timing_table(rows):
    return _table(("N", "rnn / call", "attn / call", "rnn / attn"),
                  [(f"{r['n']:,}", format_seconds(r["rnn_s"]), format_seconds(r["attn_s"]),
                    _format_ratio(r["ratio"])) for r in rows])


def render_wallclock(rows):
    """Return the wall-clock table as text, with what its ratio measures."""
    return "\n".join([
        "=== wall-clock on this machine (pure Python) ===",
        _timing_table(rows),
        "rnn / attn = how many times longer one rnn_style call takes than one",
        "attention_style call. Both run on one core, so this is the interpreter's",
        "per-step loop against sum() in C, not parallelism; the depth table is",
        "what a parallel machine would exploit.",
    ])


# ============================================================================
# 4. Prefix sums: serial scan and Hillis-Steele parallel scan (Medium exercise)
# ============================================================================

def serial_scan(xs):
    """Return the running sums of xs: out[i] == xs[0] + ... + xs[i].

    One dependent step per element: work N-1, depth N-1.

    >>> serial_scan([1, 2, 3, 4])
    [1, 3, 6, 10]
    """
    out = []
    try:
        for x in xs:
            out.append(out[-1] + x if out else x)     # needs the previous sum
    except TypeError as exc:
        raise TypeError(f"serial_scan requires an iterable of numbers ({exc})") from None
    return out


def _hillis_steele_offsets(n):
    """Yield the offsets 1, 2, 4, ... below n: one per round of the parallel scan."""
    step = 1
    while step < n:
        yield step
        step *= 2


def parallel_scan(xs):
    """Return the running sums of xs, computed as Hillis and Steele (1986) do.

    Same result as serial_scan: out[i] == xs[0] + ... + xs[i]. In round k
    every element adds the one 2**k places back; the additions within a round
    are independent of each other, so with N processors each round is one
    step: ceil(log2 N) rounds of depth 1, N*log2(N) - N + 1 additions in all.
    Here a round is one map() over the whole list. xs is not modified.

    >>> parallel_scan([1, 2, 3, 4, 5])
    [1, 3, 6, 10, 15]
    """
    out = list(xs)
    try:
        for step in _hillis_steele_offsets(len(out)):
            # out[i] = out[i - step] + out[i] for every i >= step, all at once.
            out = out[:step] + list(map(operator.add, out[:-step], out[step:]))
    except TypeError as exc:
        raise TypeError(f"parallel_scan requires a sequence of numbers ({exc})") from None
    return out


def count_mismatches(expected, actual, rel_tol=SCAN_REL_TOL):
    """Return how many positions differ by more than rel_tol times the largest |expected|.

    The tolerance is relative to the values: two summation orders of the same
    floats differ by rounding, which grows with their magnitude.

    >>> count_mismatches([1.0, 2.0, 3.0], [1.0, 2.0, 3.5])
    1
    """
    if len(expected) != len(actual):
        raise ValueError("count_mismatches requires two sequences of the same length")
    tol = rel_tol * max(map(abs, expected), default=0.0)
    return sum(1 for e, a in zip(expected, actual) if abs(e - a) > tol)


def scan_check(length=SCAN_LENGTH, seed=SCAN_SEED):
    """Return the scan comparison on `length` fixed-seed random floats in [-1, 1)."""
    rng = random.Random(seed)
    xs = [rng.uniform(-1.0, 1.0) for _ in range(length)]
    serial, parallel = serial_scan(xs), parallel_scan(xs)
    return {"length": length, "seed": seed, "rel_tol": SCAN_REL_TOL,
            "mismatches": count_mismatches(serial, parallel),
            "serial_last": serial[-1], "parallel_last": parallel[-1],
            "serial_steps": len(xs),
            "parallel_steps": sum(1 for _ in _hillis_steele_offsets(len(xs)))}


def render_scan(result):
    """Return the scan comparison as text."""
    r = result
    return "\n".join([
        "=== prefix-sum equivalence check ===",
        f"length: {r['length']:,} random floats in [-1, 1), seed {r['seed']}",
        f"mismatches between serial and parallel scan: {r['mismatches']}",
        f"  (a mismatch: more than {r['rel_tol']:g} x the largest value apart)",
        f"last value (serial):   {r['serial_last']!r}",
        f"last value (parallel): {r['parallel_last']!r}",
        f"depth: serial scan {r['serial_steps']:,} dependent steps, "
        f"Hillis-Steele {r['parallel_steps']} rounds",
    ])


# ============================================================================
# 5. Exercise (Easy): a vector hidden state
# ============================================================================

HIDDEN_WIDTHS = (1, 8, 64)
HIDDEN_STEPS = 64               # a short sequence: what is timed is one step


def hidden_weights(width, decay=0.9):
    """Return (A, b): the fixed weights of the vector recurrence h = A.h + b*x.

    A[i][j] is proportional to 1 / (1 + |i - j|), every row scaled to sum to
    `decay`: every unit reads every unit (dense), and since the entries are
    positive with row sums decay < 1, the state stays bounded for bounded
    input. b[i] = 1 / (1 + i), so that the units differ. With width 1 this is
    A = [[decay]], b = [1.0]: exactly rnn_style.

    >>> hidden_weights(1, 0.9)
    ([[0.9]], [1.0])
    >>> A, b = hidden_weights(2, 0.9)
    >>> A
    [[0.6, 0.3], [0.3, 0.6]]
    """
    _require_int("hidden_weights", "width", width)
    A = []
    for i in range(width):
        closeness = [1.0 / (1 + abs(i - j)) for j in range(width)]
        total = sum(closeness)
        A.append([decay * c / total for c in closeness])
    b = [1.0 / (1 + i) for i in range(width)]
    return A, b


def rnn_style_vector(xs, width=64, decay=0.9):
    """Return the final hidden state (width floats) of h = A.h + b*x, from h = 0.

    A dense recurrence as in a real RNN layer: each step computes every unit
    from all units of the previous state, width**2 multiply-adds a step, and
    the steps still form one chain: depth N, whatever the width. Weights from
    hidden_weights(width, decay). width=1 gives [rnn_style(xs, decay)].

    >>> rnn_style_vector([1.0, 1.0, 1.0], width=1) == [rnn_style([1.0, 1.0, 1.0])]
    True
    >>> rnn_style_vector([], width=3)
    [0.0, 0.0, 0.0]
    """
    _require_int("rnn_style_vector", "width", width)
    A, b = hidden_weights(width, decay)
    h = [0.0] * width
    try:
        for x in xs:
            # Every new unit needs the whole previous h: a dense matrix-vector product.
            h = [sum(map(operator.mul, row, h)) + bi * x for row, bi in zip(A, b)]
    except TypeError as exc:
        raise TypeError(f"rnn_style_vector requires an iterable of numbers ({exc})") from None
    return h


def hidden_rows(widths=HIDDEN_WIDTHS, steps=HIDDEN_STEPS, reps=3):
    """Return the time per step of rnn_style_vector at each width, and its growth."""
    namespace = {"f": rnn_style_vector, "xs": seed_input(steps)}
    calls = best_per_call([f"f(xs, width={w})" for w in widths], namespace, reps)
    base = calls[0] / steps
    return [{"width": w, "step_s": t / steps, "growth": (t / steps) / base,
             "madds_per_step": w * w, "depth": steps}
            for w, t in zip(widths, calls)]


def render_hidden(rows):
    """Return the hidden-width table as text, with the exercise's answer."""
    first = rows[0]["width"]
    table = _table(("width", "time / step", f"vs width {first}", "multiply-adds / step", "depth"),
                   [(r["width"], format_seconds(r["step_s"]), f"{r['growth']:,.1f}x",
                     f"{r['madds_per_step']:,}", f"{r['depth']:,}") for r in rows])
    return "\n".join([
        "=== exercise (easy): a vector hidden state ===",
        table,
        "A dense recurrence does width^2 multiply-adds a step (a diagonal one, as in",
        "state-space models, only width); at small widths the interpreter's fixed",
        "cost per step hides part of that growth. The depth stays N whatever the",
        "width: the work within a step can be spread across cores, the chain of",
        "steps cannot.",
    ])


# ============================================================================
# 6. Exercise (Hard): sweep the sequence length, plot, explain
# ============================================================================

SWEEP_SIZES = tuple(2 ** k for k in range(6, 17))      # 64 ... 65,536
FIT_MIN_N = 1_024       # below this the fixed cost of a call is a visible share


def fit_exponent(ns, seconds):
    """Return the slope of log(seconds) against log(n), by least squares.

    A time growing as c * n**k has slope k.

    >>> round(fit_exponent([10, 100, 1000], [2e-6, 2e-5, 2e-4]), 6)
    1.0
    """
    if len(ns) != len(seconds) or len(set(ns)) < 2:
        raise ValueError("fit_exponent requires as many times as sizes, and two different sizes")
    xs = [math.log(n) for n in ns]
    ys = [math.log(t) for t in seconds]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return (sum((x - mx) * (y - my) for x, y in zip(xs, ys))
            / sum((x - mx) ** 2 for x in xs))


def sweep(sizes=SWEEP_SIZES, reps=3):
    """Return the length sweep: per-call times at each size, and the fitted exponents.

    The exponents are fitted over the sizes >= FIT_MIN_N when there are two
    or more of them, otherwise over every size.
    """
    rows = wallclock_rows(sizes, reps)
    fitted = [r for r in rows if r["n"] >= FIT_MIN_N]
    if len({r["n"] for r in fitted}) < 2:
        fitted = rows
    exponents = {"fit_from_n": min(r["n"] for r in fitted), "rnn_exponent": None, "attn_exponent": None}
    if len({r["n"] for r in fitted}) >= 2:
        ns = [r["n"] for r in fitted]
        exponents["rnn_exponent"] = fit_exponent(ns, [r["rnn_s"] for r in fitted])
        exponents["attn_exponent"] = fit_exponent(ns, [r["attn_s"] for r in fitted])
    return {"rows": rows, **exponents}


def _log_position(value, low, high, cells):
    """Return the cell (0 .. cells-1) of value on a log scale from low to high."""
    if high <= low:
        return 0
    return round((math.log(value) - math.log(low)) / (math.log(high) - math.log(low)) * (cells - 1))


def plot_loglog(series, width=56, height=14):
    """Return a log-log chart of the series as lines of text.

    `series` maps a one-character marker to a list of (n, seconds) points.
    The smallest n is in the first column and the largest in the last; the
    smallest time is on the bottom row and the largest on the top. Where two
    series share a cell the cell shows '#'. The y axis is labelled at the
    powers of ten within range, the x axis at the smallest, the middle and
    the largest n of the points.
    """
    points = [(m, n, t) for m, pts in series.items() for n, t in pts]
    n_lo, n_hi = min(p[1] for p in points), max(p[1] for p in points)
    t_lo, t_hi = min(p[2] for p in points), max(p[2] for p in points)
    grid = [[" "] * width for _ in range(height)]
    for marker, n, t in points:
        row = height - 1 - _log_position(t, t_lo, t_hi, height)
        col = _log_position(n, n_lo, n_hi, width)
        grid[row][col] = marker if grid[row][col] in (" ", marker) else "#"
    labels = [""] * height
    for k in range(math.floor(math.log10(t_lo)), math.ceil(math.log10(t_hi)) + 1):
        if t_lo <= 10.0 ** k <= t_hi:
            label = format_seconds(10.0 ** k).replace(".00 ", " ").replace(".0 ", " ")   # "1 ms"
            labels[height - 1 - _log_position(10.0 ** k, t_lo, t_hi, height)] = label
    pad = max(len(s) for s in labels)
    lines = [f"{label:>{pad}} |{''.join(cells)}".rstrip() for label, cells in zip(labels, grid)]
    lines.append(" " * pad + " +" + "-" * width)
    axis = [" "] * (width + 2)
    sizes = sorted({p[1] for p in points})
    for n in sorted({n_lo, sizes[len(sizes) // 2], n_hi}):
        text = f"{n:,}"
        start = min(max(0, _log_position(n, n_lo, n_hi, width) + 1 - len(text) // 2), width + 2 - len(text))
        axis[start:start + len(text)] = text
    lines.append(" " * pad + "".join(axis).rstrip() + "  N (log)")
    return lines


def _format_exponent(k):
    return "n/a (needs two sizes)" if k is None else f"N^{k:.2f}"


def render_sweep(result):
    """Return the sweep as a table, a log-log chart, the fitted exponents and their reading."""
    rows = result["rows"]
    chart = plot_loglog({"r": [(r["n"], r["rnn_s"]) for r in rows],
                         "a": [(r["n"], r["attn_s"]) for r in rows]})
    return "\n".join([
        "=== exercise (hard): sequence-length sweep on this CPU ===",
        _timing_table(rows),
        "",
        "time per call (log)   r = rnn_style   a = attention_style   # = both",
        *chart,
        "",
        f"fitted growth from N = {result['fit_from_n']:,}: rnn_style "
        f"{_format_exponent(result['rnn_exponent'])}, attention_style {_format_exponent(result['attn_exponent'])}",
        "On one core both lines have slope 1: each does N additions one after",
        "another (sum() too, only in C); the gap between them is the interpreter's",
        "constant factor. At small N they flatten where the fixed cost of a call",
        "dominates. On a GPU the reduction's line would stay flat until its cores",
        "are saturated, while the recurrence would still grow as N: its depth is N",
        "(see the depth section).",
    ])


# ============================================================================
# Text tables
# ============================================================================

def _table(headers, rows):
    """Return rows of strings as a text table, columns right-aligned."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows)]
    return "\n".join("  ".join(str(cell).rjust(w) for cell, w in zip(line, widths))
                     for line in (headers, *rows))


# ============================================================================
# Command line
# ============================================================================

TAKEAWAY = """\
takeaway: a recurrence is a chain of N dependent steps; a reduction is a tree
of depth ceil(log2 N). Extra cores shorten only the tree. Full attention pays
for that with O(N^2) memory, the trade-off later lessons unpack."""

# name: (what it shows, compute(options) -> data, render(data) -> text)
SECTIONS = {
    "depth": ("serial depth of the recurrence and the reduction",
              lambda opts: depth_rows(), render_depth),
    "wallclock": ("both functions timed on this machine (uses --sizes, --reps)",
                  lambda opts: wallclock_rows(opts.sizes or WALLCLOCK_SIZES, opts.reps),
                  render_wallclock),
    "scan": ("Hillis-Steele parallel scan checked against the serial scan",
             lambda opts: scan_check(), render_scan),
    "hidden": ("exercise (easy): time per step of a vector hidden state, widths 1, 8, 64",
               lambda opts: hidden_rows(reps=opts.reps), render_hidden),
    "sweep": ("exercise (hard): lengths 64 ... 65,536 timed, plotted, fitted (uses --sizes)",
              lambda opts: sweep(opts.sizes or SWEEP_SIZES, opts.reps), render_sweep),
}
DEFAULT_SECTIONS = ("depth", "wallclock", "scan")


class _UsageError(Exception):
    """A bad command-line argument: reported on one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _UsageError(message)


def _parse_sizes(text):
    sizes = []
    for part in text.split(","):
        try:
            n = int(part)
        except ValueError:
            raise argparse.ArgumentTypeError(f"needs comma-separated whole numbers, got {part!r}") from None
        if not 1 <= n <= MAX_SIZE:
            raise argparse.ArgumentTypeError(f"each size must be from 1 to {MAX_SIZE:,}, got {n}")
        sizes.append(n)
    return sizes


def _parse_reps(text):
    try:
        reps = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"needs a whole number, got {text!r}") from None
    if not 1 <= reps <= MAX_REPS:
        raise argparse.ArgumentTypeError(f"must be from 1 to {MAX_REPS}, got {reps}")
    return reps


def _build_parser():
    listing = "\n".join(f"  {name:<10} {info[0]}" for name, info in SECTIONS.items())
    parser = _Parser(
        prog="main.py",
        description="Why transformers: the serial-depth gap between a recurrence and a reduction.",
        epilog=(f"sections:\n{listing}\n  {'all':<10} every section above\n\n"
                f"With no section: {' '.join(DEFAULT_SECTIONS)} (the lesson's three).\n"),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sections", nargs="*", metavar="SECTION",
                        help="sections to run, in this order (default: the lesson's three)")
    parser.add_argument("--sizes", type=_parse_sizes, metavar="N,N,...",
                        help=f"sequence lengths for the timed sections (1 to {MAX_SIZE:,})")
    parser.add_argument("--reps", type=_parse_reps, default=3, metavar="K",
                        help=f"timing samples per function, the minimum is kept (1 to {MAX_REPS}; default 3)")
    parser.add_argument("--json", action="store_true",
                        help="print the results as one JSON object keyed by section")
    return parser


def _parse_args(argv):
    opts = _build_parser().parse_args(argv)
    names = list(opts.sections) or list(DEFAULT_SECTIONS)
    if "all" in names:
        names = list(SECTIONS)
    for name in names:
        if name not in SECTIONS:
            raise _UsageError(f"unknown section {name!r} (choose from {', '.join(SECTIONS)}, all)")
    opts.sections = names
    return opts


def run(opts, out):
    """Compute each chosen section, then write it to `out` as text or JSON."""
    results = {name: SECTIONS[name][1](opts) for name in opts.sections}
    if opts.json:
        out.write(json.dumps(results, indent=2) + "\n")
        return
    texts = [SECTIONS[name][2](data) for name, data in results.items()]
    if opts.sections == list(DEFAULT_SECTIONS) or opts.sections == list(SECTIONS):
        texts.append(TAKEAWAY)
    out.write("\n\n".join(texts) + "\n")


def main(argv=None):
    """Run the command line with argv (default sys.argv[1:]); return the exit status.

    0 on success, 2 for a bad argument (one line on stderr), 130 on Ctrl-C.
    """
    try:
        opts = _parse_args(argv)
        run(opts, sys.stdout)
        sys.stdout.flush()
    except _UsageError as exc:
        print(f"main.py: error: {exc}", file=sys.stderr)
        return 2
    except SystemExit as exc:            # --help has been printed
        return exc.code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (python main.py | head): say nothing more.
        _silence_stdout()
        return 1
    return 0


def _silence_stdout():
    """Point stdout at /dev/null so that the interpreter's final flush cannot fail."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
