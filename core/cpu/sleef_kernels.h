/* The contiguous float32/float64 SLEEF kernels of one ISA, included once by
 * each of core/cpu/elementwise_sleef_<isa>.c. Those files are compiled for
 * their ISA as a whole (CMakeLists.txt gives *_<isa>.c the flags) because
 * clang passes vector arguments by the translation unit's ISA, not by a
 * function's target attribute: SLEEF's functions, which take __m256d and
 * __m512d in registers, would receive them on the stack from a baseline
 * file. The includer defines, before including this file:
 *   CN_SL_ISA        suffix of the tables it defines (cn_sl_<ISA>_d/_f)
 *   CN_SL_SLEEF_ISA  SLEEF's name of the ISA (avx512f, avx2)
 *   CN_SL_VD, CN_SL_VF, CN_SL_WD, CN_SL_WF  vector types and lane counts
 *   CN_SL_LOADD/STORED/SQRTD/SET1D, CN_SL_LOADF/STOREF/SQRTF/SET1F
 *                    intrinsics
 *   cn_sl_special_d(r), cn_sl_special_f(r)  lane masks of +-inf or 0 results
 * SLEEF follows C99 Annex F for NaN, +-inf and -0.0, so results agree with
 * libm on special values. sqrt uses the hardware instruction (correctly
 * rounded). */
#ifndef CUNUMPY_CPU_SLEEF_KERNELS_H
#define CUNUMPY_CPU_SLEEF_KERNELS_H

#include <sleef.h>
#include <string.h>

#include "elementwise.h"
#include "scalar.h"

#define CN_SL_CAT_(a, b) a##b
#define CN_SL_CAT(a, b) CN_SL_CAT_(a, b)
/* Sleef_<fn><d|f><lanes>_<u><isa>, e.g. Sleef_powd8_u10avx512f */
#define CN_SL_FN_(fn, t, w, u, isa) Sleef_##fn##t##w##_##u##isa
#define CN_SL_FN(fn, t, w, u, isa) CN_SL_FN_(fn, t, w, u, isa)

/* A unary / binary contiguous loop: full vectors, then the tail through a
 * padded buffer (padding 1 is a valid argument of every function). Lanes
 * whose result is +-inf or 0 are recomputed with LIBM (the k_* helpers)
 * when the inputs are finite: where SLEEF's documented domains end
 * (log1p, asinh and acosh of huge arguments, pow near overflow) it returns
 * inf or 0 for a finite true result. Legitimate inf/0 results are rare, so
 * the recheck costs nothing measurable. */
