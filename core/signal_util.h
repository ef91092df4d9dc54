/* Helpers shared by the convolution entry points (core/signal.c,
 * core/stats_signal.c). */
#ifndef CUNUMPY_SIGNAL_UTIL_H
#define CUNUMPY_SIGNAL_UTIL_H
#include "internal.h"

/* Smallest 2^a 3^b 5^c >= n: sizes every FFT library does fast. */
CN_INTERNAL int64_t cn_fft_good_size(int64_t n);
/* *out = whether every value of a is finite (one bool read back). */
CN_INTERNAL cn_status cn_all_finite(bool *out, const cn_array_s *a);
#endif
