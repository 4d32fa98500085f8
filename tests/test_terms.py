"""The glossary (python main.py terms): every technical term a section prints has
its entry, and every entry is a term some section prints."""

import math
import os
import re
import unittest
from unittest import mock

import main
from tests.support import ROOT, SMALL, run_main, source_facts

# Words a learner may not know as the sections print them, written out here apart
# from main.py, and each one's entry.
TERMS = {
    "adam": "Adam", "adding problem": "adding problem", "affine maps": "affine map",
    "associative": "associative", "associative recall": "associative recall",
    "attention": "attention", "binomial": "binomial", "blelloch": "Blelloch",
    "blelloch_scan": "Blelloch", "brent_kung_scan": "Brent-Kung", "brent-kung": "Brent-Kung",
    "causal": "causal", "ceil": "ceil", "chain rule": "chain rule",
    "closed form": "closed form",
    "combine": "combine", "combines": "combine", "convolution": "convolution",
    "convolutional": "convolution", "core": "core", "cpu": "CPU", "crosstalk": "crosstalk",
    "decay": "decay", "depth": "depth", "derivative": "derivative", "diagonal": "diagonal",
    "dilated": "dilated", "exclusive": "exclusive", "fitted growth": "fitted growth",
    "slope": "slope", "flash attention": "Flash Attention", "forget gate": "forget gate",
    "forward pass": "forward pass", "fp16": "fp16", "gate": "gate", "gated cell": "gated cell",
    "gib": "B, KiB, MiB, GiB, TiB", "mib": "B, KiB, MiB, GiB, TiB",
    "kib": "B, KiB, MiB, GiB, TiB", "tib": "B, KiB, MiB, GiB, TiB", "gpu": "GPU",
    "gradient": "gradient",
    "head": "head", "held-out": "held-out", "hillis-steele": "Hillis-Steele",
    "identity": "identity", "inductive bias": "inductive bias", "init": "init",
    "initialization": "initialization", "interpreter": "interpreter", "key": "key",
    "kernel": "kernel", "kv cache": "KV cache", "lane": "lane", "lanes": "lane", "layer": "layer",
    "linear recurrence": "linear recurrence", "lstm": "LSTM", "madds": "madds", "mamba": "Mamba",
    "mingru": "minGRU", "mse": "MSE", "noisy": "noisy", "phi": "Phi", "o(n)": "O(N)",
    "o(n^2)": "O(n^2)", "operation": "operation", "operations": "operation",
    "path length": "path length", "prefix-sum": "prefix sum", "recurrence": "recurrence",
    "reduction": "reduction", "restricted self-attention": "restricted self-attention",
    "rnn": "RNN", "round": "round", "rounds": "round", "scan": "scan", "seed": "seed",
    "selective": "selective", "self-attention": "self-attention",
    "sequential operations": "sequential operations", "serial": "serial", "ssm": "SSM",
    "state-space": "state-space model", "state": "state", "step": "step", "tanh": "tanh",
    "tanh rnn": "tanh RNN", "tile": "tile", "token": "token", "tokens": "token",
    "transformer": "transformer", "transformers": "transformer", "tree": "tree",
    "width": "width", "work": "work", "value": "value", "values": "value", "score": "score",
    "scores": "score", "weight": "weight", "weights": "weight", "softmax": "softmax",
    "query": "query", "dot product": "dot product", "matrix multiply": "matrix multiply",
    "attention matrix": "attention matrix", "float": "float", "floats": "float", "log2": "log2",
    "log_k": "log2", "wall-clock": "wall-clock", "positions": "position",
    "position": "position", "attention read": "attention read", "hidden state": "hidden state",
    "answering 1": "answering 1", "loss": "loss", "parameter": "parameter",
    "parameters": "parameter", "optimizer": "optimizer", "gru": "GRU",
    # issue 60, item 4: printed, and now each with its entry
    "t": "T", "n": "N", "exp": "exp, e", "e": "exp, e", "sign": "sign", "mb": "MB, GB",
    "gb": "MB, GB", "candidate": "candidate",
    # issue 65: printed, and now each with its entry
    "chain": "chain", "learned some": "learned some", "varied": "varied",
    "learned nothing": "learned nothing", "generating depth": "generating depth",
    "µs": "ns, µs, ms, s, µ", "ms": "ns, µs, ms, s, µ", "ns": "ns, µs, ms, s, µ",
    "g": "K, M, G, T, P",
    # issue 71: symbols and words printed, each with its entry in the sense printed
    "p": "P", "k": "k", "s": "s", "d": "d", "r": "r", "w": "w", "f": "f", "h": "h", "x": "x",
    "a": "a", "v": "v", "window": "window", "compose": "compose", "inclusive": "inclusive",
    "work-efficient": "work-efficient", "log-log": "log-log", "parallel scan": "parallel scan",
    "matmul": "matmul", "streaming": "streaming", "nonlinear": "nonlinear",
    "vanishing gradient": "vanishing gradient",
    # issue 75: printed, and now each with its entry in the sense printed
    "coin flip": "coin flip", "recency": "recency", "s.k": "s.k", "table 1": "Table 1",
    "1 - h^2": "1 - h^2", "brent": "Brent", "h~": "h~", "^": "^", "*": "*",
    # issue 79: the cost model's words
    "update": "update", "updates": "update", "cost model": "cost model",
    "log-log slopes": "log-log slope", "timings": "fastest of K timings", "idle": "idle",
    "d_k": "d_k",
    "mismatches": "mismatches", "o(1)": "O(1)", "o(n/r)": "O(n/r)",
    "o(log_k n)": "O(log_k n)",
    "multiply-add": "multiply-add", "multiply-adds": "multiply-add", "madd": "madds",
}

