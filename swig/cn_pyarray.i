/* cn_pyarray.i: the Python array object of the low-level module.
 *
 * One small C extension type (`Handle`) owns one cn_array reference and is
 * the base class of cunumpy.ndarray. Its number, comparison, mapping and
 * buffer slots call the C ABI directly, so `a + b`, `a[1:5]` and
 * numpy.asarray(a) never run Python code on their fast path; everything
 * uncommon (advanced indexing, conversion of foreign objects, dtype objects)
 * is delegated to hooks the Python package installs with _set_hooks(). */

%{
#include <stdlib.h>
#include <string.h>

typedef struct {
  PyObject_HEAD cn_array h;
} cnpy_array;

static PyTypeObject cnpy_array_type;
/* The ndarray subclass results are made as (set by the package). */
static PyTypeObject *cnpy_result_type = NULL;
/* obj -> ndarray for operands that are neither arrays nor Python scalars. */
static PyObject *cnpy_coerce_hook = NULL;
/* obj -> int dtype code, for dtype arguments that are not ints; results are
 * cached in cnpy_dtype_cache. */
static PyObject *cnpy_dtype_hook = NULL;
static PyObject *cnpy_dtype_cache = NULL;
/* (array, key) and (array, key, value) for advanced indexing. */
static PyObject *cnpy_getitem_hook = NULL;
static PyObject *cnpy_setitem_hook = NULL;
/* NumPy dtype objects of the engine's dtypes (set by the package), so
 * a.dtype is a table read. */
static PyObject *cnpy_dtype_objs[CN_NUM_DTYPES];
static cn_dtype cnpy_dtype_codes[CN_NUM_DTYPES];
static PyObject *cnpy_exc_device = NULL;
static PyObject *cnpy_exc_backend = NULL;
static PyObject *cnpy_exc_internal = NULL;

#define CNPY_CHECK(o) PyObject_TypeCheck((o), &cnpy_array_type)

static int cnpy_order_arg(PyObject *o, cn_order *out);
static int cnpy_shape_arg(PyObject *o, int32_t *ndim, int64_t *shape);
#define CNPY_H(o) (((cnpy_array *)(o))->h)

/* ---- errors ------------------------------------------------------------ */

static PyObject *cnpy_exception_for(cn_status st) {
  switch (st) {
  case CN_ERR_VALUE:
  case CN_ERR_SHAPE:
    return PyExc_ValueError;
  case CN_ERR_TYPE:
    return PyExc_TypeError;
  case CN_ERR_INDEX:
    return PyExc_IndexError;
  case CN_ERR_MEMORY:
    return PyExc_MemoryError;
  case CN_ERR_DEVICE:
    return cnpy_exc_device;
  case CN_ERR_BACKEND:
    return cnpy_exc_backend;
  case CN_ERR_UNSUPPORTED:
    return PyExc_NotImplementedError;
  default:
    return cnpy_exc_internal;
  }
}

/* Raises the exception for st with the thread's last-error text. A weak
 * Python integer out of range of the array dtype is OverflowError in
 * NumPy 2, so that one CN_ERR_VALUE case is told apart by its message. */
static void cnpy_raise(cn_status st) {
  const char *msg = cn_last_error();
  PyObject *exc = cnpy_exception_for(st);
  if (!msg || !*msg)
    msg = cn_status_description(st);
  if (st == CN_ERR_VALUE && strstr(msg, "Python integer") &&
      strstr(msg, "out of bounds"))
    exc = PyExc_OverflowError;
  PyErr_SetString(exc, msg);
}

/* ---- handles ----------------------------------------------------------- */

/* New Python array owning h (the reference is stolen, even on failure). */
static PyObject *cnpy_wrap(cn_array h) {
  PyTypeObject *t = cnpy_result_type ? cnpy_result_type : &cnpy_array_type;
  cnpy_array *o = (cnpy_array *)t->tp_alloc(t, 0);
  if (!o) {
    cn_array_release(h);
    return NULL;
  }
  o->h = h;
  return (PyObject *)o;
}

/* result (a new reference, or NULL) when it wraps the handle dst, replaced
 * by the object dst came from: NumPy returns out itself. Not inlined: the
 * wrappers' result may be None, which GCC then analyses as an array. */
static __attribute__((noinline)) PyObject *
cnpy_result_as_dst(PyObject *result, cn_array dst, PyObject *dst_obj) {
  if (dst && result && result != dst_obj && CNPY_CHECK(result) &&
      CNPY_H(result) == dst) {
    Py_DECREF(result);
    return Py_NewRef(dst_obj);
  }
  return result;
}

static void cnpy_array_dealloc(PyObject *self) {
  cn_array h = CNPY_H(self);
  CNPY_H(self) = NULL;
  cn_array_release(h);
  Py_TYPE(self)->tp_free(self);
}

/* ---- scalars ----------------------------------------------------------- */

/* Converts a Python number to a cn_scalar. exact: only the builtin types
 * bool/int/float/complex (the weak scalars of NEP 50); otherwise NumPy
 * scalars and other numbers are accepted too. Returns 1 on success, 0 when
 * o is not such a number, -1 with an exception set. */
static int cnpy_scalar_from_py(PyObject *o, cn_scalar *s, int exact) {
  memset(s, 0, sizeof *s);
  if (PyBool_Check(o)) {
    s->kind = CN_SCALAR_BOOL;
    s->i = (o == Py_True);
    return 1;
  }
  if (exact ? PyLong_CheckExact(o) : PyLong_Check(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred())
      return -1;
    if (!overflow) {
      s->kind = CN_SCALAR_INT;
      s->i = (int64_t)v;
      return 1;
    }
    if (overflow > 0) {
      unsigned long long u = PyLong_AsUnsignedLongLong(o);
      if (u == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
      s->kind = CN_SCALAR_UINT;
      s->i = (int64_t)u;
      return 1;
    }
    PyErr_Format(PyExc_OverflowError,
                 "Python integer %R out of bounds for int64", o);
    return -1;
  }
  if (exact ? PyFloat_CheckExact(o) : PyFloat_Check(o)) {
    s->kind = CN_SCALAR_FLOAT;
    s->re = PyFloat_AS_DOUBLE(o);
    return 1;
  }
  if (exact ? PyComplex_CheckExact(o) : PyComplex_Check(o)) {
    s->kind = CN_SCALAR_COMPLEX;
    s->re = PyComplex_RealAsDouble(o);
    s->im = PyComplex_ImagAsDouble(o);
    return 1;
  }
  if (exact || CNPY_CHECK(o))
    return 0;
  /* NumPy scalars and 0-d objects: ask them for a Python value. */
  if (PyObject_HasAttrString(o, "item") && PyObject_HasAttrString(o, "dtype")) {
    PyObject *v = PyObject_CallMethod(o, "item", NULL);
    if (!v)
      return -1;
    int r = (v == o) ? 0 : cnpy_scalar_from_py(v, s, 0);
    Py_DECREF(v);
    return r;
  }
  return 0;
}

static PyObject *cnpy_scalar_to_py(cn_scalar s) {
  switch (s.kind) {
  case CN_SCALAR_BOOL:
    return PyBool_FromLong((long)s.i);
  case CN_SCALAR_INT:
    return PyLong_FromLongLong((long long)s.i);
  case CN_SCALAR_UINT:
    return PyLong_FromUnsignedLongLong((unsigned long long)(uint64_t)s.i);
  case CN_SCALAR_FLOAT:
    return PyFloat_FromDouble(s.re);
  default:
    return PyComplex_FromDoubles(s.re, s.im);
  }
}

/* ---- operands ---------------------------------------------------------- */

/* Temporaries an argument conversion made: a weak-scalar handle or a coerced
 * Python object, freed after the call. */
typedef struct {
  cn_array h;
  PyObject *obj;
} cnpy_tmp;

static void cnpy_tmp_free(cnpy_tmp *t) {
  if (t->h) {
    cn_array_release(t->h);
    t->h = NULL;
  }
  Py_CLEAR(t->obj);
}

/* The operator slots never write their operands, so the weak scalar arrays
 * they make are kept and reused (the last few): `a * 2.0` in a loop then
 * costs no allocation. The GIL serialises access;
 * every user takes its own reference, so eviction cannot free a handle
 * still in use by the current call. */
#define CNPY_WEAK_CACHE 32
static struct {
  cn_scalar s;
  cn_array h;
} cnpy_weak_cache[CNPY_WEAK_CACHE];

static cn_status cnpy_weak_scalar(cn_array *out, cn_scalar s) {
  uint64_t bits = 0;
  memcpy(&bits, &s.re, sizeof bits);
  uint64_t key = (uint64_t)s.i * 0x9E3779B97F4A7C15ull ^ bits ^
                 ((uint64_t)s.kind << 56);
  unsigned slot = (unsigned)((key ^ (key >> 29)) % CNPY_WEAK_CACHE);
  if (cnpy_weak_cache[slot].h &&
      memcmp(&cnpy_weak_cache[slot].s, &s, sizeof s) == 0) {
    cn_status st = cn_array_retain(cnpy_weak_cache[slot].h);
    if (st == CN_OK)
      *out = cnpy_weak_cache[slot].h;
    return st;
  }
  cn_array h = NULL;
  cn_status st = cn_scalar_array(&h, s);
  if (st != CN_OK)
    return st;
  if (cn_array_retain(h) == CN_OK) {
    cn_array old = cnpy_weak_cache[slot].h;
    cnpy_weak_cache[slot].s = s;
    cnpy_weak_cache[slot].h = h;
    cn_array_release(old);
  }
  *out = h;
  return CN_OK;
}

/* Borrowed handle for an operand: an array as is, a Python scalar as a weak
 * scalar array, None as NULL when allowed, anything else through the
 * package's coerce hook (asarray). -1 with an exception set on failure. */
static int cnpy_operand_(PyObject *o, cn_array *out, cnpy_tmp *tmp,
                         int allow_none, int cached) {
  if (CNPY_CHECK(o)) {
    *out = CNPY_H(o);
    return 0;
  }
  if (o == Py_None && allow_none) {
    *out = NULL;
    return 0;
  }
  cn_scalar s;
  int r = cnpy_scalar_from_py(o, &s, 1);
  if (r < 0)
    return -1;
  if (r == 1) {
    cn_status st = cached ? cnpy_weak_scalar(&tmp->h, s)
                          : cn_scalar_array(&tmp->h, s);
    if (st != CN_OK) {
      cnpy_raise(st);
      return -1;
    }
    *out = tmp->h;
    return 0;
  }
  if (!cnpy_coerce_hook) {
    PyErr_Format(PyExc_TypeError, "cannot convert '%.100s' to a cunumpy array",
                 Py_TYPE(o)->tp_name);
    return -1;
  }
  PyObject *c = PyObject_CallOneArg(cnpy_coerce_hook, o);
  if (!c)
    return -1;
  if (!CNPY_CHECK(c)) {
    Py_DECREF(c);
    PyErr_SetString(PyExc_TypeError, "coerce hook did not return an array");
    return -1;
  }
  tmp->obj = c;
  *out = CNPY_H(c);
  return 0;
}

/* Operands of the C ABI wrappers get fresh weak scalars: some functions
 * write through inputs (cn_put's a), which must never reach a cached one.
 * The operator slots below only read their operands and use the cache. */
static int cnpy_operand(PyObject *o, cn_array *out, cnpy_tmp *tmp,
                        int allow_none) {
  return cnpy_operand_(o, out, tmp, allow_none, 0);
}

/* ---- number and comparison slots ---------------------------------------- */

typedef cn_status (*cnpy_binary_fn)(cn_array *, cn_array, cn_array, cn_array);
typedef cn_status (*cnpy_unary_fn)(cn_array *, cn_array, cn_array);

/* a op b; in place (a op= b) writes into a. An operand that cannot become an
 * array gives NotImplemented, so Python tries the other operand. */
static PyObject *cnpy_binary(cnpy_binary_fn fn, PyObject *a, PyObject *b,
                             int inplace) {
  cnpy_tmp ta = {NULL, NULL}, tb = {NULL, NULL};
  cn_array ha = NULL, hb = NULL, res = NULL;
  PyObject *ret = NULL;
  if (cnpy_operand_(a, &ha, &ta, 0, 1) < 0 ||
      cnpy_operand_(b, &hb, &tb, 0, 1) < 0) {
    if (PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyErr_Clear();
      ret = Py_NewRef(Py_NotImplemented);
    }
    goto done;
  }
  cn_status st = fn(&res, ha, hb, inplace ? ha : NULL);
  if (st != CN_OK) {
    cnpy_raise(st);
    goto done;
  }
  if (inplace) {
    cn_array_release(res);
    ret = Py_NewRef(a);
  } else {
    ret = cnpy_wrap(res);
  }
done:
  cnpy_tmp_free(&ta);
  cnpy_tmp_free(&tb);
  return ret;
}

static PyObject *cnpy_unary(cnpy_unary_fn fn, PyObject *a) {
  cn_array res = NULL;
  cn_status st = fn(&res, CNPY_H(a), NULL);
  if (st != CN_OK) {
    cnpy_raise(st);
    return NULL;
  }
  return cnpy_wrap(res);
}

#define CNPY_BINARY_SLOTS(slot, fn)                                            \
  static PyObject *cnpy_nb_##slot(PyObject *a, PyObject *b) {                  \
    return cnpy_binary(fn, a, b, 0);                                           \
  }                                                                            \
  static PyObject *cnpy_nb_inplace_##slot(PyObject *a, PyObject *b) {          \
    return cnpy_binary(fn, a, b, 1);                                           \
  }
