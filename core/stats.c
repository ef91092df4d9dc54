/* Averages, covariance, histograms, differences, convolution,
 * interpolation and integration (include/cunumpy/stats.h), on host float64
 * copies; results go back to the input's device. */
#include "cunumpy/stats.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/manip.h"
#include "cunumpy/ufunc.h"
#include "stats_util.h"

static cn_status host_new(cn_array_s **out, cn_dtype dt, int32_t nd,
                          const int64_t *shape) {
  return cn_array_new(out, cn_cpu_backend(), 0, dt, nd, shape, CN_ORDER_C);
}

static cn_dtype float_result(cn_dtype a) {
  return a == CN_FLOAT32 ? CN_FLOAT32 : CN_FLOAT64;
}

/* ---- average ------------------------------------------------------------- */

cn_status cn_average(cn_array *out, cn_array a, cn_array weights,
                     int32_t axis) {
  const char *fn = "cn_average";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  cn_status st = cn_require_real(a, fn, "a");
  if (st != CN_OK)
    return st;
  int32_t ax = 0, naxes = CN_ALL_AXES;
  if (axis != CN_AXIS_NONE) {
    if ((st = cn_normalize_axis(&ax, axis, a->ndim, fn)) != CN_OK)
      return st;
    naxes = 1;
  }
  if (!weights)
    return cn_mean(out, a, naxes, &ax, 0, CN_DTYPE_DEFAULT, NULL);
  CN_CHECK_ARRAY(weights, fn, "weights");
  if ((st = cn_require_real(weights, fn, "weights")) != CN_OK)
    return st;
  cn_array_s *w = NULL;
  bool same = weights->ndim == a->ndim;
  for (int32_t d = 0; same && d < a->ndim; d++)
    same = weights->shape[d] == a->shape[d];
  if (same) {
    cn_array_retain(weights);
    w = weights;
  } else if (axis != CN_AXIS_NONE && weights->ndim == 1 &&
             weights->size == a->shape[ax]) {
    /* 1-d weights along axis: broadcast them over the other axes. */
    int64_t sh[CN_MAX_DIMS], strides[CN_MAX_DIMS];
    for (int32_t d = 0; d < a->ndim; d++) {
      sh[d] = a->shape[d];
      strides[d] = d == ax ? weights->strides[0] : 0;
    }
    st = cn_array_view(&w, weights, weights->data, a->ndim, sh, strides);
    if (st != CN_OK)
      return st;
  } else {
    return cn_error(CN_ERR_SHAPE,
                    "%s: weights must have a's shape or be 1-d "
                    "with the axis' length",
                    fn);
  }
  cn_lanes La, Lw;
  st = cn_lanes_make(&La, a, naxes, &ax, 0, fn);
  if (st == CN_OK)
    st = cn_lanes_make(&Lw, w, naxes, &ax, 0, fn);
  else
    memset(&Lw, 0, sizeof Lw);
  cn_array_release(w);
  cn_array_s *r = NULL;
  if (st == CN_OK)
    st = host_new(&r, CN_FLOAT64, La.out_nd, La.out_shape);
  for (int64_t l = 0; st == CN_OK && l < La.nlanes; l++) {
    const double *x = (const double *)La.h->data + l * La.len;
    const double *wv = (const double *)Lw.h->data + l * La.len;
    long double s = 0, sw = 0;
    for (int64_t i = 0; i < La.len; i++) {
      s += (long double)x[i] * wv[i];
      sw += wv[i];
    }
    if (sw == 0)
      st = cn_error(CN_ERR_VALUE,
                    "%s: weights sum to zero, can't be "
                    "normalized",
                    fn);
    ((double *)r->data)[l] = (double)(s / sw);
  }
  cn_dtype rdt = a->dtype == CN_FLOAT32 && weights->dtype == CN_FLOAT32
                     ? CN_FLOAT32
                     : CN_FLOAT64;
  cn_lanes_free(&La);
  cn_lanes_free(&Lw);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  return cn_result_to(out, r, a, rdt);
}

/* ---- covariance ---------------------------------------------------------- */

/* Variables as rows of a host float64 (nvar, nobs) array. */
static cn_status as_rows(cn_array_s **out, const cn_array_s *m, int32_t rowvar,
                         const char *fn, const char *arg) {
  if (m->ndim > 2)
    return cn_error(CN_ERR_VALUE,
                    "%s: argument '%s' has more than 2 "
                    "dimensions (%d)",
                    fn, arg, (int)m->ndim);
  cn_status st = cn_require_real(m, fn, arg);
  if (st != CN_OK)
    return st;
  cn_array_s *v = NULL, *t = NULL;
  st = cn_atleast_2d(&v, (cn_array)m);
  if (st == CN_OK && !rowvar && m->ndim == 2) {
    st = cn_transpose(&t, v);
    cn_array_release(v);
    v = t;
  }
  if (st == CN_OK)
    st = cn_host_f64(out, v);
  cn_array_release(v);
  return st;
}

