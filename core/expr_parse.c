/* The expression parser: numexpr's (Python's) expression syntax into a
 * parse tree, recursive descent with Python's precedence. Hostile text is
 * expected (it is fuzzed): every token is bounds-checked, the nesting depth
 * and the node count are capped, and every error names its column. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr_parse.h"

/* Deeper nesting than this is refused (recursion stays far from the stack
 * limit of any thread). */
#define CN_XP_MAX_DEPTH 200
#define CN_XP_MAX_NODES (1 << 20)
#define CN_XP_MAX_NAME 255

typedef enum {
  T_END,
  T_NUM,
  T_NAME,
  T_OP, /* operators and punctuation: text in tok */
} cn_xp_tok_kind;

typedef struct {
  const char *text;
  size_t len;
  size_t pos; /* next unread byte */
  /* current token */
  int kind;
  size_t start, tlen;
  cn_scalar num;
  int depth;
  size_t first; /* where the first token starts */
  const char *fn;
  cn_expr_ast *ast;
  cn_status st;
} cn_xp;

static int32_t cn_xp_col(const cn_xp *p, size_t at) { return (int32_t)at + 1; }

__attribute__((format(printf, 3, 4))) static cn_status
cn_xp_fail(cn_xp *p, size_t at, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (p->st == CN_OK)
    p->st = cn_error(CN_ERR_VALUE, "%s: column %d: %s", p->fn,
                     (int)cn_xp_col(p, at), msg);
  return p->st;
}

static bool cn_xp_is_name0(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool cn_xp_is_digit(char c) { return c >= '0' && c <= '9'; }

/* The token's text as a printable quote for messages. */
static void cn_xp_quote(char *buf, size_t cap, const char *s, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n && k + 5 < cap; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 32 && c < 127)
      buf[k++] = (char)c;
    else
      k += (size_t)snprintf(buf + k, cap - k, "\\x%02x", c);
  }
  buf[k] = 0;
}

static cn_status cn_xp_number(cn_xp *p) {
  const char *s = p->text;
  size_t i = p->pos, n = p->len, st = p->pos;
  bool is_float = false;
  if (s[i] == '0' && i + 1 < n &&
      (s[i + 1] == 'x' || s[i + 1] == 'X' || s[i + 1] == 'o' ||
       s[i + 1] == 'O' || s[i + 1] == 'b' || s[i + 1] == 'B')) {
    char b = (char)(s[i + 1] | 0x20);
    int base = b == 'x' ? 16 : b == 'o' ? 8 : 2;
    i += 2;
    uint64_t v = 0;
    size_t digits = 0;
    for (; i < n; i++) {
      char c = s[i];
      int d = cn_xp_is_digit(c)             ? c - '0'
              : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10
                                                          : -1;
      if (d < 0 || d >= base)
        break;
      if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
        return cn_xp_fail(p, st, "integer literal too large (above 2**64-1)");
      v = v * (uint64_t)base + (uint64_t)d;
      digits++;
    }
    if (digits == 0 || (i < n && (cn_xp_is_name0(s[i]) || cn_xp_is_digit(s[i]))))
      return cn_xp_fail(p, st, "invalid integer literal");
    p->num = v <= INT64_MAX ? cn_scalar_int((int64_t)v) : cn_scalar_uint(v);
    p->tlen = i - st;
    p->pos = i;
    return CN_OK;
  }
  while (i < n && cn_xp_is_digit(s[i]))
    i++;
  if (i < n && s[i] == '.') {
    is_float = true;
    i++;
    while (i < n && cn_xp_is_digit(s[i]))
      i++;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < n && (s[j] == '+' || s[j] == '-'))
      j++;
    if (j >= n || !cn_xp_is_digit(s[j]))
      return cn_xp_fail(p, st, "invalid float literal (exponent without digits)");
    while (j < n && cn_xp_is_digit(s[j]))
      j++;
    i = j;
    is_float = true;
  }
  bool imag = false;
  if (i < n && (s[i] == 'j' || s[i] == 'J')) {
    imag = true;
    i++;
  }
  if (i < n && (cn_xp_is_name0(s[i]) || cn_xp_is_digit(s[i]) || s[i] == '.'))
    return cn_xp_fail(p, st, "invalid number literal");
  size_t len = i - st - (imag ? 1 : 0);
  char buf[400];
  if (len >= sizeof buf)
    return cn_xp_fail(p, st, "number literal too long");
  memcpy(buf, s + st, len);
  buf[len] = 0;
  if (is_float || imag) {
    double v = strtod(buf, NULL);
    p->num = imag ? cn_scalar_complex(0.0, v) : cn_scalar_float(v);
  } else {
    if (len > 1 && buf[0] == '0') {
      for (size_t k = 0; k < len; k++)
        if (buf[k] != '0')
          return cn_xp_fail(p, st,
                            "leading zeros in decimal integer literals are "
                            "not permitted");
    }
    errno = 0;
    unsigned long long v = strtoull(buf, NULL, 10);
    if (errno == ERANGE)
      return cn_xp_fail(p, st, "integer literal too large (above 2**64-1)");
    p->num = v <= INT64_MAX ? cn_scalar_int((int64_t)v)
                            : cn_scalar_uint((uint64_t)v);
  }
  p->tlen = i - st;
  p->pos = i;
  return CN_OK;
}

