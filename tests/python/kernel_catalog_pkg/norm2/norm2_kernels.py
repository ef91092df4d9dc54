import numpy as np


def norm2(x, out):
    out[0] = np.sqrt(np.sum(x * x))
