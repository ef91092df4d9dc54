/* The C types of kernel parameters and struct fields (core/kernel_ctype.h).
 * The text comes from users (any bytes): every read is bounded by the
 * text's length and every written string by its buffer. */
#include "kernel_ctype.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tokens ------------------------------------------------------------ */

static bool is_ident0(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool is_ident(char c) { return is_ident0(c) || (c >= '0' && c <= '9'); }

static bool push(cn_toks *t, cn_tok tk) {
  if (t->n == t->cap) {
    int64_t cap = t->cap ? 2 * t->cap : 256;
    cn_tok *p = realloc(t->t, (size_t)cap * sizeof *p);
    if (p == NULL)
      return false;
    t->t = p;
    t->cap = cap;
  }
  t->t[t->n++] = tk;
  return true;
}

bool cn_ct_tokenize(cn_toks *out, const char *s, size_t n) {
  out->t = NULL;
  out->n = out->cap = 0;
  size_t i = 0;
  int32_t line = 1, col = 1;
  bool line_start = true;
#define ADV()                                                                  \
  do {                                                                         \
    if (s[i] == '\n') {                                                        \
      line++;                                                                  \
      col = 1;                                                                 \
    } else {                                                                   \
      col++;                                                                   \
    }                                                                          \
    i++;                                                                       \
  } while (0)
  while (i < n) {
    char c = s[i];
    if (c == '\n') {
      line_start = true;
      ADV();
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ADV();
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n')
        ADV();
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      ADV();
      ADV();
      while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/'))
        ADV();
      if (i < n) {
        ADV();
        ADV();
      }
      continue;
    }
    if (c == '#' && line_start) { /* a preprocessor line, with continuations */
      while (i < n && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n')
          ADV();
        ADV();
      }
      continue;
    }
    line_start = false;
    cn_tok tk = {CN_TK_PUNCT, s + i, 1, line, col};
    if (is_ident0(c)) {
      size_t j = i;
      while (j < n && is_ident(s[j]))
        j++;
      tk.kind = CN_TK_IDENT;
      tk.len = (int32_t)(j - i);
    } else if (c >= '0' && c <= '9') {
      size_t j = i;
      while (j < n && (is_ident(s[j]) || s[j] == '.'))
        j++;
      tk.kind = CN_TK_NUMBER;
      tk.len = (int32_t)(j - i);
    } else if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < n && s[j] != c && s[j] != '\n') {
        if (s[j] == '\\' && j + 1 < n)
          j++;
        j++;
      }
      if (j < n && s[j] == c)
        j++;
      tk.kind = CN_TK_STRING;
      tk.len = (int32_t)(j - i);
    } else if (c == ':' && i + 1 < n && s[i + 1] == ':') {
      tk.len = 2;
    } else if (c == '&' && i + 1 < n && s[i + 1] == '&') {
      tk.len = 2;
    }
    if ((size_t)tk.len > n - i || tk.len > (1 << 30))
      tk.len = (int32_t)(n - i);
    for (int32_t k = 0; k < tk.len; k++)
      ADV();
    if (!push(out, tk)) {
      cn_ct_toks_free(out);
      return false;
    }
  }
#undef ADV
  return true;
}

void cn_ct_toks_free(cn_toks *t) {
  free(t->t);
  t->t = NULL;
  t->n = t->cap = 0;
}

bool cn_ct_tok_is(const cn_tok *t, const char *s) {
  size_t n = strlen(s);
  return t->kind != CN_TK_END && (size_t)t->len == n &&
         memcmp(t->p, s, n) == 0;
}

/* ---- declarations -------------------------------------------------------- */

static void whyf(char *why, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void whyf(char *why, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, cap, fmt, ap);
  va_end(ap);
}

/* Appends tk's text to buf (cap bytes) with a space before identifiers
 * that follow identifiers; false when it does not fit. */
