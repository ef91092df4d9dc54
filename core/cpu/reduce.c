/* CPU reductions: the dtype-agnostic drivers around reduce_typed.c.
 *
 * The input is split into kept axes (one output element per index) and
 * reduced axes; each group is sorted by stride, flipped to positive strides
 * where order does not matter, and coalesced. Three strategies follow:
 *  - per output: each output folds its whole reduced block (contiguous inner
 *    leaf, pairwise tree over outer reduced axes); threads over outputs;
 *  - rows: when the innermost kept axis has the smallest stride (sum over
 *    axis 0 of a C matrix), whole rows are folded into a tile of states, so
 *    the inner loop runs over contiguous memory;
 *  - split: few outputs and a long reduction: the outermost reduced axis is
 *    cut into one range per thread and the partial states are merged in
 *    order. */
#include "reduce_typed.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Row mode folds whole rows into a tile of states when they fit: on this
 * class of machine a sum over axis 0 of a (1000, 10000) float64 array takes
 * 33 ms in 2 KB tiles and 10 ms in full 80 KB rows. The pairwise tree keeps
 * one tile per level; the tiles of one thread stay within RED_SCRATCH_MAX. */
#define RED_TILE_MIN 16384
#define RED_SCRATCH_MAX (4 << 20)
#define RED_SCRATCH_POOLED ((size_t)1 << 20)
/* Rows folded one after the other before the pairwise tree splits. Each
 * split costs an init and a merge pass over a tile of states that no longer
 * fits in L2 with wide rows: (200, 40000) float64 summed over axis 0 took
 * 9.0 ms with 32-row leaves against NumPy's 2.3 ms. NumPy adds the rows one
 * by one (error growing with n); 128-row leaves stay within that bound. */
#define RED_ROW_LEAF 128

typedef struct red_geom {
  int nk, nr;
  int64_t kshape[CN_MAX_DIMS], kin[CN_MAX_DIMS], kout[CN_MAX_DIMS],
      kaux[CN_MAX_DIMS];
  int64_t rshape[CN_MAX_DIMS], rin[CN_MAX_DIMS];
  const char *in;
  char *out;
  const char *aux;
  int64_t nout, nred;
  cn_dtype odt;
} red_geom;

static int64_t iabs64(int64_t x) { return x < 0 ? -x : x; }

/* Product of a's extents over the axes in mask (reduced) or outside it
 * (kept); 0 when one of them is 0. The extents of an empty array need not
 * multiply within int64: such a product saturates at INT64_MAX (it is only
 * used where the other group is empty). */
static int64_t red_extent_product(const cn_array_s *a, uint64_t mask,
                                  bool reduced) {
  int64_t n = 1;
  bool big = false;
  for (int d = 0; d < a->ndim; d++) {
    if ((mask >> d & 1) != (uint64_t)reduced)
      continue;
    if (a->shape[d] == 0)
      return 0;
    big = big || __builtin_mul_overflow(n, a->shape[d], &n);
  }
  return big ? INT64_MAX : n;
}

/* Builds the geometry of in reduced over mask into out (keepdims shape) with
 * an optional aux operand shaped like out. flip_reduced: reduced axes may be
 * walked backwards (not for arg kinds, whose index depends on the order). */
