/* Fillers of the backend-table members that issue 4's domains append to
 * cn_backend_ops (indexing, sorting, random numbers). The CPU table setup
 * (core/cpu/backend.c) calls each of them on its table. */
#ifndef CUNUMPY_CPU_EXTRA_H
#define CUNUMPY_CPU_EXTRA_H

#include "../internal.h"

/* take, put, take_along, put_along, flatnonzero (core/cpu/index_kernels.c) */
CN_INTERNAL void cn_cpu_index_fill(cn_backend_ops *t);
/* sort (core/cpu/sort_kernels.c) */
CN_INTERNAL void cn_cpu_sort_fill(cn_backend_ops *t);
/* rng_fill (core/cpu/random_kernels.c) */
CN_INTERNAL void cn_cpu_random_fill(cn_backend_ops *t);

#endif