static bool append_tok(char *buf, size_t cap, const cn_tok *tk) {
  size_t n = strlen(buf);
  bool space = n > 0 && tk->kind == CN_TK_IDENT &&
               (is_ident(buf[n - 1]) || buf[n - 1] == '>');
  if (n + (space ? 1 : 0) + (size_t)tk->len + 1 > cap)
    return false;
  if (space)
    buf[n++] = ' ';
  memcpy(buf + n, tk->p, (size_t)tk->len);
  buf[n + (size_t)tk->len] = 0;
  return true;
}

static const char *const k_ignored[] = {
    "__restrict__", "__restrict", "restrict", "struct", "volatile",
    "__device__",   "__constant__", "__shared__", "typename"};

static bool is_ignored(const cn_tok *t) {
  for (size_t k = 0; k < sizeof k_ignored / sizeof k_ignored[0]; k++)
    if (cn_ct_tok_is(t, k_ignored[k]))
      return true;
  return false;
}

typedef struct words {
  int n_unsigned, n_signed, n_short, n_long, n_int, n_char, n_bool, n_float,
      n_double, n_void;
} words;

static bool count_word(words *w, const cn_tok *t) {
  static const struct {
    const char *s;
    size_t off;
  } k[] = {{"unsigned", offsetof(words, n_unsigned)},
           {"signed", offsetof(words, n_signed)},
           {"short", offsetof(words, n_short)},
           {"long", offsetof(words, n_long)},
           {"int", offsetof(words, n_int)},
           {"char", offsetof(words, n_char)},
           {"bool", offsetof(words, n_bool)},
           {"float", offsetof(words, n_float)},
           {"double", offsetof(words, n_double)},
           {"void", offsetof(words, n_void)}};
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
    if (cn_ct_tok_is(t, k[i].s)) {
      (*(int *)((char *)w + k[i].off))++;
      return true;
    }
  return false;
}

/* The base type that builtin words spell, or -1. */
static int base_of_words(const words *w) {
  int sign = w->n_signed + w->n_unsigned;
  if (w->n_signed > 1 || w->n_unsigned > 1 || (w->n_signed && w->n_unsigned))
    return -1;
  int others = w->n_bool + w->n_float + w->n_double + w->n_void + w->n_char;
  if (others > 1)
    return -1;
  if (w->n_bool || w->n_float || w->n_void)
    return (sign || w->n_short || w->n_long || w->n_int)
               ? -1
               : (w->n_bool ? CN_CT_BOOL : w->n_float ? CN_CT_F32 : CN_CT_VOID);
  if (w->n_double)
    return (sign || w->n_short || w->n_int || w->n_long > 1) ? -1 : CN_CT_F64;
  if (w->n_char)
    return (w->n_short || w->n_long || w->n_int) ? -1
           : w->n_unsigned                         ? CN_CT_U8
                                                   : CN_CT_I8;
  if (w->n_int > 1 || (w->n_short && w->n_long) || w->n_short > 1 ||
      w->n_long > 2)
    return -1;
  bool u = w->n_unsigned > 0;
  if (w->n_short)
    return u ? CN_CT_U16 : CN_CT_I16;
  if (w->n_long) /* LP64: long and long long are 64 bits */
    return u ? CN_CT_U64 : CN_CT_I64;
  if (w->n_int || sign)
    return u ? CN_CT_U32 : CN_CT_I32;
  return -1;
}

