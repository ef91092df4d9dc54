/* Streams and events as reference-counted handles, and the calling
 * thread's current stream, which every launch and copy of the plugin uses
 * (NULL: the default stream, which is the legacy default stream unless
 * CUNUMPY_CUDA_PER_THREAD_DEFAULT_STREAM / CUPY_CUDA_PER_THREAD_DEFAULT_STREAM
 * made it cudaStreamPerThread), and the synchronisation a DLPack consumer
 * asks for. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "cuda_internal.h"
#include "stream_plan.h"

#define STREAM_MAGIC 0x5354524du /* "STRM" */
#define EVENT_MAGIC 0x45564e54u  /* "EVNT" */
#define DEAD_MAGIC 0x44454144u

struct cn_stream_s {
  uint32_t magic;
  atomic_long refs;
  cudaStream_t s;
  int32_t device;
  bool owned; /* false for wrapped foreign streams */
};

struct cn_event_s {
  uint32_t magic;
  cudaEvent_t e;
  bool timing;
};

static __thread cn_stream tl_current;
/* Read once when the plugin is loaded (cn_cu_stream_api), before any
 * launch, so every thread agrees on what the default stream is. */
static cudaStream_t g_default_stream;
static pthread_key_t g_key;
static pthread_once_t g_key_once = PTHREAD_ONCE_INIT;

static cn_status stream_destroy(cn_stream s);

/* Drops the current-stream reference of a thread that exits. */
static void thread_exit(void *p) { (void)stream_destroy((cn_stream)p); }
static void key_init(void) { pthread_key_create(&g_key, thread_exit); }

cudaStream_t cn_cu_stream(void) {
  cn_stream s = tl_current;
  return s ? s->s : g_default_stream;
}

static cn_status check_stream(cn_stream s, const char *fn) {
  if (s != NULL && s->magic != STREAM_MAGIC)
    return cn_cu_error(CN_ERR_VALUE,
                       "%s: argument 's' is a released or invalid stream", fn);
  return CN_OK;
}

static cn_status check_event(cn_event e, const char *fn, const char *arg) {
  if (e == NULL)
    return cn_cu_error(CN_ERR_VALUE, "%s: argument '%s' is NULL", fn, arg);
  if (e->magic != EVENT_MAGIC)
    return cn_cu_error(CN_ERR_VALUE,
                       "%s: argument '%s' is a released or invalid event", fn,
                       arg);
  return CN_OK;
}

static cn_status new_stream(cn_stream *out, cudaStream_t cs, bool owned) {
  cn_stream s = calloc(1, sizeof *s);
  if (s == NULL) {
    if (owned)
      cudaStreamDestroy(cs);
    return cn_cu_error(CN_ERR_MEMORY, "cn_stream_create: out of host memory");
  }
  int d = 0;
  cudaGetDevice(&d);
  s->magic = STREAM_MAGIC;
  atomic_init(&s->refs, 1);
  s->s = cs;
  s->device = d;
  s->owned = owned;
  *out = s;
  return CN_OK;
}

static cn_status stream_create(cn_stream *out, int32_t non_blocking) {
  cudaStream_t cs = NULL;
  CN_CU_TRY(cudaStreamCreateWithFlags(&cs, non_blocking ? cudaStreamNonBlocking
                                                        : cudaStreamDefault),
            "cudaStreamCreateWithFlags");
  return new_stream(out, cs, true);
}

static cn_status stream_from_native(cn_stream *out, void *native) {
  return new_stream(out, (cudaStream_t)native, false);
}

static cn_status stream_destroy(cn_stream s) {
  cn_status st = check_stream(s, "cn_stream_destroy");
  if (st != CN_OK || s == NULL)
    return st;
  if (atomic_fetch_sub(&s->refs, 1) != 1)
    return CN_OK;
  s->magic = DEAD_MAGIC;
  cudaError_t e = cudaSuccess;
  if (s->owned)
    e = cudaStreamDestroy(s->s); /* returns at once; work still completes */
  free(s);
  if (e != cudaSuccess)
    return cn_cu_fail(e, "cudaStreamDestroy");
  return CN_OK;
}

static cn_status stream_retain(cn_stream s) {
  cn_status st = check_stream(s, "cn_stream_retain");
  if (st == CN_OK)
    atomic_fetch_add(&s->refs, 1);
  return st;
}

