"""Shared helpers for the tests: awkward lengths, fixed-seed inputs, a fake clock, the
contract every inclusive scan meets, running the command line, patching, and child
processes: forked ones, and those started early (as their test file is imported) so
that they run while the other tests do."""

import ast
import atexit
import contextlib
import functools
import importlib
import io
import itertools
import json
import math
import operator
import os
import random
import re
import signal
import sys
import time
import types

import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAIN_PY = os.path.join(ROOT, "main.py")
NAN, INF = float("nan"), float("inf")
HUGE = 10**18                   # past every limit: a call with it must refuse, not run

# A child runs main.py's command line as `python main.py` does: -m runs the same
# `if __name__ == "__main__"` block from the module tests/__init__.py compiled,
# instead of compiling the file anew, and -S skips site-packages, which a standard-library
# script never needs.
CHILD = (sys.executable, "-S", "-m", "main")

# The same command line in a fresh interpreter with every timing sample fixed at
# 20 µs, for a child whose output must not depend on how busy the machine is. Its
# first line lists the heavy modules that importing main alone brought in.
FIXED_TIMES = (sys.executable, "-S", "-c",
               "import sys, main\n"
               "print('imported:', sorted({'argparse', 'json', 'multiprocessing'} "
               "& set(sys.modules)))\n"
               "main.sample_per_call = lambda functions, reps=3, **_: "
               "[[2e-5] * reps for f in functions]\n"
               "sys.exit(main.main(sys.argv[1:]))")

# 0, 1, 2, 3, powers of two and their neighbours, and the lesson's 1,024.
AWKWARD_LENGTHS = (0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 1023, 1024,
                   1025)


if sys.platform.startswith("linux"):
    import ctypes       # for every forked child's prctl call: imported once, here


def random_floats(n, seed=0):
    """Return n fixed-seed floats in [-1, 1)."""
    return main.uniform_inputs(n, random.Random(seed * 100_003 + n))


def close(a, b, rel=1e-9, scale=1.0):
    """Return True if a and b agree within rel times max(|a|, |b|, scale)."""
    return abs(a - b) <= rel * max(abs(a), abs(b), scale)


def run_main(*argv):
    """Run main.main(argv) in-process; return (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main.main(list(argv))
    return status, out.getvalue(), err.getvalue()


class Forked:
    """A child process forked from this one that runs main.main(argv) after
    setup(), its stdout and stderr on pipes (stdout to the file descriptor
    `stdout` instead, or to a pipe with no reader), like a subprocess.Popen of
    `python main.py argv` but without starting a new interpreter (70 ms here).
    With target instead of argv, it prints json.dumps(target()): returned()
    gives it back. It runs at niceness `nice`, after the tests in this process.
    The child always ends with os._exit: it never returns into the tests."""

    def __init__(self, argv=(), setup=None, stdout=None, reader=True, target=None, nice=10):
        out_r, out_w = os.pipe() if stdout is None else (None, stdout)
        if not reader:                  # a pipe whose reader is gone before any write
            os.close(out_r)
            out_r = None
        err_r, err_w = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        self.pid = os.fork()
        if self.pid == 0:                                   # the child
            status = 70
            try:
                main._kill_me_with_my_parent()      # on Linux: it never outlives the tests
                os.nice(nice)   # the tests in this process go first; it takes what is left
                # Ctrl-C as `python main.py` gets it from a terminal, even where the tests
                # were started with SIGINT ignored (a background job of a script)
                signal.signal(signal.SIGINT, signal.default_int_handler)
                os.dup2(out_w, 1)
                os.dup2(err_w, 2)
                sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False),
                                              encoding="utf-8", line_buffering=True)
                sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False),
                                              encoding="utf-8", line_buffering=True)
                if setup:
                    setup()
                if target:
                    print(json.dumps(target()))
                    status = 0
                else:
                    status = main.main(list(argv))
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 1
            except BaseException:
                import traceback
                traceback.print_exc()
            finally:
                with contextlib.suppress(Exception):
                    sys.stdout.flush()
                    sys.stderr.flush()
                os._exit(status)
        os.close(err_w)
        if stdout is None:
            os.close(out_w)
        # unbuffered, so that a readline() leaves the rest in the pipe for communicate()
        self.stdout = os.fdopen(out_r, "rb", buffering=0) if out_r is not None else None
        self.stderr = os.fdopen(err_r, "rb", buffering=0)
        self.returncode = None

    def send_signal(self, signum):
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signum)

    def kill(self):
        self.send_signal(signal.SIGKILL)

    def wait(self, timeout=None):
        """Return the exit status as subprocess gives it (-N for a signal),
        killing the child if it outlives timeout seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG if deadline else 0)
            if pid:
                self.returncode = (-os.WTERMSIG(status) if os.WIFSIGNALED(status)
                                   else os.WEXITSTATUS(status))
            elif time.monotonic() > deadline:
                self.kill()
                deadline = None
            else:
                time.sleep(0.005)
        return self.returncode

    def communicate(self, timeout=30):
        """Return (stdout bytes, stderr bytes) once the child has ended; kill it
        if its pipes are still open after timeout seconds."""
        import select
        deadline = time.monotonic() + timeout
        streams = [s for s in (self.stdout, self.stderr) if s and not s.closed]
        read = {s: [] for s in streams}
        while streams and time.monotonic() < deadline:
            for stream in select.select(streams, [], [], 0.1)[0]:
                chunk = os.read(stream.fileno(), 65536)
                if chunk:
                    read[stream].append(chunk)
                else:
                    streams.remove(stream)
        self.wait(max(0.0, deadline - time.monotonic()) or 0.001)
        for stream in read:
            stream.close()
        return (b"".join(read.get(self.stdout, ())), b"".join(read.get(self.stderr, ())))

    def returned(self):
        """Return what target() returned, once the child has ended."""
        if not hasattr(self, "value"):
            out, err = self.communicate()
            if self.returncode != 0:
                raise AssertionError(f"the child ended with {self.returncode}: {err.decode()}")
            self.value = json.loads(out)
        return self.value


