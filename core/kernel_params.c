/* CuPy's parameter grammar for ElementwiseKernel / ReductionKernel:
 *   list  := blank | param (',' param)*
 *   param := ('raw')* TYPE NAME        (tokens separated by blanks)
 *   TYPE  := one ASCII letter (a placeholder) | a canonical dtype name
 * The text is untrusted (it comes from users and the fuzzer): every byte is
 * looked at once, lengths are bounded before anything is copied, and each
 * error names the parameter and the character where it starts. */
#include <string.h>

#include "kernel_program.h"

static const struct {
  const char *name;
  cn_dtype dtype;
} k_dtype_names[] = {
    {"bool", CN_BOOL},         {"int8", CN_INT8},
    {"int16", CN_INT16},       {"int32", CN_INT32},
    {"int64", CN_INT64},       {"uint8", CN_UINT8},
    {"uint16", CN_UINT16},     {"uint32", CN_UINT32},
    {"uint64", CN_UINT64},     {"float32", CN_FLOAT32},
    {"float64", CN_FLOAT64},   {"complex64", CN_COMPLEX64},
    {"complex128", CN_COMPLEX128},
};

/* Words a parameter cannot be called: C and CUDA C keywords and the type
 * names the generated code declares. */
static const char *const k_reserved[] = {
    "auto",     "break",    "case",     "char",     "const",    "continue",
    "default",  "do",       "double",   "else",     "enum",     "extern",
    "float",    "for",      "goto",     "if",       "inline",   "int",
    "long",     "register", "restrict", "return",   "short",    "signed",
    "sizeof",   "static",   "struct",   "switch",   "typedef",  "union",
    "unsigned", "void",     "volatile", "while",    "bool",     "true",
    "false",    "raw",      "i",        "int8_t",   "int16_t",  "int32_t",
    "int64_t",  "uint8_t",  "uint16_t", "uint32_t", "uint64_t", "complex",
    "class",    "template", "new",      "delete",   "this",     "operator",
    "namespace", "using",   "size_t",   "ptrdiff_t", "I",       "NAN",
    "INFINITY",
};

cn_dtype cn_kparam_dtype_named(const char *name, size_t len) {
  for (size_t i = 0; i < sizeof k_dtype_names / sizeof k_dtype_names[0]; i++)
    if (strlen(k_dtype_names[i].name) == len &&
        memcmp(k_dtype_names[i].name, name, len) == 0)
      return k_dtype_names[i].dtype;
  return (cn_dtype)0;
}

static bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}

bool cn_kparam_is_identifier(const char *name, size_t len) {
  if (len == 0 || !(is_alpha(name[0]) || name[0] == '_'))
    return false;
  for (size_t i = 1; i < len; i++)
    if (!(is_alpha(name[i]) || is_digit(name[i]) || name[i] == '_'))
      return false;
  return true;
}

static bool is_reserved(const char *name, size_t len) {
  for (size_t i = 0; i < sizeof k_reserved / sizeof k_reserved[0]; i++)
    if (strlen(k_reserved[i]) == len && memcmp(k_reserved[i], name, len) == 0)
      return true;
  return false;
}

/* Prints at most 32 bytes of a token, non-printable bytes as '?'. */
static void token_text(char *dst, const char *src, size_t len) {
  size_t n = len < 32 ? len : 32;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)src[i];
    dst[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
  }
  if (len > n) {
    memcpy(dst + n, "...", 3);
    n += 3;
  }
  dst[n] = 0;
}

#define MAX_TOKENS 8

