/* cn_pylog.i: the engine's log channel (status.h: cn_set_log_handler) fed
 * to a Python callable, which the package points at its `cunumpy` logger.
 *
 * The engine may log from any thread, holding its locks and not the GIL,
 * so the C handler never waits for the GIL: it copies the record into a
 * bounded queue and asks the interpreter (Py_AddPendingCall) to hand the
 * queue to the callable from the main thread at its next chance. Records
 * beyond the queue's room are counted and reported as one. */

%ignore cn_set_log_handler;
%ignore cn_log_fn;

%{
#include <pthread.h>

#define CNPY_LOG_QUEUE 64

typedef struct {
  int32_t level;
  char text[1024];
} cnpy_log_rec;

static cnpy_log_rec cnpy_log_queue[CNPY_LOG_QUEUE];
static int cnpy_log_head, cnpy_log_len, cnpy_log_dropped;
static int cnpy_log_scheduled;
static pthread_mutex_t cnpy_log_lock = PTHREAD_MUTEX_INITIALIZER;
static PyObject *cnpy_log_sink; /* callable(level, text) or NULL */

/* Runs in the main thread with the GIL (a pending call). */
static int cnpy_log_flush(void *unused) {
  (void)unused;
  for (;;) {
    cnpy_log_rec r;
    int dropped = 0;
    pthread_mutex_lock(&cnpy_log_lock);
    if (cnpy_log_len == 0) {
      dropped = cnpy_log_dropped;
      cnpy_log_dropped = 0;
      cnpy_log_scheduled = 0;
      pthread_mutex_unlock(&cnpy_log_lock);
      if (dropped == 0)
        return 0;
      r.level = CN_LOG_INFO;
      snprintf(r.text, sizeof r.text,
               "%d log records were dropped (more than %d at once)", dropped,
               CNPY_LOG_QUEUE);
    } else {
      r = cnpy_log_queue[cnpy_log_head];
      cnpy_log_head = (cnpy_log_head + 1) % CNPY_LOG_QUEUE;
      cnpy_log_len--;
      pthread_mutex_unlock(&cnpy_log_lock);
    }
    if (cnpy_log_sink != NULL) {
      PyObject *res = PyObject_CallFunction(cnpy_log_sink, "is", (int)r.level,
                                            r.text);
      if (res == NULL)
        PyErr_WriteUnraisable(cnpy_log_sink);
      Py_XDECREF(res);
    }
    if (dropped)
      return 0;
  }
}

/* The cn_log_fn: any thread, any locks, GIL or not. */
static void cnpy_log_handler(int32_t level, const char *text, void *user) {
  (void)user;
  pthread_mutex_lock(&cnpy_log_lock);
  if (cnpy_log_len < CNPY_LOG_QUEUE) {
    cnpy_log_rec *r =
        &cnpy_log_queue[(cnpy_log_head + cnpy_log_len) % CNPY_LOG_QUEUE];
    r->level = level;
    snprintf(r->text, sizeof r->text, "%s", text);
    cnpy_log_len++;
  } else {
    cnpy_log_dropped++;
  }
  int schedule = !cnpy_log_scheduled;
  cnpy_log_scheduled = 1;
  pthread_mutex_unlock(&cnpy_log_lock);
  if (schedule && Py_AddPendingCall(cnpy_log_flush, NULL) != 0) {
    pthread_mutex_lock(&cnpy_log_lock);
    cnpy_log_scheduled = 0; /* the interpreter's queue is full: next time */
    pthread_mutex_unlock(&cnpy_log_lock);
  }
}
%}

%nothread _set_log_sink;
%nothread _flush_log;
%inline %{
/* Sends the engine's log records to sink(level, text); None sends them
 * back to stderr (as CUNUMPY_DEBUG says). */
static PyObject *_set_log_sink(PyObject *sink) {
  if (sink != Py_None && !PyCallable_Check(sink)) {
    PyErr_SetString(PyExc_TypeError, "the log sink must be callable or None");
    return NULL;
  }
  if (sink == Py_None) {
    cn_set_log_handler(NULL, NULL);
    Py_CLEAR(cnpy_log_sink);
  } else {
    Py_XSETREF(cnpy_log_sink, Py_NewRef(sink));
    cn_set_log_handler(cnpy_log_handler, NULL);
  }
  Py_RETURN_NONE;
}

/* Hands the queued records to the sink now (they otherwise arrive at the
 * interpreter's next pending-call check). */
static PyObject *_flush_log(void) {
  cnpy_log_flush(NULL);
  Py_RETURN_NONE;
}
%}
