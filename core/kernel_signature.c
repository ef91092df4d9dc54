/* Kernel signatures: the parameter list of one __global__ function, parsed
 * once from the kernel's source, and the checks of a call's arguments
 * against it (count, array dtypes, scalar ranges, struct types). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_ctype.h"

#define SIG_MAGIC 0x5349474bu /* "KGIS" */
#define SIG_MAX_PARAMS 1024
#define WHY_CAP 400

struct cn_kernel_sig_s {
  uint32_t magic;
  atomic_int_fast64_t refcount;
  char name[CN_CT_NAME_CAP];
  int32_t n;
  cn_ctype *p;
};

/* Shared with core/kernel_struct.c (struct names in messages). */
CN_INTERNAL const char *cn_struct_layout_name_of(cn_struct_layout l);
CN_INTERNAL int64_t cn_struct_layout_size_of(cn_struct_layout l);
CN_INTERNAL bool cn_struct_layout_valid(cn_struct_layout l);

#define CHECK_SIG(s, fn)                                                       \
  do {                                                                         \
    if ((s) == NULL || (s)->magic != SIG_MAGIC)                                \
      return cn_error(CN_ERR_VALUE, "%s: argument 'sig' is %s", fn,            \
                      (s) == NULL ? "NULL" : "a released or invalid handle");  \
  } while (0)

static bool tok_eq(const cn_tok *t, const char *s, size_t n) {
  return t->kind == CN_TK_IDENT && (size_t)t->len == n &&
         memcmp(t->p, s, n) == 0;
}

/* Index of the token closing the bracket opened at i (same kind), or -1. */
static int64_t matching(const cn_toks *t, int64_t i, const char *open,
                        const char *close) {
  int64_t depth = 0;
  for (int64_t k = i; k < t->n; k++) {
    if (cn_ct_tok_is(&t->t[k], open))
      depth++;
    else if (cn_ct_tok_is(&t->t[k], close) && --depth == 0)
      return k;
  }
  return -1;
}

/* The opening '<' of the template list ending at the '>' at index i, or
 * -1 (a '>' of a comparison has no template keyword before its '<'). */
static int64_t template_open(const cn_toks *t, int64_t i) {
  int64_t depth = 0;
  for (int64_t k = i; k >= 0; k--) {
    if (cn_ct_tok_is(&t->t[k], ">"))
      depth++;
    else if (cn_ct_tok_is(&t->t[k], "<") && --depth == 0)
      return (k > 0 && cn_ct_tok_is(&t->t[k - 1], "template")) ? k : -1;
    else if (cn_ct_tok_is(&t->t[k], ";") || cn_ct_tok_is(&t->t[k], "{") ||
             cn_ct_tok_is(&t->t[k], "}"))
      return -1;
  }
  return -1;
}

/* Splits [b, e) at top-level commas (outside (), <>, [], {}) into at most
 * cap ranges; returns the count, or -1 when there are more than cap or
 * brackets do not balance. An empty range gives 0 parts. */
static int32_t split_commas(const cn_tok **pb, const cn_tok **pe, int32_t cap,
                            const cn_tok *b, const cn_tok *e) {
  if (b == e)
    return 0;
  int32_t n = 0;
  int depth = 0;
  const cn_tok *start = b;
  for (const cn_tok *t = b; t <= e; t++) {
    if (t == e || (depth == 0 && cn_ct_tok_is(t, ","))) {
      if (n == cap)
        return -1;
      pb[n] = start;
      pe[n] = t;
      n++;
      start = t + 1;
      continue;
    }
    if (cn_ct_tok_is(t, "(") || cn_ct_tok_is(t, "<") || cn_ct_tok_is(t, "[") ||
        cn_ct_tok_is(t, "{"))
      depth++;
    else if (cn_ct_tok_is(t, ")") || cn_ct_tok_is(t, ">") ||
             cn_ct_tok_is(t, "]") || cn_ct_tok_is(t, "}"))
      depth--;
    if (depth < 0)
      return -1;
  }
  return depth == 0 ? n : -1;
}

