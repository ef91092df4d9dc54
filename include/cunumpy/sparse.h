/* cunumpy/sparse.h: sparse matrices (CSR, CSC, COO, DIA) as scipy.sparse
 * holds them, their conversions and products.
 *
 * A cn_sparse is a reference-counted, immutable description of an
 * nrows x ncols matrix over component arrays: 1-d data, and indices +
 * indptr (CSR, CSC) or row + col (COO); or for DIA a 2-d data array
 * (n_diags x L) and 1-d offsets, data[d, j] being the entry (j -
 * offsets[d], j), as scipy.sparse.dia_array. Index arrays are int32 when every
 * dimension and the nonzero count fit in int32, else int64; arrays a
 * caller passes in int32 or int64 are kept as they are. Functions that
 * "change" a matrix (sum_duplicates, sort_indices, ...) return a new
 * handle. Matrices are built on the CPU and moved whole to a CUDA device
 * and back with cn_sparse_to_device / cn_sparse_to_host, as arrays are.
 * Where a matrix lives, its products (SpMV, SpMM, SpGEMM), CSR <-> CSC,
 * sort_indices of CSR/CSC, transpose, astype and copy run there (on CUDA
 * through cuSPARSE for float32, float64, complex64 and complex128, SpMV
 * and SpMM of bool and integer dtypes through an NVRTC-compiled kernel;
 * CN_ERR_UNSUPPORTED for SpGEMM of other dtypes there; 32-bit extents
 * for CSR <-> CSC and SpGEMM). float16 products compute in float32 and
 * round once, as NumPy's float16 matmul; duplicates of float16 entries sum
 * in float32 per addition, as NumPy's float16 add. Steps that read the components on
 * the host (construction, COO conversions, merging duplicates, toarray,
 * eliminate_zeros, the direct solvers, DIA transpose and diagonal) give
 * CN_ERR_DEVICE for a device matrix. DIA products run on DIA directly on
 * the CPU; on a CUDA device a DIA matrix is converted to CSR through the
 * host for products and conversions (cn_backend_supports "sparse_dia"
 * answers HOST there). Every function returning a handle returns a new reference; on
 * failure nothing is returned and inputs are untouched. */
#ifndef CUNUMPY_SPARSE_H
#define CUNUMPY_SPARSE_H

#include "cunumpy/array.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cn_sparse_s *cn_sparse;

/* Storage formats. */
typedef enum cn_sparse_format {
  CN_SPARSE_CSR = 0,
  CN_SPARSE_CSC = 1,
  CN_SPARSE_COO = 2,
  CN_SPARSE_DIA = 3,
  CN_SPARSE_FORMAT_FORCE_INT32_ = 0x7fffffff
} cn_sparse_format;

/* ---- lifetime ------------------------------------------------------ */

/* Adds a reference. CN_ERR_VALUE for NULL or a released handle. */
CN_API cn_status cn_sparse_retain(cn_sparse s);
/* Drops a reference (the last frees the handle and its references to the
 * component arrays). NULL is a no-op. */
CN_API void cn_sparse_release(cn_sparse s);

/* ---- construction -------------------------------------------------- */

/* CSR (format CN_SPARSE_CSR: indptr over rows, indices are columns) or CSC
 * (indptr over columns, indices are rows) from 1-d arrays, as scipy's
 * csr_array((data, indices, indptr), shape). index_base 0 or 1 (Fortran):
 * with base 0, C-contiguous int32/int64 index arrays (both of one dtype)
 * and a C-contiguous data array are borrowed without copies (the matrix
 * keeps references; the caller must not change the index arrays while it
 * lives); otherwise they are copied. CN_ERR_VALUE for negative dims, a
 * wrong indptr length, an indptr not starting at index_base or decreasing,
 * indptr's last entry not equal to len(indices) == len(data), indices out
 * of range, a bad base or format; CN_ERR_TYPE for non-integer indices;
 * CN_ERR_DEVICE for arrays not on the CPU. */
CN_API cn_status cn_sparse_compressed(cn_sparse *out, cn_sparse_format format,
                                      int64_t nrows, int64_t ncols,
                                      cn_array data, cn_array indices,
                                      cn_array indptr, int32_t index_base);
/* COO from triplets (data, (row, col)), as scipy's coo_array; duplicates
 * and any order are allowed. Borrowing and errors as cn_sparse_compressed
 * (row and col of equal length as data, in [base, n + base)). */
CN_API cn_status cn_sparse_coo(cn_sparse *out, int64_t nrows, int64_t ncols,
                               cn_array data, cn_array row, cn_array col,
                               int32_t index_base);