/* One parameter: text[0..len) starting at character `at` of the list. */
static cn_status parse_one(cn_kparam *p, const char *text, size_t len,
                           size_t at, int32_t index, const char *what,
                           const char *fn) {
  const char *tok[MAX_TOKENS];
  size_t tlen[MAX_TOKENS];
  int nt = 0;
  size_t i = 0;
  while (i < len) {
    while (i < len && is_blank(text[i]))
      i++;
    if (i >= len)
      break;
    size_t s = i;
    while (i < len && !is_blank(text[i]))
      i++;
    if (nt == MAX_TOKENS)
      return cn_error(CN_ERR_VALUE,
                      "%s: %s: parameter %d (at character %zu) has too many "
                      "words",
                      fn, what, (int)index + 1, at);
    tok[nt] = text + s;
    tlen[nt] = i - s;
    nt++;
  }
  if (nt == 0)
    return cn_error(CN_ERR_VALUE,
                    "%s: %s: parameter %d (at character %zu) is empty", fn,
                    what, (int)index + 1, at);
  if (nt == 1) {
    char t[40];
    token_text(t, tok[0], tlen[0]);
    return cn_error(CN_ERR_VALUE,
                    "%s: %s: syntax error in parameter %d (at character %zu): "
                    "'%s' needs a type and a name",
                    fn, what, (int)index + 1, at, t);
  }
  memset(p, 0, sizeof *p);
  for (int k = 0; k < nt - 2; k++) {
    size_t pos = at + (size_t)(tok[k] - text);
    if (tlen[k] == 3 && memcmp(tok[k], "raw", 3) == 0) {
      p->raw = true;
      continue;
    }
    char t[40];
    token_text(t, tok[k], tlen[k]);
    return cn_error(CN_ERR_VALUE,
                    "%s: %s: unknown keyword '%s' in parameter %d (at "
                    "character %zu)",
                    fn, what, t, (int)index + 1, pos);
  }
  const char *ty = tok[nt - 2], *nm = tok[nt - 1];
  size_t tyl = tlen[nt - 2], nml = tlen[nt - 1];
  size_t typos = at + (size_t)(ty - text), nmpos = at + (size_t)(nm - text);
  char t[40];
  if (tyl == 1 && is_alpha(ty[0])) {
    p->placeholder = ty[0];
  } else {
    p->dtype = cn_kparam_dtype_named(ty, tyl);
    if (p->dtype == 0) {
      token_text(t, ty, tyl);
      return cn_error(CN_ERR_VALUE,
                      "%s: %s: unknown type '%s' in parameter %d (at "
                      "character %zu); use a dtype name such as float32 or "
                      "a one-letter placeholder",
                      fn, what, t, (int)index + 1, typos);
    }
  }
  token_text(t, nm, nml);
  if (!cn_kparam_is_identifier(nm, nml))
    return cn_error(CN_ERR_VALUE,
                    "%s: %s: invalid parameter name '%s' in parameter %d (at "
                    "character %zu)",
                    fn, what, t, (int)index + 1, nmpos);
  if (nm[0] == '_')
    return cn_error(CN_ERR_VALUE,
                    "%s: %s: parameter name '%s' in parameter %d (at "
                    "character %zu) starts with '_', which is reserved for "
                    "the generated code",
                    fn, what, t, (int)index + 1, nmpos);
  if (is_reserved(nm, nml))
    return cn_error(CN_ERR_VALUE,
                    "%s: %s: parameter name '%s' in parameter %d (at "
                    "character %zu) is reserved",
                    fn, what, t, (int)index + 1, nmpos);
  if (nml >= CN_KPARAM_NAME_CAP)
    return cn_error(CN_ERR_VALUE,
                    "%s: %s: parameter name '%s' in parameter %d (at "
                    "character %zu) is longer than %d characters",
                    fn, what, t, (int)index + 1, nmpos,
                    CN_KPARAM_NAME_CAP - 1);
  memcpy(p->name, nm, nml);
  p->name[nml] = 0;
  return CN_OK;
}

cn_status cn_kparams_parse(cn_kparams *out, const char *text,
                           const char *what, const char *fn) {
  cn_kparams r;
  r.n = 0;
  if (text == NULL)
    text = "";
  size_t len = strlen(text);
  size_t b = 0;
  while (b < len && is_blank(text[b]))
    b++;
  if (b < len) {
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
      if (i < len && text[i] != ',')
        continue;
      if (r.n == CN_KERNEL_MAX_PARAMS)
        return cn_error(CN_ERR_VALUE,
                        "%s: %s: more than %d parameters (at character %zu)",
                        fn, what, CN_KERNEL_MAX_PARAMS, start);
      cn_status st =
          parse_one(&r.p[r.n], text + start, i - start, start, r.n, what, fn);
      if (st != CN_OK)
        return st;
      r.n++;
      start = i + 1;
    }
  }
  for (int32_t a = 0; a < r.n; a++)
    for (int32_t c = 0; c < a; c++)
      if (strcmp(r.p[a].name, r.p[c].name) == 0)
        return cn_error(CN_ERR_VALUE,
                        "%s: %s: parameter %d repeats the name '%s'", fn, what,
                        (int)a + 1, r.p[a].name);
  *out = r;
  return CN_OK;
}
