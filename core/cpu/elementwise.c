/* The CPU elementwise driver: picks the typed kernel of an op (or its SLEEF
 * vector kernel), coalesces the operands' dimensions and runs the innermost
 * loop over the outer index space, split across OpenMP threads. */
#include <omp.h>

#include "elementwise.h"

/* Kernel table of compute dtype dt. */
static const cn_ew_kernel *cn_ew_table(cn_dtype dt) {
  switch (dt) {
#define CN_EW_CASE_(sfx, ctype, cls, cdt)                                      \
  case cdt:                                                                    \
    return cn_ew_kernels_##sfx;
    CN_CPU_DTYPES(CN_EW_CASE_)
  case CN_FLOAT16:
    return cn_ew_kernels_f16;
#undef CN_EW_CASE_
  default:
    return NULL;
  }
}

cn_ew_kernel cn_ew_kernel_for(int32_t op, cn_dtype dt) {
  const cn_ew_kernel *table = cn_ew_table(dt);
  return op < 0 || op >= CN_OP_COUNT_ || table == NULL ? NULL : table[op];
}

/* Runs kernel k over flat elements [lo, hi) of the coalesced space. */
static void cn_ew_run_range(cn_ew_kernel k, int32_t nop,
                            const cn_iter_shape *it, char *const *base,
                            int64_t lo, int64_t hi) {
  const int32_t nd = it->ndim;
  const int64_t inner = it->shape[nd - 1];
  int64_t idx[CN_MAX_DIMS];
  char *p[4];
  int64_t s[4];
  /* multi-index of the first element */
  int64_t rem = lo / inner, off = lo % inner;
  for (int32_t d = nd - 2; d >= 0; d--) {
    idx[d] = rem % it->shape[d];
    rem /= it->shape[d];
  }
  for (int32_t k2 = 0; k2 < nop; k2++) {
    char *q = base[k2] + off * it->strides[k2][nd - 1];
    for (int32_t d = 0; d < nd - 1; d++)
      q += idx[d] * it->strides[k2][d];
    p[k2] = q;
    s[k2] = it->strides[k2][nd - 1];
  }
  int64_t done = lo;
  while (done < hi) {
    int64_t cnt = inner - off;
    if (cnt > hi - done)
      cnt = hi - done;
    k(cnt, p, s);
    done += cnt;
    if (done >= hi)
      break;
    /* next row: rewind the inner offset and advance the odometer */
    for (int32_t k2 = 0; k2 < nop; k2++)
      p[k2] -= off * s[k2];
    off = 0;
    for (int32_t d = nd - 2; d >= 0; d--) {
      for (int32_t k2 = 0; k2 < nop; k2++)
        p[k2] += it->strides[k2][d];
      if (++idx[d] < it->shape[d])
        break;
      for (int32_t k2 = 0; k2 < nop; k2++)
        p[k2] -= it->shape[d] * it->strides[k2][d];
      idx[d] = 0;
    }
  }
}

/* Runs k over every element of the same-shape operands ops[0..nop) (ops[0]
 * the output), in parallel when the work pays for the threads. cost scales
 * the element count for expensive kernels. */
static void cn_ew_run(cn_ew_kernel k, cn_ew_kernel contig, int32_t nop,
                      const cn_array_s *const *ops, int64_t cost) {
  cn_iter_shape it;
  cn_iter_coalesce(&it, nop, ops);
  char *base[4];
  for (int32_t i = 0; i < nop; i++)
    base[i] = ops[i]->data;
  if (contig) {
    bool all = true;
    for (int32_t i = 0; i < nop; i++)
      all = all && it.strides[i][it.ndim - 1] == cn_itemsize(ops[i]->dtype);
    if (all)
      k = contig;
  }
  const int64_t total = ops[0]->size;
  int nth = cn_cpu_threads_for(total * cost);
  if (nth <= 1) {
    cn_ew_run_range(k, nop, &it, base, 0, total);
    return;
  }
#pragma omp parallel num_threads(nth)
  {
    int t = omp_get_thread_num(), nt = omp_get_num_threads();
    /* chunk edges on multiples of 64 elements keep threads off each
     * other's output cache lines */
    int64_t chunk = (total + nt - 1) / nt;
    chunk = (chunk + 63) & ~(int64_t)63;
    int64_t lo = (int64_t)t * chunk, hi = lo + chunk;
    if (hi > total)
      hi = total;
    if (lo < hi)
      cn_ew_run_range(k, nop, &it, base, lo, hi);
  }
}

