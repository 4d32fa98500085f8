"""The glossary (python main.py terms): every technical term a section prints has
its entry, and every entry is a term some section prints."""

import math
import os
import re
import unittest
from unittest import mock

import main
from tests.support import ROOT, SMALL, gathered, run_main, source_facts

# Words a learner may not know as the sections print them, written out here apart
# from main.py, and each one's entry (a part's test file may add a TERMS of its own).
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
    "o(n^2)": "O(N)", "operation": "operation", "operations": "operation",
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
    "µs": "ns, µs, ms, s", "ms": "ns, µs, ms, s", "ns": "ns, µs, ms, s",
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


# What this part prints, from tests.support's SMALL data and scripted times,
# its spaces folded: test_cli checks every part against it.
WORDS = {
    "terms": """\
=== every term the sections print, in plain words === *: times: n*d is n times d. 1 - h^2:
tanh's slope at its output h: at most 1, and smaller the further h is from 0. ^: a power:
n^2 is n times n, 0.9^k is 0.9 multiplied k times. a: the decay of the linear step h = a*h
+ x (a_t when each step has its own). Adam: an optimizer: it moves each parameter by its
gradient's running mean, divided by the root of the running mean of the gradient's square.
adding problem: output the sum of the two marked values of a sequence, however far apart.
affine map: h -> a*h + x; two in a row are again one, which lets a scan combine steps.
answering 1: a model that always outputs 1, the mean answer: the MSE to beat, 1/6.
associative: grouping does not matter: (a + b) + c = a + (b + c); floats up to rounding.
associative recall: storing key -> value pairs, then asking for each value by its key.
attention: each output a sum of all values, weighted by how well a query matches each key.
attention matrix: the n x n scores (or weights) of one head in one layer. attention read:
one query's weighted sum of the values: one output of attention. attention_style: the
lesson's reduction: the mean of the inputs, by sum() in C. attn / call: the best time of
one call of attention_style, the mean, on N inputs. attn depth: `depth`'s depth of the sum
as a tree at N: ceil(log2 N), at least 1. B, KiB, MiB, GiB, TiB: bytes: B is one; KiB, MiB,
GiB and TiB are 2^10, 2^20, 2^30 and 2^40 of them. best init: the lowest held-out MSE among
the initializations: lower is better. binomial: the count of heads in coin flips; its tail:
the chance it lands beyond a number. Blelloch: an exclusive work-efficient scan (1990):
about 2 log2 N levels, 2N operations. blelloch_scan: Blelloch's exclusive scan (1990):
about 2N combines in 2 log2 N levels. Brent: Brent's bound (1974): work W of depth D takes
from max(W / P, D) to W / P + D steps on P lanes. Brent-Kung is a scan. Brent-Kung: an
inclusive work-efficient scan (1982): about 2 log2 N levels, 2N operations.
brent_kung_scan: Brent and Kung's scan (1982): about 2N combines in 2 log2 N levels. cache
holds: how many numbers a KV cache keeps for n pairs: n keys of d and n values. cache
recall: the share of reads a KV cache gets right: it keeps every pair, so all. candidate: a
gated RNN's proposed new state, h~ in the minGRU, which its gate z mixes in: h = (1 - z)*h
+ z*h~. causal: looking back only: each position reads itself and the positions before it.
ceil: ceil(x): the smallest whole number at or above x. cell, f=0.99: the derivative
through k steps of a gated cell whose forget gate is held at f: f^k. chain: steps that each
wait for the one before: its depth is its length. chain rule: the derivative of a chain of
steps is the product of its steps' derivatives. chain steps: the steps the recurrence takes
on any number of lanes: N, one at a time. closed form: a formula that gives a number
without running the process it describes. coin flip: a guess right half of the time: a
recall of 0.5, what a state tends to. combine: one use of a scan's operation on two partial
results. compose: to do one step, then another: composed, two affine steps are again one.
context window: how many tokens a model reads at once: attention's n. convolution: each
output a weighted sum of the k nearest inputs, the same weights for all. convolutional:
Table 1's convolutional layer: a convolution of kernel width k. core: one processor of the
CPU. CPU: the computer's main processor: a few cores. crosstalk: what the other pairs
stored in a state add to a read: noise on the value. d: a width: of a state, or of a
model's vectors (`cost`, `capacity`, `generate`). decay: the factor a of the linear step h
= a*h + x: how much of the state a step keeps. depth: the longest chain of operations that
must run one after another. depth ratio: rnn depth / attn depth: how many times deeper the
chain is than the tree. depth: training: the depth of one forward pass over a sequence
whose tokens are known. derivative: how much an output changes per unit change of an input,
for a small change. dilated: a dilated convolution reads inputs a gap apart, the gap k
times wider a layer. dot product: s.k: the sum of the products of two vectors' matching
entries. e-notation, e: 3.3e-11 is 3.3 x 10^-11: the e and the number after it are a power
of ten. exact: the same share computed over every possible crosstalk: a binomial tail.
exclusive: an exclusive scan's output i leaves out x_i; an inclusive one includes it. exp,
e: exp(x) = e^x, e = 2.718...: the softmax weighs each score by its exp. f: a gated cell's
forget gate: the share of its state it keeps a step. fitted growth: the exponent k of the
line N^k nearest the measured times, on log-log axes. Flash Attention: attention tile by
tile, never storing the n x n scores: O(n) memory. float: a number with a fraction, in 64
bits (Python's): exact to about 16 digits, then rounded; a very small or large one is
printed in e-notation. forget gate: an LSTM's gate that scales how much of the state it
keeps. formula: the closed form the count next to it follows, for N a power of two. forward
pass: computing a model's outputs from its inputs. fp16: 16-bit floats: 2 bytes a number,
as model weights and caches are often stored. gate: a number from 0 to 1, computed by the
model, that scales how much passes. gated cell: a cell whose forget gate keeps a fraction f
of its state a step. generating: the depth of making N tokens, each the next input: the
chain from the first token to the last. GPU: a graphics processor: thousands of lanes doing
one operation on many numbers at once. gradient: how much the loss changes as each
parameter, or an input, changes a little. GRU: a gated recurrent unit: an RNN whose gates
decide what of its state to keep. h: a state, the h of h = decay*h + x; h_t is the state
after step t. head: one set of queries, keys and values in an attention layer: its own n x
n scores. held-out: held-out examples are kept out of training and used only to score the
model. hidden state: an RNN's state: what it carries from one step to the next.
Hillis-Steele: a scan in ceil(log2 N) rounds: round k combines each value with the one 2^k
back. holds after N tokens: the memory a model keeps while it generates: its KV cache, or
its state. h~: the minGRU's candidate state: see candidate. identity: the value that
changes nothing when combined: 0 for +, 1 for *. inclusive: an inclusive scan's output i
includes x_i; an exclusive one leaves it out. inductive bias: what a model assumes before
data: an RNN recency, attention no order. init: see initialization. initialization: the
random parameters a model starts from, fixed by a seed. interpreter: CPython, running
Python an instruction at a time: tens of nanoseconds a step. k: a distance back in the
sequence (`gradient`), or a convolution's kernel width (`cost`); as a count's suffix K, a
thousand. K, M, G, T, P: a count's thousands: 10^3, 10^6, 10^9, 10^12 and 10^15 (8.80T: 8.8
x 10^12 operations). kernel: a convolution's k weights, slid along the sequence. key: what
a position offers to be matched (attention), or what a value is stored under. KV cache: the
keys and values of every past token a transformer keeps while it generates. lane: one
processor of a modelled parallel machine: one operation a step. lanes P: how many lanes the
modelled parallel machine has (`work`): see lane. layer: one stage of a model: its outputs
are the next layer's inputs. learned: a verdict of `train`: a held-out MSE at most a tenth
of answering 1's, in every initialization. learned nothing: a verdict of `train`: 0.9 of
answering 1's MSE or more, in every initialization. learned some: a verdict of `train`:
under 0.9 of answering 1's MSE in every initialization, not a tenth in all. linear 0.9^k:
the derivative through k linear steps h = 0.9*h + x: 0.9 multiplied k times. linear
recurrence: h_t = a_t*h_(t-1) + x_t: its steps are affine maps, so a scan runs it. linear,
by scan: in `generate`: the linear recurrence h = decay*h + x, trained by its scan.
linear_recurrence_scan: every state of h = a*h + x, by the parallel scan of its steps.
log-log: a plot whose two axes are both logarithmic: a power law N^k is a line of slope k.
log2: log2 N: how many halvings take N down to 1 (log_k N: divisions by k). loop: h_t: the
state h_t computed step by step, each step waiting for the one before. loss: the number
training lowers: here the MSE on a training example. LSTM: long short-term memory (1997):
an RNN whose gates let it keep a value many steps. madds: multiply-adds: a multiply and an
add, counted as one. madds / step: the multiply-adds of one step of a state of that width:
width^2 + width. Mamba: a state-space model whose decays depend on each input (a selective
scan; 2023). matmul: a matrix multiply. matrix multiply: every row of one matrix times
every column of another: dot products, all side by side. maximum path length: Table 1's
last column: the most layers (or recurrent steps) between any two positions, counted
causally here. MB, GB: a million and a billion bytes: 10^6 and 10^9, a little less than MiB
and GiB. measured: the share of reads that came out right in random draws (`capacity`).
minGRU: a minimal GRU whose gate and candidate read only the input (Feng et al. 2024): a
linear recurrence. model: in `generate` and `train`, the network a row is about. MSE: mean
squared error: the average of (prediction - target)^2. N: a sequence's length: its number
of values or tokens (n in the functions' arguments). n / d: the pairs stored per number of
the state. n x n matrix: the bytes of one attention matrix: n x n scores of 2 bytes (fp16).
noisy: a timing whose slowest sample took over 4 times its fastest: the machine was busy
with something else. nonlinear: not of the form a*h + b: tanh, a gate; such steps do not
compose into one. ns, µs, ms, s: times: a nanosecond is 10^-9 seconds, a microsecond 10^-6,
a millisecond 10^-3. O(N): grows at most in proportion to N, an upper bound (O(N^2): to N
squared; O(1): bounded). one attention read: in `train`: one query reads every position
once, in one hop. operation: an add or a multiply, or where said a tanh, exp or 1/x: what
work counts. operations per layer: Table 1's first column: the multiplications of one layer
over n tokens of width d. optimizer: the rule that turns gradients into parameter updates
(Adam here). P: the lanes of the modelled parallel machine (`sweep`, `work`); as a count's
suffix, 10^15 (see K, M, G, T, P). pairs n: how many key-value pairs are written into the
state. parallel scan: a scan whose combines run side by side in rounds: Hillis- Steele's,
say. parallel_scan: the lesson's Hillis-Steele scan: every running total in ceil(log2 N)
rounds. parameter: a number a model learns: a weight or a bias. path length: how many
layers, or recurrent steps, a signal crosses between two positions. position: a token's
place in the sequence, 1 to n. prefix sum: every running total of a sequence: out_i = x_1 +
... + x_i. quadratic bottleneck: attention's n x n scores: work, and memory if stored, grow
as n^2. query: what a position looks for: its dot product with each key is that key's
score. r: the window of restricted self-attention: each position reads r positions
(`cost`). recency: an RNN's inductive bias: the latest inputs weigh most in its state.
recurrence: a step that needs the previous step's result: h_t = f(h_(t-1), x_t).
recurrence: steps: the operations of the recurrence one after another on P lanes: its
chain, a multiply and an add a step, less the first multiply. recurrent: Table 1's
recurrent layer: an RNN step per token, n steps in turn. reduction: combining many values
into one, as a sum does. restricted self-attention: attention over a window of r positions
(`cost`: causal). RNN: a recurrent neural network: one step at a time, carrying a state
along. rnn / attn: rnn / call over attn / call: how many times as long the recurrence took.
rnn / call: the best time of one call of rnn_style, the recurrence, on N inputs. rnn depth:
`depth`'s serial depth of the recurrence at N: N steps, each waiting. rnn_style: the
lesson's recurrence: h = decay*h + x over the inputs; its last h. round: one stage of a
parallel scan: combines that run side by side. s: `capacity`'s state, s = the sum of v*k;
after a time, seconds (see ns, µs, ms, s). s.k: the dot product of the state s with a key
k: the read of its value (`capacity`). scan: every running total of a sequence under an
associative operation (inclusive). scan: h_t: the same state computed by the parallel scan
of the affine steps. score: how well a query matches a key: their dot product, divided by
sqrt(d_k) in a transformer (Vaswani et al. 2017, 3.2.1), before the softmax; the one
attention read trained here does not divide. seed: the number that fixes a random
generator, so that every run gives the same numbers. selective: a selective scan's decay
depends on each input (Mamba): still a scan. self-attention: attention in which a
sequence's positions read each other. sequential operations: Table 1's operations one after
another; a matrix multiply is one. serial: one after another, each waiting for the one
before. serial depth: the longest chain of operations that must run in turn (depth).
serial_scan: every running total, one after another: N - 1 combines in a chain. sign:
sign(x): +1 for x above 0, -1 below. slope: see fitted growth. softmax: turns scores into
weights: exp(score), divided by the sum of them all. SSM: a state-space model: a recurrence
with a linear step, trained in parallel. state: the numbers a recurrence carries from one
step to the next. state holds: how many numbers the state keeps, whatever the pairs: d.
state t: which state of the sequence: h_t, after the t-th input. state-space model: a
recurrence with a linear step, trained in parallel (SSM). step: one link of a chain: it
cannot start before the one before it ends. streaming: producing outputs one token at a
time, as they are asked for. sum(): Python's built-in sum: one running total, a chain of
adds in C. T: the sequence length in the training section: the adding problem's T pairs.
Table 1: of Vaswani et al. 2017: self-attention, recurrent and convolutional layers
compared by operations per layer, sequential operations and maximum path length. tanh: an
S-shaped function from -1 to 1 whose slope, 1 - tanh^2, is at most 1. tanh RNN: the classic
RNN step h = tanh(w*h + x): two steps do not make one step of that form, so a scan has no
combine of fixed size for it. tanh, w=0.9: the derivative through k tanh steps, by the
chain rule: a product of w * (1 - h^2), one a step. the same, selective:
linear_recurrence_scan with a decay of its own at each step, counted too, as Mamba's
selective scan. tile: a block of the n x n scores, computed, used and dropped. time / step:
the best time of one step of the vector recurrence h = A.h + b*x. token: one unit of a
model's input or output: a word, part of one, or here a number. tokens n: how many tokens
one attention matrix covers: n of them read n. transformer: a model of attention and
feed-forward layers, with no recurrence (Vaswani et al. 2017). tree: combining values in
pairs, then pairs of pairs: depth ceil(log2 N). tree steps: the steps a tree sum of N
values takes on P lanes (`sweep`): see lane. tree sum: steps: the steps a tree sum of N
values takes on P lanes (`work`). tree_reduce: the sum as a tree of pairwise adds: depth
ceil(log2 N). v: a value: in `capacity` +1 or -1, stored under its key k. value: what a
position offers to be read: attention sums the values, weighted. vanishing gradient: a
gradient that shrinks with each step it is carried back through, until far inputs barely
change the loss. varied: a verdict of `train`: nothing from some initializations, more from
others. verdict: what `train` reads from every initialization's MSE: learned, learned some,
learned nothing or varied. vs width: a step's time over the first width's: how many times
as long it took. w: the tanh RNN's recurrent weight, in h = tanh(w*h + x). wall-clock: time
as a clock on the wall measures it: what a run takes, waits included. weight: attention's:
a score after the softmax, 0 to 1, all summing to 1; a model's: a parameter. width: how
many numbers a state or a model's vectors hold (d). window: restricted self-attention's r
positions; for a model, see context window. work: how many operations run in all.
work-efficient: a parallel algorithm that does about as many operations as the serial one.
worst init: the highest held-out MSE among the initializations. x: an input value; x_t is
the one at step t, xs the list of them. After a number, times: 6.0x is 6.0 times as long.""",
}