static void red_geom_build(red_geom *g, const cn_array_s *in, uint64_t mask,
                           const cn_array_s *out, const cn_array_s *aux,
                           bool flip_reduced) {
  const int64_t isz = cn_itemsize(in->dtype), osz = cn_itemsize(out->dtype);
  const int64_t asz = aux ? cn_itemsize(aux->dtype) : 0;
  g->in = in->data;
  g->out = out->data;
  g->aux = aux ? aux->data : NULL;
  g->odt = out->dtype;
  g->nk = g->nr = 0;
  g->nred = red_extent_product(in, mask, true);
  g->nout = red_extent_product(in, mask, false);
  if (g->nout == 0) {
    /* Nothing to write (red_run returns at once); an empty array's
     * strides may be anything, so none of them enters the geometry. */
    g->nk = g->nr = 1;
    g->kshape[0] = g->rshape[0] = 0;
    g->kin[0] = g->kout[0] = g->kaux[0] = g->rin[0] = 0;
    return;
  }
  /* An empty reduction reads nothing: its reduced axes collapse into one
   * of extent 0 (below) and the input strides are not used, so that each
   * output costs one init and one store whatever the other extents. */
  const bool empty = g->nred == 0;
  for (int d = 0; d < in->ndim; d++) {
    int64_t n = in->shape[d];
    if (mask >> d & 1) {
      if (n == 1 || empty)
        continue;
      g->rshape[g->nr] = n;
      g->rin[g->nr] = in->strides[d] * isz;
      g->nr++;
    } else {
      if (n == 1)
        continue;
      g->kshape[g->nk] = n;
      g->kin[g->nk] = empty ? 0 : in->strides[d] * isz;
      g->kout[g->nk] = out->strides[d] * osz;
      g->kaux[g->nk] = aux ? aux->strides[d] * asz : 0;
      g->nk++;
    }
  }
  /* Positive input strides: outputs move with their inputs. */
  for (int d = 0; d < g->nk; d++) {
    if (g->kin[d] < 0) {
      int64_t last = g->kshape[d] - 1;
      g->in += last * g->kin[d];
      g->out += last * g->kout[d];
      if (g->aux)
        g->aux += last * g->kaux[d];
      g->kin[d] = -g->kin[d];
      g->kout[d] = -g->kout[d];
      g->kaux[d] = -g->kaux[d];
    }
  }
  if (flip_reduced) {
    for (int d = 0; d < g->nr; d++) {
      if (g->rin[d] < 0) {
        g->in += (g->rshape[d] - 1) * g->rin[d];
        g->rin[d] = -g->rin[d];
      }
    }
  }
  /* Sort each group by decreasing input stride (insertion sort, stable). */
  for (int i = 1; i < g->nk; i++) {
    for (int j = i; j > 0 && iabs64(g->kin[j - 1]) < iabs64(g->kin[j]); j--) {
      int64_t t;
#define RED_SWAP_(arr) (t = arr[j], arr[j] = arr[j - 1], arr[j - 1] = t)
      RED_SWAP_(g->kshape);
      RED_SWAP_(g->kin);
      RED_SWAP_(g->kout);
      RED_SWAP_(g->kaux);
    }
  }
  for (int i = 1; i < g->nr; i++) {
    for (int j = i; j > 0 && iabs64(g->rin[j - 1]) < iabs64(g->rin[j]); j--) {
      int64_t t;
      RED_SWAP_(g->rshape);
      RED_SWAP_(g->rin);
#undef RED_SWAP_
    }
  }
  /* Coalesce neighbours that are contiguous in every operand. */
  int nk = 0;
  for (int d = 0; d < g->nk; d++) {
    if (nk > 0 && g->kin[nk - 1] == g->kshape[d] * g->kin[d] &&
        g->kout[nk - 1] == g->kshape[d] * g->kout[d] &&
        g->kaux[nk - 1] == g->kshape[d] * g->kaux[d]) {
      g->kshape[nk - 1] *= g->kshape[d];
      g->kin[nk - 1] = g->kin[d];
      g->kout[nk - 1] = g->kout[d];
      g->kaux[nk - 1] = g->kaux[d];
    } else {
      g->kshape[nk] = g->kshape[d];
      g->kin[nk] = g->kin[d];
      g->kout[nk] = g->kout[d];
      g->kaux[nk] = g->kaux[d];
      nk++;
    }
  }
  g->nk = nk;
  int nr = 0;
  for (int d = 0; d < g->nr; d++) {
    if (nr > 0 && g->rin[nr - 1] == g->rshape[d] * g->rin[d]) {
      g->rshape[nr - 1] *= g->rshape[d];
      g->rin[nr - 1] = g->rin[d];
    } else {
      g->rshape[nr] = g->rshape[d];
      g->rin[nr] = g->rin[d];
      nr++;
    }
  }
  g->nr = nr;
  /* At least one axis in each group keeps the drivers simple. */
  if (g->nr == 0) {
    g->nr = 1;
    g->rshape[0] = g->nred; /* 1, or 0 for an empty reduction */
    g->rin[0] = 0;
  }
  if (g->nk == 0) {
    g->nk = 1;
    g->kshape[0] = g->nout;
    g->kin[0] = g->kout[0] = g->kaux[0] = 0;
  }
}

