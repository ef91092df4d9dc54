/* Elementwise launches: op-table ops, casting copies, fills and where.
 * Operands are coalesced first; when every operand is then one contiguous
 * run the contiguous kernel runs, else the index-computing one. */
#include <stdio.h>
#include <string.h>

#include "cuda_internal.h"

#define THREADS 256
#define EW_ITEMS 4 /* CN_EW_ITEMS in prelude/elementwise.cuh */

/* Layout of cn_geom in prelude/elementwise.cuh. */
typedef struct {
  int32_t ndim;
  int64_t shape[CN_MAX_DIMS];
  int64_t st[4][CN_MAX_DIMS];
} geom;

/* Coalesces ops (operand 0 the output); true when all are contiguous. */
static bool make_geom(geom *g, int32_t nop, const cn_array_s *const *ops) {
  cn_iter_shape it;
  cn_cu_svc->iter_coalesce(&it, nop, ops);
  memset(g, 0, sizeof *g);
  g->ndim = it.ndim;
  for (int32_t d = 0; d < it.ndim; d++) {
    g->shape[d] = it.shape[d];
    for (int32_t k = 0; k < nop; k++)
      g->st[k][d] = it.strides[k][d];
  }
  if (it.ndim != 1)
    return false;
  for (int32_t k = 0; k < nop; k++)
    if (it.strides[k][0] != cn_itemsize(ops[k]->dtype) && it.shape[0] > 1)
      return false;
  return true;
}

static long long strided_blocks(long long n) {
  int dev = 0;
  cudaGetDevice(&dev);
  long long cap = (long long)cn_cu_devinfo_get(dev)->sms * 32;
  long long b = (n + THREADS - 1) / THREADS;
  return b < cap ? b : cap;
}

long long cn_cu_grid_blocks(long long n) { return strided_blocks(n); }

/* Runs a two-kernel (contiguous, strided) elementwise program on ops. */
static cn_status run_ew(const char *key, cn_cu_gen_fn gen, void *ctx,
                        int32_t nop, const cn_array_s *const *ops,
                        const char *what) {
  long long n = ops[0]->size;
  if (n == 0)
    return CN_OK;
  geom g;
  bool contig = make_geom(&g, nop, ops);
  void *p[4] = {NULL, NULL, NULL, NULL};
  bool aligned = contig;
  for (int32_t i = 0; i < nop; i++) {
    p[i] = ops[i]->data;
    int64_t isz = cn_itemsize(ops[i]->dtype);
    uintptr_t al = (uintptr_t)(4 * isz > 16 ? 16 : 4 * isz);
    aligned = aligned && ((uintptr_t)p[i] % al) == 0;
  }
  cudaKernel_t k;
  cn_status st =
      cn_cu_kernel(&k, key, aligned ? 2 : (contig ? 0 : 1), gen, ctx);
  if (st != CN_OK)
    return st;
  if (aligned) {
    void *args[] = {&n, &p[0], &p[1], &p[2], &p[3]};
    long long nv = (n + 3) / 4;
    return cn_cu_launch(k, (nv + THREADS - 1) / THREADS, 1, THREADS, args,
                        what);
  }
  if (contig) {
    void *args[] = {&n, &p[0], &p[1], &p[2], &p[3]};
    long long per = (long long)THREADS * EW_ITEMS;
    return cn_cu_launch(k, (n + per - 1) / per, 1, THREADS, args, what);
  }
  void *args[] = {&n, &g, &p[0], &p[1], &p[2], &p[3]};
  return cn_cu_launch(k, strided_blocks(n), 1, THREADS, args, what);
}

/* ---- op-table ops ----------------------------------------------------------
 */

typedef struct {
  int32_t op;
  const cn_op_info *info;
  cn_dtype compute;
} ew_ctx;

static bool gen_ew(cn_cu_src *s, void *ctx, char names[][CN_CU_NAME_CAP]) {
  ew_ctx *c = ctx;
  return cn_cu_gen_elementwise(s, c->op, c->info, c->compute, names);
}

