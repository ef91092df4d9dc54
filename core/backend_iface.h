/* The backend interface: what a backend (the built-in CPU one, or the CUDA
 * plugin) gives the core. A backend is two small tables behind one header
 * record (cn_backend):
 *
 *   - the device table (cn_backend_device): probing, devices, memory,
 *     host <-> device copies, and get_proc, a lookup by name of extras that
 *     only that backend has (the CUDA stream/event/pool API);
 *   - the compute table (cn_backend_compute): the kernels.
 *
 * Every slot says whether it is required or optional and what the core does
 * when an optional slot is empty. An entry point checks each optional slot
 * it needs with CN_REQUIRE_SLOT (one message for every unsupported
 * operation) before it changes anything, or tests it for NULL where the
 * slot has a fallback; cn_backend_supports (include/cunumpy/backend.h)
 * answers from the same slots. Every slot may assume validated inputs: the core checks dtypes,
 * shapes and devices before calling.
 *
 * The handshake: a plugin exports CN_PLUGIN_ENTRY_NAME, which receives the
 * core's ABI version and returns its cn_backend (or NULL to refuse that
 * version), stamped with the ABI version and the three struct sizes it was
 * built with. The loader (core/backend.c) refuses a record whose ABI version
 * or sizes differ from the core's, or that lacks a required slot, and says
 * which. Included by core/internal.h (after the reduction kinds); the CUDA
 * plugin and the test plugins compile against it too. Not installed. */
#ifndef CUNUMPY_BACKEND_IFACE_H
#define CUNUMPY_BACKEND_IFACE_H

#ifndef CUNUMPY_INTERNAL_H
#error "include internal.h, which includes this header"
#endif

typedef struct cn_backend cn_backend;
typedef struct cn_gemm_desc cn_gemm_desc;     /* core/linalg/descriptors.h */
typedef struct cn_lapack_args cn_lapack_args; /* core/linalg/descriptors.h */
typedef struct cn_fft_desc cn_fft_desc;       /* core/linalg/descriptors.h */
typedef struct cn_expr_program cn_expr_program; /* core/expr_program.h */
/* A CSR matrix handed to the sparse slots: indptr (nrows + 1) and indices
 * (nnz) of one dtype, int32 or int64, data (nnz) of the compute dtype, all
 * 1-d, C-contiguous, on the backend, validated (indptr monotone from 0,
 * indices in [0, ncols), any order, duplicates allowed). A CSC matrix is
 * the CSR matrix of its transpose. */
typedef struct cn_csr_operand {
  int64_t nrows, ncols;
  const cn_array_s *indptr, *indices, *data;
} cn_csr_operand;
/* A DIA matrix handed to spmm_dia: offsets (n_diags, int32 or int64, no
 * INT64_MIN) and data (n_diags x L, C-contiguous, the compute dtype);
 * data[d][j] is the entry (j - offsets[d], j), read only where that lies
 * inside nrows x ncols and j < L. */
typedef struct cn_dia_operand {
  int64_t nrows, ncols;
  const cn_array_s *offsets, *data;
} cn_dia_operand;
/* The expr slot's type (core/expr.c reads it). */
typedef cn_status (*cn_expr_slot_fn)(const cn_expr_program *prog,
                                     const cn_array_s *const *in,
                                     cn_array_s *out);

