/* User kernels on the CPU: the C source of a bound kernel, and the loops
 * that drive its compiled block function over strided operands with
 * OpenMP. The generated functions see one contiguous run of elements at a
 * time (per-operand pointers and byte strides), so all n-d iteration,
 * broadcasting and threading stays here. */
#include <omp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../kernel_program.h"
#include "cpu.h"

/* C type of a dtype in generated code. */
static const char *c_type(cn_dtype dt) {
  switch (dt) {
  case CN_BOOL:
    return "bool";
  case CN_INT8:
    return "int8_t";
  case CN_INT16:
    return "int16_t";
  case CN_INT32:
    return "int32_t";
  case CN_INT64:
    return "int64_t";
  case CN_UINT8:
    return "uint8_t";
  case CN_UINT16:
    return "uint16_t";
  case CN_UINT32:
    return "uint32_t";
  case CN_UINT64:
    return "uint64_t";
  case CN_FLOAT32:
    return "float";
  case CN_FLOAT64:
    return "double";
  case CN_COMPLEX64:
    return "float _Complex";
  case CN_COMPLEX128:
    return "double _Complex";
  default:
    return "void";
  }
}

static void prologue(cn_kstr *s, const cn_kernel_binding *b) {
  const struct cn_kernel_s *k = b->k;
  cn_kstr_appendf(s,
                  "/* cunumpy CPU kernel '%s' */\n"
                  "#include <stdint.h>\n#include <stdbool.h>\n"
                  "#include <stddef.h>\n#include <math.h>\n"
                  "#include <complex.h>\n#include <tgmath.h>\n"
                  "#ifndef max\n#define max(a, b) ((a) > (b) ? (a) : (b))\n"
                  "#endif\n#ifndef min\n"
                  "#define min(a, b) ((a) < (b) ? (a) : (b))\n#endif\n",
                  k->name);
  for (int32_t i = 0; i < b->nletters; i++)
    cn_kstr_appendf(s, "typedef %s %c;\n", c_type(b->letter_type[i]),
                    b->letter[i]);
  if (k->kind == CN_KERNEL_REDUCTION)
    cn_kstr_appendf(s, "typedef %s _type_reduce;\n",
                    k->reduce_type[0]
                        ? (cn_kparam_dtype_named(k->reduce_type,
                                                 strlen(k->reduce_type))
                               ? c_type(cn_kparam_dtype_named(
                                     k->reduce_type, strlen(k->reduce_type)))
                               : k->reduce_type)
                        : c_type(b->type[k->nin]));
  /* _ind.size() in bodies: a member function in CUDA, a function pointer
   * reading this thread's loop size here. */
  cn_kstr_append(s, "static _Thread_local int64_t _cn_size;\n"
                    "static int64_t _cn_size_of(void) { return _cn_size; }\n"
                    "struct _cn_index { int64_t (*size)(void); };\n");
  if (k->preamble[0])
    cn_kstr_appendf(s, "#line 1 \"preamble\"\n%s\n", k->preamble);
}

/* Declares the locals of the non-raw inputs at element _k of the run. */
static void load_inputs(cn_kstr *s, const cn_kernel_binding *b, bool contig) {
  const struct cn_kernel_s *k = b->k;
  for (int32_t i = 0, op = 0; i < k->nin; i++) {
    const cn_kparam *p = &k->params[i];
    if (p->raw)
      continue;
    const char *t = c_type(b->type[i]), *st = c_type(b->storage[i]);
    if (b->scalar[i])
      cn_kstr_appendf(s, "      const %s %s = _cn_v%d;\n", t, p->name,
                      (int)op);
    else if (contig)
      cn_kstr_appendf(s, "      const %s %s = (%s)((const %s *)_p[%d])[_k];\n",
                      t, p->name, t, st, (int)op);
    else
      cn_kstr_appendf(s,
                      "      const %s %s = (%s)*(const %s *)(_p[%d] + _k * "
                      "_s[%d]);\n",
                      t, p->name, t, st, (int)op, (int)op);
    op++;
  }
}

