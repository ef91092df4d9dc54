/* libFuzzer harness for the expression parser and type checker
 * (cunumpy/expr.h): the input is the expression text. It is parsed, then
 * compiled for names a, b (float64, 1-d) and c (int32, 2-d) and, when it
 * compiles, evaluated on small arrays; every step may refuse with a status,
 * none may crash, leak or read out of bounds (ASan and UBSan watch). */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096)
    return 0;
  char *text = malloc(size + 1);
  if (text == NULL)
    return 0;
  memcpy(text, data, size);
  text[size] = 0; /* an embedded NUL ends the text, as in C */
  cn_expr e = NULL;
  if (cn_expr_parse(&e, text) == CN_OK) {
    int32_t n = -1;
    FZ_CHECK(cn_expr_variable_count(&n, e) == CN_OK && n >= 0,
             "variable count");
    for (int32_t i = 0; i < n; i++) {
      const char *name = NULL;
      FZ_CHECK(cn_expr_variable_name(&name, e, i) == CN_OK && name != NULL,
               "variable name");
    }
    cn_expr_release(e);
  }
  const char *names[3] = {"a", "b", "c"};
  const cn_dtype dts[3] = {CN_FLOAT64, CN_FLOAT64, CN_INT32};
  const int32_t nds[3] = {1, 1, 2};
  e = NULL;
  if (cn_expr_compile(&e, text, 3, names, dts, nds) == CN_OK) {
    cn_dtype rd;
    FZ_CHECK(cn_expr_result_dtype(&rd, e) == CN_OK && cn_dtype_is_valid(rd),
             "result dtype");
    int64_t s1[1] = {3}, s2[2] = {2, 3};
    cn_array in[3] = {NULL, NULL, NULL}, r = NULL;
    if (cn_arange(&in[0], 0, 3, 1, CN_FLOAT64) == CN_OK &&
        cn_full(&in[1], 1, s1, cn_scalar_float(0.5), CN_FLOAT64,
                CN_ORDER_C) == CN_OK &&
        cn_full(&in[2], 2, s2, cn_scalar_int(2), CN_INT32, CN_ORDER_C) ==
            CN_OK &&
        cn_expr_evaluate(&r, e, 3, in, NULL, CN_CAST_SAFE) == CN_OK) {
      cn_dtype got;
      FZ_CHECK(cn_array_dtype(&got, r) == CN_OK && got == rd,
               "result dtype matches");
    }
    cn_array_release(r);
    for (int i = 0; i < 3; i++)
      cn_array_release(in[i]);
    cn_expr_release(e);
  }
  free(text);
  return 0;
}
