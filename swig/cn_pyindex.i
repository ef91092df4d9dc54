/* cn_pyindex.i: the mapping protocol of Handle (a[key], a[key] = v, len).
 *
 * Basic indexing (ints, slices, Ellipsis, None and tuples of them) is done
 * here as views through the C ABI, a plain int key taking the shortest path;
 * every other key (advanced indexing) goes to the package's getitem/setitem
 * hooks. Ends with the PyMappingMethods table of the type. */

%{
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

/* NumPy 2 refuses a Python int that the array's integer dtype cannot hold
 * (OverflowError "Python integer 300 out of bounds for int8") rather than
 * wrapping it; the engine's check of a weak scalar decides. 0, or -1 with
 * the exception set. */
static int cnpy_check_int_fits(cn_array a, PyObject *value) {
  if (!PyLong_Check(value) || PyBool_Check(value))
    return 0;
  cn_dtype dt, res;
  cn_dtype_kind kind = CN_KIND_FLOAT;
  if (cn_array_dtype(&dt, a) != CN_OK ||
      cn_dtype_get_kind(&kind, dt) != CN_OK ||
      (kind != CN_KIND_INT && kind != CN_KIND_UINT))
    return 0; /* other dtypes (and bad handles) as the assignment decides */
  cn_scalar s;
  if (cnpy_scalar_from_py(value, &s, 0) < 0)
    return -1;
  cn_status st = cn_result_type_scalar(&res, dt, s);
  if (st != CN_OK) {
    cnpy_raise(st);
    return -1;
  }
  return 0;
}

static int cnpy_ass_subscript(PyObject *self, PyObject *key, PyObject *value) {
  if (!value) {
    PyErr_SetString(PyExc_ValueError, "cannot delete array elements");
    return -1;
  }
  if (cnpy_check_int_fits(CNPY_H(self), value) < 0)
    return -1;
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
    cn_array hs[2] = {view, src};
    cn_status st;
    CNPY_CALL_NOGIL(cnpy_worth_nogil(hs, 2), st = cn_assign(view, src));
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
%}
