/* The k_* scalar helpers that core/ops.def expressions use, for every CPU
 * compute type, dispatched with C11 _Generic. Semantics are NumPy's (2.x):
 * integer division and remainder by zero give 0 and never trap (INT_MIN / -1
 * wraps), floor division and remainder take Python's signs, maximum/minimum
 * propagate NaN, complex numbers order lexicographically, shifts past the
 * bit width give 0 (or the sign fill). The CUDA prelude mirrors these. */
#ifndef CUNUMPY_CPU_SCALAR_H
#define CUNUMPY_CPU_SCALAR_H

#include <complex.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "dtypes.h"

#define CN_K_LOGE2 0.693147180559945309417232121458176568
#define CN_K_LOG2E 1.442695040888963407359924681001892137
#define CN_K_LOG10E 0.434294481903251827651128918916604330

/* ---- dispatch ---------------------------------------------------------- */

/* clang-format off */

#define CN_KG_B(fn) bool : fn##_b
#define CN_KG_I(fn)                                                            \
  int8_t : fn##_i8, int16_t : fn##_i16, int32_t : fn##_i32, int64_t : fn##_i64
#define CN_KG_U(fn)                                                            \
  uint8_t : fn##_u8, uint16_t : fn##_u16, uint32_t : fn##_u32,                 \
            uint64_t : fn##_u64
#define CN_KG_F(fn) float : fn##_f32, double : fn##_f64
#define CN_KG_C(fn) cn_c64_t : fn##_c64, cn_c128_t : fn##_c128
#define CN_KG_ALL(fn)                                                          \
  CN_KG_B(fn), CN_KG_I(fn), CN_KG_U(fn), CN_KG_F(fn), CN_KG_C(fn)
#define CN_KG_INEXACT(fn) CN_KG_F(fn), CN_KG_C(fn)
#define CN_KG_REAL(fn) CN_KG_B(fn), CN_KG_I(fn), CN_KG_U(fn), CN_KG_F(fn)
/* clang-format on */

/* ---- bool -------------------------------------------------------------- */

static inline bool k_maximum_b(bool a, bool b) { return a | b; }
static inline bool k_minimum_b(bool a, bool b) { return a & b; }
static inline bool k_abs_b(bool a) { return a; }
static inline bool k_isnan_b(bool a) { return (void)a, false; }
static inline bool k_isinf_b(bool a) { return (void)a, false; }
static inline bool k_isfinite_b(bool a) { return (void)a, true; }
static inline bool k_signbit_b(bool a) { return (void)a, false; }
static inline bool k_lt_b(bool a, bool b) { return !a & b; }
static inline bool k_le_b(bool a, bool b) { return !a | b; }
static inline bool k_invert_b(bool a) { return !a; }
static inline bool k_real_b(bool a) { return a; }
static inline bool k_imag_b(bool a) { return (void)a, false; }
static inline bool k_conj_b(bool a) { return a; }
static inline bool k_floor_b(bool a) { return a; }
#define k_ceil_b k_floor_b
#define k_trunc_b k_floor_b
#define k_fmax_b k_maximum_b
#define k_fmin_b k_minimum_b

/* ---- integers (shared by signed and unsigned) --------------------------- */

/* Power by squaring in uint64 arithmetic: wraps like NumPy, no UB. */
static inline uint64_t k_upow_(uint64_t x, uint64_t e) {
  uint64_t r = 1;
  while (e) {
    if (e & 1)
      r *= x;
    x *= x;
    e >>= 1;
  }
  return r;
}

#define CN_K_INT_COMMON(T, S)                                                  \
  static inline T k_maximum_##S(T a, T b) { return a > b ? a : b; }            \
  static inline T k_minimum_##S(T a, T b) { return a < b ? a : b; }            \
  static inline bool k_isnan_##S(T a) { return (void)a, false; }               \
  static inline bool k_isinf_##S(T a) { return (void)a, false; }               \
  static inline bool k_isfinite_##S(T a) { return (void)a, true; }             \
  static inline bool k_lt_##S(T a, T b) { return a < b; }                      \
  static inline bool k_le_##S(T a, T b) { return a <= b; }                     \
  static inline T k_invert_##S(T a) { return (T)~a; }                          \
  static inline T k_real_##S(T a) { return a; }                                \
  static inline T k_imag_##S(T a) { return (void)a, (T)0; }                    \
  static inline T k_conj_##S(T a) { return a; }                                \
  /* NumPy 2.3+: rounding an integer is the integer itself */                  \
  static inline T k_floor_##S(T a) { return a; }                               \
  static inline T k_ceil_##S(T a) { return a; }                                \
  static inline T k_trunc_##S(T a) { return a; }

