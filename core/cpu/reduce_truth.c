/* Truth tests over a whole array: any, all and the count of nonzero
 * elements. An element is true when its bits, sign bit cleared for floats,
 * are not all zero: that makes NaN true and -0.0 false for every float
 * width (float16 included, without a conversion), and a complex element is
 * true when either part is. The scans run over contiguous runs in blocks so
 * that any/all stop at the block holding the deciding element. */
#include "cpu.h"

#include <stdatomic.h>
#include <string.h>

/* Elements per block between early-exit checks: large enough for the
 * vector loop to dominate, small enough to stop soon after the answer. */
#define TR_BLOCK 2048

typedef enum tr_kind { TR_ANY, TR_ALL, TR_COUNT } tr_kind;

/* One array as a run of lines: n elements of stride s (bytes) at the start
 * of each line, the lines walked by the outer extents and strides. */
typedef struct tr_geom {
  const char *base;
  int nd; /* outer dimensions */
  int64_t shape[CN_MAX_DIMS], stride[CN_MAX_DIMS];
  int64_t n, s;
  int64_t lines;
  int width;    /* bytes of one component */
  int parts;    /* components per element: 2 for complex */
  uint64_t bit; /* mask of a component's value bits */
} tr_geom;

static void tr_geom_build(tr_geom *g, const cn_array_s *a) {
  const int64_t isz = (int64_t)cn_itemsize(a->dtype);
  g->parts = cn_is_complex(a->dtype) ? 2 : 1;
  g->width = (int)(isz / g->parts);
  const bool fl = cn_is_float(a->dtype) || cn_is_complex(a->dtype);
  g->bit = g->width == 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * g->width)) - 1);
  if (fl)
    g->bit >>= 1;
  /* Dimensions of extent 1 drop out; a dimension folds into the next
   * inner one when it steps exactly over it. */
  int64_t sh[CN_MAX_DIMS], st[CN_MAX_DIMS];
  int k = 0;
  for (int d = 0; d < a->ndim; d++) {
    if (a->shape[d] == 1)
      continue;
    sh[k] = a->shape[d];
    st[k] = a->strides[d] * isz;
    k++;
  }
  int m = 0;
  for (int d = 0; d < k; d++) {
    if (m > 0 && st[m - 1] == st[d] * sh[d]) {
      sh[m - 1] *= sh[d];
      st[m - 1] = st[d];
      continue;
    }
    sh[m] = sh[d];
    st[m] = st[d];
    m++;
  }
  g->base = a->data;
  if (m == 0) {
    g->n = 1;
    g->s = isz;
    g->nd = 0;
  } else {
    g->n = sh[m - 1];
    g->s = st[m - 1];
    g->nd = m - 1;
  }
  g->lines = 1;
  for (int d = 0; d < g->nd; d++) {
    g->shape[d] = sh[d];
    g->stride[d] = st[d];
    g->lines *= sh[d];
  }
}

static const char *tr_line(const tr_geom *g, int64_t line) {
  const char *p = g->base;
  for (int d = g->nd - 1; d >= 0; d--) {
    const int64_t i = line % g->shape[d];
    line /= g->shape[d];
    p += i * g->stride[d];
  }
  return p;
}

/* Block kernels per component type U. Contiguous blocks are written as
 * independent lanes so that the loops vectorise; strided ones load one
 * element at a time. any: an OR of all bits, masked once. all: an OR of
 * "this element is zero". count: lane counters narrow enough for the
 * vector unit, widened once per block (a block never overflows them). */
/* 64-bit elements as pairs of 32-bit halves: the vector unit compares
 * 32-bit lanes where the baseline has no 64-bit compare. */
static int64_t tr_count_w64(const char *p, int64_t n, uint64_t bit) {
  const uint32_t *y = (const uint32_t *)(const void *)p;
  const uint32_t bl = (uint32_t)bit, bh = (uint32_t)(bit >> 32);
  int64_t cnt = 0, i = 0;
  while (n - i >= 8) {
    int64_t steps = (n - i) / 8;
    if (steps > 4096)
      steps = 4096;
    uint32_t c[8] = {0};
    for (int64_t j = 0; j < steps; j++, i += 8)
      for (int k = 0; k < 8; k++)
        c[k] += ((y[2 * (i + k)] & bl) | (y[2 * (i + k) + 1] & bh)) != 0;
    for (int k = 0; k < 8; k++)
      cnt += c[k];
  }
  for (; i < n; i++)
    cnt += ((y[2 * i] & bl) | (y[2 * i + 1] & bh)) != 0;
  return cnt;
}

