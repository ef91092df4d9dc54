/* Device memory: one stream-ordered pool (cudaMemPool_t) per device that
 * keeps freed blocks (release threshold UINT64_MAX), a byte limit per
 * device from CUNUMPY_GPU_MEMORY_LIMIT / CUPY_GPU_MEMORY_LIMIT, the opt-in
 * managed allocator, raw host <-> device copies, and the pinned host cache. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

typedef struct {
  cudaMemPool_t pool;
  cudaError_t init_error;
  atomic_size_t used;  /* bytes handed out to arrays */
  atomic_size_t limit; /* 0: none */
} dev_pool;

static dev_pool g_pools[CN_CU_MAX_DEVICES];
static pthread_mutex_t g_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int g_allocator;     /* 0 pool, 1 managed, 2 uncached */
static atomic_long g_managed_live; /* managed blocks not yet freed */

/* "123", "1.5e9" bytes or "50%" of total; 0 when unset or invalid. */
static size_t parse_limit(const char *s, size_t total) {
  if (s == NULL || *s == 0)
    return 0;
  char *end = NULL;
  errno = 0;
  double v = strtod(s, &end);
  if (errno != 0 || end == s || v <= 0)
    return 0;
  while (*end == ' ')
    end++;
  if (*end == '%') {
    if (v > 100)
      v = 100;
    return (size_t)((double)total * v / 100.0);
  }
  return *end == 0 ? (size_t)v : 0;
}

static cn_status pool_for(dev_pool **out, int32_t d) {
  dev_pool *p = &g_pools[d];
  pthread_mutex_lock(&g_pool_lock);
  if (p->pool == NULL && p->init_error == cudaSuccess) {
    struct cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = d;
    cudaMemPool_t pool = NULL;
    cudaError_t e = cudaMemPoolCreate(&pool, &props);
    if (e == cudaSuccess) {
      uint64_t thr = UINT64_MAX; /* keep freed blocks: this is the cache */
      e = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr);
    }
    if (e != cudaSuccess) {
      p->init_error = e;
      pthread_mutex_unlock(&g_pool_lock);
      return cn_cu_fail(e, "cudaMemPoolCreate");
    }
    const char *env = getenv("CUNUMPY_GPU_MEMORY_LIMIT");
    if (env == NULL || *env == 0)
      env = getenv("CUPY_GPU_MEMORY_LIMIT");
    atomic_store(&p->limit, parse_limit(env, cn_cu_devinfo_get(d)->total_mem));
    p->pool = pool;
  }
  cudaError_t e = p->init_error;
  pthread_mutex_unlock(&g_pool_lock);
  if (e != cudaSuccess)
    return cn_cu_fail(e, "cudaMemPoolCreate");
  *out = p;
  return CN_OK;
}

static size_t alloc_size(size_t n) { return n ? n : 1; }

cn_status cn_cu_alloc(int32_t device, size_t nbytes, void **ptr) {
  int32_t d = 0;
  cn_status st = cn_cu_resolve_device(&d, device, "cuda alloc");
  if (st != CN_OK)
    return st;
  dev_pool *p = NULL;
  if ((st = pool_for(&p, d)) != CN_OK)
    return st;
  size_t n = alloc_size(nbytes);
  size_t lim = atomic_load(&p->limit);
  size_t after = atomic_fetch_add(&p->used, n) + n;
  if (lim != 0 && after > lim) {
    atomic_fetch_sub(&p->used, n);
    return cn_cu_error(CN_ERR_MEMORY,
                       "cuda: cannot allocate %zu bytes on device %d: the "
                       "memory limit of %zu bytes (CUNUMPY_GPU_MEMORY_LIMIT, "
                       "cn_cuda_pool_set_limit) would be exceeded, %zu bytes "
                       "are in use",
                       nbytes, (int)d, lim, after - n);
  }
  void *q = NULL;
  cudaError_t e;
  int kind = atomic_load(&g_allocator);
  if (kind == 1) {
    e = cudaMallocManaged(&q, n, cudaMemAttachGlobal);
    if (e == cudaSuccess)
      atomic_fetch_add(&g_managed_live, 1);
  } else if (kind == 2) {
    /* The device's default pool releases freed memory to the driver at
     * the next synchronisation (release threshold 0): no cache. Its
     * blocks are freed by the same cudaFreeAsync as ours. */
    e = cudaMallocAsync(&q, n, cn_cu_stream());
  } else {
    cudaStream_t s = cn_cu_stream();
    e = cudaMallocFromPoolAsync(&q, n, p->pool, s);
    if (e == cudaErrorMemoryAllocation) {
      /* Blocks freed on other streams may be pending: settle and trim. */
      (void)cudaGetLastError();
      cudaDeviceSynchronize();
      cudaMemPoolTrimTo(p->pool, 0);
      e = cudaMallocFromPoolAsync(&q, n, p->pool, s);
    }
  }
  if (e != cudaSuccess) {
    atomic_fetch_sub(&p->used, n);
    (void)cudaGetLastError();
    if (e == cudaErrorMemoryAllocation)
      return cn_cu_error(CN_ERR_MEMORY,
                         "cuda: out of memory allocating %zu bytes on device "
                         "%d (%zu bytes in use by arrays)",
                         nbytes, (int)d, after - n);
    return cn_cu_fail(e, "cudaMallocFromPoolAsync");
  }
  *ptr = q;
  return CN_OK;
}

