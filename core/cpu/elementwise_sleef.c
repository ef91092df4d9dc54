/* Contiguous float32/float64 kernels for the transcendental ops built on
 * SLEEF's 1-ulp vector functions (u10; hypot u05), chosen at run time for
 * the CPU: AVX-512F, else AVX2+FMA, else none (the scalar libm loops of
 * elementwise_<dtype>.c run). SLEEF follows C99 Annex F for NaN, +-inf and
 * -0.0, so results agree with libm on special values. sqrt uses the
 * hardware instruction (correctly rounded). */
#include "sleef_x86.h"

#include <stdlib.h>

#include "elementwise.h"
#include "scalar.h"

#define CN_SL_T_d double
#define CN_SL_T_f float

/* Lanes whose result is +-inf or 0: where SLEEF's documented domains end
 * (log1p, asinh and acosh of huge arguments, pow near overflow) it returns
 * inf or 0 for a finite true result, so those lanes are recomputed with
 * libm (the k_* helpers) when the inputs are finite. Legitimate inf/0
 * results are rare, so the recheck costs nothing measurable. */
__attribute__((target("avx512f"))) static inline unsigned
cn_sl_special_d8(__m512d r) {
  __m512d m = _mm512_abs_pd(r);
  return _mm512_cmp_pd_mask(m, _mm512_set1_pd(INFINITY), _CMP_EQ_OQ) |
         _mm512_cmp_pd_mask(m, _mm512_setzero_pd(), _CMP_EQ_OQ);
}
__attribute__((target("avx512f"))) static inline unsigned
cn_sl_special_f16(__m512 r) {
  __m512 m = _mm512_abs_ps(r);
  return _mm512_cmp_ps_mask(m, _mm512_set1_ps(INFINITY), _CMP_EQ_OQ) |
         _mm512_cmp_ps_mask(m, _mm512_setzero_ps(), _CMP_EQ_OQ);
}
__attribute__((target("avx2,fma"))) static inline unsigned
cn_sl_special_d4(__m256d r) {
  __m256d m = _mm256_andnot_pd(_mm256_set1_pd(-0.0), r);
  return (unsigned)_mm256_movemask_pd(
      _mm256_or_pd(_mm256_cmp_pd(m, _mm256_set1_pd(INFINITY), _CMP_EQ_OQ),
                   _mm256_cmp_pd(m, _mm256_setzero_pd(), _CMP_EQ_OQ)));
}
__attribute__((target("avx2,fma"))) static inline unsigned
cn_sl_special_f8(__m256 r) {
  __m256 m = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), r);
  return (unsigned)_mm256_movemask_ps(
      _mm256_or_ps(_mm256_cmp_ps(m, _mm256_set1_ps(INFINITY), _CMP_EQ_OQ),
                   _mm256_cmp_ps(m, _mm256_setzero_ps(), _CMP_EQ_OQ)));
}

/* A unary / binary contiguous loop: full vectors, then the tail through a
 * padded buffer (padding 1 is a valid argument of every function). LIBM is
 * the scalar fallback for the lanes flagged by SPECIAL. */
#define CN_SL_LOOP1(kname, T, VT, W, LD, ST, FN, TGT, SPECIAL, LIBM)           \
  __attribute__((target(TGT))) static void kname(int64_t n, char *const *p,    \
                                                 const int64_t *s) {           \
    (void)s;                                                                   \
    T *o = (T *)p[0];                                                          \
    const T *a = (const T *)p[1];                                              \
    int64_t i = 0;                                                             \
    for (; i + W <= n; i += W) {                                               \
      VT r = FN(LD(a + i));                                                    \
      unsigned m = SPECIAL(r);                                                 \
      ST(o + i, r);                                                            \
      for (; m; m &= m - 1) {                                                  \
        int j = __builtin_ctz(m);                                              \
        if (isfinite(a[i + j]))                                                \
          o[i + j] = LIBM(a[i + j]);                                           \
      }                                                                        \
    }                                                                          \
    if (i < n) {                                                               \
      T ta[W], to[W];                                                          \
      for (int j = 0; j < W; j++)                                              \
        ta[j] = i + j < n ? a[i + j] : (T)1;                                   \
      ST(to, FN(LD(ta)));                                                      \
      for (int j = 0; i + j < n; j++) {                                        \
        T x = a[i + j];                                                        \
        o[i + j] =                                                             \
            (isinf(to[j]) || to[j] == 0) && isfinite(x) ? LIBM(x) : to[j];     \
      }                                                                        \
    }                                                                          \
  }
