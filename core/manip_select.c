/* NumPy's select (include/cunumpy/manip.h: cn_select): the result starts as
 * the default and each choice, last to first, is written where its
 * condition holds, through cn_where with the result as destination, so
 * every dtype and device the ufuncs serve works. */
#include "cunumpy/manip.h"

#include <stdlib.h>
#include <string.h>

#include "cunumpy/ufunc.h"
#include "cunumpy/view.h"
#include "array_util.h"

/* Promoted dtype of the choices and the default: the non-weak dtypes first,
 * then each weak (Python) scalar under NEP 50; only weak ones: their
 * promotion. */
static cn_status select_dtype(cn_dtype *out, int32_t n, const cn_array *ch,
                              const char *fn) {
  cn_dtype p = CN_DTYPE_DEFAULT, w = CN_DTYPE_DEFAULT;
  cn_status st = CN_OK;
  for (int32_t i = 0; i < n && st == CN_OK; i++) {
    bool weak = (ch[i]->flags & CN_FLAG_WEAK_SCALAR) != 0;
    cn_dtype *acc = weak ? &w : &p;
    if (*acc == CN_DTYPE_DEFAULT)
      *acc = ch[i]->dtype;
    else
      st = cn_result_type(acc, *acc, ch[i]->dtype);
  }
  /* As NumPy's result_type, an integer scalar out of the array dtype's
   * range keeps that dtype (the value then wraps when written). */
  for (int32_t i = 0; i < n && st == CN_OK && p != CN_DTYPE_DEFAULT; i++)
    if (ch[i]->flags & CN_FLAG_WEAK_SCALAR) {
      cn_dtype q = p;
      st = cn_result_type_scalar(&q, p, ch[i]->weak);
      if (st == CN_ERR_OVERFLOW)
        st = CN_OK;
      else
        p = q;
    }
  if (st != CN_OK)
    return cn_error(CN_ERR_TYPE, "%s: choicelist and default value do not "
                                 "have a common dtype", fn);
  *out = p != CN_DTYPE_DEFAULT ? p : w;
  return CN_OK;
}

/* Broadcast shape of n >= 1 arrays (CN_ERR_SHAPE names fn and what). */
static cn_status common_shape(int32_t *nd, int64_t *shape, int32_t n,
                              const cn_array *arrs, const char *what,
                              const char *fn) {
  *nd = arrs[0]->ndim;
  memcpy(shape, arrs[0]->shape, sizeof(int64_t) * (size_t)*nd);
  for (int32_t i = 1; i < n; i++) {
    const int32_t nds[2] = {*nd, arrs[i]->ndim};
    const int64_t *shs[2] = {shape, arrs[i]->shape};
    int64_t tmp[CN_MAX_DIMS];
    if (cn_broadcast_shapes(nd, tmp, 2, nds, shs) != CN_OK)
      return cn_error(CN_ERR_SHAPE, "%s: the %s do not broadcast together "
                                    "(entry %d)", fn, what, (int)i);
    memcpy(shape, tmp, sizeof(int64_t) * (size_t)*nd);
  }
  return CN_OK;
}

static bool same_device(const cn_array_s *x, const cn_array_s *like) {
  return (x->flags & CN_FLAG_WEAK_SCALAR) ||
         (x->buf->backend == like->buf->backend &&
          x->buf->device_id == like->buf->device_id);
}

/* x cast unsafely to r's dtype; a Python scalar becomes a 0-d array on r's
 * device. */
static cn_status as_result_dtype(cn_array_s **out, cn_array_s *x,
                                 const cn_array_s *r) {
  if (!(x->flags & CN_FLAG_WEAK_SCALAR))
    return cn_astype(out, x, r->dtype, 0);
  cn_array_s *c = NULL;
  cn_status st = cn_new_on(&c, r, r->dtype, 0, NULL);
  if (st == CN_OK)
    st = cn_fill(c, x->weak);
  if (st != CN_OK) {
    cn_array_release(c);
    return st;
  }
  *out = c;
  return CN_OK;
}

