/* Dispatch to the optional backend-table members (take, put, sort,
 * rng_fill, ...); a backend that lacks one leaves it NULL. */
#ifndef CUNUMPY_EXT_OPS_H
#define CUNUMPY_EXT_OPS_H

#include <stddef.h>

#include "internal.h"

/* The table of a's device. Never NULL. */
CN_INTERNAL const cn_backend_ops *cn_ext_ops(const cn_array_s *a);

/* Returns CN_ERR_UNSUPPORTED naming fn and the backend when member is NULL. */
#define CN_EXT_SLOT(var, a, member, fn)                                        \
  const cn_backend_ops *var##_t_ = cn_ext_ops(a);                              \
  __typeof__(var##_t_->member) var = var##_t_->member;                         \
  if (CN_UNLIKELY(var == NULL))                                                \
  return cn_error(CN_ERR_UNSUPPORTED,                                          \
                  "%s: not supported on the '%s' backend (no '%s' kernel)",    \
                  fn, var##_t_->name, #member)

/* Checks that every array is on the same device as the first; names fn. */
CN_INTERNAL cn_status cn_ext_same_device(int32_t n,
                                         const cn_array_s *const *arrs,
                                         const char *fn);

#endif