# Capitals that are no term: the program's own words, units, emphasis.
NOT_TERMS = {"FAIL", "DIR", "FILE", "WORD", "SECTION", "SECTIONS", "JSON", "UTF", "SIGHUP",
             "SIGTERM", "NO", "DOES", "NOT", "AGREE", "DIFFERS", "FROM", "SVG", "OK"}


# The lesson's own key terms, entries whether or not a section prints them.
LESSON_TERMS = {"recurrence", "serial depth", "attention", "context window", "inductive bias",
                "state-space model", "quadratic bottleneck"}


def shows(word):
    """Return what `terms WORD` prints, or "" where it finds nothing (blelloch_scan)."""
    try:
        return main.render_term(word)
    except ValueError:
        return ""


def printed_tables():
    """Return (every column header, every row's name) of the tables the sections print,
    and their text: each section rendered from small data, each table seen as _table
    makes it."""
    headers, names, table = {}, {}, main._table

    def seen(columns, rows, left=0):
        headers.update(dict.fromkeys(columns))
        if left:                        # a left-aligned first column names its rows
            names.update(dict.fromkeys(str(row[0]) for row in rows if str(row[0]).strip()))
        return table(columns, rows, left)
    assert list(SMALL) == list(main.SECTIONS)
    with mock.patch.object(main, "_table", seen):
        out = "\n\n".join(main.SECTIONS[name].render(data()) for name, data in SMALL.items())
    return list(headers), list(names), out