_EARLY = []


def early(child):
    """Return child, a process a test file started when it was imported, so that
    it runs while the other files' tests do. One still running when the tests
    end (its test was not run) is killed then."""
    _EARLY.append(child)
    return child


_TURN = []     # the pipe the last child of ahead() holds open until it ends


def beside(target):
    """Start target() in a child process now, beside the chain of ahead() (for a
    result wanted early, or for work that mostly waits); return the child,
    whose returned() gives target()'s result as JSON gives it back. Where there
    is no fork, target() runs in this process when returned() asks for it."""
    if not hasattr(os, "fork"):
        return _InThisProcess(target)
    return early(Forked(target=target))


def ahead(target):
    """Start target() in a child process now, so that it runs while the other
    tests do; return the child, whose returned() gives target()'s result (as
    JSON gives it back). The children run one at a time, in the order they
    were started (the order the test files run in): each waits for the
    previous one to end. Where there is no fork, target() runs in this
    process when returned() asks for it."""
    if not hasattr(os, "fork"):
        return _InThisProcess(target)
    previous = _TURN.pop() if _TURN else None
    turn, held = os.pipe()

    def wait_for_the_previous():
        if previous is not None:
            os.read(previous, 1)            # end of file: the previous child has ended
    child = early(Forked(target=target, setup=wait_for_the_previous))
    os.close(held)                          # now only the child holds it
    if previous is not None:
        os.close(previous)
    _TURN.append(turn)
    return child


class _InThisProcess:
    """What ahead() returns where there is no fork: target() runs when asked."""

    def __init__(self, target):
        self.target = target

    def returned(self):
        if not hasattr(self, "value"):
            self.value = json.loads(json.dumps(self.target()))
        return self.value

    def kill(self):
        pass

    def communicate(self):
        return b"", b""


@atexit.register
def _end_early():
    for child in _EARLY:
        child.kill()
        child.wait()


