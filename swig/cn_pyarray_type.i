/* cn_pyarray_type.i: the Handle type object and its attributes and methods.
 *
 * The attributes NumPy code reads most (shape, strides, dtype, T, ndim,
 * size, ...) and the methods tolist/ravel/reshape/copy are C here, so their
 * common forms run no Python code; the type object at the end gathers them
 * with the number (cn_pynumber.i), mapping (cn_pyindex.i) and buffer
 * (cn_pybuffer.i) slots. The module's %init (cunumpy.i) readies it as
 * _cnlib.Handle. */

%{
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
  cn_array res = NULL, h = CNPY_H(self);
  cn_status st;
  CNPY_CALL_NOGIL(cnpy_worth_nogil(&h, 1), st = cn_copy(&res, h, ord));
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
  case CN_FLOAT16: {
    double v = PyFloat_Unpack2(p, 1);
    if (v == -1.0 && PyErr_Occurred())
      return NULL;
    return PyFloat_FromDouble(v);
  }
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
  CNPY_CALL_NOGIL(size >= CNPY_NOGIL_MIN_ELEMS,
                  st = cn_copy_to_buffer(buf, nbytes, h, CN_ORDER_C));
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
%}