class TestGlossary(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.headers, cls.names, cls.out = printed_tables()
        cls.terms, cls.facts = gathered("TERMS"), source_facts()
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
        self.assertIn("rnn / call", self.headers)
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
                   r"\d [KMGT]iB": "B, KiB, MiB, GiB, TiB", r"\d µs": "ns, µs, ms, s",
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


class TestTheRulesTermsStates(unittest.TestCase):
    """Each entry that states a number or a rule, its words beside the fact computed
    from main.py, so that neither changes alone."""

    def test_each_number_and_rule_an_entry_states_is_the_codes(self):
        depth_rows = {r["n"]: r for r in main.depth_rows((1, 5, 64))}
        facts = {
            "madds": ("a multiply and an add, counted as one",
                      main.combine_madds(3)[0] == 3 * 3 + 3),        # A.h and b*x at width 3
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
            "rnn / attn": ("rnn / call over attn / call", True),
            "depth ratio": ("rnn depth / attn depth",
                            depth_rows[64]["depth_ratio"] == 64 / 6),
            "attn depth": ("ceil(log2 N), at least 1",
                           [depth_rows[n]["attn_depth"] for n in (1, 5, 64)] == [1, 3, 6]),
            "rnn depth": ("N steps", [depth_rows[n]["rnn_depth"] for n in (1, 5, 64)]
                          == [1, 5, 64]),
            "madds / step": ("width^2 + width", main.combine_madds(64)[0] == 64 * 64 + 64),
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
        self.assertEqual(self.entries("T"), ["K, M, G, T, P", "T"])
        self.assertEqual(self.entries("e"), ["exp, e", "e-notation, e"])
        self.assertEqual(self.entries("chain"), ["chain"])

    def test_every_verdict_of_train_has_an_entry(self):
        for verdict in (main.LEARNED, main.PART, main.NOTHING, main.VARIES):
            self.assertEqual(self.entries(verdict), [verdict])


if __name__ == "__main__":
    unittest.main()