class TestGlossary(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.headers, cls.names, cls.out = printed_tables()
        cls.terms, cls.facts = TERMS, source_facts()
        with open(os.path.join(ROOT, "outputs", "skill-architecture-picker.md"),
                  encoding="utf-8") as f:
            text = cls.facts["strings"] + f.read()  # the skill is read by learners too
        runs = set(re.findall(r"[\w-]+", text))    # a word found is a whole run of these
        cls.printed = {word for word in cls.terms if word in runs
                       or not re.fullmatch(r"[\w-]+", word)
                       and re.search(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])", text)
                       or not re.search(r"\w", word) and word in text}    # ^ in n^2

    def found(self, word):
        return word in self.printed

    def test_printed_and_key_terms_have_entries_every_entry_is_used_acronyms_too(self):
        for word, entry in self.terms.items():
            if self.found(word):
                self.assertIn(entry, main.GLOSSARY, word)
        self.assertLessEqual(LESSON_TERMS, set(main.GLOSSARY))
        meanings = " ".join(main.GLOSSARY.values())
        shown = "\n".join(shows(w) for w in self.terms if self.found(w))
        # and what `terms` shows for each column and row name printed
        shown += "\n" + "\n".join(map(main.render_term, self.headers + self.names))
        for entry in set(main.GLOSSARY) - LESSON_TERMS:
            # a printed word's `terms` shows it (terms e: both e's), or an entry names it
            printed = (any(e == entry and self.found(w) for w, e in self.terms.items())
                       or re.search("^" + re.escape(entry) + ": ", shown, re.M))
            self.assertTrue(printed or re.search(r"(?<![\w-])" + re.escape(entry.lower())
                                                 + r"(?![\w-])", meanings.lower()), entry)
        # derived from the output: every run of capitals is a term, or inside one's entry
        glossary = " ".join(f"{k} {v}" for k, v in main.GLOSSARY.items())
        for acronym in self.facts["acronyms"]:
            if acronym not in NOT_TERMS:
                self.assertRegex(glossary, r"(?<![\w-])" + acronym + r"(?![\w-])", acronym)

    def test_every_column_and_row_name_printed_has_its_entry_as_printed(self):
        # derived from the tables `all` prints, not from a second list: each header,
        # a number in it or not (n = 512, vs width 1), and each row's name
        self.assertIn("rnn per call", self.headers)
        self.assertIn("parallel_scan", self.names)
        for word in self.headers + self.names:
            with self.subTest(word):
                shown = main.render_term(word)
                entries = [t for t in main.GLOSSARY if re.search(
                    "^" + re.escape(t) + ": ", shown, re.M)]
                # the entry is the word itself, or the word less its number (n = 512: n;
                # tree steps, P = 10,000: tree steps; vs width 1: vs width)
                forms = {word, re.sub(r"^(\w+) = [\d,]+$", r"\1", word),
                         re.sub(r", \w+ ?=? ?[\d,.]+$", "", word), re.sub(r" [\d,.]+$", "", word)}
                forms = {f.casefold() for f in forms}
                self.assertTrue(any(e.casefold() in forms or forms & set(e.casefold().split(", "))
                                    for e in entries), (word, entries))

    def test_the_symbols_and_number_formats_printed_have_their_entries(self):
        # each number format as `all` prints it, found in its text: e-notation, a
        # count's suffix, bytes, a time, a ratio; then the symbols named by issue 75
        formats = {r"\d\.\de-\d\d": "e-notation, e", r"\d[KMGT](?=\s)": "K, M, G, T, P",
                   r"\d [KMGT]iB": "B, KiB, MiB, GiB, TiB", r"\d µs": "ns, µs, ms, s, µ",
                   r"\d\.\dx(?=\s)": "x"}
        for pattern, entry in formats.items():
            printed = re.search(r"\S*" + pattern, self.out)
            self.assertTrue(printed, pattern)
            self.assertIn(entry + ":", main.render_term(printed.group()), printed.group())
        for word, entry in (("1e-09", "e-notation, e"), ("s.k", "s.k"), ("Table 1", "Table 1"),
                            ("recency", "recency"), ("coin flip", "coin flip"),
                            ("1 - h^2", "1 - h^2"), ("Brent", "Brent"), ("h~", "h~"),
                            ("^", "^"), ("*", "*")):
            with self.subTest(word):
                self.assertIn(word, self.out + main.render_terms())
                self.assertTrue(main.render_term(word).startswith(entry + ": "), word)
        # Brent's bound apart from Brent and Kung's scan, each in its own sense
        self.assertIn("1974", main.render_term("Brent"))
        self.assertIn("1982", main.render_term("Brent-Kung"))

    def test_terms_finds_each_term_suggests_for_a_typo_and_lists_them_in_order(self):
        for word in self.printed - {"blelloch_scan", "brent_kung_scan", "convolutional",
                                    "prefix-sum", "state-space", "o(n^2)", "log_k"}:
            self.assertIn(":", main.render_term(word), word)
        status, out, err = run_main("terms", "flash attention")
        self.assertEqual((status, err), (0, ""))
        self.assertTrue(out.startswith("Flash Attention: attention tile by tile"))
        # an en dash, as the lesson types Hillis–Steele, is a hyphen here
        self.assertTrue(main.render_term("Hillis–Steele").startswith("Hillis-Steele: "))
        status, out, err = run_main("terms", "Hilis-Steele")
        self.assertEqual((status, out), (2, ""))
        self.assertIn("did you mean 'Hillis-Steele'?", err)
        # a word that three entries hold (state holds, cache holds, ...) picks none of
        # them silently: the nearest is offered
        with self.assertRaisesRegex(ValueError, "no term 'holds'.*did you mean 'state holds'"):
            main.render_term("holds")
        # a typo as far as difflib's 0.75 still offers one: "dph" is 0.75 of "depth"
        with self.assertRaisesRegex(ValueError, "did you mean 'depth'?"):
            main.render_term("dph")
        status, out, err = run_main("terms")
        self.assertEqual((status, err), (0, ""))
        lines = out.splitlines()
        self.assertEqual(lines[0], "=== every term the sections print, in plain words ===")
        self.assertLessEqual(max(map(len, lines)), 79)
        entries = [line for line in lines[1:] if not line.startswith(" ")]
        # an entry's further lines indented by four spaces, under its term
        self.assertTrue(all(line.startswith("    ") and line[4] != " "
                            for line in lines[1:] if line.startswith(" ")))
        terms = sorted(main.GLOSSARY, key=str.casefold)
        self.assertEqual(len(entries), len(terms))
        for line, term in zip(entries, terms):      # a term may hold a colon: loop: h_t
            self.assertTrue(line.startswith(term + ": "), (line, term))
        self.assertEqual(run_main("terms", "no such thing at all")[0], 2)


    def test_each_entry_alone_has_its_further_lines_indented_by_four_spaces(self):
        # `terms WORD` as `terms` prints them: a line that starts no entry is indented
        # by four spaces exactly
        for term in main.GLOSSARY:
            with self.subTest(term):
                status, out, _ = run_main("terms", term)
                starts = tuple(f"{t}: " for t in main.GLOSSARY)
                further = [line for line in out.splitlines() if not line.startswith(starts)]
                self.assertEqual(status, 0)
                self.assertTrue(all(line[:4] == "    " and line[4] != " " for line in further),
                                further)


