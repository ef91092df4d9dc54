/* FFTs on the CPU through FFTW3's guru64 interface, which takes the strided
 * layout of every operand directly (no gather copy). Plans are made with
 * FFTW_ESTIMATE by default (measuring a 2^22 plan takes far longer than
 * running it; cn_fft_set_planner asks for measured plans, made on scratch
 * buffers so the caller's data is never planned over) and
 * kept in a small LRU cache keyed on everything that changes a plan: kind,
 * precision, sign, every extent and stride, in-place-ness, the operands'
 * SIMD alignment and the thread count. Plans run through FFTW's new-array
 * execute functions, which are thread-safe; planning and destruction are
 * not, so they happen under one mutex. */
#include <fftw3.h>
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../linalg/descriptors.h"
#include "cpu.h"

void cn_cpu_fft_fill(cn_backend_compute *t) { t->fft = cn_cpu_fft; }

/* Below this many points per transform batch one thread is faster: thread
 * start-up dominates (two threads make a 2^10 transform ten times slower). */
#define CN_FFT_THREAD_MIN ((int64_t)1 << 17)
#define CN_FFT_CACHE_SIZE 64
/* From this many points on, multi-dim and strided transforms run as one
 * pass per dim (fft_by_passes). */
#define CN_FFT_PASSES_MIN ((int64_t)1 << 15)

typedef struct fft_key {
  int32_t kind, dbl, sign, rank, hrank, inplace, nthreads, effort;
  int32_t align_in, align_out;
  int64_t dims[CN_MAX_DIMS][3];
  int64_t hdims[CN_MAX_DIMS][3];
} fft_key;

typedef struct fft_entry {
  fft_key key;
  void *plan; /* fftw_plan or fftwf_plan */
  int64_t users;
  uint64_t last_use;
  bool used;
} fft_entry;

static pthread_mutex_t g_fft_lock = PTHREAD_MUTEX_INITIALIZER;
static fft_entry g_cache[CN_FFT_CACHE_SIZE];
static uint64_t g_tick;
static pthread_once_t g_fft_once = PTHREAD_ONCE_INIT;

/* cn_fft_planner; read when a plan is made. */
static _Atomic int g_effort = CN_FFT_PLANNER_ESTIMATE;

static const char *const g_effort_names[] = {"estimate", "measure", "patient",
                                             "exhaustive"};

static void fft_init(void) {
  fftw_init_threads();
  fftwf_init_threads();
  const char *env = getenv("CUNUMPY_FFT_PLANNER");
  for (int i = 0; env && i < 4; i++)
    if (strcasecmp(env, g_effort_names[i]) == 0)
      atomic_store(&g_effort, i);
}

static unsigned effort_flags(int effort) {
  static const unsigned f[] = {FFTW_ESTIMATE, FFTW_MEASURE, FFTW_PATIENT,
                               FFTW_EXHAUSTIVE};
  return f[effort];
}

/* Lowest and highest element offsets a guru operand reaches (strides in
 * elements, any sign). */
static void guru_extent(const cn_fft_desc *d, bool in, int64_t *lo,
                        int64_t *hi) {
  *lo = *hi = 0;
  for (int32_t i = 0; i < d->rank + d->howmany_rank; i++) {
    bool h = i >= d->rank;
    int32_t k = h ? i - d->rank : i;
    int64_t n = h ? d->hn[k] : d->n[k];
    int64_t st = h ? (in ? d->his[k] : d->hos[k]) : (in ? d->is[k] : d->os[k]);
    if (d->kind != CN_FFT_C2C && !h && k == d->rank - 1 &&
        (in ? d->kind == CN_FFT_C2R : d->kind == CN_FFT_R2C))
      n = n / 2 + 1; /* the complex side of a real transform is halved */
    int64_t reach = (n - 1) * st;
    if (reach < 0)
      *lo += reach;
    else
      *hi += reach;
  }
}

/* Scratch operands for measured planning: the same strides and the same
 * address modulo 64 (so FFTW's alignment check sees the real operands),
 * zeroed so timing sees no denormals. *raw receives what to free. */
