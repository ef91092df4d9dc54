"""Logistic regression trained by full-batch gradient descent."""
import os
import numpy as np

scale = float(os.environ.get("PROGRAM_SCALE", "1"))
n, p = int(100000 * scale) + 100, 20
i = np.arange(n)[:, None]
j = np.arange(p)[None, :]
X = np.cos(i * 0.013 * (j + 1) + j)
w_true = np.linspace(-1.0, 1.0, p)
ylab = (X @ w_true + 0.3 * np.sin(np.arange(n) * 0.7) > 0).astype(np.float64)
w = np.zeros(p)
for _ in range(100):
    prob = 1.0 / (1.0 + np.exp(-(X @ w)))
    grad = X.T @ (prob - ylab) / n
    w -= 1.0 * grad
loss = -np.mean(ylab * np.log(prob + 1e-12) + (1 - ylab) * np.log(1 - prob + 1e-12))
acc = np.mean((prob > 0.5) == (ylab > 0.5))
result = {"w": w, "loss": loss, "accuracy": acc}