static int base_of_name(const char *s) {
  static const struct {
    const char *s;
    cn_ctype_base b;
  } k[] = {{"int8_t", CN_CT_I8},
           {"uint8_t", CN_CT_U8},
           {"int16_t", CN_CT_I16},
           {"uint16_t", CN_CT_U16},
           {"int32_t", CN_CT_I32},
           {"uint32_t", CN_CT_U32},
           {"int64_t", CN_CT_I64},
           {"uint64_t", CN_CT_U64},
           {"size_t", CN_CT_U64},
           {"ssize_t", CN_CT_I64},
           {"ptrdiff_t", CN_CT_I64},
           {"intptr_t", CN_CT_I64},
           {"uintptr_t", CN_CT_U64},
           {"half", CN_CT_HALF},
           {"__half", CN_CT_HALF},
           {"complex<float>", CN_CT_C64},
           {"complex<double>", CN_CT_C128},
           {"thrust::complex<float>", CN_CT_C64},
           {"thrust::complex<double>", CN_CT_C128},
           {"cuda::std::complex<float>", CN_CT_C64},
           {"cuda::std::complex<double>", CN_CT_C128},
           {"std::complex<float>", CN_CT_C64},
           {"std::complex<double>", CN_CT_C128},
           {"cuComplex", CN_CT_C64},
           {"cuFloatComplex", CN_CT_C64},
           {"cuDoubleComplex", CN_CT_C128}};
  const char *t = strncmp(s, "std::", 5) == 0 && strncmp(s, "std::complex", 12)
                      ? s + 5
                      : s;
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
    if (strcmp(t, k[i].s) == 0)
      return (int)k[i].b;
  return -1;
}

/* The tokens of one declaration after template substitution. */
#define CN_CT_MAX_TOKS 256

static bool expand(const cn_tok **out, int32_t *n, const cn_tok *b,
                   const cn_tok *e, const cn_ct_subst *subst, int32_t nsub) {
  *n = 0;
  for (const cn_tok *t = b; t < e; t++) {
    const cn_ct_subst *s = NULL;
    if (t->kind == CN_TK_IDENT)
      for (int32_t k = 0; k < nsub && s == NULL; k++)
        if (subst[k].name->len == t->len &&
            memcmp(subst[k].name->p, t->p, (size_t)t->len) == 0)
          s = &subst[k];
    if (s != NULL) {
      for (const cn_tok *u = s->b; u < s->e; u++) {
        if (*n >= CN_CT_MAX_TOKS)
          return false;
        out[(*n)++] = u;
      }
    } else {
      if (*n >= CN_CT_MAX_TOKS)
        return false;
      out[(*n)++] = t;
    }
  }
  return true;
}

