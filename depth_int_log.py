
import math
def depth(n):
    return n, 1 if n == 1 else int(math.log2(n - 1)) + 1
