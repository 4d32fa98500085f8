"""Bad input to every public function: a TypeError or ValueError whose message
names the function that was called, never a hang, a crash deeper down, or a
number. One table, checked to cover every public function of main.py."""

import inspect
import unittest

import main

NAN, INF = float("nan"), float("inf")

# function name: [(args, kwargs, the exception it must raise), ...]
BAD_CALLS = {
    "rnn_style": [((None,), {}, TypeError), (([1.0], "0.9"), {}, TypeError),
                  ((["a", "b"],), {}, TypeError), (([1.0], True), {}, TypeError)],
    "rnn_tanh": [((None,), {}, TypeError), (([1.0], "0.9"), {}, TypeError), ((["a"],), {}, TypeError),
                 (([1.0], NAN), {}, ValueError), (([1.0], 1j), {}, TypeError)],
    "attention_style": [((None,), {}, TypeError), (([],), {}, ValueError), ((["x"],), {}, TypeError)],
    "depth": [((0,), {}, ValueError), ((1.5,), {}, TypeError), ((None,), {}, TypeError)],
    "tree_reduce": [((None,), {}, TypeError), (([],), {}, ValueError), (([1, 2], 5), {}, TypeError)],
    "depth_rows": [(((-5,),), {}, ValueError), ((None,), {}, TypeError), (((),), {}, ValueError),
                   (("64",), {}, TypeError)],
    "render_depth": [((None,), {}, TypeError), (([{"n": 1}],), {}, TypeError), (([],), {}, TypeError)],
    "seed_input": [((-1,), {}, ValueError), (("3",), {}, TypeError)],
    "sample_per_call": [(([], {}), {}, TypeError), (("x", {}), {}, TypeError),
                        ((["1"], None), {}, TypeError), ((["1"], {}, 0), {}, ValueError),
                        ((["1 +"], {}), {}, ValueError), ((["1"], {}), {"timer": 5}, TypeError)],
    "benchmark": [((1.5,), {}, TypeError), ((True,), {}, TypeError), ((10, "3"), {}, TypeError),
                  ((0,), {}, ValueError), ((10, 0), {}, ValueError), ((10,), {"timer": None}, TypeError)],
    "spread": [(([],), {}, ValueError), (([0.0, 1.0],), {}, ValueError), ((None,), {}, TypeError)],
    "wallclock_rows": [(((0,),), {}, ValueError), ((5,), {}, TypeError), (((10,), 0), {}, ValueError)],
    "format_seconds": [((-1.0,), {}, ValueError), ((NAN,), {}, ValueError), ((INF,), {}, ValueError),
                       (("1",), {}, TypeError), ((None,), {}, TypeError)],
    "render_wallclock": [((None,), {}, TypeError), (([{"n": 1, "rnn_s": 1.0}],), {}, TypeError)],
    "serial_scan": [((None,), {}, TypeError), (([1], None), {}, TypeError), (([1, "a"],), {}, TypeError)],
    "parallel_scan": [((None,), {}, TypeError), (([1], None), {}, TypeError), (([1, "a"],), {}, TypeError)],
    "brent_kung_scan": [((None,), {}, TypeError), (([1], None), {}, TypeError), (([1, "a"],), {}, TypeError)],
    "blelloch_scan": [((None,), {}, TypeError), (([1], None), {}, TypeError), (([1, "a"],), {}, TypeError)],
    "count_mismatches": [(([1.0], []), {}, ValueError), ((None, [1.0]), {}, TypeError),
                         (([1.0], [1.0], -1.0), {}, ValueError), (([1.0], [1.0], NAN), {}, ValueError),
                         ((["a"], ["a"]), {}, TypeError)],
    "scan_check": [((0,), {}, ValueError), ((8, -1), {}, ValueError), ((8.0,), {}, TypeError)],
    "render_scan": [(({},), {}, TypeError), (([],), {}, TypeError)],
    "hidden_weights": [((0,), {}, ValueError), ((2, "0.9"), {}, TypeError), ((2, NAN), {}, ValueError)],
    "rnn_style_vector": [(([1.0], 0), {}, ValueError), (([1.0], 2, None), {}, TypeError),
                         ((["a"], 2), {}, TypeError), ((None, 2), {}, TypeError)],
    "combine_madds": [((0,), {}, ValueError), ((2.0,), {}, TypeError)],
    "hidden_rows": [(((0,),), {}, ValueError), (((1,), 0), {}, ValueError), (((1,), 1, 0), {}, ValueError),
                    ((None,), {}, TypeError)],
    "render_hidden": [(([],), {}, TypeError), (({},), {}, TypeError)],
    "fit_exponent": [(([1, 2], [1.0]), {}, ValueError), (([1, 2], [0.0, 1.0]), {}, ValueError),
                     ((None, [1.0]), {}, TypeError), (([1, 1], [1.0, 2.0]), {}, ValueError),
                     (([1, "2"], [1.0, 2.0]), {}, TypeError), (([1, 2], [1.0, INF]), {}, ValueError)],
    "sweep": [(((0,),), {}, ValueError), (((10,), 0), {}, ValueError), ((None,), {}, TypeError)],
    "plot_loglog": [(({},), {}, ValueError), (({"r": [(0, 1.0)]},), {}, ValueError),
                    ((None,), {}, TypeError), (({"rr": [(1, 1.0)]},), {}, ValueError),
                    (({"r": [1, 2]},), {}, TypeError), (({"r": [(1, 1.0)]}, 1), {}, ValueError),
                    (({"r": [(1, 1.0)]},), {"height": "14"}, TypeError)],
    "render_sweep": [(({"rows": []},), {}, TypeError), ((None,), {}, TypeError)],
    "measure_work_depth": [((None, 4), {}, TypeError), ((sum, 0), {}, ValueError)],
    "work_rows": [(((0,),), {}, ValueError), ((4,), {}, TypeError)],
    "render_work": [((5,), {}, TypeError), (([{"n": 4}],), {}, TypeError)],
    "compose_affine": [(((1.0,), (1.0, 2.0)), {}, TypeError), ((("a", "b"), (1.0, 2.0)), {}, TypeError),
                       ((None, None), {}, TypeError)],
    "rnn_states": [(([1.0], "0.9"), {}, TypeError), (([1.0], [0.9, 0.9]), {}, ValueError),
                   ((None,), {}, TypeError), ((["a"],), {}, TypeError), (([1.0], None), {}, TypeError)],
    "linear_recurrence_scan": [((["a", "b"],), {}, TypeError), ((None,), {}, TypeError),
                               (([1.0], "0.9"), {}, TypeError), (([1.0, 2.0], [0.9]), {}, ValueError),
                               (([1.0], None), {}, TypeError)],
    "ssm_check": [((0,), {}, ValueError), ((8, -1), {}, ValueError), (("8",), {}, TypeError)],
    "render_ssm": [(({},), {}, TypeError)],
    "lane_steps": [((1.0, 2), {}, TypeError), ((4, "2"), {}, TypeError), ((0, 2), {}, ValueError),
                   ((4, 0), {}, ValueError)],
    "simulate_reduction": [(([], 2), {}, ValueError), ((None, 2), {}, TypeError), (([1.0], 0), {}, ValueError),
                           ((["a"], 2), {}, TypeError)],
    "rnn_step_steps": [((0, 1, 1), {}, ValueError), ((1, 0, 1), {}, ValueError), ((1, 1, 0), {}, ValueError),
                       (("1", 1, 1), {}, TypeError)],
    "simulate_rnn_step": [((0, 1, 1), {}, ValueError), ((1, 1, 1.5), {}, TypeError),
                          ((1, 1, 1), {"seed": -1}, ValueError)],
    "lanes_rows": [(((0,),), {}, ValueError), (((8,), (0,)), {}, ValueError), ((8,), {}, TypeError)],
    "lanes_section": [(((8,), (1,), 0), {}, ValueError), (((8,), None), {}, TypeError)],
    "render_lanes": [(([],), {}, TypeError), (({"rows": []},), {}, TypeError)],
    "attention_matrix_bytes": [((0,), {}, ValueError), ((2.0,), {}, TypeError), ((8, 0), {}, ValueError)],
    "format_bytes": [((-1,), {}, ValueError), ((1.5,), {}, TypeError), ((None,), {}, TypeError)],
    "cost_table": [((), {"k": 1}, ValueError), ((), {"k": 0}, ValueError), ((), {"r": 0}, ValueError),
                   ((), {"sizes": (-5,)}, ValueError), ((), {"d": 0}, ValueError),
                   ((), {"memory_sizes": None}, TypeError), ((), {"d": 2.5}, TypeError)],
    "render_cost": [(({},), {}, TypeError), ((None,), {}, TypeError)],
    "input_gradients": [((None,), {}, TypeError), (([1.0], "w"), {}, TypeError), (([1.0], INF), {}, ValueError),
                        ((["a"],), {}, TypeError)],
    "attention_weight": [((0,), {}, ValueError), ((10, "5"), {}, TypeError), ((10, NAN), {}, ValueError)],
    "gradient_rows": [((1,), {}, ValueError), ((200, -1), {}, ValueError), ((200, 0, (200,)), {}, ValueError),
                      ((200, 0, (0,)), {}, ValueError), ((200.0,), {}, TypeError)],
    "render_gradient": [(({},), {}, TypeError), (([],), {}, TypeError)],
    "recall_draw": [((0, 8, None), {}, ValueError), ((4, 0, None), {}, ValueError),
                    ((4, 8, None), {}, TypeError)],
    "predicted_recall": [((0, 64), {}, ValueError), ((4, 0), {}, ValueError), ((4.0, 64), {}, TypeError)],
    "capacity_rows": [(((0,),), {}, ValueError), (((4,), 0), {}, ValueError), (((4,), 8, 0), {}, ValueError),
                      ((None,), {}, TypeError)],
    "render_capacity": [(([],), {}, TypeError), (([{"n": 4}],), {}, TypeError)],
    "kv_cache_bytes": [((-1, 1, 1, 1), {}, ValueError), ((1, 0, 1, 1), {}, ValueError),
                       ((1, 1, 1, 1.5), {}, TypeError), ((1, 1, 1, 1), {"bytes_per_value": 0}, ValueError)],
    "ssm_state_bytes": [((0, 8, 8), {}, ValueError), ((1, 8, 8), {"expand": 0}, ValueError),
                        ((1, 8, "8"), {}, TypeError), ((1, 8, 8), {"d_conv": -1}, ValueError)],
    "stream_rows": [(((0,),), {}, ValueError), (((8,), 0), {}, ValueError), (((8,), 8, 0), {}, ValueError),
                    ((None,), {}, TypeError)],
    "stream_models": [],
    "render_stream": [(({},), {}, TypeError), ((None,), {}, TypeError)],
    "chunk_bounds": [((0, 1), {}, ValueError), ((4, 5), {}, ValueError), ((4, 0), {}, ValueError),
                     ((4.0, 2), {}, TypeError)],
    "parallel_mean": [((0, 1), {}, ValueError), ((4, 5), {}, ValueError), ((4, 2, "pool"), {}, TypeError)],
    "parallel_final_state": [((4, "0.9", 2), {}, TypeError), ((4, 0.9, 0), {}, ValueError),
                             ((4, 0.9, 2, 5), {}, TypeError)],
    "parallel_states": [((4, NAN, 2), {}, ValueError), ((4, 0.9, 5), {}, ValueError),
                        ((4, 0.9, 2, object()), {}, TypeError)],
    "parallel_tanh": [((4, 0.9, -1, 2), {}, ValueError), ((4, None, 0, 2), {}, TypeError),
                      ((4, 0.9, 0, 9), {}, ValueError)],
    "warmup_errors": [((100, 0.9, 1, (0,)), {}, ValueError), ((100, 0.9, 2, (-1,)), {}, ValueError),
                      ((100, "w", 2, (0,)), {}, TypeError), ((100, 0.9, 2, 5), {}, TypeError)],
    "cores_section": [((1,), {}, ValueError), ((100, 0), {}, ValueError), ((100, 1, 1), {}, ValueError),
                      ((100,), {"start_method": "thread"}, ValueError), (("100",), {}, TypeError)],
    "render_cores": [(({},), {}, TypeError), (({"available": True, "cpus": 2},), {}, TypeError)],
    "main": [(("--json",), {}, TypeError), (([1],), {}, TypeError)],
}


def public_functions():
    """Return the names of the functions main.py defines that do not start with '_'."""
    return {name for name, f in vars(main).items()
            if inspect.isfunction(f) and f.__module__ == "main" and not name.startswith("_")}


class TestBadInput(unittest.TestCase):
    def test_every_public_function_is_in_the_table(self):
        self.assertEqual(set(BAD_CALLS), public_functions())

    def test_each_bad_call_raises_an_error_naming_the_function(self):
        for name, calls in BAD_CALLS.items():
            function = getattr(main, name)
            for args, kwargs, error in calls:
                with self.subTest(call=f"{name}{args!r} {kwargs!r}"):
                    with self.assertRaises(error) as caught:
                        function(*args, **kwargs)
                    self.assertTrue(str(caught.exception).startswith(f"{name} requires"),
                                    str(caught.exception))


if __name__ == "__main__":
    unittest.main()