CNPY_BINARY_SLOTS(add, cn_add)
CNPY_BINARY_SLOTS(subtract, cn_subtract)
CNPY_BINARY_SLOTS(multiply, cn_multiply)
CNPY_BINARY_SLOTS(true_divide, cn_divide)
CNPY_BINARY_SLOTS(floor_divide, cn_floor_divide)
CNPY_BINARY_SLOTS(remainder, cn_remainder)
CNPY_BINARY_SLOTS(lshift, cn_left_shift)
CNPY_BINARY_SLOTS(rshift, cn_right_shift)
CNPY_BINARY_SLOTS(and, cn_bitwise_and)
CNPY_BINARY_SLOTS(or, cn_bitwise_or)
CNPY_BINARY_SLOTS(xor, cn_bitwise_xor)
#undef CNPY_BINARY_SLOTS

static PyObject *cnpy_nb_power(PyObject *a, PyObject *b, PyObject *mod) {
  if (mod != Py_None)
    Py_RETURN_NOTIMPLEMENTED;
  return cnpy_binary(cn_power, a, b, 0);
}
static PyObject *cnpy_nb_inplace_power(PyObject *a, PyObject *b,
                                       PyObject *mod) {
  if (mod != Py_None)
    Py_RETURN_NOTIMPLEMENTED;
  return cnpy_binary(cn_power, a, b, 1);
}
static PyObject *cnpy_nb_negative(PyObject *a) {
  return cnpy_unary(cn_negative, a);
}
static PyObject *cnpy_nb_positive(PyObject *a) {
  return cnpy_unary(cn_positive, a);
}
static PyObject *cnpy_nb_absolute(PyObject *a) { return cnpy_unary(cn_abs, a); }
static PyObject *cnpy_nb_invert(PyObject *a) {
  return cnpy_unary(cn_bitwise_invert, a);
}

static PyObject *cnpy_richcompare(PyObject *a, PyObject *b, int op) {
  static const cnpy_binary_fn fns[] = {cn_less,      cn_less_equal,
                                       cn_equal,     cn_not_equal,
                                       cn_greater,   cn_greater_equal};
  if (op < 0 || op > 5)
    Py_RETURN_NOTIMPLEMENTED;
  return cnpy_binary(fns[op], a, b, 0);
}

/* ---- conversions of one-element arrays ------------------------------------ */

/* The element of a one-element array as a Python scalar; what names the
 * conversion in the error of other sizes (TypeError, as NumPy's). */
