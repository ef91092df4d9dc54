/* A short tour of the engine from C: creation, views, elementwise ops with
 * broadcasting, reductions, casting, errors, and timings of a few large
 * operations. */
#include <cunumpy/cunumpy.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(x)                                                               \
  do {                                                                         \
    if ((x) != CN_OK) {                                                        \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cn_last_error());    \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Prints a small array of any dtype as float64 values. */
static void show(const char *label, cn_array a) {
  cn_array d = NULL;
  CHECK(cn_astype(&d, a, CN_FLOAT64, 1));
  int32_t nd;
  int64_t shape[CN_MAX_DIMS], n;
  CHECK(cn_array_ndim(&nd, a));
  CHECK(cn_array_shape(shape, CN_MAX_DIMS, a));
  CHECK(cn_array_size(&n, a));
  double *v = malloc(sizeof(double) * (size_t)(n ? n : 1));
  CHECK(cn_copy_to_buffer(v, n * 8, d, CN_ORDER_C));
  cn_dtype dt;
  CHECK(cn_array_dtype(&dt, a));
  printf("%-28s %s shape (", label, cn_dtype_name(dt));
  for (int i = 0; i < nd; i++)
    printf(i ? ", %lld" : "%lld", (long long)shape[i]);
  printf(nd == 1 ? ",) [" : ") [");
  for (int64_t i = 0; i < n && i < 12; i++)
    printf(i ? " %g" : "%g", v[i]);
  printf(n > 12 ? " ...]\n" : "]\n");
  free(v);
  cn_array_release(d);
}

int main(void) {
  printf("cunumpy %s (ABI %d), backend %s\n", cn_version(), cn_abi_version(),
         cn_get_backend());
  int32_t cuda = 0;
  cn_backend_available(&cuda, "cuda");
  printf("CUDA: %s\n\n", cuda ? "available" : cn_backend_unavailable_reason());

  /* creation and views */
  cn_array a = NULL, m = NULL, mt = NULL, col = NULL;
  CHECK(cn_arange(&a, 0, 12, 1, CN_FLOAT64));
  int64_t shape[2] = {3, 4};
  CHECK(cn_reshape(&m, a, 2, shape, CN_ORDER_C));
  CHECK(cn_transpose(&mt, m));
  CHECK(cn_slice_axis(&col, mt, 0, CN_SLICE_NONE, CN_SLICE_NONE, -1));
  show("m = arange(12).reshape(3,4)", m);
  show("m.T[::-1]", col);

  /* broadcasting elementwise ops, weak scalars */
  cn_array half = NULL, r = NULL, row = NULL, s = NULL;
  CHECK(cn_scalar_array(&half, cn_scalar_float(0.5)));
  CHECK(cn_index_axis(&row, m, 0, 0));
  CHECK(cn_multiply(&r, m, half, NULL));
  show("m * 0.5", r);
  cn_array_release(r);
  r = NULL;
  CHECK(cn_add(&r, m, row, NULL));
  show("m + m[0]", r);
  CHECK(cn_sin(&s, r, NULL));
  show("sin(m + m[0])", s);

  /* reductions */
  cn_array sum0 = NULL, mx = NULL, sd = NULL, am = NULL, cs = NULL;
  int32_t ax0[1] = {0};
  CHECK(cn_sum(&sum0, m, 1, ax0, 0, CN_DTYPE_DEFAULT, NULL));
  CHECK(cn_max(&mx, m, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL));
  CHECK(cn_std(&sd, m, CN_ALL_AXES, NULL, 0, 1.0, CN_DTYPE_DEFAULT, NULL));
  CHECK(cn_argmax(&am, s, CN_AXIS_NONE, 0, NULL));
  CHECK(cn_cumsum(&cs, a, CN_AXIS_NONE, CN_DTYPE_DEFAULT, NULL));
  show("m.sum(axis=0)", sum0);
  show("m.max()", mx);
  show("m.std(ddof=1)", sd);
  show("sin(...).argmax()", am);
  show("cumsum(arange(12))", cs);

  /* casting and integer semantics */
  cn_array i8 = NULL, q = NULL, seven = NULL;
  CHECK(cn_arange_int(&i8, -6, 6, 1, CN_INT8));
  CHECK(cn_scalar_array(&seven, cn_scalar_int(4)));
  CHECK(cn_floor_divide(&q, i8, seven, NULL));
  show("arange(-6,6,int8) // 4", q);

  /* errors are values, with a message */
  cn_array bad = NULL, big = NULL;
  CHECK(cn_scalar_array(&big, cn_scalar_int(300)));
  cn_status st = cn_add(&bad, i8, big, NULL);
  printf("\nint8 + 300 -> %s: %s\n", cn_status_name(st), cn_last_error());
  int64_t bs[2] = {4, 2};
  st = cn_reshape(&bad, a, 2, bs, CN_ORDER_C);
  printf("reshape(12 -> (4,2)) -> %s: %s\n\n", cn_status_name(st),
         cn_last_error());

  /* timings on 1e7 float64 */
  const int64_t n = 10000000;
  cn_array x = NULL, y = NULL;
  CHECK(cn_linspace(&x, 0, 1, n, 1, CN_FLOAT64));
  CHECK(cn_sqrt(&y, x, NULL));
  struct {
    const char *name;
    int op;
  } rows[] = {{"x + y", 0}, {"sin(x)", 1}, {"sum(x)", 2}, {"std(x)", 3}};
  printf("timings, n = 1e7 float64 (best of 5):\n");
  for (int k = 0; k < 4; k++) {
    double best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
      cn_array o = NULL;
      double t0 = now();
      switch (rows[k].op) {
      case 0: CHECK(cn_add(&o, x, y, NULL)); break;
      case 1: CHECK(cn_sin(&o, x, NULL)); break;
      case 2:
        CHECK(cn_sum(&o, x, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL));
        break;
      default:
        CHECK(cn_std(&o, x, CN_ALL_AXES, NULL, 0, 0, CN_DTYPE_DEFAULT, NULL));
      }
      double t = now() - t0;
      if (t < best) best = t;
      cn_array_release(o);
    }
    printf("  %-8s %8.2f ms\n", rows[k].name, best * 1e3);
  }

  cn_array all[] = {a, m, mt, col, half, r, row, s, sum0, mx, sd, am, cs,
                    i8, q, seven, big, x, y};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    cn_array_release(all[i]);
  return 0;
}
