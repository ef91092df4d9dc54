/* <complex.h> with CMPLX/CMPLXF on every compiler: glibc defines them only
 * for compilers with __builtin_complex (gcc); clang builds the same value,
 * inf and NaN parts intact, from an initializer list. Include this instead
 * of <complex.h> wherever CMPLX is used. */
#ifndef CUNUMPY_COMPLEX_COMPAT_H
#define CUNUMPY_COMPLEX_COMPAT_H

#include <complex.h>

#if !defined(CMPLX) && defined(__clang__)
#define CMPLX(x, y) (__extension__(double _Complex){(x), (y)})
#define CMPLXF(x, y) (__extension__(float _Complex){(x), (y)})
#endif

#endif
