/* Host memory for the CPU backend: a caching pool for large blocks.
 *
 * Touching a freshly mapped block costs more than most elementwise work on
 * it (page faults), so freed large blocks are kept, by size class, and
 * reused. Cached blocks never raise the footprint (blocks in use plus
 * blocks cached) above the high-water mark of the blocks in use plus a
 * sixteenth: before a new block is mapped, the least recently freed cached
 * blocks are returned to the system until it fits, so a program's peak
 * resident memory stays that of its live arrays, as with malloc. The cache
 * is also bounded by CUNUMPY_CPU_POOL_LIMIT (bytes; default a quarter of the
 * machine's memory, at most 4 GiB) and emptied by cn_free_memory(). Small
 * blocks go to malloc, with a per-thread cache of the smallest ones (below)
 * in front of it. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../cuda_api.h"
#include "cpu.h"

#define POOL_MIN_BYTES ((size_t)1 << 20) /* below this, plain malloc */
#define POOL_ALIGN 64
#define POOL_CLASSES 256

typedef struct pool_block {
  struct pool_block *next;
  void *ptr;
  size_t size;   /* class size */
  uint64_t tick; /* when it was freed: the oldest goes first */
} pool_block;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pool_block *g_free[POOL_CLASSES];
static size_t g_cached_bytes, g_in_use_bytes, g_limit;
static size_t g_high_water; /* most bytes in use at once */
static size_t g_use_limit;  /* cn_host_pool_set_limit; 0: none */
static uint64_t g_tick;
static int g_limit_read;

/* Size classes: 8 per power of two, so waste is at most 12.5%. */
static size_t class_size(size_t n, int *cls) {
  int lg = 63 - __builtin_clzll((unsigned long long)n); /* floor(log2 n) */
  size_t step = ((size_t)1 << lg) / 8;
  size_t size = (n + step - 1) / step * step;
  int sub = (int)(size / step) - 8; /* 0..8 */
  *cls = (lg - 20) * 9 + sub;
  if (*cls >= POOL_CLASSES) *cls = -1;
  return size;
}

/* Blocks of at most SMALL_MAX bytes are what the small arrays of an
 * interpreter loop allocate and drop at once; aligned_alloc/free of them
 * costs more than creating the array otherwise (glibc consolidates its
 * free lists). Each thread keeps up to SMALL_DEPTH freed blocks per 64-byte
 * class and reuses them; the cache is freed at thread exit and by
 * cn_free_memory() (the calling thread's). */
#define SMALL_MAX ((size_t)1024)
#define SMALL_CLASSES ((int)(SMALL_MAX / POOL_ALIGN))
#define SMALL_DEPTH 32

typedef struct small_cache {
  int registered;
  int count[SMALL_CLASSES];
  void *blocks[SMALL_CLASSES][SMALL_DEPTH];
} small_cache;

static _Thread_local small_cache t_small;
static pthread_key_t g_small_key;
static pthread_once_t g_small_once = PTHREAD_ONCE_INIT;

static void small_flush(small_cache *c) {
  for (int k = 0; k < SMALL_CLASSES; k++) {
    for (int i = 0; i < c->count[k]; i++)
      free(c->blocks[k][i]);
    c->count[k] = 0;
  }
}

static void small_thread_exit(void *p) { small_flush((small_cache *)p); }

static void small_make_key(void) {
  if (pthread_key_create(&g_small_key, small_thread_exit) != 0)
    g_small_key = (pthread_key_t)-1;
}

/* Class of a small request (rounded to POOL_ALIGN), -1 when not cached. */
static int small_class(size_t nbytes) {
  return nbytes <= SMALL_MAX ? (int)((nbytes + POOL_ALIGN - 1) / POOL_ALIGN) - 1
                             : -1;
}

/* Keeps p in the thread's cache; 0 when the cache cannot take it. */
static int small_put(int cls, void *p) {
  small_cache *c = &t_small;
  if (cls < 0 || c->count[cls] == SMALL_DEPTH)
    return 0;
  if (!c->registered) {
    /* The key's destructor frees the blocks when the thread ends. */
    pthread_once(&g_small_once, small_make_key);
    if (g_small_key == (pthread_key_t)-1 ||
        pthread_setspecific(g_small_key, c) != 0)
      return 0;
    c->registered = 1;
  }
  c->blocks[cls][c->count[cls]++] = p;
  return 1;
}