/* Reads the next token into p. */
static cn_status cn_xp_next(cn_xp *p) {
  const char *s = p->text;
  while (p->pos < p->len && (s[p->pos] == ' ' || s[p->pos] == '\t' ||
                             s[p->pos] == '\n' || s[p->pos] == '\r'))
    p->pos++;
  p->start = p->pos;
  if (p->pos >= p->len) {
    p->kind = T_END;
    p->tlen = 0;
    return CN_OK;
  }
  char c = s[p->pos];
  if (cn_xp_is_digit(c) ||
      (c == '.' && p->pos + 1 < p->len && cn_xp_is_digit(s[p->pos + 1]))) {
    p->kind = T_NUM;
    return cn_xp_number(p);
  }
  if (cn_xp_is_name0(c)) {
    size_t i = p->pos;
    while (i < p->len && (cn_xp_is_name0(s[i]) || cn_xp_is_digit(s[i])))
      i++;
    if (i - p->pos > CN_XP_MAX_NAME)
      return cn_xp_fail(p, p->pos, "name longer than %d characters",
                        CN_XP_MAX_NAME);
    p->kind = T_NAME;
    p->tlen = i - p->pos;
    p->pos = i;
    return CN_OK;
  }
  static const char *const ops[] = {"**", "//", "<<", ">>", "<=", ">=", "==",
                                    "!=", "+",  "-",  "*",  "/",  "%",  "<",
                                    ">",  "&",  "|",  "^",  "~",  "(",  ")",
                                    ",",  "="};
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    size_t l = strlen(ops[k]);
    if (p->pos + l <= p->len && memcmp(s + p->pos, ops[k], l) == 0) {
      p->kind = T_OP;
      p->tlen = l;
      p->pos += l;
      return CN_OK;
    }
  }
  char q[16];
  cn_xp_quote(q, sizeof q, s + p->pos, 1);
  if (c == '[' || c == ']' || c == '.')
    return cn_xp_fail(p, p->pos,
                      "'%s': indexing and attributes are not supported", q);
  return cn_xp_fail(p, p->pos, "unexpected character '%s'", q);
}

static bool cn_xp_is(const cn_xp *p, const char *op) {
  size_t l = strlen(op);
  return p->kind == T_OP && p->tlen == l &&
         memcmp(p->text + p->start, op, l) == 0;
}
static bool cn_xp_name_is(const cn_xp *p, const char *name) {
  size_t l = strlen(name);
  return p->kind == T_NAME && p->tlen == l &&
         memcmp(p->text + p->start, name, l) == 0;
}

static cn_status cn_xp_keyword_check(cn_xp *p);

