/* Dimension coalescing for strided loops. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void cn_iter_coalesce(cn_iter_shape *it, int32_t nop,
                      const cn_array_s *const *ops) {
  const cn_array_s *a0 = ops[0];
  if (a0->size == 0) {
    /* One empty axis: loops over the result do no work whatever the other
     * extents, and an empty array's strides (which may be anything) are not
     * multiplied. */
    it->ndim = 1;
    it->shape[0] = 0;
    for (int k = 0; k < nop; k++)
      it->strides[k][0] = 0;
    return;
  }
  int32_t nd = 0;
  int perm[CN_MAX_DIMS];
  /* Drop extent-1 axes; they never move the pointer. */
  for (int i = 0; i < a0->ndim; i++)
    if (a0->shape[i] != 1)
      perm[nd++] = i;
  /* Order axes so that the innermost has the smallest |stride| of operand 0
   * (ties keep C order): the loop then walks memory forwards. */
  for (int i = 1; i < nd; i++) {
    int p = perm[i];
    int64_t sp = llabs(a0->strides[p]);
    int j = i - 1;
    while (j >= 0 && llabs(a0->strides[perm[j]]) < sp) {
      perm[j + 1] = perm[j];
      j--;
    }
    perm[j + 1] = p;
  }
  if (nd == 0) {
    it->ndim = 1;
    it->shape[0] = 1;
    for (int k = 0; k < nop; k++)
      it->strides[k][0] = 0;
    return;
  }
  int32_t out = 0;
  for (int i = 0; i < nd; i++) {
    int ax = perm[i];
    int64_t e = a0->shape[ax];
    if (out > 0) {
      /* merge with the previous (outer) axis when every operand's outer
       * stride equals inner stride * inner extent */
      bool merge = true;
      int64_t prev_e = it->shape[out - 1];
      for (int k = 0; k < nop && merge; k++) {
        int64_t isz = cn_itemsize(ops[k]->dtype);
        if (it->strides[k][out - 1] != ops[k]->strides[ax] * isz * e)
          merge = false;
      }
      (void)prev_e;
      if (merge) {
        it->shape[out - 1] *= e;
        for (int k = 0; k < nop; k++)
          it->strides[k][out - 1] = ops[k]->strides[ax] * cn_itemsize(ops[k]->dtype);
        continue;
      }
    }
    it->shape[out] = e;
    for (int k = 0; k < nop; k++)
      it->strides[k][out] = ops[k]->strides[ax] * cn_itemsize(ops[k]->dtype);
    out++;
  }
  it->ndim = out;
}
