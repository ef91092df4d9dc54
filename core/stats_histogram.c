/* Histograms, bin counts and digitize (include/cunumpy/stats.h), composed
 * from the engine's operations, so that each runs where its data lives:
 * bins are found by searchsorted (NaNs last, the last edge closed, as
 * NumPy), counted by the scatter_add slot into a histogram that has an
 * outlier bin before and after each axis (NumPy's histogramdd layout: the
 * outliers are then sliced off), and densities divided elementwise. Only
 * scalars cross to the host: the data's range, a minimum checked for
 * negative values, a monotonicity flag. Uniform edges (NumPy's linspace)
 * are made on the host, nbins + 1 values, and copied to the data's
 * device. A value's bin by searchsorted is the one NumPy's uniform-bin
 * index computation lands on after its edge corrections. */
#include "cunumpy/stats.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/manip.h"
#include "cunumpy/reduce.h"
#include "cunumpy/sort.h"
#include "cunumpy/ufunc.h"
#include "cunumpy/view.h"
#include "stats_util.h"

#define TRY(x)                                                                 \
  do {                                                                         \
    if ((st = (x)) != CN_OK)                                                   \
      goto done;                                                               \
  } while (0)

static void drop(cn_array_s **a) {
  cn_array_release(*a);
  *a = NULL;
}

/* CN_ERR_UNSUPPORTED (the standard message) unless a's backend can count. */
static cn_status need_scatter(const cn_array_s *a, const char *fn) {
  const cn_backend *be = cn_backend_of(a);
  if (be->compute->scatter_add == NULL)
    return cn_slot_unsupported(fn, be, "scatter_add");
  return CN_OK;
}

/* New C-contiguous array of dt filled with v, on like's device. */
static cn_status full_on(cn_array_s **out, const cn_array_s *like, cn_dtype dt,
                         int32_t nd, const int64_t *shape, cn_scalar v) {
  cn_status st = cn_new_on(out, like, dt, nd, shape);
  if (st == CN_OK && (st = cn_fill(*out, v)) != CN_OK)
    drop(out);
  return st;
}

/* The flattened a as C-contiguous dt on a's device (a new reference to a
 * when it is one already). */
static cn_status flat_as(cn_array_s **out, const cn_array_s *a, cn_dtype dt) {
  cn_array_s *r = NULL;
  cn_status st = cn_ravel(&r, (cn_array)a, CN_ORDER_C);
  if (st == CN_OK)
    st = cn_as_contig(out, r, dt);
  cn_array_release(r);
  return st;
}

/* The one value of a (read back from its device) as a double / int64. */
static cn_status read_f64(double *v, cn_array_s *a) {
  cn_scalar s;
  cn_status st = cn_item(&s, a);
  if (st != CN_OK)
    return st;
  *v = s.kind == CN_SCALAR_FLOAT || s.kind == CN_SCALAR_COMPLEX ? s.re
       : s.kind == CN_SCALAR_UINT ? (double)(uint64_t)s.i
                                  : (double)s.i;
  return CN_OK;
}

static cn_status read_i64(int64_t *v, cn_array_s *a) {
  cn_scalar s;
  cn_status st = cn_item(&s, a);
  if (st == CN_OK)
    *v = s.i;
  return st;
}

/* Minimum and maximum of the non-empty float64 x (a NaN gives NaN). */
static cn_status min_max(double *lo, double *hi, const cn_array_s *x) {
  cn_array_s *m = NULL;
  cn_status st =
      cn_min(&m, (cn_array)x, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL);
  if (st == CN_OK)
    st = read_f64(lo, m);
  drop(&m);
  if (st == CN_OK)
    st = cn_max(&m, (cn_array)x, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL);
  if (st == CN_OK)
    st = read_f64(hi, m);
  drop(&m);
  return st;
}

/* NumPy's outer edges of one axis of the flat float64 x: the range when
 * given, else the data's min and max (0, 1 when empty), widened by 0.5
 * when equal. */
static cn_status outer_range(double *lo, double *hi, const cn_array_s *x,
                             const double *range, const char *fn) {
  cn_status st;
  if (range) {
    *lo = range[0];
    *hi = range[1];
    if (*lo > *hi)
      return cn_error(CN_ERR_VALUE,
                      "%s: max must be larger than min in range parameter "
                      "(%g, %g)",
                      fn, *lo, *hi);
    if (!isfinite(*lo) || !isfinite(*hi))
      return cn_error(CN_ERR_VALUE,
                      "%s: supplied range of [%g, %g] is not finite", fn, *lo,
                      *hi);
  } else if (x->size == 0) {
    *lo = 0;
    *hi = 1;
  } else {
    if ((st = min_max(lo, hi, x)) != CN_OK)
      return st;
    if (!isfinite(*lo) || !isfinite(*hi)) {
      bool nan = isnan(*lo) || isnan(*hi);
      return cn_error(CN_ERR_VALUE,
                      "%s: autodetected range of [%g, %g] is not finite", fn,
                      nan ? NAN : *lo, nan ? NAN : *hi);
    }
  }
  if (*lo == *hi) {
    *lo -= 0.5;
    *hi += 0.5;
  }
  return CN_OK;
}

/* nbins + 1 equal float64 edges over [lo, hi] on like's device: NumPy's
 * linspace, lo + i * step with the last edge exactly hi. */
static cn_status uniform_edges(cn_array_s **out, const cn_array_s *like,
                               double lo, double hi, int64_t nbins) {
  cn_array_s *h = NULL;
  int64_t n = nbins + 1;
  cn_status st = cn_host_new(&h, CN_FLOAT64, 1, &n);
  if (st != CN_OK)
    return st;
  double *v = (double *)h->data, step = (hi - lo) / (double)nbins;
  for (int64_t i = 0; i < n; i++)
    v[i] = lo + (double)i * step;
  v[nbins] = hi;
  return cn_result_to((cn_array *)out, h, like, CN_DTYPE_DEFAULT);
}

/* *ok = all(e[:-1] <= e[1:]) for the 1-d float64 e (a NaN fails). */
static cn_status increasing(bool *ok, const cn_array_s *e) {
  int64_t n = e->size;
  *ok = true;
  if (n < 2)
    return CN_OK;
  cn_array_s *lo = NULL, *hi = NULL, *le = NULL, *all = NULL;
  int64_t v = 1;
  cn_status st;
  TRY(cn_slice_axis(&lo, (cn_array)e, 0, 0, n - 1, 1));
  TRY(cn_slice_axis(&hi, (cn_array)e, 0, 1, n, 1));
  TRY(cn_less_equal(&le, lo, hi, NULL));
  TRY(cn_all(&all, le, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL));
  TRY(read_i64(&v, all));
  *ok = v != 0;
done:
  cn_array_release(lo);
  cn_array_release(hi);
  cn_array_release(le);
  cn_array_release(all);
  return st;
}

