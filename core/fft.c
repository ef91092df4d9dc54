/* numpy.fft entry points: argument rules (n / s, axes, norm), dtype
 * resolution, cropping and zero-padding, then one guru-style descriptor for
 * the backend's fft slot, which transforms every requested axis at once
 * straight from the input's strides. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linalg/util.h"

typedef enum fft_op { OP_C2C, OP_R2C, OP_C2R } fft_op;

static bool single_precision(cn_dtype dt) {
  return dt == CN_FLOAT16 || dt == CN_FLOAT32 || dt == CN_COMPLEX64;
}

/* Resolves the axes and lengths of an n-d transform. default_axes2 gives
 * fft2's (-2, -1). */
static cn_status fft_axes(int32_t *naxes_out, int32_t *ax, int64_t *len,
                          const cn_array_s *a, int32_t ns, const int64_t *s,
                          int32_t naxes, const int32_t *axes,
                          bool default_axes2, fft_op op, const char *fn) {
  if (ns < 0 || (ns > 0 && s == NULL))
    return cn_error(CN_ERR_VALUE, "%s: invalid shape argument (ns %d)", fn,
                    (int)ns);
  if (naxes < -1 || (naxes > 0 && axes == NULL))
    return cn_error(CN_ERR_VALUE, "%s: invalid axes argument (naxes %d)", fn,
                    (int)naxes);
  if (s == NULL)
    ns = 0;
  int32_t na;
  int32_t raw[CN_MAX_DIMS];
  if (naxes >= 0 && axes != NULL) {
    if (ns > 0 && ns != naxes)
      return cn_error(CN_ERR_VALUE,
                      "%s: shape and axes have different lengths (%d and %d)",
                      fn, (int)ns, (int)naxes);
    if (naxes > CN_MAX_DIMS)
      return cn_error(CN_ERR_VALUE, "%s: too many axes (%d)", fn, (int)naxes);
    na = naxes;
    memcpy(raw, axes, sizeof(int32_t) * (size_t)na);
  } else if (default_axes2) {
    if (ns > 2)
      return cn_error(CN_ERR_VALUE,
                      "%s: %d lengths given for the default 2 axes", fn,
                      (int)ns);
    na = ns > 0 ? ns : 2;
    for (int32_t i = 0; i < na; i++)
      raw[i] = i - na;
  } else if (ns > 0) {
    if (ns > a->ndim)
      return cn_error(CN_ERR_VALUE,
                      "%s: %d lengths given for an array of %d dimensions", fn,
                      (int)ns, (int)a->ndim);
    na = ns;
    for (int32_t i = 0; i < na; i++)
      raw[i] = i - na;
  } else {
    na = a->ndim;
    for (int32_t i = 0; i < na; i++)
      raw[i] = i;
  }
  uint64_t seen = 0;
  for (int32_t i = 0; i < na; i++) {
    cn_status st = cn_normalize_axis(&ax[i], raw[i], a->ndim, fn);
    if (st != CN_OK)
      return st;
    if ((seen >> ax[i]) & 1)
      return cn_error(CN_ERR_VALUE, "%s: repeated axis %d", fn, (int)raw[i]);
    seen |= (uint64_t)1 << ax[i];
  }
  if (na == 0 && op != OP_C2C)
    return cn_error(CN_ERR_VALUE, "%s: at least one axis is required", fn);
  for (int32_t i = 0; i < na; i++) {
    int64_t m = a->shape[ax[i]];
    bool last_c2r = op == OP_C2R && i == na - 1;
    int64_t n = ns > 0 ? s[i] : (last_c2r ? 2 * (m - 1) : m);
    if (ns > 0 && s[i] == -1)
      n = last_c2r ? 2 * (m - 1) : m; /* NumPy's "-1 means no change" */
    if (n < 1)
      return cn_error(CN_ERR_VALUE,
                      "%s: invalid number of data points (%lld) specified "
                      "for axis %d",
                      fn, (long long)n, (int)ax[i]);
    len[i] = n;
  }
  *naxes_out = na;
  return CN_OK;
}

