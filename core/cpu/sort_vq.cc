// The calls into Highway's vqsort (core/cpu/sort_vq.h). C++ because the
// library's interface is; each thread keeps one Sorter, whose scratch
// buffer is then allocated once per thread instead of once per lane.
#include "sort_vq.h"

#include <hwy/contrib/sort/vqsort.h>

static_assert(sizeof(cn_vq_rec128) == sizeof(hwy::uint128_t) &&
                  alignof(hwy::uint128_t) == 16,
              "cn_vq_rec128 must have hwy::uint128_t's layout");

static const hwy::Sorter &thread_sorter() {
  static thread_local hwy::Sorter sorter;
  return sorter;
}

#define CN_VQ_DEFINE(NAME, T)                                                  \
  extern "C" void NAME(T *v, size_t n) {                                       \
    if (n > 1)                                                                 \
      thread_sorter()(v, n, hwy::SortAscending());                             \
  }
CN_VQ_DEFINE(cn_vqsort_i16, int16_t)
CN_VQ_DEFINE(cn_vqsort_u16, uint16_t)
CN_VQ_DEFINE(cn_vqsort_i32, int32_t)
CN_VQ_DEFINE(cn_vqsort_u32, uint32_t)
CN_VQ_DEFINE(cn_vqsort_i64, int64_t)
CN_VQ_DEFINE(cn_vqsort_u64, uint64_t)

extern "C" void cn_vqsort_rec128(cn_vq_rec128 *v, size_t n) {
  if (n > 1)
    thread_sorter()(reinterpret_cast<hwy::uint128_t *>(v), n,
                    hwy::SortAscending());
}
