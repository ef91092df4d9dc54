/* The CPU's fused expression engine (the expr slot): no compiler, the
 * program runs block by block. A block is CN_XC_BLOCK elements of the
 * flattened broadcast space, small enough that every temporary of a
 * program stays in L1/L2 (one scratch slot per live temporary, per thread,
 * reused once its last reader has run); each instruction is one call of the
 * op table's typed loop (core/cpu/elementwise_loops.h, or its SLEEF vector
 * kernel when the block's operands are contiguous) on block pointers.
 * Inputs that coalesce to one dimension are read in place with their
 * stride (0 for broadcast, any sign), others are gathered per block. A
 * reduction folds each block with the reduction kernels of
 * core/cpu/reduce_typed.c (pairwise sums inside a block) and merges the
 * blocks' states in a balanced tree; reduced axes that lead the kept ones
 * run as row tiles (rows folded into a tile of states, chunks of rows
 * merged in a tree), so no temporary of the full shape is made. OpenMP
 * splits the blocks. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../expr_program.h"
#include "elementwise.h"
#include "reduce_typed.h"

/* 2048 elements: a float64 temporary is 16 KiB, a complex128 one 32 KiB. */
#define CN_XC_BLOCK 2048

/* ---- casts (astype's conversions, CN_CONV) -------------------------- */

typedef void (*cn_xc_cast_fn)(char *d, int64_t ds, const char *s, int64_t ss,
                              int64_t n);

#define CN_XC_CAST(dn, TD, DC, sn, TS, SC)                                     \
  static void cn_xc_cast_##dn##_##sn(char *d, int64_t ds, const char *s,       \
                                     int64_t ss, int64_t n) {                  \
    if (ds == (int64_t)sizeof(TD) && ss == (int64_t)sizeof(TS)) {              \
      TD *dp = (TD *)(void *)d;                                                \
      const TS *sp = (const TS *)(const void *)s;                              \
      for (int64_t i = 0; i < n; i++)                                          \
        dp[i] = CN_CONV(DC, SC, TD, sp[i]);                                    \
      return;                                                                  \
    }                                                                          \
    for (int64_t i = 0; i < n; i++)                                            \
      *(TD *)(void *)(d + i * ds) =                                            \
          CN_CONV(DC, SC, TD, *(const TS *)(const void *)(s + i * ss));        \
  }
#define CN_XC_CAST_SRC(dn, TD, DC)                                             \
  CN_XC_CAST(dn, TD, DC, b, bool, kb)                                          \
  CN_XC_CAST(dn, TD, DC, i8, int8_t, ki)                                       \
  CN_XC_CAST(dn, TD, DC, i16, int16_t, ki)                                     \
  CN_XC_CAST(dn, TD, DC, i32, int32_t, ki)                                     \
  CN_XC_CAST(dn, TD, DC, i64, int64_t, ki)                                     \
  CN_XC_CAST(dn, TD, DC, u8, uint8_t, ku)                                      \
  CN_XC_CAST(dn, TD, DC, u16, uint16_t, ku)                                    \
  CN_XC_CAST(dn, TD, DC, u32, uint32_t, ku)                                    \
  CN_XC_CAST(dn, TD, DC, u64, uint64_t, ku)                                    \
  CN_XC_CAST(dn, TD, DC, f16, cn_f16_t, kh)                                    \
  CN_XC_CAST(dn, TD, DC, f32, float, kf)                                       \
  CN_XC_CAST(dn, TD, DC, f64, double, kf)                                      \
  CN_XC_CAST(dn, TD, DC, c64, cn_c64_t, kc)                                    \
  CN_XC_CAST(dn, TD, DC, c128, cn_c128_t, kc)
#define CN_XC_CAST_DST(dn, TD, DC, E) CN_XC_CAST_SRC(dn, TD, DC)
CN_CPU_STORAGE_DTYPES(CN_XC_CAST_DST)

