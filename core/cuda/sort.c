/* The sort slot on the GPU: a stable LSD radix sort of order-preserving
 * keys (core/sort_key_bits.h, shared with the CPU) by the kernels of
 * prelude/sort.cuh, planned by sort_plan.c. Positions (int64) are the
 * payload; values are gathered from them at the end. Per key word, least
 * significant first: keys gathered through the current positions, then
 * one histogram / scan / scatter pass per digit that varies over the keys
 * (the AND and OR of every word, computed once, say which). Lanes are
 * sorted together with the lane number as the top word, or one by one for
 * a few long lanes. Everything runs on the thread's stream; the only
 * synchronisation is reading the AND/OR words back.
 * The searchsorted slot, a binary search by the same key words, and the
 * quantile_sorted slot, which reads quantiles off sorted lanes, are here
 * too. */
#include <stdio.h>
#include <string.h>

#include "cuda_internal.h"
#include "sort_plan.h"

static bool gen_passes(cn_cu_src *s, void *ctx,
                       char names[][CN_CU_NAME_CAP]) {
  (void)ctx;
  return cn_cu_gen_sort_passes(s, names);
}

static bool gen_keys(cn_cu_src *s, void *ctx, char names[][CN_CU_NAME_CAP]) {
  return cn_cu_gen_sort_keys(s, *(cn_dtype *)ctx, names);
}

static long long grid_for(long long n) {
  int dev = 0;
  cudaGetDevice(&dev);
  long long cap = (long long)cn_cu_devinfo_get(dev)->sms * 32;
  long long b = (n + CN_SORT_THREADS - 1) / CN_SORT_THREADS;
  return b < cap ? b : cap;
}

/* The kernels of one sort: [0..2] per dtype (bits, keys, out), [3..5]
 * passes (hist, scan, scatter). */
static cn_status load_kernels(cudaKernel_t k[6], cn_dtype dt) {
  char key[32];
  snprintf(key, sizeof key, "sort:%s", cn_cu_tag(dt));
  cn_status st;
  for (int i = 0; i < 3; i++)
    if ((st = cn_cu_kernel(&k[i], key, i, gen_keys, &dt)) != CN_OK)
      return st;
  for (int i = 0; i < 3; i++)
    if ((st = cn_cu_kernel(&k[3 + i], "sort:passes", i, gen_passes, NULL)) !=
        CN_OK)
      return st;
  return CN_OK;
}

/* Copies a into dst (scratch at data) in lane-major order: a's axes with
 * the sort axis moved last, C-contiguous. */
static cn_status copy_lane_major(void *data, const cn_array_s *a,
                                 int32_t axis) {
  cn_array_s src, dst;
  memset(&src, 0, sizeof src);
  memset(&dst, 0, sizeof dst);
  src.dtype = dst.dtype = a->dtype;
  src.ndim = dst.ndim = a->ndim;
  src.size = dst.size = a->size;
  src.data = a->data;
  dst.data = data;
  int32_t k = 0;
  for (int32_t d = 0; d < a->ndim; d++)
    if (d != axis) {
      src.shape[k] = dst.shape[k] = a->shape[d];
      src.strides[k++] = a->strides[d];
    }
  src.shape[k] = dst.shape[k] = a->shape[axis];
  src.strides[k] = a->strides[axis];
  int64_t st = 1;
  for (int32_t d = a->ndim - 1; d >= 0; d--) {
    dst.strides[d] = st;
    st *= dst.shape[d];
  }
  return cn_cu_assign(&dst, &src);
}

/* In cn_cu_sort: a CUDA status into st, freeing the scratch on failure. */
#define TRY(call, what)                                                        \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (CN_UNLIKELY(e_ != cudaSuccess)) {                                      \
      st = cn_cu_fail(e_, what);                                               \
      goto done;                                                               \
    }                                                                          \
  } while (0)
/* The kernels and buffers of one sort, for the steps of cn_sort_plan_run. */
typedef struct run_ctx {
  cudaKernel_t *k;
  const void *src;
  uint64_t *keys[2];
  int64_t *pos[2];
  int64_t *counts, *totals;
  long long n, tiles;
  int canon;
} run_ctx;

