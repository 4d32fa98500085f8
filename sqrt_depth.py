
import operator, math
def parallel_scan(xs, op=operator.add):
    n = len(xs)
    if n == 0: return []
    b = max(1, math.isqrt(n))
    blocks = [list(xs[i:i + b]) for i in range(0, n, b)]
    scanned = []
    for blk in blocks:
        o = [blk[0]]
        for x in blk[1:]: o.append(op(o[-1], x))
        scanned.append(o)
    out, carry = [], None
    for o in scanned:
        if carry is None: out += o
        else: out += [op(carry, v) for v in o]
        carry = out[-1]
    return out
