/* cn_backend_supports: what a backend can do, answered from the compute
 * slots its table fills and one table of the slots each capability needs.
 * Nothing else lists coverage: the README's table is printed from here
 * (tests/backend_coverage.c). */
#include <stddef.h>
#include <string.h>

#include "internal.h"

/* Every compute slot, by name, in table order. */
#define CN_SLOT(s) {#s, offsetof(cn_backend_compute, s)}
static const struct {
  const char *name;
  size_t offset;
} g_slots[] = {
    CN_SLOT(assign),     CN_SLOT(fill),          CN_SLOT(elementwise),
    CN_SLOT(where),      CN_SLOT(reduce),        CN_SLOT(moments),
    CN_SLOT(take),       CN_SLOT(put),           CN_SLOT(take_along),
    CN_SLOT(put_along),  CN_SLOT(flatnonzero),   CN_SLOT(mask_compress),
    CN_SLOT(index_normalize),
    CN_SLOT(sort),       CN_SLOT(searchsorted),  CN_SLOT(quantile_sorted),
    CN_SLOT(rng_fill),      CN_SLOT(matmul),
    CN_SLOT(lapack),     CN_SLOT(fft),
    CN_SLOT(scatter_add),
    CN_SLOT(spmm),       CN_SLOT(spgemm),        CN_SLOT(sparse_transpose),
    CN_SLOT(spmm_dia),
    CN_SLOT(expr),       CN_SLOT(ufunc_at),      CN_SLOT(accumulate),
};
#undef CN_SLOT
#define CN_NSLOTS (sizeof g_slots / sizeof g_slots[0])
/* A slot added to the table but not here would answer "unknown". */
_Static_assert(CN_NSLOTS * sizeof(void (*)(void)) == sizeof(cn_backend_compute),
               "g_slots must list every slot of cn_backend_compute");

/* Capabilities beyond the slot names: the slots each needs (all of them
 * for NATIVE), and host: a step computes on host copies (NATIVE on the
 * CPU, HOST on a device backend, given the slots, unless the backend fills
 * device_slots). */