/* Scalars (0-d inputs) are read once per run. */
static void load_scalars(cn_kstr *s, const cn_kernel_binding *b) {
  const struct cn_kernel_s *k = b->k;
  for (int32_t i = 0, op = 0; i < k->nin; i++) {
    if (k->params[i].raw)
      continue;
    if (b->scalar[i])
      cn_kstr_appendf(s, "  const %s _cn_v%d = (%s)*(const %s *)_p[%d];\n",
                      c_type(b->type[i]), (int)op, c_type(b->type[i]),
                      c_type(b->storage[i]), (int)op);
    op++;
  }
}

/* The condition under which every array operand is a contiguous run. */
static void contig_test(cn_kstr *s, const cn_kernel_binding *b, int32_t np) {
  const struct cn_kernel_s *k = b->k;
  cn_kstr_append(s, "  const bool _cn_contig = 1");
  for (int32_t i = 0, op = 0; i < np; i++) {
    if (k->params[i].raw)
      continue;
    if (!b->scalar[i])
      cn_kstr_appendf(s, " && _s[%d] == (int64_t)sizeof(%s)", (int)op,
                      c_type(b->storage[i]));
    op++;
  }
  cn_kstr_append(s, ";\n");
}

static void elementwise_loop(cn_kstr *s, const cn_kernel_binding *b,
                             bool contig) {
  const struct cn_kernel_s *k = b->k;
  int32_t np = k->nin + k->nout;
  cn_kstr_append(s, "    for (int64_t _k = 0; _k < _n; _k++) {\n"
                    "      const int64_t i = _i0 + _k;\n      (void)i;\n");
  load_inputs(s, b, contig);
  int32_t nin_ops = 0;
  for (int32_t i = 0; i < k->nin; i++)
    nin_ops += !k->params[i].raw;
  for (int32_t i = k->nin, op = nin_ops; i < np; i++) {
    const cn_kparam *p = &k->params[i];
    if (p->raw)
      continue;
    const char *t = c_type(b->type[i]), *st = c_type(b->storage[i]);
    if (contig)
      cn_kstr_appendf(s, "      %s %s = (%s)((%s *)_p[%d])[_k];\n", t,
                      p->name, t, st, (int)op);
    else
      cn_kstr_appendf(s, "      %s %s = (%s)*(%s *)(_p[%d] + _k * _s[%d]);\n",
                      t, p->name, t, st, (int)op, (int)op);
    op++;
  }
  cn_kstr_appendf(s, "      {\n#line 1 \"operation\"\n%s;\n      }\n",
                  k->operation);
  for (int32_t i = k->nin, op = nin_ops; i < np; i++) {
    const cn_kparam *p = &k->params[i];
    if (p->raw)
      continue;
    const char *st = c_type(b->storage[i]);
    if (contig)
      cn_kstr_appendf(s, "      ((%s *)_p[%d])[_k] = (%s)%s;\n", st, (int)op,
                      st, p->name);
    else
      cn_kstr_appendf(s, "      *(%s *)(_p[%d] + _k * _s[%d]) = (%s)%s;\n",
                      st, (int)op, (int)op, st, p->name);
    op++;
  }
  cn_kstr_append(s, "    }\n");
}

static void raw_pointers(cn_kstr *s, const cn_kernel_binding *b) {
  const struct cn_kernel_s *k = b->k;
  int32_t np = k->nin + k->nout;
  for (int32_t i = 0, r = 0; i < np; i++) {
    const cn_kparam *p = &k->params[i];
    if (!p->raw)
      continue;
    const char *t = c_type(b->type[i]);
    cn_kstr_appendf(s, "  %s%s *const %s = (%s%s *)_raw[%d];\n  (void)%s;\n",
                    i < k->nin ? "const " : "", t, p->name,
                    i < k->nin ? "const " : "", t, (int)r, p->name);
    r++;
  }
}

