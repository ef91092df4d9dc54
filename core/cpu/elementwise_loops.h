/* Generates the typed loops of every op of core/ops.def for one compute
 * dtype. Included once by each core/cpu/elementwise_<dtype>.c after it
 * defines:
 *   CN_EW_T     the C compute type (CN_CPU_DTYPES' C type)
 *   CN_EW_SFX   the dtype suffix (f64), naming the table
 *   CN_EW_KIND  the dtype class of CN_CPU_DTYPES (kb, ki, ku, kf, kc)
 * and defines the table cn_ew_kernels_<SFX>[CN_OP_COUNT_] (NULL where the
 * op has no loop for the dtype). Which ops have loops follows from the
 * class and the CN_LOOP_CLASS_* rows of core/internal.h, the rows
 * cn_loop_class_has reads. */

/* NumPy integer arithmetic wraps; in C signed overflow is undefined, so
 * these loops are compiled with wrapping semantics. no-trapping-math lets
 * floor/ceil/trunc/rint vectorise (FP traps are never enabled). */
#pragma GCC optimize("wrapv", "no-trapping-math")

#include <string.h>

#include "elementwise.h"
#include "scalar.h"

#define CN_EW_CAT_(a, b) a##b
#define CN_EW_CAT(a, b) CN_EW_CAT_(a, b)
#define CN_EW_FN(name, part) CN_EW_CAT(cn_ew_##name##part##_, CN_EW_SFX)

/* The real type of the compute type (complex64 -> float). */
#define CN_EW_R_kb CN_EW_T
#define CN_EW_R_ki CN_EW_T
#define CN_EW_R_ku CN_EW_T
#define CN_EW_R_kf CN_EW_T
#define CN_EW_R_kc __typeof__(__real__(CN_EW_T) 0)
#define CN_EW_R CN_EW_CAT(CN_EW_R_, CN_EW_KIND)

/* Attributes of the contiguous loops: vroundpd, vdivpd and wide compares
 * pay off for floats. */
#define CN_EW_CLONES_kb
#define CN_EW_CLONES_ki
#define CN_EW_CLONES_ku
#define CN_EW_CLONES_kf CN_TARGET_CLONES("avx512f", "avx2", "default")
#define CN_EW_CLONES_kc
#define CN_EW_CLONES CN_EW_CAT(CN_EW_CLONES_, CN_EW_KIND)
/* The integer loops that pay for clones (vector division and
 * conversions). */
#define CN_EW_CLONES_INT CN_TARGET_CLONES("avx2", "default")

/* CN_EW_IN(F) for F a CN_LOOP_CLASS_* row: 1 when the dtype's class is in
 * the loop class. */
#define CN_EW_COL_kb(b, i, u, f, c) b
#define CN_EW_COL_ki(b, i, u, f, c) i
#define CN_EW_COL_ku(b, i, u, f, c) u
#define CN_EW_COL_kf(b, i, u, f, c) f
#define CN_EW_COL_kc(b, i, u, f, c) c
#define CN_EW_COL CN_EW_CAT(CN_EW_COL_, CN_EW_KIND)

#define CN_EW_OT_SAME CN_EW_T
#define CN_EW_OT_BOOL bool
#define CN_EW_OT_REAL CN_EW_R

#define CN_EW_LD(ptr, i, st) (*(const CN_EW_T *)((ptr) + (i) * (st)))

/* clang-format off: it spaces "OT * o" (OT is a macro parameter) */
/* Unary: contiguous loop, then any strides. */
#define CN_EW_DEF_1(name, OT, expr)                                            \
  static CN_EW_CLONES void CN_EW_FN(name, _c)(int64_t n, OT * o,               \
                                              const CN_EW_T *pa) {             \
    CN_IVDEP for (int64_t i = 0; i < n; i++) {                                 \
      CN_EW_T a = pa[i];                                                       \
      o[i] = (OT)(expr);                                                       \
    }                                                                          \
  }                                                                            \
  static void CN_EW_FN(name, )(int64_t n, char *const *p, const int64_t *s) {  \
    if (s[0] == sizeof(OT) && s[1] == sizeof(CN_EW_T)) {                       \
      CN_EW_FN(name, _c)(n, (OT *)p[0], (const CN_EW_T *)p[1]);                \
      return;                                                                  \
    }                                                                          \
    char *po = p[0];                                                           \
    const char *p1 = p[1];                                                     \
    for (int64_t i = 0; i < n; i++) {                                          \
      CN_EW_T a = CN_EW_LD(p1, i, s[1]);                                       \
      *(OT *)(po + i * s[0]) = (OT)(expr);                                     \
    }                                                                          \
  }