#define TR_DEF(U)                                                              \
  static bool tr_any_##U(const char *p, int64_t n, int64_t s, U bit,           \
                         int parts) {                                          \
    U acc = 0;                                                                 \
    if (s == (int64_t)sizeof(U) * parts) {                                     \
      const U *x = (const U *)(const void *)p;                                 \
      const int64_t c = n * parts;                                             \
      U r[16] = {0};                                                           \
      int64_t i = 0;                                                           \
      for (; i + 16 <= c; i += 16)                                             \
        for (int k = 0; k < 16; k++)                                           \
          r[k] |= x[i + k];                                                    \
      for (; i < c; i++)                                                       \
        acc |= x[i];                                                           \
      for (int k = 0; k < 16; k++)                                             \
        acc |= r[k];                                                           \
    } else {                                                                   \
      for (int64_t i = 0; i < n; i++) {                                        \
        U v;                                                                   \
        memcpy(&v, p + i * s, sizeof v);                                       \
        acc |= v;                                                              \
        if (parts == 2) {                                                      \
          memcpy(&v, p + i * s + sizeof v, sizeof v);                          \
          acc |= v;                                                            \
        }                                                                      \
      }                                                                        \
    }                                                                          \
    return (acc & bit) != 0;                                                   \
  }                                                                            \
  static int64_t tr_count_##U(const char *p, int64_t n, int64_t s, U bit,      \
                              int parts) {                                     \
    int64_t cnt = 0;                                                           \
    if (sizeof(U) == 8 && s == 8 && parts == 1)                                \
      return tr_count_w64(p, n, (uint64_t)bit);                                \
    if (s == (int64_t)sizeof(U) && parts == 1) {                               \
      const U *x = (const U *)(const void *)p;                                 \
      enum { L = 32 / sizeof(U) };                                             \
      int64_t i = 0;                                                           \
      while (n - i >= L) {                                                     \
        /* At most 255 steps per lane keeps a uint8_t lane from wrapping. */   \
        int64_t steps = (n - i) / L;                                           \
        if (steps > 255)                                                       \
          steps = 255;                                                         \
        U c[L] = {0};                                                          \
        for (int64_t j = 0; j < steps; j++, i += L)                            \
          for (int k = 0; k < L; k++)                                          \
            c[k] += (U)((x[i + k] & bit) != 0);                                \
        for (int k = 0; k < L; k++)                                            \
          cnt += (int64_t)c[k];                                                \
      }                                                                        \
      for (; i < n; i++)                                                       \
        cnt += (x[i] & bit) != 0;                                              \
    } else if (parts == 2 && s == 2 * (int64_t)sizeof(U)) {                    \
      const U *x = (const U *)(const void *)p;                                 \
      for (int64_t i = 0; i < n; i++)                                          \
        cnt += ((x[2 * i] | x[2 * i + 1]) & bit) != 0;                         \
    } else {                                                                   \
      for (int64_t i = 0; i < n; i++) {                                        \
        U v, w = 0;                                                            \
        memcpy(&v, p + i * s, sizeof v);                                       \
        if (parts == 2)                                                        \
          memcpy(&w, p + i * s + sizeof v, sizeof w);                          \
        cnt += ((v | w) & bit) != 0;                                           \
      }                                                                        \
    }                                                                          \
    return cnt;                                                                \
  }                                                                            \
  static bool tr_allnz_##U(const char *p, int64_t n, int64_t s, U bit,         \
                           int parts) {                                        \
    if (sizeof(U) == 1 && parts == 1 && s == 1)                                \
      return memchr(p, 0, (size_t)n) == NULL; /* libc's vector search */       \
    if (parts == 1 && s == (int64_t)sizeof(U) && sizeof(U) < 8) {              \
      const U *x = (const U *)(const void *)p;                                 \
      U z[16] = {0};                                                           \
      int64_t i = 0;                                                           \
      for (; i + 16 <= n; i += 16)                                             \
        for (int k = 0; k < 16; k++)                                           \
          z[k] |= (U)((x[i + k] & bit) == 0);                                  \
      U any0 = 0;                                                              \
      for (; i < n; i++)                                                       \
        any0 |= (U)((x[i] & bit) == 0);                                        \
      for (int k = 0; k < 16; k++)                                             \
        any0 |= z[k];                                                          \
      return any0 == 0;                                                        \
    }                                                                          \
    return tr_count_##U(p, n, s, bit, parts) == n;                             \
  }

