/* Helpers shared by the linear-algebra and FFT entry points: a scope that
 * releases temporaries together, compute-dtype rules, packed column-major
 * work arrays and the LAPACK dispatcher. */
#ifndef CUNUMPY_LINALG_UTIL_H
#define CUNUMPY_LINALG_UTIL_H

#include "internal.h"
#include "descriptors.h"

/* Temporaries owned by one call; cn_la_end releases them all. */
#define CN_LA_SCOPE_CAP 64
typedef struct cn_la_scope {
  cn_array_s *h[CN_LA_SCOPE_CAP];
  int n;
} cn_la_scope;
/* Registers a (a new reference) in the scope and returns it. */
static inline cn_array_s *cn_la_keep(cn_la_scope *s, cn_array_s *a) {
  if (s->n < CN_LA_SCOPE_CAP)
    s->h[s->n++] = a;
  return a;
}
CN_INTERNAL void cn_la_end(cn_la_scope *s);
/* Runs expr (a cn_status expression) and jumps to `fail` on error. */
#define CN_LA_TRY(expr)                                                        \
  do {                                                                         \
    st = (expr);                                                               \
    if (st != CN_OK)                                                           \
      goto fail;                                                               \
  } while (0)

/* Compute dtype of a linear-algebra input: float32/64 and complex64/128
 * stay, everything else is float64. */
CN_INTERNAL cn_dtype cn_la_dtype(cn_dtype dt);
/* Validates a stacked-matrix argument: ndim >= 2 and (square) equal last
 * two extents. */
CN_INTERNAL cn_status cn_la_check_matrix(const cn_array_s *a, bool square,
                                         const char *fn, const char *arg);
/* Same backend and device for both arrays. */
CN_INTERNAL cn_status cn_la_same_device(const cn_array_s *a,
                                        const cn_array_s *b, const char *fn);
/* New C-order array on like's device. */
CN_INTERNAL cn_status cn_la_new(cn_array_s **out, const cn_array_s *like,
                                cn_dtype dt, int32_t ndim,
                                const int64_t *shape);
/* New packed batch of column-major matrices with logical shape (ndim >= 2)
 * on like's device; when src is given it is broadcast and cast into it.
 * The returned handle is the logical view (strides ..., 1, rows). */
CN_INTERNAL cn_status cn_la_colmajor(cn_array_s **out, const cn_array_s *src,
                                     const cn_array_s *like, cn_dtype dt,
                                     int32_t ndim, const int64_t *shape);
/* New 0-d array of dtype dt holding v, on like's device (broadcasts as a
 * scalar). */
CN_INTERNAL cn_status cn_la_scalar(cn_array_s **out, const cn_array_s *like,
                                   cn_dtype dt, double v);
/* New packed batch of C-order matrices with logical shape (ndim >= 2) on
 * like's device, src broadcast, cast and (when conj) conjugated into it.
 * Read column-major, as LAPACK reads it, each matrix is src's transpose
 * (conjugate transpose with conj): drivers that can work on the transposed
 * problem avoid the transposing copy of cn_la_colmajor this way. */
CN_INTERNAL cn_status cn_la_rowmajor(cn_array_s **out, const cn_array_s *src,
                                     const cn_array_s *like, cn_dtype dt,
                                     int32_t ndim, const int64_t *shape,
                                     bool conj);
/* True when packing a's last two dims row-major (cn_la_rowmajor) is the
 * cheaper copy: a is not stored column-major there. */
CN_INTERNAL bool cn_la_prefers_rows(const cn_array_s *a);
/* Product of the first ndim - core extents. */
CN_INTERNAL int64_t cn_la_batch(int32_t ndim, const int64_t *shape,
                                int32_t core);
/* Runs a LAPACK driver on on's backend. info > 0 becomes CN_ERR_LINALG
 * "fn: failure" (naming the matrix of a stack). */
CN_INTERNAL cn_status cn_la_run(cn_lapack_args *args, const cn_array_s *on,
                                const char *fn, const char *failure);
/* Machine epsilon of a real or complex dtype's precision. */
CN_INTERNAL double cn_la_eps(cn_dtype dt);
/* Formats a shape "(2, 3)" into buf. */
CN_INTERNAL const char *cn_la_shape_str(char *buf, size_t cap, int32_t ndim,
                                        const int64_t *shape);
/* Writable view of the main diagonal of the last two axes of a. */
CN_INTERNAL cn_status cn_la_diag_view(cn_array_s **out, const cn_array_s *a);

#endif
