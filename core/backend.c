/* The backend registry: process-wide selection of the backend that makes new
 * arrays, and the loader of the CUDA plugin (libcunumpy_cuda.so).
 *
 * State lives behind one recursive mutex. The hot readers (cn_active_backend
 * on every creation, cn_cuda_backend_if_loaded on every DLPack import) take
 * no lock once the environment has been read: they load atomics.
 *
 * The mutex is recursive so that a plugin whose entry point or probe calls
 * back into cunumpy (for instance cn_get_backend) cannot deadlock the loader;
 * such a re-entrant call sees the CPU backend and "load in progress". */
#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define CN_PLUGIN_FILE "libcunumpy_cuda.so"
/* Deep enough for any sane nesting of `with use_backend(...)`; a fixed
 * array means push never allocates and never fails for lack of memory. */
#define CN_BACKEND_STACK_CAP 128
#define CN_REASON_CAP 2048

typedef enum { LOAD_NOT_TRIED, LOAD_BUSY, LOAD_DONE } load_state;

static pthread_mutex_t g_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static atomic_bool g_env_done;
static _Atomic(const cn_backend *) g_active;
static _Atomic(const cn_backend *) g_cuda;
/* The CUDA plugin's record once it passed the handshake, probe passed or
 * not: what cn_backend_supports reads on machines without a device. */
static _Atomic(const cn_backend *) g_cuda_table;
static load_state g_load_state;
static const cn_backend *g_stack[CN_BACKEND_STACK_CAP];
static int g_stack_len;
static char g_reason[CN_REASON_CAP];       /* why the last load failed */
static char g_env_note[CN_REASON_CAP / 2]; /* environment values ignored */
static char g_plugin_path[1024];     /* the plugin that passed the handshake */
static char g_plugin_versions[1024]; /* its cn_plugin_versions_fn text */

static void set_reason(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static void set_reason(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g_reason, sizeof g_reason, fmt, ap);
  va_end(ap);
}

/* ---- names ------------------------------------------------------------ */

typedef enum { NAME_UNKNOWN, NAME_CPU, NAME_CUDA } backend_name;

/* Every name a backend answers to, canonical name first: the one table of
 * aliases (the bindings ask cn_backend_canonical_name). */
static const struct {
  const char *name;
  backend_name id;
} g_names[] = {
    {"cpu", NAME_CPU},
    {"numpy", NAME_CPU},
    {"cuda", NAME_CUDA},
    {"cupy", NAME_CUDA},
};
#define CN_NAMES_LIST "'cpu', 'cuda', 'numpy' or 'cupy'"

static const char *canonical(backend_name n) {
  return n == NAME_CPU ? "cpu" : n == NAME_CUDA ? "cuda" : NULL;
}

static bool name_is(const char *s, const char *lit) {
  for (; *s && *lit; s++, lit++)
    if (tolower((unsigned char)*s) != *lit)
      return false;
  return *s == 0 && *lit == 0;
}

static backend_name parse_name(const char *s) {
  if (s == NULL)
    return NAME_UNKNOWN;
  for (size_t i = 0; i < sizeof g_names / sizeof g_names[0]; i++)
    if (name_is(s, g_names[i].name))
      return g_names[i].id;
  return NAME_UNKNOWN;
}

/* ---- the plugin loader ------------------------------------------------ */

/* Directory of the file that holds libcunumpy's code, with a trailing '/',
 * or "" when the dynamic linker cannot tell (then the plain file name is
 * handed to dlopen, which searches the usual library path). */
static void library_dir(char *dir, size_t cap) {
  Dl_info info;
  dir[0] = 0;
  if (dladdr((void *)&cn_set_backend, &info) == 0 || info.dli_fname == NULL)
    return;
  const char *slash = strrchr(info.dli_fname, '/');
  if (slash == NULL)
    return;
  size_t n = (size_t)(slash - info.dli_fname) + 1;
  if (n >= cap)
    return;
  memcpy(dir, info.dli_fname, n);
  dir[n] = 0;
}

/* The first required slot t lacks, or NULL. Device backends must also copy
 * to and from the host. */
static const char *missing_slot(const cn_backend *t) {
  const cn_backend_device *d = t->device;
#define CN_REQUIRE_MEMBER(m)                                                   \
  if (d->m == NULL)                                                            \
    return #m;
  CN_REQUIRE_MEMBER(probe)
  CN_REQUIRE_MEMBER(device_count)
  CN_REQUIRE_MEMBER(current_device)
  CN_REQUIRE_MEMBER(alloc)
  CN_REQUIRE_MEMBER(free)
  CN_REQUIRE_MEMBER(copy_to_host)
  CN_REQUIRE_MEMBER(copy_from_host)
  if (t->compute->assign == NULL)
    return "assign";
  if (t->compute->fill == NULL)
    return "fill";
#undef CN_REQUIRE_MEMBER
  return NULL;
}

