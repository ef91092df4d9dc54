/* Fillers of the linear-algebra and FFT members of cn_backend_ops on the
 * CPU; core/cpu/backend.c calls them once on its table. */
#ifndef CUNUMPY_CPU_LINALG_H
#define CUNUMPY_CPU_LINALG_H

#include "../internal.h"

/* matmul (core/cpu/linalg_gemm.c) and lapack (core/cpu/linalg_lapack.c). */
CN_INTERNAL void cn_cpu_linalg_fill(cn_backend_ops *t);
/* fft (core/cpu/fft.c). */
CN_INTERNAL void cn_cpu_fft_fill(cn_backend_ops *t);

/* Kernels behind the fillers. */
CN_INTERNAL cn_status cn_cpu_matmul(const cn_gemm_desc *d);
CN_INTERNAL cn_status cn_cpu_lapack(cn_lapack_args *args);
CN_INTERNAL cn_status cn_cpu_fft(const cn_fft_desc *d);

#endif
