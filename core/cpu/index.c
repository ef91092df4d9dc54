/* CPU gather/scatter kernels behind cn_take, cn_put, take/put_along_axis and
 * nonzero. They move raw elements (any dtype), so one loop serves every
 * dtype. */
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <string.h>

#include "cpu.h"
#include "nd_walk.h"

/* Splits a's shape around axis into outer dims, the axis, and the inner
 * dims, reading byte strides. */
typedef struct split3 {
  int32_t nout, nin;
  int64_t oshape[CN_MAX_DIMS], ishape[CN_MAX_DIMS];
  int64_t nouter, ninner;
} split3;

static void split_shape(split3 *s, const cn_array_s *a, int32_t axis) {
  s->nout = axis;
  s->nin = a->ndim - axis - 1;
  s->nouter = 1;
  s->ninner = 1;
  for (int32_t d = 0; d < axis; d++) {
    s->oshape[d] = a->shape[d];
    s->nouter *= a->shape[d];
  }
  for (int32_t d = 0; d < s->nin; d++) {
    s->ishape[d] = a->shape[axis + 1 + d];
    s->ninner *= s->ishape[d];
  }
}

/* Copies an inner block (nd dims) between two strided places. */
static void copy_block(char *dst, const int64_t *dstr, const char *src,
                       const int64_t *sstr, int32_t nd, const int64_t *shape,
                       int64_t n, int64_t size) {
  if (nd == 0) {
    cn_copy_elem(dst, src, size);
    return;
  }
  int64_t st[2][CN_MAX_DIMS];
  memcpy(st[0], dstr, sizeof(int64_t) * nd);
  memcpy(st[1], sstr, sizeof(int64_t) * nd);
  char *base[2] = {dst, (char *)src};
  cn_walk w;
  cn_walk_init(&w, nd, shape, 2, base, (const int64_t(*)[CN_MAX_DIMS])st, 0);
  for (int64_t i = 0; i < n; i++) {
    cn_copy_elem(w.ptr[0], w.ptr[1], size);
    cn_walk_next(&w);
  }
}

/* Byte offset of outer position o (C order over the outer dims). */
static int64_t outer_offset(int64_t o, int32_t nd, const int64_t *shape,
                            const int64_t *bstr) {
  int64_t off = 0;
  for (int32_t d = nd - 1; d >= 0; d--) {
    off += (o % shape[d]) * bstr[d];
    o /= shape[d];
  }
  return off;
}

/* Gather along a 1-d source: out[q] = a[ix[q]] with byte strides as / os,
 * one instantiation per element size so each copy is one move. */
#define CN_GATHER1(ES)                                                         \
  static void gather1_##ES(char *o, int64_t os, const char *a, int64_t as,     \
                           const int64_t *ix, int64_t k, int nth) {            \
    _Pragma(                                                                   \
        "omp parallel for num_threads(nth) schedule(static)") for (int64_t q = \
                                                                       0;      \
                                                                   q < k; q++) \
        memcpy(o + q * os, a + ix[q] * as, ES);                                \
  }
CN_GATHER1(1)
CN_GATHER1(2)
CN_GATHER1(4)
CN_GATHER1(8)
CN_GATHER1(16)

static cn_status cpu_take(cn_array_s *out, const cn_array_s *a,
                          const cn_array_s *idx, int32_t axis) {
  split3 s;
  split_shape(&s, a, axis);
  const int64_t *ix = (const int64_t *)idx->data;
  int64_t k = idx->size, size = cn_itemsize(a->dtype);
  int64_t ab[CN_MAX_DIMS], ob[CN_MAX_DIMS];
  cn_walk_bytes(ab, a);
  cn_walk_bytes(ob, out);
  int64_t total = s.nouter * k;
  if (total == 0 || s.ninner == 0)
    return CN_OK;
  int nth = cn_cpu_threads_for(total * s.ninner);
  if (s.nouter == 1 && s.ninner == 1) { /* the common a[idx] of a 1-d a */
    int64_t as = ab[axis], os = ob[axis];
    switch (size) {
    case 1:
      gather1_1(out->data, os, a->data, as, ix, k, nth);
      return CN_OK;
    case 2:
      gather1_2(out->data, os, a->data, as, ix, k, nth);
      return CN_OK;
    case 4:
      gather1_4(out->data, os, a->data, as, ix, k, nth);
      return CN_OK;
    case 8:
      gather1_8(out->data, os, a->data, as, ix, k, nth);
      return CN_OK;
    default:
      gather1_16(out->data, os, a->data, as, ix, k, nth);
      return CN_OK;
    }
  }
#pragma omp parallel for num_threads(nth) schedule(static)
  for (int64_t j = 0; j < total; j++) {
    int64_t o = j / k, q = j % k;
    const char *src =
        a->data + outer_offset(o, s.nout, s.oshape, ab) + ix[q] * ab[axis];
    char *dst =
        out->data + outer_offset(o, s.nout, s.oshape, ob) + q * ob[axis];
    copy_block(dst, ob + axis + 1, src, ab + axis + 1, s.nin, s.ishape,
               s.ninner, size);
  }
  return CN_OK;
}