cn_status cn_cov(cn_array *out, cn_array m, cn_array y, int32_t rowvar,
                 int32_t bias, int32_t ddof) {
  const char *fn = "cn_cov";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(m, fn, "m");
  if (y)
    CN_CHECK_ARRAY(y, fn, "y");
  cn_array_s *X = NULL, *Y = NULL, *r = NULL;
  cn_status st = as_rows(&X, m, rowvar, fn, "m");
  if (st == CN_OK && y)
    st = as_rows(&Y, y, rowvar, fn, "y");
  if (st == CN_OK && Y && Y->shape[1] != X->shape[1])
    st = cn_error(CN_ERR_SHAPE,
                  "%s: m and y have different numbers of "
                  "observations (%" PRId64 " and %" PRId64 ")",
                  fn, X->shape[1], Y->shape[1]);
  if (st != CN_OK) {
    cn_array_release(X);
    cn_array_release(Y);
    return st;
  }
  int64_t nx = X->shape[0], ny = Y ? Y->shape[0] : 0, nv = nx + ny;
  int64_t nobs = X->shape[1];
  if (ddof < 0)
    ddof = bias ? 0 : 1;
  double fact = (double)nobs - ddof;
  int64_t sh[2] = {nv, nv};
  st = host_new(&r, CN_FLOAT64, 2, sh);
  double *mu = st == CN_OK ? cn_malloc(sizeof(double) * (size_t)(nv + 1)) : NULL;
  if (st == CN_OK && !mu)
    st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  if (st == CN_OK) {
#define ROW(i)                                                                 \
  ((i) < nx ? (const double *)X->data + (i)*nobs                               \
            : (const double *)Y->data + ((i)-nx) * nobs)
    for (int64_t i = 0; i < nv; i++) {
      long double s = 0;
      for (int64_t k = 0; k < nobs; k++)
        s += ROW(i)[k];
      mu[i] = nobs ? (double)(s / nobs) : NAN;
    }
    double *c = (double *)r->data;
    for (int64_t i = 0; i < nv; i++)
      for (int64_t j = i; j < nv; j++) {
        long double s = 0;
        for (int64_t k = 0; k < nobs; k++)
          s += (long double)(ROW(i)[k] - mu[i]) * (ROW(j)[k] - mu[j]);
        double v = fact > 0 ? (double)(s / fact) : (double)s / fact;
        c[i * nv + j] = c[j * nv + i] = v;
      }
#undef ROW
  }
  free(mu);
  cn_array_release(X);
  cn_array_release(Y);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  if (nv == 1) {
    /* NumPy squeezes a single variable to a 0-d result. */
    cn_array_s *z = NULL;
    st = cn_reshape(&z, r, 0, NULL, CN_ORDER_C);
    cn_array_release(r);
    if (st != CN_OK)
      return st;
    r = z;
  }
  return cn_result_to(out, r, m, CN_DTYPE_DEFAULT);
}

cn_status cn_corrcoef(cn_array *out, cn_array x, cn_array y, int32_t rowvar) {
  const char *fn = "cn_corrcoef";
  CN_CHECK_OUT(out, fn);
  cn_array_s *c = NULL, *h = NULL;
  cn_status st = cn_cov(&c, x, y, rowvar, 0, -1);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  st = cn_host_f64(&h, c);
  cn_array_release(c);
  if (st != CN_OK)
    return st;
  if (h->ndim == 0) {
    double *v = (double *)h->data;
    *v = *v / *v;
  } else {
    int64_t n = h->shape[0];
    double *v = (double *)h->data;
    double *d = cn_malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    if (!d) {
      cn_array_release(h);
      return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
    }
    for (int64_t i = 0; i < n; i++)
      d[i] = sqrt(v[i * n + i]);
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) {
        double r = v[i * n + j] / d[i] / d[j];
        v[i * n + j] = r > 1 ? 1 : (r < -1 ? -1 : r);
      }
    free(d);
  }
  return cn_result_to(out, h, x, CN_DTYPE_DEFAULT);
}

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
  cn_status st = host_new(&h, CN_FLOAT64, 1, &n);
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
    st = host_new(&h, fl ? CN_FLOAT64 : CN_INT64, 1, &b.n);
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
    st = host_new(&h, fl ? CN_FLOAT64 : CN_INT64, 2, sh);
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
    st = host_new(&r, w ? CN_FLOAT64 : CN_INT64, 1, &len);
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
    st = host_new(&r, CN_INT64, x->ndim, x->shape);
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

