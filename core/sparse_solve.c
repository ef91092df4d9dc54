/* Sparse solvers (cunumpy/sparse.h) on host matrices. Direct: LU
 * factorisation and solves through SuiteSparse's UMFPACK on its native
 * layout, canonical CSC with int64 indices (the umfpack_dl_* /
 * umfpack_zl_* entry points; complex values packed, real and imaginary
 * parts interleaved); without UMFPACK at build time those entry points
 * report CN_ERR_UNSUPPORTED. Iterative: conjugate gradients in one C loop
 * over a float64 CSR matrix, each step a fused OpenMP pass (SpMV with the
 * p.q dot, both vector updates with the r.r dot), so an iteration makes
 * three passes over memory and allocates nothing. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
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

/* ---- conjugate gradients ---------------------------------------------- */

/* The iteration on CSR arrays (ptr, ix, av) of an n x n matrix: x holds x0
 * and receives the solution; r, p, q are n-element scratch, part nt
 * doubles. Stops when ||r|| <= tol or after maxiter iterations. Each pass
 * splits rows statically and sums its dot product per thread, the partial
 * sums then added in thread order, so a run is reproducible for a given
 * thread count (an OpenMP reduction clause combines in arrival order). */
#define CN_SP_CG_PASS(nt, part, out, BODY)                                     \
  do {                                                                         \
    for (int t_ = 0; t_ < (nt); t_++)                                          \
      (part)[t_] = 0;                                                          \
    _Pragma("omp parallel num_threads(nt)") {                                  \
      int64_t t_ = omp_get_thread_num(), tn_ = omp_get_num_threads();         \
      int64_t lo = n * t_ / tn_, hi = n * (t_ + 1) / tn_;                      \
      double acc = 0;                                                          \
      for (int64_t i = lo; i < hi; i++) {                                      \
        BODY                                                                   \
      }                                                                        \
      (part)[t_] = acc;                                                        \
    }                                                                          \
    (out) = 0;                                                                 \
    for (int t_ = 0; t_ < (nt); t_++)                                          \
      (out) += (part)[t_];                                                     \
  } while (0)

#define CN_SP_CG(IT)                                                           \
  static void cg_##IT(int64_t n, const IT *ptr, const IT *ix,                  \
                      const double *av, const double *b, double *x,            \
                      bool zero_x, double *r, double *p, double *q,            \
                      double *part, double tol, int64_t maxiter, int nt,       \
                      int64_t *iters, double *rnorm) {                         \
    double rr = 0;                                                             \
    CN_SP_CG_PASS(nt, part, rr, {                                              \
      double s = 0;                                                            \
      if (!zero_x)                                                             \
        for (IT j = ptr[i]; j < ptr[i + 1]; j++)                               \
          s += av[j] * x[ix[j]];                                               \
      r[i] = b[i] - s;                                                         \
      acc += r[i] * r[i];                                                      \
    });                                                                        \
    int64_t it = 0;                                                            \
    double rho_prev = 1;                                                       \
    while (!(sqrt(rr) <= tol) && it < maxiter) {                               \
      double rho = rr, beta = it == 0 ? 0 : rho / rho_prev, pq = 0;           \
      bool first = it == 0;                                                    \
      _Pragma("omp parallel for num_threads(nt) schedule(static)")            \
      for (int64_t i = 0; i < n; i++)                                          \
        p[i] = first ? r[i] : r[i] + beta * p[i];                              \
      CN_SP_CG_PASS(nt, part, pq, {                                            \
        double s = 0;                                                          \
        for (IT j = ptr[i]; j < ptr[i + 1]; j++)                               \
          s += av[j] * p[ix[j]];                                               \
        q[i] = s;                                                              \
        acc += p[i] * s;                                                       \
      });                                                                      \
      double alpha = rho / pq;                                                 \
      CN_SP_CG_PASS(nt, part, rr, {                                            \
        x[i] += alpha * p[i];                                                  \
        r[i] -= alpha * q[i];                                                  \
        acc += r[i] * r[i];                                                    \
      });                                                                      \
      rho_prev = rho;                                                          \
      it++;                                                                    \
    }                                                                          \
    *iters = it;                                                               \
    *rnorm = sqrt(rr);                                                         \
  }
CN_SP_CG(int32_t)
CN_SP_CG(int64_t)

/* A C-contiguous float64 host copy of the 1-d real array v. */
static cn_status cg_vec(cn_array_s **out, cn_array_s *v) {
  int64_t n = v->size;
  cn_status st =
      cn_array_new(out, cn_cpu_backend(), 0, CN_FLOAT64, 1, &n, CN_ORDER_C);
  if (st == CN_OK && n > 0)
    st = cn_cpu_backend()->compute->assign(*out, v);
  if (st != CN_OK) {
    cn_array_release(*out);
    *out = NULL;
  }
  return st;
}