static bool elementwise_source(cn_kstr *s, const cn_kernel_binding *b) {
  const struct cn_kernel_s *k = b->k;
  prologue(s, b);
  cn_kstr_append(
      s, "void " CN_KERNEL_C_ENTRY
         "(int64_t _n, int64_t _i0, int64_t _size, char *const *_p,\n"
         "                     const int64_t *_s, void *const *_raw) {\n"
         "  (void)_raw;\n  _cn_size = _size;\n"
         "  const struct _cn_index _ind = {_cn_size_of};\n  (void)_ind;\n");
  raw_pointers(s, b);
  load_scalars(s, b);
  if (k->loop_prep[0])
    cn_kstr_appendf(s, "#line 1 \"loop_prep\"\n%s;\n", k->loop_prep);
  contig_test(s, b, k->nin + k->nout);
  cn_kstr_append(s, "  if (_cn_contig) {\n");
  elementwise_loop(s, b, true);
  cn_kstr_append(s, "  } else {\n");
  elementwise_loop(s, b, false);
  cn_kstr_append(s, "  }\n");
  if (k->after_loop[0])
    cn_kstr_appendf(s, "  {\n#line 1 \"after_loop\"\n%s;\n  }\n",
                    k->after_loop);
  cn_kstr_append(s, "}\n");
  return !s->oom;
}

/* Reductions: _cn_block reduces a run pairwise (halves cut at multiples of
 * the 128-element leaf); the engine combines runs in order. */
static void reduce_leaf(cn_kstr *s, const cn_kernel_binding *b, bool contig) {
  const struct cn_kernel_s *k = b->k;
  cn_kstr_append(s, "    for (int64_t _k = _off; _k < _off + _n; _k++) {\n");
  load_inputs(s, b, contig);
  cn_kstr_appendf(s,
                  "      const _type_reduce b = (_type_reduce)(\n"
                  "#line 1 \"map_expr\"\n%s\n);\n"
                  "      a = _cn_reduce(a, b);\n    }\n",
                  k->map_expr);
}

static bool reduction_source(cn_kstr *s, const cn_kernel_binding *b) {
  const struct cn_kernel_s *k = b->k;
  prologue(s, b);
  cn_kstr_appendf(s,
                  "static inline _type_reduce _cn_reduce(_type_reduce a, "
                  "_type_reduce b) {\n  return (_type_reduce)(\n"
                  "#line 1 \"reduce_expr\"\n%s\n);\n}\n"
                  "static inline _type_reduce _cn_identity(void) {\n"
                  "  return (_type_reduce)(\n#line 1 \"identity\"\n%s\n);\n}\n",
                  k->reduce_expr, k->identity);
  cn_kstr_append(s, "static _type_reduce _cn_block(int64_t _off, int64_t _n, "
                    "char *const *_p, const int64_t *_s, bool _cn_contig");
  for (int32_t i = 0, op = 0; i < k->nin; i++) {
    if (b->scalar[i])
      cn_kstr_appendf(s, ", %s _cn_v%d", c_type(b->type[i]), (int)op);
    op++;
  }
  cn_kstr_append(s, ") {\n  if (_n > 128) {\n"
                    "    const int64_t _h = (_n / 2 + 127) / 128 * 128;\n"
                    "    return _cn_reduce(_cn_block(_off, _h, _p, _s, "
                    "_cn_contig");
  for (int32_t i = 0; i < 2; i++) {
    if (i == 1)
      cn_kstr_append(s, "),\n                      _cn_block(_off + _h, _n - "
                        "_h, _p, _s, _cn_contig");
    for (int32_t j = 0, op = 0; j < k->nin; j++) {
      if (b->scalar[j])
        cn_kstr_appendf(s, ", _cn_v%d", (int)op);
      op++;
    }
  }
  cn_kstr_append(s, "));\n  }\n  _type_reduce a = _cn_identity();\n"
                    "  if (_cn_contig) {\n");
  reduce_leaf(s, b, true);
  cn_kstr_append(s, "  } else {\n");
  reduce_leaf(s, b, false);
  cn_kstr_append(s, "  }\n  return a;\n}\n");
  /* entry: acc = reduce(acc, block) over one run. */
  cn_kstr_append(s, "void " CN_KERNEL_C_ENTRY
                    "(int64_t _n, char *const *_p, const int64_t *_s, "
                    "void *_acc) {\n  _cn_size = _n;\n");
  load_scalars(s, b);
  contig_test(s, b, k->nin);
  cn_kstr_append(s, "  _type_reduce *_a = (_type_reduce *)_acc;\n"
                    "  *_a = _cn_reduce(*_a, _cn_block(0, _n, _p, _s, "
                    "_cn_contig");
  for (int32_t i = 0, op = 0; i < k->nin; i++) {
    if (b->scalar[i])
      cn_kstr_appendf(s, ", _cn_v%d", (int)op);
    op++;
  }
  cn_kstr_append(s, "));\n}\n");
  const cn_kparam *o = &k->params[k->nin];
  const char *ot = c_type(b->type[k->nin]), *ost = c_type(b->storage[k->nin]);
  cn_kstr_appendf(s,
                  "void cn_kernel_identity(void *_acc) {\n"
                  "  *(_type_reduce *)_acc = _cn_identity();\n}\n"
                  "void cn_kernel_combine(void *_acc, const void *_other) {\n"
                  "  _type_reduce *_a = (_type_reduce *)_acc;\n"
                  "  *_a = _cn_reduce(*_a, *(const _type_reduce *)_other);\n"
                  "}\n"
                  "int64_t cn_kernel_acc_size(void) { return "
                  "(int64_t)sizeof(_type_reduce); }\n"
                  "void cn_kernel_finish(const void *_acc, char *_out) {\n"
                  "  const _type_reduce a = *(const _type_reduce *)_acc;\n"
                  "  (void)a;\n  %s %s = (%s)*(%s *)_out;\n"
                  "  {\n#line 1 \"post_map_expr\"\n%s;\n  }\n"
                  "  *(%s *)_out = (%s)%s;\n}\n",
                  ot, o->name, ot, ost,
                  k->post_map_expr[0] ? k->post_map_expr : "", ost, ost,
                  o->name);
  return !s->oom;
}

