/* libFuzzer harness for kernel signatures and struct layouts
 * (cunumpy/kernel.h): hostile CUDA text must parse or fail cleanly.
 * Input: a mode byte, then text up to the first NUL (the source or the
 * struct fields), then argument bytes. Mode 0 parses the text as a source
 * holding kernel "k" (template arguments from the text after a '|', when
 * there is one) and, when accepted, checks a call of argument values drawn
 * from the rest: the parameter count and kinds must be consistent, and a
 * packed scalar's size must be that of its type. Mode 1 makes a struct
 * layout from the text: offsets must be aligned, in order and inside the
 * size, and the declaration must name every field. Any failure must leave
 * a message. */
#include "fuzz_input.h"

static const cn_dtype fz_dtypes[] = {
    CN_BOOL,   CN_INT8,    CN_INT16,   CN_INT32,     CN_INT64,
    CN_UINT8,  CN_UINT16,  CN_UINT32,  CN_UINT64,    CN_FLOAT32,
    CN_FLOAT64, CN_COMPLEX64, CN_COMPLEX128};
#define FZ_NDT ((int)(sizeof fz_dtypes / sizeof fz_dtypes[0]))

static cn_scalar fz_scalar(fz_in *in) {
  switch (fz_small(in, 5)) {
  case 0:
    return cn_scalar_bool(fz_u8(in) & 1);
  case 1:
    return cn_scalar_int(fz_i64(in));
  case 2:
    return cn_scalar_uint(fz_u64(in));
  case 3: {
    uint64_t b = fz_u64(in);
    double d;
    memcpy(&d, &b, sizeof d);
    return cn_scalar_float(d);
  }
  default:
    return cn_scalar_complex((double)fz_i64(in), (double)(int8_t)fz_u8(in));
  }
}

static void fz_signature(char *text, fz_in *in) {
  char *targs = strchr(text, '|');
  if (targs != NULL)
    *targs++ = 0;
  cn_kernel_sig sig = NULL;
  cn_status st = cn_kernel_sig_parse(&sig, text, "k", targs);
  fz_check_error(st);
  if (st != CN_OK) {
    FZ_CHECK(sig == NULL, "a failed parse wrote its output");
    return;
  }
  int32_t n = -1;
  FZ_CHECK(cn_kernel_sig_nparams(&n, sig) == CN_OK && n >= 0,
           "a parsed signature has a parameter count");
  cn_array arrays[16] = {0};
  cn_scalar scalars[16];
  int32_t nargs = n < 16 ? n : 16;
  for (int32_t i = 0; i < nargs; i++) {
    int32_t kind = -1, depth = -1, cst = -1;
    cn_dtype dt;
    FZ_CHECK(cn_kernel_sig_param(&kind, &dt, &depth, &cst, sig, i) == CN_OK,
             "every parameter can be queried");
    FZ_CHECK((kind == CN_PARAM_POINTER) == (depth > 0),
             "pointers and only pointers have a depth");
    char type[256];
    FZ_CHECK(cn_kernel_sig_param_type(type, sizeof type, sig, i) == CN_OK &&
                 type[0] != 0,
             "every parameter has a type text");
    scalars[i] = fz_scalar(in);
    if (fz_u8(in) & 1) {
      int64_t shape = fz_small(in, 4);
      cn_status a = cn_zeros(&arrays[i], 1, &shape,
                             fz_dtypes[fz_small(in, FZ_NDT)], CN_ORDER_C);
      FZ_CHECK(a == CN_OK, "a small array can be made");
    }
    int64_t lo = 0, hi = 0, size = 0;
    st = cn_kernel_sig_pack_scalar(&lo, &hi, &size, sig, i, scalars[i]);
    fz_check_error(st);
    if (st == CN_OK)
      FZ_CHECK(kind == CN_PARAM_SCALAR && size >= 1 && size <= 16 &&
                   (dt == 0 || size == cn_dtype_itemsize(dt)),
               "a packed scalar has its type's size");
  }
  st = cn_kernel_sig_check_call(sig, nargs, arrays, scalars, NULL);
  fz_check_error(st);
  if (nargs != n)
    FZ_CHECK(st != CN_OK, "a wrong argument count is refused");
  for (int32_t i = 0; i < nargs; i++)
    cn_array_release(arrays[i]);
  cn_kernel_sig_release(sig);
}

static void fz_layout(const char *text, fz_in *in) {
  cn_struct_layout l = NULL;
  cn_status st = cn_struct_layout_new(&l, "S", text);
  fz_check_error(st);
  if (st != CN_OK) {
    FZ_CHECK(l == NULL, "a failed layout wrote its output");
    return;
  }
  int64_t size = 0, align = 0;
  int32_t n = 0;
  FZ_CHECK(cn_struct_layout_size(&size, &align, l) == CN_OK &&
               cn_struct_layout_nfields(&n, l) == CN_OK && n > 0,
           "a layout has a size and fields");
  FZ_CHECK(align >= 1 && size % align == 0, "the size is aligned");
  int64_t end = 0;
  cn_scalar values[8];
  for (int32_t i = 0; i < n; i++) {
    int64_t off = 0, fsize = 0;
    int32_t isp = 0;
    FZ_CHECK(cn_struct_layout_field(&off, &fsize, &isp, l, i) == CN_OK,
             "every field can be queried");
    FZ_CHECK(off >= end && off + fsize <= size, "fields in order, inside");
    end = off + fsize;
    if (i < 8)
      values[i] = fz_scalar(in);
  }
  int64_t len = 0;
  FZ_CHECK(cn_struct_layout_declaration(NULL, 0, &len, l) == CN_OK && len > 0,
           "a layout has a declaration");
  if (n <= 8 && size <= 4096) {
    uint8_t buf[4096];
    st = cn_struct_layout_pack(buf, (int64_t)sizeof buf, l, n, NULL, values);
    fz_check_error(st);
  }
  cn_struct_layout_release(l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_in in = {data, size};
  uint8_t mode = fz_u8(&in);
  size_t len = 0;
  while (len < in.n && in.p[len] != 0)
    len++;
  char *text = malloc(len + 1);
  if (text == NULL)
    return 0;
  memcpy(text, in.p, len);
  text[len] = 0;
  in.p += len < in.n ? len + 1 : len;
  in.n -= len < in.n ? len + 1 : len;
  if (mode & 1)
    fz_layout(text, &in);
  else
    fz_signature(text, &in);
  free(text);
  return 0;
}
