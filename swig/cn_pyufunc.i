/* cn_pyufunc.i: the C base of cunumpy.ufunc (_cnlib.UfuncBase).
 *
 * A ufunc called with just its inputs and no keywords calls the op's C
 * function directly (looked up by name in the op table of core/ops.def), or
 * its Python wrapper when the op has no C entry there; every other call goes
 * to the Python subclass's _call. */

%{
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
    CNPY_CALL_NOGIL(cnpy_worth_nogil(h, 1),
                    st = ((cnpy_op1_fn)u->cfn)(&res, h[0], NULL));
  else if (n == 2)
    CNPY_CALL_NOGIL(cnpy_worth_nogil(h, 2),
                    st = ((cnpy_binary_fn)u->cfn)(&res, h[0], h[1], NULL));
  else
    CNPY_CALL_NOGIL(
        cnpy_worth_nogil(h, 3),
        st = ((cnpy_op3_fn)u->cfn)(&res, h[0], h[1], h[2], NULL));
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
    if (u->cfn && n == 2 &&
        (u->cfn == (cnpy_any_fn)cn_less ||
         u->cfn == (cnpy_any_fn)cn_less_equal ||
         u->cfn == (cnpy_any_fn)cn_equal ||
         u->cfn == (cnpy_any_fn)cn_not_equal ||
         u->cfn == (cnpy_any_fn)cn_greater ||
         u->cfn == (cnpy_any_fn)cn_greater_equal))
      return cnpy_compare((cnpy_binary_fn)u->cfn, PyTuple_GET_ITEM(args, 0),
                          PyTuple_GET_ITEM(args, 1));
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
%}