static int run_keys(void *ctx, int32_t word, int64_t first, int64_t len,
                    bool init, int cur) {
  run_ctx *c = ctx;
  int64_t *pp = c->pos[cur] + first;
  uint64_t *kk = c->keys[cur] + first;
  long long f = first, l = len;
  int w = word, in = init;
  void *args[] = {(void *)&c->src, &pp, &kk, &f, &l, &c->n, &w, &c->canon,
                  &in};
  return cn_cu_launch(c->k[1], grid_for(l), 1, CN_SORT_THREADS, args,
                      "sort: keys");
}

static int run_pass(void *ctx, int32_t shift, int64_t first, int64_t len,
                    int cur) {
  run_ctx *c = ctx;
  const uint64_t *kin = c->keys[cur] + first;
  const int64_t *pin = c->pos[cur] + first;
  uint64_t *kout = c->keys[cur ^ 1] + first;
  int64_t *pout = c->pos[cur ^ 1] + first;
  long long l = len;
  int sh = shift;
  void *a1[] = {(void *)&kin, &l, &sh, &c->tiles, &c->counts};
  cn_status st = cn_cu_launch(c->k[3], c->tiles, 1, CN_SORT_THREADS, a1,
                              "sort: digit histogram");
  if (st != CN_OK)
    return st;
  void *a2[] = {&c->counts, &c->tiles, &c->totals};
  st = cn_cu_launch(c->k[4], CN_SORT_RADIX, 1, CN_SORT_THREADS, a2,
                    "sort: digit scan");
  if (st != CN_OK)
    return st;
  void *a3[] = {(void *)&kin, (void *)&pin, &kout,     &pout,      &l,
                &sh,          &c->tiles,    &c->counts, &c->totals};
  return cn_cu_launch(c->k[5], c->tiles, 1, CN_SORT_THREADS, a3,
                      "sort: scatter");
}

#define LAUNCH(kern, blocks, what, ...)                                        \
  do {                                                                         \
    void *args_[] = {__VA_ARGS__};                                             \
    if ((st = cn_cu_launch(kern, blocks, 1, CN_SORT_THREADS, args_, what)) !=  \
        CN_OK)                                                                 \
      goto done;                                                               \
  } while (0)

cn_status cn_cu_sort(cn_array_s *vals, cn_array_s *perm, const cn_array_s *a,
                     int32_t axis) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(a), "cuda sort");
  if (a->size == 0)
    return CN_OK;
  cn_dtype dt = a->dtype;
  bool cplx = cn_is_complex(dt);
  cn_sort_plan p;
  if (!cn_sort_plan_make(&p, a->ndim, a->shape, a->strides, axis,
                         cn_itemsize(dt), cplx))
    return cn_cu_error(CN_ERR_MEMORY,
                       "cn_sort: scratch for %lld elements overflows size_t",
                       (long long)a->size);
  cudaKernel_t k[6];
  cn_status st = load_kernels(k, dt);
  if (st != CN_OK)
    return st;
  void *scr = NULL;
  if ((st = cn_cu_scratch(&scr, p.bytes)) != CN_OK)
    return st;
  char *base = scr;
  uint64_t *keys[2] = {(uint64_t *)(base + p.off_keys[0]),
                       (uint64_t *)(base + p.off_keys[1])};
  int64_t *pos[2] = {(int64_t *)(base + p.off_perm[0]),
                     (int64_t *)(base + p.off_perm[1])};
  int64_t *counts = (int64_t *)(base + p.off_counts);
  int64_t *totals = (int64_t *)(base + p.off_totals);
  uint64_t *bits = (uint64_t *)(base + p.off_bits);
  const void *src = a->data;
  if (p.copy_input) {
    if ((st = copy_lane_major(base + p.off_src, a, axis)) != CN_OK)
      goto done;
    src = base + p.off_src;
  }
  /* Real values sorted without positions keep -0.0 before 0.0 (their keys
   * differ), as the CPU; with positions, or complex, they compare equal. */
  int canon = perm != NULL || cplx;
  long long total = p.total, n = p.n, q = p.q;
  cudaStream_t s = cn_cu_stream();
  uint64_t hb[2 * CN_SORT_MAX_WORDS];
  cn_cu_note_launch("sort: key bits");
  TRY(cudaMemsetAsync(bits, 0xff, 8 * CN_SORT_MAX_WORDS, s),
                 "cudaMemsetAsync (sort key bits)");
  TRY(cudaMemsetAsync(bits + CN_SORT_MAX_WORDS, 0,
                                 8 * CN_SORT_MAX_WORDS, s),
                 "cudaMemsetAsync (sort key bits)");
  LAUNCH(k[0], grid_for(total), "sort: key bits", (void *)&src, &total, &n,
         &canon, &bits);
  TRY(cudaMemcpyAsync(hb, bits, sizeof hb, cudaMemcpyDeviceToHost,
                                 s),
                 "cudaMemcpyAsync (sort key bits)");
  TRY(cudaStreamSynchronize(s), "cudaStreamSynchronize (sort)");
  cn_sort_plan_passes(&p, hb, hb + CN_SORT_MAX_WORDS);

  run_ctx rc = {.k = k, .src = src, .keys = {keys[0], keys[1]},
                .pos = {pos[0], pos[1]}, .counts = counts, .totals = totals,
                .n = n, .tiles = p.tiles, .canon = canon};
  static const cn_sort_steps steps = {run_keys, run_pass};
  if ((st = (cn_status)cn_sort_plan_run(&p, &steps, &rc)) != CN_OK)
    goto done;
  {
    const int64_t *sorted = pos[p.result_in_alt ? 1 : 0];
    void *vd = vals ? vals->data : NULL;
    int64_t *vp = perm ? (int64_t *)perm->data : NULL;
    int roundtrip = !cplx && perm == NULL;
    LAUNCH(k[2], grid_for(total), "sort: outputs", (void *)&src,
           (void *)&sorted, &total, &n, &q, &vd, &vp, &roundtrip);
  }
