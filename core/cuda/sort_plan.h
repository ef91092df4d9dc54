/* The CUDA sort's plan: how the sort slot's problem (lanes of a real or
 * complex array along one axis) becomes LSD radix passes of the kernels in
 * prelude/sort.cuh (a per-tile digit histogram, an exclusive scan over
 * (digit, tile) and a stable scatter per pass), and the scratch they need.
 * Plain C with no CUDA dependency, so tests/test_cuda_sort_plan.cpp checks
 * it on the CPU; core/cuda/sort.c and the generator (codegen.c) take the
 * kernel geometry from here. */
#ifndef CUNUMPY_CUDA_SORT_PLAN_H
#define CUNUMPY_CUDA_SORT_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 8-bit digits: 256 counters per tile fit in shared memory with room for
 * the scatter's per-digit thread masks (8 KiB), and a 64-bit key takes 8
 * passes (4-bit digits would double the passes, each a full read and write
 * of keys and positions, to save shared memory the GPU has; 11+ bits would
 * make the (digit, tile) scan and the masks 8x larger). */
#define CN_SORT_DIGIT_BITS 8
#define CN_SORT_RADIX (1 << CN_SORT_DIGIT_BITS)
#define CN_SORT_THREADS 256
#define CN_SORT_ITEMS 16 /* elements per thread per tile */
#define CN_SORT_TILE (CN_SORT_THREADS * CN_SORT_ITEMS)
/* Key words: a real dtype has one (its key), a complex dtype three
 * (imaginary key, real key, NaN class); the segment word (lane number) is
 * word CN_SORT_WORD_SEGMENT when the lanes are sorted together. */
#define CN_SORT_WORD_SEGMENT 3
#define CN_SORT_MAX_WORDS 4
#define CN_SORT_MAX_PASSES (CN_SORT_MAX_WORDS * 64 / CN_SORT_DIGIT_BITS)
/* Few long lanes are sorted one by one (no segment passes over all the
 * data, launches per lane); otherwise all lanes at once by (lane, key). */
#define CN_SORT_PER_LANE_MAX_LANES 64
#define CN_SORT_PER_LANE_MIN_LEN (64 * (int64_t)CN_SORT_TILE)

/* One radix pass: the digit at bit `shift` of key word `word`. */
typedef struct cn_sort_pass {
  int32_t word, shift;
} cn_sort_pass;

typedef struct cn_sort_plan {
  int64_t total;  /* elements */
  int64_t n;      /* lane length (extent of the sort axis) */
  int64_t nlanes; /* total / n */
  int64_t q;      /* product of the extents after the axis */
  int32_t key_words;  /* 1 real, 3 complex */
  bool segmented;     /* lanes sorted together by (lane, key) */
  int64_t sort_len;   /* elements per radix sort: total or n */
  int64_t nsorts;     /* radix sorts run: 1 or nlanes */
  int64_t tiles;      /* tiles (blocks) per sort */
  bool copy_input;    /* the input is not lane-major contiguous */
  int32_t npasses;    /* after cn_sort_plan_passes */
  cn_sort_pass passes[CN_SORT_MAX_PASSES];
  bool word_used[CN_SORT_MAX_WORDS]; /* a word with at least one pass */
  bool result_in_alt; /* the sorted positions end in the second buffer */
  /* Scratch: one allocation of `bytes`; offsets of its parts (256-aligned):
   * keys and positions (two each, ping-pong, 8 bytes an element), the
   * (digit, tile) counts (int64), the digit totals (int64), the AND/OR of
   * every key word (2 * CN_SORT_MAX_WORDS uint64), the lane-major copy of
   * the input when copy_input. */
  size_t off_keys[2], off_perm[2], off_counts, off_totals, off_bits, off_src;
  size_t bytes;
} cn_sort_plan;

/* Plans the sort along axis of an array of ndim dims with shape and strides
 * (in elements) whose dtype has itemsize bytes (complex when cplx).
 * Returns false when the scratch size overflows size_t. Empty arrays give
 * total 0 and no scratch (nothing to run). */
bool cn_sort_plan_make(cn_sort_plan *p, int32_t ndim, const int64_t *shape,
                       const int64_t *strides, int32_t axis, int64_t itemsize,
                       bool cplx);

/* Fills p's passes from the AND and OR of each key word over all elements
 * (and_bits/or_bits[w] for w < key_words; the segment word's come from the
 * lane count): one pass per digit that is not constant over all keys,
 * least significant first, and the buffer the result ends in. */
void cn_sort_plan_passes(cn_sort_plan *p, const uint64_t *and_bits,
                         const uint64_t *or_bits);

/* The steps of a planned sort, in order, shared by the plugin (which
 * launches kernels) and the host emulation (tests/cuda/sort_host.cu, which
 * runs them on the CPU). For each of the nsorts sorts (elements first ..
 * first + len - 1) and each key word with passes (word 0 when there are
 * none, to set the positions): keys() gathers the word's keys into buffer
 * cur through the positions there (init: positions first + i), then pass()
 * runs one radix pass from buffer cur into cur ^ 1 for each of the word's
 * digits. Steps return 0 or a status; the first non-zero one stops the run
 * and is returned. */
typedef struct cn_sort_steps {
  int (*keys)(void *ctx, int32_t word, int64_t first, int64_t len, bool init,
              int cur);
  int (*pass)(void *ctx, int32_t shift, int64_t first, int64_t len, int cur);
} cn_sort_steps;
int cn_sort_plan_run(const cn_sort_plan *p, const cn_sort_steps *steps,
                     void *ctx);

/* Position in the C-contiguous outputs of element i of lane `lane`. */
static inline int64_t cn_sort_out_index(int64_t lane, int64_t i, int64_t n,
                                        int64_t q) {
  return (lane / q) * n * q + lane % q + i * q;
}

#ifdef __cplusplus
}
#endif
#endif
