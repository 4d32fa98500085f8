"""The machinery's worker pool and check's grading children, and how the program
ends: workers never outlive it (Ctrl-C twice, SIGTERM, an exception, the parent
killed outright; SIGHUP takes SIGTERM's path, checked in this process), nor do
check's children and what a learner's file starts; limits end in one line and
never in a hang (processes or files that cannot be had, memory), and output is
all written or the program says it was not. The signal and limit cases run in
real child processes, started side by side as this file is imported; every
process a test starts is killed when it ends."""

import atexit
import contextlib
import json
import multiprocessing
import multiprocessing.connection   # once here, not in each forked `check` of the trials
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import types
import unittest

import main
from tests.support import (CHILD, ROOT, Forked, ahead, alive, child_env, early, gone_within,
                           patched, run_main)

def busy(opts):
    """The depth section replaced by two workers that sleep; it prints their
    process ids once they are up."""
    with main.WorkerPool(2) as pool:
        print("ready", *[p.pid for p, _ in pool.workers], flush=True)
        pool.run(time.sleep, [(60,), (60,)])


# This file's children start as it is imported and are read only as its tests
# run, near the end: they yield to the children the earlier files wait on.
LATE = 15


def run_busy():
    """In a forked child: Ctrl-C as a terminal has it, and depth made busy."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    main.SECTIONS["depth"] = main.SECTIONS["depth"]._replace(compute=busy)

# name: the signals sent once the workers are up, a pause between them.
ENDINGS = {"ctrl-c twice": [signal.SIGINT, signal.SIGINT],
           "sigterm": [signal.SIGTERM],
           "killed outright": [signal.SIGKILL]}


def set_subreaper(on):
    """Make this process adopt its orphaned descendants (Linux), so that it can
    reap the workers of a child it killed; return whether the platform could."""
    try:
        import ctypes
        return ctypes.CDLL(None, use_errno=True).prctl(36, int(on), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def limit_memory():
    """In a forked child: allow 40 MB of address space beyond what it has (the
    input of 10,000,000 values needs 80 MB for its array alone)."""
    import resource
    with open("/proc/self/status") as f:
        size = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
    resource.setrlimit(resource.RLIMIT_AS, (size + 40_000_000, size + 40_000_000))


def start_children():
    """Start TestChildren's children side by side, as this file is imported: they
    run while the other files' tests do. Return them and the reading end of the
    short writes' pipe (or None)."""
    children = {}
    if not (os.name == "posix" and hasattr(signal, "SIGHUP")):
        return children, None
    for name in ENDINGS:
        children[name] = early(Forked(["depth"], setup=run_busy, nice=LATE))
    # SIGTERM in the window between a figure's temporary file and its rename
    figures = tempfile.mkdtemp()
    atexit.register(shutil.rmtree, figures, ignore_errors=True)
    children["sigterm in a figure"] = early(Forked(
        ["depth", "--svg", os.path.join(figures, "new")], setup=lambda: setattr(
            os, "replace", lambda *_: os.kill(os.getpid(), signal.SIGTERM)), nice=LATE))
    children["sigterm in a figure"].directory = figures
    if os.path.exists("/proc/self/status"):
        children["out of memory"] = early(Forked(
            ["depth", "wallclock", "--sizes", "10000000", "--reps", "1"], setup=limit_memory,
            nice=LATE))
    if not (hasattr(os, "set_blocking") and sys.platform.startswith("linux")):
        return children, None
    # The command line writing to a 4 KiB non-blocking pipe, which main._write
    # writes to directly, with nobody reading until its test runs.
    import fcntl
    reader, writer = os.pipe()
    fcntl.fcntl(writer, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)
    os.set_blocking(writer, False)
    children["short writes"] = early(Forked(SHORT_WRITES, stdout=writer, nice=LATE))
    os.close(writer)
    reader = os.fdopen(reader, "rb")
    atexit.register(reader.close)
    return children, reader


SHORT_WRITES = ["depth", "scan", "cost", "gradient"]
CHILDREN, SHORT_WRITES_READER = start_children()


@unittest.skipUnless(os.name == "posix" and hasattr(signal, "SIGHUP"), "needs POSIX signals")
class TestFigureWrite(unittest.TestCase):
    @unittest.skipUnless(os.name == "posix" and hasattr(signal, "SIGHUP"), "POSIX signals")
    def test_sigterm_while_a_figure_is_written_leaves_no_temporary_file(self):
        child = CHILDREN["sigterm in a figure"]
        self.assertEqual(child.wait(10), 128 + signal.SIGTERM)
        child.communicate()
        self.assertEqual(os.listdir(os.path.join(child.directory, "new")), [])


