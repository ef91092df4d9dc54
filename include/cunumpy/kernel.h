/* cunumpy/kernel.h: user-defined kernels. */
#ifndef CUNUMPY_KERNEL_H
#define CUNUMPY_KERNEL_H

#include "cunumpy/array.h"
#include "cunumpy/cuda.h"

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

/* ---- raw modules ---- */
#ifndef CUNUMPY_KERNEL_RAW_SECTION
#define CUNUMPY_KERNEL_RAW_SECTION
/* Raw CUDA modules, kernel signatures and struct layouts.
 *
 * A module is CUDA C++ source compiled by NVRTC (cached in memory and on
 * disk, keyed by source, options, name expressions, architecture and NVRTC
 * version) or a PTX/CUBIN/fatbin image read from a file. Compiling needs no
 * GPU when an architecture is given; loading a module (get_function) and
 * launching need one (CN_ERR_DEVICE "CUDA is unavailable: ..." otherwise).
 * A kernel signature is the parsed parameter list of one __global__
 * function, used to check a call's arguments before anything is launched.
 * A struct layout is a C struct given by its fields, with the C ABI's
 * sizes, alignments and padding, and the declaration text kernels include.
 * Every handle is reference-counted (release of NULL is a no-op); every
 * function that returns a handle returns a new reference. */

typedef struct cn_cuda_module_s *cn_cuda_module;
typedef struct cn_cuda_function_s *cn_cuda_function;
typedef struct cn_kernel_sig_s *cn_kernel_sig;
typedef struct cn_struct_layout_s *cn_struct_layout;

/* Compiles CUDA C++ source with NVRTC. source_name names the program in
 * compile errors (NULL: "kernel.cu"). options: NVRTC options separated by
 * newlines (NULL or "" for none). name_expressions: C++ names to
 * instantiate and look up (templates), separated by newlines (NULL: none).
 * arch: compute capability as major*10+minor to compile PTX for (no GPU
 * needed), or 0 for the current device (CUBIN when NVRTC knows it, else
 * PTX; CN_ERR_DEVICE without one). A compile error is CN_ERR_VALUE with
 * NVRTC's log (lines as source_name(line): ...); NVRTC missing is
 * CN_ERR_DEVICE. */
CN_API cn_status cn_cuda_module_from_source(cn_cuda_module *out,
                                            const char *source,
                                            const char *source_name,
                                            const char *options,
                                            const char *name_expressions,
                                            int32_t arch);
/* Reads a PTX, CUBIN or fatbin file (loaded when a function is first
 * asked for). CN_ERR_VALUE when it cannot be read or is empty. */
CN_API cn_status cn_cuda_module_from_file(cn_cuda_module *out,
                                          const char *path);
CN_API void cn_cuda_module_retain(cn_cuda_module m);
CN_API void cn_cuda_module_release(cn_cuda_module m);
/* Size in bytes of the module's image (PTX text includes its NUL). */
CN_API cn_status cn_cuda_module_image_size(int64_t *out, cn_cuda_module m);
/* Copies the image into buf; CN_ERR_VALUE when cap is below its size. */
CN_API cn_status cn_cuda_module_image(void *buf, int64_t cap,
                                      cn_cuda_module m);
/* 1 when the image is PTX text, 0 for CUBIN or fatbin. */
CN_API cn_status cn_cuda_module_is_ptx(int32_t *out, cn_cuda_module m);
/* Architecture compiled for (major*10+minor; 0 for a file's image). */
CN_API cn_status cn_cuda_module_arch(int32_t *out, cn_cuda_module m);
/* The lowered (mangled) name NVRTC gave a name expression of the module.
 * CN_ERR_VALUE when the expression was not given at compile time, or
 * lowered_cap is too small. */
CN_API cn_status cn_cuda_module_lowered_name(char *lowered,
                                             int64_t lowered_cap,
                                             cn_cuda_module m,
                                             const char *name_expression);
/* The kernel called name (a C name, a lowered name or a name expression of
 * the module), loading the module on first use. CN_ERR_DEVICE without a
 * GPU; CN_ERR_VALUE when the module has no such kernel. */
CN_API cn_status cn_cuda_module_get_function(cn_cuda_function *out,
                                             cn_cuda_module m,
                                             const char *name);
CN_API void cn_cuda_function_retain(cn_cuda_function f);
CN_API void cn_cuda_function_release(cn_cuda_function f);
/* A function attribute, by CuPy's name: max_threads_per_block,
 * shared_size_bytes, const_size_bytes, local_size_bytes, num_regs,
 * ptx_version, binary_version, max_dynamic_shared_size_bytes,
 * preferred_shared_memory_carveout. CN_ERR_VALUE for other names. */