static bool is_managed(void *ptr) {
  if (atomic_load(&g_managed_live) == 0)
    return false;
  struct cudaPointerAttributes at;
  if (cudaPointerGetAttributes(&at, ptr) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return at.type == cudaMemoryTypeManaged;
}

void cn_cu_free(int32_t device, void *ptr, size_t nbytes) {
  if (ptr == NULL)
    return;
  if (is_managed(ptr)) {
    cudaFree(ptr);
    atomic_fetch_sub(&g_managed_live, 1);
  } else {
    cudaFreeAsync(ptr, cn_cu_stream());
  }
  (void)cudaGetLastError();
  if (device >= 0 && device < CN_CU_MAX_DEVICES)
    atomic_fetch_sub(&g_pools[device].used, alloc_size(nbytes));
}

cn_status cn_cu_scratch(void **ptr, size_t nbytes) {
  int d = 0;
  CN_CU_TRY(cudaGetDevice(&d), "cudaGetDevice");
  dev_pool *p = NULL;
  cn_status st = pool_for(&p, d);
  if (st != CN_OK)
    return st;
  CN_CU_TRY(
      cudaMallocFromPoolAsync(ptr, alloc_size(nbytes), p->pool, cn_cu_stream()),
      "cudaMallocFromPoolAsync (scratch)");
  return CN_OK;
}

void cn_cu_scratch_free(void *ptr) {
  if (ptr != NULL)
    cudaFreeAsync(ptr, cn_cu_stream());
}

static cn_status copy_sync(void *dst, const void *src, size_t n,
                           const char *what) {
  if (n == 0)
    return CN_OK;
  cudaStream_t s = cn_cu_stream();
  CN_CU_TRY(cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, s), what);
  /* The caller may reuse or read its host memory on return. */
  CN_CU_TRY(cudaStreamSynchronize(s), what);
  return CN_OK;
}

static cn_status pin_memory(void **out, int64_t nbytes);
static cn_status unpin_memory(void *ptr);

/* Large copies from or to pageable host memory go through two pinned
 * chunks from the pinned cache, so the host-side memcpy of one chunk
 * overlaps the DMA of the other. */
#define STAGE_MIN ((size_t)8 << 20)
#define STAGE_CHUNK ((size_t)4 << 20)

static bool is_pageable(const void *host) {
  struct cudaPointerAttributes at;
  if (cudaPointerGetAttributes(&at, host) != cudaSuccess) {
    (void)cudaGetLastError();
    return true;
  }
  return at.type == cudaMemoryTypeUnregistered;
}

