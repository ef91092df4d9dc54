// ---- elementwise kernels ---------------------------------------------------
// Operand 0 is the output; strides are in bytes, innermost axis last (the
// host coalesces them first).

struct cn_geom {
  int ndim;
  long long shape[CN_MAX_DIMS];
  long long st[4][CN_MAX_DIMS];
};

#define CN_EW_ITEMS 4

template <class T> CN_DEV T cn_ld(const char *p) {
  return *reinterpret_cast<const T *>(p);
}

// Contiguous: each thread handles CN_EW_ITEMS elements blockDim apart, so
// every load and store of a warp is coalesced and several are in flight.
template <class F>
CN_DEV void cn_ew_contig(long long n, typename F::out_t *out,
                         const typename F::in0_t *a, const typename F::in1_t *b,
                         const typename F::in2_t *c) {
  long long base =
      (long long)blockIdx.x * (blockDim.x * CN_EW_ITEMS) + threadIdx.x;
#pragma unroll
  for (int k = 0; k < CN_EW_ITEMS; k++) {
    long long i = base + (long long)k * blockDim.x;
    if (i < n)
      out[i] = F::op(a, b, c, i);
  }
}

// Contiguous and aligned: each thread moves four consecutive elements per
// operand with one vector load/store (16 bytes for float32), the shape that
// reaches copy bandwidth.
template <class T>
struct alignas(sizeof(T) * 4 > 16 ? 16 : sizeof(T) * 4) cn_v4 {
  T v[4];
};
template <class F>
CN_DEV void cn_ew_vec(long long n, typename F::out_t *out,
                      const typename F::in0_t *a, const typename F::in1_t *b,
                      const typename F::in2_t *c) {
  long long nv = n >> 2;
  long long stride = (long long)gridDim.x * blockDim.x;
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  for (long long j = t; j < nv; j += stride) {
    cn_v4<typename F::in0_t> va =
        reinterpret_cast<const cn_v4<typename F::in0_t> *>(a)[j];
    cn_v4<typename F::in1_t> vb;
    cn_v4<typename F::in2_t> vc;
    if (b)
      vb = reinterpret_cast<const cn_v4<typename F::in1_t> *>(b)[j];
    if (c)
      vc = reinterpret_cast<const cn_v4<typename F::in2_t> *>(c)[j];
    cn_v4<typename F::out_t> vo;
#pragma unroll
    for (int k = 0; k < 4; k++)
      vo.v[k] = F::op(va.v, vb.v, vc.v, k);
    reinterpret_cast<cn_v4<typename F::out_t> *>(out)[j] = vo;
  }
  long long i = (nv << 2) + t;
  if (i < n)
    out[i] = F::op(a, b, c, i);
}

template <class F>
CN_DEV void cn_ew_strided(long long n, const cn_geom &g, char *out,
                          const char *a, const char *b, const char *c) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    long long r = i, o0 = 0, o1 = 0, o2 = 0, o3 = 0;
    for (int d = g.ndim - 1; d >= 0; d--) {
      long long e = g.shape[d];
      long long idx = r % e;
      r /= e;
      o0 += idx * g.st[0][d];
      o1 += idx * g.st[1][d];
      o2 += idx * g.st[2][d];
      o3 += idx * g.st[3][d];
    }
    *reinterpret_cast<typename F::out_t *>(out + o0) =
        F::op(reinterpret_cast<const typename F::in0_t *>(a + o1),
              reinterpret_cast<const typename F::in1_t *>(b + o2),
              reinterpret_cast<const typename F::in2_t *>(c + o3), 0);
  }
}

