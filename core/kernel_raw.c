/* Raw CUDA modules and functions: the handles, their validation, and the
 * calls into the CUDA plugin's raw-module API (core/kernel_raw_api.h).
 * Compiling for an explicit architecture needs only the plugin and NVRTC
 * (the plugin loads without a driver); loading and launching need a
 * device. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kernel_raw_api.h"

#define MODULE_MAGIC 0x444f4d52u   /* "RMOD" */
#define FUNCTION_MAGIC 0x434e4652u /* "RFNC" */
#define MAX_ARGS 4096
#define MAX_ARG_BYTES 4096
#define MAX_LIST 1024

struct cn_cuda_module_s {
  uint32_t magic;
  atomic_int_fast64_t refcount;
  pthread_mutex_t lock;
  uint8_t *image;
  size_t size;
  int32_t is_ptx, arch;
  int32_t nnames;
  char **exprs, **lowered;
  void *lib; /* loaded on first get_function */
  const cn_cuda_raw_api *api;
};

struct cn_cuda_function_s {
  uint32_t magic;
  atomic_int_fast64_t refcount;
  cn_cuda_module m;
  void *kernel;
};

static void free_list(char **l, int32_t n) {
  for (int32_t i = 0; l != NULL && i < n; i++)
    free(l[i]);
  free(l);
}

/* Splits text at newlines into a malloc'd list of malloc'd strings (empty
 * lines dropped); -1 when out of memory or more than MAX_LIST. */
static int32_t split_lines(char ***out, const char *text) {
  *out = NULL;
  if (text == NULL || text[0] == 0)
    return 0;
  int32_t n = 0, cap = 0;
  char **l = NULL;
  const char *p = text;
  while (*p) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len > 0 && !(len == 1 && p[0] == '\r')) {
      if (n == MAX_LIST) {
        free_list(l, n);
        return -1;
      }
      if (n == cap) {
        cap = cap ? 2 * cap : 8;
        char **q = realloc(l, (size_t)cap * sizeof *q);
        if (q == NULL) {
          free_list(l, n);
          return -1;
        }
        l = q;
      }
      if (len > 0 && p[len - 1] == '\r')
        len--;
      l[n] = malloc(len + 1);
      if (l[n] == NULL) {
        free_list(l, n);
        return -1;
      }
      memcpy(l[n], p, len);
      l[n][len] = 0;
      n++;
    }
    p += e ? (size_t)(e - p) + 1 : strlen(p);
  }
  *out = l;
  return n;
}

/* The plugin's raw API (loading the plugin, which needs no device), or
 * NULL with CN_ERR_DEVICE recorded. */
static const cn_cuda_raw_api *raw_api(const char *fn) {
  const cn_backend *t = cn_cuda_backend_table();
  const cn_cuda_raw_api *api =
      t != NULL ? cn_backend_get_proc(t, "cuda_raw_api") : NULL;
  if (api == NULL || api->size < sizeof(cn_cuda_raw_api)) {
    const char *why = cn_backend_unavailable_reason();
    cn_error(CN_ERR_DEVICE, "%s: CUDA is unavailable: %s", fn,
             (why && why[0]) ? why
                             : "the CUDA plugin has no raw-module API");
    return NULL;
  }
  return api;
}

/* CN_ERR_DEVICE unless a CUDA device answers. */
static cn_status need_device(const char *fn) {
  if (cn_cuda_backend_if_loaded() == NULL) {
    int32_t avail = 0;
    if (cn_backend_available(&avail, "cuda") != CN_OK || !avail ||
        cn_cuda_backend_if_loaded() == NULL) {
      const char *why = cn_backend_unavailable_reason();
      return cn_error(CN_ERR_DEVICE, "%s: CUDA is unavailable: %s", fn,
                      (why && why[0]) ? why : "no device");
    }
  }
  return CN_OK;
}

static struct cn_cuda_module_s *module_new(void) {
  struct cn_cuda_module_s *m = calloc(1, sizeof *m);
  if (m == NULL)
    return NULL;
  pthread_mutex_init(&m->lock, NULL);
  atomic_init(&m->refcount, 1);
  return m;
}

