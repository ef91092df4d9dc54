/* The CUDA sparse slots (core/backend_iface.h: spmm, spgemm,
 * sparse_transpose) on cuSPARSE's generic API, with the parameters the
 * planner (sparse_plan.c) derives: cusparseSpMV / cusparseSpMM for
 * products with dense operands, cusparseSpGEMM for sparse @ sparse and
 * cusparseCsr2cscEx2 (CUSPARSE_CSR2CSC_ALG1) for transposes. Products run
 * in float32, float64, complex64 and complex128 on cuSPARSE; SpMV/SpMM of
 * bool and the integer dtypes (which cuSPARSE lacks) run the generated
 * kernel of sparse_codegen.c; SpGEMM of those dtypes and float16 products
 * get CN_ERR_UNSUPPORTED; transposes move any dtype. Work buffers and the narrowed or packed copies come from the
 * stream-ordered pool (cn_cu_scratch) and everything is queued on the
 * thread's current stream with the thread's cached cuSPARSE handle
 * (library_handles.c). cuSPARSE does not promise sorted columns in
 * SpGEMM's result, so its rows are sorted by two stable csr2csc passes,
 * the documented cuSPARSE route to canonical order. */
#include <stdio.h>
#include <string.h>

#include <cusparse.h>

#include "cuda_internal.h"
#include "sparse_plan.h"

static cudaDataType cuda_type(cn_sp_value v) {
  switch (v) {
  case CN_SP_VALUE_R32F:
    return CUDA_R_32F;
  case CN_SP_VALUE_R64F:
    return CUDA_R_64F;
  case CN_SP_VALUE_C32F:
    return CUDA_C_32F;
  default:
    return CUDA_C_64F;
  }
}

/* A descriptor-only 1-d or 2-d array over device memory on proto's
 * buffer's device, for the assign and fill slots. */
static void dev_view(cn_array_s *v, const cn_array_s *proto, cn_dtype dt,
                     void *data, int64_t rows, int64_t cols, int64_t rs,
                     int64_t cs) {
  memset(v, 0, sizeof *v);
  v->buf = proto->buf;
  v->dtype = dt;
  v->data = data;
  v->ndim = cols < 0 ? 1 : 2;
  v->shape[0] = rows;
  v->strides[0] = rs;
  v->size = rows;
  if (cols >= 0) {
    v->shape[1] = cols;
    v->strides[1] = cs;
    v->size *= cols;
  }
}

/* dst (n elements of dt, device memory) = src cast, 1-d. */
static cn_status cast_1d(const cn_array_s *proto, void *dst, cn_dtype dt,
                         const void *src, cn_dtype st, int64_t n) {
  cn_array_s d, s;
  dev_view(&d, proto, dt, dst, n, -1, 1, 0);
  dev_view(&s, proto, st, (void *)src, n, -1, 1, 0);
  return cn_cu_assign(&d, &s);
}

static cn_status fill_zero(cn_array_s *a) {
  static const char zero[16] = {0};
  return cn_cu_fill(a, zero);
}

static cn_status unsupported_dtype(const char *what, cn_dtype dt) {
  return cn_cu_error(CN_ERR_UNSUPPORTED,
                     "cuda %s: cuSPARSE has no %s product (float32, float64, "
                     "complex64 and complex128 only); use astype, or move "
                     "the operands to the host",
                     what, cn_dtype_name(dt));
}

/* alpha = 1 and beta = 0 in the compute type. */
static void one_zero(cn_sp_value v, const void **one, const void **zero) {
  static const float f1[2] = {1, 0}, f0[2] = {0, 0};
  static const double d1[2] = {1, 0}, d0[2] = {0, 0};
  bool single = v == CN_SP_VALUE_R32F || v == CN_SP_VALUE_C32F;
  *one = single ? (const void *)f1 : (const void *)d1;
  *zero = single ? (const void *)f0 : (const void *)d0;
}

#define SP_TRY(call, what)                                                     \
  do {                                                                         \
    cusparseStatus_t s_ = (call);                                              \
    if (s_ != CUSPARSE_STATUS_SUCCESS) {                                       \
      st = cn_cu_cusparse_fail((int)s_, what);                                 \
      goto done;                                                               \
    }                                                                          \
  } while (0)

