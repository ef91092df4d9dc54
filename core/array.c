/* Array handles: allocation, lifetime, properties. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Handles come from free lists and are never returned to malloc, so a
 * released handle still has readable memory whose magic says DEAD: using one
 * is a clear CN_ERR_VALUE instead of a use-after-free. Each thread keeps a
 * small list of its own (a view made and dropped per Python call would
 * otherwise take a process-wide lock twice); the shared list takes what a
 * thread's list overflows and what an exiting thread leaves. */
#define CN_HANDLE_CACHE 64
static pthread_mutex_t g_handles_lock = PTHREAD_MUTEX_INITIALIZER;
static cn_array_s *g_handles_free; /* linked through buf */
static pthread_once_t g_handles_once = PTHREAD_ONCE_INIT;
static pthread_key_t g_handles_key;
static _Thread_local cn_array_s *t_free;
static _Thread_local int t_nfree;
static _Thread_local bool t_registered;

static void shared_push(cn_array_s *head, cn_array_s *tail) {
  pthread_mutex_lock(&g_handles_lock);
  tail->buf = (cn_buffer *)(void *)g_handles_free;
  g_handles_free = head;
  pthread_mutex_unlock(&g_handles_lock);
}

/* Thread exit: the thread's list joins the shared one. */
static void thread_list_flush(void *unused) {
  (void)unused;
  if (t_free == NULL)
    return;
  cn_array_s *tail = t_free;
  while (tail->buf != NULL)
    tail = (cn_array_s *)(void *)tail->buf;
  shared_push(t_free, tail);
  t_free = NULL;
  t_nfree = 0;
}

static void handles_key_make(void) {
  (void)pthread_key_create(&g_handles_key, thread_list_flush);
}

static cn_array_s *handle_alloc(void) {
  cn_array_s *a = t_free;
  if (a != NULL) {
    t_free = (cn_array_s *)(void *)a->buf;
    t_nfree--;
    return a;
  }
  pthread_mutex_lock(&g_handles_lock);
  a = g_handles_free;
  if (a != NULL)
    g_handles_free = (cn_array_s *)(void *)a->buf;
  pthread_mutex_unlock(&g_handles_lock);
  if (a == NULL)
    a = cn_aligned_alloc(64, (sizeof(cn_array_s) + 63) / 64 * 64);
  return a;
}

static void handle_free(cn_array_s *a) {
  a->magic = CN_ARRAY_DEAD;
  if (t_nfree >= CN_HANDLE_CACHE) {
    a->buf = NULL;
    shared_push(a, a);
    return;
  }
  if (!t_registered) {
    /* The key's value only has to be non-NULL for the destructor to run. */
    pthread_once(&g_handles_once, handles_key_make);
    t_registered = pthread_setspecific(g_handles_key, &g_handles_key) == 0;
  }
  a->buf = (cn_buffer *)(void *)t_free;
  t_free = a;
  t_nfree++;
}

void cn_array_update_flags(cn_array_s *a) {
  int64_t size = 1;
  for (int i = 0; i < a->ndim; i++)
    size *= a->shape[i];
  a->size = size;
  int flags = a->flags & ~(CN_FLAG_C_CONTIGUOUS | CN_FLAG_F_CONTIGUOUS);
  /* NumPy's rule: axes of extent 1 do not affect contiguity, and empty
   * arrays are contiguous both ways. */
  bool c = true, f = true;
  if (size > 0) {
    int64_t expect = 1;
    for (int i = a->ndim - 1; i >= 0; i--) {
      if (a->shape[i] != 1 && a->strides[i] != expect) c = false;
      expect *= a->shape[i];
    }
    expect = 1;
    for (int i = 0; i < a->ndim; i++) {
      if (a->shape[i] != 1 && a->strides[i] != expect) f = false;
      expect *= a->shape[i];
    }
  }
  if (c) flags |= CN_FLAG_C_CONTIGUOUS;
  if (f) flags |= CN_FLAG_F_CONTIGUOUS;
  a->flags = flags;
}