/* True, with why written, when the sizes a plugin was built with differ
 * from the core's.
 * Sizes must match exactly: a shorter struct lacks slots the core reads, a
 * longer one has slots the core would not know are there. */
static bool size_mismatch(char *why, size_t cap, const cn_backend *t) {
  struct {
    const char *what;
    uint32_t got;
    size_t want;
  } sizes[] = {
      {"backend record", t->record_size, sizeof(cn_backend)},
      {"device table", t->device_size, sizeof(cn_backend_device)},
      {"compute table", t->compute_size, sizeof(cn_backend_compute)},
  };
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    if (sizes[i].got == sizes[i].want)
      continue;
    snprintf(why, cap, "has a %s of %u bytes, %s the %zu bytes of this "
             "libcunumpy (ABI version %d)",
             sizes[i].what, (unsigned)sizes[i].got,
             sizes[i].got < sizes[i].want ? "smaller than" : "larger than",
             sizes[i].want, CUNUMPY_ABI_VERSION);
    return true;
  }
  return false;
}

/* Opens `path` (origin says where the path came from, for the message),
 * checks the handshake and probes the device. On success publishes the
 * table in g_cuda and clears the reason; otherwise the reason says what
 * went wrong and what to do. Caller holds g_lock. */
static bool try_load(const char *path, const char *origin) {
  dlerror();
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    const char *e = dlerror();
    if (strchr(path, '/') != NULL && access(path, F_OK) != 0)
      set_reason("CUDA backend unavailable: the CUDA plugin '%s' (%s) does "
                 "not exist (%s). Build cunumpy with CUNUMPY_CUDA=ON, or set "
                 "CUNUMPY_CUDA_PLUGIN to the path of " CN_PLUGIN_FILE,
                 path, origin, e ? e : "unknown dlopen error");
    else
      set_reason("CUDA backend unavailable: cannot load the CUDA plugin '%s' "
                 "(%s): %s. A library it needs may be missing (see ldd on "
                 "it), or it was not built with this libcunumpy",
                 path, origin, e ? e : "unknown dlopen error");
    return false;
  }
  dlerror();
  void *sym = dlsym(h, CN_PLUGIN_ENTRY_NAME);
  if (sym == NULL) {
    const char *e = dlerror();
    set_reason("CUDA backend unavailable: '%s' (%s) is not a cunumpy plugin: "
               "it has no entry point " CN_PLUGIN_ENTRY_NAME " (%s)",
               path, origin, e ? e : "symbol is NULL");
    dlclose(h);
    return false;
  }
  cn_plugin_entry_fn entry;
  /* POSIX guarantees that dlsym results convert to function pointers. */
  memcpy(&entry, &sym, sizeof entry);
  const cn_backend *t = entry(CUNUMPY_ABI_VERSION);
  const char *missing = NULL;
  char sizes_why[256];
  if (t == NULL) {
    set_reason("CUDA backend unavailable: the plugin '%s' (%s) refused this "
               "cunumpy (ABI version %d): its entry point returned no table. "
               "Rebuild the plugin together with libcunumpy",
               path, origin, CUNUMPY_ABI_VERSION);
  } else if (t->abi_version != CUNUMPY_ABI_VERSION) {
    set_reason("CUDA backend unavailable: the plugin '%s' (%s) was built for "
               "cunumpy ABI version %u, but this libcunumpy has ABI version "
               "%d. Install the plugin that came with this libcunumpy",
               path, origin, (unsigned)t->abi_version, CUNUMPY_ABI_VERSION);
  } else if (size_mismatch(sizes_why, sizeof sizes_why, t)) {
    set_reason("CUDA backend unavailable: the plugin '%s' (%s) %s. Rebuild "
               "the plugin together with libcunumpy",
               path, origin, sizes_why);
  } else if (t->device == NULL || t->compute == NULL) {
    set_reason("CUDA backend unavailable: the plugin '%s' (%s) has no %s "
               "table",
               path, origin, t->device == NULL ? "device" : "compute");
  } else if ((missing = missing_slot(t)) != NULL) {
    set_reason("CUDA backend unavailable: the plugin '%s' (%s) has no '%s' "
               "function in its backend tables",
               path, origin, missing);
  } else {
    char why[CN_REASON_CAP / 2];
    why[0] = 0;
    atomic_store(&g_cuda_table, t);
    snprintf(g_plugin_path, sizeof g_plugin_path, "%s", path);
    dlerror();
    void *vsym = dlsym(h, CN_PLUGIN_VERSIONS_NAME);
    if (vsym != NULL) {
      cn_plugin_versions_fn versions;
      memcpy(&versions, &vsym, sizeof versions);
      versions(g_plugin_versions, sizeof g_plugin_versions);
      g_plugin_versions[sizeof g_plugin_versions - 1] = 0;
    }
    cn_status st = t->device->probe(why, sizeof why);
    why[sizeof why - 1] = 0;
    if (st != CN_OK) {
      /* Kept loaded: CUDA runtimes register exit handlers and do not
       * always survive being unloaded once initialised. */
      set_reason("CUDA backend unavailable: the plugin '%s' (%s) loaded, but "
                 "its device check failed (%s): %s",
                 path, origin, cn_status_name(st),
                 why[0] ? why : "no reason given");
      return false;
    }
    atomic_store(&g_cuda, t);
    g_reason[0] = 0;
    return true;
  }
  dlclose(h);
  return false;
}

