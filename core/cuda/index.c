/* Indexing on the GPU: take / put and their along-axis forms, index
 * normalisation with a device-side error record, and the stream compaction
 * behind flatnonzero and mask_compress. Launch geometry and scratch sizes
 * come from index_plan.c (tested on the CPU); the kernels are the indexing
 * programs of codegen.c over prelude/index.cuh.
 *
 * Duplicate destinations in a scatter (put, put_along, mask assignment)
 * keep the last write in index order, as on the CPU. Each destination
 * claims the largest C-order position that writes it (atomicMax into a
 * scratch array over the destination's span), then only the winners
 * write. This costs two passes over the values and 8 bytes of scratch per
 * element of the destination's span, but no sort and no ordering between
 * blocks; a stable sort by destination would need a device sort and
 * O(n log n) work for the same answer. A few values into a huge array
 * (cn_cu_scatter_claims) are written by one thread in index order instead,
 * so that no scratch the size of the array is needed. */
#include <stdio.h>
#include <string.h>

#include "cuda_internal.h"
#include "index_plan.h"

#define THREADS 256

_Static_assert(sizeof(cn_cu_igeom) == 8 + 3 * 8 * CN_MAX_DIMS + 8 * CN_MAX_DIMS,
               "cn_cu_igeom must match cn_igeom of prelude/index.cuh");
_Static_assert(CN_CU_IDX_MAX_DIMS == CN_MAX_DIMS, "dimension limits differ");
_Static_assert(THREADS == CN_CU_CMP_THREADS, "compaction block size");

typedef struct {
  cn_cu_idx_prog prog;
  cn_dtype dt;
} idx_ctx;

static bool gen_idx(cn_cu_src *s, void *ctx, char names[][CN_CU_NAME_CAP]) {
  idx_ctx *c = ctx;
  return cn_cu_gen_index(s, c->prog, c->dt, names);
}

/* Kernel k of an indexing program. */
static cn_status idx_kernel(cudaKernel_t *k, cn_cu_idx_prog prog, cn_dtype dt,
                            int k_idx) {
  char key[48];
  idx_ctx c = {prog, dt};
  switch (prog) {
  case CN_CU_IDX_COMMON:
    snprintf(key, sizeof key, "idx:common");
    break;
  case CN_CU_IDX_COPY:
    snprintf(key, sizeof key, "idx:copy:%s", cn_cu_copy_tag(dt));
    break;
  default:
    snprintf(key, sizeof key, "idx:nz:%s", cn_cu_tag(dt));
  }
  return cn_cu_kernel(k, key, k_idx, gen_idx, &c);
}

/* ---- index normalisation ------------------------------------------------- */

cn_status cn_cu_index_normalize(cn_array_s *idx, int64_t extent, int32_t mode,
                                int64_t *bad) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(idx), "cuda index_normalize");
  *bad = -1;
  long long n = idx->size;
  if (n == 0)
    return CN_OK;
  cudaKernel_t k;
  cn_status st = idx_kernel(&k, CN_CU_IDX_COMMON, CN_INT64, 0);
  if (st != CN_OK)
    return st;
  unsigned long long *rec = NULL, host = 0;
  if ((st = cn_cu_scratch((void **)&rec, sizeof *rec)) != CN_OK)
    return st;
  cudaError_t e = cudaMemsetAsync(rec, 0xff, sizeof *rec, cn_cu_stream());
  if (e != cudaSuccess)
    st = cn_cu_fail(e, "cudaMemsetAsync (index error record)");
  long long ext = extent;
  int m = (int)mode;
  void *p = idx->data;
  void *args[] = {&n, &p, &ext, &m, &rec};
  if (st == CN_OK)
    st = cn_cu_launch(k, cn_cu_grid_blocks(n), 1, THREADS, args,
                      "index normalisation");
  /* The one read-back of the op: the first offending position, if any. */
  if (st == CN_OK)
    st = cn_cu_copy_to_host(&host, rec, sizeof host);
  cn_cu_scratch_free(rec);
  if (st == CN_OK && host != ~0ull)
    *bad = (int64_t)host;
  return st;
}

/* ---- gathers ----------------------------------------------------------------
 */

static cn_status gather(cn_array_s *out, const cn_array_s *a,
                        const cn_array_s *idx, int32_t axis, bool along,
                        const char *what) {
  long long n = out->size;
  if (n == 0)
    return CN_OK;
  cn_cu_igeom g;
  cn_cu_index_geom(&g, out->ndim, out->shape, out->strides, a->strides,
                   idx->strides, axis, along);
  cudaKernel_t k;
  cn_status st = idx_kernel(&k, CN_CU_IDX_COPY, a->dtype, 0);
  if (st != CN_OK)
    return st;
  void *po = out->data, *pa = a->data, *pi = idx->data;
  void *args[] = {&n, &g, &po, &pa, &pi};
  return cn_cu_launch(k, cn_cu_grid_blocks(n), 1, THREADS, args, what);
}