static PyObject *cnpy_single_item(PyObject *self, const char *what) {
  int64_t n = 0;
  cn_scalar s;
  cn_status st = cn_array_size(&n, CNPY_H(self));
  if (st == CN_OK && n != 1) {
    PyErr_Format(PyExc_TypeError,
                 "only length-1 arrays can be converted to Python scalars "
                 "(%s)",
                 what);
    return NULL;
  }
  if (st == CN_OK)
    st = cn_item(&s, CNPY_H(self));
  if (st != CN_OK) {
    cnpy_raise(st);
    return NULL;
  }
  return cnpy_scalar_to_py(s);
}

static PyObject *cnpy_nb_float(PyObject *self) {
  PyObject *v = cnpy_single_item(self, "float");
  if (!v)
    return NULL;
  PyObject *r = PyNumber_Float(v);
  Py_DECREF(v);
  return r;
}

static PyObject *cnpy_nb_int(PyObject *self) {
  PyObject *v = cnpy_single_item(self, "int");
  if (!v)
    return NULL;
  PyObject *r = PyNumber_Long(v);
  Py_DECREF(v);
  return r;
}

/* operator.index(a): 0-d integer arrays only. */
static PyObject *cnpy_nb_index(PyObject *self) {
  int32_t nd = -1;
  cn_dtype dt = CN_DTYPE_DEFAULT;
  cn_dtype_kind k = CN_KIND_FLOAT;
  if (cn_array_ndim(&nd, CNPY_H(self)) != CN_OK ||
      cn_array_dtype(&dt, CNPY_H(self)) != CN_OK ||
      cn_dtype_get_kind(&k, dt) != CN_OK || nd != 0 ||
      (k != CN_KIND_INT && k != CN_KIND_UINT)) {
    PyErr_SetString(PyExc_TypeError, "only integer scalar arrays can be "
                                     "converted to a scalar index");
    return NULL;
  }
  return cnpy_single_item(self, "index");
}

static int cnpy_nb_bool(PyObject *self) {
  int64_t n = 0;
  cn_status st = cn_array_size(&n, CNPY_H(self));
  if (st != CN_OK) {
    cnpy_raise(st);
    return -1;
  }
  if (n != 1) {
    PyErr_SetString(PyExc_ValueError,
                    n ? "The truth value of an array with more than one "
                        "element is ambiguous. Use a.any() or a.all()"
                      : "The truth value of an empty array is ambiguous.");
    return -1;
  }
  PyObject *v = cnpy_single_item(self, "bool");
  if (!v)
    return -1;
  int r = PyObject_IsTrue(v);
  Py_DECREF(v);
  return r;
}

static PyNumberMethods cnpy_as_number = {
    .nb_bool = cnpy_nb_bool,
    .nb_int = cnpy_nb_int,
    .nb_float = cnpy_nb_float,
    .nb_index = cnpy_nb_index,
    .nb_add = cnpy_nb_add,
    .nb_subtract = cnpy_nb_subtract,
    .nb_multiply = cnpy_nb_multiply,
    .nb_remainder = cnpy_nb_remainder,
    .nb_power = cnpy_nb_power,
    .nb_negative = cnpy_nb_negative,
    .nb_positive = cnpy_nb_positive,
    .nb_absolute = cnpy_nb_absolute,
    .nb_invert = cnpy_nb_invert,
    .nb_lshift = cnpy_nb_lshift,
    .nb_rshift = cnpy_nb_rshift,
    .nb_and = cnpy_nb_and,
    .nb_xor = cnpy_nb_xor,
    .nb_or = cnpy_nb_or,
    .nb_inplace_add = cnpy_nb_inplace_add,
    .nb_inplace_subtract = cnpy_nb_inplace_subtract,
    .nb_inplace_multiply = cnpy_nb_inplace_multiply,
    .nb_inplace_remainder = cnpy_nb_inplace_remainder,
    .nb_inplace_power = cnpy_nb_inplace_power,
    .nb_inplace_lshift = cnpy_nb_inplace_lshift,
    .nb_inplace_rshift = cnpy_nb_inplace_rshift,
    .nb_inplace_and = cnpy_nb_inplace_and,
    .nb_inplace_xor = cnpy_nb_inplace_xor,
    .nb_inplace_or = cnpy_nb_inplace_or,
    .nb_floor_divide = cnpy_nb_floor_divide,
    .nb_true_divide = cnpy_nb_true_divide,
    .nb_inplace_floor_divide = cnpy_nb_inplace_floor_divide,
    .nb_inplace_true_divide = cnpy_nb_inplace_true_divide,
};

/* ---- basic indexing ------------------------------------------------------ */

/* Integer value of a basic-index item (Python int or an object with
 * __index__ such as NumPy integers; not bool, not arrays). 1 and *v set,
 * 0 when it is not an integer, -1 on error. */
static int cnpy_index_int(PyObject *o, int64_t *v) {
  if (PyBool_Check(o) || CNPY_CHECK(o))
    return 0;
  if (!PyLong_Check(o)) {
    if (!PyIndex_Check(o) || PySequence_Check(o))
      return 0;
    PyObject *i = PyNumber_Index(o);
    if (!i) {
      PyErr_Clear();
      return 0;
    }
    int ovf = 0;
    long long x = PyLong_AsLongLongAndOverflow(i, &ovf);
    Py_DECREF(i);
    if (ovf) {
      PyErr_SetString(PyExc_IndexError,
                      "cannot fit 'int' into an index-sized integer");
      return -1;
    }
    *v = (int64_t)x;
    return 1;
  }
  int ovf = 0;
  long long x = PyLong_AsLongLongAndOverflow(o, &ovf);
  if (ovf) {
    PyErr_SetString(PyExc_IndexError,
                    "cannot fit 'int' into an index-sized integer");
    return -1;
  }
  if (x == -1 && PyErr_Occurred())
    return -1;
  *v = (int64_t)x;
  return 1;
}

/* View of a for a basic index (ints, slices, Ellipsis, None, or a tuple of
 * them). Returns 1 with *res set, 0 when key needs advanced indexing, -1
 * with an exception set. */