static cn_status staged_copy(char *dst, const char *src, size_t n, bool to_host,
                             const char *what) {
  void *buf[2] = {NULL, NULL};
  cudaEvent_t ev[2] = {NULL, NULL};
  cn_status st = CN_OK;
  cudaError_t e = cudaSuccess;
  for (int i = 0; i < 2 && st == CN_OK; i++) {
    st = pin_memory(&buf[i], (int64_t)STAGE_CHUNK);
    if (st == CN_OK && (e = cudaEventCreateWithFlags(
                            &ev[i], cudaEventDisableTiming)) != cudaSuccess)
      st = cn_cu_fail(e, what);
  }
  if (st != CN_OK) { /* no pinned memory to spare: copy directly */
    for (int i = 0; i < 2; i++) {
      if (ev[i] != NULL)
        cudaEventDestroy(ev[i]);
      if (buf[i] != NULL)
        unpin_memory(buf[i]);
    }
    (void)cudaGetLastError();
    return copy_sync(dst, src, n, what);
  }
  cudaStream_t s = cn_cu_stream();
  size_t nchunks = (n + STAGE_CHUNK - 1) / STAGE_CHUNK;
  if (!to_host) {
    for (size_t k = 0; k < nchunks && e == cudaSuccess; k++) {
      size_t off = k * STAGE_CHUNK, len = n - off;
      if (len > STAGE_CHUNK)
        len = STAGE_CHUNK;
      int b = (int)(k & 1);
      if (k >= 2 && (e = cudaEventSynchronize(ev[b])) != cudaSuccess)
        break; /* chunk k-2 has left this buffer */
      memcpy(buf[b], src + off, len);
      e = cudaMemcpyAsync(dst + off, buf[b], len, cudaMemcpyHostToDevice, s);
      if (e == cudaSuccess)
        e = cudaEventRecord(ev[b], s);
    }
    if (e == cudaSuccess)
      e = cudaStreamSynchronize(s);
  } else {
    /* chunk k+1 is in flight while chunk k is copied out */
    for (size_t k = 0; k <= nchunks && e == cudaSuccess; k++) {
      if (k < nchunks) {
        size_t off = k * STAGE_CHUNK, len = n - off;
        if (len > STAGE_CHUNK)
          len = STAGE_CHUNK;
        int b = (int)(k & 1);
        e = cudaMemcpyAsync(buf[b], src + off, len, cudaMemcpyDeviceToHost, s);
        if (e == cudaSuccess)
          e = cudaEventRecord(ev[b], s);
      }
      if (k >= 1 && e == cudaSuccess) {
        size_t off = (k - 1) * STAGE_CHUNK, len = n - off;
        if (len > STAGE_CHUNK)
          len = STAGE_CHUNK;
        int b = (int)((k - 1) & 1);
        e = cudaEventSynchronize(ev[b]);
        if (e == cudaSuccess)
          memcpy(dst + off, buf[b], len);
      }
    }
  }
  if (e != cudaSuccess)
    st = cn_cu_fail(e, what);
  if (e != cudaSuccess)
    cudaStreamSynchronize(s); /* no DMA may still target the buffers */
  for (int i = 0; i < 2; i++) {
    if (ev[i] != NULL)
      cudaEventDestroy(ev[i]);
    if (buf[i] != NULL)
      unpin_memory(buf[i]);
  }
  (void)cudaGetLastError();
  return st;
}

cn_status cn_cu_copy_to_host(void *dst, const void *src, size_t nbytes) {
  const char *what = "device-to-host copy";
  if (nbytes >= STAGE_MIN && is_pageable(dst))
    return staged_copy(dst, src, nbytes, true, what);
  return copy_sync(dst, src, nbytes, what);
}

cn_status cn_cu_copy_from_host(void *dst, const void *src, size_t nbytes) {
  const char *what = "host-to-device copy";
  if (nbytes >= STAGE_MIN && is_pageable(src))
    return staged_copy(dst, src, nbytes, false, what);
  return copy_sync(dst, src, nbytes, what);
}

/* A copy between two devices, issued on the source device's current stream
 * (after the work that produced src) and waited for, like the other copies:
 * peer to peer where the devices reach each other (access enabled on first
 * use), else staged through host memory by the runtime itself. */
static cn_status copy_peer(void *dst, int32_t dst_device, const void *src,
                           int32_t src_device, size_t nbytes) {
  if (nbytes == 0)
    return CN_OK;
  CN_CU_DEVICE_SCOPE(src_device, "cn_to_device");
  int can = 0;
  if (cudaDeviceCanAccessPeer(&can, src_device, dst_device) == cudaSuccess &&
      can) {
    cudaError_t e = cudaDeviceEnablePeerAccess(dst_device, 0);
    if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled)
      return cn_cu_fail(e, "cudaDeviceEnablePeerAccess");
  }
  (void)cudaGetLastError(); /* "already enabled" is not an error here */
  cudaStream_t s = cn_cu_stream();
  CN_CU_TRY(cudaMemcpyPeerAsync(dst, dst_device, src, src_device, nbytes, s),
            "cudaMemcpyPeerAsync");
  CN_CU_TRY(cudaStreamSynchronize(s), "cudaStreamSynchronize (peer copy)");
  return CN_OK;
}

/* ---- pool API ------------------------------------------------------------ */