bool cn_kernel_c_source(cn_kstr *s, const cn_kernel_binding *b) {
  return b->k->kind == CN_KERNEL_REDUCTION ? reduction_source(s, b)
                                           : elementwise_source(s, b);
}

/* ---- the cache of bound kernels ---------------------------------------- */

/* A compiled binding: the generated source is the identity of the object,
 * but making it for every call would cost more than small calls, so the
 * binding itself (its dtypes and scalar flags) is looked up first. */
typedef struct cn_kernel_bound {
  cn_dtype type[CN_KERNEL_MAX_PARAMS], storage[CN_KERNEL_MAX_PARAMS];
  bool scalar[CN_KERNEL_MAX_PARAMS];
  void *fn[5];
  struct cn_kernel_bound *next;
} bound;

static const char *const k_red_syms[5] = {CN_KERNEL_C_ENTRY,
                                          "cn_kernel_identity",
                                          "cn_kernel_combine",
                                          "cn_kernel_acc_size",
                                          "cn_kernel_finish"};

static bool same_binding(const bound *e, const cn_kernel_binding *b) {
  int32_t np = b->k->nin + b->k->nout;
  return memcmp(e->type, b->type, sizeof(cn_dtype) * (size_t)np) == 0 &&
         memcmp(e->storage, b->storage, sizeof(cn_dtype) * (size_t)np) == 0 &&
         memcmp(e->scalar, b->scalar, sizeof(bool) * (size_t)np) == 0;
}

/* Entries hang off the kernel's own list (k->bound), guarded by one lock. */
static pthread_mutex_t g_bound_lock = PTHREAD_MUTEX_INITIALIZER;

static bound *find_bound(bound *e, const cn_kernel_binding *b) {
  for (; e != NULL; e = e->next)
    if (same_binding(e, b))
      return e;
  return NULL;
}

