/* einsum: parsed into labels, then evaluated with views and the batched
 * product: repeated labels within an operand become diagonal views, labels
 * used by one operand only are summed first, and operands are contracted
 * pairwise from the left as (batch, free_a, sum) @ (batch, sum, free_b)
 * matrix products. Labels: letters 0..51, broadcast ("...") dims 52.. */
#include <string.h>

#include "util.h"

#define EIN_MAXL (52 + CN_MAX_DIMS)
#define EIN_MAXOPS 32

typedef struct ein_op {
  cn_array_s *a; /* owned */
  int32_t nl;
  int32_t lab[CN_MAX_DIMS];
} ein_op;

static int letter(char c) {
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  return -1;
}

/* Parses one term into labels (ellipsis as -1 marker); *ell set when
 * present. Returns the count or -1 on a bad character. */
static int parse_term(const char *s, size_t len, int32_t *lab, bool *ell,
                      char *bad) {
  int n = 0;
  *ell = false;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    if (c == ' ')
      continue;
    if (c == '.') {
      if (*ell || i + 2 >= len + 0 || s[i + 1] != '.' || s[i + 2] != '.') {
        *bad = '.';
        return -1;
      }
      *ell = true;
      lab[n++] = -1;
      i += 2;
      continue;
    }
    int l = letter(c);
    if (l < 0 || n >= CN_MAX_DIMS) {
      *bad = c;
      return -1;
    }
    lab[n++] = l;
  }
  return n;
}

/* Replaces repeated labels of op by a diagonal view. */
static cn_status ein_diagonal(ein_op *op, const char *fn) {
  for (int32_t i = 0; i < op->nl; i++)
    for (int32_t j = i + 1; j < op->nl; j++) {
      if (op->lab[i] != op->lab[j])
        continue;
      cn_array_s *a = op->a;
      if (a->shape[i] != a->shape[j])
        return cn_error(CN_ERR_SHAPE,
                        "%s: repeated subscript with different extents (%lld "
                        "and %lld)",
                        fn, (long long)a->shape[i], (long long)a->shape[j]);
      int64_t shape[CN_MAX_DIMS], strides[CN_MAX_DIMS];
      int32_t nd = 0, lab[CN_MAX_DIMS];
      for (int32_t d = 0; d < a->ndim; d++) {
        if (d == j)
          continue;
        shape[nd] = a->shape[d];
        strides[nd] = d == i ? a->strides[i] + a->strides[j] : a->strides[d];
        lab[nd++] = op->lab[d];
      }
      cn_array_s *v = NULL;
      cn_status st = cn_array_view(&v, a, a->data, nd, shape, strides);
      if (st != CN_OK)
        return st;
      cn_array_release(a);
      op->a = v;
      op->nl = nd;
      memcpy(op->lab, lab, sizeof(int32_t) * (size_t)nd);
      j = i; /* rescan from i: more repeats of the same label */
    }
  return CN_OK;
}

/* Sums op over the labels for which drop[label] is set. */
static cn_status ein_sum(ein_op *op, const bool *drop) {
  int32_t axes[CN_MAX_DIMS], na = 0, lab[CN_MAX_DIMS], nl = 0;
  for (int32_t d = 0; d < op->nl; d++) {
    if (drop[op->lab[d]])
      axes[na++] = d;
    else
      lab[nl++] = op->lab[d];
  }
  if (na == 0)
    return CN_OK;
  cn_array_s *r = NULL;
  cn_dtype dt = op->a->dtype == CN_BOOL ? CN_DTYPE_DEFAULT : op->a->dtype;
  cn_status st = cn_sum(&r, op->a, na, axes, 0, dt, NULL);
  if (st != CN_OK)
    return st;
  cn_array_release(op->a);
  op->a = r;
  op->nl = nl;
  memcpy(op->lab, lab, sizeof(int32_t) * (size_t)nl);
  return CN_OK;
}

