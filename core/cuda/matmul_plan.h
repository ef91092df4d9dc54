/* The CUDA matmul planner: turns the geometry of a batched product
 * out = op(a) @ b (struct cn_gemm_desc) into the parameters of cuBLAS's
 * column-major strided-batched gemm, deciding which operands must first be
 * copied to packed scratch and which batch dims are looped on the host.
 * Pure C with no CUDA headers, so tests/test_cuda_matmul_plan.cpp checks
 * every layout on a machine without a GPU. */
#ifndef CUNUMPY_CUDA_MATMUL_PLAN_H
#define CUNUMPY_CUDA_MATMUL_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "cunumpy/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Operand indexes in the arrays below. */
enum { CN_MM_A = 0, CN_MM_B = 1, CN_MM_OUT = 2 };

/* The geometry of one product: a is (batch..., m, k), b (batch..., k, n),
 * out (batch..., m, n); strides in elements, any sign (stride 0 allowed). */
typedef struct cn_mm_geom {
  int32_t nbatch; /* number of batch dims (ndim - 2), 0 .. CN_MAX_DIMS - 2 */
  int64_t batch_shape[CN_MAX_DIMS];
  int64_t m, n, k;
  /* strides[op][i]: batch dims first, then the two matrix dims */
  int64_t strides[3][CN_MAX_DIMS];
  bool conj_a; /* op(a) = conj(a): complex dtypes only */
} cn_mm_geom;

typedef enum cn_mm_kind {
  CN_MM_EMPTY, /* out has no elements: nothing to do */
  CN_MM_ZERO,  /* k == 0: out is filled with zeros */
  CN_MM_GEMM,  /* the cuBLAS calls described by the plan */
} cn_mm_kind;

typedef enum cn_mm_op { CN_MM_OP_N, CN_MM_OP_T, CN_MM_OP_C } cn_mm_op;

/* One plan. A packed operand is copied (conjugated, for a with conj_a) to
 * a scratch C-contiguous array of its full shape (batch..., rows, cols)
 * before the calls (out: computed there, then assigned to out); the other
 * fields describe the calls on the packed copies.
 *
 * The calls are cuBLAS's C = op(X) op(Y) in column-major terms: X = first
 * operand, Y = second. With swap false, X = a, Y = b and C is out; with
 * swap true (a row-major out, computed as out^T = b^T a^T), X = b, Y = a
 * and C is out^T. One strided-batched call covers `batch` products
 * (strides stride[op] between them, 0 allowed for inputs), and it is
 * repeated over the loop dims (offsets loop_strides[op][i] * index). */
typedef struct cn_mm_plan {
  cn_mm_kind kind;
  bool pack[3];
  int64_t packed_strides[3][CN_MAX_DIMS]; /* for each packed operand */
  int64_t packed_size[3];                 /* its element count */
  bool swap;
  cn_mm_op op_x, op_y;
  int32_t m, n, k; /* of C (m x n) and the inner extent */
  int32_t ldx, ldy, ldc;
  int64_t batch;
  int64_t stride[3]; /* by operand (a, b, out), in elements */
  int32_t nloop;
  int64_t loop_shape[CN_MAX_DIMS];
  int64_t loop_strides[3][CN_MAX_DIMS];
} cn_mm_plan;

/* Fills *plan for geometry g. Returns false (plan undefined) only when a
 * matrix extent or the packed leading dimension exceeds cuBLAS's 32-bit
 * int; every other geometry gets a plan. */
bool cn_mm_make_plan(const cn_mm_geom *g, cn_mm_plan *plan);

#ifdef __cplusplus
}
#endif
#endif
