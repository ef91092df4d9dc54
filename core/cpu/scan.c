/* CPU cumsum/cumprod driver around scan_typed.c.
 *
 * Lines along the scan axis are independent; when the scan axis is the
 * fast one in memory each thread scans whole lines, otherwise rows of a
 * tile of lines advance together (contiguous inner loop). A long single
 * line is scanned in two passes: each thread totals its chunk, the chunk
 * offsets are combined in order, then each thread scans its chunk from its
 * offset. */
#include "reduce_typed.h"

#include <omp.h>

#define SCAN_TILE_BYTES 16384
/* Below this many elements per thread a line is scanned by one thread. */
#define SCAN_SPLIT_MIN 32768

typedef struct scan_geom {
  int nk;
  int64_t kshape[CN_MAX_DIMS], kin[CN_MAX_DIMS], kout[CN_MAX_DIMS];
  int64_t n, sin, sout, nlines;
  const char *in;
  char *out;
} scan_geom;

static int64_t sabs64(int64_t x) { return x < 0 ? -x : x; }

static void scan_geom_build(scan_geom *g, const cn_array_s *in, int axis,
                            const cn_array_s *out) {
  const int64_t isz = cn_itemsize(in->dtype), osz = cn_itemsize(out->dtype);
  g->in = in->data;
  g->out = out->data;
  g->n = in->shape[axis];
  g->sin = in->strides[axis] * isz;
  g->sout = out->strides[axis] * osz;
  g->nk = 0;
  g->nlines = 1;
  for (int d = 0; d < in->ndim; d++) {
    if (d == axis)
      continue;
    g->nlines *= in->shape[d];
    if (in->shape[d] == 1)
      continue;
    int64_t a = in->strides[d] * isz, b = out->strides[d] * osz;
    if (a < 0) {
      g->in += (in->shape[d] - 1) * a;
      g->out += (in->shape[d] - 1) * b;
      a = -a;
      b = -b;
    }
    int j = g->nk++;
    /* Insertion by decreasing input stride. */
    while (j > 0 && g->kin[j - 1] < a) {
      g->kshape[j] = g->kshape[j - 1];
      g->kin[j] = g->kin[j - 1];
      g->kout[j] = g->kout[j - 1];
      j--;
    }
    g->kshape[j] = in->shape[d];
    g->kin[j] = a;
    g->kout[j] = b;
  }
  int nk = 0;
  for (int d = 0; d < g->nk; d++) {
    if (nk > 0 && g->kin[nk - 1] == g->kshape[d] * g->kin[d] &&
        g->kout[nk - 1] == g->kshape[d] * g->kout[d]) {
      g->kshape[nk - 1] *= g->kshape[d];
      g->kin[nk - 1] = g->kin[d];
      g->kout[nk - 1] = g->kout[d];
    } else {
      g->kshape[nk] = g->kshape[d];
      g->kin[nk] = g->kin[d];
      g->kout[nk] = g->kout[d];
      nk++;
    }
  }
  g->nk = nk;
}

static void scan_offsets(const scan_geom *g, int nk, int64_t o, int64_t *oi,
                         int64_t *oo) {
  int64_t a = 0, b = 0;
  for (int d = nk - 1; d >= 0 && o > 0; d--) {
    int64_t i = o % g->kshape[d];
    o /= g->kshape[d];
    a += i * g->kin[d];
    b += i * g->kout[d];
  }
  *oi = a;
  *oo = b;
}

