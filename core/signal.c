/* N-d convolution and correlation (include/cunumpy/signal.h): a direct
 * sum on host copies, rows of the output shared by the threads, or an FFT
 * product through the engine's n-d real / complex transforms. */
#include "cunumpy/signal.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/fft.h"
#include "cunumpy/manip.h"
#include "cunumpy/reduce.h"
#include "cunumpy/ufunc.h"
#include "cunumpy/view.h"
#include "signal_util.h"
#include "stats_util.h"

/* ---- geometry ------------------------------------------------------------ */

/* out[o] = full[o + off] with full[p] = sum_j x[p - j] * k[j] over the j
 * where p - j indexes x: the plan of one convolution of x (shape xs)
 * with k (shape ks) into os. */
typedef struct conv_geom {
  int32_t nd;
  int64_t xs[CN_MAX_DIMS], ks[CN_MAX_DIMS], os[CN_MAX_DIMS],
      off[CN_MAX_DIMS];
} conv_geom;

static void conv_geom_axis(conv_geom *g, int32_t d, int64_t n1, int64_t n2,
                           int32_t mode) {
  g->xs[d] = n1;
  g->ks[d] = n2;
  if (mode == CN_SIGNAL_FULL) {
    g->os[d] = n1 + n2 - 1;
    g->off[d] = 0;
  } else if (mode == CN_SIGNAL_SAME) {
    g->os[d] = n1;
    g->off[d] = (n2 - 1) / 2;
  } else {
    g->os[d] = n1 - n2 + 1;
    g->off[d] = n2 - 1;
  }
}

/* SciPy's valid-mode rule: one input at least as large as the other on
 * every listed axis; *swap when that one is in2. */
static cn_status valid_swap(bool *swap, const cn_array_s *a,
                            const cn_array_s *b, const bool *conv_axis,
                            const char *fn) {
  bool ok1 = true, ok2 = true;
  for (int32_t d = 0; d < a->ndim; d++) {
    if (!conv_axis[d])
      continue;
    ok1 = ok1 && a->shape[d] >= b->shape[d];
    ok2 = ok2 && b->shape[d] >= a->shape[d];
  }
  if (!ok1 && !ok2)
    return cn_error(CN_ERR_VALUE,
                    "%s: for 'valid' mode, one must be at least as large as "
                    "the other in every dimension",
                    fn);
  *swap = !ok1;
  return CN_OK;
}

/* ---- direct sum on the host ---------------------------------------------- */

/* Output rows (every axis but the last) in chunks of the last axis; each
 * work item sums every kernel row into its chunk, so no two threads
 * write the same output. */
#define CONV_ROW_CHUNK 4096

/* The flat offset of row r (a multi-index over axes < nd-1) of a
 * C-contiguous array of shape s. */
static int64_t row_offset(const int64_t *idx, const int64_t *s, int32_t nd) {
  int64_t o = 0;
  for (int32_t d = 0; d < nd - 1; d++)
    o = o * s[d] + idx[d];
  return o * s[nd - 1];
}

static void unravel_row(int64_t *idx, int64_t r, const int64_t *s,
                        int32_t nd) {
  for (int32_t d = nd - 2; d >= 0; d--) {
    idx[d] = r % s[d];
    r /= s[d];
  }
}

