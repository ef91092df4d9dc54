/* Helpers shared by the manipulation sources (core/manip*.c). */
#ifndef CUNUMPY_MANIP_UTIL_H
#define CUNUMPY_MANIP_UTIL_H

#include "internal.h"

/* New 1-d int64 array of data[0..n) (0-d holding data[0] when n < 0) on
 * like's device. */
CN_INTERNAL cn_status cn_int64_on(cn_array_s **out, const int64_t *data,
                                  int64_t n, const cn_array_s *like);

#endif
