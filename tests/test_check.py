"""check: a learner's own solutions graded. Right and wrong solutions (a serial
parallel_scan, an off-by-one round, the wrong operand order, one that changes its
input, one that raises) each get their verdict in this process; one that never
returns, one that allocates without end, the template and this project's own
functions run in real child processes, as the command line runs them."""

import atexit
import contextlib
import operator
import os
import shutil
import sys
import tempfile
import time
import unittest

import main
from tests.support import Forked, ahead, early, gone_within, patched, run_main

RIGHT_SCAN = '''
def parallel_scan(xs, op=operator.add):
    out, step = list(xs), 1
    while step < len(out):
        out = out[:step] + [op(out[i - step], out[i]) for i in range(step, len(out))]
        step *= 2
    return out
'''

SOLUTIONS = {   # name: (source, the function graded, verdict, words its detail must hold)
    "right": (RIGHT_SCAN, "parallel_scan", "pass",
              "correct and parallel: 10 rounds, 9,217 combines at N = 1,024"),
    "serial": ('''
def parallel_scan(xs, op=operator.add):
    out = []
    for x in xs:
        out.append(op(out[-1], x) if out else x)
    return out
''', "parallel_scan", "not parallel", "a chain of 1,023 combines at N = 1,024"),
    "off by one round": (RIGHT_SCAN.replace("step < len(out)", "step < len(out) - 1"),
                         "parallel_scan", "FAIL",
                         "at N = 2 with concatenation: got ['a', 'b'], expected ['a', 'ab']"),
    "wrong order": (RIGHT_SCAN.replace("op(out[i - step], out[i])", "op(out[i], out[i - step])"),
                    "parallel_scan", "FAIL",
                    "got ['a', 'ba'], expected ['a', 'ab']: op(new, old) where op(old, new)"),
    "changes its input": ('''
def serial_scan(xs, op=operator.add):
    for i in range(1, len(xs)):
        xs[i] = op(xs[i - 1], xs[i])
    return xs
''', "serial_scan", "FAIL", "at N = 2 with concatenation it changed its input"),
    "raises": ('''
def attention_style(xs):
    return sum(xs) / (len(xs) - 1)
''', "attention_style", "FAIL", "ZeroDivisionError"),
    "depth off by one": ('''
def depth(n):
    return n, n.bit_length()
''', "depth", "FAIL", "at n = 2: got (2, 2), expected (2, 1)"),
}


def graded_here(path, names, seconds=None):
    """check_solutions without its child processes: the same grades, in this process."""
    import runpy
    learner = runpy.run_path(path)
    return [{"name": name, **(main._grade(learner[name], name, path) if name in learner
                              else {"verdict": "not attempted", "detail": ""})}
            for name in names]


def load(source, path="/learner/solution.py"):
    """Return the names a solution's source defines, compiled as the file at path."""
    names = {"operator": operator}
    exec(compile(source, path, "exec"), names)
    return names


class TestVerdicts(unittest.TestCase):
    def test_each_solution_gets_its_verdict(self):
        for label, (source, name, verdict, words) in SOLUTIONS.items():
            got = main._grade(load(source)[name], name, "/learner/solution.py")
            self.assertEqual(got["verdict"], verdict, label)
            self.assertIn(words, got["detail"], label)

    def test_a_learners_traceback_shows_only_the_learners_lines(self):
        source, name, _, _ = SOLUTIONS["raises"]
        detail = main._grade(load(source)[name], name, "/learner/solution.py")["detail"]
        self.assertIn('File "/learner/solution.py", line 3, in attention_style', detail)
        self.assertNotIn("main.py", detail)

    def test_this_projects_own_functions_pass(self):
        for name in main.CHECKED:
            got = main._grade(getattr(main, name), name, main.__file__)
            self.assertEqual(got["verdict"], "pass", (name, got))
            if name == "parallel_scan":     # the README's figure, measured on the running code
                self.assertEqual(got["detail"],
                                 "correct and parallel: 10 rounds, 9,217 combines at N = 1,024")


STUCK = ("def rnn_style(xs, decay=0.9):\n    while True:\n        pass\n\n\n"
         "def depth(n):\n    hoard = []\n    while True:\n"
         "        hoard.append([None] * 100_000_000)\n")


