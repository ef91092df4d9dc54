/* Struct layouts: a C struct given by its fields, laid out as the C ABI
 * does (each field at the next multiple of its alignment, the size rounded
 * up to the largest alignment), its declaration text, and the packing of
 * values into its bytes. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_ctype.h"

#define LAYOUT_MAGIC 0x5453434bu /* "KCST" */
#define MAX_FIELDS 1024
#define WHY_CAP 400

typedef struct field {
  cn_ctype t;
  int64_t offset, size; /* size of the whole field (count elements) */
} field;

struct cn_struct_layout_s {
  uint32_t magic;
  atomic_int_fast64_t refcount;
  char name[CN_CT_NAME_CAP];
  int32_t n;
  field *f;
  int64_t size, align;
  char *decl;
};

CN_INTERNAL const char *cn_struct_layout_name_of(cn_struct_layout l);
CN_INTERNAL int64_t cn_struct_layout_size_of(cn_struct_layout l);
CN_INTERNAL bool cn_struct_layout_valid(cn_struct_layout l);

bool cn_struct_layout_valid(cn_struct_layout l) {
  return l != NULL && l->magic == LAYOUT_MAGIC;
}
const char *cn_struct_layout_name_of(cn_struct_layout l) { return l->name; }
int64_t cn_struct_layout_size_of(cn_struct_layout l) { return l->size; }

#define CHECK_LAYOUT(l, fn)                                                    \
  do {                                                                         \
    if (!cn_struct_layout_valid(l))                                            \
      return cn_error(CN_ERR_VALUE, "%s: argument 'layout' is %s", fn,         \
                      (l) == NULL ? "NULL" : "a released or invalid handle");  \
  } while (0)

static bool is_c_identifier(const char *s) {
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
    return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
          (*s >= '0' && *s <= '9') || *s == '_'))
      return false;
  return true;
}

static void layout_free(struct cn_struct_layout_s *l) {
  free(l->f);
  free(l->decl);
  free(l);
}

/* The declaration text: valid C and CUDA C++. */
static bool build_decl(struct cn_struct_layout_s *l) {
  size_t cap = 64 + strlen(l->name) * 2;
  for (int32_t i = 0; i < l->n; i++)
    cap += strlen(l->f[i].t.text) + strlen(l->f[i].t.name) + 32;
  l->decl = malloc(cap);
  if (l->decl == NULL)
    return false;
  size_t k = (size_t)snprintf(l->decl, cap, "typedef struct %s {\n", l->name);
  for (int32_t i = 0; i < l->n; i++) {
    const cn_ctype *t = &l->f[i].t;
    if (t->count > 1)
      k += (size_t)snprintf(l->decl + k, cap - k, "  %s %s[%lld];\n", t->text,
                            t->name, (long long)t->count);
    else
      k += (size_t)snprintf(l->decl + k, cap - k, "  %s %s;\n", t->text,
                            t->name);
  }
  snprintf(l->decl + k, cap - k, "} %s;\n", l->name);
  return true;
}