static cn_status pool_dev(dev_pool **p, int32_t device, const char *fn) {
  int32_t d = 0;
  cn_status st = cn_cu_resolve_device(&d, device, fn);
  if (st != CN_OK)
    return st;
  return pool_for(p, d);
}

static cn_status pool_used_bytes(int64_t *out, int32_t device) {
  dev_pool *p = NULL;
  cn_status st = pool_dev(&p, device, "cn_cuda_pool_used_bytes");
  if (st == CN_OK)
    *out = (int64_t)atomic_load(&p->used);
  return st;
}

static cn_status pool_total_bytes(int64_t *out, int32_t device) {
  dev_pool *p = NULL;
  cn_status st = pool_dev(&p, device, "cn_cuda_pool_total_bytes");
  if (st != CN_OK)
    return st;
  uint64_t v = 0;
  CN_CU_TRY(
      cudaMemPoolGetAttribute(p->pool, cudaMemPoolAttrReservedMemCurrent, &v),
      "cudaMemPoolGetAttribute");
  *out = (int64_t)v;
  return CN_OK;
}

static cn_status trim_one(int32_t d) {
  dev_pool *p = NULL;
  cn_status st = pool_for(&p, d);
  if (st != CN_OK)
    return st;
  int cur = 0;
  CN_CU_TRY(cudaGetDevice(&cur), "cudaGetDevice");
  /* Frees still pending on a stream are not yet "unused". */
  if (cur != d)
    CN_CU_TRY(cudaSetDevice(d), "cudaSetDevice");
  cudaError_t e = cudaDeviceSynchronize();
  if (cur != d)
    cudaSetDevice(cur);
  if (e != cudaSuccess)
    return cn_cu_fail(e, "cudaDeviceSynchronize (free_all_blocks)");
  CN_CU_TRY(cudaMemPoolTrimTo(p->pool, 0), "cudaMemPoolTrimTo");
  return CN_OK;
}

static cn_status pool_free_all_blocks(int32_t device) {
  if (device == -2) {
    for (int32_t d = 0; d < cn_cu_device_count(); d++) {
      cn_status st = trim_one(d);
      if (st != CN_OK)
        return st;
    }
    return CN_OK;
  }
  int32_t d = 0;
  cn_status st =
      cn_cu_resolve_device(&d, device, "cn_cuda_pool_free_all_blocks");
  return st != CN_OK ? st : trim_one(d);
}

static cn_status pool_set_limit(int32_t device, int64_t limit) {
  dev_pool *p = NULL;
  cn_status st = pool_dev(&p, device, "cn_cuda_pool_set_limit");
  if (st == CN_OK)
    atomic_store(&p->limit, (size_t)limit);
  return st;
}

static cn_status pool_get_limit(int64_t *out, int32_t device) {
  dev_pool *p = NULL;
  cn_status st = pool_dev(&p, device, "cn_cuda_pool_get_limit");
  if (st == CN_OK)
    *out = (int64_t)atomic_load(&p->limit);
  return st;
}

static cn_status set_allocator(int32_t kind) {
  atomic_store(&g_allocator, kind);
  return CN_OK;
}

/* ---- pinned host memory ----------------------------------------------------
 */

typedef struct {
  void *ptr;
  size_t size;
  bool used;
} pin_block;

static pthread_mutex_t g_pin_lock = PTHREAD_MUTEX_INITIALIZER;
static pin_block *g_pins;
static size_t g_npins, g_pins_cap;
static bool g_pin_uncached; /* cn_pinned_set_cache(0): free on unpin */

/* Size classes: 4 KiB steps below 64 KiB, then eight steps per power of
 * two, so a freed block is reused for requests up to 12.5% smaller. */
static size_t pin_class(size_t n) {
  if (n <= 65536)
    return (n + 4095) & ~(size_t)4095;
  size_t p = 1;
  while (p < n / 8)
    p <<= 1;
  return (n + p - 1) / p * p;
}

static size_t release_unused_pins_locked(void) {
  size_t freed = 0, j = 0;
  for (size_t i = 0; i < g_npins; i++) {
    if (!g_pins[i].used) {
      cudaFreeHost(g_pins[i].ptr);
      freed += g_pins[i].size;
    } else {
      g_pins[j++] = g_pins[i];
    }
  }
  g_npins = j;
  (void)cudaGetLastError();
  return freed;
}

