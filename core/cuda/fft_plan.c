/* The cuFFT planner (fft_plan.h): from a guru descriptor to a gather copy
 * and a list of cufftMakePlanMany64 steps. Decisions, in order:
 *  - extent-1 dims are dropped (a length-1 C2C is the identity), and the
 *    halved dim of a real transform is kept even at n = 1;
 *  - the input is gathered into a packed buffer laid out in the output's
 *    dim order when a stride is not positive (cuFFT strides are), or when
 *    a C2R must transform a possibly self-overlapping input in place; a C2C
 *    gathers straight into the output and then runs in place there;
 *  - the transformed dims are cut into chunks of up to 3 whose strides nest
 *    (cuFFT's inembed / istride), innermost first; the first chunk goes
 *    from the source to the output and the rest run in place on the
 *    output (C2C is separable). R2C: the first chunk holds the halved dim
 *    innermost, the other dims follow as C2C on the half spectrum. C2R:
 *    C2C over the other dims in place on the (destroyable) input first,
 *    then a rank-1 C2R on the halved dim, which is how NumPy defines the
 *    transform for spectra that are not exactly Hermitian;
 *  - in each step the other dims are merged where they nest on both sides,
 *    the largest becomes cuFFT's batch and the rest host loops. */
#include <string.h>

#include "fft_plan.h"

typedef struct fdim {
  int64_t n;          /* logical transform length (transformed dims) */
  int64_t ein, eout;  /* extents on the input and output sides */
  int64_t si, so;     /* element strides on the input and output sides */
  bool tr, half;      /* transformed; the halved dim of a real transform */
} fdim;

typedef struct ctx {
  fdim dims[CN_MAX_DIMS];
  int32_t nd;
} ctx;

static bool fail(const char **why, const char *msg) {
  *why = msg;
  return false;
}

/* True when the dims in list (innermost first) nest on the side given by
 * stride and extent selectors: each outer stride a positive multiple of
 * the inner one by at least the inner extent. */
static bool nests(const ctx *c, const int32_t *list, int32_t len, bool in) {
  for (int32_t k = 0; k < len; k++) {
    const fdim *a = &c->dims[list[k]];
    int64_t sa = in ? a->si : a->so;
    if (sa <= 0)
      return false;
    if (k + 1 < len) {
      const fdim *b = &c->dims[list[k + 1]];
      int64_t sb = in ? b->si : b->so, ea = in ? a->ein : a->eout;
      if (sb <= 0 || sb % sa != 0 || sb / sa < ea)
        return false;
    }
  }
  return true;
}

/* Sufficient check that one side's layout does not overlap itself: sorted
 * by stride, each stride reaches past the previous dim's span. */
static bool no_self_overlap(const ctx *c, bool in) {
  int32_t ord[CN_MAX_DIMS];
  for (int32_t i = 0; i < c->nd; i++)
    ord[i] = i;
  for (int32_t i = 1; i < c->nd; i++)
    for (int32_t j = i; j > 0; j--) {
      const fdim *a = &c->dims[ord[j - 1]], *b = &c->dims[ord[j]];
      if ((in ? a->si : a->so) <= (in ? b->si : b->so))
        break;
      int32_t t = ord[j];
      ord[j] = ord[j - 1];
      ord[j - 1] = t;
    }
  int64_t span = 1; /* elements covered by the dims so far */
  for (int32_t i = 0; i < c->nd; i++) {
    const fdim *a = &c->dims[ord[i]];
    int64_t s = in ? a->si : a->so, e = in ? a->ein : a->eout;
    if (e == 1)
      continue; /* reaches no other element, whatever its stride */
    if (s <= 0 || s < span)
      return false;
    span = s * e;
  }
  return true;
}