/* Devices and memory. */
typedef struct cn_backend_device {
  /* Required. Checks that the backend can run (a device is present); on
   * failure returns a status and writes why into reason (cap bytes). */
  cn_status (*probe)(char *reason, size_t cap);
  /* Required. Number of devices (0 or more). */
  int32_t (*device_count)(void);
  /* Required. The calling thread's device, where new arrays are made. */
  int32_t (*current_device)(void);
  /* Required. alloc returns CN_ERR_MEMORY with a message on failure. */
  cn_status (*alloc)(int32_t device, size_t nbytes, void **ptr);
  /* Required. */
  void (*free)(int32_t device, void *ptr, size_t nbytes);
  /* Host <-> device copies of raw contiguous bytes. Required of a device
   * backend (the loader refuses a plugin without them); empty on the CPU,
   * whose memory is host memory and is never copied through these. */
  cn_status (*copy_to_host)(void *dst, const void *src, size_t nbytes);
  cn_status (*copy_from_host)(void *dst, const void *src, size_t nbytes);
  /* Optional. The backend-specific extra named name (a function table or
   * a function, whose type the name implies), or NULL when it has none.
   * Empty: the backend has no extras (every lookup gives NULL). Names in
   * use: "cuda_api" (const struct cn_cuda_api *, core/cuda_api.h),
   * "cuda_raw_api" (const cn_cuda_raw_api *, core/kernel_raw_api.h). */
  const void *(*get_proc)(const char *name);
} cn_backend_device;

/* Kernels. assign and fill are required (creation, copies and casts use
 * them unchecked); every other slot is optional. Unless its comment says
 * otherwise, an empty slot makes each entry point that needs it return
 * CN_ERR_UNSUPPORTED with the message of CN_REQUIRE_SLOT, before it changes
 * anything. */
