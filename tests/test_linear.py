"""Part 14: linear attention's three forms against the formula written out
directly, each sum by math.fsum."""

import math
import unittest

import main
from tests.support import HUGE, close

# Calls of this part's public functions that raise ValueError (gathered, with
# every other file's, by tests/test_errors.py).
BAD_CALLS = {
    "linear_section": [((), {"sizes": ()}), ((), {"d": 0}), ((), {"chunk": HUGE})],
    **{name: [(([[1.0, 1.0]], [[1.0]], [[1.0]]), {})]       # queries and keys of two widths
       for name in ("linear_attention_parallel", "linear_attention_recurrent",
                    "linear_attention_chunked")},
}


def direct(qs, ks, vs):
    """out_i[j] = sum_(l<=i) phi(q_i).phi(k_l) v_l[j] / sum_(l<=i) phi(q_i).phi(k_l)."""
    def phi(x):
        return [a + 1 if a > 0 else math.exp(a) for a in x]
    out = []
    for i, q in enumerate(qs):
        weights = [math.fsum(a * b for a, b in zip(phi(q), phi(k))) for k in ks[:i + 1]]
        out.append([math.fsum(w * v[j] for w, v in zip(weights, vs)) / math.fsum(weights)
                    for j in range(len(vs[0]))])
    return out


class TestLinearAttention(unittest.TestCase):
    def test_three_forms_agree_with_the_formula(self):
        for n, d in ((1, 1), (5, 3), (33, 4)):
            qs, ks, vs = main._linear_inputs(n, d, seed=n)
            want = direct(qs, ks, vs)
            forms = [main.linear_attention_parallel(qs, ks, vs),
                     main.linear_attention_recurrent(qs, ks, vs),
                     *(main.linear_attention_chunked(qs, ks, vs, chunk=c) for c in (1, 4, 7, 64))]
            for got in forms:
                for row_got, row_want in zip(got, want):
                    for a, b in zip(row_got, row_want):
                        self.assertTrue(close(a, b, rel=1e-12, scale=1.0), (n, d))

    def test_the_table(self):
        rows = main.linear_rows(sizes=(40,), d=4, chunk=8)
        self.assertEqual([r["form"] for r in rows], ["parallel", "recurrent", "chunked"])
        self.assertLess(max(r["max_abs_diff"] for r in rows), 1e-12)
        held = {r["form"]: r["held_bytes"] for r in rows}
        self.assertLess(held["recurrent"], held["chunked"])
        self.assertEqual(rows[0]["work"], 40 * 41 * 4)
        # one rule for depth: additions, sums as trees
        depth = {r["form"]: r["depth"] for r in rows}
        self.assertEqual(depth, {"parallel": 6 + 2, "recurrent": 39 + 2, "chunked": 5 + 3 + 2})
        self.assertLessEqual(max(map(len, main.render_linear({"forms": rows}).splitlines())), 79)


class TestLinearEdges(unittest.TestCase):
    def test_no_inputs_give_no_outputs_in_every_form(self):
        self.assertEqual([form([], [], []) for form in main.LINEAR_FORMS.values()], [[], [], []])

    def test_inputs_a_form_cannot_take_are_refused(self):
        q = [[0.1, 0.2]]
        for form in main.LINEAR_FORMS.values():
            for args in ((q, q, q + q), (q, [[0.1, -800.0]], q), ([[math.nan, 0.0]], q, q)):
                with self.assertRaises(ValueError):
                    form(*args)
        for chunk in (0, -1):
            with self.assertRaisesRegex(ValueError, "chunk"):
                main.linear_attention_chunked(q, q, q, chunk=chunk)
            with self.assertRaisesRegex(ValueError, "chunk"):
                main.linear_section(sizes=(4,), chunk=chunk)


if __name__ == "__main__":
    unittest.main()