static cn_status get_functions(void **fns, const cn_kernel_binding *b) {
  struct cn_kernel_s *k = (struct cn_kernel_s *)b->k;
  int nfn = k->kind == CN_KERNEL_REDUCTION ? 5 : 1;
  bound *hit = find_bound(atomic_load_explicit(&k->bound, memory_order_acquire), b);
  if (hit != NULL) {
    memcpy(fns, hit->fn, sizeof(void *) * (size_t)nfn);
    return CN_OK;
  }
  cn_kstr src;
  cn_kstr_init(&src);
  if (!cn_kernel_c_source(&src, b)) {
    cn_kstr_free(&src);
    return cn_error(CN_ERR_MEMORY, "cn_kernel: out of memory generating '%s'",
                    k->name);
  }
  bound *e = calloc(1, sizeof *e);
  if (e == NULL) {
    cn_kstr_free(&src);
    return cn_error(CN_ERR_MEMORY, "cn_kernel: out of memory");
  }
  void *handle = NULL;
  cn_status st = cn_host_compile(&handle, src.text, k->options, k->name);
  cn_kstr_free(&src);
  for (int i = 0; st == CN_OK && i < nfn; i++) {
    e->fn[i] = cn_host_symbol(handle, nfn == 1 ? CN_KERNEL_C_ENTRY
                                                : k_red_syms[i]);
    if (e->fn[i] == NULL)
      st = cn_error(CN_ERR_INTERNAL,
                    "cn_kernel: '%s': the compiled object lacks %s", k->name,
                    nfn == 1 ? CN_KERNEL_C_ENTRY : k_red_syms[i]);
  }
  if (st != CN_OK) {
    free(e);
    return st;
  }
  int32_t np = k->nin + k->nout;
  memcpy(e->type, b->type, sizeof(cn_dtype) * (size_t)np);
  memcpy(e->storage, b->storage, sizeof(cn_dtype) * (size_t)np);
  memcpy(e->scalar, b->scalar, sizeof(bool) * (size_t)np);
  memcpy(fns, e->fn, sizeof(void *) * (size_t)nfn);
  /* Entries are published whole and never change; a racing thread that
   * added the same binding first wins and this copy is dropped. */
  pthread_mutex_lock(&g_bound_lock);
  bound *head = atomic_load_explicit(&k->bound, memory_order_relaxed);
  if (find_bound(head, b) != NULL) {
    free(e);
  } else {
    e->next = head;
    atomic_store_explicit(&k->bound, e, memory_order_release);
  }
  pthread_mutex_unlock(&g_bound_lock);
  return CN_OK;
}

void cn_cpu_kernel_forget(struct cn_kernel_s *k) {
  bound *e = atomic_exchange(&k->bound, NULL);
  while (e != NULL) {
    bound *nx = e->next;
    free(e);
    e = nx;
  }
}

/* ---- elementwise runner ------------------------------------------------- */

typedef void (*ew_fn)(int64_t n, int64_t i0, int64_t size, char *const *p,
                      const int64_t *s, void *const *raw);

typedef struct {
  int32_t nd, nop;
  int64_t shape[CN_MAX_DIMS];
  int64_t st[CN_KERNEL_MAX_PARAMS][CN_MAX_DIMS]; /* bytes */
  char *base[CN_KERNEL_MAX_PARAMS];
} geom;

/* Drops extent-1 axes and merges neighbours that are contiguous in every
 * operand, keeping C order (so the flat index of an element is kept). */
static void coalesce(geom *g, int32_t nd, const int64_t *shape, int32_t nop,
                     cn_array_s *const *ops, const bool *scalar) {
  g->nop = nop;
  g->nd = 0;
  for (int32_t j = 0; j < nop; j++)
    g->base[j] = ops[j]->data;
  for (int32_t d = 0; d < nd; d++) {
    if (shape[d] == 1)
      continue;
    int32_t e = g->nd;
    bool merge = e > 0;
    for (int32_t j = 0; merge && j < nop; j++) {
      if (scalar[j])
        continue;
      int64_t sb = ops[j]->strides[d] * cn_itemsize(ops[j]->dtype);
      if (g->st[j][e - 1] != sb * shape[d])
        merge = false;
    }
    if (merge) {
      g->shape[e - 1] *= shape[d];
      for (int32_t j = 0; j < nop; j++)
        g->st[j][e - 1] =
            scalar[j] ? 0 : ops[j]->strides[d] * cn_itemsize(ops[j]->dtype);
      continue;
    }
    g->shape[e] = shape[d];
    for (int32_t j = 0; j < nop; j++)
      g->st[j][e] =
          scalar[j] ? 0 : ops[j]->strides[d] * cn_itemsize(ops[j]->dtype);
    g->nd++;
  }
  if (g->nd == 0) {
    g->nd = 1;
    g->shape[0] = 1;
    for (int32_t j = 0; j < nop; j++)
      g->st[j][0] = 0;
  }
}

