"""Part 9: the adding problem, each model's gradient against central differences,
the minGRU's scan against its loop, the baseline's closed form, short runs."""

import contextlib
import io
import json
import math
import random
import sys
import unittest
from unittest import mock
from fractions import Fraction

import main
from tests.support import central_difference, close, run_main


def mingru_states(params, pairs, scan=True):
    """Every state of every channel of the minGRU on one example, by scan or by loop."""
    recurrence = main.linear_recurrence_scan if scan else main.rnn_states
    return [recurrence(inputs, decays) for decays, inputs, _, _ in
            main._mingru_gates(params, pairs, main.MINGRU_WIDTH)]


# held-out MSE on 20 examples at T = 12 after 20 steps from each model's first
# initialization, the same to the last bit on CPython 3.9 to 3.13
EXPECTED = {"tanh_rnn": "0x1.2062b4ac123bcp-3", "mingru": "0x1.bb409ca493a15p-3",
            "attention": "0x1.40b54bf9fd73ep-1"}


def trained(model, length, steps, seed=1, chunks=1):
    """Return the model's parameters after `steps` steps on the training stream,
    fed in `chunks` pieces as train_models feeds them."""
    params = main.initial_parameters(model, seed)
    moments = ([0.0] * len(params), [0.0] * len(params))
    for first in range(0, steps, steps // chunks):
        examples = [main._training_example(length, k)
                    for k in range(first, first + steps // chunks)]
        main._train_steps(model, params, moments, examples, first)
    return params


class TestTrain(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with mock.patch.multiple(main, TRAIN_TEST=20):          # 20 held-out examples do
            cls.result = main.train_section(lengths=(3, 4), steps=20, seeds=2)

    def test_the_adding_problems_markers_and_target_and_its_baseline(self):
        for length in (2, 3, 10, 81):
            for pairs, target in main.adding_problem(length, 50, seed=length):
                self.assertEqual(len(pairs), length)
                marked = [t for t, (_, m) in enumerate(pairs) if m == 1.0]
                self.assertEqual(len(marked), 2)
                self.assertLess(marked[0], length // 2)
                self.assertGreaterEqual(marked[1], length // 2)
                self.assertEqual(target, pairs[marked[0]][0] + pairs[marked[1]][0])
                self.assertTrue(all(0 <= v < 1 and m in (0.0, 1.0) for v, m in pairs))
        # E[(U + V - 1)^2] for independent U, V uniform in [0, 1), from their moments.
        mean, square = Fraction(1, 2), Fraction(1, 3)
        exact = 2 * square + 1 + 2 * mean * mean - 4 * mean
        self.assertEqual(exact, Fraction(1, 6))
        self.assertAlmostEqual(main.BASELINE_MSE, float(exact), places=15)
        # 2,000 examples: (target - 1)^2 has a standard deviation of sqrt(1/15 - 1/36) =
        # 0.197, so the mean's standard error is 0.0044; three of them are 0.0132.
        sample = main.adding_problem(2, 2_000, seed=1)
        mse = math.fsum((target - 1) ** 2 for _, target in sample) / len(sample)
        self.assertLess(abs(mse - 1 / 6), 0.0132)

    def test_each_models_gradient_is_its_central_differences(self):
        for model, length in (("tanh_rnn", 4), ("mingru", 7), ("attention", 9)):
            loss = main.TRAIN_MODELS[model].loss
            params = main.uniform_inputs(main.TRAIN_MODELS[model].parameters,
                                         random.Random(length), -1, 1)
            pairs, target = main.adding_problem(length, 1, seed=length)[0]
            error, gradient = loss(params, pairs, target)
            self.assertEqual(loss(params, pairs, target, gradient=False), (error, None))
            self.assertEqual(len(gradient), len(params))
            for k in range(len(params)):
                numeric = central_difference(lambda p: loss(p, pairs, target)[0],
                                             params, k)
                self.assertTrue(close(gradient[k], numeric, rel=1e-5, scale=1e-4), (model, k))

    def test_scan_and_loop_give_the_same_states_and_gradient_the_gate_written_out(self):
        params = main.uniform_inputs(main.TRAIN_MODELS["mingru"].parameters, random.Random(3),
                                     -1, 1)
        for length in (2, 5, 16, 33):
            for pairs, target in main.adding_problem(length, 3, seed=length):
                for a, b in zip(mingru_states(params, pairs),
                                mingru_states(params, pairs, scan=False)):
                    self.assertTrue(all(abs(x - y) <= 1e-12 for x, y in zip(a, b)), length)
                by_scan = main.mingru_loss(params, pairs, target)[1]
                by_loop = main.mingru_loss(params, pairs, target, scan=False)[1]
                self.assertTrue(all(abs(x - y) <= 1e-12 for x, y in zip(by_scan, by_loop)))
        # h_t = (1 - z_t) h_(t-1) + z_t h~_t, channel by channel, as index loops.
        params = main.uniform_inputs(main.TRAIN_MODELS["mingru"].parameters, random.Random(4),
                                     -1, 1)
        pairs, _ = main.adding_problem(8, 1, seed=2)[0]
        width = main.MINGRU_WIDTH
        for i, states in enumerate(mingru_states(params, pairs)):
            h = 0.0
            for (v, m), got in zip(pairs, states):
                z = 1 / (1 + math.exp(-(params[2 * i] * v + params[2 * i + 1] * m
                                        + params[2 * width + i])))
                candidate = (params[3 * width + 2 * i] * v + params[3 * width + 2 * i + 1] * m
                             + params[5 * width + i])
                h = (1 - z) * h + z * candidate
                self.assertTrue(close(got, h, rel=1e-12, scale=1.0))

    def test_a_short_run_lowers_every_models_loss_and_pieces_make_the_same_run(self):
        held_out = main.adding_problem(5, 50, seed=99)
        for model, (loss, _) in main.TRAIN_MODELS.items():
            def mse(params):
                return math.fsum(loss(params, pairs, y, gradient=False)[0]
                                 for pairs, y in held_out) / 50
            self.assertLess(mse(trained(model, 5, 20)), mse(main.initial_parameters(model)), model)
        self.assertEqual(trained("mingru", 5, 20), trained("mingru", 5, 20, chunks=2))

    def test_json_has_the_documented_fields_and_the_options_reach_the_training(self):
        data = self.result
        self.assertAlmostEqual(data["baseline"], 1 / 6)
        self.assertEqual(data["steps"], 20)
        self.assertEqual({r["model"] for r in data["rows"]}, {"tanh_rnn", "mingru", "attention"})
        self.assertEqual(len(data["rows"]), 3 * 2 * 2)               # models x lengths x seeds
        # --seeds S: "seeded 1 to S", as --help says
        self.assertIn("seeded 1 to S", main.SEEDS.help)
        self.assertEqual(sorted({r["seed"] for r in data["rows"]}), [1, 2])
        for row in data["rows"]:
            self.assertEqual(set(row), {"model", "length", "seed", "test_mse"})
            with mock.patch.multiple(main, TRAIN_TEST=20):
                self.assertEqual(row["test_mse"], main.held_out_mse(
                    row["model"], trained(row["model"], row["length"], 20, row["seed"]),
                    row["length"]))
        for c in data["constant"]:                  # answering 1 on the held-out examples
            examples = main.adding_problem(c["length"], 20,
                                           seed=main.TRAIN_SEED + 1_000_000 + c["length"])
            self.assertEqual(c["test_mse"], math.fsum((y - 1) ** 2 for _, y in examples) / 20)
        text = main.render_train(data)
        self.assertIn("one attention read", text)
        self.assertLessEqual(max(len(line) for line in text.splitlines()), 79)
        verdicts = main.train_verdicts(data)
        self.assertEqual({(v["model"], v["length"]): v["verdict"] for v in data["verdicts"]},
                         verdicts)
        self.assertIn(main.train_headline(data)[1:] + ".", " ".join(text.split()))
        for v in data["verdicts"]:          # each verdict in its row of the table
            self.assertIn(v["verdict"], text)
        with mock.patch.multiple(main, TRAIN_TEST=20):
            status, out, err = run_main("train", "--lengths", "3,4", "--steps", "2",
                                        "--seeds", "1", "--json")
        self.assertEqual((status, err), (0, ""))                # short: no notice
        data = json.loads(out)["train"]
        self.assertEqual((data["steps"], data["seeds"]), (2, 1))
        self.assertEqual(sorted({r["length"] for r in data["rows"]}), [3, 4])
        status, out, err = run_main("train", "--lengths", "100", "--steps", "100001")
        self.assertEqual((status, out), (2, ""))
        self.assertIn("error: arguments --steps, --seeds and --lengths: steps x seeds x the sum "
                      "of the lengths at most 10_000_000, got 40_000_400", err)
        # the limit --steps' help gives, with the default lengths and seeds, is the one refused
        limit = main.MAX_TRAIN_WORK // (main.TRAIN_SEEDS * sum(main.TRAIN_LENGTHS))
        self.assertIn(f"--steps at most {limit:_} with these seeds and lengths",
                      run_main("train", "--steps", str(limit + 1))[2])
        self.assertIn(f"so {limit:_} with the default lengths and seeds",
                      " ".join(run_main("--help")[1].split()))

    def test_a_verdict_needs_every_initialization_and_the_sentence_reads_the_longest_t(self):
        result = {"constant": [{"length": 10, "test_mse": 0.16}, {"length": 80, "test_mse": 0.16}],
                  "verdicts": [{"model": m, "length": t, "verdict": v} for m, t, v in (
                      ("tanh_rnn", 10, main.PART), ("tanh_rnn", 80, main.NOTHING),
                      ("mingru", 10, main.LEARNED), ("mingru", 80, main.LEARNED),
                      ("attention", 10, main.LEARNED), ("attention", 80, main.LEARNED))]}
        self.assertEqual(main.train_headline(result),
                         "at T = 80, the tanh RNN learned nothing, the minGRU learned and one "
                         "attention read learned")
        # the gate is read only where the minGRU's verdict beats the tanh RNN's at that T
        verdicts = {(v["model"], v["length"]): v["verdict"] for v in result["verdicts"]}
        self.assertEqual(main.gate_reading(verdicts, 80), " Like an LSTM's cell, the minGRU's "
                         "state passes no tanh from step to step: only its gate fades the "
                         "gradient (see gradient).")
        for mingru, tanh in ((main.NOTHING, main.NOTHING), (main.PART, main.LEARNED),
                             (main.VARIES, main.PART), (main.LEARNED, main.LEARNED)):
            self.assertEqual(main.gate_reading({("mingru", 80): mingru,
                                                ("tanh_rnn", 80): tanh}, 80), "")
        self.assertTrue(main.gate_reading({("mingru", 80): main.PART,
                                           ("tanh_rnn", 80): main.VARIES}, 80))
        result = {"constant": [{"length": 10, "test_mse": 0.16}],
                  "rows": [{"model": "tanh_rnn", "length": 10, "seed": s, "test_mse": mse}
                           for s, mse in ((1, 0.15), (2, 0.155), (3, 0.06))]}
        self.assertEqual(main.train_verdicts(result), {("tanh_rnn", 10): main.VARIES})
        result["rows"][0]["test_mse"] = 0.1
        self.assertEqual(main.train_verdicts(result), {("tanh_rnn", 10): main.VARIES})
        result["rows"][1]["test_mse"] = 0.01
        self.assertEqual(main.train_verdicts(result), {("tanh_rnn", 10): main.PART})
        result["rows"][2]["test_mse"] = 0.148
        result["rows"][0]["test_mse"] = result["rows"][1]["test_mse"] = 0.15
        self.assertEqual(main.train_verdicts(result), {("tanh_rnn", 10): main.NOTHING})
        # the edges as the note and `terms` word them: "at most a tenth", "0.9 ... or more"
        self.assertEqual([main._learned(x, 1.0) for x in (0.1, 0.1001, 0.9, 0.8999)],
                         [main.LEARNED, main.PART, main.NOTHING, main.PART])
        for verdict, words in ((main.LEARNED, "each MSE at most 0.1 of answering 1's"),
                               (main.PART, "each MSE under 0.9 of answering 1's, not all at "
                                           "most 0.1"),
                               (main.NOTHING, "each MSE at least 0.9 of answering 1's"),
                               (main.VARIES, "some MSEs at least 0.9 of answering 1's, some "
                                             "under")):
            self.assertIn(f"{verdict.capitalize()}: {words}.",
                          " ".join(main.render_train(self.result).split()))
        for verdict, words in ((main.LEARNED, "over every initialization: each MSE at most 0.1"),
                               (main.PART, "where not learned: each MSE under 0.9"),
                               (main.NOTHING, "over every initialization: each MSE at least 0.9"),
                               (main.VARIES, "some initializations learned nothing, others")):
            self.assertIn(words, " ".join(main.render_term(verdict).split()))

    def test_training_shows_its_progress_on_a_terminal_and_only_there(self):
        class Terminal(io.StringIO):
            def isatty(self):
                return True
        terminal = Terminal()
        with mock.patch.object(sys, "stderr", terminal), mock.patch.multiple(main, TRAIN_TEST=5), \
             contextlib.redirect_stdout(io.StringIO()):
            status = main.main(["train", "--lengths", "3,5", "--steps", "250", "--seeds", "1",
                                "--json"])
        # a chunk of 250 examples at T = 3, 3/8 of the work; then the last, at T = 5,
        # clears the line and leaves the cursor at its start for what follows
        self.assertEqual(status, 0)
        self.assertEqual(terminal.getvalue().split("\r"), [
            "", "training: 38% done (T = 3)", " " * len("training: 100% done (T = 5)"), ""])


    def test_the_table_shows_each_model_and_t_with_its_best_and_worst_in_order(self):
        result = {"widths": {"tanh_rnn": 4, "mingru": 4}, "seeds": 2, "steps": 10, "wall_s": 1.0,
                  "test_examples": 20, "constant": [{"length": 5, "test_mse": 0.16}],
                  "rows": [{"model": m, "length": 5, "seed": s, "test_mse": mse}
                           for m in main.MODEL_NAMES for s, mse in ((1, 0.05), (2, 0.002))]}
        result["verdicts"] = [{"model": m, "length": 5, "verdict": main.PART}
                              for m in main.MODEL_NAMES]
        lines = main.render_train(result).splitlines()
        header = next(i for i, line in enumerate(lines) if line.startswith("model"))
        self.assertEqual([cell.strip() for cell in lines[header].split("  ") if cell.strip()],
                         ["model", "T", "answering 1", "best init", "worst init", "verdict"])
        self.assertEqual(lines[header + 1].split()[-6:],                 # best is the least
                         ["5", "0.16", "0.0020", "0.050", "learned", "some"])

    def test_answering_1_is_said_before_the_table_and_which_of_its_two_values_is_measured(self):
        # 1/6 is its expectation (test above); the table's column is measured on the
        # held-out examples, here 20 a T: the range said is theirs, to two digits
        said = " ".join(main.render_train(self.result).split())
        measured = []
        for length in (3, 4):
            examples = main.adding_problem(length, 20, seed=main.TRAIN_SEED + 1_000_000 + length)
            measured.append(math.fsum((y - 1) ** 2 for _, y in examples) / 20)
        low, high = (f"{x:#.2g}" for x in (min(measured), max(measured)))
        span = low if low == high else f"{low} to {high}"
        sentence = (f"Always answering 1, the mean, has expected MSE 1/6, measured {span}; each "
                    "MSE is on 20 held-out examples.")
        self.assertIn(sentence, said)
        self.assertLess(said.index(sentence), said.index("model T answering 1"))
        # the table's column: the same measured values
        self.assertEqual([c["test_mse"] for c in self.result["constant"]], measured)

    # .ci/run also compares a short run on the oldest and the newest Python
    def test_a_run_shorter_than_the_default_says_so_in_its_text_and_figure(self):
        said = "This run had 20 steps, not 4,000: too few to judge a model."
        self.assertIn(said, " ".join(main.render_train(self.result).split()))
        self.assertIn("20 steps, not 4,000", main.figure_train(self.result))
        full = dict(self.result, steps=main.TRAIN_STEPS)
        self.assertNotIn("This run had", main.render_train(full))
        self.assertNotIn("too few to judge", main.figure_train(full))
        self.assertIn("This run had", main.render_train(dict(full, steps=main.TRAIN_STEPS - 1)))
        # the note counts the initializations the verdicts read
        self.assertIn("Verdicts read all 2 initializations:",
                      " ".join(main.render_train(self.result).split()))
        self.assertIn("Verdicts read the one initialization:",
                      " ".join(main.render_train(dict(self.result, seeds=1)).split()))
        # a short run says its steps once, in its warning; the last line, the time
        self.assertIn("All runs took 500 ms, with Adam.",
                      " ".join(main.render_train(dict(self.result, wall_s=0.5)).split()))
        self.assertIn("4,000 steps of Adam per run, all in 500 ms.", " ".join(main.render_train(
            dict(self.result, wall_s=0.5, steps=main.TRAIN_STEPS)).split()))
        self.assertIn("Verdicts read all 3 initializations:",
                      " ".join(main.render_train(dict(self.result, seeds=3)).split()))

    def test_a_short_run_gives_known_numbers(self):
        got = {}
        with mock.patch.multiple(main, TRAIN_TEST=20):
            for model in EXPECTED:
                got[model] = main.held_out_mse(model, trained(model, 12, 20), 12).hex()
        self.assertEqual(got, EXPECTED)


if __name__ == "__main__":
    unittest.main()
