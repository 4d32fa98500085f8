"""The command line: sections, options, JSON, bad arguments and exit codes,
in-process through main.main([...]) and as a real child process."""

import ast
import json
import os
import signal
import subprocess
import sys
import time
import unittest

import main
from tests.support import MAIN_PY, ROOT, run_main, run_script

FAST = ("--sizes", "1000", "--reps", "1")


class TestSections(unittest.TestCase):
    def test_default_run_prints_the_lesson_sections_in_order(self):
        status, out, err = run_main(*FAST)
        self.assertEqual((status, err), (0, ""))
        headers = ["=== serial-depth comparison ===",
                   "=== wall-clock on this machine (pure Python) ===",
                   "=== prefix-sum equivalence check ==="]
        positions = [out.index(h) for h in headers]
        self.assertEqual(positions, sorted(positions))
        self.assertIn("takeaway:", out)

    def test_named_sections_print_only_those_in_the_order_given(self):
        status, out, _ = run_main("scan", "depth")
        self.assertEqual(status, 0)
        self.assertLess(out.index("prefix-sum"), out.index("serial-depth"))
        self.assertNotIn("wall-clock", out)
        self.assertNotIn("takeaway:", out)

    def test_depth_section_labels_the_ratio_as_a_depth_ratio(self):
        _, out, _ = run_main("depth")
        self.assertIn("depth ratio", out)
        self.assertIn("262,144", out)
        self.assertIn("14,564x", out)          # 262144 / 18

    def test_wallclock_section_never_prints_zero_times(self):
        _, out, _ = run_main("wallclock", *FAST)
        self.assertNotIn("0.00", out)
        self.assertIn("not parallelism", out)

    def test_scan_section_reports_no_mismatch_and_both_depths(self):
        _, out, _ = run_main("scan")
        self.assertIn("mismatches between serial and parallel scan: 0", out)
        self.assertIn("1,024 dependent steps", out)
        self.assertIn("Hillis-Steele 10 rounds", out)


class TestJson(unittest.TestCase):
    def test_json_has_one_key_per_section_with_the_documented_fields(self):
        status, out, _ = run_main("--json", *FAST)
        self.assertEqual(status, 0)
        data = json.loads(out)
        self.assertEqual(list(data), ["depth", "wallclock", "scan"])
        self.assertEqual(data["depth"][0], {"n": 64, "rnn_depth": 64, "attn_depth": 6,
                                            "depth_ratio": 64 / 6})
        row = data["wallclock"][0]
        self.assertEqual(set(row), {"n", "rnn_s", "attn_s", "ratio"})
        self.assertAlmostEqual(row["ratio"], row["rnn_s"] / row["attn_s"])
        scan = data["scan"]
        for key in ("length", "mismatches", "serial_last", "parallel_last",
                    "serial_steps", "parallel_steps"):
            self.assertIn(key, scan)
        self.assertEqual((scan["length"], scan["mismatches"], scan["parallel_steps"]), (1024, 0, 10))

    def test_json_sizes_option_replaces_wallclock_sizes(self):
        _, out, _ = run_main("wallclock", "--json", "--sizes", "10,20", "--reps", "1")
        self.assertEqual([r["n"] for r in json.loads(out)["wallclock"]], [10, 20])


class TestBadArguments(unittest.TestCase):
    BAD = (["nonsense"], ["--sizes", "0"], ["--sizes", "abc"], ["--sizes", "1,,2"],
           ["--sizes", str(main.MAX_SIZE + 1)], ["--reps", "0"], ["--reps", "101"],
           ["--reps", "x"], ["--frobnicate"])

    def test_bad_arguments_exit_2_with_one_line_on_stderr(self):
        for argv in self.BAD:
            status, out, err = run_main(*argv)
            self.assertEqual(status, 2, argv)
            self.assertEqual(out, "", argv)
            self.assertEqual(len(err.splitlines()), 1, (argv, err))
            self.assertTrue(err.startswith("main.py: error: "), err)

    def test_help_lists_every_section_and_exits_0(self):
        status, out, _ = run_main("--help")
        self.assertEqual(status, 0)
        for name in list(main.SECTIONS) + ["all"]:
            self.assertIn(name, out)


class TestSubprocess(unittest.TestCase):
    def test_script_prints_text(self):
        proc = run_script("depth", "scan")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("=== serial-depth comparison ===", proc.stdout)
        self.assertEqual(proc.stderr, "")

    def test_script_prints_json(self):
        proc = run_script("scan", "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(json.loads(proc.stdout)["scan"]["mismatches"], 0)

    def test_script_bad_argument_no_traceback(self):
        for argv in (["--sizes", "abc"], ["bogus"], ["--reps", "0"]):
            proc = run_script(*argv)
            self.assertEqual(proc.returncode, 2)
            self.assertEqual(proc.stdout, "")
            self.assertNotIn("Traceback", proc.stderr)
            self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)


class TestInterruptions(unittest.TestCase):
    def test_closed_pipe_ends_quietly(self):
        # The reader is gone before the script writes: no BrokenPipeError noise.
        proc = subprocess.Popen([sys.executable, MAIN_PY, "depth", "scan", "work"], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        proc.stdout.close()
        err = proc.stderr.read().decode()
        proc.stderr.close()
        proc.wait(timeout=60)
        self.assertEqual(err, "")

    @unittest.skipUnless(hasattr(signal, "SIGINT") and os.name == "posix", "needs POSIX signals")
    def test_ctrl_c_exits_130_without_traceback(self):
        code = ("import sys, main; print('ready', flush=True); "
                "sys.exit(main.main(['wallclock', '--sizes', '10000000', '--reps', '100']))")
        proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual(proc.stdout.readline(), b"ready\n")
        time.sleep(0.3)             # let it get into main(), where Ctrl-C is handled
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 130)
        self.assertEqual(err, b"")


def _imported_modules(path):
    """Return the top-level names of every module that the file at path imports."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


class TestStandardLibraryOnly(unittest.TestCase):
    @unittest.skipUnless(hasattr(sys, "stdlib_module_names"), "needs Python 3.10+")
    def test_imports_are_standard_library_or_project(self):
        tests_dir = os.path.join(ROOT, "tests")
        files = [MAIN_PY] + [os.path.join(tests_dir, f) for f in os.listdir(tests_dir) if f.endswith(".py")]
        for path in files:
            outside = _imported_modules(path) - set(sys.stdlib_module_names) - {"main", "tests"}
            self.assertEqual(outside, set(), path)


if __name__ == "__main__":
    unittest.main()