/* ---- differences ----------------------------------------------------------
 */

cn_status cn_ptp(cn_array *out, cn_array a, int32_t axis, int32_t keepdims) {
  const char *fn = "cn_ptp";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  int32_t ax = axis, naxes = axis == CN_AXIS_NONE ? CN_ALL_AXES : 1;
  cn_array_s *mx = NULL, *mn = NULL;
  cn_status st = cn_max(&mx, a, naxes, &ax, keepdims, CN_DTYPE_DEFAULT, NULL);
  if (st == CN_OK)
    st = cn_min(&mn, a, naxes, &ax, keepdims, CN_DTYPE_DEFAULT, NULL);
  if (st == CN_OK)
    st = cn_subtract(out, mx, mn, NULL);
  cn_array_release(mx);
  cn_array_release(mn);
  return st == CN_OK ? st : cn_error_prefix(st, fn);
}

cn_status cn_diff(cn_array *out, cn_array a, int32_t n, int32_t axis) {
  const char *fn = "cn_diff";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (n < 0)
    return cn_error(CN_ERR_VALUE, "%s: order must be non-negative but got %d",
                    fn, (int)n);
  if (a->ndim == 0)
    return cn_error(CN_ERR_VALUE,
                    "%s: diff requires input that is at least "
                    "one dimensional",
                    fn);
  int32_t ax;
  cn_status st = cn_normalize_axis(&ax, axis, a->ndim, fn);
  if (st != CN_OK)
    return st;
  cn_array_s *cur = NULL;
  st = cn_copy(&cur, a, CN_ORDER_C);
  for (int32_t k = 0; k < n && st == CN_OK; k++) {
    int64_t m = cur->shape[ax];
    cn_array_s *hi = NULL, *lo = NULL, *nx = NULL;
    st = cn_slice_axis(&hi, cur, ax, m > 0 ? 1 : 0, m, 1);
    if (st == CN_OK)
      st = cn_slice_axis(&lo, cur, ax, 0, m > 0 ? m - 1 : 0, 1);
    if (st == CN_OK)
      st = a->dtype == CN_BOOL ? cn_not_equal(&nx, hi, lo, NULL)
                               : cn_subtract(&nx, hi, lo, NULL);
    cn_array_release(hi);
    cn_array_release(lo);
    cn_array_release(cur);
    cur = nx;
  }
  if (st != CN_OK) {
    cn_array_release(cur);
    return cn_error_prefix(st, fn);
  }
  *out = cur;
  return CN_OK;
}

cn_status cn_gradient(cn_array *out, cn_array a, int32_t axis, double dx,
                      int32_t edge_order) {
  const char *fn = "cn_gradient";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  cn_status st = cn_require_real(a, fn, "a");
  if (st != CN_OK)
    return st;
  if (edge_order != 1 && edge_order != 2)
    return cn_error(CN_ERR_VALUE, "%s: edge_order must be 1 or 2, got %d", fn,
                    (int)edge_order);
  int32_t ax;
  if ((st = cn_normalize_axis(&ax, axis, a->ndim, fn)) != CN_OK)
    return st;
  int64_t n = a->shape[ax];
  if (n < edge_order + 1)
    return cn_error(CN_ERR_VALUE,
                    "%s: shape of array too small to calculate "
                    "a numerical gradient, at least (edge_order + 1) elements "
                    "are required (axis %d has %" PRId64 ")",
                    fn, (int)ax, n);
  cn_lanes L;
  if ((st = cn_lanes_make(&L, a, 1, &ax, 1, fn)) != CN_OK)
    return st;
  cn_array_s *r = NULL;
  /* lanes are in moved-axis order: build the result there, move back */
  int64_t sh[CN_MAX_DIMS];
  int32_t k = 0;
  for (int32_t d = 0; d < a->ndim; d++)
    if (d != ax)
      sh[k++] = a->shape[d];
  sh[k++] = n;
  st = host_new(&r, CN_FLOAT64, a->ndim, sh);
  if (st == CN_OK) {
    for (int64_t l = 0; l < L.nlanes; l++) {
      const double *f = (const double *)L.h->data + l * n;
      double *g = (double *)r->data + l * n;
      for (int64_t i = 1; i + 1 < n; i++)
        g[i] = (f[i + 1] - f[i - 1]) / (2 * dx);
      if (edge_order == 1) {
        g[0] = (f[1] - f[0]) / dx;
        g[n - 1] = (f[n - 1] - f[n - 2]) / dx;
      } else {
        g[0] = (-1.5 * f[0] + 2 * f[1] - 0.5 * f[2]) / dx;
        g[n - 1] = (0.5 * f[n - 3] - 2 * f[n - 2] + 1.5 * f[n - 1]) / dx;
      }
    }
  }
  cn_lanes_free(&L);
  cn_array_s *mv = NULL;
  if (st == CN_OK) {
    int32_t src = a->ndim - 1;
    st = cn_moveaxis(&mv, r, 1, &src, &ax);
  }
  cn_array_release(r);
  if (st != CN_OK)
    return st;
  cn_array_s *c = NULL;
  st = cn_as_contig(&c, mv, CN_FLOAT64);
  cn_array_release(mv);
  if (st != CN_OK)
    return st;
  return cn_result_to(out, c, a, float_result(a->dtype));
}

