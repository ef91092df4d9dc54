/* Creation functions, host transfer, copies and casts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/index.h"
#include "cunumpy/ufunc.h"
#include "cunumpy/view.h"
#include "cuda_api.h"
#include "internal.h"

#define CHECK_DTYPE(dt, fn)                                                    \
  do {                                                                         \
    if (!cn_dtype_is_valid(dt))                                                \
      return cn_error(CN_ERR_TYPE, "%s: invalid dtype 0x%x", fn,              \
                      (unsigned)(dt));                                         \
  } while (0)

static cn_status check_order(cn_order order, const char *fn) {
  if (order != CN_ORDER_C && order != CN_ORDER_F && order != CN_ORDER_A &&
      order != CN_ORDER_K)
    return cn_error(CN_ERR_VALUE, "%s: invalid order %d", fn, (int)order);
  return CN_OK;
}

/* New array on the active backend. */
static cn_status new_active(cn_array_s **out, cn_dtype dtype, int32_t ndim,
                            const int64_t *shape, cn_order order,
                            const char *fn) {
  CHECK_DTYPE(dtype, fn);
  cn_status st = check_order(order, fn);
  if (st != CN_OK)
    return st;
  int64_t size;
  st = cn_shape_size(&size, ndim, shape, cn_itemsize(dtype), fn);
  if (st != CN_OK)
    return st;
  const cn_backend *be = cn_active_backend();
  st = cn_array_new(out, be, be->device->current_device(), dtype, ndim, shape,
                    order == CN_ORDER_F ? CN_ORDER_F : CN_ORDER_C);
  return st == CN_OK ? st : cn_error_prefix(st, fn);
}

static cn_status fill_scalar(cn_array_s *a, cn_scalar v) {
  unsigned char bytes[16];
  cn_scalar_to_bytes(bytes, a->dtype, v);
  return cn_backend_of(a)->compute->fill(a, bytes);
}

/* Creates, then fills; releases on failure. */
static cn_status new_filled(cn_array *out, int32_t ndim, const int64_t *shape,
                            cn_scalar v, cn_dtype dtype, cn_order order,
                            const char *fn) {
  CN_CHECK_OUT(out, fn);
  cn_array_s *a = NULL;
  cn_status st = new_active(&a, dtype, ndim, shape, order, fn);
  if (st != CN_OK)
    return st;
  st = fill_scalar(a, v);
  if (st != CN_OK) {
    cn_array_release(a);
    return cn_error_prefix(st, fn);
  }
  *out = a;
  return CN_OK;
}

cn_status cn_empty(cn_array *out, int32_t ndim, const int64_t *shape,
                   cn_dtype dtype, cn_order order) {
  CN_CHECK_OUT(out, "cn_empty");
  return new_active(out, dtype, ndim, shape, order, "cn_empty");
}

cn_status cn_zeros(cn_array *out, int32_t ndim, const int64_t *shape,
                   cn_dtype dtype, cn_order order) {
  return new_filled(out, ndim, shape, cn_scalar_int(0), dtype, order,
                    "cn_zeros");
}

cn_status cn_ones(cn_array *out, int32_t ndim, const int64_t *shape,
                  cn_dtype dtype, cn_order order) {
  return new_filled(out, ndim, shape, cn_scalar_int(1), dtype, order,
                    "cn_ones");
}

static cn_status check_scalar(cn_scalar v, const char *fn) {
  if (v.kind < CN_SCALAR_BOOL || v.kind > CN_SCALAR_COMPLEX)
    return cn_error(CN_ERR_VALUE, "%s: invalid scalar kind %d", fn,
                    (int)v.kind);
  return CN_OK;
}

cn_status cn_full(cn_array *out, int32_t ndim, const int64_t *shape,
                  cn_scalar value, cn_dtype dtype, cn_order order) {
  cn_status st = check_scalar(value, "cn_full");
  if (st != CN_OK)
    return st;
  return new_filled(out, ndim, shape, value, dtype, order, "cn_full");
}

static cn_status like(cn_array *out, cn_array proto, cn_dtype dtype,
                      const cn_scalar *value, const char *fn) {
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(proto, fn, "proto");
  if (dtype == CN_DTYPE_DEFAULT)
    dtype = proto->dtype;
  CHECK_DTYPE(dtype, fn);
  if (value != NULL) {
    cn_status st = check_scalar(*value, fn);
    if (st != CN_OK)
      return st;
  }
  cn_array_s *a = NULL;
  cn_status st = cn_array_new_like(&a, proto, dtype);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  if (value != NULL && (st = fill_scalar(a, *value)) != CN_OK) {
    cn_array_release(a);
    return cn_error_prefix(st, fn);
  }
  *out = a;
  return CN_OK;
}

cn_status cn_empty_like(cn_array *out, cn_array proto, cn_dtype dtype) {
  return like(out, proto, dtype, NULL, "cn_empty_like");
}
cn_status cn_zeros_like(cn_array *out, cn_array proto, cn_dtype dtype) {
  cn_scalar z = cn_scalar_int(0);
  return like(out, proto, dtype, &z, "cn_zeros_like");
}
cn_status cn_ones_like(cn_array *out, cn_array proto, cn_dtype dtype) {
  cn_scalar o = cn_scalar_int(1);
  return like(out, proto, dtype, &o, "cn_ones_like");
}
cn_status cn_full_like(cn_array *out, cn_array proto, cn_scalar value,
                       cn_dtype dtype) {
  return like(out, proto, dtype, &value, "cn_full_like");
}

/* ---- sequences ----------------------------------------------------------
 * NumPy's arange sets the first two values in the dtype and fills the rest
 * with out[i] = first + i * (second - first) in the dtype's arithmetic
 * (float32 in float, integers wrapping). linspace computes i * step + start
 * in float64, sets the last value to stop exactly, floors for integer
 * dtypes and casts. On the CPU a direct loop does it; on any other backend
 * the same formula runs as elementwise ops on an index sequence made there
 * (flatnonzero of ones), which CUNUMPY_COMPOSED_SEQUENCES=1 also selects on
 * the CPU so that the tests cover it. */