/* h[idx[i]] += w[i] (w NULL: += 1), indices outside h skipped. */
static cn_status scatter(cn_array_s *h, const cn_array_s *idx,
                         const cn_array_s *w, const char *fn) {
  CN_REQUIRE_SLOT(add, cn_backend_of(h), scatter_add, fn);
  return add(h, idx, w);
}

/* Position of each x among the edges e (both float64, C-contiguous):
 * searchsorted(e, x, 'right'), less one for a value on the last edge, as
 * NumPy's histogramdd: 0 below the first edge, len(e) above the last or
 * NaN, k in [1, len(e) - 1] for bin k - 1 (the last bin closed). */
static cn_status edge_pos(cn_array_s **k, const cn_array_s *x,
                          const cn_array_s *e) {
  cn_array_s *s = NULL, *last = NULL, *on = NULL;
  cn_status st;
  TRY(cn_searchsorted(&s, (cn_array)e, (cn_array)x, CN_SIDE_RIGHT, NULL));
  TRY(cn_index_axis(&last, (cn_array)e, 0, e->size - 1));
  TRY(cn_equal(&on, (cn_array)x, last, NULL));
  TRY(cn_subtract(k, s, on, s));
done:
  cn_array_release(s);
  cn_array_release(last);
  cn_array_release(on);
  return st;
}

/* The histogram of D coordinate arrays x[i] (float64, C-contiguous, 1-d,
 * one length) over the float64 edges e[i] (C-contiguous, 1-d, at least one
 * edge): int64 counts (float64 when fl), or float64 sums of w (float64,
 * C-contiguous, x's length; NULL for counts), of shape (len(e[i]) - 1...);
 * density divides by the total and each bin's volume in NumPy's order. */
static cn_status hist_nd(cn_array_s **out, int32_t D, cn_array_s *const *x,
                         cn_array_s *const *e, const cn_array_s *w,
                         bool density, bool fl, const char *fn) {
  int64_t full[CN_MAX_DIMS], start[CN_MAX_DIMS], stop[CN_MAX_DIMS],
      step[CN_MAX_DIMS], total = 1;
  for (int32_t i = 0; i < D; i++) {
    full[i] = e[i]->size + 1;
    start[i] = 1;
    stop[i] = full[i] - 1;
    step[i] = 1;
    if (total > INT64_MAX / full[i])
      return cn_error(CN_ERR_VALUE, "%s: too many bins", fn);
    total *= full[i];
  }
  cn_array_s *flat = NULL, *k = NULL, *mul = NULL, *h = NULL, *hv = NULL,
             *core = NULL, *r = NULL, *t = NULL, *s = NULL, *lo = NULL,
             *hi = NULL, *db = NULL, *dbv = NULL;
  cn_status st;
  /* flat = ravel_multi_index(positions, full), C order */
  for (int32_t i = 0; i < D; i++) {
    TRY(edge_pos(&k, x[i], e[i]));
    if (i == 0) {
      flat = k;
      k = NULL;
      continue;
    }
    TRY(full_on(&mul, flat, CN_INT64, 0, NULL, cn_scalar_int(full[i])));
    cn_array_s *tmp = NULL;
    TRY(cn_multiply(&tmp, flat, mul, flat));
    cn_array_release(tmp);
    TRY(cn_add(&tmp, flat, k, flat));
    cn_array_release(tmp);
    drop(&mul);
    drop(&k);
  }
  TRY(full_on(&h, x[0], w ? CN_FLOAT64 : CN_INT64, 1, &total,
              cn_scalar_int(0)));
  TRY(scatter(h, flat, w, fn));
  TRY(cn_contig_view(&hv, h, D, full));
  TRY(cn_slice(&core, hv, D, start, stop, step));
  TRY(cn_copy(&r, core, CN_ORDER_C));
  if (fl && !w) {
    drop(&core);
    TRY(cn_astype(&core, r, CN_FLOAT64, 0));
    drop(&r);
    r = core;
    core = NULL;
  }
  if (density) {
    /* NumPy: s = hist.sum(); hist = hist / dedges[i] (per axis); hist /= s */
    TRY(cn_sum(&s, r, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL));
    for (int32_t i = 0; i < D; i++) {
      int64_t n = e[i]->size, shape[CN_MAX_DIMS];
      for (int32_t j = 0; j < D; j++)
        shape[j] = j == i ? n - 1 : 1;
      TRY(cn_slice_axis(&lo, e[i], 0, 0, n - 1, 1));
      TRY(cn_slice_axis(&hi, e[i], 0, 1, n, 1));
      TRY(cn_subtract(&db, hi, lo, NULL));
      TRY(cn_reshape(&dbv, db, D, shape, CN_ORDER_C));
      TRY(cn_divide(&t, r, dbv, NULL));
      drop(&r);
      r = t;
      t = NULL;
      drop(&lo);
      drop(&hi);
      drop(&db);
      drop(&dbv);
    }
    TRY(cn_divide(&t, r, s, NULL));
    drop(&r);
    r = t;
    t = NULL;
  }
  *out = r;
  r = NULL;
done:
  cn_array_release(flat);
  cn_array_release(k);
  cn_array_release(mul);
  cn_array_release(h);
  cn_array_release(hv);
  cn_array_release(core);
  cn_array_release(r);
  cn_array_release(t);
  cn_array_release(s);
  cn_array_release(lo);
  cn_array_release(hi);
  cn_array_release(db);
  cn_array_release(dbv);
  return st;
}

/* ---- the CPU's direct loops ----------------------------------------------
 * On CPU arrays the histograms run as one pass over a float64 copy (uniform
 * bins by NumPy's index computation with its edge corrections, others by a
 * binary search): faster there than the composition, whose searchsorted
 * and temporaries cost several passes. Setting CUNUMPY_HISTOGRAM_COMPOSED=1
 * (read once) runs the composition on CPU arrays too, so that the tests
 * cover the path device arrays take. */

static bool host_path(const cn_array_s *a) {
  static int composed = -1;
  int c = __atomic_load_n(&composed, __ATOMIC_RELAXED);
  if (c < 0) {
    const char *e = getenv("CUNUMPY_HISTOGRAM_COMPOSED");
    c = e != NULL && e[0] == '1';
    __atomic_store_n(&composed, c, __ATOMIC_RELAXED);
  }
  return !c && cn_backend_of(a)->device_type == CN_DEVICE_CPU;
}

/* Edges of a binning: given (monotonic) or equal bins. */
typedef struct binning {
  double *edges;
  int64_t n; /* bins */
  bool uniform;
  double lo, hi;
} binning;