/* Binary: contiguous, one stride-0 (scalar) operand, any strides. */
#define CN_EW_DEF_2(name, OT, expr)                                            \
  static CN_EW_CLONES void CN_EW_FN(name, _cc)(                                \
      int64_t n, OT * o, const CN_EW_T *pa, const CN_EW_T *pb) {               \
    CN_IVDEP for (int64_t i = 0; i < n; i++) {                                 \
      CN_EW_T a = pa[i], b = pb[i];                                            \
      o[i] = (OT)(expr);                                                       \
    }                                                                          \
  }                                                                            \
  static CN_EW_CLONES void CN_EW_FN(name, _cs)(int64_t n, OT * o,              \
                                               const CN_EW_T *pa, CN_EW_T b) { \
    CN_IVDEP for (int64_t i = 0; i < n; i++) {                                 \
      CN_EW_T a = pa[i];                                                       \
      o[i] = (OT)(expr);                                                       \
    }                                                                          \
  }                                                                            \
  static CN_EW_CLONES void CN_EW_FN(name, _sc)(int64_t n, OT * o, CN_EW_T a,   \
                                               const CN_EW_T *pb) {            \
    CN_IVDEP for (int64_t i = 0; i < n; i++) {                                 \
      CN_EW_T b = pb[i];                                                       \
      o[i] = (OT)(expr);                                                       \
    }                                                                          \
  }                                                                            \
  static void CN_EW_FN(name, )(int64_t n, char *const *p, const int64_t *s) {  \
    const int64_t z = sizeof(CN_EW_T);                                         \
    if (s[0] == sizeof(OT)) {                                                  \
      if (s[1] == z && s[2] == z) {                                            \
        CN_EW_FN(name, _cc)                                                    \
        (n, (OT *)p[0], (const CN_EW_T *)p[1], (const CN_EW_T *)p[2]);         \
        return;                                                                \
      }                                                                        \
      if (s[1] == z && s[2] == 0) {                                            \
        CN_EW_FN(name, _cs)                                                    \
        (n, (OT *)p[0], (const CN_EW_T *)p[1], *(const CN_EW_T *)p[2]);        \
        return;                                                                \
      }                                                                        \
      if (s[1] == 0 && s[2] == z) {                                            \
        CN_EW_FN(name, _sc)                                                    \
        (n, (OT *)p[0], *(const CN_EW_T *)p[1], (const CN_EW_T *)p[2]);        \
        return;                                                                \
      }                                                                        \
    }                                                                          \
    char *po = p[0];                                                           \
    const char *p1 = p[1], *p2 = p[2];                                         \
    for (int64_t i = 0; i < n; i++) {                                          \
      CN_EW_T a = CN_EW_LD(p1, i, s[1]), b = CN_EW_LD(p2, i, s[2]);            \
      *(OT *)(po + i * s[0]) = (OT)(expr);                                     \
    }                                                                          \
  }

