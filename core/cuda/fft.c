/* The fft slot on cuFFT. The descriptor is planned on the host by
 * fft_plan.c (a gather copy and a list of cufftMakePlanMany64 steps); this
 * file runs that plan on the thread's current stream: the gather, the
 * normalisation scale and the C2R input's real DC / Nyquist terms are
 * generated kernels (fft_kernels.h), each step a
 * cached cuFFT plan executed once per host-loop index, with its work area
 * taken from the stream-ordered pool (auto-allocation off), never from a
 * hidden cudaMalloc.
 *
 * Plans live in a small LRU cache keyed on the device, the stream and the
 * whole layout (cn_cufft_key). A cuFFT plan carries its stream and work
 * area, so it must not run in two threads at once: a plan in use is marked
 * busy and skipped by other lookups (which then make their own). Evicted
 * plans are destroyed, and the cache is emptied when the plugin is
 * unloaded. */
#include <cufft.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "fft_kernels.h"
#include "fft_plan.h"

#define CN_CUFFT_CACHE_SIZE 32
#define THREADS 256

/* ---- errors ----------------------------------------------------------- */

static const char *cufft_result_name(cufftResult r) {
  switch (r) {
  case CUFFT_INVALID_PLAN:
    return "CUFFT_INVALID_PLAN";
  case CUFFT_ALLOC_FAILED:
    return "CUFFT_ALLOC_FAILED";
  case CUFFT_INVALID_TYPE:
    return "CUFFT_INVALID_TYPE";
  case CUFFT_INVALID_VALUE:
    return "CUFFT_INVALID_VALUE";
  case CUFFT_INTERNAL_ERROR:
    return "CUFFT_INTERNAL_ERROR";
  case CUFFT_EXEC_FAILED:
    return "CUFFT_EXEC_FAILED";
  case CUFFT_SETUP_FAILED:
    return "CUFFT_SETUP_FAILED";
  case CUFFT_INVALID_SIZE:
    return "CUFFT_INVALID_SIZE";
  case CUFFT_UNALIGNED_DATA:
    return "CUFFT_UNALIGNED_DATA";
  case CUFFT_INVALID_DEVICE:
    return "CUFFT_INVALID_DEVICE";
  case CUFFT_NO_WORKSPACE:
    return "CUFFT_NO_WORKSPACE";
  case CUFFT_NOT_IMPLEMENTED:
    return "CUFFT_NOT_IMPLEMENTED";
  case CUFFT_NOT_SUPPORTED:
    return "CUFFT_NOT_SUPPORTED";
  default:
    return "unknown cuFFT error";
  }
}

/* CN_ERR_MEMORY for CUFFT_ALLOC_FAILED, else CN_ERR_BACKEND, naming call. */
static cn_status cufft_fail(cufftResult r, const char *call) {
  cn_status st = r == CUFFT_ALLOC_FAILED ? CN_ERR_MEMORY : CN_ERR_BACKEND;
  return cn_cu_error(st, "cuda: %s failed: %s (cuFFT result %d)", call,
                     cufft_result_name(r), (int)r);
}

/* ---- the plan cache --------------------------------------------------- */

typedef struct plan_entry {
  cn_cufft_key key;
  cufftHandle handle;
  size_t work; /* work area bytes */
  uint64_t last_use;
  bool used, busy;
} plan_entry;

static pthread_mutex_t g_plan_lock = PTHREAD_MUTEX_INITIALIZER;
static plan_entry g_plans[CN_CUFFT_CACHE_SIZE];
static uint64_t g_plan_tick;

static cufftType cufft_type(int32_t kind, bool dbl) {
  if (kind == CN_FFT_R2C)
    return dbl ? CUFFT_D2Z : CUFFT_R2C;
  if (kind == CN_FFT_C2R)
    return dbl ? CUFFT_Z2D : CUFFT_C2R;
  return dbl ? CUFFT_Z2Z : CUFFT_C2C;
}

