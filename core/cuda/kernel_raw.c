/* Raw modules in the plugin: NVRTC compilation of user source through an
 * in-memory cache and the disk cache (key: source, program name, options,
 * name expressions, architecture, NVRTC version), and loading, lookup and
 * launch through the runtime's library API (cudaLibraryLoadData: no driver
 * symbols). Compilation needs no device. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernel_raw_api.h"
#include "cuda_internal.h"
#include "disk_cache.h"
#include "nvrtc_compile.h"

typedef struct rentry {
  struct rentry *next;
  uint64_t hash;
  char *key; /* the full key text, compared on a hash match */
  size_t key_len;
  uint8_t *image;
  size_t size;
  int32_t is_ptx, arch;
  int32_t nnames;
  char **lowered;
} rentry;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static rentry *g_entries;

static void free_names(char **names, int32_t n) {
  for (int32_t i = 0; names != NULL && i < n; i++)
    free(names[i]);
  free(names);
}

static char **copy_names(char *const *names, int32_t n) {
  char **c = calloc((size_t)(n > 0 ? n : 1), sizeof *c);
  for (int32_t i = 0; c != NULL && i < n; i++)
    if ((c[i] = strdup(names[i])) == NULL) {
      free_names(c, i);
      return NULL;
    }
  return c;
}

/* Appends n bytes to a growing buffer; false when out of memory. */
static bool put(char **buf, size_t *len, size_t *cap, const void *p,
                size_t n) {
  if (*len + n > *cap) {
    size_t c = (*cap ? *cap * 2 : 1024);
    while (c < *len + n)
      c *= 2;
    char *q = realloc(*buf, c);
    if (q == NULL)
      return false;
    *buf = q;
    *cap = c;
  }
  memcpy(*buf + *len, p, n);
  *len += n;
  return true;
}

/* The disk blob: u32 name count, per name u32 length + bytes, the image. */
static char *pack_blob(size_t *len, const rentry *e) {
  char *b = NULL;
  size_t cap = 0;
  *len = 0;
  uint32_t n = (uint32_t)e->nnames;
  bool ok = put(&b, len, &cap, &n, 4);
  for (int32_t i = 0; ok && i < e->nnames; i++) {
    uint32_t l = (uint32_t)strlen(e->lowered[i]);
    ok = put(&b, len, &cap, &l, 4) && put(&b, len, &cap, e->lowered[i], l);
  }
  if (ok)
    ok = put(&b, len, &cap, e->image, e->size);
  if (!ok) {
    free(b);
    return NULL;
  }
  return b;
}

static bool unpack_blob(rentry *e, const char *b, size_t len, int32_t nnames) {
  size_t at = 0;
  uint32_t n = 0;
  if (len < 4)
    return false;
  memcpy(&n, b, 4);
  at = 4;
  if ((int32_t)n != nnames)
    return false;
  e->lowered = calloc((size_t)(n > 0 ? n : 1), sizeof *e->lowered);
  if (e->lowered == NULL)
    return false;
  e->nnames = (int32_t)n;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t l = 0;
    if (len - at < 4)
      return false;
    memcpy(&l, b + at, 4);
    at += 4;
    if (len - at < l || (e->lowered[i] = malloc((size_t)l + 1)) == NULL)
      return false;
    memcpy(e->lowered[i], b + at, l);
    e->lowered[i][l] = 0;
    at += l;
  }
  if (len == at)
    return false;
  e->size = len - at;
  e->image = malloc(e->size);
  if (e->image == NULL)
    return false;
  memcpy(e->image, b + at, e->size);
  return true;
}

static void entry_free(rentry *e) {
  if (e == NULL)
    return;
  free(e->key);
  free(e->image);
  free_names(e->lowered, e->nnames);
  free(e);
}

