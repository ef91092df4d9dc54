/* The engine's view of a user kernel (include/cunumpy/kernel.h): parsed
 * parameters (core/kernel_params.c), the handle (core/kernel.c), a kernel
 * bound to the dtypes of one call's arguments, and the source generators
 * that read it (core/cpu/kernel.c for C, core/kernel_cuda_source.c for
 * CUDA C). */
#ifndef CUNUMPY_KERNEL_PROGRAM_H
#define CUNUMPY_KERNEL_PROGRAM_H

#include <stdarg.h>

#include "cunumpy/kernel.h"
#include "internal.h"

#define CN_KPARAM_NAME_CAP 64
#define CN_KERNEL_NAME_CAP 128

/* One declared parameter. */
typedef struct cn_kparam {
  char name[CN_KPARAM_NAME_CAP];
  cn_dtype dtype;   /* declared dtype, 0 for a placeholder */
  char placeholder; /* the letter, 0 for a declared dtype */
  bool raw;
} cn_kparam;

/* A parsed parameter list. */
typedef struct cn_kparams {
  int32_t n;
  cn_kparam p[CN_KERNEL_MAX_PARAMS];
} cn_kparams;

/* Parses text in CuPy's grammar ("[raw] TYPE NAME, ..."; NULL or blank =
 * no parameters) into out. On error, CN_ERR_VALUE naming fn, `what`
 * ("in_params"), the parameter number and its character position. Never
 * reads past the terminating NUL; any byte sequence is safe. */
CN_INTERNAL cn_status cn_kparams_parse(cn_kparams *out, const char *text,
                                       const char *what, const char *fn);
/* The dtype a dtype name (CuPy's canonical NumPy names) stands for, 0 when
 * it is none. */
CN_INTERNAL cn_dtype cn_kparam_dtype_named(const char *name, size_t len);
/* True when name is a C identifier (ASCII letters, digits, '_'). */
CN_INTERNAL bool cn_kparam_is_identifier(const char *name, size_t len);

#define CN_KERNEL_MAGIC 0x434e4b4eu /* "CNKN" */

struct cn_kernel_s {
  uint32_t magic;
  atomic_int_fast64_t refcount;
  int32_t kind; /* CN_KERNEL_ELEMENTWISE / CN_KERNEL_REDUCTION */
  int32_t nin, nout;
  cn_kparam params[CN_KERNEL_MAX_PARAMS]; /* inputs, then outputs */
  char name[CN_KERNEL_NAME_CAP];
  /* Owned texts ("" when not given). */
  char *operation, *preamble, *loop_prep, *after_loop, *options;
  char *map_expr, *reduce_expr, *post_map_expr, *identity, *reduce_type;
  /* The CPU runner's compiled bindings (core/cpu/kernel.c): a list that
   * only grows while the handle lives, read without a lock. */
  _Atomic(struct cn_kernel_bound *) bound;
};

/* A kernel bound to one call's argument dtypes: what the generators and
 * the compiled-object caches key on. */
typedef struct cn_kernel_binding {
  const struct cn_kernel_s *k;
  cn_dtype type[CN_KERNEL_MAX_PARAMS];    /* each parameter's resolved type */
  cn_dtype storage[CN_KERNEL_MAX_PARAMS]; /* its argument's element dtype */
  bool scalar[CN_KERNEL_MAX_PARAMS]; /* a 0-d non-raw input, read once */
  int32_t nletters;
  char letter[CN_KERNEL_MAX_PARAMS];
  cn_dtype letter_type[CN_KERNEL_MAX_PARAMS];
} cn_kernel_binding;

