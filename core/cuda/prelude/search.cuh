
// ---- search: searchsorted (core/cuda/sort.c launches it) -----------------
// (The quantiles of sorted lanes, cn_quantile_sorted_float / _double, are
// core/quantile_rank.h's, just before this part.)
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