/* Sorts idx[0..n) by a stride ascending (input side when in). */
static void sort_by_stride(const ctx *c, int32_t *idx, int32_t n, bool in) {
  for (int32_t i = 1; i < n; i++)
    for (int32_t j = i; j > 0; j--) {
      const fdim *a = &c->dims[idx[j - 1]], *b = &c->dims[idx[j]];
      int64_t sa = in ? a->si : a->so, sb = in ? b->si : b->so;
      if (sa <= sb)
        break;
      int32_t t = idx[j];
      idx[j] = idx[j - 1];
      idx[j - 1] = t;
    }
}

/* Appends the step transforming chunk (innermost first) from src to dst;
 * src_in says whether the source side's strides are the dims' input (si)
 * or output (so) strides, dst_out the same for the destination; the
 * extents follow the same sides. */
static void emit_step(cn_cufft_plan *p, const ctx *c, int32_t kind,
                      int32_t sign, const int32_t *chunk, int32_t r,
                      int32_t src, int32_t dst, bool src_in, bool dst_out) {
  cn_cufft_step *s = &p->steps[p->nsteps++];
  memset(s, 0, sizeof *s);
  s->kind = kind;
  s->sign = sign;
  s->rank = r;
  s->src = src;
  s->dst = dst;
#define SI(f) (src_in ? (f)->si : (f)->so)
#define EI(f) (src_in ? (f)->ein : (f)->eout)
#define SO(f) (dst_out ? (f)->so : (f)->si)
#define EO(f) (dst_out ? (f)->eout : (f)->ein)
  for (int32_t k = 0; k < r; k++) {
    const fdim *f = &c->dims[chunk[r - 1 - k]];
    s->n[k] = f->n;
    if (k == 0) {
      s->inembed[0] = EI(f);
      s->onembed[0] = EO(f);
    } else {
      const fdim *outer = &c->dims[chunk[r - k]];
      s->inembed[k] = SI(outer) / SI(f);
      s->onembed[k] = SO(outer) / SO(f);
    }
  }
  s->istride = SI(&c->dims[chunk[0]]);
  s->ostride = SO(&c->dims[chunk[0]]);
  /* The other dims, merged where they nest on both sides. */
  int64_t on[CN_MAX_DIMS], ois[CN_MAX_DIMS], oos[CN_MAX_DIMS];
  int32_t no = 0;
  int32_t idx[CN_MAX_DIMS], ni = 0;
  for (int32_t i = 0; i < c->nd; i++) {
    bool in_chunk = false;
    for (int32_t k = 0; k < r; k++)
      in_chunk |= chunk[k] == i;
    if (!in_chunk)
      idx[ni++] = i;
  }
  sort_by_stride(c, idx, ni, !dst_out);
  for (int32_t j = ni - 1; j >= 0; j--) { /* outermost first */
    const fdim *f = &c->dims[idx[j]];
    int64_t e = EI(f), a = SI(f), b = SO(f);
    if (no > 0 && ois[no - 1] == a * e && oos[no - 1] == b * e) {
      on[no - 1] *= e;
      ois[no - 1] = a;
      oos[no - 1] = b;
    } else {
      on[no] = e;
      ois[no] = a;
      oos[no] = b;
      no++;
    }
  }
#undef SI
#undef EI
#undef SO
#undef EO
  int32_t bi = -1;
  for (int32_t j = 0; j < no; j++)
    if (bi < 0 || on[j] > on[bi] || (on[j] == on[bi] && oos[j] < oos[bi]))
      bi = j;
  if (bi >= 0) {
    s->batch = on[bi];
    s->idist = ois[bi];
    s->odist = oos[bi];
  } else {
    int64_t ispan = s->istride, ospan = s->ostride;
    for (int32_t k = 0; k < r; k++) {
      ispan *= s->inembed[k];
      ospan *= s->onembed[k];
    }
    s->batch = 1;
    s->idist = ispan;
    s->odist = ospan;
  }
  for (int32_t j = 0; j < no; j++)
    if (j != bi) {
      s->loop_n[s->loop_rank] = on[j];
      s->loop_is[s->loop_rank] = ois[j];
      s->loop_os[s->loop_rank] = oos[j];
      s->loop_rank++;
    }
}