/* Signed: BITS is the width; the uint64 detours avoid signed overflow. */
#define CN_K_SINT(T, S, BITS)                                                  \
  CN_K_INT_COMMON(T, S)                                                        \
  static inline T k_floordiv_##S(T a, T b) {                                   \
    if (b == 0)                                                                \
      return 0;                                                                \
    if (b == -1) /* INT_MIN / -1 wraps to INT_MIN, as NumPy */                 \
      return (T)(0 - (uint64_t)a);                                             \
    T q = (T)(a / b);                                                          \
    if ((T)(a % b) != 0 && ((a < 0) != (b < 0)))                               \
      q--;                                                                     \
    return q;                                                                  \
  }                                                                            \
  static inline T k_mod_##S(T a, T b) {                                        \
    if (b == 0 || b == -1)                                                     \
      return 0;                                                                \
    T r = (T)(a % b);                                                          \
    if (r != 0 && ((r < 0) != (b < 0)))                                        \
      r = (T)(r + b);                                                          \
    return r;                                                                  \
  }                                                                            \
  static inline T k_pow_##S(T a, T b) {                                        \
    if (b < 0) /* 1/a**|b| in integers: 0 unless a is +-1 */                   \
      return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;                    \
    return (T)k_upow_((uint64_t)a, (uint64_t)b);                               \
  }                                                                            \
  static inline T k_abs_##S(T a) { return a < 0 ? (T)(0 - (uint64_t)a) : a; }  \
  static inline T k_sign_##S(T a) { return (T)((a > 0) - (a < 0)); }           \
  static inline T k_reciprocal_##S(T a) {                                      \
    return (T)(a == 1 ? 1 : a == -1 ? -1 : 0);                                 \
  }                                                                            \
  static inline bool k_signbit_##S(T a) { return a < 0; }                      \
  static inline T k_shl_##S(T a, T b) {                                        \
    return (b >= 0 && b < BITS) ? (T)((uint64_t)a << b) : (T)0;                \
  }                                                                            \
  static inline T k_shr_##S(T a, T b) {                                        \
    if (b >= 0 && b < BITS)                                                    \
      return (T)(a >> b);                                                      \
    return (T)(a < 0 ? -1 : 0);                                                \
  }

#define CN_K_UINT(T, S, BITS)                                                  \
  CN_K_INT_COMMON(T, S)                                                        \
  static inline T k_floordiv_##S(T a, T b) { return b ? (T)(a / b) : 0; }      \
  static inline T k_mod_##S(T a, T b) { return b ? (T)(a % b) : 0; }           \
  static inline T k_pow_##S(T a, T b) {                                        \
    return (T)k_upow_((uint64_t)a, (uint64_t)b);                               \
  }                                                                            \
  static inline T k_abs_##S(T a) { return a; }                                 \
  static inline T k_sign_##S(T a) { return (T)(a > 0); }                       \
  static inline T k_reciprocal_##S(T a) { return (T)(a == 1); }                \
  static inline bool k_signbit_##S(T a) { return (void)a, false; }             \
  static inline T k_shl_##S(T a, T b) {                                        \
    return b < BITS ? (T)((uint64_t)a << b) : (T)0;                            \
  }                                                                            \
  static inline T k_shr_##S(T a, T b) { return b < BITS ? (T)(a >> b) : (T)0; }

CN_K_SINT(int8_t, i8, 8)
CN_K_SINT(int16_t, i16, 16)
CN_K_SINT(int32_t, i32, 32)
CN_K_SINT(int64_t, i64, 64)
CN_K_UINT(uint8_t, u8, 8)
CN_K_UINT(uint16_t, u16, 16)
CN_K_UINT(uint32_t, u32, 32)
CN_K_UINT(uint64_t, u64, 64)

#define k_fmax_i8 k_maximum_i8
#define k_fmax_i16 k_maximum_i16
#define k_fmax_i32 k_maximum_i32
#define k_fmax_i64 k_maximum_i64
#define k_fmax_u8 k_maximum_u8
#define k_fmax_u16 k_maximum_u16
#define k_fmax_u32 k_maximum_u32
#define k_fmax_u64 k_maximum_u64
#define k_fmin_i8 k_minimum_i8
#define k_fmin_i16 k_minimum_i16
#define k_fmin_i32 k_minimum_i32
#define k_fmin_i64 k_minimum_i64
#define k_fmin_u8 k_minimum_u8
#define k_fmin_u16 k_minimum_u16
#define k_fmin_u32 k_minimum_u32
#define k_fmin_u64 k_minimum_u64

/* ---- floats ------------------------------------------------------------ */