#define MAX_TPARAMS 16

/* Parses the parameters [b, e) of kernel name into sig. */
static cn_status parse_params(struct cn_kernel_sig_s *sig, const cn_tok *b,
                              const cn_tok *e, const cn_ct_subst *subst,
                              int32_t nsub, const char *fn) {
  if (e - b == 1 && cn_ct_tok_is(b, "void"))
    return CN_OK;
  const cn_tok **pb = malloc(SIG_MAX_PARAMS * sizeof *pb);
  const cn_tok **pe = malloc(SIG_MAX_PARAMS * sizeof *pe);
  if (pb == NULL || pe == NULL) {
    free(pb);
    free(pe);
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  int32_t n = split_commas(pb, pe, SIG_MAX_PARAMS, b, e);
  cn_status st = CN_OK;
  if (n < 0) {
    st = cn_error(CN_ERR_VALUE,
                  "%s: kernel '%s': unbalanced brackets or more than %d "
                  "parameters (line %d, column %d)",
                  fn, sig->name, SIG_MAX_PARAMS, (int)b->line, (int)b->col);
  } else if (n > 0) {
    sig->p = calloc((size_t)n, sizeof *sig->p);
    if (sig->p == NULL)
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  for (int32_t i = 0; st == CN_OK && i < n; i++) {
    char why[WHY_CAP];
    if (pb[i] == pe[i]) {
      st = cn_error(CN_ERR_VALUE,
                    "%s: kernel '%s': parameter %d is empty (line %d, column "
                    "%d)",
                    fn, sig->name, (int)i, (int)b->line, (int)b->col);
    } else {
      /* a default argument ends the declaration */
      const cn_tok *end = pb[i];
      while (end < pe[i] && !cn_ct_tok_is(end, "="))
        end++;
      if (end < pe[i])
        st = cn_error(CN_ERR_VALUE,
                      "%s: kernel '%s': parameter %d has a default argument "
                      "(line %d, column %d), which kernels cannot have",
                      fn, sig->name, (int)i, (int)end->line, (int)end->col);
      else if (!cn_ct_parse_decl(&sig->p[i], pb[i], pe[i], subst, nsub, false,
                                 why, sizeof why))
        st = cn_error(CN_ERR_VALUE, "%s: kernel '%s': parameter %d: %s", fn,
                      sig->name, (int)i, why);
      else if (sig->p[i].base == CN_CT_STRUCT && sig->p[i].depth == 0 &&
               subst != NULL && nsub > 0) {
        /* a template parameter left unreplaced is not a struct */
        for (int32_t k = 0; k < nsub; k++)
          if ((size_t)subst[k].name->len == strlen(sig->p[i].text) &&
              memcmp(subst[k].name->p, sig->p[i].text,
                     (size_t)subst[k].name->len) == 0)
            st = cn_error(CN_ERR_VALUE,
                          "%s: kernel '%s': parameter %d has the template "
                          "type '%s' and no template argument for it",
                          fn, sig->name, (int)i, sig->p[i].text);
      }
    }
  }
  if (st == CN_OK)
    sig->n = n;
  free(pb);
  free(pe);
  return st;
}

cn_status cn_kernel_sig_parse(cn_kernel_sig *out, const char *source,
                              const char *name, const char *template_args) {
  const char *fn = "cn_kernel_sig_parse";
  CN_CHECK_OUT(out, fn);
  if (source == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'source' is NULL", fn);
  if (name == NULL || name[0] == 0)
    return cn_error(CN_ERR_VALUE, "%s: argument 'name' is %s", fn,
                    name == NULL ? "NULL" : "empty");
  size_t name_len = strlen(name);
  if (name_len >= CN_CT_NAME_CAP)
    return cn_error(CN_ERR_VALUE, "%s: the kernel name is longer than %d "
                                  "characters", fn, CN_CT_NAME_CAP - 1);
  struct cn_kernel_sig_s *sig = calloc(1, sizeof *sig);
  cn_toks toks = {0}, targs = {0};
  if (sig == NULL || !cn_ct_tokenize(&toks, source, strlen(source)) ||
      (template_args != NULL &&
       !cn_ct_tokenize(&targs, template_args, strlen(template_args)))) {
    free(sig);
    cn_ct_toks_free(&toks);
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  memcpy(sig->name, name, name_len + 1);
  cn_status st = CN_OK;
  bool found = false;
  for (int64_t g = 0; g < toks.n && !found && st == CN_OK; g++) {
    if (!cn_ct_tok_is(&toks.t[g], "__global__"))
      continue;
    /* the name: the identifier just before the first '(' that is not
     * an attribute's */
    int64_t k = g + 1, name_at = -1;
    while (k < toks.n && !cn_ct_tok_is(&toks.t[k], ";") &&
           !cn_ct_tok_is(&toks.t[k], "{")) {
      const cn_tok *t = &toks.t[k];
      if (cn_ct_tok_is(t, "(")) {
        if (k > g + 1 && (cn_ct_tok_is(&toks.t[k - 1], "__launch_bounds__") ||
                          cn_ct_tok_is(&toks.t[k - 1], "__attribute__") ||
                          cn_ct_tok_is(&toks.t[k - 1], "__cluster_dims__") ||
                          cn_ct_tok_is(&toks.t[k - 1], "alignas"))) {
          int64_t m = matching(&toks, k, "(", ")");
          if (m < 0)
            break;
          k = m + 1;
          continue;
        }
        if (k > g + 1 && toks.t[k - 1].kind == CN_TK_IDENT)
          name_at = k - 1;
        break;
      }
      k++;
    }
    if (name_at < 0 || !tok_eq(&toks.t[name_at], name, name_len))
      continue;
    found = true;
    int64_t close = matching(&toks, name_at + 1, "(", ")");
    if (close < 0) {
      st = cn_error(CN_ERR_VALUE,
                    "%s: kernel '%s': its parameter list is not closed (line "
                    "%d, column %d)",
                    fn, name, (int)toks.t[name_at + 1].line,
                    (int)toks.t[name_at + 1].col);
      break;
    }
    /* a template header before the declaration specifiers */
    int64_t before = g - 1;
    while (before >= 0 && (cn_ct_tok_is(&toks.t[before], "static") ||
                           cn_ct_tok_is(&toks.t[before], "inline") ||
                           cn_ct_tok_is(&toks.t[before], "__forceinline__") ||
                           cn_ct_tok_is(&toks.t[before], "__noinline__")))
      before--;
    cn_ct_subst subst[MAX_TPARAMS];
    int32_t nsub = 0;
    if (before >= 0 && cn_ct_tok_is(&toks.t[before], ">")) {
      int64_t open = template_open(&toks, before);
      if (open >= 0) {
        const cn_tok *pb[MAX_TPARAMS], *pe[MAX_TPARAMS];
        int32_t np = split_commas(pb, pe, MAX_TPARAMS, &toks.t[open + 1],
                                  &toks.t[before]);
        const cn_tok *ab[MAX_TPARAMS], *ae[MAX_TPARAMS];
        int32_t na = targs.n > 0 ? split_commas(ab, ae, MAX_TPARAMS, targs.t,
                                                targs.t + targs.n)
                                 : 0;
        if (np < 0 || na < 0) {
          st = cn_error(CN_ERR_VALUE,
                        "%s: kernel '%s': cannot read its template parameters "
                        "or the template arguments (more than %d, or "
                        "unbalanced brackets)",
                        fn, name, MAX_TPARAMS);
          break;
        }
        for (int32_t q = 0; q < np && st == CN_OK; q++) {
          /* the parameter's name: the last identifier before any '=' */
          const cn_tok *eq = pb[q];
          while (eq < pe[q] && !cn_ct_tok_is(eq, "="))
            eq++;
          const cn_tok *nm = NULL;
          for (const cn_tok *t = pb[q]; t < eq; t++)
            if (t->kind == CN_TK_IDENT)
              nm = t;
          if (nm == NULL || nm == pb[q]) {
            st = cn_error(CN_ERR_VALUE,
                          "%s: kernel '%s': template parameter %d has no "
                          "name (line %d, column %d)",
                          fn, name, (int)q, (int)pb[q]->line,
                          (int)pb[q]->col);
            break;
          }
          subst[nsub].name = nm;
          if (q < na) {
            subst[nsub].b = ab[q];
            subst[nsub].e = ae[q];
          } else if (eq < pe[q]) { /* its default */
            subst[nsub].b = eq + 1;
            subst[nsub].e = pe[q];
          } else {
            st = cn_error(CN_ERR_VALUE,
                          "%s: kernel '%s' is a template of %d parameters "
                          "and %d template arguments were given",
                          fn, name, (int)np, (int)na);
            break;
          }
          nsub++;
        }
        if (st == CN_OK && na > np)
          st = cn_error(CN_ERR_VALUE,
                        "%s: kernel '%s' is a template of %d parameters and "
                        "%d template arguments were given",
                        fn, name, (int)np, (int)na);
        if (st != CN_OK)
          break;
      }
    }
    if (nsub == 0 && targs.n > 0) {
      st = cn_error(CN_ERR_VALUE,
                    "%s: kernel '%s' is not a template, but template "
                    "arguments were given",
                    fn, name);
      break;
    }
    st = parse_params(sig, &toks.t[name_at + 2], &toks.t[close], subst, nsub,
                      fn);
  }
  if (st == CN_OK && !found)
    st = cn_error(CN_ERR_VALUE,
                  "%s: the source has no __global__ function called '%s'", fn,
                  name);
  cn_ct_toks_free(&toks);
  cn_ct_toks_free(&targs);
  if (st != CN_OK) {
    free(sig->p);
    free(sig);
    return st;
  }
  sig->magic = SIG_MAGIC;
  atomic_init(&sig->refcount, 1);
  *out = sig;
  return CN_OK;
}

void cn_kernel_sig_retain(cn_kernel_sig sig) {
  if (sig != NULL && sig->magic == SIG_MAGIC)
    atomic_fetch_add(&sig->refcount, 1);
}

void cn_kernel_sig_release(cn_kernel_sig sig) {
  if (sig == NULL || sig->magic != SIG_MAGIC)
    return;
  if (atomic_fetch_sub(&sig->refcount, 1) == 1) {
    sig->magic = 0;
    free(sig->p);
    free(sig);
  }
}

static cn_status copy_text(char *buf, int64_t cap, const char *s,
                           const char *fn) {
  if (buf == NULL || cap <= 0)
    return cn_error(CN_ERR_VALUE, "%s: no output buffer", fn);
  size_t n = strlen(s);
  if ((int64_t)n >= cap)
    return cn_error(CN_ERR_VALUE,
                    "%s: the buffer of %lld bytes is too small for %zu", fn,
                    (long long)cap, n + 1);
  memcpy(buf, s, n + 1);
  return CN_OK;
}

cn_status cn_kernel_sig_name(char *name, int64_t name_cap, cn_kernel_sig sig) {
  CHECK_SIG(sig, "cn_kernel_sig_name");
  return copy_text(name, name_cap, sig->name, "cn_kernel_sig_name");
}

cn_status cn_kernel_sig_nparams(int32_t *out, cn_kernel_sig sig) {
  CN_CHECK_OUT(out, "cn_kernel_sig_nparams");
  CHECK_SIG(sig, "cn_kernel_sig_nparams");
  *out = sig->n;
  return CN_OK;
}

#define CHECK_INDEX(sig, i, fn)                                                \
  do {                                                                         \
    if ((i) < 0 || (i) >= (sig)->n)                                            \
      return cn_error(CN_ERR_INDEX,                                            \
                      "%s: kernel '%s' has %d parameters, no parameter %d",   \
                      fn, (sig)->name, (int)(sig)->n, (int)(i));               \
  } while (0)

cn_status cn_kernel_sig_param(int32_t *kind, cn_dtype *dtype,
                              int32_t *pointer_depth, int32_t *is_const,
                              cn_kernel_sig sig, int32_t i) {
  const char *fn = "cn_kernel_sig_param";
  CHECK_SIG(sig, fn);
  CHECK_INDEX(sig, i, fn);
  const cn_ctype *p = &sig->p[i];
  if (kind)
    *kind = p->depth > 0                ? CN_PARAM_POINTER
            : p->base == CN_CT_STRUCT ? CN_PARAM_STRUCT
                                      : CN_PARAM_SCALAR;
  if (dtype)
    *dtype = cn_ct_dtype(p->base);
  if (pointer_depth)
    *pointer_depth = p->depth;
  if (is_const)
    *is_const = p->pointee_const ? 1 : 0;
  return CN_OK;
}

cn_status cn_kernel_sig_param_name(char *name, int64_t name_cap,
                                   cn_kernel_sig sig, int32_t i) {
  const char *fn = "cn_kernel_sig_param_name";
  CHECK_SIG(sig, fn);
  CHECK_INDEX(sig, i, fn);
  return copy_text(name, name_cap, sig->p[i].name, fn);
}

cn_status cn_kernel_sig_param_type(char *name, int64_t name_cap,
                                   cn_kernel_sig sig, int32_t i) {
  const char *fn = "cn_kernel_sig_param_type";
  CHECK_SIG(sig, fn);
  CHECK_INDEX(sig, i, fn);
  return copy_text(name, name_cap, sig->p[i].text, fn);
}

cn_status cn_kernel_sig_check_nargs(cn_kernel_sig sig, int32_t nargs) {
  CHECK_SIG(sig, "cn_kernel_sig_check_nargs");
  if (nargs != sig->n)
    return cn_error(CN_ERR_VALUE, "kernel '%s' takes %d argument%s, got %d",
                    sig->name, (int)sig->n, sig->n == 1 ? "" : "s",
                    (int)nargs);
  return CN_OK;
}

/* "argument 2 ('n': int)" */
static void where(char *buf, size_t cap, const cn_kernel_sig sig, int32_t i) {
  const cn_ctype *p = &sig->p[i];
  if (p->name[0])
    snprintf(buf, cap, "argument %d ('%s': %s)", (int)i, p->name, p->text);
  else
    snprintf(buf, cap, "argument %d (%s)", (int)i, p->text);
}

cn_status cn_kernel_sig_check_array(cn_kernel_sig sig, int32_t i,
                                    cn_array a) {
  const char *fn = "cn_kernel_sig_check_array";
  CHECK_SIG(sig, fn);
  CHECK_INDEX(sig, i, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  const cn_ctype *p = &sig->p[i];
  char w[CN_CT_TEXT_CAP + CN_CT_NAME_CAP + 40];
  where(w, sizeof w, sig, i);
  if (p->depth == 0)
    return cn_error(CN_ERR_TYPE,
                    "kernel '%s': %s is not a pointer, but an array was "
                    "given",
                    sig->name, w);
  if (p->depth > 1)
    return cn_error(CN_ERR_TYPE,
                    "kernel '%s': %s is a pointer to pointers, which no "
                    "array is",
                    sig->name, w);
  if (p->base == CN_CT_VOID)
    return CN_OK;
  cn_dtype want = cn_ct_dtype(p->base);
  if (want == 0)
    return cn_error(CN_ERR_TYPE,
                    "kernel '%s': %s points to %s, which has no array dtype "
                    "here (got a %s array)",
                    sig->name, w, cn_ct_base_name(p->base),
                    cn_dtype_name(a->dtype));
  if (a->dtype != want)
    return cn_error(CN_ERR_TYPE,
                    "kernel '%s': %s needs a %s array, got a %s array", sig->name,
                    w, cn_dtype_name(want), cn_dtype_name(a->dtype));
  return CN_OK;
}

cn_status cn_kernel_sig_pack_scalar(int64_t *lo, int64_t *hi, int64_t *size,
                                    cn_kernel_sig sig, int32_t i,
                                    cn_scalar value) {
  const char *fn = "cn_kernel_sig_pack_scalar";
  CN_CHECK_OUT(lo, fn);
  CN_CHECK_OUT(hi, fn);
  CN_CHECK_OUT(size, fn);
  CHECK_SIG(sig, fn);
  CHECK_INDEX(sig, i, fn);
  const cn_ctype *p = &sig->p[i];
  char w[CN_CT_TEXT_CAP + CN_CT_NAME_CAP + 40];
  where(w, sizeof w, sig, i);
  if (p->depth > 0)
    return cn_error(CN_ERR_TYPE,
                    "kernel '%s': %s is a pointer and takes an array, not a "
                    "scalar",
                    sig->name, w);
  if (p->base == CN_CT_STRUCT)
    return cn_error(CN_ERR_TYPE,
                    "kernel '%s': %s is a struct and takes a struct value, "
                    "not a scalar",
                    sig->name, w);
  uint8_t bytes[16];
  int64_t n = 0;
  char why[WHY_CAP];
  cn_status st = cn_ct_convert(bytes, &n, p->base, value, why, sizeof why);
  if (st != CN_OK)
    return cn_error(st, "kernel '%s': %s: %s", sig->name, w, why);
  uint64_t l = 0, h = 0;
  for (int k = 0; k < 8; k++) {
    l |= (uint64_t)bytes[k] << (8 * k);
    h |= (uint64_t)bytes[8 + k] << (8 * k);
  }
  *lo = (int64_t)l;
  *hi = (int64_t)h;
  *size = n;
  return CN_OK;
}

cn_status cn_kernel_sig_check_struct(cn_kernel_sig sig, int32_t i,
                                     cn_struct_layout layout) {
  const char *fn = "cn_kernel_sig_check_struct";
  CHECK_SIG(sig, fn);
  CHECK_INDEX(sig, i, fn);
  if (!cn_struct_layout_valid(layout))
    return cn_error(CN_ERR_VALUE,
                    "%s: argument 'layout' is NULL or a released handle", fn);
  const cn_ctype *p = &sig->p[i];
  char w[CN_CT_TEXT_CAP + CN_CT_NAME_CAP + 40];
  where(w, sizeof w, sig, i);
  const char *sn = cn_struct_layout_name_of(layout);
  if (p->depth > 0 || p->base != CN_CT_STRUCT || strcmp(p->text, sn) != 0)
    return cn_error(CN_ERR_TYPE,
                    "kernel '%s': %s does not take a struct %s", sig->name, w,
                    sn);
  return CN_OK;
}

cn_status cn_kernel_sig_check_call(cn_kernel_sig sig, int32_t nargs,
                                   const cn_array *arrays,
                                   const cn_scalar *scalars,
                                   const cn_struct_layout *structs) {
  const char *fn = "cn_kernel_sig_check_call";
  CHECK_SIG(sig, fn);
  cn_status st = cn_kernel_sig_check_nargs(sig, nargs);
  if (st != CN_OK)
    return st;
  for (int32_t i = 0; i < nargs; i++) {
    if (arrays != NULL && arrays[i] != NULL) {
      st = cn_kernel_sig_check_array(sig, i, arrays[i]);
    } else if (structs != NULL && structs[i] != NULL) {
      st = cn_kernel_sig_check_struct(sig, i, structs[i]);
    } else if (scalars != NULL) {
      int64_t lo, hi, size;
      st = cn_kernel_sig_pack_scalar(&lo, &hi, &size, sig, i, scalars[i]);
    } else {
      st = cn_error(CN_ERR_VALUE, "%s: kernel '%s': argument %d is missing",
                    fn, sig->name, (int)i);
    }
    if (st != CN_OK)
      return st;
  }
  return CN_OK;
}
