"""Shared helpers for the tests: awkward lengths, fixed-seed inputs, running the command line."""

import contextlib
import io
import json
import os
import random
import subprocess
import sys

import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAIN_PY = os.path.join(ROOT, "main.py")

# 0, 1, 2, 3, powers of two and their neighbours, and the lesson's 1,024.
AWKWARD_LENGTHS = (0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 1023, 1024, 1025)


def random_floats(n, seed=0):
    """Return n fixed-seed floats in [-1, 1)."""
    rng = random.Random(seed * 100_003 + n)
    return [rng.uniform(-1.0, 1.0) for _ in range(n)]


def close(a, b, rel=1e-9, scale=1.0):
    """Return True if a and b agree within rel times max(|a|, |b|, scale)."""
    return abs(a - b) <= rel * max(abs(a), abs(b), scale)


def run_main(*argv):
    """Run main.main(argv) in-process; return (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main.main(list(argv))
    return status, out.getvalue(), err.getvalue()


def run_script(*argv):
    """Run `python main.py argv` as a child process; return the CompletedProcess."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, MAIN_PY, *argv], cwd=ROOT, env=env,
                          capture_output=True, encoding="utf-8", timeout=60)


def run_section(test, *argv):
    """Run main.main(argv) as text and again with --json, asserting that both succeed
    quietly; return (text, the parsed JSON object)."""
    status, text, err = run_main(*argv)
    test.assertEqual((status, err), (0, ""), argv)
    status, out, err = run_main(*argv, "--json")
    test.assertEqual((status, err), (0, ""), argv)
    return text, json.loads(out)
