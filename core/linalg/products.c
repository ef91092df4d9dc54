/* Products and contractions: matmul, dot, vdot, inner, outer, tensordot,
 * kron, trace, diagonal, cross, multi_dot, matrix_power. Everything funnels
 * into one batched product (the backend's matmul slot), after views
 * (transposes, broadcasts, reshapes) that cost no copy when strides allow. */
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The batched product behind every entry point: a (..., m, k) or 1-d,
 * b (..., k, n) or 1-d, NumPy's matmul rules. conj_a conjugates a. */
static cn_status matmul_impl(cn_array_s **out, const cn_array_s *a,
                             const cn_array_s *b, cn_array_s *dst, bool conj_a,
                             const char *fn) {
  cn_status st = CN_OK;
  cn_la_scope sc = {0};
  if (a->ndim == 0 || b->ndim == 0)
    return cn_error(CN_ERR_VALUE,
                    "%s: operand %d is 0-d; matmul needs at least 1 "
                    "dimension",
                    fn, a->ndim == 0 ? 0 : 1);
  CN_LA_TRY(cn_la_same_device(a, b, fn));
  cn_dtype rt;
  CN_LA_TRY(cn_result_type(&rt, a->dtype, b->dtype));
  CN_REQUIRE_SLOT(slot, cn_backend_of(a), matmul, fn);
  /* Core dims, with 1-d operands promoted to a row / column. */
  bool a1 = a->ndim == 1, b1 = b->ndim == 1;
  int64_t m = a1 ? 1 : a->shape[a->ndim - 2];
  int64_t k = a->shape[a->ndim - 1];
  int64_t kb = b1 ? b->shape[0] : b->shape[b->ndim - 2];
  int64_t n = b1 ? 1 : b->shape[b->ndim - 1];
  if (k != kb) {
    char s1[256], s2[256];
    st = cn_error(CN_ERR_SHAPE,
                  "%s: mismatch in core dimension: operand shapes %s and %s "
                  "(%lld != %lld)",
                  fn, cn_la_shape_str(s1, sizeof s1, a->ndim, a->shape),
                  cn_la_shape_str(s2, sizeof s2, b->ndim, b->shape),
                  (long long)k, (long long)kb);
    goto fail;
  }
  int32_t nba = a1 ? 0 : a->ndim - 2, nbb = b1 ? 0 : b->ndim - 2;
  const int64_t *shapes[2] = {a->shape, b->shape};
  int32_t ndims[2] = {nba, nbb};
  int32_t nb = 0;
  int64_t bshape[CN_MAX_DIMS];
  CN_LA_TRY(cn_broadcast_shapes(&nb, bshape, 2, ndims, shapes));
  /* Full (batch, m, n) and result (extents of 1-d operands removed). */
  int64_t full_a[CN_MAX_DIMS], full_b[CN_MAX_DIMS], full_c[CN_MAX_DIMS];
  int64_t rshape[CN_MAX_DIMS];
  int32_t rnd = 0;
  if (nb + 2 > CN_MAX_DIMS) {
    st = cn_error(CN_ERR_VALUE, "%s: too many dimensions", fn);
    goto fail;
  }
  for (int32_t i = 0; i < nb; i++)
    full_a[i] = full_b[i] = full_c[i] = rshape[rnd++] = bshape[i];
  full_a[nb] = m, full_a[nb + 1] = k;
  full_b[nb] = k, full_b[nb + 1] = n;
  full_c[nb] = m, full_c[nb + 1] = n;
  if (!a1)
    rshape[rnd++] = m;
  if (!b1)
    rshape[rnd++] = n;
  if (dst != NULL) {
    CN_CHECK_ARRAY(dst, fn, "dst");
    if (dst->ndim != rnd ||
        memcmp(dst->shape, rshape, sizeof(int64_t) * (size_t)rnd) != 0) {
      char s1[256], s2[256];
      st = cn_error(CN_ERR_SHAPE, "%s: dst has shape %s, the result %s", fn,
                    cn_la_shape_str(s1, sizeof s1, dst->ndim, dst->shape),
                    cn_la_shape_str(s2, sizeof s2, rnd, rshape));
      goto fail;
    }
    if (!cn_array_writeable(dst)) {
      st = cn_error(CN_ERR_VALUE, "%s: dst is read-only", fn);
      goto fail;
    }
    CN_LA_TRY(cn_la_same_device(a, dst, fn));
  }
  /* Operands in the compute dtype, as (batch, rows, cols) views. float16
   * has no kernels: it is multiplied in float32 and each result rounded
   * once, as NumPy's float16 matmul accumulates in float32. */
  const cn_dtype ct = rt == CN_FLOAT16 ? CN_FLOAT32 : rt;
  const cn_array_s *ops[2] = {a, b};
  cn_array_s *views[2];
  for (int t = 0; t < 2; t++) {
    const cn_array_s *x = ops[t];
    if (x->dtype != ct) {
      cn_array_s *c = NULL;
      CN_LA_TRY(cn_astype(&c, (cn_array)x, ct, 1));
      x = cn_la_keep(&sc, c);
    }
    int64_t sh[CN_MAX_DIMS], sd[CN_MAX_DIMS];
    bool one = t == 0 ? a1 : b1;
    int32_t xn = x->ndim;
    if (one) {
      /* (k,) -> (1, k) for a, (k, 1) for b */
      sh[0] = t == 0 ? 1 : x->shape[0];
      sh[1] = t == 0 ? x->shape[0] : 1;
      sd[0] = t == 0 ? 0 : x->strides[0];
      sd[1] = t == 0 ? x->strides[0] : 0;
      xn = 2;
    } else {
      memcpy(sh, x->shape, sizeof(int64_t) * (size_t)xn);
      memcpy(sd, x->strides, sizeof(int64_t) * (size_t)xn);
    }
    cn_array_s *v2 = NULL, *v3 = NULL;
    CN_LA_TRY(cn_array_view(&v2, x, x->data, xn, sh, sd));
    cn_la_keep(&sc, v2);
    CN_LA_TRY(cn_broadcast_view(&v3, v2, nb + 2, t == 0 ? full_a : full_b, fn));
    views[t] = cn_la_keep(&sc, v3);
  }
  /* Destination: dst itself when it has the right dtype and does not share
   * memory with an input, else a fresh array. */
  bool direct = dst != NULL && dst->dtype == ct && dst->buf != a->buf &&
                dst->buf != b->buf;
  cn_array_s *res = NULL;
  if (direct) {
    res = dst;
  } else {
    CN_LA_TRY(cn_la_new(&res, a, ct, rnd, rshape));
    cn_la_keep(&sc, res);
  }
  int64_t cs[CN_MAX_DIMS];
  for (int32_t i = 0; i < nb; i++)
    cs[i] = res->strides[i];
  cs[nb] = a1 ? 0 : res->strides[nb];
  cs[nb + 1] = b1 ? 0 : res->strides[rnd - 1];
  cn_array_s *cview = NULL;
  CN_LA_TRY(cn_array_view(&cview, res, res->data, nb + 2, full_c, cs));
  cn_la_keep(&sc, cview);
  cn_gemm_desc d = {views[0], views[1], cview, conj_a};
  CN_LA_TRY(slot(&d));
  if (dst != NULL && !direct)
    CN_LA_TRY(cn_assign(dst, res));
  if (dst == NULL && ct != rt) {
    cn_array_s *r16 = NULL;
    CN_LA_TRY(cn_astype(&r16, res, rt, 1));
    res = cn_la_keep(&sc, r16);
  }
  cn_array_s *ret = dst != NULL ? dst : res;
  cn_array_retain(ret);
  *out = ret;
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}

