/* CUDA source generation from the op table and the reduction kinds: the
 * text NVRTC compiles. Plain C with no CUDA dependency, so the NVRTC test
 * (tests/cuda/nvrtc_kernels.c) links it without a GPU. */
#ifndef CUNUMPY_CUDA_CODEGEN_H
#define CUNUMPY_CUDA_CODEGEN_H

#include <stdbool.h>
#include <stddef.h>

#include "../cuda_api.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CN_CU_NAME_CAP 160

/* A growing source text; oom is set (and text kept valid) when an append
 * could not allocate. */
typedef struct cn_cu_src {
  char *text;
  size_t len, cap;
  bool oom;
} cn_cu_src;

void cn_cu_src_init(cn_cu_src *s);
void cn_cu_src_free(cn_cu_src *s);
void cn_cu_src_appendf(cn_cu_src *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The device prelude (the parts under core/cuda/prelude/, assembled and
 * embedded at build time). */
extern const char cn_cu_prelude_text[];

/* Name of the CUDA C type of a dtype ("float", "cn_c64"), NULL if invalid. */
const char *cn_cu_ctype(cn_dtype dt);
/* Short dtype tag for kernel names ("f32", "c64", "b1"); "invalid" for
 * an invalid dtype (never NULL). */
const char *cn_cu_tag(cn_dtype dt);
/* Real dtype of the same precision (complex64 -> float32), else dt. */
cn_dtype cn_cu_real(cn_dtype dt);
/* Output dtype of op info for compute dtype. */
cn_dtype cn_cu_op_out(const cn_op_info *info, cn_dtype compute);
/* Short name of a reduction kind ("sum", "nanargmax"); NULL if invalid. */
const char *cn_cu_red_name(cn_reduce_kind kind);

/* Each generator appends kernels to s and writes their names:
 *  elementwise, assign, where: names[0] contiguous, names[1] strided,
 *          names[2] contiguous with 4-element vector loads (operands
 *          aligned to min(16, 4 * itemsize) bytes);
 *  fill: names[0] contiguous, names[1] strided;
 *  reduce: names[0] blocks, [1] pass 2, [2] thread-per-output, [3] the
 *          all-NaN check (nanarg kinds only, else "");
 *  scan (CUM kinds): names[0] block-per-line, [1] thread-per-line;
 *  moments: as reduce (names[3] "");
 *  matmul (integer and bool dtypes, matmul_codegen.c): names[0] the tiled
 *          product (prelude/matmul.cuh).
 * Return false for a combination that has no kernel. */
bool cn_cu_gen_elementwise(cn_cu_src *s, int32_t opid, const cn_op_info *info,
                           cn_dtype compute, char names[][CN_CU_NAME_CAP]);
bool cn_cu_gen_assign(cn_cu_src *s, cn_dtype to, cn_dtype from,
                      char names[][CN_CU_NAME_CAP]);
bool cn_cu_gen_fill(cn_cu_src *s, cn_dtype dt, char names[][CN_CU_NAME_CAP]);
bool cn_cu_gen_where(cn_cu_src *s, cn_dtype dt, char names[][CN_CU_NAME_CAP]);
bool cn_cu_gen_reduce(cn_cu_src *s, cn_reduce_kind kind, cn_dtype in,
                      cn_dtype out, char names[][CN_CU_NAME_CAP]);
/* Indexing programs (core/cuda/index.c), by kind:
 *  CN_CU_IDX_COMMON (dt ignored): [0] index normalisation, [1] scatter
 *          claim, [2] scan of one level, [3] scan down-sweep;
 *  CN_CU_IDX_COPY (one per itemsize of dt): [0] gather, [1] scatter write,
 *          [2] mask compaction writer, [3] in-order scatter by one thread;
 *  CN_CU_IDX_NONZERO (dt): [0] count per tile, [1] positions writer. */
typedef enum cn_cu_idx_prog {
  CN_CU_IDX_COMMON,
  CN_CU_IDX_COPY,
  CN_CU_IDX_NONZERO
} cn_cu_idx_prog;
bool cn_cu_gen_index(cn_cu_src *s, cn_cu_idx_prog prog, cn_dtype dt,
                     char names[][CN_CU_NAME_CAP]);
/* Element type of the itemsize-based copies of dt ("cn_u32", "cn_b16"),
 * NULL if invalid; its tag ("x4", "x16"). */
const char *cn_cu_copy_type(cn_dtype dt);
const char *cn_cu_copy_tag(cn_dtype dt);
bool cn_cu_gen_moments(cn_cu_src *s, cn_dtype in, cn_dtype mean, cn_dtype var,
                       bool nan_skip, char names[][CN_CU_NAME_CAP]);
bool cn_cu_gen_matmul(cn_cu_src *s, cn_dtype dt, char names[][CN_CU_NAME_CAP]);

/* Sort (sort_codegen.c, templates of prelude/sort.cuh): the radix passes
 * (names[0] histogram, [1] scan, [2] scatter; dtype-free) and, for a real
 * or complex dtype, names[0] key-word AND/OR, [1] key words, [2] outputs. */
bool cn_cu_gen_sort_passes(cn_cu_src *s, char names[][CN_CU_NAME_CAP]);
bool cn_cu_gen_sort_keys(cn_cu_src *s, cn_dtype dt,
                         char names[][CN_CU_NAME_CAP]);
/* The searchsorted kernel of dtype dt (names[0]): one thread per needle,
 * cn_search_at of prelude/search.cuh. False for a dtype it lacks. */
bool cn_cu_gen_search(cn_cu_src *s, cn_dtype dt, char names[][CN_CU_NAME_CAP]);
/* The quantile kernel over sorted lanes of dtype dt (float32 or float64;
 * names[0]): one thread per output, cn_quantile_sorted_<T> of
 * core/quantile_rank.h. False for any other dtype. */
bool cn_cu_gen_quantile(cn_cu_src *s, cn_dtype dt,
                        char names[][CN_CU_NAME_CAP]);

/* The scatter_add kernels (scatter_add_codegen.c), by the dtype added:
 * CN_INT64 (counts): names[0] global atomics, names[1] a block's counts in
 * shared memory first (for at most CN_CU_SCATTER_SHARED_BINS bins);
 * CN_FLOAT64, CN_COMPLEX128 (weights): names[0]. Blocks of
 * CN_CU_SCATTER_THREADS threads. False for any other dtype. */
#define CN_CU_SCATTER_THREADS 256
/* The CSR product kernel (core/cuda/sparse_codegen.c) for bool and the
 * integer dtypes, which cuSPARSE lacks, over int32 or int64 indices:
 * (p, ix, v, x, sr, sc, m, k, o), o (m x k, C order) = a @ x with x's
 * strides sr, sc, launched with CN_CU_SPMM_THREADS threads. False for
 * other dtypes. */
#define CN_CU_SPMM_THREADS 256
bool cn_cu_gen_spmm(cn_cu_src *s, cn_dtype dt, cn_dtype it,
                    char names[][CN_CU_NAME_CAP]);
#define CN_CU_SCATTER_SHARED_BINS 2048
bool cn_cu_gen_scatter_add(cn_cu_src *s, cn_dtype wdt,
                           char names[][CN_CU_NAME_CAP]);

/* The accumulator functor type of a reduction kind over in -> out
 * ("cn_r_sum<double, double, false>", prelude/reduce.cuh) into buf; false
 * for a kind without one (the scans) or an invalid pair. */
bool cn_cu_red_type(char *buf, size_t cap, cn_reduce_kind kind, cn_dtype in,
                    cn_dtype out);

/* The fused kernel of an expression program (expr_codegen.c): one kernel
 * evaluating every instruction per element, from the op table's expression
 * texts. nd 0 is the contiguous form (every operand read at element i); nd
 * >= 1 the strided form over nd coalesced dimensions. names[0] is the
 * kernel (for a program with a reduction: each block folds its elements and
 * stores the result when the grid is one block, else a partial), names[1]
 * the merge of the partials by one block ("" without a reduction). The
 * kernels take one argument, a struct of 8-byte fields in the order
 * n, out, flag (set to 1 by a negative integer exponent), partial, the
 * inputs read (registers of kind CN_XR_INPUT read by an instruction or
 * the result, in register order), then, strided only, shape[nd] and strides in bytes
 * [1 + inputs][nd] (the output first); the merge also takes int G, the
 * number of partials. False for a program with no CUDA kernel (a float16
 * reduction, float16 nextafter or spacing). */
struct cn_expr_program;
bool cn_cu_gen_expr(cn_cu_src *s, const struct cn_expr_program *pr, int32_t nd,
                    char names[][CN_CU_NAME_CAP]);
/* Number of inputs the program's kernel reads (the pointers it takes). */
int32_t cn_cu_expr_inputs_read(const struct cn_expr_program *pr);

#ifdef __cplusplus
}
#endif
#endif
