/* Highway's vectorised quicksort (vqsort) behind a C interface: the one
 * C++ file of the engine (core/cpu/sort_vq.cc) holds the calls, the rest
 * of the CPU sort (core/cpu/sort.c) stays C. Each function sorts its n
 * elements ascending in place, choosing the CPU's widest vector unit
 * (AVX2, AVX-512, ...) at run time. Not stable; thread-safe (each thread
 * keeps its own sorter). Floats must be finite (Highway 1.0.3 has no NaN
 * order and pads with the largest finite value, which displaces +inf:
 * core/cpu/sort.c maps them around the sort); -0.0 and 0.0 compare equal.
 * cn_vq_rec128 is 16-byte aligned and ordered by hi, then lo. */
#ifndef CUNUMPY_CPU_SORT_VQ_H
#define CUNUMPY_CPU_SORT_VQ_H

#include <stddef.h>
#include <stdint.h>

/* Hidden as CN_INTERNAL (core/internal.h, which C++ cannot include). */
#define CN_VQ_FN __attribute__((visibility("hidden")))

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cn_vq_rec128 {
  uint64_t lo, hi; /* the layout of hwy::uint128_t */
} cn_vq_rec128;

CN_VQ_FN void cn_vqsort_i16(int16_t *v, size_t n);
CN_VQ_FN void cn_vqsort_u16(uint16_t *v, size_t n);
CN_VQ_FN void cn_vqsort_i32(int32_t *v, size_t n);
CN_VQ_FN void cn_vqsort_u32(uint32_t *v, size_t n);
CN_VQ_FN void cn_vqsort_i64(int64_t *v, size_t n);
CN_VQ_FN void cn_vqsort_u64(uint64_t *v, size_t n);
CN_VQ_FN void cn_vqsort_rec128(cn_vq_rec128 *v, size_t n);

#ifdef __cplusplus
}
#endif

#endif