/* Permutes op so its labels follow order[0..n). */
static cn_status ein_permute(ein_op *op, const int32_t *order, int32_t n) {
  int32_t perm[CN_MAX_DIMS];
  for (int32_t i = 0; i < n; i++)
    for (int32_t d = 0; d < op->nl; d++)
      if (op->lab[d] == order[i])
        perm[i] = d;
  cn_array_s *p = NULL;
  cn_status st = cn_permute_dims(&p, op->a, n, perm);
  if (st != CN_OK)
    return st;
  cn_array_release(op->a);
  op->a = p;
  memcpy(op->lab, order, sizeof(int32_t) * (size_t)n);
  return CN_OK;
}

static int64_t ext_of(const ein_op *op, int32_t l) {
  for (int32_t d = 0; d < op->nl; d++)
    if (op->lab[d] == l)
      return op->a->shape[d];
  return 1;
}

/* a (batch, free_a) times b (batch, free_b) with nothing to contract: one
 * broadcast elementwise multiply into (batch, free_a, free_b), not a
 * matrix product per batch with an inner extent of 1. */
static cn_status ein_outer(ein_op *a, ein_op *b, int32_t nbat, int32_t nfa,
                           int32_t nfb, const int64_t *ext) {
  int32_t nr = nbat + nfa + nfb;
  if (nr > CN_MAX_DIMS)
    return cn_error(CN_ERR_VALUE, "cn_einsum: too many dimensions");
  int64_t sa[CN_MAX_DIMS], sb[CN_MAX_DIMS];
  int32_t rl[CN_MAX_DIMS];
  for (int32_t i = 0; i < nr; i++) {
    sa[i] = sb[i] = 1;
    rl[i] = i < nbat + nfa ? a->lab[i] : b->lab[i - nfa];
  }
  for (int32_t i = 0; i < nbat + nfa; i++)
    sa[i] = a->a->shape[i];
  for (int32_t i = 0; i < nbat; i++)
    sb[i] = b->a->shape[i];
  for (int32_t i = 0; i < nfb; i++)
    sb[nbat + nfa + i] = b->a->shape[nbat + i];
  cn_array_s *va = NULL, *vb = NULL, *res = NULL;
  cn_status st = cn_reshape(&va, a->a, nr, sa, CN_ORDER_C);
  if (st == CN_OK)
    st = cn_reshape(&vb, b->a, nr, sb, CN_ORDER_C);
  if (st == CN_OK)
    st = cn_multiply(&res, va, vb, NULL);
  cn_array_release(va);
  cn_array_release(vb);
  if (st != CN_OK)
    return st;
  (void)ext;
  cn_array_release(a->a);
  a->a = res;
  a->nl = nr;
  memcpy(a->lab, rl, sizeof(int32_t) * (size_t)nr);
  return CN_OK;
}

