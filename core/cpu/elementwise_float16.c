/* The float16 loops of the ops whose NumPy float16 result is not the
 * float32 result rounded (every other op computes float16 in float32, see
 * core/ufunc.c): nextafter and spacing step through float16's own values.
 * They work on the bit patterns. */
#include "elementwise.h"

static inline bool f16_isnan(cn_f16_t h) { return (h & 0x7fffu) > 0x7c00u; }

/* float16 nextafter: NaN (0x7e00) if either is NaN, y when x == y (C99's
 * and the Array API's rule, so nextafter(-0.0, 0.0) is 0.0 as for float32
 * and float64; NumPy's float16 loop returns x there), else one step of x
 * towards y. */
static inline cn_f16_t f16_nextafter(cn_f16_t x, cn_f16_t y) {
  if (f16_isnan(x) || f16_isnan(y))
    return 0x7e00u;
  float fx = cn_f16_to_f32(x), fy = cn_f16_to_f32(y);
  if (fx == fy)
    return y;
  if ((x & 0x7fffu) == 0)
    return (cn_f16_t)((y & 0x8000u) | 1u);
  /* a step away from zero is one more in the magnitude bits */
  bool up = fy > fx, neg = (x & 0x8000u) != 0;
  return (cn_f16_t)(up != neg ? x + 1u : x - 1u);
}

/* NumPy's float16 spacing: NaN for inf and NaN; for x with its sign bit
 * clear the distance to the next value up (inf after 65504); for x with
 * it set, the positive distance from |x| to the next value towards zero
 * (the smallest subnormal for -0.0), as NumPy's float16 loop gives. */
static inline cn_f16_t f16_spacing(cn_f16_t h) {
  cn_f16_t mag = (cn_f16_t)(h & 0x7fffu);
  if (mag >= 0x7c00u)
    return 0x7e00u;
  if (!(h & 0x8000u))
    return cn_f32_to_f16(cn_f16_to_f32((cn_f16_t)(h + 1u)) -
                         cn_f16_to_f32(h));
  if (mag == 0)
    return 1u;
  return cn_f32_to_f16(cn_f16_to_f32(mag) -
                       cn_f16_to_f32((cn_f16_t)(mag - 1u)));
}

#define F16_AT(p, s, i) (*(cn_f16_t *)(void *)((p) + (i) * (s)))

static void f16_nextafter_loop(int64_t n, char *const *p, const int64_t *s) {
  for (int64_t i = 0; i < n; i++)
    F16_AT(p[0], s[0], i) =
        f16_nextafter(F16_AT(p[1], s[1], i), F16_AT(p[2], s[2], i));
}

static void f16_spacing_loop(int64_t n, char *const *p, const int64_t *s) {
  for (int64_t i = 0; i < n; i++)
    F16_AT(p[0], s[0], i) = f16_spacing(F16_AT(p[1], s[1], i));
}

const cn_ew_kernel cn_ew_kernels_f16[CN_OP_COUNT_] = {
    [CN_OPID_nextafter] = f16_nextafter_loop,
    [CN_OPID_spacing] = f16_spacing_loop,
};
