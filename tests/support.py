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


def child_env(**extra):
    """Return the environment for a child python: this one without PYTHONIOENCODING
    (so that the child picks its own, as a user's terminal would), plus `extra`."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONIOENCODING"}
    env.update(extra)
    return env


def run_script(*argv, **env):
    """Run `python main.py argv` as a child process, with env added to its
    environment; return the CompletedProcess, its output decoded as UTF-8.
    subprocess.run kills the child if it outlives the timeout."""
    return subprocess.run([sys.executable, MAIN_PY, *argv], cwd=ROOT, env=child_env(**env),
                          capture_output=True, encoding="utf-8", errors="replace", timeout=60)


def run_section(test, name, *options):
    """Run main.main([name, *options, "--json"]) once, asserting that it succeeds
    quietly; return (the section's text, rendered from the JSON, and its data)."""
    status, out, err = run_main(name, *options, "--json")
    test.assertEqual((status, err), (0, ""), (name, options))
    data = json.loads(out)[name]
    return main.SECTIONS[name].render(data), data
