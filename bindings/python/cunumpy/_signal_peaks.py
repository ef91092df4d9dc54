"""Peak finding for cunumpy.signal (scipy.signal's find_peaks,
peak_prominences, peak_widths, argrel*): a sequential scan of a 1-d signal,
run on a float64 host copy with NumPy; the indices and properties come
back as cunumpy arrays.
"""

import warnings as _warnings

import numpy as _np

from ._backend import to_numpy as _to_numpy
from ._convert import asarray as _asarray

_PUBLIC = ["find_peaks", "peak_prominences", "peak_widths", "argrelmax",
           "argrelmin", "argrelextrema", "PeakPropertyWarning"]


class PeakPropertyWarning(RuntimeWarning):
    """A peak property has an unexpected value (zero prominence or width)."""


def _x_1d(x):
    x = _np.asarray(_to_numpy(x), order="C", dtype=_np.float64)
    if x.ndim != 1:
        raise ValueError("`x` must be a 1-D array")
    return x


def _peaks_1d(peaks):
    peaks = _np.asarray(_to_numpy(peaks))
    if peaks.size == 0:
        peaks = _np.array([], dtype=_np.intp)
    try:
        peaks = peaks.astype(_np.intp, casting="safe", copy=False)
    except TypeError:
        raise TypeError("cannot safely cast `peaks` to dtype('intp')")
    if peaks.ndim != 1:
        raise ValueError("`peaks` must be a 1-D array")
    return peaks


def _wlen(value):
    if value is None:
        return -1
    if value > 1:
        if isinstance(value, float):
            value = _np.ceil(value)
        return int(value)
    raise ValueError(f"`wlen` must be larger than 1, was {value}")


def _local_maxima(x):
    """Peaks with their plateau edges: a run of equal values higher than
    both neighbouring runs, its middle sample the peak."""
    n = x.size
    if n < 3:
        e = _np.array([], dtype=_np.intp)
        return e, e, e
    starts = _np.flatnonzero(_np.r_[True, x[1:] != x[:-1]])
    ends = _np.r_[starts[1:] - 1, n - 1]
    v = x[starts]
    k = _np.arange(1, starts.size - 1)
    is_peak = (v[k - 1] < v[k]) & (v[k + 1] < v[k])
    k = k[is_peak]
    left = starts[k].astype(_np.intp)
    right = ends[k].astype(_np.intp)
    return (left + right) // 2, left, right


def _condition(interval, x, peaks):
    try:
        imin, imax = interval
    except (TypeError, ValueError):
        imin, imax = (interval, None)
    if isinstance(imin, _np.ndarray) or hasattr(imin, "ndim"):
        imin = _np.asarray(_to_numpy(imin))
        if imin.size != x.size:
            raise ValueError("array size of lower interval border must "
                             "match x")
        imin = imin[peaks]
    if isinstance(imax, _np.ndarray) or hasattr(imax, "ndim"):
        imax = _np.asarray(_to_numpy(imax))
        if imax.size != x.size:
            raise ValueError("array size of upper interval border must "
                             "match x")
        imax = imax[peaks]
    return imin, imax


def _select(prop, pmin, pmax):
    keep = _np.ones(prop.size, dtype=bool)
    if pmin is not None:
        keep &= pmin <= prop
    if pmax is not None:
        keep &= prop <= pmax
    return keep


def _by_distance(peaks, priority, distance):
    keep = _np.ones(peaks.size, dtype=bool)
    order = _np.argsort(priority)
    d = _np.ceil(distance)
    for i in range(peaks.size - 1, -1, -1):
        j = order[i]
        if not keep[j]:
            continue
        k = j - 1
        while k >= 0 and peaks[j] - peaks[k] < d:
            keep[k] = False
            k -= 1
        k = j + 1
        while k < peaks.size and peaks[k] - peaks[j] < d:
            keep[k] = False
            k += 1
    return keep