#define CN_XC_CAST_ROW(dn, TD, DC, E)                                          \
  {cn_xc_cast_##dn##_b,   cn_xc_cast_##dn##_i8,  cn_xc_cast_##dn##_i16,        \
   cn_xc_cast_##dn##_i32, cn_xc_cast_##dn##_i64, cn_xc_cast_##dn##_u8,         \
   cn_xc_cast_##dn##_u16, cn_xc_cast_##dn##_u32, cn_xc_cast_##dn##_u64,        \
   cn_xc_cast_##dn##_f16, cn_xc_cast_##dn##_f32, cn_xc_cast_##dn##_f64,        \
   cn_xc_cast_##dn##_c64, cn_xc_cast_##dn##_c128},
static const cn_xc_cast_fn cn_xc_casts[CN_NUM_DTYPES][CN_NUM_DTYPES] = {
    CN_CPU_STORAGE_DTYPES(CN_XC_CAST_ROW)};

/* ---- where and copies, by item size ---------------------------------- */

#define CN_XC_WHERE(T, S)                                                      \
  static void cn_xc_where_##S(int64_t n, char *const *p, const int64_t *s) {   \
    const int64_t z = sizeof(T);                                               \
    if (s[0] == z && s[1] == 1 && s[2] == z && s[3] == z) {                    \
      T *o = (T *)(void *)p[0];                                                \
      const bool *c = (const bool *)p[1];                                      \
      const T *x = (const T *)(void *)p[2], *y = (const T *)(void *)p[3];      \
      /* a select without branches: random conditions would mispredict */    \
      CN_IVDEP for (int64_t i = 0; i < n; i++) {                               \
        T m = (T)0 - (T)c[i];                                                  \
        o[i] = (T)((x[i] & m) | (y[i] & (T)~m));                               \
      }                                                                        \
      return;                                                                  \
    }                                                                          \
    for (int64_t i = 0; i < n; i++) {                                          \
      bool c = *(const bool *)(p[1] + i * s[1]);                               \
      *(T *)(void *)(p[0] + i * s[0]) =                                        \
          c ? *(const T *)(void *)(p[2] + i * s[2])                            \
            : *(const T *)(void *)(p[3] + i * s[3]);                           \
    }                                                                          \
  }                                                                            \
  static void cn_xc_copy_##S(char *d, int64_t ds, const char *s, int64_t ss,  \
                             int64_t n) {                                      \
    if (ds == (int64_t)sizeof(T) && ss == (int64_t)sizeof(T)) {                \
      memcpy(d, s, (size_t)n * sizeof(T));                                     \
      return;                                                                  \
    }                                                                          \
    for (int64_t i = 0; i < n; i++)                                            \
      *(T *)(void *)(d + i * ds) = *(const T *)(const void *)(s + i * ss);     \
  }
CN_XC_WHERE(uint8_t, 1)
CN_XC_WHERE(uint16_t, 2)
CN_XC_WHERE(uint32_t, 4)
CN_XC_WHERE(uint64_t, 8)

/* 16-byte items (complex128) as two 8-byte lanes. */
static void cn_xc_where_16(int64_t n, char *const *p, const int64_t *s) {
  for (int64_t i = 0; i < n; i++) {
    const uint64_t m = (uint64_t)0 - (uint64_t)*(const bool *)(p[1] + i * s[1]);
    const uint64_t *x = (const uint64_t *)(const void *)(p[2] + i * s[2]);
    const uint64_t *y = (const uint64_t *)(const void *)(p[3] + i * s[3]);
    uint64_t *o = (uint64_t *)(void *)(p[0] + i * s[0]);
    uint64_t lo = (x[0] & m) | (y[0] & ~m), hi = (x[1] & m) | (y[1] & ~m);
    o[0] = lo;
    o[1] = hi;
  }
}
static void cn_xc_copy_16(char *d, int64_t ds, const char *s, int64_t ss,
                          int64_t n) {
  if (ds == 16 && ss == 16) {
    memcpy(d, s, (size_t)n * 16);
    return;
  }
  for (int64_t i = 0; i < n; i++)
    memcpy(d + i * ds, s + i * ss, 16);
}

static cn_ew_kernel cn_xc_where_kernel(int64_t isz) {
  return isz == 1   ? cn_xc_where_1
         : isz == 2 ? cn_xc_where_2
         : isz == 4 ? cn_xc_where_4
         : isz == 8 ? cn_xc_where_8
                    : cn_xc_where_16;
}
static cn_xc_cast_fn cn_xc_copy_kernel(int64_t isz) {
  return isz == 1   ? cn_xc_copy_1
         : isz == 2 ? cn_xc_copy_2
         : isz == 4 ? cn_xc_copy_4
         : isz == 8 ? cn_xc_copy_8
                    : cn_xc_copy_16;
}

