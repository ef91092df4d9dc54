/* libFuzzer harness for cn_einsum's subscript parser and planner: 1-3
 * small float64 operands (arange, extents 0-4) and a subscript string from
 * the input. Input: operand count, per operand ndim and extents, then the
 * subscripts (at most 96 bytes, cut at the first NUL). Checked: every
 * rejection carries a message, an accepted result has consistent metadata
 * and its elements can be read. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_in in = {data, size};
  int32_t nops = 1 + fz_small(&in, 3);
  cn_array ops[3] = {NULL, NULL, NULL};
  int ok = 1;
  for (int32_t k = 0; k < nops; k++) {
    int32_t nd = fz_small(&in, 5);
    int64_t shape[4], n = 1;
    for (int32_t i = 0; i < nd; i++) {
      shape[i] = fz_small(&in, 5);
      n *= shape[i];
    }
    cn_array flat = NULL;
    if (ok && cn_arange(&flat, 0, (double)n, 1, CN_FLOAT64) == CN_OK) {
      if (cn_reshape(&ops[k], flat, nd, shape, CN_ORDER_C) != CN_OK)
        ok = 0;
      cn_array_release(flat);
    } else
      ok = 0;
  }
  char subs[97];
  size_t len = in.n < 96 ? in.n : 96;
  memcpy(subs, in.p, len);
  subs[len] = '\0';
  if (ok) {
    cn_array out = NULL;
    cn_status st = cn_einsum(&out, subs, nops, ops);
    fz_check_error(st);
    if (st == CN_OK) {
      int32_t nd;
      int64_t sh[CN_MAX_DIMS], stv[CN_MAX_DIMS], item;
      int64_t n = fz_check_meta(out, &nd, sh, stv, &item);
      fz_read_all(out, n, item, 1 << 16);
      cn_array_release(out);
    }
  }
  cn_clear_error();
  for (int32_t k = 0; k < nops; k++)
    cn_array_release(ops[k]);
  return 0;
}