static bool composed_sequences(void) {
  static int cached = -1;
  int v = __atomic_load_n(&cached, __ATOMIC_RELAXED);
  if (v < 0) {
    const char *e = getenv("CUNUMPY_COMPOSED_SEQUENCES");
    v = e != NULL && e[0] != 0 && strcmp(e, "0") != 0;
    __atomic_store_n(&cached, v, __ATOMIC_RELAXED);
  }
  return v != 0 || cn_active_backend() != cn_cpu_backend();
}

/* The arithmetic a sequence is computed in before its cast to the dtype. */
typedef enum { SEQ_F64, SEQ_F32, SEQ_I64 } seq_kind;

typedef struct {
  seq_kind kind;
  /* first, delta and second (NumPy stores the second value itself) */
  double f, d, s;      /* SEQ_F64 */
  float ff, fd, fs;    /* SEQ_F32 */
  int64_t i0, id, is;  /* SEQ_I64 (wrapping) */
} seq_args;

static cn_dtype seq_dtype(seq_kind k) {
  return k == SEQ_F64 ? CN_FLOAT64 : k == SEQ_F32 ? CN_FLOAT32 : CN_INT64;
}

/* 0-d array on the active backend holding the bytes of one value. */
static cn_status scalar_active(cn_array_s **out, cn_dtype dt,
                               const void *bytes, const char *fn) {
  cn_status st = new_active(out, dt, 0, NULL, CN_ORDER_C, fn);
  if (st != CN_OK)
    return st;
  st = cn_backend_of(*out)->compute->fill(*out, bytes);
  if (st != CN_OK) {
    cn_array_release(*out);
    *out = NULL;
  }
  return st;
}

/* int64 0, 1, ..., n - 1 on the active backend, by its own slots. */
static cn_status iota_active(cn_array_s **out, int64_t n, const char *fn) {
  cn_array_s *ones = NULL;
  cn_status st = cn_ones(&ones, 1, &n, CN_BOOL, CN_ORDER_C);
  if (st == CN_OK)
    st = cn_flatnonzero(out, ones);
  cn_array_release(ones);
  return st == CN_OK ? st : cn_error_prefix(st, fn);
}

/* Replaces *cur by op(*cur, v) for a 0-d v of *cur's dtype. */
typedef cn_status (*binary_fn)(cn_array *, cn_array, cn_array, cn_array);
static cn_status apply_scalar(cn_array_s **cur, binary_fn op, const void *v) {
  cn_array_s *s = NULL, *r = NULL;
  cn_status st = scalar_active(&s, (*cur)->dtype, v, "sequence");
  if (st == CN_OK)
    st = op(&r, *cur, s, NULL);
  cn_array_release(s);
  if (st != CN_OK)
    return st;
  cn_array_release(*cur);
  *cur = r;
  return CN_OK;
}

/* *cur cast to dtype (a no-op when it has it). */
static cn_status cast_to(cn_array_s **cur, cn_dtype dtype) {
  if ((*cur)->dtype == dtype)
    return CN_OK;
  cn_array_s *r = NULL;
  cn_status st = cn_astype(&r, *cur, dtype, 1);
  if (st != CN_OK)
    return st;
  cn_array_release(*cur);
  *cur = r;
  return CN_OK;
}

/* first + i * delta for i < n as elementwise ops where the data lives. */
static cn_status arange_composed(cn_array_s **out, int64_t n,
                                 const seq_args *a, cn_dtype dtype,
                                 const char *fn) {
  cn_array_s *x = NULL;
  cn_status st = iota_active(&x, n, fn);
  if (st == CN_OK)
    st = cast_to(&x, seq_dtype(a->kind));
  const void *d = a->kind == SEQ_F64   ? (const void *)&a->d
                  : a->kind == SEQ_F32 ? (const void *)&a->fd
                                       : (const void *)&a->id;
  const void *f = a->kind == SEQ_F64   ? (const void *)&a->f
                  : a->kind == SEQ_F32 ? (const void *)&a->ff
                                       : (const void *)&a->i0;
  if (st == CN_OK)
    st = apply_scalar(&x, cn_multiply, d);
  if (st == CN_OK)
    st = apply_scalar(&x, cn_add, f);
  if (st == CN_OK && n > 1) {
    const void *s = a->kind == SEQ_F64   ? (const void *)&a->s
                    : a->kind == SEQ_F32 ? (const void *)&a->fs
                                         : (const void *)&a->is;
    cn_array_s *second = NULL;
    st = cn_slice_axis(&second, x, 0, 1, 2, 1);
    if (st == CN_OK)
      st = cn_backend_of(x)->compute->fill(second, s);
    cn_array_release(second);
  }
  if (st == CN_OK)
    st = cast_to(&x, dtype);
  if (st != CN_OK) {
    cn_array_release(x);
    return cn_error_prefix(st, fn);
  }
  *out = x;
  return CN_OK;
}

/* A host array of n values in dt, cast to dtype on the CPU. */
static cn_status host_cast(cn_array_s **out, cn_array_s *tmp, cn_dtype dtype,
                           const char *fn) {
  if (tmp->dtype == dtype) {
    *out = tmp;
    return CN_OK;
  }
  cn_array_s *res = NULL;
  cn_status st = cn_array_new(&res, cn_cpu_backend(), 0, dtype, 1,
                              tmp->shape, CN_ORDER_C);
  if (st == CN_OK)
    st = cn_cpu_backend()->compute->assign(res, tmp);
  cn_array_release(tmp);
  if (st != CN_OK) {
    cn_array_release(res);
    return cn_error_prefix(st, fn);
  }
  *out = res;
  return CN_OK;
}

