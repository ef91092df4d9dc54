/* cunumpy/expr.h: expressions compiled once and evaluated many times
 * (numexpr's evaluate, the engine of Python's xp.evaluate and xp.fuse).
 *
 * Syntax (numexpr's, which is Python's expression syntax):
 *   names          bound to input arrays by cn_expr_compile
 *   literals       Python scalars: 3, 0x1f, 2.5, 1e-3, 2j, 1.5j, True, False.
 *                  Numbers are weak (NEP 50): float32 x * 2.0 is float32.
 *   operators      + - * / // % ** unary - + ~, << >>, & | ^ (logical on
 *                  bool, bitwise on integers), < <= > >= == != (no chains),
 *                  with Python's precedence (-x**2 is -(x**2)).
 *   functions      every op of cn_op_name by name with its arity: sin(x),
 *                  arctan2(y, x), clip(x, lo, hi); where(cond, x, y) (cond
 *                  is taken by truth value); aliases absolute, conjugate,
 *                  mod, pow, true_divide, invert, bitwise_not.
 *   casts          a dtype name as a function converts as astype does
 *                  (unsafe casting): float32(x), int64(x), bool(x),
 *                  complex128(x), and so on for every cn_dtype_name.
 *   one reduction  sum, prod, min, max, any or all as the outermost call:
 *                  sum(expr), sum(expr, axis=1), max(expr, axis=(0, 2),
 *                  keepdims=True), sum(expr, 0); axis=None is every axis.
 * Dtypes follow the ufuncs exactly (cunumpy/ufunc.h): the op's loops, the
 * promotion table with weak scalars, the ufuncs' rules for a weak integer
 * out of range of an integer operand. Operators on Python scalars give
 * Python scalars (weak: 2 * 3.0 is a weak 6.0); a function call or where
 * on them gives a strong value, as NumPy's ufuncs return NumPy scalars.
 * sum and prod accumulate bool and signed integers in int64 and unsigned in
 * uint64, as cn_sum. Powers by a literal run as the ufuncs' scalar
 * exponent shortcuts (x**2 is square, x**0.5 sqrt, x**-1 reciprocal, x**0
 * ones); a float x ** n with a literal integer n in [3, 16] is repeated
 * multiplication (numexpr's rule: within a few ulp of pow, not always
 * bit-equal to cn_power). Literal subexpressions are computed once per block
 * (no constant folding beyond a leading minus).
 */
#ifndef CUNUMPY_EXPR_H
#define CUNUMPY_EXPR_H

#include "cunumpy/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A parsed (and, after cn_expr_compile, typed) expression program. */
typedef struct cn_expr_s *cn_expr;

/* Parses text without binding names: the handle answers
 * cn_expr_variable_count / cn_expr_variable_name, not evaluate.
 * CN_ERR_VALUE for a NULL text or out, a syntax error ("column N: ..."),
 * an unknown function, a wrong argument count or an unsupported construct
 * (Python keywords, chained comparisons, a reduction not outermost);
 * CN_ERR_MEMORY. On success *out is a new handle (cn_expr_release). */
CN_API cn_status cn_expr_parse(cn_expr *out, const char *text);

/* Number of distinct names the expression reads (functions excluded).
 * CN_ERR_VALUE for a NULL handle or out. */
CN_API cn_status cn_expr_variable_count(int32_t *out, cn_expr e);

/* The i-th name the expression reads, in order of first appearance; the
 * string is owned by e. CN_ERR_VALUE for NULL arguments, CN_ERR_INDEX for
 * i out of range. */
CN_API cn_status cn_expr_variable_name(const char **out, cn_expr e,
                                       int32_t i);

/* Parses and type-checks text for nin inputs named names[i] with dtypes[i]
 * and ndims[i] (the arrays later given to cn_expr_evaluate in this order;
 * every one of them broadcasts into the result, used or not). Errors as
 * cn_expr_parse, plus CN_ERR_VALUE for an unbound or repeated name, NULL
 * lists or nin < 0, CN_ERR_TYPE when no loop takes the dtypes, an invalid
 * dtype, CN_ERR_AXIS for a reduction axis outside the broadcast ndim,
 * CN_ERR_OVERFLOW for a weak integer out of range (see above). On success
 * *out is a new handle. */
CN_API cn_status cn_expr_compile(cn_expr *out, const char *text, int32_t nin,
                                 const char *const *names,
                                 const cn_dtype *dtypes,
                                 const int32_t *ndims);

/* Dtype of the result of a compiled expression. CN_ERR_VALUE for a NULL
 * argument or a handle from cn_expr_parse. */
CN_API cn_status cn_expr_result_dtype(cn_dtype *out, cn_expr e);

/* Evaluates compiled e over inputs[0..nin) (dtypes and ndims as compiled,
 * any strides, broadcasting against each other), fused: one pass block by
 * block on the CPU, one generated kernel on CUDA (a program it has no kernel
 * for runs one op at a time). dst may be NULL (a new array on the inputs'
 * device) or a writeable array of the result's shape whose dtype the result
 * casts to under `casting`. On success *out is a new reference (to dst when given).
 * Errors: CN_ERR_VALUE for NULL or released handles, nin different from
 * the compiled count, a read-only dst, an integer power with a negative
 * exponent, an empty min/max; CN_ERR_TYPE for an input whose dtype differs
 * from the compiled one, or a dst the casting rule refuses; CN_ERR_SHAPE
 * for an ndim that differs, shapes that do not broadcast or a dst of
 * another shape; CN_ERR_DEVICE for operands on different devices;
 * CN_ERR_MEMORY. Nothing is written on failure but dst (partly, for an
 * error found while computing). */
CN_API cn_status cn_expr_evaluate(cn_array *out, cn_expr e, int32_t nin,
                                  const cn_array *inputs, cn_array dst,
                                  cn_casting casting);

/* Parses, compiles and evaluates text in one call (no handle kept): names
 * bound to inputs' dtypes and ndims. Errors of the two steps. */
CN_API cn_status cn_evaluate(cn_array *out, const char *text, int32_t nin,
                             const char *const *names, const cn_array *inputs,
                             cn_array dst);

/* Frees a handle; NULL is a no-op. */
CN_API void cn_expr_release(cn_expr e);

#ifdef __cplusplus
}
#endif

#endif
