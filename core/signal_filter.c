/* Recursive filters (lfilter, sosfilt) and rank filters (order_filter) of
 * include/cunumpy/signal.h, on host lanes: the filtered axis moved last
 * and made contiguous, one lane per channel, channels shared by the
 * OpenMP threads. */
#include "cunumpy/signal.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/manip.h"
#include "cunumpy/view.h"
#include "stats_util.h"

/* The result dtype of a filter: double precision unless every input is
 * single precision, complex when any is. */
static cn_status filter_dtype(cn_dtype *rt, cn_dtype wt_in) {
  if (wt_in == CN_COMPLEX64 || wt_in == CN_COMPLEX128)
    *rt = wt_in;
  else if (wt_in == CN_FLOAT32)
    *rt = CN_FLOAT32;
  else if (cn_is_complex(wt_in))
    *rt = CN_COMPLEX128;
  else
    *rt = CN_FLOAT64;
  return CN_OK;
}

/* a with axis moved last, as a host C-contiguous copy in dt. */
static cn_status lanes_of(cn_array_s **out, const cn_array_s *a, int32_t axis,
                          cn_dtype dt) {
  cn_array_s *m = NULL;
  int32_t src = axis, dst = -1;
  cn_status st = cn_moveaxis(&m, (cn_array)a, 1, &src, &dst);
  if (st == CN_OK)
    st = cn_host_as(out, m, dt);
  cn_array_release(m);
  return st;
}

/* A host lanes array h (axis last) back to like's device as dtype rt,
 * the last axis moved to axis. */
static cn_status lanes_back(cn_array *out, cn_array_s *h, int32_t axis,
                            const cn_array_s *like, cn_dtype rt) {
  cn_array_s *m = NULL, *c = NULL;
  int32_t src = -1, dst = axis;
  cn_status st = cn_moveaxis(&m, h, 1, &src, &dst);
  cn_array_release(h);
  if (st == CN_OK)
    st = cn_copy(&c, m, CN_ORDER_C);
  cn_array_release(m);
  if (st != CN_OK)
    return st;
  return cn_result_to(out, c, like, rt);
}

/* zi broadcast to shape (nd, shape) then moved to lanes; CN_ERR_VALUE
 * naming the expected shape when it does not fit. */
static cn_status state_lanes(cn_array_s **out, const cn_array_s *zi,
                             int32_t nd, const int64_t *shape, int32_t axis,
                             cn_dtype wt, const char *fn) {
  bool fits = zi->ndim == nd;
  for (int32_t d = 0; fits && d < nd; d++)
    fits = zi->shape[d] == shape[d] || zi->shape[d] == 1;
  if (!fits) {
    char buf[256];
    int len = 0;
    for (int32_t d = 0; d < nd && len < (int)sizeof buf - 24; d++)
      len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%lld",
                      d ? ", " : "", (long long)shape[d]);
    if (nd == 0)
      buf[0] = 0;
    return cn_error(CN_ERR_VALUE, "%s: expected zi of shape (%s)", fn, buf);
  }
  cn_array_s *b = NULL;
  cn_status st = cn_broadcast_to(&b, (cn_array)zi, nd, shape);
  if (st == CN_OK)
    st = lanes_of(out, b, axis, wt);
  cn_array_release(b);
  return st;
}

/* ---- lfilter ------------------------------------------------------------- */

/* One channel: b, a of length n normalised by a[0]; z (n - 1 delays)
 * updated in place. The delays live in a local copy while the lane runs
 * (up to LANE_STATE of them), so the compiler keeps them in registers
 * rather than reloading them after every store to y. */
