/* CUDA C source of a bound user kernel, as CuPy writes it: a grid-stride
 * loop over the flat index i, each strided operand's offset computed from
 * i through the loop shape (CuPy's CIndexer), the parameters bound to
 * locals. The text goes after the plugin's device prelude (its cn_i64 /
 * cn_c64 types and cn_cast). Geometry arrives in one device array:
 *   elementwise: [ndim, shape[ndim], byte strides[op][ndim]]
 *   reduction:   [nkeep, kept shape[nkeep], kept byte strides[in][nkeep],
 *                 output byte strides[nkeep], run byte stride[in]]
 * Pure text generation: it lives in the core so that the generated source
 * can be inspected (cn_kernel_source) and compile-checked by NVRTC without
 * a GPU. */
#include <string.h>

#include "kernel_program.h"

static const char *cu_type(cn_dtype dt) {
  switch (dt) {
  case CN_BOOL:
    return "bool";
  case CN_INT8:
    return "cn_i8";
  case CN_INT16:
    return "cn_i16";
  case CN_INT32:
    return "cn_i32";
  case CN_INT64:
    return "cn_i64";
  case CN_UINT8:
    return "cn_u8";
  case CN_UINT16:
    return "cn_u16";
  case CN_UINT32:
    return "cn_u32";
  case CN_UINT64:
    return "cn_u64";
  case CN_FLOAT32:
    return "float";
  case CN_FLOAT64:
    return "double";
  case CN_COMPLEX64:
    return "cn_c64";
  case CN_COMPLEX128:
    return "cn_c128";
  default:
    return "void";
  }
}

static void cu_prologue(cn_kstr *s, const cn_kernel_binding *b) {
  const struct cn_kernel_s *k = b->k;
  cn_kstr_appendf(s, "// cunumpy CUDA kernel '%s'\n", k->name);
  for (int32_t i = 0; i < b->nletters; i++)
    cn_kstr_appendf(s, "typedef %s %c;\n", cu_type(b->letter_type[i]),
                    b->letter[i]);
  if (k->kind == CN_KERNEL_REDUCTION) {
    cn_dtype rd = cn_kparam_dtype_named(k->reduce_type, strlen(k->reduce_type));
    cn_kstr_appendf(s, "typedef %s _type_reduce;\n",
                    k->reduce_type[0] ? (rd ? cu_type(rd) : k->reduce_type)
                                      : cu_type(b->type[k->nin]));
  }
  cn_kstr_append(s, "struct _cn_index_t {\n  long long n;\n"
                    "  __device__ long long size() const { return n; }\n};\n");
  if (k->preamble[0])
    cn_kstr_appendf(s, "#line 1 \"preamble\"\n%s\n", k->preamble);
}

/* Kernel parameters: the loop size, the geometry, one byte pointer per
 * non-raw operand, one typed pointer per raw parameter. */
static void cu_params(cn_kstr *s, const cn_kernel_binding *b, int32_t np) {
  const struct cn_kernel_s *k = b->k;
  for (int32_t i = 0, op = 0; i < np; i++) {
    const cn_kparam *p = &k->params[i];
    if (p->raw)
      cn_kstr_appendf(s, ", %s%s *__restrict__ %s",
                      i < k->nin ? "const " : "", cu_type(b->type[i]),
                      p->name);
    else
      cn_kstr_appendf(s, ", char *_p%d", (int)op++);
  }
}

static void cu_load(cn_kstr *s, const cn_kernel_binding *b, int32_t i,
                    int32_t op, bool out) {
  const cn_kparam *p = &b->k->params[i];
  const char *t = cu_type(b->type[i]), *st = cu_type(b->storage[i]);
  cn_kstr_appendf(s, "    %s%s %s = cn_cast<%s, %s>(*(const %s *)(_p%d + _o%d));\n",
                  out ? "" : "const ", t, p->name, t, st, st, (int)op,
                  (int)op);
}

static bool cu_elementwise(cn_kstr *s, const cn_kernel_binding *b) {
  const struct cn_kernel_s *k = b->k;
  int32_t np = k->nin + k->nout, nop = 0;
  for (int32_t i = 0; i < np; i++)
    nop += !k->params[i].raw;
  cu_prologue(s, b);
  cn_kstr_appendf(s,
                  "extern \"C\" __global__ void cn_kernel_%s(long long _n, "
                  "const long long *__restrict__ _geom",
                  k->name);
  cu_params(s, b, np);
  cn_kstr_append(s, ") {\n  const int _nd = (int)_geom[0];\n"
                    "  const _cn_index_t _ind = {_n};\n  (void)_ind;\n");
  if (k->loop_prep[0])
    cn_kstr_appendf(s, "#line 1 \"loop_prep\"\n%s;\n", k->loop_prep);
  cn_kstr_append(s, "  for (long long i = blockIdx.x * (long long)blockDim.x "
                    "+ threadIdx.x; i < _n;\n"
                    "       i += (long long)blockDim.x * gridDim.x) {\n"
                    "    long long _r = i;\n");
  for (int32_t j = 0; j < nop; j++)
    cn_kstr_appendf(s, "    long long _o%d = 0;\n", (int)j);
  cn_kstr_append(s, "    for (int _d = _nd - 1; _d >= 0; _d--) {\n"
                    "      const long long _e = _geom[1 + _d];\n"
                    "      const long long _c = _r % _e;\n      _r /= _e;\n");
  for (int32_t j = 0; j < nop; j++)
    cn_kstr_appendf(s, "      _o%d += _c * _geom[1 + _nd * %d + _d];\n",
                    (int)j, (int)(j + 1));
  cn_kstr_append(s, "    }\n");
  for (int32_t i = 0, op = 0; i < np; i++) {
    if (k->params[i].raw)
      continue;
    cu_load(s, b, i, op++, i >= k->nin);
  }
  cn_kstr_appendf(s, "    {\n#line 1 \"operation\"\n%s;\n    }\n",
                  k->operation);
  for (int32_t i = 0, op = 0; i < np; i++) {
    if (k->params[i].raw)
      continue;
    if (i >= k->nin)
      cn_kstr_appendf(s, "    *(%s *)(_p%d + _o%d) = cn_cast<%s, %s>(%s);\n",
                      cu_type(b->storage[i]), (int)op, (int)op,
                      cu_type(b->storage[i]), cu_type(b->type[i]),
                      k->params[i].name);
    op++;
  }
  cn_kstr_append(s, "  }\n");
  if (k->after_loop[0])
    cn_kstr_appendf(s, "  {\n#line 1 \"after_loop\"\n%s;\n  }\n",
                    k->after_loop);
  cn_kstr_append(s, "}\n");
  return !s->oom;
}

