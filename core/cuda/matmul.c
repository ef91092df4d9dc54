/* The CUDA matmul slot: batched out = op(a) @ b (struct cn_gemm_desc).
 * Floating and complex dtypes run on cuBLAS (cublasGemmEx, or
 * cublasGemmStridedBatchedEx for a batch), with the parameters the planner
 * (matmul_plan.c) derives from the strides: transposed and conjugated views
 * become operation flags, operands no flag can describe are first packed
 * into pool scratch, batch dims with no uniform stride are looped here.
 * float32 is exact by default (CUBLAS_COMPUTE_32F, no TF32);
 * CUNUMPY_CUDA_TF32=1, read once, allows TF32 tensor cores for float32 and
 * complex64. Integer and bool products run a generated tiled kernel
 * (prelude/matmul.cuh) with the CPU's wrap-around. All work is queued on
 * the thread's current stream. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../linalg/descriptors.h"
#include "cuda_internal.h"
#include "matmul_plan.h"

#define MM_TILE 16 /* CN_MM_TILE in prelude/matmul.cuh */

static pthread_once_t g_tf32_once = PTHREAD_ONCE_INIT;
static bool g_tf32;

static void read_tf32(void) {
  const char *e = getenv("CUNUMPY_CUDA_TF32");
  g_tf32 = e != NULL && strcmp(e, "1") == 0;
}

/* A descriptor-only array (no buffer) over device memory, for the assign
 * and elementwise members, which read only these fields. */
static void make_view(cn_array_s *v, cn_dtype dt, char *data, int32_t nd,
                      const int64_t *shape, const int64_t *strides) {
  memset(v, 0, sizeof *v);
  v->dtype = dt;
  v->data = data;
  v->ndim = nd;
  v->size = 1;
  for (int32_t i = 0; i < nd; i++) {
    v->shape[i] = shape[i];
    v->strides[i] = strides[i];
    v->size *= shape[i];
  }
}

/* ---- integer and bool: the generated kernel -------------------------- */

/* Layout of cn_mm_geom in prelude/matmul.cuh. */
typedef struct {
  long long m, n, k, batch, nb;
  long long bshape[CN_MAX_DIMS - 2];
  long long bst[3][CN_MAX_DIMS - 2];
  long long ars, acs, brs, bcs, crs, ccs;
} mm_geom;

static bool gen_mm(cn_cu_src *s, void *ctx, char names[][CN_CU_NAME_CAP]) {
  return cn_cu_gen_matmul(s, *(cn_dtype *)ctx, names);
}

static cn_status int_matmul(const cn_gemm_desc *d) {
  const cn_array_s *a = d->a, *b = d->b;
  cn_array_s *c = d->out;
  if (c->size == 0)
    return CN_OK;
  int32_t nd = c->ndim, nb = nd - 2;
  mm_geom g;
  memset(&g, 0, sizeof g);
  g.m = c->shape[nd - 2];
  g.n = c->shape[nd - 1];
  g.k = a->shape[nd - 1];
  g.nb = nb;
  g.batch = 1;
  for (int32_t i = 0; i < nb; i++) {
    g.bshape[i] = c->shape[i];
    g.bst[0][i] = a->strides[i];
    g.bst[1][i] = b->strides[i];
    g.bst[2][i] = c->strides[i];
    g.batch *= c->shape[i];
  }
  g.ars = a->strides[nd - 2], g.acs = a->strides[nd - 1];
  g.brs = b->strides[nd - 2], g.bcs = b->strides[nd - 1];
  g.crs = c->strides[nd - 2], g.ccs = c->strides[nd - 1];
  cn_dtype dt = c->dtype;
  char key[32], what[48];
  snprintf(key, sizeof key, "mm:%s", cn_cu_tag(dt));
  snprintf(what, sizeof what, "matmul (%s)", cn_cu_tag(dt));
  cudaKernel_t k;
  cn_status st = cn_cu_kernel(&k, key, 0, gen_mm, &dt);
  if (st != CN_OK)
    return st;
  long long tiles =
      ((g.m + MM_TILE - 1) / MM_TILE) * ((g.n + MM_TILE - 1) / MM_TILE);
  unsigned by = g.batch < 65535 ? (unsigned)g.batch : 65535u;
  const void *pa = a->data, *pb = b->data;
  void *pc = c->data;
  void *args[] = {&g, &pa, &pb, &pc};
  return cn_cu_launch(k, tiles, by, MM_TILE * MM_TILE, args, what);
}