cn_status cn_view_geometry(int64_t *size, int64_t *lo, int64_t *hi,
                           int64_t itemsize, int32_t ndim,
                           const int64_t *shape, const int64_t *strides) {
  if (ndim < 0 || ndim > CN_MAX_DIMS)
    return cn_error(CN_ERR_VALUE, "ndim %d outside [0, %d]", (int)ndim,
                    CN_MAX_DIMS);
  int64_t count = 1, nonzero = 1, bytes;
  bool too_big = false;
  for (int32_t i = 0; i < ndim; i++) {
    if (shape[i] < 0)
      return cn_error(CN_ERR_VALUE, "negative dimensions are not allowed "
                      "(extent %lld on axis %d)", (long long)shape[i], (int)i);
    /* As NumPy: the non-zero extents must multiply without overflow even
     * when another extent is 0. */
    if (shape[i] == 0)
      count = 0;
    else
      too_big |= __builtin_mul_overflow(nonzero, shape[i], &nonzero);
  }
  if (too_big || __builtin_mul_overflow(nonzero, itemsize, &bytes))
    return cn_error(CN_ERR_VALUE, "array is too big: the size of its shape "
                    "times the item size overflows 64 bits");
  *size = count ? nonzero : 0;
  int64_t low = 0, high = itemsize;
  for (int32_t i = 0; count && i < ndim; i++) {
    int64_t reach;
    if (shape[i] == 1)
      continue; /* a stride on an extent-1 axis is never followed */
    if (__builtin_mul_overflow(strides[i], shape[i] - 1, &reach) ||
        __builtin_mul_overflow(reach, itemsize, &reach) ||
        __builtin_add_overflow(reach < 0 ? low : high, reach,
                               reach < 0 ? &low : &high))
      return cn_error(CN_ERR_VALUE, "the strides reach more bytes than "
                      "64 bits address (stride %lld on axis %d of extent %lld)",
                      (long long)strides[i], (int)i, (long long)shape[i]);
  }
  *lo = count ? low : 0;
  *hi = count ? high : 0;
  return CN_OK;
}

cn_status cn_array_make_at(cn_array_s **out, cn_buffer *buf, int64_t offset,
                           cn_dtype dtype, int32_t ndim, const int64_t *shape,
                           const int64_t *strides, bool writeable) {
  int64_t size, lo, hi, first, end;
  cn_status st = cn_view_geometry(&size, &lo, &hi, cn_itemsize(dtype), ndim,
                                  shape, strides);
  if (st != CN_OK)
    return st;
  if (size > 0 &&
      (__builtin_add_overflow(offset, lo, &first) ||
       __builtin_add_overflow(offset, hi, &end) || first < 0 ||
       (uint64_t)end > (uint64_t)buf->nbytes))
    return cn_error(CN_ERR_VALUE,
                    "the view reaches outside its buffer (bytes [%lld, %lld) "
                    "from byte %lld of a %llu-byte buffer)",
                    (long long)lo, (long long)hi, (long long)offset,
                    (unsigned long long)buf->nbytes);
  /* An empty view reaches nothing; an element 0 outside the buffer would be
   * a pointer outside its object, so it sits at the buffer's start. */
  if (size == 0 && (offset < 0 || (uint64_t)offset > (uint64_t)buf->nbytes))
    offset = 0;
  cn_array_s *a = handle_alloc();
  if (a == NULL)
    return cn_error(CN_ERR_MEMORY, "out of host memory allocating a handle");
  a->magic = CN_ARRAY_MAGIC;
  atomic_init(&a->refcount, 1);
  cn_buffer_retain(buf);
  a->buf = buf;
  a->data = offset ? (char *)buf->data + offset : (char *)buf->data;
  a->dtype = dtype;
  a->ndim = ndim;
  a->flags = writeable ? CN_FLAG_WRITEABLE : 0;
  if (ndim > 0) {
    memcpy(a->shape, shape, sizeof(int64_t) * (size_t)ndim);
    memcpy(a->strides, strides, sizeof(int64_t) * (size_t)ndim);
  }
  memset(&a->weak, 0, sizeof a->weak);
  cn_array_update_flags(a);
  *out = a;
  return CN_OK;
}

/* Byte offset of p from the start of buf, without forming an
 * out-of-object pointer difference (the subtraction is on integers). */
static int64_t offset_in(const cn_buffer *buf, const char *p) {
  return (int64_t)((uintptr_t)p - (uintptr_t)buf->data);
}

cn_status cn_array_make(cn_array_s **out, cn_buffer *buf, char *data,
                        cn_dtype dtype, int32_t ndim, const int64_t *shape,
                        const int64_t *strides, bool writeable) {
  return cn_array_make_at(out, buf, offset_in(buf, data), dtype, ndim, shape,
                          strides, writeable);
}

cn_status cn_array_view(cn_array_s **out, const cn_array_s *a, char *data,
                        int32_t ndim, const int64_t *shape,
                        const int64_t *strides) {
  return cn_array_make(out, a->buf, data, a->dtype, ndim, shape, strides,
                       cn_array_writeable(a));
}

cn_status cn_array_view_at(cn_array_s **out, const cn_array_s *a,
                           int64_t elements, int32_t ndim,
                           const int64_t *shape, const int64_t *strides) {
  int64_t offset;
  if (__builtin_mul_overflow(elements, cn_itemsize(a->dtype), &offset) ||
      __builtin_add_overflow(offset, offset_in(a->buf, a->data), &offset))
    return cn_error(CN_ERR_VALUE, "the view's offset of %lld elements "
                    "overflows 64 bits", (long long)elements);
  return cn_array_make_at(out, a->buf, offset, a->dtype, ndim, shape, strides,
                          cn_array_writeable(a));
}

