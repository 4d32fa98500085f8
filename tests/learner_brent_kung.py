"""A learner's parallel_scan, as check sees one: Brent and Kung's work-efficient
scan. `python main.py check tests/learner_brent_kung.py --svg outputs/figures`
draws outputs/figures/parallel_scan.svg from it, the README's mirror figure."""


def parallel_scan(xs, op=lambda a, b: a + b):
    out, d = list(xs), 1
    while d < len(out):                 # up-sweep: the total of each block of 2d
        for i in range(2 * d - 1, len(out), 2 * d):
            out[i] = op(out[i - d], out[i])
        d *= 2
    while d > 1:                        # down-sweep: the prefixes between the blocks
        d //= 2
        for i in range(3 * d - 1, len(out), 2 * d):
            out[i] = op(out[i - d], out[i])
    return out
