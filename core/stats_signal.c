/* Convolution, correlation and interpolation (include/cunumpy/stats.h).
 * convolve / correlate run where the data lives (a direct loop on CPU
 * arrays, engine ops on a device, an FFT product on either for long
 * kernels); interp on CPU arrays by a direct loop, elsewhere as
 * searchsorted, take and NumPy's formula elementwise. */
#include "cunumpy/stats.h"

#include <inttypes.h>
#include <complex.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/fft.h"
#include "cunumpy/manip.h"
#include "cunumpy/reduce.h"
#include "cunumpy/sort.h"
#include "cunumpy/view.h"
#include "cunumpy/ufunc.h"
#include "cunumpy/view.h"
#include "signal_util.h"
#include "stats_util.h"

/* ---- convolution ----------------------------------------------------------
 */

/* NumPy's layout (multiarraymodule.c, _pyarray_correlate): x is the longer
 * input (n1 values), y the shorter (n2), and
 *   out[k] = sum_j x[k - left + j] * y[j],  k in [0, len),
 * over the j that index x. convolve is this with y the reversed shorter
 * input; correlate with y = conj(v), or, when a is the shorter, x =
 * conj(v), y = a and the output reversed (NumPy's swapped-length rule). */
typedef struct conv_plan {
  int64_t n1, n2, len, left;
} conv_plan;

static conv_plan conv_plan_make(int64_t n1, int64_t n2, int32_t mode) {
  conv_plan p = {n1, n2, n1, n2 / 2};
  if (mode == CN_CONV_VALID) {
    p.len = n1 - n2 + 1;
    p.left = 0;
  } else if (mode == CN_CONV_FULL) {
    p.len = n1 + n2 - 1;
    p.left = n2 - 1;
  }
  return p;
}

/* Number of (output, tap) products, NumPy's direct cost. */
static double conv_direct_cost(conv_plan p) {
  double c = 0;
  /* outputs whose window is cut by an edge do fewer products */
  for (int64_t side = 0; side < 2; side++) {
    int64_t cut = side == 0 ? p.left : p.len - 1 - (p.n1 - 1 - p.n2 + 1 +
                                                     p.left);
    if (cut > 0)
      c -= (double)cut * (double)(cut + 1) / 2;
  }
  return c + (double)p.len * (double)p.n2;
}

/* Test-only override of the automatic method (read once): "composed"
 * takes the engine-op loop a device backend runs, "fft" the FFT product
 * whenever the dtype and values allow it, "direct" never the FFT. */
enum { CONV_AUTO = 0, CONV_FORCE_COMPOSED, CONV_FORCE_FFT, CONV_FORCE_DIRECT };
static int conv_method_override(void) {
  static atomic_int cached = -1;
  int v = atomic_load(&cached);
  if (v < 0) {
    const char *e = getenv("CUNUMPY_CONV_METHOD");
    v = !e                          ? CONV_AUTO
        : strcmp(e, "composed") == 0 ? CONV_FORCE_COMPOSED
        : strcmp(e, "fft") == 0      ? CONV_FORCE_FFT
        : strcmp(e, "direct") == 0   ? CONV_FORCE_DIRECT
                                     : CONV_AUTO;
    atomic_store(&cached, v);
  }
  return v;
}

/* ---- direct loop on host memory ---- */

/* Baseline x86-64 has SSE2 only; the kernels get an AVX/FMA clone picked
 * at load time (no clones under TSan, which cannot instrument them). */
#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__) &&                    \
    !defined(__clang__)
#define CONV_CLONES __attribute__((target_clones("fma", "default")))
#else
#define CONV_CLONES
#endif

/* Outputs in groups of CONV_GROUP whose accumulators stay in registers
 * while every tap passes over them (one load and one multiply-add per
 * tap and output); the outputs whose window an edge cuts take only the
 * products whose x index exists (no zero padding: inf * 0 would make
 * NaN). Chunks of CONV_CHUNK outputs share the threads. */
#define CONV_GROUP 16
#define CONV_CHUNK 2048
typedef double v4d __attribute__((vector_size(32)));

/* The taps j in [*j0, *j1) whose x index k - left + j exists. */
static inline void conv_taps(conv_plan p, int64_t k, int64_t *j0,
                             int64_t *j1) {
  *j0 = p.left - k > 0 ? p.left - k : 0;
  *j1 = p.n1 - k + p.left < p.n2 ? p.n1 - k + p.left : p.n2;
}

