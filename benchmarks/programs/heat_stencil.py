"""Explicit 2-D heat equation with a hot square and fixed boundaries."""
import os
import numpy as np

scale = float(os.environ.get("PROGRAM_SCALE", "1"))
n = max(32, int(1000 * scale))
steps = 100
u = np.zeros((n, n))
u[n // 4: n // 2, n // 4: n // 2] = 100.0
alpha = 0.2
for _ in range(steps):
    u[1:-1, 1:-1] = u[1:-1, 1:-1] + alpha * (
        u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4.0 * u[1:-1, 1:-1])
result = {"u": u, "heat": u.sum(), "peak": u.max()}
