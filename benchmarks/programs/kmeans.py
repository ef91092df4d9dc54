"""k-means clustering (Lloyd's algorithm) on three Gaussian blobs."""
import os
import numpy as np

scale = float(os.environ.get("PROGRAM_SCALE", "1"))
n = int(200000 * scale)
k = 3
t = np.linspace(0.0, 1.0, n)
# Deterministic blobs: points on three noisy rings around separated centres.
centres_true = np.array([[0.0, 0.0], [6.0, 1.0], [2.0, 7.0]])
label_true = np.arange(n) % k
angle = 2.0 * np.pi * np.sin(t * 977.0) ** 2
radius = 1.0 + 0.5 * np.cos(t * 311.0)
pts = centres_true[label_true] + np.stack([radius * np.cos(angle), radius * np.sin(angle)], axis=1)

centres = pts[:k].copy()
for _ in range(20):
    d2 = ((pts[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
    label = np.argmin(d2, axis=1)
    for j in range(k):
        centres[j] = pts[label == j].mean(axis=0)
inertia = np.min(d2, axis=1).sum()

result = {"centres": centres[np.argsort(centres[:, 0])], "inertia": inertia,
          "counts": np.sort(np.bincount(label, minlength=k))}