cn_status cn_matmul(cn_array *out, cn_array a, cn_array b, cn_array dst) {
  CN_CHECK_OUT(out, "cn_matmul");
  CN_CHECK_ARRAY(a, "cn_matmul", "a");
  CN_CHECK_ARRAY(b, "cn_matmul", "b");
  return matmul_impl(out, a, b, dst, false, "cn_matmul");
}

/* Moves the listed axes of x to the end (keep_front: to the front) and
 * reshapes into a matrix (rows = product of the leading group). */
static cn_status to_matrix(cn_array_s **out, const cn_array_s *x, int32_t nsum,
                           const int32_t *sum_axes, bool sum_first,
                           const char *fn) {
  int32_t perm[CN_MAX_DIMS] = {0}, np = 0;
  bool is_sum[CN_MAX_DIMS] = {false};
  for (int32_t i = 0; i < nsum; i++)
    is_sum[sum_axes[i]] = true;
  int64_t free_sz = 1, sum_sz = 1;
  if (sum_first)
    for (int32_t i = 0; i < nsum; i++)
      perm[np++] = sum_axes[i];
  for (int32_t i = 0; i < x->ndim; i++)
    if (!is_sum[i]) {
      perm[np++] = i;
      free_sz *= x->shape[i];
    }
  if (!sum_first)
    for (int32_t i = 0; i < nsum; i++)
      perm[np++] = sum_axes[i];
  for (int32_t i = 0; i < nsum; i++)
    sum_sz *= x->shape[sum_axes[i]];
  cn_array p = NULL;
  cn_status st = cn_permute_dims(&p, (cn_array)x, x->ndim, perm);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  int64_t shape[2] = {sum_first ? sum_sz : free_sz,
                      sum_first ? free_sz : sum_sz};
  st = cn_reshape(out, p, 2, shape, CN_ORDER_C);
  cn_array_release(p);
  return st == CN_OK ? CN_OK : cn_error_prefix(st, fn);
}

