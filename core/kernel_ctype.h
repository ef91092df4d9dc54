/* The C types of kernel parameters and struct fields: a tokenizer for CUDA
 * C++ text, the type grammar shared by kernel signatures
 * (core/kernel_signature.c) and struct layouts (core/kernel_struct.c), and
 * the conversion of host scalars to those types. */
#ifndef CUNUMPY_KERNEL_CTYPE_H
#define CUNUMPY_KERNEL_CTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cunumpy/kernel.h"
#include "internal.h"

typedef enum cn_ctype_base {
  CN_CT_BOOL,
  CN_CT_I8,
  CN_CT_U8,
  CN_CT_I16,
  CN_CT_U16,
  CN_CT_I32,
  CN_CT_U32,
  CN_CT_I64,
  CN_CT_U64,
  CN_CT_HALF,
  CN_CT_F32,
  CN_CT_F64,
  CN_CT_C64,
  CN_CT_C128,
  CN_CT_VOID,
  CN_CT_STRUCT
} cn_ctype_base;

#define CN_CT_TEXT_CAP 128
#define CN_CT_NAME_CAP 128

typedef struct cn_ctype {
  cn_ctype_base base;
  int32_t depth;       /* pointer depth (array parameters decay) */
  bool pointee_const;  /* const before the first '*' */
  int64_t count;       /* elements of a fixed-size array field, else 1 */
  char text[CN_CT_TEXT_CAP]; /* normalized type text ("const float*") */
  char name[CN_CT_NAME_CAP]; /* declared name, "" when unnamed */
} cn_ctype;

typedef enum { CN_TK_END, CN_TK_IDENT, CN_TK_NUMBER, CN_TK_STRING,
               CN_TK_PUNCT } cn_tok_kind;

typedef struct cn_tok {
  cn_tok_kind kind;
  const char *p;
  int32_t len;
  int32_t line, col;
} cn_tok;

typedef struct cn_toks {
  cn_tok *t;
  int64_t n, cap;
} cn_toks;

/* Tokenizes text (len bytes): identifiers, numbers, string and character
 * literals, punctuation ("::" one token); comments and preprocessor lines
 * are skipped. An unterminated literal or comment ends at the text's end.
 * false only when out of memory. The tokens point into text. */
CN_INTERNAL bool cn_ct_tokenize(cn_toks *out, const char *text, size_t len);
CN_INTERNAL void cn_ct_toks_free(cn_toks *t);
CN_INTERNAL bool cn_ct_tok_is(const cn_tok *t, const char *s);

/* Parses one declaration (tokens [b, e)): a type and an optional name,
 * with template parameters substituted (nsub pairs: tparam names and
 * their argument token ranges). field: a struct field (name required, a
 * trailing [N] is an array of N), else a parameter ([] decays). On error
 * writes a message (what went wrong, line and column) to why. */
typedef struct cn_ct_subst {
  const cn_tok *name;
  const cn_tok *b, *e;
} cn_ct_subst;
CN_INTERNAL bool cn_ct_parse_decl(cn_ctype *out, const cn_tok *b,
                                  const cn_tok *e, const cn_ct_subst *subst,
                                  int32_t nsub, bool field, char *why,
                                  size_t why_cap);

/* Size and alignment of one element of t (pointers 8), 0 for void. */
CN_INTERNAL int64_t cn_ct_size(const cn_ctype *t);
CN_INTERNAL int64_t cn_ct_align(const cn_ctype *t);
/* The dtype a pointer of t points to (its base's dtype), 0 when none. */
CN_INTERNAL cn_dtype cn_ct_dtype(cn_ctype_base base);
/* The C name of a base ("float"), for messages. */
CN_INTERNAL const char *cn_ct_base_name(cn_ctype_base base);

/* Converts v to a scalar of base type base: writes up to 16 bytes and the
 * size. On failure writes why ("3000000000 does not fit int") and returns
 * CN_ERR_TYPE or CN_ERR_VALUE (nothing recorded: the caller words it). */
CN_INTERNAL cn_status cn_ct_convert(uint8_t out[16], int64_t *size,
                                    cn_ctype_base base, cn_scalar v,
                                    char *why, size_t why_cap);

#endif