static cn_status scratch_operands(const cn_fft_desc *d, bool dbl, void **raw,
                                  char **in, char **out) {
  size_t rs = dbl ? sizeof(double) : sizeof(float);
  size_t es_in = d->kind == CN_FFT_R2C ? rs : 2 * rs;
  size_t es_out = d->kind == CN_FFT_C2R ? rs : 2 * rs;
  int64_t lo_i, hi_i, lo_o, hi_o;
  guru_extent(d, true, &lo_i, &hi_i);
  guru_extent(d, false, &lo_o, &hi_o);
  /* Byte extents around each operand's element 0. */
  int64_t bi0 = lo_i * (int64_t)es_in, bi1 = (hi_i + 1) * (int64_t)es_in;
  int64_t bo0 = lo_o * (int64_t)es_out, bo1 = (hi_o + 1) * (int64_t)es_out;
  bool inplace = d->in == d->out;
  if (inplace) {
    bi0 = bo0 = bi0 < bo0 ? bi0 : bo0;
    bi1 = bo1 = bi1 > bo1 ? bi1 : bo1;
  }
  size_t span_i = (size_t)(bi1 - bi0),
         span_o = inplace ? 0 : (size_t)(bo1 - bo0);
  size_t total = span_i + span_o + 256;
  char *mem = cn_calloc(1, total);
  if (!mem)
    return cn_error(CN_ERR_MEMORY,
                    "cn_fft: cannot allocate %zu bytes of planning scratch",
                    total);
  uintptr_t base = ((uintptr_t)mem + 63) & ~(uintptr_t)63;
  uintptr_t p = base - (uintptr_t)bi0;
  p += ((uintptr_t)d->in - p) & 63;
  *in = (char *)p;
  if (inplace) {
    *out = *in;
  } else {
    uintptr_t b2 = (((uintptr_t)*in + (uintptr_t)bi1) + 63) & ~(uintptr_t)63;
    uintptr_t q = b2 - (uintptr_t)bo0;
    q += ((uintptr_t)d->out - q) & 63;
    *out = (char *)q;
  }
  *raw = mem;
  return CN_OK;
}

static void plan_destroy(bool dbl, void *p) {
  if (dbl)
    fftw_destroy_plan((fftw_plan)p);
  else
    fftwf_destroy_plan((fftwf_plan)p);
}

static void *plan_make(const cn_fft_desc *d, bool dbl, int nthreads,
                       int effort) {
  fftw_iodim64 dims[CN_MAX_DIMS], hd[CN_MAX_DIMS];
  for (int32_t i = 0; i < d->rank; i++) {
    dims[i].n = d->n[i];
    dims[i].is = d->is[i];
    dims[i].os = d->os[i];
  }
  for (int32_t i = 0; i < d->howmany_rank; i++) {
    hd[i].n = d->hn[i];
    hd[i].is = d->his[i];
    hd[i].os = d->hos[i];
  }
  unsigned flags = effort_flags(effort);
  if (d->kind == CN_FFT_C2R)
    flags |= FFTW_DESTROY_INPUT;
  if (dbl) {
    fftw_plan_with_nthreads(nthreads);
    switch (d->kind) {
    case CN_FFT_C2C:
      return fftw_plan_guru64_dft(d->rank, dims, d->howmany_rank, hd,
                                  (fftw_complex *)d->in, (fftw_complex *)d->out,
                                  d->sign, flags);
    case CN_FFT_R2C:
      return fftw_plan_guru64_dft_r2c(d->rank, dims, d->howmany_rank, hd,
                                      (double *)d->in, (fftw_complex *)d->out,
                                      flags);
    default:
      return fftw_plan_guru64_dft_c2r(d->rank, dims, d->howmany_rank, hd,
                                      (fftw_complex *)d->in, (double *)d->out,
                                      flags);
    }
  }
  /* fftwf_iodim64 has the same layout as fftw_iodim64. */
  fftwf_plan_with_nthreads(nthreads);
  const fftwf_iodim64 *fd = (const fftwf_iodim64 *)dims;
  const fftwf_iodim64 *fh = (const fftwf_iodim64 *)hd;
  switch (d->kind) {
  case CN_FFT_C2C:
    return fftwf_plan_guru64_dft(d->rank, fd, d->howmany_rank, fh,
                                 (fftwf_complex *)d->in,
                                 (fftwf_complex *)d->out, d->sign, flags);
  case CN_FFT_R2C:
    return fftwf_plan_guru64_dft_r2c(d->rank, fd, d->howmany_rank, fh,
                                     (float *)d->in, (fftwf_complex *)d->out,
                                     flags);
  default:
    return fftwf_plan_guru64_dft_c2r(d->rank, fd, d->howmany_rank, fh,
                                     (fftwf_complex *)d->in, (float *)d->out,
                                     flags);
  }
}

