/* cn_kernel_raw.i: typemaps of cunumpy/kernel.h's raw section (raw CUDA
 * modules, kernel signatures, struct layouts). Handles travel as Python
 * ints (bindings/python/cunumpy/_raw_kernel.py wraps and releases them);
 * images and declarations come back as bytes and str; a launch's
 * arguments are one list of arrays (device pointers) and bytes (values). */

CNPY_OPAQUE(cn_cuda_module)
CNPY_OPAQUE(cn_cuda_function)
CNPY_OPAQUE(cn_kernel_sig)
CNPY_OPAQUE(cn_struct_layout)

/* Lowered C++ names can be long. */
%typemap(in, numinputs=0) (char *lowered, int64_t lowered_cap)
    (char buf[4096]) {
  buf[0] = 0;
  $1 = buf;
  $2 = sizeof buf;
}
%typemap(argout) (char *lowered, int64_t lowered_cap) {
  $result = cnpy_append($result, PyUnicode_FromString($1));
  if (!$result)
    SWIG_fail;
}

/* (x, y, z) launch geometry: 1 to 3 positive ints, missing ones are 1. */
%typemap(in) const int64_t *grid (int64_t tmp[3]),
             const int64_t *block (int64_t tmp[3]) {
  tmp[0] = tmp[1] = tmp[2] = 1;
  PyObject *seq = PySequence_Fast($input, "launch geometry must be a tuple "
                                          "of 1 to 3 ints");
  if (seq == NULL)
    SWIG_fail;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (n < 1 || n > 3) {
    Py_DECREF(seq);
    PyErr_Format(PyExc_ValueError, "launch geometry must have 1 to 3 "
                 "entries, not %zd", n);
    SWIG_fail;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
    if (v == -1 && PyErr_Occurred()) {
      Py_DECREF(seq);
      SWIG_fail;
    }
    tmp[i] = v;
  }
  Py_DECREF(seq);
  $1 = tmp;
}

/* Launch arguments: a sequence whose items are cunumpy arrays (passed as
 * their device pointers) or bytes-like values (the argument's bytes). */
%typemap(in) (int32_t nargs, const cn_array *arrays, const void *const *values,
              const int64_t *sizes)
    (PyObject *seq = NULL, cn_array *hs = NULL, const void **vs = NULL,
     int64_t *ss = NULL, Py_buffer *bufs = NULL, Py_ssize_t nbufs = 0) {
  seq = PySequence_Fast($input, "kernel arguments must be a sequence");
  if (seq == NULL)
    SWIG_fail;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (n > 4096) {
    PyErr_SetString(PyExc_ValueError, "more than 4096 kernel arguments");
    SWIG_fail;
  }
  hs = calloc((size_t)(n ? n : 1), sizeof *hs);
  vs = calloc((size_t)(n ? n : 1), sizeof *vs);
  ss = calloc((size_t)(n ? n : 1), sizeof *ss);
  bufs = calloc((size_t)(n ? n : 1), sizeof *bufs);
  if (!hs || !vs || !ss || !bufs) {
    PyErr_NoMemory();
    SWIG_fail;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *o = PySequence_Fast_GET_ITEM(seq, i);
    if (CNPY_CHECK(o)) {
      hs[i] = CNPY_H(o);
    } else if (PyObject_GetBuffer(o, &bufs[nbufs], PyBUF_SIMPLE) == 0) {
      vs[i] = bufs[nbufs].buf;
      ss[i] = (int64_t)bufs[nbufs].len;
      nbufs++;
    } else {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError, "kernel argument %zd must be a cunumpy "
                   "array or bytes, not '%.100s'", i, Py_TYPE(o)->tp_name);
      SWIG_fail;
    }
  }
  $1 = (int32_t)n;
  $2 = hs;
  $3 = ($3_ltype)vs;
  $4 = ss;
}
%typemap(freearg) (int32_t nargs, const cn_array *arrays,
                   const void *const *values, const int64_t *sizes) {
  for (Py_ssize_t i = 0; bufs$argnum != NULL && i < nbufs$argnum; i++)
    PyBuffer_Release(&bufs$argnum[i]);
  free(bufs$argnum);
  free(hs$argnum);
  free((void *)vs$argnum);
  free(ss$argnum);
  Py_XDECREF(seq$argnum);
}

/* C-only forms (caller-owned buffers, parallel arrays); the package uses
 * the per-argument functions and the helpers below. */
%ignore cn_cuda_module_image;
%ignore cn_struct_layout_declaration;
%ignore cn_struct_layout_pack;
%ignore cn_kernel_sig_check_call;
%ignore cn_cuda_module_retain;
%ignore cn_cuda_function_retain;
%ignore cn_kernel_sig_retain;
%ignore cn_struct_layout_retain;

%inline %{
/* The module's image as bytes. */
static PyObject *cnpy_cuda_module_image(PyObject *handle) {
  cn_cuda_module m = (cn_cuda_module)PyLong_AsVoidPtr(handle);
  if (PyErr_Occurred())
    return NULL;
  int64_t n = 0;
  cn_status st = cn_cuda_module_image_size(&n, m);
  if (st != CN_OK) {
    cnpy_raise(st);
    return NULL;
  }
  PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
  if (b == NULL)
    return NULL;
  st = cn_cuda_module_image(PyBytes_AS_STRING(b), n, m);
  if (st != CN_OK) {
    Py_DECREF(b);
    cnpy_raise(st);
    return NULL;
  }
  return b;
}

/* The layout's C declaration as str. */
static PyObject *cnpy_struct_layout_declaration(PyObject *handle) {
  cn_struct_layout l = (cn_struct_layout)PyLong_AsVoidPtr(handle);
  if (PyErr_Occurred())
    return NULL;
  int64_t n = 0;
  cn_status st = cn_struct_layout_declaration(NULL, 0, &n, l);
  if (st != CN_OK) {
    cnpy_raise(st);
    return NULL;
  }
  char *buf = malloc((size_t)n + 1);
  if (buf == NULL)
    return PyErr_NoMemory();
  st = cn_struct_layout_declaration(buf, n + 1, &n, l);
  PyObject *r = st == CN_OK ? PyUnicode_FromString(buf) : NULL;
  free(buf);
  if (st != CN_OK)
    cnpy_raise(st);
  return r;
}
%}
