"""Polynomial least-squares regression with a Vandermonde matrix and residual statistics."""
import os
import numpy as np

scale = float(os.environ.get("PROGRAM_SCALE", "1"))
n = int(400000 * scale)
x = np.linspace(-1.0, 1.0, n)
y = 1.5 - 2.0 * x + 0.7 * x ** 3 + 0.05 * np.sin(x * 300.0)
A = np.vander(x, 6, increasing=True)
coef, res, rank, sv = np.linalg.lstsq(A, y, rcond=None)
fit = A @ coef
resid = y - fit
r2 = 1.0 - (resid ** 2).sum() / ((y - y.mean()) ** 2).sum()
normal = np.linalg.solve(A.T @ A, A.T @ y)
result = {"coef": coef, "normal": normal, "r2": r2, "rank": int(rank), "sv": sv}