static cn_status tensordot_impl(cn_array_s **out, const cn_array_s *a,
                                const cn_array_s *b, int32_t naxes,
                                const int32_t *axes_a, const int32_t *axes_b,
                                const char *fn) {
  int32_t ax_a[CN_MAX_DIMS], ax_b[CN_MAX_DIMS];
  if (naxes < 0)
    return cn_error(CN_ERR_VALUE, "%s: argument 'naxes' is negative (%d)", fn,
                    (int)naxes);
  if ((axes_a == NULL) != (axes_b == NULL))
    return cn_error(CN_ERR_VALUE,
                    "%s: axes_a and axes_b must both be given or both NULL",
                    fn);
  if (axes_a == NULL) {
    if (naxes > a->ndim || naxes > b->ndim)
      return cn_error(CN_ERR_VALUE,
                      "%s: naxes %d exceeds the operands' dimensions (%d, %d)",
                      fn, (int)naxes, (int)a->ndim, (int)b->ndim);
    for (int32_t i = 0; i < naxes; i++) {
      ax_a[i] = a->ndim - naxes + i;
      ax_b[i] = i;
    }
  } else {
    if (naxes > a->ndim || naxes > b->ndim)
      return cn_error(CN_ERR_VALUE,
                      "%s: %d axis pairs for operands of %d and %d dimensions",
                      fn, (int)naxes, (int)a->ndim, (int)b->ndim);
    uint64_t ma = 0, mb = 0;
    for (int32_t i = 0; i < naxes; i++) {
      cn_status st = cn_normalize_axis(&ax_a[i], axes_a[i], a->ndim, fn);
      if (st != CN_OK)
        return st;
      st = cn_normalize_axis(&ax_b[i], axes_b[i], b->ndim, fn);
      if (st != CN_OK)
        return st;
      if ((ma >> ax_a[i]) & 1 || (mb >> ax_b[i]) & 1)
        return cn_error(CN_ERR_VALUE, "%s: repeated axis in axis pair %d", fn,
                        (int)i);
      ma |= (uint64_t)1 << ax_a[i];
      mb |= (uint64_t)1 << ax_b[i];
    }
  }
  for (int32_t i = 0; i < naxes; i++)
    if (a->shape[ax_a[i]] != b->shape[ax_b[i]])
      return cn_error(CN_ERR_SHAPE,
                      "%s: shape mismatch for sum: axis %d of a has %lld, "
                      "axis %d of b has %lld",
                      fn, (int)ax_a[i], (long long)a->shape[ax_a[i]],
                      (int)ax_b[i], (long long)b->shape[ax_b[i]]);
  cn_status st = CN_OK;
  cn_la_scope sc = {0};
  cn_array_s *ma = NULL, *mb = NULL, *prod = NULL;
  CN_LA_TRY(to_matrix(&ma, a, naxes, ax_a, false, fn));
  cn_la_keep(&sc, ma);
  CN_LA_TRY(to_matrix(&mb, b, naxes, ax_b, true, fn));
  cn_la_keep(&sc, mb);
  CN_LA_TRY(matmul_impl(&prod, ma, mb, NULL, false, fn));
  cn_la_keep(&sc, prod);
  int64_t shape[CN_MAX_DIMS];
  int32_t nd = 0;
  bool sa[CN_MAX_DIMS] = {false}, sb[CN_MAX_DIMS] = {false};
  for (int32_t i = 0; i < naxes; i++)
    sa[ax_a[i]] = sb[ax_b[i]] = true;
  for (int32_t i = 0; i < a->ndim; i++)
    if (!sa[i])
      shape[nd++] = a->shape[i];
  for (int32_t i = 0; i < b->ndim; i++)
    if (!sb[i]) {
      if (nd >= CN_MAX_DIMS) {
        st = cn_error(CN_ERR_VALUE, "%s: result has too many dimensions", fn);
        goto fail;
      }
      shape[nd++] = b->shape[i];
    }
  CN_LA_TRY(cn_reshape(out, prod, nd, shape, CN_ORDER_C));
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}

