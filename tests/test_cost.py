"""Part 5: the cost of attention at hand-checked points of Vaswani et al.'s Table 1."""

import unittest

import main
from tests.support import run_section


class TestCost(unittest.TestCase):
    def test_a_path_length_is_a_count_of_layers(self):
        # Walk it: a stack of causal windows that each reach `reach` positions back
        # connects the last position to the first after this many layers.
        def layers_to_connect(n, reach):
            covered, layers = 0, 0
            while covered < n - 1:
                covered += reach
                layers += 1
            return layers
        table = main.cost_table(sizes=(131_072, 1_000, 2), k=3, r=128)
        for row in table["contiguous_conv_layers"]:
            self.assertEqual(row["layers"], layers_to_connect(row["n"], 2), row)
        self.assertEqual(table["contiguous_conv_layers"][0]["layers"], 65_536)
        for row in table["layers"]:
            if row["layer"] == "restricted self-attention":
                self.assertEqual(row["max_path_length"], layers_to_connect(row["n"], 127), row)

    def test_attention_matrix_bytes_exact_and_attention_cheaper_below_d(self):
        self.assertEqual(main.attention_matrix_bytes(2_048), 8 * 2**20)
        self.assertEqual(main.attention_matrix_bytes(32_768), 2 * 2**30)
        self.assertEqual(main.attention_matrix_bytes(131_072), 32 * 2**30)
        self.assertEqual(main.attention_matrix_bytes(1_048_576), 2 * 2**40)
        self.assertEqual(main.attention_matrix_bytes(1_000, bytes_per_value=4), 4_000_000)
        self.assertEqual(main.attention_matrix_bytes(2**40), 2**81)        # no float rounding
        # the printed formulas, n^2*d against n*d^2: equal at n = d, attention cheaper below
        for d in (512, 7, 1):
            cheaper = [n for n in range(1, 3 * d) if n * n * d < n * d * d]
            self.assertEqual(main.cost_table(d=d)["attention_cheaper_below_n"],
                             max(cheaper, default=0) + 1, d)

    def test_table_1_formulas_at_hand_checked_points_and_the_section(self):
        table = main.cost_table(sizes=(512, 2_048), d=512, k=3, r=128)
        at = {(r["layer"], r["n"]): r for r in table["layers"]}
        self.assertEqual(at["self-attention", 512]["operations"], 512 ** 3)
        self.assertEqual(at["recurrent", 512]["operations"], 512 ** 3)       # n = d: a tie
        self.assertEqual(at["self-attention", 2_048]["operations"],
                         4 * at["recurrent", 2_048]["operations"])
        self.assertEqual(at["convolutional", 512]["operations"], 3 * 512 ** 3)
        self.assertEqual(at["restricted self-attention", 2_048]["operations"], 128 * 2_048 * 512)
        self.assertEqual(at["recurrent", 2_048]["sequential_operations"], 2_048)
        self.assertEqual(at["self-attention", 2_048]["max_path_length"], 1)
        # a dilated kernel's layers reach k^m positions: 9 = 3^2 tokens in exactly 2
        self.assertEqual(main.layer_costs(9, 4, 3, 2)["convolutional"][2], 2)
        # 3**7 = 2187 >= 2048 > 729
        self.assertEqual(at["convolutional", 2_048]["max_path_length"], 7)
        self.assertEqual(at["restricted self-attention", 2_048]["max_path_length"], 17)  # 2047/127
        out, data = run_section(self, "cost")
        self.assertIn("32.0 GiB", out)
        said = " ".join(out.split())
        # the memory first: the lesson's claim, its first and last sizes, then their table
        self.assertTrue(said.startswith(
            "=== what attention costs: its memory, and Table 1 of Vaswani et al. 2017 === "
            "The lesson says "
            "attention's memory grows as the square of the tokens n. Here one attention matrix "
            "is 8.00 MiB at 2,048 tokens and 2.00 TiB at 1,048,576. tokens n n x n matrix"), said)
        self.assertLess(said.index("2.00 TiB"), said.index("More:"))
        self.assertLess(said.index("More:"), said.index("operations per layer"))
        self.assertIn("Flash Attention (Dao et al. 2022) computes them tile by tile and never "
                      "stores the matrix, so its memory grows as n. The lesson's \"hides "
                      "constants, not the scaling\" holds for its work, O(n^2), not its memory.",
                      said)
        self.assertEqual(data["d"], 512)
        self.assertIn({"n": 131_072, "bytes": 32 * 2**30}, data["memory"])
        self.assertEqual(data["attention_cheaper_below_n"], 512)
        # self-attention's operations over a recurrent layer's are n/d, as the table shows
        for n in main.COST_SIZES:
            costs = main.layer_costs(n, 512, 3, 128)
            self.assertEqual(costs["self-attention"][0] / costs["recurrent"][0], n / 512)

    def test_table_1s_columns_are_said_to_be_orders_each_evaluated_in_its_own_table(self):
        out = main.render_cost(main.cost_table())
        said = " ".join(out.split())
        self.assertIn("Table 1's columns are orders of growth, constants dropped. As "
                      "written, self-attention does fewer operations than a recurrent layer "
                      "only while n < d, the model width (512). Kernel width k = 3. Restricted "
                      "self-attention's causal window is r = 128 tokens, itself and the 127 "
                      "before it: O(n/r) is ceil((n - 1) / 127) layers.", said)
        self.assertNotIn("LSTM", said)          # no crossover that the formulas printed miss
        # each column a table of its own: Table 1's formula, then its value at each n
        lines = out.splitlines()
        for header, rows in (
                ("operations per layer", {"self-attention": ["n^2*d", "134M", "2.15G", "8.80T"],
                                          "recurrent": ["n*d^2", "134M", "537M", "34.4G"]}),
                ("sequential operations", {"recurrent": ["O(n)", "512", "2,048", "131,072"],
                                           "convolutional": ["O(1)", "1", "1", "1"]}),
                ("maximum path length", {"convolutional": ["O(log_k", "n)", "6", "7", "11"],
                                         "restricted self-attention": ["O(n/r)", "5", "17",
                                                                       "1,033"]})):
            start = next(k for k, line in enumerate(lines) if line.startswith(header))
            self.assertEqual(lines[start].split()[len(header.split()):],
                             ["formula", "n", "=", "512", "n", "=", "2,048", "n", "=", "131,072"])
            for name, cells in rows.items():
                line = next(line for line in lines[start + 1:start + 5]
                            if line.startswith(name + "  "))
                self.assertEqual(line[len(name):].split(), cells, (header, name))
        # beside the 1,033 it prints, what O(n/r) counts: a causal window of r = 128, each
        # layer 127 positions further back: 131,071 / 127 = 1,032.1, so 1,033 layers
        self.assertEqual(-(-131_071 // 127), 1_033)
        causal = "itself and the 127 before it: O(n/r) is ceil((n - 1) / 127) layers."
        self.assertIn(causal, said)
        self.assertLess(said.index(causal), said.index("O(n/r) 5 17 1,033"))   # said first


if __name__ == "__main__":
    unittest.main()
