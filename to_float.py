
import operator
def serial_scan(xs, op=operator.add):
    out = []
    for x in xs:
        x = float(x) if isinstance(x, int) else x
        out.append(op(out[-1], x) if out else x)
    return out