/* F is the libm suffix: f for float, nothing for double. */
#define CN_K_FLOAT(T, S, F)                                                    \
  /* NumPy's npy_divmod: the quotient is rounded so that                       \
   * floordiv * b + mod == a as closely as possible. */                        \
  static inline T k_divmod_##S(T a, T b, T *mod) {                             \
    T m = fmod##F(a, b);                                                       \
    if (!b) {                                                                  \
      *mod = m;                                                                \
      return a / b;                                                            \
    }                                                                          \
    T div = (a - m) / b;                                                       \
    if (m) {                                                                   \
      if ((b < 0) != (m < 0)) {                                                \
        m += b;                                                                \
        div -= 1;                                                              \
      }                                                                        \
    } else {                                                                   \
      m = copysign##F(0, b);                                                   \
    }                                                                          \
    T fd;                                                                      \
    if (div) {                                                                 \
      fd = floor##F(div);                                                      \
      if (div - fd > (T)0.5)                                                   \
        fd += 1;                                                               \
    } else {                                                                   \
      fd = copysign##F(0, a / b);                                              \
    }                                                                          \
    *mod = m;                                                                  \
    return fd;                                                                 \
  }                                                                            \
  /* an infinite operand: the Array API's floor(a / b) (divmod's NaN for  \
   * inf // 3 and -1 for 5 // -inf are NumPy's) */                          \
  static inline T k_floordiv_##S(T a, T b) {                                   \
    T m;                                                                       \
    if (!b || isinf(a) || isinf(b))                                            \
      return !b ? a / b : floor##F(a / b);                                     \
    return k_divmod_##S(a, b, &m);                                             \
  }                                                                            \
  static inline T k_mod_##S(T a, T b) {                                        \
    T m;                                                                       \
    if (!b)                                                                    \
      return fmod##F(a, b);                                                    \
    k_divmod_##S(a, b, &m);                                                    \
    return m;                                                                  \
  }                                                                            \
  static inline T k_pow_##S(T a, T b) { return pow##F(a, b); }                 \
  /* two selects, not ||: a short-circuit keeps gcc from vectorising */     \
  static inline T k_maximum_##S(T a, T b) {                                    \
    T t = a >= b ? a : b;                                                      \
    return a != a ? a : t;                                                     \
  }                                                                            \
  static inline T k_minimum_##S(T a, T b) {                                    \
    T t = a <= b ? a : b;                                                      \
    return a != a ? a : t;                                                     \
  }                                                                            \
  static inline T k_fmax_##S(T a, T b) {                                       \
    T t = a >= b ? a : b;                                                      \
    return b != b ? a : t;                                                     \
  }                                                                            \
  static inline T k_fmin_##S(T a, T b) {                                       \
    T t = a <= b ? a : b;                                                      \
    return b != b ? a : t;                                                     \
  }                                                                            \
  static inline T k_logaddexp_##S(T a, T b) {                                  \
    if (a == b) /* inf, inf gives inf, not inf - inf = NaN */                  \
      return a + (T)CN_K_LOGE2;                                                \
    T d = a - b;                                                               \
    if (d > 0)                                                                 \
      return a + log1p##F(exp##F(-d));                                         \
    if (d <= 0)                                                                \
      return b + log1p##F(exp##F(d));                                          \
    return d; /* NaN */                                                        \
  }                                                                            \
  static inline T k_atan2_##S(T a, T b) { return atan2##F(a, b); }             \
  static inline T k_hypot_##S(T a, T b) { return hypot##F(a, b); }             \
  static inline T k_copysign_##S(T a, T b) { return copysign##F(a, b); }       \
  static inline T k_abs_##S(T a) { return fabs##F(a); }                        \
  static inline T k_sign_##S(T a) {                                            \
    return a > 0 ? (T)1 : a < 0 ? (T)-1 : a == 0 ? (T)0 : a;                   \
  }                                                                            \
  static inline T k_reciprocal_##S(T a) { return (T)1 / a; }                   \
  static inline T k_sqrt_##S(T a) { return sqrt##F(a); }                       \
  static inline T k_cbrt_##S(T a) { return cbrt##F(a); }                       \
  static inline T k_exp_##S(T a) { return exp##F(a); }                         \
  static inline T k_exp2_##S(T a) { return exp2##F(a); }                       \
  static inline T k_expm1_##S(T a) { return expm1##F(a); }                     \
  static inline T k_log_##S(T a) { return log##F(a); }                         \
  static inline T k_log1p_##S(T a) { return log1p##F(a); }                     \
  static inline T k_log2_##S(T a) { return log2##F(a); }                       \
  static inline T k_log10_##S(T a) { return log10##F(a); }                     \
  static inline T k_sin_##S(T a) { return sin##F(a); }                         \
  static inline T k_cos_##S(T a) { return cos##F(a); }                         \
  static inline T k_tan_##S(T a) { return tan##F(a); }                         \
  static inline T k_asin_##S(T a) { return asin##F(a); }                       \
  static inline T k_acos_##S(T a) { return acos##F(a); }                       \
  static inline T k_atan_##S(T a) { return atan##F(a); }                       \
  static inline T k_sinh_##S(T a) { return sinh##F(a); }                       \
  static inline T k_cosh_##S(T a) { return cosh##F(a); }                       \
  static inline T k_tanh_##S(T a) { return tanh##F(a); }                       \
  static inline T k_asinh_##S(T a) { return asinh##F(a); }                     \
  static inline T k_acosh_##S(T a) { return acosh##F(a); }                     \
  static inline T k_atanh_##S(T a) { return atanh##F(a); }                     \
  static inline T k_floor_##S(T a) { return floor##F(a); }                     \
  static inline T k_ceil_##S(T a) { return ceil##F(a); }                       \
  static inline T k_trunc_##S(T a) { return trunc##F(a); }                     \
  static inline T k_rint_##S(T a) { return rint##F(a); }                       \
  static inline bool k_isnan_##S(T a) { return isnan(a); }                     \
  static inline bool k_isinf_##S(T a) { return isinf(a); }                     \
  static inline bool k_isfinite_##S(T a) { return isfinite(a); }               \
  static inline bool k_signbit_##S(T a) { return signbit(a) != 0; }            \
  static inline bool k_lt_##S(T a, T b) { return a < b; }                      \
  static inline bool k_le_##S(T a, T b) { return a <= b; }                     \
  static inline T k_real_##S(T a) { return a; }                                \
  static inline T k_imag_##S(T a) { return (void)a, (T)0; }                    \
  static inline T k_conj_##S(T a) { return a; }                                \
  /* np.angle of a real number is arctan2(0, x): pi for -0.0 and x < 0 */      \
  static inline T k_angle_##S(T a) { return atan2##F((T)0, a); }

