
import operator
def _tree(xs, op):
    while len(xs) > 1:
        xs = [op(xs[i], xs[i + 1]) if i + 1 < len(xs) else xs[i] for i in range(0, len(xs), 2)]
    return xs[0]
def parallel_scan(xs, op=operator.add):
    return [_tree(list(xs[:i + 1]), op) for i in range(len(xs))]
