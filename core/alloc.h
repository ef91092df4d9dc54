/* The engine's host allocator: every malloc/calloc/realloc/aligned_alloc
 * the core makes goes through these, so that the allocation-failure hook
 * (cn_debug_fault_alloc, CUNUMPY_FAULT_ALLOC) sees each of them. Memory
 * they return is released with plain free(). Not installed. */
#ifndef CUNUMPY_ALLOC_H
#define CUNUMPY_ALLOC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* The allocation index that must fail (0: the hook is off). Read on every
 * allocation, so the off case is one relaxed load. */
CN_INTERNAL extern _Atomic int64_t cn_alloc_fault_at;

/* Counts one allocation while the hook is armed; true when it is the one
 * that must fail. */
CN_INTERNAL bool cn_alloc_fault_tick(void);

/* True when the allocation about to be made must fail. For allocators
 * outside this file (the pool's mmap, headroom checks before a library
 * call that allocates on its own) so that the hook sees them too. */
static inline bool cn_alloc_should_fail(void) {
  return CN_UNLIKELY(atomic_load_explicit(&cn_alloc_fault_at,
                                          memory_order_relaxed) != 0) &&
         cn_alloc_fault_tick();
}

/* malloc, calloc, realloc and aligned_alloc with the hook in front; NULL
 * on failure (realloc then leaves p allocated, as realloc does). */
CN_INTERNAL void *cn_malloc(size_t nbytes);
CN_INTERNAL void *cn_calloc(size_t count, size_t size);
CN_INTERNAL void *cn_realloc(void *p, size_t nbytes);
CN_INTERNAL void *cn_aligned_alloc(size_t align, size_t nbytes);

#endif