class TestTheRulesTermsStates(unittest.TestCase):
    """Each entry that states a number or a rule, its words beside the fact computed
    from main.py, so that neither changes alone."""

    def test_each_number_and_rule_an_entry_states_is_the_codes(self):
        depth_rows = {r["n"]: r for r in main.depth_rows((1, 5, 64))}
        facts = {
            "madds": ("multiply-adds a*b + c: one operation each",
                      main.combine_madds(3)[0] == 3 * 3 + 3),        # A.h and b*x at width 3
            "operation": ("a multiply-add a*b + c, exp, tanh or 1/x: one step on one lane",
                          main.measure_work_depth(main.rnn_style, 5) == (5, 5)),
            "O(n/r)": ("causally, ceil((n - 1) / (r - 1)) layers",
                       main.layer_costs(131_072, 512, 3, 128)["restricted self-attention"][2]
                       == math.ceil((131_072 - 1) / (128 - 1))),
            "tree steps": ("the fewest steps in which P lanes sum N values",
                           main.lane_steps(65_536, 10_000) == 19),
            "recurrence: scan": ("its work on one lane, its rounds on N lanes",
                                 main.scan_lane_steps(64, 1) == main.measure_work_depth(
                                     main.linear_recurrence_scan, 64)[0]),
            "noisy": ("took over 4 times its fastest",
                      not main._spread_note([("x", 4.0)]) and main._spread_note([("x", 4.01)])),
            "fp16": ("2 bytes a number", main.attention_matrix_bytes(1) == 2),
            "n x n matrix": ("n x n scores of 2 bytes (fp16)",
                             main.attention_matrix_bytes(3) == 3 * 3 * 2),
            "answering 1": ("the MSE to beat, 1/6",       # the variance of a sum of two U(0, 1)
                            math.isclose(main.BASELINE_MSE, 2 * (1 / 12))),
            "Hillis-Steele": ("a scan in ceil(log2 N) rounds: round k combines each value with "
                              "the one 2^k back",
                              [main.scan_check(n)["parallel_steps"] for n in (2, 5, 8, 9)]
                              == [math.ceil(math.log2(n)) for n in (2, 5, 8, 9)]),
            "B, KiB, MiB, GiB, TiB": ("KiB, MiB, GiB and TiB are 2^10, 2^20, 2^30 and 2^40",
                                      sorted(size for _, size in main.BYTE_UNITS)
                                      == [2**10, 2**20, 2**30, 2**40]),
            "K, M, G, T, P": ("10^3, 10^6, 10^9, 10^12 and 10^15",
                              sorted(main.COUNT_UNITS) == [3, 6, 9, 12, 15]),
            "Brent": ("from max(W / P, D) to W / P + D steps on P lanes",
                      all(max((n - 1) / p, (n - 1).bit_length()) <= main.lane_steps(n, p)
                          <= (n - 1) / p + (n - 1).bit_length() + 1
                          for n in (100, 4_097) for p in (1, 8, 64))),
            "rnn / attn": ("rnn per call over attn per call", True),
            "depth ratio": ("rnn depth / attn depth",
                            depth_rows[64]["depth_ratio"] == 64 / 6),
            "attn depth": ("ceil(log2 N), at least 1",
                           [depth_rows[n]["attn_depth"] for n in (1, 5, 64)] == [1, 3, 6]),
            "rnn depth": ("N steps", [depth_rows[n]["rnn_depth"] for n in (1, 5, 64)]
                          == [1, 5, 64]),
            "madds per update": ("width^2 + width", main.combine_madds(64)[0] == 64 * 64 + 64),
            "tree": ("depth ceil(log2 N)", main._depth_of(main.tree_reduce(
                [main.Counted(1, main.Tally()) for _ in range(9)])) == 4),
        }
        for term, (words, fact) in facts.items():
            with self.subTest(term):
                self.assertIn(words, " ".join(main.render_term(term).split()))
                self.assertTrue(fact)


