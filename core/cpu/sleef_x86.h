/* Includes <sleef.h> with its SSE2/AVX/AVX2/AVX-512F prototypes visible in
 * a file compiled for baseline x86-64: sleef.h declares them only when the
 * compiler targets those ISAs, and the functions that call them carry their
 * own target attributes (and run only after a CPU check). gcc enables the
 * ISAs around the include with #pragma GCC target; clang ignores that
 * pragma, so there the macros sleef.h tests are defined around the include
 * and the prototypes get the target attribute from #pragma clang attribute
 * (clang rejects a call passing AVX vectors to a function declared
 * without the ISA). clang's intrinsic headers declare every vector type. */
#ifndef CUNUMPY_CPU_SLEEF_X86_H
#define CUNUMPY_CPU_SLEEF_X86_H

#include <immintrin.h>

#if defined(__clang__)
#ifndef __AVX512F__
#define __AVX512F__ 1
#define CN_SLEEF_UNDEF_AVX512F
#endif
#ifndef __AVX2__
#define __AVX2__ 1
#define CN_SLEEF_UNDEF_AVX2
#endif
#ifndef __AVX__
#define __AVX__ 1
#define CN_SLEEF_UNDEF_AVX
#endif
#ifndef __FMA__
#define __FMA__ 1
#define CN_SLEEF_UNDEF_FMA
#endif
#pragma clang attribute push(__attribute__((target("avx512f,avx2,fma"))), \
                             apply_to = function)
#include <sleef.h>
#pragma clang attribute pop
#ifdef CN_SLEEF_UNDEF_AVX512F
#undef __AVX512F__
#undef CN_SLEEF_UNDEF_AVX512F
#endif
#ifdef CN_SLEEF_UNDEF_AVX2
#undef __AVX2__
#undef CN_SLEEF_UNDEF_AVX2
#endif
#ifdef CN_SLEEF_UNDEF_AVX
#undef __AVX__
#undef CN_SLEEF_UNDEF_AVX
#endif
#ifdef CN_SLEEF_UNDEF_FMA
#undef __FMA__
#undef CN_SLEEF_UNDEF_FMA
#endif
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx2,fma")
#include <sleef.h>
#pragma GCC pop_options
#endif

#endif
