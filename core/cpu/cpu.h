/* CPU backend internals: the kernels the CPU table points at. */
#ifndef CUNUMPY_CPU_H
#define CUNUMPY_CPU_H

#include "../internal.h"

/* Per-ISA clones of a hot loop, picked at load time by an ifunc resolver.
 * The dynamic loader runs resolvers before any sanitizer runtime starts,
 * and clang instruments them under ThreadSanitizer and AddressSanitizer
 * (a clone of a static function crashed every ASan test at load), so a
 * sanitizer build keeps the default clone only. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define CN_NO_TARGET_CLONES 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__) ||         \
    defined(CN_NO_TARGET_CLONES)
#define CN_TARGET_CLONES(...)
#else
#define CN_TARGET_CLONES(...) __attribute__((target_clones(__VA_ARGS__)))
#endif

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

/* Compute-table fillers for the domains each file serves; core/cpu/backend.c
 * calls each once on the CPU's compute table. */
/* take, put, take_along, put_along, flatnonzero, mask_compress
 * (core/cpu/index.c). */
CN_INTERNAL void cn_cpu_index_fill(cn_backend_compute *t);
/* a[mask] for C-contiguous host arrays of the same shape (mask bool): the
 * selected elements, in order, into a new 1-d array; one fused pass
 * instead of positions + gather. */
CN_INTERNAL cn_status cn_cpu_mask_compress(cn_array_s **out,
                                           const cn_array_s *a,
                                           const cn_array_s *mask);
/* sort (core/cpu/sort.c). */
CN_INTERNAL void cn_cpu_sort_fill(cn_backend_compute *t);
/* rng_fill (core/cpu/random.c). */
CN_INTERNAL void cn_cpu_random_fill(cn_backend_compute *t);
/* Normals of the 4 counter blocks from `first` (8 values) by the mapping of
 * core/philox.h (core/cpu/random_avx2.c). AVX2+FMA CPUs only. */
CN_INTERNAL void cn_cpu_normal_group4_avx2(double *out8, const uint32_t key[2],
                                           const uint32_t counter[4],
                                           uint64_t first);
/* The words of the nb counter blocks first, first + 1, ... (as below) on
 * any CPU: the AVX2 lanes where the CPU has them (core/cpu/random.c). */
CN_INTERNAL void cn_cpu_philox_blocks(uint32_t *w, int64_t nb,
                                      const uint32_t key[2],
                                      const uint32_t counter[4],
                                      uint64_t first);
/* The words of the nb counter blocks first, first + 1, ... (w[4 i + k]:
 * word k of block first + i, counter word 3 set to word3: 0, or a retry
 * round of the rejection samplers) by Philox4x32-10 in AVX2 lanes
 * (core/cpu/random_avx2.c). AVX2 CPUs only. */
CN_INTERNAL void cn_cpu_philox_blocks_avx2(uint32_t *w, int64_t nb,
                                           const uint32_t key[2],
                                           const uint32_t counter[4],
                                           uint64_t first, uint32_t word3);
/* The same words as cn_cpu_philox_blocks_avx2, in AVX-512 lanes
 * (core/cpu/random_avx512.c). AVX-512F CPUs only. */
CN_INTERNAL void cn_cpu_philox_blocks_avx512(uint32_t *w, int64_t nb,
                                             const uint32_t key[2],
                                             const uint32_t counter[4],
                                             uint64_t first, uint32_t word3);
/* Values out[j] (j < m) of EXPONENTIAL, RAYLEIGH or WEIBULL (a != 0) with
 * scalar parameter p0 from the 64-bit words x[j] by the mapping of
 * core/philox.h, with SLEEF's 1-ulp vector log1p and pow
 * (core/cpu/random_avx2.c). AVX2+FMA CPUs only. */
CN_INTERNAL void cn_cpu_from_u_avx2(int32_t dist, const uint64_t *x,
                                    int64_t m, double p0, double *out);
/* matmul (core/cpu/linalg/gemm.c) and lapack (core/cpu/linalg/lapack.c). */
CN_INTERNAL void cn_cpu_linalg_fill(cn_backend_compute *t);
/* fft (core/cpu/fft.c). */
CN_INTERNAL void cn_cpu_fft_fill(cn_backend_compute *t);
/* scatter_add (core/cpu/scatter_add.c). */
CN_INTERNAL void cn_cpu_scatter_add_fill(cn_backend_compute *t);
CN_INTERNAL void cn_cpu_ufunc_methods_fill(cn_backend_compute *t);

/* A casting copy of n elements: d[i*ds] = (dst dtype) s[i*ss] (strides in
 * bytes), NumPy's unsafe conversion for every dtype pair. */
typedef void (*cn_cpu_cast_fn)(char *d, int64_t ds, const char *s, int64_t ss,
                               int64_t n);
CN_INTERNAL cn_cpu_cast_fn cn_cpu_cast_for(cn_dtype dst, cn_dtype src);
/* spmm, spgemm, sparse_transpose (core/cpu/sparse.c). */
CN_INTERNAL void cn_cpu_sparse_fill(cn_backend_compute *t);
/* expr (core/cpu/expr.c). */
CN_INTERNAL void cn_cpu_expr_fill(cn_backend_compute *t);
CN_INTERNAL cn_status cn_cpu_matmul(const cn_gemm_desc *d);
CN_INTERNAL cn_status cn_cpu_lapack(cn_lapack_args *args);
CN_INTERNAL cn_status cn_cpu_fft(const cn_fft_desc *d);

/* Whole-array truth tests (reduce_truth.c): NumPy's any, all and
 * count_nonzero over every element of a host array of any dtype. */
CN_INTERNAL bool cn_cpu_truth_any(const cn_array_s *a);
CN_INTERNAL bool cn_cpu_truth_all(const cn_array_s *a);
CN_INTERNAL int64_t cn_cpu_count_nonzero(const cn_array_s *a);

/* Number of OpenMP threads to use for n elements of work (1 below the
 * threshold where threads pay). */
CN_INTERNAL int cn_cpu_threads_for(int64_t n);
/* Starts the OpenMP team once, at backend start (see threads.c). */
CN_INTERNAL void cn_cpu_threads_prewarm(void);

#endif