static cn_status cn_xp_expect(cn_xp *p, const char *op) {
  if (cn_xp_keyword_check(p) != CN_OK)
    return p->st;
  if (!cn_xp_is(p, op)) {
    char q[40];
    if (p->kind == T_END)
      return cn_xp_fail(p, p->start, "expected '%s' but the expression ends",
                        op);
    cn_xp_quote(q, sizeof q, p->text + p->start, p->tlen < 20 ? p->tlen : 20);
    return cn_xp_fail(p, p->start, "expected '%s' but found '%s'", op, q);
  }
  return cn_xp_next(p);
}

/* Appends a node; returns its index or -1 (p->st set). */
static int32_t cn_xp_node(cn_xp *p, int32_t kind, int32_t op, size_t at) {
  cn_expr_ast *a = p->ast;
  if (a->nnodes >= CN_XP_MAX_NODES) {
    cn_xp_fail(p, at, "expression too large (more than %d nodes)",
               CN_XP_MAX_NODES);
    return -1;
  }
  if (a->nnodes == a->capnodes) {
    int32_t cap = a->capnodes ? a->capnodes * 2 : 32;
    cn_expr_node *n = cn_realloc(a->nodes, sizeof *n * (size_t)cap);
    if (n == NULL) {
      if (p->st == CN_OK)
        p->st = cn_error(CN_ERR_MEMORY, "%s: out of memory", p->fn);
      return -1;
    }
    a->nodes = n;
    a->capnodes = cap;
  }
  cn_expr_node *n = &a->nodes[a->nnodes];
  memset(n, 0, sizeof *n);
  n->kind = kind;
  n->op = op;
  n->col = cn_xp_col(p, at);
  n->var = -1;
  return a->nnodes++;
}

static int32_t cn_xp_op(cn_xp *p, int32_t op, size_t at, int32_t nchild,
                        const int32_t *child) {
  int32_t k = cn_xp_node(p, CN_XN_OP, op, at);
  if (k < 0)
    return -1;
  cn_expr_node *n = &p->ast->nodes[k];
  n->nchild = nchild;
  for (int32_t i = 0; i < nchild; i++)
    n->child[i] = child[i];
  return k;
}

static int32_t cn_xp_var(cn_xp *p, size_t at, size_t len) {
  cn_expr_ast *a = p->ast;
  const char *s = p->text + at;
  int32_t v = -1;
  for (int32_t i = 0; i < a->nvars && v < 0; i++)
    if (strlen(a->vars[i]) == len && memcmp(a->vars[i], s, len) == 0)
      v = i;
  if (v < 0) {
    if (a->nvars == a->capvars) {
      int32_t cap = a->capvars ? a->capvars * 2 : 8;
      char **nv = cn_realloc(a->vars, sizeof *nv * (size_t)cap);
      if (nv == NULL)
        goto oom;
      a->vars = nv;
      a->capvars = cap;
    }
    char *name = cn_malloc(len + 1);
    if (name == NULL)
      goto oom;
    memcpy(name, s, len);
    name[len] = 0;
    a->vars[a->nvars] = name;
    v = a->nvars++;
  }
  int32_t k = cn_xp_node(p, CN_XN_VAR, 0, at);
  if (k >= 0)
    p->ast->nodes[k].var = v;
  return k;
oom:
  if (p->st == CN_OK)
    p->st = cn_error(CN_ERR_MEMORY, "%s: out of memory", p->fn);
  return -1;
}

static int32_t cn_xp_expr(cn_xp *p);

/* Aliases of op names (NumPy's long names). */
static const struct {
  const char *alias, *name;
} cn_xp_aliases[] = {
    {"absolute", "abs"},         {"conjugate", "conj"},
    {"mod", "remainder"},        {"pow", "power"},
    {"true_divide", "divide"},   {"invert", "bitwise_invert"},
    {"bitwise_not", "bitwise_invert"},
};

