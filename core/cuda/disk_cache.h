/* On-disk cache of compiled kernel images (core/cuda/disk_cache.c). */
#ifndef CUNUMPY_CUDA_DISK_CACHE_H
#define CUNUMPY_CUDA_DISK_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CN_CU_FNV_INIT 0xcbf29ce484222325ull
/* 64-bit FNV-1a of n bytes, continuing from h (start with CN_CU_FNV_INIT). */
uint64_t cn_cu_fnv1a(const void *p, size_t n, uint64_t h);
/* The cache directory ($CUNUMPY_KERNEL_CACHE, else
 * $XDG_CACHE_HOME/cunumpy/kernels, else ~/.cache/cunumpy/kernels), created
 * if needed. false when there is none or CUNUMPY_KERNEL_CACHE is "off". */
bool cn_cu_cache_dir(char *dir, size_t cap);
/* The image stored at path for a source of hash src_hash (malloc, caller
 * frees; *size its bytes), or NULL when missing, stale or corrupt. */
char *cn_cu_cache_read(const char *path, uint64_t src_hash, size_t *size);
/* Stores an image atomically; failures are ignored (the cache is a cache). */
void cn_cu_cache_write(const char *path, uint64_t src_hash, const char *img,
                       size_t size);

#ifdef __cplusplus
}
#endif
#endif