cn_status cn_tensordot(cn_array *out, cn_array a, cn_array b, int32_t naxes,
                       const int32_t *axes_a, const int32_t *axes_b) {
  CN_CHECK_OUT(out, "cn_tensordot");
  CN_CHECK_ARRAY(a, "cn_tensordot", "a");
  CN_CHECK_ARRAY(b, "cn_tensordot", "b");
  return tensordot_impl(out, a, b, naxes, axes_a, axes_b, "cn_tensordot");
}

cn_status cn_dot(cn_array *out, cn_array a, cn_array b, cn_array dst) {
  const char *fn = "cn_dot";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(b, fn, "b");
  if (a->ndim == 0 || b->ndim == 0) {
    cn_status st = cn_multiply(out, a, b, dst);
    return st == CN_OK ? st : cn_error_prefix(st, fn);
  }
  if (b->ndim <= 2)
    return matmul_impl(out, a, b, dst, false, fn);
  if (dst != NULL)
    CN_CHECK_ARRAY(dst, fn, "dst");
  int32_t axa = -1, axb = -2;
  cn_array_s *r = NULL;
  cn_status st = tensordot_impl(&r, a, b, 1, &axa, &axb, fn);
  if (st != CN_OK)
    return st;
  if (dst != NULL) {
    if (dst->ndim != r->ndim ||
        memcmp(dst->shape, r->shape, sizeof(int64_t) * (size_t)r->ndim)) {
      cn_array_release(r);
      return cn_error(CN_ERR_SHAPE, "%s: dst does not have the result's shape",
                      fn);
    }
    st = cn_assign(dst, r);
    cn_array_release(r);
    if (st != CN_OK)
      return cn_error_prefix(st, fn);
    cn_array_retain(dst);
    r = dst;
  }
  *out = r;
  return CN_OK;
}

/* View of x flattened (a copy only when strides do not allow a view). */
static cn_status flat(cn_array_s **out, const cn_array_s *x, const char *fn) {
  cn_status st = cn_ravel(out, (cn_array)x, CN_ORDER_C);
  return st == CN_OK ? st : cn_error_prefix(st, fn);
}

cn_status cn_vdot(cn_array *out, cn_array a, cn_array b) {
  const char *fn = "cn_vdot";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(b, fn, "b");
  if (a->size != b->size)
    return cn_error(CN_ERR_SHAPE,
                    "%s: vectors have different sizes (%lld and %lld)", fn,
                    (long long)a->size, (long long)b->size);
  cn_status st = CN_OK;
  cn_la_scope sc = {0};
  cn_array_s *fa = NULL, *fb = NULL, *r = NULL;
  CN_LA_TRY(flat(&fa, a, fn));
  cn_la_keep(&sc, fa);
  CN_LA_TRY(flat(&fb, b, fn));
  cn_la_keep(&sc, fb);
  CN_LA_TRY(matmul_impl(&r, fa, fb, NULL, true, fn));
  *out = r;
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return st;
}

cn_status cn_inner(cn_array *out, cn_array a, cn_array b) {
  const char *fn = "cn_inner";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(b, fn, "b");
  if (a->ndim == 0 || b->ndim == 0) {
    cn_status st = cn_multiply(out, a, b, NULL);
    return st == CN_OK ? st : cn_error_prefix(st, fn);
  }
  int32_t ax = -1;
  return tensordot_impl(out, a, b, 1, &ax, &ax, fn);
}

