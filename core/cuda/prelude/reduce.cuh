// ---- reductions -------------------------------------------------------------
// Kept axes (k*) index outputs, reduced axes (r*) the elements folded into
// each; strides in bytes, innermost last.
struct cn_rgeom {
  int nk, nr;
  long long kshape[CN_MAX_DIMS], kin[CN_MAX_DIMS], kout[CN_MAX_DIMS],
      kout2[CN_MAX_DIMS];
  long long rshape[CN_MAX_DIMS], rin[CN_MAX_DIMS], rout[CN_MAX_DIMS];
};

CN_DEV void cn_kept_off(const cn_rgeom &g, long long o, long long &oi,
                        long long &oo, long long &oo2) {
  oi = oo = oo2 = 0;
  for (int d = g.nk - 1; d >= 0; d--) {
    long long e = g.kshape[d], idx = o % e;
    o /= e;
    oi += idx * g.kin[d];
    oo += idx * g.kout[d];
    oo2 += idx * g.kout2[d];
  }
}
CN_DEV long long cn_red_off(const cn_rgeom &g, long long k) {
  if (g.nr == 1)
    return k * g.rin[0];
  long long off = 0;
  for (int d = g.nr - 1; d >= 0; d--) {
    long long e = g.rshape[d], idx = k % e;
    k /= e;
    off += idx * g.rin[d];
  }
  return off;
}

template <class A> CN_DEV A cn_shfl_down(const A &v, int off) {
  constexpr int N = (sizeof(A) + 3) / 4;
  int w[N];
  memcpy(w, &v, sizeof(A));
#pragma unroll
  for (int i = 0; i < N; i++)
    w[i] = __shfl_down_sync(0xffffffffu, w[i], off);
  A r;
  memcpy(&r, w, sizeof(A));
  return r;
}
template <class R>
CN_DEV typename R::acc_t cn_warp_reduce(typename R::acc_t a) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1)
    a = R::merge(a, cn_shfl_down(a, off));
  return a;
}
// Result valid in thread 0. blockDim.x is a multiple of 32.
template <class R>
CN_DEV typename R::acc_t cn_block_reduce(typename R::acc_t a) {
  typedef typename R::acc_t A;
  CN_SHARED __align__(16) unsigned char raw[32 * sizeof(A)];
  A *sh = reinterpret_cast<A *>(raw);
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  a = cn_warp_reduce<R>(a);
  if (lane == 0)
    sh[w] = a;
  CN_SYNC();
  if (w == 0) {
    a = lane < (int)(blockDim.x >> 5) ? sh[lane] : R::init();
    a = cn_warp_reduce<R>(a);
  }
  return a;
}

// Pass 1: block (blockIdx.x = output, blockIdx.y = slice of the reduced
// range) folds its slice; with one slice it stores the result, else it
// writes a partial for pass 2. Four loads in flight per thread.
template <class R>
CN_DEV void cn_red_blocks(long long K, cn_rgeom g, const char *in, char *out,
                          char *out2, double param,
                          typename R::acc_t *partial) {
  typedef typename R::in_t I;
  static_assert(sizeof(typename R::acc_t) <= 128,
                "core/cuda/reduce.c: PARTIAL_BYTES is too small");
  long long o = blockIdx.x;
  long long oi, oo, oo2;
  cn_kept_off(g, o, oi, oo, oo2);
  const char *base = in + oi;
  typename R::acc_t acc = R::init();
  long long step = (long long)gridDim.y * blockDim.x;
  long long k = (long long)blockIdx.y * blockDim.x + threadIdx.x;
  if (g.nr == 1) {
    long long s = g.rin[0];
    bool vec = false;
    if constexpr (sizeof(I) <= 8)
      vec = s == (long long)sizeof(I) &&
            (unsigned long long)base % alignof(cn_v4<I>) == 0;
    if (vec) {
      // Contiguous and aligned: four consecutive elements per vector load
      // (16 bytes for float32), two loads in flight, as the copy kernels.
      typedef cn_v4<I> V;
      const V *vp = reinterpret_cast<const V *>(base);
      long long kv = K / 4, j = k;
      for (; j + step < kv; j += 2 * step) {
        V a = vp[j], b = vp[j + step];
#pragma unroll
        for (int q = 0; q < 4; q++)
          R::add(acc, a.v[q], 4 * j + q);
#pragma unroll
        for (int q = 0; q < 4; q++)
          R::add(acc, b.v[q], 4 * (j + step) + q);
      }
      for (; j < kv; j += step) {
        V a = vp[j];
#pragma unroll
        for (int q = 0; q < 4; q++)
          R::add(acc, a.v[q], 4 * j + q);
      }
      k += 4 * kv; // the last K % 4 elements: below
    } else {
      for (; k + 3 * step < K; k += 4 * step) {
        I v0 = cn_ld<I>(base + k * s), v1 = cn_ld<I>(base + (k + step) * s);
        I v2 = cn_ld<I>(base + (k + 2 * step) * s);
        I v3 = cn_ld<I>(base + (k + 3 * step) * s);
        R::add(acc, v0, k);
        R::add(acc, v1, k + step);
        R::add(acc, v2, k + 2 * step);
        R::add(acc, v3, k + 3 * step);
      }
    }
  }
  for (; k < K; k += step)
    R::add(acc, cn_ld<I>(base + cn_red_off(g, k)), k);
  acc = cn_block_reduce<R>(acc);
  if (threadIdx.x == 0) {
    if (gridDim.y == 1)
      R::store(out ? out + oo : out, out2 ? out2 + oo2 : out2, acc, param);
    else
      partial[o * gridDim.y + blockIdx.y] = acc;
  }
}