CN_K_FLOAT(float, f32, f)
CN_K_FLOAT(double, f64, )

/* ---- complex ----------------------------------------------------------- */

/* T complex type, R its real type, S suffix, F libm suffix, MK constructor
 * (CMPLXF / CMPLX keep inf and NaN parts intact). */
#define CN_K_CPLX(T, R, S, F, MK)                                              \
  static inline T k_cmul_##S(T a, T b) { /* NumPy's plain product */           \
    R ar = creal##F(a), ai = cimag##F(a);                                      \
    R br = creal##F(b), bi = cimag##F(b);                                      \
    return MK(ar * br - ai * bi, ar * bi + ai * br);                           \
  }                                                                            \
  /* NumPy's complex division (Smith's method, x / 0 per component); C's       \
   * a / b would apply Annex G's recovery, which NumPy does not. */            \
  static inline T k_cdiv_##S(T a, T b) {                                       \
    R ar = creal##F(a), ai = cimag##F(a);                                      \
    R br = creal##F(b), bi = cimag##F(b);                                      \
    R abr = fabs##F(br), abi = fabs##F(bi);                                    \
    if (abr >= abi) {                                                          \
      if (abr == 0 && abi == 0)                                                \
        return MK(ar / abr, ai / abi);                                         \
      R rat = bi / br, scl = (R)1 / (br + bi * rat);                           \
      return MK((ar + ai * rat) * scl, (ai - ar * rat) * scl);                 \
    }                                                                          \
    R rat = br / bi, scl = (R)1 / (bi + br * rat);                             \
    return MK((ar * rat + ai) * scl, (ai * rat - ar) * scl);                   \
  }                                                                            \
  /* NumPy's npy_cpow: exact small integer powers by squaring, cpow else. */   \
  static inline T k_pow_##S(T a, T b) {                                        \
    R ar = creal##F(a), ai = cimag##F(a), br = creal##F(b), bi = cimag##F(b);  \
    if (br == 0 && bi == 0)                                                    \
      return MK(1, 0);                                                         \
    if (ar == 0 && ai == 0) {                                                  \
      if (br > 0) /* NumPy: 0 for any exponent with a positive real part */    \
        return MK(0, 0);                                                       \
      return MK(NAN, NAN);                                                     \
    }                                                                          \
    if (bi == 0 && br > -100 && br < 100 && (R)(int)br == br) {                \
      int n = (int)br;                                                         \
      if (n == 1)                                                              \
        return a;                                                              \
      if (n == 2)                                                              \
        return k_cmul_##S(a, a);                                               \
      if (n == 3)                                                              \
        return k_cmul_##S(a, k_cmul_##S(a, a));                                \
      int m = n < 0 ? -n : n;                                                  \
      T acc = MK(1, 0), p = a;                                                 \
      for (;;) {                                                               \
        if (m & 1)                                                             \
          acc = k_cmul_##S(acc, p);                                            \
        m >>= 1;                                                               \
        if (!m)                                                                \
          break;                                                               \
        p = k_cmul_##S(p, p);                                                  \
      }                                                                        \
      return n < 0 ? k_reciprocal_##S(acc) : acc;                              \
    }                                                                          \
    return cpow##F(a, b);                                                      \
  }                                                                            \
  /* Lexicographic order; a NaN part makes the real-part test fail. */         \
  static inline bool k_lt_##S(T a, T b) {                                      \
    R ar = creal##F(a), ai = cimag##F(a), br = creal##F(b), bi = cimag##F(b);  \
    return (ar < br && !isnan(ai) && !isnan(bi)) || (ar == br && ai < bi);     \
  }                                                                            \
  static inline bool k_le_##S(T a, T b) {                                      \
    R ar = creal##F(a), ai = cimag##F(a), br = creal##F(b), bi = cimag##F(b);  \
    return (ar < br && !isnan(ai) && !isnan(bi)) || (ar == br && ai <= bi);    \
  }                                                                            \
  static inline bool k_isnan_##S(T a) {                                        \
    return isnan(creal##F(a)) || isnan(cimag##F(a));                           \
  }                                                                            \
  static inline bool k_isinf_##S(T a) {                                        \
    return isinf(creal##F(a)) || isinf(cimag##F(a));                           \
  }                                                                            \
  static inline bool k_isfinite_##S(T a) {                                     \
    return isfinite(creal##F(a)) && isfinite(cimag##F(a));                     \
  }                                                                            \
  static inline bool k_ge_##S(T a, T b) {                                      \
    R ar = creal##F(a), ai = cimag##F(a), br = creal##F(b), bi = cimag##F(b);  \
    return (ar > br && !isnan(ai) && !isnan(bi)) || (ar == br && ai >= bi);    \
  }                                                                            \
  static inline T k_maximum_##S(T a, T b) {                                    \
    return (k_ge_##S(a, b) || k_isnan_##S(a)) ? a : b;                         \
  }                                                                            \
  static inline T k_minimum_##S(T a, T b) {                                    \
    return (k_le_##S(a, b) || k_isnan_##S(a)) ? a : b;                         \
  }                                                                            \
  static inline T k_fmax_##S(T a, T b) {                                       \
    return (k_ge_##S(a, b) || k_isnan_##S(b)) ? a : b;                         \
  }                                                                            \
  static inline T k_fmin_##S(T a, T b) {                                       \
    return (k_le_##S(a, b) || k_isnan_##S(b)) ? a : b;                         \
  }                                                                            \
  static inline R k_abs_##S(T a) {                                             \
    return hypot##F(creal##F(a), cimag##F(a));                                 \
  }                                                                            \
  /* NumPy 2: z / |z|, 0 for 0, unit axis direction for one infinite part. */  \
  static inline T k_sign_##S(T a) {                                            \
    R re = creal##F(a), im = cimag##F(a), m = hypot##F(re, im);                \
    if (isnan(m))                                                              \
      return MK(NAN, NAN);                                                     \
    if (isinf(m)) {                                                            \
      if (isinf(re))                                                           \
        return isinf(im) ? MK(NAN, NAN) : MK(re > 0 ? 1 : -1, 0);              \
      return MK(0, im > 0 ? 1 : -1);                                           \
    }                                                                          \
    if (m == 0)                                                                \
      return MK(0, 0);                                                         \
    return MK(re / m, im / m);                                                 \
  }                                                                            \
  /* Smith's algorithm, as NumPy's nc_reciprocal. */                           \
  static inline T k_reciprocal_##S(T a) {                                      \
    R re = creal##F(a), im = cimag##F(a);                                      \
    if (fabs##F(im) <= fabs##F(re)) {                                          \
      R r = im / re, d = re + im * r;                                          \
      return MK(1 / d, -r / d);                                                \
    }                                                                          \
    R r = re / im, d = re * r + im;                                            \
    return MK(r / d, -1 / d);                                                  \
  }                                                                            \
  static inline T k_sqrt_##S(T a) { return csqrt##F(a); }                      \
  static inline T k_exp_##S(T a) { return cexp##F(a); }                        \
  static inline T k_exp2_##S(T a) {                                            \
    return cexp##F(                                                            \
        MK(creal##F(a) * (R)CN_K_LOGE2, cimag##F(a) * (R)CN_K_LOGE2));         \
  }                                                                            \
  /* a non-finite a: cexp's Annex G values less one (the Array API's)  */   \
  static inline T k_expm1_##S(T a) {                                           \
    R re = creal##F(a), im = cimag##F(a), h = sin##F(im / 2);                  \
    if (!isfinite(re) || !isfinite(im)) {                                      \
      T e = cexp##F(a);                                                        \
      return MK(creal##F(e) - 1, cimag##F(e));                                 \
    }                                                                          \
    return MK(expm1##F(re) * cos##F(im) - 2 * h * h, exp##F(re) * sin##F(im)); \
  }                                                                            \
  static inline T k_log_##S(T a) { return clog##F(a); }                        \
  static inline T k_log1p_##S(T a) {                                           \
    R re = creal##F(a) + 1, im = cimag##F(a);                                  \
    return MK(log##F(hypot##F(re, im)), atan2##F(im, re));                     \
  }                                                                            \
  static inline T k_log2_##S(T a) {                                            \
    T l = clog##F(a);                                                          \
    return MK(creal##F(l) * (R)CN_K_LOG2E, cimag##F(l) * (R)CN_K_LOG2E);       \
  }                                                                            \
  static inline T k_log10_##S(T a) {                                           \
    T l = clog##F(a);                                                          \
    return MK(creal##F(l) * (R)CN_K_LOG10E, cimag##F(l) * (R)CN_K_LOG10E);     \
  }                                                                            \
  static inline T k_sin_##S(T a) { return csin##F(a); }                        \
  static inline T k_cos_##S(T a) { return ccos##F(a); }                        \
  static inline T k_tan_##S(T a) { return ctan##F(a); }                        \
  static inline T k_asin_##S(T a) { return casin##F(a); }                      \
  static inline T k_acos_##S(T a) { return cacos##F(a); }                      \
  static inline T k_atan_##S(T a) { return catan##F(a); }                      \
  static inline T k_sinh_##S(T a) { return csinh##F(a); }                      \
  static inline T k_cosh_##S(T a) { return ccosh##F(a); }                      \
  static inline T k_tanh_##S(T a) { return ctanh##F(a); }                      \
  static inline T k_asinh_##S(T a) { return casinh##F(a); }                    \
  static inline T k_acosh_##S(T a) { return cacosh##F(a); }                    \
  static inline T k_atanh_##S(T a) { return catanh##F(a); }                    \
  static inline T k_rint_##S(T a) {                                            \
    return MK(rint##F(creal##F(a)), rint##F(cimag##F(a)));                     \
  }                                                                            \
  static inline R k_real_##S(T a) { return creal##F(a); }                      \
  static inline R k_imag_##S(T a) { return cimag##F(a); }                      \
  static inline T k_conj_##S(T a) { return conj##F(a); }                       \
  static inline R k_angle_##S(T a) { return carg##F(a); }

/* k_reciprocal is used by k_pow before its definition. */
static inline cn_c64_t k_reciprocal_c64(cn_c64_t a);
static inline cn_c128_t k_reciprocal_c128(cn_c128_t a);
CN_K_CPLX(cn_c64_t, float, c64, f, CMPLXF)
CN_K_CPLX(cn_c128_t, double, c128, , CMPLX)

/* ---- the names ops.def uses --------------------------------------------- */

#define k_floordiv(a, b)                                                       \
  _Generic((a), CN_KG_I(k_floordiv), CN_KG_U(k_floordiv),                      \
           CN_KG_F(k_floordiv))(a, b)
#define k_mod(a, b)                                                            \
  _Generic((a), CN_KG_I(k_mod), CN_KG_U(k_mod), CN_KG_F(k_mod))(a, b)
/* a * b and a / b, complex as NumPy's loops compute them (C's complex
 * operators would rescue some inf/NaN results that NumPy leaves NaN). */
#define k_mul(a, b)                                                            \
  _Generic((a), cn_c64_t                                                       \
           : k_cmul_c64((cn_c64_t)(a), (cn_c64_t)(b)), cn_c128_t               \
           : k_cmul_c128((cn_c128_t)(a), (cn_c128_t)(b)), default              \
           : (a) * (b))
#define k_div(a, b)                                                            \
  _Generic((a), cn_c64_t                                                       \
           : k_cdiv_c64((cn_c64_t)(a), (cn_c64_t)(b)), cn_c128_t               \
           : k_cdiv_c128((cn_c128_t)(a), (cn_c128_t)(b)), default              \
           : (a) / (b))
#define k_pow(a, b)                                                            \
  _Generic((a), CN_KG_I(k_pow), CN_KG_U(k_pow), CN_KG_INEXACT(k_pow))(a, b)
#define k_maximum(a, b) _Generic((a), CN_KG_ALL(k_maximum))(a, b)
#define k_minimum(a, b) _Generic((a), CN_KG_ALL(k_minimum))(a, b)
#define k_fmax(a, b) _Generic((a), CN_KG_ALL(k_fmax))(a, b)
#define k_fmin(a, b) _Generic((a), CN_KG_ALL(k_fmin))(a, b)
#define k_logaddexp(a, b) _Generic((a), CN_KG_F(k_logaddexp))(a, b)
#define k_atan2(a, b) _Generic((a), CN_KG_F(k_atan2))(a, b)
#define k_hypot(a, b) _Generic((a), CN_KG_F(k_hypot))(a, b)
#define k_copysign(a, b) _Generic((a), CN_KG_F(k_copysign))(a, b)
#define k_abs(a) _Generic((a), CN_KG_ALL(k_abs))(a)
#define k_sign(a)                                                              \
  _Generic((a), CN_KG_I(k_sign), CN_KG_U(k_sign), CN_KG_INEXACT(k_sign))(a)
#define k_reciprocal(a)                                                        \
  _Generic((a), CN_KG_I(k_reciprocal), CN_KG_U(k_reciprocal),                  \
           CN_KG_INEXACT(k_reciprocal))(a)
#define k_sqrt(a) _Generic((a), CN_KG_INEXACT(k_sqrt))(a)
#define k_cbrt(a) _Generic((a), CN_KG_F(k_cbrt))(a)
#define k_exp(a) _Generic((a), CN_KG_INEXACT(k_exp))(a)
#define k_exp2(a) _Generic((a), CN_KG_INEXACT(k_exp2))(a)
#define k_expm1(a) _Generic((a), CN_KG_INEXACT(k_expm1))(a)
#define k_log(a) _Generic((a), CN_KG_INEXACT(k_log))(a)
#define k_log1p(a) _Generic((a), CN_KG_INEXACT(k_log1p))(a)
#define k_log2(a) _Generic((a), CN_KG_INEXACT(k_log2))(a)
#define k_log10(a) _Generic((a), CN_KG_INEXACT(k_log10))(a)
#define k_sin(a) _Generic((a), CN_KG_INEXACT(k_sin))(a)
#define k_cos(a) _Generic((a), CN_KG_INEXACT(k_cos))(a)
#define k_tan(a) _Generic((a), CN_KG_INEXACT(k_tan))(a)
#define k_asin(a) _Generic((a), CN_KG_INEXACT(k_asin))(a)
#define k_acos(a) _Generic((a), CN_KG_INEXACT(k_acos))(a)
#define k_atan(a) _Generic((a), CN_KG_INEXACT(k_atan))(a)
#define k_sinh(a) _Generic((a), CN_KG_INEXACT(k_sinh))(a)
#define k_cosh(a) _Generic((a), CN_KG_INEXACT(k_cosh))(a)
#define k_tanh(a) _Generic((a), CN_KG_INEXACT(k_tanh))(a)
#define k_asinh(a) _Generic((a), CN_KG_INEXACT(k_asinh))(a)
#define k_acosh(a) _Generic((a), CN_KG_INEXACT(k_acosh))(a)
#define k_atanh(a) _Generic((a), CN_KG_INEXACT(k_atanh))(a)
#define k_floor(a) _Generic((a), CN_KG_REAL(k_floor))(a)
#define k_ceil(a) _Generic((a), CN_KG_REAL(k_ceil))(a)
#define k_trunc(a) _Generic((a), CN_KG_REAL(k_trunc))(a)
#define k_rint(a) _Generic((a), CN_KG_INEXACT(k_rint))(a)
#define k_isnan(a) _Generic((a), CN_KG_ALL(k_isnan))(a)
#define k_isinf(a) _Generic((a), CN_KG_ALL(k_isinf))(a)
#define k_isfinite(a) _Generic((a), CN_KG_ALL(k_isfinite))(a)
#define k_signbit(a)                                                           \
  _Generic((a), CN_KG_B(k_signbit), CN_KG_I(k_signbit), CN_KG_U(k_signbit),    \
           CN_KG_F(k_signbit))(a)
#define k_lt(a, b) _Generic((a), CN_KG_ALL(k_lt))(a, b)
#define k_le(a, b) _Generic((a), CN_KG_ALL(k_le))(a, b)
#define k_invert(a)                                                            \
  _Generic((a), CN_KG_B(k_invert), CN_KG_I(k_invert), CN_KG_U(k_invert))(a)
#define k_shl(a, b) _Generic((a), CN_KG_I(k_shl), CN_KG_U(k_shl))(a, b)
#define k_shr(a, b) _Generic((a), CN_KG_I(k_shr), CN_KG_U(k_shr))(a, b)
#define k_real(a) _Generic((a), CN_KG_ALL(k_real))(a)
#define k_imag(a) _Generic((a), CN_KG_ALL(k_imag))(a)
#define k_conj(a) _Generic((a), CN_KG_ALL(k_conj))(a)
#define k_angle(a) _Generic((a), CN_KG_INEXACT(k_angle))(a)

/* ---- more NumPy ufuncs: fmod, gcd, lcm, nextafter, spacing, logaddexp2,
 * heaviside --------------------------------------------------------------- */

/* C's remainder (sign of the dividend); x % 0 gives 0 and MIN % -1 gives 0
 * instead of trapping, as NumPy's integer fmod. */
/* NEG(a) is a < 0 for the signed types and 0 for the unsigned ones (no
 * always-false comparisons). */
#define CN_K_INT_MORE(T, S, U, NEG)                                            \
  static inline T k_fmod_##S(T a, T b) {                                       \
    if (b == 0 || (NEG(b) && b == (T)-1))                                      \
      return 0;                                                                \
    return (T)(a % b);                                                         \
  }                                                                            \
  static inline U k_uabs_##S(T a) { return NEG(a) ? (U)0 - (U)a : (U)a; }      \
  /* Euclid on magnitudes in the unsigned type: gcd(MIN, 0) wraps as NumPy */  \
  static inline T k_gcd_##S(T a, T b) {                                        \
    U x = k_uabs_##S(a), y = k_uabs_##S(b);                                    \
    while (y) {                                                                \
      U t = x % y;                                                             \
      x = y;                                                                   \
      y = t;                                                                   \
    }                                                                          \
    return (T)x;                                                               \
  }                                                                            \
  static inline T k_lcm_##S(T a, T b) {                                        \
    U g = (U)k_gcd_##S(a, b);                                                  \
    if (g == 0)                                                                \
      return 0;                                                                \
    return (T)(k_uabs_##S(a) / g * k_uabs_##S(b));                             \
  }