/* Folds reduced index range [lo, hi) of axis d (and everything inside it)
 * into st; pairwise kinds split the range into a balanced tree. */
static void red_fold(const cn_red_kernel *k, const red_geom *g, int d,
                     const char *p, int64_t lo, int64_t hi, void *st,
                     const char *aux) {
  if (d == g->nr - 1) {
    k->leaf(st, p + lo * g->rin[d], hi - lo, g->rin[d], lo, aux);
    return;
  }
  if (!k->pairwise || hi - lo <= 1) {
    for (int64_t i = lo; i < hi; i++)
      red_fold(k, g, d + 1, p + i * g->rin[d], 0, g->rshape[d + 1], st, aux);
    return;
  }
  int64_t mid = lo + (hi - lo) / 2;
  _Alignas(16) char tmp[CN_RK_STATE_MAX];
  red_fold(k, g, d, p, lo, mid, st, aux);
  k->init(tmp, 1);
  red_fold(k, g, d, p, mid, hi, tmp, aux);
  k->merge(st, tmp, 1);
}

/* Byte offsets of kept index o (over kept axes [0, nk)). */
static void red_kept_offsets(const red_geom *g, int nk, int64_t o, int64_t *oi,
                             int64_t *oo, int64_t *oa) {
  int64_t a = 0, b = 0, c = 0;
  for (int d = nk - 1; d >= 0 && o > 0; d--) {
    int64_t i = o % g->kshape[d];
    o /= g->kshape[d];
    a += i * g->kin[d];
    b += i * g->kout[d];
    c += i * g->kaux[d];
  }
  *oi = a;
  *oo = b;
  *oa = c;
}

/* Splits [0, n) into nt near-equal parts; part t is [lo, hi). */
static void red_part(int64_t n, int nt, int t, int64_t *lo, int64_t *hi) {
  *lo = n * t / nt;
  *hi = n * (t + 1) / nt;
}

static void red_per_output(const cn_red_kernel *k, const red_geom *g,
                           int nthreads, bool split_ok) {
  const int64_t nout = g->nout;
  if (!split_ok || nthreads <= 1 || nout >= nthreads ||
      g->rshape[0] < 2 * nthreads) {
#pragma omp parallel for num_threads(nthreads)                                 \
    schedule(static) if (nthreads > 1)
    for (int64_t o = 0; o < nout; o++) {
      int64_t oi, oo, oa;
      _Alignas(16) char st[CN_RK_STATE_MAX];
      red_kept_offsets(g, g->nk, o, &oi, &oo, &oa);
      k->init(st, 1);
      red_fold(k, g, 0, g->in + oi, 0, g->rshape[0], st,
               g->aux ? g->aux + oa : NULL);
      k->store(g->out + oo, g->odt, st);
    }
    return;
  }
  /* Few outputs: cut the outermost reduced axis between the threads and
   * merge the partial states in order. */
  enum { MAXT = 64 };
  _Alignas(16) char parts[MAXT][CN_RK_STATE_MAX];
  if (nthreads > MAXT)
    nthreads = MAXT;
  for (int64_t o = 0; o < nout; o++) {
    int64_t oi, oo, oa;
    int used = 1;
    red_kept_offsets(g, g->nk, o, &oi, &oo, &oa);
    const char *aux = g->aux ? g->aux + oa : NULL;
#pragma omp parallel num_threads(nthreads)
    {
      int t = omp_get_thread_num(), nt = omp_get_num_threads();
      int64_t lo, hi;
#pragma omp single
      used = nt;
      red_part(g->rshape[0], nt, t, &lo, &hi);
      k->init(parts[t], 1);
      red_fold(k, g, 0, g->in + oi, lo, hi, parts[t], aux);
    }
    for (int t = 1; t < used; t++)
      k->merge(parts[0], parts[t], 1);
    k->store(g->out + oo, g->odt, parts[0]);
  }
}

