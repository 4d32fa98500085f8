
import operator
def parallel_scan(xs, op=operator.add):
    n = len(xs)
    if n <= 1:
        return list(xs)
    half = n // 2
    left = parallel_scan(xs[:half])
    right = parallel_scan(xs[half:])
    return left + [op(left[-1], r) for r in right]
