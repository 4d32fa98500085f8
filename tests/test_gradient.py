"""Part 6: gradients against central differences, a hand-worked case and closed forms."""

import math
import random
import unittest

import main
from tests.support import central_difference, close, random_floats, run_section


class TestGradient(unittest.TestCase):
    def test_tanh_gradients_are_central_differences_and_by_hand_the_linear_0_9_to_the_k(self):
        # A difference with eps = 1e-6 carries a rounding error near 1e-16 / 1e-6 = 1e-10:
        # good to 1e-5 relative down to gradients of 1e-4; below, rounding wins.
        for w in (0.5, 0.9, 2.0):
            xs = random_floats(60, seed=int(10 * w))
            grads = main.input_gradients(xs, w)
            for k in range(len(xs)):
                if grads[k] < 1e-4:
                    break
                numeric = central_difference(lambda v: main.rnn_tanh(v, w), xs, len(xs) - 1 - k)
                self.assertTrue(close(grads[k], numeric, rel=1e-5, scale=0.0),
                                (w, k, grads[k], numeric))
        # h1 = tanh(x1), h2 = tanh(w h1 + x2):
        # dh2/dx2 = 1 - h2^2, dh2/dx1 = (1 - h2^2) w (1 - h1^2).
        w, x1, x2 = 0.7, 0.3, -0.4
        h1 = math.tanh(x1)
        h2 = math.tanh(w * h1 + x2)
        g = main.input_gradients([x1, x2], w)
        self.assertTrue(close(g[0], 1 - h2 * h2, rel=1e-15))
        self.assertTrue(close(g[1], (1 - h2 * h2) * w * (1 - h1 * h1), rel=1e-15))
        self.assertEqual(main.input_gradients([]), [])
        # w = 0: only the last input reaches h_N
        self.assertEqual(main.input_gradients([0.2, -0.5, 0.1], 0.0)[1:], [0.0, 0.0])
        # rnn_style is linear in its inputs: a finite difference is exact up to rounding.
        xs = random_floats(40, seed=1)
        for k in (0, 1, 5, 20, 39):
            numeric = central_difference(main.rnn_style, xs, len(xs) - 1 - k, eps=1e-3)
            self.assertTrue(close(numeric, 0.9 ** k, rel=1e-9, scale=0.0), k)

    def test_attentions_closed_form_is_the_softmax_and_the_section(self):
        for n in (2, 10, 200, 5_000):
            scores = [0.0] * (n - 1) + [5.0]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            self.assertTrue(close(main.attention_weight(n), exps[-1] / math.fsum(exps),
                                  rel=1e-12), n)
        self.assertAlmostEqual(main.attention_weight(200), 0.4272, places=4)
        self.assertEqual(main.attention_weight(1), 1.0)
        # a gap past exp's range underflows to the whole weight; one token has it all
        self.assertEqual((main.attention_weight(10, 710), main.attention_weight(1, -1000)),
                         (1.0, 1.0))
        out, data = run_section(self, "gradient")
        rows = {r["k"]: r for r in data["rows"]}
        self.assertEqual(sorted(rows), list(main.GRADIENT_DISTANCES))
        self.assertEqual(set(rows[1]), {"k", "linear", "tanh", "gated", "attention"})
        rng = random.Random(data["seed"])
        xs = [rng.uniform(-1.0, 1.0) for _ in range(data["n"])]
        for k, r in rows.items():
            self.assertEqual(r["linear"], 0.9 ** k)
            self.assertEqual(r["gated"], data["forget_gate"] ** k)
            self.assertEqual(r["attention"], main.attention_weight(data["n"]))
            self.assertEqual(r["tanh"], main.input_gradients(xs, data["w"])[k])
        self.assertLess(rows[50]["tanh"], 1e-10)                 # the lesson's 50 tokens back
        self.assertGreater(rows[100]["gated"], 0.3)
        self.assertIn("3.3e-11", out)
        # input 50 back against one step back, a row of the table, by central differences
        def last(values):
            return main.rnn_tanh(values, data["w"])
        n, said = data["n"], " ".join(out.split())
        near = central_difference(last, xs, n - 1 - 1)
        self.assertIn(f"an input 50 steps back is 3.3e-11, against {near:.2f} one step back.",
                      said)
        # attention's column explained where it is first read, before the table: one
        # score 5 above 199 others, e^5 = 148 times each, takes 148 / (148 + 199) = 0.43
        weight = f"{math.exp(5) / (math.exp(5) + n - 1):.2f}"
        explained = (f"That is {weight} here: the token it needs scores 5 above the {n - 1} "
                     f"others, so weighs e^5 = {math.exp(5):.0f} times any of them.")
        self.assertIn(explained, said)
        self.assertLess(said.index(explained), said.index(" k linear 0.9^k "))
        # the nearest distance shown, whichever it is
        later = main.render_gradient(main.gradient_rows(distances=(5, 50)))
        self.assertIn("is 3.3e-11, against 0.32 at k = 5.", " ".join(later.split()))
        alone = main.render_gradient(main.gradient_rows(distances=(50,)))
        self.assertIn("an input 50 steps back is 3.3e-11. Through attention", " ".join(
            alone.split()))


if __name__ == "__main__":
    unittest.main()
