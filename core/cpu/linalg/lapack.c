/* LAPACK drivers on the CPU (LAPACKE, column-major, over packed batches).
 * One template per kind is expanded for s, d, c, z; the few drivers whose
 * names differ between real and complex (orgqr/ungqr, syevd/heevd) are
 * aliased, and geev's real form is converted to NumPy's complex output. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../../linalg/descriptors.h"
#include "blas.h"
#include "../cpu.h"
#include "../cpu.h"

#define LA_s_orgqr CN_LAPACKE(sorgqr)
#define LA_d_orgqr CN_LAPACKE(dorgqr)
#define LA_c_orgqr CN_LAPACKE(cungqr)
#define LA_z_orgqr CN_LAPACKE(zungqr)
#define LA_s_syevd CN_LAPACKE(ssyevd)
#define LA_d_syevd CN_LAPACKE(dsyevd)
#define LA_c_syevd CN_LAPACKE(cheevd)
#define LA_z_syevd CN_LAPACKE(zheevd)

#define COL LAPACK_COL_MAJOR

static inline lapack_int li(int64_t v) { return (lapack_int)v; }

/* Maps a negative LAPACKE return to a status (info > 0 is the caller's). */
static cn_status la_fail(const char *routine, lapack_int info) {
  if (info == LAPACK_WORK_MEMORY_ERROR || info == LAPACK_TRANSPOSE_MEMORY_ERROR)
    return cn_error(CN_ERR_MEMORY, "cn_linalg: LAPACK %s ran out of memory",
                    routine);
  return cn_error(CN_ERR_BACKEND, "cn_linalg: LAPACK %s rejected argument %d",
                  routine, (int)-info);
}

#define LA_CHECK(routine, call)                                                \
  do {                                                                         \
    lapack_int info_ = (call);                                                 \
    if (info_ < 0) {                                                           \
      st = la_fail(routine, info_);                                            \
      goto done;                                                               \
    }                                                                          \
    if (info_ > 0 && args->info == 0) {                                        \
      args->info = info_;                                                      \
      args->info_index = bi;                                                   \
    }                                                                          \
  } while (0)

/* Identity into a packed column-major (r x c) matrix. */
#define LA_EYE(T, p, r, c)                                                     \
  do {                                                                         \
    memset((p), 0, sizeof(T) * (size_t)((r) * (c)));                           \
    for (int64_t d_ = 0; d_ < (r) && d_ < (c); d_++)                           \
      (p)[d_ + d_ * (r)] = 1;                                                  \
  } while (0)

/* Whether a packed matrix of cnt elements holds a NaN (want_nan) or any
 * non-finite value. LAPACK cannot cope with such input in some drivers: geev
 * corrupts its workspace on inf, gesdd and gelsd reject a NaN norm as an
 * argument error; those get a value check first, as NumPy's do. */
#define LA_SCAN(T)                                                             \
  static bool la_has_nonfinite_##T(const T *p, int64_t cnt, bool want_nan) {   \
    for (int64_t i = 0; i < cnt; i++) {                                        \
      if (want_nan ? (isnan(creal(p[i])) || isnan(cimag(p[i])))                \
                   : !(isfinite(creal(p[i])) && isfinite(cimag(p[i]))))        \
        return true;                                                           \
    }                                                                          \
    return false;                                                              \
  }
typedef lapack_complex_float la_cf;
typedef lapack_complex_double la_cd;
LA_SCAN(float)
LA_SCAN(double)
LA_SCAN(la_cf)
LA_SCAN(la_cd)
#define la_has_nonfinite(p, cnt, want_nan)                                     \
  _Generic((p), float *: la_has_nonfinite_float,                               \
           double *: la_has_nonfinite_double,                                  \
           la_cf *: la_has_nonfinite_la_cf,                                    \
           la_cd *: la_has_nonfinite_la_cd)((p), (cnt), (want_nan))

/* Everything but geev, for one precision: P LAPACK prefix, T element type,
 * R real type. */
