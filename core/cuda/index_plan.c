/* Launch planning for the CUDA indexing kernels (index_plan.h): pure
 * arithmetic on shapes and strides, shared by the plugin and its CPU
 * tests. */
#include "index_plan.h"

#include <string.h>

void cn_cu_index_geom(cn_cu_igeom *g, int32_t ndim, const int64_t *iter_shape,
                      const int64_t *iter_strides, const int64_t *tgt_strides,
                      const int64_t *idx_strides, int32_t axis, bool along) {
  memset(g, 0, sizeof *g);
  g->ndim = ndim;
  g->axis = axis;
  for (int32_t d = 0; d < ndim; d++) {
    g->shape[d] = iter_shape[d];
    g->st[0][d] = iter_strides[d];
    g->st[1][d] = tgt_strides[d];
    /* take/put: the index of coordinate c on axis is idx[c]. */
    g->st[2][d] = along ? idx_strides[d] : (d == axis ? 1 : 0);
  }
}

void cn_cu_scatter_span(int32_t ndim, const int64_t *shape,
                        const int64_t *strides, int64_t *lo, int64_t *span) {
  int64_t mn = 0, mx = 0;
  for (int32_t d = 0; d < ndim; d++) {
    if (shape[d] == 0) {
      *lo = 0;
      *span = 0;
      return;
    }
    int64_t reach = (shape[d] - 1) * strides[d];
    if (reach < 0)
      mn += reach;
    else
      mx += reach;
  }
  *lo = mn;
  *span = mx - mn + 1;
}

bool cn_cu_scatter_claims(int64_t n, int64_t span) {
  return span <= ((int64_t)1 << 23) || span / 4 <= n;
}

bool cn_cu_cmp_plan_make(cn_cu_cmp_plan *p, int64_t n) {
  memset(p, 0, sizeof *p);
  p->n = n;
  if (n <= 0)
    return true;
  /* n / TILE rounded up without forming n + TILE - 1 (n may be INT64_MAX). */
  p->tiles = n / CN_CU_CMP_TILE + (n % CN_CU_CMP_TILE != 0);
  int64_t len = p->tiles, off = 0;
  for (;;) {
    if (p->levels == CN_CU_CMP_MAX_LEVELS)
      return false;
    p->len[p->levels] = len;
    p->off[p->levels] = off;
    p->levels++;
    off += len;
    if (len == 1)
      break;
    len = len / CN_CU_CMP_TILE + (len % CN_CU_CMP_TILE != 0);
  }
  p->total_off = off;
  p->scratch_entries = off + 1;
  return true;
}
