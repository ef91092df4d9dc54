/* cn_pynumber.i: the number protocol of Handle.
 *
 * Arithmetic, bitwise and in-place operators and the rich comparisons call
 * the op's C function (cn_add, cn_less, ...) on the converted operands
 * (NotImplemented when an operand cannot become an array, so Python tries
 * the other one); int(),
 * float(), bool() and operator.index() of one-element arrays follow NumPy's
 * rules and errors. Ends with the PyNumberMethods table of the type. */

%{
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
  cn_array hs[2] = {ha, hb};
  cn_status st;
  CNPY_CALL_NOGIL(cnpy_worth_nogil(hs, 2),
                  st = fn(&res, ha, hb, inplace ? ha : NULL));
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
  cn_array res = NULL, h = CNPY_H(a);
  cn_status st;
  CNPY_CALL_NOGIL(cnpy_worth_nogil(&h, 1), st = fn(&res, h, NULL));
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

/* NumPy compares integer arrays with Python ints beyond every integer dtype
 * (>= 2**64 or < -2**63) by value. Against an integer array such an int
 * stands in as the infinity of its sign: the comparison is then exact, as
 * every element is finite and smaller in magnitude; against a float array
 * as its float value. Returns a new reference
 * to that float, or NULL (exception set only on failure) when o is not
 * such an int or other is not an integer array. */
static PyObject *cnpy_compare_bound(PyObject *o, PyObject *other) {
  if (!PyLong_CheckExact(o) || !CNPY_CHECK(other))
    return NULL;
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (v == -1 && PyErr_Occurred())
    return NULL;
  if (overflow == 0)
    return NULL;
  if (overflow > 0) {
    (void)PyLong_AsUnsignedLongLong(o);
    if (!PyErr_Occurred())
      return NULL;
    if (!PyErr_ExceptionMatches(PyExc_OverflowError))
      return NULL;
    PyErr_Clear();
  }
  cn_dtype dt;
  cn_dtype_kind k;
  if (cn_array_dtype(&dt, CNPY_H(other)) != CN_OK ||
      cn_dtype_get_kind(&k, dt) != CN_OK) {
    cn_clear_error();
    return NULL;
  }
  if (k == CN_KIND_FLOAT || k == CN_KIND_COMPLEX) {
    /* as NumPy: the int's float value (OverflowError beyond float64) */
    double d = PyLong_AsDouble(o);
    return d == -1.0 && PyErr_Occurred() ? NULL : PyFloat_FromDouble(d);
  }
  if (k != CN_KIND_INT && k != CN_KIND_UINT)
    return NULL;
  return PyFloat_FromDouble(overflow > 0 ? HUGE_VAL : -HUGE_VAL);
}

/* a op b for a comparison op, with cnpy_compare_bound's substitution. */
static PyObject *cnpy_compare(cnpy_binary_fn fn, PyObject *a, PyObject *b) {
  PyObject *sa = cnpy_compare_bound(a, b);
  if (!sa && PyErr_Occurred())
    return NULL;
  PyObject *sb = sa ? NULL : cnpy_compare_bound(b, a);
  if (!sb && PyErr_Occurred()) {
    Py_XDECREF(sa);
    return NULL;
  }
  PyObject *r = cnpy_binary(fn, sa ? sa : a, sb ? sb : b, 0);
  Py_XDECREF(sa);
  Py_XDECREF(sb);
  return r;
}

static PyObject *cnpy_richcompare(PyObject *a, PyObject *b, int op) {
  static const cnpy_binary_fn fns[] = {cn_less,      cn_less_equal,
                                       cn_equal,     cn_not_equal,
                                       cn_greater,   cn_greater_equal};
  if (op < 0 || op > 5)
    Py_RETURN_NOTIMPLEMENTED;
  return cnpy_compare(fns[op], a, b);
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
%}
