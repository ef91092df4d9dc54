/* cn_pybuffer.i: the buffer protocol export of Handle.
 *
 * memoryview(a) and numpy.asarray(a) read host arrays (CPU or CUDA host
 * memory) without a copy: shape, strides, format and writability come from
 * the handle, contiguity requests are checked, and device memory is refused
 * with a BufferError. (Importing other exporters' buffers is in
 * cn_interop.i.) */

%{
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
  case CN_INT64: /* "l" where long is 64-bit: NumPy's int64 (dtype.char) */
    return sizeof(long) == 8 ? "l" : "q";
  case CN_UINT8:
    return "B";
  case CN_UINT16:
    return "H";
  case CN_UINT32:
    return "I";
  case CN_UINT64:
    return sizeof(long) == 8 ? "L" : "Q";
  case CN_FLOAT16:
    return "e";
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
%}
