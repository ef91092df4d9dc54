/* User kernels (include/cunumpy/kernel.h): the handle, the binding of a
 * call's arguments to the declared parameters (placeholders, scalars,
 * casts), broadcasting and output allocation, then the backend's runner. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_program.h"

/* ---- text builder ------------------------------------------------------ */

void cn_kstr_init(cn_kstr *s) {
  s->text = NULL;
  s->len = s->cap = 0;
  s->oom = false;
}

void cn_kstr_free(cn_kstr *s) {
  free(s->text);
  cn_kstr_init(s);
}

static bool kstr_reserve(cn_kstr *s, size_t extra) {
  if (s->oom)
    return false;
  if (s->len + extra + 1 <= s->cap)
    return true;
  size_t cap = s->cap ? s->cap : 1024;
  while (cap < s->len + extra + 1)
    cap *= 2;
  char *t = realloc(s->text, cap);
  if (t == NULL) {
    s->oom = true;
    return false;
  }
  s->text = t;
  s->cap = cap;
  return true;
}

void cn_kstr_append(cn_kstr *s, const char *text) {
  size_t n = strlen(text);
  if (!kstr_reserve(s, n))
    return;
  memcpy(s->text + s->len, text, n + 1);
  s->len += n;
}

void cn_kstr_appendf(cn_kstr *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char small[512];
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) {
    s->oom = true;
    return;
  }
  if ((size_t)n < sizeof small) {
    cn_kstr_append(s, small);
    return;
  }
  if (!kstr_reserve(s, (size_t)n))
    return;
  va_start(ap, fmt);
  vsnprintf(s->text + s->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  s->len += (size_t)n;
}

/* ---- the handle -------------------------------------------------------- */

#define CHECK_KERNEL(k, fn)                                                    \
  do {                                                                         \
    if ((k) == NULL)                                                           \
      return cn_error(CN_ERR_VALUE, "%s: kernel is NULL", fn);                 \
    if ((k)->magic != CN_KERNEL_MAGIC)                                         \
      return cn_error(CN_ERR_VALUE,                                            \
                      "%s: kernel is a released or invalid handle", fn);       \
  } while (0)

static void kernel_free(struct cn_kernel_s *k) {
  if (k == NULL)
    return;
  k->magic = 0;
  cn_cpu_kernel_forget(k);
  free(k->operation);
  free(k->preamble);
  free(k->loop_prep);
  free(k->after_loop);
  free(k->options);
  free(k->map_expr);
  free(k->reduce_expr);
  free(k->post_map_expr);
  free(k->identity);
  free(k->reduce_type);
  free(k);
}

static char *dup_text(const char *s, bool *oom) {
  char *r = strdup(s ? s : "");
  if (r == NULL)
    *oom = true;
  return r;
}

static bool blank(const char *s) {
  if (s == NULL)
    return true;
  for (; *s; s++)
    if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
      return false;
  return true;
}

/* Parses both lists and the name into a new handle. */
static cn_status kernel_new(struct cn_kernel_s **out, int32_t kind,
                            const char *in_params, const char *out_params,
                            const char *name, const char *fn) {
  cn_kparams in, outp;
  cn_status st = cn_kparams_parse(&in, in_params, "in_params", fn);
  if (st != CN_OK)
    return st;
  st = cn_kparams_parse(&outp, out_params, "out_params", fn);
  if (st != CN_OK)
    return st;
  if (in.n + outp.n > CN_KERNEL_MAX_PARAMS)
    return cn_error(CN_ERR_VALUE, "%s: %d parameters; at most %d", fn,
                    (int)(in.n + outp.n), CN_KERNEL_MAX_PARAMS);
  for (int32_t a = 0; a < outp.n; a++)
    for (int32_t c = 0; c < in.n; c++)
      if (strcmp(outp.p[a].name, in.p[c].name) == 0)
        return cn_error(CN_ERR_VALUE,
                        "%s: out_params: parameter %d repeats the input name "
                        "'%s'",
                        fn, (int)a + 1, outp.p[a].name);
  if (name == NULL || name[0] == 0)
    name = kind == CN_KERNEL_ELEMENTWISE ? "kernel" : "reduce_kernel";
  size_t nl = strlen(name);
  if (!cn_kparam_is_identifier(name, nl) || nl >= CN_KERNEL_NAME_CAP)
    return cn_error(CN_ERR_VALUE,
                    "%s: name must be a C identifier of at most %d "
                    "characters",
                    fn, CN_KERNEL_NAME_CAP - 1);
  struct cn_kernel_s *k = calloc(1, sizeof *k);
  if (k == NULL)
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  k->magic = CN_KERNEL_MAGIC;
  atomic_init(&k->refcount, 1);
  atomic_init(&k->bound, NULL);
  k->kind = kind;
  k->nin = in.n;
  k->nout = outp.n;
  memcpy(k->params, in.p, sizeof(cn_kparam) * (size_t)in.n);
  memcpy(k->params + in.n, outp.p, sizeof(cn_kparam) * (size_t)outp.n);
  memcpy(k->name, name, nl + 1);
  *out = k;
  return CN_OK;
}