/* Outputs [k0, k1): every window whole in [lo, hi) */
CONV_CLONES static void conv_chunk_f64(double *o, const double *x,
                                       const double *y, conv_plan p,
                                       int64_t k0, int64_t k1) {
  int64_t lo = p.left, hi = p.n1 - p.n2 + p.left + 1;
  for (int64_t k = k0; k < k1;) {
    if (k >= lo && k + CONV_GROUP <= hi && k + CONV_GROUP <= k1) {
      /* four vectors of accumulators, named so they stay in registers */
      v4d a0 = {0, 0, 0, 0}, a1 = a0, a2 = a0, a3 = a0;
      const double *xs = x + (k - p.left);
      for (int64_t j = 0; j < p.n2; j++) {
        const v4d yj = {y[j], y[j], y[j], y[j]};
        v4d x0, x1, x2, x3;
        memcpy(&x0, xs + j, sizeof x0);
        memcpy(&x1, xs + j + 4, sizeof x1);
        memcpy(&x2, xs + j + 8, sizeof x2);
        memcpy(&x3, xs + j + 12, sizeof x3);
        a0 += yj * x0;
        a1 += yj * x1;
        a2 += yj * x2;
        a3 += yj * x3;
      }
      memcpy(o + k, &a0, sizeof a0);
      memcpy(o + k + 4, &a1, sizeof a1);
      memcpy(o + k + 8, &a2, sizeof a2);
      memcpy(o + k + 12, &a3, sizeof a3);
      k += CONV_GROUP;
      continue;
    }
    int64_t j0, j1;
    conv_taps(p, k, &j0, &j1);
    /* a dot product over the taps that exist, four lanes wide */
    const int64_t off = k - p.left; /* off + j >= 0 for j >= j0 */
    v4d a0 = {0, 0, 0, 0};
    int64_t j = j0;
    for (; j + 4 <= j1; j += 4) {
      v4d xv, yv;
      memcpy(&xv, x + (off + j), sizeof xv);
      memcpy(&yv, y + j, sizeof yv);
      a0 += xv * yv;
    }
    double s = (a0[0] + a0[1]) + (a0[2] + a0[3]);
    for (; j < j1; j++)
      s += x[off + j] * y[j];
    o[k++] = s;
  }
}

/* Complex values split into real and imaginary planes (xr, xi, yr, yi) so
 * the same register-blocked loop vectorises; NumPy's dot does no NaN
 * recovery in the products either. o is (re, im) pairs. */
CONV_CLONES static void conv_chunk_c128(double *o, const double *xr,
                                        const double *xi, const double *yr,
                                        const double *yi, conv_plan p,
                                        int64_t k0, int64_t k1) {
  int64_t lo = p.left, hi = p.n1 - p.n2 + p.left + 1;
  enum { G = 8 };
  for (int64_t k = k0; k < k1;) {
    if (k >= lo && k + G <= hi && k + G <= k1) {
      v4d r0 = {0, 0, 0, 0}, r1 = r0, i0 = r0, i1 = r0;
      const int64_t off = k - p.left;
      for (int64_t j = 0; j < p.n2; j++) {
        const v4d br = {yr[j], yr[j], yr[j], yr[j]};
        const v4d bi = {yi[j], yi[j], yi[j], yi[j]};
        v4d a0, a1, b0, b1;
        memcpy(&a0, xr + off + j, sizeof a0);
        memcpy(&a1, xr + off + j + 4, sizeof a1);
        memcpy(&b0, xi + off + j, sizeof b0);
        memcpy(&b1, xi + off + j + 4, sizeof b1);
        r0 += a0 * br - b0 * bi;
        r1 += a1 * br - b1 * bi;
        i0 += a0 * bi + b0 * br;
        i1 += a1 * bi + b1 * br;
      }
      for (int t = 0; t < 4; t++) {
        o[2 * (k + t)] = r0[t];
        o[2 * (k + t) + 1] = i0[t];
        o[2 * (k + 4 + t)] = r1[t];
        o[2 * (k + 4 + t) + 1] = i1[t];
      }
      k += G;
      continue;
    }
    int64_t j0, j1;
    conv_taps(p, k, &j0, &j1);
    const int64_t off = k - p.left;
    double sr = 0, si = 0;
    for (int64_t j = j0; j < j1; j++) {
      double ar = xr[off + j], ai = xi[off + j];
      sr += ar * yr[j] - ai * yi[j];
      si += ar * yi[j] + ai * yr[j];
    }
    o[2 * k] = sr;
    o[2 * k + 1] = si;
    k++;
  }
}

/* Bool and integers: modular uint64 arithmetic, which the cast to the
 * result dtype turns into NumPy's wrap-around in that dtype (and, for
 * bool, into its or of ands). */
static void conv_chunk_u64(uint64_t *o, const uint64_t *x, const uint64_t *y,
                           conv_plan p, int64_t k0, int64_t k1) {
  for (int64_t k = k0; k < k1; k++) {
    int64_t j0, j1;
    conv_taps(p, k, &j0, &j1);
    uint64_t s = 0;
    for (int64_t j = j0; j < j1; j++)
      s += x[k - p.left + j] * y[j];
    o[k] = s;
  }
}