/* DIA from a 2-d data array (n_diags x L, any L) and 1-d integer offsets
 * of n_diags distinct values, as scipy's dia_array((data, offsets),
 * shape); offsets beyond the shape are kept and store nothing. A
 * C-contiguous data array and C-contiguous int32/int64 offsets are
 * borrowed (the caller must not change offsets while the matrix lives);
 * otherwise they are copied (other integer offsets become the index
 * dtype). CN_ERR_VALUE for negative dims, a data/offsets count mismatch,
 * repeated offsets or an offset of INT64_MIN; CN_ERR_SHAPE unless data is
 * 2-d and offsets 1-d; CN_ERR_TYPE for non-integer offsets; CN_ERR_DEVICE
 * for arrays not on the CPU. */
CN_API cn_status cn_sparse_dia(cn_sparse *out, int64_t nrows, int64_t ncols,
                               cn_array data, cn_array offsets);
/* The nonzero entries of a 2-d host array (any dtype, any strides), in
 * row-major (CSR, COO) or column-major (CSC) order; DIA as scipy's
 * todia of that COO. CN_ERR_SHAPE unless a is 2-d. */
CN_API cn_status cn_sparse_from_dense(cn_sparse *out, cn_array a,
                                      cn_sparse_format format);

/* ---- placement ------------------------------------------------------ */

/* The device type (cn_device_type) and ordinal of s's components. */
CN_API cn_status cn_sparse_device(int32_t *device_type, int32_t *device_id,
                                  cn_sparse s);
/* s with every component copied to CUDA device device_id (flags such as
 * sorted and canonical kept); CN_ERR_DEVICE when CUDA is unavailable or
 * the ordinal is out of range. */
CN_API cn_status cn_sparse_to_device(cn_sparse *out, cn_sparse s,
                                     int32_t device_id);
/* s in host memory (a matrix with s's components when already there). */
CN_API cn_status cn_sparse_to_host(cn_sparse *out, cn_sparse s);

/* ---- properties: CN_ERR_VALUE for NULL or released handles ---------- */

CN_API cn_status cn_sparse_get_format(int32_t *out, cn_sparse s);
CN_API cn_status cn_sparse_nrows(int64_t *out, cn_sparse s);
CN_API cn_status cn_sparse_ncols(int64_t *out, cn_sparse s);
/* Stored entries, explicit zeros and duplicates included (scipy's nnz;
 * DIA: the positions of data inside the matrix). */
CN_API cn_status cn_sparse_nnz(int64_t *out, cn_sparse s);
CN_API cn_status cn_sparse_dtype(cn_dtype *out, cn_sparse s);
/* int32 or int64 (DIA: the offsets' dtype). */
CN_API cn_status cn_sparse_index_dtype(cn_dtype *out, cn_sparse s);
/* 1 when each row (CSR, COO) or column (CSC) has sorted indices and no
 * duplicates (COO: sorted by row, then column); always 1 for DIA. */
CN_API cn_status cn_sparse_has_canonical_format(int32_t *out, cn_sparse s);
/* 1 when indices are sorted within each row (CSR) or column (CSC);
 * always 1 for DIA. */
CN_API cn_status cn_sparse_has_sorted_indices(int32_t *out, cn_sparse s);
/* The component arrays (new references; index arrays are read-only
 * views). data: every format (2-d for DIA). indices, indptr: CSR and CSC;
 * row, col: COO; offsets: DIA; CN_ERR_VALUE for a component the format
 * lacks. */
CN_API cn_status cn_sparse_data(cn_array *out, cn_sparse s);
CN_API cn_status cn_sparse_indices(cn_array *out, cn_sparse s);
CN_API cn_status cn_sparse_indptr(cn_array *out, cn_sparse s);
CN_API cn_status cn_sparse_row(cn_array *out, cn_sparse s);
CN_API cn_status cn_sparse_col(cn_array *out, cn_sparse s);
CN_API cn_status cn_sparse_offsets(cn_array *out, cn_sparse s);

/* ---- conversions and canonical form --------------------------------- */

/* The matrix in another format (a new reference to s when it is already
 * in it). COO -> CSR/CSC sums duplicates and sorts indices, as scipy's
 * tocsr does; CSR <-> CSC gives sorted indices. DIA -> CSR/CSC/COO drops
 * explicit zeros and sorts, as scipy's dia tocsr; any -> DIA is scipy's
 * coo todia (duplicates summed, explicit zeros kept, offsets sorted, L =
 * the last stored column + 1). */
CN_API cn_status cn_sparse_asformat(cn_sparse *out, cn_sparse s,
                                    cn_sparse_format format);
/* Dense C-order nrows x ncols array; duplicates are summed. */
CN_API cn_status cn_sparse_toarray(cn_array *out, cn_sparse s);
/* Canonical form: indices sorted, duplicates summed (explicit zeros kept,
 * as scipy's sum_duplicates). */
CN_API cn_status cn_sparse_sum_duplicates(cn_sparse *out, cn_sparse s);
/* Indices sorted within each row (CSR) or column (CSC), stably; COO sorted
 * by row then column. Duplicates kept. */
