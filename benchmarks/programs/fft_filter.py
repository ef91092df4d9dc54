"""Gaussian low-pass filtering of a synthetic image in the frequency domain."""
import os
import numpy as np

scale = float(os.environ.get("PROGRAM_SCALE", "1"))
n = max(32, int(2048 * scale))
y, x = np.mgrid[0:n, 0:n]
image = np.sin(x * 0.05) * np.cos(y * 0.03) + 0.5 * ((x // 64 + y // 64) % 2) \
    + 0.2 * np.sin(x * 1.3 + y * 2.1)
fy = np.fft.fftfreq(n)[:, None]
fx = np.fft.rfftfreq(n)[None, :]
transfer = np.exp(-(fx ** 2 + fy ** 2) / (2 * 0.02 ** 2))
smooth = np.fft.irfft2(np.fft.rfft2(image) * transfer, s=image.shape)
edges = np.hypot(np.diff(smooth, axis=0)[:, :-1], np.diff(smooth, axis=1)[:-1, :])
result = {"smooth": smooth, "edge_energy": (edges ** 2).sum()}