/* One long line, two passes over nthreads chunks. */
static void scan_line_split(const cn_scan_kernel *k, const char *p, char *o,
                            int64_t n, int64_t sin, int64_t sout,
                            int nthreads) {
  enum { MAXT = 64 };
  _Alignas(16) char part[MAXT][16], off[MAXT][16];
  if (nthreads > MAXT)
    nthreads = MAXT;
#pragma omp parallel num_threads(nthreads)
  {
    int t = omp_get_thread_num(), nt = omp_get_num_threads();
    int64_t lo = n * t / nt, hi = n * (t + 1) / nt;
    k->identity(part[t], 1);
    if (t < nt - 1)
      k->total(part[t], p + lo * sin, hi - lo, sin);
#pragma omp barrier
#pragma omp single
    {
      k->identity(off[0], 1);
      for (int i = 1; i < nt; i++) {
        __builtin_memcpy(off[i], off[i - 1], 16);
        k->combine(off[i], part[i - 1]);
      }
    }
    k->line(off[t], p + lo * sin, hi - lo, sin, o + lo * sout, sout);
  }
}

cn_status cn_cpu_scan(cn_reduce_kind kind, const cn_array_s *in,
                      uint64_t axis_mask, cn_array_s *out) {
  const cn_scan_kernel *k = cn_scan_kernel_get(kind, in->dtype, out->dtype);
  if (!k || axis_mask == 0)
    return cn_error(CN_ERR_UNSUPPORTED,
                    "cn_cpu_scan: no CPU scan %d from %s to %s (axis mask "
                    "0x%llx)",
                    (int)kind, cn_dtype_name(in->dtype),
                    cn_dtype_name(out->dtype), (unsigned long long)axis_mask);
  /* Nothing to scan or write; an empty array's strides may be anything,
   * so they do not enter the geometry. */
  if (in->size == 0)
    return CN_OK;
  scan_geom g;
  scan_geom_build(&g, in, __builtin_ctzll(axis_mask), out);
  int nthreads = cn_cpu_threads_for(g.n * g.nlines);
  if (nthreads < 1)
    nthreads = 1;
  const int nk = g.nk;
  if (nk > 0 && g.kin[nk - 1] < sabs64(g.sin)) {
    /* Rows: tiles of the inner kept axis advance together. */
    const int64_t m = g.kshape[nk - 1];
    const int64_t tile = (int64_t)(SCAN_TILE_BYTES / k->acc_size);
    const int64_t ntiles = (m + tile - 1) / tile;
    const int64_t units = (g.nlines / m) * ntiles;
#pragma omp parallel for num_threads(nthreads)                                 \
    schedule(static) if (nthreads > 1)
    for (int64_t u = 0; u < units; u++) {
      _Alignas(16) char acc[SCAN_TILE_BYTES];
      int64_t oi, oo, j0 = (u % ntiles) * tile;
      int64_t w = m - j0 < tile ? m - j0 : tile;
      scan_offsets(&g, nk - 1, u / ntiles, &oi, &oo);
      const char *p = g.in + oi + j0 * g.kin[nk - 1];
      char *o = g.out + oo + j0 * g.kout[nk - 1];
      k->identity(acc, w);
      for (int64_t i = 0; i < g.n; i++)
        k->rows(acc, p + i * g.sin, w, g.kin[nk - 1], o + i * g.sout,
                g.kout[nk - 1]);
    }
    return CN_OK;
  }
  if (g.nlines < nthreads && g.n >= (int64_t)nthreads * SCAN_SPLIT_MIN) {
    for (int64_t l = 0; l < g.nlines; l++) {
      int64_t oi, oo;
      scan_offsets(&g, nk, l, &oi, &oo);
      scan_line_split(k, g.in + oi, g.out + oo, g.n, g.sin, g.sout, nthreads);
    }
    return CN_OK;
  }
#pragma omp parallel for num_threads(nthreads)                                 \
    schedule(static) if (nthreads > 1)
  for (int64_t l = 0; l < g.nlines; l++) {
    _Alignas(16) char acc[16];
    int64_t oi, oo;
    scan_offsets(&g, nk, l, &oi, &oo);
    k->identity(acc, 1);
    k->line(acc, g.in + oi, g.n, g.sin, g.out + oo, g.sout);
  }
  return CN_OK;
}
