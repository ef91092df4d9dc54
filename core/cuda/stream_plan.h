/* How the stream numbers of the interchange protocols (DLPack's
 * __dlpack__(stream=...) and the CUDA Array Interface's "stream") and the
 * per-thread-default-stream environment switch are read. Plain C with no
 * CUDA headers, so that the rules are unit-tested on machines without CUDA;
 * stream.c turns the kinds into cudaStream_t values. */
#ifndef CN_CUDA_STREAM_PLAN_H
#define CN_CUDA_STREAM_PLAN_H

#include <stdint.h>

typedef enum {
  CN_CU_STREAM_NO_SYNC,    /* -1: the consumer asks for no synchronisation */
  CN_CU_STREAM_LEGACY,     /* 1: the legacy default stream */
  CN_CU_STREAM_PER_THREAD, /* 2: the per-thread default stream */
  CN_CU_STREAM_HANDLE,     /* > 2: a cudaStream_t of the consumer */
  CN_CU_STREAM_INVALID     /* 0 (ambiguous for CUDA) and anything below -1 */
} cn_cu_stream_kind;

/* What a DLPack consumer's stream number (CUDA conventions) names. */
cn_cu_stream_kind cn_cu_stream_arg_kind(int64_t value);

/* The protocols' number for a stream of the given kind: 1, 2 or handle
 * (handle is used only for CN_CU_STREAM_HANDLE); -1 for NO_SYNC and 0 for
 * INVALID. */
int64_t cn_cu_stream_number(cn_cu_stream_kind kind, uintptr_t handle);

/* Value of an on/off environment switch read from `ours` first and
 * `fallback` (the CuPy name) when ours is unset: a decimal integer, non-zero
 * meaning on. Unset (NULL), empty or non-integer text counts as unset, so a
 * malformed CUNUMPY_ value falls back to the CuPy one; 0 when both are
 * unset. */
int cn_cu_env_switch(const char *ours, const char *fallback);

#endif