/* Contracts a with b into a; keep[label] marks labels needed later. */
static cn_status ein_pair(ein_op *a, ein_op *b, const bool *keep,
                          const int64_t *ext, const char *fn) {
  bool ina[EIN_MAXL] = {false}, inb[EIN_MAXL] = {false};
  bool drop_a[EIN_MAXL] = {false}, drop_b[EIN_MAXL] = {false};
  for (int32_t d = 0; d < a->nl; d++)
    ina[a->lab[d]] = true;
  for (int32_t d = 0; d < b->nl; d++)
    inb[b->lab[d]] = true;
  for (int32_t l = 0; l < EIN_MAXL; l++) {
    if (ina[l] && !inb[l] && !keep[l])
      drop_a[l] = true;
    if (inb[l] && !ina[l] && !keep[l])
      drop_b[l] = true;
  }
  cn_status st = ein_sum(a, drop_a);
  if (st == CN_OK)
    st = ein_sum(b, drop_b);
  if (st != CN_OK)
    return st;
  int32_t bat[CN_MAX_DIMS], fa[CN_MAX_DIMS], fb[CN_MAX_DIMS], con[CN_MAX_DIMS];
  int32_t nbat = 0, nfa = 0, nfb = 0, ncon = 0;
  for (int32_t d = 0; d < a->nl; d++) {
    int32_t l = a->lab[d];
    bool both = false;
    for (int32_t e = 0; e < b->nl; e++)
      both |= b->lab[e] == l;
    if (both && keep[l])
      bat[nbat++] = l;
    else if (both)
      con[ncon++] = l;
    else
      fa[nfa++] = l;
  }
  for (int32_t d = 0; d < b->nl; d++) {
    int32_t l = b->lab[d];
    bool both = false;
    for (int32_t e = 0; e < a->nl; e++)
      both |= a->lab[e] == l;
    if (!both)
      fb[nfb++] = l;
  }
  int32_t oa[CN_MAX_DIMS], ob[CN_MAX_DIMS], n = 0;
  for (int32_t i = 0; i < nbat; i++)
    oa[n++] = bat[i];
  for (int32_t i = 0; i < nfa; i++)
    oa[n++] = fa[i];
  for (int32_t i = 0; i < ncon; i++)
    oa[n++] = con[i];
  n = 0;
  for (int32_t i = 0; i < nbat; i++)
    ob[n++] = bat[i];
  for (int32_t i = 0; i < ncon; i++)
    ob[n++] = con[i];
  for (int32_t i = 0; i < nfb; i++)
    ob[n++] = fb[i];
  st = ein_permute(a, oa, a->nl);
  if (st == CN_OK)
    st = ein_permute(b, ob, b->nl);
  if (st != CN_OK)
    return st;
  if (ncon == 0)
    return ein_outer(a, b, nbat, nfa, nfb, ext);
  /* Matrix views: (batch..., M, K) and (batch..., K, N); contracted dims
   * of extent 1 are broadcast to the label's extent. */
  int64_t M = 1, N = 1, K = 1;
  for (int32_t i = 0; i < nfa; i++)
    M *= ext_of(a, fa[i]);
  for (int32_t i = 0; i < nfb; i++)
    N *= ext_of(b, fb[i]);
  for (int32_t i = 0; i < ncon; i++)
    K *= ext[con[i]];
  int64_t sa[CN_MAX_DIMS], sb[CN_MAX_DIMS], ba[CN_MAX_DIMS], bb[CN_MAX_DIMS];
  for (int32_t i = 0; i < a->nl; i++)
    ba[i] = i >= nbat + nfa ? ext[a->lab[i]] : a->a->shape[i];
  for (int32_t i = 0; i < b->nl; i++)
    bb[i] = i >= nbat && i < nbat + ncon ? ext[b->lab[i]] : b->a->shape[i];
  for (int32_t i = 0; i < nbat; i++) {
    sa[i] = a->a->shape[i];
    sb[i] = b->a->shape[i];
  }
  sa[nbat] = M, sa[nbat + 1] = K;
  sb[nbat] = K, sb[nbat + 1] = N;
  cn_array_s *xa = NULL, *xb = NULL, *ma = NULL, *mb = NULL, *prod = NULL,
             *res = NULL;
  st = cn_broadcast_to(&xa, a->a, a->nl, ba);
  if (st == CN_OK)
    st = cn_broadcast_to(&xb, b->a, b->nl, bb);
  if (st == CN_OK)
    st = cn_reshape(&ma, xa, nbat + 2, sa, CN_ORDER_C);
  if (st == CN_OK)
    st = cn_reshape(&mb, xb, nbat + 2, sb, CN_ORDER_C);
  if (st == CN_OK)
    st = cn_matmul(&prod, ma, mb, NULL);
  int64_t rs[CN_MAX_DIMS];
  int32_t rl[CN_MAX_DIMS], nr = 0;
  if (st == CN_OK) {
    for (int32_t i = 0; i < nbat; i++) {
      rs[nr] = prod->shape[i];
      rl[nr++] = bat[i];
    }
    for (int32_t i = 0; i < nfa; i++) {
      rs[nr] = ext_of(a, fa[i]);
      rl[nr++] = fa[i];
    }
    for (int32_t i = 0; i < nfb; i++) {
      rs[nr] = ext_of(b, fb[i]);
      rl[nr++] = fb[i];
    }
    if (nr > CN_MAX_DIMS)
      st = cn_error(CN_ERR_VALUE, "%s: too many dimensions", fn);
  }
  if (st == CN_OK)
    st = cn_reshape(&res, prod, nr, rs, CN_ORDER_C);
  cn_array_release(xa);
  cn_array_release(xb);
  cn_array_release(ma);
  cn_array_release(mb);
  cn_array_release(prod);
  if (st != CN_OK)
    return st;
  cn_array_release(a->a);
  a->a = res;
  a->nl = nr;
  memcpy(a->lab, rl, sizeof(int32_t) * (size_t)nr);
  return CN_OK;
}

