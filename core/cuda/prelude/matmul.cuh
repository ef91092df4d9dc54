// Integer and bool matrix products (cuBLAS has no such types): the kernel
// template the generator instantiates per dtype (cn_cu_gen_matmul).
// Products wrap around as the CPU's do (core/cpu/linalg/gemm.c): they are
// summed in an unsigned type of at least 32 bits, whose arithmetic is
// modular, and truncated to the dtype at the end, which gives the same
// bits as the CPU's truncation after every step; bool is an or of ands.

#define CN_MM_TILE 16 // a block is CN_MM_TILE^2 threads, one per output

// Layout of mm_geom in core/cuda/matmul.c: extents, strides in elements.
struct cn_mm_geom {
  long long m, n, k, batch, nb;
  long long bshape[CN_MAX_DIMS - 2];
  long long bst[3][CN_MAX_DIMS - 2]; // batch strides of a, b, out
  long long ars, acs, brs, bcs, crs, ccs;
};

template <class T> struct cn_mm_acc {
  typedef cn_u32 acc_t;
  static CN_DEV acc_t zero() { return 0; }
  static CN_DEV acc_t madd(acc_t c, T a, T b) {
    return c + (acc_t)a * (acc_t)b;
  }
  static CN_DEV T out(acc_t c) { return (T)c; }
};
template <class T> struct cn_mm_acc64 {
  typedef cn_u64 acc_t;
  static CN_DEV acc_t zero() { return 0; }
  static CN_DEV acc_t madd(acc_t c, T a, T b) {
    return c + (acc_t)a * (acc_t)b;
  }
  static CN_DEV T out(acc_t c) { return (T)c; }
};
template <> struct cn_mm_acc<cn_i64> : cn_mm_acc64<cn_i64> {};
template <> struct cn_mm_acc<cn_u64> : cn_mm_acc64<cn_u64> {};
template <> struct cn_mm_acc<bool> {
  typedef bool acc_t;
  static CN_DEV acc_t zero() { return false; }
  static CN_DEV acc_t madd(acc_t c, bool a, bool b) { return c || (a && b); }
  static CN_DEV bool out(acc_t c) { return c; }
};

// One row of a times one column of b (strides in elements): the value of
// one output, with the kernel's accumulation.
template <class T>
CN_DEV T cn_mm_dot(const T *a, long long as, const T *b, long long bs,
                   long long k) {
  typedef cn_mm_acc<T> A;
  typename A::acc_t acc = A::zero();
  for (long long p = 0; p < k; p++)
    acc = A::madd(acc, a[p * as], b[p * bs]);
  return A::out(acc);
}

// blockIdx.x walks the output tiles of one matrix, blockIdx.y the batch
// (both grid-stride). Tiles of a and b go through shared memory.
template <class T>
__device__ void cn_mm_tiled(const cn_mm_geom &g, const T *A, const T *B,
                            T *C) {
  typedef cn_mm_acc<T> Acc;
  CN_SHARED T ta[CN_MM_TILE][CN_MM_TILE + 1];
  CN_SHARED T tb[CN_MM_TILE][CN_MM_TILE + 1];
  const int tx = threadIdx.x % CN_MM_TILE, ty = threadIdx.x / CN_MM_TILE;
  const long long tm = (g.m + CN_MM_TILE - 1) / CN_MM_TILE;
  const long long tn = (g.n + CN_MM_TILE - 1) / CN_MM_TILE;
  for (long long bt = blockIdx.y; bt < g.batch; bt += gridDim.y) {
    long long rem = bt, oa = 0, ob = 0, oc = 0;
    for (int d = (int)g.nb - 1; d >= 0; d--) {
      long long idx = rem % g.bshape[d];
      rem /= g.bshape[d];
      oa += idx * g.bst[0][d];
      ob += idx * g.bst[1][d];
      oc += idx * g.bst[2][d];
    }
    for (long long t = blockIdx.x; t < tm * tn; t += gridDim.x) {
      const long long i = (t / tn) * CN_MM_TILE + ty;
      const long long j = (t % tn) * CN_MM_TILE + tx;
      typename Acc::acc_t acc = Acc::zero();
      for (long long p0 = 0; p0 < g.k; p0 += CN_MM_TILE) {
        const long long pa = p0 + tx, pb = p0 + ty;
        ta[ty][tx] =
            (i < g.m && pa < g.k) ? A[oa + i * g.ars + pa * g.acs] : T(0);
        tb[ty][tx] =
            (pb < g.k && j < g.n) ? B[ob + pb * g.brs + j * g.bcs] : T(0);
        CN_SYNC();
        for (int q = 0; q < CN_MM_TILE; q++)
          acc = Acc::madd(acc, ta[ty][q], tb[q][tx]);
        CN_SYNC();
      }
      if (i < g.m && j < g.n)
        C[oc + i * g.crs + j * g.ccs] = Acc::out(acc);
    }
  }
}
