"""The worker pool, and how the program ends: workers never outlive it
(Ctrl-C, SIGTERM, SIGHUP, an exception, the parent killed outright); a signal
inherited as ignored stays ignored (nohup); limits end in one line, never in
a traceback or a hang; output is all written, or the program says it was not.
A real process only where one is the point: signals, pipes, limits."""

import concurrent.futures
import json
import multiprocessing
import multiprocessing.process
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from unittest import mock

import main
from tests.support import PYTHON, ROOT, gone_within, run_main

# `python main.py depth` whose section is two workers that sleep; it prints
# their process ids once they are up.
BUSY = """
import os, sys, time, main
def busy(opts):
    with main.WorkerPool(2) as pool:
        print("ready", *[p.pid for p in main.multiprocessing.active_children()], flush=True)
        pool.run(time.sleep, [(60,), (60,)])
main.multiprocessing = __import__("multiprocessing")
main.SECTIONS["depth"] = main.SECTIONS["depth"]._replace(compute=busy)
sys.exit(main.main(["depth"]))
"""


def python(code, *args, **kwargs):
    """Start `python -c code args` in the project's folder, its output on pipes."""
    return subprocess.Popen([*PYTHON, "-c", code, *args], cwd=ROOT,
                            stdout=kwargs.pop("stdout", subprocess.PIPE),
                            stderr=subprocess.PIPE, **kwargs)