static void module_free(struct cn_cuda_module_s *m) {
  if (m->lib != NULL && m->api != NULL)
    m->api->unload(m->lib);
  free(m->image);
  free_list(m->exprs, m->nnames);
  free_list(m->lowered, m->nnames);
  pthread_mutex_destroy(&m->lock);
  free(m);
}

cn_status cn_cuda_module_from_source(cn_cuda_module *out, const char *source,
                                     const char *source_name,
                                     const char *options,
                                     const char *name_expressions,
                                     int32_t arch) {
  const char *fn = "cn_cuda_module_from_source";
  CN_CHECK_OUT(out, fn);
  if (source == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'source' is NULL", fn);
  if (arch < 0 || arch > 10000)
    return cn_error(CN_ERR_VALUE,
                    "%s: argument 'arch' is %d, must be 0 (the current "
                    "device) or a compute capability such as 90",
                    fn, (int)arch);
  if (source_name == NULL || source_name[0] == 0)
    source_name = "kernel.cu";
  if (arch == 0) {
    cn_status st = need_device(fn);
    if (st != CN_OK)
      return st;
  }
  const cn_cuda_raw_api *api = raw_api(fn);
  if (api == NULL)
    return CN_ERR_DEVICE;
  char **opts = NULL, **names = NULL;
  int32_t nopts = split_lines(&opts, options);
  int32_t nnames = nopts < 0 ? -1 : split_lines(&names, name_expressions);
  if (nopts < 0 || nnames < 0) {
    free_list(opts, nopts);
    return cn_error(CN_ERR_VALUE,
                    "%s: out of memory or more than %d options or name "
                    "expressions",
                    fn, MAX_LIST);
  }
  struct cn_cuda_module_s *m = module_new();
  cn_status st = m == NULL ? cn_error(CN_ERR_MEMORY, "%s: out of memory", fn)
                           : CN_OK;
  if (st == CN_OK) {
    size_t size = 0;
    st = api->compile(&m->image, &size, &m->is_ptx, &m->arch, &m->lowered,
                      source, source_name, nopts, (const char *const *)opts,
                      nnames, (const char *const *)names, arch);
    m->size = size;
  }
  free_list(opts, nopts);
  if (st != CN_OK) {
    free_list(names, nnames);
    if (m != NULL)
      module_free(m);
    return st;
  }
  m->exprs = names;
  m->nnames = nnames;
  m->api = api;
  m->magic = MODULE_MAGIC;
  *out = m;
  return CN_OK;
}

cn_status cn_cuda_module_from_file(cn_cuda_module *out, const char *path) {
  const char *fn = "cn_cuda_module_from_file";
  CN_CHECK_OUT(out, fn);
  if (path == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'path' is NULL", fn);
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return cn_error(CN_ERR_VALUE, "%s: cannot open '%.300s'", fn, path);
  uint8_t *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len == cap) {
      cap = cap ? 2 * cap : 65536;
      uint8_t *q = realloc(buf, cap + 1);
      if (q == NULL) {
        free(buf);
        fclose(f);
        return cn_error(CN_ERR_MEMORY, "%s: out of memory reading '%.300s'",
                        fn, path);
      }
      buf = q;
    }
    size_t r = fread(buf + len, 1, cap - len, f);
    len += r;
    if (r == 0)
      break;
  }
  bool bad = ferror(f) != 0;
  fclose(f);
  if (bad || len == 0) {
    free(buf);
    return cn_error(CN_ERR_VALUE, "%s: '%.300s' is %s", fn, path,
                    bad ? "unreadable" : "empty");
  }
  /* ELF (cubin) and fatbin images start with their magic; else PTX text,
   * which the loader wants NUL-terminated. */
  static const uint8_t elf[4] = {0x7f, 'E', 'L', 'F'};
  static const uint8_t fatbin[4] = {0x50, 0xed, 0x55, 0xba};
  bool binary = len >= 4 && (memcmp(buf, elf, 4) == 0 ||
                             memcmp(buf, fatbin, 4) == 0);
  if (!binary && buf[len - 1] != 0)
    buf[len++] = 0;
  struct cn_cuda_module_s *m = module_new();
  if (m == NULL) {
    free(buf);
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  m->image = buf;
  m->size = len;
  m->is_ptx = !binary;
  m->magic = MODULE_MAGIC;
  *out = m;
  return CN_OK;
}

#define CHECK_MODULE(m, fn)                                                    \
  do {                                                                         \
    if ((m) == NULL || (m)->magic != MODULE_MAGIC)                             \
      return cn_error(CN_ERR_VALUE, "%s: argument 'm' is %s", fn,              \
                      (m) == NULL ? "NULL" : "a released or invalid handle");  \
  } while (0)

void cn_cuda_module_retain(cn_cuda_module m) {
  if (m != NULL && m->magic == MODULE_MAGIC)
    atomic_fetch_add(&m->refcount, 1);
}

void cn_cuda_module_release(cn_cuda_module m) {
  if (m == NULL || m->magic != MODULE_MAGIC)
    return;
  if (atomic_fetch_sub(&m->refcount, 1) == 1) {
    m->magic = 0;
    module_free(m);
  }
}

cn_status cn_cuda_module_image_size(int64_t *out, cn_cuda_module m) {
  CN_CHECK_OUT(out, "cn_cuda_module_image_size");
  CHECK_MODULE(m, "cn_cuda_module_image_size");
  *out = (int64_t)m->size;
  return CN_OK;
}

cn_status cn_cuda_module_image(void *buf, int64_t cap, cn_cuda_module m) {
  const char *fn = "cn_cuda_module_image";
  CHECK_MODULE(m, fn);
  if (buf == NULL || cap < (int64_t)m->size)
    return cn_error(CN_ERR_VALUE,
                    "%s: the image has %zu bytes, the buffer %lld", fn,
                    m->size, buf == NULL ? 0LL : (long long)cap);
  memcpy(buf, m->image, m->size);
  return CN_OK;
}

cn_status cn_cuda_module_is_ptx(int32_t *out, cn_cuda_module m) {
  CN_CHECK_OUT(out, "cn_cuda_module_is_ptx");
  CHECK_MODULE(m, "cn_cuda_module_is_ptx");
  *out = m->is_ptx;
  return CN_OK;
}

cn_status cn_cuda_module_arch(int32_t *out, cn_cuda_module m) {
  CN_CHECK_OUT(out, "cn_cuda_module_arch");
  CHECK_MODULE(m, "cn_cuda_module_arch");
  *out = m->arch;
  return CN_OK;
}

/* The lowered name of a name expression of m, or NULL. */
static const char *lowered_of(const struct cn_cuda_module_s *m,
                              const char *expr) {
  for (int32_t i = 0; i < m->nnames; i++)
    if (strcmp(m->exprs[i], expr) == 0)
      return m->lowered[i];
  return NULL;
}

cn_status cn_cuda_module_lowered_name(char *lowered, int64_t lowered_cap,
                                      cn_cuda_module m,
                                      const char *name_expression) {
  const char *fn = "cn_cuda_module_lowered_name";
  CHECK_MODULE(m, fn);
  if (name_expression == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'name_expression' is NULL",
                    fn);
  const char *l = lowered_of(m, name_expression);
  if (l == NULL)
    return cn_error(CN_ERR_VALUE,
                    "%s: '%.200s' is not a name expression of the module "
                    "(give it in name_expressions when compiling)",
                    fn, name_expression);
  size_t n = strlen(l);
  if (lowered == NULL || lowered_cap <= (int64_t)n)
    return cn_error(CN_ERR_VALUE, "%s: the buffer is too small for %zu bytes",
                    fn, n + 1);
  memcpy(lowered, l, n + 1);
  return CN_OK;
}

cn_status cn_cuda_module_get_function(cn_cuda_function *out, cn_cuda_module m,
                                      const char *name) {
  const char *fn = "cn_cuda_module_get_function";
  CN_CHECK_OUT(out, fn);
  CHECK_MODULE(m, fn);
  if (name == NULL || name[0] == 0)
    return cn_error(CN_ERR_VALUE, "%s: argument 'name' is %s", fn,
                    name == NULL ? "NULL" : "empty");
  cn_status st = need_device(fn);
  if (st != CN_OK)
    return st;
  pthread_mutex_lock(&m->lock);
  if (m->api == NULL && (m->api = raw_api(fn)) == NULL) {
    pthread_mutex_unlock(&m->lock);
    return CN_ERR_DEVICE;
  }
  if (m->lib == NULL)
    st = m->api->load(&m->lib, m->image, m->size);
  void *k = NULL;
  if (st == CN_OK) {
    const char *l = lowered_of(m, name);
    st = m->api->get_kernel(&k, m->lib, l ? l : name);
  }
  pthread_mutex_unlock(&m->lock);
  if (st != CN_OK)
    return st;
  struct cn_cuda_function_s *f = calloc(1, sizeof *f);
  if (f == NULL)
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  atomic_init(&f->refcount, 1);
  cn_cuda_module_retain(m);
  f->m = m;
  f->kernel = k;
  f->magic = FUNCTION_MAGIC;
  *out = f;
  return CN_OK;
}

#define CHECK_FUNCTION(f, fn)                                                  \
  do {                                                                         \
    if ((f) == NULL || (f)->magic != FUNCTION_MAGIC)                           \
      return cn_error(CN_ERR_VALUE, "%s: argument 'f' is %s", fn,              \
                      (f) == NULL ? "NULL" : "a released or invalid handle");  \
  } while (0)

void cn_cuda_function_retain(cn_cuda_function f) {
  if (f != NULL && f->magic == FUNCTION_MAGIC)
    atomic_fetch_add(&f->refcount, 1);
}

void cn_cuda_function_release(cn_cuda_function f) {
  if (f == NULL || f->magic != FUNCTION_MAGIC)
    return;
  if (atomic_fetch_sub(&f->refcount, 1) == 1) {
    f->magic = 0;
    cn_cuda_module_release(f->m);
    free(f);
  }
}

static const char *const k_attributes[] = {
    "max_threads_per_block",         "shared_size_bytes",
    "const_size_bytes",              "local_size_bytes",
    "num_regs",                      "ptx_version",
    "binary_version",                "max_dynamic_shared_size_bytes",
    "preferred_shared_memory_carveout"};

cn_status cn_cuda_function_attribute(int64_t *out, cn_cuda_function f,
                                     const char *attribute) {
  const char *fn = "cn_cuda_function_attribute";
  CN_CHECK_OUT(out, fn);
  CHECK_FUNCTION(f, fn);
  if (attribute == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'attribute' is NULL", fn);
  for (int32_t i = 0;
       i < (int32_t)(sizeof k_attributes / sizeof k_attributes[0]); i++)
    if (strcmp(attribute, k_attributes[i]) == 0)
      return f->m->api->attribute(out, f->kernel, i);
  return cn_error(CN_ERR_VALUE, "%s: no function attribute '%.100s'", fn,
                  attribute);
}

cn_status cn_cuda_function_launch(cn_cuda_function f, const int64_t *grid,
                                  const int64_t *block, int64_t shared_mem,
                                  cn_stream stream, int32_t cooperative,
                                  int32_t nargs, const cn_array *arrays,
                                  const void *const *values,
                                  const int64_t *sizes) {
  const char *fn = "cn_cuda_function_launch";
  CHECK_FUNCTION(f, fn);
  if (grid == NULL || block == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument '%s' is NULL", fn,
                    grid == NULL ? "grid" : "block");
  static const int64_t gmax[3] = {2147483647LL, 65535, 65535};
  uint32_t g[3], b[3];
  for (int k = 0; k < 3; k++) {
    if (grid[k] < 1 || grid[k] > gmax[k])
      return cn_error(CN_ERR_VALUE,
                      "%s: grid[%d] is %lld, must be in [1, %lld]", fn, k,
                      (long long)grid[k], (long long)gmax[k]);
    if (block[k] < 1 || block[k] > 1024)
      return cn_error(CN_ERR_VALUE,
                      "%s: block[%d] is %lld, must be in [1, 1024]", fn, k,
                      (long long)block[k]);
    g[k] = (uint32_t)grid[k];
    b[k] = (uint32_t)block[k];
  }
  if (block[0] * block[1] * block[2] > 1024)
    return cn_error(CN_ERR_VALUE,
                    "%s: a block of %lld x %lld x %lld threads is more than "
                    "1024",
                    fn, (long long)block[0], (long long)block[1],
                    (long long)block[2]);
  if (shared_mem < 0 || shared_mem > 0xffffffffLL)
    return cn_error(CN_ERR_VALUE,
                    "%s: shared_mem is %lld, must be in [0, 2^32)", fn,
                    (long long)shared_mem);
  if (nargs < 0 || nargs > MAX_ARGS)
    return cn_error(CN_ERR_VALUE, "%s: nargs is %d, must be in [0, %d]", fn,
                    (int)nargs, MAX_ARGS);
  int32_t dev = -1;
  const cn_backend *cuda = cn_cuda_backend_if_loaded();
  if (cuda == NULL)
    return need_device(fn);
  dev = cuda->device->current_device();
  int64_t total = 0;
  for (int32_t i = 0; i < nargs; i++) {
    if (arrays != NULL && arrays[i] != NULL) {
      CN_CHECK_ARRAY(arrays[i], fn, "arrays[i]");
      const cn_buffer *buf = arrays[i]->buf;
      if (buf->backend->device_type != CN_DEVICE_CUDA)
        return cn_error(CN_ERR_DEVICE,
                        "%s: argument %d is an array on the CPU; raw kernels "
                        "take CUDA arrays and never copy",
                        fn, (int)i);
      if (buf->device_id != dev)
        return cn_error(CN_ERR_DEVICE,
                        "%s: argument %d is an array on CUDA device %d, the "
                        "current device is %d",
                        fn, (int)i, (int)buf->device_id, (int)dev);
      total += 16;
    } else {
      if (values == NULL || sizes == NULL || values[i] == NULL)
        return cn_error(CN_ERR_VALUE, "%s: argument %d has no value", fn,
                        (int)i);
      if (sizes[i] < 1 || sizes[i] > MAX_ARG_BYTES)
        return cn_error(CN_ERR_VALUE,
                        "%s: argument %d has %lld bytes, must be in [1, %d]",
                        fn, (int)i, (long long)sizes[i], MAX_ARG_BYTES);
      total += (sizes[i] + 15) / 16 * 16 + 16;
    }
  }
  /* Each argument in its own zero-padded, 16-byte aligned slot, so that a
   * kernel parameter wider than what was given reads zeros, not stray
   * memory. */
  uint8_t *arena = calloc(1, (size_t)total + 16);
  void **params = calloc((size_t)(nargs > 0 ? nargs : 1), sizeof *params);
  if (arena == NULL || params == NULL) {
    free(arena);
    free(params);
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  int64_t at = 0;
  for (int32_t i = 0; i < nargs; i++) {
    params[i] = arena + at;
    if (arrays != NULL && arrays[i] != NULL) {
      void *p = arrays[i]->data;
      memcpy(arena + at, &p, sizeof p);
      at += 16;
    } else {
      memcpy(arena + at, values[i], (size_t)sizes[i]);
      at += (sizes[i] + 15) / 16 * 16 + 16;
    }
  }
  cn_status st = f->m->api->launch(f->kernel, g, b, (uint32_t)shared_mem,
                                   stream, cooperative ? 1 : 0, params);
  free(arena);
  free(params);
  return st;
}