cn_status cn_cpu_elementwise(int32_t op, cn_dtype compute, int32_t nin,
                             const cn_array_s *const *in, cn_array_s *out) {
  const cn_ew_kernel *table = cn_ew_table(compute);
  cn_ew_kernel half = NULL;
  if (compute == CN_FLOAT16 && op >= 0 && op < CN_OP_COUNT_ &&
      table[op] == NULL)
    half = cn_ew_f16_via_f32_kernel(op);
  if (op < 0 || op >= CN_OP_COUNT_ || table == NULL ||
      (table[op] == NULL && half == NULL) || nin != cn_op_table()[op].nin)
    return cn_error(CN_ERR_INTERNAL,
                    "cn_cpu_elementwise: no loop for op %d with dtype %s", op,
                    cn_dtype_name(compute));
  if (out->size == 0)
    return CN_OK;
  const cn_array_s *ops[4] = {out, NULL, NULL, NULL};
  for (int32_t i = 0; i < nin; i++)
    ops[i + 1] = in[i];
  if (half != NULL) {
    /* float32 work plus two conversions per element */
    cn_ew_run(half, NULL, nin + 1, ops,
              cn_ew_sleef_kernel(op, CN_FLOAT32) ? 8 : 2);
    return CN_OK;
  }
  /* an exponent that is one value everywhere (all strides 0) */
  if (op == CN_OPID_power) {
    bool scalar = true;
    for (int32_t d = 0; d < in[1]->ndim; d++)
      scalar = scalar && in[1]->strides[d] == 0;
    cn_ew_kernel k = scalar ? cn_ew_power_scalar_kernel(compute) : NULL;
    if (k != NULL) {
      cn_ew_run(k, NULL, 3, ops, cn_is_float(compute) ? 8 : 2);
      return CN_OK;
    }
  }
  cn_ew_kernel sleef = cn_ew_sleef_kernel(op, compute);
  /* transcendental and complex loops do ~10-50x the work of an add */
  int64_t cost = sleef || cn_is_complex(compute) ? 8 : 1;
  cn_ew_run(table[op], sleef, nin + 1, ops, cost);
  return CN_OK;
}

/* ---- where ------------------------------------------------------------ */

/* where is a typed select on raw element bits, so one loop per item size
 * serves every dtype. */
typedef struct {
  uint64_t lo, hi;
} cn_ew_u128;

#define CN_EW_WHERE_DEF(T, S)                                                  \
  static void cn_ew_where_##S(int64_t n, char *const *p, const int64_t *s) {   \
    const int64_t z = sizeof(T);                                               \
    if (s[0] == z && s[1] == 1 && s[2] == z && s[3] == z) {                    \
      T *o = (T *)p[0];                                                        \
      const bool *c = (const bool *)p[1];                                      \
      const T *x = (const T *)p[2], *y = (const T *)p[3];                      \
      CN_IVDEP for (int64_t i = 0; i < n; i++) o[i] =                          \
          c[i] ? x[i] : y[i];                                                  \
      return;                                                                  \
    }                                                                          \
    if (s[0] == z && s[1] == 1 && s[2] == 0 && s[3] == 0) {                    \
      T *o = (T *)p[0];                                                        \
      const bool *c = (const bool *)p[1];                                      \
      const T x = *(const T *)p[2], y = *(const T *)p[3];                      \
      CN_IVDEP for (int64_t i = 0; i < n; i++) o[i] =                          \
          c[i] ? x : y;                                                        \
      return;                                                                  \
    }                                                                          \
    for (int64_t i = 0; i < n; i++) {                                          \
      bool c = *(const bool *)(p[1] + i * s[1]);                               \
      *(T *)(p[0] + i * s[0]) =                                                \
          c ? *(const T *)(p[2] + i * s[2]) : *(const T *)(p[3] + i * s[3]);   \
    }                                                                          \
  }
CN_EW_WHERE_DEF(uint8_t, 1)
CN_EW_WHERE_DEF(uint16_t, 2)
CN_EW_WHERE_DEF(uint32_t, 4)
CN_EW_WHERE_DEF(uint64_t, 8)
CN_EW_WHERE_DEF(cn_ew_u128, 16)

cn_status cn_cpu_where(const cn_array_s *cond, const cn_array_s *x,
                       const cn_array_s *y, cn_array_s *out) {
  cn_ew_kernel k;
  switch (cn_itemsize(out->dtype)) {
  case 1:
    k = cn_ew_where_1;
    break;
  case 2:
    k = cn_ew_where_2;
    break;
  case 4:
    k = cn_ew_where_4;
    break;
  case 8:
    k = cn_ew_where_8;
    break;
  case 16:
    k = cn_ew_where_16;
    break;
  default:
    return cn_error(CN_ERR_INTERNAL, "cn_cpu_where: unsupported dtype %s",
                    cn_dtype_name(out->dtype));
  }
  if (cond->dtype != CN_BOOL || x->dtype != out->dtype ||
      y->dtype != out->dtype)
    return cn_error(CN_ERR_INTERNAL, "cn_cpu_where: operands not resolved");
  if (out->size == 0)
    return CN_OK;
  const cn_array_s *ops[4] = {out, cond, x, y};
  cn_ew_run(k, NULL, 4, ops, 1);
  return CN_OK;
}
