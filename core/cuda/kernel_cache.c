/* Generated-kernel cache: a kernel is found by a short key (what the
 * generator was asked for) and the device's architecture. A miss generates
 * the source (prelude + kernels), looks for its compiled image on disk
 * (~/.cache/cunumpy/kernels or $CUNUMPY_KERNEL_CACHE; file name from the
 * source hash, architecture and NVRTC version; checksummed, so corrupt or
 * truncated files are ignored and rebuilt), else compiles it with NVRTC and
 * writes it there atomically (temporary file + rename). Modules are loaded
 * with the runtime's library API (cudaLibraryLoadData), so the plugin needs
 * no driver symbols. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "disk_cache.h"
#include "nvrtc_compile.h"

#define NBUCKETS 4096
#define MAX_NAMES 4

typedef struct kentry {
  struct kentry *next;
  char *key;
  int cc;
  cudaLibrary_t lib;
  char names[MAX_NAMES][CN_CU_NAME_CAP];
  cudaKernel_t k[MAX_NAMES];
} kentry;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static kentry *g_buckets[NBUCKETS];
static atomic_long g_compiled, g_disk_hits, g_entries;
static int g_debug = -1;

/* ---- build -----------------------------------------------------------------
 */

/* Compiles (or reads from disk) the module for src on a device of
 * capability cc and loads it. */
static cn_status build(cudaLibrary_t *lib, const char *src, const char *key,
                       int cc) {
  int arch = cn_cu_nvrtc_best_arch(cc);
  if (arch == 0)
    return cn_cu_error(CN_ERR_BACKEND,
                       "cuda: NVRTC %d.%d cannot compile for compute "
                       "capability %d.%d",
                       cn_cu_nvrtc_version() / 100, cn_cu_nvrtc_version() % 100,
                       cc / 10, cc % 10);
  bool cubin = arch == cc; /* else PTX, JIT-compiled by the driver */
  size_t len = strlen(src);
  uint64_t hs = cn_cu_fnv1a(src, len, CN_CU_FNV_INIT);
  char dir[4000], path[4100];
  bool use_disk = cn_cu_cache_dir(dir, sizeof dir);
  if (use_disk)
    snprintf(path, sizeof path, "%s/%016llx_%s%d_nvrtc%d.bin", dir,
             (unsigned long long)hs, cubin ? "sm" : "compute", arch,
             cn_cu_nvrtc_version());
  size_t size = 0;
  char *img = use_disk ? cn_cu_cache_read(path, hs, &size) : NULL;
  if (img != NULL) {
    atomic_fetch_add(&g_disk_hits, 1);
  } else {
    char *log = NULL;
    if (!cn_cu_nvrtc_compile(src, key, arch, cubin, &img, &size, &log)) {
      cn_status st = cn_cu_error(
          CN_ERR_BACKEND, "cuda: NVRTC failed to compile kernel '%s': %.1500s",
          key, log ? log : "(no log)");
      free(log);
      return st;
    }
    free(log);
    atomic_fetch_add(&g_compiled, 1);
    if (use_disk)
      cn_cu_cache_write(path, hs, img, size);
  }
  cudaError_t e = cudaLibraryLoadData(lib, img, NULL, NULL, 0, NULL, NULL, 0);
  free(img);
  if (e != cudaSuccess)
    return cn_cu_fail(e, "cudaLibraryLoadData (generated kernel)");
  return CN_OK;
}

cn_status cn_cu_kernel(cudaKernel_t *out, const char *key, int idx,
                       cn_cu_gen_fn gen, void *ctx) {
  int dev = 0;
  CN_CU_TRY(cudaGetDevice(&dev), "cudaGetDevice");
  int cc = cn_cu_devinfo_get(dev)->cc;
  uint64_t h = cn_cu_fnv1a(key, strlen(key), CN_CU_FNV_INIT) ^ (uint64_t)cc;
  size_t b = (size_t)(h % NBUCKETS);
  pthread_mutex_lock(&g_lock);
  kentry *en = g_buckets[b];
  while (en != NULL && (en->cc != cc || strcmp(en->key, key) != 0))
    en = en->next;
  if (en == NULL) {
    cn_cu_src src;
    cn_cu_src_init(&src);
    cn_cu_src_appendf(&src, "%s\n", cn_cu_prelude_text);
    en = calloc(1, sizeof *en);
    char *kcopy = strdup(key);
    bool ok =
        en != NULL && kcopy != NULL && gen(&src, ctx, en->names) && !src.oom;
    cn_status st = CN_OK;
    if (!ok)
      st = (en == NULL || kcopy == NULL || src.oom)
               ? cn_cu_error(CN_ERR_MEMORY,
                             "cuda: out of host memory generating '%s'", key)
               : cn_cu_error(CN_ERR_INTERNAL,
                             "cuda: no kernel template for '%s'", key);
    if (st == CN_OK)
      st = build(&en->lib, src.text, key, cc);
    cn_cu_src_free(&src);
    if (st != CN_OK) {
      free(kcopy);
      free(en);
      pthread_mutex_unlock(&g_lock);
      return st;
    }
    en->key = kcopy;
    en->cc = cc;
    en->next = g_buckets[b];
    g_buckets[b] = en;
    atomic_fetch_add(&g_entries, 1);
  }
  if (idx < 0 || idx >= MAX_NAMES || en->names[idx][0] == 0) {
    pthread_mutex_unlock(&g_lock);
    return cn_cu_error(CN_ERR_INTERNAL, "cuda: kernel %d of '%s' missing", idx,
                       key);
  }
  if (en->k[idx] == NULL) {
    cudaError_t e = cudaLibraryGetKernel(&en->k[idx], en->lib, en->names[idx]);
    if (e != cudaSuccess) {
      pthread_mutex_unlock(&g_lock);
      return cn_cu_fail(e, "cudaLibraryGetKernel");
    }
  }
  *out = en->k[idx];
  pthread_mutex_unlock(&g_lock);
  return CN_OK;
}

cn_status cn_cu_launch(cudaKernel_t k, long long blocks_x, unsigned blocks_y,
                       unsigned threads, void **args, const char *what) {
  if (blocks_x <= 0)
    return CN_OK;
  if (blocks_x > 0x7fffffffLL)
    blocks_x = 0x7fffffffLL; /* kernels loop over the rest */
  dim3 grid = {(unsigned)blocks_x, blocks_y ? blocks_y : 1, 1};
  dim3 block = {threads, 1, 1};
  cn_cu_note_launch(what);
  cudaStream_t s = cn_cu_stream();
  CN_CU_TRY(cudaLaunchKernel((const void *)k, grid, block, args, 0, s), what);
  if (g_debug < 0) {
    const char *d = getenv("CUNUMPY_DEBUG");
    g_debug = (d != NULL && d[0] != 0 && d[0] != '0') ? 1 : 0; /* status.h */
  }
  if (g_debug == 1)
    CN_CU_TRY(cudaStreamSynchronize(s), what);
  return CN_OK;
}

cn_status cn_cu_kernel_cache_info(int64_t *compiled, int64_t *disk_hits,
                                  int64_t *in_memory) {
  if (compiled)
    *compiled = atomic_load(&g_compiled);
  if (disk_hits)
    *disk_hits = atomic_load(&g_disk_hits);
  if (in_memory)
    *in_memory = atomic_load(&g_entries);
  return CN_OK;
}