#define LA_TEMPLATE(P, T, R)                                                   \
  static cn_status la_##P(cn_lapack_args *args) {                              \
    cn_status st = CN_OK;                                                      \
    int64_t m = args->m, n = args->n, k = args->k;                             \
    int64_t mn = m < n ? m : n;                                                \
    T *A = (T *)args->a, *B = (T *)args->b;                                    \
    T *scratch = NULL;                                                         \
    lapack_int *ipiv = NULL;                                                   \
    if (args->kind == CN_LAPACK_QR) {                                          \
      scratch = cn_malloc(sizeof(T) * (size_t)(mn + 1));                          \
      if (!scratch)                                                            \
        return cn_error(CN_ERR_MEMORY, "cn_linalg_qr: out of memory");         \
    }                                                                          \
    if (args->kind == CN_LAPACK_SOLVE || args->kind == CN_LAPACK_INV ||        \
        args->kind == CN_LAPACK_SLOGDET) {                                     \
      ipiv = cn_malloc(sizeof(lapack_int) * (size_t)(n + 1));                     \
      if (!ipiv)                                                               \
        return cn_error(CN_ERR_MEMORY, "cn_linalg: out of memory");            \
    }                                                                          \
    for (int64_t bi = 0; bi < args->batch; bi++) {                             \
      T *a = A + bi * m * n;                                                   \
      switch (args->kind) {                                                    \
      case CN_LAPACK_CHOLESKY:                                                 \
        if (n == 0)                                                            \
          break;                                                               \
        LA_CHECK("potrf", CN_LAPACKE(P##potrf)(COL, args->upper ? 'U' : 'L',   \
                                               li(n), a, li(n)));              \
        for (int64_t j = 0; j < n; j++)                                        \
          for (int64_t i = 0; i < n; i++)                                      \
            if (args->upper ? i > j : i < j)                                   \
              a[i + j * n] = 0;                                                \
        break;                                                                 \
      case CN_LAPACK_QR: {                                                     \
        int64_t kr = args->full ? m : mn;                                      \
        T *r = args->out0 ? (T *)args->out0 + bi * kr * n : NULL;              \
        T *q = args->out1 ? (T *)args->out1 + bi * m * kr : NULL;              \
        if (mn > 0)                                                            \
          LA_CHECK("geqrf", CN_LAPACKE(P##geqrf)(COL, li(m), li(n), a,         \
                                                 li(m > 1 ? m : 1), scratch)); \
        if (args->out2 && mn > 0) /* mode raw: tau, a stays as h^T */          \
          memcpy((T *)args->out2 + bi * mn, scratch, sizeof(T) * (size_t)mn);  \
        if (!r)                                                                \
          break;                                                               \
        for (int64_t j = 0; j < n; j++)                                        \
          for (int64_t i = 0; i < kr; i++)                                     \
            r[i + j * kr] = i <= j ? a[i + j * m] : 0;                         \
        if (!q)                                                                \
          break;                                                               \
        if (mn == 0) {                                                         \
          LA_EYE(T, q, m, kr);                                                 \
          break;                                                               \
        }                                                                      \
        memset(q, 0, sizeof(T) * (size_t)(m * kr));                            \
        memcpy(q, a, sizeof(T) * (size_t)(m * (n < kr ? n : kr)));             \
        LA_CHECK("orgqr", LA_##P##_orgqr(COL, li(m), li(kr), li(mn), q, li(m), \
                                         scratch));                            \
        break;                                                                 \
      }                                                                        \
      case CN_LAPACK_SVD: {                                                    \
        R *s = (R *)args->out0 + bi * mn;                                      \
        int64_t ucols = args->full ? m : mn, vrows = args->full ? n : mn;      \
        T *u = args->vectors ? (T *)args->out1 + bi * m * ucols : NULL;        \
        T *vt = args->vectors ? (T *)args->out2 + bi * vrows * n : NULL;       \
        if (mn == 0) {                                                         \
          if (u)                                                               \
            LA_EYE(T, u, m, ucols);                                            \
          if (vt)                                                              \
            LA_EYE(T, vt, vrows, n);                                           \
          break;                                                               \
        }                                                                      \
        if (la_has_nonfinite(a, m * n, true)) {                                \
          st = cn_error(CN_ERR_LINALG, "cn_linalg_svd: SVD did not converge"); \
          goto done;                                                           \
        }                                                                      \
        char jobz = !args->vectors ? 'N' : args->full ? 'A' : 'S';             \
        LA_CHECK("gesdd",                                                      \
                 CN_LAPACKE(P##gesdd)(COL, jobz, li(m), li(n), a, li(m), s, u, \
                                      li(m), vt, li(vrows > 1 ? vrows : 1)));  \
        break;                                                                 \
      }                                                                        \
      case CN_LAPACK_EIGH: {                                                   \
        R *w = (R *)args->out0 + bi * n;                                       \
        if (n == 0)                                                            \
          break;                                                               \
        LA_CHECK("syevd",                                                      \
                 LA_##P##_syevd(COL, args->vectors ? 'V' : 'N',                \
                                args->upper ? 'U' : 'L', li(n), a, li(n), w)); \
        break;                                                                 \
      }                                                                        \
      case CN_LAPACK_SOLVE:                                                    \
      case CN_LAPACK_INV: {                                                    \
        T *b = B + bi * n * k;                                                 \
        if (args->kind == CN_LAPACK_INV)                                       \
          LA_EYE(T, b, n, n);                                                  \
        if (n == 0 || k == 0)                                                  \
          break;                                                               \
        if (args->trans) {                                                     \
          /* a^T @ x == b: LU of a, then the transposed triangular solves */   \
          lapack_int inf =                                                     \
              CN_LAPACKE(P##getrf_work)(COL, li(n), li(n), a, li(n), ipiv);    \
          if (inf == 0)                                                        \
            inf = CN_LAPACKE(P##getrs_work)(COL, 'T', li(n), li(k), a, li(n),  \
                                            ipiv, b, li(n));                   \
          LA_CHECK("getrf/getrs", inf);                                        \
          break;                                                               \
        }                                                                      \
        LA_CHECK("gesv", CN_LAPACKE(P##gesv)(COL, li(n), li(k), a, li(n),      \
                                             ipiv, b, li(n)));                 \
        break;                                                                 \
      }                                                                        \
      case CN_LAPACK_SLOGDET: {                                                \
        T *sign = (T *)args->out0 + bi;                                        \
        R *logdet = (R *)args->out1 + bi;                                      \
        T sg = 1;                                                              \
        R ld = 0;                                                              \
        lapack_int info =                                                      \
            n > 0 ? CN_LAPACKE(P##getrf)(COL, li(n), li(n), a, li(n), ipiv)    \
                  : 0;                                                         \
        if (info < 0) {                                                        \
          st = la_fail("getrf", info);                                         \
          goto done;                                                           \
        }                                                                      \
        if (info > 0) {                                                        \
          *sign = 0;                                                           \
          *logdet = -(R)INFINITY;                                              \
          break;                                                               \
        }                                                                      \
        for (int64_t i = 0; i < n; i++) {                                      \
          T dv = a[i + i * n];                                                 \
          R av = (R)hypot(creal(dv), cimag(dv));                               \
          if (ipiv[i] != i + 1)                                                \
            sg = -sg;                                                          \
          /* real pivots: a sign test, so an inf pivot keeps a sign */         \
          if (sizeof(T) == sizeof(R))                                          \
            sg = creal(dv) < 0 ? -sg : sg;                                     \
          else                                                                 \
            sg = sg * (dv / av);                                               \
          ld += (R)log(av);                                                    \
        }                                                                      \
        *sign = sg;                                                            \
        *logdet = ld;                                                          \
        break;                                                                 \
      }                                                                        \
      case CN_LAPACK_LSTSQ: {                                                  \
        int64_t ldb = m > n ? m : n;                                           \
        if (ldb < 1)                                                           \
          ldb = 1;                                                             \
        T *b = B + bi * ldb * k;                                               \
        R *s = (R *)args->out0 + bi * mn;                                      \
        int64_t *rank = (int64_t *)args->out1 + bi;                            \
        lapack_int rk = 0;                                                     \
        if (mn > 0 && (la_has_nonfinite(a, m * n, false) ||                    \
                       la_has_nonfinite(b, ldb * k, false))) {                 \
          st = cn_error(CN_ERR_LINALG, "cn_linalg_lstsq: SVD did not "         \
                                       "converge in Linear Least Squares");    \
          goto done;                                                           \
        }                                                                      \
        if (mn == 0) {                                                         \
          for (int64_t j = 0; j < k; j++)                                      \
            for (int64_t i = 0; i < n; i++)                                    \
              b[i + j * ldb] = 0;                                              \
          *rank = 0;                                                           \
          break;                                                               \
        }                                                                      \
        if (k == 0) {                                                          \
          /* gelsd rejects nrhs == 0 in some builds; s and rank still count */ \
          T *tmp = cn_calloc((size_t)ldb, sizeof(T));                             \
          if (!tmp) {                                                          \
            st = cn_error(CN_ERR_MEMORY, "cn_linalg_lstsq: out of memory");    \
            goto done;                                                         \
          }                                                                    \
          lapack_int inf2 =                                                    \
              CN_LAPACKE(P##gelsd)(COL, li(m), li(n), 1, a, li(m), tmp,        \
                                   li(ldb), s, (R)args->rcond, &rk);           \
          free(tmp);                                                           \
          LA_CHECK("gelsd", inf2);                                             \
        } else {                                                               \
          LA_CHECK("gelsd",                                                    \
                   CN_LAPACKE(P##gelsd)(COL, li(m), li(n), li(k), a, li(m), b, \
                                        li(ldb), s, (R)args->rcond, &rk));     \
        }                                                                      \
        *rank = rk;                                                            \
        break;                                                                 \
      }                                                                        \
      default:                                                                 \
        st = cn_error(CN_ERR_INTERNAL, "cn_linalg: kind %d not in template",   \
                      (int)args->kind);                                        \
        goto done;                                                             \
      }                                                                        \
    }                                                                          \
  done:                                                                        \
    free(scratch);                                                             \
    free(ipiv);                                                                \
    return st;                                                                 \
  }