static cn_status cpu_put(cn_array_s *a, const cn_array_s *idx, int32_t axis,
                         const cn_array_s *values) {
  split3 s;
  split_shape(&s, a, axis);
  const int64_t *ix = (const int64_t *)idx->data;
  int64_t k = idx->size, size = cn_itemsize(a->dtype);
  int64_t ab[CN_MAX_DIMS], vb[CN_MAX_DIMS];
  cn_walk_bytes(ab, a);
  cn_walk_bytes(vb, values);
  if (s.nouter == 0 || k == 0 || s.ninner == 0)
    return CN_OK;
  /* Different outer positions write disjoint places; within one, the index
   * order is kept so the last write wins. */
  int nth = cn_cpu_threads_for(s.nouter > 1 ? s.nouter * k * s.ninner : 0);
#pragma omp parallel for num_threads(nth) schedule(static)
  for (int64_t o = 0; o < s.nouter; o++) {
    char *abase = a->data + outer_offset(o, s.nout, s.oshape, ab);
    const char *vbase = values->data + outer_offset(o, s.nout, s.oshape, vb);
    for (int64_t q = 0; q < k; q++)
      copy_block(abase + ix[q] * ab[axis], ab + axis + 1, vbase + q * vb[axis],
                 vb + axis + 1, s.nin, s.ishape, s.ninner, size);
  }
  return CN_OK;
}

static cn_status cpu_take_along(cn_array_s *out, const cn_array_s *a,
                                const cn_array_s *idx, int32_t axis) {
  if (out->size == 0)
    return CN_OK;
  int64_t st[3][CN_MAX_DIMS];
  cn_walk_bytes(st[0], out);
  cn_walk_bytes(st[1], idx);
  cn_walk_bytes(st[2], a);
  int64_t astep = st[2][axis];
  st[2][axis] = 0;
  int64_t size = cn_itemsize(a->dtype), n = out->size;
  int nth = cn_cpu_threads_for(n);
#pragma omp parallel num_threads(nth)
  {
#ifdef _OPENMP
    int t = omp_get_thread_num(), nt = omp_get_num_threads();
#else
    int t = 0, nt = 1;
#endif
    int64_t lo = n * t / nt, hi = n * (t + 1) / nt;
    char *base[3] = {out->data, idx->data, a->data};
    cn_walk w;
    cn_walk_init(&w, out->ndim, out->shape, 3, base,
                 (const int64_t(*)[CN_MAX_DIMS])st, lo);
    for (int64_t i = lo; i < hi; i++) {
      int64_t q;
      memcpy(&q, w.ptr[1], 8);
      cn_copy_elem(w.ptr[0], w.ptr[2] + q * astep, size);
      cn_walk_next(&w);
    }
  }
  return CN_OK;
}

static cn_status cpu_put_along(cn_array_s *a, const cn_array_s *idx,
                               int32_t axis, const cn_array_s *values) {
  if (idx->size == 0)
    return CN_OK;
  int64_t st[3][CN_MAX_DIMS];
  cn_walk_bytes(st[0], values);
  cn_walk_bytes(st[1], idx);
  cn_walk_bytes(st[2], a);
  int64_t astep = st[2][axis];
  st[2][axis] = 0;
  int64_t size = cn_itemsize(a->dtype);
  char *base[3] = {values->data, idx->data, a->data};
  cn_walk w;
  cn_walk_init(&w, idx->ndim, idx->shape, 3, base,
               (const int64_t(*)[CN_MAX_DIMS])st, 0);
  for (int64_t i = 0; i < idx->size; i++) {
    int64_t q;
    memcpy(&q, w.ptr[1], 8);
    cn_copy_elem(w.ptr[2] + q * astep, w.ptr[0], size);
    cn_walk_next(&w);
  }
  return CN_OK;
}

/* Contiguous truth loops per dtype, generated once. */
#define CN_NZ_TYPES(X)                                                         \
  X(CN_BOOL, uint8_t)                                                          \
  X(CN_INT8, int8_t)                                                           \
  X(CN_UINT8, uint8_t)                                                         \
  X(CN_INT16, int16_t) X(CN_UINT16, uint16_t) X(CN_INT32, int32_t)             \
      X(CN_UINT32, uint32_t) X(CN_INT64, int64_t) X(CN_UINT64, uint64_t)       \
          X(CN_FLOAT32, float) X(CN_FLOAT64, double)