static cn_status fft_core(cn_array *out, cn_array a, int32_t ns,
                          const int64_t *s, int32_t naxes, const int32_t *axes,
                          cn_fft_norm norm, fft_op op, bool inverse,
                          bool conj_in, bool default_axes2, const char *fn) {
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (!cn_dtype_is_valid(a->dtype))
    return cn_error(CN_ERR_TYPE, "%s: argument 'a' has an invalid dtype", fn);
  if (norm != CN_FFT_NORM_BACKWARD && norm != CN_FFT_NORM_ORTHO &&
      norm != CN_FFT_NORM_FORWARD)
    return cn_error(CN_ERR_VALUE,
                    "%s: invalid norm value %d; should be backward, ortho or "
                    "forward",
                    fn, (int)norm);
  if (op == OP_R2C && cn_is_complex(a->dtype))
    return cn_error(CN_ERR_TYPE,
                    "%s: input of a real transform must be real (got %s)", fn,
                    cn_dtype_name(a->dtype));
  int32_t na = 0, ax[CN_MAX_DIMS];
  int64_t len[CN_MAX_DIMS];
  cn_status st =
      fft_axes(&na, ax, len, a, ns, s, naxes, axes, default_axes2, op, fn);
  if (st != CN_OK)
    return st;
  CN_REQUIRE_SLOT(slot, cn_backend_of(a), fft, fn);
  cn_dtype cdt = single_precision(a->dtype) ? CN_COMPLEX64 : CN_COMPLEX128;
  cn_dtype rdt = cn_real_dtype(cdt);
  cn_dtype in_dt = op == OP_R2C ? rdt : cdt;
  cn_dtype out_dt = op == OP_C2R ? rdt : cdt;
  /* Input extents the transform reads, and the output's. */
  int64_t ishape[CN_MAX_DIMS], oshape[CN_MAX_DIMS];
  memcpy(ishape, a->shape, sizeof(int64_t) * (size_t)a->ndim);
  memcpy(oshape, a->shape, sizeof(int64_t) * (size_t)a->ndim);
  for (int32_t i = 0; i < na; i++) {
    bool last = i == na - 1;
    ishape[ax[i]] = (op == OP_C2R && last) ? len[i] / 2 + 1 : len[i];
    oshape[ax[i]] = (op == OP_R2C && last) ? len[i] / 2 + 1 : len[i];
  }
  cn_la_scope sc = {0};
  cn_array_s *x = a, *res = NULL;
  bool fresh = false; /* x is our own C-contiguous copy */
  bool need_pad = false;
  for (int32_t d = 0; d < a->ndim; d++)
    need_pad |= ishape[d] > a->shape[d];
  if (need_pad) {
    cn_array_s *z = NULL, *crop = NULL, *dstv = NULL;
    int64_t start[CN_MAX_DIMS], stop[CN_MAX_DIMS], step[CN_MAX_DIMS];
    CN_LA_TRY(cn_la_new(&z, a, in_dt, a->ndim, ishape));
    cn_la_keep(&sc, z);
    CN_LA_TRY(z->size ? cn_fill(z, cn_scalar_int(0)) : CN_OK);
    for (int32_t d = 0; d < a->ndim; d++) {
      start[d] = 0;
      step[d] = 1;
      stop[d] = ishape[d] < a->shape[d] ? ishape[d] : a->shape[d];
    }
    CN_LA_TRY(cn_slice(&crop, a, a->ndim, start, stop, step));
    cn_la_keep(&sc, crop);
    CN_LA_TRY(cn_slice(&dstv, z, a->ndim, start, stop, step));
    cn_la_keep(&sc, dstv);
    CN_LA_TRY(dstv->size ? cn_assign(dstv, crop) : CN_OK);
    x = z;
    fresh = true;
  } else {
    bool crop = false;
    for (int32_t d = 0; d < a->ndim; d++)
      crop |= ishape[d] < a->shape[d];
    if (crop) {
      int64_t start[CN_MAX_DIMS], step[CN_MAX_DIMS];
      for (int32_t d = 0; d < a->ndim; d++) {
        start[d] = 0;
        step[d] = 1;
      }
      cn_array_s *v = NULL;
      CN_LA_TRY(cn_slice(&v, a, a->ndim, start, ishape, step));
      x = cn_la_keep(&sc, v);
    }
    if (x->dtype != in_dt) {
      cn_array_s *c = NULL;
      CN_LA_TRY(cn_astype(&c, x, in_dt, 1));
      x = cn_la_keep(&sc, c);
      fresh = cn_array_is_c_contig(x);
    }
  }
  if (conj_in) {
    cn_array_s *c = NULL;
    CN_LA_TRY(cn_conj(&c, x, NULL));
    x = cn_la_keep(&sc, c);
    fresh = cn_array_is_c_contig(x);
  }
  if (op == OP_C2R && !fresh) {
    /* FFTW's multi-dimensional c2r overwrites its input. */
    cn_array_s *c = NULL;
    CN_LA_TRY(cn_copy(&c, x, CN_ORDER_C));
    x = cn_la_keep(&sc, c);
    fresh = true;
  }
  /* A fresh complex copy of the output's shape is transformed in place. */
  bool inplace =
      op == OP_C2C && fresh && x->dtype == out_dt && cn_array_is_c_contig(x);
  if (inplace) {
    res = x;
    cn_array_retain(res);
  } else {
    CN_LA_TRY(cn_la_new(&res, a, out_dt, a->ndim, oshape));
  }
  cn_la_keep(&sc, res);
  if (res->size > 0) {
    cn_fft_desc d;
    memset(&d, 0, sizeof d);
    d.kind = op == OP_C2C ? CN_FFT_C2C : op == OP_R2C ? CN_FFT_R2C : CN_FFT_C2R;
    d.dtype = cdt;
    d.sign = inverse ? 1 : -1;
    d.rank = na;
    double nlog = 1;
    for (int32_t i = 0; i < na; i++) {
      d.n[i] = len[i];
      d.is[i] = x->strides[ax[i]];
      d.os[i] = res->strides[ax[i]];
      nlog *= (double)len[i];
    }
    bool is_ax[CN_MAX_DIMS] = {false};
    for (int32_t i = 0; i < na; i++)
      is_ax[ax[i]] = true;
    for (int32_t dd = 0; dd < a->ndim; dd++)
      if (!is_ax[dd] && oshape[dd] != 1) {
        d.hn[d.howmany_rank] = oshape[dd];
        d.his[d.howmany_rank] = x->strides[dd];
        d.hos[d.howmany_rank] = res->strides[dd];
        d.howmany_rank++;
      }
    d.in = x->data;
    d.out = res->data;
    d.out_count = res->size;
    switch (norm) {
    case CN_FFT_NORM_ORTHO:
      d.scale = 1.0 / sqrt(nlog);
      break;
    case CN_FFT_NORM_FORWARD:
      d.scale = inverse ? 1.0 : 1.0 / nlog;
      break;
    default:
      d.scale = inverse ? 1.0 / nlog : 1.0;
      break;
    }
    if (na == 0)
      d.scale = 1.0;
    if (na == 0) {
      /* No axes: NumPy returns the input converted (a copy). */
      if (!inplace)
        CN_LA_TRY(cn_assign(res, x));
    } else {
      CN_LA_TRY(slot(&d));
    }
  }
  if (op == OP_C2R && a->dtype == CN_FLOAT16) {
    /* NumPy gives a real float16 input's c2r result (irfft, hfft) in
     * float16: computed in float32, rounded once */
    cn_array_s *r16 = NULL;
    CN_LA_TRY(cn_astype(&r16, res, CN_FLOAT16, 1));
    res = cn_la_keep(&sc, r16);
  }
  cn_array_retain(res);
  *out = res;
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}

