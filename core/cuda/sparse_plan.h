/* The CUDA sparse planner: turns the geometry of the sparse slots (spmm,
 * spgemm, sparse_transpose; core/backend_iface.h) into the parameters of
 * cuSPARSE's generic API: the value and index types of the descriptors,
 * which operands are first copied to scratch (packed dense operands,
 * int64 indices narrowed to the int32 that csr2csc and SpGEMM take, 1- and
 * 2-byte values widened to a 4-byte carrier) and the shortcuts for empty
 * and all-zero results. Pure C with no CUDA headers, so
 * tests/test_cuda_sparse_plan.cpp checks it on a machine without a GPU. */
#ifndef CUNUMPY_CUDA_SPARSE_PLAN_H
#define CUNUMPY_CUDA_SPARSE_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "cunumpy/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The cudaDataType of a descriptor's values, named without CUDA headers
 * (core/cuda/sparse.c maps them). */
typedef enum cn_sp_value {
  CN_SP_VALUE_NONE = 0, /* no cuSPARSE type serves the dtype */
  CN_SP_VALUE_R32F,
  CN_SP_VALUE_R64F,
  CN_SP_VALUE_C32F,
  CN_SP_VALUE_C64F,
} cn_sp_value;

typedef enum cn_sp_kind {
  CN_SP_EMPTY, /* the result has no elements: nothing to do */
  CN_SP_ZERO,  /* the result is all zeros (no stored entries): fill only */
  CN_SP_RUN,   /* the cuSPARSE calls described by the plan */
} cn_sp_kind;

/* The type cuSPARSE's products (SpMV, SpMM, SpGEMM) compute dt in: real
 * and complex floating dtypes of 32 and 64 bits; NONE for the rest (bool,
 * integers, float16): spmm runs its generated kernel for bool and the
 * integers, and the other slots refuse them. */
cn_sp_value cn_sp_product_value(cn_dtype dt);

/* out (m x k, C order) = A (m x n, nnz stored entries) @ x (n x k), x with
 * strides xs0, xs1 in elements (any sign, 0 allowed). */
typedef struct cn_sp_mm_geom {
  int64_t m, n, k, nnz;
  int64_t xs0, xs1;
  cn_dtype dtype;
  int32_t index_bytes; /* 4 or 8 */
} cn_sp_mm_geom;

typedef struct cn_sp_mm_plan {
  cn_sp_kind kind;
  bool spmv;   /* k == 1: cusparseSpMV over dense vectors */
  bool pack_x; /* x is first copied to C-contiguous scratch (n x k) */
  int64_t ldx; /* row-major leading dimension of x as the calls read it */
  int64_t ldc; /* of out: k */
  cn_sp_value value;
  bool index64; /* CUSPARSE_INDEX_64I, else 32I */
} cn_sp_mm_plan;

/* false when no cuSPARSE product serves g (dtype, index width). */
bool cn_sp_mm_make_plan(const cn_sp_mm_geom *g, cn_sp_mm_plan *p);

/* The CSR arrays of A^T from CSR A (m x n, nnz), cusparseCsr2cscEx2. */
typedef struct cn_sp_tr_plan {
  cn_sp_kind kind;       /* ZERO: nnz == 0, out indptr is all zeros */
  bool narrow_index;     /* int64 arrays copied to int32 and back */
  bool widen;            /* values cast to widen_dtype and back */
  cn_dtype widen_dtype;  /* int32 (bool, 8/16-bit integers), float32
                          * (float16): exact round trips */
  cn_sp_value carrier;   /* moves the values' bytes unchanged: 4-byte
                          * R32F, 8-byte R64F, 16-byte C64F */
} cn_sp_tr_plan;

/* false when m, n or nnz exceed int32 (csr2csc's index type). */
bool cn_sp_tr_make_plan(int64_t m, int64_t n, int64_t nnz, cn_dtype dt,
                        int32_t index_bytes, cn_sp_tr_plan *p);

/* C (m x n) = A (m x k, nnz_a) @ B (k x n, nnz_b), cusparseSpGEMM. */
typedef struct cn_sp_gemm_plan {
  cn_sp_kind kind;   /* ZERO: no products, C has nnz 0 (indptr zeros) */
  bool narrow_index; /* int64 inputs copied to int32 (SpGEMM's type) */
  cn_sp_value value;
} cn_sp_gemm_plan;

/* false for a dtype without a product type or extents beyond int32. */
bool cn_sp_gemm_make_plan(int64_t m, int64_t k, int64_t n, int64_t nnz_a,
                          int64_t nnz_b, cn_dtype dt, int32_t index_bytes,
                          cn_sp_gemm_plan *p);

#ifdef __cplusplus
}
#endif
#endif