/* ---- convolution ----------------------------------------------------------
 */

static cn_status conv_impl(cn_array *out, cn_array a, cn_array v, int32_t mode,
                           bool corr, const char *fn) {
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(v, fn, "v");
  cn_status st = cn_require_real(a, fn, "a");
  if (st == CN_OK)
    st = cn_require_real(v, fn, "v");
  if (st != CN_OK)
    return st;
  if (mode < CN_CONV_FULL || mode > CN_CONV_VALID)
    return cn_error(CN_ERR_VALUE,
                    "%s: mode must be FULL, SAME or VALID, got "
                    "%d",
                    fn, (int)mode);
  if (a->ndim > 1 || v->ndim > 1)
    return cn_error(CN_ERR_VALUE,
                    "%s: object too deep for desired array "
                    "(inputs must be 1-d)",
                    fn);
  if (a->size == 0)
    return cn_error(CN_ERR_VALUE, "%s: a cannot be empty", fn);
  if (v->size == 0)
    return cn_error(CN_ERR_VALUE, "%s: v cannot be empty", fn);
  cn_dtype rt;
  if ((st = cn_result_type(&rt, a->dtype, v->dtype)) != CN_OK)
    return st;
  cn_array_s *ha = NULL, *hv = NULL, *r = NULL;
  st = cn_host_f64(&ha, a);
  if (st == CN_OK)
    st = cn_host_f64(&hv, v);
  int64_t n = a->size, m = v->size, full = n + m - 1;
  int64_t len = mode == CN_CONV_FULL   ? full
                : mode == CN_CONV_SAME ? (n > m ? n : m)
                                       : (n > m ? n - m : m - n) + 1;
  int64_t off = mode == CN_CONV_FULL   ? 0
                : mode == CN_CONV_SAME ? ((n < m ? n : m) - 1) / 2
                                       : (n < m ? n : m) - 1;
  if (st == CN_OK)
    st = host_new(&r, CN_FLOAT64, 1, &len);
  if (st == CN_OK) {
    const double *x = (const double *)ha->data, *y = (const double *)hv->data;
    double *o = (double *)r->data;
    /* full[k] = sum_i x[i] * w[k - i], w = v (convolve) or v reversed
     * (correlate, real inputs). */
    for (int64_t t = 0; t < len; t++) {
      int64_t kk = t + off;
      int64_t i0 = kk - (m - 1) > 0 ? kk - (m - 1) : 0;
      int64_t i1 = kk < n - 1 ? kk : n - 1;
      double s = 0;
      for (int64_t i = i0; i <= i1; i++) {
        int64_t j = kk - i;
        s += x[i] * (corr ? y[m - 1 - j] : y[j]);
      }
      o[t] = s;
    }
  }
  cn_array_release(ha);
  cn_array_release(hv);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  return cn_result_to(out, r, a, rt == CN_BOOL ? CN_BOOL : rt);
}

cn_status cn_convolve(cn_array *out, cn_array a, cn_array v, int32_t mode) {
  return conv_impl(out, a, v, mode, false, "cn_convolve");
}
cn_status cn_correlate(cn_array *out, cn_array a, cn_array v, int32_t mode) {
  return conv_impl(out, a, v, mode, true, "cn_correlate");
}

/* ---- interpolation and integration -----------------------------------------
 */

