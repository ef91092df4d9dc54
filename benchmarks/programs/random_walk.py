"""Diffusion of independent random walkers: mean square displacement and first passage."""
import os
import numpy as np

scale = float(os.environ.get("PROGRAM_SCALE", "1"))
walkers = int(20000 * scale) + 100
steps = 200
rng = np.random.default_rng(7)
jumps = rng.choice(np.array([-1, 1]), size=(walkers, steps))
paths = np.cumsum(jumps, axis=1)
msd = (paths.astype(np.float64) ** 2).mean(axis=0)
hit = (np.abs(paths) >= 10).any(axis=1).mean()
end = paths[:, -1].astype(np.float64)
result = {"msd_end": msd[-1], "msd_end_se": (end ** 2).std() / np.sqrt(walkers),
          "hit": hit, "hit_se": np.sqrt(hit * (1 - hit) / walkers),
          "mean_end": end.mean(), "mean_end_se": end.std() / np.sqrt(walkers)}
# Compared by statistics: each names its standard error.
STATISTICAL = {"msd_end": "msd_end_se", "hit": "hit_se", "mean_end": "mean_end_se"}