CN_API cn_status cn_cuda_function_attribute(int64_t *out, cn_cuda_function f,
                                            const char *attribute);
/* Launches f on stream (NULL: the current stream) with grid[3] blocks of
 * block[3] threads (each >= 1) and shared_mem bytes of dynamic shared
 * memory; cooperative (1) launches it as a cooperative kernel (grid-wide
 * synchronization). Argument i is the device pointer of arrays[i] when that is not
 * NULL (arrays may be NULL), else the sizes[i] bytes at
 * values[i] (a scalar of the parameter's C type, or a packed struct;
 * 1..4096 bytes).
 * Arrays must live on the current CUDA device: CN_ERR_DEVICE otherwise
 * (raw kernels never copy). Strides are the kernel's business. */
CN_API cn_status cn_cuda_function_launch(cn_cuda_function f,
                                         const int64_t *grid,
                                         const int64_t *block,
                                         int64_t shared_mem, cn_stream stream,
                                         int32_t cooperative, int32_t nargs, const cn_array *arrays,
                                         const void *const *values,
                                         const int64_t *sizes);

/* Kinds of kernel parameters (cn_kernel_sig_param). */
typedef enum cn_kernel_param_kind {
  CN_PARAM_SCALAR = 0,  /* a C scalar type */
  CN_PARAM_POINTER = 1, /* a pointer: takes an array */
  CN_PARAM_STRUCT = 2,  /* a struct type by value: takes a struct layout */
  CN_PARAM_KIND_FORCE_INT32_ = 0x7fffffff
} cn_kernel_param_kind;

/* Parses the parameter list of the __global__ function called name in
 * source (any CUDA C++ text: comments, preprocessor lines and other
 * functions are skipped). Scalar types: bool, char, signed/unsigned
 * char/short/int/long/long long, int8_t..uint64_t, size_t, ptrdiff_t,
 * float, double, half/__half; complex<float>/<double> (also thrust::,
 * cuComplex, cuDoubleComplex) behind pointers. Another type name is a
 * struct by value. A template kernel's type parameters are replaced by
 * template_args (comma-separated C types and values; NULL or "" for
 * none). CN_ERR_VALUE names the kernel, the parameter and the line and
 * column of what cannot be parsed; never reads outside the text. */
CN_API cn_status cn_kernel_sig_parse(cn_kernel_sig *out, const char *source,
                                     const char *name,
                                     const char *template_args);
CN_API void cn_kernel_sig_retain(cn_kernel_sig sig);
CN_API void cn_kernel_sig_release(cn_kernel_sig sig);
/* The kernel's name and its number of parameters. */
CN_API cn_status cn_kernel_sig_name(char *name, int64_t name_cap,
                                    cn_kernel_sig sig);
CN_API cn_status cn_kernel_sig_nparams(int32_t *out, cn_kernel_sig sig);
/* Parameter i: its kind, the dtype it holds or points to (0 for void*,
 * half, structs), pointer depth and whether the pointee is const. */
CN_API cn_status cn_kernel_sig_param(int32_t *kind, cn_dtype *dtype,
                                     int32_t *pointer_depth, int32_t *is_const,
                                     cn_kernel_sig sig, int32_t i);
/* Parameter i's name ("" when unnamed) and its C type as normalized text
 * ("const float*", "unsigned long long", "Vec"). */
CN_API cn_status cn_kernel_sig_param_name(char *name, int64_t name_cap,
                                          cn_kernel_sig sig, int32_t i);
CN_API cn_status cn_kernel_sig_param_type(char *name, int64_t name_cap,
                                          cn_kernel_sig sig, int32_t i);
/* Checks a call's argument count: CN_ERR_VALUE "kernel 'k' takes 4
 * arguments, got 3". */
CN_API cn_status cn_kernel_sig_check_nargs(cn_kernel_sig sig, int32_t nargs);
/* Checks that array a may be argument i: the parameter is a pointer and
 * a's dtype is its pointee type (any dtype for void*). CN_ERR_TYPE names
 * the kernel, the position, the parameter and both types. Does not look
 * at the array's device (cn_cuda_function_launch does). */
CN_API cn_status cn_kernel_sig_check_array(cn_kernel_sig sig, int32_t i,
                                           cn_array a);