/* A new cuFFT plan for step s with the work area left to the caller. */
static cn_status plan_create(cufftHandle *out, size_t *work,
                             const cn_cufft_step *s, bool dbl) {
  cufftHandle h = 0;
  cufftResult r = cufftCreate(&h);
  if (r != CUFFT_SUCCESS)
    return cufft_fail(r, "cufftCreate");
  r = cufftSetAutoAllocation(h, 0);
  if (r != CUFFT_SUCCESS) {
    cufftDestroy(h);
    return cufft_fail(r, "cufftSetAutoAllocation");
  }
  long long n[3], inembed[3], onembed[3];
  for (int32_t k = 0; k < s->rank; k++) {
    n[k] = s->n[k];
    inembed[k] = s->inembed[k];
    onembed[k] = s->onembed[k];
  }
  size_t ws = 0;
  r = cufftMakePlanMany64(h, s->rank, n, inembed, s->istride, s->idist,
                          onembed, s->ostride, s->odist,
                          cufft_type(s->kind, dbl), s->batch, &ws);
  if (r != CUFFT_SUCCESS) {
    cufftDestroy(h);
    return cufft_fail(r, "cufftMakePlanMany64");
  }
  *out = h;
  *work = ws;
  return CN_OK;
}

/* The plan for key, marked busy (slot >= 0), or a new uncached one
 * (slot -1) when every entry is busy. */
static cn_status plan_acquire(cufftHandle *h, size_t *work, int *slot,
                              const cn_cufft_key *key, const cn_cufft_step *s,
                              bool dbl) {
  pthread_mutex_lock(&g_plan_lock);
  for (int i = 0; i < CN_CUFFT_CACHE_SIZE; i++) {
    plan_entry *e = &g_plans[i];
    if (e->used && !e->busy && memcmp(&e->key, key, sizeof *key) == 0) {
      e->busy = true;
      e->last_use = ++g_plan_tick;
      *h = e->handle;
      *work = e->work;
      *slot = i;
      pthread_mutex_unlock(&g_plan_lock);
      return CN_OK;
    }
  }
  pthread_mutex_unlock(&g_plan_lock);
  /* Planning runs unlocked: it can take milliseconds. */
  cn_status st = plan_create(h, work, s, dbl);
  if (st != CN_OK)
    return st;
  pthread_mutex_lock(&g_plan_lock);
  int victim = -1;
  for (int i = 0; i < CN_CUFFT_CACHE_SIZE; i++) {
    plan_entry *e = &g_plans[i];
    if (!e->used) {
      victim = i;
      break;
    }
    if (!e->busy && (victim < 0 || e->last_use < g_plans[victim].last_use))
      victim = i;
  }
  if (victim >= 0) {
    plan_entry *e = &g_plans[victim];
    if (e->used)
      cufftDestroy(e->handle);
    *e = (plan_entry){.key = *key,
                      .handle = *h,
                      .work = *work,
                      .last_use = ++g_plan_tick,
                      .used = true,
                      .busy = true};
  }
  *slot = victim;
  pthread_mutex_unlock(&g_plan_lock);
  return CN_OK;
}

static void plan_release(cufftHandle h, int slot) {
  pthread_mutex_lock(&g_plan_lock);
  if (slot >= 0)
    g_plans[slot].busy = false;
  else
    cufftDestroy(h);
  pthread_mutex_unlock(&g_plan_lock);
}

__attribute__((destructor)) static void plan_cache_unload(void) {
  pthread_mutex_lock(&g_plan_lock);
  for (int i = 0; i < CN_CUFFT_CACHE_SIZE; i++)
    if (g_plans[i].used && !g_plans[i].busy) {
      cufftDestroy(g_plans[i].handle);
      g_plans[i].used = false;
    }
  pthread_mutex_unlock(&g_plan_lock);
}

/* ---- kernels ---------------------------------------------------------- */

/* Layout of cn_geom in prelude/elementwise.cuh. */
typedef struct {
  int32_t ndim;
  int64_t shape[CN_MAX_DIMS];
  int64_t st[4][CN_MAX_DIMS];
} fft_geom;

static bool gen_fft(cn_cu_src *s, void *ctx, char names[][CN_CU_NAME_CAP]) {
  return cn_cu_gen_fft(s, *(const cn_dtype *)ctx, names);
}

static long long grid_for(long long n) {
  int dev = 0;
  cudaGetDevice(&dev);
  long long cap = (long long)cn_cu_devinfo_get(dev)->sms * 32;
  long long b = (n + THREADS - 1) / THREADS;
  return b < cap ? b : cap;
}