/* ---- spmm ------------------------------------------------------------ */

static bool gen_spmm(cn_cu_src *s, void *ctx, char names[][CN_CU_NAME_CAP]) {
  const cn_dtype *dt = ctx;
  return cn_cu_gen_spmm(s, dt[0], dt[1], names);
}

/* out = a @ x through the generated kernel (bool and integer dtypes); x
 * is read through its strides. */
static cn_status kernel_spmm(const cn_csr_operand *a, const cn_array_s *x,
                             cn_array_s *out) {
  long long m = a->nrows, k = x->shape[1];
  if (m == 0 || k == 0)
    return CN_OK;
  cn_dtype dts[2] = {out->dtype, a->indptr->dtype};
  char key[48];
  snprintf(key, sizeof key, "spmm:%s:%s", cn_cu_tag(dts[0]),
           cn_cu_tag(dts[1]));
  cudaKernel_t kern;
  cn_status st = cn_cu_kernel(&kern, key, 0, gen_spmm, dts);
  if (st != CN_OK)
    return st;
  const void *p = a->indptr->data, *ix = a->indices->data, *v = a->data->data,
             *xd = x->data;
  void *od = out->data;
  long long sr = x->strides[0], sc = x->strides[1];
  void *args[] = {(void *)&p, (void *)&ix, (void *)&v, (void *)&xd, &sr, &sc,
                  &m, &k, &od};
  return cn_cu_launch(kern, cn_cu_grid_blocks(m * k), 1, CN_CU_SPMM_THREADS,
                      args, "spmm (bool and integer dtypes)");
}

cn_status cn_cu_spmm(const cn_csr_operand *a, const cn_array_s *x,
                     cn_array_s *out) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(out), "cuda spmm");
  switch (out->dtype) {
  case CN_BOOL: case CN_INT8: case CN_INT16: case CN_INT32: case CN_INT64:
  case CN_UINT8: case CN_UINT16: case CN_UINT32: case CN_UINT64:
    return kernel_spmm(a, x, out);
  default:
    break;
  }
  cn_sp_mm_geom g = {a->nrows,       a->ncols,       x->shape[1],
                     a->data->size,  x->strides[0],  x->strides[1],
                     out->dtype,     (int32_t)cn_itemsize(a->indptr->dtype)};
  cn_sp_mm_plan p;
  if (!cn_sp_mm_make_plan(&g, &p))
    return unsupported_dtype("spmm", out->dtype);
  if (p.kind == CN_SP_EMPTY)
    return CN_OK;
  if (p.kind == CN_SP_ZERO)
    return fill_zero(out);
  cn_status st = CN_OK;
  int64_t isz = cn_itemsize(out->dtype);
  void *packed = NULL, *buf = NULL;
  const void *xp = x->data;
  cusparseConstSpMatDescr_t A = NULL;
  cusparseConstDnVecDescr_t X = NULL;
  cusparseDnVecDescr_t Y = NULL;
  cusparseConstDnMatDescr_t B = NULL;
  cusparseDnMatDescr_t C = NULL;
  if (p.pack_x) {
    if ((st = cn_cu_scratch(&packed, (size_t)(g.n * g.k * isz))) != CN_OK)
      return st;
    cn_array_s to;
    dev_view(&to, out, out->dtype, packed, g.n, g.k, g.k, 1);
    if ((st = cn_cu_assign(&to, x)) != CN_OK)
      goto done;
    xp = packed;
  }
  cusparseHandle_t h = NULL;
  if ((st = cn_cu_cusparse(&h)) != CN_OK)
    goto done;
  cudaDataType vt = cuda_type(p.value);
  cusparseIndexType_t it =
      p.index64 ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I;
  SP_TRY(cusparseCreateConstCsr(&A, g.m, g.n, g.nnz, a->indptr->data,
                                a->indices->data, a->data->data, it, it,
                                CUSPARSE_INDEX_BASE_ZERO, vt),
         "cusparseCreateConstCsr");
  const void *one, *zero;
  one_zero(p.value, &one, &zero);
  size_t bytes = 0;
  cusparseOperation_t nt = CUSPARSE_OPERATION_NON_TRANSPOSE;
  if (p.spmv) {
    SP_TRY(cusparseCreateConstDnVec(&X, g.n, xp, vt), "cusparseCreateDnVec");
    SP_TRY(cusparseCreateDnVec(&Y, g.m, out->data, vt),
           "cusparseCreateDnVec");
    SP_TRY(cusparseSpMV_bufferSize(h, nt, one, A, X, zero, Y, vt,
                                   CUSPARSE_SPMV_ALG_DEFAULT, &bytes),
           "cusparseSpMV_bufferSize");
    if (bytes > 0 && (st = cn_cu_scratch(&buf, bytes)) != CN_OK)
      goto done;
    cn_cu_note_launch("cusparseSpMV");
    SP_TRY(cusparseSpMV(h, nt, one, A, X, zero, Y, vt,
                        CUSPARSE_SPMV_ALG_DEFAULT, buf),
           "cusparseSpMV");
  } else {
    SP_TRY(cusparseCreateConstDnMat(&B, g.n, g.k, p.ldx, xp, vt,
                                    CUSPARSE_ORDER_ROW),
           "cusparseCreateDnMat");
    SP_TRY(cusparseCreateDnMat(&C, g.m, g.k, p.ldc, out->data, vt,
                               CUSPARSE_ORDER_ROW),
           "cusparseCreateDnMat");
    SP_TRY(cusparseSpMM_bufferSize(h, nt, nt, one, A, B, zero, C, vt,
                                   CUSPARSE_SPMM_ALG_DEFAULT, &bytes),
           "cusparseSpMM_bufferSize");
    if (bytes > 0 && (st = cn_cu_scratch(&buf, bytes)) != CN_OK)
      goto done;
    cn_cu_note_launch("cusparseSpMM");
    SP_TRY(cusparseSpMM(h, nt, nt, one, A, B, zero, C, vt,
                        CUSPARSE_SPMM_ALG_DEFAULT, buf),
           "cusparseSpMM");
  }