static int32_t cn_xp_find_op(const char *s, size_t len) {
  const cn_op_info *t = cn_op_table();
  for (size_t k = 0; k < sizeof cn_xp_aliases / sizeof cn_xp_aliases[0]; k++)
    if (strlen(cn_xp_aliases[k].alias) == len &&
        memcmp(cn_xp_aliases[k].alias, s, len) == 0) {
      s = cn_xp_aliases[k].name;
      len = strlen(s);
      break;
    }
  for (int32_t i = 0; i < CN_OP_COUNT_; i++)
    if (strlen(t[i].name) == len && memcmp(t[i].name, s, len) == 0)
      return i;
  return -1;
}

static int32_t cn_xp_find_reduction(const char *s, size_t len) {
  static const struct {
    const char *name;
    int32_t kind;
  } r[] = {{"sum", CN_RED_SUM}, {"prod", CN_RED_PROD}, {"min", CN_RED_MIN},
           {"max", CN_RED_MAX}, {"any", CN_RED_ANY},   {"all", CN_RED_ALL}};
  for (size_t k = 0; k < sizeof r / sizeof r[0]; k++)
    if (strlen(r[k].name) == len && memcmp(r[k].name, s, len) == 0)
      return r[k].kind;
  return -1;
}

static const char *const cn_xp_keywords[] = {
    "and",   "or",     "not",   "if",     "else",  "lambda", "for",
    "in",    "is",     "None",  "await",  "yield", "import", "def",
    "class", "return", "while", "assert", "del",   "pass"};

/* A Python keyword as the current token: the error naming it (with the
 * spelling expressions use instead). */
static cn_status cn_xp_keyword_check(cn_xp *p) {
  if (p->kind != T_NAME)
    return CN_OK;
  for (size_t k = 0; k < sizeof cn_xp_keywords / sizeof cn_xp_keywords[0];
       k++)
    if (cn_xp_name_is(p, cn_xp_keywords[k])) {
      const char *name = cn_xp_keywords[k];
      const char *hint = strcmp(name, "and") == 0   ? ": use & for logical and"
                         : strcmp(name, "or") == 0  ? ": use | for logical or"
                         : strcmp(name, "not") == 0 ? ": use ~ for logical not"
                         : strcmp(name, "if") == 0 || strcmp(name, "else") == 0
                             ? ": use where(cond, x, y)"
                             : "";
      return cn_xp_fail(p, p->start, "'%s' is not supported in expressions%s",
                        name, hint);
    }
  return CN_OK;
}

/* Parses a call's argument list after '(' for a function of nin inputs. */
static cn_status cn_xp_args(cn_xp *p, int32_t *args, int32_t nin,
                            const char *name, size_t at) {
  int32_t got = 0;
  if (!cn_xp_is(p, ")")) {
    for (;;) {
      if (cn_xp_is(p, "="))
        return cn_xp_fail(p, p->start, "unexpected '='");
      int32_t e = cn_xp_expr(p);
      if (e < 0)
        return p->st;
      if (cn_xp_is(p, "="))
        return cn_xp_fail(p, p->start,
                          "%s() takes no keyword arguments", name);
      if (got < 3)
        args[got] = e;
      got++;
      if (!cn_xp_is(p, ","))
        break;
      if (cn_xp_next(p) != CN_OK)
        return p->st;
      if (cn_xp_is(p, ")"))
        break;
    }
  }
  if (got != nin)
    return cn_xp_fail(p, at, "%s() takes %d argument%s, got %d", name,
                      (int)nin, nin == 1 ? "" : "s", (int)got);
  return cn_xp_expect(p, ")");
}

/* An integer literal (with optional unary minus) for an axis. */
static cn_status cn_xp_axis_int(cn_xp *p, int32_t *out) {
  size_t at = p->start;
  bool neg = false;
  if (cn_xp_is(p, "-")) {
    neg = true;
    if (cn_xp_next(p) != CN_OK)
      return p->st;
  }
  if (p->kind != T_NUM || p->num.kind != CN_SCALAR_INT || p->num.i > 1000)
    return cn_xp_fail(p, at, "axis must be an integer literal, a tuple of "
                             "them or None");
  *out = (int32_t)(neg ? -p->num.i : p->num.i);
  return cn_xp_next(p);
}

