"""The machinery: inputs, timing (on a fake clock) and formatters, each against
the value it stands for."""

import math
import random
import unittest

import main
from tests.support import AWKWARD_LENGTHS, fake_clock


class TestMachinery(unittest.TestCase):
    def test_samples_in_order_a_short_first_call_sizing_them_and_not_one(self):
        clock = fake_clock([1.0, 2.0, 5.0, 3.0, 4.0, 0.5])
        got = main.sample_per_call([int, float], reps=3, timer=clock)
        self.assertEqual(got, [[1.0, 5.0, 4.0], [2.0, 3.0, 0.5]])
        # rnn: two calibration calls (the faster, 1e-4 s, sets the loop count), then
        # one sample per round of `loops` calls; attn's first call is a sample.
        loops = main._loop_count(1e-4)
        self.assertEqual(loops, math.ceil(main.SAMPLE_SECONDS / 1e-4))
        clock = fake_clock([2e-4, 1e-4, 1.0, 0.005, 2.0, 0.006, 3.0, 0.004])
        rnn, attn = main.sample_per_call([int, float], reps=3, timer=clock)
        self.assertEqual(rnn, [0.005 / loops, 0.006 / loops, 0.004 / loops])
        self.assertEqual(attn, [1.0, 2.0, 3.0])
        # A 1 ms call against a 5 ms target gives 5 calls a sample.
        self.assertEqual(main._loop_count(0.001, target=0.005), 5)
        self.assertEqual(main._loop_count(0.010, target=0.005), 1)
        self.assertEqual(main._loop_count(0.0, target=0.005), 1_000)

    def test_seed_input_is_the_seed_scripts_comprehension(self):
        for n in AWKWARD_LENGTHS + (1_000, 10_007):
            self.assertEqual(main.seed_input(n), [0.001 * (i % 17) for i in range(n)], n)

    # Each formatter against the value it stands for: the number shown times its unit must give
    # back the value to three significant digits.
    def read_back(self, text, units):
        if " " in text:
            number, _, unit = text.partition(" ")
        else:
            number, unit = text.rstrip("KMGTP"), text[-1:]
        return float(number), units[unit], number

    def check_three_digits(self, values, formatter, units):
        for v in values:
            text = formatter(v)
            number, scale, digits = self.read_back(text, units)
            self.assertEqual(len(digits.replace(".", "").lstrip("0")), 3, (v, text))
            self.assertLess(number, 1000, (v, text))
            self.assertLessEqual(abs(number * scale - v), 0.005 * v, (v, text))

    def test_seconds_and_bytes_three_significant_digits_across_units(self):
        rng = random.Random(4)
        values = [10 ** rng.uniform(-9, 3) for _ in range(300)]
        values += [0.0009995, 0.0009996, 0.00099949, 0.9995, 9.995e-6, 99.95e-3, 999.5e-9]
        units = {"s": 1.0, "ms": 1e-3, "µs": 1e-6, "ns": 1e-9}
        self.check_three_digits(values, main.format_seconds, units)
        self.assertEqual(main.format_seconds(0.004183), "4.18 ms")
        self.assertEqual(main.format_seconds(4.12e-7), "412 ns")
        self.assertEqual(main.format_seconds(0.0009996), "1.00 ms")     # not "1000 µs"
        # stored as 0.00099949999...
        self.assertEqual(main.format_seconds(0.0009995), "999 µs")
        self.assertEqual(main.format_seconds(1e-12), "< 1 ns")
        self.assertEqual(main.format_seconds(12_345.6), "12346 s")   # past s: every digit
        self.assertEqual(main.format_seconds(1_234.6), "1235 s")     # four digits: all of them
        self.assertEqual(main.format_seconds(0), "< 1 ns")
        rng = random.Random(5)
        # up to TiB, the largest unit
        values = [int(2 ** rng.uniform(10, 49.9)) for _ in range(300)]
        values += [1023 * 2**30 + 2**29 + 1, 1000 * 2**20, 1024 * 2**30 - 1]
        units = {"KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}
        self.check_three_digits(values, main.format_bytes, units)
        self.assertEqual(main.format_bytes(1024 * 2**30), "1.00 TiB")   # not "1024 GiB"
        self.assertEqual(main.format_bytes(1000 * 2**20), "0.977 GiB")
        self.assertEqual(main.format_bytes(32 * 2**30), "32.0 GiB")
        self.assertEqual(main.format_bytes(512), "512 B")

    def test_format_count_three_significant_digits(self):
        rng = random.Random(6)
        values = [int(10 ** rng.uniform(3, 17)) for _ in range(300)]
        values += [999_999, 999_500, 10**12 - 1]
        units = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
        self.check_three_digits(values, main._format_count, units)
        self.assertEqual(main._format_count(10**12 - 1), "1.00T")        # not "1000G"
        self.assertEqual(main._format_count(999), "999")

    def test_noisy_and_the_opening_follow_the_numbers(self):
        # past timeit's 4x, as printed: 4.004 reads 4.00x, not noisy
        self.assertEqual(main._spread_note([("a", 4.004), ("b", 1.2)]), [])
        self.assertEqual(" ".join(main._spread_note([("a", 4.006), ("b", 4.5)])),
                         "noisy: at b, the slowest sample took 4.50x the fastest; the fastest "
                         "is shown.")
        # the wall-clock table flags its noisiest row (issue 60, item 7)
        rows = [dict(n=1_000, rnn_s=2e-5, attn_s=4e-6, ratio=5.0, spread=1.1),
                dict(n=10**6, rnn_s=2e-2, attn_s=4e-3, ratio=5.0, spread=4.8)]
        text = main.render_wallclock({"rows": rows, "reps": 3,
                                      "finding": main.wallclock_finding(rows)})
        self.assertIn("noisy: at N = 1,000,000, the slowest sample took 4.80x the fastest",
                      " ".join(text.split()))
        row = {"n": 1_000, "rnn_s": 2e-5, "attn_s": 4e-6, "ratio": 5.0, "spread": 1.0}
        # each case flips which function the opening names as the slower
        for ratios, reps, words in (((6.0, 5.0), 3, "Here rnn_style took 5.0x to 6.0x as long"),
                                    ((0.8, 0.9), 3, "the mean was the slower at every N"),
                                    ((0.8, 1.3), 3, "neither was the slower at every N"),
                                    ((1.0, 2.0), 3, "neither was the slower at every N"),
                                    ((5.96, 6.04), 1, "rnn_style took 6.0x as long (one "
                                                      "timing each)"),
                                    ((5.0,), 2, "(fastest of 2 timings)"),
                                    ((5.0,), 3, "(fastest of 3 timings)")):
            rows = [{**row, "n": 10 ** k, "ratio": r} for k, r in enumerate(ratios, 3)]
            result = {"rows": rows, "reps": reps, "finding": main.wallclock_finding(rows)}
            text = " ".join(main.render_wallclock(result).split())
            self.assertIn(words, text)
            # the claim first, in a whole sentence that names the mean's function; then
            # the answer; "/" divides in the header, "per" is per
            self.assertIn("=== The lesson says the mean, attention_style, wins even in pure "
                          "Python: sum() runs in C. Here ", text)
            self.assertIn(" N rnn per call attn per call rnn / attn ", text)

if __name__ == "__main__":
    unittest.main()
