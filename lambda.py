import operator, itertools
serial_scan = lambda xs, op=operator.add: list(itertools.accumulate(xs, op))