/* FFTW allocates while planning (twiddle tables, plan records, buffers
 * of buffered solvers) with its own malloc, and aborts the process when
 * that fails; Debian's FFTW has no allocator hook. Before planning we
 * therefore check, with our allocator, that a headroom of twice the
 * transform's bytes plus 1 MiB is available, and report CN_ERR_MEMORY when
 * it is not, so that planning only starts when its needs are likely met.
 * This bounds the risk; it cannot rule out a failure inside FFTW. */
static cn_status planning_headroom(const cn_fft_desc *d, bool dbl) {
  size_t elems = 1;
  for (int32_t i = 0; i < d->rank; i++)
    elems *= (size_t)d->n[i];
  size_t csz = dbl ? 2 * sizeof(double) : 2 * sizeof(float);
  size_t want = ((size_t)1 << 20) +
                (elems <= (SIZE_MAX / 4) / csz ? 2 * elems * csz : SIZE_MAX / 2);
  void *h = cn_malloc(want);
  if (h == NULL)
    return cn_error(CN_ERR_MEMORY,
                    "cn_fft: not enough host memory (%zu bytes) to plan the "
                    "transform safely",
                    want);
  free(h);
  return CN_OK;
}

/* Finds or makes the plan for d; *slot is the cache index holding a user
 * reference, or -1 for an uncached plan the caller destroys. */
static cn_status plan_get(void **plan, int *slot, const cn_fft_desc *d,
                          bool dbl, int nthreads) {
  fft_key key;
  memset(&key, 0, sizeof key);
  key.kind = d->kind;
  key.dbl = dbl;
  key.sign = d->kind == CN_FFT_C2C ? d->sign : 0;
  key.rank = d->rank;
  key.hrank = d->howmany_rank;
  key.inplace = d->in == d->out;
  key.nthreads = nthreads;
  key.effort = atomic_load(&g_effort);
  key.align_in = dbl ? fftw_alignment_of((double *)d->in)
                     : fftwf_alignment_of((float *)d->in);
  key.align_out = dbl ? fftw_alignment_of((double *)d->out)
                      : fftwf_alignment_of((float *)d->out);
  for (int32_t i = 0; i < d->rank; i++) {
    key.dims[i][0] = d->n[i];
    key.dims[i][1] = d->is[i];
    key.dims[i][2] = d->os[i];
  }
  for (int32_t i = 0; i < d->howmany_rank; i++) {
    key.hdims[i][0] = d->hn[i];
    key.hdims[i][1] = d->his[i];
    key.hdims[i][2] = d->hos[i];
  }
  pthread_mutex_lock(&g_fft_lock);
  int victim = -1;
  for (int i = 0; i < CN_FFT_CACHE_SIZE; i++) {
    fft_entry *e = &g_cache[i];
    if (e->used && memcmp(&e->key, &key, sizeof key) == 0) {
      e->users++;
      e->last_use = ++g_tick;
      *plan = e->plan;
      *slot = i;
      pthread_mutex_unlock(&g_fft_lock);
      return CN_OK;
    }
    if (!e->used) {
      if (victim < 0 || g_cache[victim].used)
        victim = i;
    } else if (e->users == 0 &&
               (victim < 0 || (g_cache[victim].used &&
                               e->last_use < g_cache[victim].last_use))) {
      victim = i;
    }
  }
  cn_status hst = planning_headroom(d, dbl);
  if (hst != CN_OK) {
    pthread_mutex_unlock(&g_fft_lock);
    return hst;
  }
  void *p;
  double t0 = cn_seconds();
  if (key.effort == CN_FFT_PLANNER_ESTIMATE) {
    p = plan_make(d, dbl, nthreads, key.effort);
  } else {
    void *raw = NULL;
    cn_fft_desc sd = *d;
    char *si = NULL, *so = NULL;
    cn_status st = scratch_operands(d, dbl, &raw, &si, &so);
    if (st != CN_OK) {
      pthread_mutex_unlock(&g_fft_lock);
      return st;
    }
    sd.in = si;
    sd.out = so;
    p = plan_make(&sd, dbl, nthreads, key.effort);
    free(raw);
  }
  double took = cn_seconds() - t0;
  if (!p) {
    pthread_mutex_unlock(&g_fft_lock);
    return cn_error(CN_ERR_BACKEND,
                    "cn_fft: FFTW could not plan a rank-%d transform over %d "
                    "loop dims",
                    (int)d->rank, (int)d->howmany_rank);
  }
  if (victim >= 0) {
    fft_entry *e = &g_cache[victim];
    if (e->used)
      plan_destroy(e->key.dbl, e->plan);
    e->key = key;
    e->plan = p;
    e->users = 1;
    e->last_use = ++g_tick;
    e->used = true;
  }
  *plan = p;
  *slot = victim;
  pthread_mutex_unlock(&g_fft_lock);
  /* Measured planning can take minutes for large sizes: say where the
   * time went (logged after the lock is released: a handler may wait on
   * a thread that waits on it). */
  cn_log_slow(took,
              "FFTW planning (%s) of a rank-%d transform of first length "
              "%lld took %.1f s; the plan is cached for this process "
              "(cunumpy.fft.save_wisdom keeps it across runs)",
              g_effort_names[key.effort], (int)d->rank, (long long)d->n[0],
              took);
  return CN_OK;
}