static cn_status arange_direct(cn_array_s **out, int64_t n, const seq_args *a,
                               cn_dtype dtype, const char *fn) {
  cn_array_s *tmp = NULL;
  cn_status st = cn_array_new(&tmp, cn_cpu_backend(), 0, seq_dtype(a->kind),
                              1, &n, CN_ORDER_C);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  if (a->kind == SEQ_F64) {
    double *p = (double *)(void *)tmp->data;
    for (int64_t i = 0; i < n; i++) {
      double t = (double)i * a->d;
      p[i] = t + a->f;
    }
    if (n > 1)
      p[1] = a->s;
  } else if (a->kind == SEQ_F32) {
    float *p = (float *)(void *)tmp->data;
    for (int64_t i = 0; i < n; i++) {
      float t = (float)i * a->fd;
      p[i] = t + a->ff;
    }
    if (n > 1)
      p[1] = a->fs;
  } else {
    int64_t *p = (int64_t *)(void *)tmp->data;
    for (int64_t i = 0; i < n; i++)
      p[i] = (int64_t)((uint64_t)a->i0 + (uint64_t)i * (uint64_t)a->id);
    if (n > 1)
      p[1] = a->is;
  }
  return host_cast(out, tmp, dtype, fn);
}

static cn_status arange_build(cn_array *out, int64_t n, const seq_args *a,
                              cn_dtype dtype, const char *fn) {
  if (composed_sequences())
    return arange_composed(out, n, a, dtype, fn);
  return arange_direct(out, n, a, dtype, fn);
}

/* NumPy refuses bool sequences of more than two values (no fill rule);
 * the two are the truth of start and of start + step. */
static cn_status bool_sequence(cn_array *out, int64_t n, bool b0, bool b1,
                               const char *fn) {
  if (n > 2)
    return cn_error(CN_ERR_VALUE,
                    "%s: arange() is only supported for booleans when the "
                    "result has at most length 2 (length %lld)",
                    fn, (long long)n);
  cn_array_s *r = NULL;
  cn_status st = new_active(&r, CN_BOOL, 1, &n, CN_ORDER_C, fn);
  const uint8_t v0 = b0, v1 = b1;
  if (st == CN_OK && n > 0)
    st = cn_backend_of(r)->compute->fill(r, &v0);
  if (st == CN_OK && n == 2) {
    cn_array_s *last = NULL;
    st = cn_slice_axis(&last, r, 0, 1, 2, 1);
    if (st == CN_OK)
      st = cn_backend_of(r)->compute->fill(last, &v1);
    cn_array_release(last);
  }
  if (st != CN_OK) {
    cn_array_release(r);
    return cn_error_prefix(st, fn);
  }
  *out = r;
  return CN_OK;
}

/* v cast to dtype by the CPU's cast, then read back as int64 (NumPy sets
 * the first two values of an integer arange in the dtype). */
static cn_status int_in_dtype(int64_t *out, double v, cn_dtype dtype) {
  int64_t one = 1;
  cn_array_s *src = NULL, *mid = NULL, *dst = NULL;
  cn_status st = cn_array_new(&src, cn_cpu_backend(), 0, CN_FLOAT64, 1, &one,
                              CN_ORDER_C);
  if (st == CN_OK)
    st = cn_array_new(&mid, cn_cpu_backend(), 0, dtype, 1, &one, CN_ORDER_C);
  if (st == CN_OK)
    st = cn_array_new(&dst, cn_cpu_backend(), 0, CN_INT64, 1, &one,
                      CN_ORDER_C);
  if (st == CN_OK) {
    memcpy(src->data, &v, sizeof v);
    st = cn_cpu_backend()->compute->assign(mid, src);
  }
  if (st == CN_OK)
    st = cn_cpu_backend()->compute->assign(dst, mid);
  if (st == CN_OK)
    memcpy(out, dst->data, sizeof *out);
  cn_array_release(src);
  cn_array_release(mid);
  cn_array_release(dst);
  return st;
}

cn_status cn_arange(cn_array *out, double start, double stop, double step,
                    cn_dtype dtype) {
  const char *fn = "cn_arange";
  CN_CHECK_OUT(out, fn);
  if (dtype == CN_DTYPE_DEFAULT) dtype = CN_FLOAT64;
  CHECK_DTYPE(dtype, fn);
  if (step == 0)
    return cn_error(CN_ERR_VALUE, "cn_arange: step must not be zero");
  if (!isfinite(start) || !isfinite(stop) || !isfinite(step))
    return cn_error(CN_ERR_VALUE, "cn_arange: arguments must be finite "
                    "(start %g, stop %g, step %g)", start, stop, step);
  double len = ceil((stop - start) / step);
  if (!(len > 0)) len = 0;
  if (len > 9.0e18)
    return cn_error(CN_ERR_VALUE, "cn_arange: length %g is too large", len);
  int64_t n = (int64_t)len;
  double second = start + step;
  if (dtype == CN_BOOL)
    return bool_sequence(out, n, start != 0, second != 0, fn);
  seq_args a = {0};
  if (dtype == CN_FLOAT16) {
    /* NumPy's float16 fill: the first two values rounded to float16, the
     * rest first + i * (second - first) in float32 */
    char h[2];
    cn_scalar_to_bytes(h, CN_FLOAT16, cn_scalar_float(start));
    a.ff = (float)cn_scalar_from_bytes(h, CN_FLOAT16).re;
    cn_scalar_to_bytes(h, CN_FLOAT16, cn_scalar_float(second));
    a.fs = (float)cn_scalar_from_bytes(h, CN_FLOAT16).re;
    a.kind = SEQ_F32;
    a.fd = a.fs - a.ff;
  } else if (dtype == CN_FLOAT32 || dtype == CN_COMPLEX64) {
    a.kind = SEQ_F32;
    a.ff = (float)start;
    a.fs = (float)second;
    a.fd = a.fs - a.ff;
  } else if (cn_is_float(dtype) || cn_is_complex(dtype)) {
    a.kind = SEQ_F64;
    a.f = start;
    a.s = second;
    a.d = second - start;
  } else {
    a.kind = SEQ_I64;
    int64_t s = 0;
    cn_status st = int_in_dtype(&a.i0, start, dtype);
    if (st == CN_OK)
      st = int_in_dtype(&s, second, dtype);
    if (st != CN_OK)
      return cn_error_prefix(st, fn);
    a.is = s;
    a.id = (int64_t)((uint64_t)s - (uint64_t)a.i0);
  }
  return arange_build(out, n, &a, dtype, fn);
}

