def depth(n):
    return n, int(input())