bool cn_ct_parse_decl(cn_ctype *out, const cn_tok *b, const cn_tok *e,
                      const cn_ct_subst *subst, int32_t nsub, bool field,
                      char *why, size_t why_cap) {
  memset(out, 0, sizeof *out);
  out->count = 1;
  const cn_tok *tk[CN_CT_MAX_TOKS];
  int32_t n = 0;
  if (!expand(tk, &n, b, e, subst, nsub)) {
    whyf(why, why_cap, "the declaration is too long (line %d, column %d)",
         (int)b->line, (int)b->col);
    return false;
  }
  if (n == 0) {
    whyf(why, why_cap, "empty declaration");
    return false;
  }
  words w = {0};
  bool is_const = false, seen_star = false;
  char names[2][CN_CT_TEXT_CAP];
  int nnames = 0;
  int32_t i = 0;
  while (i < n) {
    const cn_tok *t = tk[i];
    if (cn_ct_tok_is(t, "const")) {
      if (!seen_star)
        is_const = true;
      i++;
    } else if (is_ignored(t)) {
      i++;
    } else if (cn_ct_tok_is(t, "*")) {
      if (nnames == 2 || (nnames == 1 && base_of_words(&w) >= 0)) {
        whyf(why, why_cap, "'*' after the name (line %d, column %d)",
             (int)t->line, (int)t->col);
        return false;
      }
      seen_star = true;
      out->depth++;
      i++;
    } else if (cn_ct_tok_is(t, "&") || cn_ct_tok_is(t, "&&")) {
      whyf(why, why_cap,
           "reference types are not supported (line %d, column %d)",
           (int)t->line, (int)t->col);
      return false;
    } else if (cn_ct_tok_is(t, "[")) {
      /* [] or [N] after the name */
      int32_t j = i + 1;
      int64_t count = -1;
      if (j < n && tk[j]->kind == CN_TK_NUMBER) {
        char num[32];
        int len = tk[j]->len < 31 ? tk[j]->len : 31;
        memcpy(num, tk[j]->p, (size_t)len);
        num[len] = 0;
        char *end = NULL;
        long long v = strtoll(num, &end, 0);
        if (end != NULL && *end == 0 && v > 0 && v <= (1 << 20))
          count = v;
        j++;
      }
      if (j >= n || !cn_ct_tok_is(tk[j], "]") || j + 1 != n ||
          (field && count < 0)) {
        whyf(why, why_cap,
             "%s (line %d, column %d)",
             field ? "an array field needs a size in [1, 1048576] and must "
                     "end the declaration"
                   : "unexpected '['",
             (int)t->line, (int)t->col);
        return false;
      }
      if (field)
        out->count = count;
      else
        out->depth++; /* an array parameter is a pointer */
      i = j + 1;
    } else if (t->kind == CN_TK_IDENT && count_word(&w, t)) {
      if (nnames > 0) { /* "Vec int", "x int": a builtin word after a name */
        whyf(why, why_cap, "unexpected '%.*s' (line %d, column %d)",
             (int)t->len, t->p, (int)t->line, (int)t->col);
        return false;
      }
      i++;
    } else if (t->kind == CN_TK_IDENT) {
      if (nnames == 2) {
        whyf(why, why_cap, "unexpected '%.*s' (line %d, column %d)",
             (int)(t->len > 64 ? 64 : t->len), t->p, (int)t->line,
             (int)t->col);
        return false;
      }
      /* a (possibly qualified, templated) name: a::b<c, d> */
      char *nm = names[nnames];
      nm[0] = 0;
      int depth = 0;
      int32_t j = i;
      for (; j < n; j++) {
        const cn_tok *u = tk[j];
        bool take = false;
        if (depth > 0) {
          take = true;
          if (cn_ct_tok_is(u, "<"))
            depth++;
          else if (cn_ct_tok_is(u, ">"))
            depth--;
        } else if (j == i) {
          take = true;
        } else if (cn_ct_tok_is(u, "::") ||
                   (u->kind == CN_TK_IDENT && cn_ct_tok_is(tk[j - 1], "::"))) {
          take = true;
        } else if (cn_ct_tok_is(u, "<")) {
          take = true;
          depth = 1;
        }
        if (!take)
          break;
        if (!append_tok(nm, CN_CT_TEXT_CAP, u)) {
          whyf(why, why_cap, "a type name is too long (line %d, column %d)",
               (int)u->line, (int)u->col);
          return false;
        }
      }
      if (depth != 0 || cn_ct_tok_is(tk[j - 1], "::")) {
        whyf(why, why_cap, "unbalanced '<' or dangling '::' (line %d, "
                           "column %d)",
             (int)t->line, (int)t->col);
        return false;
      }
      nnames++;
      i = j;
    } else {
      whyf(why, why_cap, "unexpected '%.*s' (line %d, column %d)",
           (int)(t->len > 64 ? 64 : t->len), t->p, (int)t->line, (int)t->col);
      return false;
    }
  }
  int base = base_of_words(&w);
  bool has_words = w.n_unsigned + w.n_signed + w.n_short + w.n_long +
                       w.n_int + w.n_char + w.n_bool + w.n_float + w.n_double +
                       w.n_void >
                   0;
  const char *type_name = NULL;
  const char *decl_name = NULL;
  if (has_words) {
    if (base < 0) {
      whyf(why, why_cap, "invalid combination of type words (line %d, "
                         "column %d)",
           (int)b->line, (int)b->col);
      return false;
    }
    if (nnames > 1) {
      whyf(why, why_cap, "two names after a builtin type (line %d, column %d)",
           (int)b->line, (int)b->col);
      return false;
    }
    decl_name = nnames == 1 ? names[0] : NULL;
  } else {
    if (nnames == 0) {
      whyf(why, why_cap, "no type (line %d, column %d)", (int)b->line,
           (int)b->col);
      return false;
    }
    type_name = names[0];
    decl_name = nnames == 2 ? names[1] : NULL;
    base = base_of_name(type_name);
    if (base < 0) {
      /* a struct by its (plain identifier) name */
      for (const char *c = type_name; *c; c++)
        if (!is_ident(*c) && *c != ':') {
          whyf(why, why_cap, "unsupported type '%s' (line %d, column %d)",
               type_name, (int)b->line, (int)b->col);
          return false;
        }
      base = CN_CT_STRUCT;
    }
  }
  if (decl_name != NULL)
    for (const char *c = decl_name; *c; c++)
      if (!is_ident(*c)) {
        whyf(why, why_cap, "invalid name '%s' (line %d, column %d)", decl_name,
             (int)b->line, (int)b->col);
        return false;
      }
  if (field && decl_name == NULL) {
    whyf(why, why_cap, "a field needs a name (line %d, column %d)",
         (int)b->line, (int)b->col);
    return false;
  }
  if (base == CN_CT_VOID && out->depth == 0) {
    whyf(why, why_cap, "void is not a value type (line %d, column %d)",
         (int)b->line, (int)b->col);
    return false;
  }
  out->base = (cn_ctype_base)base;
  out->pointee_const = is_const;
  if (decl_name)
    snprintf(out->name, sizeof out->name, "%s", decl_name);
  /* normalized text: [const ]base words or name, then the stars */
  char basetext[CN_CT_TEXT_CAP];
  if (type_name != NULL) {
    snprintf(basetext, sizeof basetext, "%s", type_name);
  } else {
    basetext[0] = 0;
    size_t k = 0;
    const char *parts[6];
    int np = 0;
    if (w.n_unsigned)
      parts[np++] = "unsigned";
    if (w.n_signed)
      parts[np++] = "signed";
    if (w.n_short)
      parts[np++] = "short";
    for (int l = 0; l < w.n_long; l++)
      parts[np++] = "long";
    if (w.n_char)
      parts[np++] = "char";
    if (w.n_int)
      parts[np++] = "int";
    if (w.n_bool)
      parts[np++] = "bool";
    if (w.n_float)
      parts[np++] = "float";
    if (w.n_double)
      parts[np++] = "double";
    if (w.n_void)
      parts[np++] = "void";
    for (int p = 0; p < np; p++)
      k += (size_t)snprintf(basetext + k, sizeof basetext - k, "%s%s",
                            p ? " " : "", parts[p]);
  }
  size_t len = (size_t)snprintf(out->text, sizeof out->text, "%s%s",
                                is_const ? "const " : "", basetext);
  for (int32_t d = 0; d < out->depth && len + 1 < sizeof out->text; d++) {
    out->text[len++] = '*';
    out->text[len] = 0;
  }
  return true;
}