# A hang that first writes its process id next to the file.
SLEEPER = ("import os\nimport time\n\n\ndef rnn_style(xs, decay=0.9):\n"
           "    with open(os.path.join(os.path.dirname(__file__), 'sleeper.pid'), 'w') as f:\n"
           "        f.write(str(os.getpid()))\n"
           "    while True:\n        time.sleep(1)\n")


def grade_stuck(path):
    """In a child: a hang and endless memory, each graded in a grandchild process."""
    results = main.check_solutions(path, ("rnn_style",), seconds=0.05)
    with patched(main, CHECK_MEMORY=300 << 20):     # less than one append
        return results + main.check_solutions(path, ("depth",), seconds=10)


def check_mine(path):
    """In a child: `check` on a file that imports this project's functions."""
    with patched(main, CHECKED=("depth", "parallel_scan")):
        return run_main("check", path)


def start_children():
    """Write the learners' files and start the children that grade them, as this
    file is imported: they run while the other files' tests do."""
    directory = tempfile.mkdtemp()
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    sources = {"stuck.py": STUCK, "sleeper.py": SLEEPER,
               "mine.py": "from main import " + ", ".join(main.CHECKED) + "\n"}
    paths = {name: os.path.join(directory, name) for name in sources}
    for name, source in sources.items():
        with open(paths[name], "w", encoding="utf-8") as f:
            f.write(source)
    children = {"stuck": ahead(lambda: grade_stuck(paths["stuck.py"])),
                "mine": ahead(lambda: check_mine(paths["mine.py"]))}
    if sys.platform.startswith("linux"):    # not one of ahead's: it runs until it is killed
        children["sleeper"] = early(Forked(target=lambda: main.check_solutions(
            paths["sleeper.py"], ("rnn_style",), seconds=60)))
    return directory, children


DIRECTORY, CHILDREN = start_children()


class TestInChildProcesses(unittest.TestCase):
    @classmethod
    def tearDownClass(cls):
        for child in CHILDREN.values():
            child.kill()
            child.communicate()

    def write(self, name, source):
        path = os.path.join(DIRECTORY, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
        return path

    @unittest.skipUnless(sys.platform.startswith("linux"), "PR_SET_PDEATHSIG is Linux's")
    def test_a_check_killed_outright_leaves_no_grading_process_behind(self):
        path, deadline = os.path.join(DIRECTORY, "sleeper.pid"), time.monotonic() + 30
        pid = None
        while pid is None and time.monotonic() < deadline:  # up once it has written its id
            with contextlib.suppress(OSError, ValueError), open(path) as f:
                pid = int(f.read())
            time.sleep(0.01)
        self.assertIsNotNone(pid, "the grading process never started")
        CHILDREN["sleeper"].kill()
        CHILDREN["sleeper"].wait()
        self.assertTrue(gone_within([pid], 1.0))

    def test_a_hang_and_endless_memory_are_verdicts_not_hangs(self):
        results = CHILDREN["stuck"].returned()
        self.assertEqual([(r["verdict"], r["detail"]) for r in results][0],
                         ("FAIL", "did not finish in 0.05 s"))
        self.assertEqual(results[1]["verdict"], "FAIL")
        self.assertIn("out of memory", results[1]["detail"])

    def test_the_template_unchanged_is_not_written_yet_and_status_1(self):
        status, template, _ = run_main("check", "--template")
        self.assertEqual(status, 0)
        path = self.write("template.py", template)
        with patched(main, check_solutions=graded_here):  # children: below
            status, out, err = run_main("check", path)
        self.assertEqual((status, err), (1, ""))
        for name in main.CHECKED:
            self.assertIn(f"{name:<16}  not written yet", out)
        self.assertNotIn("Traceback", out)

    def test_this_projects_functions_pass_with_status_0(self):
        status, out, err = CHILDREN["mine"].returned()
        self.assertEqual((status, err), (0, ""), out)
        self.assertIn("2 of 2 written passed.", out)

    def test_bad_arguments_are_one_line_and_status_2(self):
        for argv in (["check"], ["check", "a.py", "b.py"],
                     ["check", os.path.join(DIRECTORY, "missing.py")],
                     ["check", self.write("broken.py", "def f(:\n")]):
            status, out, err = run_main(*argv)
            self.assertEqual((status, out), (2, ""), argv)
            self.assertEqual(len(err.splitlines()), 1, err)


if __name__ == "__main__":
    unittest.main()
