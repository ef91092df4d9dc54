/* The ufunc_at and accumulate slots on the CPU.
 *
 * ufunc_at: NumPy's unbuffered a[pos[k]] op= b[k],
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
/* The common ops as typed loops: LOOP(T, EXPR) applies EXPR of the old
 * value u and the operand w. Integer arithmetic runs in the unsigned type U
 * (wrapping as NumPy's does), comparisons in T. */
#define OPS_INT(LOOP, T, U)                                                    \
  switch (op) {                                                                \
  case CN_OPID_add: LOOP(T, (T)((U)u + (U)w)); return true;                    \
  case CN_OPID_subtract: LOOP(T, (T)((U)u - (U)w)); return true;               \
  case CN_OPID_multiply: LOOP(T, (T)((U)u * (U)w)); return true;               \
  case CN_OPID_maximum: LOOP(T, u >= w ? u : w); return true;                  \
  case CN_OPID_minimum: LOOP(T, u <= w ? u : w); return true;                  \
  default: return false;                                                       \
  }
#define OPS_FLOAT(LOOP, T)                                                     \
  switch (op) {                                                                \
  case CN_OPID_add: LOOP(T, u + w); return true;                               \
  case CN_OPID_subtract: LOOP(T, u - w); return true;                          \
  case CN_OPID_multiply: LOOP(T, u * w); return true;                          \
  case CN_OPID_maximum: LOOP(T, (u >= w || u != u) ? u : w); return true;      \
  case CN_OPID_minimum: LOOP(T, (u <= w || u != u) ? u : w); return true;      \
  case CN_OPID_fmax: LOOP(T, (u >= w || w != w) ? u : w); return true;         \
  case CN_OPID_fmin: LOOP(T, (u <= w || w != w) ? u : w); return true;         \
  default: return false;                                                       \
  }
#define AT_INT_OPS(T, U) OPS_INT(AT_LOOP, T, U)
#define AT_FLOAT_OPS(T) OPS_FLOAT(AT_LOOP, T)

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

/* ---- accumulate -------------------------------------------------------- */

/* A running op along one line of n contiguous elements: the typed loops of
 * at_typed's ops, reading the previous result u and the element w. */
#define SCAN_LOOP(T, EXPR)                                                     \
  do {                                                                         \
    T *x = (T *)(void *)line;                                                  \
    for (int64_t j = 1; j < n; j++) {                                          \
      T u = x[j - 1], w = x[j];                                                \
      x[j] = (EXPR);                                                           \
    }                                                                          \
  } while (0)
#define SCAN_INT_OPS(T, U) OPS_INT(SCAN_LOOP, T, U)
#define SCAN_FLOAT_OPS(T) OPS_FLOAT(SCAN_LOOP, T)

static bool scan_typed(int32_t op, cn_dtype dt, char *line, int64_t n) {
  switch (dt) {
  case CN_FLOAT64: SCAN_FLOAT_OPS(double)
  case CN_FLOAT32: SCAN_FLOAT_OPS(float)
  case CN_INT64: SCAN_INT_OPS(int64_t, uint64_t)
  case CN_UINT64: SCAN_INT_OPS(uint64_t, uint64_t)
  case CN_INT32: SCAN_INT_OPS(int32_t, uint32_t)
  case CN_UINT32: SCAN_INT_OPS(uint32_t, uint32_t)
  default: return false;
  }
}

/* x C-contiguous: outer blocks of n steps of `inner` elements. A step with
 * inner > 1 is one kernel call over the row; lines (inner == 1) take a
 * typed loop, else a kernel call per element. Blocks are independent and
 * split across threads. */
static cn_status cpu_accumulate(int32_t op, cn_dtype dt, cn_array_s *x,
                                int32_t axis) {
  if (!cn_array_is_c_contig(x))
    return cn_error(CN_ERR_INTERNAL, "cn_cpu_accumulate: x is not C-contiguous");
  cn_ew_kernel k = cn_ew_kernel_for(op, dt);
  if (k == NULL)
    return cn_error(CN_ERR_INTERNAL,
                    "cn_cpu_accumulate: no loop for op %s with dtype %s",
                    cn_op_table()[op].name, cn_dtype_name(dt));
  int64_t outer = 1, inner = 1;
  for (int32_t d = 0; d < axis; d++)
    outer *= x->shape[d];
  for (int32_t d = axis + 1; d < x->ndim; d++)
    inner *= x->shape[d];
  const int64_t n = x->shape[axis], isz = cn_itemsize(dt);
  const int64_t block = n * inner * isz;
  int nt = cn_cpu_threads_for(x->size);
  if (nt > outer)
    nt = (int)outer;
#pragma omp parallel for num_threads(nt > 0 ? nt : 1) schedule(static)
  for (int64_t o = 0; o < outer; o++) {
    char *base = x->data + o * block;
    if (inner > 1) {
      const int64_t s[3] = {isz, isz, isz};
      for (int64_t i = 1; i < n; i++) {
        char *cur = base + i * inner * isz;
        char *p[3] = {cur, cur - inner * isz, cur};
        k(inner, p, s);
      }
    } else {
      char *line = base;
      if (!scan_typed(op, dt, line, n)) {
        const int64_t s[3] = {isz, isz, isz};
        for (int64_t i = 1; i < n; i++) {
          char *cur = line + i * isz;
          char *p[3] = {cur, cur - isz, cur};
          k(1, p, s);
        }
      }
    }
  }
  return CN_OK;
}

void cn_cpu_ufunc_methods_fill(cn_backend_compute *t) {
  t->ufunc_at = cpu_ufunc_at;
  t->accumulate = cpu_accumulate;
}