static size_t pool_limit(void) {
  if (!g_limit_read) {
    g_limit = (size_t)4 << 30;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0 && (size_t)pages / 4 < g_limit / (size_t)page)
      g_limit = (size_t)pages / 4 * (size_t)page;
    const char *e = getenv("CUNUMPY_CPU_POOL_LIMIT");
    if (e != NULL && *e) {
      char *end;
      unsigned long long v = strtoull(e, &end, 10);
      if (end != e) g_limit = (size_t)v;
    }
    g_limit_read = 1;
  }
  return g_limit;
}

/* Unlinks the least recently freed cached block (g_lock held); NULL when
 * the cache is empty. */
static pool_block *take_oldest(void) {
  pool_block **best = NULL;
  for (int c = 0; c < POOL_CLASSES; c++)
    for (pool_block **pp = &g_free[c]; *pp != NULL; pp = &(*pp)->next)
      if (best == NULL || (*pp)->tick < (*best)->tick)
        best = pp;
  if (best == NULL)
    return NULL;
  pool_block *b = *best;
  *best = b->next;
  g_cached_bytes -= b->size;
  return b;
}

cn_status cn_cpu_alloc(int32_t device, size_t nbytes, void **ptr) {
  /* The hook counts every request, cached or not, so that the points a
   * fault sweep visits do not depend on what the caches hold. */
  if (cn_alloc_should_fail())
    return cn_error(CN_ERR_MEMORY, "out of host memory allocating %zu bytes",
                    nbytes);
  if (nbytes < POOL_MIN_BYTES) {
    int sc = small_class(nbytes);
    if (sc >= 0 && t_small.count[sc] > 0) {
      *ptr = t_small.blocks[sc][--t_small.count[sc]];
      return CN_OK;
    }
    size_t n = (nbytes + POOL_ALIGN - 1) / POOL_ALIGN * POOL_ALIGN;
    void *p = aligned_alloc(POOL_ALIGN, n ? n : POOL_ALIGN);
    if (p == NULL)
      return cn_error(CN_ERR_MEMORY, "out of host memory allocating %zu bytes",
                      nbytes);
    *ptr = p;
    return CN_OK;
  }
  int cls;
  size_t size = class_size(nbytes, &cls);
  pthread_mutex_lock(&g_lock);
  if (g_use_limit != 0 && g_in_use_bytes + size > g_use_limit) {
    size_t used = g_in_use_bytes, limit = g_use_limit;
    pthread_mutex_unlock(&g_lock);
    return cn_error(CN_ERR_MEMORY,
                    "allocating %zu bytes would exceed the host pool limit "
                    "(%zu bytes in use, limit %zu)",
                    nbytes, used, limit);
  }
  if (cls >= 0 && g_free[cls] != NULL) {
    pool_block *b = g_free[cls];
    g_free[cls] = b->next;
    g_cached_bytes -= b->size;
    g_in_use_bytes += b->size;
    pthread_mutex_unlock(&g_lock);
    *ptr = b->ptr;
    free(b);
    return CN_OK;
  }
  /* A new mapping: first give back what would lift the footprint above
   * the high-water mark (the blocks are unmapped outside the lock). */
  g_in_use_bytes += size;
  if (g_in_use_bytes > g_high_water)
    g_high_water = g_in_use_bytes;
  size_t allowed = g_high_water + g_high_water / 16;
  pool_block *evicted = NULL;
  while (g_in_use_bytes + g_cached_bytes > allowed) {
    pool_block *b = take_oldest();
    if (b == NULL)
      break;
    b->next = evicted;
    evicted = b;
  }
  pthread_mutex_unlock(&g_lock);
  while (evicted != NULL) {
    pool_block *n = evicted->next;
    munmap(evicted->ptr, evicted->size);
    free(evicted);
    evicted = n;
  }
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    pthread_mutex_lock(&g_lock);
    g_in_use_bytes -= size;
    pthread_mutex_unlock(&g_lock);
    return cn_error(CN_ERR_MEMORY, "out of host memory allocating %zu bytes",
                    nbytes);
  }
  /* Huge pages cut the first-touch cost of big arrays by ~500x fewer faults. */
  madvise(p, size, MADV_HUGEPAGE);
  *ptr = p;
  return CN_OK;
}

