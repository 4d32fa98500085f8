"""Bad input at the public boundary: where the maths breaks, or where a call
would hang or exhaust memory, a public function raises a ValueError that says
what it requires, before doing any work. (A wrong type raises whatever
TypeError Python raises on its own.) One table, checked to cover every public
function that has such input."""

import inspect
import os
import random
import unittest

import main

NAN, INF = float("nan"), float("inf")
HUGE = 10**18

# function name: [(args, kwargs), ...], each call raising ValueError.
BAD_CALLS = {
    "rnn_style": [(([1.0], INF), {}), (([1.0], NAN), {})],
    "attention_style": [(([],), {})],
    "depth": [((0,), {}), ((-5,), {})],
    "tree_reduce": [(([],), {})],
    "benchmark": [((0,), {}), ((HUGE,), {}), ((10, 0), {})],
    "count_mismatches": [(([1.0], []), {}), (([1.0], [1.0], -1.0), {}), (([1.0], [1.0], NAN), {})],
    "scan_check": [((0,), {}), ((10**400,), {})],
    "wallclock_rows": [(((0,),), {}), (((HUGE,),), {}), (((10,), 0), {})],
    "hidden_weights": [((0,), {}), ((HUGE,), {})],
    "rnn_style_vector": [(([1.0], 0), {}), (([1.0], HUGE), {})],
    "hidden_rows": [(((1,), 0), {}), (((1,), HUGE), {}), (((1,), 1, 0), {})],
    "fit_exponent": [(([1, 2], [1.0]), {}), (([1, 2], [0.0, 1.0]), {}),
                     (([1, 1], [1.0, 2.0]), {})],
    "sweep": [(((0,),), {}), (((10,), 0), {})],
    "plot_loglog": [(({},), {}), (({"r": [(0, 1.0)]},), {}), (({"r": [(1, 1.0)]}, 1), {})],
    "rnn_states": [(([1.0], [0.9, 0.9]), {}), (([1.0], INF), {})],
    "linear_recurrence_scan": [(([1.0, 2.0], [0.9]), {}), (([1.0], NAN), {})],
    "ssm_check": [((0,), {}), ((HUGE,), {})],
    "measure_work_depth": [((sum, -1), {}), ((sum, HUGE), {})],
    "lane_steps": [((0, 2), {}), ((4, 0), {})],
    "simulate_reduction": [(([], 4), {}), (([1.0], 0), {})],
    "rnn_step_steps": [((0, 1, 1), {}), ((1, 1, 0), {})],
    "simulate_rnn_step": [((HUGE, 2, 8), {}), ((2, HUGE, 8), {})],
    "lanes_section": [((), {"simulated_n": 0}), ((), {"simulated_n": HUGE})],
    "cost_table": [((), {"k": 1}), ((), {"k": 0}), ((), {"r": 1}), ((), {"sizes": (-5,)}),
                   ((), {"sizes": (0,)}), ((), {"sizes": ()}), ((), {"memory_sizes": (0,)})],
    "attention_weight": [((0,), {})],
    "gradient_rows": [((1,), {}), ((HUGE,), {}), ((10, 0, (10,)), {}), ((10, 0, (-1,)), {})],
    "predicted_recall": [((0, 64), {}), ((4, 0), {})],
    "exact_recall": [((0, 64), {}), ((4, 0), {}), ((HUGE, 64), {})],
    "recall_draw": [((HUGE, 64, random.Random(0)), {})],
    "capacity_rows": [((), {"reads": HUGE}), ((), {"reads": 0})],
    "stream_rows": [(((0,),), {}), (((HUGE,),), {}), (((8,), HUGE), {})],
    "chunk_bounds": [((10, 0), {}), ((3, 5), {})],
    "parallel_mean": [((10, 0), {}), ((HUGE, 2), {}), ((10, HUGE), {})],
    "parallel_final_state": [((10, 0.9, 0), {}), ((HUGE, 0.9, 2), {})],
    "parallel_states": [((10, 0.9, 11), {}), ((HUGE, 0.9, 2), {})],
    "parallel_tanh": [((10, 0.9, 0, 0), {}), ((HUGE, 0.9, 0, 2), {})],
    "warmup_errors": [((100, 0.9, 1, (0,)), {}), ((HUGE, 0.9, 2, (0,)), {})],
    "cores_section": [((0,), {}), ((HUGE,), {})],
    "seed_input": [((-1,), {}), ((HUGE,), {})],
    "uniform_inputs": [((HUGE, random.Random(0)), {})],
    "adding_problem": [((1, 5), {}), ((HUGE, 5), {}), ((10, HUGE), {})],
    "train_section": [((), {"steps": 0}), ((), {"steps": HUGE}), ((), {"lengths": ()}),
                      ((), {"lengths": (1,)})],
    "train_models": [((), {"steps": 0}), ((), {"steps": HUGE})],
    "teacher_rows": [(((1,),), {}), (((HUGE,),), {}), (((),), {})],
    "rnn_loss": [(([0.0] * 3, [(0.5, 1.0)], 1.0), {})],          # too few parameters
    "mingru_loss": [(([0.0] * 3, [(0.5, 1.0)], 1.0), {})],
    "mingru_states": [(([0.0] * 3, [(0.5, 1.0)]), {})],
    "deer_rows": [((), {"lengths": (0,)}), ((), {"lengths": (HUGE,)}), ((), {"lengths": ()}),
                  ((), {"weights": ()})],
    "deer_solve": [(([0.5, NAN],), {"w": 0.9}), (([0.5],), {"w": INF}),
                   (([0.5],), {"w": 0.9, "max_iterations": HUGE})],
    "newton_iteration_depth": [((0,), {}), ((HUGE,), {})],
    "linear_rows": [((), {"sizes": (0,)}), ((), {"sizes": (HUGE,)}), ((), {"d": HUGE}),
                    ((), {"sizes": ()}), ((), {"chunk": 0})],
    "linear_state_recall": [((0, 4), {}), ((4, HUGE), {}), ((4, 4), {"draws": 0})],
    "linear_section": [((), {"sizes": ()})],
    "check_solutions": [(("x.py",), {"seconds": 0}), (("x.py",), {"seconds": NAN})],
    "read_solution": [((os.devnull,), {})],                 # a device, not a file
    "sample_per_call": [(([int], 0), {}), (([int], main.MAX_REPS + 1), {})],
    "spread": [(([],), {}), (([0.0, 1.0],), {})],
    "format_seconds": [((-1.0,), {}), ((NAN,), {}), ((INF,), {})],
    "format_bytes": [((-1,), {})],
}

