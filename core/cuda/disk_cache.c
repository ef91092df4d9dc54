/* The on-disk kernel cache: one file per compiled module, named by the
 * caller from the source hash, architecture and NVRTC version. A file holds
 * a header (magic, source hash, size, checksum) and the image; anything
 * that does not check out is ignored (and later overwritten). Writes go to
 * a temporary file renamed into place, so readers never see partial files.
 * No CUDA dependency (tested without a GPU). */
#include "disk_cache.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint64_t cn_cu_fnv1a(const void *p, size_t n, uint64_t h) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

bool cn_cu_cache_dir(char *dir, size_t cap) {
  const char *env = getenv("CUNUMPY_KERNEL_CACHE");
  int n;
  if (env != NULL && env[0] != 0) {
    if (strcmp(env, "off") == 0 || strcmp(env, "0") == 0)
      return false;
    n = snprintf(dir, cap, "%s", env);
  } else {
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (xdg != NULL && xdg[0] != 0)
      n = snprintf(dir, cap, "%s/cunumpy/kernels", xdg);
    else if (home != NULL && home[0] != 0)
      n = snprintf(dir, cap, "%s/.cache/cunumpy/kernels", home);
    else
      return false;
  }
  if (n <= 0 || (size_t)n >= cap)
    return false;
  /* mkdir -p */
  for (char *p = dir + 1; *p; p++) {
    if (*p == '/') {
      *p = 0;
      mkdir(dir, 0755);
      *p = '/';
    }
  }
  return mkdir(dir, 0755) == 0 || errno == EEXIST;
}

static const char k_magic[8] = {'C', 'N', 'K', 'C', 'A', 'C', 'H', '1'};

typedef struct {
  char magic[8];
  uint64_t src_hash, size, sum;
} cache_hdr;

char *cn_cu_cache_read(const char *path, uint64_t src_hash, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return NULL;
  cache_hdr h;
  char *buf = NULL;
  if (fread(&h, sizeof h, 1, f) == 1 && memcmp(h.magic, k_magic, 8) == 0 &&
      h.src_hash == src_hash && h.size > 0 && h.size < ((uint64_t)1 << 31)) {
    buf = malloc(h.size);
    if (buf != NULL && (fread(buf, 1, h.size, f) != h.size ||
                        cn_cu_fnv1a(buf, h.size, CN_CU_FNV_INIT) != h.sum ||
                        fgetc(f) != EOF)) {
      free(buf);
      buf = NULL;
    }
  }
  fclose(f);
  if (buf != NULL)
    *size = (size_t)h.size;
  return buf;
}

void cn_cu_cache_write(const char *path, uint64_t src_hash, const char *img,
                       size_t size) {
  char tmp[4200];
  if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%lx", path, (long)getpid(),
               (unsigned long)pthread_self()) >= (int)sizeof tmp)
    return;
  FILE *f = fopen(tmp, "wb");
  if (f == NULL)
    return;
  cache_hdr h;
  memcpy(h.magic, k_magic, 8);
  h.src_hash = src_hash;
  h.size = size;
  h.sum = cn_cu_fnv1a(img, size, CN_CU_FNV_INIT);
  bool ok = fwrite(&h, sizeof h, 1, f) == 1 && fwrite(img, 1, size, f) == size;
  ok = (fclose(f) == 0) && ok;
  if (!ok || rename(tmp, path) != 0)
    unlink(tmp);
}