cn_status cn_cu_elementwise(int32_t op, cn_dtype compute, int32_t nin,
                            const cn_array_s *const *in, cn_array_s *out) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(out), "cuda elementwise");
  if (op < 0 || op >= CN_OP_COUNT_)
    return cn_cu_error(CN_ERR_INTERNAL, "cuda elementwise: bad op %d", (int)op);
  const cn_op_info *info = &cn_cu_svc->op_table()[op];
  /* the core computes float16 in float32 but for the ops with a float16
   * loop of their own (nextafter, spacing), which run on the CPU only */
  if (compute == CN_FLOAT16)
    return cn_cu_error(CN_ERR_TYPE,
                       "cuda elementwise: '%s' on float16 runs on the CPU "
                       "backend only",
                       info->name);
  if (nin != info->nin || nin < 1 || nin > 3 || cn_cu_ctype(compute) == NULL)
    return cn_cu_error(CN_ERR_INTERNAL,
                       "cuda elementwise: bad arguments for '%s'", info->name);
  const cn_array_s *ops[4] = {out, in[0], nin > 1 ? in[1] : NULL,
                              nin > 2 ? in[2] : NULL};
  char key[128], what[128];
  snprintf(key, sizeof key, "ew:%s:%s", info->name, cn_cu_tag(compute));
  snprintf(what, sizeof what, "elementwise %s (%s)", info->name,
           cn_cu_tag(compute));
  ew_ctx c = {op, info, compute};
  return run_ew(key, gen_ew, &c, 1 + nin, ops, what);
}

/* ---- casts ------------------------------------------------------------------
 */

typedef struct {
  cn_dtype to, from;
} cast_ctx;

static bool gen_cast(cn_cu_src *s, void *ctx, char names[][CN_CU_NAME_CAP]) {
  cast_ctx *c = ctx;
  return cn_cu_gen_assign(s, c->to, c->from, names);
}

cn_status cn_cu_assign(cn_array_s *dst, const cn_array_s *src) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(dst), "cuda assign");
  if (dst->size == 0)
    return CN_OK;
  const cn_array_s *ops[2] = {dst, src};
  if (dst->dtype == src->dtype) {
    geom g;
    if (make_geom(&g, 2, ops)) { /* same-dtype contiguous: a plain copy */
      cn_cu_note_launch("device copy");
      CN_CU_TRY(cudaMemcpyAsync(dst->data, src->data,
                                (size_t)dst->size * cn_itemsize(dst->dtype),
                                cudaMemcpyDeviceToDevice, cn_cu_stream()),
                "cudaMemcpyAsync (device copy)");
      return CN_OK;
    }
  }
  char key[64], what[64];
  snprintf(key, sizeof key, "cast:%s:%s", cn_cu_tag(src->dtype),
           cn_cu_tag(dst->dtype));
  snprintf(what, sizeof what, "assign %s -> %s", cn_cu_tag(src->dtype),
           cn_cu_tag(dst->dtype));
  cast_ctx c = {dst->dtype, src->dtype};
  return run_ew(key, gen_cast, &c, 2, ops, what);
}

/* ---- fill
 * ---------------------------------------------------------------------- */

static bool gen_fill(cn_cu_src *s, void *ctx, char names[][CN_CU_NAME_CAP]) {
  return cn_cu_gen_fill(s, *(cn_dtype *)ctx, names);
}

cn_status cn_cu_fill(cn_array_s *dst, const void *value) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(dst), "cuda fill");
  long long n = dst->size;
  if (n == 0)
    return CN_OK;
  const cn_array_s *ops[1] = {dst};
  geom g;
  bool contig = make_geom(&g, 1, ops);
  cn_dtype dt = dst->dtype;
  char key[32], what[32];
  snprintf(key, sizeof key, "fill:%s", cn_cu_tag(dt));
  snprintf(what, sizeof what, "fill %s", cn_cu_tag(dt));
  cudaKernel_t k;
  cn_status st = cn_cu_kernel(&k, key, contig ? 0 : 1, gen_fill, &dt);
  if (st != CN_OK)
    return st;
  void *p = dst->data;
  void *v = (void *)value;
  if (contig) {
    void *args[] = {&n, &p, v};
    return cn_cu_launch(k, strided_blocks(n), 1, THREADS, args, what);
  }
  void *args[] = {&n, &g, &p, v};
  return cn_cu_launch(k, strided_blocks(n), 1, THREADS, args, what);
}

/* ---- where
 * ---------------------------------------------------------------------- */

static bool gen_where(cn_cu_src *s, void *ctx, char names[][CN_CU_NAME_CAP]) {
  return cn_cu_gen_where(s, *(cn_dtype *)ctx, names);
}

cn_status cn_cu_where(const cn_array_s *cond, const cn_array_s *x,
                      const cn_array_s *y, cn_array_s *out) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(out), "cuda where");
  const cn_array_s *ops[4] = {out, cond, x, y};
  cn_dtype dt = out->dtype;
  char key[32], what[32];
  snprintf(key, sizeof key, "where:%s", cn_cu_tag(dt));
  snprintf(what, sizeof what, "where %s", cn_cu_tag(dt));
  return run_ew(key, gen_where, &dt, 4, ops, what);
}