/* ---- sizes, dtypes, conversions ------------------------------------------ */

static const struct {
  const char *name;
  int64_t size, align;
  cn_dtype dtype;
} k_base[] = {
    [CN_CT_BOOL] = {"bool", 1, 1, CN_BOOL},
    [CN_CT_I8] = {"signed char", 1, 1, CN_INT8},
    [CN_CT_U8] = {"unsigned char", 1, 1, CN_UINT8},
    [CN_CT_I16] = {"short", 2, 2, CN_INT16},
    [CN_CT_U16] = {"unsigned short", 2, 2, CN_UINT16},
    [CN_CT_I32] = {"int", 4, 4, CN_INT32},
    [CN_CT_U32] = {"unsigned int", 4, 4, CN_UINT32},
    [CN_CT_I64] = {"long long", 8, 8, CN_INT64},
    [CN_CT_U64] = {"unsigned long long", 8, 8, CN_UINT64},
    [CN_CT_HALF] = {"half", 2, 2, (cn_dtype)0},
    [CN_CT_F32] = {"float", 4, 4, CN_FLOAT32},
    [CN_CT_F64] = {"double", 8, 8, CN_FLOAT64},
    [CN_CT_C64] = {"complex<float>", 8, 8, CN_COMPLEX64},
    [CN_CT_C128] = {"complex<double>", 16, 16, CN_COMPLEX128},
    [CN_CT_VOID] = {"void", 0, 1, (cn_dtype)0},
    [CN_CT_STRUCT] = {"struct", 0, 1, (cn_dtype)0},
};