/* planes: for complex, x and y as (real, imaginary) planes */
static void conv_direct_run(void *o, const void *x, const void *y,
                            const double *planes, conv_plan p, cn_dtype wt) {
  int64_t nc = (p.len + CONV_CHUNK - 1) / CONV_CHUNK;
  const double *xr = planes, *xi = planes ? planes + p.n1 : NULL;
  const double *yr = planes ? planes + 2 * p.n1 : NULL;
  const double *yi = planes ? yr + p.n2 : NULL;
#pragma omp parallel for schedule(dynamic, 1) if ((double)p.len * p.n2 >= 1e5)
  for (int64_t c = 0; c < nc; c++) {
    int64_t k0 = c * CONV_CHUNK;
    int64_t k1 = p.len - k0 < CONV_CHUNK ? p.len : k0 + CONV_CHUNK;
    if (wt == CN_COMPLEX128)
      conv_chunk_c128(o, xr, xi, yr, yi, p, k0, k1);
    else if (wt == CN_FLOAT64)
      conv_chunk_f64(o, x, y, p, k0, k1);
    else
      conv_chunk_u64(o, x, y, p, k0, k1);
  }
}

/* The direct loop on host copies of x and y (y already reversed and
 * conjugated as the plan wants), cast to rt. */
static cn_status conv_direct_host(cn_array_s **out, const cn_array_s *x,
                                  const cn_array_s *y, conv_plan p,
                                  cn_dtype rt, const char *fn) {
  cn_dtype wt = cn_is_complex(rt) ? CN_COMPLEX128
                : cn_is_float(rt) ? CN_FLOAT64
                                  : CN_UINT64;
  cn_array_s *hx = NULL, *hy = NULL, *r = NULL;
  cn_status st = cn_host_as(&hx, x, wt);
  if (st == CN_OK)
    st = cn_host_as(&hy, y, wt);
  if (st == CN_OK)
    st = cn_host_new(&r, wt, 1, &p.len);
  double *planes = NULL;
  if (st == CN_OK && wt == CN_COMPLEX128) {
    planes = cn_malloc(sizeof(double) * (size_t)(2 * (p.n1 + p.n2)));
    if (!planes)
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
    for (int64_t i = 0; st == CN_OK && i < p.n1; i++) {
      planes[i] = ((const double *)hx->data)[2 * i];
      planes[p.n1 + i] = ((const double *)hx->data)[2 * i + 1];
    }
    for (int64_t j = 0; st == CN_OK && j < p.n2; j++) {
      planes[2 * p.n1 + j] = ((const double *)hy->data)[2 * j];
      planes[2 * p.n1 + p.n2 + j] = ((const double *)hy->data)[2 * j + 1];
    }
  }
  if (st == CN_OK)
    conv_direct_run(r->data, hx->data, hy->data, planes, p, wt);
  free(planes);
  cn_array_release(hx);
  cn_array_release(hy);
  if (st == CN_OK && wt != rt) {
    cn_array_s *c = NULL;
    st = cn_astype(&c, r, rt, 1);
    cn_array_release(r);
    r = c;
  }
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}

/* ---- compositions of engine ops (any backend) ---- */

/* The direct sum as one multiply and one add per tap on x's device, in rt
 * (NumPy's dtype of the products and sums): each tap adds y[j] times the
 * part of x it meets into the outputs that part reaches. */
static cn_status conv_direct_composed(cn_array_s **out, const cn_array_s *x,
                                      const cn_array_s *y, conv_plan p,
                                      cn_dtype rt) {
  cn_array_s *xc = NULL, *yc = NULL, *r = NULL;
  cn_status st = cn_astype(&xc, (cn_array)x, rt, 0);
  if (st == CN_OK)
    st = cn_astype(&yc, (cn_array)y, rt, 0);
  if (st == CN_OK)
    st = cn_array_new(&r, cn_backend_of(x), x->buf->device_id, rt, 1, &p.len,
                      CN_ORDER_C);
  if (st == CN_OK)
    st = cn_fill(r, cn_scalar_int(0));
  for (int64_t j = 0; st == CN_OK && j < p.n2; j++) {
    int64_t k0 = p.left - j > 0 ? p.left - j : 0;
    int64_t k1 = p.left - j + p.n1 < p.len ? p.left - j + p.n1 : p.len;
    if (k1 <= k0)
      continue;
    cn_array_s *xs = NULL, *rs = NULL, *yj = NULL, *prod = NULL, *sum = NULL;
    st = cn_slice_axis(&xs, xc, 0, k0 + j - p.left, k1 + j - p.left, 1);
    if (st == CN_OK)
      st = cn_slice_axis(&rs, r, 0, k0, k1, 1);
    if (st == CN_OK)
      st = cn_slice_axis(&yj, yc, 0, j, j + 1, 1);
    if (st == CN_OK)
      st = cn_multiply(&prod, xs, yj, NULL);
    if (st == CN_OK)
      st = cn_add(&sum, rs, prod, rs);
    cn_array_release(xs);
    cn_array_release(rs);
    cn_array_release(yj);
    cn_array_release(prod);
    cn_array_release(sum);
  }
  cn_array_release(xc);
  cn_array_release(yc);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}