static int cnpy_basic_view(cn_array a, PyObject *key, cn_array *res) {
  PyObject *single[1];
  PyObject **items;
  Py_ssize_t nk;
  if (PyTuple_Check(key)) {
    items = &PyTuple_GET_ITEM(key, 0);
    nk = PyTuple_GET_SIZE(key);
  } else {
    single[0] = key;
    items = single;
    nk = 1;
  }
  int32_t ndim = 0;
  int64_t shape[CN_MAX_DIMS];
  cn_status st = cn_array_ndim(&ndim, a);
  if (st == CN_OK)
    st = cn_array_shape(shape, CN_MAX_DIMS, a);
  if (st != CN_OK) {
    cnpy_raise(st);
    return -1;
  }
  int consumed = 0, ellipses = 0, nnone = 0;
  for (Py_ssize_t i = 0; i < nk; i++) {
    PyObject *o = items[i];
    int64_t v;
    if (o == Py_None)
      nnone++;
    else if (o == Py_Ellipsis)
      ellipses++;
    else if (PySlice_Check(o))
      consumed++;
    else {
      int r = cnpy_index_int(o, &v);
      if (r <= 0)
        return r;
      consumed++;
    }
  }
  if (ellipses > 1) {
    PyErr_SetString(PyExc_IndexError,
                    "an index can only have a single ellipsis ('...')");
    return -1;
  }
  if (consumed > ndim) {
    PyErr_Format(PyExc_IndexError,
                 "too many indices for array: array is %d-dimensional, but "
                 "%d were indexed",
                 (int)ndim, consumed);
    return -1;
  }
  if (ndim + nnone > CN_MAX_DIMS) {
    PyErr_Format(PyExc_IndexError, "number of dimensions must be within [0, %d]",
                 CN_MAX_DIMS);
    return -1;
  }
  int64_t start[CN_MAX_DIMS], stop[CN_MAX_DIMS], step[CN_MAX_DIMS];
  int64_t ints[CN_MAX_DIMS];
  int32_t int_axes[CN_MAX_DIMS], none_pos[CN_MAX_DIMS];
  int nints = 0, nslices = 0, axis = 0, outpos = 0;
  nnone = 0;
  for (int32_t d = 0; d < ndim; d++) {
    start[d] = 0;
    stop[d] = shape[d];
    step[d] = 1;
  }
  for (Py_ssize_t i = 0; i < nk; i++) {
    PyObject *o = items[i];
    if (o == Py_None) {
      none_pos[nnone++] = outpos++;
    } else if (o == Py_Ellipsis) {
      int k = ndim - consumed;
      axis += k;
      outpos += k;
    } else if (PySlice_Check(o)) {
      Py_ssize_t s0, s1, s2;
      if (PySlice_Unpack(o, &s0, &s1, &s2) < 0)
        return -1;
      Py_ssize_t len = PySlice_AdjustIndices((Py_ssize_t)shape[axis], &s0,
                                             &s1, s2);
      if (len == 0) {
        s0 = 0;
        s1 = 0;
        s2 = s2 > 0 ? s2 : 1;
      } else if (s2 < 0 && s1 < 0) {
        s1 = (Py_ssize_t)CN_SLICE_NONE; /* run down through index 0 */
      }
      if (s0 != 0 || s1 != shape[axis] || s2 != 1) {
        start[axis] = s0;
        stop[axis] = s1;
        step[axis] = s2;
        nslices = axis + 1;
      }
      axis++;
      outpos++;
    } else {
      int64_t v = 0;
      (void)cnpy_index_int(o, &v);
      if (v < -shape[axis] || v >= shape[axis]) {
        PyErr_Format(PyExc_IndexError,
                     "index %lld is out of bounds for axis %d with size %lld",
                     (long long)v, axis, (long long)shape[axis]);
        return -1;
      }
      ints[nints] = v < 0 ? v + shape[axis] : v;
      int_axes[nints++] = axis;
      axis++;
    }
  }
  cn_array cur = a, next = NULL;
  st = cn_array_retain(a);
  if (st == CN_OK && nslices > 0) {
    st = cn_slice(&next, cur, nslices, start, stop, step);
    cn_array_release(cur);
    cur = st == CN_OK ? next : NULL;
  }
  for (int j = nints - 1; st == CN_OK && j >= 0; j--) {
    st = cn_index_axis(&next, cur, int_axes[j], ints[j]);
    cn_array_release(cur);
    cur = st == CN_OK ? next : NULL;
  }
  if (st == CN_OK && nnone > 0) {
    st = cn_expand_dims(&next, cur, nnone, none_pos);
    cn_array_release(cur);
    cur = st == CN_OK ? next : NULL;
  }
  if (st != CN_OK) {
    cn_array_release(cur);
    cnpy_raise(st);
    return -1;
  }
  *res = cur;
  return 1;
}

static PyObject *cnpy_subscript(PyObject *self, PyObject *key) {
  cn_array res = NULL;
  if (PyLong_CheckExact(key)) {
    /* a[i]: the commonest key, straight to cn_index_axis. */
    int ovf = 0;
    long long i = PyLong_AsLongLongAndOverflow(key, &ovf);
    int32_t nd = 0;
    int64_t n = 0;
    if (!ovf && !(i == -1 && PyErr_Occurred()) &&
        cn_array_ndim(&nd, CNPY_H(self)) == CN_OK && nd > 0 &&
        cn_array_dim(&n, CNPY_H(self), 0) == CN_OK && i >= -n && i < n) {
      cn_status st = cn_index_axis(&res, CNPY_H(self), 0, i < 0 ? i + n : i);
      if (st != CN_OK) {
        cnpy_raise(st);
        return NULL;
      }
      return cnpy_wrap(res);
    }
    PyErr_Clear(); /* the general path below reports the error */
  }
  int r = cnpy_basic_view(CNPY_H(self), key, &res);
  if (r < 0)
    return NULL;
  if (r == 1)
    return cnpy_wrap(res);
  if (!cnpy_getitem_hook) {
    PyErr_SetString(PyExc_IndexError, "unsupported index");
    return NULL;
  }
  return PyObject_CallFunctionObjArgs(cnpy_getitem_hook, self, key, NULL);
}

static int cnpy_ass_subscript(PyObject *self, PyObject *key, PyObject *value) {
  if (!value) {
    PyErr_SetString(PyExc_ValueError, "cannot delete array elements");
    return -1;
  }
  cn_array view = NULL;
  int r = cnpy_basic_view(CNPY_H(self), key, &view);
  if (r < 0)
    return -1;
  if (r == 0) {
    if (!cnpy_setitem_hook) {
      PyErr_SetString(PyExc_IndexError, "unsupported index");
      return -1;
    }
    PyObject *x =
        PyObject_CallFunctionObjArgs(cnpy_setitem_hook, self, key, value, NULL);
    if (!x)
      return -1;
    Py_DECREF(x);
    return 0;
  }
  cnpy_tmp t = {NULL, NULL};
  cn_array src = NULL;
  int rc = -1;
  if (cnpy_operand(value, &src, &t, 0) == 0) {
    cn_status st = cn_assign(view, src);
    if (st != CN_OK)
      cnpy_raise(st);
    else
      rc = 0;
  }
  cnpy_tmp_free(&t);
  cn_array_release(view);
  return rc;
}

static Py_ssize_t cnpy_length(PyObject *self) {
  int32_t nd = 0;
  int64_t n = 0;
  cn_status st = cn_array_ndim(&nd, CNPY_H(self));
  if (st == CN_OK && nd == 0) {
    PyErr_SetString(PyExc_TypeError, "len() of unsized object");
    return -1;
  }
  if (st == CN_OK)
    st = cn_array_dim(&n, CNPY_H(self), 0);
  if (st != CN_OK) {
    cnpy_raise(st);
    return -1;
  }
  return (Py_ssize_t)n;
}

static PyMappingMethods cnpy_as_mapping = {
    .mp_length = cnpy_length,
    .mp_subscript = cnpy_subscript,
    .mp_ass_subscript = cnpy_ass_subscript,
};

/* ---- buffer protocol ----------------------------------------------------- */

/* struct-module format of a dtype, NULL when it has none. */
static const char *cnpy_format(cn_dtype dt) {
  switch (dt) {
  case CN_BOOL:
    return "?";
  case CN_INT8:
    return "b";
  case CN_INT16:
    return "h";
  case CN_INT32:
    return "i";
  case CN_INT64:
    return "q";
  case CN_UINT8:
    return "B";
  case CN_UINT16:
    return "H";
  case CN_UINT32:
    return "I";
  case CN_UINT64:
    return "Q";
  case CN_FLOAT32:
    return "f";
  case CN_FLOAT64:
    return "d";
  case CN_COMPLEX64:
    return "Zf";
  case CN_COMPLEX128:
    return "Zd";
  default:
    return NULL;
  }
}