/* Positions [lo, hi) of a contiguous array whose element is nonzero,
 * written to w (or only counted when w is NULL). The write is branch-free
 * (every position is stored, the count advances by the truth) into a
 * stack block copied out once full, so a random mask costs no branch
 * mispredictions and no store lands past this range's share of w. */
#define CN_NZ_BLOCK 512
#define CN_NZ_RANGE(T)                                                         \
  static int64_t nz_range_##T(const T *p, int64_t lo, int64_t hi,             \
                              int64_t *w) {                                    \
    int64_t cnt = 0;                                                           \
    if (!w) {                                                                  \
      for (int64_t i = lo; i < hi; i++)                                        \
        cnt += p[i] != 0;                                                      \
      return cnt;                                                              \
    }                                                                          \
    int64_t blk[CN_NZ_BLOCK + 1];                                              \
    for (int64_t b = lo; b < hi; b += CN_NZ_BLOCK) {                           \
      int64_t e = b + CN_NZ_BLOCK < hi ? b + CN_NZ_BLOCK : hi, k = 0;          \
      for (int64_t i = b; i < e; i++) {                                        \
        blk[k] = i;                                                            \
        k += p[i] != 0;                                                        \
      }                                                                        \
      memcpy(w + cnt, blk, sizeof(int64_t) * (size_t)k);                       \
      cnt += k;                                                                \
    }                                                                          \
    return cnt;                                                                \
  }
CN_NZ_RANGE(uint8_t)
CN_NZ_RANGE(int8_t)
CN_NZ_RANGE(int16_t)
CN_NZ_RANGE(uint16_t)
CN_NZ_RANGE(int32_t)
CN_NZ_RANGE(uint32_t)
CN_NZ_RANGE(int64_t)
CN_NZ_RANGE(uint64_t)
CN_NZ_RANGE(float)
CN_NZ_RANGE(double)
#undef CN_NZ_RANGE

/* Nonzero positions in [lo, hi) of a (C order), written to w when not
 * NULL; returns how many. */
static int64_t nz_range(const cn_array_s *a, const int64_t *st, bool contig,
                        int64_t lo, int64_t hi, int64_t *w) {
  int64_t cnt = 0;
  if (contig) {
    switch (a->dtype) {
#define CN_NZ_CASE(DT, T)                                                      \
  case DT:                                                                     \
    return nz_range_##T((const T *)a->data, lo, hi, w);
      CN_NZ_TYPES(CN_NZ_CASE)
#undef CN_NZ_CASE
    default: {
      int64_t is = cn_itemsize(a->dtype);
      for (int64_t i = lo; i < hi; i++)
        if (cn_elem_truth(a->data + i * is, a->dtype)) {
          if (w)
            w[cnt] = i;
          cnt++;
        }
      return cnt;
    }
    }
  }
  char *base[1] = {a->data};
  cn_walk wk;
  cn_walk_init(&wk, a->ndim, a->shape, 1, base,
               (const int64_t(*)[CN_MAX_DIMS])st, lo);
  for (int64_t i = lo; i < hi; i++) {
    if (cn_elem_truth(wk.ptr[0], a->dtype)) {
      if (w)
        w[cnt] = i;
      cnt++;
    }
    cn_walk_next(&wk);
  }
  return cnt;
}

static cn_status cpu_flatnonzero(cn_array_s **out, const cn_array_s *a) {
  int64_t n = a->size;
  /* Pass 1 counts per chunk, a prefix sum places each chunk's share, pass
   * 2 writes: both walk in C order, chunks in parallel. */
  enum { CH = 64 };
  int64_t counts[CH + 1];
  int nch = n >= (1 << 16) ? CH : 1;
  int64_t st[1][CN_MAX_DIMS];
  cn_walk_bytes(st[0], a);
  bool contig = cn_array_is_c_contig(a);
  int nth = cn_cpu_threads_for(n);
#pragma omp parallel for num_threads(nth) schedule(static)
  for (int c = 0; c < nch; c++)
    counts[c + 1] =
        nz_range(a, st[0], contig, n * c / nch, n * (c + 1) / nch, NULL);
  counts[0] = 0;
  for (int c = 0; c < nch; c++)
    counts[c + 1] += counts[c];
  int64_t total = counts[nch];
  cn_status st2 = cn_array_new(out, a->buf->backend, a->buf->device_id,
                               CN_INT64, 1, &total, CN_ORDER_C);
  if (st2 != CN_OK)
    return st2;
  int64_t *res = (int64_t *)(*out)->data;
  if (total == 0)
    return CN_OK;
#pragma omp parallel for num_threads(nth) schedule(static)
  for (int c = 0; c < nch; c++)
    nz_range(a, st[0], contig, n * c / nch, n * (c + 1) / nch,
             res + counts[c]);
  return CN_OK;
}