#define LANE_STATE 32
#define LFILTER_LANE(NAME, T)                                                  \
  static void NAME(T *restrict y, const T *restrict x, int64_t len,           \
                   const T *restrict b, const T *restrict a, int64_t n,       \
                   T *restrict zio) {                                          \
    if (n == 1) {                                                              \
      for (int64_t i = 0; i < len; i++)                                        \
        y[i] = b[0] * x[i];                                                    \
      return;                                                                  \
    }                                                                          \
    T zl[LANE_STATE];                                                          \
    T *z = n - 1 <= LANE_STATE ? zl : zio;                                     \
    if (z == zl)                                                               \
      memcpy(zl, zio, sizeof(T) * (size_t)(n - 1));                            \
    for (int64_t i = 0; i < len; i++) {                                        \
      const T xi = x[i];                                                       \
      const T yi = b[0] * xi + z[0];                                           \
      for (int64_t k = 0; k + 2 < n; k++)                                      \
        z[k] = b[k + 1] * xi + z[k + 1] - a[k + 1] * yi;                       \
      z[n - 2] = b[n - 1] * xi - a[n - 1] * yi;                                \
      y[i] = yi;                                                               \
    }                                                                          \
    if (z == zl)                                                               \
      memcpy(zio, zl, sizeof(T) * (size_t)(n - 1));                            \
  }
LFILTER_LANE(lfilter_lane_f64, double)
LFILTER_LANE(lfilter_lane_c128, double complex)

/* b or a as a host vector of length n (zero-padded) in wt. */
static cn_status coef_vector(void **out, const cn_array_s *c, int64_t n,
                             cn_dtype wt) {
  cn_array_s *h = NULL;
  cn_status st = cn_host_as(&h, c, wt);
  if (st != CN_OK)
    return st;
  size_t isz = wt == CN_COMPLEX128 ? sizeof(double complex) : sizeof(double);
  void *v = calloc((size_t)n, isz);
  if (!v) {
    cn_array_release(h);
    return cn_error(CN_ERR_MEMORY, "out of memory");
  }
  memcpy(v, h->data, (size_t)c->size * isz);
  cn_array_release(h);
  *out = v;
  return CN_OK;
}