int64_t cn_ct_size(const cn_ctype *t) {
  return t->depth > 0 ? 8 : k_base[t->base].size;
}
int64_t cn_ct_align(const cn_ctype *t) {
  return t->depth > 0 ? 8 : k_base[t->base].align;
}
cn_dtype cn_ct_dtype(cn_ctype_base base) { return k_base[base].dtype; }
const char *cn_ct_base_name(cn_ctype_base base) { return k_base[base].name; }

/* IEEE binary16 bits of v, rounded to nearest even (v finite and within
 * half's range, or inf/NaN). */
static uint16_t to_half(double v) {
  uint16_t sign = signbit(v) ? 0x8000 : 0;
  double a = fabs(v);
  if (isnan(v))
    return 0x7e00;
  if (isinf(a))
    return sign | 0x7c00;
  if (a < 0x1p-25)
    return sign;
  int e = 0;
  frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
  int exp = e - 1; /* a = 1.f * 2^exp */
  if (exp < -14) {  /* subnormal: units of 2^-24 */
    double q = nearbyint(a * 0x1p24);
    return sign | (uint16_t)q; /* q == 1024 carries into the exponent */
  }
  double q = nearbyint(ldexp(a, 10 - exp)); /* in [1024, 2048] */
  uint32_t bits = (uint32_t)(exp + 15) << 10;
  bits += (uint32_t)q - 1024; /* 2048 carries into the exponent */
  return sign | (uint16_t)bits;
}

static void fmt_value(char *buf, size_t cap, cn_scalar v) {
  switch (v.kind) {
  case CN_SCALAR_BOOL:
    snprintf(buf, cap, "%s", v.i ? "True" : "False");
    break;
  case CN_SCALAR_INT:
    snprintf(buf, cap, "%lld", (long long)v.i);
    break;
  case CN_SCALAR_UINT:
    snprintf(buf, cap, "%llu", (unsigned long long)(uint64_t)v.i);
    break;
  case CN_SCALAR_FLOAT:
    snprintf(buf, cap, "%.17g", v.re);
    break;
  default:
    snprintf(buf, cap, "(%.17g%+.17gj)", v.re, v.im);
    break;
  }
}

