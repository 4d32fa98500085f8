
import time
from main import rnn_style, attention_style
def benchmark(n, reps=3):
    xs = [0.001 * (i % 17) for i in range(n)]
    best = [float("inf")] * 2
    for _ in range(reps):
        for k, f in enumerate((rnn_style, attention_style)):
            t = time.perf_counter(); f(xs); best[k] = min(best[k], time.perf_counter() - t)
    return best[0], best[1]