void cn_default_strides(int64_t *strides, int32_t ndim, const int64_t *shape,
                        cn_order order) {
  int64_t s = 1;
  if (order == CN_ORDER_F) {
    for (int i = 0; i < ndim; i++) {
      strides[i] = s;
      s *= shape[i] > 0 ? shape[i] : 1;
    }
  } else {
    for (int i = ndim - 1; i >= 0; i--) {
      strides[i] = s;
      s *= shape[i] > 0 ? shape[i] : 1;
    }
  }
}

cn_status cn_array_new(cn_array_s **out, const cn_backend *backend,
                       int32_t device, cn_dtype dtype, int32_t ndim,
                       const int64_t *shape, cn_order order) {
  int64_t size;
  cn_status st = cn_shape_size(&size, ndim, shape, cn_itemsize(dtype), "");
  if (st != CN_OK)
    return st;
  cn_buffer *buf = NULL;
  st = cn_buffer_alloc(&buf, backend, device, (size_t)size * (size_t)cn_itemsize(dtype));
  if (st != CN_OK)
    return st;
  int64_t strides[CN_MAX_DIMS];
  cn_default_strides(strides, ndim, shape, order);
  st = cn_array_make(out, buf, buf->data, dtype, ndim, shape, strides, true);
  cn_buffer_release(buf); /* the array holds its own reference */
  if (st == CN_OK)
    (*out)->flags |= CN_FLAG_OWNDATA;
  return st;
}

cn_status cn_array_new_like(cn_array_s **out, const cn_array_s *proto,
                            cn_dtype dtype) {
  /* Order K: lay the new array out in the prototype's stride order. */
  int32_t nd = proto->ndim;
  int perm[CN_MAX_DIMS];
  for (int i = 0; i < nd; i++)
    perm[i] = i;
  /* insertion sort by |stride| descending (outermost first); stable */
  for (int i = 1; i < nd; i++) {
    int p = perm[i];
    int64_t sp = llabs(proto->strides[p]);
    int j = i - 1;
    while (j >= 0 && llabs(proto->strides[perm[j]]) < sp) {
      perm[j + 1] = perm[j];
      j--;
    }
    perm[j + 1] = p;
  }
  cn_status st = cn_array_new(out, proto->buf->backend, proto->buf->device_id,
                              dtype, nd, proto->shape, CN_ORDER_C);
  if (st != CN_OK || nd == 0)
    return st;
  cn_array_s *a = *out;
  int64_t s = 1;
  for (int i = nd - 1; i >= 0; i--) {
    a->strides[perm[i]] = s;
    s *= a->shape[perm[i]] > 0 ? a->shape[perm[i]] : 1;
  }
  cn_array_update_flags(a);
  return CN_OK;
}

/* Memory span [lo, hi) of an array's elements; lo == hi when empty. */
static void array_span(const cn_array_s *a, uintptr_t *lo, uintptr_t *hi) {
  uintptr_t l = (uintptr_t)a->data, h = l;
  if (a->size == 0) {
    *lo = *hi = l;
    return;
  }
  int64_t isz = cn_itemsize(a->dtype);
  for (int32_t d = 0; d < a->ndim; d++) {
    int64_t span = (a->shape[d] - 1) * a->strides[d] * isz;
    if (span < 0)
      l -= (uintptr_t)(-span);
    else
      h += (uintptr_t)span;
  }
  *lo = l;
  *hi = h + (uintptr_t)isz;
}

bool cn_array_unsafe_overlap(const cn_array_s *dst, const cn_array_s *v) {
  if (dst->buf != v->buf)
    return false;
  uintptr_t dl, dh, vl, vh;
  array_span(dst, &dl, &dh);
  array_span(v, &vl, &vh);
  if (dh <= vl || vh <= dl)
    return false;
  if (dst->data != v->data || cn_itemsize(dst->dtype) != cn_itemsize(v->dtype))
    return true;
  for (int32_t d = 0; d < dst->ndim; d++)
    if (dst->shape[d] > 1 && dst->strides[d] != v->strides[d])
      return true;
  return false;
}

/* ---- public: lifetime and properties --------------------------------- */

cn_status cn_array_retain(cn_array a) {
  CN_CHECK_ARRAY(a, "cn_array_retain", "a");
  atomic_fetch_add_explicit(&a->refcount, 1, memory_order_relaxed);
  return CN_OK;
}

