/* Order-preserving maps from real element values to unsigned integer keys:
 * a < b (NumPy's order, NaN last) iff key(a) < key(b). Shared by the CPU
 * sort kernel and the searching / set entry points. The CUDA backend is
 * expected to use the same maps so that sorted orders agree bit for bit.
 *
 * - unsigned ints: the value; signed ints: the value with its sign bit
 *   flipped; bool: 0/1.
 * - floats (bits u of width w): NaN -> all ones (every NaN equal, after
 *   +inf); negative -> ~u; non-negative -> u | sign bit. With `canon`, -0.0
 *   maps to +0.0's key so the two compare equal, as NumPy's comparisons. */
#ifndef CUNUMPY_SORT_KEYS_H
#define CUNUMPY_SORT_KEYS_H

#include <string.h>

#include "internal.h"
#include "sort_key_bits.h"

static inline uint64_t cn_key_f64(double x, bool canon) {
  uint64_t u;
  memcpy(&u, &x, 8);
  return cn_key_bits64(u, canon);
}
static inline double cn_unkey_f64(uint64_t k) {
  uint64_t u = cn_unkey_bits64(k);
  double x;
  memcpy(&x, &u, 8);
  return x;
}
static inline uint64_t cn_key_f32(float x, bool canon) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return cn_key_bits32(u, canon);
}
static inline float cn_unkey_f32(uint64_t k) {
  uint32_t u = cn_unkey_bits32(k);
  float x;
  memcpy(&x, &u, 4);
  return x;
}

/* Key of one element of a real (or bool) dtype read from p. */
static inline uint64_t cn_key_of(const void *p, cn_dtype dt, bool canon) {
  switch (dt) {
  case CN_BOOL:
    return *(const uint8_t *)p != 0;
  case CN_INT8:
    return cn_key_signed(*(const uint8_t *)p, 8);
  case CN_UINT8:
    return *(const uint8_t *)p;
  case CN_INT16: {
    int16_t v;
    memcpy(&v, p, 2);
    return cn_key_signed((uint16_t)v, 16);
  }
  case CN_UINT16: {
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
  }
  case CN_INT32: {
    int32_t v;
    memcpy(&v, p, 4);
    return cn_key_signed((uint32_t)v, 32);
  }
  case CN_UINT32: {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
  }
  case CN_INT64: {
    int64_t v;
    memcpy(&v, p, 8);
    return cn_key_signed((uint64_t)v, 64);
  }
  case CN_UINT64: {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
  }
  case CN_FLOAT16: {
    uint16_t v;
    memcpy(&v, p, 2);
    return cn_key_bits16(v, canon);
  }
  case CN_FLOAT32: {
    float v;
    memcpy(&v, p, 4);
    return cn_key_f32(v, canon);
  }
  case CN_FLOAT64: {
    double v;
    memcpy(&v, p, 8);
    return cn_key_f64(v, canon);
  }
  default:
    return 0;
  }
}

/* Writes the element of dtype dt whose key is k (inverse of cn_key_of
 * without canon; NaN keys give a quiet NaN). */
static inline void cn_unkey_to(void *p, uint64_t k, cn_dtype dt) {
  switch (dt) {
  case CN_BOOL:
  case CN_UINT8:
    *(uint8_t *)p = (uint8_t)k;
    break;
  case CN_INT8:
    *(uint8_t *)p = (uint8_t)cn_key_signed(k, 8);
    break;
  case CN_INT16: {
    uint16_t v = (uint16_t)cn_key_signed(k, 16);
    memcpy(p, &v, 2);
    break;
  }
  case CN_UINT16: {
    uint16_t v = (uint16_t)k;
    memcpy(p, &v, 2);
    break;
  }
  case CN_FLOAT16: {
    uint16_t v = (uint16_t)cn_unkey_bits16(k);
    memcpy(p, &v, 2);
    break;
  }
  case CN_INT32: {
    uint32_t v = (uint32_t)cn_key_signed(k, 32);
    memcpy(p, &v, 4);
    break;
  }
  case CN_UINT32: {
    uint32_t v = (uint32_t)k;
    memcpy(p, &v, 4);
    break;
  }
  case CN_INT64: {
    uint64_t v = cn_key_signed(k, 64);
    memcpy(p, &v, 8);
    break;
  }
  case CN_UINT64:
    memcpy(p, &k, 8);
    break;
  case CN_FLOAT32: {
    float v = cn_unkey_f32(k);
    memcpy(p, &v, 4);
    break;
  }
  case CN_FLOAT64: {
    double v = cn_unkey_f64(k);
    memcpy(p, &v, 8);
    break;
  }
  default:
    break;
  }
}

/* NumPy's complex order (npysort's cfloat less): values without NaN by
 * (real, imaginary), then R + nan j by R, then nan + R j by R, then
 * nan + nan j. */
static inline bool cn_cplx_less(double ar, double ai, double br, double bi) {
  int ca = (ar != ar) * 2 + (ai != ai), cb = (br != br) * 2 + (bi != bi);
  if (ca != cb)
    return ca < cb;
  switch (ca) {
  case 0:
    return ar < br || (ar == br && ai < bi);
  case 1:
    return ar < br;
  case 2:
    return ai < bi;
  default:
    return false;
  }
}

/* Search keys: key words per element, 1 for real dtypes; 3 for complex,
 * (class, key(re), key(im)) with class 0 for no NaN, 1 for R + nan j, 2
 * for nan + R j, 3 for nan + nan j and NaN parts keyed 0, so that
 * comparing the words in order is NumPy's complex order (NaNs last) and
 * equal keys of class 0 are equal values. All canonical (-0.0 == 0.0).
 * The CPU's searching, set operations and searchsorted kernel use them;
 * the CUDA searchsorted kernel orders by the same classes (prelude
 * search.cuh). */
static inline int cn_key_words(cn_dtype dt) { return cn_is_complex(dt) ? 3 : 1; }

static inline void cn_key_complex(uint64_t *w, double re, double im) {
  bool nr = re != re, ni = im != im;
  w[0] = (uint64_t)(nr ? 2 : 0) + (uint64_t)(ni ? 1 : 0);
  w[1] = nr ? 0 : cn_key_f64(re, true);
  w[2] = ni ? 0 : cn_key_f64(im, true);
}

/* The cn_key_words(dt) search-key words of the element at p. */
static inline void cn_search_key(uint64_t *w, const void *p, cn_dtype dt) {
  if (dt == CN_COMPLEX128)
    cn_key_complex(w, ((const double *)p)[0], ((const double *)p)[1]);
  else if (dt == CN_COMPLEX64)
    cn_key_complex(w, ((const float *)p)[0], ((const float *)p)[1]);
  else
    w[0] = cn_key_of(p, dt, true);
}

/* Compares search keys of nw words: <0, 0, >0. */
static inline int cn_key_cmp(const uint64_t *a, const uint64_t *b, int nw) {
  for (int w = 0; w < nw; w++)
    if (a[w] != b[w])
      return a[w] < b[w] ? -1 : 1;
  return 0;
}

/* searchsorted of key x among the n sorted keys k (nw words each): the
 * first position whose key is >= x (right: > x). */
static inline int64_t cn_key_bound(const uint64_t *k, int64_t n,
                                   const uint64_t *x, int nw, bool right) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    int c = cn_key_cmp(k + mid * nw, x, nw);
    if (right ? c <= 0 : c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

#endif