@unittest.skipUnless(sys.platform.startswith("linux"), "workers that die with their parent")
class TestEndings(unittest.TestCase):
    """Two busy workers, then signals: the program and its workers end at once.
    The five programs run side by side; each test reads its own."""

    # name: (the signals, 20 ms apart unless `at once`, and a command before python)
    ENDINGS = {"ctrl-c twice": ([signal.SIGINT, signal.SIGINT], ()),
               "sighup": ([signal.SIGHUP], ()),
               "at once": ([signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ()),
               "killed outright": ([signal.SIGKILL], ()),
               "nohup": ([signal.SIGHUP, signal.SIGTERM], ("nohup",))}

    @classmethod
    def setUpClass(cls):
        # The workers of the parent killed outright are orphans: this process
        # adopts them (PR_SET_CHILD_SUBREAPER) and reaps them, so that none is
        # left as a zombie where the machine's first process does not reap.
        prctl = main._prctl()
        if prctl is not None:
            prctl(36, 1, 0, 0, 0)
        try:
            cls.run_endings()
        finally:
            if prctl is not None:
                prctl(36, 0, 0, 0, 0)

    @classmethod
    def run_endings(cls):
        children = {name: subprocess.Popen([*prefix, *PYTHON, "-c", BUSY], cwd=ROOT,
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                    for name, (_, prefix) in cls.ENDINGS.items()}
        workers = {name: [int(pid) for pid in child.stdout.readline().split()[1:]]
                   for name, child in children.items()}
        for name, child in children.items():
            for k, signum in enumerate(cls.ENDINGS[name][0]):
                time.sleep(0.02 * (k > 0 and name != "at once"))
                child.send_signal(signum)
        cls.ended = {}
        for name, child in children.items():
            try:
                _, err = child.communicate(timeout=10)
            finally:
                child.kill()
            cls.ended[name] = (child.returncode, err.decode(), len(workers[name]),
                               gone_within(workers[name], 1.0))
        for pid in sum(workers.values(), []):
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:       # reaped by its own parent
                pass

    def ending(self, name):
        status, err, workers, gone = self.ended[name]
        self.assertEqual((workers, gone), (2, True), name)
        return status, err

    def test_ctrl_c_twice_ends_the_workers_and_exits_130(self):
        self.assertEqual(self.ending("ctrl-c twice"), (130, ""))

    def test_sighup_ends_the_workers_and_exits_129(self):
        self.assertEqual(self.ending("sighup"), (129, ""))

    def test_three_signals_at_once_end_it_as_the_first_handled_says_without_a_traceback(self):
        status, err = self.ending("at once")
        self.assertIn(status, (129, 130, 143))
        self.assertEqual(err, "")

    def test_workers_of_a_parent_killed_outright_end_within_a_second(self):
        self.assertEqual(self.ending("killed outright")[0], -signal.SIGKILL)

    def test_under_nohup_a_hangup_is_ignored_and_sigterm_exits_143(self):
        self.assertEqual(self.ending("nohup"), (143, ""))  # SIGTERM ended it, not the hangup


@unittest.skipUnless(os.name == "posix", "POSIX signals and pipes")
class TestOutput(unittest.TestCase):
    def test_signals_while_a_figure_is_written_leave_no_temporary_file(self):
        # SIGTERM between the temporary file and its rename, then two more at once
        folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, folder)
        child = python("import os, signal, sys, main\n"
                       "def storm(*_):\n"
                       "    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):\n"
                       "        os.kill(os.getpid(), signum)\n"
                       "os.replace = storm\n"
                       "sys.exit(main.main(sys.argv[1:]))", "depth", "--svg", folder)
        out, err = child.communicate(timeout=30)
        self.assertEqual((child.returncode, err), (143, b""))
        self.assertEqual(os.listdir(folder), [])

    @unittest.skipUnless(os.path.exists("/proc/self/status"), "needs /proc")
    def test_running_out_of_memory_prints_what_finished_and_one_line(self):
        # 40 MB of address space beyond what the interpreter has: the input of
        # 10,000,000 values needs 80 MB for its array alone
        child = python("import resource, sys, main\n"
                       "size = next(int(l.split()[1]) * 1024 for l in open('/proc/self/status')"
                       " if l.startswith('VmSize:'))\n"
                       "resource.setrlimit(resource.RLIMIT_AS, (size + 40_000_000,) * 2)\n"
                       "sys.exit(main.main(sys.argv[1:]))",
                       "depth", "wallclock", "--sizes", "10000000", "--reps", "1")
        out, err = child.communicate(timeout=30)
        self.assertEqual(child.returncode, 1)
        self.assertIn(b"=== serial-depth comparison ===", out)
        self.assertNotIn(b"=== wall-clock", out)
        self.assertEqual(err.decode().splitlines(), [
            "main.py: error: out of memory in section wallclock; the sections before it are "
            "complete"])

    @unittest.skipUnless(sys.platform.startswith("linux"), "a pipe of 4 KiB")
    def test_a_full_non_blocking_pipe_gets_every_byte(self):
        # main._write writes straight to the non-blocking pipe: a write takes what
        # fits, and the rest waits until the reader, which starts late, makes room.
        import fcntl
        import threading
        reader, writer = os.pipe()
        fcntl.fcntl(writer, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)
        os.set_blocking(writer, False)
        expected = run_main("depth", "scan", "cost", "gradient", "ssm")[1]
        self.assertGreater(len(expected), 4096)
        got = []
        with open(reader, "rb") as f:
            late = threading.Thread(target=lambda: time.sleep(0.05) or got.append(f.read()))
            late.start()
            with open(writer, "w", encoding="utf-8") as stream:
                main._write(stream, expected)
            late.join()
        self.assertEqual(got, [expected.encode()])


class TestPool(unittest.TestCase):
    def test_an_exception_here_ends_the_workers(self):
        with self.assertRaises(ZeroDivisionError):
            with main.WorkerPool(2):
                workers = multiprocessing.active_children()
                1 / 0
        self.assertEqual(len(workers), 2)
        self.assertTrue(all(p.exitcode is not None for p in workers))
        self.assertEqual(multiprocessing.active_children(), [])

    def test_a_workers_exception_is_raised_here_and_the_pool_goes_on(self):
        with main.WorkerPool(2) as pool:
            with self.assertRaises(ZeroDivisionError):
                pool.run(divmod, [(1, 0), (3, 1)])
            self.assertEqual(pool.run(divmod, [(7, 2), (8, 3), (9, 4)]), [(3, 1), (2, 2), (2, 1)])

    def test_a_worker_that_dies_is_a_runtime_error(self):
        with main.WorkerPool(1) as pool:
            with self.assertRaisesRegex(main._WorkerStopped, "a worker process stopped"):
                pool.run(os._exit, [(3,)])

    def test_every_wait_for_the_workers_looks_for_signals_each_slice(self):
        # A signal that lands just before a blocking wait begins is handled only
        # when the wait ends: each wait lasts WAIT_SLICE at most.
        real, timeouts = concurrent.futures.wait, []

        def recording(futures, timeout=None):
            timeouts.append(timeout)
            return real(futures, timeout)
        with mock.patch.object(concurrent.futures, "wait", recording), \
                mock.patch.object(main, "WAIT_SLICE", 0.01):
            with main.WorkerPool(1) as pool:
                pool.run(time.sleep, [(0.025,)])
        self.assertGreaterEqual(len(timeouts), 2)
        self.assertTrue(all(t is not None and t <= 0.01 for t in timeouts), timeouts)

    def test_the_signal_handlers_are_restored_and_an_ignored_one_stays_ignored(self):
        for signum in (signal.SIGTERM, signal.SIGHUP):
            self.addCleanup(signal.signal, signum, signal.getsignal(signum))
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)        # as nohup leaves it
        with main.WorkerPool(1):
            self.assertIsNot(signal.getsignal(signal.SIGTERM), signal.SIG_DFL)
            self.assertIs(signal.getsignal(signal.SIGHUP), signal.SIG_IGN)
        self.assertIs(signal.getsignal(signal.SIGTERM), signal.SIG_DFL)

    @unittest.skipUnless(hasattr(signal, "pthread_sigmask"), "needs pthread_sigmask")
    def test_workers_start_with_ctrl_c_held(self):
        # A child forked with SIGINT live can be hit before it ignores it: it
        # must start with SIGINT held, which it lets in once it is set up.
        held, start = [], multiprocessing.process.BaseProcess.start

        def start_and_look(process):
            held.append(signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []))
            start(process)

        with mock.patch.multiple(multiprocessing.process.BaseProcess, start=start_and_look):
            with main.WorkerPool(2) as pool:
                self.assertEqual(pool.run(divmod, [(7, 2)]), [(3, 1)])    # and they run
        self.assertEqual(held, [True, True])
        self.assertNotIn(signal.SIGINT, signal.pthread_sigmask(signal.SIG_BLOCK, []))

    @unittest.skipUnless(hasattr(signal, "SIGHUP"), "needs SIGHUP")
    def test_a_stop_signal_exits_128_plus_its_number(self):
        def stopped(opts):
            raise main._Signalled(signal.SIGHUP)
        stopping = main.SECTIONS["depth"]._replace(compute=stopped)
        with mock.patch.dict(main.SECTIONS, depth=stopping), \
                mock.patch.object(main, "_ignore_stop_signals", lambda: None):
            self.assertEqual(run_main("depth"), (129, "", ""))

    def test_a_worker_lost_during_a_section_is_one_line_and_status_1(self):
        def lost(opts):
            raise main._WorkerStopped("a worker process stopped")
        with mock.patch.dict(main.SECTIONS, train=main.SECTIONS["train"]._replace(compute=lost)):
            status, out, err = run_main("depth", "train", "cost")
        self.assertEqual(status, 1)
        self.assertIn("=== serial-depth comparison ===", out)
        self.assertEqual(err, "main.py: error: a worker process stopped in section train; "
                              "the sections before it are complete\n")


class TestOutOfMemory(unittest.TestCase):
    def run_with_scan_out_of_memory(self, *options):
        def fails(opts):
            raise MemoryError
        with mock.patch.dict(main.SECTIONS, scan=main.SECTIONS["scan"]._replace(compute=fails)):
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


if __name__ == "__main__":
    unittest.main()