def alive(pid):
    """Return True if the process exists and is not a zombie waiting to be reaped."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:                     # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def gone_within(pids, seconds):
    """Return True once none of the pids is alive, False if one still is after `seconds`."""
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def child_env(**extra):
    """Return the environment for a child python: this one without PYTHONIOENCODING
    (so that the child picks its own, as a user's terminal would), plus `extra`."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONIOENCODING"}
    env.update(extra)
    return env


def run_section(test, name, *options):
    """Run main.main([name, *options, "--json"]) once, asserting that it succeeds
    quietly; return (the section's text, rendered from the JSON, and its data)."""
    status, out, err = run_main(name, *options, "--json")
    test.assertEqual((status, err), (0, ""), (name, options))
    data = json.loads(out)[name]
    return main.SECTIONS[name].render(data), data


_SHARED = {}


def shared(key, compute):
    """Return compute(), computed once per run for every test file that asks for key."""
    if key not in _SHARED:
        _SHARED[key] = compute()
    return _SHARED[key]


def main_facts():
    """Return what the tests read off main.py's source, as an object whose
    returned() gives source_facts(); once per run, for every file that asks
    (test_layout and test_terms ask as they are imported). Like main.py's
    compiled file, the facts are kept in the ignored __pycache__, for this
    Python and these bytes of main.py and of this file (a SHA-256 of both): a
    run reads them there unless one of the two changed. Then a child computes
    them (0.25 s, most of it ast.parse) and keeps them; it runs beside the chain
    of ahead(), not in it, as test_layout needs it before the chain would reach it."""
    return shared("main.py's facts", _main_facts)


def _main_facts():
    import hashlib
    key = hashlib.sha256()
    for source in (MAIN_PY, __file__):
        with open(source, "rb") as f:
            key.update(f.read())
    key = key.hexdigest()
    path = os.path.join(ROOT, "__pycache__", f"main.facts.{sys.implementation.cache_tag}.json")
    with contextlib.suppress(OSError, ValueError, LookupError, TypeError):
        with open(path, encoding="utf-8") as f:
            kept = json.load(f)
        if kept["sha256"] == key:
            return types.SimpleNamespace(returned=lambda: kept["facts"])

    def compute_and_keep():
        facts = source_facts()
        with contextlib.suppress(OSError):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            new = f"{path}.{os.getpid()}.new"
            with open(new, "w", encoding="utf-8") as f:
                json.dump({"sha256": key, "facts": facts}, f)
            os.replace(new, path)               # whole, or not at all
        return facts
    return beside(compute_and_keep)


def source_facts():
    """Return what the tests read off main.py's source, from one parse: each
    top-level statement's first line, the function or class it defines, the
    section it registers (SECTIONS["name"] = ...) and every name it uses; the
    modules it imports; and, lowercased, every string constant but the
    docstrings and the glossary's, and the acronyms in them (two capitals or
    more)."""
    with open(MAIN_PY, encoding="utf-8") as f:
        body = ast.parse(f.read()).body
    statements, imports, strings = [], set(), []
    docstrings = {id(_docstring(body))}
    for statement in body:
        target = statement.targets[0] if isinstance(statement, ast.Assign) else None
        glossary = getattr(target, "id", None) == "GLOSSARY"
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


def gathered(name):
    """Return the table `name` (a dict or a set) of every test file, merged into
    one dict: each part's test file holds its own part's rows. A key found in
    two files is an error."""
    merged = {}
    for file in sorted(os.listdir(os.path.dirname(__file__))):
        if file.startswith("test_") and file.endswith(".py"):
            table = getattr(importlib.import_module(f"tests.{file[:-3]}"), name, {})
            twice = set(merged) & set(table)
            if twice:
                raise AssertionError(f"{file} names {sorted(twice)} again in {name}")
            merged.update(dict.fromkeys(table) if isinstance(table, set) else table)
    return merged


@contextlib.contextmanager
def patched(target, **values):
    """Within the with block, give target's attributes (its keys, if target is a
    dict) the values; restore them after, whatever happens (a key the dict did
    not have is removed)."""
    is_dict = isinstance(target, dict)
    put = target.__setitem__ if is_dict else functools.partial(setattr, target)
    saved = {name: target[name] if is_dict else getattr(target, name) for name in values
             if not is_dict or name in target}
    try:
        for name, value in values.items():
            put(name, value)
        yield target
    finally:
        for name in values:
            if name in saved:
                put(name, saved[name])
            else:
                del target[name]


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

    def test_ints_match_accumulate_exactly(self):
        rng = random.Random(3)
        for n in AWKWARD_LENGTHS:
            xs = [rng.randint(-1000, 1000) for _ in range(n)]
            self.assertEqual(self.run_scan(xs), list(itertools.accumulate(xs)), n)

    def test_string_concatenation_keeps_order(self):
        # Not commutative: any swapped operands would show up in the strings.
        for n in AWKWARD_LENGTHS:
            xs = [chr(ord("a") + i % 26) + str(i) for i in range(n)]
            self.assertEqual(self.run_scan(xs), list(itertools.accumulate(xs)), n)

    def test_matrix_products_match_accumulate(self):
        for n in (0, 1, 2, 3, 5, 8, 13, 16, 17):
            xs = random_matrices(n, seed=n)
            self.assertEqual(self.run_scan(xs, matmul2), list(itertools.accumulate(xs, matmul2)),
                             n)

    def test_floats_close_to_fsum_of_each_prefix(self):
        xs = random_floats(1024, seed=5)
        scale = math.fsum(map(abs, xs))
        out = self.run_scan(xs)
        for i in (0, 1, 2, 511, 1022, 1023):
            self.assertTrue(close(out[i], math.fsum(xs[:i + 1]), rel=1e-12, scale=scale), i)

    def test_floats_agree_with_serial_scan(self):
        for n in AWKWARD_LENGTHS:
            xs = random_floats(n, seed=2)
            self.assertEqual(main.count_mismatches(main.serial_scan(xs), self.run_scan(xs)), 0, n)

    def test_does_not_modify_input(self):
        xs = random_floats(100)
        before = list(xs)
        self.run_scan(xs)
        self.assertEqual(xs, before)

    def test_lists_are_concatenated_and_left_unchanged(self):
        # + on lists: a scan that adds in place (acc += x) would change xs[0]
        xs = [[k] for k in range(9)]
        self.assertEqual(self.run_scan(xs), list(itertools.accumulate(xs)))
        self.assertEqual(xs, [[k] for k in range(9)])