static const cn_ew_kernel *cn_xc_table(cn_dtype dt) {
  switch (dt) {
#define CN_XC_TABLE_CASE_(sfx, ctype, cls, cdt)                                \
  case cdt:                                                                    \
    return cn_ew_kernels_##sfx;
    CN_CPU_DTYPES(CN_XC_TABLE_CASE_)
  case CN_FLOAT16:
    return cn_ew_kernels_f16;
#undef CN_XC_TABLE_CASE_
  default:
    return NULL;
  }
}

/* ---- the plan of one evaluation ----------------------------------------- */

typedef struct {
  cn_ew_kernel table;  /* the typed loop (any strides) */
  cn_ew_kernel contig; /* SLEEF kernel for all-contiguous operands, or NULL */
  cn_ew_kernel scalar; /* power by a stride-0 exponent, or NULL */
  cn_xc_cast_fn cast;
} cn_xc_step;

typedef struct {
  const cn_expr_program *pr;
  int32_t nd; /* coalesced dimensions (>= 1) */
  int64_t shape[CN_MAX_DIMS];
  int64_t total;
  /* per register: coalesced byte strides of inputs, the scratch slot of
   * temporaries and gathered inputs (-1: read in place) */
  int64_t (*strides)[CN_MAX_DIMS];
  const char **base;
  int32_t *slot;
  int32_t nslots;
  cn_xc_step *steps;
  /* the output (elementwise result) with its strides; NULL for a
   * reduction */
  char *out;
  int64_t out_strides[CN_MAX_DIMS];
  const cn_red_kernel *red;
  char *states; /* one reduction state per block (outputs longer than a
                 * block) */
  /* A reduction folds each run of K consecutive flat elements into one
   * output (the reduced axes are the trailing ones), M outputs. Blocks are
   * whole outputs (blk_len, a multiple of K, when K fits a block) or bpo
   * blocks per output. */
  int64_t K, M, blk_len, bpo;
  /* Reduced axes leading the kept ones: a block is a tile of tile_rows
   * rows (reduced index) by tile_cols outputs; each row folds into the
   * tile's states with the kernel's rows(), and the chunks' states merge
   * in a balanced tree per output. ncb column blocks per chunk; 0: not
   * tiled. */
  int64_t tile_rows, tile_cols, ncb;
  char *rout;                        /* the reduction's output */
  int32_t rnd;                       /* its ndim, shape, strides in bytes */
  int64_t rshape[CN_MAX_DIMS], rstrides[CN_MAX_DIMS];
  cn_dtype rdtype;
  size_t slot_bytes; /* one block of the widest dtype (less when small) */
  _Atomic int bad_exponent;
} cn_xc_plan;

/* Copies n elements of the coalesced space from flat index lo between a
 * strided operand (base, strides) and contiguous memory; to_strided picks
 * the direction. */
static void cn_xc_move(const cn_xc_plan *pl, char *base,
                       const int64_t *strides, char *flat, int64_t lo,
                       int64_t n, int64_t isz, bool to_strided) {
  const int32_t nd = pl->nd;
  int64_t idx[CN_MAX_DIMS];
  int64_t rem = lo;
  for (int32_t d = nd - 1; d >= 0; d--) {
    idx[d] = rem % pl->shape[d];
    rem /= pl->shape[d];
  }
  char *p = base;
  for (int32_t d = 0; d < nd; d++)
    p += idx[d] * strides[d];
  cn_xc_cast_fn copy = cn_xc_copy_kernel(isz);
  const int64_t inner = pl->shape[nd - 1], si = strides[nd - 1];
  while (n > 0) {
    int64_t cnt = inner - idx[nd - 1];
    if (cnt > n)
      cnt = n;
    if (to_strided)
      copy(p, si, flat, isz, cnt);
    else
      copy(flat, isz, p, si, cnt);
    flat += cnt * isz;
    n -= cnt;
    if (n == 0)
      break;
    p += (cnt - 0) * si;
    idx[nd - 1] += cnt;
    /* carry: the inner index wrapped to the row's end */
    for (int32_t d = nd - 1; d > 0 && idx[d] == pl->shape[d]; d--) {
      p -= idx[d] * strides[d];
      idx[d] = 0;
      p += strides[d - 1];
      idx[d - 1]++;
    }
  }
}