cn_status cn_elementwise_kernel_create(cn_kernel *out, const char *in_params,
                                       const char *out_params,
                                       const char *operation, const char *name,
                                       const char *preamble,
                                       const char *loop_prep,
                                       const char *after_loop,
                                       const char *options) {
  static const char fn[] = "cn_elementwise_kernel_create";
  CN_CHECK_OUT(out, fn);
  if (operation == NULL)
    return cn_error(CN_ERR_VALUE, "%s: operation is NULL", fn);
  struct cn_kernel_s *k = NULL;
  cn_status st =
      kernel_new(&k, CN_KERNEL_ELEMENTWISE, in_params, out_params, name, fn);
  if (st != CN_OK)
    return st;
  bool oom = false;
  k->operation = dup_text(operation, &oom);
  k->preamble = dup_text(preamble, &oom);
  k->loop_prep = dup_text(loop_prep, &oom);
  k->after_loop = dup_text(after_loop, &oom);
  k->options = dup_text(options, &oom);
  k->map_expr = dup_text("", &oom);
  k->reduce_expr = dup_text("", &oom);
  k->post_map_expr = dup_text("", &oom);
  k->identity = dup_text("", &oom);
  k->reduce_type = dup_text("", &oom);
  if (oom) {
    kernel_free(k);
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  *out = k;
  return CN_OK;
}

/* A reduce_type: a dtype name, a placeholder or C type words. */
static bool type_text_ok(const char *s) {
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
          (*s >= '0' && *s <= '9') || *s == '_' || *s == ' '))
      return false;
  return true;
}