/* Row mode: st[0..w) folds rows [lo, hi) of reduced axis d (and the axes
 * inside it), each row being w elements of stride sin. The pairwise tree
 * keeps one tile of partial states per level in scratch. */
typedef struct row_args {
  const cn_red_kernel *k;
  const red_geom *g;
  int64_t w, sin, saux;
  size_t tb; /* bytes between the levels' tiles */
  const char *aux;
  const char *p; /* first element of the tile */
  char *o;       /* its output */
} row_args;

static void red_rows(const row_args *r, int d, const char *p, int64_t lo,
                     int64_t hi, char *st) {
  const red_geom *g = r->g;
  const cn_red_kernel *k = r->k;
  if (!k->pairwise || hi - lo <= RED_ROW_LEAF) {
    for (int64_t i = lo; i < hi; i++) {
      if (d == g->nr - 1)
        k->rows(st, p + i * g->rin[d], r->w, r->sin, i, r->aux, r->saux);
      else
        red_rows(r, d + 1, p + i * g->rin[d], 0, g->rshape[d + 1], st);
    }
    return;
  }
  int64_t mid = lo + (hi - lo) / 2;
  char *tmp = st + r->tb;
  red_rows(r, d, p, lo, mid, st);
  k->init(tmp, r->w);
  red_rows(r, d, p, mid, hi, tmp);
  k->merge(st, tmp, r->w);
}

/* Tiles of partial states the pairwise row tree needs at most. */
static int64_t red_row_levels(const cn_red_kernel *k, const red_geom *g) {
  int64_t levels = 1;
  if (!k->pairwise)
    return levels;
  for (int d = 0; d < g->nr; d++)
    for (int64_t n = g->rshape[d]; n > 1; n = (n + 1) / 2)
      levels++;
  return levels;
}

/* Tile u: tile number u % ntiles of the inner kept axis, at outer kept index
 * u / ntiles. */
static void red_row_setup(row_args *r, const cn_red_kernel *k,
                          const red_geom *g, int64_t u, int64_t tile,
                          int64_t ntiles, size_t tb) {
  const int nk = g->nk;
  const int64_t m = g->kshape[nk - 1], j0 = (u % ntiles) * tile;
  int64_t oi, oo, oa;
  red_kept_offsets(g, nk - 1, u / ntiles, &oi, &oo, &oa);
  r->k = k;
  r->g = g;
  r->tb = tb;
  r->w = m - j0 < tile ? m - j0 : tile;
  r->sin = g->kin[nk - 1];
  r->saux = g->kaux[nk - 1];
  r->aux = g->aux ? g->aux + oa + j0 * r->saux : NULL;
  r->p = g->in + oi + j0 * r->sin;
  r->o = g->out + oo + j0 * g->kout[nk - 1];
}

static void red_row_store(const row_args *r, const char *st) {
  const int64_t so = r->g->kout[r->g->nk - 1];
  for (int64_t j = 0; j < r->w; j++)
    r->k->store(r->o + j * so, r->g->odt, st + j * r->k->st_size);
}

