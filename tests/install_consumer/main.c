/* A tiny program built against an installed cunumpy. */
#include <cunumpy/cunumpy.h>
#include <stdio.h>

int main(void) {
  cn_array a = NULL;
  int64_t shape[1] = {4};
  if (cn_full(&a, 1, shape, cn_scalar_float(2.5), CN_FLOAT64, CN_ORDER_C) !=
      CN_OK) {
    fprintf(stderr, "%s\n", cn_last_error());
    return 1;
  }
  double v[4];
  cn_copy_to_buffer(v, sizeof v, a, CN_ORDER_C);
  cn_array_release(a);
  printf("consumer ok %g %s\n", v[3], cn_version());
  return v[3] == 2.5 ? 0 : 1;
}