cn_status cn_struct_layout_new(cn_struct_layout *out, const char *name,
                               const char *fields) {
  const char *fn = "cn_struct_layout_new";
  CN_CHECK_OUT(out, fn);
  if (name == NULL || !is_c_identifier(name) ||
      strlen(name) >= CN_CT_NAME_CAP)
    return cn_error(CN_ERR_VALUE,
                    "%s: the struct name '%.100s' is not a C identifier of at "
                    "most %d characters",
                    fn, name ? name : "(NULL)", CN_CT_NAME_CAP - 1);
  if (fields == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'fields' is NULL", fn);
  struct cn_struct_layout_s *l = calloc(1, sizeof *l);
  cn_toks toks = {0};
  if (l == NULL || !cn_ct_tokenize(&toks, fields, strlen(fields))) {
    free(l);
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  snprintf(l->name, sizeof l->name, "%s", name);
  cn_status st = CN_OK;
  int64_t nsemi = 1;
  for (int64_t i = 0; i < toks.n; i++)
    nsemi += cn_ct_tok_is(&toks.t[i], ";");
  if (nsemi > MAX_FIELDS + 1)
    st = cn_error(CN_ERR_VALUE, "%s: struct %s: more than %d fields", fn, name,
                  MAX_FIELDS);
  else if ((l->f = calloc((size_t)nsemi, sizeof *l->f)) == NULL)
    st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  int64_t offset = 0, align = 1;
  int64_t start = 0;
  for (int64_t i = 0; st == CN_OK && i <= toks.n; i++) {
    if (i < toks.n && !cn_ct_tok_is(&toks.t[i], ";"))
      continue;
    if (i == start) { /* empty: "a; ;" or the trailing ';' */
      start = i + 1;
      continue;
    }
    field *f = &l->f[l->n];
    char why[WHY_CAP];
    if (!cn_ct_parse_decl(&f->t, &toks.t[start], &toks.t[i], NULL, 0, true,
                          why, sizeof why)) {
      st = cn_error(CN_ERR_VALUE, "%s: struct %s: field %d: %s", fn, name,
                    (int)l->n, why);
      break;
    }
    if (f->t.base == CN_CT_STRUCT && f->t.depth == 0) {
      st = cn_error(CN_ERR_VALUE,
                    "%s: struct %s: field %d ('%s') has the type '%s': struct "
                    "fields take scalar and pointer types only",
                    fn, name, (int)l->n, f->t.name, f->t.text);
      break;
    }
    for (int32_t k = 0; k < l->n; k++)
      if (strcmp(l->f[k].t.name, f->t.name) == 0)
        st = cn_error(CN_ERR_VALUE, "%s: struct %s: two fields are called '%s'",
                      fn, name, f->t.name);
    if (st != CN_OK)
      break;
    int64_t a = cn_ct_align(&f->t);
    f->size = cn_ct_size(&f->t) * f->t.count; /* count <= 2^20, size <= 16 */
    offset = (offset + a - 1) / a * a;
    f->offset = offset;
    offset += f->size;
    if (a > align)
      align = a;
    l->n++;
    start = i + 1;
  }
  if (st == CN_OK && l->n == 0)
    st = cn_error(CN_ERR_VALUE, "%s: struct %s has no fields", fn, name);
  if (st == CN_OK) {
    l->align = align;
    l->size = (offset + align - 1) / align * align;
    if (!build_decl(l))
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  cn_ct_toks_free(&toks);
  if (st != CN_OK) {
    layout_free(l);
    return st;
  }
  l->magic = LAYOUT_MAGIC;
  atomic_init(&l->refcount, 1);
  *out = l;
  return CN_OK;
}

void cn_struct_layout_retain(cn_struct_layout l) {
  if (cn_struct_layout_valid(l))
    atomic_fetch_add(&l->refcount, 1);
}

void cn_struct_layout_release(cn_struct_layout l) {
  if (!cn_struct_layout_valid(l))
    return;
  if (atomic_fetch_sub(&l->refcount, 1) == 1) {
    l->magic = 0;
    layout_free(l);
  }
}

cn_status cn_struct_layout_size(int64_t *size, int64_t *alignment,
                                cn_struct_layout l) {
  CHECK_LAYOUT(l, "cn_struct_layout_size");
  if (size)
    *size = l->size;
  if (alignment)
    *alignment = l->align;
  return CN_OK;
}

cn_status cn_struct_layout_nfields(int32_t *out, cn_struct_layout l) {
  CN_CHECK_OUT(out, "cn_struct_layout_nfields");
  CHECK_LAYOUT(l, "cn_struct_layout_nfields");
  *out = l->n;
  return CN_OK;
}

#define CHECK_FIELD(l, i, fn)                                                  \
  do {                                                                         \
    if ((i) < 0 || (i) >= (l)->n)                                              \
      return cn_error(CN_ERR_INDEX, "%s: struct %s has %d fields, no field %d",\
                      fn, (l)->name, (int)(l)->n, (int)(i));                   \
  } while (0)

cn_status cn_struct_layout_field(int64_t *offset, int64_t *size,
                                 int32_t *is_pointer, cn_struct_layout l,
                                 int32_t i) {
  const char *fn = "cn_struct_layout_field";
  CHECK_LAYOUT(l, fn);
  CHECK_FIELD(l, i, fn);
  if (offset)
    *offset = l->f[i].offset;
  if (size)
    *size = l->f[i].size;
  if (is_pointer)
    *is_pointer = l->f[i].t.depth > 0;
  return CN_OK;
}

cn_status cn_struct_layout_field_index(int32_t *out, cn_struct_layout l,
                                       const char *name) {
  const char *fn = "cn_struct_layout_field_index";
  CN_CHECK_OUT(out, fn);
  CHECK_LAYOUT(l, fn);
  if (name == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'name' is NULL", fn);
  for (int32_t i = 0; i < l->n; i++)
    if (strcmp(l->f[i].t.name, name) == 0) {
      *out = i;
      return CN_OK;
    }
  return cn_error(CN_ERR_VALUE, "struct %s has no field '%.100s'", l->name,
                  name);
}

cn_status cn_struct_layout_field_name(char *name, int64_t name_cap,
                                      cn_struct_layout l, int32_t i) {
  const char *fn = "cn_struct_layout_field_name";
  CHECK_LAYOUT(l, fn);
  CHECK_FIELD(l, i, fn);
  size_t n = strlen(l->f[i].t.name);
  if (name == NULL || name_cap <= (int64_t)n)
    return cn_error(CN_ERR_VALUE, "%s: the buffer is too small", fn);
  memcpy(name, l->f[i].t.name, n + 1);
  return CN_OK;
}

cn_status cn_struct_layout_declaration(char *text, int64_t text_cap,
                                       int64_t *length, cn_struct_layout l) {
  const char *fn = "cn_struct_layout_declaration";
  CHECK_LAYOUT(l, fn);
  int64_t n = (int64_t)strlen(l->decl);
  if (text != NULL) {
    if (text_cap <= n)
      return cn_error(CN_ERR_VALUE,
                      "%s: the buffer of %lld bytes is too small for %lld", fn,
                      (long long)text_cap, (long long)n + 1);
    memcpy(text, l->decl, (size_t)n + 1);
  }
  if (length)
    *length = n;
  return CN_OK;
}

static cn_status convert_field(uint8_t bytes[16], int64_t *size,
                               const struct cn_struct_layout_s *l, int32_t i,
                               cn_scalar v, const char *fn) {
  const field *f = &l->f[i];
  if (f->t.depth > 0)
    return cn_error(CN_ERR_TYPE,
                    "%s: struct %s: field '%s' is a pointer (%s) and takes an "
                    "array, not a scalar",
                    fn, l->name, f->t.name, f->t.text);
  char why[WHY_CAP];
  cn_status st = cn_ct_convert(bytes, size, f->t.base, v, why, sizeof why);
  if (st != CN_OK)
    return cn_error(st, "struct %s: field '%s' (%s): %s", l->name, f->t.name,
                    f->t.text, why);
  return CN_OK;
}

cn_status cn_struct_layout_pack_scalar(int64_t *lo, int64_t *hi, int64_t *size,
                                       cn_struct_layout l, int32_t i,
                                       cn_scalar value) {
  const char *fn = "cn_struct_layout_pack_scalar";
  CN_CHECK_OUT(lo, fn);
  CN_CHECK_OUT(hi, fn);
  CN_CHECK_OUT(size, fn);
  CHECK_LAYOUT(l, fn);
  CHECK_FIELD(l, i, fn);
  uint8_t b[16];
  int64_t n = 0;
  cn_status st = convert_field(b, &n, l, i, value, fn);
  if (st != CN_OK)
    return st;
  uint64_t a = 0, c = 0;
  for (int k = 0; k < 8; k++) {
    a |= (uint64_t)b[k] << (8 * k);
    c |= (uint64_t)b[8 + k] << (8 * k);
  }
  *lo = (int64_t)a;
  *hi = (int64_t)c;
  *size = n;
  return CN_OK;
}

cn_status cn_struct_layout_check_array(cn_struct_layout l, int32_t i,
                                       cn_array a) {
  const char *fn = "cn_struct_layout_check_array";
  CHECK_LAYOUT(l, fn);
  CHECK_FIELD(l, i, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  const field *f = &l->f[i];
  if (f->t.depth != 1 || f->t.count != 1)
    return cn_error(CN_ERR_TYPE,
                    "struct %s: field '%s' (%s) is not a pointer to elements, "
                    "but an array was given",
                    l->name, f->t.name, f->t.text);
  cn_dtype want = cn_ct_dtype(f->t.base);
  if (f->t.base != CN_CT_VOID && want != a->dtype)
    return cn_error(CN_ERR_TYPE,
                    "struct %s: field '%s' (%s) needs a %s array, got a %s "
                    "array",
                    l->name, f->t.name, f->t.text,
                    want ? cn_dtype_name(want) : cn_ct_base_name(f->t.base),
                    cn_dtype_name(a->dtype));
  return CN_OK;
}

cn_status cn_struct_layout_pack(void *bytes, int64_t nbytes,
                                cn_struct_layout l, int32_t n,
                                const cn_array *arrays,
                                const cn_scalar *values) {
  const char *fn = "cn_struct_layout_pack";
  CHECK_LAYOUT(l, fn);
  if (bytes == NULL || nbytes < l->size)
    return cn_error(CN_ERR_VALUE,
                    "%s: struct %s needs %lld bytes, the buffer has %lld", fn,
                    l->name, (long long)l->size,
                    bytes == NULL ? 0LL : (long long)nbytes);
  if (n != l->n)
    return cn_error(CN_ERR_VALUE, "%s: struct %s has %d fields, got %d values",
                    fn, l->name, (int)l->n, (int)n);
  /* everything is checked before the first byte is written */
  for (int32_t i = 0; i < n; i++) {
    cn_status st;
    if (arrays != NULL && arrays[i] != NULL) {
      st = cn_struct_layout_check_array(l, i, arrays[i]);
    } else if (values == NULL) {
      st = cn_error(CN_ERR_VALUE, "%s: struct %s: no value for field '%s'", fn,
                    l->name, l->f[i].t.name);
    } else {
      uint8_t b[16];
      int64_t s;
      st = convert_field(b, &s, l, i, values[i], fn);
    }
    if (st != CN_OK)
      return st;
  }
  uint8_t *out = bytes;
  memset(out, 0, (size_t)l->size);
  for (int32_t i = 0; i < n; i++) {
    const field *f = &l->f[i];
    if (arrays != NULL && arrays[i] != NULL) {
      uint64_t p = (uint64_t)(uintptr_t)arrays[i]->data;
      memcpy(out + f->offset, &p, 8);
    } else {
      uint8_t b[16];
      int64_t s = 0;
      (void)convert_field(b, &s, l, i, values[i], fn);
      for (int64_t k = 0; k < f->t.count; k++)
        memcpy(out + f->offset + k * s, b, (size_t)s);
    }
  }
  return CN_OK;
}
