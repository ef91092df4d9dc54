/* Casting copies (dst = src with any dtype pair and any strides) and fills,
 * generated from the dtype list. Transposing copies go through cache-sized
 * tiles. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "dtypes.h"

typedef cn_cpu_cast_fn cast_fn;

#define CAST_LOOP(dn, TD, DC, sn, TS, SC)                                      \
  static void cast_##dn##_##sn(char *d, int64_t ds, const char *s, int64_t ss, \
                               int64_t n) {                                    \
    if (ds == (int64_t)sizeof(TD) && ss == (int64_t)sizeof(TS)) {              \
      TD *restrict dp = (TD *)(void *)d;                                       \
      const TS *restrict sp = (const TS *)(const void *)s;                     \
      for (int64_t i = 0; i < n; i++)                                          \
        dp[i] = CN_CONV(DC, SC, TD, sp[i]);                                    \
    } else if (ss == 0) {                                                      \
      TD v = CN_CONV(DC, SC, TD, *(const TS *)(const void *)s);                \
      for (int64_t i = 0; i < n; i++)                                          \
        *(TD *)(void *)(d + i * ds) = v;                                       \
    } else {                                                                   \
      for (int64_t i = 0; i < n; i++)                                          \
        *(TD *)(void *)(d + i * ds) =                                          \
            CN_CONV(DC, SC, TD, *(const TS *)(const void *)(s + i * ss));      \
    }                                                                          \
  }

#define CAST_FOR_SRC(dn, TD, DC)                                               \
  CAST_LOOP(dn, TD, DC, b, bool, kb)                                            \
  CAST_LOOP(dn, TD, DC, i8, int8_t, ki)                                         \
  CAST_LOOP(dn, TD, DC, i16, int16_t, ki)                                       \
  CAST_LOOP(dn, TD, DC, i32, int32_t, ki)                                       \
  CAST_LOOP(dn, TD, DC, i64, int64_t, ki)                                       \
  CAST_LOOP(dn, TD, DC, u8, uint8_t, ku)                                        \
  CAST_LOOP(dn, TD, DC, u16, uint16_t, ku)                                      \
  CAST_LOOP(dn, TD, DC, u32, uint32_t, ku)                                      \
  CAST_LOOP(dn, TD, DC, u64, uint64_t, ku)                                      \
  CAST_LOOP(dn, TD, DC, f16, cn_f16_t, kh)                                      \
  CAST_LOOP(dn, TD, DC, f32, float, kf)                                         \
  CAST_LOOP(dn, TD, DC, f64, double, kf)                                        \
  CAST_LOOP(dn, TD, DC, c64, cn_c64_t, kc)                                      \
  CAST_LOOP(dn, TD, DC, c128, cn_c128_t, kc)
#define CAST_DST(dn, TD, DC, E) CAST_FOR_SRC(dn, TD, DC)
CN_CPU_STORAGE_DTYPES(CAST_DST)

#define CAST_ROW(dn, TD, DC, E)                                                \
  {cast_##dn##_b,   cast_##dn##_i8,  cast_##dn##_i16, cast_##dn##_i32,         \
   cast_##dn##_i64, cast_##dn##_u8,  cast_##dn##_u16, cast_##dn##_u32,         \
   cast_##dn##_u64, cast_##dn##_f16, cast_##dn##_f32, cast_##dn##_f64,         \
   cast_##dn##_c64, cast_##dn##_c128},
static const cast_fn k_cast[CN_NUM_DTYPES][CN_NUM_DTYPES] = {
    CN_CPU_STORAGE_DTYPES(CAST_ROW)};

/* float16 <-> float32, the casts every float16 op goes through: contiguous
 * rows take the vector conversions. */
static void cast_f16_f32_bulk(char *d, int64_t ds, const char *s, int64_t ss,
                              int64_t n) {
  if (ds == 2 && ss == 4)
    cn_f32_to_f16_n((cn_f16_t *)(void *)d, (const float *)(const void *)s, n);
  else
    cast_f16_f32(d, ds, s, ss, n);
}
static void cast_f32_f16_bulk(char *d, int64_t ds, const char *s, int64_t ss,
                              int64_t n) {
  if (ds == 4 && ss == 2)
    cn_f16_to_f32_n((float *)(void *)d, (const cn_f16_t *)(const void *)s, n);
  else
    cast_f32_f16(d, ds, s, ss, n);
}

static cast_fn cast_for(cn_dtype dst, cn_dtype src) {
  if (dst == CN_FLOAT16 && src == CN_FLOAT32)
    return cast_f16_f32_bulk;
  if (dst == CN_FLOAT32 && src == CN_FLOAT16)
    return cast_f32_f16_bulk;
  return k_cast[cn_dtype_index(dst)][cn_dtype_index(src)];
}

cn_cpu_cast_fn cn_cpu_cast_for(cn_dtype dst, cn_dtype src) {
  return cast_for(dst, src);
}

