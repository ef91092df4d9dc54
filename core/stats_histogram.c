/* Histograms, bin counts and digitize (include/cunumpy/stats.h), on host
 * float64 copies; results go back to the input's device. */
#include "cunumpy/stats.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/manip.h"
#include "cunumpy/ufunc.h"
#include "stats_util.h"

/* ---- histograms ---------------------------------------------------------- */

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
  int64_t lo = 0, hi = b->n; /* last edge inclusive */
  if (v == e[b->n]) {
    k = b->n - 1;
    while (k > 0 && e[k] == e[b->n])
      k--;
    return k;
  }
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
    if (density)
      for (int64_t k = 0; k < b.n; k++)
        hd[k] = hd[k] / total / (b.edges[k + 1] - b.edges[k]);
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
    if (density)
      for (int64_t i = 0; i < nx; i++)
        for (int64_t j = 0; j < ny; j++)
          hd[i * ny + j] /= total * (bx.edges[i + 1] - bx.edges[i]) *
                            (by.edges[j + 1] - by.edges[j]);
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
  cn_array_s *hx = NULL, *tmp = NULL, *w = NULL, *r = NULL;
  st = cn_to_host(&tmp, x);
  if (st == CN_OK)
    st = cn_as_contig(&hx, tmp, CN_INT64);
  cn_array_release(tmp);
  if (st == CN_OK && weights)
    st = cn_host_f64(&w, weights);
  int64_t len = minlength;
  if (st == CN_OK) {
    const int64_t *v = (const int64_t *)hx->data;
    for (int64_t i = 0; i < hx->size; i++) {
      if (v[i] < 0) {
        st = cn_error(CN_ERR_VALUE,
                      "%s: 'x' argument must have no negative "
                      "elements (found %" PRId64 ")",
                      fn, v[i]);
        break;
      }
      if (v[i] + 1 > len)
        len = v[i] + 1;
    }
  }
  if (st == CN_OK)
    st = cn_host_new(&r, w ? CN_FLOAT64 : CN_INT64, 1, &len);
  if (st == CN_OK) {
    memset(r->data, 0, sizeof(int64_t) * (size_t)len);
    const int64_t *v = (const int64_t *)hx->data;
    for (int64_t i = 0; i < hx->size; i++) {
      if (w)
        ((double *)r->data)[v[i]] += ((const double *)w->data)[i];
      else
        ((int64_t *)r->data)[v[i]]++;
    }
  }
  cn_array_release(hx);
  cn_array_release(w);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  return cn_result_to(out, r, x, CN_DTYPE_DEFAULT);
}

/* NaN-last order for searching. */
static bool lt_nan(double a, double b) { return a < b || (b != b && a == a); }

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
  cn_array_s *hx = NULL, *hb = NULL, *r = NULL;
  st = cn_host_f64(&hx, x);
  if (st == CN_OK)
    st = cn_host_f64(&hb, bins);
  int64_t n = bins->size;
  bool inc = true, dec = true;
  if (st == CN_OK) {
    const double *b = (const double *)hb->data;
    for (int64_t i = 0; i + 1 < n; i++) {
      if (lt_nan(b[i + 1], b[i]))
        inc = false;
      if (lt_nan(b[i], b[i + 1]))
        dec = false;
    }
    if (!inc && !dec)
      st = cn_error(CN_ERR_VALUE,
                    "%s: bins must be monotonically increasing "
                    "or decreasing",
                    fn);
  }
  if (st == CN_OK)
    st = cn_host_new(&r, CN_INT64, x->ndim, x->shape);
  if (st == CN_OK) {
    const double *b = (const double *)hb->data, *xv = (const double *)hx->data;
    int64_t *o = (int64_t *)r->data;
    for (int64_t i = 0; i < hx->size; i++) {
      double v = xv[i];
      int64_t lo = 0, hi = n;
      if (inc) {
        /* right: searchsorted left; else searchsorted right */
        while (lo < hi) {
          int64_t mid = lo + (hi - lo) / 2;
          bool go = right ? lt_nan(b[mid], v) : !lt_nan(v, b[mid]);
          if (go)
            lo = mid + 1;
          else
            hi = mid;
        }
      } else {
        /* decreasing: count of bins with b >= v (right) or b > v */
        while (lo < hi) {
          int64_t mid = lo + (hi - lo) / 2;
          bool go = right ? !lt_nan(b[mid], v) : lt_nan(v, b[mid]);
          if (go)
            lo = mid + 1;
          else
            hi = mid;
        }
      }
      o[i] = lo;
    }
  }
  cn_array_release(hx);
  cn_array_release(hb);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  return cn_result_to(out, r, x, CN_DTYPE_DEFAULT);
}

/* ---- D-dimensional histogram --------------------------------------------- */

/* NumPy's outer edges of one dimension: the range when given, else the
 * data's min and max (0, 1 when empty), widened by 0.5 when equal. */
static cn_status outer_edges(double *lo, double *hi, const double *x,
                             int64_t stride, int64_t n, const double *range,
                             const char *fn) {
  if (range && !isnan(range[0]) && !isnan(range[1])) {
    *lo = range[0];
    *hi = range[1];
    if (*lo > *hi)
      return cn_error(CN_ERR_VALUE,
                      "%s: max must be larger than min in range parameter "
                      "(%g, %g)",
                      fn, *lo, *hi);
    if (!isfinite(*lo) || !isfinite(*hi))
      return cn_error(CN_ERR_VALUE, "%s: supplied range of [%g, %g] is not "
                      "finite", fn, *lo, *hi);
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
static cn_status dim_edges(cn_array_s **edges, int64_t *ne,
                           const cn_array_s *bins, const cn_array_s *sample,
                           const double *x, int64_t D, int64_t N,
                           const double *range, int32_t i, const char *fn) {
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
    if ((st = outer_edges(&lo, &hi, x + i, D, N, range, fn)) != CN_OK)
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
    return cn_error(CN_ERR_VALUE,
                    "%s: `bins[%d]` must be a scalar or 1d array", fn,
                    (int)i);
  if ((st = cn_require_real(bins, fn, "bins")) != CN_OK)
    return st;
  cn_array_retain((cn_array_s *)bins);
  *edges = (cn_array_s *)bins;
  *ne = bins->size;
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
    return cn_error(CN_ERR_VALUE, "%s: at most %d dimensions, got %" PRId64,
                    fn, CN_MAX_DIMS, D);
  if (cap < D + 1)
    return cn_error(CN_ERR_VALUE, "%s: room for %d outputs, need %" PRId64,
                    fn, (int)cap, D + 1);
  if (nbins != 1 && nbins != D)
    return cn_error(CN_ERR_VALUE,
                    "%s: the dimension of bins must be equal to the "
                    "dimension of the sample x (%d vs %" PRId64 ")",
                    fn, (int)nbins, D);
  if (ranges && (ranges->ndim != 2 || ranges->shape[0] != D ||
                 ranges->shape[1] != 2))
    return cn_error(CN_ERR_SHAPE,
                    "%s: range must have one (min, max) entry per dimension",
                    fn);
  if (weights && (weights->ndim != 1 || weights->size != N))
    return cn_error(CN_ERR_SHAPE,
                    "%s: weights must be 1-d with one value per point", fn);
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
    st = dim_edges(&edges[i], &ne[i], bins[nbins == 1 ? 0 : i], sample,
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
