"""Principal component analysis of a standardised data matrix via SVD and covariance."""
import os
import numpy as np

scale = float(os.environ.get("PROGRAM_SCALE", "1"))
n, p = int(20000 * scale) + 50, 50
i = np.arange(n)[:, None]
j = np.arange(p)[None, :]
X = np.sin(i * 0.01 * (j + 1)) + 0.3 * np.cos(i * 0.07 + j) + 0.01 * ((i * 31 + j * 17) % 97)
Z = (X - X.mean(axis=0)) / X.std(axis=0)
U, s, Vt = np.linalg.svd(Z, full_matrices=False)
explained = s ** 2 / (s ** 2).sum()
C = np.cov(Z, rowvar=False)
w = np.linalg.eigvalsh(C)[::-1]
scores = Z @ Vt[:3].T
result = {"explained": explained, "eig": w, "score_norms": np.sort(np.abs(scores).sum(axis=0)),
          "corr_trace": np.trace(np.corrcoef(Z, rowvar=False))}