/* Converts value to parameter i's C type after checking that it fits:
 * an integer parameter takes integral values in its range (bools, ints,
 * integral floats), a float parameter any real value whose magnitude its
 * type can hold (NaN and inf included), bool takes bools and 0/1. Writes
 * the value's bytes (little-endian: bytes 0-7 in *lo, 8-15 in *hi, for
 * complex<double>) and its size. CN_ERR_TYPE for an array or struct parameter or a complex value,
 * CN_ERR_VALUE for a value that does not fit, naming the position. */
CN_API cn_status cn_kernel_sig_pack_scalar(int64_t *lo, int64_t *hi,
                                           int64_t *size, cn_kernel_sig sig,
                                           int32_t i, cn_scalar value);
/* Checks that a struct laid out by layout may be argument i (a struct
 * parameter of the same type name). CN_ERR_TYPE otherwise. */
CN_API cn_status cn_kernel_sig_check_struct(cn_kernel_sig sig, int32_t i,
                                            cn_struct_layout layout);
/* Checks a whole call without launching: argument i is arrays[i] when
 * that is not NULL, else structs[i] when structs and it are not NULL,
 * else scalars[i] (scalars may be NULL when every argument is another
 * kind). The first mismatch is returned as above. */
CN_API cn_status cn_kernel_sig_check_call(cn_kernel_sig sig, int32_t nargs,
                                          const cn_array *arrays,
                                          const cn_scalar *scalars,
                                          const cn_struct_layout *structs);

/* A struct called name (a C identifier) with fields given as C
 * declarations separated by ';' ("double* data; int n; float w[3]"): the
 * same scalar and pointer types as kernel parameters, fixed-size arrays of
 * them. Offsets, padding, size and alignment follow the C ABI of x86-64
 * and CUDA (pointers 8 bytes). CN_ERR_VALUE names a bad field. */
CN_API cn_status cn_struct_layout_new(cn_struct_layout *out, const char *name,
                                      const char *fields);
CN_API void cn_struct_layout_retain(cn_struct_layout layout);
CN_API void cn_struct_layout_release(cn_struct_layout layout);
/* Size and alignment of the struct in bytes. */
CN_API cn_status cn_struct_layout_size(int64_t *size, int64_t *alignment,
                                       cn_struct_layout layout);
CN_API cn_status cn_struct_layout_nfields(int32_t *out,
                                          cn_struct_layout layout);
/* Field i: its byte offset and size, and whether it is a pointer (1). */
CN_API cn_status cn_struct_layout_field(int64_t *offset, int64_t *size,
                                        int32_t *is_pointer,
                                        cn_struct_layout layout, int32_t i);
/* Index of the field called name; CN_ERR_VALUE when there is none. */
CN_API cn_status cn_struct_layout_field_index(int32_t *out,
                                              cn_struct_layout layout,
                                              const char *name);
CN_API cn_status cn_struct_layout_field_name(char *name, int64_t name_cap,
                                             cn_struct_layout layout,
                                             int32_t i);
/* The declaration kernels include ("typedef struct Vec { ... } Vec;\n",
 * valid C and CUDA C++), NUL-terminated; *length is its strlen. With text
 * NULL only *length is written; CN_ERR_VALUE when text_cap <= length. */
CN_API cn_status cn_struct_layout_declaration(char *text, int64_t text_cap,
                                              int64_t *length,
                                              cn_struct_layout layout);
/* Converts value to field i's type as cn_kernel_sig_pack_scalar does
 * (each element of an array field takes the same value). */
CN_API cn_status cn_struct_layout_pack_scalar(int64_t *lo, int64_t *hi,
                                              int64_t *size,
                                              cn_struct_layout layout,
                                              int32_t i, cn_scalar value);
/* Checks that array a may fill pointer field i (its dtype is the
 * pointee type); CN_ERR_TYPE otherwise. */
CN_API cn_status cn_struct_layout_check_array(cn_struct_layout layout,
                                              int32_t i, cn_array a);
/* Packs one value per field into bytes (nbytes >= the struct's size,
 * padding zeroed): field i holds the data pointer of arrays[i] when that
 * is not NULL, else values[i]. Nothing is written on failure. */
CN_API cn_status cn_struct_layout_pack(void *bytes, int64_t nbytes,
                                       cn_struct_layout layout, int32_t n,
                                       const cn_array *arrays,
                                       const cn_scalar *values);
#endif /* CUNUMPY_KERNEL_RAW_SECTION */
/* ---- end raw modules ---- */

#ifdef __cplusplus
}
#endif
#endif