def _prominences(x, peaks, wlen):
    prom = _np.empty(peaks.size)
    lb = _np.empty(peaks.size, dtype=_np.intp)
    rb = _np.empty(peaks.size, dtype=_np.intp)
    zero = False
    for n, peak in enumerate(peaks):
        i_min, i_max = 0, x.size - 1
        if not i_min <= peak <= i_max:
            raise ValueError(f"peak {peak} is not a valid index for `x`")
        if wlen >= 2:
            i_min = max(peak - wlen // 2, i_min)
            i_max = min(peak + wlen // 2, i_max)
        i = lb[n] = peak
        left_min = x[peak]
        while i_min <= i and x[i] <= x[peak]:
            if x[i] < left_min:
                left_min = x[i]
                lb[n] = i
            i -= 1
        i = rb[n] = peak
        right_min = x[peak]
        while i <= i_max and x[i] <= x[peak]:
            if x[i] < right_min:
                right_min = x[i]
                rb[n] = i
            i += 1
        prom[n] = x[peak] - max(left_min, right_min)
        zero = zero or prom[n] == 0
    if zero:
        _warnings.warn("some peaks have a prominence of 0",
                       PeakPropertyWarning, stacklevel=3)
    return prom, lb, rb


def _widths(x, peaks, rel_height, prom, lb, rb):
    if rel_height < 0:
        raise ValueError("`rel_height` must be greater or equal to 0.0")
    if not (peaks.size == prom.size == lb.size == rb.size):
        raise ValueError("arrays in `prominence_data` must have the same "
                         "shape as `peaks`")
    widths = _np.empty(peaks.size)
    heights = _np.empty(peaks.size)
    lips = _np.empty(peaks.size)
    rips = _np.empty(peaks.size)
    zero = False
    for p, peak in enumerate(peaks):
        i_min, i_max = lb[p], rb[p]
        if not 0 <= i_min <= peak <= i_max < x.size:
            raise ValueError(f"prominence data is invalid for peak {peak}")
        height = heights[p] = x[peak] - prom[p] * rel_height
        i = peak
        while i_min < i and height < x[i]:
            i -= 1
        left = float(i)
        if x[i] < height:
            left += (height - x[i]) / (x[i + 1] - x[i])
        i = peak
        while i < i_max and height < x[i]:
            i += 1
        right = float(i)
        if x[i] < height:
            right -= (height - x[i]) / (x[i - 1] - x[i])
        widths[p] = right - left
        zero = zero or widths[p] == 0
        lips[p], rips[p] = left, right
    if zero:
        _warnings.warn("some peaks have a width of 0", PeakPropertyWarning,
                       stacklevel=3)
    return widths, heights, lips, rips


def peak_prominences(x, peaks, wlen=None):
    """Prominence of each peak and its bases (scipy.signal.
    peak_prominences)."""
    x = _x_1d(x)
    peaks = _peaks_1d(peaks)
    return tuple(_asarray(v) for v in _prominences(x, peaks, _wlen(wlen)))


def peak_widths(x, peaks, rel_height=0.5, prominence_data=None, wlen=None):
    """Width of each peak at rel_height of its prominence (scipy.signal.
    peak_widths)."""
    x = _x_1d(x)
    peaks = _peaks_1d(peaks)
    if prominence_data is None:
        prominence_data = _prominences(x, peaks, _wlen(wlen))
    prom, lb, rb = (_np.asarray(_to_numpy(v)) for v in prominence_data)
    return tuple(_asarray(v) for v in _widths(x, peaks, rel_height, prom,
                                               lb.astype(_np.intp),
                                               rb.astype(_np.intp)))


def find_peaks(x, height=None, threshold=None, distance=None,
               prominence=None, width=None, wlen=None, rel_height=0.5,
               plateau_size=None):
    """Local maxima filtered by height, threshold, distance, prominence,
    width and plateau size (scipy.signal.find_peaks)."""
    x = _x_1d(x)
    if distance is not None and distance < 1:
        raise ValueError("`distance` must be greater or equal to 1")
    peaks, left, right = _local_maxima(x)
    props = {}

    def keep_only(keep):
        nonlocal peaks, props
        peaks = peaks[keep]
        props = {k: v[keep] for k, v in props.items()}

    if plateau_size is not None:
        sizes = right - left + 1
        pmin, pmax = _condition(plateau_size, x, peaks)
        keep = _select(sizes, pmin, pmax)
        props.update(plateau_sizes=sizes, left_edges=left, right_edges=right)
        keep_only(keep)
    if height is not None:
        h = x[peaks]
        hmin, hmax = _condition(height, x, peaks)
        keep = _select(h, hmin, hmax)
        props["peak_heights"] = h
        keep_only(keep)
    if threshold is not None:
        tmin, tmax = _condition(threshold, x, peaks)
        lt = x[peaks] - x[peaks - 1]
        rt = x[peaks] - x[peaks + 1]
        keep = _np.ones(peaks.size, dtype=bool)
        if tmin is not None:
            keep &= tmin <= _np.minimum(lt, rt)
        if tmax is not None:
            keep &= _np.maximum(lt, rt) <= tmax
        props.update(left_thresholds=lt, right_thresholds=rt)
        keep_only(keep)
    if distance is not None:
        keep_only(_by_distance(peaks, x[peaks], distance))
    if prominence is not None or width is not None:
        pr, lb, rb = _prominences(x, peaks, _wlen(wlen))
        props.update(prominences=pr, left_bases=lb, right_bases=rb)
    if prominence is not None:
        pmin, pmax = _condition(prominence, x, peaks)
        keep_only(_select(props["prominences"], pmin, pmax))
    if width is not None:
        w, wh, li, ri = _widths(x, peaks, rel_height, props["prominences"],
                                props["left_bases"], props["right_bases"])
        props.update(widths=w, width_heights=wh, left_ips=li, right_ips=ri)
        wmin, wmax = _condition(width, x, peaks)
        keep_only(_select(props["widths"], wmin, wmax))
    return _asarray(peaks), {k: _asarray(v) for k, v in props.items()}


def _boolrelextrema(data, comparator, axis=0, order=1, mode="clip"):
    if int(order) != order or order < 1:
        raise ValueError("Order must be an int >= 1")
    n = data.shape[axis]
    locs = _np.arange(0, n)
    results = _np.ones(data.shape, dtype=bool)
    main = data.take(locs, axis=axis, mode=mode)
    for shift in range(1, order + 1):
        plus = data.take(locs + shift, axis=axis, mode=mode)
        minus = data.take(locs - shift, axis=axis, mode=mode)
        results &= comparator(main, plus)
        results &= comparator(main, minus)
        if not results.any():
            return results
    return results


def argrelextrema(data, comparator, axis=0, order=1, mode="clip"):
    """Indices of relative extrema under comparator (scipy.signal.
    argrelextrema)."""
    data = _np.asarray(_to_numpy(data))
    res = _boolrelextrema(data, comparator, axis, order, mode)
    return tuple(_asarray(i) for i in _np.nonzero(res))


def argrelmax(data, axis=0, order=1, mode="clip"):
    return argrelextrema(data, _np.greater, axis, order, mode)


def argrelmin(data, axis=0, order=1, mode="clip"):
    return argrelextrema(data, _np.less, axis, order, mode)