static cn_status binning_make(binning *b, const double *x, int64_t nx,
                              int64_t nbins, const cn_array_s *edges,
                              bool has_range, double lo, double hi,
                              const char *fn) {
  memset(b, 0, sizeof *b);
  if (edges) {
    cn_status st = cn_require_real(edges, fn, "edges");
    if (st != CN_OK)
      return st;
    if (edges->ndim != 1 || edges->size < 2)
      return cn_error(CN_ERR_VALUE,
                      "%s: bins must be a 1-d array of at least "
                      "2 edges",
                      fn);
    cn_array_s *h = NULL;
    if ((st = cn_host_f64(&h, edges)) != CN_OK)
      return st;
    b->n = edges->size - 1;
    b->edges = cn_malloc(sizeof(double) * (size_t)(b->n + 1));
    if (!b->edges) {
      cn_array_release(h);
      return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
    }
    memcpy(b->edges, h->data, sizeof(double) * (size_t)(b->n + 1));
    cn_array_release(h);
    for (int64_t i = 0; i < b->n; i++)
      if (!(b->edges[i] <= b->edges[i + 1])) {
        free(b->edges);
        b->edges = NULL;
        return cn_error(CN_ERR_VALUE,
                        "%s: bins must increase monotonically, "
                        "when an array",
                        fn);
      }
    return CN_OK;
  }
  if (nbins < 1)
    return cn_error(CN_ERR_VALUE,
                    "%s: number of bins must be >= 1, got %" PRId64, fn, nbins);
  if (has_range) {
    if (!(lo <= hi))
      return cn_error(CN_ERR_VALUE,
                      "%s: max must be larger than min in range "
                      "parameter (%g, %g)",
                      fn, lo, hi);
    if (!isfinite(lo) || !isfinite(hi))
      return cn_error(CN_ERR_VALUE,
                      "%s: supplied range of [%g, %g] is not "
                      "finite",
                      fn, lo, hi);
  } else if (nx == 0) {
    lo = 0;
    hi = 1;
  } else {
    lo = INFINITY;
    hi = -INFINITY;
    bool nan = false;
    for (int64_t i = 0; i < nx; i++) {
      if (x[i] != x[i])
        nan = true;
      if (x[i] < lo)
        lo = x[i];
      if (x[i] > hi)
        hi = x[i];
    }
    if (nan || !isfinite(lo) || !isfinite(hi))
      return cn_error(CN_ERR_VALUE,
                      "%s: autodetected range of [%g, %g] is "
                      "not finite",
                      fn, nan ? NAN : lo, nan ? NAN : hi);
  }
  if (lo == hi) {
    lo -= 0.5;
    hi += 0.5;
  }
  b->n = nbins;
  b->uniform = true;
  b->lo = lo;
  b->hi = hi;
  b->edges = cn_malloc(sizeof(double) * (size_t)(nbins + 1));
  if (!b->edges)
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  /* NumPy's linspace: lo + i * step, the last edge exactly hi. */
  double step = (hi - lo) / (double)nbins;
  for (int64_t i = 0; i <= nbins; i++)
    b->edges[i] = lo + (double)i * step;
  b->edges[nbins] = hi;
  return CN_OK;
}

