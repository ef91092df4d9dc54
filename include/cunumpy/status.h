/* cunumpy/status.h: status codes and the thread-local last-error message. */
#ifndef CUNUMPY_STATUS_H
#define CUNUMPY_STATUS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define CN_API __declspec(dllexport)
#else
#define CN_API __attribute__((visibility("default")))
#endif

/* The one table of status codes: (name, value, description). It generates the
 * enum below, cn_status_name(), and the constants of every binding. Values
 * never change once published. */
#define CN_STATUS_TABLE(X)                                                     \
  X(CN_OK, 0, "success")                                                       \
  X(CN_ERR_VALUE, 1, "invalid value")                                          \
  X(CN_ERR_TYPE, 2, "invalid or unsupported dtype")                            \
  X(CN_ERR_INDEX, 3, "index out of range")                                     \
  X(CN_ERR_SHAPE, 4, "incompatible shapes")                                    \
  X(CN_ERR_MEMORY, 5, "out of memory")                                         \
  X(CN_ERR_DEVICE, 6, "device mismatch or device unavailable")                 \
  X(CN_ERR_UNSUPPORTED, 7, "operation not supported")                          \
  X(CN_ERR_BACKEND, 8, "a backend library call failed")                        \
  X(CN_ERR_INTERNAL, 9, "internal error")                                      \
  X(CN_ERR_LINALG, 10,                                                         \
    "linear-algebra failure: singular matrix, no convergence, not positive "   \
    "definite")                                                                \
  X(CN_ERR_OVERFLOW, 11, "value out of range of the dtype")                   \
  X(CN_ERR_ZERO_DIVISION, 12, "division by zero (weights that sum to zero)")  \
  X(CN_ERR_AXIS, 13, "axis out of bounds for the array's dimension")

typedef enum cn_status {
#define CN_STATUS_ENUM_(name, value, desc) name = value,
  CN_STATUS_TABLE(CN_STATUS_ENUM_)
#undef CN_STATUS_ENUM_
  CN_STATUS_FORCE_INT32_ = 0x7fffffff
} cn_status;

/* Name of a status code ("CN_ERR_VALUE"); "CN_UNKNOWN_STATUS" for others.
 * The string is static. */
CN_API const char *cn_status_name(cn_status status);

/* One-line description of a status code; static string. */
CN_API const char *cn_status_description(cn_status status);

/* Message of the calling thread's most recent failing call, or "" if none.
 * Owned by the library; valid until this thread's next failing call. */
CN_API const char *cn_last_error(void);

/* Status of the calling thread's most recent failing call (CN_OK if none). */
CN_API cn_status cn_last_status(void);

/* Copies the last-error message into buf (capacity cap, always
 * NUL-terminated when cap > 0, truncated if needed). Returns the full length
 * of the message, so callers can detect truncation. */
CN_API int64_t cn_last_error_copy(char *buf, int64_t cap);

/* Clears the calling thread's last error. */
CN_API void cn_clear_error(void);

/* The engine's log channel. CUNUMPY_DEBUG sets its level: unset, "" or "0"
 * none; "1" (or any text that is not a digit) CN_LOG_ERROR: every failing
 * call's status and message (and, on CUDA, a synchronize after each launch
 * so a fault names its kernel); "2" also CN_LOG_INFO: one-off work slower
 * than CUNUMPY_SLOW_LOG_SECONDS (default 1: FFTW planning, NVRTC
 * compiles); "3" also CN_LOG_DEBUG. Records go to stderr ("cunumpy: LEVEL: text") up to that
 * level, or to the handler of cn_set_log_handler, which also gets every
 * CN_LOG_INFO record whatever the level. */
#define CN_LOG_ERROR 1
#define CN_LOG_INFO 2
#define CN_LOG_DEBUG 3
/* A log handler: level, the record's text (valid during the call), user.
 * It may be called from any thread, with engine locks held: it must not
 * call back into cunumpy. */
typedef void (*cn_log_fn)(int32_t level, const char *text, void *user);
/* Sends the log channel's records to fn (with user) instead of stderr;
 * NULL restores stderr. Process-wide. */
CN_API void cn_set_log_handler(cn_log_fn fn, void *user);
/* The level CUNUMPY_DEBUG set (0 to 3, read once). */
CN_API int32_t cn_log_level(void);

/* Library version string ("0.1.0") and the ABI version the library exports. */
#define CUNUMPY_VERSION_MAJOR 0
#define CUNUMPY_VERSION_MINOR 1
#define CUNUMPY_VERSION_PATCH 0
#define CUNUMPY_ABI_VERSION 2
CN_API const char *cn_version(void);
CN_API int32_t cn_abi_version(void);

#ifdef __cplusplus
}
#endif
#endif