cn_status cn_outer(cn_array *out, cn_array a, cn_array b) {
  const char *fn = "cn_outer";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(b, fn, "b");
  cn_status st = CN_OK;
  cn_la_scope sc = {0};
  cn_array_s *fa = NULL, *fb = NULL, *ca = NULL, *rb = NULL;
  CN_LA_TRY(flat(&fa, a, fn));
  cn_la_keep(&sc, fa);
  CN_LA_TRY(flat(&fb, b, fn));
  cn_la_keep(&sc, fb);
  int64_t sa[2] = {fa->size, 1}, sb[2] = {1, fb->size};
  CN_LA_TRY(cn_reshape(&ca, fa, 2, sa, CN_ORDER_C));
  cn_la_keep(&sc, ca);
  CN_LA_TRY(cn_reshape(&rb, fb, 2, sb, CN_ORDER_C));
  cn_la_keep(&sc, rb);
  CN_LA_TRY(matmul_impl(out, ca, rb, NULL, false, fn));
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}

cn_status cn_kron(cn_array *out, cn_array a, cn_array b) {
  const char *fn = "cn_kron";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(b, fn, "b");
  int32_t nd = a->ndim > b->ndim ? a->ndim : b->ndim;
  if (2 * nd > CN_MAX_DIMS)
    return cn_error(CN_ERR_VALUE, "%s: operands have too many dimensions", fn);
  int64_t pa[CN_MAX_DIMS], pb[CN_MAX_DIMS], both[CN_MAX_DIMS], res[CN_MAX_DIMS];
  for (int32_t i = 0; i < nd; i++) {
    int32_t ia = i - (nd - a->ndim), ib = i - (nd - b->ndim);
    pa[i] = ia >= 0 ? a->shape[ia] : 1;
    pb[i] = ib >= 0 ? b->shape[ib] : 1;
  }
  for (int32_t i = 0; i < nd; i++) {
    both[i] = pa[i];
    both[nd + i] = pb[i];
    res[i] = pa[i] * pb[i];
  }
  int32_t perm[CN_MAX_DIMS];
  for (int32_t i = 0; i < nd; i++) {
    perm[2 * i] = i;
    perm[2 * i + 1] = nd + i;
  }
  cn_status st = CN_OK;
  cn_la_scope sc = {0};
  cn_array_s *o = NULL, *o2 = NULL, *o3 = NULL, *o4 = NULL;
  CN_LA_TRY(cn_outer(&o, a, b));
  cn_la_keep(&sc, o);
  CN_LA_TRY(cn_reshape(&o2, o, 2 * nd, both, CN_ORDER_C));
  cn_la_keep(&sc, o2);
  CN_LA_TRY(cn_permute_dims(&o3, o2, 2 * nd, perm));
  cn_la_keep(&sc, o3);
  /* The interleaved layout is never a view of the outer product. */
  CN_LA_TRY(cn_copy(&o4, o3, CN_ORDER_C));
  cn_la_keep(&sc, o4);
  CN_LA_TRY(cn_reshape(out, o4, nd, res, CN_ORDER_C));
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}

static cn_status diagonal_impl(cn_array_s **out, const cn_array_s *a,
                               int64_t offset, int32_t axis1, int32_t axis2,
                               const char *fn) {
  if (a->ndim < 2)
    return cn_error(CN_ERR_VALUE,
                    "%s: diag requires an array of at least two dimensions "
                    "(got %d)",
                    fn, (int)a->ndim);
  int32_t x1, x2;
  cn_status st = cn_normalize_axis(&x1, axis1, a->ndim, fn);
  if (st != CN_OK)
    return st;
  st = cn_normalize_axis(&x2, axis2, a->ndim, fn);
  if (st != CN_OK)
    return st;
  if (x1 == x2)
    return cn_error(CN_ERR_VALUE, "%s: axis1 and axis2 cannot be the same (%d)",
                    fn, (int)x1);
  int64_t n1 = a->shape[x1], n2 = a->shape[x2], len;
  char *data = a->data;
  int64_t isz = cn_itemsize(a->dtype);
  if (offset >= 0) {
    len = n2 - offset < n1 ? n2 - offset : n1;
    if (len > 0)
      data += offset * a->strides[x2] * isz;
  } else {
    len = n1 + offset < n2 ? n1 + offset : n2;
    if (len > 0)
      data += -offset * a->strides[x1] * isz;
  }
  if (len < 0)
    len = 0;
  int64_t shape[CN_MAX_DIMS], strides[CN_MAX_DIMS];
  int32_t nd = 0;
  for (int32_t i = 0; i < a->ndim; i++)
    if (i != x1 && i != x2) {
      shape[nd] = a->shape[i];
      strides[nd++] = a->strides[i];
    }
  shape[nd] = len;
  strides[nd++] = a->strides[x1] + a->strides[x2];
  cn_array_s *v = NULL;
  st = cn_array_view(&v, a, data, nd, shape, strides);
  if (st != CN_OK)
    return st;
  v->flags &= ~CN_FLAG_WRITEABLE; /* as NumPy: diagonal() is read-only */
  *out = v;
  return CN_OK;
}

