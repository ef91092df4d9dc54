"""Gravitational n-body simulation with leapfrog steps (all pairs)."""
import os
import numpy as np

scale = float(os.environ.get("PROGRAM_SCALE", "1"))
n = max(16, int(1000 * scale))
steps = 10
i = np.arange(n)
pos = np.stack([np.cos(i * 0.37) * (1 + i % 7), np.sin(i * 0.37) * (1 + i % 5),
                np.cos(i * 0.11) * 0.3], axis=1)
vel = np.zeros((n, 3))
mass = 1.0 + (i % 3) * 0.5
dt, soft = 1e-3, 0.05


def accel(p):
    d = p[None, :, :] - p[:, None, :]
    r2 = (d ** 2).sum(axis=2) + soft ** 2
    inv3 = r2 ** -1.5
    return (d * (inv3 * mass[None, :])[:, :, None]).sum(axis=1)


a = accel(pos)
for _ in range(steps):
    vel += 0.5 * dt * a
    pos += dt * vel
    a = accel(pos)
    vel += 0.5 * dt * a
energy = 0.5 * (mass * (vel ** 2).sum(axis=1)).sum()
result = {"pos": pos, "vel": vel, "kinetic": energy}