static cn_status cg_check_vec(const cn_array_s *v, int64_t n, const char *fn,
                              const char *name) {
  CN_CHECK_ARRAY(v, fn, name);
  if (v->ndim != 1 || v->shape[0] != n)
    return cn_error(CN_ERR_SHAPE, "%s: '%s' must be 1-d of length %lld", fn,
                    name, (long long)n);
  if (cn_backend_of(v)->device_type != CN_DEVICE_CPU)
    return cn_error(CN_ERR_DEVICE, "%s: '%s' must be on the CPU", fn, name);
  if (cn_is_complex(v->dtype))
    return cn_error(CN_ERR_TYPE, "%s: '%s' is complex; this solver is real "
                    "(float64)", fn, name);
  return CN_OK;
}

cn_status cn_sparse_cg(cn_array *x, int64_t *info, cn_sparse a, cn_array b,
                       cn_array x0, double rtol, double atol,
                       int64_t maxiter) {
  static const char fn[] = "cn_sparse_cg";
  CN_CHECK_OUT(x, fn);
  CN_CHECK_OUT(info, fn);
  CHECK_SPARSE(a, fn, "a");
  if (a->nrows != a->ncols)
    return cn_error(CN_ERR_SHAPE, "%s: a must be square, not %lld x %lld", fn,
                    (long long)a->nrows, (long long)a->ncols);
  if (cn_backend_of(a->data)->device_type != CN_DEVICE_CPU)
    return cn_error(CN_ERR_DEVICE, "%s: the matrix must be on the CPU "
                    "(cn_sparse_to_host)", fn);
  if (cn_is_complex(a->data->dtype))
    return cn_error(CN_ERR_TYPE, "%s: a is complex; this solver is real "
                    "(float64)", fn);
  int64_t n = a->nrows;
  cn_status st = cg_check_vec(b, n, fn, "b");
  if (st == CN_OK && x0 != NULL)
    st = cg_check_vec(x0, n, fn, "x0");
  if (st != CN_OK)
    return st;
  if (!(rtol >= 0) || !(atol >= 0))
    return cn_error(CN_ERR_VALUE, "%s: rtol and atol must be >= 0", fn);
  if (maxiter < 0)
    return cn_error(CN_ERR_VALUE, "%s: maxiter must be >= 0, not %lld", fn,
                    (long long)maxiter);
  cn_sparse c = NULL, d = NULL;
  cn_array_s *bv = NULL, *xv = NULL;
  double *scratch = NULL;
  if ((st = cn_sparse_asformat(&c, a, CN_SPARSE_CSR)) != CN_OK ||
      (st = cn_sparse_astype(&d, c, CN_FLOAT64)) != CN_OK ||
      (st = cg_vec(&bv, b)) != CN_OK)
    goto done;
  if (x0 != NULL)
    st = cg_vec(&xv, x0);
  else if ((st = cn_array_new(&xv, cn_cpu_backend(), 0, CN_FLOAT64, 1, &n,
                              CN_ORDER_C)) == CN_OK && n > 0)
    memset(xv->data, 0, sizeof(double) * (size_t)n);
  if (st != CN_OK)
    goto done;
  const double *bp = (const double *)bv->data;
  double bb = 0;
  for (int64_t i = 0; i < n; i++)
    bb += bp[i] * bp[i];
  double tol = fmax(atol, rtol * sqrt(bb));
  int64_t iters = 0;
  double rn = 0;
  if (bb == 0) { /* as scipy: x = 0 solves b = 0 */
    if (n > 0)
      memset(xv->data, 0, sizeof(double) * (size_t)n);
  } else {
    int nt = cn_cpu_threads_for(d->nnz + 4 * n);
    scratch = cn_malloc(sizeof(double) * (3 * (size_t)n + (size_t)nt));
    if (!scratch) {
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
      goto done;
    }
    double *r = scratch, *p = scratch + n, *q = scratch + 2 * n,
           *part = scratch + 3 * n;
    if (d->a->dtype == CN_INT64)
      cg_int64_t(n, (const int64_t *)d->a->data, (const int64_t *)d->b->data,
                 (const double *)d->data->data, bp, (double *)xv->data,
                 x0 == NULL, r, p, q, part, tol, maxiter, nt, &iters, &rn);
    else
      cg_int32_t(n, (const int32_t *)d->a->data, (const int32_t *)d->b->data,
                 (const double *)d->data->data, bp, (double *)xv->data,
                 x0 == NULL, r, p, q, part, tol, maxiter, nt, &iters, &rn);
  }
  *info = (bb == 0 || rn <= tol) ? 0 : maxiter;
  *x = xv;
  xv = NULL;
done:
  free(scratch);
  cn_sparse_release(c);
  cn_sparse_release(d);
  cn_array_release(bv);
  cn_array_release(xv);
  return st;
}
