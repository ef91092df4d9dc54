"""Black-Scholes prices and greeks of a grid of European options."""
import os
import numpy as np

scale = float(os.environ.get("PROGRAM_SCALE", "1"))
n = int(2000000 * scale)
S = np.linspace(10.0, 200.0, n)
K = 100.0 + 20.0 * np.sin(np.arange(n) * 0.001)
T = 0.1 + (np.arange(n) % 50) / 25.0
r, sigma = 0.02, 0.3


def ncdf(x):
    return 0.5 * (1.0 + _erf(x / np.sqrt(2.0)))


def _erf(x):
    # Abramowitz-Stegun 7.1.26 (|error| < 1.5e-7), what NumPy users write without SciPy.
    s = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
               + 0.254829592) * t * np.exp(-a * a)
    return s * y


sqrtT = np.sqrt(T)
d1 = (np.log(S / K) + (r + 0.5 * sigma ** 2) * T) / (sigma * sqrtT)
d2 = d1 - sigma * sqrtT
call = S * ncdf(d1) - K * np.exp(-r * T) * ncdf(d2)
put = call - S + K * np.exp(-r * T)
delta = ncdf(d1)
result = {"call": call, "put": put, "delta": delta, "total": call.sum()}
