
import operator
def parallel_scan(xs, op=operator.add):
    out, step = list(xs), 1
    while step < len(out):
        for i in range(step, len(out)):
            out[i] = op(out[i - step], out[i])
        step *= 2
    return out