typedef struct cn_backend_compute {
  /* Required. dst = (cast) src, same shape (broadcast src already expanded
   * with stride-0 axes), both on this backend. Handles every dtype pair (a
   * backend may refuse a pair with a status). */
  cn_status (*assign)(cn_array_s *dst, const cn_array_s *src);
  /* Required. Fills dst with a scalar already cast to dst's dtype (raw
   * bytes). */
  cn_status (*fill)(cn_array_s *dst, const void *value);
  /* Elementwise op `op` (index into the op table) with compute dtype
   * `compute`: inputs already broadcast to out's shape and of dtype
   * `compute` (the core casts them when needed), out of the op's output
   * dtype. out may alias an input exactly (same data and strides). */
  cn_status (*elementwise)(int32_t op, cn_dtype compute, int32_t nin,
                           const cn_array_s *const *in, cn_array_s *out);
  /* where(cond, x, y): cond bool, x and y of out's dtype, all broadcast. */
  cn_status (*where)(const cn_array_s *cond, const cn_array_s *x,
                     const cn_array_s *y, cn_array_s *out);
  /* Reduction of `in` over the axes set in axis_mask (bit i = axis i) into
   * out, whose shape is in's with reduced axes set to 1 (keepdims form) and
   * whose dtype is the accumulator / result dtype. For ARG kinds exactly one
   * axis is set and out is int64. For CUM kinds exactly one axis is set and
   * out has in's shape. */
  cn_status (*reduce)(cn_reduce_kind kind, const cn_array_s *in,
                      uint64_t axis_mask, cn_array_s *out);
  /* Mean and variance in one pass (Welford/pairwise); mean or var may be
   * NULL. Same shape conventions as reduce. */
  cn_status (*moments)(const cn_array_s *in, uint64_t axis_mask, double ddof,
                       bool nan_skip, cn_array_s *mean, cn_array_s *var);

  /* Indexing. idx arrays are int64, C-contiguous, on this backend, already
   * bounds-checked and wrapped into [0, extent) (by index_normalize on a
   * backend that has it, else on the host). */
  /* out = a with axis gathered at idx (1-d): out.shape[axis] = len(idx). */
  cn_status (*take)(cn_array_s *out, const cn_array_s *a,
                    const cn_array_s *idx, int32_t axis);
  /* Inverse of take: a[..., idx[j], ...] = values[..., j, ...] in j order
   * (last write wins); values has take's output shape (stride 0 allowed)
   * and a's dtype. */
  cn_status (*put)(cn_array_s *a, const cn_array_s *idx, int32_t axis,
                   const cn_array_s *values);
  /* take_along_axis: idx has out's shape (any strides), a has out's shape
   * on every axis but axis (stride 0 allowed). */
  cn_status (*take_along)(cn_array_s *out, const cn_array_s *a,
                          const cn_array_s *idx, int32_t axis);
  /* put_along_axis: values and idx share a shape that matches a off axis;
   * writes in C order of idx (last write wins). */
  cn_status (*put_along)(cn_array_s *a, const cn_array_s *idx, int32_t axis,
                         const cn_array_s *values);
  /* New 1-d int64 array of the C-order flat positions of a's non-zero
   * elements. */
  cn_status (*flatnonzero)(cn_array_s **out, const cn_array_s *a);
  /* a[mask] for C-contiguous a and bool mask of the same shape: the
   * selected elements, in C order, into a new 1-d array, in one pass.
   * Empty: the core computes flatnonzero(mask) and takes those positions
   * (so a[mask] then needs flatnonzero and take), as it does for any
   * non-contiguous input. */
  cn_status (*mask_compress)(cn_array_s **out, const cn_array_s *a,
                             const cn_array_s *mask);
  /* Normalises int64 indices in place (idx C-contiguous, on this backend,
   * a private copy) for an axis of `extent` under mode (cn_index_mode):
   * WRAP and CLIP fold every entry (extent > 0); RAISE adds extent to
   * entries in [-extent, 0). *bad returns -1, or (RAISE) the first position
   * in C order whose entry is outside [-extent, extent); entries out of
   * range are left as they were, so the core reads the offending value
   * there and reports it as it does for host indices. The CPU backend's is
   * the host rule, which the core applies to a host copy of the indices
   * of a backend whose slot is empty. */
  cn_status (*index_normalize)(cn_array_s *idx, int64_t extent, int32_t mode,
                               int64_t *bad);
  /* Stable sort along axis of a real or complex array (NaNs last, complex
   * in NumPy's lexicographic order). vals (may be NULL) receives the sorted
   * values, perm (may be NULL) the int64 argsort; both C-contiguous with
   * a's shape. */
  cn_status (*sort)(cn_array_s *vals, cn_array_s *perm, const cn_array_s *a,
                    int32_t axis);
  /* searchsorted: out[i] = the first position of the sorted 1-d a whose
   * element is >= v[i] (right: > v[i]), in the order of the sort slot
   * (NaNs last, complex in NumPy's order, -0.0 == 0.0). a and v are
   * C-contiguous, of one dtype (the core casts both to their common type);
   * out is int64, C-contiguous, of v's shape. */
  cn_status (*searchsorted)(cn_array_s *out, const cn_array_s *a,
                            const cn_array_s *v, bool right);
  /* Quantiles of lanes already sorted by the sort slot (NaNs last):
   * sorted is C-contiguous float32 or float64 of shape (lanes..., len); q
   * is float64, C-contiguous, nq fractions in [0, 1], or NULL for the
   * median; out is float64, C-contiguous, nq x lanes ([j][lane]). method
   * is a cn_quantile_method; nan_skip ignores NaNs, else a lane with one
   * gives NaN (as an empty lane does); the formulas are
   * core/quantile_rank.h's. Empty: the core selects on host copies. */
  cn_status (*quantile_sorted)(cn_array_s *out, const cn_array_s *sorted,
                               const cn_array_s *q, int32_t method,
                               bool nan_skip);
  /* Fills out (C-contiguous) from the Philox4x32-10 stream (key, counter)
   * with distribution dist (cn_rng_dist in core/philox.h) and its
   * parameters: params[k] (3 doubles), or, where pa is not NULL and pa[k]
   * is, per-element values from pa[k] (C-contiguous, out's size and
   * device; float64, or int64 for INTEGERS). *used returns the number of
   * 128-bit counter blocks used. */
  cn_status (*rng_fill)(cn_array_s *out, int32_t dist, const uint32_t key[2],
                        const uint32_t counter[4], const double *params,
                        const cn_array_s *const *pa, uint64_t *used);
  /* Batched out = op(a) @ b over identical batch shapes (cn_gemm_desc). */
  cn_status (*matmul)(const cn_gemm_desc *desc);
  /* One LAPACK driver (args->kind) over a batch of column-major matrices. */
  cn_status (*lapack)(cn_lapack_args *args);
  /* One batched, multi-axis FFT described by desc. */
  cn_status (*fft)(const cn_fft_desc *desc);
  /* Scatter-add, the kernel of bincount and the histograms: for each i,
   * out[idx[i]] += w[i] (w NULL: += 1) when 0 <= idx[i] < out.size; other
   * entries are skipped (the core marks values outside every bin with -1).
   * idx is int64, 1-d, C-contiguous; out is 1-d, C-contiguous, int64 when w
   * is NULL, else of w's dtype (float64 or complex128; w C-contiguous of
   * idx's length). Adds to out's values (the core zeroes it first). Counts
   * are exact; the order of the float additions is the backend's. */
  cn_status (*scatter_add)(cn_array_s *out, const cn_array_s *idx,
                           const cn_array_s *w);
  /* Sparse kernels (cunumpy/sparse.h). spmm: out = a @ x for x of shape
   * (a->ncols, k) (any strides) and out (a->nrows, k) C-contiguous, both of
   * a->data's dtype (bool: or of ands). */
  cn_status (*spmm)(const cn_csr_operand *a, const cn_array_s *x,
                    cn_array_s *out);
  /* SpGEMM: a @ b (a->ncols == b->nrows, one data dtype) into three new
   * arrays: int64 indptr and indices with sorted rows, duplicates summed,
   * and data of that dtype. */
  cn_status (*spgemm)(const cn_csr_operand *a, const cn_csr_operand *b,
                      cn_array_s **indptr, cn_array_s **indices,
                      cn_array_s **data);
  /* csr2csc: the CSR arrays of a's transpose into indptr (a->ncols + 1),
   * indices and data (nnz), preallocated of a's dtypes; rows come out
   * sorted, duplicates kept, entries of equal index in a's order. */
  cn_status (*sparse_transpose)(const cn_csr_operand *a, cn_array_s *indptr,
                                cn_array_s *indices, cn_array_s *data);
  /* Optional. out = a @ x on the DIA layout, shapes and dtypes as spmm;
   * absent, the core converts a DIA matrix to CSR for spmm. */
  cn_status (*spmm_dia)(const cn_dia_operand *a, const cn_array_s *x,
                        cn_array_s *out);
  /* Optional. Runs an expression program (core/expr_program.h) in one
   * fused pass: in[i] is the program's input i broadcast to out's shape,
   * in its own dtype; out has the result dtype and the broadcast shape, or,
   * for a program with a reduction, out has its out_dtype and the broadcast
   * shape with extent 1 on the reduced axes (every axis of extent > 1 with
   * extent 1 in out is reduced). CN_ERR_UNSUPPORTED (before writing
   * anything) for a program or reduction the slot does not fuse: the core
   * then runs the elementwise part fused (or op by op) and reduces with
   * reduce. Empty: the core runs the program one instruction at a time
   * through assign, fill, elementwise and where, and reductions through
   * reduce. */
  cn_expr_slot_fn expr;
  /* Optional. Unbuffered in-place op (NumPy's ufunc.at): for k in order,
   * a[pos[k]] = op(a[pos[k]], b[k]) (unary: op(a[pos[k]])), computed in
   * dtype compute and cast back to a's dtype unsafely, so a repeated
   * position sees the earlier updates. pos: int64 flat C-order positions,
   * C-contiguous, each in [0, a->size); b: NULL for a unary op, else
   * C-contiguous of dtype compute and pos's size; a writeable, any
   * strides. Empty: the core answers CN_ERR_UNSUPPORTED. */
  cn_status (*ufunc_at)(int32_t op, cn_dtype compute, cn_array_s *a,
                        const cn_array_s *pos, const cn_array_s *b);
  /* Optional. In-place running op along axis (NumPy's ufunc.accumulate):
   * x[..., i, ...] = op(x[..., i-1, ...], x[..., i, ...]) for i = 1, 2, ...
   * in order; op is binary and maps dtype to itself; x writeable and
   * C-contiguous (the core's new result). Empty: the core runs one elementwise call per step. */
  cn_status (*accumulate)(int32_t op, cn_dtype dtype, cn_array_s *x,
                          int32_t axis);
} cn_backend_compute;