cn_status cn_reduction_kernel_create(
    cn_kernel *out, const char *in_params, const char *out_params,
    const char *map_expr, const char *reduce_expr, const char *post_map_expr,
    const char *identity, const char *name, const char *reduce_type,
    const char *preamble, const char *options) {
  static const char fn[] = "cn_reduction_kernel_create";
  CN_CHECK_OUT(out, fn);
  if (blank(map_expr))
    return cn_error(CN_ERR_VALUE, "%s: map_expr is empty", fn);
  if (blank(reduce_expr))
    return cn_error(CN_ERR_VALUE, "%s: reduce_expr is empty", fn);
  if (blank(identity))
    return cn_error(CN_ERR_VALUE, "%s: identity is empty", fn);
  if (reduce_type != NULL && !type_text_ok(reduce_type))
    return cn_error(CN_ERR_VALUE,
                    "%s: reduce_type '%.40s' is not a type name", fn,
                    reduce_type);
  struct cn_kernel_s *k = NULL;
  cn_status st =
      kernel_new(&k, CN_KERNEL_REDUCTION, in_params, out_params, name, fn);
  if (st != CN_OK)
    return st;
  st = CN_OK;
  if (k->nout != 1 || k->params[k->nin].raw)
    st = cn_error(CN_ERR_VALUE,
                  "%s: a reduction kernel has exactly one non-raw output "
                  "parameter (got %d)",
                  fn, (int)k->nout);
  for (int32_t i = 0; st == CN_OK && i < k->nin; i++)
    if (k->params[i].raw)
      st = cn_error(CN_ERR_VALUE,
                    "%s: raw parameter '%s': reduction kernels take no raw "
                    "parameters",
                    fn, k->params[i].name);
  if (st != CN_OK) {
    kernel_free(k);
    return st;
  }
  bool oom = false;
  k->operation = dup_text("", &oom);
  k->preamble = dup_text(preamble, &oom);
  k->loop_prep = dup_text("", &oom);
  k->after_loop = dup_text("", &oom);
  k->options = dup_text(options, &oom);
  k->map_expr = dup_text(map_expr, &oom);
  k->reduce_expr = dup_text(reduce_expr, &oom);
  k->post_map_expr = dup_text(post_map_expr, &oom);
  k->identity = dup_text(identity, &oom);
  k->reduce_type = dup_text(blank(reduce_type) ? "" : reduce_type, &oom);
  if (oom) {
    kernel_free(k);
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  *out = k;
  return CN_OK;
}

cn_status cn_kernel_retain(cn_kernel k) {
  CHECK_KERNEL(k, "cn_kernel_retain");
  atomic_fetch_add(&k->refcount, 1);
  return CN_OK;
}

void cn_kernel_release(cn_kernel k) {
  if (k == NULL || k->magic != CN_KERNEL_MAGIC)
    return;
  if (atomic_fetch_sub(&k->refcount, 1) == 1)
    kernel_free(k);
}

cn_status cn_kernel_nin(int32_t *out, cn_kernel k) {
  CN_CHECK_OUT(out, "cn_kernel_nin");
  CHECK_KERNEL(k, "cn_kernel_nin");
  *out = k->nin;
  return CN_OK;
}

cn_status cn_kernel_nout(int32_t *out, cn_kernel k) {
  CN_CHECK_OUT(out, "cn_kernel_nout");
  CHECK_KERNEL(k, "cn_kernel_nout");
  *out = k->nout;
  return CN_OK;
}

cn_status cn_kernel_kind(int32_t *out, cn_kernel k) {
  CN_CHECK_OUT(out, "cn_kernel_kind");
  CHECK_KERNEL(k, "cn_kernel_kind");
  *out = k->kind;
  return CN_OK;
}

cn_status cn_kernel_name(char *name, int64_t name_cap, cn_kernel k) {
  CN_CHECK_OUT(name, "cn_kernel_name");
  CHECK_KERNEL(k, "cn_kernel_name");
  if (name_cap <= 0)
    return cn_error(CN_ERR_VALUE, "cn_kernel_name: name_cap %lld <= 0",
                    (long long)name_cap);
  snprintf(name, (size_t)name_cap, "%s", k->name);
  return CN_OK;
}

/* ---- binding the arguments -------------------------------------------- */

static bool is_weak(const cn_array_s *a) {
  return (a->flags & CN_FLAG_WEAK_SCALAR) != 0;
}

static int32_t letter_slot(cn_kernel_binding *b, char c) {
  for (int32_t i = 0; i < b->nletters; i++)
    if (b->letter[i] == c)
      return i;
  return -1;
}

/* Binds letter c to dt; CN_ERR_TYPE when it is bound to another dtype. */
static cn_status bind_letter(cn_kernel_binding *b, char c, cn_dtype dt,
                             const char *pname, const char *fn,
                             const char *kname) {
  int32_t s = letter_slot(b, c);
  if (s < 0) {
    s = b->nletters++;
    b->letter[s] = c;
    b->letter_type[s] = dt;
    return CN_OK;
  }
  if (b->letter_type[s] != dt)
    return cn_error(CN_ERR_TYPE,
                    "%s: '%s': type placeholder '%c' is %s, but argument '%s' "
                    "is %s",
                    fn, kname, c, cn_dtype_name(b->letter_type[s]), pname,
                    cn_dtype_name(dt));
  return CN_OK;
}

/* Checks the argument count and handles, resolves the placeholders and
 * each parameter's type and storage dtype. */
static cn_status bind_args(cn_kernel_binding *b, const struct cn_kernel_s *k,
                           int32_t n, const cn_array *arrays, int32_t nout_ok,
                           const char *fn) {
  memset(b, 0, sizeof *b);
  b->k = k;
  if (n < 0 || (n != k->nin && n != k->nin + nout_ok))
    return cn_error(CN_ERR_VALUE,
                    "%s: '%s' takes %d arguments (or %d with its outputs), "
                    "got %d",
                    fn, k->name, (int)k->nin, (int)(k->nin + nout_ok), (int)n);
  if (n > 0 && arrays == NULL)
    return cn_error(CN_ERR_VALUE, "%s: arrays is NULL", fn);
  for (int32_t i = 0; i < n; i++)
    CN_CHECK_ARRAY(arrays[i], fn, k->params[i].name);
  /* Python scalars (weak 0-d arrays) go where the arrays are. */
  int32_t ref = -1;
  for (int32_t i = 0; i < n; i++) {
    if (is_weak(arrays[i]))
      continue;
    if (ref < 0)
      ref = i;
    else if (cn_backend_of(arrays[i]) != cn_backend_of(arrays[ref]) ||
             arrays[i]->buf->device_id != arrays[ref]->buf->device_id)
      return cn_error(CN_ERR_DEVICE,
                      "%s: '%s': argument '%s' is on another device than '%s'",
                      fn, k->name, k->params[i].name, k->params[ref].name);
  }
  cn_status st;
  /* Arrays first (inputs, then passed outputs), then weak scalars. */
  for (int pass = 0; pass < 2; pass++)
    for (int32_t i = 0; i < n; i++) {
      const cn_kparam *p = &k->params[i];
      if (p->placeholder == 0 || is_weak(arrays[i]) != (pass == 1))
        continue;
      if (pass == 1 && letter_slot(b, p->placeholder) >= 0)
        continue;
      st = bind_letter(b, p->placeholder, arrays[i]->dtype, p->name, fn,
                       k->name);
      if (st != CN_OK)
        return st;
    }
  int32_t np = k->nin + k->nout;
  for (int32_t i = 0; i < np; i++) {
    const cn_kparam *p = &k->params[i];
    cn_dtype t = p->dtype;
    if (p->placeholder) {
      int32_t s = letter_slot(b, p->placeholder);
      if (s < 0)
        return cn_error(CN_ERR_TYPE,
                        "%s: '%s': cannot determine the type placeholder '%c' "
                        "of parameter '%s' (no argument gives it)",
                        fn, k->name, p->placeholder, p->name);
      t = b->letter_type[s];
    }
    b->type[i] = t;
    b->storage[i] = t;
    if (i < n && !p->raw && !is_weak(arrays[i]))
      b->storage[i] = arrays[i]->dtype;
    b->scalar[i] = i < k->nin && i < n && !p->raw && arrays[i]->ndim == 0;
  }
  return CN_OK;
}

/* "(2, 3)", truncated to cap. */
static void shape_text(char *buf, size_t cap, int32_t nd, const int64_t *sh) {
  size_t n = (size_t)snprintf(buf, cap, "(");
  for (int32_t d = 0; d < nd && n < cap; d++)
    n += (size_t)snprintf(buf + n, cap - n, d ? ", %lld" : "%lld",
                          (long long)sh[d]);
  if (n < cap)
    snprintf(buf + n, cap - n, nd == 1 ? ",)" : ")");
}

/* Broadcast shape of the non-raw arguments (nothing when none). */
static cn_status loop_shape(int32_t *ndim, int64_t *shape, bool *any,
                            const struct cn_kernel_s *k, int32_t n,
                            const cn_array *arrays, const char *fn) {
  *ndim = 0;
  *any = false;
  for (int32_t i = 0; i < n; i++) {
    const cn_array_s *a = arrays[i];
    if (k->params[i].raw)
      continue;
    *any = true;
    int32_t nd = a->ndim > *ndim ? a->ndim : *ndim;
    int64_t sh[CN_MAX_DIMS];
    for (int32_t d = 0; d < nd; d++) {
      int32_t da = d - (nd - a->ndim), dc = d - (nd - *ndim);
      int64_t ea = da >= 0 ? a->shape[da] : 1;
      int64_t ec = dc >= 0 ? shape[dc] : 1;
      if (ea != ec && ea != 1 && ec != 1) {
        char txt[96];
        shape_text(txt, sizeof txt, a->ndim, a->shape);
        return cn_error(CN_ERR_SHAPE,
                        "%s: '%s': argument '%s' of shape %s does not "
                        "broadcast with the others (axis %d: %lld vs %lld)",
                        fn, k->name, k->params[i].name, txt, (int)d,
                        (long long)ea, (long long)ec);
      }
      sh[d] = ea == 1 ? ec : ea;
    }
    memcpy(shape, sh, sizeof(int64_t) * (size_t)nd);
    *ndim = nd;
  }
  return CN_OK;
}

static bool same_shape(const cn_array_s *a, int32_t nd, const int64_t *sh) {
  if (a->ndim != nd)
    return false;
  for (int32_t d = 0; d < nd; d++)
    if (a->shape[d] != sh[d])
      return false;
  return true;
}

/* A C-contiguous array of dtype t with a's elements (a new reference to a
 * when it already is one). */
static cn_status contiguous_as(cn_array_s **out, cn_array_s *a, cn_dtype t) {
  cn_array_s *c = NULL;
  cn_status st = cn_astype(&c, a, t, 0);
  if (st != CN_OK)
    return st;
  if (!cn_array_is_c_contig(c)) {
    cn_array_s *d = NULL;
    st = cn_copy(&d, c, CN_ORDER_C);
    cn_array_release(c);
    if (st != CN_OK)
      return st;
    c = d;
  }
  *out = c;
  return CN_OK;
}

/* The array deciding where a call runs: the first that is not a Python
 * scalar (NULL when all are). */
static cn_array_s *device_ref(int32_t n, const cn_array *arrays) {
  for (int32_t i = 0; i < n; i++)
    if (!is_weak(arrays[i]))
      return arrays[i];
  return NULL;
}

/* A 0-d of dtype t holding a weak scalar's value, on ref's device. */
static cn_status scalar_operand(cn_array_s **out, const cn_array_s *a,
                                cn_dtype t, const cn_array_s *ref) {
  cn_array_s *v = NULL;
  cn_status st = cn_from_scalar(&v, a->weak, t);
  if (st != CN_OK)
    return st;
  const cn_backend *want = ref ? cn_backend_of(ref) : cn_backend_of(v);
  if (cn_backend_of(v) == want &&
      (ref == NULL || v->buf->device_id == ref->buf->device_id)) {
    *out = v;
    return CN_OK;
  }
  st = want->device_type == CN_DEVICE_CPU
           ? cn_to_host(out, v)
           : cn_to_device(out, v, ref->buf->device_id);
  cn_array_release(v);
  return st;
}

/* The operand of a non-raw input: a weak scalar as a 0-d of its type,
 * another 0-d as is, an array broadcast to the loop shape. */
static cn_status input_operand(cn_array_s **out, cn_array_s *a, cn_dtype t,
                               int32_t nd, const int64_t *sh,
                               const cn_array_s *ref, const char *fn) {
  if (is_weak(a))
    return scalar_operand(out, a, t, ref);
  if (a->ndim == 0 || (a->ndim == nd &&
                       memcmp(a->shape, sh, sizeof(int64_t) * (size_t)nd) ==
                           0)) {
    cn_array_retain(a);
    *out = a;
    return CN_OK;
  }
  return cn_broadcast_view(out, a, nd, sh, fn);
}

static bool on_cpu(const cn_array_s *a) {
  return cn_backend_of(a)->device_type == CN_DEVICE_CPU;
}

/* Byte strides of a over nd axes (0-d: all zero). */
static void byte_strides(int64_t *dst, const cn_array_s *a, int32_t nd) {
  int64_t isz = cn_itemsize(a->dtype);
  for (int32_t d = 0; d < nd; d++)
    dst[d] = a->ndim == 0 ? 0 : a->strides[d] * isz;
}

/* Generates the CUDA source of b and has the plugin run it. */
static cn_status cuda_launch(const cn_kernel_binding *b, int32_t reduce,
                             int64_t n, int64_t r, const int64_t *geom,
                             int32_t ngeom, void *const *ptrs,
                             int32_t nptrs) {
  cn_kstr src;
  cn_kstr_init(&src);
  if (!cn_kernel_cuda_source(&src, b)) {
    cn_kstr_free(&src);
    return cn_error(CN_ERR_MEMORY, "cn_kernel: out of memory");
  }
  char kname[CN_KERNEL_NAME_CAP + 16];
  snprintf(kname, sizeof kname, "cn_kernel_%s", b->k->name);
  cn_status st = cn_cuda_user_kernel_launch(src.text, kname, reduce, n, r,
                                            geom, ngeom, ptrs, nptrs);
  cn_kstr_free(&src);
  return st;
}

/* The elementwise geometry of core/kernel_cuda_source.c: [nd, shape,
 * byte strides per non-raw operand], pointers in parameter order. */
static cn_status cuda_elementwise(const cn_kernel_binding *b, int32_t nd,
                                  const int64_t *shape, cn_array_s *const *ops,
                                  cn_array_s *const *raws, int64_t total) {
  const struct cn_kernel_s *k = b->k;
  int32_t np = k->nin + k->nout, nop = 0, nraw = 0;
  void *ptrs[CN_KERNEL_MAX_PARAMS];
  for (int32_t i = 0; i < np; i++)
    ptrs[i] = k->params[i].raw ? (void *)raws[nraw++]->data
                               : (void *)ops[nop++]->data;
  int32_t ngeom = 1 + nd + nop * nd;
  int64_t *geom = malloc(sizeof(int64_t) * (size_t)ngeom);
  if (geom == NULL)
    return cn_error(CN_ERR_MEMORY, "cn_kernel_call: out of memory");
  geom[0] = nd;
  memcpy(geom + 1, shape, sizeof(int64_t) * (size_t)nd);
  for (int32_t j = 0; j < nop; j++)
    byte_strides(geom + 1 + nd * (j + 1), ops[j], nd);
  cn_status st = cuda_launch(b, 0, total, 0, geom, ngeom, ptrs, np);
  free(geom);
  return st;
}

/* The reduction geometry: [nkeep, kept shape, kept byte strides per
 * input, the output's byte strides, run byte stride per input]. */
static cn_status cuda_reduce(const cn_kernel_binding *b, int32_t nin,
                             cn_array_s *const *ins, cn_array_s *out) {
  cn_kreduce_layout *L = malloc(sizeof *L);
  if (L == NULL)
    return cn_error(CN_ERR_MEMORY, "cn_kernel_reduce: out of memory");
  int32_t nk = out->ndim;
  cn_status st = cn_kreduce_layout_make(L, nin, ins, nk);
  if (st != CN_OK) {
    free(L);
    return st;
  }
  int32_t ngeom = 1 + nk + nin * nk + nk + nin;
  int64_t *geom = malloc(sizeof(int64_t) * (size_t)ngeom);
  void *ptrs[CN_KERNEL_MAX_PARAMS + 1];
  if (geom == NULL) {
    st = cn_error(CN_ERR_MEMORY, "cn_kernel_reduce: out of memory");
  } else {
    geom[0] = nk;
    memcpy(geom + 1, out->shape, sizeof(int64_t) * (size_t)nk);
    for (int32_t j = 0; j < nin; j++) {
      memcpy(geom + 1 + nk * (j + 1), L->kst[j], sizeof(int64_t) * (size_t)nk);
      geom[1 + nk * (nin + 2) + j] = L->rs[j];
      ptrs[j] = L->base[j];
    }
    byte_strides(geom + 1 + nk * (nin + 1), out, nk);
    ptrs[nin] = out->data;
    st = cuda_launch(b, 1, out->size, L->R, geom, ngeom, ptrs, nin + 1);
  }
  free(geom);
  cn_kreduce_layout_free(L);
  free(L);
  return st;
}

/* ---- elementwise calls ------------------------------------------------- */

cn_status cn_kernel_call(cn_array *outs, int32_t cap, cn_kernel k, int32_t n,
                         const cn_array *arrays, int64_t size) {
  static const char fn[] = "cn_kernel_call";
  CN_CHECK_OUT(outs, fn);
  CHECK_KERNEL(k, fn);
  if (k->kind != CN_KERNEL_ELEMENTWISE)
    return cn_error(CN_ERR_VALUE,
                    "%s: '%s' is a reduction kernel (use cn_kernel_reduce)",
                    fn, k->name);
  if (cap < k->nout)
    return cn_error(CN_ERR_VALUE, "%s: cap %d < the %d outputs", fn, (int)cap,
                    (int)k->nout);
  cn_kernel_binding b;
  cn_status st = bind_args(&b, k, n, arrays, k->nout, fn);
  if (st != CN_OK)
    return st;
  int32_t nd;
  int64_t shape[CN_MAX_DIMS];
  bool any;
  st = loop_shape(&nd, shape, &any, k, n, arrays, fn);
  if (st != CN_OK)
    return st;
  if (any && size >= 0)
    return cn_error(CN_ERR_VALUE,
                    "%s: '%s': size can be given only when every array "
                    "argument is raw",
                    fn, k->name);
  if (!any) {
    if (size < 0)
      return cn_error(CN_ERR_VALUE,
                      "%s: '%s': the loop size is undecided: pass size or a "
                      "non-raw array argument",
                      fn, k->name);
    nd = 1;
    shape[0] = size;
  }
  int64_t total = 1;
  st = cn_shape_size(&total, nd, shape, 1, fn);
  if (st != CN_OK)
    return st;
  for (int32_t i = k->nin; i < n; i++) {
    const cn_array_s *o = arrays[i];
    if (!cn_array_writeable(o))
      return cn_error(CN_ERR_VALUE, "%s: '%s': output '%s' is read-only", fn,
                      k->name, k->params[i].name);
    if (!k->params[i].raw && !same_shape(o, nd, shape))
      return cn_error(CN_ERR_SHAPE,
                      "%s: '%s': output '%s' has %d dimensions of another "
                      "shape than the broadcast shape (%d dimensions)",
                      fn, k->name, k->params[i].name, (int)o->ndim, (int)nd);
  }
  cn_array_s *ref = device_ref(n, arrays);
  const cn_backend *be = ref ? cn_backend_of(ref) : cn_cpu_backend();
  int32_t device = ref ? ref->buf->device_id : 0;
  int32_t np = k->nin + k->nout;
  cn_array_s *res[CN_KERNEL_MAX_PARAMS] = {0}; /* the outputs returned */
  cn_array_s *ops[CN_KERNEL_MAX_PARAMS] = {0};
  cn_array_s *raws[CN_KERNEL_MAX_PARAMS] = {0};
  int32_t nops = 0, nraw = 0;
  for (int32_t i = k->nin; i < np && st == CN_OK; i++) {
    if (i < n) {
      cn_array_retain(arrays[i]);
      res[i - k->nin] = arrays[i];
    } else {
      st = cn_array_new(&res[i - k->nin], be, device, b.type[i], nd, shape,
                        CN_ORDER_C);
      b.storage[i] = b.type[i];
    }
  }
  for (int32_t i = 0; i < np && st == CN_OK; i++) {
    const cn_kparam *p = &k->params[i];
    cn_array_s *a = i < k->nin ? arrays[i] : res[i - k->nin];
    if (p->raw)
      st = contiguous_as(&raws[nraw++], a, b.type[i]);
    else if (i < k->nin)
      st = input_operand(&ops[nops++], a, b.type[i], nd, shape, ref, fn);
    else {
      cn_array_retain(a);
      ops[nops++] = a;
    }
  }
  if (st == CN_OK && total > 0)
    st = be->device_type == CN_DEVICE_CPU
             ? cn_cpu_kernel_elementwise(&b, nd, shape, ops, raws, total)
             : cuda_elementwise(&b, nd, shape, ops, raws, total);
  /* Raw outputs that were computed in a contiguous copy go back. */
  {
    int32_t r = 0;
    for (int32_t i = 0; i < np; i++) {
      if (!k->params[i].raw)
        continue;
      cn_array_s *orig = i < k->nin ? NULL : res[i - k->nin];
      if (st == CN_OK && orig != NULL && raws[r] != orig)
        st = cn_assign(orig, raws[r]);
      r++;
    }
  }
  for (int32_t i = 0; i < nops; i++)
    cn_array_release(ops[i]);
  for (int32_t i = 0; i < nraw; i++)
    cn_array_release(raws[i]);
  if (st != CN_OK) {
    for (int32_t i = 0; i < k->nout; i++)
      cn_array_release(res[i]);
    return st;
  }
  for (int32_t i = 0; i < k->nout; i++)
    outs[i] = res[i];
  return CN_OK;
}

/* ---- reductions --------------------------------------------------------- */

cn_status cn_kreduce_layout_make(cn_kreduce_layout *L, int32_t nin,
                                 cn_array_s *const *ins, int32_t nkeep) {
  cn_status st = CN_OK;
  memset(L->own, 0, sizeof L->own);
  L->nkeep = nkeep;
  L->R = 1;
  const cn_array_s *ref = NULL;
  for (int32_t i = 0; i < nin && st == CN_OK; i++) {
    cn_array_s *a = ins[i];
    if (a->ndim == 0) {
      L->base[i] = a->data;
      L->rs[i] = 0;
      for (int32_t d = 0; d < nkeep; d++)
        L->kst[i][d] = 0;
      continue;
    }
    int64_t isz = cn_itemsize(a->dtype);
    bool merges = true, first = true;
    int64_t want = 0, inner = 0; /* what the next outer axis must have */
    for (int32_t d = a->ndim - 1; d >= nkeep; d--) {
      if (a->shape[d] == 1)
        continue;
      if (first) {
        inner = a->strides[d];
        first = false;
      } else if (a->strides[d] != want) {
        merges = false;
      }
      want = a->strides[d] * a->shape[d];
    }
    if (!merges) {
      st = cn_copy(&L->own[i], a, CN_ORDER_C);
      if (st != CN_OK)
        break;
      a = L->own[i];
      inner = 1;
    }
    L->base[i] = a->data;
    L->rs[i] = inner * isz;
    for (int32_t d = 0; d < nkeep; d++)
      L->kst[i][d] = a->strides[d] * isz;
    ref = a;
  }
  if (st != CN_OK) {
    cn_kreduce_layout_free(L);
    return st;
  }
  /* Only 0-d inputs (Python scalars): one element. */
  for (int32_t d = nkeep; ref != NULL && d < ref->ndim; d++)
    L->R *= ref->shape[d];
  return CN_OK;
}

void cn_kreduce_layout_free(cn_kreduce_layout *L) {
  for (int32_t i = 0; i < CN_KERNEL_MAX_PARAMS; i++) {
    cn_array_release(L->own[i]);
    L->own[i] = NULL;
  }
}

cn_status cn_kernel_reduce(cn_array *outs, int32_t cap, cn_kernel k, int32_t n,
                           const cn_array *arrays, int32_t naxes,
                           const int32_t *axes, int32_t keepdims) {
  static const char fn[] = "cn_kernel_reduce";
  CN_CHECK_OUT(outs, fn);
  CHECK_KERNEL(k, fn);
  if (k->kind != CN_KERNEL_REDUCTION)
    return cn_error(CN_ERR_VALUE,
                    "%s: '%s' is an elementwise kernel (use cn_kernel_call)",
                    fn, k->name);
  if (cap < 1)
    return cn_error(CN_ERR_VALUE, "%s: cap %d < 1", fn, (int)cap);
  cn_kernel_binding b;
  cn_status st = bind_args(&b, k, n, arrays, 1, fn);
  if (st != CN_OK)
    return st;
  int32_t nd;
  int64_t shape[CN_MAX_DIMS];
  bool any;
  st = loop_shape(&nd, shape, &any, k, k->nin, arrays, fn);
  if (st != CN_OK)
    return st;
  if (!any)
    return cn_error(CN_ERR_VALUE, "%s: '%s' has no input to reduce", fn,
                    k->name);
  uint64_t mask = 0;
  st = cn_axes_mask(&mask, naxes, axes, nd, fn);
  if (st != CN_OK)
    return st;
  int32_t nkeep = 0, nred = 0, ond = 0;
  int64_t oshape[CN_MAX_DIMS], kshape[CN_MAX_DIMS];
  int32_t perm[CN_MAX_DIMS];
  for (int32_t d = 0; d < nd; d++)
    if (!(mask >> d & 1)) {
      perm[nkeep] = d;
      kshape[nkeep++] = shape[d];
    }
  for (int32_t d = 0; d < nd; d++)
    if (mask >> d & 1)
      perm[nkeep + nred++] = d;
  for (int32_t d = 0; d < nd; d++)
    if (!(mask >> d & 1) || keepdims)
      oshape[ond++] = (mask >> d & 1) ? 1 : shape[d];
  int32_t oi = k->nin;
  cn_array_s *out = NULL;
  if (n > k->nin) {
    out = arrays[oi];
    if (!cn_array_writeable(out))
      return cn_error(CN_ERR_VALUE, "%s: '%s': output '%s' is read-only", fn,
                      k->name, k->params[oi].name);
    if (!same_shape(out, ond, oshape))
      return cn_error(CN_ERR_SHAPE,
                      "%s: '%s': output '%s' has %d dimensions of another "
                      "shape than the result (%d dimensions)",
                      fn, k->name, k->params[oi].name, (int)out->ndim,
                      (int)ond);
    cn_array_retain(out);
  }
  cn_array_s *ref = device_ref(n, arrays);
  if (out == NULL) {
    st = ref ? cn_array_new(&out, cn_backend_of(ref), ref->buf->device_id,
                            b.type[oi], ond, oshape, CN_ORDER_C)
             : cn_array_new(&out, cn_cpu_backend(), 0, b.type[oi], ond,
                            oshape, CN_ORDER_C);
    if (st != CN_OK)
      return st;
    b.storage[oi] = b.type[oi];
  }
  cn_array_s *ins[CN_KERNEL_MAX_PARAMS] = {0};
  cn_array_s *oview = NULL;
  for (int32_t i = 0; i < k->nin && st == CN_OK; i++) {
    cn_array_s *v = NULL;
    st = input_operand(&v, arrays[i], b.type[i], nd, shape, ref, fn);
    if (st != CN_OK || v->ndim == 0) {
      ins[i] = v;
      continue;
    }
    int64_t psh[CN_MAX_DIMS], pst[CN_MAX_DIMS];
    for (int32_t d = 0; d < nd; d++) {
      psh[d] = v->shape[perm[d]];
      pst[d] = v->strides[perm[d]];
    }
    st = cn_array_view(&ins[i], v, v->data, nd, psh, pst);
    cn_array_release(v);
  }
  if (st == CN_OK) {
    /* The output seen as the kept axes (its reduced axes have extent 1). */
    int64_t kst[CN_MAX_DIMS];
    for (int32_t d = 0, j = 0; d < out->ndim; d++)
      if (!keepdims || !(mask >> d & 1))
        kst[j++] = out->strides[d];
    st = cn_array_view(&oview, out, out->data, nkeep, kshape, kst);
  }
  if (st == CN_OK)
    st = on_cpu(out) ? cn_cpu_kernel_reduce(&b, k->nin, ins, nred, oview)
                     : cuda_reduce(&b, k->nin, ins, oview);
  for (int32_t i = 0; i < k->nin; i++)
    cn_array_release(ins[i]);
  cn_array_release(oview);
  if (st != CN_OK) {
    cn_array_release(out);
    return st;
  }
  outs[0] = out;
  return CN_OK;
}

/* ---- source ------------------------------------------------------------- */

cn_status cn_kernel_source(char *buf, int64_t cap, int64_t *len, cn_kernel k,
                           int32_t backend, int32_t n,
                           const cn_array *arrays) {
  static const char fn[] = "cn_kernel_source";
  CN_CHECK_OUT(len, fn);
  CHECK_KERNEL(k, fn);
  if (buf == NULL && cap > 0)
    return cn_error(CN_ERR_VALUE, "%s: buf is NULL with cap %lld", fn,
                    (long long)cap);
  if (backend != CN_KERNEL_SOURCE_CPU && backend != CN_KERNEL_SOURCE_CUDA)
    return cn_error(CN_ERR_VALUE, "%s: backend %d is not CN_KERNEL_SOURCE_*",
                    fn, (int)backend);
  cn_kernel_binding b;
  cn_status st = bind_args(
      &b, k, n, arrays, k->kind == CN_KERNEL_REDUCTION ? 1 : k->nout, fn);
  if (st != CN_OK)
    return st;
  cn_kstr s;
  cn_kstr_init(&s);
  bool ok = backend == CN_KERNEL_SOURCE_CPU ? cn_kernel_c_source(&s, &b)
                                            : cn_kernel_cuda_source(&s, &b);
  if (!ok || s.oom) {
    cn_kstr_free(&s);
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  *len = (int64_t)s.len;
  if (cap > 0) {
    size_t m = s.len < (size_t)cap - 1 ? s.len : (size_t)cap - 1;
    memcpy(buf, s.text, m);
    buf[m] = 0;
  }
  cn_kstr_free(&s);
  return CN_OK;
}

cn_status cn_kernel_cpu_cache_info(int64_t *compiled, int64_t *disk_hits,
                                   int64_t *in_memory) {
  CN_CHECK_OUT(compiled, "cn_kernel_cpu_cache_info");
  CN_CHECK_OUT(disk_hits, "cn_kernel_cpu_cache_info");
  CN_CHECK_OUT(in_memory, "cn_kernel_cpu_cache_info");
  cn_host_compile_counters(compiled, disk_hits, in_memory);
  return CN_OK;
}