/* One block per output element (grid-stride over outputs); each thread
 * reduces a strided share of the run, then a shared-memory tree. */
static bool cu_reduction(cn_kstr *s, const cn_kernel_binding *b) {
  const struct cn_kernel_s *k = b->k;
  int32_t nin = k->nin;
  cu_prologue(s, b);
  cn_kstr_appendf(s,
                  "__device__ __forceinline__ _type_reduce "
                  "_cn_reduce(const _type_reduce &a, const _type_reduce &b) "
                  "{\n  return (_type_reduce)(\n#line 1 \"reduce_expr\"\n%s\n"
                  ");\n}\n",
                  k->reduce_expr);
  cn_kstr_appendf(s,
                  "extern \"C\" __global__ void cn_kernel_%s(long long _nout, "
                  "long long _R, const long long *__restrict__ _geom",
                  k->name);
  cu_params(s, b, nin);
  cn_kstr_append(s, ", char *_out) {\n"
                    "  __shared__ __align__(16) unsigned char "
                    "_shraw[256 * sizeof(_type_reduce)];\n"
                    "  _type_reduce *_sh = "
                    "reinterpret_cast<_type_reduce *>(_shraw);\n"
                    "  const int _nk = (int)_geom[0];\n"
                    "  for (long long _o = blockIdx.x; _o < _nout; _o += "
                    "gridDim.x) {\n    long long _r = _o, _oo = 0;\n");
  for (int32_t j = 0; j < nin; j++)
    cn_kstr_appendf(s, "    long long _b%d = 0;\n", (int)j);
  cn_kstr_append(s, "    for (int _d = _nk - 1; _d >= 0; _d--) {\n"
                    "      const long long _e = _geom[1 + _d];\n"
                    "      const long long _c = _r % _e;\n      _r /= _e;\n");
  for (int32_t j = 0; j < nin; j++)
    cn_kstr_appendf(s, "      _b%d += _c * _geom[1 + _nk * %d + _d];\n",
                    (int)j, (int)(j + 1));
  cn_kstr_appendf(s,
                  "      _oo += _c * _geom[1 + _nk * %d + _d];\n    }\n",
                  (int)(nin + 1));
  cn_kstr_appendf(s,
                  "    _type_reduce a = (_type_reduce)(\n#line 1 "
                  "\"identity\"\n%s\n);\n"
                  "    for (long long _k = threadIdx.x; _k < _R; _k += "
                  "blockDim.x) {\n",
                  k->identity);
  for (int32_t j = 0; j < nin; j++)
    cn_kstr_appendf(s,
                    "      const long long _o%d = _b%d + _k * _geom[1 + _nk * "
                    "%d + %d];\n",
                    (int)j, (int)j, (int)(nin + 2), (int)j);
  for (int32_t i = 0; i < nin; i++) {
    const char *t = cu_type(b->type[i]), *st = cu_type(b->storage[i]);
    cn_kstr_appendf(s,
                    "      const %s %s = cn_cast<%s, %s>(*(const %s *)(_p%d + "
                    "_o%d));\n",
                    t, k->params[i].name, t, st, st, (int)i, (int)i);
  }
  const cn_kparam *o = &k->params[nin];
  const char *ot = cu_type(b->type[nin]), *ost = cu_type(b->storage[nin]);
  cn_kstr_appendf(
      s,
      "      a = _cn_reduce(a, (_type_reduce)(\n#line 1 \"map_expr\"\n%s\n));\n"
      "    }\n    _sh[threadIdx.x] = a;\n    __syncthreads();\n"
      "    for (unsigned _w = blockDim.x / 2; _w > 0; _w /= 2) {\n"
      "      if (threadIdx.x < _w)\n"
      "        _sh[threadIdx.x] = _cn_reduce(_sh[threadIdx.x], "
      "_sh[threadIdx.x + _w]);\n      __syncthreads();\n    }\n"
      "    if (threadIdx.x == 0) {\n      a = _sh[0];\n"
      "      %s *_dst = (%s *)(_out + _oo);\n"
      "      %s %s = cn_cast<%s, %s>(*_dst);\n"
      "      {\n#line 1 \"post_map_expr\"\n%s;\n      }\n"
      "      *_dst = cn_cast<%s, %s>(%s);\n    }\n    __syncthreads();\n"
      "  }\n}\n",
      k->map_expr, ost, ost, ot, o->name, ot, ost, k->post_map_expr, ost, ot,
      o->name);
  return !s->oom;
}

bool cn_kernel_cuda_source(cn_kstr *s, const cn_kernel_binding *b) {
  return b->k->kind == CN_KERNEL_REDUCTION ? cu_reduction(s, b)
                                           : cu_elementwise(s, b);
}
