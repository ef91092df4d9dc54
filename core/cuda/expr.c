/* The expr slot on CUDA: one generated kernel per program and operand
 * layout (expr_codegen.c), found in the kernel cache (memory, then disk)
 * by the hash of its source. Operands are coalesced first; when all of
 * them are then one contiguous run the contiguous form runs, else the
 * strided form specialised to the coalesced ndim. A reduction over every
 * axis runs in the same kernel (one over some axes is left to the core): each block folds a grid-stride share of the elements, and
 * with more than one block a one-block merge follows (two stages, no
 * atomics, so the result does not depend on scheduling). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../expr_program.h"
#include "cuda_internal.h"
#include "disk_cache.h"

#define THREADS 256
/* Kernel parameters are limited to 4 KiB on every architecture NVRTC
 * targets; a program whose operands need more runs unfused. */
#define ARG_BYTES_MAX 4000
/* Bytes of one reduction partial (prelude/reduce.cuh's accumulators are at
 * most this large). */
#define PARTIAL_BYTES 128
/* Blocks of a reduction: enough to fill the device, few enough that one
 * block merges the partials. */
#define RED_BLOCKS_MAX 1024

/* The source is generated once per call (its hash is the cache key); a
 * cache miss appends that text and its kernel names. */
typedef struct {
  const cn_cu_src *body;
  char (*names)[CN_CU_NAME_CAP];
} gen_ctx;

static bool gen_expr(cn_cu_src *s, void *ctx, char names[][CN_CU_NAME_CAP]) {
  const gen_ctx *c = ctx;
  cn_cu_src_appendf(s, "%s", c->body->text);
  for (int i = 0; i < 2; i++)
    memcpy(names[i], c->names[i], CN_CU_NAME_CAP);
  return !s->oom;
}