/* The full linear convolution of x with y reversed by an FFT product of
 * length L (rfft/irfft for real, fft/ifft for complex, in float64 /
 * complex128 on x's device), the plan's outputs sliced from it, cast to
 * rt. */
static cn_status conv_fft(cn_array_s **out, const cn_array_s *x,
                          const cn_array_s *y, conv_plan p, cn_dtype rt) {
  bool cplx = cn_is_complex(rt);
  cn_dtype wt = cplx ? CN_COMPLEX128 : CN_FLOAT64;
  int64_t L = cn_fft_good_size(p.n1 + p.n2 - 1);
  cn_array_s *xw = NULL, *g = NULL, *gw = NULL, *fx = NULL, *fg = NULL,
             *prod = NULL, *full = NULL, *part = NULL, *r = NULL;
  cn_status st = cn_astype(&xw, (cn_array)x, wt, 0);
  if (st == CN_OK)
    st = cn_flip(&g, (cn_array)y, 0, NULL);
  if (st == CN_OK)
    st = cn_astype(&gw, g, wt, 0);
  if (st == CN_OK)
    st = (cplx ? cn_fft : cn_rfft)(&fx, xw, L, 0, CN_FFT_NORM_BACKWARD);
  if (st == CN_OK)
    st = (cplx ? cn_fft : cn_rfft)(&fg, gw, L, 0, CN_FFT_NORM_BACKWARD);
  if (st == CN_OK)
    st = cn_multiply(&prod, fx, fg, fx);
  if (st == CN_OK)
    st = (cplx ? cn_ifft : cn_irfft)(&full, prod, L, 0, CN_FFT_NORM_BACKWARD);
  /* out[k] = full[k + n2 - 1 - left] */
  int64_t off = p.n2 - 1 - p.left;
  if (st == CN_OK)
    st = cn_slice_axis(&part, full, 0, off, off + p.len, 1);
  if (st == CN_OK)
    st = cn_astype(&r, part, rt, 1);
  cn_array_release(xw);
  cn_array_release(g);
  cn_array_release(gw);
  cn_array_release(fx);
  cn_array_release(fg);
  cn_array_release(prod);
  cn_array_release(full);
  cn_array_release(part);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}

/* Whether the FFT product is worth its rounding: only where the direct
 * sum costs far more. On the CPU (benchmarks/bench_signal.py) the two
 * take the same time at about direct = 2.5 * fft_cost (1e5 values, 150
 * taps); the FFT is taken from 4 * fft_cost. A device runs the direct
 * sum as two ops per tap, so there the FFT takes over from 32 taps
 * (not measured on a GPU yet). */
static bool conv_fft_pays(conv_plan p, bool on_cpu, bool cplx) {
  double L = (double)cn_fft_good_size(p.n1 + p.n2 - 1);
  double fft_cost = 3.0 * L * log2(L) * (cplx ? 2.0 : 1.0);
  double direct = conv_direct_cost(p) * (cplx ? 4.0 : 1.0);
  if (on_cpu)
    return p.n2 >= 128 && direct > 4.0 * fft_cost;
  return p.n2 >= 32;
}

/* a or v as a 1-d view (0-d inputs are one value, as NumPy's ndmin=1). */
static cn_status as_1d(cn_array_s **out, const cn_array_s *a) {
  int64_t one = 1;
  if (a->ndim == 1) {
    cn_array_retain((cn_array)a);
    *out = (cn_array_s *)a;
    return CN_OK;
  }
  return cn_reshape(out, (cn_array)a, 1, &one, CN_ORDER_C);
}

