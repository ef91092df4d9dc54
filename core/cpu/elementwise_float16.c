/* The float16 loops: nextafter and spacing, whose NumPy float16 result is
 * not the float32 result rounded, step through float16's own values on the
 * bit patterns; every other op computes each element in float32 and rounds
 * it (NumPy's float16 loops), a block at a time: the block converted with
 * F16C, the float32 kernel (SLEEF's where the operands are contiguous) run
 * on it, the result rounded back. */
#include "elementwise.h"
#include "float16.h"

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

/* Elements per block: three inputs and a result of float32 stay within
 * 8 KiB of stack and in L1. */
enum { F16_BLOCK = 512 };

static void f16_via_f32(int32_t op, int64_t n, char *const *p,
                        const int64_t *s) {
  const int32_t nin = cn_op_table()[op].nin;
  const bool bool_out = cn_op_table()[op].out == CN_OUT_BOOL;
  /* the float32 blocks are contiguous whatever the inputs' strides, except
   * a broadcast input's (one value): the same kernels as for float32
   * operands cast in full (SLEEF's on contiguous blocks) */
  bool contig = !bool_out;
  for (int32_t i = 1; i <= nin; i++)
    contig = contig && s[i] != 0;
  cn_ew_kernel k = contig ? cn_ew_sleef_kernel(op, CN_FLOAT32) : NULL;
  if (k == NULL)
    k = cn_ew_kernels_f32[op];
  float buf[3][F16_BLOCK], res[F16_BLOCK];
  for (int64_t b = 0; b < n; b += F16_BLOCK) {
    const int64_t m = n - b < F16_BLOCK ? n - b : F16_BLOCK;
    char *q[4];
    int64_t t[4];
    for (int32_t i = 1; i <= nin; i++) {
      const char *src = p[i] + b * s[i];
      float *dst = buf[i - 1];
      q[i] = (char *)dst;
      t[i] = s[i] == 0 ? 0 : (int64_t)sizeof(float);
      if (s[i] == 0)
        dst[0] = cn_f16_to_f32(*(const cn_f16_t *)(const void *)src);
      else if (s[i] == (int64_t)sizeof(cn_f16_t))
        cn_f16_to_f32_n(dst, (const cn_f16_t *)(const void *)src, m);
      else
        for (int64_t j = 0; j < m; j++)
          dst[j] = cn_f16_to_f32(*(const cn_f16_t *)(const void *)(src +
                                                                  j * s[i]));
    }
    char *out = p[0] + b * s[0];
    if (bool_out) { /* bool results need no rounding: written in place */
      q[0] = out;
      t[0] = s[0];
      k(m, q, t);
      continue;
    }
    q[0] = (char *)res;
    t[0] = (int64_t)sizeof(float);
    k(m, q, t);
    if (s[0] == (int64_t)sizeof(cn_f16_t))
      cn_f32_to_f16_n((cn_f16_t *)(void *)out, res, m);
    else
      for (int64_t j = 0; j < m; j++)
        *(cn_f16_t *)(void *)(out + j * s[0]) = cn_f32_to_f16(res[j]);
  }
}

/* One float16 kernel per op of the op table, each f16_via_f32 of its op. */
#define CN_OP(name, nin, loops, out, bools, ints, weak, expr, doc)             \
  static void f16_op_##name(int64_t n, char *const *p, const int64_t *s) {     \
    f16_via_f32(CN_OPID_##name, n, p, s);                                      \
  }
#include "../ops.def"
#undef CN_OP

static const cn_ew_kernel f16_via_f32_kernels[CN_OP_COUNT_] = {
#define CN_OP(name, nin, loops, out, bools, ints, weak, expr, doc)             \
  [CN_OPID_##name] = f16_op_##name,
#include "../ops.def"
#undef CN_OP
};

cn_ew_kernel cn_ew_f16_via_f32_kernel(int32_t op) {
  if (op < 0 || op >= CN_OP_COUNT_ || cn_ew_kernels_f32[op] == NULL ||
      cn_op_float16_loop(op) || cn_op_table()[op].nin > 3)
    return NULL;
  return f16_via_f32_kernels[op];
}
