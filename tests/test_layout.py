"""The shape of main.py that a learner relies on: the lesson's functions
first, each numbered part using only the lesson, earlier parts and the
machinery, short lines, and nothing imported from outside the standard library."""

import os
import re
import sys
import unittest

from tests.support import MAIN_PY, ROOT, source_facts

LESSON = ("rnn_style", "attention_style", "serial_scan", "parallel_scan", "benchmark", "depth",
          "rnn_tanh", "tree_reduce")



class TestLayout(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(MAIN_PY, encoding="utf-8") as f:
            cls.lines = f.read().splitlines()
        cls.statements = source_facts()["statements"]

    def part_of_line(self):
        """Return, for each line number, its part: 0 the lesson, 1-N the numbered
        parts, None the machinery (from its first banner on)."""
        part, parts = 0, {}
        for number, line in enumerate(self.lines, start=1):
            banner = re.match(r"# (\d+)\. ", line)
            if banner:
                part = int(banner.group(1))
            elif line.startswith("# Machinery"):
                part = None
            parts[number] = part
        return parts

    def test_the_lessons_functions_come_first_in_the_seeds_order(self):
        where = {s["function"]: s["line"] for s in self.statements if s["function"]}
        lines = [where[name] for name in LESSON]
        self.assertLessEqual(max(lines), 250, dict(zip(LESSON, lines)))
        self.assertEqual(lines[:6], sorted(lines[:6]))

    def test_no_part_uses_a_later_part(self):
        parts = self.part_of_line()
        defined = {s["function"] or s["class"]: parts[s["line"]] for s in self.statements
                   if s["function"] or s["class"]}
        for statement in self.statements:
            here = parts[statement["line"]]
            if here is None:                    # the machinery may call any part
                continue
            for name in statement["uses"]:
                there = defined.get(name)
                if there is not None:
                    self.assertLessEqual(there, here, f"line {statement['line']} uses {name}")

    def test_each_part_ends_with_its_section_in_one_place(self):
        # Adding a part is one block in main.py, one test file and one README row:
        # its render, figure and SECTIONS entry sit in its own part.
        import main
        parts = self.part_of_line()
        defined = {s["function"]: parts[s["line"]] for s in self.statements if s["function"]}
        registered = {s["registers"]: parts[s["line"]] for s in self.statements
                      if s["registers"]}
        self.assertEqual(list(registered), list(main.SECTIONS))         # `all` follows the file
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        for name, section in main.SECTIONS.items():
            part = registered[name]
            self.assertIsNotNone(part, name)                            # not in the machinery
            for function in (section.render, section.figure):
                if function is not None:
                    self.assertEqual(defined[function.__name__], part, (name, function))
            lesson = name in main.DEFAULT_SECTIONS
            self.assertTrue(os.path.exists(os.path.join(
                ROOT, "tests", "test_lesson.py" if lesson else f"test_{name}.py")), name)
            self.assertTrue(f"section `{name}`" in readme if lesson
                            else f"\n| `{name}` |" in readme, name)

    def test_no_line_of_code_is_longer_than_99_characters(self):
        long = [n for n, line in enumerate(self.lines, start=1) if len(line) > 99]
        self.assertEqual(long, [], "main.py")
        tests_dir = os.path.join(ROOT, "tests")
        for name in os.listdir(tests_dir):
            if name.endswith(".py"):
                with open(os.path.join(tests_dir, name), encoding="utf-8") as f:
                    long = [n for n, line in enumerate(f, start=1) if len(line.rstrip("\n")) > 99]
                self.assertEqual(long, [], name)

    @unittest.skipUnless(hasattr(sys, "stdlib_module_names"), "needs Python 3.10+")
    def test_imports_are_standard_library_or_project(self):
        stdlib = set(sys.stdlib_module_names) | {"main", "tests"}
        self.assertEqual(set(source_facts()["imports"]) - stdlib, set(), "main.py")
        tests_dir = os.path.join(ROOT, "tests")
        for name in os.listdir(tests_dir):
            if name.endswith(".py"):
                with open(os.path.join(tests_dir, name), encoding="utf-8") as f:
                    found = set(re.findall(r"^\s*(?:import|from)\s+(\w+)", f.read(), re.M))
                self.assertEqual(found - stdlib, set(), name)


if __name__ == "__main__":
    unittest.main()
