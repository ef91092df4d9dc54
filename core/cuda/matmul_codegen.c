/* Source generation for the integer and bool matmul kernels: one
 * instantiation of cn_mm_tiled (prelude/matmul.cuh) per dtype. Plain C, in
 * the codegen library, so the NVRTC test compiles exactly this text. */
#include <stdio.h>

#include "codegen.h"

bool cn_cu_gen_matmul(cn_cu_src *s, cn_dtype dt, char names[][CN_CU_NAME_CAP]) {
  const char *t = cn_cu_ctype(dt);
  if (t == NULL || !(dt == CN_BOOL || cn_is_integer(dt)))
    return false;
  snprintf(names[0], CN_CU_NAME_CAP, "cn_mm_%s", cn_cu_tag(dt));
  cn_cu_src_appendf(s,
                    "\nextern \"C\" __global__ void __launch_bounds__(256) "
                    "%s(const cn_mm_geom g, const %s *a, const %s *b, %s *c) "
                    "{\n  cn_mm_tiled<%s>(g, a, b, c);\n}\n",
                    names[0], t, t, t, t);
  return !s->oom;
}
