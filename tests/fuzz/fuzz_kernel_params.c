/* libFuzzer harness for the custom-kernel parameter grammar
 * (core/kernel_params.c): the input is cut at the first two NUL bytes into
 * in_params, out_params and a reduce_type (each at most 160 bytes). Both an
 * elementwise and a reduction kernel are created from them; every
 * rejection must carry a message, an accepted kernel reports consistent
 * counts and generates C and CUDA source for float64 arguments (nothing
 * is compiled). */
#include "fuzz_input.h"

#include "cunumpy/kernel.h"

static size_t take_text(char *dst, const uint8_t **p, size_t *n) {
  size_t len = 0;
  while (len < *n && (*p)[len] != 0 && len < 160)
    len++;
  memcpy(dst, *p, len);
  dst[len] = 0;
  size_t used = len < *n ? len + 1 : len;
  *p += used;
  *n -= used;
  return len;
}

static void check_kernel(cn_kernel k) {
  int32_t nin = -1, nout = -1;
  if (cn_kernel_nin(&nin, k) != CN_OK || cn_kernel_nout(&nout, k) != CN_OK ||
      nin < 0 || nout < 0 || nin + nout > CN_KERNEL_MAX_PARAMS)
    __builtin_trap();
  cn_array args[CN_KERNEL_MAX_PARAMS];
  cn_array zero = NULL;
  if (cn_from_scalar(&zero, cn_scalar_float(1.0), CN_FLOAT64) != CN_OK)
    return;
  for (int32_t i = 0; i < nin; i++)
    args[i] = zero;
  for (int32_t backend = 0; backend < 2; backend++) {
    int64_t len = 0;
    char buf[64];
    cn_status st = cn_kernel_source(buf, sizeof buf, &len, k, backend, nin,
                                    args);
    fz_check_error(st);
    if (st == CN_OK && (len <= 0 || strlen(buf) >= sizeof buf))
      __builtin_trap();
  }
  cn_array_release(zero);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char in_params[161], out_params[161], reduce_type[161];
  take_text(in_params, &data, &size);
  take_text(out_params, &data, &size);
  take_text(reduce_type, &data, &size);
  cn_kernel k = NULL;
  cn_status st = cn_elementwise_kernel_create(&k, in_params, out_params,
                                              "", "fz", NULL, NULL, NULL,
                                              NULL);
  fz_check_error(st);
  if (st == CN_OK) {
    check_kernel(k);
    cn_kernel_release(k);
  } else if (k != NULL) {
    __builtin_trap();
  }
  k = NULL;
  st = cn_reduction_kernel_create(&k, in_params, out_params, "0", "a + b",
                                  "", "0", "fzr", reduce_type, NULL, NULL);
  fz_check_error(st);
  if (st == CN_OK) {
    check_kernel(k);
    cn_kernel_release(k);
  } else if (k != NULL) {
    __builtin_trap();
  }
  cn_clear_error();
  return 0;
}