cn_status cn_ct_convert(uint8_t out[16], int64_t *size, cn_ctype_base base,
                        cn_scalar v, char *why, size_t why_cap) {
  char val[96];
  fmt_value(val, sizeof val, v);
  const char *tn = k_base[base].name;
  memset(out, 0, 16);
  if (base == CN_CT_VOID || base == CN_CT_STRUCT) {
    whyf(why, why_cap, "a scalar cannot be a %s", tn);
    return CN_ERR_TYPE;
  }
  if (v.kind < CN_SCALAR_BOOL || v.kind > CN_SCALAR_COMPLEX) {
    whyf(why, why_cap, "invalid scalar kind %d", (int)v.kind);
    return CN_ERR_VALUE;
  }
  *size = k_base[base].size;
  if (base == CN_CT_C64 || base == CN_CT_C128) {
    double re = v.kind == CN_SCALAR_COMPLEX || v.kind == CN_SCALAR_FLOAT
                    ? v.re
                : v.kind == CN_SCALAR_UINT ? (double)(uint64_t)v.i
                                           : (double)v.i;
    double im = v.kind == CN_SCALAR_COMPLEX ? v.im : 0.0;
    if (base == CN_CT_C64) {
      float f[2] = {(float)re, (float)im};
      if ((isinf(f[0]) && isfinite(re)) || (isinf(f[1]) && isfinite(im))) {
        whyf(why, why_cap, "%s does not fit %s", val, tn);
        return CN_ERR_VALUE;
      }
      memcpy(out, f, 8);
    } else {
      double d[2] = {re, im};
      memcpy(out, d, 16);
    }
    return CN_OK;
  }
  if (v.kind == CN_SCALAR_COMPLEX) {
    whyf(why, why_cap, "a complex value %s cannot be a %s", val, tn);
    return CN_ERR_TYPE;
  }
  if (base == CN_CT_F32 || base == CN_CT_F64 || base == CN_CT_HALF) {
    double d = v.kind == CN_SCALAR_FLOAT  ? v.re
               : v.kind == CN_SCALAR_UINT ? (double)(uint64_t)v.i
                                          : (double)v.i;
    if (base == CN_CT_F64) {
      memcpy(out, &d, 8);
    } else if (base == CN_CT_F32) {
      float f = (float)d;
      if (isinf(f) && isfinite(d)) {
        whyf(why, why_cap, "%s does not fit float (largest %g)", val,
             (double)3.4028234663852886e38);
        return CN_ERR_VALUE;
      }
      memcpy(out, &f, 4);
    } else {
      if (isfinite(d) && fabs(d) >= 65520.0) { /* rounds to inf */
        whyf(why, why_cap, "%s does not fit half (largest 65504)", val);
        return CN_ERR_VALUE;
      }
      uint16_t h = to_half(d);
      memcpy(out, &h, 2);
    }
    return CN_OK;
  }
  /* integers and bool: the value as an exact integer, sign separate */
  bool neg = false;
  uint64_t mag = 0;
  if (v.kind == CN_SCALAR_FLOAT) {
    double d = v.re;
    if (!isfinite(d) || d != floor(d)) {
      whyf(why, why_cap, "%s is not an integer, as %s needs", val, tn);
      return CN_ERR_VALUE;
    }
    if (fabs(d) >= 0x1p64) {
      whyf(why, why_cap, "%s does not fit %s", val, tn);
      return CN_ERR_VALUE;
    }
    neg = d < 0;
    mag = (uint64_t)fabs(d);
  } else if (v.kind == CN_SCALAR_UINT) {
    mag = (uint64_t)v.i;
  } else {
    neg = v.i < 0;
    mag = neg ? (uint64_t)0 - (uint64_t)v.i : (uint64_t)v.i;
  }
  if (neg && mag == 0)
    neg = false; /* -0.0 */
  uint64_t max_pos;
  uint64_t max_neg; /* magnitude of the most negative value */
  switch (base) {
  case CN_CT_BOOL: max_pos = 1; max_neg = 0; break;
  case CN_CT_I8: max_pos = 127; max_neg = 128; break;
  case CN_CT_U8: max_pos = 255; max_neg = 0; break;
  case CN_CT_I16: max_pos = 32767; max_neg = 32768; break;
  case CN_CT_U16: max_pos = 65535; max_neg = 0; break;
  case CN_CT_I32: max_pos = 2147483647u; max_neg = 2147483648u; break;
  case CN_CT_U32: max_pos = 4294967295u; max_neg = 0; break;
  case CN_CT_I64: max_pos = INT64_MAX; max_neg = (uint64_t)INT64_MAX + 1; break;
  default: max_pos = UINT64_MAX; max_neg = 0; break;
  }
  if ((neg && mag > max_neg) || (!neg && mag > max_pos)) {
    if (base == CN_CT_BOOL)
      whyf(why, why_cap, "%s is not a bool (0 or 1)", val);
    else
      whyf(why, why_cap, "%s does not fit %s", val, tn);
    return CN_ERR_VALUE;
  }
  uint64_t bits = neg ? (uint64_t)0 - mag : mag;
  for (int64_t k = 0; k < *size; k++)
    out[k] = (uint8_t)(bits >> (8 * k));
  return CN_OK;
}