# Public functions with no input of their own where the maths breaks or a call
# could run away: renderers (they read what their compute function returns),
# closed forms of a few numbers, constructors and the command line.
NO_BAD_INPUT = {"combine_madds", "compose_affine", "kv_cache_bytes", "ssm_state_bytes",
                "attention_matrix_bytes", "input_gradients", "rnn_tanh", "tanh_states",
                "serial_scan", "parallel_scan", "brent_kung_scan", "blelloch_scan",
                "depth_rows", "work_rows", "lanes_rows", "stream_models", "object_bytes",
                "warmup_table", "main", "wallclock_finding",
                "attention_loss", "initial_parameters",
                "held_out_mse", "held_out_constant", "train_verdicts", "rnn_sizes",
                "mingru_sizes", "mingru_scan_check", "mingru_depths", "attention_training",
                "attention_generating", "tanh_training", "tanh_generating", "scan_training",
                "scan_generating", "linear_attention_parallel", "linear_attention_recurrent",
                "linear_attention_chunked", "deer_states"}


def public_functions():
    return {name for name, obj in vars(main).items()
            if inspect.isfunction(obj) and obj.__module__ == "main" and not name.startswith("_")
            and not name.startswith(("render_", "figure_"))}


class TestBadInput(unittest.TestCase):
    def test_each_bad_call_raises_a_value_error_that_says_what_is_required(self):
        for name, calls in BAD_CALLS.items():
            for args, kwargs in calls:
                with self.subTest(call=f"{name}{args!r:.60} {kwargs}"):
                    with self.assertRaisesRegex(ValueError, r"^\w+ requires "):
                        getattr(main, name)(*args, **kwargs)

    def test_every_public_function_is_in_the_table_or_has_no_bad_input(self):
        self.assertEqual(set(BAD_CALLS) | NO_BAD_INPUT, public_functions())
        self.assertFalse(set(BAD_CALLS) & NO_BAD_INPUT)


if __name__ == "__main__":
    unittest.main()