#define CN_K_NEG_S(a) ((a) < 0)
#define CN_K_NEG_U(a) ((void)(a), 0)
CN_K_INT_MORE(int8_t, i8, uint8_t, CN_K_NEG_S)
CN_K_INT_MORE(int16_t, i16, uint16_t, CN_K_NEG_S)
CN_K_INT_MORE(int32_t, i32, uint32_t, CN_K_NEG_S)
CN_K_INT_MORE(int64_t, i64, uint64_t, CN_K_NEG_S)
CN_K_INT_MORE(uint8_t, u8, uint8_t, CN_K_NEG_U)
CN_K_INT_MORE(uint16_t, u16, uint16_t, CN_K_NEG_U)
CN_K_INT_MORE(uint32_t, u32, uint32_t, CN_K_NEG_U)
CN_K_INT_MORE(uint64_t, u64, uint64_t, CN_K_NEG_U)

#define CN_K_FLOAT_MORE(T, S, F)                                               \
  static inline T k_fmod_##S(T a, T b) { return fmod##F(a, b); }               \
  static inline T k_nextafter_##S(T a, T b) { return nextafter##F(a, b); }     \
  /* distance to the next value away from zero (NumPy: +tiny for -0.0, inf     \
   * past the largest value, NaN for inf and NaN) */                           \
  static inline T k_spacing_##S(T a) {                                         \
    if (a == 0)                                                                \
      return nextafter##F((T)0, (T)1);                                         \
    return nextafter##F(a, copysign##F((T)INFINITY, a)) - a;                   \
  }                                                                            \
  static inline T k_logaddexp2_##S(T a, T b) {                                 \
    if (a == b) /* equal infinities too */                                     \
      return a + 1;                                                            \
    T d = a - b;                                                               \
    if (d > 0)                                                                 \
      return a + log1p##F(exp2##F(-d)) * (T)CN_K_LOG2E;                        \
    if (d <= 0)                                                                \
      return b + log1p##F(exp2##F(d)) * (T)CN_K_LOG2E;                         \
    return d; /* NaN */                                                        \
  }                                                                            \
  static inline T k_heaviside_##S(T a, T b) {                                  \
    return a < 0 ? (T)0 : a > 0 ? (T)1 : a == 0 ? b : a;                       \
  }