LA_TEMPLATE(s, float, float)
LA_TEMPLATE(d, double, double)
LA_TEMPLATE(c, lapack_complex_float, float)
LA_TEMPLATE(z, lapack_complex_double, double)

static cn_status la_nonfinite_eig(void) {
  return cn_error(CN_ERR_LINALG,
                  "cn_linalg_eig: Array must not contain infs or NaNs");
}

/* Real geev: eigenvalues come as (wr, wi), conjugate pairs of eigenvectors
 * as (re, im) column pairs; NumPy's output is complex. */
#define LA_GEEV_REAL(P, R, CT)                                                 \
  static cn_status la_geev_##P(cn_lapack_args *args) {                         \
    cn_status st = CN_OK;                                                      \
    int64_t n = args->n;                                                       \
    R *wr = cn_malloc(sizeof(R) * (size_t)(2 * n + 1));                           \
    R *vr = args->out1 ? cn_malloc(sizeof(R) * (size_t)(n * n + 1)) : NULL;       \
    if (!wr || (args->out1 && !vr)) {                                          \
      free(wr);                                                                \
      free(vr);                                                                \
      return cn_error(CN_ERR_MEMORY, "cn_linalg_eig: out of memory");          \
    }                                                                          \
    R *wi = wr + n;                                                            \
    for (int64_t bi = 0; bi < args->batch && n > 0; bi++) {                    \
      R *a = (R *)args->a + bi * n * n;                                        \
      CT *w = (CT *)args->out0 + bi * n;                                       \
      CT *v = args->out1 ? (CT *)args->out1 + bi * n * n : NULL;               \
      if (la_has_nonfinite(a, n * n, false)) {                                 \
        st = la_nonfinite_eig();                                               \
        goto done;                                                             \
      }                                                                        \
      LA_CHECK("geev",                                                         \
               CN_LAPACKE(P##geev)(COL, 'N', v ? 'V' : 'N', li(n), a, li(n),   \
                                   wr, wi, NULL, 1, vr, li(n)));               \
      for (int64_t j = 0; j < n; j++)                                          \
        w[j] = wr[j] + wi[j] * I;                                              \
      if (!v)                                                                  \
        continue;                                                              \
      for (int64_t j = 0; j < n; j++) {                                        \
        if (wi[j] == 0 || j + 1 == n) {                                        \
          for (int64_t i = 0; i < n; i++)                                      \
            v[i + j * n] = vr[i + j * n];                                      \
        } else {                                                               \
          for (int64_t i = 0; i < n; i++) {                                    \
            R re = vr[i + j * n], im = vr[i + (j + 1) * n];                    \
            v[i + j * n] = re + im * I;                                        \
            v[i + (j + 1) * n] = re - im * I;                                  \
          }                                                                    \
          j++;                                                                 \
        }                                                                      \
      }                                                                        \
    }                                                                          \
  done:                                                                        \
    free(wr);                                                                  \
    free(vr);                                                                  \
    return st;                                                                 \
  }