CN_API cn_status cn_sparse_sort_indices(cn_sparse *out, cn_sparse s);
/* Stored entries equal to zero (-0.0 included) removed. CN_ERR_VALUE for
 * DIA (its layout stores every position of a diagonal). */
CN_API cn_status cn_sparse_eliminate_zeros(cn_sparse *out, cn_sparse s);
/* Transpose without copying: CSR <-> CSC over the same arrays; COO with
 * row and col swapped. DIA -> DIA with negated offsets and data realigned
 * (copied) as scipy's dia transpose: data of s's nrows columns. */
CN_API cn_status cn_sparse_transpose(cn_sparse *out, cn_sparse s);
/* Same structure with data cast to dtype (NumPy's unsafe cast); a new
 * reference to s when the dtype is already s's. */
CN_API cn_status cn_sparse_astype(cn_sparse *out, cn_sparse s, cn_dtype dtype);
/* Deep copy (every component array copied). */
CN_API cn_status cn_sparse_copy(cn_sparse *out, cn_sparse s);
/* Diagonal k (k > 0 above the main one) as a new 1-d host array of s's
 * dtype, duplicates summed; empty for k outside (-nrows, ncols). */
CN_API cn_status cn_sparse_diagonal(cn_array *out, cn_sparse s, int64_t k);

/* ---- products ------------------------------------------------------- */

/* s @ x for a 1-d x of length ncols (SpMV, result 1-d) or a 2-d x with
 * ncols rows (SpMM, result nrows x k), in the promoted dtype of s and x
 * (bool computes with or/and, as scipy), on s's device. CN_ERR_SHAPE for
 * mismatched dimensions, CN_ERR_DEVICE when x is on another device,
 * CN_ERR_UNSUPPORTED when the backend has no kernel for the dtype. */
CN_API cn_status cn_sparse_matmul_dense(cn_array *out, cn_sparse s,
                                        cn_array x);
/* x @ s for a 1-d x of length nrows or a 2-d x with nrows columns. Errors
 * as cn_sparse_matmul_dense. */
CN_API cn_status cn_dense_matmul_sparse(cn_array *out, cn_array x,
                                        cn_sparse s);
/* a @ b (SpGEMM) as a CSR matrix with sorted indices, in the promoted
 * dtype, on a's device; entries that cancel to zero are kept, as scipy
 * keeps them. CN_ERR_SHAPE when a's columns differ from b's rows,
 * CN_ERR_DEVICE when a and b are on different devices. */
CN_API cn_status cn_sparse_matmul(cn_sparse *out, cn_sparse a, cn_sparse b);

/* ---- direct solvers ------------------------------------------------- */

/* Opaque LU factorisation of a square sparse matrix (SuiteSparse UMFPACK),
 * reference-counted like cn_sparse. */
typedef struct cn_sparse_lu_s *cn_sparse_lu;

/* Factorises square a (any format; duplicates summed) in float64, or
 * complex128 for complex a. CN_ERR_SHAPE for a non-square a, CN_ERR_LINALG
 * ("singular") for a singular one, CN_ERR_UNSUPPORTED when the library was
 * built without UMFPACK. */
CN_API cn_status cn_sparse_lu_factor(cn_sparse_lu *out, cn_sparse a);
/* Solves A x = b for a 1-d b of length n or each column of a 2-d (n, k)
 * b; x has b's shape, in the factor's dtype (complex128 when b is complex).
 * CN_ERR_SHAPE for a mismatched b. */
CN_API cn_status cn_sparse_lu_solve(cn_array *out, cn_sparse_lu lu,
                                    cn_array b);
CN_API void cn_sparse_lu_release(cn_sparse_lu lu);
/* x = A^-1 b through one factorisation (scipy's spsolve with a dense b);
 * errors as cn_sparse_lu_factor and cn_sparse_lu_solve. */
CN_API cn_status cn_sparse_spsolve(cn_array *out, cn_sparse a, cn_array b);

/* ---- iterative solvers ---------------------------------------------- */

/* Conjugate gradients for a symmetric positive definite host matrix a
 * (any format, real dtype, computed in float64) without a preconditioner,
 * as scipy's cg: from x0 (NULL: zeros), until ||b - A x|| <= max(rtol
 * ||b||, atol) or maxiter iterations. *x: new float64 1-d array; *info:
 * 0 when converged, else maxiter. CN_ERR_SHAPE for a non-square a or a
 * b / x0 not 1-d of length n, CN_ERR_TYPE for complex input, CN_ERR_VALUE
 * for negative or NaN tolerances or a negative maxiter, CN_ERR_DEVICE for
 * operands off the CPU. */
CN_API cn_status cn_sparse_cg(cn_array *x, int64_t *info, cn_sparse a,
                              cn_array b, cn_array x0, double rtol,
                              double atol, int64_t maxiter);

#ifdef __cplusplus
}
#endif
#endif
