"""The glossary (python main.py terms): every technical term a section prints has
its entry, and every entry is a term some section prints."""

import ast
import re
import unittest

import main
from tests.support import main_statements, run_main

# Technical words a learner may not know, as the sections print them (written
# out here, independently of main.py), and the glossary entry that explains each.
TERMS = {
    "adam": "Adam", "adding problem": "adding problem", "affine map": "affine map",
    "associative": "associative", "associative recall": "associative recall",
    "attention": "attention", "baseline": "baseline", "binomial": "binomial tail",
    "blelloch": "Blelloch", "brent-kung": "Brent-Kung", "brent_kung": "Brent-Kung",
    "brent's bound": "Brent's bound", "chunk": "chunk", "combine": "combine",
    "contracts": "contracts", "contraction": "contracts", "crosstalk": "crosstalk",
    "deer": "DEER", "dense": "dense", "depth": "depth", "diagonal": "diagonal",
    "dilated": "dilated", "exclusive": "exclusive", "elu(x) + 1": "feature map",
    "feature map": "feature map", "fork": "fork", "fp16": "fp16", "gate": "gate",
    "gib": "GiB", "gradient": "gradient", "grouped-query": "grouped-query",
    "held-out": "held-out", "hillis-steele": "Hillis-Steele", "inductive bias":
    "inductive bias", "initialization": "initialization", "kv cache": "KV cache",
    "kv heads": "KV heads", "lane": "lane", "linear attention": "linear attention",
    "linear recurrence": "linear recurrence", "log-log": "log-log", "lyapunov": "Lyapunov",
    "madds": "madds", "mingru": "minGRU", "mse": "MSE", "newton's method": "Newton's method",
    "phi": "normal", "operation": "operation", "overflow": "overflow",
    "path length": "path length", "prefix sum": "prefix sum", "process": "process",
    "recurrence": "recurrence", "reduction": "reduction", "regrouped": "regrouped",
    "regrouping": "regrouped", "restricted self-attention": "restricted self-attention",
    "rnn": "RNN", "scan": "scan", "seed": "seed", "selective": "selective",
    "softmax": "softmax", "speedup": "speedup", "slowdown": "speedup", "spread": "spread",
    "ssm": "SSM", "state": "state", "step": "step", "tanh rnn": "tanh RNN",
    "teacher forcing": "teacher forcing", "tree": "tree", "warm-up": "warm-up", "work": "work",
}


def docstring(body):
    """Return the constant that is the docstring of a body of statements, or None."""
    first = body[0] if body else None
    return first.value if isinstance(first, ast.Expr) and isinstance(first.value,
                                                                       ast.Constant) else None


def printed_strings():
    """Return, lowercased, every string constant of main.py but its docstrings
    and the glossary itself."""
    statements = main_statements()
    docstrings = {id(docstring([statement for statement, _ in statements]))}
    strings = []
    for statement, nodes in statements:
        if isinstance(statement, ast.Assign) and getattr(statement.targets[0], "id", "") == \
                "GLOSSARY":
            continue
        for node in nodes:                  # ast.walk: a definition before its docstring
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                docstrings.add(id(docstring(node.body)))
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and id(node) not in docstrings):
                strings.append(node.value)
    return " ".join(strings).lower()


class TestGlossary(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        text = printed_strings()
        runs = set(re.findall(r"[\w-]+", text))    # a word found is a whole run of these
        cls.printed = {word for word in TERMS if word in runs or not re.fullmatch(r"[\w-]+", word)
                       and re.search(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])", text)}

    def found(self, word):
        return word in self.printed

    def test_every_printed_term_has_its_entry(self):
        for word, entry in TERMS.items():
            if self.found(word):
                self.assertIn(entry, main.GLOSSARY, word)

    def test_every_entry_is_a_term_the_sections_print(self):
        for entry in main.GLOSSARY:
            self.assertTrue(any(e == entry and self.found(w) for w, e in TERMS.items()), entry)

    def test_terms_prints_them_alphabetically_within_79_columns(self):
        status, out, err = run_main("terms")
        self.assertEqual((status, err), (0, ""))
        lines = out.splitlines()
        self.assertLessEqual(max(map(len, lines)), 79)
        entries = [line.split(":")[0] for line in lines[1:] if not line.startswith(" ")]
        self.assertEqual(entries, sorted(main.GLOSSARY, key=str.casefold))
        self.assertEqual(run_main("terms", "depth")[0], 2)


if __name__ == "__main__":
    unittest.main()
