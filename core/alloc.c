/* The engine's host allocator and its allocation-failure hook.
 *
 * The hook fails exactly one allocation, the Nth one counted from when it
 * was armed (process start for CUNUMPY_FAULT_ALLOC=N, or the call to
 * cn_debug_fault_alloc), so that a test can walk every allocation point of
 * a workload and check that each failure is reported and cleaned up. */
#include <stdlib.h>

#include "alloc.h"

_Atomic int64_t cn_alloc_fault_at = 0;
static _Atomic int64_t g_alloc_count = 0;

__attribute__((constructor)) static void alloc_read_env(void) {
  const char *e = getenv("CUNUMPY_FAULT_ALLOC");
  if (e != NULL && *e) {
    char *end;
    long long n = strtoll(e, &end, 10);
    if (end != e && n > 0)
      cn_debug_fault_alloc((int64_t)n);
  }
}

bool cn_alloc_fault_tick(void) {
  int64_t at = atomic_load_explicit(&cn_alloc_fault_at, memory_order_relaxed);
  int64_t k = atomic_fetch_add_explicit(&g_alloc_count, 1,
                                        memory_order_relaxed) + 1;
  return at != 0 && k == at;
}

void cn_debug_fault_alloc(int64_t n) {
  atomic_store(&cn_alloc_fault_at, 0);
  atomic_store(&g_alloc_count, 0);
  atomic_store(&cn_alloc_fault_at, n > 0 ? n : 0);
}

int64_t cn_debug_alloc_count(void) { return atomic_load(&g_alloc_count); }

void *cn_malloc(size_t nbytes) {
  return cn_alloc_should_fail() ? NULL : malloc(nbytes);
}

void *cn_calloc(size_t count, size_t size) {
  return cn_alloc_should_fail() ? NULL : calloc(count, size);
}

void *cn_realloc(void *p, size_t nbytes) {
  return cn_alloc_should_fail() ? NULL : realloc(p, nbytes);
}

void *cn_aligned_alloc(size_t align, size_t nbytes) {
  /* aligned_alloc wants a size that is a multiple of the alignment. */
  size_t n = (nbytes + align - 1) / align * align;
  return cn_alloc_should_fail() ? NULL : aligned_alloc(align, n ? n : align);
}