#define CONV_DIRECT_KERNEL(NAME, T)                                            \
  static void NAME(T *o, const T *x, const T *k, const conv_geom *g) {         \
    const int32_t nd = g->nd;                                                  \
    const int64_t olen = g->os[nd - 1], xlen = g->xs[nd - 1],                  \
                  klen = g->ks[nd - 1], loff = g->off[nd - 1];                 \
    int64_t orows = 1, krows = 1;                                              \
    for (int32_t d = 0; d < nd - 1; d++) {                                     \
      orows *= g->os[d];                                                       \
      krows *= g->ks[d];                                                       \
    }                                                                          \
    const int64_t nchunk = (olen + CONV_ROW_CHUNK - 1) / CONV_ROW_CHUNK;       \
    const double work = (double)orows * (double)olen * (double)krows *         \
                        (double)klen;                                          \
    _Pragma("omp parallel for schedule(dynamic, 1) if (work >= 1e5)")          \
    for (int64_t w = 0; w < orows * nchunk; w++) {                             \
      int64_t oi[CN_MAX_DIMS], ki[CN_MAX_DIMS], xi[CN_MAX_DIMS];               \
      const int64_t r = w / nchunk, c0 = (w % nchunk) * CONV_ROW_CHUNK;        \
      const int64_t c1 = c0 + CONV_ROW_CHUNK < olen ? c0 + CONV_ROW_CHUNK      \
                                                    : olen;                    \
      unravel_row(oi, r, g->os, nd);                                           \
      T *orow = o + row_offset(oi, g->os, nd);                                 \
      for (int64_t c = c0; c < c1; c++)                                        \
        orow[c] = 0;                                                           \
      for (int64_t kr = 0; kr < krows; kr++) {                                 \
        unravel_row(ki, kr, g->ks, nd);                                        \
        bool inside = true;                                                    \
        for (int32_t d = 0; d < nd - 1 && inside; d++) {                       \
          xi[d] = oi[d] + g->off[d] - ki[d];                                   \
          inside = xi[d] >= 0 && xi[d] < g->xs[d];                             \
        }                                                                      \
        if (!inside)                                                           \
          continue;                                                            \
        const T *xrow = x + row_offset(xi, g->xs, nd);                         \
        const T *krow = k + row_offset(ki, g->ks, nd);                         \
        for (int64_t j = 0; j < klen; j++) {                                   \
          /* outputs c whose x index c + loff - j lies in [0, xlen) */         \
          int64_t lo = j - loff > c0 ? j - loff : c0;                          \
          int64_t hi = xlen + j - loff < c1 ? xlen + j - loff : c1;            \
          const T kv = krow[j];                                                \
          const T *xs = xrow + (loff - j);                                     \
          for (int64_t c = lo; c < hi; c++)                                    \
            orow[c] += kv * xs[c];                                             \
        }                                                                      \
      }                                                                        \
    }                                                                          \
  }
CONV_DIRECT_KERNEL(conv_direct_f64, double)
CONV_DIRECT_KERNEL(conv_direct_c128, double complex)
CONV_DIRECT_KERNEL(conv_direct_u64, uint64_t)

static cn_status conv_direct(cn_array_s **out, const cn_array_s *x,
                             const cn_array_s *k, const conv_geom *g,
                             cn_dtype rt) {
  cn_dtype wt = cn_is_complex(rt) ? CN_COMPLEX128
                : cn_is_float(rt) ? CN_FLOAT64
                                  : CN_UINT64;
  cn_array_s *hx = NULL, *hk = NULL, *r = NULL;
  cn_status st = cn_host_as(&hx, x, wt);
  if (st == CN_OK)
    st = cn_host_as(&hk, k, wt);
  if (st == CN_OK)
    st = cn_host_new(&r, wt, g->nd, g->os);
  if (st == CN_OK && r->size > 0) {
    if (wt == CN_COMPLEX128)
      conv_direct_c128((void *)r->data, (const void *)hx->data, (const void *)hk->data, g);
    else if (wt == CN_FLOAT64)
      conv_direct_f64((void *)r->data, (const void *)hx->data, (const void *)hk->data, g);
    else
      conv_direct_u64((void *)r->data, (const void *)hx->data, (const void *)hk->data, g);
  }
  cn_array_release(hx);
  cn_array_release(hk);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  return cn_result_to((cn_array *)out, r, x, rt);
}

/* ---- FFT product ------------------------------------------------------- */

/* The full convolution over the axes in conv_axis by an FFT of good
 * lengths, the plan's window sliced from it, cast to rt (integers
 * rounded first). Other axes broadcast in the product. */
