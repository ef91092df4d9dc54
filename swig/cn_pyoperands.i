/* cn_pyoperands.i: between Python objects and engine handles.
 *
 * Wrapping a new cn_array reference as a Handle (or the package's ndarray
 * subclass) and releasing it with its object; Python numbers to and from
 * cn_scalar; and operands: an array as is, a Python scalar as a weak (NEP 50)
 * scalar array, anything else through the package's coerce hook. The
 * operator slots, ufunc calls and typemaps all convert their inputs here. */

%{
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
%}