/* Flat start and length of block blk. */
static void cn_xc_block_range(const cn_xc_plan *pl, int64_t blk, int64_t *lo,
                              int64_t *n) {
  if (pl->red != NULL && pl->bpo > 0) {
    const int64_t o = blk / pl->bpo, j = blk % pl->bpo;
    *lo = o * pl->K + j * CN_XC_BLOCK;
    *n = pl->K - j * CN_XC_BLOCK < CN_XC_BLOCK ? pl->K - j * CN_XC_BLOCK
                                               : CN_XC_BLOCK;
    return;
  }
  *lo = blk * pl->blk_len;
  *n = pl->total - *lo < pl->blk_len ? pl->total - *lo : pl->blk_len;
}

/* Address of reduction output o (C order over the kept axes). */
static char *cn_xc_rout(const cn_xc_plan *pl, int64_t o) {
  char *p = pl->rout;
  for (int32_t d = pl->rnd - 1; d >= 0; d--) {
    if (pl->rshape[d] <= 1)
      continue;
    p += (o % pl->rshape[d]) * pl->rstrides[d];
    o /= pl->rshape[d];
  }
  return p;
}

/* Runs blocks [b0, b1) with scratch (nslots slots of CN_XC_BLOCK * 16). */
static void cn_xc_blocks(cn_xc_plan *pl, int64_t b0, int64_t b1,
                         char *scratch) {
  const cn_expr_program *pr = pl->pr;
  const int32_t nreg = pr->nreg;
  char *ptr[nreg > 0 ? nreg : 1];
  int64_t str[nreg > 0 ? nreg : 1];
  const size_t slot_bytes = pl->slot_bytes;
  const bool flat = pl->nd == 1;
  const int32_t res = pr->result;
  const int64_t res_isz = cn_itemsize(pr->regs[res].dtype);
  for (int64_t blk = b0; blk < b1; blk++) {
    int64_t lo = 0, n = 0, r0 = 0, r1 = 1, c0 = 0;
    void *tst = NULL;
    if (pl->ncb > 0) {
      const int64_t chunk = blk / pl->ncb;
      c0 = blk % pl->ncb * pl->tile_cols;
      r0 = chunk * pl->tile_rows;
      r1 = r0 + pl->tile_rows < pl->K ? r0 + pl->tile_rows : pl->K;
      n = pl->M - c0 < pl->tile_cols ? pl->M - c0 : pl->tile_cols;
      tst = pl->states + (size_t)(chunk * pl->M + c0) * pl->red->st_size;
      pl->red->init(tst, n);
    }
    for (int64_t row = r0; row < r1; row++) {
    if (pl->ncb > 0)
      lo = row * pl->M + c0;
    else
      cn_xc_block_range(pl, blk, &lo, &n);
    for (int32_t r = 0; r < nreg; r++) {
      const cn_expr_reg *g = &pr->regs[r];
      if (g->last_use < 0)
        continue;
      if (g->kind == CN_XR_CONST) {
        ptr[r] = (char *)g->value;
        str[r] = 0;
      } else if (g->kind == CN_XR_INPUT) {
        if (pl->slot[r] < 0) {
          ptr[r] = (char *)pl->base[r] + lo * pl->strides[r][0];
          str[r] = pl->strides[r][0];
        } else {
          ptr[r] = scratch + (size_t)pl->slot[r] * slot_bytes;
          str[r] = cn_itemsize(g->dtype);
          cn_xc_move(pl, (char *)pl->base[r], pl->strides[r], ptr[r], lo, n,
                     str[r], false);
        }
      }
    }
    bool direct = false;
    for (int32_t i = 0; i < pr->ninsn; i++) {
      const cn_expr_insn *ins = &pr->insns[i];
      const int32_t o = ins->out;
      if (o == res && pl->out != NULL && flat) {
        ptr[o] = pl->out + lo * pl->out_strides[0];
        str[o] = pl->out_strides[0];
        direct = true;
      } else {
        ptr[o] = scratch + (size_t)pl->slot[o] * slot_bytes;
        str[o] = cn_itemsize(pr->regs[o].dtype);
      }
      const cn_xc_step *k = &pl->steps[i];
      if (ins->kind == CN_XI_CAST) {
        k->cast(ptr[o], str[o], ptr[ins->in[0]], str[ins->in[0]], n);
        continue;
      }
      char *p[4] = {ptr[o], NULL, NULL, NULL};
      int64_t s[4] = {str[o], 0, 0, 0};
      bool contig = s[0] == cn_itemsize(pr->regs[o].dtype);
      for (int32_t j = 0; j < ins->nin; j++) {
        p[j + 1] = ptr[ins->in[j]];
        s[j + 1] = str[ins->in[j]];
        contig = contig && s[j + 1] == cn_itemsize(pr->regs[ins->in[j]].dtype);
      }
      if (ins->kind == CN_XI_WHERE) {
        k->table(n, p, s);
        continue;
      }
      if (ins->check_exponent) {
        bool neg = false;
        const int64_t es = s[2];
        switch (cn_itemsize(ins->ct)) {
        case 1:
          for (int64_t e = 0; e < n; e++)
            neg |= *(const int8_t *)(p[2] + e * es) < 0;
          break;
        case 2:
          for (int64_t e = 0; e < n; e++)
            neg |= *(const int16_t *)(const void *)(p[2] + e * es) < 0;
          break;
        case 4:
          for (int64_t e = 0; e < n; e++)
            neg |= *(const int32_t *)(const void *)(p[2] + e * es) < 0;
          break;
        default:
          for (int64_t e = 0; e < n; e++)
            neg |= *(const int64_t *)(const void *)(p[2] + e * es) < 0;
          break;
        }
        if (neg) {
          pl->bad_exponent = 1;
          return;
        }
      }
      if (k->scalar != NULL && s[2] == 0)
        k->scalar(n, p, s);
      else if (k->contig != NULL && contig)
        k->contig(n, p, s);
      else
        k->table(n, p, s);
    }
    if (pl->ncb > 0) {
      pl->red->rows(tst, ptr[res], n, str[res], row, NULL, 0);
      continue;
    }
    if (pl->red != NULL && pl->bpo > 0) {
      void *st = pl->states + (size_t)blk * pl->red->st_size;
      pl->red->init(st, 1);
      pl->red->leaf(st, ptr[res], n, str[res], lo % pl->K, NULL);
    } else if (pl->red != NULL) {
      /* whole outputs: each folded and stored here */
      unsigned char state[CN_RK_STATE_MAX];
      for (int64_t j = 0; j < n; j += pl->K) {
        pl->red->init(state, 1);
        pl->red->leaf(state, ptr[res] + j * str[res], pl->K, str[res], 0,
                      NULL);
        pl->red->store(cn_xc_rout(pl, (lo + j) / pl->K), pl->rdtype, state);
      }
    } else if (!direct) {
      if (flat)
        cn_xc_copy_kernel(res_isz)(pl->out + lo * pl->out_strides[0],
                                   pl->out_strides[0], ptr[res], str[res], n);
      else {
        char *src = ptr[res];
        char *tmp = NULL;
        if (str[res] != res_isz) {
          /* a constant or a strided input as the result: make it flat */
          tmp = scratch + (size_t)pl->nslots * slot_bytes;
          cn_xc_copy_kernel(res_isz)(tmp, res_isz, src, str[res], n);
          src = tmp;
        }
        cn_xc_move(pl, pl->out, pl->out_strides, src, lo, n, res_isz, true);
      }
    }
    }
  }
}