done:
  cn_cu_scratch_free(scr);
  return st;
}

/* searchsorted: one generated kernel per dtype (prelude/search.cuh), one
 * thread per needle, on the thread's stream; a and v arrive C-contiguous
 * in one dtype, out int64 of v's size (the core checks both). */
static bool gen_search(cn_cu_src *s, void *ctx, char names[][CN_CU_NAME_CAP]) {
  return cn_cu_gen_search(s, *(cn_dtype *)ctx, names);
}

cn_status cn_cu_searchsorted(cn_array_s *out, const cn_array_s *a,
                             const cn_array_s *v, bool right) {
  if (v->size == 0)
    return CN_OK;
  cn_dtype dt = a->dtype;
  char key[32];
  snprintf(key, sizeof key, "search:%s", cn_cu_tag(dt));
  cudaKernel_t k;
  cn_status st = cn_cu_kernel(&k, key, 0, gen_search, &dt);
  if (st != CN_OK)
    return st;
  const void *ad = a->data, *vd = v->data;
  long long n = a->size, m = v->size;
  int r = right;
  void *od = out->data;
  void *args[] = {(void *)&ad, &n, (void *)&vd, &m, &r, &od};
  return cn_cu_launch(k, grid_for(m), 1, CN_SORT_THREADS, args,
                      "searchsorted");
}

/* quantile_sorted: one generated kernel per float dtype, one thread per
 * output value, on the thread's stream. */
static bool gen_quantile(cn_cu_src *s, void *ctx,
                         char names[][CN_CU_NAME_CAP]) {
  return cn_cu_gen_quantile(s, *(cn_dtype *)ctx, names);
}

cn_status cn_cu_quantile_sorted(cn_array_s *out, const cn_array_s *sorted,
                                const cn_array_s *q, int32_t method,
                                bool nan_skip) {
  if (out->size == 0)
    return CN_OK;
  cn_dtype dt = sorted->dtype;
  if (dt != CN_FLOAT32 && dt != CN_FLOAT64)
    return cn_cu_error(CN_ERR_TYPE,
                       "quantile_sorted: lanes must be float32 or float64, "
                       "got %s",
                       cn_dtype_name(dt));
  char key[32];
  snprintf(key, sizeof key, "quantile:%s", cn_cu_tag(dt));
  cudaKernel_t k;
  cn_status st = cn_cu_kernel(&k, key, 0, gen_quantile, &dt);
  if (st != CN_OK)
    return st;
  /* out is nq x lanes; the lanes are the last axis of sorted */
  long long len = sorted->ndim ? sorted->shape[sorted->ndim - 1] : 1;
  long long nlanes = out->size / (q ? q->size : 1);
  long long total = out->size;
  const void *xd = sorted->data;
  const void *qd = q ? q->data : NULL;
  int m = method, skip = nan_skip;
  void *od = out->data;
  void *args[] = {(void *)&xd, &nlanes, &len, (void *)&qd, &total, &m, &skip,
                  &od};
  return cn_cu_launch(k, grid_for(total), 1, CN_SORT_THREADS, args,
                      "quantile_sorted");
}
