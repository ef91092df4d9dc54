"""Monte Carlo price of an Asian call under geometric Brownian motion."""
import os
import numpy as np

scale = float(os.environ.get("PROGRAM_SCALE", "1"))
paths = int(100000 * scale)
steps = 64
S0, K, r, sigma, T = 100.0, 100.0, 0.03, 0.25, 1.0
dt = T / steps
rng = np.random.default_rng(12345)
z = rng.standard_normal((paths, steps))
log_paths = np.cumsum((r - 0.5 * sigma ** 2) * dt + sigma * np.sqrt(dt) * z, axis=1)
prices = S0 * np.exp(log_paths)
payoff = np.maximum(prices.mean(axis=1) - K, 0.0)
price = np.exp(-r * T) * payoff.mean()
stderr = np.exp(-r * T) * payoff.std(ddof=1) / np.sqrt(paths)
final = prices[:, -1]
result = {"price": price, "price_se": stderr, "final_mean": final.mean(),
          "final_mean_se": final.std() / np.sqrt(paths)}
# Random programs are compared by statistics (the two libraries' streams differ):
# each statistic names its standard error.
STATISTICAL = {"price": "price_se", "final_mean": "final_mean_se"}