static int cnpy_getbuffer(PyObject *self, Py_buffer *view, int flags) {
  cn_array h = CNPY_H(self);
  int32_t ndim = 0, fl = 0, devt = 0, devid = 0;
  cn_dtype dt = CN_DTYPE_DEFAULT;
  void *data = NULL;
  int64_t size = 0, shape[CN_MAX_DIMS], strides[CN_MAX_DIMS];
  cn_status st = cn_array_device(&devt, &devid, h);
  if (st == CN_OK)
    st = cn_array_ndim(&ndim, h);
  if (st == CN_OK)
    st = cn_array_flags(&fl, h);
  if (st == CN_OK)
    st = cn_array_dtype(&dt, h);
  if (st == CN_OK)
    st = cn_array_size(&size, h);
  if (st == CN_OK)
    st = cn_array_shape(shape, CN_MAX_DIMS, h);
  if (st == CN_OK)
    st = cn_array_strides(strides, CN_MAX_DIMS, h);
  if (st == CN_OK)
    st = cn_array_data(&data, h);
  if (st != CN_OK) {
    cnpy_raise(st);
    return -1;
  }
  if (devt != CN_DEVICE_CPU && devt != CN_DEVICE_CUDA_HOST) {
    PyErr_SetString(PyExc_BufferError,
                    "device memory cannot be exported through the buffer "
                    "protocol; copy it to the host first (.get())");
    return -1;
  }
  if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE &&
      !(fl & CN_FLAG_WRITEABLE)) {
    PyErr_SetString(PyExc_BufferError, "array is not writeable");
    return -1;
  }
  int c_contig = (fl & CN_FLAG_C_CONTIGUOUS) != 0;
  int f_contig = (fl & CN_FLAG_F_CONTIGUOUS) != 0;
  if (((flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS && !c_contig) ||
      ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && !f_contig) ||
      ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS && !c_contig &&
       !f_contig) ||
      ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && !c_contig)) {
    PyErr_SetString(PyExc_BufferError, "array is not contiguous");
    return -1;
  }
  int64_t itemsize = cn_dtype_itemsize(dt);
  Py_ssize_t *block = NULL;
  if (ndim > 0) {
    block = PyMem_Malloc(sizeof(Py_ssize_t) * 2 * (size_t)ndim);
    if (!block) {
      PyErr_NoMemory();
      return -1;
    }
    for (int32_t d = 0; d < ndim; d++) {
      block[d] = (Py_ssize_t)shape[d];
      block[ndim + d] = (Py_ssize_t)(strides[d] * itemsize);
    }
  }
  view->buf = data;
  view->obj = Py_NewRef(self);
  view->len = (Py_ssize_t)(size * itemsize);
  view->readonly = !(fl & CN_FLAG_WRITEABLE);
  view->itemsize = (Py_ssize_t)itemsize;
  view->format =
      (flags & PyBUF_FORMAT) == PyBUF_FORMAT ? (char *)cnpy_format(dt) : NULL;
  view->ndim = ndim;
  view->shape = (flags & PyBUF_ND) == PyBUF_ND && block ? block : NULL;
  view->strides =
      (flags & PyBUF_STRIDES) == PyBUF_STRIDES && block ? block + ndim : NULL;
  view->suboffsets = NULL;
  view->internal = block;
  return 0;
}

static void cnpy_releasebuffer(PyObject *self, Py_buffer *view) {
  (void)self;
  PyMem_Free(view->internal);
  view->internal = NULL;
}

static PyBufferProcs cnpy_as_buffer = {
    .bf_getbuffer = cnpy_getbuffer,
    .bf_releasebuffer = cnpy_releasebuffer,
};

/* ---- attributes ------------------------------------------------------- */

static PyObject *cnpy_get_shape_like(PyObject *self, int want_strides) {
  cn_array h = CNPY_H(self);
  int32_t nd = 0;
  int64_t v[CN_MAX_DIMS];
  cn_dtype dt = CN_DTYPE_DEFAULT;
  cn_status st = cn_array_ndim(&nd, h);
  if (st == CN_OK)
    st = want_strides ? cn_array_strides(v, CN_MAX_DIMS, h)
                      : cn_array_shape(v, CN_MAX_DIMS, h);
  if (st == CN_OK && want_strides)
    st = cn_array_dtype(&dt, h);
  if (st != CN_OK) {
    cnpy_raise(st);
    return NULL;
  }
  int64_t scale = want_strides ? cn_dtype_itemsize(dt) : 1;
  PyObject *t = PyTuple_New(nd);
  if (!t)
    return NULL;
  for (int32_t d = 0; d < nd; d++) {
    PyObject *x = PyLong_FromLongLong((long long)(v[d] * scale));
    if (!x) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, d, x);
  }
  return t;
}

static PyObject *cnpy_get_shape(PyObject *self, void *c) {
  (void)c;
  return cnpy_get_shape_like(self, 0);
}
static PyObject *cnpy_get_strides(PyObject *self, void *c) {
  (void)c;
  return cnpy_get_shape_like(self, 1);
}

/* Integer attributes read through one accessor each. */
enum { CNPY_NDIM, CNPY_SIZE, CNPY_ITEMSIZE, CNPY_NBYTES, CNPY_DTYPE,
       CNPY_FLAGS, CNPY_DATA, CNPY_REFCOUNT };

static PyObject *cnpy_get_int(PyObject *self, void *which) {
  cn_array h = CNPY_H(self);
  int32_t i32 = 0;
  int64_t i64 = 0, n = 0;
  cn_dtype dt = CN_DTYPE_DEFAULT;
  void *p = NULL;
  cn_status st = CN_OK;
  switch ((int)(intptr_t)which) {
  case CNPY_NDIM:
    st = cn_array_ndim(&i32, h);
    i64 = i32;
    break;
  case CNPY_SIZE:
    st = cn_array_size(&i64, h);
    break;
  case CNPY_ITEMSIZE:
    st = cn_array_itemsize(&i64, h);
    break;
  case CNPY_NBYTES:
    st = cn_array_size(&n, h);
    if (st == CN_OK)
      st = cn_array_itemsize(&i64, h);
    i64 *= n;
    break;
  case CNPY_DTYPE:
    st = cn_array_dtype(&dt, h);
    i64 = (int64_t)dt;
    break;
  case CNPY_FLAGS:
    st = cn_array_flags(&i32, h);
    i64 = i32;
    break;
  case CNPY_DATA:
    st = cn_array_data(&p, h);
    if (st == CN_OK)
      return PyLong_FromVoidPtr(p);
    break;
  default:
    st = cn_array_refcount(&i64, h);
    break;
  }
  if (st != CN_OK) {
    cnpy_raise(st);
    return NULL;
  }
  return PyLong_FromLongLong((long long)i64);
}

static PyObject *cnpy_get_device(PyObject *self, void *c) {
  (void)c;
  int32_t t = 0, id = 0;
  cn_status st = cn_array_device(&t, &id, CNPY_H(self));
  if (st != CN_OK) {
    cnpy_raise(st);
    return NULL;
  }
  return Py_BuildValue("(ii)", (int)t, (int)id);
}

static PyObject *cnpy_get_dtype(PyObject *self, void *c) {
  (void)c;
  cn_dtype dt = CN_DTYPE_DEFAULT;
  cn_status st = cn_array_dtype(&dt, CNPY_H(self));
  if (st != CN_OK) {
    cnpy_raise(st);
    return NULL;
  }
  for (int i = 0; i < CN_NUM_DTYPES; i++)
    if (cnpy_dtype_objs[i] && cnpy_dtype_codes[i] == dt)
      return Py_NewRef(cnpy_dtype_objs[i]);
  PyErr_Format(PyExc_RuntimeError, "no dtype object for cn_dtype 0x%x "
               "(the package did not call _set_fast)", (unsigned)dt);
  return NULL;
}

/* a.T: the axes reversed (a view). */
static PyObject *cnpy_get_T(PyObject *self, void *c) {
  (void)c;
  cn_array res = NULL;
  cn_status st = cn_transpose(&res, CNPY_H(self));
  if (st != CN_OK) {
    cnpy_raise(st);
    return NULL;
  }
  return cnpy_wrap(res);
}

/* a.copy(order='C'). */
static PyObject *cnpy_method_copy(PyObject *self, PyObject *const *args,
                                  Py_ssize_t nargs, PyObject *kwnames) {
  PyObject *order = NULL;
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  if (nargs > 1 || nargs + nkw > 1 ||
      (nkw == 1 && !PyUnicode_Check(PyTuple_GET_ITEM(kwnames, 0))) ||
      (nkw == 1 &&
       PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0),
                                        "order") != 0)) {
    PyErr_SetString(PyExc_TypeError,
                    "copy() takes at most one argument, order ('C', 'F', "
                    "'A' or 'K')");
    return NULL;
  }
  if (nargs + nkw == 1)
    order = args[0];
  cn_order ord = CN_ORDER_C;
  if (order && cnpy_order_arg(order, &ord) < 0)
    return NULL;
  cn_array res = NULL;
  cn_status st = cn_copy(&res, CNPY_H(self), ord);
  if (st != CN_OK) {
    cnpy_raise(st);
    return NULL;
  }
  return cnpy_wrap(res);
}

