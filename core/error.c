/* Status names and the thread-local last error. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

cn_status cn_error(cn_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tl_msg, sizeof tl_msg, fmt, ap);
  va_end(ap);
  tl_status = status;
  if (CN_UNLIKELY(getenv("CUNUMPY_DEBUG") != NULL))
    fprintf(stderr, "cunumpy: %s: %s\n", cn_status_name(status), tl_msg);
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
