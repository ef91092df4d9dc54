/* CPU backend internals: the kernels the CPU table points at. */
#ifndef CUNUMPY_CPU_H
#define CUNUMPY_CPU_H

#include "../internal.h"

/* Host memory: a caching pool of large blocks (core/cpu/pool.c). */
CN_INTERNAL cn_status cn_cpu_alloc(int32_t device, size_t nbytes, void **ptr);
CN_INTERNAL void cn_cpu_free(int32_t device, void *ptr, size_t nbytes);

/* Casting copy and fill (core/cpu/copy.c). */
CN_INTERNAL cn_status cn_cpu_assign(cn_array_s *dst, const cn_array_s *src);
CN_INTERNAL cn_status cn_cpu_fill(cn_array_s *dst, const void *value);

/* Op-table loops (core/cpu/elementwise.c). */
CN_INTERNAL cn_status cn_cpu_elementwise(int32_t op, cn_dtype compute,
                                         int32_t nin,
                                         const cn_array_s *const *in,
                                         cn_array_s *out);
CN_INTERNAL cn_status cn_cpu_where(const cn_array_s *cond,
                                   const cn_array_s *x, const cn_array_s *y,
                                   cn_array_s *out);

/* Reductions (core/cpu/reduce.c). */
CN_INTERNAL cn_status cn_cpu_reduce(cn_reduce_kind kind, const cn_array_s *in,
                                    uint64_t axis_mask, cn_array_s *out);
CN_INTERNAL cn_status cn_cpu_moments(const cn_array_s *in, uint64_t axis_mask,
                                     double ddof, bool nan_skip,
                                     cn_array_s *mean, cn_array_s *var);

/* Number of OpenMP threads to use for n elements of work (1 below the
 * threshold where threads pay). */
CN_INTERNAL int cn_cpu_threads_for(int64_t n);

#endif
