/* Prints the README's backend coverage table (markdown) from
 * cn_backend_supports, so that the README says what the backend tables
 * hold. Rows of consecutive capabilities with the same answers are merged.
 * Usage: backend_coverage [path/to/libcunumpy_cuda.so]; with a path the
 * CUDA plugin is loaded from it first (its table answers even without a
 * device). tests/backend_coverage.cmake compares the output with README.md. */
#include <stdio.h>
#include <string.h>

#include "cunumpy/cunumpy.h"

static const char *word(int32_t s) {
  return s == CN_SUPPORT_NATIVE ? "native"
         : s == CN_SUPPORT_HOST ? "through host memory"
                                : "-";
}

int main(int argc, char **argv) {
  if (argc > 1)
    (void)cn_backend_load_plugin(argv[1]); /* no device: refused, table read */
  static const char *const backends[] = {"cpu", "cuda"};
  printf("<!-- backend coverage: printed by tests/backend_coverage.c; ctest "
         "backend_coverage_readme checks it -->\n");
  printf("| capability (cn_backend_supports) | cpu | cuda |\n");
  printf("|---|---|---|\n");
  char names[2048] = "";
  int32_t prev[2] = {-1, -1};
  for (int32_t i = 0;; i++) {
    const char *what = cn_backend_capability(i);
    int32_t s[2] = {-2, -2};
    for (int b = 0; what && b < 2; b++)
      if (cn_backend_supports(&s[b], backends[b], what) != CN_OK) {
        fprintf(stderr, "backend_coverage: %s\n", cn_last_error());
        return 1;
      }
    if (names[0] && (what == NULL || s[0] != prev[0] || s[1] != prev[1])) {
      printf("| %s | %s | %s |\n", names, word(prev[0]), word(prev[1]));
      names[0] = 0;
    }
    if (what == NULL)
      break;
    size_t len = strlen(names);
    snprintf(names + len, sizeof names - len, "%s`%s`", len ? ", " : "", what);
    prev[0] = s[0];
    prev[1] = s[1];
  }
  printf("<!-- end of backend coverage -->\n");
  return 0;
}
