"""The figures: valid, small SVG with a title, the points given, the same bytes
for the same results (the README's too); --svg writes them or says why not."""

import itertools
import math
import os
import tempfile
import unittest
from unittest import mock
import xml.etree.ElementTree as ET

import main
from tests.support import ROOT, SVG, assert_valid_figure, raising, readme, run_main, texts

# Each figure's data, computed small: the section's compute step with small arguments.
SAMPLES = {"depth": main.depth_rows, "sweep": lambda: main.sweep((64, 256, 1_024), 1),
           "work": lambda: main.work_section((8, 16)), "gradient": main.gradient_rows,
           "capacity": lambda: main.capacity_rows(reads=64),
           "train": lambda: main.train_section((3, 4), 20, 2)}


def drawn_points(svg, color):
    """Return the (x, y) of every point of one series, by its colour, in drawing order:
    a circle's centre, or a square's, triangle's or diamond's middle."""
    points = []
    for e in ET.fromstring(svg.encode()).iter():
        if e.get("class") != "marker" or e.get("fill") != color:
            continue
        if e.tag == SVG + "circle":
            points.append((float(e.get("cx")), float(e.get("cy"))))
        else:
            corners = [tuple(map(float, p.split(","))) for p in e.get("points").split()]
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            points.append(((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2))
    return points


def on_one_scale(test, pixels, values, log, name):
    """Check that pixels are one straight map of values (of their logs, on a log axis):
    read off the two points furthest apart, and every other point on it to 0.1 px."""
    scaled = [math.log10(v) if log else v for v in values]
    low, high = scaled.index(min(scaled)), scaled.index(max(scaled))
    slope = (pixels[high] - pixels[low]) / (scaled[high] - scaled[low])
    for p, v in zip(pixels, scaled):
        test.assertAlmostEqual(p, pixels[low] + slope * (v - scaled[low]), delta=0.11, msg=name)
    return slope


class TestFigures(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.results = {name: sample() for name, sample in SAMPLES.items()}
        cls.svgs = {name: main.SECTIONS[name].figure(data) for name, data in cls.results.items()}

    def test_every_section_with_a_figure_is_drawn_valid_small_and_titled(self):
        drawn = {name for name, section in main.SECTIONS.items() if section.figure}
        self.assertEqual(drawn, set(self.svgs))
        for name, svg in self.svgs.items():
            assert_valid_figure(self, svg, name)

    def test_the_sweep_marks_each_size_once_and_depth_draws_16_as_chain_and_tree(self):
        root = ET.fromstring(self.svgs["sweep"].encode())
        markers = [e for e in root.iter() if e.get("class") == "marker"]
        self.assertEqual(len(markers), 4 * len(self.results["sweep"]["rows"]))   # 2 panels
        self.assertIn("top: ", texts(self.svgs["sweep"]))   # what the slopes show: test_sweep
        one = main.figure_sweep(main.sweep((64,), 1))
        self.assertIn("measured on one machine: times differ from machine to machine; one size: "
                      "no line to fit", one)
        self.assertNotIn("top: ", one)
        root = ET.fromstring(self.svgs["depth"].encode())
        count = {group: sum(1 for e in root.iter() if e.get("class") == group)
                 for group in ("chain", "tree", "scan")}
        self.assertEqual(count, {"chain": 16, "tree": 16 + 15, "scan": 16 * 5})
        self.assertIn("depth 16", texts(self.svgs["depth"]))
        self.assertIn("a tree: depth 4", texts(self.svgs["depth"]))

    def test_the_same_results_give_the_same_bytes_and_the_committed_figures(self):
        for name in ("depth", "gradient", "work"):
            self.assertEqual(main.SECTIONS[name].figure(self.results[name]), self.svgs[name])
        self.assertIn("outputs/figures/depth.svg", readme())
        # outputs/figures holds what `depth gradient capacity --svg outputs/figures` draws
        drawn = {"depth": self.svgs["depth"], "gradient": self.svgs["gradient"],
                 "capacity": main.figure_capacity(main.capacity_rows())}
        self.assertEqual(sorted(os.listdir(os.path.join(ROOT, "outputs", "figures"))),
                         sorted(f"{name}.svg" for name in drawn))
        for name, svg in drawn.items():
            with open(os.path.join(ROOT, "outputs", "figures", f"{name}.svg"),
                      encoding="utf-8") as f:
                self.assertEqual(f.read(), svg, name)

    def test_every_charts_points_are_its_data_on_its_axes_in_its_series(self):
        # each series by its colour, its points where its data put them: one scale for
        # all the series of a panel, up the page as a value grows
        palette, r = main.PALETTE, self.results
        # gradient: every value on a linear scale, then those above the floor on a log one
        gradient = ([[(row["k"], row[key]) for row in r["gradient"]["rows"]]
                     for key in ("linear", "tanh", "gated", "attention")]
                    + [[(row["k"], abs(row[key])) for row in r["gradient"]["rows"]
                        if abs(row[key]) >= main.GRADIENT_FLOOR]
                       for key in ("linear", "tanh", "gated", "attention")])
        capacity = [[(row["n"] / row["d"], row[key]) for row in r["capacity"]]
                    for key in ("state_recall", "exact_recall", "cache_recall")]
        lanes = r["work"]["lanes"]
        work = [[(x["lanes"], x["loop_steps"]) for x in lanes],
                [(x["lanes"], x["scan_steps"]) for x in lanes],
                [(x["lanes"], x["sum_steps"]) for x in lanes]]
        rows = r["sweep"]["rows"]
        sweep_times = [[(x["n"], x["rnn_s"]) for x in rows], [(x["n"], x["attn_s"]) for x in rows]]
        sweep_steps = [[(x["n"], x["chain_steps"]) for x in rows],
                       [(x["n"], x["tree_steps"]) for x in rows]]
        train = r["train"]
        # the median of two initializations is their mean; below 1e-5 drawn at 1e-5
        medians = [[(t, max(1e-5, sum(x["test_mse"] for x in train["rows"]
                                      if x["model"] == m and x["length"] == t) / 2))
                    for t in (3, 4)] for m in main.MODEL_NAMES]
        medians.append([(c["length"], c["test_mse"]) for c in train["constant"]])
        # each figure's panels: (which series, log x, log y)
        for name, series, panels in (
                ("gradient", gradient, [(range(4), False, False), (range(4, 8), False, True)]),
                ("capacity", capacity, [(range(3), True, False)]),
                ("work", work, [(range(2), True, True)]),
                ("sweep", sweep_times + sweep_steps, [(range(2), True, True),
                                                      (range(2, 4), True, True)]),
                ("train", medians, [(range(4), True, True)])):
            with self.subTest(name):
                first = len(panels[0][0])
                drawn = [drawn_points(self.svgs[name], palette[k]) for k in range(first)]
                if len(panels) == 2:            # two panels, the same colours in each
                    shown = [len(series[k]) for k in range(first)]
                    drawn = ([d[:n] for d, n in zip(drawn, shown)]
                             + [d[n:] for d, n in zip(drawn, shown)])
                for panel, log_x, log_y in panels:
                    pixels = [p for k in panel for p in drawn[k]]
                    values = [v for k in panel for v in series[k]]
                    self.assertEqual(len(pixels), len(values))
                    on_one_scale(self, [p[0] for p in pixels], [v[0] for v in values], log_x,
                                 name)
                    up = on_one_scale(self, [p[1] for p in pixels], [v[1] for v in values],
                                      log_y, name)
                    self.assertLess(up, 0, name)        # SVG's y grows down the page

    def test_the_gradient_lines_are_named_at_their_ends_apart_and_the_axis_says_what(self):
        svg = self.svgs["gradient"]
        said = texts(svg)
        self.assertIn("derivative d h_N / d x_(N-k) (log)", said)
        names = [e for e in ET.fromstring(svg.encode()).iter(SVG + "text")
                 if e.get("fill") in main.PALETTE]
        self.assertEqual([e.text for e in names], ["tanh, w = 0.9 (at k = 100: below 1e-20)",
                                                   "linear 0.9^k", "cell, f = 0.99",
                                                   "attention"])
        heights = sorted(float(e.get("y")) for e in names)
        self.assertGreaterEqual(min(b - a for a, b in zip(heights, heights[1:])), 13)
        # each name in its line's colour, beside its line's last point
        for e in names:
            k = main.PALETTE.index(e.get("fill"))
            x, y = drawn_points(svg, e.get("fill"))[-1]
            self.assertAlmostEqual(float(e.get("x")), x + 18, delta=0.11)
        # where the lines meet (cell and attention end 0.37 and 0.43), still 13 px apart
        self.assertGreaterEqual(abs(float(names[2].get("y")) - float(names[3].get("y"))), 13)

    def test_the_gradient_figure_tells_every_two_lines_apart_at_every_distance(self):
        # At each k of the table, every two lines' points stand at least a marker's
        # width (8 px) apart in one panel or the other: near 1 on the linear scale
        # (0.99^k against 0.9^k at k = 1), near 0 on the log one (0.9^k against tanh),
        # unless one is below the log panel's floor, where its name says so.
        svg, rows = self.svgs["gradient"], self.results["gradient"]["rows"]
        keys = ("linear", "tanh", "gated", "attention")
        panels = {key: {} for key in keys}
        for k, key in enumerate(keys):
            points = drawn_points(svg, main.PALETTE[k])
            drawn = [r["k"] for r in rows] + [r["k"] for r in rows
                                               if abs(r[key]) >= main.GRADIENT_FLOOR]
            for distance, point in zip(drawn, points):
                panels[key].setdefault(distance, []).append(point)
        for row in rows:
            for a, b in itertools.combinations(keys, 2):
                if min(abs(row[a]), abs(row[b])) < main.GRADIENT_FLOOR:
                    self.assertIn(f"(at k = {row['k']}: below 1e-20)", texts(svg))
                    continue
                apart = max(math.dist(p, q) for p, q in zip(panels[a][row["k"]],
                                                            panels[b][row["k"]]))
                self.assertGreaterEqual(apart, 8, (row["k"], a, b))
        # the top panel's legend names the four, with their markers
        legend = [e for e in ET.fromstring(svg.encode()).iter() if e.get("class") == "legend"]
        self.assertEqual(len(legend), 4)
        for words in ("linear 0.9^k", "tanh, w = 0.9", "cell, f = 0.99", "attention"):
            self.assertEqual(texts(svg).count(words), 2, words)

    def test_a_value_below_a_figures_floor_is_said_so_where_it_happens(self):
        # gradient: tanh's line stops at its first k below 1e-20, and its name says which
        result = self.results["gradient"]
        rows = [dict(r, tanh=1e-30) if r["k"] >= 50 else r for r in result["rows"]]
        said = texts(main.figure_gradient(dict(result, rows=rows)))
        self.assertIn("tanh, w = 0.9 (at k = 50: below 1e-20)", said)
        # train: an MSE below 1e-5 is drawn at 1e-5, as the subtitle says
        result = self.results["train"]
        rows = [dict(r, test_mse=1e-9) if r["model"] == "attention" else r
                for r in result["rows"]]
        svg = main.figure_train(dict(result, rows=rows))
        self.assertIn("below 1e-05 drawn at 1e-05", texts(svg))
        floor = drawn_points(svg, main.PALETTE[2])
        root = ET.fromstring(svg.encode())
        grid = sorted({float(e.get("y1")) for e in root.iter(SVG + "line")
                       if e.get("stroke") == "#ddd" and e.get("y1") == e.get("y2")})
        for _, y in floor:                  # 1e-5: the gridline a decade above 1e-6
            self.assertAlmostEqual(y, grid[-2], delta=0.11)

    def test_the_train_figure_says_lower_is_better_and_draws_the_learned_line(self):
        svg = self.svgs["train"]
        said = texts(svg)
        self.assertIn("held-out MSE (log): lower is better", said)
        self.assertIn("learned: at most a tenth of answering 1's", said)
        # the dashed grey line sits a tenth below answering 1's points: one decade,
        # the gap between two gridlines of the log axis
        root = ET.fromstring(svg.encode())
        line = next(e for e in root.iter(SVG + "polyline") if e.get("stroke") == "#777")
        learned = [tuple(map(float, p.split(","))) for p in line.get("points").split()]
        constant = drawn_points(svg, main.PALETTE[3])
        grid = sorted({float(e.get("y1")) for e in root.iter(SVG + "line")
                       if e.get("stroke") == "#ddd" and e.get("y1") == e.get("y2")})
        decade = grid[1] - grid[0]
        for (x, y), (cx, cy) in zip(learned, constant):
            self.assertAlmostEqual(x, cx, delta=0.11)
            self.assertAlmostEqual(y - cy, decade, delta=0.11)

    def test_the_work_figure_names_the_loop_and_the_scan(self):
        said = texts(self.svgs["work"])
        self.assertIn("recurrence: loop", said)
        self.assertIn("recurrence: scan", said)
        self.assertIn("the loop stays N; its scan falls from its work to its depth, as the tree "
                      "sum does", said)
        self.assertEqual(drawn_points(self.svgs["work"], main.PALETTE[0])[0][1],
                         drawn_points(self.svgs["work"], main.PALETTE[0])[-1][1])   # flat

    def test_log_axes_tick_the_decades_around_every_point_linear_ones_round_steps(self):
        axis = main._axis_for("", [3.0, 2047.0], log=True)        # the work figure's flat line
        self.assertEqual(axis.ticks, [1.0, 10.0, 100.0, 1e3, 1e4])     # a tick above 2,047
        self.assertEqual((axis.low, axis.high), (1.0, 1e4))
        axis = main._axis_for("", [1e-63, 0.76], log=True)
        self.assertEqual(axis.ticks[-1], 1.0)                    # 10^0, above every point
        self.assertLessEqual(len(axis.ticks), 9)
        self.assertTrue(all(math.log10(t).is_integer() for t in axis.ticks), axis.ticks)
        self.assertEqual(main._axis_for("", [0, 100]).ticks, [0, 20, 40, 60, 80, 100])
        self.assertEqual(main._axis_for("", [5, 10, 20], log=True, at_data=True).ticks,
                         [5, 10, 20])
        # plain from 0.01 to a million, powers of ten outside: no 1e0 or 1e-2
        self.assertEqual([main._tick_label(v) for v in (1.0, 0.01, 1e-4, 1e5, 1e6, 250.0)],
                         ["1", "0.01", "10⁻⁴", "100,000", "10⁶", "250"])
        self.assertEqual(main._tick_label(1e-5, seconds=True), "10 µs")

    def test_a_directory_that_cannot_be_made_or_written_is_a_bad_argument_before_work(self):
        untouched = main.SECTIONS["depth"]._replace(compute=raising(AssertionError("ran")))
        with tempfile.TemporaryDirectory() as directory:
            a_file, link = os.path.join(directory, "a_file"), os.path.join(directory, "link")
            open(a_file, "w").close()
            os.symlink(os.path.join(directory, "nowhere"), link)
            paths = ["", a_file, os.path.join(a_file, "figures"), link, "a\nb" * 500]
            if os.path.isdir("/proc/1"):
                paths.append("/proc/1")         # it exists, and not even root may write there
            for path in paths:
                with mock.patch.dict(main.SECTIONS, depth=untouched):
                    status, out, err = run_main("depth", "--svg", path)
                self.assertEqual((status, out), (2, ""))
                self.assertRegex(err.splitlines()[-1], "^main\\.py: error: argument --svg: "
                                                       "cannot write to the directory '")

    def test_a_figure_file_that_cannot_be_written_is_a_bad_argument_before_work(self):
        untouched = {name: main.SECTIONS[name]._replace(compute=raising(AssertionError("ran")))
                     for name in ("depth", "gradient")}
        with tempfile.TemporaryDirectory() as directory:
            os.mkdir(os.path.join(directory, "gradient.svg"))   # a folder where a file goes
            with mock.patch.dict(main.SECTIONS, untouched):
                status, out, err = run_main("depth", "gradient", "--svg", directory)
            self.assertEqual((status, out), (2, ""))
            self.assertRegex(err.splitlines()[-1], r"^main\.py: error: argument --svg: cannot "
                                                   r"write '.*gradient\.svg': Is a directory$")
            # depth.svg, tried first and not there before, is not left behind
            self.assertEqual(os.listdir(directory), ["gradient.svg"])

    def test_figures_written_named_and_whole_and_none_said(self):
        with tempfile.TemporaryDirectory() as directory:
            status, _, err = run_main("scan", "--svg", directory)
            self.assertEqual((status, os.listdir(directory)), (0, []))
            self.assertEqual(err, "main.py: wrote no figure: none of these sections draws one\n")
            status, _, err = run_main("depth", "scan", "--svg", directory)
            self.assertEqual(status, 0)
            self.assertEqual(os.listdir(directory), ["depth.svg"])     # scan has no figure
            self.assertEqual(err, f"main.py: wrote {os.path.join(directory, 'depth.svg')}\n")
            status, _, err = run_main("depth", "gradient", "--svg", directory)  # both quick
            self.assertEqual(err, f"main.py: wrote {os.path.join(directory, 'depth.svg')}, "
                                  f"{os.path.join(directory, 'gradient.svg')}\n")
            with open(os.path.join(directory, "depth.svg"), encoding="utf-8") as f:
                ET.fromstring(f.read().encode())


if __name__ == "__main__":
    unittest.main()