/* The default search: CUNUMPY_CUDA_PLUGIN when set (an explicit choice
 * wins and is not second-guessed), else next to libcunumpy. Runs once;
 * caller holds g_lock. */
static void load_default(void) {
  if (g_load_state != LOAD_NOT_TRIED)
    return;
  g_load_state = LOAD_BUSY;
  const char *env = getenv("CUNUMPY_CUDA_PLUGIN");
  if (env != NULL && env[0] != 0) {
    try_load(env, "from CUNUMPY_CUDA_PLUGIN");
  } else {
    char path[4096];
    library_dir(path, sizeof path - sizeof CN_PLUGIN_FILE);
    strcat(path, CN_PLUGIN_FILE);
    try_load(path, strchr(path, '/') ? "next to libcunumpy"
                                     : "on the library search path");
  }
  g_load_state = LOAD_DONE;
}

/* CUDA table, loading the plugin on first demand; NULL when unavailable. */
static const cn_backend *cuda_or_null(void) {
  const cn_backend *c = atomic_load(&g_cuda);
  if (c != NULL)
    return c;
  pthread_mutex_lock(&g_lock);
  load_default();
  pthread_mutex_unlock(&g_lock);
  return atomic_load(&g_cuda);
}

/* ---- selection -------------------------------------------------------- */

static const cn_backend *backend_for(backend_name n) {
  if (n == NAME_CUDA) {
    const cn_backend *c = cuda_or_null();
    if (c != NULL)
      return c;
  }
  return cn_cpu_backend();
}

/* Reads CUNUMPY_BACKEND, else ARRAY_BACKEND, once. Both accept every name
 * and alias, case-insensitively. A variable that is unset or empty is
 * skipped; one with a value that names no backend is skipped too, and the
 * unavailable reason says so (so a typo does not pass unnoticed). CUDA
 * asked for but unavailable gives CPU, with the loader's reason. */
static void ensure_env(void) {
  if (atomic_load_explicit(&g_env_done, memory_order_acquire))
    return;
  static bool busy; /* only this thread can see it set: g_lock is held */
  pthread_mutex_lock(&g_lock);
  if (!atomic_load_explicit(&g_env_done, memory_order_relaxed) && !busy) {
    /* Other threads wait on the lock until the choice is made; a call
     * re-entered from the plugin being loaded sees CPU meanwhile. */
    busy = true;
    atomic_store(&g_active, cn_cpu_backend());
    static const char *const vars[] = {"CUNUMPY_BACKEND", "ARRAY_BACKEND"};
    char *ignored = g_env_note;
    ignored[0] = 0;
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
      const char *v = getenv(vars[i]);
      if (v == NULL || v[0] == 0)
        continue;
      backend_name n = parse_name(v);
      if (n == NAME_UNKNOWN) {
        size_t len = strlen(ignored);
        snprintf(ignored + len, sizeof g_env_note - len,
                 "%s%s='%.200s' is not a backend name (" CN_NAMES_LIST
                 ") and was ignored",
                 len ? "; " : "", vars[i], v);
        continue;
      }
      atomic_store(&g_active, backend_for(n));
      break;
    }
    busy = false;
    atomic_store_explicit(&g_env_done, true, memory_order_release);
  }
  pthread_mutex_unlock(&g_lock);
}