cn_status cn_arange_int(cn_array *out, int64_t start, int64_t stop,
                        int64_t step, cn_dtype dtype) {
  const char *fn = "cn_arange_int";
  CN_CHECK_OUT(out, fn);
  if (dtype == CN_DTYPE_DEFAULT) dtype = CN_INT64;
  CHECK_DTYPE(dtype, fn);
  if (step == 0)
    return cn_error(CN_ERR_VALUE, "cn_arange_int: step must not be zero");
  /* length = ceil((stop - start) / step) in exact 128-bit arithmetic */
  __int128 diff = (__int128)stop - (__int128)start;
  __int128 n = 0;
  if ((diff > 0 && step > 0) || (diff < 0 && step < 0)) {
    __int128 s = step;
    n = diff / s + ((diff % s) != 0);
  }
  if (n > INT64_MAX)
    return cn_error(CN_ERR_VALUE, "cn_arange_int: the length is too large");
  /* every value lies in [start, stop): start + i * step in wrapping int64
   * arithmetic is exact; its cast wraps to an integer dtype as NumPy's
   * does, rounds once to a float one and is each value's truth for bool */
  seq_args a = {0};
  a.kind = SEQ_I64;
  a.i0 = start;
  a.id = step;
  a.is = (int64_t)((uint64_t)start + (uint64_t)step);
  return arange_build(out, (int64_t)n, &a, dtype, fn);
}

/* NumPy's linspace in float64, before the cast to the dtype. */
typedef struct {
  int64_t div;
  double start, stop, step, delta;
  bool step_zero, fix_last, floor_it;
} linspace_args;

static double linspace_value(const linspace_args *l, int64_t i) {
  double y = (double)i;
  if (l->div > 0) {
    if (l->step_zero) {
      y = y / (double)l->div;
      y = y * l->delta;
    } else {
      y = y * l->step;
    }
  } else {
    y = y * l->delta;
  }
  return y + l->start;
}

static cn_status linspace_composed(cn_array_s **out, int64_t n,
                                   const linspace_args *l, cn_dtype dtype,
                                   const char *fn) {
  cn_array_s *y = NULL;
  cn_status st = iota_active(&y, n, fn);
  if (st == CN_OK)
    st = cast_to(&y, CN_FLOAT64);
  if (st == CN_OK && l->div > 0 && l->step_zero) {
    double dv = (double)l->div;
    st = apply_scalar(&y, cn_divide, &dv);
    if (st == CN_OK)
      st = apply_scalar(&y, cn_multiply, &l->delta);
  } else if (st == CN_OK) {
    st = apply_scalar(&y, cn_multiply, l->div > 0 ? &l->step : &l->delta);
  }
  if (st == CN_OK)
    st = apply_scalar(&y, cn_add, &l->start);
  if (st == CN_OK && l->fix_last) {
    cn_array_s *last = NULL;
    st = cn_slice_axis(&last, y, 0, n - 1, n, 1);
    if (st == CN_OK)
      st = cn_backend_of(y)->compute->fill(last, &l->stop);
    cn_array_release(last);
  }
  if (st == CN_OK && l->floor_it) {
    cn_array_s *r = NULL;
    st = cn_floor(&r, y, NULL);
    if (st == CN_OK) {
      cn_array_release(y);
      y = r;
    }
  }
  if (st == CN_OK)
    st = cast_to(&y, dtype);
  if (st != CN_OK) {
    cn_array_release(y);
    return cn_error_prefix(st, fn);
  }
  *out = y;
  return CN_OK;
}

static cn_status linspace_direct(cn_array_s **out, int64_t n,
                                 const linspace_args *l, cn_dtype dtype,
                                 const char *fn) {
  cn_array_s *tmp = NULL;
  cn_status st = cn_array_new(&tmp, cn_cpu_backend(), 0, CN_FLOAT64, 1, &n,
                              CN_ORDER_C);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  double *p = (double *)(void *)tmp->data;
  for (int64_t i = 0; i < n; i++)
    p[i] = linspace_value(l, i);
  if (l->fix_last)
    p[n - 1] = l->stop;
  if (l->floor_it)
    for (int64_t i = 0; i < n; i++)
      p[i] = floor(p[i]);
  return host_cast(out, tmp, dtype, fn);
}

cn_status cn_linspace(cn_array *out, double start, double stop, int64_t num,
                      int32_t endpoint, cn_dtype dtype) {
  const char *fn = "cn_linspace";
  CN_CHECK_OUT(out, fn);
  if (dtype == CN_DTYPE_DEFAULT) dtype = CN_FLOAT64;
  CHECK_DTYPE(dtype, fn);
  if (num < 0)
    return cn_error(CN_ERR_VALUE,
                    "cn_linspace: number of samples, %lld, must be "
                    "non-negative", (long long)num);
  linspace_args l = {0};
  l.div = endpoint ? num - 1 : num;
  l.start = start;
  l.stop = stop;
  l.delta = stop - start;
  if (l.div > 0) {
    l.step = l.delta / (double)l.div;
    l.step_zero = l.step == 0;
  }
  l.fix_last = endpoint && num > 1;
  l.floor_it = cn_is_integer(dtype) && dtype != CN_BOOL;
  if (composed_sequences())
    return linspace_composed(out, num, &l, dtype, fn);
  return linspace_direct(out, num, &l, dtype, fn);
}