static cn_status stream_set_current(cn_stream s) {
  cn_status st = check_stream(s, "cn_stream_set_current");
  if (st != CN_OK)
    return st;
  pthread_once(&g_key_once, key_init);
  if (s != NULL)
    atomic_fetch_add(&s->refs, 1);
  cn_stream old = tl_current;
  tl_current = s;
  pthread_setspecific(g_key, s);
  if (old != NULL)
    stream_destroy(old);
  return CN_OK;
}

static cn_status stream_get_current(cn_stream *out) {
  cn_stream s = tl_current;
  if (s != NULL)
    atomic_fetch_add(&s->refs, 1);
  *out = s;
  return CN_OK;
}

static cudaStream_t raw(cn_stream s) { return s ? s->s : cn_cu_stream(); }

static cn_status stream_synchronize(cn_stream s) {
  cn_status st = check_stream(s, "cn_stream_synchronize");
  if (st != CN_OK)
    return st;
  CN_CU_TRY(cudaStreamSynchronize(raw(s)), "cudaStreamSynchronize");
  return CN_OK;
}

static cn_status stream_query(int32_t *done, cn_stream s) {
  cn_status st = check_stream(s, "cn_stream_query");
  if (st != CN_OK)
    return st;
  cudaError_t e = cudaStreamQuery(raw(s));
  if (e == cudaErrorNotReady) {
    (void)cudaGetLastError();
    *done = 0;
    return CN_OK;
  }
  if (e != cudaSuccess)
    return cn_cu_fail(e, "cudaStreamQuery");
  *done = 1;
  return CN_OK;
}

static cn_status stream_native(void **out, cn_stream s) {
  cn_status st = check_stream(s, "cn_stream_native");
  if (st == CN_OK)
    *out = (void *)(s ? s->s : NULL);
  return st;
}

static cn_status stream_wait_event(cn_stream s, cn_event e) {
  cn_status st = check_stream(s, "cn_stream_wait_event");
  if (st == CN_OK)
    st = check_event(e, "cn_stream_wait_event", "e");
  if (st != CN_OK)
    return st;
  CN_CU_TRY(cudaStreamWaitEvent(raw(s), e->e, 0), "cudaStreamWaitEvent");
  return CN_OK;
}

static cn_status event_create(cn_event *out, int32_t timing) {
  cn_event ev = calloc(1, sizeof *ev);
  if (ev == NULL)
    return cn_cu_error(CN_ERR_MEMORY, "cn_event_create: out of host memory");
  cudaError_t e = cudaEventCreateWithFlags(
      &ev->e, timing ? cudaEventDefault : cudaEventDisableTiming);
  if (e != cudaSuccess) {
    free(ev);
    return cn_cu_fail(e, "cudaEventCreateWithFlags");
  }
  ev->magic = EVENT_MAGIC;
  ev->timing = timing != 0;
  *out = ev;
  return CN_OK;
}

static cn_status event_destroy(cn_event e) {
  cn_status st = check_event(e, "cn_event_destroy", "e");
  if (st != CN_OK)
    return st;
  e->magic = DEAD_MAGIC;
  cudaError_t err = cudaEventDestroy(e->e);
  free(e);
  if (err != cudaSuccess)
    return cn_cu_fail(err, "cudaEventDestroy");
  return CN_OK;
}

static cn_status event_record(cn_event e, cn_stream s) {
  cn_status st = check_event(e, "cn_event_record", "e");
  if (st == CN_OK)
    st = check_stream(s, "cn_event_record");
  if (st != CN_OK)
    return st;
  CN_CU_TRY(cudaEventRecord(e->e, raw(s)), "cudaEventRecord");
  return CN_OK;
}

static cn_status event_synchronize(cn_event e) {
  cn_status st = check_event(e, "cn_event_synchronize", "e");
  if (st != CN_OK)
    return st;
  CN_CU_TRY(cudaEventSynchronize(e->e), "cudaEventSynchronize");
  return CN_OK;
}

static cn_status event_query(int32_t *done, cn_event e) {
  cn_status st = check_event(e, "cn_event_query", "e");
  if (st != CN_OK)
    return st;
  cudaError_t err = cudaEventQuery(e->e);
  if (err == cudaErrorNotReady) {
    (void)cudaGetLastError();
    *done = 0;
    return CN_OK;
  }
  if (err != cudaSuccess)
    return cn_cu_fail(err, "cudaEventQuery");
  *done = 1;
  return CN_OK;
}