static cn_status red_row_mode(const cn_red_kernel *k, const red_geom *g,
                              int nthreads, bool split_ok) {
  const int64_t m = g->kshape[g->nk - 1];
  const int64_t levels = red_row_levels(k, g);
  int64_t tile_bytes = RED_SCRATCH_MAX / levels;
  if (tile_bytes < RED_TILE_MIN)
    tile_bytes = RED_TILE_MIN;
  int64_t tile = tile_bytes / (int64_t)k->st_size;
  if (tile > m)
    tile = m;
  const size_t tb = ((size_t)tile * k->st_size + 63) / 64 * 64;
  const int64_t ntiles = (m + tile - 1) / tile;
  const int64_t units = (g->nout / m) * ntiles;
  const bool split = split_ok && nthreads > 1 && units < nthreads &&
                     g->rshape[0] >= 2 * nthreads;
  if (!split && units < nthreads)
    nthreads = units < 1 ? 1 : (int)units;
  const size_t per_thread = (size_t)levels * tb;
  /* From the pool (at least its smallest pooled size), so that repeated
   * reductions do not fault fresh pages in. */
  size_t scratch_bytes = per_thread * (size_t)nthreads;
  if (scratch_bytes < RED_SCRATCH_POOLED)
    scratch_bytes = RED_SCRATCH_POOLED;
  void *scratch_mem;
  cn_status ast = cn_cpu_alloc(0, scratch_bytes, &scratch_mem);
  if (ast != CN_OK)
    return ast;
  char *scratch = (char *)scratch_mem;
  if (!split) {
#pragma omp parallel num_threads(nthreads) if (nthreads > 1)
    {
      char *st = scratch + per_thread * (size_t)omp_get_thread_num();
#pragma omp for schedule(static)
      for (int64_t u = 0; u < units; u++) {
        row_args r;
        red_row_setup(&r, k, g, u, tile, ntiles, tb);
        k->init(st, r.w);
        red_rows(&r, 0, r.p, 0, g->rshape[0], st);
        red_row_store(&r, st);
      }
    }
  } else {
    /* Few tiles, many rows: cut the rows between the threads and merge the
     * partial tiles in order. */
    for (int64_t u = 0; u < units; u++) {
      row_args r;
      int used = 1;
      red_row_setup(&r, k, g, u, tile, ntiles, tb);
#pragma omp parallel num_threads(nthreads)
      {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        int64_t lo, hi;
        char *st = scratch + per_thread * (size_t)t;
#pragma omp single
        used = nt;
        red_part(g->rshape[0], nt, t, &lo, &hi);
        k->init(st, r.w);
        red_rows(&r, 0, r.p, lo, hi, st);
      }
      for (int t = 1; t < used; t++)
        k->merge(scratch, scratch + per_thread * (size_t)t, r.w);
      red_row_store(&r, scratch);
    }
  }
  cn_cpu_free(0, scratch, scratch_bytes);
  return CN_OK;
}

/* split_ok: the reduced range may be cut between threads (not for float
 * products, whose inf/0 results depend on the order, as NumPy's sequential
 * loop defines them). */
static cn_status red_run(const cn_red_kernel *k, const red_geom *g,
                         bool split_ok) {
  if (g->nout == 0)
    return CN_OK;
  const int nk = g->nk, nr = g->nr;
  int nthreads = cn_cpu_threads_for(g->nout * (g->nred > 1 ? g->nred : 1));
  if (nthreads < 1)
    nthreads = 1;
  /* Rows when the kept inner axis is the faster one in memory, or when the
   * reduction is too short for a leaf to pay its call. */
  const int64_t kin = iabs64(g->kin[nk - 1]), rin = iabs64(g->rin[nr - 1]);
  const bool rows =
      g->kshape[nk - 1] > 1 && ((kin < rin && g->rshape[nr - 1] > 1) ||
                                (g->nred < 16 && g->kshape[nk - 1] >= 16));
  if (rows)
    return red_row_mode(k, g, nthreads, split_ok);
  red_per_output(k, g, nthreads, split_ok);
  return CN_OK;
}

/* Calls f on every element of a (and the matching element of b, same shape,
 * when b is not NULL). */
typedef void (*red_elem_fn)(char *a, const char *b, void *ctx);
static void red_for_each(cn_array_s *a, const cn_array_s *b, red_elem_fn f,
                         void *ctx) {
  if (a->size == 0)
    return;
  const int nd = a->ndim;
  const int64_t asz = cn_itemsize(a->dtype),
                bsz = b ? cn_itemsize(b->dtype) : 0;
  int64_t idx[CN_MAX_DIMS] = {0};
  char *pa = a->data;
  const char *pb = b ? b->data : NULL;
  for (;;) {
    f(pa, pb, ctx);
    int d = nd - 1;
    for (; d >= 0; d--) {
      if (++idx[d] < a->shape[d]) {
        pa += a->strides[d] * asz;
        if (b)
          pb += b->strides[d] * bsz;
        break;
      }
      pa -= (a->shape[d] - 1) * a->strides[d] * asz;
      if (b)
        pb -= (b->shape[d] - 1) * b->strides[d] * bsz;
      idx[d] = 0;
    }
    if (d < 0)
      break;
  }
}