static const struct capability {
  const char *name;
  const char *slots; /* space-separated slot names */
  bool host;
  /* for a host capability: slots that, all filled, let a device backend
   * run it where the data is (NATIVE there); NULL for none */
  const char *device_slots;
} g_caps[] = {
    {"rng", "rng_fill", false, NULL},
    /* domains */
    {"ufunc", "elementwise assign fill", false, NULL},
    {"reduction", "reduce moments", false, NULL},
    {"linalg", "matmul lapack", false, NULL},
    /* choice, permutation and shuffle of arrays gather with take */
    {"random", "rng_fill take", false, NULL},
    /* advanced indexing combines index arrays with elementwise ops */
    {"index", "take put take_along put_along flatnonzero elementwise", false,
     NULL},
    /* indexing functions composed in the core (core/index.c) */
    {"take_along_axis", "take_along", false, NULL},
    {"put_along_axis", "put_along assign", false, NULL},
    {"mask_get", "flatnonzero take", false, NULL},
    {"mask_set", "flatnonzero put assign", false, NULL},
    {"compress", "flatnonzero take", false, NULL},
    {"extract", "flatnonzero take", false, NULL},
    {"choose", "take_along assign", false, NULL},
    {"nonzero", "flatnonzero elementwise", false, NULL},
    {"argwhere", "flatnonzero elementwise", false, NULL},
    {"count_nonzero", "assign reduce", false, NULL},
    /* the statistics domain (include/cunumpy/stats.h): every function
     * has its own entry below; the domain needs the union of their slots */
    {"stats",
     "sort quantile_sorted searchsorted scatter_add take elementwise where "
     "reduce moments matmul fft assign fill",
     false, NULL},
    /* median, percentile and quantile (and their nan-variants): introselect
     * on host lanes, or lanes sorted on the device with the sort slot and
     * read off by quantile_sorted */
    {"median", "", true, "sort quantile_sorted"},
    {"quantile", "", true, "sort quantile_sorted"},
    /* sorting and searching (core/sort.c): argsort is the sort slot;
     * lexsort argsorts each key and gathers along the axis */
    {"argsort", "sort", false, NULL},
    {"lexsort", "sort take_along", false, NULL},
    /* The set functions compose slots on the data's device (core/sort.c):
     * unique sorts (values and positions in one call), marks group starts
     * by the inequality of sorted neighbours (fill, elementwise), finds
     * them with flatnonzero, takes values and first indices, subtracts
     * neighbouring starts for the counts and scatters cumsum (reduce) of
     * the mask with put for the inverse. union1d is unique of the
     * concatenation (assign). */
    {"unique", "sort fill elementwise flatnonzero take put reduce", false,
     NULL},
    {"union1d", "sort fill elementwise flatnonzero take put reduce assign",
     false, NULL},
    /* isin: a membership table for integers of a small range (min/max by
     * reduce, put marks, take looks up, elementwise clips and compares),
     * else the sorted test values (sort, searchsorted, take, elementwise) */
    {"isin", "sort searchsorted fill elementwise take put reduce assign",
     false, NULL},
    /* intersect1d / setdiff1d: unique, isin, then a boolean selection
     * (flatnonzero and take); the Python package's setxor1d: unique of
     * each, a sorted concatenation and the same selection */
    {"intersect1d",
     "sort searchsorted fill elementwise flatnonzero take put reduce assign",
     false, NULL},
    {"setdiff1d",
     "sort searchsorted fill elementwise flatnonzero take put reduce assign",
     false, NULL},
    {"setxor1d",
     "sort fill elementwise flatnonzero take put reduce assign", false, NULL},
    /* unique with an axis: lexsort over the slices' elements (sort,
     * take_along), the rows gathered in that order, any (reduce) of their
     * inequality as the group starts, then as unique */
    {"unique_axis",
     "sort take_along take put fill elementwise flatnonzero reduce assign",
     false, NULL},
    /* partition and argpartition: introselect on host keys on the CPU, a
     * full sort with the slot on a device backend. searchsorted is
     * answered by its slot of the same name. */
    {"partition", "sort", false, NULL},
    /* reductions */
    {"sum", "reduce", false, NULL},
    {"prod", "reduce", false, NULL},
    {"min", "reduce", false, NULL},
    {"max", "reduce", false, NULL},
    {"any", "reduce", false, NULL},
    {"all", "reduce", false, NULL},
    {"nansum", "reduce", false, NULL},
    {"nanprod", "reduce", false, NULL},
    {"nanmin", "reduce", false, NULL},
    {"nanmax", "reduce", false, NULL},
    {"argmin", "reduce", false, NULL},
    {"argmax", "reduce", false, NULL},
    {"nanargmin", "reduce", false, NULL},
    {"nanargmax", "reduce", false, NULL},
    {"cumsum", "reduce", false, NULL},
    {"cumprod", "reduce", false, NULL},
    {"mean", "moments", false, NULL},
    {"var", "moments", false, NULL},
    {"std", "moments elementwise", false, NULL},
    {"nanmean", "moments", false, NULL},
    {"nanvar", "moments", false, NULL},
    {"nanstd", "moments elementwise", false, NULL},
    /* convolve / correlate (core/stats_signal.c): a direct loop on CPU
     * arrays; elsewhere one multiply and add per tap, or for long kernels
     * of finite values (checked with a reduction) an FFT product */
    {"convolve", "elementwise assign fill reduce fft", false, NULL},
    {"correlate", "elementwise assign fill reduce fft", false, NULL},
    /* signal processing (include/cunumpy/signal.h): the direct sums,
     * recursive filters, rank filters and upfirdn compute on host copies;
     * fftconvolve (and convolve's FFT method) is an FFT product of engine
     * ops where the data lives */
    {"signal_convolve", "elementwise assign fill reduce fft", true, NULL},
    {"fftconvolve", "elementwise assign fill fft", false, NULL},
    {"lfilter", "", true, NULL},
    {"sosfilt", "", true, NULL},
    {"order_filter", "", true, NULL},
    {"upfirdn", "", true, NULL},
    /* cov / corrcoef (core/stats_moments.c): means, centring and the
     * product with the conjugate transpose through matmul; the 1-d
     * weights are validated and summed on the host */
    {"cov", "elementwise assign fill moments matmul", false, NULL},
    {"corrcoef", "elementwise assign fill moments matmul", false, NULL},
    /* custom kernels (core/kernel.c): compiled from the user's body by the
     * host C compiler on the CPU, by NVRTC through the CUDA plugin's
     * user_kernel_launch (an extra, not a slot: the slots named are those
     * of the built-in kernels of the same kind, which that plugin has with
     * it); raw parameters and reductions whose axes do not merge are
     * copied with assign */
    {"elementwise_kernel", "elementwise assign", false, NULL},
    {"reduction_kernel", "reduce assign", false, NULL},
    /* sequences (core/create.c): a direct loop on the CPU; elsewhere an
     * index sequence (fill, flatnonzero) and NumPy's formula as ufuncs and
     * casts */
    {"arange", "fill flatnonzero elementwise assign", false, NULL},
    {"linspace", "fill flatnonzero elementwise assign", false, NULL},
    /* differences and integrals as views, ufuncs and reductions
     * (core/stats_difference.c); gradient and average read one bool back
     * (constant steps, zero weights) */
    {"diff", "elementwise assign fill", false, NULL},
    {"ptp", "reduce elementwise assign fill", false, NULL},
    {"gradient", "elementwise assign fill reduce", false, NULL},
    {"trapezoid", "elementwise assign fill reduce", false, NULL},
    {"average", "reduce moments elementwise assign fill", false, NULL},
    /* histograms and bin counts (core/stats_histogram.c): bins by
     * searchsorted, counts by scatter_add, ranges and checks by
     * reductions; only scalars (and the nbins + 1 equal edges, made on the
     * host) cross between host and device */
    {"bincount", "scatter_add reduce assign fill", false, NULL},
    {"histogram",
     "scatter_add searchsorted elementwise reduce assign fill", false, NULL},
    {"histogram2d",
     "scatter_add searchsorted elementwise reduce assign fill", false, NULL},
    {"histogramdd",
     "scatter_add searchsorted elementwise reduce assign fill", false, NULL},
    {"digitize", "searchsorted elementwise reduce assign fill", false, NULL},
    /* expressions (cn_expr_evaluate, xp.evaluate, xp.fuse): one op at a
     * time through the elementwise slots anywhere; one fused pass where
     * the expr slot is filled */
    {"evaluate", "elementwise where assign fill", false, NULL},
    {"evaluate_fused", "expr", false, NULL},
    /* interp (core/stats_signal.c): searchsorted of x among the nodes, the
     * neighbouring nodes taken, NumPy's formula and special cases
     * elementwise */
    {"interp", "searchsorted take elementwise assign fill", false, NULL},
    /* sparse matrices (core/sparse.c): products and CSR <-> CSC through
     * the sparse kernels where the matrix lives; the structure is built,
     * converted to COO and merged on the host (a device matrix is moved
     * explicitly) */
    {"sparse", "spmm spgemm sparse_transpose", false, NULL},
    /* DIA products: on the DIA layout where spmm_dia is filled; elsewhere
     * the matrix is converted to CSR on the host and moved back for spmm */
    {"sparse_dia", "spmm", true, "spmm_dia"},
};
#define CN_NCAPS (sizeof g_caps / sizeof g_caps[0])
/* What every elementwise op needs (casting inputs, weak scalars). */
static const char g_op_slots[] = "elementwise assign fill";

