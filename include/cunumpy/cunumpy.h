/* cunumpy/cunumpy.h: the whole public C ABI of cunumpy. */
#ifndef CUNUMPY_CUNUMPY_H
#define CUNUMPY_CUNUMPY_H

#include "cunumpy/status.h"
#include "cunumpy/dtype.h"
#include "cunumpy/array.h"
#include "cunumpy/view.h"
#include "cunumpy/backend.h"
#include "cunumpy/memory.h"
#include "cunumpy/ufunc.h"
#include "cunumpy/special.h"
#include "cunumpy/reduce.h"
#include "cunumpy/dlpack.h"
/* CUDA devices, streams, events, pools (forwarders in the core) */
#include "cunumpy/cuda.h"
#include "cunumpy/device.h"
#include "cunumpy/profiler.h"
#include "cunumpy/index.h"
#include "cunumpy/manip.h"
#include "cunumpy/sort.h"
#include "cunumpy/random.h"
#include "cunumpy/stats.h"
#include "cunumpy/poly.h"
#include "cunumpy/linalg.h"
#include "cunumpy/fft.h"
#include "cunumpy/sparse.h"
#include "cunumpy/kernel.h"
#include "cunumpy/expr.h"
#include "cunumpy/signal.h"

#endif
