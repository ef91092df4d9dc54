/* libFuzzer harness for view construction (cunumpy/view.h): a chain of up
 * to 8 slicing, indexing, axis, reshape, broadcast, flip and view(dtype)
 * operations, and strided views of the same bytes through cn_wrap_host
 * (as_strided), with arguments from the input.
 * Input: dtype byte, ndim and extents of the start array (arange, at most
 * 4096 elements), then per step an op byte and its arguments.
 * After every accepted step the view's metadata must be consistent
 * (fz_check_meta) and every reachable byte must lie inside the buffer
 * the view shares (the start array's, or the fresh one a copying
 * reshape/ravel made); its elements are then copied out through the
 * engine, which ASan watches. */
#include "fuzz_input.h"

static const cn_dtype fz_dtypes[] = {CN_BOOL,   CN_INT8,    CN_INT16,
                                     CN_INT32,  CN_INT64,   CN_UINT8,
                                     CN_FLOAT32, CN_FLOAT64, CN_COMPLEX128};

/* The buffer a view must stay within. */
typedef struct fz_root {
  cn_array arr;
  const char *base;
  int64_t nbytes;
} fz_root;

static void fz_set_root(fz_root *r, cn_array a, int64_t n, int64_t item) {
  void *p = NULL;
  FZ_CHECK(cn_array_data(&p, a) == CN_OK, "cn_array_data");
  r->arr = a;
  r->base = p;
  r->nbytes = n * item; /* fresh arrays are compact */
}

static void fz_check_inside(const fz_root *r, cn_array v) {
  int32_t nd;
  int64_t sh[CN_MAX_DIMS], st[CN_MAX_DIMS], item;
  int64_t n = fz_check_meta(v, &nd, sh, st, &item);
  if (n == 0)
    return;
  void *p = NULL;
  FZ_CHECK(cn_array_data(&p, v) == CN_OK, "cn_array_data");
  __int128 lo, hi;
  fz_byte_range(nd, sh, st, item, &lo, &hi);
  __int128 at = (__int128)((intptr_t)p - (intptr_t)r->base);
  FZ_CHECK(at + lo >= 0 && at + hi <= r->nbytes,
           "view reaches bytes outside its buffer");
  fz_read_all(v, n, item, 1 << 16);
}

