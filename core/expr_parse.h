/* The parse tree of an expression (core/expr_parse.c), before dtypes. */
#ifndef CUNUMPY_EXPR_PARSE_H
#define CUNUMPY_EXPR_PARSE_H

#include "internal.h"

typedef enum cn_expr_node_kind {
  CN_XN_VAR,   /* a name: var indexes cn_expr_ast::vars */
  CN_XN_NUM,   /* a literal: value (weak unless CN_SCALAR_BOOL) */
  CN_XN_OP,    /* an op-table op: op is CN_OPID_* */
  CN_XN_CAST,  /* astype: op is the cn_dtype */
  CN_XN_WHERE  /* where(child0, child1, child2) */
} cn_expr_node_kind;

typedef struct cn_expr_node {
  int32_t kind;
  int32_t op;
  int32_t nchild;
  int32_t child[3];
  int32_t col; /* 1-based column of the node's first character */
  int32_t var;
  cn_scalar value;
  /* written as a function call: on Python scalars only the result is a
   * strong (NumPy scalar) value, as NumPy's ufuncs return */
  bool call;
} cn_expr_node;

typedef struct cn_expr_ast {
  cn_expr_node *nodes;
  int32_t nnodes, capnodes;
  int32_t root; /* the elementwise expression (under the reduction) */
  char **vars;  /* distinct names in order of first appearance */
  int32_t nvars, capvars;
  /* The outermost reduction: kind CN_RED_* or -1; naxes -1 for every
   * axis, else axes[0..naxes) as written (not yet normalised). */
  int32_t red_kind;
  int32_t red_naxes;
  int32_t red_axes[CN_MAX_DIMS];
  bool keepdims;
} cn_expr_ast;

/* Parses text into *ast (zeroed by the caller); fn names the entry point in
 * error messages. On failure the ast is freed. */
CN_INTERNAL cn_status cn_expr_ast_parse(cn_expr_ast *ast, const char *text,
                                        const char *fn);
CN_INTERNAL void cn_expr_ast_free(cn_expr_ast *ast);

#endif