static cn_status cn_cpu_expr(const cn_expr_program *pr,
                             const cn_array_s *const *in, cn_array_s *out) {
  const char *fn = "cn_cpu_expr";
  const bool red = pr->red_kind >= 0;
  cn_xc_plan pl = {0};
  pl.pr = pr;
  const int32_t nreg = pr->nreg;
  cn_status st = CN_OK;
  pl.strides = calloc((size_t)nreg + 1, sizeof *pl.strides);
  pl.base = calloc((size_t)nreg + 1, sizeof *pl.base);
  pl.slot = calloc((size_t)nreg + 1, sizeof *pl.slot);
  pl.steps = calloc((size_t)pr->ninsn + 1, sizeof *pl.steps);
  int64_t(**ops)[CN_MAX_DIMS] = calloc((size_t)nreg + 2, sizeof *ops);
  char *scratch = NULL;
  if (!pl.strides || !pl.base || !pl.slot || !pl.steps || !ops) {
    st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
    goto done;
  }
  /* the shape comes from the inputs (or out, without inputs) */
  const cn_array_s *shape_of = pr->nin > 0 ? in[0] : out;
  pl.nd = shape_of->ndim;
  memcpy(pl.shape, shape_of->shape, sizeof(int64_t) * (size_t)pl.nd);
  pl.total = 1;
  for (int32_t d = 0; d < pl.nd; d++)
    pl.total *= pl.shape[d];
  pl.K = pl.M = 1;
  pl.blk_len = CN_XC_BLOCK;
  /* iteration axis j walks the arrays' axis perm[j] (-1: a lone extent 1) */
  int32_t perm[CN_MAX_DIMS];
  for (int32_t d = 0; d < pl.nd; d++)
    perm[d] = d;
  if (red) {
    /* the reduced axes (extent 1 in out, or all of them for a 0-d out)
     * are iterated last: kept axes first in their order, then the reduced
     * ones, so each output folds one run of K consecutive flat elements
     * with the engine's pairwise kernel. Inputs whose reduced axes lead
     * are gathered per block, which pays only while the innermost axis is
     * among the reduced (contiguous runs); with a kept innermost axis the
     * gather walks columns, slower than the pass plus a reduction (8x
     * measured on (2000, 5000), axis 0), so that case is not fused */
    const bool all = out->ndim != pl.nd;
    int32_t nk = 0, nr = 0, kept[CN_MAX_DIMS], reduced[CN_MAX_DIMS];
    for (int32_t d = 0; d < pl.nd; d++) {
      if (pl.shape[d] == 1)
        continue;
      if (all || out->shape[d] == 1) {
        pl.K *= pl.shape[d];
        reduced[nr++] = d;
      } else {
        pl.M *= pl.shape[d];
        kept[nk++] = d;
      }
    }
    const bool tiled = nk > 0 && nr > 0 && kept[nk - 1] > reduced[nr - 1];
    if (tiled && reduced[nr - 1] > kept[0]) {
      st = cn_error(CN_ERR_UNSUPPORTED,
                    "%s: reduced axes between kept ones, with a kept "
                    "innermost axis, are not fused",
                    fn);
      goto done;
    }
    if (tiled) {
      /* reduced axes all lead: rows of M outputs, walked in memory order */
      for (int32_t j = 0; j < nr; j++)
        perm[j] = reduced[j];
      for (int32_t j = 0; j < nk; j++)
        perm[nr + j] = kept[j];
      pl.tile_cols = pl.M < 512 ? pl.M : 512;
      pl.tile_rows = 64;
      pl.ncb = (pl.M + pl.tile_cols - 1) / pl.tile_cols;
    } else {
      for (int32_t j = 0; j < nk; j++)
        perm[j] = kept[j];
      for (int32_t j = 0; j < nr; j++)
        perm[nk + j] = reduced[j];
    }
    int64_t pshape[CN_MAX_DIMS];
    for (int32_t j = 0; j < nk + nr; j++)
      pshape[j] = pl.shape[perm[j]];
    /* extents of 1 carry no stride: dropped */
    pl.nd = nk + nr;
    memcpy(pl.shape, pshape, sizeof(int64_t) * (size_t)pl.nd);
    if (pl.nd == 0) {
      pl.nd = 1;
      pl.shape[0] = 1;
      perm[0] = -1;
    }
    pl.rout = out->data;
    pl.rnd = out->ndim;
    pl.rdtype = out->dtype;
    for (int32_t d = 0; d < out->ndim; d++) {
      pl.rshape[d] = out->shape[d];
      pl.rstrides[d] = out->strides[d] * cn_itemsize(out->dtype);
    }
  }
  int32_t nops = 0;
  for (int32_t r = 0; r < nreg; r++) {
    const cn_expr_reg *g = &pr->regs[r];
    pl.slot[r] = -1;
    if (g->kind != CN_XR_INPUT || g->last_use < 0)
      continue;
    const cn_array_s *a = in[g->input];
    pl.base[r] = a->data;
    for (int32_t d = 0; d < pl.nd; d++)
      pl.strides[r][d] =
          perm[d] < 0 ? 0 : a->strides[perm[d]] * cn_itemsize(a->dtype);
    ops[nops++] = &pl.strides[r];
  }
  if (!red) {
    pl.out = out->data;
    for (int32_t d = 0; d < pl.nd; d++)
      pl.out_strides[d] = out->strides[d] * cn_itemsize(out->dtype);
    ops[nops++] = &pl.out_strides;
  }
  if (pl.total > 0)
    cn_expr_coalesce(&pl.nd, pl.shape, nops,
                     (int64_t(*const *)[CN_MAX_DIMS])ops);
  /* scratch slots: gathered inputs keep theirs; temporaries share slots
   * once their last reader has run */
  int32_t *free_slots = calloc((size_t)nreg + 1, sizeof *free_slots);
  bool *held = calloc((size_t)nreg + 1, sizeof *held);
  if (free_slots == NULL || held == NULL) {
    free(free_slots);
    free(held);
    st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
    goto done;
  }
  int32_t nfree = 0;
  for (int32_t r = 0; r < nreg; r++)
    if (pr->regs[r].kind == CN_XR_INPUT && pr->regs[r].last_use >= 0 &&
        pl.nd > 1)
      pl.slot[r] = pl.nslots++;
  int64_t cost = 0;
  for (int32_t i = 0; i < pr->ninsn; i++) {
    const cn_expr_insn *ins = &pr->insns[i];
    const int64_t oisz = cn_itemsize(pr->regs[ins->out].dtype);
    bool reused = false;
    /* a temporary read for the last time, once, may become the output
     * exactly (the loops allow an exact alias) */
    for (int32_t j = 0; j < ins->nin && !reused; j++) {
      int32_t r = ins->in[j];
      if (pr->regs[r].kind != CN_XR_TEMP || pr->regs[r].last_use != i ||
          !held[r] || cn_itemsize(pr->regs[r].dtype) != oisz)
        continue;
      bool once = true;
      for (int32_t q = 0; q < ins->nin; q++)
        once = once && (q == j || ins->in[q] != r);
      if (!once)
        continue;
      pl.slot[ins->out] = pl.slot[r];
      held[r] = false;
      reused = true;
    }
    if (!reused)
      pl.slot[ins->out] = nfree > 0 ? free_slots[--nfree] : pl.nslots++;
    held[ins->out] = true;
    for (int32_t j = 0; j < ins->nin; j++) {
      int32_t r = ins->in[j];
      if (pr->regs[r].kind == CN_XR_TEMP && pr->regs[r].last_use == i &&
          held[r] && r != pr->result) {
        free_slots[nfree++] = pl.slot[r];
        held[r] = false;
      }
    }
    cn_xc_step *k = &pl.steps[i];
    if (ins->kind == CN_XI_CAST) {
      k->cast = cn_xc_casts[cn_dtype_index(ins->ct)]
                           [cn_dtype_index(pr->regs[ins->in[0]].dtype)];
      cost += 1;
    } else if (ins->kind == CN_XI_WHERE) {
      k->table = cn_xc_where_kernel(cn_itemsize(ins->ct));
      cost += 1;
    } else {
      const cn_ew_kernel *t = cn_xc_table(ins->ct);
      k->table = t ? t[ins->op] : NULL;
      if (k->table == NULL) {
        free(free_slots);
        free(held);
        st = cn_error(CN_ERR_INTERNAL, "%s: no loop for op %s with dtype %s",
                      fn, cn_op_table()[ins->op].name,
                      cn_dtype_name(ins->ct));
        goto done;
      }
      k->contig = cn_ew_sleef_kernel(ins->op, ins->ct);
      if (ins->op == CN_OPID_power)
        k->scalar = cn_ew_power_scalar_kernel(ins->ct);
      cost += k->contig || cn_is_complex(ins->ct) ? 8 : 1;
    }
  }
  free(free_slots);
  free(held);
  if (red) {
    pl.red = cn_red_kernel_get(pr->red_kind, pr->result_dtype, false);
    if (pl.red == NULL) {
      /* float16 has no fused kernel: the public reduction (float32
       * accumulation, as NumPy) runs after the pass */
      st = cn_error(CN_ERR_UNSUPPORTED, "%s: no fused reduction for %s", fn,
                    cn_dtype_name(pr->result_dtype));
      goto done;
    }
  }
  if (pl.total == 0) {
    /* empty reduced axes: the identity in every output */
    unsigned char state[CN_RK_STATE_MAX];
    for (int64_t o = 0; red && o < pl.M; o++) {
      pl.red->init(state, 1);
      pl.red->store(cn_xc_rout(&pl, o), pl.rdtype, state);
    }
    goto done;
  }
  int64_t nblocks;
  if (red && pl.ncb > 0) {
    const int64_t nchunks = (pl.K + pl.tile_rows - 1) / pl.tile_rows;
    nblocks = nchunks * pl.ncb;
    pl.states = cn_aligned_alloc(
        64, ((size_t)(nchunks * pl.M) * pl.red->st_size + 63) & ~(size_t)63);
    if (pl.states == NULL) {
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
      goto done;
    }
  } else if (red && pl.K > CN_XC_BLOCK) {
    pl.bpo = (pl.K + CN_XC_BLOCK - 1) / CN_XC_BLOCK;
    nblocks = pl.M * pl.bpo;
    pl.states = cn_aligned_alloc(64, ((size_t)nblocks * pl.red->st_size + 63) &
                                         ~(size_t)63);
    if (pl.states == NULL) {
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
      goto done;
    }
  } else {
    if (red)
      pl.blk_len = CN_XC_BLOCK / pl.K * pl.K;
    nblocks = (pl.total + pl.blk_len - 1) / pl.blk_len;
  }
  if (cost < 1)
    cost = 1;
  int nth = cn_cpu_threads_for(pl.total * cost);
  if (nth > nblocks)
    nth = (int)nblocks;
  /* one extra slot per thread for flattening a strided result; a small
   * evaluation allocates only what its one block needs */
  const int64_t blk_elems = pl.total < CN_XC_BLOCK ? pl.total : CN_XC_BLOCK;
  pl.slot_bytes = ((size_t)blk_elems * CN_EXPR_MAX_ITEM + 63) & ~(size_t)63;
  const size_t per_thread = (size_t)(pl.nslots + 1) * pl.slot_bytes;
  scratch = cn_aligned_alloc(64, per_thread * (size_t)nth);
  if (scratch == NULL) {
    st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
    goto done;
  }
  if (nth <= 1) {
    cn_xc_blocks(&pl, 0, nblocks, scratch);
  } else {
#pragma omp parallel num_threads(nth)
    {
      int t = omp_get_thread_num(), nt = omp_get_num_threads();
      int64_t b0 = nblocks * t / nt, b1 = nblocks * (t + 1) / nt;
      cn_xc_blocks(&pl, b0, b1, scratch + per_thread * (size_t)t);
    }
  }
  if (pl.bad_exponent) {
    st = cn_error(CN_ERR_VALUE,
                  "%s: Integers to negative integer powers are not allowed.",
                  fn);
    goto done;
  }
  if (red && pl.ncb > 0) {
    /* the chunks' rows of states merged in a balanced tree */
    const size_t z = pl.red->st_size, rowz = (size_t)pl.M * z;
    const int64_t nchunks = (pl.K + pl.tile_rows - 1) / pl.tile_rows;
    for (int64_t step = 1; step < nchunks; step *= 2)
      for (int64_t i = 0; i + step < nchunks; i += 2 * step)
        pl.red->merge(pl.states + (size_t)i * rowz,
                      pl.states + (size_t)(i + step) * rowz, pl.M);
    for (int64_t o = 0; o < pl.M; o++)
      pl.red->store(cn_xc_rout(&pl, o), pl.rdtype, pl.states + (size_t)o * z);
  } else if (red && pl.bpo > 0) {
    /* each output's block states merged in a balanced tree */
    const size_t z = pl.red->st_size;
    for (int64_t o = 0; o < pl.M; o++) {
      char *base = pl.states + (size_t)(o * pl.bpo) * z;
      for (int64_t step = 1; step < pl.bpo; step *= 2)
        for (int64_t i = 0; i + step < pl.bpo; i += 2 * step)
          pl.red->merge(base + (size_t)i * z, base + (size_t)(i + step) * z,
                        1);
      pl.red->store(cn_xc_rout(&pl, o), pl.rdtype, base);
    }
  }
done:
  free(pl.strides);
  free(pl.base);
  free(pl.slot);
  free(pl.steps);
  free(ops);
  free(pl.states);
  free(scratch);
  return st;
}

void cn_cpu_expr_fill(cn_backend_compute *t) { t->expr = cn_cpu_expr; }
