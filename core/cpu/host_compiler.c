/* The host C compiler for user kernels, and its cache of shared objects.
 *
 * The compiler is $CUNUMPY_CC (a path, or a name looked up on PATH), else
 * `cc`. An object is named by a 128-bit hash of its key: the source, the
 * compiler's resolved path, size and modification time (which stand for
 * its version, so that loading a cached object never runs the compiler),
 * and the flags. Objects live in $CUNUMPY_CPU_KERNEL_CACHE, else
 * $XDG_CACHE_HOME/cunumpy/cpu_kernels, else ~/.cache/cunumpy/cpu_kernels
 * ("off" or "0": a private temporary folder, removed after loading). A
 * process writes an object under a unique temporary name and renames it
 * into place, so concurrent processes never see a partial file; every
 * object carries its key hash as a symbol, checked after dlopen, so a
 * corrupt or foreign file is rebuilt instead of used. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kernel_program.h"

extern char **environ;

#define BASE_FLAGS "-O2 -fPIC -shared -std=gnu11 -fno-math-errno"

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int64_t g_compiled, g_disk_hits, g_in_memory;

typedef struct loaded {
  char name[33];
  void *handle;
  struct loaded *next;
} loaded;
static loaded *g_loaded;

void cn_host_compile_counters(int64_t *compiled, int64_t *disk_hits,
                              int64_t *in_memory) {
  *compiled = g_compiled;
  *disk_hits = g_disk_hits;
  *in_memory = g_in_memory;
}

void *cn_host_symbol(void *handle, const char *symbol) {
  return dlsym(handle, symbol);
}

static uint64_t fnv1a(const void *p, size_t n, uint64_t h) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

/* The compiler's resolved path; CN_ERR_UNSUPPORTED when there is none. */
static cn_status find_compiler(char *path, size_t cap, struct stat *sb,
                               const char *name) {
  const char *env = getenv("CUNUMPY_CC");
  const char *want = (env != NULL && env[0] != 0) ? env : "cc";
  char cand[PATH_MAX];
  bool found = false;
  if (strchr(want, '/') != NULL) {
    found = access(want, X_OK) == 0 &&
            snprintf(cand, sizeof cand, "%s", want) < (int)sizeof cand;
  } else {
    const char *pathv = getenv("PATH");
    if (pathv == NULL || pathv[0] == 0)
      pathv = "/usr/local/bin:/usr/bin:/bin";
    const char *p = pathv;
    while (!found && *p) {
      const char *e = strchr(p, ':');
      size_t len = e ? (size_t)(e - p) : strlen(p);
      if (len > 0 && len + strlen(want) + 2 < sizeof cand) {
        memcpy(cand, p, len);
        cand[len] = '/';
        strcpy(cand + len + 1, want);
        found = access(cand, X_OK) == 0;
      }
      p += len + (e ? 1 : 0);
    }
  }
  if (!found || realpath(cand, path) == NULL || stat(path, sb) != 0 ||
      strlen(path) >= cap)
    return cn_error(CN_ERR_UNSUPPORTED,
                    "cn_kernel: '%s': no C compiler to build the kernel for "
                    "the CPU: looked for '%s'%s; set CUNUMPY_CC to the path of "
                    "a C compiler (gcc or clang)",
                    name, want,
                    env != NULL && env[0] != 0 ? " (from CUNUMPY_CC)"
                                               : " on PATH");
  return CN_OK;
}

/* The cache folder (created), or false when caching is off or impossible. */
static bool cache_dir(char *dir, size_t cap) {
  const char *env = getenv("CUNUMPY_CPU_KERNEL_CACHE");
  int n;
  if (env != NULL && env[0] != 0) {
    if (strcmp(env, "off") == 0 || strcmp(env, "0") == 0)
      return false;
    n = snprintf(dir, cap, "%s", env);
  } else {
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (xdg != NULL && xdg[0] != 0)
      n = snprintf(dir, cap, "%s/cunumpy/cpu_kernels", xdg);
    else if (home != NULL && home[0] != 0)
      n = snprintf(dir, cap, "%s/.cache/cunumpy/cpu_kernels", home);
    else
      return false;
  }
  if (n <= 0 || (size_t)n >= cap)
    return false;
  for (char *p = dir + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      mkdir(dir, 0755);
      *p = '/';
    }
  if (mkdir(dir, 0755) != 0 && errno != EEXIST)
    return false;
  return access(dir, W_OK | X_OK) == 0;
}