CN_K_FLOAT_MORE(float, f32, f)
CN_K_FLOAT_MORE(double, f64, )

#define k_fmod(a, b)                                                           \
  _Generic((a), CN_KG_I(k_fmod), CN_KG_U(k_fmod), CN_KG_F(k_fmod))(a, b)
#define k_gcd(a, b) _Generic((a), CN_KG_I(k_gcd), CN_KG_U(k_gcd))(a, b)
#define k_lcm(a, b) _Generic((a), CN_KG_I(k_lcm), CN_KG_U(k_lcm))(a, b)
#define k_nextafter(a, b) _Generic((a), CN_KG_F(k_nextafter))(a, b)
#define k_spacing(a) _Generic((a), CN_KG_F(k_spacing))(a)
#define k_logaddexp2(a, b) _Generic((a), CN_KG_F(k_logaddexp2))(a, b)
#define k_heaviside(a, b) _Generic((a), CN_KG_F(k_heaviside))(a, b)

/* ---- special functions (core/special_scalar.h) -------------------------- */

#include "../special_scalar.h"

/* erf and erfc are libm's in each precision; the others compute in float64
 * (float32 rounds the result). */
static inline float k_erf_f32(float a) { return erff(a); }
static inline double k_erf_f64(double a) { return erf(a); }
static inline float k_erfc_f32(float a) { return erfcf(a); }
static inline double k_erfc_f64(double a) { return erfc(a); }
#define k_erf(a) _Generic((a), CN_KG_F(k_erf))(a)
#define k_erfc(a) _Generic((a), CN_KG_F(k_erfc))(a)
#define CN_K_SP1(fn)                                                           \
  static inline float k_##fn##_f32(float a) {                                  \
    return (float)cn_sp_##fn((double)a);                                       \
  }                                                                            \
  static inline double k_##fn##_f64(double a) { return cn_sp_##fn(a); }