/* Runs fn over flat positions [lo, hi) of g. */
static void ew_range(const geom *g, ew_fn fn, int64_t lo, int64_t hi,
                     int64_t total, void *const *raw) {
  int32_t nd = g->nd, nop = g->nop;
  int64_t ctr[CN_MAX_DIMS];
  char *p[CN_KERNEL_MAX_PARAMS];
  int64_t s[CN_KERNEL_MAX_PARAMS];
  for (int32_t j = 0; j < nop; j++) {
    p[j] = g->base[j];
    s[j] = g->st[j][nd - 1];
  }
  int64_t r = lo;
  for (int32_t d = nd - 1; d >= 0; d--) {
    ctr[d] = r % g->shape[d];
    r /= g->shape[d];
    for (int32_t j = 0; j < nop; j++)
      p[j] += ctr[d] * g->st[j][d];
  }
  int64_t pos = lo, inner = g->shape[nd - 1];
  while (pos < hi) {
    int64_t n = inner - ctr[nd - 1];
    if (n > hi - pos)
      n = hi - pos;
    fn(n, pos, total, p, s, raw);
    pos += n;
    if (pos >= hi)
      break;
    /* to the start of the next run */
    for (int32_t j = 0; j < nop; j++)
      p[j] -= ctr[nd - 1] * g->st[j][nd - 1];
    ctr[nd - 1] = 0;
    for (int32_t d = nd - 2; d >= 0; d--) {
      if (++ctr[d] < g->shape[d]) {
        for (int32_t j = 0; j < nop; j++)
          p[j] += g->st[j][d];
        break;
      }
      for (int32_t j = 0; j < nop; j++)
        p[j] -= (g->shape[d] - 1) * g->st[j][d];
      ctr[d] = 0;
    }
  }
}

cn_status cn_cpu_kernel_elementwise(const cn_kernel_binding *b, int32_t ndim,
                                    const int64_t *shape,
                                    cn_array_s *const *ops,
                                    cn_array_s *const *raws, int64_t size) {
  const struct cn_kernel_s *k = b->k;
  void *fnp = NULL;
  cn_status st = get_functions(&fnp, b);
  if (st != CN_OK)
    return st;
  ew_fn fn = (ew_fn)fnp;
  int32_t np = k->nin + k->nout, nop = 0, nraw = 0;
  bool scalar[CN_KERNEL_MAX_PARAMS];
  void *raw[CN_KERNEL_MAX_PARAMS];
  for (int32_t i = 0; i < np; i++) {
    if (k->params[i].raw) {
      raw[nraw] = raws[nraw]->data;
      nraw++;
    } else {
      scalar[nop++] = b->scalar[i];
    }
  }
  geom gs;
  geom *g = &gs;
  coalesce(g, ndim, shape, nop, ops, scalar);
  int nt = cn_cpu_threads_for(size);
  if (nt <= 1) {
    ew_range(g, fn, 0, size, size, raw);
  } else {
#pragma omp parallel num_threads(nt)
    {
      int t = omp_get_thread_num(), T = omp_get_num_threads();
      int64_t lo = size / T * t + (t < size % T ? t : size % T);
      int64_t hi = lo + size / T + (t < size % T ? 1 : 0);
      ew_range(g, fn, lo, hi, size, raw);
    }
  }
  return CN_OK;
}

/* ---- reduction runner ----------------------------------------------------- */

typedef void (*red_entry_fn)(int64_t n, char *const *p, const int64_t *s,
                             void *acc);