const cn_backend *cn_active_backend(void) {
  ensure_env();
  return atomic_load(&g_active);
}

const cn_backend *cn_cuda_backend_if_loaded(void) {
  return atomic_load(&g_cuda);
}

const cn_backend *cn_cuda_backend_table(void) {
  (void)cuda_or_null();
  return atomic_load(&g_cuda_table);
}

static cn_status check_name(backend_name *out, const char *name,
                            const char *fn) {
  if (name == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'name' is NULL", fn);
  *out = parse_name(name);
  if (*out == NAME_UNKNOWN)
    return cn_error(CN_ERR_VALUE,
                    "%s: argument 'name' is '%.200s', which is not a backend "
                    "(expected " CN_NAMES_LIST ")",
                    fn, name);
  return CN_OK;
}

cn_status cn_set_backend(const char *name) {
  backend_name n = NAME_UNKNOWN; /* set by check_name on success */
  cn_status st = check_name(&n, name, "cn_set_backend");
  if (st != CN_OK)
    return st;
  ensure_env();
  pthread_mutex_lock(&g_lock);
  atomic_store(&g_active, backend_for(n));
  pthread_mutex_unlock(&g_lock);
  return CN_OK;
}

const char *cn_get_backend(void) {
  return cn_active_backend() == cn_cpu_backend() ? "cpu" : "cuda";
}

cn_status cn_push_backend(const char *name) {
  backend_name n = NAME_UNKNOWN; /* set by check_name on success */
  cn_status st = check_name(&n, name, "cn_push_backend");
  if (st != CN_OK)
    return st;
  ensure_env();
  pthread_mutex_lock(&g_lock);
  if (g_stack_len == CN_BACKEND_STACK_CAP) {
    pthread_mutex_unlock(&g_lock);
    return cn_error(CN_ERR_VALUE,
                    "cn_push_backend: the backend stack is full (%d levels); "
                    "every push needs a matching cn_pop_backend",
                    CN_BACKEND_STACK_CAP);
  }
  g_stack[g_stack_len++] = atomic_load(&g_active);
  atomic_store(&g_active, backend_for(n));
  pthread_mutex_unlock(&g_lock);
  return CN_OK;
}

cn_status cn_pop_backend(void) {
  ensure_env();
  pthread_mutex_lock(&g_lock);
  if (g_stack_len == 0) {
    pthread_mutex_unlock(&g_lock);
    return cn_error(CN_ERR_VALUE, "cn_pop_backend: the backend stack is empty "
                                  "(cn_pop_backend without cn_push_backend)");
  }
  atomic_store(&g_active, g_stack[--g_stack_len]);
  pthread_mutex_unlock(&g_lock);
  return CN_OK;
}

cn_status cn_backend_available(int32_t *out, const char *name) {
  CN_CHECK_OUT(out, "cn_backend_available");
  backend_name n = NAME_UNKNOWN; /* set by check_name on success */
  cn_status st = check_name(&n, name, "cn_backend_available");
  if (st != CN_OK)
    return st;
  *out = n == NAME_CPU ? 1 : cuda_or_null() != NULL;
  return CN_OK;
}

/* Copied per thread so a reader never sees a message being rewritten by a
 * load attempt in another thread. */
const char *cn_backend_unavailable_reason(void) {
  static _Thread_local char copy[CN_REASON_CAP + 2 + CN_REASON_CAP / 2];
  pthread_mutex_lock(&g_lock);
  snprintf(copy, sizeof copy, "%s%s%s", g_reason,
           g_reason[0] && g_env_note[0] ? "; " : "", g_env_note);
  pthread_mutex_unlock(&g_lock);
  return copy;
}

const char *cn_build_info(void) {
  static _Thread_local char text[9216]; /* room for every part in full */
  char cpu[2048], avail[CN_REASON_CAP * 2];
  cn_cpu_library_versions(cpu, sizeof cpu);
  if (cuda_or_null() != NULL)
    snprintf(avail, sizeof avail, "yes (%d devices)", (int)cn_device_count());
  else
    snprintf(avail, sizeof avail, "no (%s)", cn_backend_unavailable_reason());
  pthread_mutex_lock(&g_lock);
  snprintf(text, sizeof text,
           "cunumpy: %s (ABI %d)\n%sCUDA plugin: %s\nCUDA available: %s\n%s",
           cn_version(), CUNUMPY_ABI_VERSION, cpu,
           g_plugin_path[0] ? g_plugin_path : "not loaded", avail,
           g_plugin_versions);
  pthread_mutex_unlock(&g_lock);
  return text;
}

cn_status cn_backend_load_plugin(const char *path) {
  if (path == NULL)
    return cn_error(CN_ERR_VALUE,
                    "cn_backend_load_plugin: argument 'path' is NULL");
  if (path[0] == 0)
    return cn_error(CN_ERR_VALUE,
                    "cn_backend_load_plugin: argument 'path' is empty");
  pthread_mutex_lock(&g_lock);
  if (atomic_load(&g_cuda) != NULL) {
    pthread_mutex_unlock(&g_lock);
    return CN_OK;
  }
  if (g_load_state == LOAD_BUSY) {
    pthread_mutex_unlock(&g_lock);
    return cn_error(CN_ERR_DEVICE, "cn_backend_load_plugin: called while the "
                                   "CUDA plugin is being loaded");
  }
  load_state saved = g_load_state;
  g_load_state = LOAD_BUSY;
  bool ok = try_load(path, "given to cn_backend_load_plugin");
  /* An explicit load counts as the one attempt; a failed one leaves the
   * default search as it was, so it can still run later. */
  g_load_state = ok ? LOAD_DONE : saved;
  cn_status st = CN_OK;
  if (!ok)
    st = cn_error(CN_ERR_DEVICE, "cn_backend_load_plugin: %s", g_reason);
  pthread_mutex_unlock(&g_lock);
  return st;
}

int32_t cn_device_count(void) {
  const cn_backend *c = cuda_or_null();
  if (c == NULL)
    return 0;
  int32_t n = c->device->device_count();
  return n < 0 ? 0 : n;
}

cn_status cn_backend_canonical_name(const char **out, const char *name) {
  CN_CHECK_OUT(out, "cn_backend_canonical_name");
  backend_name n = NAME_UNKNOWN; /* set by check_name on success */
  cn_status st = check_name(&n, name, "cn_backend_canonical_name");
  if (st != CN_OK)
    return st;
  *out = canonical(n);
  return CN_OK;
}

int32_t cn_backend_alias_count(void) {
  return (int32_t)(sizeof g_names / sizeof g_names[0]);
}

const char *cn_backend_alias(int32_t i) {
  if (i < 0 || i >= cn_backend_alias_count())
    return NULL;
  return g_names[i].name;
}

/* ---- slots ------------------------------------------------------------ */

const void *cn_backend_get_proc(const cn_backend *be, const char *name) {
  if (be == NULL || name == NULL || be->device->get_proc == NULL)
    return NULL;
  return be->device->get_proc(name);
}

cn_status cn_slot_unsupported(const char *fn, const cn_backend *be,
                              const char *slot) {
  return cn_error(CN_ERR_UNSUPPORTED,
                  "%s: not supported on the '%s' backend (no '%s' kernel)", fn,
                  be->name, slot);
}

cn_status cn_same_device(int32_t n, const cn_array_s *const *arrs,
                         const char *fn) {
  for (int32_t i = 1; i < n; i++) {
    if (arrs[i]->buf->backend != arrs[0]->buf->backend ||
        arrs[i]->buf->device_id != arrs[0]->buf->device_id)
      return cn_error(CN_ERR_DEVICE,
                      "%s: arrays are on different devices (%s:%d and %s:%d)",
                      fn, arrs[0]->buf->backend->name,
                      (int)arrs[0]->buf->device_id, arrs[i]->buf->backend->name,
                      (int)arrs[i]->buf->device_id);
  }
  return CN_OK;
}

/* Test hook, exported but declared in no header: forgets the selection,
 * the stack, the reason and the loaded plugin (its code stays mapped,
 * since arrays made by it may still exist), so that the next call reads the
 * environment and searches for the plugin again. Only for single-threaded
 * test programs: tests/test_backend.cpp declares it itself. */
CN_API void cn__backend_reset_for_tests(void);
void cn__backend_reset_for_tests(void) {
  pthread_mutex_lock(&g_lock);
  atomic_store(&g_env_done, false);
  atomic_store(&g_active, NULL);
  atomic_store(&g_cuda, NULL);
  atomic_store(&g_cuda_table, NULL);
  g_load_state = LOAD_NOT_TRIED;
  g_stack_len = 0;
  g_reason[0] = 0;
  g_env_note[0] = 0;
  g_plugin_path[0] = 0;
  g_plugin_versions[0] = 0;
  pthread_mutex_unlock(&g_lock);
}