static cn_status conv_fft(cn_array_s **out, const cn_array_s *x,
                          const cn_array_s *k, const conv_geom *g,
                          const bool *conv_axis, cn_dtype rt) {
  bool cplx = cn_is_complex(rt);
  cn_dtype wt = cplx ? CN_COMPLEX128 : CN_FLOAT64;
  int32_t axes[CN_MAX_DIMS], na = 0;
  int64_t L[CN_MAX_DIMS];
  int64_t start[CN_MAX_DIMS], stop[CN_MAX_DIMS], step[CN_MAX_DIMS];
  for (int32_t d = 0; d < g->nd; d++) {
    start[d] = 0;
    stop[d] = INT64_MAX;
    step[d] = 1;
    if (!conv_axis[d])
      continue;
    axes[na] = d;
    L[na++] = cn_fft_good_size(g->xs[d] + g->ks[d] - 1);
    start[d] = g->off[d];
    stop[d] = g->off[d] + g->os[d];
  }
  cn_array_s *xw = NULL, *kw = NULL, *fx = NULL, *fk = NULL, *prod = NULL,
             *full = NULL, *part = NULL, *rnd = NULL;
  cn_status st = cn_astype(&xw, (cn_array)x, wt, 0);
  if (st == CN_OK)
    st = cn_astype(&kw, (cn_array)k, wt, 0);
  if (st == CN_OK)
    st = (cplx ? cn_fftn : cn_rfftn)(&fx, xw, na, L, na, axes,
                                     CN_FFT_NORM_BACKWARD);
  if (st == CN_OK)
    st = (cplx ? cn_fftn : cn_rfftn)(&fk, kw, na, L, na, axes,
                                     CN_FFT_NORM_BACKWARD);
  if (st == CN_OK)
    st = cn_multiply(&prod, fx, fk, NULL);
  if (st == CN_OK)
    st = (cplx ? cn_ifftn : cn_irfftn)(&full, prod, na, L, na, axes,
                                       CN_FFT_NORM_BACKWARD);
  if (st == CN_OK)
    st = cn_slice(&part, full, g->nd, start, stop, step);
  if (st == CN_OK && !cn_is_float(rt) && !cplx)
    st = cn_rint(&rnd, part, NULL);
  if (st == CN_OK)
    st = cn_astype((cn_array *)out, rnd ? rnd : part, rt, 1);
  cn_array_release(xw);
  cn_array_release(kw);
  cn_array_release(fx);
  cn_array_release(fk);
  cn_array_release(prod);
  cn_array_release(full);
  cn_array_release(part);
  cn_array_release(rnd);
  return st;
}

/* ---- method choice ------------------------------------------------------- */

/* Products of the direct sum against butterflies of three FFTs of the
 * padded size. On the CPU the two cost the same near direct = 2.5 *
 * fft_cost for 1-d inputs (benchmarks/bench_signal.py); n-d inputs use
 * the same ratio, not measured separately. The FFT is taken from 4 *
 * fft_cost, since its rounding error grows with the largest values where
 * the direct sum's does not. */
static bool fft_pays(const conv_geom *g, bool cplx) {
  double direct = 1, L = 1;
  for (int32_t d = 0; d < g->nd; d++) {
    direct *= (double)g->os[d] * (double)g->ks[d];
    L *= (double)cn_fft_good_size(g->xs[d] + g->ks[d] - 1);
  }
  double fft_cost = 3.0 * L * log2(L > 2 ? L : 2) * (cplx ? 2.0 : 1.0);
  return direct * (cplx ? 4.0 : 1.0) > 4.0 * fft_cost;
}

/* ---- shared helpers ---------------------------------------------------- */

/* Smallest 2^a 3^b 5^c >= n: sizes every FFT library does fast. */
int64_t cn_fft_good_size(int64_t n) {
  int64_t best = INT64_MAX;
  for (int64_t p5 = 1; p5 < best; p5 *= 5) {
    for (int64_t p35 = p5; p35 < best; p35 *= 3) {
      int64_t v = p35;
      while (v < n)
        v *= 2;
      if (v < best)
        best = v;
      if (p35 >= n)
        break;
    }
    if (p5 >= n)
      break;
  }
  return best;
}

