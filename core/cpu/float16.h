/* float16 (IEEE binary16) storage and conversions on the host. Values are
 * held as their bit patterns (cn_f16_t) and computed in float32, as NumPy
 * does; the conversions are core/float16_bits.h's (NumPy's bit for bit),
 * shared with the CUDA prelude. */
#ifndef CUNUMPY_CPU_FLOAT16_H
#define CUNUMPY_CPU_FLOAT16_H

#include <stdint.h>
#include <string.h>

typedef uint16_t cn_f16_t;

#include "../float16_bits.h"

static inline float cn_f16_to_f32(cn_f16_t h) {
  uint32_t u = cn_f16_bits_to_f32_bits(h);
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static inline double cn_f16_to_f64(cn_f16_t h) {
  uint64_t u = cn_f16_bits_to_f64_bits(h);
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

static inline cn_f16_t cn_f32_to_f16(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return cn_f32_bits_to_f16_bits(u);
}

static inline cn_f16_t cn_f64_to_f16(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return cn_f64_bits_to_f16_bits(u);
}

/* n contiguous values converted, F16C when the CPU has it (chosen once at
 * run time), else the scalar conversions above; same results either way. */
__attribute__((visibility("hidden"))) void
cn_f16_to_f32_n(float *dst, const cn_f16_t *src, int64_t n);
__attribute__((visibility("hidden"))) void
cn_f32_to_f16_n(cn_f16_t *dst, const float *src, int64_t n);

#endif