done:
  /* descriptors are host objects; the frees below are stream-ordered */
  if (A)
    (void)cusparseDestroySpMat(A);
  if (X)
    (void)cusparseDestroyDnVec(X);
  if (Y)
    (void)cusparseDestroyDnVec(Y);
  if (B)
    (void)cusparseDestroyDnMat(B);
  if (C)
    (void)cusparseDestroyDnMat(C);
  cn_cu_scratch_free(buf);
  cn_cu_scratch_free(packed);
  return st;
}

/* ---- csr2csc --------------------------------------------------------- */

/* The int32 CSR (m x n, nnz) p, i, v transposed into tp (n + 1), ti, tv;
 * values of carrier v moved unchanged. */
static cn_status csr2csc32(int64_t m, int64_t n, int64_t nnz, const void *p,
                           const void *i, const void *v, void *tp, void *ti,
                           void *tv, cn_sp_value carrier) {
  cusparseHandle_t h = NULL;
  cn_status st = cn_cu_cusparse(&h);
  if (st != CN_OK)
    return st;
  void *buf = NULL;
  size_t bytes = 0;
  cudaDataType vt = cuda_type(carrier);
  SP_TRY(cusparseCsr2cscEx2_bufferSize(
             h, (int)m, (int)n, (int)nnz, v, p, i, tv, tp, ti, vt,
             CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO,
             CUSPARSE_CSR2CSC_ALG1, &bytes),
         "cusparseCsr2cscEx2_bufferSize");
  if (bytes > 0 && (st = cn_cu_scratch(&buf, bytes)) != CN_OK)
    goto done;
  cn_cu_note_launch("cusparseCsr2cscEx2");
  SP_TRY(cusparseCsr2cscEx2(h, (int)m, (int)n, (int)nnz, v, p, i, tv, tp, ti,
                            vt, CUSPARSE_ACTION_NUMERIC,
                            CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1,
                            buf),
         "cusparseCsr2cscEx2");
done:
  cn_cu_scratch_free(buf);
  return st;
}