static bool slot_filled(const cn_backend *be, const char *name, size_t len) {
  for (size_t i = 0; i < CN_NSLOTS; i++) {
    if (strlen(g_slots[i].name) != len ||
        memcmp(g_slots[i].name, name, len) != 0)
      continue;
    void (*fp)(void);
    memcpy(&fp, (const char *)be->compute + g_slots[i].offset, sizeof fp);
    return fp != NULL;
  }
  return false; /* not reached: g_caps names only real slots */
}

/* NATIVE when every slot of the space-separated list is filled. */
static int32_t all_filled(const cn_backend *be, const char *slots) {
  for (const char *p = slots; *p;) {
    size_t n = strcspn(p, " ");
    if (be == NULL || !slot_filled(be, p, n))
      return CN_SUPPORT_NONE;
    p += n;
    p += *p == ' ';
  }
  return CN_SUPPORT_NATIVE;
}

static bool is_slot(const char *what) {
  for (size_t i = 0; i < CN_NSLOTS; i++)
    if (strcmp(g_slots[i].name, what) == 0)
      return true;
  return false;
}

cn_status cn_backend_supports(int32_t *out, const char *backend,
                              const char *what) {
  const char *fn = "cn_backend_supports";
  CN_CHECK_OUT(out, fn);
  const char *canon = NULL;
  if (backend == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'backend' is NULL", fn);
  if (cn_backend_canonical_name(&canon, backend) != CN_OK)
    return cn_error(CN_ERR_VALUE,
                    "%s: argument 'backend' is '%.200s', which is not a "
                    "backend name (see cn_backend_alias)",
                    fn, backend);
  if (what == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'what' is NULL", fn);
  const cn_backend *be = strcmp(canon, "cpu") == 0 ? cn_cpu_backend()
                                                   : cn_cuda_backend_table();
  if (is_slot(what)) {
    *out = all_filled(be, what);
    return CN_OK;
  }
  for (size_t i = 0; i < CN_NCAPS; i++) {
    const struct capability *c = &g_caps[i];
    if (strcmp(c->name, what) != 0)
      continue;
    if (c->host)
      *out = be == NULL || all_filled(be, c->slots) == CN_SUPPORT_NONE
                 ? CN_SUPPORT_NONE
             : be->device_type == CN_DEVICE_CPU ? CN_SUPPORT_NATIVE
             : c->device_slots &&
                     all_filled(be, c->device_slots) == CN_SUPPORT_NATIVE
                 ? CN_SUPPORT_NATIVE
                 : CN_SUPPORT_HOST;
    else
      *out = all_filled(be, c->slots);
    return CN_OK;
  }
  const cn_op_info *ops = cn_op_table();
  for (int32_t i = 0; i < CN_OP_COUNT_; i++) {
    if (strcmp(ops[i].name, what) == 0) {
      *out = all_filled(be, g_op_slots);
      return CN_OK;
    }
  }
  return cn_error(CN_ERR_VALUE,
                  "%s: argument 'what' is '%.200s', which is no kernel, "
                  "domain, op or reduction name (see cn_backend_capability)",
                  fn, what);
}

const char *cn_backend_capability(int32_t i) {
  if (i < 0)
    return NULL;
  if ((size_t)i < CN_NSLOTS)
    return g_slots[i].name;
  if ((size_t)i < CN_NSLOTS + CN_NCAPS)
    return g_caps[i - CN_NSLOTS].name;
  return NULL;
}
