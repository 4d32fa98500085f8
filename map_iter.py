
import itertools, operator
def serial_scan(xs, op=operator.add):
    return itertools.accumulate(xs, op)