/* Bin of v, or -1 when outside. */
static int64_t bin_of(const binning *b, double v) {
  const double *e = b->edges;
  if (!(v >= e[0] && v <= e[b->n]))
    return -1;
  int64_t k;
  if (b->uniform) {
    k = (int64_t)((v - b->lo) * ((double)b->n / (b->hi - b->lo)));
    if (k >= b->n)
      k = b->n - 1;
    if (k < 0)
      k = 0;
    /* Correct the float estimate against the edges, as NumPy does. */
    if (v < e[k])
      k--;
    else if (k != b->n - 1 && v >= e[k + 1])
      k++;
    return k;
  }
  int64_t lo = 0, hi = b->n;
  if (v == e[b->n]) /* NumPy closes the last bin, repeated edges or not */
    return b->n - 1;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (e[mid + 1] <= v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static cn_status edges_array(cn_array *out, const binning *b,
                             const cn_array_s *like) {
  if (!out)
    return CN_OK;
  cn_array_s *h = NULL;
  int64_t n = b->n + 1;
  cn_status st = cn_host_new(&h, CN_FLOAT64, 1, &n);
  if (st != CN_OK)
    return st;
  memcpy(h->data, b->edges, sizeof(double) * (size_t)n);
  return cn_result_to(out, h, like, CN_DTYPE_DEFAULT);
}

static cn_status histogram_host(cn_array *hist, cn_array *edges_out, cn_array a,
                                int64_t nbins, cn_array edges,
                                int32_t has_range, double lo, double hi,
                                cn_array weights, int32_t density) {
  const char *fn = "cn_histogram";
  CN_CHECK_OUT(hist, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (edges)
    CN_CHECK_ARRAY(edges, fn, "edges");
  if (weights)
    CN_CHECK_ARRAY(weights, fn, "weights");
  cn_status st = cn_require_real(a, fn, "a");
  if (st != CN_OK)
    return st;
  if (weights && weights->size != a->size)
    return cn_error(CN_ERR_SHAPE,
                    "%s: weights should have the same shape as "
                    "a (%" PRId64 " vs %" PRId64 " elements)",
                    fn, weights->size, a->size);
  cn_array_s *x = NULL, *w = NULL, *h = NULL;
  binning b = {0};
  st = cn_host_f64(&x, a);
  if (st == CN_OK && weights)
    st = cn_host_f64(&w, weights);
  if (st == CN_OK)
    st = binning_make(&b, (const double *)x->data, x->size, nbins, edges,
                      has_range != 0, lo, hi, fn);
  bool fl = weights || density;
  if (st == CN_OK)
    st = cn_host_new(&h, fl ? CN_FLOAT64 : CN_INT64, 1, &b.n);
  if (st == CN_OK) {
    double *hd = (double *)h->data;
    int64_t *hi64 = (int64_t *)h->data;
    memset(h->data, 0, sizeof(double) * (size_t)b.n);
    const double *xv = (const double *)x->data;
    double total = 0;
    for (int64_t i = 0; i < x->size; i++) {
      int64_t k = bin_of(&b, xv[i]);
      if (k < 0)
        continue;
      double wt = w ? ((const double *)w->data)[i] : 1.0;
      if (fl)
        hd[k] += wt;
      else
        hi64[k]++;
      total += wt;
    }
    /* NumPy's order: n / db / n.sum() */
    if (density)
      for (int64_t k = 0; k < b.n; k++)
        hd[k] = hd[k] / (b.edges[k + 1] - b.edges[k]) / total;
  }
  cn_array_s *dh = NULL, *de = NULL;
  if (st == CN_OK) {
    st = cn_result_to(&dh, h, a, CN_DTYPE_DEFAULT);
    h = NULL;
  }
  if (st == CN_OK && edges_out)
    st = edges_array(&de, &b, a);
  free(b.edges);
  cn_array_release(x);
  cn_array_release(w);
  cn_array_release(h);
  if (st != CN_OK) {
    cn_array_release(dh);
    return st;
  }
  *hist = dh;
  if (edges_out)
    *edges_out = de;
  return CN_OK;
}

static cn_status histogram2d_host(cn_array *hist, cn_array *xedges,
                                  cn_array *yedges, cn_array x, cn_array y,
                                  int64_t nx, int64_t ny, const double *range,
                                  cn_array weights, int32_t density) {
  const char *fn = "cn_histogram2d";
  CN_CHECK_OUT(hist, fn);
  CN_CHECK_ARRAY(x, fn, "x");
  CN_CHECK_ARRAY(y, fn, "y");
  if (weights)
    CN_CHECK_ARRAY(weights, fn, "weights");
  cn_status st = cn_require_real(x, fn, "x");
  if (st == CN_OK)
    st = cn_require_real(y, fn, "y");
  if (st != CN_OK)
    return st;
  if (x->size != y->size || (weights && weights->size != x->size))
    return cn_error(CN_ERR_SHAPE,
                    "%s: x, y (and weights) must have the same "
                    "length (%" PRId64 ", %" PRId64 ")",
                    fn, x->size, y->size);
  cn_array_s *hx = NULL, *hy = NULL, *w = NULL, *h = NULL;
  binning bx = {0}, by = {0};
  st = cn_host_f64(&hx, x);
  if (st == CN_OK)
    st = cn_host_f64(&hy, y);
  if (st == CN_OK && weights)
    st = cn_host_f64(&w, weights);
  if (st == CN_OK)
    st = binning_make(&bx, (const double *)hx->data, hx->size, nx, NULL,
                      range != NULL, range ? range[0] : 0, range ? range[1] : 0,
                      fn);
  if (st == CN_OK)
    st = binning_make(&by, (const double *)hy->data, hy->size, ny, NULL,
                      range != NULL, range ? range[2] : 0, range ? range[3] : 0,
                      fn);
  bool fl = weights || density;
  int64_t sh[2] = {nx, ny};
  if (st == CN_OK)
    st = cn_host_new(&h, fl ? CN_FLOAT64 : CN_INT64, 2, sh);
  if (st == CN_OK) {
    memset(h->data, 0, sizeof(double) * (size_t)(nx * ny));
    double *hd = (double *)h->data, total = 0;
    int64_t *hi64 = (int64_t *)h->data;
    for (int64_t i = 0; i < hx->size; i++) {
      int64_t kx = bin_of(&bx, ((const double *)hx->data)[i]);
      int64_t ky = bin_of(&by, ((const double *)hy->data)[i]);
      if (kx < 0 || ky < 0)
        continue;
      double wt = w ? ((const double *)w->data)[i] : 1.0;
      if (fl)
        hd[kx * ny + ky] += wt;
      else
        hi64[kx * ny + ky]++;
      total += wt;
    }
    /* NumPy's histogramdd order: by each axis' widths, then the total */
    if (density)
      for (int64_t i = 0; i < nx; i++)
        for (int64_t j = 0; j < ny; j++)
          hd[i * ny + j] = hd[i * ny + j] / (bx.edges[i + 1] - bx.edges[i]) /
                           (by.edges[j + 1] - by.edges[j]) / total;
  }
  cn_array_s *dh = NULL, *dx = NULL, *dy = NULL;
  if (st == CN_OK) {
    st = cn_result_to(&dh, h, x, CN_DTYPE_DEFAULT);
    h = NULL;
  }
  if (st == CN_OK && xedges)
    st = edges_array(&dx, &bx, x);
  if (st == CN_OK && yedges)
    st = edges_array(&dy, &by, x);
  free(bx.edges);
  free(by.edges);
  cn_array_release(hx);
  cn_array_release(hy);
  cn_array_release(w);
  cn_array_release(h);
  if (st != CN_OK) {
    cn_array_release(dh);
    cn_array_release(dx);
    cn_array_release(dy);
    return st;
  }
  *hist = dh;
  if (xedges)
    *xedges = dx;
  if (yedges)
    *yedges = dy;
  return CN_OK;
}

/* NumPy's outer edges of one dimension: the range when given, else the
 * data's min and max (0, 1 when empty), widened by 0.5 when equal. */
static cn_status outer_edges_host(double *lo, double *hi, const double *x,
                                  int64_t stride, int64_t n,
                                  const double *range, const char *fn) {
  if (range && !isnan(range[0]) && !isnan(range[1])) {
    *lo = range[0];
    *hi = range[1];
    if (*lo > *hi)
      return cn_error(CN_ERR_VALUE,
                      "%s: max must be larger than min in range parameter "
                      "(%g, %g)",
                      fn, *lo, *hi);
    if (!isfinite(*lo) || !isfinite(*hi))
      return cn_error(CN_ERR_VALUE,
                      "%s: supplied range of [%g, %g] is not "
                      "finite",
                      fn, *lo, *hi);
  } else if (n == 0) {
    *lo = 0;
    *hi = 1;
  } else {
    *lo = INFINITY;
    *hi = -INFINITY;
    bool nan = false;
    for (int64_t i = 0; i < n; i++) {
      double v = x[i * stride];
      nan = nan || v != v;
      *lo = v < *lo ? v : *lo;
      *hi = v > *hi ? v : *hi;
    }
    if (nan || !isfinite(*lo) || !isfinite(*hi))
      return cn_error(CN_ERR_VALUE,
                      "%s: autodetected range of [%g, %g] is not finite", fn,
                      nan ? NAN : *lo, nan ? NAN : *hi);
  }
  if (*lo == *hi) {
    *lo -= 0.5;
    *hi += 0.5;
  }
  return CN_OK;
}

/* One dimension's edges: count + 1 equal ones, or the given 1-d array. */
static cn_status dim_edges_host(cn_array_s **edges, int64_t *ne,
                                const cn_array_s *bins,
                                const cn_array_s *sample, const double *x,
                                int64_t D, int64_t N, const double *range,
                                int32_t i, const char *fn) {
  cn_status st;
  if (bins->ndim == 0) {
    if (!cn_is_integer(bins->dtype))
      return cn_error(CN_ERR_TYPE,
                      "%s: `bins[%d]` must be an integer, when a scalar", fn,
                      (int)i);
    cn_array_s *h = NULL;
    if ((st = cn_host_f64(&h, bins)) != CN_OK)
      return st;
    double cnt = *(const double *)h->data;
    cn_array_release(h);
    if (cnt < 1)
      return cn_error(CN_ERR_VALUE,
                      "%s: `bins[%d]` must be positive, when an integer", fn,
                      (int)i);
    double lo, hi;
    if ((st = outer_edges_host(&lo, &hi, x + i, D, N, range, fn)) != CN_OK)
      return st;
    int64_t n = (int64_t)cnt + 1;
    cn_array_s *e = NULL;
    if ((st = cn_host_new(&e, CN_FLOAT64, 1, &n)) != CN_OK)
      return st;
    double *v = (double *)e->data, step = (hi - lo) / (double)(n - 1);
    for (int64_t k = 0; k < n; k++)
      v[k] = lo + (double)k * step;
    v[n - 1] = hi;
    *ne = n;
    /* float64 edges (linspace's), on the sample's device */
    return cn_result_to(edges, e, sample, CN_DTYPE_DEFAULT);
  }
  if (bins->ndim != 1)
    return cn_error(CN_ERR_VALUE, "%s: `bins[%d]` must be a scalar or 1d array",
                    fn, (int)i);
  if ((st = cn_require_real(bins, fn, "bins")) != CN_OK)
    return st;
  cn_array_retain((cn_array_s *)bins);
  *edges = (cn_array_s *)bins;
  *ne = bins->size;
  return CN_OK;
}

static cn_status histogramdd_host(cn_array *outs, int32_t cap, int32_t *nout,
                                  cn_array sample, int32_t nbins,
                                  const cn_array *bins, cn_array ranges,
                                  cn_array weights, int32_t density) {
  /* cn_histogramdd has validated every argument. */
  const char *fn = "cn_histogramdd";
  cn_status st = CN_OK;
  int64_t N = sample->shape[0], D = sample->shape[1];
  cn_array_s *hs = NULL, *hr = NULL, *hw = NULL, *h = NULL;
  cn_array_s *edges[CN_MAX_DIMS] = {0}, *hedges[CN_MAX_DIMS] = {0};
  double *ev[CN_MAX_DIMS] = {0};
  int64_t ne[CN_MAX_DIMS] = {0};
  st = cn_host_f64(&hs, sample);
  if (st == CN_OK && ranges)
    st = cn_host_f64(&hr, ranges);
  if (st == CN_OK && weights)
    st = cn_host_f64(&hw, weights);
  for (int32_t i = 0; st == CN_OK && i < D; i++) {
    st = dim_edges_host(&edges[i], &ne[i], bins[nbins == 1 ? 0 : i], sample,
                        (const double *)hs->data, D, N,
                        hr ? (const double *)hr->data + 2 * i : NULL, i, fn);
    /* the edges as host float64 values to search */
    if (st == CN_OK)
      st = cn_host_f64(&hedges[i], edges[i]);
    if (st == CN_OK) {
      ev[i] = (double *)hedges[i]->data;
      for (int64_t k = 0; k + 1 < ne[i]; k++)
        if (ev[i][k] > ev[i][k + 1]) {
          st = cn_error(CN_ERR_VALUE,
                        "%s: `bins[%d]` must be monotonically increasing, "
                        "when an array",
                        fn, (int)i);
          break;
        }
      if (st == CN_OK && ne[i] < 1)
        st = cn_error(CN_ERR_VALUE, "%s: `bins[%d]` has no edges", fn, (int)i);
    }
  }
  int64_t shape[CN_MAX_DIMS];
  for (int32_t i = 0; i < D; i++)
    shape[i] = ne[i] > 0 ? ne[i] - 1 : 0;
  if (st == CN_OK)
    st = cn_host_new(&h, CN_FLOAT64, (int32_t)D, shape);
  if (st == CN_OK) {
    double *hv = (double *)h->data;
    for (int64_t k = 0; k < h->size; k++)
      hv[k] = 0;
    const double *x = (const double *)hs->data;
    for (int64_t p = 0; p < N; p++) {
      int64_t flat = 0;
      bool inside = true;
      for (int32_t i = 0; inside && i < D; i++) {
        double v = x[p * D + i];
        const double *e = ev[i];
        int64_t n = ne[i], lo = 0, hi = n;
        /* NumPy: searchsorted right (NaN after everything), a value on the
         * last edge counted in the last bin */
        while (lo < hi) {
          int64_t mid = lo + (hi - lo) / 2;
          if (e[mid] <= v || (v != v && e[mid] == e[mid]))
            lo = mid + 1;
          else
            hi = mid;
        }
        if (v == e[n - 1])
          lo--;
        inside = lo >= 1 && lo <= n - 1;
        flat = flat * shape[i] + (lo - 1);
      }
      if (inside)
        hv[flat] += hw ? ((const double *)hw->data)[p] : 1.0;
    }
    if (density) {
      long double s = 0;
      for (int64_t k = 0; k < h->size; k++)
        s += hv[k];
      /* NumPy's order: divided by each dimension's widths, then the sum */
      for (int64_t k = 0; k < h->size; k++) {
        int64_t rem = k, j[CN_MAX_DIMS];
        for (int32_t i = (int32_t)D - 1; i >= 0; i--) {
          j[i] = rem % shape[i];
          rem /= shape[i];
        }
        double v = hv[k];
        for (int32_t i = 0; i < D; i++)
          v /= ev[i][j[i] + 1] - ev[i][j[i]];
        hv[k] = v / (double)s;
      }
    }
  }
  cn_array_s *dh = NULL;
  if (st == CN_OK) {
    st = cn_result_to(&dh, h, sample, CN_DTYPE_DEFAULT);
    h = NULL;
  }
  cn_array_release(h);
  cn_array_release(hs);
  cn_array_release(hr);
  cn_array_release(hw);
  for (int32_t i = 0; i < D; i++)
    cn_array_release(hedges[i]);
  if (st != CN_OK) {
    for (int32_t i = 0; i < D; i++)
      cn_array_release(edges[i]);
    cn_array_release(dh);
    return st;
  }
  outs[0] = dh;
  for (int32_t i = 0; i < D; i++)
    outs[1 + i] = edges[i];
  *nout = (int32_t)D + 1;
  return CN_OK;
}

/* ---- histograms ---------------------------------------------------------- */

cn_status cn_histogram(cn_array *hist, cn_array *edges_out, cn_array a,
                       int64_t nbins, cn_array edges, int32_t has_range,
                       double lo, double hi, cn_array weights,
                       int32_t density) {
  const char *fn = "cn_histogram";
  CN_CHECK_OUT(hist, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (edges)
    CN_CHECK_ARRAY(edges, fn, "edges");
  if (weights)
    CN_CHECK_ARRAY(weights, fn, "weights");
  cn_status st = cn_require_real(a, fn, "a");
  if (st == CN_OK && weights)
    st = cn_require_real(weights, fn, "weights");
  if (st == CN_OK && edges)
    st = cn_require_real(edges, fn, "edges");
  if (st != CN_OK)
    return st;
  if (weights && weights->size != a->size)
    return cn_error(CN_ERR_SHAPE,
                    "%s: weights should have the same shape as "
                    "a (%" PRId64 " vs %" PRId64 " elements)",
                    fn, weights->size, a->size);
  if (edges && (edges->ndim != 1 || edges->size < 2))
    return cn_error(CN_ERR_VALUE,
                    "%s: bins must be a 1-d array of at least 2 edges", fn);
  if (!edges && nbins < 1)
    return cn_error(CN_ERR_VALUE,
                    "%s: number of bins must be >= 1, got %" PRId64, fn, nbins);
  if (!edges && has_range && !(lo <= hi))
    return cn_error(CN_ERR_VALUE,
                    "%s: max must be larger than min in range parameter "
                    "(%g, %g)",
                    fn, lo, hi);
  const cn_array_s *devs[3] = {a, edges ? edges : a, weights ? weights : a};
  if ((st = cn_same_device(3, devs, fn)) != CN_OK ||
      (st = need_scatter(a, fn)) != CN_OK)
    return st;
  if (host_path(a))
    return histogram_host(hist, edges_out, a, nbins, edges, has_range, lo, hi,
                          weights, density);
  cn_array_s *x = NULL, *w = NULL, *e = NULL, *h = NULL;
  TRY(flat_as(&x, a, CN_FLOAT64));
  if (weights)
    TRY(flat_as(&w, weights, CN_FLOAT64));
  if (edges) {
    bool ok;
    TRY(flat_as(&e, edges, CN_FLOAT64));
    TRY(increasing(&ok, e));
    if (!ok) {
      st = cn_error(CN_ERR_VALUE,
                    "%s: bins must increase monotonically, when an array", fn);
      goto done;
    }
  } else {
    double range[2] = {lo, hi};
    TRY(outer_range(&lo, &hi, x, has_range ? range : NULL, fn));
    TRY(uniform_edges(&e, a, lo, hi, nbins));
  }
  TRY(hist_nd(&h, 1, &x, &e, w, density != 0, density != 0, fn));
  *hist = h;
  h = NULL;
  if (edges_out) {
    *edges_out = e;
    e = NULL;
  }
done:
  cn_array_release(x);
  cn_array_release(w);
  cn_array_release(e);
  cn_array_release(h);
  return st;
}

cn_status cn_histogram2d(cn_array *hist, cn_array *xedges, cn_array *yedges,
                         cn_array x, cn_array y, int64_t nx, int64_t ny,
                         const double *range, cn_array weights,
                         int32_t density) {
  const char *fn = "cn_histogram2d";
  CN_CHECK_OUT(hist, fn);
  CN_CHECK_ARRAY(x, fn, "x");
  CN_CHECK_ARRAY(y, fn, "y");
  if (weights)
    CN_CHECK_ARRAY(weights, fn, "weights");
  cn_status st = cn_require_real(x, fn, "x");
  if (st == CN_OK)
    st = cn_require_real(y, fn, "y");
  if (st == CN_OK && weights)
    st = cn_require_real(weights, fn, "weights");
  if (st != CN_OK)
    return st;
  if (x->size != y->size || (weights && weights->size != x->size))
    return cn_error(CN_ERR_SHAPE,
                    "%s: x, y (and weights) must have the same "
                    "length (%" PRId64 ", %" PRId64 ")",
                    fn, x->size, y->size);
  if (nx < 1 || ny < 1)
    return cn_error(CN_ERR_VALUE,
                    "%s: number of bins must be >= 1, got (%" PRId64
                    ", %" PRId64 ")",
                    fn, nx, ny);
  const cn_array_s *devs[3] = {x, y, weights ? weights : x};
  if ((st = cn_same_device(3, devs, fn)) != CN_OK ||
      (st = need_scatter(x, fn)) != CN_OK)
    return st;
  if (host_path(x))
    return histogram2d_host(hist, xedges, yedges, x, y, nx, ny, range, weights,
                            density);
  cn_array_s *c[2] = {NULL, NULL}, *e[2] = {NULL, NULL}, *w = NULL, *h = NULL;
  const int64_t nb[2] = {nx, ny};
  TRY(flat_as(&c[0], x, CN_FLOAT64));
  TRY(flat_as(&c[1], y, CN_FLOAT64));
  if (weights)
    TRY(flat_as(&w, weights, CN_FLOAT64));
  for (int i = 0; i < 2; i++) {
    double lo, hi;
    TRY(outer_range(&lo, &hi, c[i], range ? range + 2 * i : NULL, fn));
    TRY(uniform_edges(&e[i], x, lo, hi, nb[i]));
  }
  TRY(hist_nd(&h, 2, c, e, w, density != 0, density != 0, fn));
  *hist = h;
  h = NULL;
  if (xedges) {
    *xedges = e[0];
    e[0] = NULL;
  }
  if (yedges) {
    *yedges = e[1];
    e[1] = NULL;
  }
done:
  for (int i = 0; i < 2; i++) {
    cn_array_release(c[i]);
    cn_array_release(e[i]);
  }
  cn_array_release(w);
  cn_array_release(h);
  return st;
}

/* ---- bincount ------------------------------------------------------------ */

cn_status cn_bincount(cn_array *out, cn_array x, cn_array weights,
                      int64_t minlength) {
  const char *fn = "cn_bincount";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(x, fn, "x");
  if (weights)
    CN_CHECK_ARRAY(weights, fn, "weights");
  if (!cn_is_integer(x->dtype) && x->dtype != CN_BOOL)
    return cn_error(CN_ERR_TYPE, "%s: x must have an integer dtype, got %s", fn,
                    cn_dtype_name(x->dtype));
  if (x->ndim != 1)
    return cn_error(CN_ERR_VALUE, "%s: x must be 1-d, got %d-d", fn,
                    (int)x->ndim);
  if (minlength < 0)
    return cn_error(CN_ERR_VALUE,
                    "%s: minlength must be non-negative, got %" PRId64, fn,
                    minlength);
  if (weights && weights->size != x->size)
    return cn_error(CN_ERR_SHAPE,
                    "%s: weights have %" PRId64 " elements, x %" PRId64, fn,
                    weights->size, x->size);
  cn_status st = weights ? cn_require_real(weights, fn, "weights") : CN_OK;
  if (st != CN_OK)
    return st;
  const cn_array_s *devs[2] = {x, weights ? weights : x};
  if ((st = cn_same_device(2, devs, fn)) != CN_OK ||
      (st = need_scatter(x, fn)) != CN_OK)
    return st;
  cn_array_s *v = NULL, *w = NULL, *m = NULL, *r = NULL;
  int64_t len = minlength;
  TRY(cn_as_contig(&v, x, CN_INT64));
  if (v->size > 0) {
    /* one pass: the maximum as uint64, where a negative value is above
     * INT64_MAX; the minimum, to name it, only then */
    cn_array_s *u = NULL;
    uint64_t top = 0;
    cn_scalar sc;
    TRY(cn_view_dtype(&u, v, CN_UINT64));
    st = cn_max(&m, u, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL);
    cn_array_release(u);
    if (st != CN_OK)
      goto done;
    TRY(cn_item(&sc, m));
    drop(&m);
    top = (uint64_t)sc.i;
    if (top > (uint64_t)INT64_MAX) {
      int64_t lo = -1;
      TRY(cn_min(&m, v, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL));
      TRY(read_i64(&lo, m));
      st = cn_error(CN_ERR_VALUE,
                    "%s: 'x' argument must have no negative elements "
                    "(found %" PRId64 ")",
                    fn, lo);
      goto done;
    }
    if ((int64_t)top >= len)
      len = (int64_t)top + 1;
  }
  if (weights)
    TRY(flat_as(&w, weights, CN_FLOAT64));
  TRY(full_on(&r, x, w ? CN_FLOAT64 : CN_INT64, 1, &len, cn_scalar_int(0)));
  TRY(scatter(r, v, w, fn));
  *out = r;
  r = NULL;
done:
  cn_array_release(v);
  cn_array_release(w);
  cn_array_release(m);
  cn_array_release(r);
  return st;
}

/* ---- digitize ------------------------------------------------------------ */

/* *bad = any(lt_nan(p[i], q[i])) where lt_nan(a, b) = a < b, or b is NaN and
 * a is not (the order that puts NaNs last). */
static cn_status any_lt_nan(bool *bad, cn_array_s *p, cn_array_s *q) {
  cn_array_s *lt = NULL, *pn = NULL, *qn = NULL, *t = NULL, *any = NULL;
  int64_t v = 0;
  cn_status st;
  TRY(cn_less(&lt, p, q, NULL));
  TRY(cn_isnan(&pn, p, NULL));
  TRY(cn_isnan(&qn, q, NULL));
  TRY(cn_greater(&t, qn, pn, NULL)); /* q NaN and p not */
  cn_array_s *tmp = NULL;
  TRY(cn_logical_or(&tmp, lt, t, lt));
  cn_array_release(tmp);
  TRY(cn_any(&any, lt, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL));
  TRY(read_i64(&v, any));
  *bad = v != 0;
done:
  cn_array_release(lt);
  cn_array_release(pn);
  cn_array_release(qn);
  cn_array_release(t);
  cn_array_release(any);
  return st;
}

cn_status cn_digitize(cn_array *out, cn_array x, cn_array bins, int32_t right) {
  const char *fn = "cn_digitize";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(x, fn, "x");
  CN_CHECK_ARRAY(bins, fn, "bins");
  cn_status st = cn_require_real(x, fn, "x");
  if (st == CN_OK)
    st = cn_require_real(bins, fn, "bins");
  if (st != CN_OK)
    return st;
  if (bins->ndim != 1)
    return cn_error(CN_ERR_VALUE, "%s: bins must be 1-d, got %d-d", fn,
                    (int)bins->ndim);
  const cn_array_s *devs[2] = {x, bins};
  if ((st = cn_same_device(2, devs, fn)) != CN_OK)
    return st;
  cn_array_s *v = NULL, *b = NULL, *p = NULL, *q = NULL, *rb = NULL,
             *pos = NULL, *n = NULL, *r = NULL;
  int64_t nb = bins->size;
  bool inc = true, dec = false;
  TRY(cn_as_contig(&v, x, CN_FLOAT64));
  TRY(cn_as_contig(&b, bins, CN_FLOAT64));
  if (nb > 1) {
    bool down, up;
    TRY(cn_slice_axis(&p, b, 0, 0, nb - 1, 1));
    TRY(cn_slice_axis(&q, b, 0, 1, nb, 1));
    TRY(any_lt_nan(&down, q, p)); /* some b[i + 1] before b[i] */
    TRY(any_lt_nan(&up, p, q));
    inc = !down;
    dec = !up;
    if (!inc && !dec) {
      st = cn_error(CN_ERR_VALUE,
                    "%s: bins must be monotonically increasing or "
                    "decreasing",
                    fn);
      goto done;
    }
  }
  /* NumPy: searchsorted(bins, x, side) with side 'left' when right, else
   * len(bins) - searchsorted(bins[::-1], x, side) for decreasing bins */
  int32_t side = right ? CN_SIDE_LEFT : CN_SIDE_RIGHT;
  if (inc) {
    TRY(cn_searchsorted(&r, b, v, side, NULL));
  } else {
    TRY(cn_slice_axis(&rb, b, 0, CN_SLICE_NONE, CN_SLICE_NONE, -1));
    TRY(cn_searchsorted(&pos, rb, v, side, NULL));
    TRY(full_on(&n, pos, CN_INT64, 0, NULL, cn_scalar_int(nb)));
    TRY(cn_subtract(&r, n, pos, pos));
  }
  *out = r;
  r = NULL;
done:
  cn_array_release(v);
  cn_array_release(b);
  cn_array_release(p);
  cn_array_release(q);
  cn_array_release(rb);
  cn_array_release(pos);
  cn_array_release(n);
  cn_array_release(r);
  return st;
}

/* ---- D-dimensional histogram --------------------------------------------- */

/* One dimension's edges (NumPy's histogramdd): count + 1 equal ones over
 * the column's outer range, or the given 1-d array (returned as given,
 * searched as float64 in *search). */
static cn_status dim_edges(cn_array_s **edges, cn_array_s **search,
                           const cn_array_s *bins, const cn_array_s *col,
                           const double *range, int32_t i, const char *fn) {
  cn_status st;
  if (bins->ndim == 0) {
    if (!cn_is_integer(bins->dtype))
      return cn_error(CN_ERR_TYPE,
                      "%s: `bins[%d]` must be an integer, when a scalar", fn,
                      (int)i);
    int64_t cnt = 0;
    if ((st = read_i64(&cnt, (cn_array_s *)bins)) != CN_OK)
      return st;
    if (bins->dtype == CN_UINT64 && cnt < 0)
      cnt = INT64_MAX;
    if (cnt < 1)
      return cn_error(CN_ERR_VALUE,
                      "%s: `bins[%d]` must be positive, when an integer", fn,
                      (int)i);
    double lo, hi;
    if ((st = outer_range(&lo, &hi, col, range, fn)) != CN_OK)
      return st;
    if ((st = uniform_edges(edges, col, lo, hi, cnt)) != CN_OK)
      return st;
    cn_array_retain(*edges);
    *search = *edges;
    return CN_OK;
  }
  if (bins->ndim != 1)
    return cn_error(CN_ERR_VALUE, "%s: `bins[%d]` must be a scalar or 1d array",
                    fn, (int)i);
  if ((st = cn_require_real(bins, fn, "bins")) != CN_OK)
    return st;
  if (bins->size < 1)
    return cn_error(CN_ERR_VALUE, "%s: `bins[%d]` has no edges", fn, (int)i);
  const cn_array_s *devs[2] = {col, bins};
  if ((st = cn_same_device(2, devs, fn)) != CN_OK)
    return st;
  if ((st = cn_as_contig(search, bins, CN_FLOAT64)) != CN_OK)
    return st;
  /* NumPy rejects a decrease only (np.diff < 0): NaN edges pass */
  bool bad = false;
  cn_array_s *p = NULL, *q = NULL, *lt = NULL, *any = NULL;
  int64_t n = (*search)->size, v = 0;
  if (n > 1) {
    TRY(cn_slice_axis(&p, *search, 0, 0, n - 1, 1));
    TRY(cn_slice_axis(&q, *search, 0, 1, n, 1));
    TRY(cn_less(&lt, q, p, NULL));
    TRY(cn_any(&any, lt, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL));
    TRY(read_i64(&v, any));
    bad = v != 0;
  }
  if (bad)
    st = cn_error(CN_ERR_VALUE,
                  "%s: `bins[%d]` must be monotonically increasing, when an "
                  "array",
                  fn, (int)i);
done:
  cn_array_release(p);
  cn_array_release(q);
  cn_array_release(lt);
  cn_array_release(any);
  if (st != CN_OK) {
    drop(search);
    return st;
  }
  cn_array_retain((cn_array_s *)bins);
  *edges = (cn_array_s *)bins;
  return CN_OK;
}

cn_status cn_histogramdd(cn_array *outs, int32_t cap, int32_t *nout,
                         cn_array sample, int32_t nbins, const cn_array *bins,
                         cn_array ranges, cn_array weights, int32_t density) {
  const char *fn = "cn_histogramdd";
  CN_CHECK_OUT(outs, fn);
  CN_CHECK_OUT(nout, fn);
  CN_CHECK_ARRAY(sample, fn, "sample");
  if (nbins < 1 || !bins)
    return cn_error(CN_ERR_VALUE, "%s: bins must hold 1 or D entries", fn);
  for (int32_t i = 0; i < nbins; i++)
    CN_CHECK_ARRAY(bins[i], fn, "bins");
  if (ranges)
    CN_CHECK_ARRAY(ranges, fn, "ranges");
  if (weights)
    CN_CHECK_ARRAY(weights, fn, "weights");
  cn_status st = cn_require_real(sample, fn, "sample");
  if (st == CN_OK && weights)
    st = cn_require_real(weights, fn, "weights");
  if (st == CN_OK && ranges)
    st = cn_require_real(ranges, fn, "ranges");
  if (st != CN_OK)
    return st;
  if (sample->ndim != 2 || sample->shape[1] < 1)
    return cn_error(CN_ERR_SHAPE,
                    "%s: sample must be 2-d (N points, D >= 1 dimensions)", fn);
  int64_t N = sample->shape[0], D = sample->shape[1];
  if (D > CN_MAX_DIMS)
    return cn_error(CN_ERR_VALUE, "%s: at most %d dimensions, got %" PRId64, fn,
                    CN_MAX_DIMS, D);
  if (cap < D + 1)
    return cn_error(CN_ERR_VALUE, "%s: room for %d outputs, need %" PRId64, fn,
                    (int)cap, D + 1);
  if (nbins != 1 && nbins != D)
    return cn_error(CN_ERR_VALUE,
                    "%s: the dimension of bins must be equal to the "
                    "dimension of the sample x (%d vs %" PRId64 ")",
                    fn, (int)nbins, D);
  if (ranges &&
      (ranges->ndim != 2 || ranges->shape[0] != D || ranges->shape[1] != 2))
    return cn_error(CN_ERR_SHAPE,
                    "%s: range must have one (min, max) entry per dimension",
                    fn);
  if (weights && (weights->ndim != 1 || weights->size != N))
    return cn_error(CN_ERR_SHAPE,
                    "%s: weights must be 1-d with one value per point", fn);
  const cn_array_s *devs[2] = {sample, weights ? weights : sample};
  if ((st = cn_same_device(2, devs, fn)) != CN_OK ||
      (st = need_scatter(sample, fn)) != CN_OK)
    return st;
  if (host_path(sample))
    return histogramdd_host(outs, cap, nout, sample, nbins, bins, ranges,
                            weights, density);
  cn_array_s *hr = NULL, *w = NULL, *h = NULL, *colv = NULL;
  cn_array_s *col[CN_MAX_DIMS] = {0}, *edges[CN_MAX_DIMS] = {0},
             *search[CN_MAX_DIMS] = {0};
  /* the (D, 2) ranges are parameters: read on the host */
  if (ranges)
    TRY(cn_host_f64(&hr, ranges));
  if (weights)
    TRY(flat_as(&w, weights, CN_FLOAT64));
  for (int32_t i = 0; i < D; i++) {
    const double *r = hr ? (const double *)hr->data + 2 * i : NULL;
    if (r && (isnan(r[0]) || isnan(r[1])))
      r = NULL; /* NaN marks a dimension without a range */
    TRY(cn_index_axis(&colv, sample, 1, i));
    TRY(cn_as_contig(&col[i], colv, CN_FLOAT64));
    drop(&colv);
    TRY(dim_edges(&edges[i], &search[i], bins[nbins == 1 ? 0 : i], col[i], r, i,
                  fn));
  }
  TRY(hist_nd(&h, (int32_t)D, col, search, w, density != 0, true, fn));
  outs[0] = h;
  h = NULL;
  for (int32_t i = 0; i < D; i++) {
    outs[1 + i] = edges[i];
    edges[i] = NULL;
  }
  *nout = (int32_t)D + 1;
done:
  cn_array_release(hr);
  cn_array_release(w);
  cn_array_release(h);
  cn_array_release(colv);
  for (int32_t i = 0; i < D; i++) {
    cn_array_release(col[i]);
    cn_array_release(edges[i]);
    cn_array_release(search[i]);
  }
  return st;
}