static void plan_put(void *plan, int slot, bool dbl) {
  pthread_mutex_lock(&g_fft_lock);
  if (slot >= 0)
    g_cache[slot].users--;
  else
    plan_destroy(dbl, plan);
  pthread_mutex_unlock(&g_fft_lock);
}

/* Runs a plan on d's arrays (new-array execute). */
static void plan_exec(void *plan, const cn_fft_desc *d, bool dbl) {
  if (dbl) {
    switch (d->kind) {
    case CN_FFT_C2C:
      fftw_execute_dft((fftw_plan)plan, (fftw_complex *)d->in,
                       (fftw_complex *)d->out);
      break;
    case CN_FFT_R2C:
      fftw_execute_dft_r2c((fftw_plan)plan, (double *)d->in,
                           (fftw_complex *)d->out);
      break;
    default:
      fftw_execute_dft_c2r((fftw_plan)plan, (fftw_complex *)d->in,
                           (double *)d->out);
      break;
    }
  } else {
    switch (d->kind) {
    case CN_FFT_C2C:
      fftwf_execute_dft((fftwf_plan)plan, (fftwf_complex *)d->in,
                        (fftwf_complex *)d->out);
      break;
    case CN_FFT_R2C:
      fftwf_execute_dft_r2c((fftwf_plan)plan, (float *)d->in,
                            (fftwf_complex *)d->out);
      break;
    default:
      fftwf_execute_dft_c2r((fftwf_plan)plan, (fftwf_complex *)d->in,
                            (float *)d->out);
      break;
    }
  }
}

/* Plans (through the cache) and runs one descriptor. */
static cn_status run_desc(const cn_fft_desc *d, bool dbl, int nthreads) {
  void *plan = NULL;
  int slot = -1;
  cn_status st = plan_get(&plan, &slot, d, dbl, nthreads);
  if (st != CN_OK)
    return st;
  plan_exec(plan, d, dbl);
  plan_put(plan, slot, dbl);
  return CN_OK;
}

/* Block gather / scatter with a constant element size (so the copies
 * compile to plain loads and stores). */
#define GATHER(ES)                                                             \
  for (int64_t k = 0; k < n; k++) {                                            \
    const char *src = p0 + k * st * (ES);                                      \
    for (int64_t b = 0; b < cnt; b++)                                          \
      memcpy(buf + (b * n + k) * (ES), src + b * sv * (ES), (ES));             \
  }
#define SCATTER(ES)                                                            \
  for (int64_t k = 0; k < n; k++) {                                            \
    char *dst = p0 + k * st * (ES);                                            \
    for (int64_t b = 0; b < cnt; b++)                                          \
      memcpy(dst + b * sv * (ES), buf + (b * n + k) * (ES), (ES));             \
  }

/* Columns gathered per block: 16 complex doubles span 4 cache lines. */
#define CN_FFT_BLOCK 16

/* In-place c2c along one dim (extent n, element stride st) of the complex
 * array at base, looping over the other dims (no, oshape, ostride). A
 * strided dim is transformed in blocks of CN_FFT_BLOCK lines gathered into
 * a contiguous buffer (the cache-friendly way; FFTW_ESTIMATE plans for
 * large strided transforms are several times slower), blocks spread over
 * the threads. */
