/* Helpers shared by the indexing, manipulation, sorting and statistics entry
 * points (core/array_util.c). */
#ifndef CUNUMPY_INDEX_UTIL_H
#define CUNUMPY_INDEX_UTIL_H

#include "internal.h"

/* Host copy of an integer index array as C-contiguous int64 with negative
 * entries wrapped once and range-checked against extent under mode
 * (cn_index_mode); errors name fn, the offending index, axis and extent.
 * CN_ERR_TYPE for a non-integer dtype. */
CN_INTERNAL cn_status cn_idx_normalize(cn_array_s **out, const cn_array_s *idx,
                                       int64_t extent, int32_t mode,
                                       int32_t axis, const char *fn);

/* As cn_idx_normalize, but for indices on a backend with index_normalize
 * (and not uint64) the copy stays on idx's device and is checked there, so
 * the indices never cross to the host; the errors are the same. */
CN_INTERNAL cn_status cn_idx_normalize_on(cn_array_s **out,
                                          const cn_array_s *idx,
                                          int64_t extent, int32_t mode,
                                          int32_t axis, const char *fn);

/* Moves an array to like's device (new reference when already there). */
CN_INTERNAL cn_status cn_idx_to_device_of(cn_array_s **out, cn_array_s *h,
                                          const cn_array_s *like);

/* New C-contiguous array on like's device. */
CN_INTERNAL cn_status cn_new_on(cn_array_s **out, const cn_array_s *like,
                                cn_dtype dtype, int32_t ndim,
                                const int64_t *shape);

/* C-contiguous view of a C-contiguous array with a new shape of equal
 * size. */
CN_INTERNAL cn_status cn_contig_view(cn_array_s **out, const cn_array_s *a,
                                     int32_t ndim, const int64_t *shape);

/* C-contiguous (reference or copy) version of a, optionally cast. */
CN_INTERNAL cn_status cn_as_contig(cn_array_s **out, const cn_array_s *a,
                                   cn_dtype dtype);

/* View of a with axes [first, first+m) merged into one (a copy when the
 * strides do not allow a view; *copied tells which). */
CN_INTERNAL cn_status cn_merge_axes(cn_array_s **out, bool *copied,
                                    const cn_array_s *a, int32_t first,
                                    int32_t m);

/* Writes "(2, 3)" into buf. */
CN_INTERNAL const char *cn_fmt_shape(char *buf, size_t cap, int32_t nd,
                                     const int64_t *shape);

/* Checks that dst is a writeable array usable as out= for a result of
 * (ndim, shape); names fn. */
CN_INTERNAL cn_status cn_check_dst(const cn_array_s *dst, int32_t ndim,
                                   const int64_t *shape, const cn_array_s *like,
                                   const char *fn);

/* *out = dst after dst[...] = r (r released), or *out = r. */
CN_INTERNAL cn_status cn_finish_dst(cn_array *out, cn_array_s *r,
                                    cn_array_s *dst);

#endif
