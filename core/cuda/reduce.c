/* Reductions, arg-reductions, scans and moments on the GPU. The input's
 * axes split into kept axes (one output each) and reduced axes; both are
 * merged where memory allows. Long reductions run one block (or, for few
 * outputs, several blocks plus a second pass) per output with a warp-
 * shuffle tree; many short or outer-axis reductions run one thread per
 * output. Float sums are compensated in the kernels (prelude/reduce.cuh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

#define THREADS 256
#define PARTIAL_BYTES 128 /* >= sizeof any acc_t in prelude/reduce.cuh */

/* Layout of cn_rgeom in prelude/reduce.cuh. */
typedef struct {
  int32_t nk, nr;
  int64_t kshape[CN_MAX_DIMS], kin[CN_MAX_DIMS], kout[CN_MAX_DIMS],
      kout2[CN_MAX_DIMS];
  int64_t rshape[CN_MAX_DIMS], rin[CN_MAX_DIMS], rout[CN_MAX_DIMS];
} rgeom;

static int64_t bstride(const cn_array_s *a, int32_t ax) {
  return a ? a->strides[ax] * cn_itemsize(a->dtype) : 0;
}

static int64_t labs64(int64_t v) { return v < 0 ? -v : v; }

/* Splits in's axes by mask. out/out2 (keepdims form, may be NULL) give the
 * output strides of kept axes; with keep_axis the single reduced axis is
 * kept even when its extent is 1 (scans index it). Returns M and K. */
static void make_rgeom(rgeom *g, int64_t *M, int64_t *K, const cn_array_s *in,
                       uint64_t mask, const cn_array_s *out,
                       const cn_array_s *out2, bool scan) {
  memset(g, 0, sizeof *g);
  int32_t nk = 0, nr = 0;
  int32_t rax[CN_MAX_DIMS];
  for (int32_t ax = 0; ax < in->ndim; ax++) {
    bool red = (mask >> ax) & 1u;
    if (red) {
      if (in->shape[ax] != 1 || scan)
        rax[nr++] = ax;
      continue;
    }
    if (in->shape[ax] == 1)
      continue;
    int64_t e = in->shape[ax], si = bstride(in, ax), so = bstride(out, ax);
    int64_t so2 = bstride(out2, ax);
    if (nk > 0 && g->kin[nk - 1] == si * e && g->kout[nk - 1] == so * e &&
        g->kout2[nk - 1] == so2 * e) {
      g->kshape[nk - 1] *= e; /* merge with the outer kept axis */
      g->kin[nk - 1] = si;
      g->kout[nk - 1] = so;
      g->kout2[nk - 1] = so2;
      continue;
    }
    g->kshape[nk] = e;
    g->kin[nk] = si;
    g->kout[nk] = so;
    g->kout2[nk] = so2;
    nk++;
  }
  /* Reduced axes: innermost = smallest |stride| so a block's threads read
   * neighbouring elements. Insertion sort, descending |stride|. */
  for (int32_t i = 1; i < nr && !scan; i++) {
    int32_t a = rax[i], j = i - 1;
    while (j >= 0 && labs64(bstride(in, rax[j])) < labs64(bstride(in, a))) {
      rax[j + 1] = rax[j];
      j--;
    }
    rax[j + 1] = a;
  }
  int32_t m = 0;
  for (int32_t i = 0; i < nr; i++) {
    int64_t e = in->shape[rax[i]], si = bstride(in, rax[i]);
    if (m > 0 && !scan && g->rin[m - 1] == si * e) {
      g->rshape[m - 1] *= e;
      g->rin[m - 1] = si;
      continue;
    }
    g->rshape[m] = e;
    g->rin[m] = si;
    g->rout[m] = scan ? bstride(out, rax[i]) : 0;
    m++;
  }
  g->nk = nk;
  g->nr = m;
  int64_t mm = 1, kk = 1;
  for (int32_t i = 0; i < nk; i++)
    mm *= g->kshape[i];
  for (int32_t i = 0; i < m; i++)
    kk *= g->rshape[i];
  if (in->size == 0) { /* an empty kept axis means no outputs at all */
    for (int32_t ax = 0; ax < in->ndim; ax++)
      if (!((mask >> ax) & 1u) && in->shape[ax] == 0)
        mm = 0;
  }
  *M = mm;
  *K = kk;
}

static int sms(void) {
  int dev = 0;
  cudaGetDevice(&dev);
  return cn_cu_devinfo_get(dev)->sms;
}