#define CN_SL_LOOP2(kname, T, VT, W, LD, ST, FN, TGT, SPECIAL, LIBM)           \
  __attribute__((target(TGT))) static void kname(int64_t n, char *const *p,    \
                                                 const int64_t *s) {           \
    (void)s;                                                                   \
    T *o = (T *)p[0];                                                          \
    const T *a = (const T *)p[1], *b = (const T *)p[2];                        \
    int64_t i = 0;                                                             \
    for (; i + W <= n; i += W) {                                               \
      VT r = FN(LD(a + i), LD(b + i));                                         \
      unsigned m = SPECIAL(r);                                                 \
      ST(o + i, r);                                                            \
      for (; m; m &= m - 1) {                                                  \
        int j = __builtin_ctz(m);                                              \
        if (isfinite(a[i + j]) && isfinite(b[i + j]))                          \
          o[i + j] = LIBM(a[i + j], b[i + j]);                                 \
      }                                                                        \
    }                                                                          \
    if (i < n) {                                                               \
      T ta[W], tb[W], to[W];                                                   \
      for (int j = 0; j < W; j++) {                                            \
        ta[j] = i + j < n ? a[i + j] : (T)1;                                   \
        tb[j] = i + j < n ? b[i + j] : (T)1;                                   \
      }                                                                        \
      ST(to, FN(LD(ta), LD(tb)));                                              \
      for (int j = 0; i + j < n; j++) {                                        \
        T x = a[i + j], y = b[i + j];                                          \
        o[i + j] = (isinf(to[j]) || to[j] == 0) && isfinite(x) && isfinite(y)  \
                       ? LIBM(x, y)                                            \
                       : to[j];                                                \
      }                                                                        \
    }                                                                          \
  }

#define CN_SL_AVX512_d(nin, op, fn)                                            \
  CN_SL_LOOP##nin(cn_sl_##op##_d_avx512, double, __m512d, 8, _mm512_loadu_pd,  \
                  _mm512_storeu_pd, fn##d8_avx512_w##nin, "avx512f",           \
                  cn_sl_special_d8, k_##fn##_f64)
#define CN_SL_AVX512_f(nin, op, fn)                                            \
  CN_SL_LOOP##nin(cn_sl_##op##_f_avx512, float, __m512, 16, _mm512_loadu_ps,   \
                  _mm512_storeu_ps, fn##f16_avx512_w##nin, "avx512f",          \
                  cn_sl_special_f16, k_##fn##_f32)
#define CN_SL_AVX2_d(nin, op, fn)                                              \
  CN_SL_LOOP##nin(cn_sl_##op##_d_avx2, double, __m256d, 4, _mm256_loadu_pd,    \
                  _mm256_storeu_pd, fn##d4_avx2_w##nin, "avx2,fma",            \
                  cn_sl_special_d4, k_##fn##_f64)
#define CN_SL_AVX2_f(nin, op, fn)                                              \
  CN_SL_LOOP##nin(cn_sl_##op##_f_avx2, float, __m256, 8, _mm256_loadu_ps,      \
                  _mm256_storeu_ps, fn##f8_avx2_w##nin, "avx2,fma",            \
                  cn_sl_special_f8, k_##fn##_f32)

/* (op id, nin, SLEEF function, accuracy suffix) */
#define CN_SL_OPS(X)                                                           \
  X(sin, 1, sin, u10)                                                          \
  X(cos, 1, cos, u10)                                                          \
  X(tan, 1, tan, u10)                                                          \
  X(arcsin, 1, asin, u10)                                                      \
  X(arccos, 1, acos, u10)                                                      \
  X(arctan, 1, atan, u10)                                                      \
  X(sinh, 1, sinh, u10)                                                        \
  X(cosh, 1, cosh, u10)                                                        \
  X(tanh, 1, tanh, u10)                                                        \
  X(arcsinh, 1, asinh, u10)                                                    \
  X(arccosh, 1, acosh, u10)                                                    \
  X(arctanh, 1, atanh, u10)                                                    \
  X(exp, 1, exp, u10)                                                          \
  X(exp2, 1, exp2, u10)                                                        \
  X(expm1, 1, expm1, u10)                                                      \
  X(log, 1, log, u10)                                                          \
  X(log2, 1, log2, u10)                                                        \
  X(log10, 1, log10, u10)                                                      \
  X(log1p, 1, log1p, u10)                                                      \
  X(cbrt, 1, cbrt, u10)                                                        \
  X(power, 2, pow, u10)                                                        \
  X(arctan2, 2, atan2, u10)                                                    \
  X(hypot, 2, hypot, u05)

/* Per-ISA wrappers with uniform names <fn><width>_<isa>. */
#define CN_SL_WRAP(op, nin, fn, u)                                             \
  __attribute__((target("avx512f"))) static inline __m512d                     \
      fn##d8_avx512_w##nin(CN_SL_ARGS##nin(__m512d)) {                         \
    return Sleef_##fn##d8_##u##avx512f(CN_SL_PASS##nin);                       \
  }                                                                            \
  __attribute__((target("avx512f"))) static inline __m512                      \
      fn##f16_avx512_w##nin(CN_SL_ARGS##nin(__m512)) {                         \
    return Sleef_##fn##f16_##u##avx512f(CN_SL_PASS##nin);                      \
  }                                                                            \
  __attribute__((target("avx2,fma"))) static inline __m256d                    \
      fn##d4_avx2_w##nin(CN_SL_ARGS##nin(__m256d)) {                           \
    return Sleef_##fn##d4_##u##avx2(CN_SL_PASS##nin);                          \
  }                                                                            \
  __attribute__((target("avx2,fma"))) static inline __m256 fn##f8_avx2_w##nin( \
      CN_SL_ARGS##nin(__m256)) {                                               \
    return Sleef_##fn##f8_##u##avx2(CN_SL_PASS##nin);                          \
  }