cn_status cn_cu_expr(const cn_expr_program *pr, const cn_array_s *const *in,
                     cn_array_s *out) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(out), "cuda expr");
  const bool red = pr->red_kind >= 0;
  /* a reduction over some axes only: the core reduces the fused result */
  if (red && out->size != 1)
    return cn_cu_error(CN_ERR_UNSUPPORTED,
                       "cuda expr: a reduction over some axes is not fused");
  const int32_t nu = cn_cu_expr_inputs_read(pr);
  const int32_t nops = nu + 1;
  const cn_array_s *shape_of = pr->nin > 0 ? in[0] : out;
  int32_t nd = shape_of->ndim;
  int64_t shape[CN_MAX_DIMS];
  memcpy(shape, shape_of->shape, sizeof(int64_t) * (size_t)nd);
  int64_t total = 1;
  for (int32_t d = 0; d < nd; d++)
    total *= shape[d];
  if (total == 0 && !red)
    return CN_OK;
  int64_t(*st)[CN_MAX_DIMS] = calloc((size_t)nops, sizeof *st);
  int64_t(**stp)[CN_MAX_DIMS] = calloc((size_t)nops, sizeof *stp);
  const char **ptr = calloc((size_t)nops, sizeof *ptr);
  uint64_t *blob = NULL;
  cn_cu_src body;
  cn_cu_src_init(&body);
  void *flag = NULL, *partial = NULL;
  cn_status s = CN_OK;
  if (st == NULL || stp == NULL || ptr == NULL) {
    s = cn_cu_error(CN_ERR_MEMORY, "cuda expr: out of host memory");
    goto done;
  }
  /* operand 0 is the output (unused by a reduction: strides 0), then the
   * inputs the kernel reads, in register order */
  ptr[0] = out->data;
  for (int32_t d = 0; d < nd && !red; d++)
    st[0][d] = out->strides[d] * cn_itemsize(out->dtype);
  int32_t k = 1;
  for (int32_t r = 0; r < pr->nreg; r++) {
    const cn_expr_reg *g = &pr->regs[r];
    if (g->kind != CN_XR_INPUT || (g->last_use < 0 && r != pr->result))
      continue;
    const cn_array_s *a = in[g->input];
    ptr[k] = a->data;
    for (int32_t d = 0; d < nd; d++)
      st[k][d] = a->strides[d] * cn_itemsize(a->dtype);
    k++;
  }
  for (int32_t q = 0; q < nops; q++)
    stp[q] = &st[q];
  if (total > 0)
    cn_expr_coalesce(&nd, shape, nops, (int64_t(*const *)[CN_MAX_DIMS])stp);
  else
    nd = 1, shape[0] = 0;
  bool contig = nd == 1;
  /* contiguity: every operand read (and the output written) at element i */
  k = 1;
  for (int32_t r = 0; r < pr->nreg && contig; r++) {
    const cn_expr_reg *g = &pr->regs[r];
    if (g->kind != CN_XR_INPUT || (g->last_use < 0 && r != pr->result))
      continue;
    contig = shape[0] <= 1 || st[k][0] == cn_itemsize(g->dtype);
    k++;
  }
  if (contig && !red)
    contig = shape[0] <= 1 || st[0][0] == cn_itemsize(out->dtype);
  const int32_t knd = contig ? 0 : nd;
  const size_t nwords = 4 + (size_t)(nu > 0 ? nu : 1) +
                        (knd > 0 ? (size_t)knd * (1 + (size_t)nops) : 0);
  if (nwords * 8 > ARG_BYTES_MAX) {
    s = cn_cu_error(CN_ERR_UNSUPPORTED,
                    "cuda expr: %d operands over %d dimensions exceed the "
                    "kernel parameter space",
                    (int)nops, (int)knd);
    goto done;
  }
  char names[4][CN_CU_NAME_CAP];
  if (!cn_cu_gen_expr(&body, pr, knd, names) || body.oom) {
    s = body.oom ? cn_cu_error(CN_ERR_MEMORY, "cuda expr: out of host memory")
                 : cn_cu_error(CN_ERR_UNSUPPORTED,
                               "cuda expr: the program has no fused kernel");
    goto done;
  }
  char key[96];
  snprintf(key, sizeof key, "expr:%016llx:%zu",
           (unsigned long long)cn_cu_fnv1a(body.text, body.len,
                                           CN_CU_FNV_INIT),
           body.len);
  gen_ctx gc = {&body, names};
  cudaKernel_t kmain, kmerge = NULL;
  if ((s = cn_cu_kernel(&kmain, key, 0, gen_expr, &gc)) != CN_OK)
    goto done;
  if (red && (s = cn_cu_kernel(&kmerge, key, 1, gen_expr, &gc)) != CN_OK)
    goto done;
  bool checks = false;
  for (int32_t i = 0; i < pr->ninsn; i++)
    checks = checks || pr->insns[i].check_exponent;
  cudaStream_t stream = cn_cu_stream();
  if (checks) {
    if ((s = cn_cu_scratch(&flag, sizeof(int))) != CN_OK)
      goto done;
    cudaError_t e = cudaMemsetAsync(flag, 0, sizeof(int), stream);
    if (e != cudaSuccess) {
      s = cn_cu_fail(e, "cudaMemsetAsync (cuda expr)");
      goto done;
    }
  }
  /* launch shape: a small output gets one right-sized block; a reduction
   * at most RED_BLOCKS_MAX blocks of four elements per thread and pass */
  unsigned threads = THREADS;
  long long blocks;
  if (red) {
    long long per = (long long)THREADS * 4;
    blocks = (total + per - 1) / per;
    long long cap = cn_cu_grid_blocks((long long)1 << 40) / 8;
    if (cap > RED_BLOCKS_MAX)
      cap = RED_BLOCKS_MAX;
    if (blocks > cap)
      blocks = cap;
    if (blocks < 1)
      blocks = 1;
  } else {
    if (total < THREADS)
      threads = (unsigned)((total + 31) / 32 * 32);
    blocks = cn_cu_grid_blocks(total);
  }
  if (red && blocks > 1 &&
      (s = cn_cu_scratch(&partial, (size_t)blocks * PARTIAL_BYTES)) != CN_OK)
    goto done;
  blob = calloc(nwords, sizeof *blob);
  if (blob == NULL) {
    s = cn_cu_error(CN_ERR_MEMORY, "cuda expr: out of host memory");
    goto done;
  }
  {
    size_t w = 0;
    int64_t n = total;
    memcpy(&blob[w++], &n, 8);
    char *op = out->data;
    memcpy(&blob[w++], &op, 8);
    memcpy(&blob[w++], &flag, 8);
    memcpy(&blob[w++], &partial, 8);
    for (int32_t q = 1; q < nops; q++)
      memcpy(&blob[w++], &ptr[q], 8);
    if (nu == 0)
      w++;
    for (int32_t d = 0; d < knd; d++)
      memcpy(&blob[w++], &shape[d], 8);
    for (int32_t q = 0; q < nops; q++)
      for (int32_t d = 0; d < knd; d++)
        memcpy(&blob[w++], &st[q][d], 8);
  }
  void *args[] = {blob};
  if ((s = cn_cu_launch(kmain, blocks, 1, threads, args, "fused expression")) !=
      CN_OK)
    goto done;
  if (red && blocks > 1) {
    int G = (int)blocks;
    void *margs[] = {blob, &G};
    if ((s = cn_cu_launch(kmerge, 1, 1, THREADS, margs,
                          "fused expression (merge)")) != CN_OK)
      goto done;
  }
  if (checks) {
    int bad = 0;
    cudaError_t e =
        cudaMemcpyAsync(&bad, flag, sizeof bad, cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess)
      e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess) {
      s = cn_cu_fail(e, "cuda expr (exponent check)");
      goto done;
    }
    if (bad)
      s = cn_cu_error(CN_ERR_VALUE, "cuda expr: Integers to negative integer "
                                    "powers are not allowed.");
  }
done:
  if (flag != NULL)
    cn_cu_scratch_free(flag);
  if (partial != NULL)
    cn_cu_scratch_free(partial);
  cn_cu_src_free(&body);
  free(blob);
  free(st);
  free(stp);
  free(ptr);
  return s;
}