static cn_status cn_xp_axis(cn_xp *p) {
  cn_expr_ast *a = p->ast;
  if (cn_xp_name_is(p, "None")) {
    a->red_naxes = -1;
    return cn_xp_next(p);
  }
  if (cn_xp_is(p, "(")) {
    size_t at = p->start;
    if (cn_xp_next(p) != CN_OK)
      return p->st;
    a->red_naxes = 0;
    while (!cn_xp_is(p, ")")) {
      if (a->red_naxes >= CN_MAX_DIMS)
        return cn_xp_fail(p, at, "too many axes");
      if (cn_xp_axis_int(p, &a->red_axes[a->red_naxes]) != CN_OK)
        return p->st;
      a->red_naxes++;
      if (cn_xp_is(p, ",")) {
        if (cn_xp_next(p) != CN_OK)
          return p->st;
      } else if (!cn_xp_is(p, ")")) {
        return cn_xp_expect(p, ")");
      }
    }
    return cn_xp_next(p);
  }
  a->red_naxes = 1;
  return cn_xp_axis_int(p, &a->red_axes[0]);
}

/* sum(expr [, axis] [, axis=...] [, keepdims=...]) after '('. */
static int32_t cn_xp_reduction(cn_xp *p, int32_t kind, const char *name,
                               size_t at) {
  cn_expr_ast *a = p->ast;
  if (p->depth != 1 || at != p->first) {
    cn_xp_fail(p, at,
               "%s() must be the outermost operation of the expression", name);
    return -1;
  }
  int32_t e = cn_xp_expr(p);
  if (e < 0)
    return -1;
  a->red_kind = kind;
  a->red_naxes = -1;
  a->keepdims = false;
  bool have_axis = false, have_keep = false;
  while (cn_xp_is(p, ",")) {
    if (cn_xp_next(p) != CN_OK)
      return -1;
    if (cn_xp_is(p, ")"))
      break;
    bool kw_axis = cn_xp_name_is(p, "axis"),
         kw_keep = cn_xp_name_is(p, "keepdims");
    if (kw_axis || kw_keep) {
      size_t kat = p->start;
      if (cn_xp_next(p) != CN_OK)
        return -1;
      if (!cn_xp_is(p, "=")) {
        cn_xp_fail(p, kat, "expected '=' after '%s'",
                   kw_axis ? "axis" : "keepdims");
        return -1;
      }
      if (cn_xp_next(p) != CN_OK)
        return -1;
      if ((kw_axis && have_axis) || (kw_keep && have_keep)) {
        cn_xp_fail(p, kat, "%s() got multiple values for '%s'", name,
                   kw_axis ? "axis" : "keepdims");
        return -1;
      }
      if (kw_axis) {
        have_axis = true;
        if (cn_xp_axis(p) != CN_OK)
          return -1;
      } else {
        have_keep = true;
        if (!cn_xp_name_is(p, "True") && !cn_xp_name_is(p, "False")) {
          cn_xp_fail(p, p->start, "keepdims must be True or False");
          return -1;
        }
        a->keepdims = cn_xp_name_is(p, "True");
        if (cn_xp_next(p) != CN_OK)
          return -1;
      }
    } else if (!have_axis && !have_keep) {
      have_axis = true;
      if (cn_xp_axis(p) != CN_OK)
        return -1;
    } else {
      cn_xp_fail(p, p->start, "%s() takes (expr, axis=None, keepdims=False)",
                 name);
      return -1;
    }
  }
  if (cn_xp_expect(p, ")") != CN_OK)
    return -1;
  if (p->kind != T_END) {
    cn_xp_fail(p, at,
               "%s() must be the outermost operation of the expression", name);
    return -1;
  }
  return e;
}