class TestChildren(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.children, cls.short_writes, cls.workers = CHILDREN, SHORT_WRITES_READER, {}
        set_subreaper(True)             # PR_SET_CHILD_SUBREAPER: orphans come back to us
        for name in ENDINGS:
            ready = cls.children[name].stdout.readline().split()
            cls.workers[name] = [int(pid) for pid in ready[1:]]
        for k in range(max(map(len, ENDINGS.values()))):      # a round of signals at a time
            time.sleep(0.02 * (k > 0))
            for name, signals in ENDINGS.items():
                if k < len(signals):
                    cls.children[name].send_signal(signals[k])

    @classmethod
    def tearDownClass(cls):
        if cls.short_writes:
            cls.short_writes.close()
        for proc in cls.children.values():
            proc.kill()
            proc.communicate()
        for pids in cls.workers.values():
            for pid in pids:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
                try:
                    os.waitpid(pid, 0)  # an orphan this process adopted: reap it
                except ChildProcessError:
                    pass                # another process's child, reaped there
        set_subreaper(False)

    def result(self, name):
        proc = self.children[name]
        out, err = proc.communicate(timeout=30)
        return proc.returncode, (out or b"").decode(), err.decode()

    def check_ending(self, name, status):
        self.assertEqual(len(self.workers[name]), 2, name)
        got, _, err = self.result(name)
        self.assertEqual(got, status, (name, err))
        self.assertLessEqual(len(err.splitlines()), 1, err)
        self.assertTrue(gone_within(self.workers[name], 1.0), name)

    def test_ctrl_c_twice_while_workers_are_busy_ends_them_and_exits_130(self):
        self.check_ending("ctrl-c twice", 130)

    def test_sigterm_ends_the_workers_and_exits_143(self):
        self.check_ending("sigterm", 128 + signal.SIGTERM)

    def test_workers_of_a_parent_killed_outright_end_within_a_second(self):
        self.assertEqual(self.result("killed outright")[0], -signal.SIGKILL)
        self.assertTrue(gone_within(self.workers["killed outright"], 1.0))

    @unittest.skipUnless(os.path.exists("/proc/self/status"), "needs /proc")
    def test_running_out_of_memory_prints_what_finished_and_one_line(self):
        status, out, err = self.result("out of memory")
        self.assertEqual(status, 1)
        self.assertIn("=== serial-depth comparison ===", out)
        self.assertNotIn("=== wall-clock", out)
        self.assertEqual(err.splitlines(), ["main.py: error: out of memory in section wallclock; "
                                            "the sections before it are complete"])

    def test_a_full_non_blocking_pipe_gets_every_byte_unbuffered(self):
        # main._write writes straight to the non-blocking pipe: a write takes what
        # fits, and the rest waits until the reader (this test) makes room.
        if self.short_writes is None:
            self.skipTest("needs Linux pipes")
        got = b"".join(iter(lambda: self.short_writes.read(4096), b""))
        status, _, err = self.result("short writes")
        expected = run_main(*SHORT_WRITES)[1].encode()
        self.assertGreater(len(expected), 4096)
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(got, expected)


class TestPoolInThisProcess(unittest.TestCase):
    def test_an_exception_in_the_parent_ends_the_workers(self):
        with self.assertRaises(ZeroDivisionError):
            with main.WorkerPool(2) as pool:
                processes = [p for p, _ in pool.workers]
                1 / 0
        self.assertTrue(all(p.exitcode is not None for p in processes))
        self.assertEqual(multiprocessing.active_children(), [])

    def test_a_workers_exception_is_raised_here_and_the_pool_goes_on(self):
        with main.WorkerPool(2) as pool:
            with self.assertRaises(ZeroDivisionError):
                pool.run(divmod, [(1, 0)])
            self.assertEqual(pool.run(divmod, [(7, 2), (8, 3), (9, 4)]), [(3, 1), (2, 2), (2, 1)])

    @unittest.skipUnless(hasattr(signal, "SIGHUP"), "needs SIGHUP")
    def test_a_stop_signal_exits_128_plus_its_number(self):
        # SIGTERM's path, which a child process tests, with SIGHUP's number.
        def stopped(opts):
            raise main._Signalled(signal.SIGHUP)
        with patched(main.SECTIONS, depth=main.SECTIONS["depth"]._replace(compute=stopped)), \
                patched(main, _ignore_stop_signals=lambda: None):
            self.assertEqual(run_main("depth"), (129, "", ""))

    def test_every_wait_for_a_child_looks_for_signals_each_slice(self):
        # A signal that lands just before a blocking wait begins is handled when the
        # wait ends: the pool's waits for its workers, each
        # last one WAIT_SLICE at most, however long the child takes.
        import multiprocessing.connection
        real, timeouts = multiprocessing.connection.wait, []

        def recording(objects, timeout=None):
            timeouts.append(timeout)
            return real(objects, timeout)
        with patched(multiprocessing.connection, wait=recording), patched(main, WAIT_SLICE=0.01):
            with main.WorkerPool(1) as pool:
                pool.run(time.sleep, [(0.025,)])
        self.assertGreaterEqual(len(timeouts), 2)
        self.assertTrue(all(t is not None and t <= 0.01 for t in timeouts), timeouts)

    def test_the_signal_handlers_are_restored(self):
        self.addCleanup(signal.signal, signal.SIGTERM, signal.signal(signal.SIGTERM,
                                                                     signal.SIG_DFL))
        before = signal.getsignal(signal.SIGTERM)
        with main.WorkerPool(1):
            self.assertIsNot(signal.getsignal(signal.SIGTERM), before)
        self.assertIs(signal.getsignal(signal.SIGTERM), before)

    @unittest.skipUnless(hasattr(signal, "pthread_sigmask"), "needs pthread_sigmask")
    def test_workers_start_with_ctrl_c_held(self):
        # A child forked with SIGINT live can be hit before its loop ignores it
        # (tracebacks from Random.seed or _bootstrap): it must start with SIGINT held.
        import multiprocessing.process
        held, start = [], multiprocessing.process.BaseProcess.start

        def start_and_look(process):
            held.append(signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []))
            start(process)

        with patched(multiprocessing.process.BaseProcess, start=start_and_look):
            with main.WorkerPool(2) as pool:
                self.assertEqual(pool.run(divmod, [(7, 2)]), [(3, 1)])    # and they run
        self.assertEqual(held, [True, True])
        self.assertNotIn(signal.SIGINT, signal.pthread_sigmask(signal.SIG_BLOCK, []))

    def test_a_worker_killed_during_train_is_one_line_and_the_runs_go_on(self):
        class DyingPool:                # the out-of-memory killer, in the second round
            calls = 0

            def run(self, function, calls):
                DyingPool.calls += 1
                if DyingPool.calls == 2:
                    raise RuntimeError("a worker process stopped")
                return [function(*call) for call in calls]

            def close(self):
                pass

        with patched(main, TRAIN_CHUNK=2, TRAIN_TEST=20):           # two rounds of 2 steps
            here, lost_here = main.train_models((3,), 4, 1, pool=None)
            there, lost = main.train_models((3,), 4, 1, pool=DyingPool())
        self.assertEqual(lost, "a worker process stopped at step 2; the rest ran in this process")
        self.assertIsNone(lost_here)
        self.assertEqual([r["test_mse"] for r in there], [r["test_mse"] for r in here])

    def run_cores_when(self, failure):
        """Run cores and depth with the second worker's start, or pipe, failing."""
        with patched(main, _cpu_count=lambda: 2), failure:
            status, out, err = run_main("cores", "depth", "--sizes", "1000", "--reps", "1")
        self.assertEqual((status, err), (0, ""))
        self.assertIn("=== serial-depth comparison ===", out)
        self.assertEqual(multiprocessing.active_children(), [])
        return [line for line in out.splitlines() if line.startswith("not run:")]

    def test_a_process_limit_is_one_line_and_the_run_goes_on(self):
        start = multiprocessing.process.BaseProcess.start
        calls = []

        def second_fails(process):
            calls.append(process)
            if len(calls) == 2:
                raise BlockingIOError(11, "Resource temporarily unavailable")
            start(process)

        lines = self.run_cores_when(
            patched(multiprocessing.process.BaseProcess, start=second_fails))
        self.assertEqual(lines, ["not run: processes cannot start here "
                                 "([Errno 11] Resource temporarily unavailable)"])
        self.assertFalse(calls[0].is_alive())

    def test_a_file_limit_is_one_line_and_the_run_goes_on(self):
        pipe = multiprocessing.context.BaseContext.Pipe
        calls = []

        def second_fails(context, *args, **kwargs):
            calls.append(1)
            if len(calls) == 2:
                raise OSError(24, "Too many open files")
            return pipe(context, *args, **kwargs)

        lines = self.run_cores_when(
            patched(multiprocessing.context.BaseContext, Pipe=second_fails))
        self.assertEqual(lines, ["not run: processes cannot start here "
                                 "([Errno 24] Too many open files)"])


class TestOutOfMemory(unittest.TestCase):
    def run_with_scan_out_of_memory(self, *options):
        def fails(opts):
            raise MemoryError
        scan = main.SECTIONS["scan"]._replace(compute=fails)
        with patched(main.SECTIONS, scan=scan):
            return run_main("depth", "scan", "cost", *options)

    def test_the_sections_before_are_printed_then_one_line(self):
        status, out, err = self.run_with_scan_out_of_memory()
        self.assertEqual(status, 1)
        self.assertIn("=== serial-depth comparison ===", out)
        self.assertNotIn("=== what attention costs", out)
        self.assertEqual(err, "main.py: error: out of memory in section scan; "
                              "the sections before it are complete\n")

    def test_json_holds_the_sections_before(self):
        status, out, err = self.run_with_scan_out_of_memory("--json")
        self.assertEqual((status, list(json.loads(out))), (1, ["depth"]))
        self.assertEqual(len(err.splitlines()), 1)


# Files graded by real child processes, as the command line grades them.


if __name__ == "__main__":
    unittest.main()