LA_GEEV_REAL(s, float, lapack_complex_float)
LA_GEEV_REAL(d, double, lapack_complex_double)

#define LA_GEEV_CPLX(P, CT)                                                    \
  static cn_status la_geev_##P(cn_lapack_args *args) {                         \
    cn_status st = CN_OK;                                                      \
    int64_t n = args->n;                                                       \
    for (int64_t bi = 0; bi < args->batch && n > 0; bi++) {                    \
      CT *a = (CT *)args->a + bi * n * n;                                      \
      CT *w = (CT *)args->out0 + bi * n;                                       \
      CT *v = args->out1 ? (CT *)args->out1 + bi * n * n : NULL;               \
      if (la_has_nonfinite(a, n * n, false)) {                                 \
        st = la_nonfinite_eig();                                               \
        goto done;                                                             \
      }                                                                        \
      LA_CHECK("geev", CN_LAPACKE(P##geev)(COL, 'N', v ? 'V' : 'N', li(n), a,  \
                                           li(n), w, NULL, 1, v, li(n)));      \
    }                                                                          \
  done:                                                                        \
    return st;                                                                 \
  }
LA_GEEV_CPLX(c, lapack_complex_float)
LA_GEEV_CPLX(z, lapack_complex_double)

static pthread_once_t g_la_once = PTHREAD_ONCE_INIT;
/* NumPy lets NaNs flow through LAPACK; LAPACKE's input scan would instead
 * turn them into an argument error. */
static void la_init(void) { CN_LAPACKE(set_nancheck)(0); }

cn_status cn_cpu_lapack(cn_lapack_args *args) {
  pthread_once(&g_la_once, la_init);
  args->info = 0;
  args->info_index = -1;
  if (args->m > INT32_MAX || args->n > INT32_MAX || args->k > INT32_MAX)
    return cn_error(CN_ERR_VALUE,
                    "cn_linalg: matrix extents exceed LAPACK's 32-bit limit");
  bool eig = args->kind == CN_LAPACK_EIG;
  switch (args->dtype) {
  case CN_FLOAT32:
    return eig ? la_geev_s(args) : la_s(args);
  case CN_FLOAT64:
    return eig ? la_geev_d(args) : la_d(args);
  case CN_COMPLEX64:
    return eig ? la_geev_c(args) : la_c(args);
  case CN_COMPLEX128:
    return eig ? la_geev_z(args) : la_z(args);
  default:
    return cn_error(CN_ERR_TYPE, "cn_linalg: no LAPACK driver for dtype %s",
                    cn_dtype_name(args->dtype));
  }
}