static cn_status conv_impl(cn_array *out, cn_array a, cn_array v, int32_t mode,
                           bool corr, const char *fn) {
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(v, fn, "v");
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
  cn_status st = cn_result_type(&rt, a->dtype, v->dtype);
  if (st != CN_OK)
    return st;
  if (cn_backend_of(a) != cn_backend_of(v) ||
      a->buf->device_id != v->buf->device_id)
    return cn_error(CN_ERR_DEVICE, "%s: a and v are on different devices",
                    fn);
  bool cplx = cn_is_complex(rt);
  /* x the longer, y the shorter; for correlate with a shorter than v
   * NumPy correlates v with a and reverses the result */
  bool swap = a->size < v->size;
  bool reverse_out = corr && swap;
  cn_array_s *x = NULL, *s = NULL, *y = NULL, *t = NULL, *r = NULL;
  st = as_1d(&x, swap ? v : a);
  if (st == CN_OK)
    st = as_1d(&s, swap ? a : v);
  if (st == CN_OK && !corr) { /* convolve: y is the shorter reversed */
    st = cn_flip(&y, s, 0, NULL);
  } else if (st == CN_OK && cplx && swap) {
    /* NumPy conjugates v before the swap: conj(v) slides over a */
    cn_array_retain(s);
    y = s;
    st = cn_conj(&t, x, NULL);
    cn_array_release(x);
    x = t;
    t = NULL;
  } else if (st == CN_OK && cplx) {
    st = cn_conj(&y, s, NULL);
  } else if (st == CN_OK) {
    cn_array_retain(s);
    y = s;
  }
  conv_plan p = conv_plan_make(x ? x->size : 0, s ? s->size : 0, mode);
  bool on_cpu = cn_backend_of(a) == cn_cpu_backend();
  int method = conv_method_override();
  bool fft = false;
  if (st == CN_OK && (cn_is_float(rt) || cplx) && method != CONV_FORCE_DIRECT &&
      (method == CONV_FORCE_FFT || (method == CONV_AUTO &&
                                    conv_fft_pays(p, on_cpu, cplx)))) {
    /* one inf or NaN would spread over every FFT output */
    bool fx = false, fy = false;
    st = cn_all_finite(&fx, x);
    if (st == CN_OK)
      st = cn_all_finite(&fy, y);
    fft = fx && fy;
  }
  if (st == CN_OK) {
    if (fft)
      st = conv_fft(&r, x, y, p, rt);
    else if (on_cpu && method != CONV_FORCE_COMPOSED)
      st = conv_direct_host(&r, x, y, p, rt, fn);
    else
      st = conv_direct_composed(&r, x, y, p, rt);
  }
  if (st == CN_OK && reverse_out) {
    st = cn_flip(&t, r, 0, NULL);
    cn_array_release(r);
    r = NULL;
    if (st == CN_OK)
      st = cn_copy(&r, t, CN_ORDER_C);
  }
  cn_array_release(x);
  cn_array_release(s);
  cn_array_release(y);
  cn_array_release(t);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}

cn_status cn_convolve(cn_array *out, cn_array a, cn_array v, int32_t mode) {
  return conv_impl(out, a, v, mode, false, "cn_convolve");
}
cn_status cn_correlate(cn_array *out, cn_array a, cn_array v, int32_t mode) {
  return conv_impl(out, a, v, mode, true, "cn_correlate");
}

/* ---- interpolation and integration -----------------------------------------
 */

/* NumPy's arr_interp / arr_interp_complex, per output value. A real fp
 * takes the slope (f1 - f0) / (x1 - x0); each part of a complex fp takes
 * (f1 - f0) * (1 / (x1 - x0)), as NumPy. A NaN result retries from the
 * right node, then takes f0 when both nodes agree. */
static double interp_segment(double v, double x0, double x1, double f0,
                             double f1, bool cplx) {
  double slope = cplx ? (f1 - f0) * (1.0 / (x1 - x0)) : (f1 - f0) / (x1 - x0);
  double res = slope * (v - x0) + f0;
  if (res != res) {
    res = slope * (v - x1) + f1;
    if (res != res && f0 == f1)
      res = f0;
  }
  return res;
}

/* The CPU's direct loop over host float64 copies; fp holds nparts (1, or 2
 * for complex: real and imaginary parts interleaved) values per node, o the
 * same per output value. */
