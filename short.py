
import operator
def parallel_scan(xs, op=operator.add):
    out, step = list(xs), 1
    while 2 * step < len(out):
        out = out[:step] + [op(out[i - step], out[i]) for i in range(step, len(out))]
        step *= 2
    return out