static int32_t cn_xp_atom(cn_xp *p) {
  size_t at = p->start;
  if (p->kind == T_NUM) {
    int32_t k = cn_xp_node(p, CN_XN_NUM, 0, at);
    if (k < 0)
      return -1;
    p->ast->nodes[k].value = p->num;
    if (cn_xp_next(p) != CN_OK)
      return -1;
    return k;
  }
  if (cn_xp_is(p, "(")) {
    if (cn_xp_next(p) != CN_OK)
      return -1;
    int32_t e = cn_xp_expr(p);
    if (e < 0)
      return -1;
    if (cn_xp_is(p, ","))
      return cn_xp_fail(p, p->start, "tuples are not supported"), -1;
    if (cn_xp_expect(p, ")") != CN_OK)
      return -1;
    return e;
  }
  if (p->kind == T_NAME) {
    const char *s = p->text + p->start;
    size_t len = p->tlen;
    char name[CN_XP_MAX_NAME + 1];
    memcpy(name, s, len);
    name[len] = 0;
    if (strcmp(name, "True") == 0 || strcmp(name, "False") == 0) {
      int32_t k = cn_xp_node(p, CN_XN_NUM, 0, at);
      if (k < 0)
        return -1;
      p->ast->nodes[k].value = cn_scalar_bool(name[0] == 'T');
      return cn_xp_next(p) == CN_OK ? k : -1;
    }
    if (cn_xp_keyword_check(p) != CN_OK)
      return -1;
    if (cn_xp_next(p) != CN_OK)
      return -1;
    if (!cn_xp_is(p, "(")) {
      if (cn_xp_is(p, "="))
        return cn_xp_fail(p, p->start, "assignment is not supported"), -1;
      return cn_xp_var(p, at, len);
    }
    if (cn_xp_next(p) != CN_OK)
      return -1;
    int32_t args[3] = {-1, -1, -1};
    int32_t red = cn_xp_find_reduction(name, len);
    if (red >= 0)
      return cn_xp_reduction(p, red, name, at);
    if (strcmp(name, "where") == 0) {
      if (cn_xp_args(p, args, 3, name, at) != CN_OK)
        return -1;
      int32_t k = cn_xp_node(p, CN_XN_WHERE, 0, at);
      if (k < 0)
        return -1;
      cn_expr_node *n = &p->ast->nodes[k];
      n->nchild = 3;
      memcpy(n->child, args, sizeof args);
      return k;
    }
    if (strcmp(name, "int") != 0 && strcmp(name, "float") != 0 &&
        strcmp(name, "complex") != 0 && strcmp(name, "double") != 0 &&
        strcmp(name, "single") != 0 && name[0] != '?') {
      /* only the canonical dtype names cast; short codes are names */
      for (int32_t i = 0; i < CN_NUM_DTYPES; i++) {
        cn_dtype d = cn_dtype_from_index(i);
        if (strcmp(cn_dtype_name(d), name) == 0) {
          if (cn_xp_args(p, args, 1, name, at) != CN_OK)
            return -1;
          int32_t k = cn_xp_node(p, CN_XN_CAST, (int32_t)d, at);
          if (k < 0)
            return -1;
          p->ast->nodes[k].nchild = 1;
          p->ast->nodes[k].child[0] = args[0];
          return k;
        }
      }
    }
    int32_t op = cn_xp_find_op(name, len);
    if (op < 0)
      return cn_xp_fail(p, at, "unknown function '%s'", name), -1;
    int32_t nin = cn_op_table()[op].nin;
    if (cn_xp_args(p, args, nin, name, at) != CN_OK)
      return -1;
    int32_t k = cn_xp_op(p, op, at, nin, args);
    if (k >= 0)
      p->ast->nodes[k].call = true;
    return k;
  }
  if (p->kind == T_END)
    return cn_xp_fail(p, p->start, "unexpected end of expression"), -1;
  char q[8];
  cn_xp_quote(q, sizeof q, p->text + p->start, p->tlen);
  return cn_xp_fail(p, p->start, "unexpected '%s'", q), -1;
}

static int32_t cn_xp_unary(cn_xp *p);