cn_status cn_all_finite(bool *out, const cn_array_s *a) {
  cn_array_s *f = NULL, *all = NULL;
  cn_status st = cn_isfinite(&f, (cn_array)a, NULL);
  if (st == CN_OK)
    st = cn_all(&all, f, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL);
  cn_scalar s = {0};
  if (st == CN_OK)
    st = cn_item(&s, all);
  cn_array_release(f);
  cn_array_release(all);
  if (st == CN_OK)
    *out = s.i != 0;
  return st;
}

/* ---- entry points -------------------------------------------------------- */

/* Checks shared by the entry points; *rt the promoted dtype. */
static cn_status conv_check(cn_dtype *rt, cn_array *out, cn_array in1,
                            cn_array in2, int32_t mode, const char *fn) {
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(in1, fn, "in1");
  CN_CHECK_ARRAY(in2, fn, "in2");
  if (mode < CN_SIGNAL_FULL || mode > CN_SIGNAL_VALID)
    return cn_error(CN_ERR_VALUE,
                    "%s: acceptable mode flags are 'valid', 'same', or "
                    "'full' (got %d)",
                    fn, (int)mode);
  if (in1->ndim != in2->ndim)
    return cn_error(CN_ERR_VALUE,
                    "%s: in1 and in2 should have the same dimensionality",
                    fn);
  const cn_array_s *devs[2] = {in1, in2};
  cn_status st = cn_same_device(2, devs, fn);
  if (st == CN_OK)
    st = cn_result_type(rt, in1->dtype, in2->dtype);
  return st;
}

/* An empty 1-d array of dt on like's device. */
static cn_status empty_result(cn_array *out, const cn_array_s *like,
                              cn_dtype dt) {
  int64_t zero = 0;
  return cn_new_on((cn_array_s **)out, like, dt, 1, &zero);
}

static cn_status convolve_impl(cn_array *out, cn_array in1, cn_array in2,
                               int32_t mode, int32_t method, const char *fn) {
  cn_dtype rt;
  cn_status st = conv_check(&rt, out, in1, in2, mode, fn);
  if (st != CN_OK)
    return st;
  if (method < CN_SIGNAL_AUTO || method > CN_SIGNAL_FFT)
    return cn_error(CN_ERR_VALUE,
                    "%s: acceptable method flags are 'auto', 'direct', or "
                    "'fft' (got %d)",
                    fn, (int)method);
  if (method == CN_SIGNAL_FFT && rt == CN_BOOL)
    return cn_error(CN_ERR_VALUE, "%s: method 'fft' does not take bool", fn);
  if (in1->ndim == 0)
    return cn_multiply(out, in1, in2, NULL);
  if (in1->size == 0 || in2->size == 0)
    return empty_result(out, in1, rt);
  bool all_axes[CN_MAX_DIMS];
  for (int32_t d = 0; d < in1->ndim; d++)
    all_axes[d] = true;
  bool swap = false;
  if (mode == CN_SIGNAL_VALID &&
      (st = valid_swap(&swap, in1, in2, all_axes, fn)) != CN_OK)
    return st;
  const cn_array_s *x = swap ? in2 : in1, *k = swap ? in1 : in2;
  conv_geom g = {.nd = in1->ndim};
  for (int32_t d = 0; d < g.nd; d++)
    conv_geom_axis(&g, d, x->shape[d], k->shape[d], mode);
  bool inexact = cn_is_float(rt) || cn_is_complex(rt);
  bool fft = method == CN_SIGNAL_FFT;
  if (method == CN_SIGNAL_AUTO && inexact && fft_pays(&g, cn_is_complex(rt))) {
    /* one inf or NaN would spread over every FFT output */
    bool f1 = false, f2 = false;
    st = cn_all_finite(&f1, x);
    if (st == CN_OK)
      st = cn_all_finite(&f2, k);
    fft = f1 && f2;
  }
  if (st == CN_OK)
    st = fft ? conv_fft((cn_array_s **)out, x, k, &g, all_axes, rt)
             : conv_direct((cn_array_s **)out, x, k, &g, rt);
  return st == CN_OK ? CN_OK : cn_error_prefix(st, fn);
}

