"""The ``cunumpy`` logger (logging module), fed by the engine's log channel.

The engine's records (include/cunumpy/status.h) arrive as: CN_LOG_ERROR
(every failing call, when CUNUMPY_DEBUG >= 1) at logging.ERROR, CN_LOG_INFO
(one-off work slower than CUNUMPY_SLOW_LOG_SECONDS, default 1 s: FFTW
planning with measure/patient, NVRTC compiles; always sent) at
logging.INFO, CN_LOG_DEBUG (CUNUMPY_DEBUG=3) at logging.DEBUG. Records are
delivered by the main thread shortly after they are made; flush() delivers
the waiting ones now. With CUNUMPY_DEBUG set and no handler configured
anywhere, the logger prints to stderr from the level it names.

The engine reports slow work when it ends; watch(what) reports it while it
runs: the calls that may plan FFTs or compile kernels run inside it, and
one watchdog thread logs an INFO record once such a call has run for
CUNUMPY_SLOW_LOG_SECONDS (default 1) and, when stderr is a terminal, keeps
a progress line there (elapsed time, then "done") until the call returns.
Engine calls release the GIL, so the thread runs during them."""

import logging as _logging
import os as _os
import sys as _sys
import threading as _threading
import time as _time

from . import _cnlib as _lib

__all__ = ["logger"]

logger = _logging.getLogger("cunumpy")

_LEVELS = {_lib.CN_LOG_ERROR: _logging.ERROR, _lib.CN_LOG_INFO: _logging.INFO,
           _lib.CN_LOG_DEBUG: _logging.DEBUG}


def _emit(level, text):
    logger.log(_LEVELS.get(level, _logging.INFO), "%s", text)


def flush():
    """Delivers the engine's waiting records to the logger now."""
    _lib._flush_log()


def _install():
    _lib._set_log_sink(_emit)
    level = _lib.cn_log_level()
    if level >= _lib.CN_LOG_ERROR and not logger.hasHandlers():
        h = _logging.StreamHandler(_sys.stderr)
        h.setFormatter(_logging.Formatter("cunumpy: %(levelname)s: "
                                          "%(message)s"))
        logger.addHandler(h)
        logger.setLevel(_LEVELS[min(level, _lib.CN_LOG_DEBUG)])


_install()


def _slow_seconds():
    try:
        v = float(_os.environ.get("CUNUMPY_SLOW_LOG_SECONDS", "1"))
    except ValueError:
        return 1.0
    return v if v >= 0 else 1.0


_SLOW_SECONDS = _slow_seconds()
_TICK = 0.1
_SPIN = "|/-\\"
_active = {}  # thread id -> _Watch
_lock = _threading.Lock()
_thread = None


class _Watch:
    __slots__ = ("what", "t0", "reported", "tty", "ticks", "_key")

    def __init__(self, what):
        self.what = what
        self.reported = False
        self.tty = False
        self.ticks = 0

    def __enter__(self):
        self.t0 = _time.perf_counter()
        self._key = _threading.get_ident()
        _active[self._key] = self
        if _thread is None:
            _start()
        return self

    def __exit__(self, *exc):
        _active.pop(self._key, None)
        if self.reported:
            took = _time.perf_counter() - self.t0
            with _lock:
                if self.tty:
                    _line(f"{self.what}: done in {took:.1f} s", end="\n")
        return False


def watch(what):
    """A context manager reporting `what` while it runs longer than
    CUNUMPY_SLOW_LOG_SECONDS (logger INFO; a progress line on a terminal)."""
    return _Watch(what)


def _line(text, end=""):
    try:
        _sys.stderr.write("\r" + text + "\x1b[K" + end)
        _sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def _isatty():
    try:
        return _sys.stderr.isatty()
    except (OSError, ValueError, AttributeError):
        return False


def _run():
    while True:
        _time.sleep(_TICK)
        now = _time.perf_counter()
        for w in list(_active.values()):
            took = now - w.t0
            if took < _SLOW_SECONDS:
                continue
            with _lock:
                if not w.reported:
                    w.reported = True
                    w.tty = _isatty()
                    logger.info("%s: still running after %.1f s", w.what,
                                took)
                if w.tty and _active.get(w._key) is w:
                    w.ticks += 1
                    _line(f"{w.what} {_SPIN[w.ticks % 4]} {took:.1f} s")


def _start():
    global _thread
    with _lock:
        if _thread is None:
            t = _threading.Thread(target=_run, name="cunumpy-progress",
                                  daemon=True)
            t.start()
            _thread = t