cn_status cn_eye(cn_array *out, int64_t n, int64_t m, int64_t k,
                 cn_dtype dtype, cn_order order) {
  CN_CHECK_OUT(out, "cn_eye");
  if (m < 0) m = n;
  int64_t shape[2] = {n, m};
  cn_array_s *a = NULL;
  cn_status st = new_active(&a, dtype, 2, shape, order, "cn_eye");
  if (st != CN_OK)
    return st;
  st = fill_scalar(a, cn_scalar_int(0));
  /* the diagonal is a strided 1-d view: fill it with one */
  if (st == CN_OK && n > 0 && m > 0 && k > -n && k < m) {
    int64_t r0 = k < 0 ? -k : 0, c0 = k > 0 ? k : 0;
    int64_t len = n - r0 < m - c0 ? n - r0 : m - c0;
    int64_t stride = a->strides[0] + a->strides[1];
    cn_array_s *diag = NULL;
    st = cn_array_view(&diag, a,
                       a->data + (r0 * a->strides[0] + c0 * a->strides[1]) *
                                     cn_itemsize(dtype),
                       1, &len, &stride);
    if (st == CN_OK) {
      st = fill_scalar(diag, cn_scalar_int(1));
      cn_array_release(diag);
    }
  }
  if (st != CN_OK) {
    cn_array_release(a);
    return cn_error_prefix(st, "cn_eye");
  }
  *out = a;
  return CN_OK;
}

cn_status cn_identity(cn_array *out, int64_t n, cn_dtype dtype) {
  CN_CHECK_OUT(out, "cn_identity");
  if (n < 0)
    return cn_error(CN_ERR_VALUE, "cn_identity: negative size %lld",
                    (long long)n);
  return cn_eye(out, n, n, 0, dtype, CN_ORDER_C);
}

/* ---- scalars ------------------------------------------------------------ */

cn_status cn_from_scalar(cn_array *out, cn_scalar value, cn_dtype dtype) {
  CN_CHECK_OUT(out, "cn_from_scalar");
  cn_status st = check_scalar(value, "cn_from_scalar");
  if (st != CN_OK)
    return st;
  return new_filled(out, 0, NULL, value, dtype, CN_ORDER_C, "cn_from_scalar");
}

cn_status cn_scalar_array(cn_array *out, cn_scalar value) {
  CN_CHECK_OUT(out, "cn_scalar_array");
  cn_status st = check_scalar(value, "cn_scalar_array");
  if (st != CN_OK)
    return st;
  cn_dtype dt;
  switch (value.kind) {
  case CN_SCALAR_BOOL: dt = CN_BOOL; break;
  case CN_SCALAR_INT: dt = CN_INT64; break;
  case CN_SCALAR_UINT:
    dt = (uint64_t)value.i > INT64_MAX ? CN_UINT64 : CN_INT64;
    if (dt == CN_INT64) value.kind = CN_SCALAR_INT;
    break;
  case CN_SCALAR_FLOAT: dt = CN_FLOAT64; break;
  default: dt = CN_COMPLEX128; break;
  }
  cn_array_s *a = NULL;
  st = new_filled(&a, 0, NULL, value, dt, CN_ORDER_C, "cn_scalar_array");
  if (st != CN_OK)
    return st;
  a->flags |= CN_FLAG_WEAK_SCALAR;
  a->weak = value;
  *out = a;
  return CN_OK;
}

/* ---- host memory -------------------------------------------------------- */

/* Wraps a freshly built host array into the active backend. */
static cn_status to_active_owned(cn_array *out, cn_array_s *host,
                                 const char *fn) {
  if (cn_active_backend() == cn_cpu_backend()) {
    *out = host;
    return CN_OK;
  }
  cn_status st = cn_to_active(out, host);
  cn_array_release(host);
  return st == CN_OK ? st : cn_error_prefix(st, fn);
}

/* Checks that every element addressed by (ndim, shape, strides) lies in
 * [data - before, data + after). */
/* The caller's memory is [data - before, data + after): both ends must be
 * addresses (no wrap around the address space, a total that fits ptrdiff_t)
 * and every byte the strides reach must lie inside it. All in checked
 * integer arithmetic: no pointer is formed until the bounds hold. */
static cn_status check_extent(const void *data, int64_t before, int64_t after,
                              int32_t ndim, const int64_t *shape,
                              const int64_t *strides, int64_t isz,
                              const char *fn) {
  if (before < 0 || after < 0)
    return cn_error(CN_ERR_VALUE, "%s: negative memory bounds (%lld, %lld)",
                    fn, (long long)before, (long long)after);
  int64_t size, lo, hi, total;
  uintptr_t first, end;
  cn_status st = cn_view_geometry(&size, &lo, &hi, isz, ndim, shape, strides);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  if (data == NULL)
    return CN_OK; /* only an empty array may have no data (checked before) */
  if (__builtin_add_overflow(before, after, &total) ||
      (uint64_t)total > (uint64_t)PTRDIFF_MAX ||
      __builtin_sub_overflow((uintptr_t)data, (uintptr_t)before, &first) ||
      __builtin_add_overflow((uintptr_t)data, (uintptr_t)after, &end))
    return cn_error(CN_ERR_VALUE,
                    "%s: memory bounds (%lld bytes before, %lld after data "
                    "%p) wrap around the address space",
                    fn, (long long)before, (long long)after, data);
  if (size > 0 && (lo < -before || hi > after))
    return cn_error(CN_ERR_VALUE,
                    "%s: strides reach outside the memory given (elements "
                    "span bytes [%lld, %lld), memory is [%lld, %lld))",
                    fn, (long long)lo, (long long)hi, (long long)-before,
                    (long long)after);
  return CN_OK;
}

