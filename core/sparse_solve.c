/* Direct sparse solvers (cunumpy/sparse.h): LU factorisation and solves
 * through SuiteSparse's UMFPACK on its native layout, canonical CSC with
 * int64 indices (the umfpack_dl_* / umfpack_zl_* entry points; complex
 * values packed, real and imaginary parts interleaved). Without UMFPACK
 * at build time every entry point reports CN_ERR_UNSUPPORTED. */
#include <stdlib.h>
#include <string.h>

#include "sparse_internal.h"

#ifdef CUNUMPY_HAVE_UMFPACK
#include <umfpack.h>
#endif

#define CN_SPARSE_LU_MAGIC 0x434e4c55u /* "CNLU" */

struct cn_sparse_lu_s {
  uint32_t magic;
  atomic_int_fast64_t refcount;
  cn_sparse csc; /* the factorised matrix, which solves refine against */
  bool cplx;
  void *numeric;
};

#define CHECK_LU(f, fn)                                                        \
  do {                                                                         \
    if (CN_UNLIKELY((f) == NULL || (f)->magic != CN_SPARSE_LU_MAGIC))          \
      return cn_error(CN_ERR_VALUE, "%s: argument 'lu' is NULL or released",  \
                      fn);                                                     \
  } while (0)

void cn_sparse_lu_release(cn_sparse_lu lu) {
  if (!lu || lu->magic != CN_SPARSE_LU_MAGIC)
    return;
  if (atomic_fetch_sub(&lu->refcount, 1) != 1)
    return;
  lu->magic = 0;
#ifdef CUNUMPY_HAVE_UMFPACK
  if (lu->numeric) {
    if (lu->cplx)
      umfpack_zl_free_numeric(&lu->numeric);
    else
      umfpack_dl_free_numeric(&lu->numeric);
  }
#endif
  cn_sparse_release(lu->csc);
  free(lu);
}

#ifdef CUNUMPY_HAVE_UMFPACK
static cn_status umf_status(long st, const char *fn, const char *step) {
  if (st == UMFPACK_OK)
    return CN_OK;
  if (st == UMFPACK_WARNING_singular_matrix)
    return cn_error(CN_ERR_LINALG, "%s: matrix is exactly singular", fn);
  if (st == UMFPACK_ERROR_out_of_memory)
    return cn_error(CN_ERR_MEMORY, "%s: UMFPACK %s: out of memory", fn, step);
  return cn_error(CN_ERR_BACKEND, "%s: UMFPACK %s failed (status %ld)", fn,
                  step, st);
}
#endif

