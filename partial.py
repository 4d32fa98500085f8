import functools, operator, itertools
def _scan(op, xs):
    return list(itertools.accumulate(xs, op))
def _s(xs, op=operator.add):
    return _scan(op, xs)
serial_scan = functools.partial(_s)
