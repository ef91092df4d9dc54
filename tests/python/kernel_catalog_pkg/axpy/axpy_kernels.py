def axpy(a, x, y, n):
    for i in range(n):
        y[i] += a * x[i]