static int32_t fz_axes(fz_in *in, int32_t *axes, int32_t max) {
  int32_t n = fz_small(in, max + 1);
  for (int32_t i = 0; i < n; i++)
    axes[i] = (int32_t)(int8_t)fz_u8(in) % 8;
  return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_in in = {data, size};
  cn_dtype dt = fz_dtypes[fz_small(&in, sizeof fz_dtypes / sizeof fz_dtypes[0])];
  int32_t ndim = fz_small(&in, 5);
  int64_t shape[CN_MAX_DIMS];
  int64_t n = 1;
  for (int32_t i = 0; i < ndim; i++) {
    shape[i] = fz_small(&in, 9);
    n *= shape[i];
  }
  cn_array flat = NULL, cur = NULL;
  if (cn_arange(&flat, 0, (double)n, 1, dt) != CN_OK) {
    cn_clear_error();
    return 0;
  }
  cn_status st = cn_reshape(&cur, flat, ndim, shape, CN_ORDER_C);
  cn_array_release(flat);
  FZ_CHECK(st == CN_OK, "reshape of the start array");
  fz_root root;
  fz_set_root(&root, cur, n, cn_dtype_itemsize(dt));
  cn_array_retain(root.arr);
  int steps = 0;
  while (in.n > 0 && steps++ < 8) {
    int32_t cnd = 0;
    cn_array_ndim(&cnd, cur);
    int64_t a[CN_MAX_DIMS], b[CN_MAX_DIMS], c[CN_MAX_DIMS];
    int32_t ax[CN_MAX_DIMS], ax2[CN_MAX_DIMS];
    cn_array out = NULL;
    uint8_t op = fz_u8(&in) % 14;
    switch (op) {
    case 0: {
      int32_t k = fz_small(&in, cnd + 2);
      for (int32_t i = 0; i < k; i++) {
        a[i] = fz_small(&in, 3) == 0 ? CN_SLICE_NONE : fz_i64(&in);
        b[i] = fz_small(&in, 3) == 0 ? CN_SLICE_NONE : fz_i64(&in);
        c[i] = fz_small(&in, 3) == 0 ? CN_SLICE_NONE : fz_i64(&in);
      }
      st = cn_slice(&out, cur, k, a, b, c);
      break;
    }
    case 1:
      st = cn_slice_axis(&out, cur, (int8_t)fz_u8(&in) % 6, fz_i64(&in),
                         fz_i64(&in), fz_i64(&in));
      break;
    case 2:
      st = cn_index_axis(&out, cur, (int8_t)fz_u8(&in) % 6, fz_i64(&in));
      break;
    case 3:
      st = cn_transpose(&out, cur);
      break;
    case 4: {
      int32_t k = fz_axes(&in, ax, 6);
      st = cn_permute_dims(&out, cur, k, ax);
      break;
    }
    case 5:
      st = cn_swapaxes(&out, cur, (int8_t)fz_u8(&in) % 6,
                       (int8_t)fz_u8(&in) % 6);
      break;
    case 6: {
      int32_t k = fz_axes(&in, ax, 3);
      for (int32_t i = 0; i < k; i++)
        ax2[i] = (int32_t)(int8_t)fz_u8(&in) % 8;
      st = cn_moveaxis(&out, cur, k, ax, ax2);
      break;
    }
    case 7: {
      int32_t k = fz_small(&in, 7);
      for (int32_t i = 0; i < k; i++)
        a[i] = fz_small(&in, 2) ? fz_small(&in, 10) - 1 : fz_i64(&in);
      st = cn_reshape(&out, cur, k, a, (cn_order)fz_small(&in, 4));
      break;
    }
    case 8:
      st = cn_ravel(&out, cur, (cn_order)fz_small(&in, 4));
      break;
    case 9: {
      int32_t k = fz_small(&in, 7);
      for (int32_t i = 0; i < k; i++)
        a[i] = fz_small(&in, 2) ? fz_small(&in, 6) : fz_i64(&in);
      st = cn_broadcast_to(&out, cur, k, a);
      break;
    }
    case 10: {
      int32_t k = fz_axes(&in, ax, 3);
      st = cn_expand_dims(&out, cur, k, ax);
      break;
    }
    case 11: {
      int32_t k = fz_axes(&in, ax, 3);
      st = fz_small(&in, 2) ? cn_squeeze(&out, cur, k, ax)
                            : cn_flip(&out, cur, k, ax);
      break;
    }
    case 12:
      st = cn_view_dtype(&out, cur,
                         fz_dtypes[fz_small(&in, sizeof fz_dtypes /
                                                     sizeof fz_dtypes[0])]);
      break;
    default: { /* as_strided: the root's bytes through any strides */
      int32_t k = fz_small(&in, 5);
      for (int32_t i = 0; i < k; i++) {
        a[i] = fz_small(&in, 2) ? fz_small(&in, 6) : fz_i64(&in);
        b[i] = fz_small(&in, 2) ? fz_small(&in, 9) - 4 : fz_i64(&in);
      }
      int64_t item = cn_dtype_itemsize(dt);
      int64_t at = root.nbytes > 0 ? (fz_u8(&in) % (root.nbytes / item + 1)) * item : 0;
      if (at >= root.nbytes)
        at = 0;
      st = cn_wrap_host(&out, (char *)root.base + at, at, root.nbytes - at, k,
                        a, b, dt, 1, NULL, NULL);
      break;
    }
    }
    fz_check_error(st);
    if (st != CN_OK)
      continue;
    int32_t shares = 0;
    FZ_CHECK(cn_array_shares_buffer(&shares, out, root.arr) == CN_OK,
             "cn_array_shares_buffer");
    if (op == 13)
      shares = 1; /* borrowed: lies in the root's bytes */
    if (!shares) {
      int64_t on = 0, oi = 0;
      cn_array_size(&on, out);
      cn_array_itemsize(&oi, out);
      cn_array_release(root.arr);
      fz_set_root(&root, out, on, oi);
      cn_array_retain(root.arr);
    }
    fz_check_inside(&root, out);
    cn_array_release(cur);
    cur = out;
  }
  cn_array_release(cur);
  cn_array_release(root.arr);
  return 0;
}
