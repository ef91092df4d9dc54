/* Status names, the thread-local last error and the log channel. */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

#define CN_ERRBUF 1024

static _Thread_local char tl_msg[CN_ERRBUF];
static _Thread_local cn_status tl_status = CN_OK;

const char *cn_status_name(cn_status status) {
  switch (status) {
#define CN_STATUS_NAME_(name, value, desc)                                     \
  case name:                                                                   \
    return #name;
    CN_STATUS_TABLE(CN_STATUS_NAME_)
#undef CN_STATUS_NAME_
  default:
    return "CN_UNKNOWN_STATUS";
  }
}

const char *cn_status_description(cn_status status) {
  switch (status) {
#define CN_STATUS_DESC_(name, value, desc)                                     \
  case name:                                                                   \
    return desc;
    CN_STATUS_TABLE(CN_STATUS_DESC_)
#undef CN_STATUS_DESC_
  default:
    return "unknown status";
  }
}

/* ---- the log channel --------------------------------------------------- */

static pthread_once_t g_log_once = PTHREAD_ONCE_INIT;
static _Atomic int g_log_level;
static pthread_mutex_t g_log_lock = PTHREAD_MUTEX_INITIALIZER;
static cn_log_fn g_log_fn;
static void *g_log_user;
static _Atomic bool g_log_has_fn;

static void log_init(void) {
  const char *d = getenv("CUNUMPY_DEBUG");
  int level = 0;
  if (d != NULL && d[0] != 0)
    level = (d[0] >= '0' && d[0] <= '9') ? atoi(d) : CN_LOG_ERROR;
  atomic_store(&g_log_level, level < 0 ? 0 : level > 3 ? 3 : level);
}

int32_t cn_log_level(void) {
  pthread_once(&g_log_once, log_init);
  return atomic_load(&g_log_level);
}

void cn_set_log_handler(cn_log_fn fn, void *user) {
  pthread_mutex_lock(&g_log_lock);
  g_log_fn = fn;
  g_log_user = user;
  atomic_store(&g_log_has_fn, fn != NULL);
  pthread_mutex_unlock(&g_log_lock);
}

static void log_text(int32_t level, const char *text) {
  pthread_mutex_lock(&g_log_lock);
  cn_log_fn fn = g_log_fn;
  void *user = g_log_user;
  pthread_mutex_unlock(&g_log_lock);
  if (fn != NULL) {
    fn(level, text, user);
  } else if (level <= cn_log_level()) {
    static const char *const names[] = {"", "ERROR", "INFO", "DEBUG"};
    fprintf(stderr, "cunumpy: %s: %s\n", names[level], text);
  }
}

/* Whether a record of level goes anywhere. */
static bool log_wanted(int32_t level) {
  if (level < CN_LOG_ERROR || level > CN_LOG_DEBUG)
    return false;
  return level <= cn_log_level() ||
         (level == CN_LOG_INFO && atomic_load(&g_log_has_fn));
}

void cn_log_record(int32_t level, const char *fmt, ...) {
  if (!log_wanted(level))
    return;
  char text[CN_ERRBUF];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  log_text(level, text);
}

static pthread_once_t g_slow_once = PTHREAD_ONCE_INIT;
static double g_slow_seconds = 1.0;

static void slow_init(void) {
  const char *s = getenv("CUNUMPY_SLOW_LOG_SECONDS");
  char *end = NULL;
  double v = s && s[0] ? strtod(s, &end) : -1.0;
  if (end != NULL && *end == 0 && v >= 0.0)
    g_slow_seconds = v;
}

void cn_log_slow(double took, const char *fmt, ...) {
  pthread_once(&g_slow_once, slow_init);
  if (!(took > g_slow_seconds) || !log_wanted(CN_LOG_INFO))
    return;
  char text[CN_ERRBUF];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  log_text(CN_LOG_INFO, text);
}

double cn_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

cn_status cn_error(cn_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tl_msg, sizeof tl_msg, fmt, ap);
  va_end(ap);
  tl_status = status;
  if (CN_UNLIKELY(log_wanted(CN_LOG_ERROR)))
    cn_log_record(CN_LOG_ERROR, "%s: %s", cn_status_name(status), tl_msg);
  return status;
}

cn_status cn_error_prefix(cn_status status, const char *fn) {
  size_t n = strlen(fn);
  if (strncmp(tl_msg, fn, n) == 0 && tl_msg[n] == ':')
    return status;
  char tmp[CN_ERRBUF + 128];
  snprintf(tmp, sizeof tmp, "%.100s: %s", fn, tl_msg);
  tmp[CN_ERRBUF - 1] = '\0';
  memcpy(tl_msg, tmp, sizeof tl_msg);
  tl_status = status;
  return status;
}

const char *cn_last_error(void) { return tl_msg; }

cn_status cn_last_status(void) { return tl_status; }

int64_t cn_last_error_copy(char *buf, int64_t cap) {
  size_t len = strlen(tl_msg);
  if (buf != NULL && cap > 0) {
    size_t n = len < (size_t)(cap - 1) ? len : (size_t)(cap - 1);
    memcpy(buf, tl_msg, n);
    buf[n] = '\0';
  }
  return (int64_t)len;
}

void cn_clear_error(void) {
  tl_msg[0] = '\0';
  tl_status = CN_OK;
}

const char *cn_version(void) { return "0.1.0"; }

int32_t cn_abi_version(void) { return CUNUMPY_ABI_VERSION; }