class TestWhatIsPrinted(unittest.TestCase):
    """The glossary against what the program can print: every unit and count prefix
    in the formatters' own tables, every verdict of train, and what --help and check
    --help print, each with an entry that `terms` finds. No timing is run: which
    unit a time takes depends on the machine."""

    def entries(self, word):
        """Return the terms `terms WORD` shows."""
        return [line.split(": ")[0] for line in main.render_term(word).splitlines()
                if not line.startswith(" ")]

    def test_every_unit_and_count_prefix_the_formatters_print_has_an_entry(self):
        units = {u.strip() for u in main.SECOND_UNITS.values()}
        units |= {u.strip() for u, _ in main.BYTE_UNITS} | {"B"}
        counts = set(main.COUNT_UNITS.values())
        self.assertEqual(units >= {"ns", "µs", "ms", "s", "GiB"}, True)
        for word in units | counts:
            with self.subTest(word):
                self.assertTrue(self.entries(word))
        # what --help prints: MB, GB
        help_text = run_main("--help")[1] + run_main("check", "--help")[1]
        for word in re.findall(r"\d ?(MB|GB|MiB|GiB)\b", help_text):
            self.assertTrue(self.entries(word), word)
        # T as a count beside T as the length; e in 3.3e-11 beside e = 2.718
        self.assertEqual(self.entries("T"), ["T", "K, M, G, T, P"])   # the word's own first
        self.assertEqual(self.entries("e"), ["exp, e", "e-notation, e"])
        self.assertEqual(self.entries("chain"), ["chain"])

    def test_every_verdict_of_train_has_an_entry(self):
        for verdict in (main.LEARNED, main.PART, main.NOTHING, main.VARIES):
            self.assertEqual(self.entries(verdict), [verdict])


if __name__ == "__main__":
    unittest.main()