/* Same-dtype copy of one row, by element size (no conversion needed). */
static void copy_row(char *d, int64_t ds, const char *s, int64_t ss, int64_t n,
                     int64_t isz) {
  if (ds == isz && ss == isz) {
    memmove(d, s, (size_t)(n * isz));
    return;
  }
#define COPY_W(T)                                                              \
  for (int64_t i = 0; i < n; i++)                                              \
    *(T *)(void *)(d + i * ds) = *(const T *)(const void *)(s + i * ss);
  switch (isz) {
  case 1: COPY_W(uint8_t) break;
  case 2: COPY_W(uint16_t) break;
  case 4: COPY_W(uint32_t) break;
  case 8: COPY_W(uint64_t) break;
  default:
    for (int64_t i = 0; i < n; i++)
      memcpy(d + i * ds, s + i * ss, (size_t)isz);
  }
#undef COPY_W
}

typedef struct assign_ctx {
  cast_fn fn; /* NULL: same dtype */
  int64_t isz;
} assign_ctx;

static inline void run_row(const assign_ctx *c, char *d, int64_t ds,
                           const char *s, int64_t ss, int64_t n) {
  if (c->fn)
    c->fn(d, ds, s, ss, n);
  else
    copy_row(d, ds, s, ss, n, c->isz);
}

#define TILE 64

/* One tile of a 2-d transposing copy. Axis 1 is contiguous in dst (written
 * in order), axis 0 is the cheap axis of src; a 64x64 tile of both sides
 * stays in L1/L2, so each cache line is fetched once. */
static void copy_tile(const assign_ctx *c, char *d, const int64_t *dstr,
                      const char *s, const int64_t *sstr, int64_t n0,
                      int64_t n1) {
#define TILE_W(T)                                                                for (int64_t j0 = 0; j0 < n0; j0++) {                                            T *dp = (T *)(void *)(d + j0 * dstr[0]);                                       const char *sp = s + j0 * sstr[0];                                             for (int64_t j1 = 0; j1 < n1; j1++)                                              dp[j1] = *(const T *)(const void *)(sp + j1 * sstr[1]);                    }
  if (c->fn == NULL && dstr[1] == c->isz) {
    switch (c->isz) {
    case 1: TILE_W(uint8_t) return;
    case 2: TILE_W(uint16_t) return;
    case 4: TILE_W(uint32_t) return;
    case 8: TILE_W(uint64_t) return;
    default: break;
    }
  }
#undef TILE_W
  for (int64_t j0 = 0; j0 < n0; j0++)
    run_row(c, d + j0 * dstr[0], dstr[1], s + j0 * sstr[0], sstr[1], n1);
}

/* Everything a work item of an assign needs. */
typedef struct assign_plan {
  const assign_ctx *c;
  const cn_iter_shape *it;
  bool tiled;
  int32_t keep;
  int64_t n0, t0, t1, inner, ds, ss;
} assign_plan;

/* Work item w: one row, or one tile of one 2-d slab when tiled. */
static void assign_item(const assign_plan *p, char *dbase, const char *sbase,
                        int64_t w) {
  const cn_iter_shape *it = p->it;
  int32_t nd = it->ndim;
  int64_t o = w / (p->t0 * p->t1), tile = w % (p->t0 * p->t1);
  char *d = dbase;
  const char *s = sbase;
  int64_t rem = o;
  for (int i = nd - p->keep - 1; i >= 0; i--) {
    int64_t idx = rem % it->shape[i];
    rem /= it->shape[i];
    d += idx * it->strides[0][i];
    s += idx * it->strides[1][i];
  }
  if (!p->tiled) {
    run_row(p->c, d, p->ds, s, p->ss, p->inner);
    return;
  }
  int64_t b0 = tile / p->t1 * TILE, b1 = tile % p->t1 * TILE;
  int64_t dstr[2] = {it->strides[0][nd - 2], p->ds};
  int64_t sstr[2] = {it->strides[1][nd - 2], p->ss};
  copy_tile(p->c, d + b0 * dstr[0] + b1 * p->ds, dstr,
            s + b0 * sstr[0] + b1 * p->ss, sstr,
            p->n0 - b0 < TILE ? p->n0 - b0 : TILE,
            p->inner - b1 < TILE ? p->inner - b1 : TILE);
}