/* One backend: the record a plugin's entry point returns (and the CPU
 * backend's built-in one). Buffers point at it to say who serves them. */
struct cn_backend {
  uint32_t abi_version;  /* CUNUMPY_ABI_VERSION the backend was built for */
  uint32_t record_size;  /* sizeof(cn_backend) it was built with */
  uint32_t device_size;  /* sizeof(cn_backend_device) it was built with */
  uint32_t compute_size; /* sizeof(cn_backend_compute) it was built with */
  const char *name;      /* canonical name: "cpu", "cuda" */
  int32_t device_type;   /* cn_device_type */
  const cn_backend_device *device;   /* required */
  const cn_backend_compute *compute; /* required (its slots may be empty) */
};

/* Entry point exported by a backend plugin: NULL refuses core_abi_version. */
typedef const cn_backend *(*cn_plugin_entry_fn)(uint32_t core_abi_version);
#define CN_PLUGIN_ENTRY_NAME "cn_cuda_plugin_entry"

/* Optional export of a plugin: writes its libraries' versions, one
 * "name: version" line each, into buf (cap bytes, NUL-terminated), for
 * cn_build_info. Looked up by name so the backend tables keep their
 * layout; it must work without a device. */
typedef void (*cn_plugin_versions_fn)(char *buf, size_t cap);
#define CN_PLUGIN_VERSIONS_NAME "cn_cuda_plugin_versions"