static cn_status host_args(const void *data, int64_t before, int64_t after,
                           int32_t ndim, const int64_t *shape,
                           const int64_t *strides, cn_dtype dtype,
                           int64_t *cstrides, int64_t *size, const char *fn) {
  CHECK_DTYPE(dtype, fn);
  cn_status st = cn_shape_size(size, ndim, shape, cn_itemsize(dtype), fn);
  if (st != CN_OK)
    return st;
  if (data == NULL && *size > 0)
    return cn_error(CN_ERR_VALUE, "%s: argument 'data' is NULL", fn);
  if (strides != NULL)
    memcpy(cstrides, strides, sizeof(int64_t) * (size_t)ndim);
  else
    cn_default_strides(cstrides, ndim, shape, CN_ORDER_C);
  return check_extent(data, before, after, ndim, shape, cstrides,
                      cn_itemsize(dtype), fn);
}

static void noop_release(void *ctx) { (void)ctx; }

/* A CPU buffer over [data - before, data + after), bounds checked by
 * check_extent; the start is computed as an integer because data - before
 * need not lie in the object data points into as C sees it. NULL data (an
 * empty array) borrows a static byte. */
static cn_status wrap_bounds(cn_buffer **out, const void *data, int64_t before,
                             int64_t after, cn_release_fn release, void *ctx) {
  static char empty;
  if (data == NULL)
    return cn_buffer_wrap(out, cn_cpu_backend(), 0, &empty, 0, release, ctx);
  void *base = (void *)((uintptr_t)data - (uintptr_t)before);
  return cn_buffer_wrap(out, cn_cpu_backend(), 0, base,
                        (size_t)before + (size_t)after, release, ctx);
}

cn_status cn_from_host(cn_array *out, const void *data, int64_t nbytes_before,
                       int64_t nbytes_after, int32_t ndim, const int64_t *shape,
                       const int64_t *strides, cn_dtype dtype) {
  CN_CHECK_OUT(out, "cn_from_host");
  int64_t cstr[CN_MAX_DIMS], size;
  cn_status st = host_args(data, nbytes_before, nbytes_after, ndim, shape,
                           strides, dtype, cstr, &size, "cn_from_host");
  if (st != CN_OK)
    return st;
  /* borrow, then copy through the normal assign path (casts, strides) */
  cn_buffer *buf = NULL;
  st = wrap_bounds(&buf, data, nbytes_before, nbytes_after, noop_release,
                   NULL);
  if (st != CN_OK)
    return st;
  cn_array_s *src = NULL;
  st = cn_array_make_at(&src, buf, data ? nbytes_before : 0, dtype, ndim,
                        shape, cstr, false);
  cn_buffer_release(buf);
  if (st != CN_OK)
    return st;
  cn_array_s *res = NULL;
  st = cn_array_new(&res, cn_cpu_backend(), 0, dtype, ndim, shape, CN_ORDER_C);
  if (st == CN_OK && (st = cn_cpu_backend()->compute->assign(res, src)) != CN_OK)
    cn_array_release(res);
  cn_array_release(src);
  if (st != CN_OK)
    return cn_error_prefix(st, "cn_from_host");
  return to_active_owned(out, res, "cn_from_host");
}

cn_status cn_wrap_host(cn_array *out, void *data, int64_t nbytes_before,
                       int64_t nbytes_after, int32_t ndim, const int64_t *shape,
                       const int64_t *strides, cn_dtype dtype, int32_t readonly,
                       cn_release_fn release, void *ctx) {
  CN_CHECK_OUT(out, "cn_wrap_host");
  int64_t cstr[CN_MAX_DIMS], size;
  cn_status st = host_args(data, nbytes_before, nbytes_after, ndim, shape,
                           strides, dtype, cstr, &size, "cn_wrap_host");
  if (st != CN_OK)
    return st;
  cn_buffer *buf = NULL;
  st = wrap_bounds(&buf, data, nbytes_before, nbytes_after,
                   release ? release : noop_release, ctx);
  if (st != CN_OK)
    return st;
  cn_array_s *a = NULL;
  st = cn_array_make_at(&a, buf, data ? nbytes_before : 0, dtype, ndim, shape,
                        cstr, !readonly);
  if (st != CN_OK) {
    /* the caller keeps ownership on failure: do not run its callback */
    buf->release = noop_release;
    cn_buffer_release(buf);
    return st;
  }
  cn_buffer_release(buf);
  *out = a;
  return CN_OK;
}

/* A host, C-or-F-contiguous copy (or a, retained, when it already is). */
static cn_status host_contig(cn_array_s **out, const cn_array_s *a,
                             cn_order order, const char *fn);

cn_status cn_copy_to_buffer(void *dst, int64_t nbytes, cn_array a,
                            cn_order order) {
  CN_CHECK_ARRAY(a, "cn_copy_to_buffer", "a");
  if (order != CN_ORDER_C && order != CN_ORDER_F)
    return cn_error(CN_ERR_VALUE, "cn_copy_to_buffer: order must be C or F");
  int64_t need = a->size * cn_itemsize(a->dtype);
  if (nbytes < need)
    return cn_error(CN_ERR_VALUE,
                    "cn_copy_to_buffer: buffer of %lld bytes is smaller than "
                    "the %lld bytes needed", (long long)nbytes, (long long)need);
  if (need == 0)
    return CN_OK;
  if (dst == NULL)
    return cn_error(CN_ERR_VALUE, "cn_copy_to_buffer: argument 'dst' is NULL");
  cn_array_s *h = NULL;
  cn_status st = host_contig(&h, a, order, "cn_copy_to_buffer");
  if (st != CN_OK)
    return st;
  memcpy(dst, h->data, (size_t)need);
  cn_array_release(h);
  return CN_OK;
}

