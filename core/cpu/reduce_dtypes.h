/* The dtype list and per-class scalar helpers shared by the reduction and
 * scan kernel generators (reduce_typed.c, scan_typed.c). Private to
 * those two files. */
#ifndef CUNUMPY_CPU_REDUCE_TYPES_H
#define CUNUMPY_CPU_REDUCE_TYPES_H

#include <math.h>
#include <stdint.h>

/* X(name, C type, dtype, class, wide accumulator type, the dtype name of
 *   the wide result, real type, its name, lowest value, highest value). bool
 *   is stored as one byte 0/1. Bool and signed integers accumulate in
 *   uint64_t: their sums and products wrap modulo 2**64 as NumPy's int64
 *   results do, in defined unsigned arithmetic (signed overflow is undefined
 *   in C); the int64 result is the same bit pattern.
 * Complex lowest/highest are (-inf,-inf)/(inf,inf) so that lexicographic
 * comparison treats them as the extremes. */
#define RK_CF_(v) __builtin_complex((float)(v), (float)(v))
#define RK_CD_(v) __builtin_complex((double)(v), (double)(v))
#define RK_TYPES(X)                                                            \
  X(b, uint8_t, CN_BOOL, BOOL, uint64_t, i64, uint8_t, b, 0, 1)                \
  X(i8, int8_t, CN_INT8, INT, uint64_t, i64, int8_t, i8, INT8_MIN, INT8_MAX)   \
  X(i16, int16_t, CN_INT16, INT, uint64_t, i64, int16_t, i16, INT16_MIN,       \
    INT16_MAX)                                                                 \
  X(i32, int32_t, CN_INT32, INT, uint64_t, i64, int32_t, i32, INT32_MIN,       \
    INT32_MAX)                                                                 \
  X(i64, int64_t, CN_INT64, INT, uint64_t, i64, int64_t, i64, INT64_MIN,       \
    INT64_MAX)                                                                 \
  X(u8, uint8_t, CN_UINT8, UINT, uint64_t, u64, uint8_t, u8, 0, UINT8_MAX)     \
  X(u16, uint16_t, CN_UINT16, UINT, uint64_t, u64, uint16_t, u16, 0,           \
    UINT16_MAX)                                                                \
  X(u32, uint32_t, CN_UINT32, UINT, uint64_t, u64, uint32_t, u32, 0,           \
    UINT32_MAX)                                                                \
  X(u64, uint64_t, CN_UINT64, UINT, uint64_t, u64, uint64_t, u64, 0,           \
    UINT64_MAX)                                                                \
  X(f32, float, CN_FLOAT32, FLT, float, f32, float, f32, -INFINITY, INFINITY)  \
  X(f64, double, CN_FLOAT64, FLT, double, f64, double, f64, -INFINITY,         \
    INFINITY)                                                                  \
  X(c64, float _Complex, CN_COMPLEX64, CPX, float _Complex, c64, float, f32,   \
    RK_CF_(-INFINITY), RK_CF_(INFINITY))                                       \
  X(c128, double _Complex, CN_COMPLEX128, CPX, double _Complex, c128, double,  \
    f64, RK_CD_(-INFINITY), RK_CD_(INFINITY))

#define RK_LD(T, p) (*(const T *)(const void *)(p))

/* Class helpers: BOOL, INT, UINT, FLT, CPX. */
#define RK_ISNAN_BOOL(x) ((void)(x), 0)
#define RK_ISNAN_INT(x) ((void)(x), 0)
#define RK_ISNAN_UINT(x) ((void)(x), 0)
#define RK_ISNAN_FLT(x) ((x) != (x))
#define RK_ISNAN_CPX(x)                                                        \
  (__real__(x) != __real__(x) || __imag__(x) != __imag__(x))

/* a < b; complex compares lexicographically, as NumPy. */
#define RK_LT_BOOL(a, b) ((a) < (b))
#define RK_LT_INT(a, b) ((a) < (b))
#define RK_LT_UINT(a, b) ((a) < (b))
#define RK_LT_FLT(a, b) ((a) < (b))
/* A NaN in either part makes the comparison false, as for real NaN. */
#define RK_LT_CPX(a, b)                                                        \
  (!RK_ISNAN_CPX(a) && !RK_ISNAN_CPX(b) &&                                     \
   (__real__(a) < __real__(b) ||                                               \
    (__real__(a) == __real__(b) && __imag__(a) < __imag__(b))))

