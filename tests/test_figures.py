"""The figures: valid, small SVG with a title, the points given, the same bytes
for the same results (the README's too); --svg writes them or says why not."""

import math
import os
import re
import tempfile
import unittest
from unittest import mock
import xml.etree.ElementTree as ET

import main
from tests.support import ROOT, raising, run_main

SVG = "{http://www.w3.org/2000/svg}"


def assert_valid_figure(test, svg, name):
    """Check that svg parses, has a 640-wide viewBox and a title, stays small, fetches nothing."""
    root = ET.fromstring(svg.encode())
    test.assertEqual(root.tag, SVG + "svg", name)
    test.assertRegex(root.get("viewBox"), r"^0 0 640 \d+$", name)
    test.assertTrue(root.find(SVG + "title").text, name)
    test.assertLess(len(svg.encode()), 40_000, name)
    test.assertNotIn("<script", svg)
    test.assertNotRegex(svg, r'(href|src)="http', name)      # nothing fetched


# Each figure's data, computed small: the section's compute step with small arguments.
SAMPLES = {"depth": main.depth_rows, "sweep": lambda: main.sweep((64, 256, 1_024), 1),
           "work": lambda: main.work_section((8, 16)), "gradient": main.gradient_rows,
           "capacity": lambda: main.capacity_rows(reads=64),
           "train": lambda: main.train_section((3, 4), 20, 2)}


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
        root = ET.fromstring(self.svgs["depth"].encode())
        count = {group: sum(1 for e in root.iter() if e.get("class") == group)
                 for group in ("chain", "tree", "scan")}
        self.assertEqual(count, {"chain": 16, "tree": 16 + 15, "scan": 16 * 5})
        texts = " ".join(e.text or "" for e in root.iter(SVG + "text"))
        self.assertIn("depth 16", texts)
        self.assertIn("a tree: depth 4", texts)

    def test_the_same_results_give_the_same_bytes_and_the_readmes_figures(self):
        for name in ("depth", "gradient", "work"):
            self.assertEqual(main.SECTIONS[name].figure(self.results[name]), self.svgs[name])
        # depth and gradient; capacity, whose rows take 0.15 s, in .ci/run
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        for name in ("depth", "gradient", "capacity"):
            self.assertTrue(f"outputs/figures/{name}.svg" in readme, name)
        for name in ("depth", "gradient"):
            with open(os.path.join(ROOT, "outputs", "figures", f"{name}.svg"),
                      encoding="utf-8") as f:
                self.assertEqual(f.read(), main.SECTIONS[name].figure(self.results[name]), name)

    def test_ticks_whatever_the_ends_order_round_decades_and_one_value_its_tick(self):
        for log in (True, False):
            self.assertEqual(main._ticks(main.Axis("", log, 100.0, 1.0)),
                             main._ticks(main.Axis("", log, 1.0, 100.0)))
        # log ticks are round decades from the top
        axis = main._axis_for("", [1e-63, 0.76], log=True)
        ticks = main._ticks(axis)
        self.assertEqual(ticks[-1], 1.0)                        # 10^0, above every point
        self.assertTrue(all(round(math.log10(t)) % 10 == 0 for t in ticks), ticks)
        # one format an axis, and plain up to a million: no 1e3 beside 1,000 in one figure
        self.assertEqual(main._tick_labels([1e3, 1e4, 1e5]), ["1,000", "10,000", "100,000"])
        self.assertEqual(main._tick_labels([1e4, 1e6]), ["1e4", "1e6"])
        self.assertEqual(main._tick_labels([250.0, 1000.0]), ["250", "1,000"])
        for value in (5000.0, 3000.0):                  # a round value, and one that is not
            ticks = main._ticks(main._axis_for("", [value], log=True))
            self.assertEqual(main._tick_labels(ticks), [f"{value:,.0f}"])

    def test_a_directory_that_cannot_be_made_is_a_bad_argument_before_any_work(self):
        untouched = main.SECTIONS["depth"]._replace(compute=raising(AssertionError("ran")))
        with tempfile.TemporaryDirectory() as directory:
            a_file, link = os.path.join(directory, "a_file"), os.path.join(directory, "link")
            open(a_file, "w").close()
            os.symlink(os.path.join(directory, "nowhere"), link)
            for path in ("", a_file, os.path.join(a_file, "figures"), link, "a\nb" * 500):
                with mock.patch.dict(main.SECTIONS, depth=untouched):
                    status, out, err = run_main("depth", "--svg", path)
                self.assertEqual((status, out), (2, ""))
                self.assertRegex(err.splitlines()[-1], "^main\\.py: error: argument --svg: "
                                                       "cannot make the directory '")

    def test_figures_written_named_and_whole_and_none_said(self):
        with tempfile.TemporaryDirectory() as directory:
            status, _, err = run_main("scan", "--svg", directory)
            self.assertEqual((status, os.listdir(directory)), (0, []))
            self.assertEqual(err, "main.py: wrote no figure: none of these sections draws one\n")
            status, _, err = run_main("depth", "scan", "--svg", directory)
            self.assertEqual(status, 0)
            self.assertEqual(os.listdir(directory), ["depth.svg"])     # scan has no figure
            self.assertEqual(err, f"main.py: wrote {os.path.join(directory, 'depth.svg')}\n")
            with open(os.path.join(directory, "depth.svg"), encoding="utf-8") as f:
                ET.fromstring(f.read().encode())


if __name__ == "__main__":
    unittest.main()