/* a.ravel(order='C'). */
static PyObject *cnpy_method_ravel(PyObject *self, PyObject *const *args,
                                   Py_ssize_t nargs, PyObject *kwnames) {
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  if (nargs + nkw > 1 ||
      (nkw == 1 && PyUnicode_CompareWithASCIIString(
                       PyTuple_GET_ITEM(kwnames, 0), "order") != 0)) {
    PyErr_SetString(PyExc_TypeError,
                    "ravel() takes at most one argument, order");
    return NULL;
  }
  cn_order ord = CN_ORDER_C;
  if (nargs + nkw == 1 && cnpy_order_arg(args[0], &ord) < 0)
    return NULL;
  cn_array res = NULL;
  cn_status st = cn_ravel(&res, CNPY_H(self), ord);
  if (st != CN_OK) {
    cnpy_raise(st);
    return NULL;
  }
  return cnpy_wrap(res);
}

/* The package's reshape(a, shape, order, copy), for a.reshape(...,
 * copy=...) (set by _set_fast). */
static PyObject *cnpy_reshape_fallback = NULL;

/* a.reshape(*shape, order='C', copy=None): a shape tuple/list/int or the
 * extents as separate arguments. */
static PyObject *cnpy_method_reshape(PyObject *self, PyObject *const *args,
                                     Py_ssize_t nargs, PyObject *kwnames) {
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  PyObject *order = NULL, *copy = Py_None;
  for (Py_ssize_t i = 0; i < nkw; i++) {
    PyObject *k = PyTuple_GET_ITEM(kwnames, i);
    if (PyUnicode_CompareWithASCIIString(k, "order") == 0)
      order = args[nargs + i];
    else if (PyUnicode_CompareWithASCIIString(k, "copy") == 0)
      copy = args[nargs + i];
    else {
      PyErr_Format(PyExc_TypeError,
                   "reshape() got an unexpected keyword argument '%U'", k);
      return NULL;
    }
  }
  if (nargs == 0) {
    PyErr_SetString(PyExc_TypeError,
                    "reshape() missing required argument 'shape'");
    return NULL;
  }
  int32_t nd = 0;
  int64_t shape[CN_MAX_DIMS];
  PyObject *shape_obj = NULL;
  if (nargs == 1) {
    shape_obj = Py_NewRef(args[0]);
  } else {
    shape_obj = PyTuple_New(nargs);
    for (Py_ssize_t i = 0; shape_obj && i < nargs; i++)
      PyTuple_SET_ITEM(shape_obj, i, Py_NewRef(args[i]));
  }
  if (!shape_obj)
    return NULL;
  if (copy != Py_None) {
    PyObject *r = NULL;
    if (!cnpy_reshape_fallback)
      PyErr_SetString(PyExc_RuntimeError, "cunumpy: reshape fallback unset");
    else
      r = PyObject_CallFunctionObjArgs(cnpy_reshape_fallback, self,
                                       shape_obj, order ? order : Py_None,
                                       copy, NULL);
    Py_DECREF(shape_obj);
    return r;
  }
  cn_order ord = CN_ORDER_C;
  int bad = cnpy_shape_arg(shape_obj, &nd, shape) < 0 ||
            (order && cnpy_order_arg(order, &ord) < 0);
  Py_DECREF(shape_obj);
  if (bad)
    return NULL;
  cn_array res = NULL;
  cn_status st = cn_reshape(&res, CNPY_H(self), nd, shape, ord);
  if (st != CN_OK) {
    cnpy_raise(st);
    return NULL;
  }
  return cnpy_wrap(res);
}

/* One element of dtype dt at p as a Python scalar. */
static PyObject *cnpy_element_to_py(const char *p, cn_dtype dt) {
  switch (dt) {
#define CNPY_ELEM(code, ctype, make)                                           \
  case code: {                                                                 \
    ctype v;                                                                   \
    memcpy(&v, p, sizeof v);                                                   \
    return make;                                                               \
  }
    CNPY_ELEM(CN_BOOL, unsigned char, PyBool_FromLong(v != 0))
    CNPY_ELEM(CN_INT8, int8_t, PyLong_FromLong(v))
    CNPY_ELEM(CN_INT16, int16_t, PyLong_FromLong(v))
    CNPY_ELEM(CN_INT32, int32_t, PyLong_FromLong(v))
    CNPY_ELEM(CN_INT64, int64_t, PyLong_FromLongLong(v))
    CNPY_ELEM(CN_UINT8, uint8_t, PyLong_FromLong(v))
    CNPY_ELEM(CN_UINT16, uint16_t, PyLong_FromLong(v))
    CNPY_ELEM(CN_UINT32, uint32_t, PyLong_FromUnsignedLong(v))
    CNPY_ELEM(CN_UINT64, uint64_t, PyLong_FromUnsignedLongLong(v))
    CNPY_ELEM(CN_FLOAT32, float, PyFloat_FromDouble(v))
    CNPY_ELEM(CN_FLOAT64, double, PyFloat_FromDouble(v))
  case CN_COMPLEX64: {
    float v[2];
    memcpy(v, p, sizeof v);
    return PyComplex_FromDoubles(v[0], v[1]);
  }
  case CN_COMPLEX128: {
    double v[2];
    memcpy(v, p, sizeof v);
    return PyComplex_FromDoubles(v[0], v[1]);
  }
#undef CNPY_ELEM
  default:
    PyErr_Format(PyExc_TypeError, "tolist: unknown dtype 0x%x", (unsigned)dt);
    return NULL;
  }
}

/* Nested lists of the C-ordered elements at *p (advanced past them). */
static PyObject *cnpy_tolist_rec(const char **p, int32_t d, int32_t nd,
                                 const int64_t *shape, cn_dtype dt,
                                 int64_t itemsize) {
  if (d == nd) {
    PyObject *v = cnpy_element_to_py(*p, dt);
    *p += itemsize;
    return v;
  }
  PyObject *list = PyList_New((Py_ssize_t)shape[d]);
  for (int64_t i = 0; list && i < shape[d]; i++) {
    PyObject *x = cnpy_tolist_rec(p, d + 1, nd, shape, dt, itemsize);
    if (!x)
      Py_CLEAR(list);
    else
      PyList_SET_ITEM(list, (Py_ssize_t)i, x);
  }
  return list;
}

/* a.tolist(): nested Python lists of Python scalars (a scalar for 0-d). */
static PyObject *cnpy_method_tolist(PyObject *self, PyObject *unused) {
  (void)unused;
  cn_array h = CNPY_H(self);
  int32_t nd = 0;
  int64_t size = 0, shape[CN_MAX_DIMS];
  cn_dtype dt = CN_DTYPE_DEFAULT;
  cn_status st = cn_array_ndim(&nd, h);
  if (st == CN_OK)
    st = cn_array_shape(shape, CN_MAX_DIMS, h);
  if (st == CN_OK)
    st = cn_array_size(&size, h);
  if (st == CN_OK)
    st = cn_array_dtype(&dt, h);
  if (st != CN_OK) {
    cnpy_raise(st);
    return NULL;
  }
  int64_t itemsize = cn_dtype_itemsize(dt);
  char local[256];
  int64_t nbytes = size * itemsize;
  char *buf = nbytes <= (int64_t)sizeof local ? local
                                               : PyMem_Malloc((size_t)nbytes);
  if (!buf)
    return PyErr_NoMemory();
  st = cn_copy_to_buffer(buf, nbytes, h, CN_ORDER_C);
  PyObject *r = NULL;
  if (st != CN_OK) {
    cnpy_raise(st);
  } else {
    const char *p = buf;
    r = cnpy_tolist_rec(&p, 0, nd, shape, dt, itemsize);
  }
  if (buf != local)
    PyMem_Free(buf);
  return r;
}

