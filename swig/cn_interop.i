/* cn_interop.i: functions of the low-level module written by hand because
 * they speak Python protocols: the package hooks, DLPack capsules, buffer
 * protocol import (zero-copy wrap of NumPy and other exporters), and the op
 * table read from core/ops.def at compile time. */

%{
#if PY_VERSION_HEX >= 0x030D0000
#define CNPY_FINALIZING() Py_IsFinalizing()
#else
#define CNPY_FINALIZING() _Py_IsFinalizing()
#endif

/* ---- DLPack capsules ------------------------------------------------------ */

/* A capsule nobody consumed still owns its tensor. */
static void cnpy_dlpack_capsule_free(PyObject *cap) {
  if (PyCapsule_IsValid(cap, "dltensor_versioned")) {
    DLManagedTensorVersioned *t =
        (DLManagedTensorVersioned *)PyCapsule_GetPointer(cap,
                                                         "dltensor_versioned");
    if (t && t->deleter)
      t->deleter(t);
  }
}

static void cnpy_dlpack_legacy_capsule_free(PyObject *cap) {
  if (PyCapsule_IsValid(cap, "dltensor")) {
    DLManagedTensor *t = (DLManagedTensor *)PyCapsule_GetPointer(cap,
                                                                 "dltensor");
    if (t && t->deleter)
      t->deleter(t);
  }
}

/* ---- foreign pointers ---------------------------------------------------- */

/* A tensor over foreign memory whose manager_ctx is a strong reference to
 * the Python object that keeps the memory alive (or NULL); shape and
 * strides live in the same block. */
typedef struct cnpy_foreign_tensor {
  DLManagedTensorVersioned t;
  int64_t shape[CN_MAX_DIMS], strides[CN_MAX_DIMS];
} cnpy_foreign_tensor;

static void cnpy_foreign_deleter(DLManagedTensorVersioned *t) {
  PyObject *owner = (PyObject *)t->manager_ctx;
  if (owner != NULL && Py_IsInitialized() && !CNPY_FINALIZING()) {
    PyGILState_STATE g = PyGILState_Ensure();
    Py_DECREF(owner);
    PyGILState_Release(g);
  }
  PyMem_RawFree(t);
}

/* Fills v[0..n) from a sequence of ints; -1 with an exception otherwise. */
static int cnpy_int64_seq(PyObject *o, int32_t *n, int64_t *v,
                          const char *what) {
  PyObject *seq = PySequence_Fast(o, what);
  if (!seq)
    return -1;
  Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
  if (k > CN_MAX_DIMS) {
    Py_DECREF(seq);
    PyErr_Format(PyExc_ValueError, "%s has %zd entries, more than %d", what,
                 k, CN_MAX_DIMS);
    return -1;
  }
  for (Py_ssize_t i = 0; i < k; i++) {
    v[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
    if (v[i] == -1 && PyErr_Occurred()) {
      Py_DECREF(seq);
      return -1;
    }
  }
  Py_DECREF(seq);
  *n = (int32_t)k;
  return 0;
}
%}

%{
/* ---- buffer protocol import -------------------------------------------- */

/* The release callback of wrapped Python memory: drops the Py_buffer (and so
 * the exporter's reference) under the GIL. After interpreter shutdown the
 * exporter is gone with the interpreter; touching it would crash, so the
 * small Py_buffer block is left behind instead. */
static void cnpy_buffer_release(void *ctx) {
  Py_buffer *view = (Py_buffer *)ctx;
  if (!Py_IsInitialized() || CNPY_FINALIZING())
    return;
  PyGILState_STATE g = PyGILState_Ensure();
  PyBuffer_Release(view);
  PyGILState_Release(g);
  PyMem_RawFree(view);
}

/* dtype of a struct-module format with the exporter's itemsize; -1 when the
 * format has no cunumpy dtype (big-endian, records, ...). */
static int cnpy_dtype_from_format(const char *fmt, Py_ssize_t itemsize,
                                  cn_dtype *dt) {
  if (!fmt)
    fmt = "B";
  if (*fmt == '@' || *fmt == '=' || *fmt == '<')
    fmt++;
  if (fmt[0] == 'Z' && fmt[1] && !fmt[2]) {
    if (fmt[1] == 'f' && itemsize == 8) {
      *dt = CN_COMPLEX64;
      return 0;
    }
    if (fmt[1] == 'd' && itemsize == 16) {
      *dt = CN_COMPLEX128;
      return 0;
    }
    return -1;
  }
  if (!fmt[0] || fmt[1])
    return -1;
  static const cn_dtype ints[] = {CN_INT8, CN_INT16, 0, CN_INT32,
                                  0,       0,        0, CN_INT64};
  static const cn_dtype uints[] = {CN_UINT8, CN_UINT16, 0, CN_UINT32,
                                   0,        0,         0, CN_UINT64};
  if (itemsize < 1 || itemsize > 8)
    return -1;
  switch (fmt[0]) {
  case '?':
    if (itemsize != 1)
      return -1;
    *dt = CN_BOOL;
    return 0;
  case 'b': case 'h': case 'i': case 'l': case 'q': case 'n':
    *dt = ints[itemsize - 1];
    return *dt ? 0 : -1;
  case 'B': case 'H': case 'I': case 'L': case 'Q': case 'N':
    *dt = uints[itemsize - 1];
    return *dt ? 0 : -1;
  case 'e':
    if (itemsize != 2)
      return -1;
    *dt = CN_FLOAT16;
    return 0;
  case 'f':
    if (itemsize != 4)
      return -1;
    *dt = CN_FLOAT32;
    return 0;
  case 'd':
    if (itemsize != 8)
      return -1;
    *dt = CN_FLOAT64;
    return 0;
  default:
    return -1;
  }
}
%}

%inline %{
/* Installs the package's hooks (see cn_pyarray.i). */
static PyObject *_set_hooks(PyObject *result_type, PyObject *coerce,
                            PyObject *dtype_hook, PyObject *dtype_cache,
                            PyObject *getitem, PyObject *setitem) {
  if (!PyType_Check(result_type) ||
      !PyType_IsSubtype((PyTypeObject *)result_type, &cnpy_array_type)) {
    PyErr_SetString(PyExc_TypeError, "result type must subclass Handle");
    return NULL;
  }
  if (!PyDict_Check(dtype_cache)) {
    PyErr_SetString(PyExc_TypeError, "dtype cache must be a dict");
    return NULL;
  }
  Py_XSETREF(cnpy_result_type, (PyTypeObject *)Py_NewRef(result_type));
  Py_XSETREF(cnpy_coerce_hook, Py_NewRef(coerce));
  Py_XSETREF(cnpy_dtype_hook, Py_NewRef(dtype_hook));
  Py_XSETREF(cnpy_dtype_cache, Py_NewRef(dtype_cache));
  Py_XSETREF(cnpy_getitem_hook, Py_NewRef(getitem));
  Py_XSETREF(cnpy_setitem_hook, Py_NewRef(setitem));
  Py_RETURN_NONE;
}

/* DLPack capsule of an array: versioned ("dltensor_versioned") or legacy
 * ("dltensor"). */
static PyObject *_to_dlpack(PyObject *arr, int versioned) {
  if (!CNPY_CHECK(arr)) {
    PyErr_SetString(PyExc_TypeError, "expected a cunumpy array");
    return NULL;
  }
  cn_status st;
  PyObject *cap = NULL;
  if (versioned) {
    DLManagedTensorVersioned *t = NULL;
    st = cn_to_dlpack(&t, CNPY_H(arr));
    if (st == CN_OK) {
      cap = PyCapsule_New(t, "dltensor_versioned", cnpy_dlpack_capsule_free);
      if (!cap)
        t->deleter(t);
    }
  } else {
    DLManagedTensor *t = NULL;
    st = cn_to_dlpack_legacy(&t, CNPY_H(arr));
    if (st == CN_OK) {
      cap = PyCapsule_New(t, "dltensor", cnpy_dlpack_legacy_capsule_free);
      if (!cap)
        t->deleter(t);
    }
  }
  if (st != CN_OK)
    cnpy_raise(st);
  return cap;
}

/* Array viewing the tensor of a DLPack capsule. The capsule is marked used
 * before the import, which consumes the tensor whatever happens. */
static PyObject *_from_dlpack(PyObject *cap) {
  cn_array out = NULL;
  cn_status st;
  if (PyCapsule_IsValid(cap, "dltensor_versioned")) {
    void *t = PyCapsule_GetPointer(cap, "dltensor_versioned");
    if (PyCapsule_SetName(cap, "used_dltensor_versioned") < 0)
      return NULL;
    st = cn_from_dlpack(&out, (DLManagedTensorVersioned *)t);
  } else if (PyCapsule_IsValid(cap, "dltensor")) {
    void *t = PyCapsule_GetPointer(cap, "dltensor");
    if (PyCapsule_SetName(cap, "used_dltensor") < 0)
      return NULL;
    st = cn_from_dlpack_legacy(&out, (DLManagedTensor *)t);
  } else {
    PyErr_SetString(PyExc_TypeError,
                    "expected an unused DLPack capsule ('dltensor_versioned' "
                    "or 'dltensor')");
    return NULL;
  }
  if (st != CN_OK) {
    cnpy_raise(st);
    return NULL;
  }
  return cnpy_wrap(out);
}

/* Zero-copy array over the memory of a buffer-protocol exporter (a NumPy
 * array, memoryview, bytes, array.array...), keeping the exporter alive
 * until the last view goes away. Read-only exporters give read-only arrays.
 * BufferError when the layout or format has no cunumpy equivalent. */
static PyObject *_from_buffer(PyObject *obj) {
  Py_buffer *view = (Py_buffer *)PyMem_RawMalloc(sizeof(Py_buffer));
  if (!view)
    return PyErr_NoMemory();
  int readonly = 0;
  if (PyObject_GetBuffer(obj, view, PyBUF_RECORDS) < 0) {
    /* Read-only exporters refuse a writable request (NumPy raises
     * ValueError, others BufferError or TypeError): ask again read-only. */
    if (!PyErr_ExceptionMatches(PyExc_BufferError) &&
        !PyErr_ExceptionMatches(PyExc_TypeError) &&
        !PyErr_ExceptionMatches(PyExc_ValueError)) {
      PyMem_RawFree(view);
      return NULL;
    }
    PyErr_Clear();
    if (PyObject_GetBuffer(obj, view, PyBUF_RECORDS_RO) < 0) {
      PyMem_RawFree(view);
      return NULL;
    }
    readonly = 1;
  }
  readonly = readonly || view->readonly;
  cn_dtype dt = CN_DTYPE_DEFAULT;
  int64_t shape[CN_MAX_DIMS], strides[CN_MAX_DIMS];
  const char *why = NULL;
  if (cnpy_dtype_from_format(view->format, view->itemsize, &dt) < 0)
    why = "its format has no cunumpy dtype";
  else if (view->ndim > CN_MAX_DIMS)
    why = "it has too many dimensions";
  else if (view->suboffsets)
    why = "it uses suboffsets";
  int64_t lo = 0, hi = 0, empty = 0, acc = view->itemsize;
  for (int d = view->ndim - 1; !why && d >= 0; d--) {
    int64_t n = view->shape ? view->shape[d] : view->len / view->itemsize;
    int64_t sb = view->strides ? view->strides[d] : acc;
    acc *= n;
    if (sb % view->itemsize != 0) {
      why = "its strides are not multiples of its itemsize";
      break;
    }
    shape[d] = n;
    strides[d] = sb / view->itemsize;
    if (n == 0)
      empty = 1;
    else if (sb < 0)
      lo += (n - 1) * sb;
    else
      hi += (n - 1) * sb;
  }
  if (why) {
    PyBuffer_Release(view);
    PyMem_RawFree(view);
    PyErr_Format(PyExc_BufferError, "cannot wrap a '%.100s' buffer: %s",
                 Py_TYPE(obj)->tp_name, why);
    return NULL;
  }
  int64_t before = empty ? 0 : -lo;
  int64_t after = empty ? 0 : hi + view->itemsize;
  cn_array out = NULL;
  cn_status st = cn_wrap_host(&out, view->buf, before, after, view->ndim,
                              shape, strides, dt, readonly,
                              cnpy_buffer_release, view);
  if (st != CN_OK) {
    PyBuffer_Release(view);
    PyMem_RawFree(view);
    cnpy_raise(st);
    return NULL;
  }
  return cnpy_wrap(out);
}

/* Array over foreign memory at ptr (an int) on device (device_type,
 * device_id), C-contiguous or with strides in elements, keeping owner
 * alive until the last view is gone. The engine checks the layout,
 * alignment and device as for a DLPack import. */
static PyObject *_from_pointer(PyObject *ptr, PyObject *shape,
                               PyObject *strides, int dtype, int device_type,
                               int device_id, int readonly, PyObject *owner) {
  void *data = PyLong_AsVoidPtr(ptr);
  if (data == NULL && PyErr_Occurred())
    return NULL;
  cnpy_foreign_tensor *f =
      (cnpy_foreign_tensor *)PyMem_RawCalloc(1, sizeof *f);
  if (!f)
    return PyErr_NoMemory();
  int32_t nd = 0, ns = 0;
  if (cnpy_int64_seq(shape, &nd, f->shape, "shape") < 0 ||
      (strides != Py_None &&
       cnpy_int64_seq(strides, &ns, f->strides, "strides") < 0)) {
    PyMem_RawFree(f);
    return NULL;
  }
  if (strides != Py_None && ns != nd) {
    PyMem_RawFree(f);
    PyErr_Format(PyExc_ValueError, "strides has %d entries for %d dimensions",
                 (int)ns, (int)nd);
    return NULL;
  }
  f->t.version.major = DLPACK_MAJOR_VERSION;
  f->t.version.minor = DLPACK_MINOR_VERSION;
  f->t.flags = readonly ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
  f->t.dl_tensor.data = data;
  f->t.dl_tensor.device.device_type = (DLDeviceType)device_type;
  f->t.dl_tensor.device.device_id = device_id;
  f->t.dl_tensor.ndim = nd;
  f->t.dl_tensor.dtype.code = (uint8_t)((unsigned)dtype >> 8);
  f->t.dl_tensor.dtype.bits = (uint8_t)((unsigned)dtype & 0xffu);
  f->t.dl_tensor.dtype.lanes = 1;
  f->t.dl_tensor.shape = f->shape;
  f->t.dl_tensor.strides = strides != Py_None ? f->strides : NULL;
  f->t.manager_ctx = owner != Py_None ? Py_NewRef(owner) : NULL;
  f->t.deleter = cnpy_foreign_deleter;
  cn_array out = NULL;
  cn_status st = cn_from_dlpack(&out, &f->t); /* consumes f either way */
  if (st != CN_OK) {
    cnpy_raise(st);
    return NULL;
  }
  return cnpy_wrap(out);
}

/* The op table of core/ops.def: [(name, nin, loops, out, doc), ...]. */
static PyObject *_op_table(void) {
  static const struct {
    const char *name, *loops, *out, *doc;
    int nin;
  } ops[] = {
#define CN_OP(name, nin, loops, out, bools, ints, weak, expr, doc) {#name, #loops, #out, doc, nin},
#include "ops.def"
#undef CN_OP
  };
  size_t n = sizeof ops / sizeof ops[0];
  PyObject *list = PyList_New((Py_ssize_t)n);
  if (!list)
    return NULL;
  for (size_t i = 0; i < n; i++) {
    PyObject *t = Py_BuildValue("(sisss)", ops[i].name, ops[i].nin,
                                ops[i].loops, ops[i].out, ops[i].doc);
    if (!t) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)i, t);
  }
  return list;
}

