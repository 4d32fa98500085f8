"""Part 13: Newton's method for the tanh RNN against the serial loop."""

import random
import unittest

import main


class TestDeer(unittest.TestCase):
    def test_newton_reaches_the_serial_states(self):
        for w in (0.5, 0.9, 1.5, 3.0):
            for length in (1, 2, 17, 200):
                xs = main.uniform_inputs(length, random.Random(length))
                states, iterations = main.deer_states(xs, w)
                serial = main.tanh_states(xs, w)
                self.assertLess(max(abs(a - b) for a, b in zip(states, serial)), 1e-12,
                                (w, length))
                self.assertLessEqual(iterations, length + 1)

    def test_t_plus_one_iterations_always_suffice(self):
        # A tolerance no iteration meets runs the guaranteed T + 1: exact to rounding.
        xs = main.uniform_inputs(40, random.Random(5), -2, 2)
        states, iterations = main.deer_states(xs, 1.5, tolerance=-1.0)
        self.assertEqual(iterations, 41)
        self.assertLess(max(abs(a - b) for a, b in zip(states, main.tanh_states(xs, 1.5))), 1e-13)

    def test_the_table(self):
        rows = main.deer_rows(weights=(0.5, 1.5), lengths=(16, 64))
        self.assertEqual(len(rows), 4)
        for r in rows:
            self.assertLess(r["max_abs_diff"], 1e-12)
            self.assertEqual(r["depth"], r["iterations"] * 2 * main.depth(r["length"])[1])
            self.assertTrue(0 <= r["share_expanding"] <= 1)
        text = main.render_deer(rows)
        self.assertLessEqual(max(map(len, text.splitlines())), 79)


if __name__ == "__main__":
    unittest.main()