typedef void (*red_identity_fn)(void *acc);
typedef void (*red_combine_fn)(void *acc, const void *other);
typedef int64_t (*red_size_fn)(void);
typedef void (*red_finish_fn)(const void *acc, char *out);

#define ACC_CAP 64

cn_status cn_cpu_kernel_reduce(const cn_kernel_binding *b, int32_t nin,
                               cn_array_s *const *ins, int32_t nred,
                               cn_array_s *out) {
  void *fns[5];
  cn_status st = get_functions(fns, b);
  if (st != CN_OK)
    return st;
  red_entry_fn entry = (red_entry_fn)fns[0];
  red_identity_fn identity = (red_identity_fn)fns[1];
  red_combine_fn combine = (red_combine_fn)fns[2];
  red_finish_fn finish = (red_finish_fn)fns[4];
  if (((red_size_fn)fns[3])() > ACC_CAP)
    return cn_error(CN_ERR_VALUE,
                    "cn_kernel_reduce: '%s': reduce_type is larger than %d "
                    "bytes",
                    b->k->name, ACC_CAP);
  cn_kreduce_layout L;
  st = cn_kreduce_layout_make(&L, nin, ins, out->ndim);
  if (st != CN_OK)
    return st;
  int32_t nkeep = L.nkeep;
  int64_t R = L.R;
  char *const *base = L.base;
  const int64_t *rs = L.rs;
  int64_t(*kst)[CN_MAX_DIMS] = L.kst;
  int64_t nout = out->size;
  int64_t osz = cn_itemsize(out->dtype);
  int nt = cn_cpu_threads_for(nout * (R > 0 ? R : 1));
  if (nout >= nt || R < 4096) {
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1 && nout > 1)
    for (int64_t o = 0; o < nout; o++) {
      char *p[CN_KERNEL_MAX_PARAMS];
      int64_t r = o;
      char *op = out->data;
      for (int32_t i = 0; i < nin; i++)
        p[i] = base[i];
      for (int32_t d = nkeep - 1; d >= 0; d--) {
        int64_t c = r % out->shape[d];
        r /= out->shape[d];
        for (int32_t i = 0; i < nin; i++)
          p[i] += c * kst[i][d];
        op += c * out->strides[d] * osz;
      }
      _Alignas(16) unsigned char acc[ACC_CAP];
      identity(acc);
      if (R > 0)
        entry(R, p, rs, acc);
      finish(acc, op);
    }
  } else {
    /* Few outputs: each one's run is cut into one chunk per thread, and
     * the chunks' results are combined in order. */
    _Alignas(16) unsigned char part[64][ACC_CAP];
    if (nt > 64)
      nt = 64;
    for (int64_t o = 0; o < nout; o++) {
      char *p0[CN_KERNEL_MAX_PARAMS];
      int64_t r = o;
      char *op = out->data;
      for (int32_t i = 0; i < nin; i++)
        p0[i] = base[i];
      for (int32_t d = nkeep - 1; d >= 0; d--) {
        int64_t c = r % out->shape[d];
        r /= out->shape[d];
        for (int32_t i = 0; i < nin; i++)
          p0[i] += c * kst[i][d];
        op += c * out->strides[d] * osz;
      }
      int64_t chunk = (R + nt - 1) / nt;
      chunk = (chunk + 127) / 128 * 128;
#pragma omp parallel for num_threads(nt) schedule(static)
      for (int t = 0; t < nt; t++) {
        identity(part[t]);
        int64_t lo = (int64_t)t * chunk, hi = lo + chunk;
        if (hi > R)
          hi = R;
        if (lo < hi) {
          char *p[CN_KERNEL_MAX_PARAMS];
          for (int32_t i = 0; i < nin; i++)
            p[i] = p0[i] + lo * rs[i];
          entry(hi - lo, p, rs, part[t]);
        }
      }
      for (int t = 1; t < nt; t++)
        combine(part[0], part[t]);
      finish(part[0], op);
    }
  }
  cn_kreduce_layout_free(&L);
  return CN_OK;
}