cn_status cn_signal_convolve(cn_array *out, cn_array in1, cn_array in2,
                             int32_t mode, int32_t method) {
  return convolve_impl(out, in1, in2, mode, method, "cn_signal_convolve");
}

cn_status cn_signal_correlate(cn_array *out, cn_array in1, cn_array in2,
                              int32_t mode, int32_t method) {
  const char *fn = "cn_signal_correlate";
  CN_CHECK_ARRAY(in2, fn, "in2");
  cn_array_s *f = NULL, *c = NULL;
  cn_status st = in2->ndim == 0 ? (cn_array_retain(in2), f = in2, CN_OK)
                                : cn_flip(&f, in2, -1, NULL);
  if (st == CN_OK && cn_is_complex(in2->dtype))
    st = cn_conj(&c, f, NULL);
  if (st == CN_OK)
    st = convolve_impl(out, in1, c ? c : f, mode, method, fn);
  cn_array_release(f);
  cn_array_release(c);
  return st;
}

cn_status cn_fftconvolve(cn_array *out, cn_array in1, cn_array in2,
                         int32_t mode, int32_t naxes, const int32_t *axes) {
  const char *fn = "cn_fftconvolve";
  cn_dtype rt;
  cn_status st = conv_check(&rt, out, in1, in2, mode, fn);
  if (st != CN_OK)
    return st;
  bool conv_axis[CN_MAX_DIMS] = {false};
  uint64_t mask = 0;
  if (naxes < 0 || !axes)
    mask = in1->ndim ? (~UINT64_C(0) >> (64 - in1->ndim)) : 0;
  else if ((st = cn_axes_mask(&mask, naxes, axes, in1->ndim, fn)) != CN_OK)
    return st;
  for (int32_t d = 0; d < in1->ndim; d++)
    conv_axis[d] = (mask >> d) & 1;
  if (!cn_is_complex(rt)) /* SciPy's FFT result is floating */
    rt = rt == CN_FLOAT32 ? CN_FLOAT32 : CN_FLOAT64;
  if (in1->ndim == 0) {
    cn_array_s *p = NULL;
    st = cn_multiply(&p, in1, in2, NULL);
    if (st == CN_OK)
      st = cn_astype(out, p, rt, 0);
    cn_array_release(p);
    return st;
  }
  if (in1->size == 0 || in2->size == 0)
    return empty_result(out, in1, rt);
  for (int32_t d = 0; d < in1->ndim; d++)
    if (!conv_axis[d] && in1->shape[d] != in2->shape[d] &&
        in1->shape[d] != 1 && in2->shape[d] != 1)
      return cn_error(CN_ERR_VALUE,
                      "%s: incompatible shapes for in1 and in2: extents %lld "
                      "and %lld on axis %d",
                      fn, (long long)in1->shape[d], (long long)in2->shape[d],
                      (int)d);
  bool swap = false;
  if (mode == CN_SIGNAL_VALID &&
      (st = valid_swap(&swap, in1, in2, conv_axis, fn)) != CN_OK)
    return st;
  const cn_array_s *x = swap ? in2 : in1, *k = swap ? in1 : in2;
  conv_geom g = {.nd = in1->ndim};
  for (int32_t d = 0; d < g.nd; d++) {
    if (conv_axis[d])
      conv_geom_axis(&g, d, x->shape[d], k->shape[d], mode);
    else
      g.xs[d] = g.ks[d] = g.os[d] = 1, g.off[d] = 0;
  }
  st = conv_fft((cn_array_s **)out, x, k, &g, conv_axis, rt);
  return st == CN_OK ? CN_OK : cn_error_prefix(st, fn);
}
