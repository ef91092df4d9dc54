/* Odometer walks over strided n-d operands in C order, shared by the
 * indexing, sorting and statistics kernels (byte strides, up to 4
 * operands). C order matters here: scatter kernels promise index order. */
#ifndef CUNUMPY_CPU_ND_WALK_H
#define CUNUMPY_CPU_ND_WALK_H

#include <string.h>

#include "../internal.h"

typedef struct cn_walk {
  int32_t nd;
  int32_t nop;
  int64_t shape[CN_MAX_DIMS];
  int64_t ctr[CN_MAX_DIMS];
  int64_t strides[4][CN_MAX_DIMS]; /* bytes */
  char *ptr[4];
} cn_walk;

/* Starts a walk at linear C-order position `start` over shape. */
static inline void cn_walk_init(cn_walk *w, int32_t nd, const int64_t *shape,
                                int32_t nop, char *const *base,
                                const int64_t (*strides)[CN_MAX_DIMS],
                                int64_t start) {
  w->nd = nd;
  w->nop = nop;
  for (int32_t d = 0; d < nd; d++)
    w->shape[d] = shape[d];
  for (int32_t k = 0; k < nop; k++) {
    w->ptr[k] = base[k];
    for (int32_t d = 0; d < nd; d++)
      w->strides[k][d] = strides[k][d];
  }
  for (int32_t d = nd - 1; d >= 0; d--) {
    int64_t e = shape[d] > 0 ? shape[d] : 1;
    w->ctr[d] = start % e;
    start /= e;
    for (int32_t k = 0; k < nop; k++)
      w->ptr[k] += w->ctr[d] * w->strides[k][d];
  }
}

/* Advances by one element in C order. */
static inline void cn_walk_next(cn_walk *w) {
  for (int32_t d = w->nd - 1; d >= 0; d--) {
    if (++w->ctr[d] < w->shape[d]) {
      for (int32_t k = 0; k < w->nop; k++)
        w->ptr[k] += w->strides[k][d];
      return;
    }
    w->ctr[d] = 0;
    for (int32_t k = 0; k < w->nop; k++)
      w->ptr[k] -= (w->shape[d] - 1) * w->strides[k][d];
  }
}

/* Byte strides of an array (its element strides times the itemsize). */
static inline void cn_walk_bytes(int64_t *out, const cn_array_s *a) {
  int64_t is = cn_itemsize(a->dtype);
  for (int32_t d = 0; d < a->ndim; d++)
    out[d] = a->strides[d] * is;
}

/* Copies one element of `size` bytes (sizes 1..16). */
static inline void cn_copy_elem(char *dst, const char *src, int64_t size) {
  switch (size) {
  case 1:
    *dst = *src;
    break;
  case 2:
    memcpy(dst, src, 2);
    break;
  case 4:
    memcpy(dst, src, 4);
    break;
  case 8:
    memcpy(dst, src, 8);
    break;
  case 16:
    memcpy(dst, src, 16);
    break;
  default:
    memcpy(dst, src, (size_t)size);
    break;
  }
}

/* Truth value of one element (NaN is true, -0.0 false). */
static inline bool cn_elem_truth(const char *p, cn_dtype dt) {
  switch (dt) {
  case CN_FLOAT32: {
    float v;
    memcpy(&v, p, 4);
    return v != 0.0f;
  }
  case CN_FLOAT64: {
    double v;
    memcpy(&v, p, 8);
    return v != 0.0;
  }
  case CN_COMPLEX64: {
    float v[2];
    memcpy(v, p, 8);
    return v[0] != 0.0f || v[1] != 0.0f;
  }
  case CN_COMPLEX128: {
    double v[2];
    memcpy(v, p, 16);
    return v[0] != 0.0 || v[1] != 0.0;
  }
  default: {
    int64_t n = cn_itemsize(dt);
    for (int64_t i = 0; i < n; i++)
      if (p[i])
        return true;
    return false;
  }
  }
}

#endif