/* Broadcast shape of a sequence of shapes (cn_broadcast_shapes). */
static PyObject *_broadcast_shapes(PyObject *shapes) {
  PyObject *seq = PySequence_Fast(shapes, "expected a sequence of shapes");
  if (!seq)
    return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  int64_t *store = PyMem_Malloc(sizeof(int64_t) * CN_MAX_DIMS * (n ? n : 1));
  int32_t *ndims = PyMem_Malloc(sizeof(int32_t) * (n ? n : 1));
  const int64_t **ptrs = PyMem_Malloc(sizeof(int64_t *) * (n ? n : 1));
  PyObject *res = NULL;
  if (!store || !ndims || !ptrs) {
    PyErr_NoMemory();
    goto done;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    if (cnpy_shape_arg(PySequence_Fast_GET_ITEM(seq, i), &ndims[i],
                       store + i * CN_MAX_DIMS) < 0)
      goto done;
    ptrs[i] = store + i * CN_MAX_DIMS;
  }
  int32_t ond = 0;
  int64_t oshape[CN_MAX_DIMS];
  cn_status st = cn_broadcast_shapes(&ond, oshape, (int32_t)n, ndims, ptrs);
  if (st != CN_OK) {
    cnpy_raise(st);
    goto done;
  }
  res = PyTuple_New(ond);
  for (int32_t d = 0; res && d < ond; d++) {
    PyObject *x = PyLong_FromLongLong((long long)oshape[d]);
    if (!x) {
      Py_CLEAR(res);
      break;
    }
    PyTuple_SET_ITEM(res, d, x);
  }
done:
  PyMem_Free(store);
  PyMem_Free(ndims);
  PyMem_Free(ptrs);
  Py_DECREF(seq);
  return res;
}
%}