static cn_status c2c_axis(char *base, bool dbl, int32_t sign, int64_t n,
                          int64_t st, int32_t no, const int64_t *oshape,
                          const int64_t *ostride, int nthreads) {
  cn_fft_desc d;
  memset(&d, 0, sizeof d);
  d.kind = CN_FFT_C2C;
  d.dtype = dbl ? CN_COMPLEX128 : CN_COMPLEX64;
  d.sign = sign;
  d.rank = 1;
  d.n[0] = n;
  d.scale = 1.0;
  if (st == 1 || n == 1) {
    d.is[0] = d.os[0] = st;
    d.howmany_rank = no;
    for (int32_t i = 0; i < no; i++) {
      d.hn[i] = oshape[i];
      d.his[i] = d.hos[i] = ostride[i];
    }
    d.in = d.out = base;
    return run_desc(&d, dbl, nthreads);
  }
  int64_t esz = dbl ? 16 : 8;
  /* The vector dim: the other dim with the smallest stride. */
  int32_t v = -1;
  for (int32_t i = 0; i < no; i++)
    if (oshape[i] > 1 && (v < 0 || llabs(ostride[i]) < llabs(ostride[v])))
      v = i;
  int64_t nv = v >= 0 ? oshape[v] : 1, sv = v >= 0 ? ostride[v] : 0;
  int64_t B = nv < CN_FFT_BLOCK ? nv : CN_FFT_BLOCK;
  int64_t nblk = (nv + B - 1) / B, outer = 1;
  for (int32_t i = 0; i < no; i++)
    if (i != v)
      outer *= oshape[i];
  int64_t tasks = outer * nblk;
  int nt = nthreads;
  if (nt > tasks)
    nt = (int)tasks;
  if (nt < 1)
    nt = 1;
  char **bufs = cn_calloc((size_t)nt, sizeof *bufs);
  if (bufs == NULL)
    return cn_error(CN_ERR_MEMORY, "cn_fft: out of memory");
  cn_status status = CN_OK;
  for (int t = 0; t < nt && status == CN_OK; t++) {
    /* Our allocation (64-byte aligned, as fftw_malloc's), so that the
     * allocation-failure hook and a real failure both come back here. */
    bufs[t] = cn_aligned_alloc(64, (size_t)(B * n * esz));
    if (bufs[t] == NULL)
      status = cn_error(CN_ERR_MEMORY, "cn_fft: out of memory for a buffer");
  }
  /* Plans for full blocks and the remainder, contiguous lines in place. */
  void *plan[2] = {NULL, NULL};
  int slot[2] = {-1, -1};
  int64_t counts[2] = {B, nv % B};
  for (int k = 0; k < 2 && status == CN_OK; k++) {
    if (counts[k] == 0)
      continue;
    d.is[0] = d.os[0] = 1;
    d.howmany_rank = 1;
    d.hn[0] = counts[k];
    d.his[0] = d.hos[0] = n;
    d.in = d.out = bufs[0];
    status = plan_get(&plan[k], &slot[k], &d, dbl, 1);
  }
  if (status == CN_OK) {
    int32_t oth[CN_MAX_DIMS], nothr = 0;
    for (int32_t i = 0; i < no; i++)
      if (i != v)
        oth[nothr++] = i;
#pragma omp parallel for num_threads(nt) schedule(static)
    for (int64_t task = 0; task < tasks; task++) {
      char *buf = bufs[omp_get_thread_num()];
      int64_t blk = task % nblk, rem = task / nblk, off = 0;
      for (int32_t j = nothr - 1; j >= 0; j--) {
        int64_t e = oshape[oth[j]];
        off += (rem % e) * ostride[oth[j]];
        rem /= e;
      }
      int64_t c0 = blk * B, cnt = nv - c0 < B ? nv - c0 : B;
      char *p0 = base + (off + c0 * sv) * esz;
      if (dbl) {
        GATHER(16)
      } else {
        GATHER(8)
      }
      cn_fft_desc e = d;
      e.in = e.out = buf;
      plan_exec(plan[cnt == B ? 0 : 1], &e, dbl);
      if (dbl) {
        SCATTER(16)
      } else {
        SCATTER(8)
      }
    }
  }
  for (int k = 0; k < 2; k++)
    if (plan[k])
      plan_put(plan[k], slot[k], dbl);
  for (int t = 0; t < nt; t++)
    free(bufs[t]);
  free(bufs);
  return status;
}

