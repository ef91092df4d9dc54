// cunumpy CUDA lapack helpers: the small kernels around the cuSOLVER calls
// of core/cuda/lapack.c (triangle zeroing, identity, block copies with an
// optional adjoint or upper triangle, the finiteness flag, slogdet's
// diagonal reduction with the pivot parity, geev's real vectors made
// complex, lstsq's products and singular-value cut). Compiled by NVRTC after
// the prelude, in front of the kernels core/cuda/lapack_kernels.c generates;
// the per-matrix functions are plain CN_DEV code that
// tests/cuda/prelude_host.cu also compiles as host code.

template <class T> CN_DEV T cn_la_conj(T a) {
  if constexpr (cn_tr<T>::is_cplx)
    return T(a.re, -a.im);
  else
    return a;
}

template <class T> CN_DEV bool cn_la_bad(T v, bool nan_only) {
  return nan_only ? k_isnan(v) : !k_isfinite(v);
}

// Element (i, j) of a block copy: in's (i, j) (its (j, i) conjugated with
// adjoint) inside in's ri x ci extent and, with upper, on or above the
// diagonal; else zero.
template <class T>
CN_DEV T cn_la_copy_at(long long i, long long j, const T *in, long long ldi,
                       long long ri, long long ci, bool adjoint, bool upper) {
  if (upper && i > j)
    return T(0);
  long long si = adjoint ? j : i, sj = adjoint ? i : j;
  if (si >= ri || sj >= ci)
    return T(0);
  T v = in[si + sj * ldi];
  return adjoint ? cn_la_conj(v) : v;
}

// sign and log|det| of one LU-factored n x n matrix (LAPACK's getrf: 1-based
// int64 pivots), in the CPU backend's order of operations; info > 0
// (singular) gives sign 0 and -inf.
template <class T>
CN_DEV void cn_la_slogdet_one(long long n, const T *a, const long long *ipiv,
                              int info, T *sign,
                              typename cn_tr<T>::real *logdet) {
  typedef typename cn_tr<T>::real R;
  if (info > 0) {
    *sign = T(0);
    *logdet = -cn_lim<R>::hi();
    return;
  }
  T sg = T(1);
  R ld = R(0);
  for (long long i = 0; i < n; i++) {
    T dv = a[i + i * n];
    R av;
    if constexpr (cn_tr<T>::is_cplx)
      av = (R)hypot((double)dv.re, (double)dv.im);
    else
      av = (R)fabs((double)dv);
    if (ipiv[i] != i + 1)
      sg = -sg;
    if constexpr (cn_tr<T>::is_cplx)
      sg = sg * T(dv.re / av, dv.im / av);
    else
      sg = dv < 0 ? -sg : sg; // a sign test: an inf pivot keeps a sign
    ld += (R)log((double)av);
  }
  *sign = sg;
  *logdet = ld;
}

// Column j of geev's complex right vectors from its real ones (LAPACK's
// convention: a conjugate pair is stored as (re, im) columns, the one with
// positive imaginary part first).
template <class R>
CN_DEV cn_cx<R> cn_la_eigvec_at(long long i, long long j, long long n,
                                const R *vr, const cn_cx<R> *w) {
  R wi = w[j].im;
  if (wi == 0)
    return cn_cx<R>(vr[i + j * n], R(0));
  if (wi > 0 && j + 1 < n)
    return cn_cx<R>(vr[i + j * n], vr[i + (j + 1) * n]);
  if (wi < 0 && j > 0)
    return cn_cx<R>(vr[i + (j - 1) * n], -vr[i + j * n]);
  return cn_cx<R>(vr[i + j * n], R(0));
}

// C[i, j] = sum over l < L of conj(A[l, i]) * B[l, j] (A^H B, column-major).
template <class T>
CN_DEV T cn_la_ah_b_at(long long i, long long j, long long L, const T *A,
                       long long lda, const T *B, long long ldb) {
  T acc = T(0);
  for (long long l = 0; l < L; l++)
    acc = acc + cn_la_conj(A[l + i * lda]) * B[l + j * ldb];
  return acc;
}

// gelsd's cut: singular values at or below rcond * s[0] count as zero.
template <class R> CN_DEV bool cn_la_kept(const R *s, long long i, double rc) {
  return s[0] > 0 && (double)s[i] > rc * (double)s[0];
}