/* Complex products overflow to inf parts whose inf * inf - inf * inf = NaN
 * depends on the order of the factors: they fold each slice in order, one
 * thread per output, as the CPU does (its products are not reassociated). */
static bool in_order(cn_reduce_kind kind, cn_dtype out) {
  return cn_is_complex(out) && (kind == CN_RED_PROD || kind == CN_RED_NANPROD ||
                                kind == CN_RED_CUMPROD);
}

/* Runs the three-kernel reduction program `key` (names: blocks, pass 2,
 * threads, optional all-NaN check); `seq` forces the in-order threads
 * kernel. */
static cn_status run_reduce(const char *key, cn_cu_gen_fn gen, void *ctx,
                            const cn_array_s *in, uint64_t mask,
                            cn_array_s *out, cn_array_s *out2, double param,
                            bool nan_check, bool seq, const char *what) {
  rgeom g;
  int64_t M, K;
  make_rgeom(&g, &M, &K, in, mask, out, out2, false);
  if (M == 0)
    return CN_OK;
  const char *pin = in->data;
  char *po = out ? out->data : NULL, *po2 = out2 ? out2->data : NULL;
  int nsm = sms();
  bool outer =
      g.nk > 0 && g.nr > 0 && labs64(g.kin[g.nk - 1]) < labs64(g.rin[g.nr - 1]);
  bool threads = seq || K <= 32 || (outer && M >= (int64_t)nsm * 256);
  cudaKernel_t k;
  cn_status st;
  if (threads) {
    if ((st = cn_cu_kernel(&k, key, 2, gen, ctx)) != CN_OK)
      return st;
    long long mm = M, kk = K;
    void *args[] = {&mm, &kk, &g, &pin, &po, &po2, &param};
    long long blocks = (M + THREADS - 1) / THREADS;
    if (blocks > (long long)nsm * 64)
      blocks = (long long)nsm * 64;
    st = cn_cu_launch(k, blocks, 1, THREADS, args, what);
  } else {
    int64_t target = (int64_t)nsm * 8;
    int64_t G = M >= target ? 1 : target / M;
    int64_t per_block_min = THREADS * 16;
    if (G > K / per_block_min)
      G = K / per_block_min;
    if (G < 1)
      G = 1;
    if (G > 65535)
      G = 65535;
    void *partial = NULL;
    if (G > 1 && (st = cn_cu_scratch(&partial,
                                     (size_t)(M * G) * PARTIAL_BYTES)) != CN_OK)
      return st;
    if ((st = cn_cu_kernel(&k, key, 0, gen, ctx)) == CN_OK) {
      long long kk = K;
      void *args[] = {&kk, &g, &pin, &po, &po2, &param, &partial};
      st = cn_cu_launch(k, M, (unsigned)G, THREADS, args, what);
    }
    if (st == CN_OK && G > 1 &&
        (st = cn_cu_kernel(&k, key, 1, gen, ctx)) == CN_OK) {
      int gg = (int)G;
      const void *cp = partial;
      void *args[] = {&gg, &g, &cp, &po, &po2, &param};
      st = cn_cu_launch(k, M, 1, THREADS, args, what);
    }
    cn_cu_scratch_free(partial);
  }
  if (st != CN_OK || !nan_check)
    return st;
  /* nanargmin/nanargmax: an all-NaN slice left index -1. */
  int *flag = NULL;
  if ((st = cn_cu_scratch((void **)&flag, sizeof(int))) != CN_OK)
    return st;
  int host = 0;
  cudaStream_t s = cn_cu_stream();
  cudaError_t e = cudaMemsetAsync(flag, 0, sizeof(int), s);
  if (e != cudaSuccess)
    st = cn_cu_fail(e, "cudaMemsetAsync");
  if (st == CN_OK && (st = cn_cu_kernel(&k, key, 3, gen, ctx)) == CN_OK) {
    long long mm = M;
    const char *cpo = po;
    void *args[] = {&mm, &g, &cpo, &flag};
    long long blocks = (M + THREADS - 1) / THREADS;
    if (blocks > 4096)
      blocks = 4096;
    st = cn_cu_launch(k, blocks, 1, THREADS, args, what);
  }
  if (st == CN_OK)
    st = cn_cu_copy_to_host(&host, flag, sizeof(int));
  cn_cu_scratch_free(flag);
  if (st == CN_OK && host)
    st = cn_cu_error(CN_ERR_VALUE, "%s: All-NaN slice encountered", what);
  return st;
}

