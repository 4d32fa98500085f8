"""Part 7: recall from a fixed-width state against a direct re-computation and
the exact share."""

import operator
import random
import unittest

import main
from tests.support import close


def recall_reference(n, d, rng):
    """recall_draw written out with index loops, and the cache as a true argmax of dot products."""
    keys = [rng.getrandbits(d) for _ in range(n)]
    values = [rng.choice((-1, 1)) for _ in range(n)]
    vectors = [[1 if (key >> t) & 1 else -1 for t in range(d)] for key in keys]
    state = [0] * d
    for i in range(n):
        for t in range(d):
            state[t] += values[i] * vectors[i][t]
    state_right = cache_right = 0
    for j in range(n):
        read = sum(state[t] * vectors[j][t] for t in range(d))
        state_right += read * values[j] > 0
        dots = [sum(map(operator.mul, vectors[i], vectors[j])) for i in range(n)]
        cache_right += values[dots.index(max(dots))] == values[j]
    return state_right, cache_right


READS = 800                             # a third of the section's reads


class TestCapacity(unittest.TestCase):
    @classmethod
    def setUpClass(cls):                        # the section's rows, computed once
        cls.reads, cls.rows = READS, main.capacity_rows(reads=READS)

    def test_recall_draw_is_a_recomputation_and_exact_recall_the_binomial_tail(self):
        for n, d in ((1, 8), (5, 8), (40, 16), (50, 64), (2, 2), (3, 4)):     # ties: 2, 2
            self.assertEqual(main.recall_draw(n, d, random.Random(n)),
                             recall_reference(n, d, random.Random(n)))
        # The sum written out over each count b of +1s among the (n - 1) d crosstalk
        # terms, its binomial coefficients built row by row (C(t, b + 1) = C(t, b) (t - b)
        # / (b + 1)): right when d + 2b - (n - 1) d > 0 (a tie is wrong).
        for n, d in ((1, 8), (2, 8), (3, 5), (4, 1), (3, 1), (9, 16), (17, 64), (33, 32)):
            trials = (n - 1) * d
            coefficients = [1]
            for b in range(trials):
                coefficients.append(coefficients[-1] * (trials - b) // (b + 1))
            right = sum(c for b, c in enumerate(coefficients) if d + 2 * b - trials > 0)
            self.assertTrue(close(main.exact_recall(n, d), right / 2 ** trials, rel=1e-9),
                            (n, d))
        got = [round(main.exact_recall(n, 64), 4) for n in (16, 32, 64, 128, 256, 512)]
        self.assertEqual(got, [0.979, 0.9214, 0.8394, 0.7577, 0.689, 0.6362])

    def test_a_tie_is_a_wrong_read_where_ties_are_common(self):
        # n = 2, d = 2: the read is 2 + v1 v2 (k1.k2), and k1.k2 = -2, 0 or 2; a tie (0)
        # comes a quarter of the time, and counts as wrong: recall 3/4, not 1
        row = main.capacity_rows(sizes=(2,), d=2, reads=4_000)[0]
        self.assertEqual(row["exact_recall"], 0.75)
        self.assertLess(abs(row["state_recall"] - 0.75), 0.03)     # 4.4 standard errors

    def test_measured_recall_follows_the_exact_share_toward_a_coin_flip(self):
        # 800 reads or more a row: a standard error of at most sqrt(0.25 / 800) = 0.018,
        # so 0.053 is three of them.
        for r in self.rows:
            self.assertLess(abs(r["state_recall"] - r["exact_recall"]), 0.053, r)
            self.assertEqual(r["cache_recall"], 1.0)
            self.assertGreaterEqual(r["n"] * r["draws"], self.reads)
        recalls = [r["state_recall"] for r in self.rows]
        self.assertEqual(recalls, sorted(recalls, reverse=True))
        self.assertGreater(recalls[0], 0.95)
        self.assertLess(recalls[-1], 0.7)
        for r in self.rows:
            self.assertEqual((r["state_numbers"], r["cache_numbers"]),
                             (r["d"], r["n"] * (r["d"] + 1)))
        out = main.render_capacity(self.rows)
        self.assertIn("toward a coin flip", " ".join(out.split()))
        # at n = d, the exact share, as the table prints it to two places
        at_d = next(r for r in self.rows if r["n"] == r["d"])
        self.assertIn(f"and {at_d['exact_recall']:.2f} at n = d.", " ".join(out.split()))
        # the table's columns in their order, each the number it names
        lines = out.splitlines()
        header = next(i for i, line in enumerate(lines) if line.lstrip().startswith("pairs n"))
        for r, line in zip(self.rows, lines[header + 1:]):
            self.assertEqual(line.split()[:5], [
                f"{r['n']:,}", f"{r['n'] / r['d']:g}", f"{r['state_recall']:.3f}",
                f"{r['exact_recall']:.3f}", f"{r['cache_recall']:.3f}"])
        self.assertLessEqual(max(len(line) for line in out.splitlines()), 79)

    def test_what_state_and_cache_hold_is_in_bytes_as_generate_counts_them(self):
        # fp16, 2 bytes a number: the state's 64 numbers are 128 B, as generate's state at
        # the same width; the cache's n keys of 64 and n values, 130 n bytes
        out = main.render_capacity(self.rows)
        lines = out.splitlines()
        header = next(i for i, line in enumerate(lines) if line.lstrip().startswith("pairs n"))
        self.assertTrue(lines[header].endswith("state holds  cache holds"))
        cells = [line.split()[-4:] for line in lines[header + 1:header + 7]]
        expected = {16: "2.03", 32: "4.06", 64: "8.12", 128: "16.2", 256: "32.5", 512: "65.0"}
        for r, row in zip(self.rows, cells):
            kib = r["n"] * 65 * 2 / 1024
            self.assertEqual(f"{kib:#.3g}", expected[r["n"]])
            self.assertEqual(row, ["128", "B", expected[r["n"]], "KiB"], r["n"])
            self.assertEqual((r["state_bytes"], r["cache_bytes"]),
                             (2 * r["state_numbers"], 2 * r["cache_numbers"]))
        state = next(g for g in main.generate_rows((8,), d=64) if g["model"] == "tanh RNN")
        self.assertEqual(state["held_bytes"], self.rows[0]["state_bytes"])
        # the text gives the count in numbers, and the bytes of one
        self.assertIn("in n*(d+1) fp16 numbers (keys and values).", " ".join(out.split()))
        # random keys cross-talk below n = d; d orthogonal keys would not (a Hadamard
        # matrix's rows): each read is d * v exactly
        rows = [[1]]
        while len(rows) < 64:
            rows = [r + r for r in rows] + [r + [-x for x in r] for r in rows]
        values = [(-1) ** (i % 3) for i in range(64)]
        s = [sum(v * k[j] for v, k in zip(values, rows)) for j in range(64)]
        self.assertEqual([sum(a * b for a, b in zip(s, k)) for k in rows],
                         [64 * v for v in values])
        self.assertIn("Orthogonal keys would read up to n = d pairs exactly, but no more than d "
                      "keys can be orthogonal.", " ".join(out.split()))


if __name__ == "__main__":
    unittest.main()
