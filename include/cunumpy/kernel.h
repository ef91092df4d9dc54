/* cunumpy/kernel.h: user-defined kernels. */
#ifndef CUNUMPY_KERNEL_H
#define CUNUMPY_KERNEL_H

#include "cunumpy/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Elementwise and reduction kernels ---------------------------------
 *
 * CuPy's ElementwiseKernel and ReductionKernel. Parameters are declared in
 * CuPy's grammar: a comma-separated list of `[raw] TYPE NAME`, where TYPE
 * is a dtype name (bool, int8 .. int64, uint8 .. uint64, float32, float64,
 * complex64, complex128) or a one-letter type placeholder (`T`): the same
 * letter is the same type, resolved at call time from the array arguments
 * (then from scalars: a weak Python int is int64, a float float64, ...),
 * and output placeholders from passed outputs. Names are C identifiers, not
 * `i`, not starting with '_', unique across inputs and outputs.
 *
 * Bodies are C (CPU) or CUDA C (CUDA). In a body each non-raw parameter is
 * a local of its type holding the element at the loop index (outputs are
 * written back after the body); `i` is the C-order index over the
 * broadcast shape (int64_t), `_ind.size()` the number of iterations; a raw
 * parameter is a pointer to C-contiguous elements (`x[i]`), and placeholder
 * letters are typedefs (T -> double). On the CPU the body is compiled by
 * the host C compiler found at run time ($CUNUMPY_CC, else `cc` on PATH)
 * as GNU C11 with <math.h>, <tgmath.h> (so sqrt(x) follows x's type),
 * <stdint.h>, <stdbool.h> and <complex.h>: complex64/complex128 are
 * `float _Complex`/`double _Complex` (creal, cabs, csqrt, ... rather than
 * CUDA's complex<T> members), a raw parameter has no `.size()`, and C++
 * features (templates, references, overloads) are unavailable. Compiled
 * objects are cached on disk ($CUNUMPY_CPU_KERNEL_CACHE, else
 * $XDG_CACHE_HOME/cunumpy/cpu_kernels, else ~/.cache/cunumpy/cpu_kernels;
 * "off" disables it). On CUDA arrays the kernel's CUDA C source (see
 * cn_kernel_source) is compiled by NVRTC through the plugin's kernel cache
 * and launched on the current stream. */

/* Opaque, reference-counted kernel handle (elementwise or reduction). */
typedef struct cn_kernel_s *cn_kernel;

/* Most parameters (inputs + outputs) of one kernel. */
#define CN_KERNEL_MAX_PARAMS 32

/* Kinds reported by cn_kernel_kind. */
#define CN_KERNEL_ELEMENTWISE 0
#define CN_KERNEL_REDUCTION 1

/* Backends for cn_kernel_source. */
#define CN_KERNEL_SOURCE_CPU 0
#define CN_KERNEL_SOURCE_CUDA 1

/* An elementwise kernel: for every index of the broadcast shape, runs
 * operation with the parameters bound to the elements. preamble (file
 * scope), loop_prep (before the loop) and after_loop (after it) may be
 * NULL or "". options: extra compiler flags separated by spaces (NULL or
 * ""). Nothing is compiled here. CN_ERR_VALUE for a syntax error in a
 * parameter list (the message names the list, the parameter and its
 * character position), a bad name, duplicate names or more than
 * CN_KERNEL_MAX_PARAMS parameters. *out is a new reference. */
CN_API cn_status cn_elementwise_kernel_create(
    cn_kernel *out, const char *in_params, const char *out_params,
    const char *operation, const char *name, const char *preamble,
    const char *loop_prep, const char *after_loop, const char *options);

/* A reduction kernel: each output element is post_map_expr applied to `a`,
 * the reduction with reduce_expr (of `a` and `b`) of map_expr over the
 * reduced elements, starting from identity; the accumulator's type is
 * reduce_type (a dtype name, a placeholder or a C type name; NULL or "" =
 * the output's type). One non-raw output; raw parameters are refused.
 * Accumulation is pairwise over blocks of 128 elements. Errors as
 * cn_elementwise_kernel_create, plus CN_ERR_VALUE for an empty map,
 * reduce or identity expression. *out is a new reference. */
CN_API cn_status cn_reduction_kernel_create(
    cn_kernel *out, const char *in_params, const char *out_params,
    const char *map_expr, const char *reduce_expr, const char *post_map_expr,
    const char *identity, const char *name, const char *reduce_type,
    const char *preamble, const char *options);

/* Adds a reference. CN_ERR_VALUE for NULL or a released handle. */
CN_API cn_status cn_kernel_retain(cn_kernel k);
/* Drops a reference; NULL is a no-op. */
CN_API void cn_kernel_release(cn_kernel k);

/* Number of input / output parameters, and the kind (CN_KERNEL_*). */
CN_API cn_status cn_kernel_nin(int32_t *out, cn_kernel k);
CN_API cn_status cn_kernel_nout(int32_t *out, cn_kernel k);
CN_API cn_status cn_kernel_kind(int32_t *out, cn_kernel k);
/* The kernel's name, NUL-terminated and truncated to name_cap bytes. */
CN_API cn_status cn_kernel_name(char *name, int64_t name_cap, cn_kernel k);

/* Runs an elementwise kernel. arrays: the nin inputs, then optionally the
 * nout outputs (written in place: broadcast shape, writeable, dtypes cast
 * to on store). Omitted outputs are allocated at the broadcast shape of the
 * non-raw arguments, or (size) when every array argument is raw; size < 0
 * means "not given" and is CN_ERR_VALUE together with non-raw arrays. The
 * nout outputs (new references) go to outs[0..nout-1] (cap >= nout).
 * Python scalars (weak 0-d arrays) may live anywhere; the other arguments
 * share one device, where the kernel runs. Errors: CN_ERR_VALUE for a
 * wrong argument count or a read-only output; CN_ERR_TYPE for a
 * placeholder bound to two dtypes or given by no argument; CN_ERR_SHAPE
 * when shapes do not broadcast or an output has another shape;
 * CN_ERR_DEVICE for mixed devices or CUDA unavailable; CN_ERR_UNSUPPORTED
 * when no C compiler is found (the message says how to set CUNUMPY_CC);
 * CN_ERR_VALUE with the compiler's (or NVRTC's) log when the body does not
 * compile. These are all found before the body runs, so they leave
 * passed outputs untouched. */
CN_API cn_status cn_kernel_call(cn_array *outs, int32_t cap, cn_kernel k,
                                int32_t n, const cn_array *arrays,
                                int64_t size);

/* Runs a reduction kernel over axes (naxes CN_ALL_AXES = all; repeated or
 * out-of-range axes are errors) of the broadcast inputs; keepdims keeps
 * reduced axes as 1. arrays: the inputs, then optionally the output (its
 * shape must be the result's). outs[0] gets the result (new reference).
 * Errors as cn_kernel_call, CN_ERR_AXIS for a bad axis. */
CN_API cn_status cn_kernel_reduce(cn_array *outs, int32_t cap, cn_kernel k,
                                  int32_t n, const cn_array *arrays,
                                  int32_t naxes, const int32_t *axes,
                                  int32_t keepdims);

/* The source the kernel generates for these arguments (the call's
 * argument rules) on a backend (CN_KERNEL_SOURCE_*): for inspection and
 * for compile checks. Writes at most cap bytes (NUL-terminated) to buf and
 * the full length to *len. Errors as cn_kernel_call's argument checks. */
CN_API cn_status cn_kernel_source(char *buf, int64_t cap, int64_t *len,
                                  cn_kernel k, int32_t backend, int32_t n,
                                  const cn_array *arrays);

/* Counters of the CPU kernel compiler in this process: objects compiled,
 * objects loaded from the disk cache, objects held in memory. */
CN_API cn_status cn_kernel_cpu_cache_info(int64_t *compiled,
                                          int64_t *disk_hits,
                                          int64_t *in_memory);

#ifdef __cplusplus
}
#endif
#endif