/* 1-d forms are the n-d core on one axis. */
#define FFT1(name, op, inv, conj, swap)                                        \
  cn_status name(cn_array *out, cn_array a, int64_t n, int32_t axis,           \
                 cn_fft_norm norm) {                                           \
    int32_t ns = n == CN_FFT_N_NONE ? 0 : 1;                                   \
    if (swap && norm == CN_FFT_NORM_BACKWARD)                                  \
      norm = CN_FFT_NORM_FORWARD;                                              \
    else if (swap && norm == CN_FFT_NORM_FORWARD)                              \
      norm = CN_FFT_NORM_BACKWARD;                                             \
    if (n != CN_FFT_N_NONE && n < 1)                                           \
      return cn_error(CN_ERR_VALUE,                                            \
                      #name ": invalid number of data points (%lld) "          \
                            "specified",                                       \
                      (long long)n);                                           \
    return fft_core(out, a, ns, ns ? &n : NULL, 1, &axis, norm, op, inv, conj, \
                    false, #name);                                             \
  }
FFT1(cn_fft, OP_C2C, false, false, false)
FFT1(cn_ifft, OP_C2C, true, false, false)
FFT1(cn_rfft, OP_R2C, false, false, false)
FFT1(cn_irfft, OP_C2R, true, false, false)
/* hfft(a) = irfft(conj(a)) with the norm's direction swapped. */
FFT1(cn_hfft, OP_C2R, true, true, true)

cn_status cn_ihfft(cn_array *out, cn_array a, int64_t n, int32_t axis,
                   cn_fft_norm norm) {
  /* ihfft(a) = conj(rfft(a)) with the norm's direction swapped. */
  cn_array_s *r = NULL;
  if (norm == CN_FFT_NORM_BACKWARD)
    norm = CN_FFT_NORM_FORWARD;
  else if (norm == CN_FFT_NORM_FORWARD)
    norm = CN_FFT_NORM_BACKWARD;
  if (n != CN_FFT_N_NONE && n < 1)
    return cn_error(CN_ERR_VALUE,
                    "cn_ihfft: invalid number of data points (%lld) specified",
                    (long long)n);
  int32_t ns = n == CN_FFT_N_NONE ? 0 : 1;
  cn_status st = fft_core(&r, a, ns, ns ? &n : NULL, 1, &axis, norm, OP_R2C,
                          false, false, false, "cn_ihfft");
  if (st != CN_OK)
    return st;
  st = cn_conj(out, r, NULL);
  cn_array_release(r);
  return st == CN_OK ? st : cn_error_prefix(st, "cn_ihfft");
}

#define FFTN(name, op, inv, two)                                               \
  cn_status name(cn_array *out, cn_array a, int32_t ns, const int64_t *s,      \
                 int32_t naxes, const int32_t *axes, cn_fft_norm norm) {       \
    return fft_core(out, a, ns, s, naxes, axes, norm, op, inv, false, two,     \
                    #name);                                                    \
  }
FFTN(cn_fftn, OP_C2C, false, false)
FFTN(cn_ifftn, OP_C2C, true, false)
FFTN(cn_rfftn, OP_R2C, false, false)
FFTN(cn_irfftn, OP_C2R, true, false)
FFTN(cn_fft2, OP_C2C, false, true)
FFTN(cn_ifft2, OP_C2C, true, true)
FFTN(cn_rfft2, OP_R2C, false, true)
FFTN(cn_irfft2, OP_C2R, true, true)

static cn_status freq(cn_array *out, int64_t n, double d, bool half,
                      const char *fn) {
  CN_CHECK_OUT(out, fn);
  if (n < 1)
    return cn_error(CN_ERR_VALUE,
                    "%s: argument 'n' must be positive (got %lld)", fn,
                    (long long)n);
  if (d == 0 || isnan(d))
    return cn_error(CN_ERR_VALUE, "%s: argument 'd' must be non-zero (got %g)",
                    fn, d);
  int64_t m = half ? n / 2 + 1 : n;
  double *v = cn_malloc(sizeof(double) * (size_t)m);
  if (v == NULL)
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  double val = 1.0 / ((double)n * d);
  for (int64_t i = 0; i < m; i++) {
    int64_t k = (half || i < (n + 1) / 2) ? i : i - n;
    v[i] = (double)k * val;
  }
  cn_status st = cn_from_host(out, v, 0, (int64_t)sizeof(double) * m, 1, &m,
                              NULL, CN_FLOAT64);
  free(v);
  return st == CN_OK ? st : cn_error_prefix(st, fn);
}

cn_status cn_fftfreq(cn_array *out, int64_t n, double d) {
  return freq(out, n, d, false, "cn_fftfreq");
}

cn_status cn_rfftfreq(cn_array *out, int64_t n, double d) {
  return freq(out, n, d, true, "cn_rfftfreq");
}

/* Rolls each listed axis by shift(n) = n/2 (fftshift) or -(n/2). */
static cn_status shift(cn_array *out, cn_array a, int32_t naxes,
                       const int32_t *axes, bool inverse, const char *fn) {
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  uint64_t mask = 0;
  cn_status st =
      cn_axes_mask(&mask, naxes == -1 ? CN_ALL_AXES : naxes, axes, a->ndim, fn);
  if (st != CN_OK)
    return st;
  cn_array_s *res = NULL;
  st = cn_la_new(&res, a, a->dtype, a->ndim, a->shape);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  /* Block copies: each output block (per axis: the two halves) reads the
   * matching input block. 2^k blocks for k rolled axes. */
  int32_t list[CN_MAX_DIMS], k = 0;
  for (int32_t d = 0; d < a->ndim; d++)
    if ((mask >> d) & 1 && a->shape[d] > 1)
      list[k++] = d;
  if (a->size > 0) {
    for (uint64_t blk = 0; blk < ((uint64_t)1 << k) && st == CN_OK; blk++) {
      int64_t s0[CN_MAX_DIMS], s1[CN_MAX_DIMS], d0[CN_MAX_DIMS],
          d1[CN_MAX_DIMS], step[CN_MAX_DIMS];
      bool empty = false;
      for (int32_t d = 0; d < a->ndim; d++) {
        s0[d] = d0[d] = 0;
        s1[d] = d1[d] = a->shape[d];
        step[d] = 1;
      }
      for (int32_t i = 0; i < k; i++) {
        int32_t d = list[i];
        int64_t n = a->shape[d];
        int64_t sh = inverse ? n - n / 2 : n / 2; /* roll by sh */
        /* out[(j + sh) % n] = in[j]: in[0:n-sh] -> out[sh:n],
         * in[n-sh:n] -> out[0:sh] */
        if ((blk >> i) & 1) {
          s0[d] = 0, s1[d] = n - sh, d0[d] = sh, d1[d] = n;
        } else {
          s0[d] = n - sh, s1[d] = n, d0[d] = 0, d1[d] = sh;
        }
        empty |= s1[d] <= s0[d];
      }
      if (empty)
        continue;
      cn_array_s *src = NULL, *dst = NULL;
      st = cn_slice(&src, a, a->ndim, s0, s1, step);
      if (st == CN_OK)
        st = cn_slice(&dst, res, a->ndim, d0, d1, step);
      if (st == CN_OK)
        st = cn_assign(dst, src);
      cn_array_release(src);
      cn_array_release(dst);
    }
  }
  if (st != CN_OK) {
    cn_array_release(res);
    return cn_error_prefix(st, fn);
  }
  *out = res;
  return CN_OK;
}

cn_status cn_fftshift(cn_array *out, cn_array a, int32_t naxes,
                      const int32_t *axes) {
  return shift(out, a, naxes, axes, false, "cn_fftshift");
}

cn_status cn_ifftshift(cn_array *out, cn_array a, int32_t naxes,
                       const int32_t *axes) {
  return shift(out, a, naxes, axes, true, "cn_ifftshift");
}