#define CN_SL_LOOP1(kname, T, VT, W, LD, ST, FN, SPECIAL, LIBM)                \
  static void kname(int64_t n, char *const *p, const int64_t *s) {            \
    (void)s;                                                                   \
    T *o = (T *)p[0];                                                          \
    const T *a = (const T *)p[1];                                              \
    int64_t i = 0;                                                             \
    for (; i + W <= n; i += W) {                                               \
      VT va = LD(a + i);                                                       \
      VT r = FN(va);                                                           \
      unsigned m = SPECIAL(r);                                                 \
      T xa[W]; /* the inputs: o may be a itself */                             \
      if (m)                                                                   \
        ST(xa, va);                                                            \
      ST(o + i, r);                                                            \
      for (; m; m &= m - 1) {                                                  \
        int j = __builtin_ctz(m);                                              \
        if (isfinite(xa[j]))                                                   \
          o[i + j] = LIBM(xa[j]);                                              \
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
#define CN_SL_LOOP2(kname, T, VT, W, LD, ST, FN, SPECIAL, LIBM)                \
  static void kname(int64_t n, char *const *p, const int64_t *s) {            \
    (void)s;                                                                   \
    T *o = (T *)p[0];                                                          \
    const T *a = (const T *)p[1], *b = (const T *)p[2];                        \
    int64_t i = 0;                                                             \
    for (; i + W <= n; i += W) {                                               \
      VT va = LD(a + i), vb = LD(b + i);                                       \
      VT r = FN(va, vb);                                                       \
      unsigned m = SPECIAL(r);                                                 \
      T xa[W], xb[W]; /* the inputs: o may be a or b itself */                 \
      if (m) {                                                                 \
        ST(xa, va);                                                            \
        ST(xb, vb);                                                            \
      }                                                                        \
      ST(o + i, r);                                                            \
      for (; m; m &= m - 1) {                                                  \
        int j = __builtin_ctz(m);                                              \
        if (isfinite(xa[j]) && isfinite(xb[j]))                                \
          o[i + j] = LIBM(xa[j], xb[j]);                                       \
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

/* pow with an exponent that is one value for the whole loop (s[2] == 0,
 * a scalar or a broadcast operand): the vector pow with the exponent in
 * every lane, same lane recheck as CN_SL_LOOP2. Strided operands run the
 * typed loop FALLBACK. */
#define CN_SL_POWS(kname, T, VT, W, LD, ST, SET1, FN, SPECIAL, LIBM, FALLBACK) \
  static void kname(int64_t n, char *const *p, const int64_t *s) {            \
    if (s[0] != (int64_t)sizeof(T) || s[1] != (int64_t)sizeof(T)) {           \
      FALLBACK(n, p, s);                                                       \
      return;                                                                  \
    }                                                                          \
    T *o = (T *)p[0];                                                          \
    const T *a = (const T *)p[1];                                              \
    const T y = *(const T *)p[2];                                              \
    const VT vy = SET1(y);                                                     \
    const bool yfin = isfinite(y);                                             \
    int64_t i = 0;                                                             \
    for (; i + W <= n; i += W) {                                               \
      VT va = LD(a + i);                                                       \
      VT r = FN(va, vy);                                                       \
      unsigned m = yfin ? SPECIAL(r) : 0;                                      \
      T xa[W]; /* the inputs: o may be a itself */                             \
      if (m)                                                                   \
        ST(xa, va);                                                            \
      ST(o + i, r);                                                            \
      for (; m; m &= m - 1) {                                                  \
        int j = __builtin_ctz(m);                                              \
        if (isfinite(xa[j]))                                                   \
          o[i + j] = LIBM(xa[j], y);                                           \
      }                                                                        \
    }                                                                          \
    if (i < n) {                                                               \
      T ta[W], to[W];                                                          \
      for (int j = 0; j < W; j++)                                              \
        ta[j] = i + j < n ? a[i + j] : (T)1;                                   \
      ST(to, FN(LD(ta), vy));                                                  \
      for (int j = 0; i + j < n; j++) {                                        \
        T x = a[i + j];                                                        \
        o[i + j] = (isinf(to[j]) || to[j] == 0) && isfinite(x) && yfin         \
                       ? LIBM(x, y)                                            \
                       : to[j];                                                \
      }                                                                        \
    }                                                                          \
  }

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
  X(hypot, 2, hypot, u05)                                                      \
  X(special_erf, 1, erf, u10)                                                  \
  X(special_erfc, 1, erfc, u15)

#define CN_SL_KERNELS(op, nin, fn, u)                                          \
  CN_SL_LOOP##nin(cn_sl_##op##_d, double, CN_SL_VD, CN_SL_WD, CN_SL_LOADD,     \
                  CN_SL_STORED,                                                \
                  CN_SL_FN(fn, d, CN_SL_WD, u, CN_SL_SLEEF_ISA),               \
                  cn_sl_special_d, k_##fn##_f64)                               \
      CN_SL_LOOP##nin(cn_sl_##op##_f, float, CN_SL_VF, CN_SL_WF, CN_SL_LOADF,  \
                      CN_SL_STOREF,                                            \
                      CN_SL_FN(fn, f, CN_SL_WF, u, CN_SL_SLEEF_ISA),           \
                      cn_sl_special_f, k_##fn##_f32)
CN_SL_OPS(CN_SL_KERNELS)

/* expit as 1 / (1 + exp(-x)) on SLEEF's vector exp: within 2 ulp like the
 * scalar cn_sp_expit (core/special_scalar.h), and the lanes where exp(-x)
 * overflows (x < -709, a 0 result) are recomputed by the scalar code. */
static inline CN_SL_VD cn_sl_expit_vd(CN_SL_VD x) {
  return 1.0 / (1.0 + CN_SL_FN(exp, d, CN_SL_WD, u10, CN_SL_SLEEF_ISA)(-x));
}
static inline CN_SL_VF cn_sl_expit_vf(CN_SL_VF x) {
  return 1.0f / (1.0f + CN_SL_FN(exp, f, CN_SL_WF, u10, CN_SL_SLEEF_ISA)(-x));
}
CN_SL_LOOP1(cn_sl_special_expit_d, double, CN_SL_VD, CN_SL_WD, CN_SL_LOADD,
            CN_SL_STORED, cn_sl_expit_vd, cn_sl_special_d, k_expit_f64)
CN_SL_LOOP1(cn_sl_special_expit_f, float, CN_SL_VF, CN_SL_WF, CN_SL_LOADF,
            CN_SL_STOREF, cn_sl_expit_vf, cn_sl_special_f, k_expit_f32)

CN_SL_LOOP1(cn_sl_sqrt_d, double, CN_SL_VD, CN_SL_WD, CN_SL_LOADD,
            CN_SL_STORED, CN_SL_SQRTD, cn_sl_special_d, k_sqrt_f64)
CN_SL_LOOP1(cn_sl_sqrt_f, float, CN_SL_VF, CN_SL_WF, CN_SL_LOADF, CN_SL_STOREF,
            CN_SL_SQRTF, cn_sl_special_f, k_sqrt_f32)

CN_SL_POWS(cn_sl_pow_scalar_d, double, CN_SL_VD, CN_SL_WD, CN_SL_LOADD,
           CN_SL_STORED, CN_SL_SET1D, CN_SL_FN(pow, d, CN_SL_WD, u10, CN_SL_SLEEF_ISA),
           cn_sl_special_d, k_pow_f64, cn_ew_kernels_f64[CN_OPID_power])
CN_SL_POWS(cn_sl_pow_scalar_f, float, CN_SL_VF, CN_SL_WF, CN_SL_LOADF,
           CN_SL_STOREF, CN_SL_SET1F, CN_SL_FN(pow, f, CN_SL_WF, u10, CN_SL_SLEEF_ISA),
           cn_sl_special_f, k_pow_f32, cn_ew_kernels_f32[CN_OPID_power])
const cn_ew_kernel CN_SL_CAT(CN_SL_CAT(cn_sl_, CN_SL_ISA), _pow_scalar_d) =
    cn_sl_pow_scalar_d;
const cn_ew_kernel CN_SL_CAT(CN_SL_CAT(cn_sl_, CN_SL_ISA), _pow_scalar_f) =
    cn_sl_pow_scalar_f;

/* abs of complex: sqrt(re*re + im*im) with one fma, in double for both
 * precisions (<= 1.2 ulp; NumPy's loop is up to ~1.9). Lanes where the
 * squares could have overflowed or lost bits to underflow, or a part is
 * inf or NaN, are recomputed with libm's hypot from a copy of the inputs
 * taken before o is written (o may alias z). The includer provides
 * cn_sl_deint_d, cn_sl_widen_f, cn_sl_store_narrow_f, cn_sl_fma_d and
 * cn_sl_outside_d. */
static inline double cn_sl_cabs_one(double re, double im, double lo,
                                    double hi) {
  double r = sqrt(fma(re, re, im * im));
  return r >= lo && r <= hi ? r : hypot(re, im);
}
#define CN_SL_CABS(kname, T, LOADZ, STORE, LO, HI)                             \
  static void kname(int64_t n, char *const *p, const int64_t *s) {            \
    (void)s;                                                                   \
    T *o = (T *)p[0];                                                          \
    const T *z = (const T *)p[1];                                              \
    int64_t i = 0;                                                             \
    for (; i + CN_SL_WD <= n; i += CN_SL_WD) {                                 \
      CN_SL_VD re, im;                                                         \
      cn_sl_deint_d(LOADZ(z + 2 * i), LOADZ(z + 2 * i + CN_SL_WD), &re, &im);  \
      CN_SL_VD r = CN_SL_SQRTD(cn_sl_fma_d(re, re, im * im));                  \
      unsigned bad = cn_sl_outside_d(r, LO, HI);                               \
      T zs[2 * CN_SL_WD];                                                      \
      if (bad)                                                                 \
        memcpy(zs, z + 2 * i, sizeof zs);                                      \
      STORE(o + i, r);                                                         \
      for (; bad; bad &= bad - 1) {                                            \
        int j = __builtin_ctz(bad);                                            \
        o[i + j] = (T)hypot((double)zs[2 * j], (double)zs[2 * j + 1]);         \
      }                                                                        \
    }                                                                          \
    for (; i < n; i++)                                                         \
      o[i] = (T)cn_sl_cabs_one(z[2 * i], z[2 * i + 1], LO, HI);                \
  }
CN_SL_CABS(cn_sl_cabs_d, double, CN_SL_LOADD, CN_SL_STORED, 1e-140, 1e140)
CN_SL_CABS(cn_sl_cabs_f, float, cn_sl_widen_f, cn_sl_store_narrow_f, 1e-300,
           1e300)
const cn_ew_kernel CN_SL_CAT(CN_SL_CAT(cn_sl_, CN_SL_ISA), _cabs_d) =
    cn_sl_cabs_d;
const cn_ew_kernel CN_SL_CAT(CN_SL_CAT(cn_sl_, CN_SL_ISA), _cabs_f) =
    cn_sl_cabs_f;

#define CN_SL_ENTRY_d(op, nin, fn, u) [CN_OPID_##op] = cn_sl_##op##_d,
#define CN_SL_ENTRY_f(op, nin, fn, u) [CN_OPID_##op] = cn_sl_##op##_f,
const cn_ew_kernel CN_SL_CAT(CN_SL_CAT(cn_sl_, CN_SL_ISA), _d)[CN_OP_COUNT_] = {
    [CN_OPID_sqrt] = cn_sl_sqrt_d,
    [CN_OPID_special_expit] = cn_sl_special_expit_d, CN_SL_OPS(CN_SL_ENTRY_d)};
const cn_ew_kernel CN_SL_CAT(CN_SL_CAT(cn_sl_, CN_SL_ISA), _f)[CN_OP_COUNT_] = {
    [CN_OPID_sqrt] = cn_sl_sqrt_f,
    [CN_OPID_special_expit] = cn_sl_special_expit_f, CN_SL_OPS(CN_SL_ENTRY_f)};

#endif
