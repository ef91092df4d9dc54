/* Fortran 2018 C descriptors (CFI_cdesc_t) <-> cunumpy arrays, for the
 * hand-written module `cunumpy` (cunumpy.F90). One assumed-rank,
 * assumed-type entry point serves every rank and element type, contiguous or
 * not: Fortran passes the section's descriptor (base address, extents and
 * byte strides) without copying. Validation messages are composed on the
 * Fortran side; these helpers only translate descriptors. */
#include <ISO_Fortran_binding.h>
#include <stdint.h>

#include "cunumpy/cunumpy.h"

/* cunumpy dtype of a descriptor's element type, or 0 when none matches
 * (default logical, character, derived types). */
int32_t cn_f_dtype_of(const CFI_cdesc_t *x) {
  switch (x->type) {
  case CFI_type_float:
    return CN_FLOAT32;
  case CFI_type_double:
    return CN_FLOAT64;
  case CFI_type_float_Complex:
    return CN_COMPLEX64;
  case CFI_type_double_Complex:
    return CN_COMPLEX128;
  case CFI_type_int8_t:
    return CN_INT8;
  case CFI_type_int16_t:
    return CN_INT16;
  case CFI_type_int32_t:
    return CN_INT32;
  case CFI_type_int64_t:
    return CN_INT64;
  case CFI_type_Bool:
    return CN_BOOL;
  default:
    return 0;
  }
}

/* Shape, element strides and the bytes reachable below/above the first
 * element. CN_ERR_VALUE when a byte stride is not a multiple of the element
 * size (a component slice of a derived type with odd padding). */
static cn_status describe(const CFI_cdesc_t *x, int64_t *shape,
                          int64_t *strides, int64_t *before, int64_t *after) {
  int64_t el = (int64_t)x->elem_len, lo = 0, hi = 0, size = 1;
  for (int i = 0; i < x->rank; i++) {
    int64_t ext = (int64_t)x->dim[i].extent, sm = (int64_t)x->dim[i].sm;
    if (el == 0 || sm % el != 0)
      return CN_ERR_VALUE;
    shape[i] = ext;
    strides[i] = sm / el;
    size *= ext;
    if (ext > 0) {
      if (sm < 0)
        lo += (ext - 1) * sm;
      else
        hi += (ext - 1) * sm;
    }
  }
  *before = size == 0 ? 0 : -lo;
  *after = size == 0 ? 0 : hi + el;
  return CN_OK;
}

/* Wraps the Fortran array x as a column-major cunumpy view (copy == 0; the
 * Fortran memory is borrowed and must outlive every view) or copies it into
 * a new column-major array on the active backend (copy != 0). readonly
 * applies to views.
 * CN_ERR_TYPE for an element type without a dtype; other errors are the
 * core's, with its message. */
cn_status cn_f_import(cn_array *out, const CFI_cdesc_t *x, int32_t copy,
                      int32_t readonly) {
  int64_t shape[CFI_MAX_RANK + 1], strides[CFI_MAX_RANK + 1], before, after;
  int32_t dtype = cn_f_dtype_of(x);
  if (dtype == 0)
    return CN_ERR_TYPE;
  cn_status st = describe(x, shape, strides, &before, &after);
  if (st != CN_OK)
    return st;
  if (!copy)
    return cn_wrap_host(out, x->base_addr, before, after, x->rank, shape,
                        strides, (cn_dtype)dtype, readonly, NULL, NULL);
  /* a column-major copy (cn_from_host would make it row-major), then onto
   * the active backend (a new reference to it when that is the CPU) */
  cn_array view, host;
  st = cn_wrap_host(&view, x->base_addr, before, after, x->rank, shape, strides,
                    (cn_dtype)dtype, 1, NULL, NULL);
  if (st != CN_OK)
    return st;
  st = cn_copy(&host, view, CN_ORDER_F);
  cn_array_release(view);
  if (st != CN_OK)
    return st;
  st = cn_to_active(out, host);
  cn_array_release(host);
  return st;
}

/* cn_wrap_handle: like cn_f_import (view, copy == 0) but called straight
 * from the user's code, so that x arrives with the caller's own descriptor
 * (gfortran 12 hands a Fortran procedure a packed copy of a derived-type
 * component slice such as pts%y). On success the old handle in *h is
 * released and replaced. */
cn_status cn_f_wrap_handle(cn_array *h, const CFI_cdesc_t *x,
                           int32_t readonly) {
  cn_array view;
  cn_status st = cn_f_import(&view, x, 0, readonly);
  if (st != CN_OK)
    return st;
  cn_array_release(*h);
  *h = view;
  return CN_OK;
}

/* Points the Fortran pointer p (assumed-rank, of the array's element type)
 * at host memory base with the given extents and element strides, lower
 * bounds 1; ndim < 0 disassociates p. Returns a CFI error code (0 on
 * success); the caller has checked rank, type and device. */
static int32_t set_pointer(CFI_cdesc_t *p, void *base, int32_t ndim,
                           const int64_t *shape, const int64_t *strides) {
  static char empty; /* CFI_establish wants an address even for size 0 */
  CFI_CDESC_T(CFI_MAX_RANK) src;
  CFI_cdesc_t *s = (CFI_cdesc_t *)&src;
  CFI_index_t ext[CFI_MAX_RANK], lb[CFI_MAX_RANK];
  if (ndim < 0)
    return CFI_setpointer(p, NULL, NULL);
  if (ndim > CFI_MAX_RANK || ndim != p->rank)
    return CFI_INVALID_RANK;
  for (int i = 0; i < ndim; i++) {
    ext[i] = (CFI_index_t)shape[i];
    lb[i] = 1;
  }
  int rc = CFI_establish(s, base ? base : &empty, CFI_attribute_other, p->type,
                         p->elem_len, (CFI_rank_t)ndim, ext);
  if (rc != CFI_SUCCESS)
    return rc;
  for (int i = 0; i < ndim; i++)
    s->dim[i].sm = (CFI_index_t)(strides[i] * (int64_t)p->elem_len);
  return CFI_setpointer(p, s, lb);
}

/* One C entry point per Fortran element type: a Fortran interface fixes the
 * pointer's declared type, and one binding label may not carry two
 * interfaces. */
#define CN_F_SET_POINTER_(suffix)                                              \
  int32_t cn_f_set_pointer_##suffix(CFI_cdesc_t *p, void *base, int32_t ndim,  \
                                    const int64_t *shape,                      \
                                    const int64_t *strides) {                  \
    return set_pointer(p, base, ndim, shape, strides);                         \
  }
CN_F_SET_POINTER_(r4)
CN_F_SET_POINTER_(r8)
CN_F_SET_POINTER_(c4)
CN_F_SET_POINTER_(c8)
CN_F_SET_POINTER_(i1)
CN_F_SET_POINTER_(i2)
CN_F_SET_POINTER_(i4)
CN_F_SET_POINTER_(i8)
CN_F_SET_POINTER_(l1)