cn_status cn_sparse_lu_factor(cn_sparse_lu *out, cn_sparse a) {
  static const char fn[] = "cn_sparse_lu_factor";
  CN_CHECK_OUT(out, fn);
  CHECK_SPARSE(a, fn, "a");
  if (a->nrows != a->ncols)
    return cn_error(CN_ERR_SHAPE, "%s: matrix must be square, not (%lld, "
                    "%lld)", fn, (long long)a->nrows, (long long)a->ncols);
#ifndef CUNUMPY_HAVE_UMFPACK
  return cn_error(CN_ERR_UNSUPPORTED, "%s: this build of cunumpy has no "
                  "UMFPACK (SuiteSparse); install libsuitesparse-dev and "
                  "rebuild", fn);
#else
  bool cplx = cn_is_complex(a->data->dtype);
  cn_sparse c = NULL;
  cn_status st = cn_sparse_csc_canonical(
      &c, a, cplx ? CN_COMPLEX128 : CN_FLOAT64, fn);
  if (st != CN_OK)
    return st;
  struct cn_sparse_lu_s *lu = cn_calloc(1, sizeof *lu);
  if (!lu) {
    cn_sparse_release(c);
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  lu->magic = CN_SPARSE_LU_MAGIC;
  atomic_init(&lu->refcount, 1);
  lu->csc = c;
  lu->cplx = cplx;
  if (c->nrows == 0) {
    *out = lu;
    return CN_OK;
  }
  const long *ap = (const long *)c->a->data, *ai = (const long *)c->b->data;
  const double *ax = (const double *)c->data->data;
  void *sym = NULL;
  long ust;
  if (cplx) {
    ust = umfpack_zl_symbolic(c->nrows, c->ncols, ap, ai, ax, NULL, &sym,
                              NULL, NULL);
    st = umf_status(ust, fn, "symbolic");
    if (st == CN_OK) {
      ust = umfpack_zl_numeric(ap, ai, ax, NULL, sym, &lu->numeric, NULL,
                               NULL);
      st = umf_status(ust, fn, "numeric");
    }
    umfpack_zl_free_symbolic(&sym);
  } else {
    ust = umfpack_dl_symbolic(c->nrows, c->ncols, ap, ai, ax, &sym, NULL,
                              NULL);
    st = umf_status(ust, fn, "symbolic");
    if (st == CN_OK) {
      ust = umfpack_dl_numeric(ap, ai, ax, sym, &lu->numeric, NULL, NULL);
      st = umf_status(ust, fn, "numeric");
    }
    umfpack_dl_free_symbolic(&sym);
  }
  if (st != CN_OK) {
    cn_sparse_lu_release(lu);
    return st;
  }
  *out = lu;
  return CN_OK;
#endif
}

cn_status cn_sparse_lu_solve(cn_array *out, cn_sparse_lu lu, cn_array b) {
  static const char fn[] = "cn_sparse_lu_solve";
  CN_CHECK_OUT(out, fn);
  CHECK_LU(lu, fn);
  CN_CHECK_ARRAY(b, fn, "b");
#ifndef CUNUMPY_HAVE_UMFPACK
  return cn_error(CN_ERR_UNSUPPORTED, "%s: no UMFPACK in this build", fn);
#else
  int64_t n = lu->csc->nrows;
  if ((b->ndim != 1 && b->ndim != 2) || b->shape[0] != n)
    return cn_error(CN_ERR_SHAPE, "%s: b must have %lld rows (1-d or 2-d)",
                    fn, (long long)n);
  if (cn_backend_of(b)->device_type != CN_DEVICE_CPU)
    return cn_error(CN_ERR_DEVICE, "%s: b must be on the CPU", fn);
  bool cplx = lu->cplx || cn_is_complex(b->dtype);
  cn_dtype dt = cplx ? CN_COMPLEX128 : CN_FLOAT64;
  if (cplx && !lu->cplx)
    return cn_error(CN_ERR_TYPE, "%s: a complex b needs a complex factor "
                    "(factorise the matrix as complex)", fn);
  int64_t k = b->ndim == 2 ? b->shape[1] : 1;
  /* b column by column, F order, in the factor's dtype */
  cn_array_s *bf = NULL, *x = NULL;
  cn_status st = cn_array_new(&bf, cn_cpu_backend(), 0, dt, b->ndim, b->shape,
                              CN_ORDER_F);
  if (st == CN_OK && b->size > 0)
    st = cn_cpu_backend()->compute->assign(bf, b);
  if (st == CN_OK)
    st = cn_array_new(&x, cn_cpu_backend(), 0, dt, b->ndim, b->shape,
                      CN_ORDER_F);
  const struct cn_sparse_s *c = lu->csc;
  const long *ap = (const long *)c->a->data, *ai = (const long *)c->b->data;
  const double *ax = (const double *)c->data->data;
  int64_t w = cplx ? 2 : 1;
  for (int64_t j = 0; st == CN_OK && n > 0 && j < k; j++) {
    double *xj = (double *)x->data + j * n * w;
    const double *bj = (const double *)bf->data + j * n * w;
    long ust = cplx ? umfpack_zl_solve(UMFPACK_A, ap, ai, ax, NULL, xj, NULL,
                                       bj, NULL, lu->numeric, NULL, NULL)
                    : umfpack_dl_solve(UMFPACK_A, ap, ai, ax, xj, bj,
                                       lu->numeric, NULL, NULL);
    st = umf_status(ust, fn, "solve");
  }
  cn_array_release(bf);
  if (st != CN_OK) {
    cn_array_release(x);
    return st;
  }
  *out = x;
  return CN_OK;
#endif
}

cn_status cn_sparse_spsolve(cn_array *out, cn_sparse a, cn_array b) {
  static const char fn[] = "cn_sparse_spsolve";
  CN_CHECK_OUT(out, fn);
  CHECK_SPARSE(a, fn, "a");
  CN_CHECK_ARRAY(b, fn, "b");
  cn_sparse_lu lu = NULL;
  cn_sparse a2 = NULL;
  cn_status st = CN_OK;
  /* a real matrix with a complex right-hand side is factorised complex */
  if (cn_is_complex(b->dtype) && !cn_is_complex(a->data->dtype))
    st = cn_sparse_astype(&a2, a, CN_COMPLEX128);
  if (st == CN_OK)
    st = cn_sparse_lu_factor(&lu, a2 ? a2 : a);
  cn_sparse_release(a2);
  if (st != CN_OK)
    return st;
  st = cn_sparse_lu_solve(out, lu, b);
  cn_sparse_lu_release(lu);
  return st;
}