/* dst[i] = src[i] over an nd-dim index space (element strides). */
static void strided_copy(char *dst, const char *src, int32_t nd,
                         const int64_t *shape, const int64_t *ds,
                         const int64_t *ss, int64_t esz) {
  int64_t idx[2 * CN_MAX_DIMS] = {0}, total = 1;
  for (int32_t i = 0; i < nd; i++)
    total *= shape[i];
  int64_t od = 0, os = 0;
  for (int64_t k = 0; k < total; k++) {
    memcpy(dst + od * esz, src + os * esz, (size_t)esz);
    for (int32_t i = nd - 1; i >= 0; i--) {
      if (++idx[i] < shape[i]) {
        od += ds[i];
        os += ss[i];
        break;
      }
      idx[i] = 0;
      od -= (shape[i] - 1) * ds[i];
      os -= (shape[i] - 1) * ss[i];
    }
  }
}

/* Large multi-dim (or strided) transforms as one pass per dim: the pass
 * over the dim with the smallest input stride goes from in to out through
 * FFTW directly (with r2c / c2r on the halved dim), the others run in place
 * through c2c_axis. */
static cn_status fft_by_passes(const cn_fft_desc *d, bool dbl, int nthreads) {
  /* All dims of the arrays: transformed ones first, then the loops. */
  int32_t nd = d->rank + d->howmany_rank;
  int64_t in_ext[2 * CN_MAX_DIMS], out_ext[2 * CN_MAX_DIMS];
  int64_t is[2 * CN_MAX_DIMS], os[2 * CN_MAX_DIMS];
  int32_t last = d->rank - 1;
  for (int32_t i = 0; i < d->rank; i++) {
    in_ext[i] = out_ext[i] = d->n[i];
    is[i] = d->is[i];
    os[i] = d->os[i];
  }
  if (d->kind == CN_FFT_R2C)
    out_ext[last] = d->n[last] / 2 + 1;
  if (d->kind == CN_FFT_C2R)
    in_ext[last] = d->n[last] / 2 + 1;
  for (int32_t i = 0; i < d->howmany_rank; i++) {
    in_ext[d->rank + i] = out_ext[d->rank + i] = d->hn[i];
    is[d->rank + i] = d->his[i];
    os[d->rank + i] = d->hos[i];
  }
  /* The direct pass: the halved dim for r2c / c2r, else the transformed
   * dim with the smallest input stride. */
  int32_t first = last;
  if (d->kind == CN_FFT_C2C)
    for (int32_t i = 0; i < d->rank; i++)
      if (llabs(is[i]) < llabs(is[first]))
        first = i;
  int64_t oshape[2 * CN_MAX_DIMS], ostr[2 * CN_MAX_DIMS];
  cn_status st = CN_OK;
  if (d->kind == CN_FFT_C2R) {
    /* c2c passes on the (destroyable) input first, then c2r into out. */
    for (int32_t t = 0; t < d->rank - 1 && st == CN_OK; t++) {
      int32_t no = 0;
      for (int32_t i = 0; i < nd; i++)
        if (i != t) {
          oshape[no] = in_ext[i];
          ostr[no++] = is[i];
        }
      st = c2c_axis((char *)d->in, dbl, +1, d->n[t], is[t], no, oshape, ostr,
                    nthreads);
    }
    if (st != CN_OK)
      return st;
  }
  if (d->kind == CN_FFT_C2C && (is[first] != 1 || os[first] != 1)) {
    /* No dim is contiguous on both sides: copy once, then every dim runs
     * in place in blocks. */
    if (d->in != d->out)
      strided_copy((char *)d->out, (const char *)d->in, nd, out_ext, os, is,
                   dbl ? 16 : 8);
    for (int32_t t = 0; t < d->rank && st == CN_OK; t++) {
      int32_t no = 0;
      for (int32_t i = 0; i < nd; i++)
        if (i != t) {
          oshape[no] = out_ext[i];
          ostr[no++] = os[i];
        }
      st = c2c_axis((char *)d->out, dbl, d->sign, d->n[t], os[t], no, oshape,
                    ostr, nthreads);
    }
    return st;
  }
  cn_fft_desc p;
  memset(&p, 0, sizeof p);
  p.kind = d->kind;
  p.dtype = d->dtype;
  p.sign = d->sign;
  p.rank = 1;
  p.n[0] = d->n[first];
  p.is[0] = is[first];
  p.os[0] = os[first];
  p.in = d->in;
  p.out = d->out;
  p.scale = 1.0;
  for (int32_t i = 0; i < nd; i++)
    if (i != first) {
      /* c2r: the other transformed dims were already done on the input. */
      p.hn[p.howmany_rank] = d->kind == CN_FFT_C2R ? in_ext[i] : out_ext[i];
      p.his[p.howmany_rank] = is[i];
      p.hos[p.howmany_rank] = os[i];
      p.howmany_rank++;
    }
  st = run_desc(&p, dbl, nthreads);
  if (st != CN_OK || d->kind == CN_FFT_C2R)
    return st;
  for (int32_t t = 0; t < d->rank && st == CN_OK; t++) {
    if (t == first)
      continue;
    int32_t no = 0;
    for (int32_t i = 0; i < nd; i++)
      if (i != t) {
        oshape[no] = out_ext[i];
        ostr[no++] = os[i];
      }
    st = c2c_axis((char *)d->out, dbl, d->kind == CN_FFT_C2C ? d->sign : -1,
                  d->n[t], os[t], no, oshape, ostr, nthreads);
  }
  return st;
}