cn_status cn_item(cn_scalar *out, cn_array a) {
  CN_CHECK_OUT(out, "cn_item");
  CN_CHECK_ARRAY(a, "cn_item", "a");
  if (a->size != 1)
    return cn_error(CN_ERR_VALUE,
                    "cn_item: can only convert an array of size 1 to a "
                    "scalar (size is %lld)", (long long)a->size);
  unsigned char bytes[16];
  cn_status st = cn_copy_to_buffer(bytes, sizeof bytes, a, CN_ORDER_C);
  if (st != CN_OK)
    return st;
  *out = cn_scalar_from_bytes(bytes, a->dtype);
  return CN_OK;
}

/* ---- copies and casts --------------------------------------------------- */

static cn_order resolve_order(const cn_array_s *a, cn_order order) {
  if (order == CN_ORDER_A)
    return (a->flags & CN_FLAG_F_CONTIGUOUS) &&
                   !(a->flags & CN_FLAG_C_CONTIGUOUS)
               ? CN_ORDER_F
               : CN_ORDER_C;
  return order;
}

/* New array with a's values, dtype dt, in the given order, on a's device. */
static cn_status copy_as(cn_array_s **out, const cn_array_s *a, cn_dtype dt,
                         cn_order order, const char *fn) {
  cn_array_s *res = NULL;
  cn_status st;
  order = resolve_order(a, order);
  if (order == CN_ORDER_K)
    st = cn_array_new_like(&res, a, dt);
  else
    st = cn_array_new(&res, a->buf->backend, a->buf->device_id, dt, a->ndim,
                      a->shape, order);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  st = cn_backend_of(a)->compute->assign(res, a);
  if (st != CN_OK) {
    cn_array_release(res);
    return cn_error_prefix(st, fn);
  }
  *out = res;
  return CN_OK;
}

static cn_status host_contig(cn_array_s **out, const cn_array_s *a,
                             cn_order order, const char *fn) {
  int flag = order == CN_ORDER_F ? CN_FLAG_F_CONTIGUOUS : CN_FLAG_C_CONTIGUOUS;
  cn_array_s *c = (cn_array_s *)a;
  cn_status st;
  if (!(a->flags & flag)) {
    st = copy_as(&c, a, a->dtype, order, fn);
    if (st != CN_OK)
      return st;
  } else {
    cn_array_retain(c);
  }
  if (c->buf->backend->device_type == CN_DEVICE_CPU) {
    *out = c;
    return CN_OK;
  }
  cn_array_s *h = NULL;
  st = cn_array_new(&h, cn_cpu_backend(), 0, a->dtype, a->ndim, a->shape,
                    order == CN_ORDER_F ? CN_ORDER_F : CN_ORDER_C);
  if (st == CN_OK) {
    st = c->buf->backend->device->copy_to_host(
        h->data, c->data, (size_t)(c->size * cn_itemsize(c->dtype)));
    if (st != CN_OK) cn_array_release(h);
  }
  cn_array_release(c);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  *out = h;
  return CN_OK;
}

cn_status cn_copy(cn_array *out, cn_array a, cn_order order) {
  CN_CHECK_OUT(out, "cn_copy");
  CN_CHECK_ARRAY(a, "cn_copy", "a");
  cn_status st = check_order(order, "cn_copy");
  if (st != CN_OK)
    return st;
  return copy_as(out, a, a->dtype, order, "cn_copy");
}

cn_status cn_astype(cn_array *out, cn_array a, cn_dtype dtype, int32_t copy) {
  CN_CHECK_OUT(out, "cn_astype");
  CN_CHECK_ARRAY(a, "cn_astype", "a");
  CHECK_DTYPE(dtype, "cn_astype");
  if (!copy && dtype == a->dtype && !(a->flags & CN_FLAG_WEAK_SCALAR)) {
    cn_array_retain(a);
    *out = a;
    return CN_OK;
  }
  return copy_as(out, a, dtype, CN_ORDER_K, "cn_astype");
}

/* Whether the memory ranges touched by two arrays can overlap. */
static bool may_overlap(const cn_array_s *a, const cn_array_s *b) {
  if (a->size == 0 || b->size == 0) return false;
  if (a->buf->data != b->buf->data || a->buf->backend != b->buf->backend)
    return a->buf == b->buf;
  int64_t alo = 0, ahi = 0, blo = 0, bhi = 0;
  for (int i = 0; i < a->ndim; i++) {
    int64_t s = a->strides[i] * (a->shape[i] - 1) * cn_itemsize(a->dtype);
    if (s < 0) alo += s; else ahi += s;
  }
  for (int i = 0; i < b->ndim; i++) {
    int64_t s = b->strides[i] * (b->shape[i] - 1) * cn_itemsize(b->dtype);
    if (s < 0) blo += s; else bhi += s;
  }
  const char *a0 = a->data + alo, *a1 = a->data + ahi + cn_itemsize(a->dtype);
  const char *b0 = b->data + blo, *b1 = b->data + bhi + cn_itemsize(b->dtype);
  return a0 < b1 && b0 < a1;
}

static bool same_layout(const cn_array_s *a, const cn_array_s *b) {
  if (a->data != b->data || a->ndim != b->ndim || a->dtype != b->dtype)
    return false;
  for (int i = 0; i < a->ndim; i++)
    if (a->shape[i] != b->shape[i] ||
        (a->shape[i] > 1 && a->strides[i] != b->strides[i]))
      return false;
  return true;
}

cn_status cn_assign(cn_array dst, cn_array src) {
  CN_CHECK_ARRAY(dst, "cn_assign", "dst");
  CN_CHECK_ARRAY(src, "cn_assign", "src");
  if (!cn_array_writeable(dst))
    return cn_error(CN_ERR_VALUE, "cn_assign: assignment destination is "
                    "read-only");
  const cn_array_s *pair[2] = {dst, src};
  cn_status st = cn_same_device(2, pair, "cn_assign");
  if (st != CN_OK)
    return st;
  cn_array_s *b = NULL;
  st = cn_broadcast_view(&b, src, dst->ndim, dst->shape, "cn_assign");
  if (st != CN_OK)
    return st;
  if (same_layout(dst, b)) {
    cn_array_release(b);
    return CN_OK;
  }
  if (may_overlap(dst, b)) {
    cn_array_s *tmp = NULL;
    st = copy_as(&tmp, b, b->dtype, CN_ORDER_K, "cn_assign");
    cn_array_release(b);
    if (st != CN_OK)
      return st;
    b = tmp;
  }
  st = cn_backend_of(dst)->compute->assign(dst, b);
  cn_array_release(b);
  return st == CN_OK ? st : cn_error_prefix(st, "cn_assign");
}

