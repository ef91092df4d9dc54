/* numpy.linalg.tensorinv and tensorsolve: reshapes around inv and solve. */
#include <string.h>

#include "util.h"

/* Product of extents [from, to) of shape. */
static int64_t extent_prod(const int64_t *shape, int32_t from, int32_t to) {
  int64_t p = 1;
  for (int32_t i = from; i < to; i++)
    p *= shape[i];
  return p;
}

cn_status cn_linalg_tensorinv(cn_array *out, cn_array a, int32_t ind) {
  const char *fn = "cn_linalg_tensorinv";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (ind <= 0)
    return cn_error(CN_ERR_VALUE, "%s: invalid ind %d; it must be positive", fn,
                    (int)ind);
  int32_t nd = a->ndim, k = ind < nd ? ind : nd;
  /* a is read as a (prod(shape[ind:]), prod(shape[:ind])) matrix. */
  int64_t rows = extent_prod(a->shape, k, nd),
          cols = extent_prod(a->shape, 0, k);
  if (rows != cols) {
    char b[256];
    return cn_error(CN_ERR_LINALG,
                    "%s: a of shape %s with ind=%d is not "
                    "'square': prod(shape[ind:]) = %lld, prod(shape[:ind]) = "
                    "%lld",
                    fn, cn_la_shape_str(b, sizeof b, nd, a->shape), (int)ind,
                    (long long)rows, (long long)cols);
  }
  cn_status st = CN_OK;
  cn_la_scope sc = {0};
  cn_array_s *m = NULL, *im = NULL;
  int64_t s2[2] = {rows, cols}, ishape[CN_MAX_DIMS];
  CN_LA_TRY(cn_reshape(&m, a, 2, s2, CN_ORDER_C));
  cn_la_keep(&sc, m);
  CN_LA_TRY(cn_linalg_inv(&im, m));
  cn_la_keep(&sc, im);
  /* result shape: shape[ind:] + shape[:ind] */
  memcpy(ishape, a->shape + k, sizeof(int64_t) * (size_t)(nd - k));
  memcpy(ishape + (nd - k), a->shape, sizeof(int64_t) * (size_t)k);
  CN_LA_TRY(cn_reshape(out, im, nd, ishape, CN_ORDER_C));
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}

cn_status cn_linalg_tensorsolve(cn_array *out, cn_array a, cn_array b,
                                int32_t naxes, const int32_t *axes) {
  const char *fn = "cn_linalg_tensorsolve";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(b, fn, "b");
  int32_t nd = a->ndim;
  if (naxes < 0 || naxes > nd || (naxes > 0 && axes == NULL))
    return cn_error(CN_ERR_VALUE, "%s: invalid naxes %d for a of ndim %d", fn,
                    (int)naxes, (int)nd);
  if (b->ndim >= nd)
    return cn_error(CN_ERR_LINALG,
                    "%s: a (ndim %d) needs more dimensions than "
                    "b (ndim %d)",
                    fn, (int)nd, (int)b->ndim);
  /* The given axes of a move to the end, in the order given. */
  int32_t perm[CN_MAX_DIMS], moved[CN_MAX_DIMS];
  bool seen[CN_MAX_DIMS] = {false};
  for (int32_t i = 0; i < naxes; i++) {
    int32_t ax;
    cn_status st = cn_normalize_axis(&ax, axes[i], nd, fn);
    if (st != CN_OK)
      return st;
    if (seen[ax])
      return cn_error(CN_ERR_VALUE, "%s: repeated axis %d in 'axes'", fn,
                      (int)axes[i]);
    seen[ax] = true;
    moved[i] = ax;
  }
  int32_t np = 0;
  for (int32_t i = 0; i < nd; i++)
    if (!seen[i])
      perm[np++] = i;
  memcpy(perm + np, moved, sizeof(int32_t) * (size_t)naxes);
  int64_t shape[CN_MAX_DIMS];
  for (int32_t i = 0; i < nd; i++)
    shape[i] = a->shape[perm[i]];
  /* x has the trailing a.ndim - b.ndim extents (after the move). */
  int32_t xnd = nd - b->ndim;
  int64_t prod = extent_prod(shape, b->ndim, nd);
  if (extent_prod(shape, 0, b->ndim) != prod) {
    char s1[256], s2[256];
    return cn_error(CN_ERR_LINALG,
                    "%s: a of shape %s and b of shape %s must "
                    "satisfy prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])",
                    fn, cn_la_shape_str(s1, sizeof s1, nd, shape),
                    cn_la_shape_str(s2, sizeof s2, b->ndim, b->shape));
  }
  if (b->size != prod) {
    char s1[256], s2[256];
    return cn_error(CN_ERR_SHAPE,
                    "%s: b of shape %s has %lld elements; a of shape %s needs "
                    "%lld",
                    fn, cn_la_shape_str(s1, sizeof s1, b->ndim, b->shape),
                    (long long)b->size,
                    cn_la_shape_str(s2, sizeof s2, nd, shape), (long long)prod);
  }
  cn_status st = CN_OK;
  cn_la_scope sc = {0};
  cn_array_s *at = NULL, *m = NULL, *bv = NULL, *x = NULL;
  int64_t s2[2] = {prod, prod}, s1 = prod;
  CN_LA_TRY(cn_permute_dims(&at, a, nd, perm));
  cn_la_keep(&sc, at);
  CN_LA_TRY(cn_reshape(&m, at, 2, s2, CN_ORDER_C));
  cn_la_keep(&sc, m);
  CN_LA_TRY(cn_reshape(&bv, b, 1, &s1, CN_ORDER_C));
  cn_la_keep(&sc, bv);
  CN_LA_TRY(cn_linalg_solve(&x, m, bv));
  cn_la_keep(&sc, x);
  CN_LA_TRY(cn_reshape(out, x, xnd, shape + b->ndim, CN_ORDER_C));
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}