static void red_find_neg(char *a, const char *b, void *ctx) {
  if (*(const int64_t *)a < 0)
    *(bool *)ctx = true;
}

/* The kind that an integer or bool input uses for a NaN-skipping kind
 * (reduce.def's SKIP base; the kind itself for the others). */
#define CN_RED_PLAIN_ROW_KERNEL(KIND, nans)                                    \
  [CN_RED_##KIND] = CN_RED_PLAIN_KIND(CN_RED_##KIND, CN_RED_NANS_BASE_##nans),
#define CN_RED_PLAIN_ROW_MOMENTS(KIND, nans)
static const int8_t red_plain_kinds[CN_RED_COUNT_] = {
#define CN_REDUCTION(name, KIND, family, backend, empty, nans, doc)            \
  CN_RED_PLAIN_ROW_##backend(KIND, nans)
#include "../reduce.def"
#undef CN_REDUCTION
};

static int red_plain_kind(int kind) {
  return kind >= 0 && kind < CN_RED_COUNT_ ? red_plain_kinds[kind] : kind;
}

static bool red_inexact(cn_dtype dt) {
  return cn_is_float(dt) || cn_is_complex(dt);
}

static cn_status red_apply(int kind, const cn_array_s *in, uint64_t mask,
                           cn_array_s *out, const cn_array_s *aux) {
  /* any/all to one element: a scan that stops at the deciding block. */
  if ((kind == CN_RED_ANY || kind == CN_RED_ALL) && out->size == 1 &&
      out->dtype == CN_BOOL && in->size > 0 &&
      red_extent_product(in, mask, false) == 1) {
    *(bool *)out->data = kind == CN_RED_ANY ? cn_cpu_truth_any(in)
                                            : cn_cpu_truth_all(in);
    return CN_OK;
  }
  const bool dbl = !red_inexact(in->dtype) && out->dtype == CN_FLOAT64 &&
                   (kind == CN_RED_SUM || kind == CN_RED_NANSUM);
  int kk = red_inexact(in->dtype) ? kind : red_plain_kind(kind);
  const cn_red_kernel *k = cn_red_kernel_get(kk, in->dtype, dbl);
  if (!k)
    return cn_error(CN_ERR_UNSUPPORTED,
                    "cn_cpu_reduce: no CPU kernel for reduction %d of dtype %s "
                    "into %s",
                    kind, cn_dtype_name(in->dtype), cn_dtype_name(out->dtype));
  const bool arg = kind == CN_RED_ARGMIN || kind == CN_RED_ARGMAX ||
                   kind == CN_RED_NANARGMIN || kind == CN_RED_NANARGMAX;
  red_geom g;
  red_geom_build(&g, in, mask, out, aux, !arg);
  cn_status st = red_run(
      k, &g,
      !(red_inexact(in->dtype) && (kk == CN_RED_PROD || kk == CN_RED_NANPROD)));
  if (st != CN_OK)
    return st;
  if (kk == CN_RED_NANARGMIN || kk == CN_RED_NANARGMAX) {
    bool all_nan = false;
    red_for_each(out, NULL, red_find_neg, &all_nan);
    if (all_nan)
      return cn_error(CN_ERR_VALUE, "All-NaN slice encountered");
  }
  return CN_OK;
}

cn_status cn_cpu_reduce(cn_reduce_kind kind, const cn_array_s *in,
                        uint64_t axis_mask, cn_array_s *out) {
  if (kind == CN_RED_CUMSUM || kind == CN_RED_CUMPROD)
    return cn_cpu_scan(kind, in, axis_mask, out);
  return red_apply(kind, in, axis_mask, out, NULL);
}

/* ---- moments ---------------------------------------------------------- */

typedef struct red_div_ctx {
  cn_dtype dt;
  double n, ddof;
} red_div_ctx;

/* a /= max(count - ddof, 0), count = b's int64 or ctx->n. */
static void red_div(char *a, const char *b, void *ctx_) {
  const red_div_ctx *c = (const red_div_ctx *)ctx_;
  double d = (b ? (double)*(const int64_t *)b : c->n) - c->ddof;
  if (d < 0)
    d = 0;
  switch (c->dt) {
  case CN_FLOAT32:
    *(float *)a = (float)(*(float *)a / d);
    break;
  case CN_FLOAT64:
    *(double *)a /= d;
    break;
  case CN_COMPLEX64: {
    float _Complex z = *(float _Complex *)a;
    *(float _Complex *)a =
        __builtin_complex((float)(__real__ z / d), (float)(__imag__ z / d));
    break;
  }
  case CN_COMPLEX128: {
    double _Complex z = *(double _Complex *)a;
    *(double _Complex *)a = __builtin_complex(__real__ z / d, __imag__ z / d);
    break;
  }
  default:
    break;
  }
}

static void red_divide(cn_array_s *a, const cn_array_s *cnt, double n,
                       double ddof) {
  red_div_ctx c = {a->dtype, n, ddof};
  red_for_each(a, cnt, red_div, &c);
}

cn_status cn_cpu_moments(const cn_array_s *in, uint64_t axis_mask, double ddof,
                         bool nan_skip, cn_array_s *mean, cn_array_s *var) {
  const cn_dtype dt = in->dtype;
  const cn_array_s *shape_of = mean ? mean : var;
  if (!shape_of)
    return CN_OK;
  if (!red_inexact(dt))
    nan_skip = false;
  const int64_t n = red_extent_product(in, axis_mask, true);
  cn_status st;
  if (!var && !nan_skip) {
    /* The mean alone: a sum (float64 accumulator for integers). */
    if ((st = red_apply(CN_RED_SUM, in, axis_mask, mean, NULL)) != CN_OK)
      return st;
    red_divide(mean, NULL, (double)n, 0.0);
    return CN_OK;
  }
  if (!red_inexact(dt))
    return cn_error(CN_ERR_UNSUPPORTED,
                    "cn_cpu_moments: variance needs a float or complex input, "
                    "got %s",
                    cn_dtype_name(dt));
  cn_array_s *m = NULL, *cnt = NULL;
  if (mean && mean->dtype == dt) {
    m = mean;
  } else if ((st = cn_array_new(&m, cn_cpu_backend(), 0, dt, shape_of->ndim,
                                shape_of->shape, CN_ORDER_C)) != CN_OK) {
    return st;
  }
  if (nan_skip &&
      (st = cn_array_new(&cnt, cn_cpu_backend(), 0, CN_INT64, shape_of->ndim,
                         shape_of->shape, CN_ORDER_C)) != CN_OK)
    goto done;
  if (nan_skip) {
    if ((st = red_apply(CN_RED_NANSUM, in, axis_mask, m, NULL)) != CN_OK ||
        (st = red_apply(CN_RK_COUNTNN, in, axis_mask, cnt, NULL)) != CN_OK)
      goto done;
  } else if ((st = red_apply(CN_RED_SUM, in, axis_mask, m, NULL)) != CN_OK) {
    goto done;
  }
  red_divide(m, cnt, (double)n, 0.0);
  if (var) {
    st = red_apply(nan_skip ? CN_RK_NANSQDEV : CN_RK_SQDEV, in, axis_mask, var,
                   m);
    if (st != CN_OK)
      goto done;
    red_divide(var, cnt, (double)n, ddof);
  }
  if (mean && m != mean) {
    /* A mean of another dtype than the input's (not used by the core). */
    st = cn_cpu_assign(mean, m);
  }
done:
  if (m != mean)
    cn_array_release((cn_array)m);
  cn_array_release((cn_array)cnt);
  return st;
}