/* keep[label]: the label is in the output or in a live operand other than
 * ops[i] and ops[j]. */
static void ein_keep(bool *keep, const bool *inout, const ein_op *ops,
                     int32_t live, int32_t i, int32_t j) {
  memcpy(keep, inout, sizeof(bool) * EIN_MAXL);
  for (int32_t u = 0; u < live; u++)
    if (u != i && u != j)
      for (int32_t d = 0; d < ops[u].nl; d++)
        keep[ops[u].lab[d]] = true;
}

cn_status cn_einsum(cn_array *out, const char *subscripts, int32_t n,
                    const cn_array *operands) {
  const char *fn = "cn_einsum";
  CN_CHECK_OUT(out, fn);
  if (subscripts == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'subscripts' is NULL", fn);
  if (n < 1 || n > EIN_MAXOPS || operands == NULL)
    return cn_error(CN_ERR_VALUE, "%s: invalid number of operands %d", fn,
                    (int)n);
  for (int32_t i = 0; i < n; i++) {
    CN_CHECK_ARRAY(operands[i], fn, "operands[i]");
    if (i > 0) {
      cn_status st = cn_la_same_device(operands[0], operands[i], fn);
      if (st != CN_OK)
        return st;
    }
  }
  /* Subscripts are ASCII letters; a multi-byte character would otherwise be
   * reported (and echoed) byte by byte, which is no text at all. */
  for (size_t i = 0; subscripts[i]; i++)
    if ((unsigned char)subscripts[i] >= 0x80)
      return cn_error(CN_ERR_VALUE,
                      "%s: invalid subscript: non-ASCII byte 0x%02x at byte "
                      "position %zu; subscripts must be ASCII letters",
                      fn, (unsigned)(unsigned char)subscripts[i], i);
  const char *arrow = strstr(subscripts, "->");
  size_t inlen = arrow ? (size_t)(arrow - subscripts) : strlen(subscripts);
  /* Parse the input terms. */
  int32_t raw[EIN_MAXOPS][CN_MAX_DIMS + 1], nraw[EIN_MAXOPS];
  bool ell[EIN_MAXOPS];
  int32_t nterm = 0, maxell = 0;
  size_t start = 0;
  for (size_t i = 0; i <= inlen; i++) {
    if (i < inlen && subscripts[i] != ',')
      continue;
    if (nterm >= n)
      return cn_error(CN_ERR_VALUE,
                      "%s: more operand terms in '%s' than the %d operands", fn,
                      subscripts, (int)n);
    char bad = 0;
    int c = parse_term(subscripts + start, i - start, raw[nterm], &ell[nterm],
                       &bad);
    if (c < 0)
      return cn_error(CN_ERR_VALUE, "%s: invalid subscript '%c' in '%s'", fn,
                      bad, subscripts);
    nraw[nterm] = c;
    int32_t nd = operands[nterm]->ndim;
    int32_t letters = ell[nterm] ? c - 1 : c;
    if (ell[nterm] ? letters > nd : letters != nd)
      return cn_error(CN_ERR_VALUE,
                      "%s: operand %d has %d dimensions but term %d of '%s' "
                      "names %d",
                      fn, (int)nterm, (int)nd, (int)nterm, subscripts,
                      (int)letters);
    if (ell[nterm] && nd - letters > maxell)
      maxell = nd - letters;
    nterm++;
    start = i + 1;
  }
  if (nterm != n)
    return cn_error(CN_ERR_VALUE,
                    "%s: '%s' has %d operand terms for %d operands", fn,
                    subscripts, (int)nterm, (int)n);
  /* Expand ellipses into right-aligned broadcast labels 52... */
  ein_op ops[EIN_MAXOPS];
  int32_t count[EIN_MAXL] = {0};
  int64_t ext[EIN_MAXL];
  for (int32_t l = 0; l < EIN_MAXL; l++)
    ext[l] = 1;
  for (int32_t t = 0; t < n; t++) {
    const cn_array_s *a = operands[t];
    int32_t nd = a->ndim, k = 0;
    int32_t ne = ell[t] ? nd - (nraw[t] - 1) : 0;
    for (int32_t i = 0; i < nraw[t]; i++) {
      if (raw[t][i] >= 0) {
        ops[t].lab[k++] = raw[t][i];
      } else {
        for (int32_t e = 0; e < ne; e++)
          ops[t].lab[k++] = 52 + maxell - ne + e;
      }
    }
    ops[t].nl = nd;
    for (int32_t d = 0; d < nd; d++) {
      int32_t l = ops[t].lab[d];
      int64_t e = a->shape[d];
      if (e != 1) {
        if (ext[l] != 1 && ext[l] != e)
          return cn_error(CN_ERR_SHAPE,
                          "%s: subscript extents do not match (%lld and %lld) "
                          "in '%s'",
                          fn, (long long)ext[l], (long long)e, subscripts);
        ext[l] = e;
      }
      bool seen = false;
      for (int32_t q = 0; q < d; q++)
        seen |= ops[t].lab[q] == l;
      if (!seen)
        count[l]++;
    }
  }
  /* Output labels. */
  int32_t outl[EIN_MAXL], nout = 0;
  bool inout[EIN_MAXL] = {false};
  if (arrow) {
    int32_t ol[CN_MAX_DIMS + 1];
    bool oell = false;
    char bad = 0;
    const char *os = arrow + 2;
    int c = parse_term(os, strlen(os), ol, &oell, &bad);
    if (c < 0)
      return cn_error(CN_ERR_VALUE, "%s: invalid output subscript '%c' in '%s'",
                      fn, bad, subscripts);
    for (int32_t i = 0; i < c; i++) {
      if (ol[i] < 0) {
        for (int32_t e = 0; e < maxell; e++) {
          outl[nout++] = 52 + e;
          inout[52 + e] = true;
        }
        continue;
      }
      if (count[ol[i]] == 0)
        return cn_error(CN_ERR_VALUE,
                        "%s: output subscript '%c' does not appear in the "
                        "inputs of '%s'",
                        fn, os[i], subscripts);
      if (inout[ol[i]])
        return cn_error(CN_ERR_VALUE, "%s: output subscript repeated in '%s'",
                        fn, subscripts);
      inout[ol[i]] = true;
      outl[nout++] = ol[i];
    }
  } else {
    for (int32_t e = 0; e < maxell; e++) {
      outl[nout++] = 52 + e;
      inout[52 + e] = true;
    }
    /* Letters used once, alphabetical (ASCII: upper case first). */
    for (int32_t l = 0; l < 52; l++)
      if (count[l] == 1) {
        int occurrences = 0;
        for (int32_t t = 0; t < n; t++)
          for (int32_t d = 0; d < ops[t].nl; d++)
            occurrences += ops[t].lab[d] == l;
        if (occurrences == 1) {
          outl[nout++] = l;
          inout[l] = true;
        }
      }
  }
  if (nout > CN_MAX_DIMS)
    return cn_error(CN_ERR_VALUE, "%s: output has too many dimensions", fn);
  /* Evaluate. */
  cn_status st = CN_OK;
  for (int32_t t = 0; t < n; t++) {
    cn_array_retain(operands[t]);
    ops[t].a = operands[t];
  }
  for (int32_t t = 0; t < n && st == CN_OK; t++)
    st = ein_diagonal(&ops[t], fn);
  /* Pairs in greedy order, as NumPy's optimize='greedy': each step
   * contracts the two operands whose result is smallest (ties: leftmost),
   * so a cheap contraction shrinks an operand before a large one meets it. */
  int32_t live = n;
  while (live > 1 && st == CN_OK) {
    int32_t bi = 0, bj = 1;
    double best = -1;
    for (int32_t i = 0; i < live; i++)
      for (int32_t j = i + 1; j < live; j++) {
        bool keep[EIN_MAXL], in[EIN_MAXL] = {false};
        ein_keep(keep, inout, ops, live, i, j);
        for (int32_t d = 0; d < ops[i].nl; d++)
          in[ops[i].lab[d]] = true;
        for (int32_t d = 0; d < ops[j].nl; d++)
          in[ops[j].lab[d]] = true;
        double size = 1;
        for (int32_t l = 0; l < EIN_MAXL; l++)
          if (in[l] && keep[l])
            size *= (double)ext[l];
        if (best < 0 || size < best) {
          best = size;
          bi = i;
          bj = j;
        }
      }
    bool keep[EIN_MAXL];
    ein_keep(keep, inout, ops, live, bi, bj);
    st = ein_pair(&ops[bi], &ops[bj], keep, ext, fn);
    /* the result stays in bi; bj leaves the list */
    cn_array_release(ops[bj].a);
    for (int32_t u = bj; u + 1 < live; u++)
      ops[u] = ops[u + 1];
    ops[live - 1].a = NULL;
    live--;
  }
  if (st == CN_OK) {
    bool drop[EIN_MAXL];
    for (int32_t l = 0; l < EIN_MAXL; l++)
      drop[l] = !inout[l];
    st = ein_sum(&ops[0], drop);
  }
  if (st == CN_OK)
    st = ein_permute(&ops[0], outl, nout);
  cn_array_s *res = NULL;
  if (st == CN_OK) {
    /* Broadcast any output extent still 1 in the result (a label of
     * extent 1 in one operand, larger in another that was summed). */
    int64_t shape[CN_MAX_DIMS];
    for (int32_t i = 0; i < nout; i++)
      shape[i] = ops[0].a->shape[i] == 1 ? ext[outl[i]] : ops[0].a->shape[i];
    bool fresh =
        memcmp(shape, ops[0].a->shape, sizeof(int64_t) * (size_t)nout) == 0;
    for (int32_t t = 0; t < n; t++)
      fresh = fresh && ops[0].a->buf != operands[t]->buf;
    bool same = memcmp(shape, ops[0].a->shape,
                       sizeof(int64_t) * (size_t)nout) == 0;
    if (fresh || (n == 1 && same)) {
      /* A new array (a product or a sum) needs no copy; one operand only
       * permuted or diagonalised is returned as a view, as NumPy does. */
      res = ops[0].a;
      cn_array_retain(res);
    } else {
      cn_array_s *bv = NULL;
      st = cn_broadcast_to(&bv, ops[0].a, nout, shape);
      if (st == CN_OK)
        st = cn_copy(&res, bv, CN_ORDER_C);
      cn_array_release(bv);
    }
  }
  for (int32_t t = 0; t < n; t++)
    cn_array_release(ops[t].a);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  *out = res;
  return CN_OK;
}