/* power := atom ('**' unary)? */
static int32_t cn_xp_power(cn_xp *p) {
  int32_t a = cn_xp_atom(p);
  if (a < 0)
    return -1;
  if (cn_xp_is(p, "**")) {
    size_t at = p->start;
    if (cn_xp_next(p) != CN_OK)
      return -1;
    int32_t b = cn_xp_unary(p);
    if (b < 0)
      return -1;
    int32_t ch[2] = {a, b};
    return cn_xp_op(p, CN_OPID_power, at, 2, ch);
  }
  return a;
}

static int32_t cn_xp_unary(cn_xp *p) {
  if (cn_xp_is(p, "-") || cn_xp_is(p, "+") || cn_xp_is(p, "~")) {
    size_t at = p->start;
    char c = p->text[p->start];
    if (++p->depth > CN_XP_MAX_DEPTH)
      return cn_xp_fail(p, at, "expression nested too deeply"), -1;
    if (cn_xp_next(p) != CN_OK)
      return -1;
    int32_t a = cn_xp_unary(p);
    p->depth--;
    if (a < 0)
      return -1;
    /* -<number> is a literal, as Python's constant folding makes it */
    cn_expr_node *n = &p->ast->nodes[a];
    if (c == '-' && n->kind == CN_XN_NUM && n->value.kind != CN_SCALAR_BOOL &&
        n->col > (int32_t)at + 1) {
      cn_scalar v = n->value;
      bool ok = true;
      if (v.kind == CN_SCALAR_INT)
        v.i = -v.i; /* INT64_MIN's negation is 2**63: kind UINT below */
      else if (v.kind == CN_SCALAR_UINT)
        ok = (uint64_t)v.i <= (uint64_t)1 << 63;
      else {
        v.re = -v.re;
        v.im = -v.im;
      }
      if (v.kind == CN_SCALAR_UINT && ok) {
        v.kind = CN_SCALAR_INT;
        v.i = (int64_t)(0 - (uint64_t)v.i);
      }
      if (ok && !(n->value.kind == CN_SCALAR_COMPLEX)) {
        n->value = v;
        n->col = (int32_t)at + 1;
        return a;
      }
    }
    int32_t op = c == '-'   ? CN_OPID_negative
                 : c == '+' ? CN_OPID_positive
                            : CN_OPID_bitwise_invert;
    return cn_xp_op(p, op, at, 1, &a);
  }
  return cn_xp_power(p);
}

typedef struct {
  const char *tok;
  int32_t op;
} cn_xp_binop;

/* One left-associative precedence level over `next`. */
static int32_t cn_xp_level(cn_xp *p, const cn_xp_binop *ops, size_t nops,
                           int32_t (*next)(cn_xp *)) {
  int32_t a = next(p);
  while (a >= 0) {
    const cn_xp_binop *hit = NULL;
    for (size_t k = 0; k < nops && hit == NULL; k++)
      if (cn_xp_is(p, ops[k].tok))
        hit = &ops[k];
    if (hit == NULL)
      break;
    size_t at = p->start;
    if (cn_xp_next(p) != CN_OK)
      return -1;
    int32_t b = next(p);
    if (b < 0)
      return -1;
    int32_t ch[2] = {a, b};
    a = cn_xp_op(p, hit->op, at, 2, ch);
  }
  return a;
}