cn_status cn_interp(cn_array *out, cn_array x, cn_array xp, cn_array fp,
                    const double *left, const double *right) {
  const char *fn = "cn_interp";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(x, fn, "x");
  CN_CHECK_ARRAY(xp, fn, "xp");
  CN_CHECK_ARRAY(fp, fn, "fp");
  cn_status st = cn_require_real(x, fn, "x");
  if (st == CN_OK)
    st = cn_require_real(xp, fn, "xp");
  if (st == CN_OK)
    st = cn_require_real(fp, fn, "fp");
  if (st != CN_OK)
    return st;
  if (xp->ndim != 1 || fp->ndim != 1 || xp->size != fp->size)
    return cn_error(CN_ERR_VALUE,
                    "%s: fp and xp are not of the same length "
                    "(or not 1-d)",
                    fn);
  if (xp->size == 0)
    return cn_error(CN_ERR_VALUE, "%s: array of sample points is empty", fn);
  cn_array_s *hx = NULL, *hxp = NULL, *hfp = NULL, *r = NULL;
  st = cn_host_f64(&hx, x);
  if (st == CN_OK)
    st = cn_host_f64(&hxp, xp);
  if (st == CN_OK)
    st = cn_host_f64(&hfp, fp);
  if (st == CN_OK)
    st = host_new(&r, CN_FLOAT64, x->ndim, x->shape);
  if (st == CN_OK) {
    const double *dx = (const double *)hxp->data,
                 *dy = (const double *)hfp->data;
    const double *xv = (const double *)hx->data;
    int64_t n = xp->size;
    double lv = left ? *left : dy[0], rv = right ? *right : dy[n - 1];
    double *o = (double *)r->data;
    for (int64_t i = 0; i < hx->size; i++) {
      double v = xv[i];
      if (v != v) {
        o[i] = v;
        continue;
      }
      if (v < dx[0]) {
        o[i] = lv;
        continue;
      }
      if (v > dx[n - 1]) {
        o[i] = rv;
        continue;
      }
      int64_t lo = 0, hi = n; /* last j with dx[j] <= v */
      while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (dx[mid] <= v)
          lo = mid;
        else
          hi = mid;
      }
      int64_t j = lo;
      if (j == n - 1)
        o[i] = dy[j];
      else if (v == dx[j])
        o[i] = dy[j];
      else {
        double slope = (dy[j + 1] - dy[j]) / (dx[j + 1] - dx[j]);
        double res = slope * (v - dx[j]) + dy[j];
        if (res != res) {
          res = slope * (v - dx[j + 1]) + dy[j + 1];
          if (res != res && dy[j] == dy[j + 1])
            res = dy[j];
        }
        o[i] = res;
      }
    }
  }
  cn_array_release(hx);
  cn_array_release(hxp);
  cn_array_release(hfp);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  return cn_result_to(out, r, x, CN_DTYPE_DEFAULT);
}

cn_status cn_trapezoid(cn_array *out, cn_array y, cn_array x, double dx,
                       int32_t axis) {
  const char *fn = "cn_trapezoid";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(y, fn, "y");
  if (x)
    CN_CHECK_ARRAY(x, fn, "x");
  cn_status st = cn_require_real(y, fn, "y");
  if (st != CN_OK)
    return st;
  if (y->ndim == 0)
    return cn_error(CN_ERR_VALUE, "%s: y must be at least 1-d", fn);
  int32_t ax;
  if ((st = cn_normalize_axis(&ax, axis, y->ndim, fn)) != CN_OK)
    return st;
  int64_t n = y->shape[ax];
  if (x && (x->ndim != 1 || x->size != n))
    return cn_error(CN_ERR_SHAPE,
                    "%s: x must be 1-d with the axis' length %" PRId64
                    ", got %" PRId64 " elements",
                    fn, n, x->size);
  cn_array_s *hx = NULL, *r = NULL;
  if (x && (st = cn_host_f64(&hx, x)) != CN_OK)
    return st;
  cn_lanes L;
  st = cn_lanes_make(&L, y, 1, &ax, 0, fn);
  if (st == CN_OK)
    st = host_new(&r, CN_FLOAT64, L.out_nd, L.out_shape);
  if (st == CN_OK) {
    for (int64_t l = 0; l < L.nlanes; l++) {
      const double *f = (const double *)L.h->data + l * n;
      double s = 0;
      for (int64_t i = 0; i + 1 < n; i++) {
        double d = hx ? ((const double *)hx->data)[i + 1] -
                            ((const double *)hx->data)[i]
                      : dx;
        s += d * (f[i + 1] + f[i]) / 2.0;
      }
      ((double *)r->data)[l] = s;
    }
  }
  if (st == CN_OK || L.h)
    cn_lanes_free(&L);
  cn_array_release(hx);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  return cn_result_to(out, r, y, float_result(y->dtype));
}
