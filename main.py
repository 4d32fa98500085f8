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
    timers = [timeit.Timer(stmt, timer=timer, globals=namespace)
              for stmt in ("rnn_style(xs)", "attention_style(xs)")]
    loops = [_loop_count(t) for t in timers]
    best = [math.inf, math.inf]
    for _ in range(reps):
        for k, t in enumerate(timers):           # rnn, attention, rnn, attention, ...
            best[k] = min(best[k], t.timeit(loops[k]) / loops[k])
    return best[0], best[1]


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


def render_wallclock(rows):
    """Return the wall-clock table as text, with what its ratio measures."""
    table = _table(("N", "rnn / call", "attn / call", "rnn / attn"),
                   [(f"{r['n']:,}", format_seconds(r["rnn_s"]), format_seconds(r["attn_s"]),
                     _format_ratio(r["ratio"])) for r in rows])
    return "\n".join([
        "=== wall-clock on this machine (pure Python) ===",
        table,
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
        f"length: {r['length']:,} random floats (seed {r['seed']}), "
        f"mismatches between serial and parallel scan: {r['mismatches']}",
        f"(a mismatch differs by more than {r['rel_tol']:g} x the largest value)",
        f"last value (serial):   {r['serial_last']!r}",
        f"last value (parallel): {r['parallel_last']!r}",
        f"depth: serial scan {r['serial_steps']:,} dependent steps, "
        f"Hillis-Steele {r['parallel_steps']} rounds",
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