/* The built-in CPU backend. */
CN_INTERNAL const cn_backend *cn_cpu_backend(void);
/* The CPU backend's libraries and thread counts, one "name: value" line
 * each, into buf (cap bytes, NUL-terminated), for cn_build_info. */
CN_INTERNAL void cn_cpu_library_versions(char *buf, size_t cap);
/* Active backend for new arrays (loads CUDA on demand; falls back to CPU). */
CN_INTERNAL const cn_backend *cn_active_backend(void);
/* The loaded CUDA backend or NULL (never triggers a load). */
CN_INTERNAL const cn_backend *cn_cuda_backend_if_loaded(void);
/* The CUDA plugin's record when the plugin loads and passes the handshake,
 * even if its probe found no device (loads on first demand); else NULL.
 * For describing the backend, never for running on it. */
CN_INTERNAL const cn_backend *cn_cuda_backend_table(void);
/* The extra named name of backend be (see cn_backend_device::get_proc), or
 * NULL when be is NULL or has none. */
CN_INTERNAL const void *cn_backend_get_proc(const cn_backend *be,
                                            const char *name);

/* CN_ERR_DEVICE naming fn and both devices unless every array is on the
 * backend and device of the first. */
CN_INTERNAL cn_status cn_same_device(int32_t n, const cn_array_s *const *arrs,
                                     const char *fn);

/* Records the standard CN_ERR_UNSUPPORTED of an empty compute slot:
 * "<fn>: not supported on the '<backend>' backend (no '<slot>' kernel)". */
CN_INTERNAL cn_status cn_slot_unsupported(const char *fn, const cn_backend *be,
                                          const char *slot);

/* Declares `var` as compute slot `slot` of backend `be`, or returns
 * CN_ERR_UNSUPPORTED with the standard message naming fn when the slot is
 * empty. The one way the core reaches a compute slot. Usage:
 *   CN_REQUIRE_SLOT(take, cn_backend_of(a), take, fn); st = take(...); */
#define CN_REQUIRE_SLOT(var, be, slot, fn)                                     \
  const cn_backend *var##_be_ = (be);                                          \
  __typeof__(var##_be_->compute->slot) var = var##_be_->compute->slot;         \
  if (CN_UNLIKELY(var == NULL))                                                \
  return cn_slot_unsupported(fn, var##_be_, #slot)

#endif