/* Ternary (clip): contiguous, contiguous x with scalar bounds, any. */
#define CN_EW_DEF_3(name, OT, expr)                                            \
  static CN_EW_CLONES void CN_EW_FN(name, _ccc)(                               \
      int64_t n, OT * o, const CN_EW_T *pa, const CN_EW_T *pb,                 \
      const CN_EW_T *pc) {                                                     \
    CN_IVDEP for (int64_t i = 0; i < n; i++) {                                 \
      CN_EW_T a = pa[i], b = pb[i], c = pc[i];                                 \
      o[i] = (OT)(expr);                                                       \
    }                                                                          \
  }                                                                            \
  static CN_EW_CLONES void CN_EW_FN(name, _css)(                               \
      int64_t n, OT * o, const CN_EW_T *pa, CN_EW_T b, CN_EW_T c) {            \
    CN_IVDEP for (int64_t i = 0; i < n; i++) {                                 \
      CN_EW_T a = pa[i];                                                       \
      o[i] = (OT)(expr);                                                       \
    }                                                                          \
  }                                                                            \
  static void CN_EW_FN(name, )(int64_t n, char *const *p, const int64_t *s) {  \
    const int64_t z = sizeof(CN_EW_T);                                         \
    if (s[0] == sizeof(OT) && s[1] == z) {                                     \
      if (s[2] == z && s[3] == z) {                                            \
        CN_EW_FN(name, _ccc)                                                   \
        (n, (OT *)p[0], (const CN_EW_T *)p[1], (const CN_EW_T *)p[2],          \
         (const CN_EW_T *)p[3]);                                               \
        return;                                                                \
      }                                                                        \
      if (s[2] == 0 && s[3] == 0) {                                            \
        CN_EW_FN(name, _css)                                                   \
        (n, (OT *)p[0], (const CN_EW_T *)p[1], *(const CN_EW_T *)p[2],         \
         *(const CN_EW_T *)p[3]);                                              \
        return;                                                                \
      }                                                                        \
    }                                                                          \
    char *po = p[0];                                                           \
    const char *p1 = p[1], *p2 = p[2], *p3 = p[3];                             \
    for (int64_t i = 0; i < n; i++) {                                          \
      CN_EW_T a = CN_EW_LD(p1, i, s[1]), b = CN_EW_LD(p2, i, s[2]),            \
              c = CN_EW_LD(p3, i, s[3]);                                       \
      *(OT *)(po + i * s[0]) = (OT)(expr);                                     \
    }                                                                          \
  }

/* clang-format on */

/* Expands to the loops when the dtype is in the op's class. */
#define CN_EW_GEN_0(name, nin, out, expr)
#define CN_EW_GEN_1(name, nin, out, expr)                                      \
  CN_EW_DEF_##nin(name, CN_EW_OT_##out, expr)
