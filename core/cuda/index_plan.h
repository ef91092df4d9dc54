/* Launch planning for the CUDA indexing kernels (core/cuda/index.c): the
 * geometry a gather or scatter kernel walks, the span of destinations a
 * deterministic scatter claims, and the tiles, scan levels and scratch of
 * the stream compaction behind flatnonzero and mask_compress. Pure C with
 * no CUDA dependency, so the CPU tests (tests/test_cuda_index_plan.cpp)
 * check every case without a GPU. */
#ifndef CUNUMPY_CUDA_INDEX_PLAN_H
#define CUNUMPY_CUDA_INDEX_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "cunumpy/cunumpy.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CN_CU_IDX_MAX_DIMS 32 /* CN_MAX_DIMS */

/* Layout of cn_igeom in prelude/index.cuh. Element strides (not bytes):
 * st[0] the iterated operand (out of a gather, values of a scatter),
 * st[1] the indexed array (its axis entry is the step of one index),
 * st[2] the int64 index array. */
typedef struct cn_cu_igeom {
  int32_t ndim, axis;
  int64_t shape[CN_CU_IDX_MAX_DIMS];
  int64_t st[3][CN_CU_IDX_MAX_DIMS];
} cn_cu_igeom;

/* Geometry of a take/put (along = false: idx is 1-d and contiguous, its
 * position is the iteration coordinate on axis) or take_along/put_along
 * (along = true: idx has the iteration shape with idx_strides). iter and
 * iter_strides: the shape and element strides of the iterated operand;
 * tgt_strides those of the indexed array. */
void cn_cu_index_geom(cn_cu_igeom *g, int32_t ndim, const int64_t *iter_shape,
                      const int64_t *iter_strides, const int64_t *tgt_strides,
                      const int64_t *idx_strides, int32_t axis, bool along);

/* Destinations a scatter can write, as element offsets from the indexed
 * array's data pointer: the smallest (*lo, <= 0 with negative strides) and
 * the number of distinct offsets in [lo, hi] (*span). shape is the indexed
 * array's shape (axis at its own extent). *span is 0 for an empty array. */
void cn_cu_scatter_span(int32_t ndim, const int64_t *shape,
                        const int64_t *strides, int64_t *lo, int64_t *span);

/* Whether a scatter of n values over a span of destinations resolves
 * duplicates by claims (8 bytes of scratch per destination: when the span
 * is at most 4 n, or at most 2^23 entries, 64 MiB), or else by one thread
 * writing in index order (no scratch: few values into a huge array). */
bool cn_cu_scatter_claims(int64_t n, int64_t span);

/* Stream compaction (count per tile, exclusive scan of the counts, scatter).
 * A tile is threads * items consecutive elements, and the scan runs over
 * tiles of the same size: level 0 holds one count per tile of the input,
 * level l + 1 one total per tile of level l, up to a level of one entry. */
#define CN_CU_CMP_THREADS 256
#define CN_CU_CMP_ITEMS 4
#define CN_CU_CMP_TILE (CN_CU_CMP_THREADS * CN_CU_CMP_ITEMS)
#define CN_CU_CMP_MAX_LEVELS 8

typedef struct cn_cu_cmp_plan {
  int64_t n;      /* elements of the input */
  int64_t tiles;  /* tiles of the input = level 0 length */
  int32_t levels; /* scan levels (0 when n == 0) */
  int64_t len[CN_CU_CMP_MAX_LEVELS]; /* entries per level */
  int64_t off[CN_CU_CMP_MAX_LEVELS]; /* level start in the scratch (entries) */
  int64_t total_off; /* the entry after the levels: the selected count */
  int64_t scratch_entries; /* int64 entries of scratch in all */
} cn_cu_cmp_plan;

/* Plans the compaction of n >= 0 elements (the last level, one entry, is
 * scanned into the total); false when n needs more scan
 * levels than CN_CU_CMP_MAX_LEVELS (beyond 2^62 elements: never for a real
 * array). */
bool cn_cu_cmp_plan_make(cn_cu_cmp_plan *p, int64_t n);

#ifdef __cplusplus
}
#endif
#endif