typedef struct {
  cn_reduce_kind kind;
  cn_dtype in, out;
} red_ctx;

static bool gen_red(cn_cu_src *s, void *ctx, char names[][CN_CU_NAME_CAP]) {
  red_ctx *c = ctx;
  return cn_cu_gen_reduce(s, c->kind, c->in, c->out, names);
}

static cn_status run_scan(const char *key, red_ctx *c, const cn_array_s *in,
                          uint64_t mask, cn_array_s *out, const char *what) {
  rgeom g;
  int64_t M, K;
  make_rgeom(&g, &M, &K, in, mask, out, NULL, true);
  if (M == 0 || K == 0 || in->size == 0)
    return CN_OK;
  const char *pin = in->data;
  char *po = out->data;
  int nsm = sms();
  cudaKernel_t k;
  cn_status st;
  long long mm = M, kk = K;
  if (in_order(c->kind, out->dtype) || K <= 64 || M >= (int64_t)nsm * 64) {
    if ((st = cn_cu_kernel(&k, key, 1, gen_red, c)) != CN_OK)
      return st;
    void *args[] = {&mm, &kk, &g, &pin, &po};
    long long blocks = (M + THREADS - 1) / THREADS;
    return cn_cu_launch(k, blocks, 1, THREADS, args, what);
  }
  if ((st = cn_cu_kernel(&k, key, 0, gen_red, c)) != CN_OK)
    return st;
  void *args[] = {&kk, &g, &pin, &po};
  return cn_cu_launch(k, M, 1, THREADS, args, what);
}

cn_status cn_cu_reduce(cn_reduce_kind kind, const cn_array_s *in,
                       uint64_t axis_mask, cn_array_s *out) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(in), "cuda reduce");
  const char *kn = cn_cu_red_name(kind);
  if (kn == NULL || cn_cu_ctype(in->dtype) == NULL ||
      cn_cu_ctype(out->dtype) == NULL)
    return cn_cu_error(CN_ERR_INTERNAL, "cuda reduce: bad kind %d or dtype",
                       (int)kind);
  red_ctx c = {kind, in->dtype, out->dtype};
  char key[64], what[64];
  snprintf(key, sizeof key, "red:%s:%s:%s", kn, cn_cu_tag(in->dtype),
           cn_cu_tag(out->dtype));
  snprintf(what, sizeof what, "%s (%s -> %s)", kn, cn_cu_tag(in->dtype),
           cn_cu_tag(out->dtype));
  if (kind == CN_RED_CUMSUM || kind == CN_RED_CUMPROD)
    return run_scan(key, &c, in, axis_mask, out, what);
  bool nan_check = kind == CN_RED_NANARGMIN || kind == CN_RED_NANARGMAX;
  return run_reduce(key, gen_red, &c, in, axis_mask, out, NULL, 0.0, nan_check,
                    in_order(kind, out->dtype), what);
}

typedef struct {
  cn_dtype in, mean, var;
  bool nan_skip;
} mom_ctx;

static bool gen_mom(cn_cu_src *s, void *ctx, char names[][CN_CU_NAME_CAP]) {
  mom_ctx *c = ctx;
  return cn_cu_gen_moments(s, c->in, c->mean, c->var, c->nan_skip, names);
}

cn_status cn_cu_moments(const cn_array_s *in, uint64_t axis_mask, double ddof,
                        bool nan_skip, cn_array_s *mean, cn_array_s *var) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(in), "cuda moments");
  if (mean == NULL && var == NULL)
    return CN_OK;
  mom_ctx c = {in->dtype,
               mean ? mean->dtype
                    : (cn_is_complex(in->dtype) ? CN_COMPLEX128 : CN_FLOAT64),
               var ? var->dtype : CN_FLOAT64, nan_skip};
  if (cn_cu_ctype(c.in) == NULL || cn_cu_ctype(c.mean) == NULL ||
      cn_cu_ctype(c.var) == NULL || cn_is_complex(c.var))
    return cn_cu_error(CN_ERR_INTERNAL, "cuda moments: bad dtypes");
  char key[64], what[64];
  snprintf(key, sizeof key, "mom:%d:%s:%s:%s", (int)nan_skip, cn_cu_tag(c.in),
           cn_cu_tag(c.mean), cn_cu_tag(c.var));
  snprintf(what, sizeof what, "%smoments (%s)", nan_skip ? "nan" : "",
           cn_cu_tag(c.in));
  return run_reduce(key, gen_mom, &c, in, axis_mask, mean, var, ddof, false,
                    false, what);
}