#define CN_OP(name, nin, loops, out, bools, ints, weak, expr, doc)             \
  CN_EW_CAT(CN_EW_GEN_, CN_LOOP_CLASS_##loops(CN_EW_COL))(name, nin, out, expr)
#include "../ops.def"
#undef CN_OP

/* Integer floor_divide and remainder by floating-point division. The
 * integer divider is not pipelined (tens of cycles per element); a
 * correctly rounded quotient of two integers below 2^p in magnitude (p the
 * mantissa width: float for 8 and 16 bits, double otherwise) never rounds
 * across an integer, so floor(fa / fb) is the exact floor quotient, and
 * a - q b is exact too. 64-bit operands take this path per block when every
 * value is within +-2^51 (doubles made from the bits, as AVX2 has no
 * int64 conversions) and idiv otherwise. b == 0 gives 0 and INT_MIN // -1
 * wraps to INT_MIN, as k_floordiv / k_mod. */
#define CN_EW_INTDIV_kb 0
#define CN_EW_INTDIV_ki 1
#define CN_EW_INTDIV_ku 1
#define CN_EW_INTDIV_kf 0
#define CN_EW_INTDIV_kc 0
#if CN_EW_CAT(CN_EW_INTDIV_, CN_EW_KIND)
typedef __typeof__(__builtin_choose_expr(sizeof(CN_EW_T) <= 2, 0.0f,
                                         0.0)) CN_EW_CAT(cn_ew_divf_,
                                                         CN_EW_SFX);
#define CN_EW_DF CN_EW_CAT(cn_ew_divf_, CN_EW_SFX)
#define CN_EW_SIGNED_ki 1
#define CN_EW_SIGNED_ku 0
#define CN_EW_SIGNED CN_EW_CAT(CN_EW_SIGNED_, CN_EW_KIND)
#define CN_EW_DIV_BLOCK 256
/* 1.5 * 2^52: x + this holds integer x (|x| < 2^51) in its low bits. */
#define CN_EW_MAGIC 6755399441055744.0
#define CN_EW_MAGIC_BITS 0x4338000000000000ull

static inline CN_EW_DF CN_EW_FN(divf_of, )(CN_EW_T x) {
  if (sizeof(CN_EW_T) <= 2 || (sizeof(CN_EW_T) == 4 && CN_EW_SIGNED))
    return (CN_EW_DF)(int32_t)x;
  if (sizeof(CN_EW_T) == 4)
    return (CN_EW_DF)((double)(int32_t)((uint32_t)x ^ 0x80000000u) +
                      2147483648.0);
  uint64_t u = (uint64_t)x + CN_EW_MAGIC_BITS;
  double d;
  memcpy(&d, &u, sizeof d);
  return (CN_EW_DF)(d - CN_EW_MAGIC);
}
/* The integer of an integral q that fits T (|q| < 2^51 for 64 bits). */
static inline CN_EW_T CN_EW_FN(of_divf, )(CN_EW_DF q) {
  if (sizeof(CN_EW_T) <= 2 || (sizeof(CN_EW_T) == 4 && CN_EW_SIGNED))
    return (CN_EW_T)(int32_t)q;
  if (sizeof(CN_EW_T) == 4)
    return (CN_EW_T)((uint32_t)(int32_t)((double)q - 2147483648.0) ^
                     0x80000000u);
  double d = (double)q + CN_EW_MAGIC;
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return (CN_EW_T)(u - CN_EW_MAGIC_BITS);
}
static inline CN_EW_DF CN_EW_FN(divf_floor, )(CN_EW_DF x) {
  return _Generic(x, float: floorf, default: floor)(x);
}
/* Nonzero when some value of x[0..m) is out of the exact range. */
static inline uint64_t CN_EW_FN(div_outside, )(int64_t m, const CN_EW_T *x,
                                               int64_t step) {
  uint64_t bad = 0;
  if (sizeof(CN_EW_T) < 8)
    return 0;
  for (int64_t j = 0; j < m; j++)
    bad |= CN_EW_SIGNED ? ((uint64_t)x[j * step] + (1ull << 51)) >> 52
                        : (uint64_t)x[j * step] >> 51;
  return bad;
}

/* o[j] = a[j] // b[j] (rem: a[j] mod b[j]) for j < m, bstep 0 or 1. */
#define CN_EW_DIV_LOOP(sfx, REM)                                               \
  static CN_EW_CLONES_INT void CN_EW_FN(sfx, _fp)(                             \
      int64_t m, CN_EW_T *o, const CN_EW_T *pa, const CN_EW_T *pb,             \
      int64_t bstep) {                                                         \
    CN_IVDEP for (int64_t j = 0; j < m; j++) {                                 \
      CN_EW_T a = pa[j], b = pb[j * bstep];                                    \
      CN_EW_DF fa = CN_EW_FN(divf_of, )(a);                                    \
      CN_EW_DF fb = CN_EW_FN(divf_of, )(b ? b : (CN_EW_T)1);                            \
      CN_EW_DF q = CN_EW_FN(divf_floor, )(fa / fb);                            \
      CN_EW_T r;                                                               \
      if (REM)                                                                 \
        r = CN_EW_FN(of_divf, )(fa - q * fb);                                  \
      else if (CN_EW_SIGNED && b == (CN_EW_T)-1)                               \
        r = (CN_EW_T)(0 - (uint64_t)a);                                        \
      else                                                                     \
        r = CN_EW_FN(of_divf, )(q);                                            \
      o[j] = b ? r : (CN_EW_T)0;                                               \
    }                                                                          \
  }
CN_EW_DIV_LOOP(floordiv, 0)
CN_EW_DIV_LOOP(mod, 1)
#undef CN_EW_DIV_LOOP

/* The same by one divisor b (not 0) through a multiply-high by an
 * invariant multiplier (Granlund and Montgomery; the scheme of libdivide
 * and NumPy's intdiv): an N-bit truncated quotient is a product's high
 * half, an add and two shifts, all of which vectorise (integer vector
 * division does not exist). The high half is taken in a twice-as-wide
 * type; at 64 bits it stays scalar (mulx), since AVX2 has no 64-bit
 * multiply and four 32-bit limb products per element ran slower. */
#define CN_EW_U                                                                \
  __typeof__(__builtin_choose_expr(                                            \
      sizeof(CN_EW_T) == 1, (uint8_t)0,                                        \
      __builtin_choose_expr(                                                   \
          sizeof(CN_EW_T) == 2, (uint16_t)0,                                   \
          __builtin_choose_expr(sizeof(CN_EW_T) == 4, (uint32_t)0,             \
                                (uint64_t)0))))
/* The signed type of the width (the signed branches compile for
 * unsigned dtypes too, dead there). */
#define CN_EW_S                                                                \
  __typeof__(__builtin_choose_expr(                                            \
      sizeof(CN_EW_T) == 1, (int8_t)0,                                         \
      __builtin_choose_expr(                                                   \
          sizeof(CN_EW_T) == 2, (int16_t)0,                                    \
          __builtin_choose_expr(sizeof(CN_EW_T) == 4, (int32_t)0,              \
                                (int64_t)0))))
#define CN_EW_NBITS ((int)(8 * sizeof(CN_EW_T)))
/* The loops' intermediate types: 16 bits for 8-bit dtypes, whose
 * intermediates then stay in 16-bit lanes instead of being packed to bytes
 * and widened again at each step (their values fit 16 bits). */
#define CN_EW_UW                                                               \
  __typeof__(__builtin_choose_expr(sizeof(CN_EW_T) == 1, (uint16_t)0,          \
                                   (CN_EW_U)0))
#define CN_EW_SW                                                               \
  __typeof__(__builtin_choose_expr(sizeof(CN_EW_T) == 1, (int16_t)0,           \
                                   (CN_EW_S)0))
typedef struct {
  CN_EW_U m;    /* the multiplier (for signed: wrapped into T) */
  int sh1, sh2; /* unsigned: the shifts; signed: sh2 alone */
  CN_EW_T d;
  CN_EW_S dsign;
} CN_EW_CAT(cn_ew_idiv_, CN_EW_SFX);
#define CN_EW_IDIV CN_EW_CAT(cn_ew_idiv_, CN_EW_SFX)

/* The high N bits of the 2N-bit product of unsigned a and m. */
static inline CN_EW_U CN_EW_FN(mulhi_u, )(CN_EW_U a, CN_EW_U m) {
  if (sizeof(CN_EW_T) <= 2)
    return (CN_EW_U)(((uint32_t)a * (uint32_t)m) >> (CN_EW_NBITS % 32));
  if (sizeof(CN_EW_T) == 4)
    return (CN_EW_U)(((uint64_t)a * (uint64_t)m) >> 32);
  return (CN_EW_U)(((unsigned __int128)a * m) >> 64);
}
/* The same of signed a and m. */
static inline CN_EW_S CN_EW_FN(mulhi_s, )(CN_EW_S a, CN_EW_S m) {
  if (sizeof(CN_EW_T) <= 2)
    return (CN_EW_S)(((int32_t)a * (int32_t)m) >> (CN_EW_NBITS % 32));
  if (sizeof(CN_EW_T) == 4)
    return (CN_EW_S)(((int64_t)a * (int64_t)m) >> 32);
  return (CN_EW_S)(((__int128)a * m) >> 64);
}

/* The multiplier and shifts of divisor d (d != 0). */
static CN_EW_IDIV CN_EW_FN(idiv_of, )(CN_EW_T d) {
  CN_EW_IDIV v = {0, 0, 0, d, 0};
  const int nb = CN_EW_NBITS;
  unsigned __int128 one = 1;
  if (CN_EW_SIGNED) {
    const CN_EW_S sd = (CN_EW_S)d;
    const uint64_t ad =
        sd < 0 ? (uint64_t)(CN_EW_U)(0 - (CN_EW_U)d) : (uint64_t)sd;
    v.dsign = (CN_EW_S)(sd < 0 ? -1 : 0);
    if (ad == 1) {
      v.m = 1;
    } else {
      /* sh = ceil(log2 |d|) - 1; m = 2^(N+sh) / |d| + 1, wrapped to T */
      v.sh2 = 63 - __builtin_clzll(ad - 1);
      v.m = (CN_EW_U)((one << (nb + v.sh2)) / ad + 1);
    }
  } else {
    const uint64_t ud = (uint64_t)d;
    /* l = ceil(log2 d); m = 2^N (2^l - d) / d + 1 */
    const int l = ud == 1 ? 0 : 64 - __builtin_clzll(ud - 1);
    const unsigned __int128 diff = (one << l) - ud;
    v.m = (CN_EW_U)(((diff << nb) / ud) + 1);
    v.sh1 = l < 1 ? l : 1;
    v.sh2 = l > 1 ? l - 1 : 0;
  }
  return v;
}

/* o[j] = a[j] // d (rem: a[j] mod d) for j < n, floor rounding. */
#define CN_EW_DIVS_LOOP(sfx, REM)                                              \
  static CN_EW_CLONES_INT void CN_EW_FN(sfx, _mulhi)(                          \
      int64_t n, CN_EW_T *o, const CN_EW_T *pa, CN_EW_IDIV v) {                \
    const CN_EW_T d = v.d;                                                     \
    if (CN_EW_SIGNED) {                                                        \
      const CN_EW_S m = (CN_EW_S)v.m, ds = v.dsign, sd = (CN_EW_S)d;           \
      /* the masks tell the vectoriser the counts are below the width, so  \
       * narrow types shift in their own lanes (they always are) */        \
      const int sh = v.sh2 & (CN_EW_NBITS - 1);                                \
      CN_IVDEP for (int64_t j = 0; j < n; j++) {                               \
        const CN_EW_SW a = (CN_EW_S)pa[j];                                     \
        CN_EW_SW q = (CN_EW_SW)(a + CN_EW_FN(mulhi_s, )((CN_EW_S)a, m));       \
        q = (CN_EW_SW)((CN_EW_SW)(q >> sh) -                                   \
                       (CN_EW_SW)(a >> (CN_EW_NBITS - 1)));                    \
        q = (CN_EW_SW)((q ^ ds) - ds);                                         \
        const CN_EW_SW r = (CN_EW_SW)(a - (CN_EW_SW)(q * sd));                 \
        const bool fix = r != 0 && (CN_EW_SW)(r ^ sd) < 0;                     \
        o[j] = (CN_EW_T)(REM ? (CN_EW_SW)(fix ? r + sd : r)                    \
                             : (CN_EW_SW)(fix ? q - 1 : q));                   \
      }                                                                        \
    } else {                                                                   \
      const CN_EW_U m = v.m;                                                   \
      const int sh1 = v.sh1 & 1, sh2 = v.sh2 & (CN_EW_NBITS - 1);              \
      CN_IVDEP for (int64_t j = 0; j < n; j++) {                               \
        const CN_EW_UW a = (CN_EW_U)pa[j];                                     \
        const CN_EW_UW t = CN_EW_FN(mulhi_u, )((CN_EW_U)a, m);                 \
        const CN_EW_UW h = (CN_EW_UW)((CN_EW_UW)(a - t) >> sh1);               \
        const CN_EW_UW q = (CN_EW_UW)((CN_EW_UW)(t + h) >> sh2);               \
        o[j] = (CN_EW_T)(REM ? (CN_EW_UW)(a - (CN_EW_UW)(q * (CN_EW_UW)d))     \
                             : q);                                             \
      }                                                                        \
    }                                                                          \
  }
CN_EW_DIVS_LOOP(floordiv, 0)
CN_EW_DIVS_LOOP(mod, 1)
#undef CN_EW_DIVS_LOOP

/* The table's floor_divide / remainder: contiguous output and first
 * operand with a nonzero scalar divisor run the multiply-high loop (at 64
 * bits, where it is scalar, only for blocks out of the floating-point
 * range); with a contiguous (or zero) divisor they run in blocks through
 * the floating-point loop; anything else (and a 64-bit block out of
 * range) runs the generic loop. */
#define CN_EW_DIV_ENTRY(name, fp)                                              \
  static void CN_EW_FN(name, _entry)(int64_t n, char *const *p,                 \
                                    const int64_t *s) {                        \
    const int64_t z = sizeof(CN_EW_T);                                         \
    if (n <= 0 || s[0] != z || s[1] != z || (s[2] != z && s[2] != 0)) {        \
      CN_EW_FN(name, )(n, p, s);                                               \
      return;                                                                  \
    }                                                                          \
    const int64_t bstep = s[2] ? 1 : 0;                                        \
    const CN_EW_T *pa = (const CN_EW_T *)p[1], *pb = (const CN_EW_T *)p[2];    \
    CN_EW_T *o = (CN_EW_T *)p[0];                                              \
    const bool mh = !bstep && *pb != 0;                                        \
    const CN_EW_IDIV v = CN_EW_FN(idiv_of, )(mh ? *pb : (CN_EW_T)1);           \
    const bool bbad = !bstep && CN_EW_FN(div_outside, )(1, pb, 0);             \
    if (mh && sizeof(CN_EW_T) < 8) {                                           \
      CN_EW_FN(fp, _mulhi)(n, o, pa, v);                                       \
      return;                                                                  \
    }                                                                          \
    for (int64_t i0 = 0; i0 < n; i0 += CN_EW_DIV_BLOCK) {                      \
      const int64_t m =                                                        \
          n - i0 < CN_EW_DIV_BLOCK ? n - i0 : CN_EW_DIV_BLOCK;                 \
      const CN_EW_T *b = pb + i0 * bstep;                                      \
      if (bbad || CN_EW_FN(div_outside, )(m, pa + i0, 1) ||                    \
          (bstep && CN_EW_FN(div_outside, )(m, b, 1))) {                       \
        char *q[3] = {(char *)(o + i0), (char *)(pa + i0), (char *)b};         \
        if (mh)                                                                \
          CN_EW_FN(fp, _mulhi)(m, o + i0, pa + i0, v);                         \
        else                                                                   \
          CN_EW_FN(name, )(m, q, s);                                           \
      } else {                                                                 \
        CN_EW_FN(fp, _fp)(m, o + i0, pa + i0, b, bstep);                       \
      }                                                                        \
    }                                                                          \
  }
CN_EW_DIV_ENTRY(floor_divide, floordiv)
CN_EW_DIV_ENTRY(remainder, mod)
#undef CN_EW_DIV_ENTRY
/* left_shift / right_shift by one count for the whole loop (contiguous
 * output and operand): a shift in the dtype's own lanes. The count is
 * masked so the vectoriser knows it is below the width (it always is
 * here); counts out of range (negative, >= bits) run the generic loop. */
#define CN_EW_SHIFT_ENTRY(name, LEFT)                                          \
  static CN_EW_CLONES_INT void CN_EW_FN(name, _bycount)(                       \
      int64_t n, CN_EW_T *o, const CN_EW_T *pa, int c) {                       \
    c &= CN_EW_NBITS - 1;                                                      \
    CN_IVDEP for (int64_t j = 0; j < n; j++) {                                 \
      o[j] = LEFT ? (CN_EW_T)((CN_EW_U)pa[j] << c) : (CN_EW_T)(pa[j] >> c);    \
    }                                                                          \
  }                                                                            \
  static void CN_EW_FN(name, _entry)(int64_t n, char *const *p,                \
                                     const int64_t *s) {                       \
    const int64_t z = sizeof(CN_EW_T);                                         \
    if (n > 0 && s[0] == z && s[1] == z && s[2] == 0) {                        \
      const CN_EW_T c = *(const CN_EW_T *)p[2];                                \
      if ((uint64_t)(CN_EW_U)c < (uint64_t)CN_EW_NBITS) {                      \
        CN_EW_FN(name, _bycount)                                               \
        (n, (CN_EW_T *)p[0], (const CN_EW_T *)p[1], (int)c);                   \
        return;                                                                \
      }                                                                        \
    }                                                                          \
    CN_EW_FN(name, )(n, p, s);                                                 \
  }
CN_EW_SHIFT_ENTRY(left_shift, 1)
CN_EW_SHIFT_ENTRY(right_shift, 0)
#undef CN_EW_SHIFT_ENTRY
#undef CN_EW_MAGIC
#undef CN_EW_MAGIC_BITS
#undef CN_EW_U
#undef CN_EW_S
#undef CN_EW_UW
#undef CN_EW_SW
#undef CN_EW_NBITS
#undef CN_EW_IDIV
/* The ops whose table entry is their _divf function. */
#define CN_EW_OWN_ENTRY_floor_divide ~, 1
#define CN_EW_OWN_ENTRY_remainder ~, 1
#define CN_EW_OWN_ENTRY_left_shift ~, 1
#define CN_EW_OWN_ENTRY_right_shift ~, 1
#endif

/* CN_EW_PICK(name): 1 when CN_EW_OWN_ENTRY_<name> is defined as "~, 1"
 * (the table then points at the op's _entry function). */
#define CN_EW_SECOND_(a, b, ...) b
#define CN_EW_SECOND(...) CN_EW_SECOND_(__VA_ARGS__)
#define CN_EW_PICK(name) CN_EW_SECOND(CN_EW_OWN_ENTRY_##name, 0, 0)
#define CN_EW_ENTRY_FN_0(name) CN_EW_FN(name, )
#define CN_EW_ENTRY_FN_1(name) CN_EW_FN(name, _entry)

#define CN_EW_ENTRY_0(name)
#define CN_EW_ENTRY_1(name)                                                    \
  [CN_OPID_##name] = CN_EW_CAT(CN_EW_ENTRY_FN_, CN_EW_PICK(name))(name),
#define CN_OP(name, nin, loops, out, bools, ints, weak, expr, doc)             \
  CN_EW_CAT(CN_EW_ENTRY_, CN_LOOP_CLASS_##loops(CN_EW_COL))(name)
const cn_ew_kernel CN_EW_CAT(cn_ew_kernels_, CN_EW_SFX)[CN_OP_COUNT_] = {
#include "../ops.def"
};
#undef CN_OP

/* Integer power by an exponent that is one value for the whole loop:
 * repeated squaring over blocks of CN_EW_POWS_BLOCK elements, each
 * squaring or multiplying step one vectorised pass over the block (the
 * exponent's bits are the same for every element). Results are the
 * wrapped products, as k_pow's. Strided data runs the table kernel. */
#define CN_EW_POWS_kb 0
#define CN_EW_POWS_ki 1
#define CN_EW_POWS_ku 1
#define CN_EW_POWS_kf 0
#define CN_EW_POWS_kc 0
#if CN_EW_CAT(CN_EW_POWS_, CN_EW_KIND)
#define CN_EW_POWS_BLOCK 256
static void CN_EW_FN(power, _squaring)(int64_t n, char *const *p,
                                     const int64_t *s) {
  const int64_t z = sizeof(CN_EW_T);
  const CN_EW_T b = *(const CN_EW_T *)p[2];
  if (s[0] != z || s[1] != z || k_signbit(b)) {
    CN_EW_FN(power, )(n, p, s);
    return;
  }
  CN_EW_T *o = (CN_EW_T *)p[0];
  const CN_EW_T *pa = (const CN_EW_T *)p[1];
  for (int64_t i0 = 0; i0 < n; i0 += CN_EW_POWS_BLOCK) {
    const int64_t m = n - i0 < CN_EW_POWS_BLOCK ? n - i0 : CN_EW_POWS_BLOCK;
    CN_EW_T x[CN_EW_POWS_BLOCK], r[CN_EW_POWS_BLOCK];
    for (int64_t j = 0; j < m; j++) {
      x[j] = pa[i0 + j];
      r[j] = 1;
    }
    for (uint64_t e = (uint64_t)b; e; e >>= 1) {
      if (e & 1)
        for (int64_t j = 0; j < m; j++)
          r[j] = (CN_EW_T)(r[j] * x[j]);
      if (e > 1)
        for (int64_t j = 0; j < m; j++)
          x[j] = (CN_EW_T)(x[j] * x[j]);
    }
    /* o may be pa itself: this block's inputs are all in x already */
    for (int64_t j = 0; j < m; j++)
      o[i0 + j] = r[j];
  }
}
const cn_ew_kernel CN_EW_CAT(cn_ew_power_scalar_, CN_EW_SFX) =
    CN_EW_FN(power, _squaring);
#else
const cn_ew_kernel CN_EW_CAT(cn_ew_power_scalar_, CN_EW_SFX) = NULL;
#endif