cn_status cn_diagonal(cn_array *out, cn_array a, int64_t offset, int32_t axis1,
                      int32_t axis2) {
  CN_CHECK_OUT(out, "cn_diagonal");
  CN_CHECK_ARRAY(a, "cn_diagonal", "a");
  return diagonal_impl(out, a, offset, axis1, axis2, "cn_diagonal");
}

cn_status cn_trace(cn_array *out, cn_array a, int64_t offset, int32_t axis1,
                   int32_t axis2, cn_dtype dtype) {
  const char *fn = "cn_trace";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  cn_array_s *d = NULL;
  cn_status st = diagonal_impl(&d, a, offset, axis1, axis2, fn);
  if (st != CN_OK)
    return st;
  int32_t ax = -1;
  st = cn_sum(out, d, 1, &ax, 0, dtype, NULL);
  cn_array_release(d);
  return st == CN_OK ? st : cn_error_prefix(st, fn);
}

/* a with its vector axis moved last and, for 2-vectors, padded to 3 with a
 * zero z component. */
static cn_status cross_operand(cn_array_s **out, const cn_array_s *x,
                               int32_t axis, const char *fn, const char *arg) {
  if (x->ndim == 0)
    return cn_error(CN_ERR_VALUE, "%s: argument '%s' is 0-d", fn, arg);
  int32_t ax;
  cn_status st = cn_normalize_axis(&ax, axis, x->ndim, fn);
  if (st != CN_OK)
    return st;
  int64_t len = x->shape[ax];
  if (len != 2 && len != 3)
    return cn_error(CN_ERR_VALUE,
                    "%s: incompatible dimensions for cross product (dimension "
                    "of '%s' must be 2 or 3, got %lld)",
                    fn, arg, (long long)len);
  int32_t dstax = -1;
  cn_array m = NULL;
  st = cn_moveaxis(&m, (cn_array)x, 1, &ax, &dstax);
  if (st != CN_OK)
    return st;
  if (len == 3) {
    *out = m;
    return CN_OK;
  }
  int64_t shape[CN_MAX_DIMS];
  memcpy(shape, m->shape, sizeof(int64_t) * (size_t)m->ndim);
  shape[m->ndim - 1] = 3;
  cn_array_s *z = NULL, *part = NULL;
  st = cn_la_new(&z, x, x->dtype, m->ndim, shape);
  if (st == CN_OK)
    st = cn_fill(z, cn_scalar_int(0));
  if (st == CN_OK)
    st = cn_slice_axis(&part, z, -1, 0, 2, 1);
  if (st == CN_OK)
    st = cn_assign(part, m);
  cn_array_release(part);
  cn_array_release(m);
  if (st != CN_OK) {
    cn_array_release(z);
    return st;
  }
  *out = z;
  return CN_OK;
}