cn_status cn_fill(cn_array dst, cn_scalar value) {
  CN_CHECK_ARRAY(dst, "cn_fill", "dst");
  cn_status st = check_scalar(value, "cn_fill");
  if (st != CN_OK)
    return st;
  if (!cn_array_writeable(dst))
    return cn_error(CN_ERR_VALUE, "cn_fill: assignment destination is "
                    "read-only");
  st = fill_scalar(dst, value);
  return st == CN_OK ? st : cn_error_prefix(st, "cn_fill");
}

cn_status cn_readonly_view(cn_array *out, cn_array a) {
  CN_CHECK_OUT(out, "cn_readonly_view");
  CN_CHECK_ARRAY(a, "cn_readonly_view", "a");
  return cn_array_make(out, a->buf, a->data, a->dtype, a->ndim, a->shape,
                       a->strides, false);
}

/* ---- devices ------------------------------------------------------------ */

/* Copy of a (on CUDA backend be) on its device dev, by the plugin's
 * device-to-device copy of a C-contiguous copy of a. */
static cn_status transfer_peer(cn_array *out, cn_array_s *a,
                               const cn_backend *be,
                               const struct cn_cuda_api *api, int32_t dev,
                               const char *fn) {
  cn_array_s *c = a;
  cn_status st = CN_OK;
  if (a->flags & CN_FLAG_C_CONTIGUOUS)
    cn_array_retain(c);
  else if ((st = copy_as(&c, a, a->dtype, CN_ORDER_C, fn)) != CN_OK)
    return st;
  cn_array_s *d = NULL;
  st = cn_array_new(&d, be, dev, a->dtype, a->ndim, a->shape, CN_ORDER_C);
  if (st == CN_OK) {
    st = api->copy_peer(d->data, dev, c->data, c->buf->device_id,
                        (size_t)(a->size * cn_itemsize(a->dtype)));
    if (st != CN_OK)
      cn_array_release(d);
  }
  cn_array_release(c);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  *out = d;
  return CN_OK;
}

/* Copy of a on backend `be` (device dev). */
static cn_status transfer(cn_array *out, cn_array_s *a,
                          const cn_backend *be, int32_t dev,
                          const char *fn) {
  if (a->buf->backend == be && a->buf->device_id == dev) {
    cn_array_retain(a);
    *out = a;
    return CN_OK;
  }
  if (a->buf->backend == be && be->device_type == CN_DEVICE_CUDA) {
    const struct cn_cuda_api *api = cn_backend_get_proc(be, "cuda_api");
    if (api != NULL && api->size >= sizeof(struct cn_cuda_api))
      return transfer_peer(out, a, be, api, dev, fn);
  }
  /* bring to a contiguous host copy, then up to the target */
  cn_array_s *h = NULL;
  cn_status st = host_contig(&h, a, CN_ORDER_C, fn);
  if (st != CN_OK)
    return st;
  if (be->device_type == CN_DEVICE_CPU) {
    if (h == a) { /* a was host + contiguous but another CPU-like backend */
      cn_array_s *c = NULL;
      st = copy_as(&c, h, h->dtype, CN_ORDER_C, fn);
      cn_array_release(h);
      if (st != CN_OK) return st;
      h = c;
    }
    *out = h;
    return CN_OK;
  }
  cn_array_s *d = NULL;
  st = cn_array_new(&d, be, dev, a->dtype, a->ndim, a->shape, CN_ORDER_C);
  if (st == CN_OK) {
    st = be->device->copy_from_host(d->data, h->data,
                            (size_t)(a->size * cn_itemsize(a->dtype)));
    if (st != CN_OK) cn_array_release(d);
  }
  cn_array_release(h);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  *out = d;
  return CN_OK;
}

cn_status cn_to_host(cn_array *out, cn_array a) {
  CN_CHECK_OUT(out, "cn_to_host");
  CN_CHECK_ARRAY(a, "cn_to_host", "a");
  if (a->buf->backend->device_type == CN_DEVICE_CPU) {
    cn_array_retain(a);
    *out = a;
    return CN_OK;
  }
  return transfer(out, a, cn_cpu_backend(), 0, "cn_to_host");
}

cn_status cn_to_device(cn_array *out, cn_array a, int32_t device_id) {
  CN_CHECK_OUT(out, "cn_to_device");
  CN_CHECK_ARRAY(a, "cn_to_device", "a");
  int32_t avail = 0;
  cn_backend_available(&avail, "cuda");
  const cn_backend *be = cn_cuda_backend_if_loaded();
  if (!avail || be == NULL)
    return cn_error(CN_ERR_DEVICE, "cn_to_device: CUDA is unavailable: %s",
                    cn_backend_unavailable_reason());
  int32_t n = be->device->device_count();
  if (device_id < 0 || device_id >= n)
    return cn_error(CN_ERR_DEVICE,
                    "cn_to_device: device %d out of range (%d devices)",
                    device_id, n);
  return transfer(out, a, be, device_id, "cn_to_device");
}

cn_status cn_to_active(cn_array *out, cn_array a) {
  CN_CHECK_OUT(out, "cn_to_active");
  CN_CHECK_ARRAY(a, "cn_to_active", "a");
  const cn_backend *be = cn_active_backend();
  return transfer(out, a, be, be->device->current_device(), "cn_to_active");
}