static cn_status raw_compile(uint8_t **image, size_t *size, int32_t *is_ptx,
                             int32_t *arch_used, char ***lowered,
                             const char *source, const char *source_name,
                             int32_t nopts, const char *const *opts,
                             int32_t nnames, const char *const *names,
                             int32_t arch) {
  const char *fn = "cn_cuda_module_from_source";
  int ver = cn_cu_nvrtc_version();
  bool cubin = false;
  int target = arch;
  if (arch == 0) {
    int dev = 0;
    CN_CU_TRY(cudaGetDevice(&dev), "cudaGetDevice");
    int cc = cn_cu_devinfo_get(dev)->cc;
    target = cn_cu_nvrtc_best_arch(cc);
    if (target == 0)
      return cn_cu_error(CN_ERR_BACKEND,
                         "%s: NVRTC %d.%d cannot compile for compute "
                         "capability %d.%d",
                         fn, ver / 100, ver % 100, cc / 10, cc % 10);
    cubin = target == cc;
  }
  /* the key: every input that changes the image, NUL-separated */
  char *key = NULL;
  size_t klen = 0, kcap = 0;
  char head[64];
  snprintf(head, sizeof head, "%s%d/nvrtc%d/%d/%d", cubin ? "sm" : "compute",
           target, ver, (int)nopts, (int)nnames);
  bool ok = put(&key, &klen, &kcap, head, strlen(head) + 1) &&
            put(&key, &klen, &kcap, source_name, strlen(source_name) + 1) &&
            put(&key, &klen, &kcap, source, strlen(source) + 1);
  for (int32_t i = 0; ok && i < nopts; i++)
    ok = put(&key, &klen, &kcap, opts[i], strlen(opts[i]) + 1);
  for (int32_t i = 0; ok && i < nnames; i++)
    ok = put(&key, &klen, &kcap, names[i], strlen(names[i]) + 1);
  if (!ok) {
    free(key);
    return cn_cu_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  uint64_t h = cn_cu_fnv1a(key, klen, CN_CU_FNV_INIT);
  pthread_mutex_lock(&g_lock);
  rentry *e = g_entries;
  while (e != NULL && !(e->hash == h && e->key_len == klen &&
                        memcmp(e->key, key, klen) == 0))
    e = e->next;
  cn_status st = CN_OK;
  if (e == NULL) {
    e = calloc(1, sizeof *e);
    if (e == NULL) {
      st = cn_cu_error(CN_ERR_MEMORY, "%s: out of memory", fn);
    } else {
      e->hash = h;
      e->key = key;
      e->key_len = klen;
      key = NULL;
      e->is_ptx = !cubin;
      e->arch = target;
      char dir[4000], path[4100];
      bool use_disk = cn_cu_cache_dir(dir, sizeof dir);
      if (use_disk)
        snprintf(path, sizeof path, "%s/raw_%016llx_%s%d_nvrtc%d.bin", dir,
                 (unsigned long long)h, cubin ? "sm" : "compute", target, ver);
      size_t blen = 0;
      char *blob = use_disk ? cn_cu_cache_read(path, h, &blen) : NULL;
      bool have = blob != NULL && unpack_blob(e, blob, blen, nnames);
      free(blob);
      if (!have) {
        free(e->image);
        free_names(e->lowered, e->nnames);
        e->image = NULL;
        e->lowered = NULL;
        e->nnames = 0;
        char *img = NULL, *log = NULL;
        char **low = NULL;
        size_t n = 0;
        if (!cn_cu_nvrtc_compile_user(source, source_name, target, cubin,
                                      nopts, opts, nnames, names, &img, &n,
                                      &low, &log)) {
          st = cn_cu_error(CN_ERR_VALUE, "%s: NVRTC could not compile '%s': %s",
                           fn, source_name, log ? log : "(out of memory)");
          free(log);
        } else {
          free(log);
          e->image = (uint8_t *)img;
          e->size = n;
          e->lowered = low;
          e->nnames = nnames;
          if (use_disk) {
            char *b = pack_blob(&blen, e);
            if (b != NULL)
              cn_cu_cache_write(path, h, b, blen);
            free(b);
          }
        }
      }
      if (st == CN_OK) {
        e->next = g_entries;
        g_entries = e;
      } else {
        entry_free(e);
        e = NULL;
      }
    }
  }
  free(key);
  if (st == CN_OK) {
    uint8_t *img = malloc(e->size);
    char **low = copy_names(e->lowered, e->nnames);
    if (img == NULL || low == NULL) {
      free(img);
      free_names(low, e->nnames);
      st = cn_cu_error(CN_ERR_MEMORY, "%s: out of memory", fn);
    } else {
      memcpy(img, e->image, e->size);
      *image = img;
      *size = e->size;
      *is_ptx = e->is_ptx;
      *arch_used = e->arch;
      *lowered = low;
    }
  }
  pthread_mutex_unlock(&g_lock);
  return st;
}

static cn_status raw_load(void **lib, const void *image, size_t size) {
  (void)size;
  cudaLibrary_t l = NULL;
  CN_CU_TRY(cudaLibraryLoadData(&l, image, NULL, NULL, 0, NULL, NULL, 0),
            "cudaLibraryLoadData (raw module)");
  *lib = (void *)l;
  return CN_OK;
}

static void raw_unload(void *lib) {
  if (lib != NULL)
    cudaLibraryUnload((cudaLibrary_t)lib);
}

static cn_status raw_get_kernel(void **kernel, void *lib, const char *name) {
  cudaKernel_t k = NULL;
  cudaError_t e = cudaLibraryGetKernel(&k, (cudaLibrary_t)lib, name);
  if (e == cudaErrorSymbolNotFound || e == cudaErrorInvalidDeviceFunction ||
      e == cudaErrorSymbolNotFound) {
    cudaGetLastError();
    return cn_cu_error(CN_ERR_VALUE,
                       "cn_cuda_module_get_function: the module has no kernel "
                       "'%.200s' (for a C++ kernel, compile it with its name "
                       "expression or declare it extern \"C\")",
                       name);
  }
  if (e != cudaSuccess)
    return cn_cu_fail(e, "cudaLibraryGetKernel");
  *kernel = (void *)k;
  return CN_OK;
}

static cn_status raw_attribute(int64_t *out, void *kernel, int32_t which) {
  struct cudaFuncAttributes a;
  CN_CU_TRY(cudaFuncGetAttributes(&a, (const void *)kernel),
            "cudaFuncGetAttributes");
  int64_t v[] = {a.maxThreadsPerBlock,
                 (int64_t)a.sharedSizeBytes,
                 (int64_t)a.constSizeBytes,
                 (int64_t)a.localSizeBytes,
                 a.numRegs,
                 a.ptxVersion,
                 a.binaryVersion,
                 a.maxDynamicSharedSizeBytes,
                 a.preferredShmemCarveout};
  if (which < 0 || which >= (int32_t)(sizeof v / sizeof v[0]))
    return cn_cu_error(CN_ERR_INTERNAL, "cuda: no function attribute %d",
                       (int)which);
  *out = v[which];
  return CN_OK;
}

static cn_status raw_launch(void *kernel, const uint32_t grid[3],
                            const uint32_t block[3], uint32_t shared_mem,
                            cn_stream stream, int32_t cooperative,
                            void **args) {
  cudaStream_t s = cn_cu_stream();
  if (stream != NULL) {
    void *native = NULL;
    cn_status st = cn_stream_native(&native, stream);
    if (st != CN_OK)
      return st;
    s = (cudaStream_t)native;
  }
  dim3 g = {grid[0], grid[1], grid[2]};
  dim3 b = {block[0], block[1], block[2]};
  cn_cu_note_launch("raw kernel");
  if (cooperative)
    CN_CU_TRY(cudaLaunchCooperativeKernel((const void *)kernel, g, b, args,
                                          shared_mem, s),
              "cudaLaunchCooperativeKernel (raw kernel)");
  else
    CN_CU_TRY(cudaLaunchKernel((const void *)kernel, g, b, args, shared_mem, s),
              "cudaLaunchKernel (raw kernel)");
  return CN_OK;
}

static const cn_cuda_raw_api g_raw_api = {
    .size = sizeof(cn_cuda_raw_api),
    .compile = raw_compile,
    .load = raw_load,
    .unload = raw_unload,
    .get_kernel = raw_get_kernel,
    .attribute = raw_attribute,
    .launch = raw_launch,
};

const void *cn_cu_raw_api(void);
const void *cn_cu_raw_api(void) { return &g_raw_api; }