TR_DEF(uint8_t)
TR_DEF(uint16_t)
TR_DEF(uint32_t)
TR_DEF(uint64_t)

/* One block of a line: its answer for any/all (whether it decides), or its
 * count. */
static int64_t tr_block(const tr_geom *g, tr_kind kind, const char *p,
                        int64_t n) {
  switch (g->width) {
#define TR_CASE(W, U)                                                          \
  case W:                                                                      \
    return kind == TR_ANY   ? tr_any_##U(p, n, g->s, (U)g->bit, g->parts)      \
           : kind == TR_ALL ? !tr_allnz_##U(p, n, g->s, (U)g->bit, g->parts)   \
                            : tr_count_##U(p, n, g->s, (U)g->bit, g->parts);
    TR_CASE(1, uint8_t)
    TR_CASE(2, uint16_t)
    TR_CASE(4, uint32_t)
    TR_CASE(8, uint64_t)
#undef TR_CASE
  default:
    return 0;
  }
}

/* Blocks [lo, hi) of the whole array in order (block b: line b / per, part
 * b % per); for any/all stops at the first deciding block or when another
 * thread has decided. */
static int64_t tr_range(const tr_geom *g, tr_kind kind, int64_t lo, int64_t hi,
                        atomic_int *decided) {
  const int64_t per = (g->n + TR_BLOCK - 1) / TR_BLOCK;
  int64_t cnt = 0;
  for (int64_t b = lo; b < hi; b++) {
    const int64_t line = b / per, part = b % per;
    const int64_t start = part * TR_BLOCK;
    const int64_t len = g->n - start < TR_BLOCK ? g->n - start : TR_BLOCK;
    const int64_t r = tr_block(g, kind, tr_line(g, line) + start * g->s, len);
    if (kind == TR_COUNT) {
      cnt += r;
      continue;
    }
    if (r) {
      atomic_store_explicit(decided, 1, memory_order_relaxed);
      return 1;
    }
    if (atomic_load_explicit(decided, memory_order_relaxed))
      return 1;
  }
  return cnt;
}

static int64_t tr_scan(const cn_array_s *a, tr_kind kind) {
  if (a->size == 0)
    return 0;
  tr_geom g;
  tr_geom_build(&g, a);
  const int64_t per = (g.n + TR_BLOCK - 1) / TR_BLOCK;
  const int64_t nblocks = per * g.lines;
  atomic_int decided = 0;
  int nt = cn_cpu_threads_for(a->size);
  if (nt > nblocks)
    nt = (int)nblocks;
  if (nt <= 1)
    return tr_range(&g, kind, 0, nblocks, &decided);
  int64_t total = 0;
#pragma omp parallel for num_threads(nt) reduction(+ : total)
  for (int t = 0; t < nt; t++) {
    /* Contiguous ranges: a thread that decides stops the others at their
     * next block. */
    const int64_t lo = nblocks * t / nt, hi = nblocks * (t + 1) / nt;
    total += tr_range(&g, kind, lo, hi, &decided);
  }
  if (kind == TR_COUNT)
    return total;
  return atomic_load(&decided) != 0;
}

bool cn_cpu_truth_any(const cn_array_s *a) { return tr_scan(a, TR_ANY) != 0; }

bool cn_cpu_truth_all(const cn_array_s *a) { return tr_scan(a, TR_ALL) == 0; }

int64_t cn_cpu_count_nonzero(const cn_array_s *a) {
  return tr_scan(a, TR_COUNT);
}