// Pass 2: one block per output merges its G partials.
template <class R>
CN_DEV void cn_red_pass2(int G, cn_rgeom g, const typename R::acc_t *partial,
                         char *out, char *out2, double param) {
  long long o = blockIdx.x;
  typename R::acc_t acc = R::init();
  for (int i = threadIdx.x; i < G; i += blockDim.x)
    acc = R::merge(acc, partial[o * G + i]);
  acc = cn_block_reduce<R>(acc);
  if (threadIdx.x == 0) {
    long long oi, oo, oo2;
    cn_kept_off(g, o, oi, oo, oo2);
    R::store(out ? out + oo : out, out2 ? out2 + oo2 : out2, acc, param);
  }
}

// Many outputs, short or outer reduced range: one thread per output.
template <class R>
CN_DEV void cn_red_threads(long long M, long long K, cn_rgeom g, const char *in,
                           char *out, char *out2, double param) {
  typedef typename R::in_t I;
  for (long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x; o < M;
       o += (long long)gridDim.x * blockDim.x) {
    long long oi, oo, oo2;
    cn_kept_off(g, o, oi, oo, oo2);
    typename R::acc_t acc = R::init();
    for (long long k = 0; k < K; k++)
      R::add(acc, cn_ld<I>(in + oi + cn_red_off(g, k)), k);
    R::store(out ? out + oo : out, out2 ? out2 + oo2 : out2, acc, param);
  }
}

