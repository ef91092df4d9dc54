/* CPU elementwise engine internals: the per-dtype kernel tables generated
 * from core/ops.def (core/cpu/elementwise_<dtype>.c) and the SLEEF vector
 * kernels (core/cpu/elementwise_sleef*.c). */
#ifndef CUNUMPY_CPU_ELEMENTWISE_H
#define CUNUMPY_CPU_ELEMENTWISE_H

#include "cpu.h"
#include "dtypes.h"

/* Precedes a loop whose iterations are independent (outputs alias inputs
 * only exactly), so the vectoriser need not prove it: gcc's ivdep, clang's
 * assume_safety. */
#if defined(__clang__)
#define CN_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#else
#define CN_IVDEP _Pragma("GCC ivdep")
#endif

/* A 1-d loop over n elements: p[0] is the output, p[1..nin] the inputs,
 * s[] their strides in bytes (any sign, 0 for a broadcast operand). The
 * output may alias an input exactly (same address and stride). */
typedef void (*cn_ew_kernel)(int64_t n, char *const *p, const int64_t *s);

#define CN_EW_TABLE_DECL_(sfx, ctype, cls, dt)                                 \
  CN_INTERNAL extern const cn_ew_kernel cn_ew_kernels_##sfx[CN_OP_COUNT_];
CN_CPU_DTYPES(CN_EW_TABLE_DECL_)
#undef CN_EW_TABLE_DECL_
/* float16's table: only the ops cn_op_float16_loop names (the others
 * compute float16 in float32), NULL elsewhere. */
CN_INTERNAL extern const cn_ew_kernel cn_ew_kernels_f16[CN_OP_COUNT_];
/* The kernel computing float16 operands of op in float32 a block at a time
 * and rounding each result to float16 (bool results as they are); NULL for
 * the ops without a float32 loop and those of cn_ew_kernels_f16. */
CN_INTERNAL cn_ew_kernel cn_ew_f16_via_f32_kernel(int32_t op);

/* SLEEF kernel tables by op id (NULL where an op has none), float64 (_d)
 * and float32 (_f), from core/cpu/elementwise_sleef_<isa>.c; only
 * cn_ew_sleef_kernel, which checks the CPU, hands them out. */
CN_INTERNAL extern const cn_ew_kernel cn_sl_avx512_d[CN_OP_COUNT_];
CN_INTERNAL extern const cn_ew_kernel cn_sl_avx512_f[CN_OP_COUNT_];
CN_INTERNAL extern const cn_ew_kernel cn_sl_avx2_d[CN_OP_COUNT_];
CN_INTERNAL extern const cn_ew_kernel cn_sl_avx2_f[CN_OP_COUNT_];

/* pow kernels for an exponent that is one value for the whole loop (s[2]
 * == 0): SLEEF's pow on contiguous data, the typed loop otherwise. */
CN_INTERNAL extern const cn_ew_kernel cn_sl_avx512_pow_scalar_d;
CN_INTERNAL extern const cn_ew_kernel cn_sl_avx512_pow_scalar_f;
CN_INTERNAL extern const cn_ew_kernel cn_sl_avx2_pow_scalar_d;
CN_INTERNAL extern const cn_ew_kernel cn_sl_avx2_pow_scalar_f;
/* abs of contiguous complex128 (_d) / complex64 (_f) through hypot. */
CN_INTERNAL extern const cn_ew_kernel cn_sl_avx512_cabs_d;
CN_INTERNAL extern const cn_ew_kernel cn_sl_avx512_cabs_f;
CN_INTERNAL extern const cn_ew_kernel cn_sl_avx2_cabs_d;
CN_INTERNAL extern const cn_ew_kernel cn_sl_avx2_cabs_f;

/* Integer power by an exponent that is one value for the whole loop (s[2]
 * == 0, not negative): repeated squaring in vectorised passes over blocks;
 * NULL for the dtypes without one. */
#define CN_EW_POWS_DECL_(sfx, ctype, cls, dt)                                  \
  CN_INTERNAL extern const cn_ew_kernel cn_ew_power_scalar_##sfx;
CN_CPU_DTYPES(CN_EW_POWS_DECL_)
#undef CN_EW_POWS_DECL_

/* The power kernel for compute dtype dt when the exponent is one value for
 * the whole loop, or NULL (then the op's table kernel serves). */
CN_INTERNAL cn_ew_kernel cn_ew_power_scalar_kernel(cn_dtype dt);

/* The typed kernel of op for compute dtype dt (any strides), or NULL. */
CN_INTERNAL cn_ew_kernel cn_ew_kernel_for(int32_t op, cn_dtype dt);

/* A kernel for op on contiguous float32/float64 data built on SLEEF's
 * vector functions for this CPU, or NULL. Only valid when every stride is
 * the itemsize. */
CN_INTERNAL cn_ew_kernel cn_ew_sleef_kernel(int32_t op, cn_dtype dt);

#endif