cn_status cn_cross(cn_array *out, cn_array a, cn_array b, int32_t axisa,
                   int32_t axisb, int32_t axisc) {
  const char *fn = "cn_cross";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(b, fn, "b");
  cn_status st = CN_OK;
  cn_la_scope sc = {0};
  cn_array_s *A = NULL, *B = NULL, *ac[3], *bc[3], *res = NULL;
  bool both2 = false;
  {
    int32_t xa, xb;
    CN_LA_TRY(a->ndim ? cn_normalize_axis(&xa, axisa, a->ndim, fn) : CN_OK);
    CN_LA_TRY(b->ndim ? cn_normalize_axis(&xb, axisb, b->ndim, fn) : CN_OK);
    both2 = a->ndim && b->ndim && a->shape[xa] == 2 && b->shape[xb] == 2;
  }
  CN_LA_TRY(cross_operand(&A, a, axisa, fn, "a"));
  cn_la_keep(&sc, A);
  CN_LA_TRY(cross_operand(&B, b, axisb, fn, "b"));
  cn_la_keep(&sc, B);
  for (int i = 0; i < 3; i++) {
    CN_LA_TRY(cn_index_axis(&ac[i], A, -1, i));
    cn_la_keep(&sc, ac[i]);
    CN_LA_TRY(cn_index_axis(&bc[i], B, -1, i));
    cn_la_keep(&sc, bc[i]);
  }
  cn_array_s *comp[3];
  for (int i = 0; i < 3; i++) {
    int j = (i + 1) % 3, k = (i + 2) % 3;
    cn_array_s *p = NULL, *q = NULL;
    if (both2 && i != 2)
      continue;
    CN_LA_TRY(cn_multiply(&p, ac[j], bc[k], NULL));
    cn_la_keep(&sc, p);
    CN_LA_TRY(cn_multiply(&q, ac[k], bc[j], NULL));
    cn_la_keep(&sc, q);
    CN_LA_TRY(cn_subtract(&comp[i], p, q, NULL));
    cn_la_keep(&sc, comp[i]);
  }
  if (both2) {
    cn_array_retain(comp[2]);
    *out = comp[2];
    cn_la_end(&sc);
    return CN_OK;
  }
  int64_t shape[CN_MAX_DIMS];
  int32_t nd = comp[0]->ndim;
  memcpy(shape, comp[0]->shape, sizeof(int64_t) * (size_t)nd);
  shape[nd] = 3;
  CN_LA_TRY(cn_la_new(&res, comp[0], comp[0]->dtype, nd + 1, shape));
  cn_la_keep(&sc, res);
  for (int i = 0; i < 3; i++) {
    cn_array_s *v = NULL;
    CN_LA_TRY(cn_index_axis(&v, res, -1, i));
    cn_la_keep(&sc, v);
    CN_LA_TRY(cn_assign(v, comp[i]));
  }
  {
    int32_t src = -1, dc;
    CN_LA_TRY(cn_normalize_axis(&dc, axisc, nd + 1, fn));
    CN_LA_TRY(cn_moveaxis(out, res, 1, &src, &dc));
  }
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}

/* Chain product of mats[i..j] in the order of the split table. */
static cn_status chain(cn_array_s **out, cn_array_s *const *mats,
                       const int32_t *split, int32_t n, int32_t i, int32_t j,
                       const char *fn) {
  if (i == j) {
    cn_array_retain(mats[i]);
    *out = mats[i];
    return CN_OK;
  }
  int32_t s = split[i * n + j];
  cn_array_s *l = NULL, *r = NULL;
  cn_status st = chain(&l, mats, split, n, i, s, fn);
  if (st != CN_OK)
    return st;
  st = chain(&r, mats, split, n, s + 1, j, fn);
  if (st == CN_OK)
    st = matmul_impl(out, l, r, NULL, false, fn);
  cn_array_release(l);
  cn_array_release(r);
  return st;
}

cn_status cn_linalg_multi_dot(cn_array *out, int32_t n,
                              const cn_array *arrays) {
  const char *fn = "cn_linalg_multi_dot";
  CN_CHECK_OUT(out, fn);
  if (n < 2 || arrays == NULL)
    return cn_error(CN_ERR_VALUE, "%s: expecting at least two arrays (got %d)",
                    fn, (int)n);
  for (int32_t i = 0; i < n; i++) {
    CN_CHECK_ARRAY(arrays[i], fn, "arrays[i]");
    int32_t nd = arrays[i]->ndim;
    bool end = i == 0 || i == n - 1;
    if (nd != 2 && !(end && nd == 1))
      return cn_error(CN_ERR_VALUE,
                      "%s: arrays[%d] has %d dimensions; expected 2 (1 allowed "
                      "for the first and last)",
                      fn, (int)i, (int)nd);
  }
  cn_status st = CN_OK;
  cn_la_scope sc = {0};
  cn_array_s **mats = cn_calloc((size_t)n, sizeof *mats);
  int64_t *p = cn_calloc((size_t)n + 1, sizeof *p);
  double *cost = cn_calloc((size_t)n * (size_t)n, sizeof *cost);
  int32_t *split = cn_calloc((size_t)n * (size_t)n, sizeof *split);
  if (!mats || !p || !cost || !split) {
    st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
    goto fail;
  }
  for (int32_t i = 0; i < n; i++) {
    cn_array_s *x = arrays[i];
    if (x->ndim == 1) {
      int64_t sh[2] = {i == 0 ? 1 : x->shape[0], i == 0 ? x->shape[0] : 1};
      CN_LA_TRY(cn_reshape(&mats[i], x, 2, sh, CN_ORDER_C));
      cn_la_keep(&sc, mats[i]);
    } else {
      mats[i] = x;
    }
    if (i > 0 && mats[i]->shape[0] != p[i]) {
      st = cn_error(CN_ERR_SHAPE,
                    "%s: arrays[%d] has %lld rows, arrays[%d] %lld columns", fn,
                    (int)i, (long long)mats[i]->shape[0], (int)(i - 1),
                    (long long)p[i]);
      goto fail;
    }
    p[i] = mats[i]->shape[0];
    p[i + 1] = mats[i]->shape[1];
  }
  /* Classic matrix-chain dynamic programme on the flop count. */
  for (int32_t len = 1; len < n; len++)
    for (int32_t i = 0; i + len < n; i++) {
      int32_t j = i + len;
      cost[i * n + j] = -1;
      for (int32_t s = i; s < j; s++) {
        double c = cost[i * n + s] + cost[(s + 1) * n + j] +
                   (double)p[i] * (double)p[s + 1] * (double)p[j + 1];
        if (cost[i * n + j] < 0 || c < cost[i * n + j]) {
          cost[i * n + j] = c;
          split[i * n + j] = s;
        }
      }
    }
  cn_array_s *r = NULL;
  CN_LA_TRY(chain(&r, mats, split, n, 0, n - 1, fn));
  cn_la_keep(&sc, r);
  {
    bool f1 = arrays[0]->ndim == 1, l1 = arrays[n - 1]->ndim == 1;
    int64_t sh[2];
    int32_t nd = 0;
    if (!f1)
      sh[nd++] = r->shape[0];
    if (!l1)
      sh[nd++] = r->shape[1];
    CN_LA_TRY(cn_reshape(out, r, nd, sh, CN_ORDER_C));
  }
  free(mats);
  free(p);
  free(cost);
  free(split);
  cn_la_end(&sc);
  return CN_OK;
fail:
  free(mats);
  free(p);
  free(cost);
  free(split);
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}