static cn_status pin_memory(void **out, int64_t nbytes) {
  size_t n = pin_class(nbytes > 0 ? (size_t)nbytes : 1);
  pthread_mutex_lock(&g_pin_lock);
  for (size_t i = 0; i < g_npins; i++)
    if (!g_pins[i].used && g_pins[i].size == n) {
      g_pins[i].used = true;
      *out = g_pins[i].ptr;
      pthread_mutex_unlock(&g_pin_lock);
      return CN_OK;
    }
  if (g_npins == g_pins_cap) {
    size_t cap = g_pins_cap ? g_pins_cap * 2 : 16;
    pin_block *t = realloc(g_pins, cap * sizeof *t);
    if (t == NULL) {
      pthread_mutex_unlock(&g_pin_lock);
      return cn_cu_error(CN_ERR_MEMORY, "cn_pin_memory: out of host memory");
    }
    g_pins = t;
    g_pins_cap = cap;
  }
  void *p = NULL;
  cudaError_t e = cudaHostAlloc(&p, n, cudaHostAllocPortable);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    release_unused_pins_locked();
    e = cudaHostAlloc(&p, n, cudaHostAllocPortable);
  }
  if (e != cudaSuccess) {
    pthread_mutex_unlock(&g_pin_lock);
    (void)cudaGetLastError();
    return cn_cu_error(
        CN_ERR_MEMORY, "cn_pin_memory: cannot pin %lld bytes: %s (%s)",
        (long long)nbytes, cudaGetErrorName(e), cudaGetErrorString(e));
  }
  g_pins[g_npins++] = (pin_block){.ptr = p, .size = n, .used = true};
  pthread_mutex_unlock(&g_pin_lock);
  *out = p;
  return CN_OK;
}

static cn_status unpin_memory(void *ptr) {
  pthread_mutex_lock(&g_pin_lock);
  for (size_t i = 0; i < g_npins; i++)
    if (g_pins[i].ptr == ptr && g_pins[i].used) {
      g_pins[i].used = false;
      if (g_pin_uncached)
        release_unused_pins_locked();
      pthread_mutex_unlock(&g_pin_lock);
      return CN_OK;
    }
  pthread_mutex_unlock(&g_pin_lock);
  return cn_cu_error(CN_ERR_VALUE,
                     "cn_unpin_memory: argument 'ptr' (%p) is not a pinned "
                     "block in use from cn_pin_memory",
                     ptr);
}

static cn_status pinned_free_all_blocks(int64_t *out) {
  pthread_mutex_lock(&g_pin_lock);
  size_t freed = release_unused_pins_locked();
  pthread_mutex_unlock(&g_pin_lock);
  if (out)
    *out = (int64_t)freed;
  return CN_OK;
}

static cn_status pinned_memory_info(int64_t *used, int64_t *held) {
  size_t u = 0, h = 0;
  pthread_mutex_lock(&g_pin_lock);
  for (size_t i = 0; i < g_npins; i++) {
    h += g_pins[i].size;
    if (g_pins[i].used)
      u += g_pins[i].size;
  }
  pthread_mutex_unlock(&g_pin_lock);
  if (used)
    *used = (int64_t)u;
  if (held)
    *held = (int64_t)h;
  return CN_OK;
}

static cn_status pinned_set_cache(int32_t enabled) {
  pthread_mutex_lock(&g_pin_lock);
  g_pin_uncached = !enabled;
  if (g_pin_uncached)
    release_unused_pins_locked();
  pthread_mutex_unlock(&g_pin_lock);
  return CN_OK;
}

static cn_status pinned_free_blocks(int64_t *out) {
  int64_t n = 0;
  pthread_mutex_lock(&g_pin_lock);
  for (size_t i = 0; i < g_npins; i++)
    n += !g_pins[i].used;
  pthread_mutex_unlock(&g_pin_lock);
  *out = n;
  return CN_OK;
}

void cn_cu_memory_api(struct cn_cuda_api *api) {
  api->pinned_set_cache = pinned_set_cache;
  api->pinned_free_blocks = pinned_free_blocks;
  api->pool_used_bytes = pool_used_bytes;
  api->pool_total_bytes = pool_total_bytes;
  api->pool_free_all_blocks = pool_free_all_blocks;
  api->pool_set_limit = pool_set_limit;
  api->pool_get_limit = pool_get_limit;
  api->set_allocator = set_allocator;
  api->pin_memory = pin_memory;
  api->unpin_memory = unpin_memory;
  api->pinned_free_all_blocks = pinned_free_all_blocks;
  api->pinned_memory_info = pinned_memory_info;
  api->copy_peer = copy_peer;
}