cn_status cn_cpu_fft(const cn_fft_desc *d) {
  pthread_once(&g_fft_once, fft_init);
  bool dbl = d->dtype == CN_COMPLEX128;
  int64_t work = 1;
  for (int32_t i = 0; i < d->rank; i++)
    work *= d->n[i];
  for (int32_t i = 0; i < d->howmany_rank; i++)
    work *= d->hn[i];
  if (work == 0)
    return CN_OK;
  int nthreads = work >= CN_FFT_THREAD_MIN ? omp_get_max_threads() : 1;
  bool strided = false;
  for (int32_t i = 0; i < d->rank; i++)
    strided |= d->is[i] != 1 || d->os[i] != 1;
  cn_status st;
  if (work >= CN_FFT_PASSES_MIN && (d->rank > 1 || strided))
    st = fft_by_passes(d, dbl, nthreads);
  else
    st = run_desc(d, dbl, nthreads);
  if (st != CN_OK)
    return st;
  if (d->scale != 1.0) {
    int64_t nreal = d->kind == CN_FFT_C2R ? d->out_count : 2 * d->out_count;
    int nt = cn_cpu_threads_for(nreal);
    if (dbl) {
      double *o = (double *)d->out, s = d->scale;
#pragma omp parallel for num_threads(nt) schedule(static)
      for (int64_t i = 0; i < nreal; i++)
        o[i] *= s;
    } else {
      float *o = (float *)d->out, s = (float)d->scale;
#pragma omp parallel for num_threads(nt) schedule(static)
      for (int64_t i = 0; i < nreal; i++)
        o[i] *= s;
    }
  }
  return CN_OK;
}

/* ---- planner effort, wisdom and the plan cache (public, fft.h) -------- */

cn_status cn_fft_set_planner(cn_fft_planner effort) {
  if ((int)effort < CN_FFT_PLANNER_ESTIMATE ||
      (int)effort > CN_FFT_PLANNER_EXHAUSTIVE)
    return cn_error(CN_ERR_VALUE,
                    "cn_fft_set_planner: argument 'effort' is %d (expected "
                    "0..3: estimate, measure, patient, exhaustive)",
                    (int)effort);
  pthread_once(&g_fft_once, fft_init);
  atomic_store(&g_effort, (int)effort);
  return CN_OK;
}

cn_status cn_fft_get_planner(cn_fft_planner *out) {
  if (!out)
    return cn_error(CN_ERR_VALUE, "cn_fft_get_planner: argument 'out' is NULL");
  pthread_once(&g_fft_once, fft_init);
  *out = (cn_fft_planner)atomic_load(&g_effort);
  return CN_OK;
}

/* FFTW's emitter callback: appends one character to a FILE. */
static void emit_char(char c, void *f) { fputc(c, (FILE *)f); }