/* The host rule of index normalisation (cn_idx_normalize uses it for
 * every backend without its own): stops at the first entry out of range. */
static cn_status cpu_index_normalize(cn_array_s *idx, int64_t extent,
                                     int32_t mode, int64_t *bad) {
  int64_t *p = (int64_t *)idx->data;
  *bad = -1;
  for (int64_t i = 0; i < idx->size; i++) {
    int64_t v = p[i];
    if (mode == CN_INDEX_WRAP && extent > 0) {
      v %= extent;
      if (v < 0)
        v += extent;
    } else if (mode == CN_INDEX_CLIP && extent > 0) {
      v = v < 0 ? 0 : (v >= extent ? extent - 1 : v);
    } else {
      if (v < 0 && v >= -extent)
        v += extent;
      if (v < 0 || v >= extent) {
        *bad = i;
        return CN_OK;
      }
    }
    p[i] = v;
  }
  return CN_OK;
}

void cn_cpu_index_fill(cn_backend_compute *t) {
  t->take = cpu_take;
  t->put = cpu_put;
  t->take_along = cpu_take_along;
  t->put_along = cpu_put_along;
  t->flatnonzero = cpu_flatnonzero;
  t->mask_compress = cn_cpu_mask_compress;
  t->index_normalize = cpu_index_normalize;
}

/* Copies the elements of a where m is set, in order, to o; element size ES
 * is a constant per instantiation so the copy is a plain move. */
#define CN_COMPRESS(ES)                                                        \
  static int64_t compress_##ES(char *o, const char *a, const uint8_t *m,       \
                               int64_t lo, int64_t hi) {                       \
    int64_t k = 0;                                                             \
    for (int64_t i = lo; i < hi; i++) {                                        \
      memcpy(o + k * ES, a + i * ES, ES);                                      \
      k += m[i] != 0;                                                          \
    }                                                                          \
    return k;                                                                  \
  }
CN_COMPRESS(1)
CN_COMPRESS(2)
CN_COMPRESS(4)
CN_COMPRESS(8)
CN_COMPRESS(16)

static int64_t count_set(const uint8_t *m, int64_t lo, int64_t hi) {
  int64_t k = 0;
  for (int64_t i = lo; i < hi; i++)
    k += m[i] != 0;
  return k;
}

cn_status cn_cpu_mask_compress(cn_array_s **out, const cn_array_s *a,
                               const cn_array_s *mask) {
  int64_t n = a->size, es = cn_itemsize(a->dtype);
  const uint8_t *m = (const uint8_t *)mask->data;
  enum { MAXT = 64 };
  int nth = cn_cpu_threads_for(n);
  if (nth > MAXT)
    nth = MAXT;
  int64_t cnt[MAXT + 1] = {0};
#pragma omp parallel for num_threads(nth) schedule(static, 1)
  for (int t = 0; t < nth; t++)
    cnt[t + 1] = count_set(m, n * t / nth, n * (t + 1) / nth);
  for (int t = 0; t < nth; t++)
    cnt[t + 1] += cnt[t];
  cn_array_s *r = NULL;
  int64_t total = cnt[nth];
  cn_status st =
      cn_array_new(&r, cn_cpu_backend(), 0, a->dtype, 1, &total, CN_ORDER_C);
  if (st != CN_OK)
    return st;
    /* The branch-free copy writes every element at the next free slot and
     * keeps it only when selected; run up to the chunk's last selected
     * element, every write stays inside the chunk's own output range. */
#pragma omp parallel for num_threads(nth) schedule(static, 1)
  for (int t = 0; t < nth; t++) {
    int64_t lo = n * t / nth, hi = n * (t + 1) / nth;
    while (hi > lo && !m[hi - 1])
      hi--;
    char *o = r->data + cnt[t] * es;
    const char *src = a->data;
    switch (es) {
    case 1:
      compress_1(o, src, m, lo, hi);
      break;
    case 2:
      compress_2(o, src, m, lo, hi);
      break;
    case 4:
      compress_4(o, src, m, lo, hi);
      break;
    case 8:
      compress_8(o, src, m, lo, hi);
      break;
    default:
      compress_16(o, src, m, lo, hi);
      break;
    }
  }
  *out = r;
  return CN_OK;
}