/* ---- floating and complex: cuBLAS ------------------------------------ */

static cublasOperation_t cublas_op(cn_mm_op op) {
  return op == CN_MM_OP_N   ? CUBLAS_OP_N
         : op == CN_MM_OP_T ? CUBLAS_OP_T
                            : CUBLAS_OP_C;
}

/* Copies operand op of the product into its packed scratch (conjugated for
 * a when conj); broadcast batch dims are copied once (extent 1). */
static cn_status pack_operand(const cn_array_s *x, const cn_mm_plan *p, int op,
                              bool conj, char *dst) {
  int64_t shape[CN_MAX_DIMS];
  const int64_t *ps = p->packed_strides[op];
  for (int32_t i = 0; i < x->ndim; i++)
    shape[i] = (i < x->ndim - 2 && ps[i] == 0) ? 1 : x->shape[i];
  cn_array_s src, to;
  make_view(&src, x->dtype, x->data, x->ndim, shape, x->strides);
  make_view(&to, x->dtype, dst, x->ndim, shape, ps);
  if (!conj)
    return cn_cu_assign(&to, &src);
  const cn_array_s *in[1] = {&src};
  return cn_cu_elementwise(CN_OPID_conj, x->dtype, 1, in, &to);
}

/* Issues the plan's cuBLAS calls: one (strided-batched) gemm per index of
 * the host loops. base: a, b and out (or their packed copies). */
static cn_status run_gemms(cublasHandle_t h, const cn_mm_plan *p,
                           char *const base[3], cn_dtype dt) {
  bool single = dt == CN_FLOAT32 || dt == CN_COMPLEX64;
  cudaDataType type = dt == CN_FLOAT32     ? CUDA_R_32F
                      : dt == CN_FLOAT64   ? CUDA_R_64F
                      : dt == CN_COMPLEX64 ? CUDA_C_32F
                                           : CUDA_C_64F;
  pthread_once(&g_tf32_once, read_tf32);
  cublasComputeType_t compute =
      single ? (g_tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F)
             : CUBLAS_COMPUTE_64F;
  static const float f_one[2] = {1, 0}, f_zero[2] = {0, 0};
  static const double d_one[2] = {1, 0}, d_zero[2] = {0, 0};
  const void *alpha = single ? (const void *)f_one : (const void *)d_one;
  const void *beta = single ? (const void *)f_zero : (const void *)d_zero;
  int64_t isz = cn_itemsize(dt);
  int xi = p->swap ? CN_MM_B : CN_MM_A, yi = p->swap ? CN_MM_A : CN_MM_B;
  cublasOperation_t ox = cublas_op(p->op_x), oy = cublas_op(p->op_y);
  int64_t calls = 1;
  for (int32_t i = 0; i < p->nloop; i++)
    calls *= p->loop_shape[i];
  const char *what = p->batch > 1 ? "cublasGemmStridedBatchedEx (matmul)"
                                  : "cublasGemmEx (matmul)";
  for (int64_t t = 0; t < calls; t++) {
    int64_t off[3] = {0, 0, 0}, rem = t;
    for (int32_t i = p->nloop - 1; i >= 0; i--) {
      int64_t idx = rem % p->loop_shape[i];
      rem /= p->loop_shape[i];
      for (int op = 0; op < 3; op++)
        off[op] += idx * p->loop_strides[op][i];
    }
    const char *X = base[xi] + off[xi] * isz;
    const char *Y = base[yi] + off[yi] * isz;
    char *C = base[CN_MM_OUT] + off[CN_MM_OUT] * isz;
    cn_cu_note_launch(what);
    cublasStatus_t s =
        p->batch > 1 ? cublasGemmStridedBatchedEx(
                           h, ox, oy, p->m, p->n, p->k, alpha, X, type, p->ldx,
                           (long long)p->stride[xi], Y, type, p->ldy,
                           (long long)p->stride[yi], beta, C, type, p->ldc,
                           (long long)p->stride[CN_MM_OUT], (int)p->batch,
                           compute, CUBLAS_GEMM_DEFAULT)
                     : cublasGemmEx(h, ox, oy, p->m, p->n, p->k, alpha, X, type,
                                    p->ldx, Y, type, p->ldy, beta, C, type,
                                    p->ldc, compute, CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS)
      return cn_cu_cublas_fail(s, what);
  }
  return CN_OK;
}