cn_status cn_lfilter(cn_array *y, cn_array *zf, cn_array b, cn_array a,
                     cn_array x, int32_t axis, cn_array zi) {
  const char *fn = "cn_lfilter";
  CN_CHECK_OUT(y, fn);
  CN_CHECK_ARRAY(b, fn, "b");
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(x, fn, "x");
  if (zi)
    CN_CHECK_ARRAY(zi, fn, "zi");
  if (b->ndim > 1 || b->size == 0)
    return cn_error(CN_ERR_VALUE, "%s: parameter b is not a non-empty 1d "
                    "array", fn);
  if (a->ndim > 1 || a->size == 0)
    return cn_error(CN_ERR_VALUE, "%s: parameter a is not a non-empty 1d "
                    "array", fn);
  if (x->ndim == 0)
    return cn_error(CN_ERR_VALUE, "%s: x must have at least one axis", fn);
  int32_t ax;
  cn_status st = cn_normalize_axis(&ax, axis, x->ndim, fn);
  if (st != CN_OK)
    return st;
  const cn_array_s *devs[4] = {b, a, x, zi};
  if ((st = cn_same_device(zi ? 4 : 3, devs, fn)) != CN_OK)
    return st;
  cn_dtype pt, rt;
  cn_dtype dts[4] = {b->dtype, a->dtype, x->dtype, zi ? zi->dtype : x->dtype};
  if ((st = cn_result_type_many(&pt, 4, dts)) != CN_OK)
    return st;
  filter_dtype(&rt, pt);
  const bool cplx = cn_is_complex(rt);
  const cn_dtype wt = cplx ? CN_COMPLEX128 : CN_FLOAT64;
  const size_t isz = cplx ? sizeof(double complex) : sizeof(double);
  const int64_t n = a->size > b->size ? a->size : b->size;
  int64_t zshape[CN_MAX_DIMS];
  memcpy(zshape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
  zshape[ax] = n - 1;

  void *bv = NULL, *av = NULL;
  cn_array_s *hx = NULL, *hz = NULL, *hy = NULL;
  st = coef_vector(&bv, b, n, wt);
  if (st == CN_OK)
    st = coef_vector(&av, a, n, wt);
  if (st == CN_OK) {
    bool zero = cplx ? ((double complex *)av)[0] == 0
                     : ((double *)av)[0] == 0;
    if (zero)
      st = cn_error(CN_ERR_VALUE, "%s: filter coefficient a[0] == 0 is not "
                    "supported", fn);
  }
  if (st == CN_OK && zi) {
    /* a private copy: the recursion updates the delays in place, and a
     * contiguous host zi could be returned as is */
    cn_array_s *zl = NULL;
    st = state_lanes(&zl, zi, x->ndim, zshape, ax, wt, fn);
    if (st == CN_OK)
      st = cn_copy(&hz, zl, CN_ORDER_C);
    cn_array_release(zl);
  }
  if (st == CN_OK && !zi) {
    int64_t ms[CN_MAX_DIMS];
    for (int32_t d = 0, k = 0; d < x->ndim; d++)
      if (d != ax)
        ms[k++] = x->shape[d];
    ms[x->ndim - 1] = n - 1;
    st = cn_host_new(&hz, wt, x->ndim, ms);
    if (st == CN_OK)
      memset(hz->data, 0, (size_t)hz->size * isz);
  }
  if (st == CN_OK)
    st = lanes_of(&hx, x, ax, wt);
  if (st == CN_OK)
    st = cn_host_new(&hy, wt, hx->ndim, hx->shape);
  if (st == CN_OK) {
    /* normalise by a[0] */
    if (cplx) {
      double complex *bc = bv, *ac = av, a0 = ac[0];
      for (int64_t k = 0; k < n; k++)
        bc[k] /= a0, ac[k] /= a0;
    } else {
      double *bd = bv, *ad = av, a0 = ad[0];
      for (int64_t k = 0; k < n; k++)
        bd[k] /= a0, ad[k] /= a0;
    }
    const int64_t len = x->shape[ax];
    const int64_t nl = len ? hx->size / len : 0;
    const double work = (double)hx->size * (double)n;
#pragma omp parallel for schedule(dynamic, 1) if (nl > 1 && work >= 1e5)
    for (int64_t l = 0; l < nl; l++) {
      if (cplx)
        lfilter_lane_c128((double complex *)hy->data + l * len,
                          (const double complex *)hx->data + l * len, len, bv,
                          av, n, (double complex *)hz->data + l * (n - 1));
      else
        lfilter_lane_f64((double *)hy->data + l * len,
                         (const double *)hx->data + l * len, len, bv, av, n,
                         (double *)hz->data + l * (n - 1));
    }
  }
  free(bv);
  free(av);
  cn_array_release(hx);
  cn_array yo = NULL, zo = NULL;
  if (st == CN_OK) {
    st = lanes_back(&yo, hy, ax, x, rt);
    hy = NULL;
  }
  if (st == CN_OK && zf) {
    st = lanes_back(&zo, hz, ax, x, rt);
    hz = NULL;
  }
  cn_array_release(hy);
  cn_array_release(hz);
  if (st != CN_OK) {
    cn_array_release(yo);
    return cn_error_prefix(st, fn);
  }
  *y = yo;
  if (zf)
    *zf = zo;
  return CN_OK;
}

/* ---- sosfilt ------------------------------------------------------------- */

/* One channel through ns sections; z holds (ns, 2) delays, kept in a
 * local copy while the lane runs (up to LANE_STATE / 2 sections). */
#define SOSFILT_LANE(NAME, T)                                                  \
  static void NAME(T *restrict y, const T *restrict x, int64_t len,           \
                   const T *restrict sos, int64_t ns, T *restrict zio) {      \
    T zl[LANE_STATE];                                                          \
    T *z = 2 * ns <= LANE_STATE ? zl : zio;                                    \
    if (z == zl)                                                               \
      memcpy(zl, zio, sizeof(T) * (size_t)(2 * ns));                           \
    for (int64_t i = 0; i < len; i++) {                                        \
      T v = x[i];                                                              \
      for (int64_t s = 0; s < ns; s++) {                                       \
        const T *c = sos + 6 * s;                                              \
        T *zs = z + 2 * s;                                                     \
        const T o = c[0] * v + zs[0];                                          \
        zs[0] = c[1] * v - c[4] * o + zs[1];                                   \
        zs[1] = c[2] * v - c[5] * o;                                           \
        v = o;                                                                 \
      }                                                                        \
      y[i] = v;                                                                \
    }                                                                          \
    if (z == zl)                                                               \
      memcpy(zio, zl, sizeof(T) * (size_t)(2 * ns));                           \
  }
SOSFILT_LANE(sosfilt_lane_f64, double)
SOSFILT_LANE(sosfilt_lane_c128, double complex)

cn_status cn_sosfilt(cn_array *y, cn_array *zf, cn_array sos, cn_array x,
                     int32_t axis, cn_array zi) {
  const char *fn = "cn_sosfilt";
  CN_CHECK_OUT(y, fn);
  CN_CHECK_ARRAY(sos, fn, "sos");
  CN_CHECK_ARRAY(x, fn, "x");
  if (zi)
    CN_CHECK_ARRAY(zi, fn, "zi");
  if (sos->ndim != 2)
    return cn_error(CN_ERR_VALUE, "%s: sos array must be 2D", fn);
  if (sos->shape[1] != 6 || sos->shape[0] < 1)
    return cn_error(CN_ERR_VALUE, "%s: sos array must be shape "
                    "(n_sections, 6)", fn);
  if (x->ndim == 0)
    return cn_error(CN_ERR_VALUE, "%s: x must have at least one axis", fn);
  if (x->ndim + 1 > CN_MAX_DIMS)
    return cn_error(CN_ERR_VALUE, "%s: x has too many dimensions", fn);
  int32_t ax;
  cn_status st = cn_normalize_axis(&ax, axis, x->ndim, fn);
  if (st != CN_OK)
    return st;
  const cn_array_s *devs[3] = {sos, x, zi};
  if ((st = cn_same_device(zi ? 3 : 2, devs, fn)) != CN_OK)
    return st;
  cn_dtype pt, rt;
  cn_dtype dts[3] = {sos->dtype, x->dtype, zi ? zi->dtype : x->dtype};
  if ((st = cn_result_type_many(&pt, 3, dts)) != CN_OK)
    return st;
  filter_dtype(&rt, pt);
  const bool cplx = cn_is_complex(rt);
  const cn_dtype wt = cplx ? CN_COMPLEX128 : CN_FLOAT64;
  const size_t isz = cplx ? sizeof(double complex) : sizeof(double);
  const int64_t ns = sos->shape[0];
  cn_array_s *hs = NULL, *hx = NULL, *hz = NULL, *hy = NULL;
  st = cn_host_as(&hs, sos, wt);
  for (int64_t s = 0; st == CN_OK && s < ns; s++) {
    bool one = cplx ? ((double complex *)hs->data)[6 * s + 3] == 1
                    : ((double *)hs->data)[6 * s + 3] == 1;
    if (!one)
      st = cn_error(CN_ERR_VALUE, "%s: sos[:, 3] should be all ones", fn);
  }
  /* state as (lanes..., ns, 2): zi's leading section axis moved to just
   * before the state axis */
  int64_t zshape[CN_MAX_DIMS];
  zshape[0] = ns;
  memcpy(zshape + 1, x->shape, sizeof(int64_t) * (size_t)x->ndim);
  zshape[ax + 1] = 2;
  if (st == CN_OK && zi) {
    cn_array_s *zl = NULL, *zm = NULL;
    st = state_lanes(&zl, zi, x->ndim + 1, zshape, ax + 1, wt, fn);
    int32_t src = 0, dst = -2;
    if (st == CN_OK)
      st = cn_moveaxis(&zm, zl, 1, &src, &dst);
    if (st == CN_OK)
      st = cn_copy(&hz, zm, CN_ORDER_C);
    cn_array_release(zl);
    cn_array_release(zm);
  }
  if (st == CN_OK && !zi) {
    int64_t ms[CN_MAX_DIMS];
    int32_t k = 0;
    for (int32_t d = 0; d < x->ndim; d++)
      if (d != ax)
        ms[k++] = x->shape[d];
    ms[k++] = ns;
    ms[k++] = 2;
    st = cn_host_new(&hz, wt, k, ms);
    if (st == CN_OK)
      memset(hz->data, 0, (size_t)hz->size * isz);
  }
  if (st == CN_OK)
    st = lanes_of(&hx, x, ax, wt);
  if (st == CN_OK)
    st = cn_host_new(&hy, wt, hx->ndim, hx->shape);
  if (st == CN_OK) {
    const int64_t len = x->shape[ax];
    const int64_t nl = len ? hx->size / len : 0;
    const double work = (double)hx->size * (double)ns;
#pragma omp parallel for schedule(dynamic, 1) if (nl > 1 && work >= 1e5)
    for (int64_t l = 0; l < nl; l++) {
      if (cplx)
        sosfilt_lane_c128((double complex *)hy->data + l * len,
                          (const double complex *)hx->data + l * len, len,
                          (const void *)hs->data, ns,
                          (double complex *)hz->data + l * 2 * ns);
      else
        sosfilt_lane_f64((double *)hy->data + l * len,
                         (const double *)hx->data + l * len, len, (const void *)hs->data, ns,
                         (double *)hz->data + l * 2 * ns);
    }
  }
  cn_array_release(hs);
  cn_array_release(hx);
  cn_array yo = NULL, zo = NULL;
  if (st == CN_OK) {
    st = lanes_back(&yo, hy, ax, x, rt);
    hy = NULL;
  }
  if (st == CN_OK && zf) {
    /* (lanes..., ns, 2) -> (ns, ..., 2 at axis, ...) */
    cn_array_s *m = NULL, *c = NULL;
    int32_t src[2] = {-2, -1}, dst[2] = {0, ax + 1};
    st = cn_moveaxis(&m, hz, 2, src, dst);
    if (st == CN_OK)
      st = cn_copy(&c, m, CN_ORDER_C);
    cn_array_release(m);
    if (st == CN_OK)
      st = cn_result_to(&zo, c, x, rt);
  }
  cn_array_release(hy);
  cn_array_release(hz);
  if (st != CN_OK) {
    cn_array_release(yo);
    return cn_error_prefix(st, fn);
  }
  *y = yo;
  if (zf)
    *zf = zo;
  return CN_OK;
}

/* ---- order_filter ---------------------------------------------------------
 */

/* Total order with NaN after every number. */
static inline bool rank_less(double p, double q) {
  return p < q || (q != q && p == p);
}

/* The rank-th smallest of v[0..n) (reorders v), Hoare quickselect. */
static double select_rank(double *v, int64_t n, int64_t rank) {
  int64_t lo = 0, hi = n - 1;
  while (lo < hi) {
    double pivot = v[lo + (hi - lo) / 2];
    int64_t i = lo, j = hi;
    while (i <= j) {
      while (rank_less(v[i], pivot))
        i++;
      while (rank_less(pivot, v[j]))
        j--;
      if (i <= j) {
        double t = v[i];
        v[i] = v[j];
        v[j] = t;
        i++;
        j--;
      }
    }
    if (rank <= j)
      hi = j;
    else if (rank >= i)
      lo = i;
    else
      return v[rank];
  }
  return v[rank];
}

/* First position p in v[0..n) with !(v[p] < key) in the rank order. */
static int64_t rank_lower_bound(const double *v, int64_t n, double key) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (rank_less(v[mid], key))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* A window of the last axis, all ones: outputs [j0, j1) of one row of
 * length n by a sorted window of k = 2 h + 1 values slid one sample at a
 * time (one removal and one insertion, each a binary search and a short
 * move), zeros outside the row. */
static void rank_row_sliding(double *o, const double *x, int64_t n,
                             int64_t h, int64_t rank, int64_t j0, int64_t j1,
                             double *win) {
  const int64_t k = 2 * h + 1;
  int64_t cnt = 0;
  for (int64_t t = j0 - h; t <= j0 + h; t++) {
    double v = t >= 0 && t < n ? x[t] : 0.0;
    int64_t p = rank_lower_bound(win, cnt, v);
    memmove(win + p + 1, win + p, sizeof(double) * (size_t)(cnt - p));
    win[p] = v;
    cnt++;
  }
  for (int64_t j = j0; j < j1; j++) {
    o[j] = win[rank];
    if (j + 1 == j1)
      break;
    const int64_t to = j - h, ti = j + h + 1;
    double vo = to >= 0 && to < n ? x[to] : 0.0;
    double vi = ti >= 0 && ti < n ? x[ti] : 0.0;
    int64_t p = rank_lower_bound(win, k, vo);
    memmove(win + p, win + p + 1, sizeof(double) * (size_t)(k - 1 - p));
    int64_t q = rank_lower_bound(win, k - 1, vi);
    memmove(win + q + 1, win + q, sizeof(double) * (size_t)(k - 1 - q));
    win[q] = vi;
  }
}

cn_status cn_order_filter(cn_array *out, cn_array in_, cn_array domain,
                          int64_t rank) {
  const char *fn = "cn_order_filter";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(in_, fn, "a");
  CN_CHECK_ARRAY(domain, fn, "domain");
  if (cn_is_complex(in_->dtype) || in_->dtype == CN_BOOL)
    return cn_error(CN_ERR_TYPE, "%s: input dtype %s is not supported", fn,
                    cn_dtype_name(in_->dtype));
  if (domain->ndim != in_->ndim)
    return cn_error(CN_ERR_VALUE, "%s: domain and input arrays must have "
                    "the same number of dimensions", fn);
  for (int32_t d = 0; d < domain->ndim; d++)
    if (domain->shape[d] % 2 != 1)
      return cn_error(CN_ERR_VALUE, "%s: each dimension of domain argument "
                      "should have an odd number of elements", fn);
  const cn_array_s *devs[2] = {in_, domain};
  cn_status st = cn_same_device(2, devs, fn);
  if (st != CN_OK)
    return st;
  const int32_t nd = in_->ndim;
  cn_array_s *hd = NULL, *hx = NULL, *hr = NULL;
  int64_t *offs = NULL, nnz = 0;
  st = cn_host_f64(&hd, domain);
  if (st == CN_OK) {
    offs = malloc(sizeof(int64_t) * (size_t)(hd->size * (nd ? nd : 1) + 1));
    if (!offs)
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  /* the nonzero domain entries as offsets from its centre, per axis */
  for (int64_t i = 0; st == CN_OK && i < hd->size; i++) {
    if (((const double *)(const void *)hd->data)[i] == 0)
      continue;
    int64_t r = i;
    for (int32_t d = nd - 1; d >= 0; d--) {
      offs[nnz * nd + d] = r % domain->shape[d] - domain->shape[d] / 2;
      r /= domain->shape[d];
    }
    nnz++;
  }
  /* the same offsets flattened into in_'s C order, for the outputs whose
   * whole domain lies inside in_ */
  int64_t *flat_offs = NULL;
  if (st == CN_OK) {
    flat_offs = malloc(sizeof(int64_t) * (size_t)(nnz ? nnz : 1));
    if (!flat_offs)
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
    for (int64_t k = 0; st == CN_OK && k < nnz; k++) {
      int64_t f = 0;
      for (int32_t d = 0; d < nd; d++)
        f = f * in_->shape[d] + offs[k * nd + d];
      flat_offs[k] = f;
    }
  }
  if (st == CN_OK && (rank < 0 || rank >= nnz))
    st = cn_error(CN_ERR_VALUE, "%s: rank %lld is out of range for a domain "
                  "with %lld nonzero entries", fn, (long long)rank,
                  (long long)nnz);
  if (st == CN_OK)
    st = cn_host_f64(&hx, in_);
  if (st == CN_OK)
    st = cn_host_new(&hr, CN_FLOAT64, nd, in_->shape);
  /* a domain of ones along the last axis only: the sliding window */
  bool sliding = st == CN_OK && nd >= 1 && nnz == hd->size;
  for (int32_t d = 0; sliding && d < nd - 1; d++)
    sliding = domain->shape[d] == 1;
  if (st == CN_OK && sliding && hr->size > 0) {
    const double *xv = (const void *)hx->data;
    double *rv = (void *)hr->data;
    const int64_t n = in_->shape[nd - 1], rows = hr->size / n;
    const int64_t h = domain->shape[nd - 1] / 2, chunk = 1 << 14;
    const int64_t nc = (n + chunk - 1) / chunk;
    bool failed = false;
#pragma omp parallel if (hr->size * nnz >= 100000)
    {
      double *win = malloc(sizeof(double) * (size_t)nnz);
      if (!win) {
#pragma omp atomic write
        failed = true;
      }
#pragma omp for schedule(dynamic, 1)
      for (int64_t w = 0; w < rows * nc; w++) {
        if (!win)
          continue;
        const int64_t r = w / nc, j0 = (w % nc) * chunk;
        const int64_t j1 = j0 + chunk < n ? j0 + chunk : n;
        rank_row_sliding(rv + r * n, xv + r * n, n, h, rank, j0, j1, win);
      }
      free(win);
    }
    if (failed)
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  } else if (st == CN_OK && hr->size > 0) {
    const double *xv = (const void *)hx->data;
    double *rv = (void *)hr->data;
    const int64_t *shape = in_->shape;
    const int64_t total = hr->size;
    bool failed = false;
#pragma omp parallel if (total * nnz >= 100000)
    {
      double *buf = malloc(sizeof(double) * (size_t)nnz);
      if (!buf) {
#pragma omp atomic write
        failed = true;
      }
#pragma omp for schedule(static)
      for (int64_t i = 0; i < total; i++) {
        if (!buf)
          continue;
        int64_t idx[CN_MAX_DIMS], r = i;
        bool interior = true;
        for (int32_t d = nd - 1; d >= 0; d--) {
          idx[d] = r % shape[d];
          r /= shape[d];
          const int64_t half = domain->shape[d] / 2;
          interior = interior && idx[d] >= half && idx[d] + half < shape[d];
        }
        if (interior) {
          for (int64_t k = 0; k < nnz; k++)
            buf[k] = xv[i + flat_offs[k]];
          rv[i] = select_rank(buf, nnz, rank);
          continue;
        }
        for (int64_t k = 0; k < nnz; k++) {
          int64_t flat = 0;
          bool inside = true;
          for (int32_t d = 0; d < nd; d++) {
            int64_t p = idx[d] + offs[k * nd + d];
            inside = inside && p >= 0 && p < shape[d];
            flat = flat * shape[d] + p;
          }
          buf[k] = inside ? xv[flat] : 0.0;
        }
        rv[i] = select_rank(buf, nnz, rank);
      }
      free(buf);
    }
    if (failed)
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  free(offs);
  free(flat_offs);
  cn_array_release(hd);
  cn_array_release(hx);
  if (st != CN_OK) {
    cn_array_release(hr);
    return st;
  }
  return cn_result_to(out, hr, in_, in_->dtype);
}

/* ---- upfirdn ------------------------------------------------------------- */

/* Outputs [m0, m1) of one lane: y[m] = sum_k h[k] x[(m * down - k) / up]
 * over the k with m * down - k a multiple of up that indexes x. The taps
 * come split into up phases (hr: phase ph's taps reversed, lmax apart,
 * lens[ph] of them), so each output is one contiguous dot product with x;
 * four partial sums break the chain of additions. */
#define UPFIRDN_LANE(NAME, T)                                                  \
  static void NAME(T *restrict y, int64_t m0, int64_t m1,                      \
                   const T *restrict x, int64_t nx, const T *restrict hr,     \
                   const int64_t *lens, int64_t lmax, int64_t up,              \
                   int64_t down) {                                             \
    for (int64_t m = m0; m < m1; m++) {                                        \
      const int64_t n = m * down, ph = n % up, L = lens[ph];                   \
      const int64_t j0 = n / up - (L - 1); /* x index of tap t = 0 */          \
      const int64_t tlo = j0 < 0 ? -j0 : 0;                                    \
      const int64_t thi = nx - j0 < L ? nx - j0 : L;                           \
      const int64_t cnt = thi - tlo;                                           \
      const T *hp = hr + ph * lmax + tlo, *xp = x + (j0 + tlo);                \
      T s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                        \
      int64_t t = 0;                                                           \
      for (; t + 4 <= cnt; t += 4) {                                           \
        s0 += hp[t] * xp[t];                                                   \
        s1 += hp[t + 1] * xp[t + 1];                                           \
        s2 += hp[t + 2] * xp[t + 2];                                           \
        s3 += hp[t + 3] * xp[t + 3];                                           \
      }                                                                        \
      for (; t < cnt; t++)                                                     \
        s0 += hp[t] * xp[t];                                                   \
      y[m] = (s0 + s1) + (s2 + s3);                                            \
    }                                                                          \
  }
UPFIRDN_LANE(upfirdn_lane_f64, double)
UPFIRDN_LANE(upfirdn_lane_c128, double complex)

cn_status cn_upfirdn(cn_array *out, cn_array h, cn_array x, int64_t up,
                     int64_t down, int32_t axis) {
  const char *fn = "cn_upfirdn";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(h, fn, "h");
  CN_CHECK_ARRAY(x, fn, "x");
  if (h->ndim != 1 || h->size == 0)
    return cn_error(CN_ERR_VALUE, "%s: h must be 1-D with non-zero length",
                    fn);
  if (up < 1 || down < 1)
    return cn_error(CN_ERR_VALUE, "%s: up and down must be >= 1", fn);
  if (x->ndim == 0)
    return cn_error(CN_ERR_VALUE, "%s: x must have at least one axis", fn);
  int32_t ax;
  cn_status st = cn_normalize_axis(&ax, axis, x->ndim, fn);
  if (st != CN_OK)
    return st;
  const cn_array_s *devs[2] = {h, x};
  if ((st = cn_same_device(2, devs, fn)) != CN_OK)
    return st;
  cn_dtype pt, rt;
  if ((st = cn_result_type(&pt, h->dtype, x->dtype)) != CN_OK)
    return st;
  filter_dtype(&rt, pt);
  const bool cplx = cn_is_complex(rt);
  const cn_dtype wt = cplx ? CN_COMPLEX128 : CN_FLOAT64;
  const int64_t nx = x->shape[ax], nh = h->size;
  if (nx > (INT64_MAX - nh) / up)
    return cn_error(CN_ERR_VALUE, "%s: output too large", fn);
  const int64_t ny = nx ? ((nx - 1) * up + nh - 1) / down + 1 : 0;
  cn_array_s *hh = NULL, *hx = NULL, *hy = NULL;
  const int64_t lmax = (nh + up - 1) / up;
  const size_t isz = cplx ? sizeof(double complex) : sizeof(double);
  void *hr = NULL;
  int64_t *lens = NULL;
  st = cn_host_as(&hh, h, wt);
  if (st == CN_OK) {
    hr = calloc((size_t)(up * lmax), isz);
    lens = calloc((size_t)up, sizeof(int64_t));
    if (!hr || !lens)
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  for (int64_t ph = 0; st == CN_OK && ph < up; ph++) {
    const int64_t L = ph < nh ? (nh - ph + up - 1) / up : 0;
    lens[ph] = L;
    for (int64_t t = 0; t < L; t++)
      memcpy((char *)hr + (size_t)(ph * lmax + t) * isz,
             hh->data + (size_t)(ph + (L - 1 - t) * up) * isz, isz);
  }
  if (st == CN_OK)
    st = lanes_of(&hx, x, ax, wt);
  if (st == CN_OK) {
    int64_t shape[CN_MAX_DIMS];
    memcpy(shape, hx->shape, sizeof(int64_t) * (size_t)hx->ndim);
    shape[hx->ndim - 1] = ny;
    st = cn_host_new(&hy, wt, hx->ndim, shape);
  }
  if (st == CN_OK && hy->size > 0) {
    const int64_t nl = hy->size / ny;
    /* lanes, and chunks of long lanes, share the threads */
    const int64_t chunk = 1 << 14;
    const int64_t nc = (ny + chunk - 1) / chunk;
    const double work = (double)hy->size * (double)nh / (double)up;
#pragma omp parallel for schedule(dynamic, 1) if (work >= 1e5)
    for (int64_t w = 0; w < nl * nc; w++) {
      const int64_t l = w / nc, m0 = (w % nc) * chunk;
      const int64_t len = ny - m0 < chunk ? ny - m0 : chunk;
      const int64_t m1 = m0 + len;
      if (cplx)
        upfirdn_lane_c128((double complex *)(void *)hy->data + l * ny, m0, m1,
                          (const double complex *)(const void *)hx->data +
                              l * nx,
                          nx, hr, lens, lmax, up, down);
      else
        upfirdn_lane_f64((double *)(void *)hy->data + l * ny, m0, m1,
                         (const double *)(const void *)hx->data + l * nx, nx,
                         hr, lens, lmax, up, down);
    }
  }
  free(hr);
  free(lens);
  cn_array_release(hh);
  cn_array_release(hx);
  if (st != CN_OK) {
    cn_array_release(hy);
    return st;
  }
  return lanes_back(out, hy, ax, x, rt);
}