cn_status cn_cpu_assign(cn_array_s *dst, const cn_array_s *src) {
  if (dst->size == 0)
    return CN_OK;
  assign_ctx c;
  c.isz = cn_itemsize(dst->dtype);
  c.fn = dst->dtype == src->dtype ? NULL : cast_for(dst->dtype, src->dtype);
  const cn_array_s *ops[2] = {dst, src};
  cn_iter_shape it;
  cn_iter_coalesce(&it, 2, ops);
  int32_t nd = it.ndim;
  int64_t inner = it.shape[nd - 1];
  int64_t ds = it.strides[0][nd - 1], ss = it.strides[1][nd - 1];
  int64_t ssz = cn_itemsize(src->dtype);

  /* Transpose-like: src's small stride is on the next-outer axis. Work
   * items are then (outer index, tile) pairs. */
  bool tiled = nd >= 2 && llabs(ss) > ssz * 8 &&
               llabs(it.strides[1][nd - 2]) < llabs(ss);
  int32_t keep = tiled ? 2 : 1; /* axes handled inside one work item */
  int64_t outer = 1;
  for (int i = 0; i < nd - keep; i++)
    outer *= it.shape[i];
  int64_t n0 = tiled ? it.shape[nd - 2] : 1;
  int64_t t0 = tiled ? (n0 + TILE - 1) / TILE : 1;
  int64_t t1 = tiled ? (inner + TILE - 1) / TILE : 1;
  int64_t items = outer * t0 * t1;

  assign_plan p = {&c, &it, tiled, keep, n0, t0, t1, inner, ds, ss};
  int nth = cn_cpu_threads_for(dst->size);
  if (nth <= 1) { /* no OpenMP region at all: small calls stay cheap */
    for (int64_t w = 0; w < items; w++)
      assign_item(&p, dst->data, src->data, w);
    return CN_OK;
  }
  if (items == 1) {
    /* one long row: split it across threads */
#pragma omp parallel num_threads(nth)
    {
      int t = omp_get_thread_num(), T = omp_get_num_threads();
      int64_t lo = inner * t / T, hi = inner * (t + 1) / T;
      run_row(&c, dst->data + lo * ds, ds, src->data + lo * ss, ss, hi - lo);
    }
    return CN_OK;
  }
#pragma omp parallel for num_threads(nth) schedule(static)
  for (int64_t w = 0; w < items; w++)
    assign_item(&p, dst->data, src->data, w);
  return CN_OK;
}

/* Writes n copies of an itemsize-byte value with stride ds (bytes). */
static void fill_row(char *d, int64_t ds, int64_t n, const void *value,
                     int64_t isz, bool zero) {
  if (zero && ds == isz) {
    memset(d, 0, (size_t)(n * isz));
    return;
  }
#define FILL_W(T)                                                              \
  {                                                                            \
    T v;                                                                       \
    memcpy(&v, value, sizeof v);                                               \
    for (int64_t i = 0; i < n; i++)                                            \
      *(T *)(void *)(d + i * ds) = v;                                          \
    return;                                                                    \
  }
  switch (isz) {
  case 1: FILL_W(uint8_t)
  case 2: FILL_W(uint16_t)
  case 4: FILL_W(uint32_t)
  case 8: FILL_W(uint64_t)
  default:
    for (int64_t i = 0; i < n; i++)
      memcpy(d + i * ds, value, (size_t)isz);
  }
#undef FILL_W
}

static void fill_outer(const cn_iter_shape *it, char *base, int64_t o,
                       const void *value, int64_t isz, bool zero) {
  int32_t nd = it->ndim;
  char *d = base;
  int64_t rem = o;
  for (int i = nd - 2; i >= 0; i--) {
    d += (rem % it->shape[i]) * it->strides[0][i];
    rem /= it->shape[i];
  }
  fill_row(d, it->strides[0][nd - 1], it->shape[nd - 1], value, isz, zero);
}

cn_status cn_cpu_fill(cn_array_s *dst, const void *value) {
  if (dst->size == 0)
    return CN_OK;
  const cn_array_s *ops[1] = {dst};
  cn_iter_shape it;
  cn_iter_coalesce(&it, 1, ops);
  int64_t isz = cn_itemsize(dst->dtype);
  int32_t nd = it.ndim;
  int64_t inner = it.shape[nd - 1], ds = it.strides[0][nd - 1];
  int64_t outer = 1;
  for (int i = 0; i < nd - 1; i++)
    outer *= it.shape[i];
  bool zero = true;
  for (int64_t b = 0; b < isz; b++)
    if (((const unsigned char *)value)[b]) zero = false;
  int nth = cn_cpu_threads_for(dst->size);
  if (nth <= 1) {
    for (int64_t o = 0; o < outer; o++)
      fill_outer(&it, dst->data, o, value, isz, zero);
    return CN_OK;
  }
  if (outer == 1) {
    /* one long row: split it */
#pragma omp parallel num_threads(nth)
    {
      int t = omp_get_thread_num(), T = omp_get_num_threads();
      int64_t lo = inner * t / T, hi = inner * (t + 1) / T;
      fill_row(dst->data + lo * ds, ds, hi - lo, value, isz, zero);
    }
    return CN_OK;
  }
#pragma omp parallel for num_threads(nth) schedule(static)
  for (int64_t o = 0; o < outer; o++)
    fill_outer(&it, dst->data, o, value, isz, zero);
  return CN_OK;
}