/* Value of an element in arithmetic (bool bytes other than 0/1 count as 1).*/
#define RK_CV_BOOL(x) ((x) != 0)
#define RK_CV_INT(x) (x)
#define RK_CV_UINT(x) (x)
#define RK_CV_FLT(x) (x)
#define RK_CV_CPX(x) (x)

/* Products: complex uses the textbook formula, as NumPy (C's complex
 * multiply would rescue some inf*nan cases NumPy does not). */
#define RK_MUL_BOOL(a, b) ((a) * (b))
#define RK_MUL_INT(a, b) ((a) * (b))
#define RK_MUL_UINT(a, b) ((a) * (b))
#define RK_MUL_FLT(a, b) ((a) * (b))
#define RK_MUL_CPX(a, b)                                                       \
  ({                                                                           \
    __typeof__(a) ma_ = (a), mb_ = (b);                                        \
    __builtin_complex(                                                         \
        __real__ ma_ *__real__ mb_ - __imag__ ma_ * __imag__ mb_,              \
        __real__ ma_ * __imag__ mb_ + __imag__ ma_ * __real__ mb_);            \
  })

/* |d|^2 in the real type. */
#define RK_SQ_FLT(d) ((d) * (d))
#define RK_SQ_CPX(d)                                                           \
  ({                                                                           \
    __typeof__(d) sd_ = (d);                                                   \
    __real__ sd_ *__real__ sd_ + __imag__ sd_ *__imag__ sd_;                   \
  })

/* Code kept only for some classes. */
#define RK_IF_INEXACT_BOOL(...)
#define RK_IF_INEXACT_INT(...)
#define RK_IF_INEXACT_UINT(...)
#define RK_IF_INEXACT_FLT(...) __VA_ARGS__
#define RK_IF_INEXACT_CPX(...) __VA_ARGS__
#define RK_IF_INTEGRAL_BOOL(...) __VA_ARGS__
#define RK_IF_INTEGRAL_INT(...) __VA_ARGS__
#define RK_IF_INTEGRAL_UINT(...) __VA_ARGS__
#define RK_IF_INTEGRAL_FLT(...)
#define RK_IF_INTEGRAL_CPX(...)

/* Writes v (of any arithmetic type) to out as dtype odt: C conversions,
 * except that bool gets v != 0. */
#define RK_STORE_AS(out, odt, v)                                               \
  do {                                                                         \
    switch (odt) {                                                             \
    case CN_BOOL:                                                              \
      *(uint8_t *)(out) = (uint8_t)((v) != 0);                                 \
      break;                                                                   \
    case CN_INT8:                                                              \
      *(int8_t *)(out) = (int8_t)(v);                                          \
      break;                                                                   \
    case CN_INT16:                                                             \
      *(int16_t *)(out) = (int16_t)(v);                                        \
      break;                                                                   \
    case CN_INT32:                                                             \
      *(int32_t *)(out) = (int32_t)(v);                                        \
      break;                                                                   \
    case CN_INT64:                                                             \
      *(int64_t *)(out) = (int64_t)(v);                                        \
      break;                                                                   \
    case CN_UINT8:                                                             \
      *(uint8_t *)(out) = (uint8_t)(v);                                        \
      break;                                                                   \
    case CN_UINT16:                                                            \
      *(uint16_t *)(out) = (uint16_t)(v);                                      \
      break;                                                                   \
    case CN_UINT32:                                                            \
      *(uint32_t *)(out) = (uint32_t)(v);                                      \
      break;                                                                   \
    case CN_UINT64:                                                            \
      *(uint64_t *)(out) = (uint64_t)(v);                                      \
      break;                                                                   \
    case CN_FLOAT32:                                                           \
      *(float *)(out) = (float)(v);                                            \
      break;                                                                   \
    case CN_FLOAT64:                                                           \
      *(double *)(out) = (double)(v);                                          \
      break;                                                                   \
    case CN_COMPLEX64:                                                         \
      *(float _Complex *)(out) = (float _Complex)(v);                          \
      break;                                                                   \
    case CN_COMPLEX128:                                                        \
      *(double _Complex *)(out) = (double _Complex)(v);                        \
      break;                                                                   \
    default:                                                                   \
      break;                                                                   \
    }                                                                          \
  } while (0)

#endif
