
import math
def depth(n):
    return n, max(1, math.log2(n)) if n > 1 else 1
