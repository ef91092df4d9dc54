/* The ufunc_at slot on the CPU: NumPy's unbuffered a[pos[k]] op= b[k],
 * one element at a time in index order (a repeated position must see the
 * earlier updates, so the loop cannot be split or vectorised across k).
 * Each step calls the op table's typed kernel on one element: in place
 * when a already has the compute and output dtype, else through casts to
 * and from a small scratch. */
#include "elementwise.h"

/* Byte offset of flat C-order position k in a. */
static inline int64_t at_offset(const cn_array_s *a, int64_t k,
                                int64_t isz) {
  int64_t off = 0;
  for (int32_t d = a->ndim - 1; d >= 0; d--) {
    int64_t n = a->shape[d];
    off += (k % n) * a->strides[d];
    k /= n;
  }
  return off * isz;
}

/* Typed loops for the common ops on a C-contiguous a of the compute dtype:
 * a call of the op table's kernel per element costs more than the update.
 * Same formulas as the table's scalar loops (maximum keeps a NaN of either
 * side, fmax drops one). */
#define AT_LOOP(T, EXPR)                                                       \
  do {                                                                         \
    T *x = (T *)(void *)a->data;                                               \
    const T *y = (const T *)(const void *)b->data;                             \
    for (int64_t j = 0; j < n; j++) {                                          \
      T u = x[ix[j]], w = y[j];                                                \
      x[ix[j]] = (EXPR);                                                       \
    }                                                                          \
  } while (0)
#define AT_INT_OPS(T, U)                                                       \
  switch (op) {                                                                \
  case CN_OPID_add: AT_LOOP(T, (T)((U)u + (U)w)); return true;                 \
  case CN_OPID_subtract: AT_LOOP(T, (T)((U)u - (U)w)); return true;            \
  case CN_OPID_multiply: AT_LOOP(T, (T)((U)u * (U)w)); return true;            \
  case CN_OPID_maximum: AT_LOOP(T, u >= w ? u : w); return true;               \
  case CN_OPID_minimum: AT_LOOP(T, u <= w ? u : w); return true;               \
  default: return false;                                                       \
  }
#define AT_FLOAT_OPS(T)                                                        \
  switch (op) {                                                                \
  case CN_OPID_add: AT_LOOP(T, u + w); return true;                            \
  case CN_OPID_subtract: AT_LOOP(T, u - w); return true;                       \
  case CN_OPID_multiply: AT_LOOP(T, u * w); return true;                       \
  case CN_OPID_maximum: AT_LOOP(T, (u >= w || u != u) ? u : w); return true;   \
  case CN_OPID_minimum: AT_LOOP(T, (u <= w || u != u) ? u : w); return true;   \
  case CN_OPID_fmax: AT_LOOP(T, (u >= w || w != w) ? u : w); return true;      \
  case CN_OPID_fmin: AT_LOOP(T, (u <= w || w != w) ? u : w); return true;      \
  default: return false;                                                       \
  }

/* Runs a typed loop and returns true, or false when there is none. The
 * unsigned arithmetic of the integer loops wraps as NumPy's does. */
static bool at_typed(int32_t op, cn_array_s *a, const int64_t *ix, int64_t n,
                     const cn_array_s *b) {
  switch (a->dtype) {
  case CN_FLOAT64: AT_FLOAT_OPS(double)
  case CN_FLOAT32: AT_FLOAT_OPS(float)
  case CN_INT64: AT_INT_OPS(int64_t, uint64_t)
  case CN_UINT64: AT_INT_OPS(uint64_t, uint64_t)
  case CN_INT32: AT_INT_OPS(int32_t, uint32_t)
  case CN_UINT32: AT_INT_OPS(uint32_t, uint32_t)
  default: return false;
  }
}

static cn_status cpu_ufunc_at(int32_t op, cn_dtype compute, cn_array_s *a,
                              const cn_array_s *pos, const cn_array_s *b) {
  const cn_op_info *info = &cn_op_table()[op];
  const cn_dtype odt = cn_op_out_dtype(op, compute);
  cn_ew_kernel k = cn_ew_kernel_for(op, compute);
  if (k == NULL)
    return cn_error(CN_ERR_INTERNAL,
                    "cn_cpu_ufunc_at: no loop for op %s with dtype %s",
                    info->name, cn_dtype_name(compute));
  const int64_t n = pos->size, isz = cn_itemsize(a->dtype);
  const int64_t csz = cn_itemsize(compute), osz = cn_itemsize(odt);
  const int64_t *ix = (const int64_t *)(const void *)pos->data;
  const char *bp = b != NULL ? b->data : NULL;
  char *base = a->data;
  const bool contiguous = cn_array_is_c_contig(a);
  const bool direct = a->dtype == compute && odt == compute;
  if (direct && contiguous && b != NULL && at_typed(op, a, ix, n, b))
    return CN_OK;
  cn_cpu_cast_fn to_compute = direct ? NULL : cn_cpu_cast_for(compute, a->dtype);
  cn_cpu_cast_fn to_a = direct ? NULL : cn_cpu_cast_for(a->dtype, odt);
  /* 16 bytes hold any element; aligned for complex128 */
  _Alignas(16) char in_tmp[16], out_tmp[16];
  const int64_t s[3] = {direct ? isz : osz, direct ? isz : csz, csz};
  for (int64_t j = 0; j < n; j++) {
    char *ap = base + (contiguous ? ix[j] * isz : at_offset(a, ix[j], isz));
    char *p[3];
    if (direct) {
      p[0] = ap;
      p[1] = ap;
    } else {
      to_compute(in_tmp, csz, ap, isz, 1);
      p[0] = out_tmp;
      p[1] = in_tmp;
    }
    p[2] = bp != NULL ? (char *)bp + j * csz : NULL;
    k(1, p, s);
    if (!direct)
      to_a(ap, isz, out_tmp, osz, 1);
  }
  return CN_OK;
}

void cn_cpu_ufunc_at_fill(cn_backend_compute *t) { t->ufunc_at = cpu_ufunc_at; }