cn_status cn_cu_sparse_transpose(const cn_csr_operand *a, cn_array_s *indptr,
                                 cn_array_s *indices, cn_array_s *data) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(indptr), "cuda sparse_transpose");
  int64_t m = a->nrows, n = a->ncols, nnz = a->data->size;
  cn_dtype dt = a->data->dtype, ix = a->indptr->dtype;
  cn_sp_tr_plan p;
  if (!cn_sp_tr_make_plan(m, n, nnz, dt, (int32_t)cn_itemsize(ix), &p))
    return cn_cu_error(CN_ERR_UNSUPPORTED,
                       "cuda sparse_transpose: a %lld x %lld matrix with "
                       "%lld entries exceeds the 32-bit indices of "
                       "cuSPARSE's csr2csc",
                       (long long)m, (long long)n, (long long)nnz);
  if (p.kind == CN_SP_ZERO)
    return fill_zero(indptr);
  cn_status st = CN_OK;
  void *s[7] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  const void *ip = a->indptr->data, *ii = a->indices->data,
             *iv = a->data->data;
  void *op = indptr->data, *oi = indices->data, *ov = data->data;
  if (p.narrow_index) {
    if ((st = cn_cu_scratch(&s[0], (size_t)(m + 1) * 4)) != CN_OK ||
        (st = cn_cu_scratch(&s[1], (size_t)nnz * 4)) != CN_OK ||
        (st = cn_cu_scratch(&s[2], (size_t)(n + 1) * 4)) != CN_OK ||
        (st = cn_cu_scratch(&s[3], (size_t)nnz * 4)) != CN_OK ||
        (st = cast_1d(indptr, s[0], CN_INT32, ip, ix, m + 1)) != CN_OK ||
        (st = cast_1d(indptr, s[1], CN_INT32, ii, ix, nnz)) != CN_OK)
      goto done;
    ip = s[0], ii = s[1], op = s[2], oi = s[3];
  }
  if (p.widen) {
    if ((st = cn_cu_scratch(&s[4], (size_t)nnz * 4)) != CN_OK ||
        (st = cn_cu_scratch(&s[5], (size_t)nnz * 4)) != CN_OK ||
        (st = cast_1d(indptr, s[4], p.widen_dtype, iv, dt, nnz)) != CN_OK)
      goto done;
    iv = s[4], ov = s[5];
  }
  if ((st = csr2csc32(m, n, nnz, ip, ii, iv, op, oi, ov, p.carrier)) !=
      CN_OK)
    goto done;
  if (p.narrow_index &&
      ((st = cast_1d(indptr, indptr->data, ix, op, CN_INT32, n + 1)) !=
           CN_OK ||
       (st = cast_1d(indptr, indices->data, ix, oi, CN_INT32, nnz)) != CN_OK))
    goto done;
  if (p.widen)
    st = cast_1d(indptr, data->data, dt, ov, p.widen_dtype, nnz);
done:
  for (int k = 0; k < 7; k++)
    cn_cu_scratch_free(s[k]);
  return st;
}

/* ---- spgemm ---------------------------------------------------------- */

static cn_status new_vec(cn_array_s **out, const cn_array_s *proto,
                         cn_dtype dt, int64_t n) {
  return cn_cu_svc->array_new(out, proto->buf->backend, proto->buf->device_id,
                              dt, 1, &n, CN_ORDER_C);
}

/* int32 copies of op's index arrays in s[0], s[1] (or its own arrays). */
static cn_status index32(const cn_csr_operand *op, bool narrow, void *s[2],
                         const void **p, const void **i) {
  *p = op->indptr->data;
  *i = op->indices->data;
  if (!narrow)
    return CN_OK;
  cn_dtype ix = op->indptr->dtype;
  int64_t nnz = op->data->size;
  cn_status st;
  if ((st = cn_cu_scratch(&s[0], (size_t)(op->nrows + 1) * 4)) != CN_OK ||
      (st = cn_cu_scratch(&s[1], (size_t)(nnz > 0 ? nnz : 1) * 4)) != CN_OK ||
      (st = cast_1d(op->data, s[0], CN_INT32, *p, ix, op->nrows + 1)) !=
          CN_OK ||
      (st = cast_1d(op->data, s[1], CN_INT32, *i, ix, nnz)) != CN_OK)
    return st;
  *p = s[0];
  *i = s[1];
  return CN_OK;
}

