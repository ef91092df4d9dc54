/* The CUDA sort's planner (see sort_plan.h): lane geometry, segmented or
 * per-lane sorting, the passes left after dropping constant digits, and
 * the scratch layout. */
#include "sort_plan.h"

static bool add_part(size_t *bytes, size_t *off, uint64_t count,
                     uint64_t width) {
  if (count != 0 && width > (SIZE_MAX - 512) / count)
    return false;
  size_t sz = (size_t)(count * width);
  size_t at = (*bytes + 255) & ~(size_t)255;
  if (at > SIZE_MAX - 512 - sz)
    return false;
  *off = at;
  *bytes = at + sz;
  return true;
}

/* True when the array with the axis moved last is C-contiguous (extent-1
 * axes ignored): element (lane, i) is then at lane * n + i. */
static bool lane_major(int32_t ndim, const int64_t *shape,
                       const int64_t *strides, int32_t axis) {
  int64_t want = 1;
  if (shape[axis] != 1) {
    if (strides[axis] != 1)
      return false;
    want = shape[axis];
  }
  for (int32_t d = ndim - 1; d >= 0; d--) {
    if (d == axis || shape[d] == 1)
      continue;
    if (strides[d] != want)
      return false;
    want *= shape[d];
  }
  return true;
}

bool cn_sort_plan_make(cn_sort_plan *p, int32_t ndim, const int64_t *shape,
                       const int64_t *strides, int32_t axis, int64_t itemsize,
                       bool cplx) {
  *p = (cn_sort_plan){0};
  int64_t total = 1, q = 1;
  for (int32_t d = 0; d < ndim; d++) {
    total *= shape[d];
    if (d > axis)
      q *= shape[d];
  }
  p->total = total;
  p->n = ndim > 0 ? shape[axis] : 1;
  p->q = q;
  p->key_words = cplx ? 3 : 1;
  if (total == 0)
    return true;
  p->nlanes = total / p->n;
  p->segmented = p->nlanes > 1 &&
                 !(p->nlanes <= CN_SORT_PER_LANE_MAX_LANES &&
                   p->n >= CN_SORT_PER_LANE_MIN_LEN);
  p->sort_len = p->segmented || p->nlanes == 1 ? total : p->n;
  p->nsorts = p->segmented ? 1 : p->nlanes;
  p->tiles = (p->sort_len + CN_SORT_TILE - 1) / CN_SORT_TILE;
  p->copy_input = ndim > 0 && !lane_major(ndim, shape, strides, axis);
  size_t b = 0;
  uint64_t t = (uint64_t)total;
  bool ok = add_part(&b, &p->off_keys[0], t, 8) &&
            add_part(&b, &p->off_keys[1], t, 8) &&
            add_part(&b, &p->off_perm[0], t, 8) &&
            add_part(&b, &p->off_perm[1], t, 8) &&
            add_part(&b, &p->off_counts,
                     (uint64_t)CN_SORT_RADIX * (uint64_t)p->tiles, 8) &&
            add_part(&b, &p->off_totals, CN_SORT_RADIX, 8) &&
            add_part(&b, &p->off_bits, 2 * CN_SORT_MAX_WORDS, 8) &&
            add_part(&b, &p->off_src, p->copy_input ? t : 0,
                     (uint64_t)itemsize);
  p->bytes = b;
  return ok;
}

void cn_sort_plan_passes(cn_sort_plan *p, const uint64_t *and_bits,
                         const uint64_t *or_bits) {
  uint64_t diff[CN_SORT_MAX_WORDS] = {0};
  for (int32_t w = 0; w < p->key_words; w++)
    diff[w] = and_bits[w] ^ or_bits[w];
  if (p->segmented) {
    /* Lane numbers 0 .. nlanes-1: AND 0, OR every bit below the top one. */
    uint64_t top = (uint64_t)(p->nlanes - 1), bits = 0;
    while (top >> bits)
      bits++;
    diff[CN_SORT_WORD_SEGMENT] = bits ? (~(uint64_t)0 >> (64 - bits)) : 0;
  }
  p->npasses = 0;
  for (int32_t w = 0; w < CN_SORT_MAX_WORDS; w++) {
    p->word_used[w] = false;
    for (int32_t s = 0; s < 64; s += CN_SORT_DIGIT_BITS)
      if ((diff[w] >> s) & (CN_SORT_RADIX - 1)) {
        p->passes[p->npasses++] = (cn_sort_pass){w, s};
        p->word_used[w] = true;
      }
  }
  p->result_in_alt = (p->npasses & 1) != 0;
}

int cn_sort_plan_run(const cn_sort_plan *p, const cn_sort_steps *steps,
                     void *ctx) {
  int64_t len = p->sort_len;
  for (int64_t sidx = 0; sidx < p->nsorts; sidx++) {
    int64_t first = sidx * len;
    int cur = 0, r;
    if (p->npasses == 0 && (r = steps->keys(ctx, 0, first, len, true, 0)))
      return r;
    for (int32_t i = 0; i < p->npasses; i++) {
      int32_t w = p->passes[i].word;
      if ((i == 0 || p->passes[i - 1].word != w) &&
          (r = steps->keys(ctx, w, first, len, i == 0, cur)))
        return r;
      if ((r = steps->pass(ctx, p->passes[i].shift, first, len, cur)))
        return r;
      cur ^= 1;
    }
  }
  return 0;
}