cn_status cn_select(cn_array *out, int32_t n, const cn_array *conditions,
                    const cn_array *choices, cn_array default_value) {
  const char *fn = "cn_select";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(default_value, fn, "default_value");
  if (n < 1 || conditions == NULL || choices == NULL)
    return cn_error(CN_ERR_VALUE, "%s: select with an empty condition list "
                                  "is not possible", fn);
  if (n > INT32_MAX - 1)
    return cn_error(CN_ERR_VALUE, "%s: too many conditions", fn);
  cn_array *all = cn_malloc(sizeof(cn_array) * ((size_t)n + 1));
  if (!all)
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  cn_status st = CN_OK;
  for (int32_t i = 0; i < n && st == CN_OK; i++) {
    cn_array c = conditions[i], x = choices[i];
    if (c == NULL || c->magic != CN_ARRAY_MAGIC)
      st = cn_error(CN_ERR_VALUE, "%s: condition %d is NULL or released", fn,
                    (int)i);
    else if (x == NULL || x->magic != CN_ARRAY_MAGIC)
      st = cn_error(CN_ERR_VALUE, "%s: choice %d is NULL or released", fn,
                    (int)i);
    else if (c->dtype != CN_BOOL)
      st = cn_error(CN_ERR_TYPE, "%s: invalid entry %d in condlist: should "
                                 "be boolean ndarray", fn, (int)i);
    all[i] = x;
  }
  /* The result lives with the first array that is not a Python scalar. */
  cn_array like = default_value;
  for (int32_t i = n - 1; i >= 0 && st == CN_OK; i--) {
    if (!(choices[i]->flags & CN_FLAG_WEAK_SCALAR))
      like = choices[i];
    if (!(conditions[i]->flags & CN_FLAG_WEAK_SCALAR))
      like = conditions[i];
  }
  for (int32_t i = 0; i < n && st == CN_OK; i++)
    if (!same_device(conditions[i], like) || !same_device(choices[i], like))
      st = cn_error(CN_ERR_DEVICE, "%s: entry %d is on a different device",
                    fn, (int)i);
  if (st == CN_OK && !same_device(default_value, like))
    st = cn_error(CN_ERR_DEVICE, "%s: default is on a different device", fn);
  all[n] = default_value;
  cn_dtype dt = CN_DTYPE_DEFAULT;
  int32_t cnd = 0, chnd = 0, rnd = 0;
  int64_t cshape[CN_MAX_DIMS], chshape[CN_MAX_DIMS], rshape[CN_MAX_DIMS];
  if (st == CN_OK)
    st = select_dtype(&dt, n + 1, all, fn);
  if (st == CN_OK)
    st = common_shape(&cnd, cshape, n, conditions, "conditions", fn);
  if (st == CN_OK)
    st = common_shape(&chnd, chshape, n + 1, all, "choices", fn);
  if (st == CN_OK && chnd == 0) {
    rnd = cnd;
    memcpy(rshape, cshape, sizeof cshape);
  } else if (st == CN_OK) {
    const int32_t nds[2] = {cnd, chnd};
    const int64_t *shs[2] = {cshape, chshape};
    if (cn_broadcast_shapes(&rnd, rshape, 2, nds, shs) != CN_OK)
      st = cn_error(CN_ERR_SHAPE, "%s: the conditions and choices do not "
                                  "broadcast together", fn);
  }
  free(all);
  cn_array_s *r = NULL;
  if (st == CN_OK)
    st = cn_new_on(&r, like, dt, rnd, rshape);
  if (st == CN_OK && (default_value->flags & CN_FLAG_WEAK_SCALAR))
    st = cn_fill(r, default_value->weak);
  else if (st == CN_OK)
    st = cn_assign(r, default_value);
  /* Choices cast unsafely first, as NumPy's copyto(casting='unsafe'). */
  for (int32_t i = n - 1; i >= 0 && st == CN_OK; i--) {
    cn_array_s *c = NULL, *t = NULL;
    st = as_result_dtype(&c, choices[i], r);
    if (st == CN_OK)
      st = cn_where(&t, conditions[i], c, r, r);
    cn_array_release(c);
    cn_array_release(t);
  }
  if (st != CN_OK) {
    cn_array_release(r);
    return cn_error_prefix(st, fn);
  }
  *out = r;
  return CN_OK;
}