void cn_array_release(cn_array a) {
  if (a == NULL || a->magic != CN_ARRAY_MAGIC)
    return;
  if (atomic_fetch_sub_explicit(&a->refcount, 1, memory_order_acq_rel) != 1)
    return;
  cn_buffer *b = a->buf;
  handle_free(a);
  cn_buffer_release(b);
}

cn_status cn_array_ndim(int32_t *out, cn_array a) {
  CN_CHECK_OUT(out, "cn_array_ndim");
  CN_CHECK_ARRAY(a, "cn_array_ndim", "a");
  *out = a->ndim;
  return CN_OK;
}

cn_status cn_array_shape(int64_t *out, int32_t cap, cn_array a) {
  CN_CHECK_ARRAY(a, "cn_array_shape", "a");
  if (a->ndim > 0 && out == NULL)
    return cn_error(CN_ERR_VALUE, "cn_array_shape: output pointer is NULL");
  if (cap < a->ndim)
    return cn_error(CN_ERR_VALUE,
                    "cn_array_shape: capacity %d is smaller than ndim %d", cap,
                    a->ndim);
  if (a->ndim > 0)
    memcpy(out, a->shape, sizeof(int64_t) * (size_t)a->ndim);
  return CN_OK;
}

cn_status cn_array_strides(int64_t *out, int32_t cap, cn_array a) {
  CN_CHECK_ARRAY(a, "cn_array_strides", "a");
  if (a->ndim > 0 && out == NULL)
    return cn_error(CN_ERR_VALUE, "cn_array_strides: output pointer is NULL");
  if (cap < a->ndim)
    return cn_error(CN_ERR_VALUE,
                    "cn_array_strides: capacity %d is smaller than ndim %d",
                    cap, a->ndim);
  if (a->ndim > 0)
    memcpy(out, a->strides, sizeof(int64_t) * (size_t)a->ndim);
  return CN_OK;
}

cn_status cn_array_dim(int64_t *out, cn_array a, int32_t axis) {
  CN_CHECK_OUT(out, "cn_array_dim");
  CN_CHECK_ARRAY(a, "cn_array_dim", "a");
  int32_t ax;
  cn_status st = cn_normalize_axis(&ax, axis, a->ndim, "cn_array_dim");
  if (st != CN_OK)
    return st;
  *out = a->shape[ax];
  return CN_OK;
}

cn_status cn_array_size(int64_t *out, cn_array a) {
  CN_CHECK_OUT(out, "cn_array_size");
  CN_CHECK_ARRAY(a, "cn_array_size", "a");
  *out = a->size;
  return CN_OK;
}

cn_status cn_array_dtype(cn_dtype *out, cn_array a) {
  CN_CHECK_OUT(out, "cn_array_dtype");
  CN_CHECK_ARRAY(a, "cn_array_dtype", "a");
  *out = a->dtype;
  return CN_OK;
}

cn_status cn_array_itemsize(int64_t *out, cn_array a) {
  CN_CHECK_OUT(out, "cn_array_itemsize");
  CN_CHECK_ARRAY(a, "cn_array_itemsize", "a");
  *out = cn_itemsize(a->dtype);
  return CN_OK;
}

cn_status cn_array_flags(int32_t *out, cn_array a) {
  CN_CHECK_OUT(out, "cn_array_flags");
  CN_CHECK_ARRAY(a, "cn_array_flags", "a");
  *out = a->flags;
  return CN_OK;
}

cn_status cn_array_data(void **out, cn_array a) {
  CN_CHECK_OUT(out, "cn_array_data");
  CN_CHECK_ARRAY(a, "cn_array_data", "a");
  *out = a->data;
  return CN_OK;
}

cn_status cn_array_device(int32_t *device_type, int32_t *device_id,
                          cn_array a) {
  CN_CHECK_OUT(device_type, "cn_array_device");
  CN_CHECK_OUT(device_id, "cn_array_device");
  CN_CHECK_ARRAY(a, "cn_array_device", "a");
  *device_type = a->buf->backend->device_type;
  *device_id = a->buf->device_id;
  return CN_OK;
}

cn_status cn_array_refcount(int64_t *out, cn_array a) {
  CN_CHECK_OUT(out, "cn_array_refcount");
  CN_CHECK_ARRAY(a, "cn_array_refcount", "a");
  *out = (int64_t)atomic_load(&a->refcount);
  return CN_OK;
}

cn_status cn_array_shares_buffer(int32_t *out, cn_array a, cn_array b) {
  CN_CHECK_OUT(out, "cn_array_shares_buffer");
  CN_CHECK_ARRAY(a, "cn_array_shares_buffer", "a");
  CN_CHECK_ARRAY(b, "cn_array_shares_buffer", "b");
  *out = a->buf == b->buf ||
         (a->buf->data == b->buf->data && a->buf->backend == b->buf->backend);
  return CN_OK;
}
