
import operator
from concurrent.futures import ProcessPoolExecutor
def _add(pair):
    return pair[0] + pair[1]
def parallel_scan(xs, op=operator.add):
    out, step = list(xs), 1
    with ProcessPoolExecutor(2) as pool:
        while step < len(out):
            out = out[:step] + list(pool.map(_add, [(out[i - step], out[i]) for i in range(step, len(out))], chunksize=256))
            step *= 2
    return out