/* dlopen path and check its key symbol; NULL when absent or not ours. */
static void *open_checked(const char *path, const char *name) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL)
    return NULL;
  const char *key = dlsym(h, CN_KERNEL_C_KEYSYM);
  if (key == NULL || strcmp(key, name) != 0) {
    dlclose(h);
    return NULL;
  }
  return h;
}

static char *read_log(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return NULL;
  char *buf = malloc(4097);
  size_t n = buf ? fread(buf, 1, 4096, f) : 0;
  fclose(f);
  if (buf)
    buf[n] = 0;
  return buf;
}

/* Splits the space-separated options into argv (at most 32 words). */
static int split_words(char *text, char **argv, int cap) {
  int n = 0;
  char *save = NULL;
  for (char *w = strtok_r(text, " \t\n", &save); w && n < cap;
       w = strtok_r(NULL, " \t\n", &save))
    argv[n++] = w;
  return n;
}

/* Compiles src_path to so_path; on failure an error with the log. */
static cn_status run_compiler(const char *cc, const char *src_path,
                              const char *so_path, const char *log_path,
                              const char *options, const char *name) {
  char flags[] = BASE_FLAGS;
  char *opt = strdup(options ? options : "");
  if (opt == NULL)
    return cn_error(CN_ERR_MEMORY, "cn_kernel: out of memory");
  char *argv[64];
  int n = 0;
  argv[n++] = (char *)cc;
  n += split_words(flags, argv + n, 8);
  n += split_words(opt, argv + n, 32);
  argv[n++] = "-o";
  argv[n++] = (char *)so_path;
  argv[n++] = (char *)src_path;
  argv[n++] = "-lm";
  argv[n] = NULL;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log_path,
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  pid_t pid;
  int rc = posix_spawn(&pid, cc, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  free(opt);
  if (rc != 0)
    return cn_error(CN_ERR_UNSUPPORTED,
                    "cn_kernel: '%s': cannot run the C compiler '%s': %s; set "
                    "CUNUMPY_CC to a working C compiler",
                    name, cc, strerror(rc));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return CN_OK;
  char *log = read_log(log_path);
  cn_status st = cn_error(CN_ERR_VALUE,
                          "cn_kernel: '%s' does not compile with %s:\n%s",
                          name, cc, log ? log : "(no compiler output)");
  free(log);
  return st;
}

static bool write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (f == NULL)
    return false;
  size_t n = strlen(text);
  bool ok = fwrite(text, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

cn_status cn_host_compile(void **handle, const char *source,
                          const char *options, const char *name) {
  char cc[PATH_MAX];
  struct stat sb;
  cn_status st = find_compiler(cc, sizeof cc, &sb, name);
  if (st != CN_OK)
    return st;
  /* The key. */
  char ident[PATH_MAX + 128];
  snprintf(ident, sizeof ident, "%s|%lld|%lld.%09ld|" BASE_FLAGS "|", cc,
           (long long)sb.st_size, (long long)sb.st_mtim.tv_sec,
           (long)sb.st_mtim.tv_nsec);
  const char *opt = options ? options : "";
  uint64_t h1 = 0xcbf29ce484222325ull, h2 = 0x84222325cbf29ce4ull;
  h1 = fnv1a(source, strlen(source), fnv1a(ident, strlen(ident), h1));
  h1 = fnv1a(opt, strlen(opt), h1);
  h2 = fnv1a(opt, strlen(opt), h2);
  h2 = fnv1a(ident, strlen(ident), fnv1a(source, strlen(source), h2));
  char key[33];
  snprintf(key, sizeof key, "%016llx%016llx", (unsigned long long)h1,
           (unsigned long long)h2);

  pthread_mutex_lock(&g_lock);
  for (loaded *e = g_loaded; e != NULL; e = e->next)
    if (strcmp(e->name, key) == 0) {
      *handle = e->handle;
      pthread_mutex_unlock(&g_lock);
      return CN_OK;
    }
  loaded *e = calloc(1, sizeof *e);
  if (e == NULL) {
    pthread_mutex_unlock(&g_lock);
    return cn_error(CN_ERR_MEMORY, "cn_kernel: out of memory");
  }
  char dir[PATH_MAX - 96];
  bool cached = cache_dir(dir, sizeof dir);
  if (!cached) {
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/cunumpy-kernel-XXXXXX",
             tmp && tmp[0] ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL) {
      free(e);
      pthread_mutex_unlock(&g_lock);
      return cn_error(CN_ERR_VALUE,
                      "cn_kernel: '%s': cannot make a temporary folder %s: %s",
                      name, dir, strerror(errno));
    }
  }
  char so[PATH_MAX], tmp_so[PATH_MAX], tmp_c[PATH_MAX], tmp_log[PATH_MAX];
  snprintf(so, sizeof so, "%s/%s.so", dir, key);
  void *h = cached ? open_checked(so, key) : NULL;
  if (h != NULL) {
    g_disk_hits++;
  } else {
    /* A unique temporary name per process and call. */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    unsigned long long uniq =
        ((unsigned long long)ts.tv_nsec ^ (unsigned long long)ts.tv_sec << 20) ^
        (unsigned long long)(uintptr_t)e;
    snprintf(tmp_c, sizeof tmp_c, "%s/%s.%ld.%llx.c", dir, key, (long)getpid(),
             uniq);
    snprintf(tmp_so, sizeof tmp_so, "%s/%s.%ld.%llx.so.tmp", dir, key,
             (long)getpid(), uniq);
    snprintf(tmp_log, sizeof tmp_log, "%s/%s.%ld.%llx.log", dir, key,
             (long)getpid(), uniq);
    cn_kstr full;
    cn_kstr_init(&full);
    cn_kstr_appendf(&full, "%s\nconst char " CN_KERNEL_C_KEYSYM "[] = \"%s\";\n",
                    source, key);
    if (full.oom) {
      st = cn_error(CN_ERR_MEMORY, "cn_kernel: out of memory");
    } else if (!write_file(tmp_c, full.text)) {
      st = cn_error(CN_ERR_VALUE, "cn_kernel: '%s': cannot write %s: %s", name,
                    tmp_c, strerror(errno));
    } else {
      st = run_compiler(cc, tmp_c, tmp_so, tmp_log, opt, name);
    }
    cn_kstr_free(&full);
    unlink(tmp_c);
    unlink(tmp_log);
    if (st == CN_OK) {
      if (rename(tmp_so, so) != 0)
        st = cn_error(CN_ERR_VALUE, "cn_kernel: '%s': cannot rename %s: %s",
                      name, tmp_so, strerror(errno));
    } else {
      unlink(tmp_so);
    }
    if (st == CN_OK) {
      h = open_checked(so, key);
      if (h == NULL)
        st = cn_error(CN_ERR_VALUE,
                      "cn_kernel: '%s': cannot load the compiled kernel %s: "
                      "%s",
                      name, so, dlerror());
      else
        g_compiled++;
    }
  }
  if (!cached) {
    unlink(so);
    rmdir(dir);
  }
  if (st != CN_OK) {
    free(e);
    pthread_mutex_unlock(&g_lock);
    return st;
  }
  memcpy(e->name, key, sizeof key);
  e->handle = h;
  e->next = g_loaded;
  g_loaded = e;
  g_in_memory++;
  pthread_mutex_unlock(&g_lock);
  *handle = h;
  return CN_OK;
}