void cn_cpu_free(int32_t device, void *ptr, size_t nbytes) {
  if (ptr == NULL) return;
  if (nbytes < POOL_MIN_BYTES) {
    if (!small_put(small_class(nbytes), ptr))
      free(ptr);
    return;
  }
  int cls;
  size_t size = class_size(nbytes, &cls);
  pool_block *b = cls >= 0 ? cn_malloc(sizeof *b) : NULL;
  pthread_mutex_lock(&g_lock);
  g_in_use_bytes -= size;
  if (b != NULL && g_cached_bytes + size <= pool_limit()) {
    b->ptr = ptr;
    b->size = size;
    b->tick = ++g_tick;
    b->next = g_free[cls];
    g_free[cls] = b;
    g_cached_bytes += size;
    pthread_mutex_unlock(&g_lock);
    return;
  }
  pthread_mutex_unlock(&g_lock);
  free(b);
  munmap(ptr, size);
}

void cn_free_memory(void) {
  /* Device and pinned pools first (only when CUDA was loaded). */
  const struct cn_cuda_api *api =
      cn_backend_get_proc(cn_cuda_backend_if_loaded(), "cuda_api");
  if (api != NULL) {
    int64_t freed = 0;
    api->pool_free_all_blocks(-2);
    api->pinned_free_all_blocks(&freed);
  }
  small_flush(&t_small);
  pthread_mutex_lock(&g_lock);
  pool_block *all[POOL_CLASSES];
  memcpy(all, g_free, sizeof all);
  memset(g_free, 0, sizeof g_free);
  g_cached_bytes = 0;
  g_high_water = g_in_use_bytes;
  pthread_mutex_unlock(&g_lock);
  for (int c = 0; c < POOL_CLASSES; c++)
    for (pool_block *b = all[c]; b != NULL;) {
      pool_block *n = b->next;
      munmap(b->ptr, b->size);
      free(b);
      b = n;
    }
}

cn_status cn_host_memory_info(int64_t *in_use_bytes, int64_t *cached_bytes) {
  if (in_use_bytes == NULL || cached_bytes == NULL)
    return cn_error(CN_ERR_VALUE, "cn_host_memory_info: output pointer is NULL");
  pthread_mutex_lock(&g_lock);
  *in_use_bytes = (int64_t)g_in_use_bytes;
  *cached_bytes = (int64_t)g_cached_bytes;
  pthread_mutex_unlock(&g_lock);
  return CN_OK;
}

cn_status cn_host_pool_free_blocks(int64_t *out) {
  if (out == NULL)
    return cn_error(CN_ERR_VALUE,
                    "cn_host_pool_free_blocks: output pointer is NULL");
  int64_t n = 0;
  pthread_mutex_lock(&g_lock);
  for (int c = 0; c < POOL_CLASSES; c++)
    for (pool_block *b = g_free[c]; b != NULL; b = b->next)
      n++;
  pthread_mutex_unlock(&g_lock);
  *out = n;
  return CN_OK;
}

cn_status cn_host_pool_set_limit(int64_t limit) {
  if (limit < 0)
    return cn_error(CN_ERR_VALUE,
                    "cn_host_pool_set_limit: argument 'limit' is negative "
                    "(%lld)",
                    (long long)limit);
  pthread_mutex_lock(&g_lock);
  g_use_limit = (size_t)limit;
  pthread_mutex_unlock(&g_lock);
  return CN_OK;
}

cn_status cn_host_pool_get_limit(int64_t *out) {
  if (out == NULL)
    return cn_error(CN_ERR_VALUE,
                    "cn_host_pool_get_limit: output pointer is NULL");
  pthread_mutex_lock(&g_lock);
  *out = (int64_t)g_use_limit;
  pthread_mutex_unlock(&g_lock);
  return CN_OK;
}
