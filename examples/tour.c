/* A short tour of the engine from C (placeholder until ops land). */
#include <cunumpy/cunumpy.h>
#include <stdio.h>

int main(void) {
  printf("cunumpy %s, backend %s\n", cn_version(), cn_get_backend());
  return 0;
}
