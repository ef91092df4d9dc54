/* Elementwise loops of every op of core/ops.def for complex64. */
#define CN_EW_T cn_c64_t
#define CN_EW_SFX c64
#define CN_EW_KIND kc
#include "elementwise_loops.h"