static cn_status event_elapsed_ms(double *out, cn_event start, cn_event end) {
  const char *fn = "cn_event_elapsed_ms";
  cn_status st = check_event(start, fn, "start");
  if (st == CN_OK)
    st = check_event(end, fn, "end");
  if (st != CN_OK)
    return st;
  if (!start->timing || !end->timing)
    return cn_cu_error(CN_ERR_VALUE,
                       "%s: argument '%s' was created without timing", fn,
                       start->timing ? "end" : "start");
  float ms = 0;
  cudaError_t e = cudaEventElapsedTime(&ms, start->e, end->e);
  if (e == cudaErrorNotReady || e == cudaErrorInvalidResourceHandle) {
    (void)cudaGetLastError();
    return cn_cu_error(CN_ERR_VALUE,
                       "%s: the events have not both been recorded and "
                       "completed (%s)",
                       fn, cudaGetErrorName(e));
  }
  if (e != cudaSuccess)
    return cn_cu_fail(e, "cudaEventElapsedTime");
  *out = ms;
  return CN_OK;
}

/* The protocols' number of the current stream (stream_plan.h). */
static cn_status current_stream_number(int64_t *out) {
  cudaStream_t s = cn_cu_stream();
  if (s == NULL || s == cudaStreamLegacy)
    *out = cn_cu_stream_number(CN_CU_STREAM_LEGACY, 0);
  else if (s == cudaStreamPerThread)
    *out = cn_cu_stream_number(CN_CU_STREAM_PER_THREAD, 0);
  else
    *out = cn_cu_stream_number(CN_CU_STREAM_HANDLE, (uintptr_t)s);
  return CN_OK;
}

static cn_status stream_wait_for_current(int64_t consumer_stream) {
  const char *fn = "cn_cuda_stream_wait_for_current";
  cudaStream_t consumer = NULL;
  switch (cn_cu_stream_arg_kind(consumer_stream)) {
  case CN_CU_STREAM_NO_SYNC:
    return CN_OK;
  case CN_CU_STREAM_LEGACY:
    consumer = cudaStreamLegacy;
    break;
  case CN_CU_STREAM_PER_THREAD:
    consumer = cudaStreamPerThread;
    break;
  case CN_CU_STREAM_HANDLE:
    consumer = (cudaStream_t)(uintptr_t)consumer_stream;
    break;
  case CN_CU_STREAM_INVALID:
    return cn_cu_error(CN_ERR_VALUE,
                       "%s: argument 'consumer_stream' is %lld, must be -1 "
                       "(no synchronisation), 1 (legacy default stream), 2 "
                       "(per-thread default stream) or a stream handle",
                       fn, (long long)consumer_stream);
  }
  int64_t ours = 0;
  (void)current_stream_number(&ours);
  if (ours == consumer_stream)
    return CN_OK; /* work on one stream is ordered already */
  cudaEvent_t ev = NULL;
  CN_CU_TRY(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming),
            "cudaEventCreateWithFlags");
  const char *failed = NULL;
  cudaError_t e = cudaEventRecord(ev, cn_cu_stream());
  if (e != cudaSuccess)
    failed = "cudaEventRecord";
  else if ((e = cudaStreamWaitEvent(consumer, ev, 0)) != cudaSuccess)
    failed = "cudaStreamWaitEvent";
  /* The wait keeps what it needs: destroying the event now is safe. */
  cudaError_t de = cudaEventDestroy(ev);
  if (failed != NULL)
    return cn_cu_fail(e, failed);
  if (de != cudaSuccess)
    return cn_cu_fail(de, "cudaEventDestroy");
  return CN_OK;
}

void cn_cu_stream_api(struct cn_cuda_api *api) {
  g_default_stream =
      cn_cu_env_switch(getenv("CUNUMPY_CUDA_PER_THREAD_DEFAULT_STREAM"),
                       getenv("CUPY_CUDA_PER_THREAD_DEFAULT_STREAM"))
          ? cudaStreamPerThread
          : (cudaStream_t)0;
  api->stream_create = stream_create;
  api->stream_from_native = stream_from_native;
  api->stream_destroy = stream_destroy;
  api->stream_retain = stream_retain;
  api->stream_set_current = stream_set_current;
  api->stream_get_current = stream_get_current;
  api->stream_synchronize = stream_synchronize;
  api->stream_query = stream_query;
  api->stream_native = stream_native;
  api->stream_wait_event = stream_wait_event;
  api->event_create = event_create;
  api->event_destroy = event_destroy;
  api->event_record = event_record;
  api->event_synchronize = event_synchronize;
  api->event_query = event_query;
  api->event_elapsed_ms = event_elapsed_ms;
  api->current_stream_number = current_stream_number;
  api->stream_wait_for_current = stream_wait_for_current;
}