cn_status cn_linalg_matrix_power(cn_array *out, cn_array a, int64_t n) {
  const char *fn = "cn_linalg_matrix_power";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  cn_status st = cn_la_check_matrix(a, true, fn, "a");
  if (st != CN_OK)
    return st;
  if (!cn_dtype_is_valid(a->dtype))
    return cn_error(CN_ERR_TYPE, "%s: invalid dtype", fn);
  cn_la_scope sc = {0};
  cn_array_s *base = a, *acc = NULL;
  if (n == 0) {
    cn_array_s *eye = NULL, *dg = NULL;
    CN_LA_TRY(cn_la_new(&eye, a, a->dtype, a->ndim, a->shape));
    cn_la_keep(&sc, eye);
    CN_LA_TRY(cn_fill(eye, cn_scalar_int(0)));
    CN_LA_TRY(cn_la_diag_view(&dg, eye));
    cn_la_keep(&sc, dg);
    CN_LA_TRY(cn_fill(dg, cn_scalar_int(1)));
    cn_array_retain(eye);
    *out = eye;
    cn_la_end(&sc);
    return CN_OK;
  }
  if (n < 0) {
    cn_array_s *inv = NULL;
    CN_LA_TRY(cn_linalg_inv(&inv, a));
    base = cn_la_keep(&sc, inv);
    if (n == INT64_MIN) {
      st = cn_error(CN_ERR_VALUE, "%s: exponent %lld is out of range", fn,
                    (long long)n);
      goto fail;
    }
    n = -n;
  }
  /* Binary powering: acc collects the set bits of n. */
  cn_array_s *sq = base;
  cn_array_retain(sq);
  while (true) {
    if (n & 1) {
      if (acc == NULL) {
        acc = sq;
        cn_array_retain(acc);
      } else {
        cn_array_s *t = NULL;
        st = matmul_impl(&t, acc, sq, NULL, false, fn);
        cn_array_release(acc);
        acc = t;
        if (st != CN_OK)
          break;
      }
    }
    n >>= 1;
    if (n == 0)
      break;
    cn_array_s *t = NULL;
    st = matmul_impl(&t, sq, sq, NULL, false, fn);
    cn_array_release(sq);
    sq = t;
    if (st != CN_OK)
      break;
  }
  cn_array_release(sq);
  if (st != CN_OK) {
    cn_array_release(acc);
    goto fail;
  }
  if (acc == a) {
    /* n == 1 returns a copy, never the input itself. */
    cn_array_release(acc);
    CN_LA_TRY(cn_copy(out, a, CN_ORDER_C));
  } else {
    *out = acc;
  }
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}
