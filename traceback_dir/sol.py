import operator
def serial_scan(xs, op=operator.add):
    return 1 / 0