static cn_status blas_matmul(const cn_gemm_desc *d) {
  const cn_array_s *a = d->a, *b = d->b;
  cn_array_s *c = d->out;
  int32_t nd = c->ndim, nb = nd - 2;
  cn_dtype dt = c->dtype;
  cn_mm_geom g;
  memset(&g, 0, sizeof g);
  g.nbatch = nb;
  for (int32_t i = 0; i < nb; i++)
    g.batch_shape[i] = c->shape[i];
  g.m = c->shape[nd - 2];
  g.n = c->shape[nd - 1];
  g.k = a->shape[nd - 1];
  const cn_array_s *ops[3] = {a, b, c};
  for (int op = 0; op < 3; op++)
    memcpy(g.strides[op], ops[op]->strides, sizeof(int64_t) * (size_t)nd);
  g.conj_a = d->conj_a && cn_is_complex(dt);
  cn_mm_plan p;
  if (!cn_mm_make_plan(&g, &p))
    return cn_cu_error(CN_ERR_VALUE,
                       "cn_matmul: matrix extents (%lld, %lld, %lld) exceed "
                       "cuBLAS's 32-bit limit",
                       (long long)g.m, (long long)g.n, (long long)g.k);
  if (p.kind == CN_MM_EMPTY)
    return CN_OK;
  if (p.kind == CN_MM_ZERO) {
    static const char zero[16] = {0};
    return cn_cu_fill(c, zero);
  }
  int64_t isz = cn_itemsize(dt);
  void *scratch[3] = {NULL, NULL, NULL}, *ws = NULL;
  char *base[3] = {a->data, b->data, c->data};
  cn_status st = CN_OK;
  for (int op = 0; op < 3 && st == CN_OK; op++) {
    if (!p.pack[op])
      continue;
    st = cn_cu_scratch(&scratch[op], (size_t)(p.packed_size[op] * isz));
    if (st != CN_OK)
      break;
    base[op] = scratch[op];
    if (op != CN_MM_OUT) /* out's copy is written whole by the gemms */
      st =
          pack_operand(ops[op], &p, op, op == CN_MM_A && g.conj_a, scratch[op]);
  }
  cublasHandle_t h = NULL;
  if (st == CN_OK)
    st = cn_cu_cublas(&h);
  if (st == CN_OK)
    st = cn_cu_cublas_workspace(h, &ws);
  if (st == CN_OK)
    st = run_gemms(h, &p, base, dt);
  if (st == CN_OK && p.pack[CN_MM_OUT]) {
    cn_array_s packed;
    make_view(&packed, dt, scratch[CN_MM_OUT], nd, c->shape,
              p.packed_strides[CN_MM_OUT]);
    st = cn_cu_assign(c, &packed);
  }
  /* Stream-ordered frees: after the work above, whatever its outcome. */
  cn_cu_scratch_free(ws);
  for (int op = 0; op < 3; op++)
    cn_cu_scratch_free(scratch[op]);
  return st;
}

cn_status cn_cu_matmul(const cn_gemm_desc *d) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(d->out), "cuda matmul");
  cn_dtype dt = d->out->dtype;
  if (cn_is_float(dt) || cn_is_complex(dt))
    return blas_matmul(d);
  if (dt == CN_BOOL || cn_is_integer(dt))
    return int_matmul(d);
  return cn_cu_error(CN_ERR_TYPE, "cn_matmul: no CUDA kernel for dtype %s",
                     cn_dtype_name(dt));
}
