"""The ``cunumpy`` logger (logging module), fed by the engine's log channel.

The engine's records (include/cunumpy/status.h) arrive as: CN_LOG_ERROR
(every failing call, when CUNUMPY_DEBUG >= 1) at logging.ERROR, CN_LOG_INFO
(one-off work slower than CUNUMPY_SLOW_LOG_SECONDS, default 1 s: FFTW
planning with measure/patient, NVRTC compiles; always sent) at
logging.INFO, CN_LOG_DEBUG (CUNUMPY_DEBUG=3) at logging.DEBUG. Records are
delivered by the main thread shortly after they are made; flush() delivers
the waiting ones now. With CUNUMPY_DEBUG set and no handler configured
anywhere, the logger prints to stderr from the level it names."""

import logging as _logging
import sys as _sys

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
