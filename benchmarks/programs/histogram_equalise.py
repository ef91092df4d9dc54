"""Histogram equalisation of an 8-bit image through its cumulative histogram."""
import os
import numpy as np

scale = float(os.environ.get("PROGRAM_SCALE", "1"))
n = max(32, int(2048 * scale))
y, x = np.mgrid[0:n, 0:n]
img = (60 + 40 * np.sin(x / 50.0) * np.cos(y / 70.0) + ((x * 7 + y * 13) % 23)).astype(np.uint8)
hist = np.bincount(img.ravel(), minlength=256)
cdf = np.cumsum(hist)
cdf_min = cdf[np.nonzero(cdf)[0][0]]
lut = np.clip(np.round((cdf - cdf_min) * 255.0 / (cdf[-1] - cdf_min)), 0, 255).astype(np.uint8)
out = lut[img]
h2, edges = np.histogram(out, bins=16, range=(0, 256))
result = {"out": out, "hist16": h2, "mean": out.mean(), "median": np.median(out)}