cn_status cn_cu_take(cn_array_s *out, const cn_array_s *a,
                     const cn_array_s *idx, int32_t axis) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(out), "cuda take");
  return gather(out, a, idx, axis, false, "take");
}

cn_status cn_cu_take_along(cn_array_s *out, const cn_array_s *a,
                           const cn_array_s *idx, int32_t axis) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(out), "cuda take_along");
  return gather(out, a, idx, axis, true, "take_along_axis");
}

/* ---- deterministic scatters ---------------------------------------------- */

static cn_status scatter(cn_array_s *a, const cn_array_s *idx, int32_t axis,
                         const cn_array_s *values, bool along,
                         const char *what) {
  long long n = values->size;
  if (n == 0)
    return CN_OK;
  cn_cu_igeom g;
  cn_cu_index_geom(&g, values->ndim, values->shape, values->strides,
                   a->strides, idx->strides, axis, along);
  int64_t lo = 0, span = 0;
  cn_cu_scatter_span(a->ndim, a->shape, a->strides, &lo, &span);
  if (span == 0)
    return CN_OK;
  void *pa = a->data, *pv = values->data, *pi = idx->data;
  cudaKernel_t claim, write;
  if (!cn_cu_scatter_claims(n, span)) {
    cn_status st = idx_kernel(&write, CN_CU_IDX_COPY, a->dtype, 3);
    void *args[] = {&n, &g, &pa, &pv, &pi};
    if (st == CN_OK)
      st = cn_cu_launch(write, 1, 1, 1, args, what);
    return st;
  }
  cn_status st = idx_kernel(&claim, CN_CU_IDX_COMMON, CN_INT64, 1);
  if (st == CN_OK)
    st = idx_kernel(&write, CN_CU_IDX_COPY, a->dtype, 1);
  if (st != CN_OK)
    return st;
  unsigned long long *win = NULL;
  if ((st = cn_cu_scratch((void **)&win, (size_t)span * sizeof *win)) !=
      CN_OK)
    return st;
  cudaError_t e =
      cudaMemsetAsync(win, 0, (size_t)span * sizeof *win, cn_cu_stream());
  if (e != cudaSuccess)
    st = cn_cu_fail(e, "cudaMemsetAsync (scatter claims)");
  long long lo_ = lo;
  long long blocks = cn_cu_grid_blocks(n);
  if (st == CN_OK) {
    void *args[] = {&n, &g, &pi, &lo_, &win};
    st = cn_cu_launch(claim, blocks, 1, THREADS, args, what);
  }
  if (st == CN_OK) {
    void *args[] = {&n, &g, &pa, &pv, &pi, &lo_, &win};
    st = cn_cu_launch(write, blocks, 1, THREADS, args, what);
  }
  cn_cu_scratch_free(win);
  return st;
}

cn_status cn_cu_put(cn_array_s *a, const cn_array_s *idx, int32_t axis,
                    const cn_array_s *values) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(a), "cuda put");
  return scatter(a, idx, axis, values, false, "put");
}

cn_status cn_cu_put_along(cn_array_s *a, const cn_array_s *idx, int32_t axis,
                          const cn_array_s *values) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(a), "cuda put_along");
  return scatter(a, idx, axis, values, true, "put_along_axis");
}

/* ---- stream compaction ----------------------------------------------------- */

/* Counts per tile with count (args: n, then count_args), scans the counts
 * over the plan's levels in scratch *offs (int64, freed by the caller) and
 * returns the selected total. */
static cn_status compact_offsets(long long **offs, int64_t *total,
                                 const cn_cu_cmp_plan *p, cudaKernel_t count,
                                 void **count_args, const char *what) {
  cudaKernel_t tile, add;
  cn_status st = idx_kernel(&tile, CN_CU_IDX_COMMON, CN_INT64, 2);
  if (st == CN_OK)
    st = idx_kernel(&add, CN_CU_IDX_COMMON, CN_INT64, 3);
  if (st != CN_OK)
    return st;
  long long *s = NULL;
  if ((st = cn_cu_scratch((void **)&s,
                          (size_t)p->scratch_entries * sizeof *s)) != CN_OK)
    return st;
  long long *lvl0 = s + p->off[0];
  count_args[3] = &lvl0; /* every count kernel ends with its counts */
  st = cn_cu_launch(count, p->tiles, 1, THREADS, count_args, what);
  for (int32_t l = 0; l < p->levels && st == CN_OK; l++) {
    long long len = p->len[l];
    long long *x = s + p->off[l];
    long long *up = s + (l + 1 < p->levels ? p->off[l + 1] : p->total_off);
    void *args[] = {&len, &x, &up};
    st = cn_cu_launch(tile, (len + CN_CU_CMP_TILE - 1) / CN_CU_CMP_TILE, 1,
                      THREADS, args, what);
  }
  for (int32_t l = p->levels - 2; l >= 0 && st == CN_OK; l--) {
    long long len = p->len[l];
    long long *x = s + p->off[l];
    const long long *up = s + p->off[l + 1];
    void *args[] = {&len, &x, &up};
    st = cn_cu_launch(add, cn_cu_grid_blocks(len), 1, THREADS, args, what);
  }
  long long t = 0;
  if (st == CN_OK) /* the size of the result: one small read-back */
    st = cn_cu_copy_to_host(&t, s + p->total_off, sizeof t);
  if (st != CN_OK) {
    cn_cu_scratch_free(s);
    return st;
  }
  *offs = s;
  *total = t;
  return CN_OK;
}