static void interp_direct(double *o, const double *xv, int64_t m,
                          const double *dx, const double *dy, int64_t n,
                          int nparts, const double *lv, const double *rv) {
  bool cplx = nparts == 2;
  for (int64_t i = 0; i < m; i++) {
    double v = xv[i];
    double *oi = o + i * nparts;
    /* NumPy's single-node case compares only: a NaN x gets fp[0] */
    if (n == 1) {
      const double *src = v < dx[0] ? lv : v > dx[0] ? rv : dy;
      for (int p = 0; p < nparts; p++)
        oi[p] = src[p];
      continue;
    }
    if (v != v) {
      oi[0] = v;
      if (cplx)
        oi[1] = 0.0;
      continue;
    }
    if (v < dx[0] || v > dx[n - 1]) {
      const double *src = v < dx[0] ? lv : rv;
      for (int p = 0; p < nparts; p++)
        oi[p] = src[p];
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
    for (int p = 0; p < nparts; p++) {
      double f0 = dy[j * nparts + p];
      oi[p] = j == n - 1 || v == dx[j]
                  ? f0
                  : interp_segment(v, dx[j], dx[j + 1], f0,
                                   dy[(j + 1) * nparts + p], cplx);
    }
  }
}

/* On CPU arrays interp runs the direct loop: one pass, no temporaries,
 * faster there than the composition below. Setting
 * CUNUMPY_INTERP_COMPOSED=1 (read once) runs the composition on CPU arrays
 * too, so that the tests cover the path device arrays take. */
static bool interp_host_path(const cn_array_s *x) {
  static int composed = -1;
  int c = __atomic_load_n(&composed, __ATOMIC_RELAXED);
  if (c < 0) {
    const char *e = getenv("CUNUMPY_INTERP_COMPOSED");
    c = e != NULL && e[0] == '1';
    __atomic_store_n(&composed, c, __ATOMIC_RELAXED);
  }
  return !c && cn_backend_of(x)->device_type == CN_DEVICE_CPU;
}

static cn_status interp_host(cn_array *out, const cn_array_s *x,
                             const cn_array_s *xp, const cn_array_s *fp,
                             const double *left, const double *right) {
  bool cplx = cn_is_complex(fp->dtype);
  int nparts = cplx ? 2 : 1;
  cn_array_s *hx = NULL, *hxp = NULL, *hfp = NULL, *r = NULL;
  cn_status st = cn_host_f64(&hx, x);
  if (st == CN_OK)
    st = cn_host_f64(&hxp, xp);
  if (st == CN_OK)
    st = cplx ? cn_host_as(&hfp, fp, CN_COMPLEX128) : cn_host_f64(&hfp, fp);
  if (st == CN_OK)
    st = cn_host_new(&r, cplx ? CN_COMPLEX128 : CN_FLOAT64, x->ndim, x->shape);
  if (st == CN_OK) {
    const double *dy = (const double *)hfp->data;
    int64_t n = xp->size;
    double lv[2] = {left ? *left : dy[0], left ? 0.0 : dy[nparts - 1]};
    double rv[2] = {right ? *right : dy[(n - 1) * nparts],
                    right ? 0.0 : dy[(n - 1) * nparts + nparts - 1]};
    interp_direct((double *)r->data, (const double *)hx->data, hx->size,
                  (const double *)hxp->data, dy, n, nparts, lv, rv);
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

/* ---- interp composed where the data lives ----------------------------------
 * j = searchsorted(xp, x, right) - 1 clipped to a segment, the nodes taken
 * at j and j + 1, NumPy's formula elementwise, then its special cases
 * applied by where, the later overriding the earlier: x on a node, x at or
 * past the last node, outside (left / right), NaN x. */

#define ITRY(x)                                                                \
  do {                                                                         \
    if ((st = (x)) != CN_OK)                                                   \
      goto done;                                                               \
  } while (0)

static void idrop(cn_array_s **a) {
  cn_array_release(*a);
  *a = NULL;
}

/* *r = where(cond, a, *r). */
static cn_status where_over(cn_array_s **r, cn_array_s *cond, cn_array_s *a) {
  cn_array_s *t = NULL;
  cn_status st = cn_where(&t, cond, a, *r, NULL);
  if (st == CN_OK) {
    cn_array_release(*r);
    *r = t;
  }
  return st;
}

/* 0-d array of dt holding v, on like's device. */
static cn_status scalar_on(cn_array_s **out, const cn_array_s *like,
                           cn_dtype dt, cn_scalar v) {
  cn_status st = cn_new_on(out, like, dt, 0, NULL);
  if (st == CN_OK && (st = cn_fill(*out, v)) != CN_OK)
    idrop(out);
  return st;
}

/* The nodes and the position of x, shared by the parts of a complex fp. */
typedef struct interp_nodes {
  cn_array_s *xf, *xpf;    /* float64 x (its shape), float64 xp */
  cn_array_s *s, *j, *j1;  /* searchsorted right; segment j and j + 1 */
  cn_array_s *x0, *x1;     /* xp[j], xp[j + 1] */
  cn_array_s *xpfirst, *xplast; /* 0-d xp[0], xp[n-1] */
  cn_array_s *nan_x, *below, *above, *at_end, *on_node;
  int64_t n;
} interp_nodes;

static void interp_nodes_free(interp_nodes *N) {
  cn_array_s **all[] = {&N->xf,      &N->xpf,     &N->s,     &N->j,
                        &N->j1,      &N->x0,      &N->x1,    &N->xpfirst,
                        &N->xplast,  &N->nan_x,   &N->below, &N->above,
                        &N->at_end,  &N->on_node};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    idrop(all[i]);
}

static cn_status interp_nodes_make(interp_nodes *N, const cn_array_s *x,
                                   const cn_array_s *xp) {
  memset(N, 0, sizeof *N);
  cn_array_s *t = NULL, *one = NULL, *lo = NULL, *hi = NULL, *nn = NULL;
  cn_status st;
  int64_t n = N->n = xp->size;
  ITRY(cn_as_contig(&N->xf, x, CN_FLOAT64));
  ITRY(cn_as_contig(&N->xpf, xp, CN_FLOAT64));
  ITRY(cn_index_axis(&N->xpfirst, N->xpf, 0, 0));
  ITRY(cn_index_axis(&N->xplast, N->xpf, 0, n - 1));
  ITRY(cn_less(&N->below, N->xf, N->xpfirst, NULL));
  ITRY(cn_greater(&N->above, N->xf, N->xplast, NULL));
  if (n == 1)
    goto done; /* NumPy compares only; no segment */
  ITRY(cn_isnan(&N->nan_x, N->xf, NULL));
  ITRY(cn_searchsorted(&N->s, N->xpf, N->xf, CN_SIDE_RIGHT, NULL));
  ITRY(scalar_on(&one, N->xf, CN_INT64, cn_scalar_int(1)));
  ITRY(scalar_on(&lo, N->xf, CN_INT64, cn_scalar_int(0)));
  ITRY(scalar_on(&hi, N->xf, CN_INT64, cn_scalar_int(n - 2)));
  ITRY(scalar_on(&nn, N->xf, CN_INT64, cn_scalar_int(n)));
  ITRY(cn_subtract(&t, N->s, one, NULL));
  ITRY(cn_clip(&N->j, t, lo, hi, NULL));
  ITRY(cn_add(&N->j1, N->j, one, NULL));
  ITRY(cn_take(&N->x0, N->xpf, N->j, 0, CN_INDEX_RAISE, NULL));
  ITRY(cn_take(&N->x1, N->xpf, N->j1, 0, CN_INDEX_RAISE, NULL));
  ITRY(cn_equal(&N->at_end, N->s, nn, NULL));
  ITRY(cn_equal(&N->on_node, N->xf, N->x0, NULL));
done:
  cn_array_release(t);
  cn_array_release(one);
  cn_array_release(lo);
  cn_array_release(hi);
  cn_array_release(nn);
  if (st != CN_OK)
    interp_nodes_free(N);
  return st;
}

/* One real part f (float64, xp's length) interpolated at N's x. lv / rv:
 * the left / right values (NULL: f's first / last). nan_value: what a NaN
 * x gives (NULL: x itself). */
static cn_status interp_part(cn_array_s **out, const interp_nodes *N,
                             const cn_array_s *f, const double *lv,
                             const double *rv, const double *nan_value,
                             bool cplx) {
  cn_array_s *ff = NULL, *ffirst = NULL, *flast = NULL, *l = NULL, *rr = NULL;
  cn_array_s *f0 = NULL, *f1 = NULL, *df = NULL, *dx = NULL, *slope = NULL;
  cn_array_s *t = NULL, *res = NULL, *res2 = NULL, *c = NULL, *c2 = NULL;
  cn_array_s *r = NULL, *nanv = NULL, *oned = NULL, *lval, *rval;
  cn_status st;
  int64_t n = N->n;
  ITRY(cn_as_contig(&ff, f, CN_FLOAT64));
  ITRY(cn_index_axis(&ffirst, ff, 0, 0));
  ITRY(cn_index_axis(&flast, ff, 0, n - 1));
  if (lv)
    ITRY(scalar_on(&l, N->xf, CN_FLOAT64, cn_scalar_float(*lv)));
  if (rv)
    ITRY(scalar_on(&rr, N->xf, CN_FLOAT64, cn_scalar_float(*rv)));
  lval = l ? l : ffirst;
  rval = rr ? rr : flast;
  if (n == 1) {
    ITRY(cn_where(&r, N->above, rval, ffirst, NULL));
    ITRY(where_over(&r, N->below, lval));
    goto finish;
  }
  ITRY(cn_take(&f0, ff, N->j, 0, CN_INDEX_RAISE, NULL));
  ITRY(cn_take(&f1, ff, N->j1, 0, CN_INDEX_RAISE, NULL));
  ITRY(cn_subtract(&df, f1, f0, NULL));
  ITRY(cn_subtract(&dx, N->x1, N->x0, NULL));
  if (cplx) {
    ITRY(scalar_on(&oned, N->xf, CN_FLOAT64, cn_scalar_float(1.0)));
    ITRY(cn_divide(&t, oned, dx, NULL));
    ITRY(cn_multiply(&slope, df, t, NULL));
  } else {
    ITRY(cn_divide(&slope, df, dx, NULL));
  }
  idrop(&t);
  /* slope * (x - x0) + f0, else slope * (x - x1) + f1, else f0 == f1 */
  ITRY(cn_subtract(&t, N->xf, N->x0, NULL));
  ITRY(cn_multiply(&res, slope, t, NULL));
  idrop(&t);
  ITRY(cn_add(&r, res, f0, NULL));
  idrop(&res);
  ITRY(cn_subtract(&t, N->xf, N->x1, NULL));
  ITRY(cn_multiply(&res, slope, t, NULL));
  idrop(&t);
  ITRY(cn_add(&res2, res, f1, NULL));
  idrop(&res);
  ITRY(cn_isnan(&c, res2, NULL));
  ITRY(cn_equal(&c2, f0, f1, NULL));
  ITRY(cn_logical_and(&t, c, c2, NULL));
  ITRY(where_over(&res2, t, f0));
  idrop(&t);
  idrop(&c);
  ITRY(cn_isnan(&c, r, NULL));
  ITRY(where_over(&r, c, res2));
  ITRY(where_over(&r, N->on_node, f0));
  ITRY(where_over(&r, N->at_end, flast));
  ITRY(where_over(&r, N->above, rval));
  ITRY(where_over(&r, N->below, lval));
  if (nan_value) {
    ITRY(scalar_on(&nanv, N->xf, CN_FLOAT64, cn_scalar_float(*nan_value)));
    ITRY(where_over(&r, N->nan_x, nanv));
  } else {
    ITRY(where_over(&r, N->nan_x, N->xf));
  }
finish:
  *out = r;
  r = NULL;
done:
  cn_array_release(ff);
  cn_array_release(ffirst);
  cn_array_release(flast);
  cn_array_release(l);
  cn_array_release(rr);
  cn_array_release(f0);
  cn_array_release(f1);
  cn_array_release(df);
  cn_array_release(dx);
  cn_array_release(slope);
  cn_array_release(t);
  cn_array_release(res);
  cn_array_release(res2);
  cn_array_release(c);
  cn_array_release(c2);
  cn_array_release(r);
  cn_array_release(nanv);
  cn_array_release(oned);
  return st;
}

static cn_status interp_composed(cn_array *out, const cn_array_s *x,
                             const cn_array_s *xp, const cn_array_s *fp,
                             const double *left, const double *right) {
  interp_nodes N;
  cn_array_s *re = NULL, *im = NULL, *fre = NULL, *fim = NULL, *st2 = NULL,
             *cv = NULL;
  const double zero = 0.0;
  cn_array parts[2];
  cn_status st = interp_nodes_make(&N, x, xp);
  if (st != CN_OK)
    return st;
  if (!cn_is_complex(fp->dtype)) {
    ITRY(interp_part(&re, &N, fp, left, right, NULL, false));
    *out = re;
    re = NULL;
    goto done;
  }
  /* complex fp: each part alone (NumPy's per-part formula); a real left /
   * right has a zero imaginary part, a NaN x gives NaN + 0j */
  ITRY(cn_real(&fre, (cn_array)fp, NULL));
  ITRY(cn_imag(&fim, (cn_array)fp, NULL));
  ITRY(interp_part(&re, &N, fre, left, right, NULL, true));
  ITRY(interp_part(&im, &N, fim, left ? &zero : NULL, right ? &zero : NULL,
                   &zero, true));
  parts[0] = re;
  parts[1] = im;
  ITRY(cn_stack(&st2, 2, parts, -1));
  ITRY(cn_view_dtype(&cv, st2, CN_COMPLEX128));
  ITRY(cn_reshape(out, cv, x->ndim, x->shape, CN_ORDER_C));
done:
  interp_nodes_free(&N);
  cn_array_release(re);
  cn_array_release(im);
  cn_array_release(fre);
  cn_array_release(fim);
  cn_array_release(st2);
  cn_array_release(cv);
  return st;
}

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
  if (st != CN_OK)
    return st;
  if (xp->ndim != 1 || fp->ndim != 1 || xp->size != fp->size)
    return cn_error(CN_ERR_VALUE,
                    "%s: fp and xp are not of the same length "
                    "(or not 1-d)",
                    fn);
  if (xp->size == 0)
    return cn_error(CN_ERR_VALUE, "%s: array of sample points is empty", fn);
  const cn_array_s *devs[3] = {x, xp, fp};
  if ((st = cn_same_device(3, devs, fn)) != CN_OK)
    return st;
  if (interp_host_path(x))
    return interp_host(out, x, xp, fp, left, right);
  st = interp_composed(out, x, xp, fp, left, right);
  return st == CN_OK ? CN_OK : cn_error_prefix(st, fn);
}
