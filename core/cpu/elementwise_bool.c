/* Elementwise loops of every op of core/ops.def for bool. */
#define CN_EW_T bool
#define CN_EW_SFX b
#define CN_EW_KIND kb
/* ops.def spells logical and as k_mul(a, b) = a * b, exact for bool. */
#pragma GCC diagnostic ignored "-Wint-in-bool-context"
#include "elementwise_loops.h"
