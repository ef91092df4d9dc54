/* The protocols' stream numbers and the environment switch of
 * stream_plan.h: CUDA's conventions (DLPack and the CUDA Array Interface v3
 * agree), kept apart from stream.c so that they are tested without CUDA. */
#include "stream_plan.h"

#include <errno.h>
#include <stdlib.h>

cn_cu_stream_kind cn_cu_stream_arg_kind(int64_t value) {
  if (value == -1)
    return CN_CU_STREAM_NO_SYNC;
  if (value == 1)
    return CN_CU_STREAM_LEGACY;
  if (value == 2)
    return CN_CU_STREAM_PER_THREAD;
  if (value > 2)
    return CN_CU_STREAM_HANDLE;
  return CN_CU_STREAM_INVALID;
}

int64_t cn_cu_stream_number(cn_cu_stream_kind kind, uintptr_t handle) {
  switch (kind) {
  case CN_CU_STREAM_NO_SYNC:
    return -1;
  case CN_CU_STREAM_LEGACY:
    return 1;
  case CN_CU_STREAM_PER_THREAD:
    return 2;
  case CN_CU_STREAM_HANDLE:
    return (int64_t)handle;
  case CN_CU_STREAM_INVALID:
    break;
  }
  return 0;
}

/* 1 or 0 for an integer value, -1 for unset or malformed text. */
static int parse_switch(const char *text) {
  if (text == NULL || text[0] == '\0')
    return -1;
  char *end = NULL;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0')
    return -1;
  return v != 0;
}

int cn_cu_env_switch(const char *ours, const char *fallback) {
  int v = parse_switch(ours);
  if (v < 0)
    v = parse_switch(fallback);
  return v > 0;
}