/* A growing NUL-terminated text; oom is set when an append failed. */
typedef struct cn_kstr {
  char *text;
  size_t len, cap;
  bool oom;
} cn_kstr;
CN_INTERNAL void cn_kstr_init(cn_kstr *s);
CN_INTERNAL void cn_kstr_free(cn_kstr *s);
CN_INTERNAL void cn_kstr_appendf(cn_kstr *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
CN_INTERNAL void cn_kstr_append(cn_kstr *s, const char *text);

/* Source generators. Each returns false only when out of memory. */
CN_INTERNAL bool cn_kernel_c_source(cn_kstr *s, const cn_kernel_binding *b);
CN_INTERNAL bool cn_kernel_cuda_source(cn_kstr *s,
                                       const cn_kernel_binding *b);
/* Entry point names in the generated sources. */
#define CN_KERNEL_C_ENTRY "cn_kernel_entry"
#define CN_KERNEL_C_KEYSYM "cn_kernel_key"

/* The CPU runner (core/cpu/kernel.c). ops: the non-raw operands in
 * parameter order, each broadcast to the loop shape (scalars 0-d); raws:
 * the raw parameters' C-contiguous arrays in parameter order. */
CN_INTERNAL cn_status cn_cpu_kernel_elementwise(const cn_kernel_binding *b,
                                                int32_t ndim,
                                                const int64_t *shape,
                                                cn_array_s *const *ops,
                                                cn_array_s *const *raws,
                                                int64_t size);
/* The layout a reduction runner reads: every non-0-d input's reduced axes
 * (those after the nkeep kept ones) as one run of R elements with byte
 * stride rs[i] (an input whose reduced axes do not merge is copied in C
 * order into own[i]), base[i] its element 0, kst[i] the kept axes' byte
 * strides; 0-d inputs have zero strides. */
typedef struct cn_kreduce_layout {
  cn_array_s *own[CN_KERNEL_MAX_PARAMS];
  char *base[CN_KERNEL_MAX_PARAMS];
  int64_t rs[CN_KERNEL_MAX_PARAMS];
  int64_t kst[CN_KERNEL_MAX_PARAMS][CN_MAX_DIMS];
  int64_t R;
  int32_t nkeep;
} cn_kreduce_layout;
CN_INTERNAL cn_status cn_kreduce_layout_make(cn_kreduce_layout *L,
                                             int32_t nin,
                                             cn_array_s *const *ins,
                                             int32_t nkeep);
CN_INTERNAL void cn_kreduce_layout_free(cn_kreduce_layout *L);

/* ins: the inputs, permuted so that the nred reduced axes come last and
 * broadcast to one shape; out: the output, shaped as the kept axes. */
CN_INTERNAL cn_status cn_cpu_kernel_reduce(const cn_kernel_binding *b,
                                           int32_t nin,
                                           cn_array_s *const *ins,
                                           int32_t nred, cn_array_s *out);

/* The CUDA plugin's user_kernel_launch (core/cuda_api.c; CN_ERR_DEVICE
 * when CUDA is unavailable). */
CN_INTERNAL cn_status cn_cuda_user_kernel_launch(
    const char *source, const char *kernel, int32_t reduce, int64_t n,
    int64_t r, const int64_t *geom, int32_t ngeom, void *const *ptrs,
    int32_t nptrs);

/* Frees the compiled bindings of a kernel being destroyed. */
CN_INTERNAL void cn_cpu_kernel_forget(struct cn_kernel_s *k);

/* The host C compiler and the compiled-object cache
 * (core/cpu/host_compiler.c). cn_host_compile loads (compiling when no
 * cached object exists) the shared object built from source with the
 * extra flags in options and returns its dlopen handle, which stays loaded
 * for the process. name is for messages. */
CN_INTERNAL cn_status cn_host_compile(void **handle, const char *source,
                                      const char *options, const char *name);
/* Address of a symbol of a handle from cn_host_compile, NULL if absent. */
CN_INTERNAL void *cn_host_symbol(void *handle, const char *symbol);
CN_INTERNAL void cn_host_compile_counters(int64_t *compiled,
                                          int64_t *disk_hits,
                                          int64_t *in_memory);

#endif