/* Cuts list (innermost first) into nesting chunks of up to 3 and emits a
 * C2C step for each, in place on buf (side in: input strides). */
static void c2c_chunks(cn_cufft_plan *p, const ctx *c, const int32_t *list,
                       int32_t len, int32_t sign, int32_t buf, bool in) {
  int32_t j = 0;
  while (j < len) {
    int32_t r = 1;
    while (r < 3 && j + r < len && nests(c, list + j, r + 1, in))
      r++;
    emit_step(p, c, CN_FFT_C2C, sign, list + j, r, buf, buf, in, !in);
    j += r;
  }
}

/* Grows the first chunk from list[0] (innermost) while it nests on both the
 * input and output sides; returns its length. */
static int32_t first_chunk(const ctx *c, const int32_t *list, int32_t len) {
  int32_t r = 1;
  while (r < 3 && r < len && nests(c, list, r + 1, true) &&
         nests(c, list, r + 1, false))
    r++;
  return r;
}

bool cn_cufft_plan_make(cn_cufft_plan *p, const cn_fft_desc *d,
                        const char **why) {
  memset(p, 0, sizeof *p);
  *why = NULL;
  if (d->kind != CN_FFT_C2C && d->kind != CN_FFT_R2C && d->kind != CN_FFT_C2R)
    return fail(why, "unknown transform kind");
  if (d->rank < 1 || d->howmany_rank < 0 ||
      d->rank + d->howmany_rank > CN_MAX_DIMS)
    return fail(why, "rank + howmany_rank outside 1..CN_MAX_DIMS");
  bool inplace = d->in == d->out;
  if (inplace && d->kind != CN_FFT_C2C)
    return fail(why, "an in-place transform must be C2C");
  ctx c;
  c.nd = 0;
  for (int32_t i = 0; i < d->rank + d->howmany_rank; i++) {
    bool tr = i < d->rank;
    int32_t k = tr ? i : i - d->rank;
    fdim f = {.n = tr ? d->n[k] : d->hn[k],
              .si = tr ? d->is[k] : d->his[k],
              .so = tr ? d->os[k] : d->hos[k],
              .tr = tr,
              .half = tr && d->kind != CN_FFT_C2C && k == d->rank - 1};
    if (f.n < 0 || (tr && f.n < 1))
      return fail(why, "a transform length is below 1 or an extent negative");
    if (f.n == 0)
      return true; /* nothing to transform */
    f.ein = f.eout = f.n;
    if (f.half && d->kind == CN_FFT_R2C)
      f.eout = f.n / 2 + 1;
    if (f.half && d->kind == CN_FFT_C2R)
      f.ein = f.n / 2 + 1;
    if (inplace && f.si != f.so)
      return fail(why, "an in-place transform needs equal input and output "
                       "strides");
    if (f.ein == 1 && f.eout == 1 && !f.half)
      continue; /* an identity dim */
    c.dims[c.nd++] = f;
  }
  for (int32_t i = 0; i < c.nd; i++)
    if (c.dims[i].so <= 0)
      return fail(why, "output strides must be positive");
  if (!no_self_overlap(&c, false))
    return fail(why, "the output overlaps itself");
  int32_t ntr = 0, half = -1;
  for (int32_t i = 0; i < c.nd; i++) {
    ntr += c.dims[i].tr && !c.dims[i].half;
    if (c.dims[i].half)
      half = i;
  }
  bool need_copy = false;
  for (int32_t i = 0; i < c.nd; i++)
    need_copy |= c.dims[i].si <= 0;
  if (d->kind == CN_FFT_C2R && ntr > 0 && !no_self_overlap(&c, true))
    need_copy = true;
  if (d->kind == CN_FFT_C2C && ntr == 0 && !inplace)
    need_copy = true; /* every transform is the identity: a copy */
  int32_t src = CN_CUFFT_BUF_IN;
  if (need_copy && !inplace) {
    /* Packed in the output's dim order (outermost first). */
    int32_t ord[CN_MAX_DIMS];
    for (int32_t i = 0; i < c.nd; i++)
      ord[i] = i;
    sort_by_stride(&c, ord, c.nd, false);
    p->copy = true;
    p->copy_complex = d->kind != CN_FFT_R2C;
    p->copy_dst =
        d->kind == CN_FFT_C2C ? CN_CUFFT_BUF_OUT : CN_CUFFT_BUF_SCRATCH;
    int64_t run = 1;
    for (int32_t j = 0; j < c.nd; j++) {
      fdim *f = &c.dims[ord[j]];
      int64_t packed = d->kind == CN_FFT_C2C ? f->so : run;
      p->copy_n[p->copy_rank] = f->ein;
      p->copy_is[p->copy_rank] = f->si;
      p->copy_os[p->copy_rank] = packed;
      p->copy_rank++;
      f->si = packed;
      run *= f->ein;
    }
    if (p->copy_dst == CN_CUFFT_BUF_SCRATCH)
      p->scratch_count = run;
    src = p->copy_dst;
  }
  int32_t list[CN_MAX_DIMS], nl = 0;
  if (d->kind == CN_FFT_C2C) {
    for (int32_t i = 0; i < c.nd; i++)
      if (c.dims[i].tr)
        list[nl++] = i;
    if (nl == 0)
      return true;
    sort_by_stride(&c, list, nl, false);
    if (src == CN_CUFFT_BUF_OUT || inplace) {
      c2c_chunks(p, &c, list, nl, d->sign,
                 inplace ? CN_CUFFT_BUF_IN : CN_CUFFT_BUF_OUT, false);
      return true;
    }
    int32_t r = first_chunk(&c, list, nl);
    emit_step(p, &c, CN_FFT_C2C, d->sign, list, r, src, CN_CUFFT_BUF_OUT,
              true, true);
    c2c_chunks(p, &c, list + r, nl - r, d->sign, CN_CUFFT_BUF_OUT, false);
    return true;
  }
  list[nl++] = half;
  for (int32_t i = 0; i < c.nd; i++)
    if (c.dims[i].tr && !c.dims[i].half)
      list[nl++] = i;
  if (d->kind == CN_FFT_R2C) {
    sort_by_stride(&c, list + 1, nl - 1, false);
    int32_t r = first_chunk(&c, list, nl);
    emit_step(p, &c, CN_FFT_R2C, -1, list, r, src, CN_CUFFT_BUF_OUT, true,
              true);
    c2c_chunks(p, &c, list + r, nl - r, -1, CN_CUFFT_BUF_OUT, false);
    return true;
  }
  /* C2R: the other dims in place on the source, then the halved one. */
  sort_by_stride(&c, list + 1, nl - 1, true);
  c2c_chunks(p, &c, list + 1, nl - 1, +1, src, true);
  emit_step(p, &c, CN_FFT_C2R, +1, list, 1, src, CN_CUFFT_BUF_OUT, true,
            true);
  return true;
}

int64_t cn_cufft_step_calls(const cn_cufft_step *s) {
  int64_t k = 1;
  for (int32_t j = 0; j < s->loop_rank; j++)
    k *= s->loop_n[j];
  return k;
}

void cn_cufft_key_make(cn_cufft_key *key, const cn_cufft_step *s, bool dbl,
                       int32_t device, uint64_t stream) {
  memset(key, 0, sizeof *key);
  key->device = device;
  key->kind = s->kind;
  key->dbl = dbl;
  key->rank = s->rank;
  key->stream = stream;
  for (int32_t k = 0; k < s->rank; k++) {
    key->n[k] = s->n[k];
    key->inembed[k] = s->inembed[k];
    key->onembed[k] = s->onembed[k];
  }
  key->istride = s->istride;
  key->idist = s->idist;
  key->ostride = s->ostride;
  key->odist = s->odist;
  key->batch = s->batch;
}