static cn_status fft_kernel(cudaKernel_t *k, cn_dtype cdt, int idx) {
  char key[32];
  snprintf(key, sizeof key, "fft:%s", cn_cu_tag(cdt));
  return cn_cu_kernel(k, key, idx, gen_fft, &cdt);
}

static cn_status run_gather(const cn_cufft_plan *p, cn_dtype cdt, char *dst,
                            const char *src, int64_t esz) {
  fft_geom g;
  memset(&g, 0, sizeof g);
  g.ndim = p->copy_rank;
  long long n = 1;
  for (int32_t k = 0; k < p->copy_rank; k++) {
    g.shape[k] = p->copy_n[k];
    g.st[0][k] = p->copy_os[k] * esz;
    g.st[1][k] = p->copy_is[k] * esz;
    n *= p->copy_n[k];
  }
  cudaKernel_t k;
  cn_status st = fft_kernel(&k, cdt, p->copy_complex ? 1 : 2);
  if (st != CN_OK)
    return st;
  void *args[] = {&n, &g, &dst, &src};
  return cn_cu_launch(k, grid_for(n), 1, THREADS, args, "fft gather");
}

static cn_status run_scale(cn_dtype cdt, void *out, long long nreal,
                           double scale) {
  cudaKernel_t k;
  cn_status st = fft_kernel(&k, cdt, 0);
  if (st != CN_OK)
    return st;
  float sf = (float)scale;
  void *args[] = {&nreal, &out, cdt == CN_COMPLEX128 ? (void *)&scale : &sf};
  return cn_cu_launch(k, grid_for(nreal), 1, THREADS, args, "fft scale");
}

/* NumPy's C2R reads only the real part of the DC term and, for even n, of
 * the Nyquist term; cuFFT leaves what it does with their imaginary parts
 * undefined. So they are zeroed in the C2R step's (destroyable) source
 * first: over the batch and loop dims, at the halved dim's index 0 and
 * n/2. */
static cn_status run_realdc(const cn_cufft_step *s, cn_dtype cdt, char *src) {
  int64_t esz = cdt == CN_COMPLEX128 ? 16 : 8;
  fft_geom g;
  memset(&g, 0, sizeof g);
  g.shape[0] = s->batch;
  g.st[0][0] = s->idist * esz;
  long long n = s->batch;
  for (int32_t j = 0; j < s->loop_rank; j++) {
    g.shape[j + 1] = s->loop_n[j];
    g.st[0][j + 1] = s->loop_is[j] * esz;
    n *= s->loop_n[j];
  }
  g.ndim = 1 + s->loop_rank;
  long long nyq = s->n[0] % 2 == 0 ? (s->n[0] / 2) * s->istride * esz : 0;
  cudaKernel_t k;
  cn_status st = fft_kernel(&k, cdt, 3);
  if (st != CN_OK)
    return st;
  void *args[] = {&n, &g, &src, &nyq};
  return cn_cu_launch(k, grid_for(n), 1, THREADS, args, "fft real DC");
}

/* ---- execution -------------------------------------------------------- */

static cufftResult exec_one(cufftHandle h, int32_t kind, bool dbl,
                            int32_t sign, void *src, void *dst,
                            const char **call) {
  switch (kind) {
  case CN_FFT_R2C:
    *call = dbl ? "cufftExecD2Z" : "cufftExecR2C";
    return dbl ? cufftExecD2Z(h, src, dst) : cufftExecR2C(h, src, dst);
  case CN_FFT_C2R:
    *call = dbl ? "cufftExecZ2D" : "cufftExecC2R";
    return dbl ? cufftExecZ2D(h, src, dst) : cufftExecC2R(h, src, dst);
  default:
    *call = dbl ? "cufftExecZ2Z" : "cufftExecC2C";
    return dbl ? cufftExecZ2Z(h, src, dst, sign)
               : cufftExecC2C(h, src, dst, sign);
  }
}

/* Runs one step: the plan from the cache on the current stream with a
 * pool work area, once per host-loop index. */