// Reduction kinds: in_t the input dtype, T the accumulator / output dtype.
// Float sums are compensated (Neumaier) so they match the CPU's pairwise
// accuracy.
template <class T> struct cn_sum2 { T s, c; };
// Once the sum is inf or NaN the correction would be inf - inf = NaN: it
// stops there, so s + c keeps the CPU's inf (or NaN).
template <class T> CN_DEV void cn_neumaier(T &s, T &c, T x) {
  T t = s + x;
  if (isfinite(t)) {
    if (fabs(s) >= fabs(x))
      c += (s - t) + x;
    else
      c += (x - t) + s;
  }
  s = t;
}
template <class In, class T, bool NAN_SKIP> struct cn_r_sum {
  typedef In in_t;
  typedef cn_sum2<T> acc_t;
  static CN_DEV acc_t init() { return acc_t{T(0), T(0)}; }
  static CN_DEV void add(acc_t &a, In v, long long) {
    if (NAN_SKIP && k_isnan(v))
      return;
    T x = cn_cast<T>(v);
    if constexpr (cn_tr<T>::is_cplx) {
      cn_neumaier(a.s.re, a.c.re, x.re);
      cn_neumaier(a.s.im, a.c.im, x.im);
    } else if constexpr (cn_tr<T>::is_float) {
      cn_neumaier(a.s, a.c, x);
    } else {
      a.s = (T)(a.s + x);
    }
  }
  static CN_DEV acc_t merge(acc_t a, acc_t b) {
    if constexpr (cn_tr<T>::is_cplx) {
      cn_neumaier(a.s.re, a.c.re, b.s.re);
      cn_neumaier(a.s.im, a.c.im, b.s.im);
      a.c = a.c + b.c;
    } else if constexpr (cn_tr<T>::is_float) {
      cn_neumaier(a.s, a.c, b.s);
      a.c += b.c;
    } else {
      a.s = (T)(a.s + b.s);
    }
    return a;
  }
  static CN_DEV void store(char *o, char *, const acc_t &a, double) {
    if constexpr (cn_tr<T>::is_float || cn_tr<T>::is_cplx)
      *reinterpret_cast<T *>(o) = a.s + a.c;
    else
      *reinterpret_cast<T *>(o) = a.s;
  }
};
template <class In, class T, bool NAN_SKIP> struct cn_r_prod {
  typedef In in_t;
  typedef T acc_t;
  static CN_DEV acc_t init() { return T(1); }
  static CN_DEV void add(acc_t &a, In v, long long) {
    if (NAN_SKIP && k_isnan(v))
      return;
    a = (T)(a * cn_cast<T>(v));
  }
  static CN_DEV acc_t merge(acc_t a, acc_t b) { return (T)(a * b); }
  static CN_DEV void store(char *o, char *, const acc_t &a, double) {
    *reinterpret_cast<T *>(o) = a;
  }
};
// MAX selects max, NAN_SKIP fmax/fmin (identity NaN, so all-NaN gives NaN).
template <class In, class T, bool MAX, bool NAN_SKIP> struct cn_r_minmax {
  typedef In in_t;
  typedef T acc_t;
  static CN_DEV acc_t init() {
    if constexpr (NAN_SKIP && (cn_tr<T>::is_float || cn_tr<T>::is_cplx))
      return cn_nan<T>();
    else
      return MAX ? cn_lim<T>::lo() : cn_lim<T>::hi();
  }
  // NaN-skipping: the CPU's step, "b if it is better or a is NaN" (an
  // all-NaN slice gives its NaN, the imaginary part of a complex one kept).
  static CN_DEV acc_t merge(acc_t a, acc_t b) {
    if constexpr (NAN_SKIP && (cn_tr<T>::is_float || cn_tr<T>::is_cplx))
      return ((MAX ? k_lt(a, b) : k_lt(b, a)) || k_isnan(a)) ? b : a;
    else if constexpr (NAN_SKIP)
      return MAX ? k_fmax(a, b) : k_fmin(a, b);
    else
      return MAX ? k_maximum(a, b) : k_minimum(a, b);
  }
  static CN_DEV void add(acc_t &a, In v, long long) {
    a = merge(a, cn_cast<T>(v));
  }
  static CN_DEV void store(char *o, char *, const acc_t &a, double) {
    *reinterpret_cast<T *>(o) = a;
  }
};
template <class In, bool ALL> struct cn_r_anyall {
  typedef In in_t;
  typedef int acc_t;
  static CN_DEV acc_t init() { return ALL ? 1 : 0; }
  static CN_DEV void add(acc_t &a, In v, long long) {
    bool t = cn_cast<bool>(v);
    a = ALL ? (a && t) : (a || t);
  }
  static CN_DEV acc_t merge(acc_t a, acc_t b) {
    return ALL ? (a && b) : (a || b);
  }
  static CN_DEV void store(char *o, char *, const acc_t &a, double) {
    *reinterpret_cast<bool *>(o) = a != 0;
  }
};
// First index of the extreme; NaN is the extreme (first NaN wins) unless
// NAN_SKIP, which ignores NaNs and leaves -1 for an all-NaN slice.
template <class In, bool MAX, bool NAN_SKIP> struct cn_r_arg {
  typedef In in_t;
  struct acc_t {
    In v;
    long long i;
  };
  static CN_DEV acc_t init() {
    acc_t a;
    a.v = In();
    a.i = -1;
    return a;
  }
  static CN_DEV acc_t merge(acc_t a, acc_t b) {
    if (a.i < 0)
      return b;
    if (b.i < 0)
      return a;
    if (!NAN_SKIP) {
      bool an = k_isnan(a.v), bn = k_isnan(b.v);
      if (an || bn) {
        if (an && bn)
          return a.i < b.i ? a : b;
        return an ? a : b;
      }
    }
    bool b_wins = MAX ? k_lt(a.v, b.v) : k_lt(b.v, a.v);
    bool a_wins = MAX ? k_lt(b.v, a.v) : k_lt(a.v, b.v);
    if (b_wins)
      return b;
    if (a_wins)
      return a;
    return a.i < b.i ? a : b;
  }
  static CN_DEV void add(acc_t &a, In v, long long k) {
    if (NAN_SKIP && k_isnan(v))
      return;
    acc_t b;
    b.v = v;
    b.i = k;
    a = merge(a, b);
  }
  static CN_DEV void store(char *o, char *, const acc_t &a, double) {
    *reinterpret_cast<long long *>(o) = a.i;
  }
};
// Mean and variance in double precision; out = mean (type M), out2 = var
// (type V); either may be NULL. The mean is a compensated sum divided by n,
// as on the CPU (so inf stays inf). The variance is Welford's update merged
// with Chan's formula, on values shifted by the first finite value each
// thread sees: a large common offset (uint32 data near 4e9) then costs no
// precision, matching the CPU's two-pass sum of squared deviations.
// Complex values are scaled per component (no inf * 0 = NaN).
template <bool C> struct cn_mom_t { typedef double type; };
template <> struct cn_mom_t<true> { typedef cn_c128 type; };
CN_DEV double cn_abs2(double d) { return d * d; }
CN_DEV double cn_abs2(cn_c128 d) { return d.re * d.re + d.im * d.im; }
CN_DEV double cn_mscale(double d, double r) { return d * r; }
CN_DEV cn_c128 cn_mscale(cn_c128 d, double r) { return cn_scale(d, r); }
CN_DEV double cn_mdiv(double d, double n) { return d / n; }
CN_DEV cn_c128 cn_mdiv(cn_c128 d, double n) {
  return cn_c128(d.re / n, d.im / n);
}
CN_DEV double cn_dot2(double a, double b) { return a * b; }
CN_DEV double cn_dot2(cn_c128 a, cn_c128 b) {
  return a.re * b.re + a.im * b.im;
}
CN_DEV void cn_neumaier_c(double &s, double &c, double x) {
  cn_neumaier(s, c, x);
}
CN_DEV void cn_neumaier_c(cn_c128 &s, cn_c128 &c, cn_c128 x) {
  cn_neumaier(s.re, c.re, x.re);
  cn_neumaier(s.im, c.im, x.im);
}
template <class In, class M, class V, bool NAN_SKIP> struct cn_r_mom {
  typedef In in_t;
  typedef typename cn_mom_t<cn_tr<In>::is_cplx>::type C;
  struct acc_t {
    double n;
    C sum, comp;  // compensated sum, for the mean
    C shift, dev; // Welford: mean = shift + dev
    double m2;
  };
  static CN_DEV acc_t init() {
    acc_t a;
    a.n = 0;
    a.sum = a.comp = a.shift = a.dev = C(0);
    a.m2 = 0;
    return a;
  }
  static CN_DEV void add(acc_t &a, In v, long long) {
    if (NAN_SKIP && k_isnan(v))
      return;
    C x = cn_cast<C>(v);
    cn_neumaier_c(a.sum, a.comp, x);
    a.n += 1;
    if (a.n == 1 && k_isfinite(x))
      a.shift = x;
    C y = x - a.shift;
    C d = y - a.dev;
    a.dev = a.dev + cn_mscale(d, 1.0 / a.n);
    a.m2 += cn_dot2(d, y - a.dev);
  }
  static CN_DEV acc_t merge(acc_t a, acc_t b) {
    if (b.n == 0)
      return a;
    if (a.n == 0)
      return b;
    acc_t r;
    r.n = a.n + b.n;
    r.sum = a.sum;
    r.comp = a.comp;
    cn_neumaier_c(r.sum, r.comp, b.sum);
    r.comp = r.comp + b.comp;
    C d = (b.shift - a.shift) + (b.dev - a.dev);
    r.shift = a.shift;
    r.dev = a.dev + cn_mscale(d, b.n / r.n);
    r.m2 = a.m2 + b.m2 + cn_abs2(d) * (a.n * b.n / r.n);
    return r;
  }
  static CN_DEV void store(char *o, char *o2, const acc_t &a, double ddof) {
    if (o)
      *reinterpret_cast<M *>(o) =
          cn_cast<M>(a.n > 0 ? cn_mdiv(a.sum + a.comp, a.n) : cn_nan<C>());
    if (o2) {
      double dn = a.n - ddof;
      *reinterpret_cast<V *>(o2) = (V)(a.m2 / (dn > 0 ? dn : 0.0));
    }
  }
};