/* A new 1-d device array of n elements on a's device. */
static cn_status new_1d(cn_array_s **out, const cn_array_s *a, cn_dtype dt,
                        int64_t n) {
  return cn_cu_svc->array_new(out, a->buf->backend, a->buf->device_id, dt, 1,
                              &n, CN_ORDER_C);
}

cn_status cn_cu_flatnonzero(cn_array_s **out, const cn_array_s *a) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(a), "cuda flatnonzero");
  const char *what = "flatnonzero";
  cn_cu_cmp_plan p;
  if (!cn_cu_cmp_plan_make(&p, a->size))
    return cn_cu_error(CN_ERR_VALUE, "%s: %lld elements are too many", what,
                       (long long)a->size);
  if (p.n == 0)
    return new_1d(out, a, CN_INT64, 0);
  cn_cu_igeom g;
  int64_t none[CN_MAX_DIMS] = {0};
  cn_cu_index_geom(&g, a->ndim, a->shape, a->strides, none, none, -1, true);
  cudaKernel_t count, pos;
  cn_status st = idx_kernel(&count, CN_CU_IDX_NONZERO, a->dtype, 0);
  if (st == CN_OK)
    st = idx_kernel(&pos, CN_CU_IDX_NONZERO, a->dtype, 1);
  if (st != CN_OK)
    return st;
  long long n = p.n;
  void *pa = a->data;
  void *cargs[] = {&n, &g, &pa, NULL};
  long long *offs = NULL;
  int64_t total = 0;
  if ((st = compact_offsets(&offs, &total, &p, count, cargs, what)) != CN_OK)
    return st;
  cn_array_s *r = NULL;
  st = new_1d(&r, a, CN_INT64, total);
  if (st == CN_OK && total > 0) {
    void *po = r->data;
    void *args[] = {&n, &g, &pa, &po, &offs};
    st = cn_cu_launch(pos, p.tiles, 1, THREADS, args, what);
  }
  cn_cu_scratch_free(offs);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}

cn_status cn_cu_mask_compress(cn_array_s **out, const cn_array_s *a,
                              const cn_array_s *mask) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(a), "cuda mask_compress");
  const char *what = "mask_compress";
  cn_cu_cmp_plan p;
  if (!cn_cu_cmp_plan_make(&p, a->size))
    return cn_cu_error(CN_ERR_VALUE, "%s: %lld elements are too many", what,
                       (long long)a->size);
  if (p.n == 0)
    return new_1d(out, a, a->dtype, 0);
  /* The mask is C-contiguous: the bool nonzero count over one flat axis. */
  cn_cu_igeom g;
  int64_t flat = p.n, one = 1, zero = 0;
  cn_cu_index_geom(&g, 1, &flat, &one, &zero, &zero, -1, true);
  cudaKernel_t count, write;
  cn_status st = idx_kernel(&count, CN_CU_IDX_NONZERO, CN_BOOL, 0);
  if (st == CN_OK)
    st = idx_kernel(&write, CN_CU_IDX_COPY, a->dtype, 2);
  if (st != CN_OK)
    return st;
  long long n = p.n;
  void *pm = mask->data, *pa = a->data;
  void *cargs[] = {&n, &g, &pm, NULL};
  long long *offs = NULL;
  int64_t total = 0;
  if ((st = compact_offsets(&offs, &total, &p, count, cargs, what)) != CN_OK)
    return st;
  cn_array_s *r = NULL;
  st = new_1d(&r, a, a->dtype, total);
  if (st == CN_OK && total > 0) {
    void *po = r->data;
    void *args[] = {&n, &pm, &pa, &po, &offs};
    st = cn_cu_launch(write, p.tiles, 1, THREADS, args, what);
  }
  cn_cu_scratch_free(offs);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}