static cn_status run_step(const cn_cufft_step *s, bool dbl, int32_t device,
                          cudaStream_t stream, char *const bufs[3]) {
  cn_cufft_key key;
  cn_cufft_key_make(&key, s, dbl, device, (uint64_t)(uintptr_t)stream);
  cufftHandle h = 0;
  size_t work = 0;
  int slot = -1;
  cn_status st = plan_acquire(&h, &work, &slot, &key, s, dbl);
  if (st != CN_OK)
    return st;
  void *area = NULL;
  cufftResult r = cufftSetStream(h, stream);
  if (r != CUFFT_SUCCESS)
    st = cufft_fail(r, "cufftSetStream");
  if (st == CN_OK && work > 0)
    st = cn_cu_scratch(&area, work);
  if (st == CN_OK && work > 0 &&
      (r = cufftSetWorkArea(h, area)) != CUFFT_SUCCESS)
    st = cufft_fail(r, "cufftSetWorkArea");
  int64_t rs = dbl ? 8 : 4;
  int64_t esrc = s->kind == CN_FFT_R2C ? rs : 2 * rs;
  int64_t edst = s->kind == CN_FFT_C2R ? rs : 2 * rs;
  int64_t calls = cn_cufft_step_calls(s);
  int64_t idx[CN_MAX_DIMS] = {0};
  cn_cu_note_launch("cuFFT execution");
  for (int64_t c = 0; c < calls && st == CN_OK; c++) {
    int64_t oi = 0, oo = 0, rem = c;
    for (int32_t j = s->loop_rank - 1; j >= 0; j--) {
      idx[j] = rem % s->loop_n[j];
      rem /= s->loop_n[j];
      oi += idx[j] * s->loop_is[j];
      oo += idx[j] * s->loop_os[j];
    }
    const char *call = "";
    r = exec_one(h, s->kind, dbl, s->sign, bufs[s->src] + oi * esrc,
                 bufs[s->dst] + oo * edst, &call);
    if (r != CUFFT_SUCCESS)
      st = cufft_fail(r, call);
  }
  /* Stream-ordered: the pool reuses the area only after this work. */
  cn_cu_scratch_free(area);
  plan_release(h, slot);
  return st;
}

cn_status cn_cu_fft(const cn_fft_desc *d) {
  CN_CU_DEVICE_SCOPE(cn_cu_pointer_device(d->in), "cuda fft");
  cn_cufft_plan *p = calloc(1, sizeof *p);
  if (p == NULL)
    return cn_cu_error(CN_ERR_MEMORY, "cuda fft: out of host memory");
  const char *why = NULL;
  if (!cn_cufft_plan_make(p, d, &why)) {
    free(p);
    return cn_cu_error(CN_ERR_INTERNAL, "cuda fft: cannot plan: %s", why);
  }
  bool dbl = d->dtype == CN_COMPLEX128;
  int64_t rs = dbl ? 8 : 4;
  int dev = 0;
  cn_status st = CN_OK;
  cudaError_t e = cudaGetDevice(&dev);
  if (e != cudaSuccess)
    st = cn_cu_fail(e, "cudaGetDevice");
  cudaStream_t stream = cn_cu_stream();
  char *scratch = NULL;
  int64_t in_esz = d->kind == CN_FFT_R2C ? rs : 2 * rs;
  if (st == CN_OK && p->scratch_count > 0)
    st = cn_cu_scratch((void **)&scratch,
                       (size_t)(p->scratch_count * in_esz));
  char *bufs[3] = {(char *)d->in, (char *)d->out, scratch};
  if (st == CN_OK && p->copy)
    st = run_gather(p, d->dtype, bufs[p->copy_dst], bufs[CN_CUFFT_BUF_IN],
                    p->copy_complex ? 2 * rs : rs);
  for (int32_t i = 0; i < p->nsteps && st == CN_OK; i++) {
    if (p->steps[i].kind == CN_FFT_C2R)
      st = run_realdc(&p->steps[i], d->dtype, bufs[p->steps[i].src]);
    if (st == CN_OK)
      st = run_step(&p->steps[i], dbl, dev, stream, bufs);
  }
  if (st == CN_OK && d->scale != 1.0 && d->out_count > 0)
    st = run_scale(d->dtype, d->out,
                   d->kind == CN_FFT_C2R ? d->out_count : 2 * d->out_count,
                   d->scale);
  cn_cu_scratch_free(scratch);
  free(p);
  return st;
}