static PyMethodDef cnpy_array_methods[] = {
    {"tolist", cnpy_method_tolist, METH_NOARGS,
     "tolist($self, /)\n--\n\nThe elements as nested lists of Python "
     "scalars (a scalar for a 0-d array)."},
    {"ravel", (PyCFunction)(void (*)(void))cnpy_method_ravel,
     METH_FASTCALL | METH_KEYWORDS,
     "ravel($self, /, order='C')\n--\n\nThe elements as a 1-d array (a "
     "view when possible)."},
    {"reshape", (PyCFunction)(void (*)(void))cnpy_method_reshape,
     METH_FASTCALL | METH_KEYWORDS,
     "reshape($self, /, *shape, order='C', copy=None)\n--\n\nThe array "
     "with a new shape (a view when possible; copy=True always copies, "
     "copy=False never)."},
    {"copy", (PyCFunction)(void (*)(void))cnpy_method_copy,
     METH_FASTCALL | METH_KEYWORDS,
     "copy($self, /, order='C')\n--\n\nA copy of the array in the given "
     "memory order."},
    {NULL, NULL, 0, NULL}};

#define CNPY_INT_ATTR(name, which, doc)                                        \
  {name, cnpy_get_int, NULL, doc, (void *)(intptr_t)(which)}
static PyGetSetDef cnpy_getset[] = {
    {"shape", cnpy_get_shape, NULL, "Extents, a tuple of ints.", NULL},
    {"strides", cnpy_get_strides, NULL, "Strides in bytes (NumPy's).", NULL},
    {"dtype", cnpy_get_dtype, NULL, "Element type (a numpy.dtype).", NULL},
    {"T", cnpy_get_T, NULL, "View with the axes reversed.", NULL},
    CNPY_INT_ATTR("ndim", CNPY_NDIM, "Number of dimensions."),
    CNPY_INT_ATTR("size", CNPY_SIZE, "Number of elements."),
    CNPY_INT_ATTR("itemsize", CNPY_ITEMSIZE, "Bytes per element."),
    CNPY_INT_ATTR("nbytes", CNPY_NBYTES, "size * itemsize."),
    CNPY_INT_ATTR("_dtype_code", CNPY_DTYPE, "cn_dtype value."),
    CNPY_INT_ATTR("_flags", CNPY_FLAGS, "CN_FLAG_* bits."),
    CNPY_INT_ATTR("_data_ptr", CNPY_DATA, "Address of element 0."),
    CNPY_INT_ATTR("_refcount", CNPY_REFCOUNT, "Handle reference count."),
    {"_device", cnpy_get_device, NULL, "(cn_device_type, device id).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};
#undef CNPY_INT_ATTR

static PyTypeObject cnpy_array_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cunumpy._cnlib.Handle",
    .tp_basicsize = sizeof(cnpy_array),
    .tp_dealloc = cnpy_array_dealloc,
    .tp_as_number = &cnpy_as_number,
    .tp_as_mapping = &cnpy_as_mapping,
    .tp_as_buffer = &cnpy_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Owner of one cn_array reference (base of cunumpy.ndarray).",
    .tp_richcompare = cnpy_richcompare,
    .tp_getset = cnpy_getset,
    .tp_methods = cnpy_array_methods,
};

/* ---- ufunc objects ------------------------------------------------------ */

/* The C function of every op of core/ops.def: cn_<name>(out, x1[, x2[, x3]],
 * dst). */
typedef void (*cnpy_any_fn)(void);
typedef cn_status (*cnpy_op1_fn)(cn_array *, cn_array, cn_array);
typedef cn_status (*cnpy_op3_fn)(cn_array *, cn_array, cn_array, cn_array,
                                 cn_array);
static const struct {
  const char *name;
  int nin;
  cnpy_any_fn fn;
} cnpy_op_fns[] = {
#define CN_OP(name, nin, loops, out, bools, ints, weak, expr, doc) \
  {#name, nin, (cnpy_any_fn)cn_##name},
#include "ops.def"
#undef CN_OP
};

/* Base of cunumpy.ufunc: calling it with exactly nin positional arguments
 * and no keywords calls the op's C function directly (operands converted as
 * the operators convert theirs); anything else goes to the Python
 * subclass's _call method. */
typedef struct {
  PyObject_HEAD PyObject *fn;
  Py_ssize_t nin;
  cnpy_any_fn cfn;
} cnpy_ufunc;

static PyObject *cnpy_ufunc_direct(cnpy_ufunc *u, PyObject *args) {
  cnpy_tmp t[3] = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
  cn_array h[3] = {NULL, NULL, NULL}, res = NULL;
  PyObject *ret = NULL;
  Py_ssize_t n = u->nin;
  for (Py_ssize_t i = 0; i < n; i++)
    if (cnpy_operand_(PyTuple_GET_ITEM(args, i), &h[i], &t[i], 0, 1) < 0)
      goto done;
  cn_status st;
  if (n == 1)
    st = ((cnpy_op1_fn)u->cfn)(&res, h[0], NULL);
  else if (n == 2)
    st = ((cnpy_binary_fn)u->cfn)(&res, h[0], h[1], NULL);
  else
    st = ((cnpy_op3_fn)u->cfn)(&res, h[0], h[1], h[2], NULL);
  if (st != CN_OK)
    cnpy_raise(st);
  else
    ret = cnpy_wrap(res);
done:
  for (int i = 0; i < 3; i++)
    cnpy_tmp_free(&t[i]);
  return ret;
}

static PyObject *cnpy_ufunc_call(PyObject *self, PyObject *args,
                                 PyObject *kw) {
  cnpy_ufunc *u = (cnpy_ufunc *)self;
  Py_ssize_t n = PyTuple_GET_SIZE(args);
  if ((!kw || PyDict_GET_SIZE(kw) == 0) && n == u->nin) {
    if (u->cfn)
      return cnpy_ufunc_direct(u, args);
    if (u->fn) {
      PyObject *full = PyTuple_New(n + 1);
      if (!full)
        return NULL;
      for (Py_ssize_t i = 0; i < n; i++)
        PyTuple_SET_ITEM(full, i, Py_NewRef(PyTuple_GET_ITEM(args, i)));
      PyTuple_SET_ITEM(full, n, Py_NewRef(Py_None));
      PyObject *r = PyObject_Call(u->fn, full, NULL);
      Py_DECREF(full);
      return r;
    }
  }
  PyObject *slow = PyObject_GetAttrString(self, "_call");
  if (!slow)
    return NULL;
  PyObject *r = PyObject_Call(slow, args, kw);
  Py_DECREF(slow);
  return r;
}

/* _bind(fn, nin[, name]): fn is the op's wrapper; name, when it is an op of
 * the table with nin inputs, selects the direct C call. */
static PyObject *cnpy_ufunc_bind(PyObject *self, PyObject *args) {
  PyObject *fn = NULL;
  Py_ssize_t nin = 0;
  const char *name = NULL;
  if (!PyArg_ParseTuple(args, "On|s", &fn, &nin, &name))
    return NULL;
  if (!PyCallable_Check(fn) || nin < 1) {
    PyErr_SetString(PyExc_TypeError, "_bind(fn, nin): fn must be callable "
                                     "and nin >= 1");
    return NULL;
  }
  cnpy_ufunc *u = (cnpy_ufunc *)self;
  Py_XSETREF(u->fn, Py_NewRef(fn));
  u->nin = nin;
  u->cfn = NULL;
  for (size_t i = 0; name && i < sizeof cnpy_op_fns / sizeof cnpy_op_fns[0];
       i++)
    if (strcmp(cnpy_op_fns[i].name, name) == 0 && cnpy_op_fns[i].nin == nin &&
        nin <= 3)
      u->cfn = cnpy_op_fns[i].fn;
  Py_RETURN_NONE;
}

static void cnpy_ufunc_dealloc(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  if (PyType_IS_GC(tp))
    PyObject_GC_UnTrack(self);
  Py_CLEAR(((cnpy_ufunc *)self)->fn);
  tp->tp_free(self);
}

static PyMethodDef cnpy_ufunc_methods[] = {
    {"_bind", cnpy_ufunc_bind, METH_VARARGS,
     "Sets the C wrapper and the number of inputs."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject cnpy_ufunc_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cunumpy._cnlib.UfuncBase",
    .tp_basicsize = sizeof(cnpy_ufunc),
    .tp_dealloc = cnpy_ufunc_dealloc,
    .tp_call = cnpy_ufunc_call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Fast call path of cunumpy.ufunc.",
    .tp_methods = cnpy_ufunc_methods,
    .tp_new = PyType_GenericNew,
};

/* ---- conversions used by the typemaps ------------------------------------ */

static int cnpy_dtype_arg(PyObject *o, cn_dtype *out) {
  if (o == Py_None) {
    *out = CN_DTYPE_DEFAULT;
    return 0;
  }
  if (PyLong_CheckExact(o)) {
    *out = (cn_dtype)PyLong_AsLong(o);
    return PyErr_Occurred() ? -1 : 0;
  }
  PyObject *code = NULL;
  if (cnpy_dtype_cache) {
    code = PyDict_GetItemWithError(cnpy_dtype_cache, o);
    if (!code && PyErr_Occurred())
      PyErr_Clear(); /* unhashable: ask the hook */
    Py_XINCREF(code);
  }
  if (!code) {
    if (!cnpy_dtype_hook) {
      PyErr_Format(PyExc_TypeError, "data type %R not understood", o);
      return -1;
    }
    code = PyObject_CallOneArg(cnpy_dtype_hook, o);
    if (!code)
      return -1;
  }
  long v = PyLong_AsLong(code);
  Py_DECREF(code);
  if (v == -1 && PyErr_Occurred())
    return -1;
  *out = (cn_dtype)v;
  return 0;
}

static int cnpy_order_arg(PyObject *o, cn_order *out) {
  if (o == Py_None) {
    *out = CN_ORDER_K;
    return 0;
  }
  if (PyLong_Check(o)) {
    *out = (cn_order)PyLong_AsLong(o);
    return PyErr_Occurred() ? -1 : 0;
  }
  const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
  if (s && s[0] && !s[1]) {
    switch (s[0]) {
    case 'C': case 'c': *out = CN_ORDER_C; return 0;
    case 'F': case 'f': *out = CN_ORDER_F; return 0;
    case 'A': case 'a': *out = CN_ORDER_A; return 0;
    case 'K': case 'k': *out = CN_ORDER_K; return 0;
    }
  }
  PyErr_Clear();
  PyErr_Format(PyExc_ValueError,
               "order must be one of 'C', 'F', 'A', or 'K' (got %R)", o);
  return -1;
}

static int cnpy_casting_arg(PyObject *o, cn_casting *out) {
  static const char *names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
  if (PyLong_Check(o)) {
    *out = (cn_casting)PyLong_AsLong(o);
    return PyErr_Occurred() ? -1 : 0;
  }
  const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
  for (int i = 0; s && i < 5; i++)
    if (strcmp(s, names[i]) == 0) {
      *out = (cn_casting)i;
      return 0;
    }
  PyErr_Clear();
  PyErr_Format(PyExc_ValueError,
               "casting must be one of 'no', 'equiv', 'safe', 'same_kind', "
               "or 'unsafe' (got %R)",
               o);
  return -1;
}

/* A shape: an int or a sequence of ints (at most CN_MAX_DIMS). */
static int cnpy_shape_arg(PyObject *o, int32_t *ndim, int64_t *shape) {
  if (PyLong_Check(o) || (PyIndex_Check(o) && !PySequence_Check(o))) {
    Py_ssize_t v = PyNumber_AsSsize_t(o, PyExc_OverflowError);
    if (v == -1 && PyErr_Occurred())
      return -1;
    *ndim = 1;
    shape[0] = (int64_t)v;
    return 0;
  }
  PyObject *seq = PySequence_Fast(o, "shape must be an int or a sequence of "
                                     "ints");
  if (!seq)
    return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (n > CN_MAX_DIMS) {
    Py_DECREF(seq);
    PyErr_Format(PyExc_ValueError,
                 "maximum supported dimension for an ndarray is currently "
                 "%d, found %zd",
                 CN_MAX_DIMS, n);
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *x = PySequence_Fast_GET_ITEM(seq, i);
    if (PyFloat_Check(x)) {
      Py_DECREF(seq);
      PyErr_SetString(PyExc_TypeError,
                      "'float' object cannot be interpreted as an integer");
      return -1;
    }
    Py_ssize_t v = PyNumber_AsSsize_t(x, PyExc_OverflowError);
    if (v == -1 && PyErr_Occurred()) {
      Py_DECREF(seq);
      return -1;
    }
    shape[i] = (int64_t)v;
  }
  *ndim = (int32_t)n;
  Py_DECREF(seq);
  return 0;
}

/* Axes: None (all: naxes CN_ALL_AXES), an int, or a sequence of ints. */
static int cnpy_axes_arg(PyObject *o, int32_t *naxes, int32_t *axes,
                         const int32_t **axes_ptr) {
  if (o == Py_None) {
    *naxes = CN_ALL_AXES;
    *axes_ptr = NULL;
    return 0;
  }
  int64_t tmp[CN_MAX_DIMS];
  int32_t n = 0;
  if (cnpy_shape_arg(o, &n, tmp) < 0)
    return -1;
  for (int32_t i = 0; i < n; i++) {
    if (tmp[i] < INT32_MIN || tmp[i] > INT32_MAX) {
      PyErr_Format(PyExc_IndexError, "axis %lld is out of bounds",
                   (long long)tmp[i]);
      return -1;
    }
    axes[i] = (int32_t)tmp[i];
  }
  *naxes = n;
  *axes_ptr = axes;
  return 0;
}

/* A sequence of array operands, converted like binary-op operands. */
typedef struct {
  int32_t n;
  cn_array h[CN_MAX_DIMS * 2];
  cnpy_tmp tmp[CN_MAX_DIMS * 2];
} cnpy_handle_list;

static void cnpy_handle_list_free(cnpy_handle_list *l) {
  for (int32_t i = 0; i < l->n; i++)
    cnpy_tmp_free(&l->tmp[i]);
  l->n = 0;
}

static int cnpy_handle_list_arg(PyObject *o, cnpy_handle_list *l) {
  l->n = 0;
  PyObject *seq = PySequence_Fast(o, "expected a sequence of arrays");
  if (!seq)
    return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (n > (Py_ssize_t)(sizeof l->h / sizeof l->h[0])) {
    Py_DECREF(seq);
    PyErr_Format(PyExc_ValueError, "at most %d arrays are supported here",
                 (int)(sizeof l->h / sizeof l->h[0]));
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    l->tmp[i].h = NULL;
    l->tmp[i].obj = NULL;
    l->n = (int32_t)(i + 1);
    if (cnpy_operand(PySequence_Fast_GET_ITEM(seq, i), &l->h[i], &l->tmp[i],
                     0) < 0) {
      Py_DECREF(seq);
      return -1;
    }
  }
  Py_DECREF(seq);
  return 0;
}

/* Appends an output to a wrapper's result: the first output replaces None,
 * later ones make (or extend) a tuple. Outputs that are tuples themselves
 * are only used by functions with a single output. */
static PyObject *cnpy_append(PyObject *result, PyObject *obj) {
  if (!obj) {
    Py_XDECREF(result);
    return NULL;
  }
  if (!result || result == Py_None) {
    Py_XDECREF(result);
    return obj;
  }
  Py_ssize_t n = PyTuple_CheckExact(result) ? PyTuple_GET_SIZE(result) : 0;
  PyObject *t = PyTuple_New(n ? n + 1 : 2);
  if (!t) {
    Py_DECREF(obj);
    Py_DECREF(result);
    return NULL;
  }
  if (n) {
    for (Py_ssize_t i = 0; i < n; i++)
      PyTuple_SET_ITEM(t, i, Py_NewRef(PyTuple_GET_ITEM(result, i)));
    PyTuple_SET_ITEM(t, n, obj);
    Py_DECREF(result);
  } else {
    PyTuple_SET_ITEM(t, 0, result);
    PyTuple_SET_ITEM(t, 1, obj);
  }
  return t;
}
%}