cn_status cn_cu_spgemm(const cn_csr_operand *a, const cn_csr_operand *b,
                       cn_array_s **indptr, cn_array_s **indices,
                       cn_array_s **data) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(a->data), "cuda spgemm");
  int64_t m = a->nrows, k = a->ncols, n = b->ncols;
  cn_dtype dt = a->data->dtype;
  cn_sp_gemm_plan p;
  if (!cn_sp_gemm_make_plan(m, k, n, a->data->size, b->data->size, dt,
                            (int32_t)cn_itemsize(a->indptr->dtype), &p)) {
    if (cn_sp_product_value(dt) == CN_SP_VALUE_NONE)
      return unsupported_dtype("spgemm", dt);
    return cn_cu_error(CN_ERR_UNSUPPORTED,
                       "cuda spgemm: extents beyond the 32-bit indices of "
                       "cuSPARSE's SpGEMM");
  }
  cn_array_s *rp = NULL, *ri = NULL, *rv = NULL;
  cn_status st = CN_OK;
  void *s[10] = {NULL};
  cusparseConstSpMatDescr_t A = NULL, B = NULL;
  cusparseSpMatDescr_t C = NULL;
  cusparseSpGEMMDescr_t G = NULL;
  if (p.kind == CN_SP_ZERO) {
    if ((st = new_vec(&rp, a->data, CN_INT64, m + 1)) != CN_OK ||
        (st = fill_zero(rp)) != CN_OK ||
        (st = new_vec(&ri, a->data, CN_INT64, 0)) != CN_OK ||
        (st = new_vec(&rv, a->data, dt, 0)) != CN_OK)
      goto done;
    goto out;
  }
  const void *ap, *ai, *bp, *bi;
  if ((st = index32(a, p.narrow_index, &s[0], &ap, &ai)) != CN_OK ||
      (st = index32(b, p.narrow_index, &s[2], &bp, &bi)) != CN_OK)
    goto done;
  cusparseHandle_t h = NULL;
  if ((st = cn_cu_cusparse(&h)) != CN_OK)
    goto done;
  cudaDataType vt = cuda_type(p.value);
  cusparseIndexType_t i32 = CUSPARSE_INDEX_32I;
  cusparseIndexBase_t b0 = CUSPARSE_INDEX_BASE_ZERO;
  cusparseOperation_t nt = CUSPARSE_OPERATION_NON_TRANSPOSE;
  cusparseSpGEMMAlg_t alg = CUSPARSE_SPGEMM_DEFAULT;
  SP_TRY(cusparseCreateConstCsr(&A, m, k, a->data->size, ap, ai,
                                a->data->data, i32, i32, b0, vt),
         "cusparseCreateConstCsr");
  SP_TRY(cusparseCreateConstCsr(&B, k, n, b->data->size, bp, bi,
                                b->data->data, i32, i32, b0, vt),
         "cusparseCreateConstCsr");
  SP_TRY(cusparseCreateCsr(&C, m, n, 0, NULL, NULL, NULL, i32, i32, b0, vt),
         "cusparseCreateCsr");
  SP_TRY(cusparseSpGEMM_createDescr(&G), "cusparseSpGEMM_createDescr");
  const void *one, *zero;
  one_zero(p.value, &one, &zero);
  size_t b1 = 0, b2 = 0;
  SP_TRY(cusparseSpGEMM_workEstimation(h, nt, nt, one, A, B, zero, C, vt, alg,
                                       G, &b1, NULL),
         "cusparseSpGEMM_workEstimation");
  if ((st = cn_cu_scratch(&s[4], b1 > 0 ? b1 : 1)) != CN_OK)
    goto done;
  cn_cu_note_launch("cusparseSpGEMM_workEstimation");
  SP_TRY(cusparseSpGEMM_workEstimation(h, nt, nt, one, A, B, zero, C, vt, alg,
                                       G, &b1, s[4]),
         "cusparseSpGEMM_workEstimation");
  SP_TRY(cusparseSpGEMM_compute(h, nt, nt, one, A, B, zero, C, vt, alg, G,
                                &b2, NULL),
         "cusparseSpGEMM_compute");
  if ((st = cn_cu_scratch(&s[5], b2 > 0 ? b2 : 1)) != CN_OK)
    goto done;
  cn_cu_note_launch("cusparseSpGEMM_compute");
  SP_TRY(cusparseSpGEMM_compute(h, nt, nt, one, A, B, zero, C, vt, alg, G,
                                &b2, s[5]),
         "cusparseSpGEMM_compute");
  int64_t rows = 0, cols = 0, nnz = 0;
  SP_TRY(cusparseSpMatGetSize(C, &rows, &cols, &nnz), "cusparseSpMatGetSize");
  /* C in int32 scratch, then sorted by two transposes into rv and int32
   * scratch again, then widened into the int64 results */
  size_t vb = (size_t)(nnz > 0 ? nnz : 1);
  int64_t isz = cn_itemsize(dt);
  if ((st = cn_cu_scratch(&s[6], (size_t)(m + 1) * 4)) != CN_OK ||
      (st = cn_cu_scratch(&s[7], vb * 4)) != CN_OK ||
      (st = cn_cu_scratch(&s[8], vb * (size_t)isz)) != CN_OK ||
      (st = new_vec(&rv, a->data, dt, nnz)) != CN_OK)
    goto done;
  SP_TRY(cusparseCsrSetPointers(C, s[6], s[7], s[8]),
         "cusparseCsrSetPointers");
  cn_cu_note_launch("cusparseSpGEMM_copy");
  SP_TRY(cusparseSpGEMM_copy(h, nt, nt, one, A, B, zero, C, vt, alg, G),
         "cusparseSpGEMM_copy");
  if ((st = new_vec(&rp, a->data, CN_INT64, m + 1)) != CN_OK ||
      (st = new_vec(&ri, a->data, CN_INT64, nnz)) != CN_OK)
    goto done;
  if (nnz == 0) {
    st = cast_1d(rp, rp->data, CN_INT64, s[6], CN_INT32, m + 1);
    goto done;
  }
  cn_sp_tr_plan tp;
  (void)cn_sp_tr_make_plan(m, n, nnz, dt, 4, &tp); /* dtype is a product's */
  void *tptr = NULL, *tix = NULL, *tval = NULL;
  if ((st = cn_cu_scratch(&tptr, (size_t)(n + 1) * 4)) != CN_OK)
    goto done;
  s[9] = tptr;
  if ((st = cn_cu_scratch(&tix, vb * 4)) != CN_OK)
    goto done;
  if ((st = cn_cu_scratch(&tval, vb * (size_t)isz)) != CN_OK) {
    cn_cu_scratch_free(tix);
    goto done;
  }
  st = csr2csc32(m, n, nnz, s[6], s[7], s[8], tptr, tix, tval, tp.carrier);
  if (st == CN_OK)
    st = csr2csc32(n, m, nnz, tptr, tix, tval, s[6], s[7], rv->data,
                   tp.carrier);
  cn_cu_scratch_free(tix);
  cn_cu_scratch_free(tval);
  if (st == CN_OK)
    st = cast_1d(rp, rp->data, CN_INT64, s[6], CN_INT32, m + 1);
  if (st == CN_OK)
    st = cast_1d(rp, ri->data, CN_INT64, s[7], CN_INT32, nnz);
done:
  if (G)
    (void)cusparseSpGEMM_destroyDescr(G);
  if (A)
    (void)cusparseDestroySpMat(A);
  if (B)
    (void)cusparseDestroySpMat(B);
  if (C)
    (void)cusparseDestroySpMat(C);
  for (int j = 0; j < 10; j++)
    cn_cu_scratch_free(s[j]);
  if (st != CN_OK) {
    cn_array_release(rp);
    cn_array_release(ri);
    cn_array_release(rv);
    return st;
  }
out:
  *indptr = rp;
  *indices = ri;
  *data = rv;
  return CN_OK;
}
