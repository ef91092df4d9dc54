
// ---- search: searchsorted, quantiles of sorted lanes (core/cuda/sort.c) ---
// One thread per needle: a binary search of the needle among the sorted
// elements by the sort's key words (cn_sk_word above: NaNs last, -0.0
// equal to 0.0, complex in NumPy's order by NaN class, then real, then
// imaginary key), most significant word first -- the order of the CPU's
// search keys (core/sort_keys.h), so both give the same positions.
// tests/cuda/search_host.cu runs this code on the CPU against the CPU
// backend.
template <int KIND, class U, bool CPLX>
CN_DEV long long cn_search_at(const U *a, long long n, const U *v,
                              long long j, bool right) {
  const int nw = CPLX ? 3 : 1;
  cn_u64 y[3];
  for (int w = 0; w < nw; w++)
    y[w] = cn_sk_word<KIND, U, CPLX>(v, j, 1, w, true);
  long long lo = 0, hi = n;
  while (lo < hi) {
    long long mid = lo + (hi - lo) / 2;
    int c = 0;
    for (int w = nw - 1; w >= 0 && c == 0; w--) {
      cn_u64 x = cn_sk_word<KIND, U, CPLX>(a, mid, 1, w, true);
      c = x < y[w] ? -1 : (x > y[w] ? 1 : 0);
    }
    if (right ? c <= 0 : c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Quantile j of lane `lane` of the nlanes sorted lanes of len values in x
// (NaNs last, the sort slot's order): the non-NaN count n is where the NaNs
// begin; a lane with no values, or with a NaN unless nan_skip, gives NaN;
// else the rank and weight of core/quantile_rank.h (part of this prelude,
// just before), as the CPU. q holds the fractions (unused for the median,
// method CN_QR_MEDIAN). i = j * nlanes + lane.
template <class T>
CN_DEV double cn_quantile_sorted_at(const T *x, long long nlanes,
                                    long long len, const double *q,
                                    int method, bool nan_skip, long long i) {
  long long j = i / nlanes, lane = i % nlanes;
  const T *v = x + lane * len;
  long long lo = 0, hi = len;
  while (lo < hi) {
    long long mid = lo + (hi - lo) / 2;
    if (v[mid] != v[mid])
      hi = mid;
    else
      lo = mid + 1;
  }
  long long n = lo;
  if (n == 0 || (!nan_skip && n < len))
    return CN_L2D(0x7ff8000000000000ll);
  cn_qrank r = cn_quantile_rank(method, n, method == CN_QR_MEDIAN ? 0.0 : q[j]);
  double a = (double)v[r.k];
  double b = r.k + 1 < n ? (double)v[r.k + 1] : a;
  return cn_quantile_value(r, a, b);
}
