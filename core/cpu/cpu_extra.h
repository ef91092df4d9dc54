/* Fillers of the backend-table members that issue 4's domains append to
 * cn_backend_ops (indexing, sorting, random numbers). The CPU table setup
 * (core/cpu/backend.c) calls each of them on its table. */
#ifndef CUNUMPY_CPU_EXTRA_H
#define CUNUMPY_CPU_EXTRA_H

#include "../internal.h"

/* take, put, take_along, put_along, flatnonzero (core/cpu/index_kernels.c) */
CN_INTERNAL void cn_cpu_index_fill(cn_backend_ops *t);
/* a[mask] for C-contiguous host arrays of the same shape (mask bool): the
 * selected elements, in order, into a new 1-d array; one fused pass
 * instead of positions + gather. */
CN_INTERNAL cn_status cn_cpu_mask_compress(cn_array_s **out,
                                           const cn_array_s *a,
                                           const cn_array_s *mask);
/* sort (core/cpu/sort_kernels.c) */
CN_INTERNAL void cn_cpu_sort_fill(cn_backend_ops *t);
/* rng_fill (core/cpu/random_kernels.c) */
CN_INTERNAL void cn_cpu_random_fill(cn_backend_ops *t);

#endif
