
import math
def depth(n):
    return n, max(1, math.ceil(math.log(n, 2)))
