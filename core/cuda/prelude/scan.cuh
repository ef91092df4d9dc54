// ---- scans (cumsum / cumprod) along one axis -------------------------------
template <class In, class T, bool PROD> struct cn_s_op {
  typedef In in_t;
  typedef T acc_t;
  static CN_DEV T id() { return PROD ? T(1) : T(0); }
  static CN_DEV T op(T a, T b) { return PROD ? (T)(a * b) : (T)(a + b); }
};

// One thread per line: short lines or many of them.
template <class S>
CN_DEV void cn_scan_threads(long long M, long long K, cn_rgeom g,
                            const char *in, char *out) {
  typedef typename S::acc_t T;
  for (long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x; o < M;
       o += (long long)gridDim.x * blockDim.x) {
    long long oi, oo, oo2;
    cn_kept_off(g, o, oi, oo, oo2);
    T acc = S::id();
    for (long long k = 0; k < K; k++) {
      acc = S::op(acc,
                  cn_cast<T>(cn_ld<typename S::in_t>(in + oi + k * g.rin[0])));
      *reinterpret_cast<T *>(out + oo + k * g.rout[0]) = acc;
    }
  }
}

#define CN_SCAN_ITEMS 8
// One block per line: tiles of blockDim * CN_SCAN_ITEMS elements; each
// thread scans its run, the block scans the run totals (warp shuffles), and
// a carry moves from tile to tile.
template <class S>
CN_DEV void cn_scan_blocks(long long K, cn_rgeom g, const char *in, char *out) {
  typedef typename S::acc_t T;
  CN_SHARED __align__(16) unsigned char raw[33 * sizeof(T)];
  T *sh = reinterpret_cast<T *>(raw);
  long long oi, oo, oo2;
  cn_kept_off(g, blockIdx.x, oi, oo, oo2);
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  int nw = blockDim.x >> 5;
  T carry = S::id();
  long long tile = (long long)blockDim.x * CN_SCAN_ITEMS;
  for (long long t0 = 0; t0 < K; t0 += tile) {
    T v[CN_SCAN_ITEMS];
    long long k0 = t0 + (long long)threadIdx.x * CN_SCAN_ITEMS;
    T run = S::id();
#pragma unroll
    for (int j = 0; j < CN_SCAN_ITEMS; j++) {
      long long k = k0 + j;
      T x = k < K ? cn_cast<T>(cn_ld<typename S::in_t>(in + oi + k * g.rin[0]))
                  : S::id();
      run = S::op(run, x);
      v[j] = run;
    }
    // inclusive scan of run totals within the warp
    T incl = run;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
      T y;
      {
        constexpr int N = (sizeof(T) + 3) / 4;
        int wd[N];
        memcpy(wd, &incl, sizeof(T));
#pragma unroll
        for (int q = 0; q < N; q++)
          wd[q] = __shfl_up_sync(0xffffffffu, wd[q], off);
        memcpy(&y, wd, sizeof(T));
      }
      if (lane >= off)
        incl = S::op(y, incl);
    }
    if (lane == 31)
      sh[w] = incl;
    CN_SYNC();
    if (threadIdx.x == 0) {
      T acc = carry;
      for (int q = 0; q < nw; q++) {
        T tot = sh[q];
        sh[q] = acc; // exclusive prefix of warp q, carry included
        acc = S::op(acc, tot);
      }
      sh[32] = acc;
    }
    CN_SYNC();
    // exclusive prefix of this thread = warp prefix + (incl - run)
    T excl_in_warp;
    {
      constexpr int N = (sizeof(T) + 3) / 4;
      int wd[N];
      memcpy(wd, &incl, sizeof(T));
#pragma unroll
      for (int q = 0; q < N; q++)
        wd[q] = __shfl_up_sync(0xffffffffu, wd[q], 1);
      memcpy(&excl_in_warp, wd, sizeof(T));
      if (lane == 0)
        excl_in_warp = S::id();
    }
    T pre = S::op(sh[w], excl_in_warp);
#pragma unroll
    for (int j = 0; j < CN_SCAN_ITEMS; j++) {
      long long k = k0 + j;
      if (k < K)
        *reinterpret_cast<T *>(out + oo + k * g.rout[0]) = S::op(pre, v[j]);
    }
    carry = sh[32];
    CN_SYNC();
  }
}
