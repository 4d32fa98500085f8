
import operator
def serial_scan(xs, op=operator.add):
    out = []
    for x in xs:
        if out and isinstance(x, (int, float)):
            out.append(out[-1] + x)
        else:
            out.append(op(out[-1], x) if out else x)
    return out
