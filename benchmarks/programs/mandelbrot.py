"""Escape-time Mandelbrot set on a complex grid."""
import os
import numpy as np

scale = float(os.environ.get("PROGRAM_SCALE", "1"))
n = max(32, int(800 * scale))
re = np.linspace(-2.0, 0.6, n)
im = np.linspace(-1.2, 1.2, n)
c = re[None, :] + 1j * im[:, None]
z = np.zeros_like(c)
count = np.zeros(c.shape, dtype=np.int32)
for _ in range(60):
    mask = np.abs(z) <= 2.0
    z = np.where(mask, z * z + c, z)
    count += mask
result = {"count": count, "inside": int((count == 60).sum())}
