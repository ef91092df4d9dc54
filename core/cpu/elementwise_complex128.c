/* Elementwise loops of every op of core/ops.def for complex128. */
#define CN_EW_T cn_c128_t
#define CN_EW_SFX c128
#define CN_EW_KIND kc
#include "elementwise_loops.h"