static int32_t cn_xp_term(cn_xp *p) {
  static const cn_xp_binop ops[] = {{"*", CN_OPID_multiply},
                                    {"//", CN_OPID_floor_divide},
                                    {"/", CN_OPID_divide},
                                    {"%", CN_OPID_remainder}};
  return cn_xp_level(p, ops, 4, cn_xp_unary);
}
static int32_t cn_xp_arith(cn_xp *p) {
  static const cn_xp_binop ops[] = {{"+", CN_OPID_add},
                                    {"-", CN_OPID_subtract}};
  return cn_xp_level(p, ops, 2, cn_xp_term);
}
static int32_t cn_xp_shift(cn_xp *p) {
  static const cn_xp_binop ops[] = {{"<<", CN_OPID_left_shift},
                                    {">>", CN_OPID_right_shift}};
  return cn_xp_level(p, ops, 2, cn_xp_arith);
}
static int32_t cn_xp_band(cn_xp *p) {
  static const cn_xp_binop ops[] = {{"&", CN_OPID_bitwise_and}};
  return cn_xp_level(p, ops, 1, cn_xp_shift);
}
static int32_t cn_xp_bxor(cn_xp *p) {
  static const cn_xp_binop ops[] = {{"^", CN_OPID_bitwise_xor}};
  return cn_xp_level(p, ops, 1, cn_xp_band);
}
static int32_t cn_xp_bor(cn_xp *p) {
  static const cn_xp_binop ops[] = {{"|", CN_OPID_bitwise_or}};
  return cn_xp_level(p, ops, 1, cn_xp_bxor);
}

static const cn_xp_binop cn_xp_cmp_ops[] = {
    {"<=", CN_OPID_less_equal}, {">=", CN_OPID_greater_equal},
    {"==", CN_OPID_equal},      {"!=", CN_OPID_not_equal},
    {"<", CN_OPID_less},        {">", CN_OPID_greater}};

static int32_t cn_xp_expr(cn_xp *p) {
  if (++p->depth > CN_XP_MAX_DEPTH)
    return cn_xp_fail(p, p->start, "expression nested too deeply"), -1;
  int32_t a = cn_xp_bor(p);
  if (a >= 0) {
    const cn_xp_binop *hit = NULL;
    for (size_t k = 0; k < 6 && hit == NULL; k++)
      if (cn_xp_is(p, cn_xp_cmp_ops[k].tok))
        hit = &cn_xp_cmp_ops[k];
    if (hit != NULL) {
      size_t at = p->start;
      int32_t b = -1;
      if (cn_xp_next(p) == CN_OK)
        b = cn_xp_bor(p);
      if (b < 0) {
        a = -1;
      } else {
        for (size_t k = 0; k < 6; k++)
          if (cn_xp_is(p, cn_xp_cmp_ops[k].tok)) {
            cn_xp_fail(p, p->start,
                       "chained comparisons are not supported: use "
                       "(a < b) & (b < c)");
            p->depth--;
            return -1;
          }
        int32_t ch[2] = {a, b};
        a = cn_xp_op(p, hit->op, at, 2, ch);
      }
    }
  }
  p->depth--;
  return a;
}

void cn_expr_ast_free(cn_expr_ast *ast) {
  if (ast == NULL)
    return;
  free(ast->nodes);
  for (int32_t i = 0; i < ast->nvars; i++)
    free(ast->vars[i]);
  free(ast->vars);
  memset(ast, 0, sizeof *ast);
}

cn_status cn_expr_ast_parse(cn_expr_ast *ast, const char *text,
                            const char *fn) {
  cn_xp p = {0};
  p.text = text;
  p.len = strlen(text);
  p.fn = fn;
  p.ast = ast;
  ast->red_kind = -1;
  ast->red_naxes = -1;
  ast->root = -1;
  if (p.len > ((size_t)1 << 24))
    return cn_error(CN_ERR_VALUE, "%s: expression longer than 16 MiB", fn);
  if (cn_xp_next(&p) == CN_OK) {
    p.first = p.start;
    if (p.kind == T_END)
      cn_xp_fail(&p, 0, "empty expression");
    else {
      int32_t root = cn_xp_expr(&p);
      if (root >= 0 && p.kind != T_END && cn_xp_keyword_check(&p) == CN_OK) {
        char q[40];
        cn_xp_quote(q, sizeof q, p.text + p.start, p.tlen < 20 ? p.tlen : 20);
        if (cn_xp_is(&p, "="))
          cn_xp_fail(&p, p.start, "assignment is not supported");
        else
          cn_xp_fail(&p, p.start, "unexpected '%s' after the expression", q);
      }
      ast->root = root;
    }
  }
  if (p.st != CN_OK) {
    cn_expr_ast_free(ast);
    return p.st;
  }
  return CN_OK;
}