#define CN_SL_ARGS1(VT) VT x
#define CN_SL_ARGS2(VT) VT x, VT y
#define CN_SL_PASS1 x
#define CN_SL_PASS2 x, y
CN_SL_OPS(CN_SL_WRAP)

#define CN_SL_KERNELS(op, nin, fn, u)                                          \
  CN_SL_AVX512_d(nin, op, fn) CN_SL_AVX512_f(nin, op, fn)                      \
      CN_SL_AVX2_d(nin, op, fn) CN_SL_AVX2_f(nin, op, fn)
CN_SL_OPS(CN_SL_KERNELS)

/* sqrt: the hardware instruction. */
__attribute__((target("avx512f"))) static inline __m512d cn_sqrt_d8(__m512d x) {
  return _mm512_sqrt_pd(x);
}
__attribute__((target("avx512f"))) static inline __m512 cn_sqrt_f16(__m512 x) {
  return _mm512_sqrt_ps(x);
}
__attribute__((target("avx2,fma"))) static inline __m256d
cn_sqrt_d4(__m256d x) {
  return _mm256_sqrt_pd(x);
}
__attribute__((target("avx2,fma"))) static inline __m256 cn_sqrt_f8(__m256 x) {
  return _mm256_sqrt_ps(x);
}
CN_SL_LOOP1(cn_sl_sqrt_d_avx512, double, __m512d, 8, _mm512_loadu_pd,
            _mm512_storeu_pd, cn_sqrt_d8, "avx512f", cn_sl_special_d8,
            k_sqrt_f64)
CN_SL_LOOP1(cn_sl_sqrt_f_avx512, float, __m512, 16, _mm512_loadu_ps,
            _mm512_storeu_ps, cn_sqrt_f16, "avx512f", cn_sl_special_f16,
            k_sqrt_f32)
CN_SL_LOOP1(cn_sl_sqrt_d_avx2, double, __m256d, 4, _mm256_loadu_pd,
            _mm256_storeu_pd, cn_sqrt_d4, "avx2,fma", cn_sl_special_d4,
            k_sqrt_f64)
CN_SL_LOOP1(cn_sl_sqrt_f_avx2, float, __m256, 8, _mm256_loadu_ps,
            _mm256_storeu_ps, cn_sqrt_f8, "avx2,fma", cn_sl_special_f8,
            k_sqrt_f32)

#define CN_SL_ENTRY(isa, t)                                                    \
  [CN_OPID_sqrt] = cn_sl_sqrt_##t##_##isa, CN_SL_OPS(CN_SL_ENTRY_##isa##_##t)
#define CN_SL_ENTRY_avx512_d(op, nin, fn, u)                                   \
  [CN_OPID_##op] = cn_sl_##op##_d_avx512,
#define CN_SL_ENTRY_avx512_f(op, nin, fn, u)                                   \
  [CN_OPID_##op] = cn_sl_##op##_f_avx512,
#define CN_SL_ENTRY_avx2_d(op, nin, fn, u) [CN_OPID_##op] = cn_sl_##op##_d_avx2,
#define CN_SL_ENTRY_avx2_f(op, nin, fn, u) [CN_OPID_##op] = cn_sl_##op##_f_avx2,
static const cn_ew_kernel cn_sl_avx512_d[CN_OP_COUNT_] = {
    CN_SL_ENTRY(avx512, d)};
static const cn_ew_kernel cn_sl_avx512_f[CN_OP_COUNT_] = {
    CN_SL_ENTRY(avx512, f)};
static const cn_ew_kernel cn_sl_avx2_d[CN_OP_COUNT_] = {CN_SL_ENTRY(avx2, d)};
static const cn_ew_kernel cn_sl_avx2_f[CN_OP_COUNT_] = {CN_SL_ENTRY(avx2, f)};

/* 2: AVX-512F, 1: AVX2+FMA, 0: neither. CUNUMPY_NO_SLEEF=1 forces 0 (to
 * compare against libm). Computed once; a benign race stores one value. */
static int cn_sl_level(void) {
  static _Atomic int level = -1;
  int l = level;
  if (l < 0) {
    const char *env = getenv("CUNUMPY_NO_SLEEF");
    __builtin_cpu_init();
    if (env && env[0] == '1')
      l = 0;
    else if (__builtin_cpu_supports("avx512f"))
      l = 2;
    else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
      l = 1;
    else
      l = 0;
    level = l;
  }
  return l;
}

cn_ew_kernel cn_ew_sleef_kernel(int32_t op, cn_dtype dt) {
  if (op < 0 || op >= CN_OP_COUNT_)
    return NULL;
  int l = cn_sl_level();
  if (dt == CN_FLOAT64)
    return l == 2 ? cn_sl_avx512_d[op] : l == 1 ? cn_sl_avx2_d[op] : NULL;
  if (dt == CN_FLOAT32)
    return l == 2 ? cn_sl_avx512_f[op] : l == 1 ? cn_sl_avx2_f[op] : NULL;
  return NULL;
}