cn_status cn_fft_save_wisdom(const char *path) {
  if (!path)
    return cn_error(CN_ERR_VALUE,
                    "cn_fft_save_wisdom: argument 'path' is NULL");
  pthread_once(&g_fft_once, fft_init);
  FILE *f = fopen(path, "w");
  if (!f)
    return cn_error(CN_ERR_VALUE, "cn_fft_save_wisdom: cannot write '%s'",
                    path);
  pthread_mutex_lock(&g_fft_lock); /* the planner's state is not thread-safe */
  fftw_export_wisdom(emit_char, f);
  fputc('\n', f);
  fftwf_export_wisdom(emit_char, f);
  fputc('\n', f);
  pthread_mutex_unlock(&g_fft_lock);
  bool bad = ferror(f) != 0;
  if (fclose(f) != 0 || bad)
    return cn_error(CN_ERR_VALUE, "cn_fft_save_wisdom: writing '%s' failed",
                    path);
  return CN_OK;
}

/* The whole file as a NUL-terminated string (caller frees), or NULL. */
static char *read_all(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, len = 0;
  char *buf = cn_malloc(cap);
  while (buf) {
    size_t got = fread(buf + len, 1, cap - len - 1, f);
    len += got;
    if (got == 0)
      break;
    if (len + 1 == cap) {
      char *nb = cn_realloc(buf, cap * 2);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
      cap *= 2;
    }
  }
  fclose(f);
  if (buf)
    buf[len] = 0;
  return buf;
}

cn_status cn_fft_load_wisdom(const char *path) {
  if (!path)
    return cn_error(CN_ERR_VALUE,
                    "cn_fft_load_wisdom: argument 'path' is NULL");
  pthread_once(&g_fft_once, fft_init);
  char *text = read_all(path);
  if (!text)
    return cn_error(CN_ERR_VALUE, "cn_fft_load_wisdom: cannot read '%s'", path);
  /* The file holds the double-precision wisdom, then the single one; both
   * are checked before either is merged, so a bad file changes nothing. */
  char *single = strstr(text, " fftwf_wisdom");
  while (single && single > text && *single != '(')
    single--;
  bool ok = single && single > text && strstr(text, " fftw_wisdom") &&
            strstr(text, " fftw_wisdom") < single;
  if (ok) {
    *single = 0;
    char *second = single + 1;
    /* restore the '(' the split overwrote in a copy of the second half */
    size_t n = strlen(second);
    char *s2 = cn_malloc(n + 2);
    if (!s2) {
      free(text);
      return cn_error(CN_ERR_MEMORY, "cn_fft_load_wisdom: out of memory");
    }
    s2[0] = '(';
    memcpy(s2 + 1, second, n + 1);
    pthread_mutex_lock(&g_fft_lock);
    /* FFTW has no dry-run parse: save the current wisdom to restore it when
     * the second half fails after the first was merged. */
    char *keep_d = fftw_export_wisdom_to_string();
    ok = fftw_import_wisdom_from_string(text) != 0;
    if (ok && fftwf_import_wisdom_from_string(s2) == 0) {
      ok = false;
      fftw_forget_wisdom();
      if (keep_d)
        fftw_import_wisdom_from_string(keep_d);
    }
    pthread_mutex_unlock(&g_fft_lock);
    fftw_free(keep_d);
    free(s2);
  }
  free(text);
  if (!ok)
    return cn_error(CN_ERR_VALUE,
                    "cn_fft_load_wisdom: '%s' holds no valid FFTW wisdom "
                    "(expected what cn_fft_save_wisdom writes)",
                    path);
  return CN_OK;
}

cn_status cn_fft_plan_cache_info(int64_t *plans, int64_t *capacity) {
  if (!plans || !capacity)
    return cn_error(CN_ERR_VALUE,
                    "cn_fft_plan_cache_info: argument '%s' is "
                    "NULL",
                    plans ? "capacity" : "plans");
  int64_t n = 0;
  pthread_mutex_lock(&g_fft_lock);
  for (int i = 0; i < CN_FFT_CACHE_SIZE; i++)
    n += g_cache[i].used;
  pthread_mutex_unlock(&g_fft_lock);
  *plans = n;
  *capacity = CN_FFT_CACHE_SIZE;
  return CN_OK;
}

cn_status cn_fft_clear_plan_cache(void) {
  pthread_mutex_lock(&g_fft_lock);
  for (int i = 0; i < CN_FFT_CACHE_SIZE; i++) {
    fft_entry *e = &g_cache[i];
    if (e->used && e->users == 0) {
      plan_destroy(e->key.dbl, e->plan);
      e->used = false;
    }
  }
  pthread_mutex_unlock(&g_fft_lock);
  return CN_OK;
}
