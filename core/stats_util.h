/* Host float64 lanes shared by the statistics entry points. */
#ifndef CUNUMPY_STATS_UTIL_H
#define CUNUMPY_STATS_UTIL_H

#include "array_util.h"

/* a with the reduced axes moved last, as a C-contiguous float64 host
 * array (cn_lanes_make_on: on a's device): nlanes lanes of len values. out_nd/out_shape describe the result
 * of the reduction (keepdims form when keepdims). */
typedef struct cn_lanes {
  cn_array_s *h;
  int64_t nlanes, len;
  int32_t out_nd;
  int64_t out_shape[CN_MAX_DIMS];
} cn_lanes;

CN_INTERNAL cn_status cn_lanes_make(cn_lanes *L, const cn_array_s *a,
                                    int32_t naxes, const int32_t *axes,
                                    int32_t keepdims, const char *fn);
/* Same, the lanes in dtype (CN_FLOAT64 or CN_COMPLEX128). */
CN_INTERNAL cn_status cn_lanes_make_as(cn_lanes *L, const cn_array_s *a,
                                       int32_t naxes, const int32_t *axes,
                                       int32_t keepdims, cn_dtype dtype,
                                       const char *fn);
/* Same, the lanes left on a's device (C-contiguous in dtype), for the
 * kernels that run there. */
CN_INTERNAL cn_status cn_lanes_make_on(cn_lanes *L, const cn_array_s *a,
                                       int32_t naxes, const int32_t *axes,
                                       int32_t keepdims, cn_dtype dtype,
                                       const char *fn);
CN_INTERNAL void cn_lanes_free(cn_lanes *L);

/* Host C-contiguous float64 copy of a. */
CN_INTERNAL cn_status cn_host_f64(cn_array_s **out, const cn_array_s *a);
/* Host C-contiguous copy of a in dtype. */
CN_INTERNAL cn_status cn_host_as(cn_array_s **out, const cn_array_s *a,
                                 cn_dtype dtype);

/* Rejects complex dtypes with CN_ERR_TYPE naming fn and the argument. */
CN_INTERNAL cn_status cn_require_real(const cn_array_s *a, const char *fn,
                                      const char *arg);

/* Moves a host result to like's device, casting to dtype (DEFAULT keeps
 * it). Releases h. */
CN_INTERNAL cn_status cn_result_to(cn_array *out, cn_array_s *h,
                                   const cn_array_s *like, cn_dtype dtype);

/* New C-contiguous host array (the statistics kernels fill it). */
CN_INTERNAL cn_status cn_host_new(cn_array_s **out, cn_dtype dt, int32_t nd,
                                  const int64_t *shape);

/* NumPy's float result dtype of a float-valued statistic: float32 for
 * float32 input, else float64. */
CN_INTERNAL cn_dtype cn_float_result(cn_dtype a);

/* A weak (Python) float or complex scalar, as cn_scalar_array makes, but
 * on like's device, for compositions that run where like lives. */
CN_INTERNAL cn_status cn_weak_scalar_like(cn_array_s **out, cn_scalar v,
                                          const cn_array_s *like);

#endif
