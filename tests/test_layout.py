"""The shape of main.py a learner relies on: the lesson first, each part using only
earlier ones and the machinery, short lines, the standard library only."""

import ast
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
        cls.facts = source_facts()
        cls.statements = cls.facts["statements"]

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

    def test_the_lesson_comes_first_and_no_part_uses_a_later_part(self):
        where = {s["function"]: s["line"] for s in self.statements if s["function"]}
        lines = [where[name] for name in LESSON]
        self.assertLessEqual(max(lines), 250, dict(zip(LESSON, lines)))
        self.assertEqual(lines[:6], sorted(lines[:6]))
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
        # Adding a part is one block in main.py, one test file and one README line,
        # its bad calls in test_errors and its words written by python -m tests.expected:
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
            self.assertIn(f"\n- `{name}`: ", readme)

    def test_the_lesson_reads_on_its_own(self):
        # what the lesson's region uses is defined in it, or is the standard library's
        end = next(n for n, line in enumerate(self.lines, 1)
                   if line.startswith("# The lesson ends here"))
        with open(MAIN_PY, encoding="utf-8") as f:
            body = ast.parse(f.read()).body
        first_defined = {}
        for statement in body:
            targets = getattr(statement, "targets", [])
            for name in [getattr(statement, "name", None)] + [getattr(t, "id", None)
                                                              for t in targets]:
                first_defined.setdefault(name, statement.lineno)
        for statement in self.statements:
            if statement["line"] < end:
                below = [name for name in statement["uses"] if first_defined.get(name, 0) > end]
                self.assertEqual(below, [], f"line {statement['line']}")

    def test_no_truth_value_is_used_as_a_number(self):
        # not `items * (n > 1)`, `text * bool(x)` or `items[name == "x":]`: the if they mean
        def truth(node):
            return (isinstance(node, (ast.Compare, ast.BoolOp))
                    or isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
                    or isinstance(node, ast.Call) and getattr(node.func, "id", "") == "bool")
        tests = os.path.join(ROOT, "tests")
        files = [MAIN_PY] + [os.path.join(tests, name) for name in sorted(os.listdir(tests))
                             if name.endswith(".py")]
        found = []
        for path in files:
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                times = isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and (
                    truth(node.left) or truth(node.right))
                bound = isinstance(node, ast.Slice) and any(
                    truth(b) for b in (node.lower, node.upper) if b is not None)
                if times or bound:
                    found.append((os.path.basename(path), ast.dump(node)[:80]))
        self.assertEqual(found, [])

    def test_lines_of_99_characters_at_most_and_standard_library_imports_only(self):
        # sys.stdlib_module_names is new in Python 3.10: on 3.9, the lines only
        stdlib = getattr(sys, "stdlib_module_names", None)
        self.assertEqual([n for n, line in enumerate(self.lines, 1) if len(line) > 99], [])
        if stdlib:
            self.assertLessEqual(set(self.facts["imports"]), {*stdlib, "main", "tests"})
        for name in [n for n in os.listdir(os.path.join(ROOT, "tests")) if n.endswith(".py")]:
            with open(os.path.join(ROOT, "tests", name), encoding="utf-8") as f:
                text = f.read()
            self.assertEqual([n for n, line in enumerate(text.splitlines(), 1) if len(line) > 99],
                             [], name)
            found = set()                   # imports as Python reads them, not lines of text
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.Import):
                    found.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    found.add(node.module.split(".")[0])
            self.assertLessEqual(found if stdlib else set(), {*(stdlib or ()), "main", "tests"},
                                 name)


if __name__ == "__main__":
    unittest.main()
