/* The sparse matrix handle shared by core/sparse.c and
 * core/sparse_solve.c. Not installed. */
#ifndef CUNUMPY_SPARSE_INTERNAL_H
#define CUNUMPY_SPARSE_INTERNAL_H

#include "internal.h"

#define CN_SPARSE_MAGIC 0x434e5350u /* "CNSP" */
#define CN_SPARSE_DEAD 0x44454144u

struct cn_sparse_s {
  uint32_t magic;
  atomic_int_fast64_t refcount;
  int32_t format;
  int64_t nrows, ncols, nnz;
  /* CSR/CSC: a = indptr, b = indices. COO: a = row, b = col. All 1-d,
   * C-contiguous host arrays; a and b of one int32/int64 dtype. */
  cn_array_s *data, *a, *b;
  bool sorted;    /* CSR/CSC: indices sorted within each major slice */
  bool canonical; /* sorted without duplicates (COO: by row, then col) */
};

#define CHECK_SPARSE(s, fn, name)                                              \
  do {                                                                         \
    if (CN_UNLIKELY((s) == NULL))                                              \
      return cn_error(CN_ERR_VALUE, "%s: argument '%s' is NULL", fn, name);    \
    if (CN_UNLIKELY((s)->magic != CN_SPARSE_MAGIC))                            \
      return cn_error(CN_ERR_VALUE,                                            \
                      "%s: argument '%s' is a released or invalid handle", fn, \
                      name);                                                   \
  } while (0)

/* A canonical CSC copy of s (sorted, duplicates summed) with int64
 * indices and data of dtype dt: the layout direct solvers take. */
CN_INTERNAL cn_status cn_sparse_csc_canonical(cn_sparse *out, cn_sparse s,
                                              cn_dtype dt, const char *fn);

#endif
