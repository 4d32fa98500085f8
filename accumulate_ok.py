
import itertools, operator
def serial_scan(xs, op=operator.add):
    return list(itertools.accumulate(xs, op))