#define CN_K_SP2(fn)                                                           \
  static inline float k_##fn##_f32(float a, float b) {                         \
    return (float)cn_sp_##fn((double)a, (double)b);                            \
  }                                                                            \
  static inline double k_##fn##_f64(double a, double b) {                      \
    return cn_sp_##fn(a, b);                                                   \
  }
#define CN_K_SP3(fn)                                                           \
  static inline float k_##fn##_f32(float a, float b, float c) {                \
    return (float)cn_sp_##fn((double)a, (double)b, (double)c);                 \
  }                                                                            \
  static inline double k_##fn##_f64(double a, double b, double c) {            \
    return cn_sp_##fn(a, b, c);                                                \
  }
CN_SP_UNARY(CN_K_SP1)
CN_SP_BINARY(CN_K_SP2)
CN_SP_TERNARY(CN_K_SP3)
#undef CN_K_SP1
#undef CN_K_SP2
#undef CN_K_SP3
#define k_sp1(fn, a)                                                           \
  _Generic((a), float : k_##fn##_f32, double : k_##fn##_f64)(a)
#define k_sp2(fn, a, b)                                                        \
  _Generic((a), float : k_##fn##_f32, double : k_##fn##_f64)(a, b)
#define k_sp3(fn, a, b, c)                                                     \
  _Generic((a), float : k_##fn##_f32, double : k_##fn##_f64)(a, b, c)

#endif
