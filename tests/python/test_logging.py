"""The `cunumpy` logger, fed by the engine's log channel (CUNUMPY_DEBUG
levels, slow-work INFO records, delivery from any thread)."""

import os
import subprocess
import sys
import textwrap

import pytest

import cunumpy as xp


def _run(code, **env):
    e = dict(os.environ)
    for k in ("CUNUMPY_DEBUG", "CUNUMPY_SLOW_LOG_SECONDS"):
        e.pop(k, None)
    e.update(env)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=120,
                          env=e, check=True)


RECORDER = """
import logging, threading
import cunumpy as xp
records = []
class H(logging.Handler):
    def emit(self, r):
        records.append((r.levelname, r.getMessage()))
xp.logger.addHandler(H())
xp.logger.setLevel(logging.DEBUG)
xp.logger.propagate = False
def fail():
    try:
        xp.ones(2) + xp.ones(3)
    except ValueError:
        pass
"""


@pytest.mark.parametrize("value, level", [("", 0), ("0", 0), ("yes", 1),
                                          ("2", 2), ("9", 3)])
def test_debug_levels(value, level):
    out = _run("import cunumpy as xp; print(xp._cnlib.cn_log_level())",
               CUNUMPY_DEBUG=value).stdout
    assert int(out) == level


def test_error_records_only_with_cunumpy_debug():
    code = RECORDER + """
fail()
t = threading.Thread(target=fail); t.start(); t.join()
xp._logging.flush()
print(records)
"""
    quiet = _run(code).stdout
    assert quiet.strip() == "[]"
    loud = eval(_run(code, CUNUMPY_DEBUG="1").stdout)  # noqa: S307
    # one from the main thread, one from the other thread
    assert len(loud) == 2
    for lv, msg in loud:
        assert lv == "ERROR"
        assert msg.startswith("CN_ERR_SHAPE: cn_add: operands could not be "
                              "broadcast")


def test_default_stream_handler_under_cunumpy_debug():
    r = _run("""
import cunumpy as xp
try:
    xp.ones(2) + xp.ones(3)
except ValueError:
    pass
xp._logging.flush()
""", CUNUMPY_DEBUG="1")
    assert "cunumpy: ERROR: CN_ERR_SHAPE: cn_add: operands" in r.stderr


def test_stderr_without_a_sink():
    r = _run("""
import cunumpy as xp
xp._cnlib._set_log_sink(None)
try:
    xp.ones(2) + xp.ones(3)
except ValueError:
    pass
""", CUNUMPY_DEBUG="1")
    assert "cunumpy: ERROR: CN_ERR_SHAPE: cn_add: operands" in r.stderr


def test_slow_fftw_planning_is_an_info_record():
    code = RECORDER + """
xp.fft.set_planner("measure")
xp.fft.fft(xp.ones(256))
xp.fft.rfft(xp.ones(300, dtype=xp.float32))
xp._logging.flush()
print(records)
"""
    got = eval(_run(code, CUNUMPY_SLOW_LOG_SECONDS="0").stdout)  # noqa: S307
    # the engine's records, made when planning ends (the progress records
    # made while a call runs are tested below)
    msgs = [m for lv, m in got if lv == "INFO" and "still running" not in m]
    assert len(msgs) == 2, got
    assert msgs[0].startswith("FFTW planning (measure) of a rank-1 "
                              "transform of first length 256 took ")
    # under the default threshold (1 s) such fast planning says nothing
    assert eval(_run(code).stdout) == []  # noqa: S307
    # estimate planning is timed too, and cached plans are not replanned
    code2 = RECORDER + """
xp.fft.fft(xp.ones(64)); xp.fft.fft(xp.ones(64))
xp._logging.flush()
print(records)
"""
    got = eval(_run(code2, CUNUMPY_SLOW_LOG_SECONDS="0").stdout)  # noqa: S307
    assert [m.split(" of ")[0] for _, m in got] == ["FFTW planning "
                                                    "(estimate)"]


def test_sink_must_be_callable():
    with pytest.raises(TypeError):
        xp._cnlib._set_log_sink(3)
    assert xp.logger.name == "cunumpy"


def test_a_failing_sink_does_not_break_the_engine():
    r = _run("""
import cunumpy as xp
def bad(level, text):
    raise RuntimeError("sink failed")
xp._cnlib._set_log_sink(bad)
xp.fft.fft(xp.ones(32))
xp._logging.flush()
print(float(xp.ones(3).sum()))
""", CUNUMPY_SLOW_LOG_SECONDS="0")
    assert r.stdout.strip() == "3.0"
    assert "sink failed" in r.stderr


# ---- progress of long calls, reported while they run ----------------------

import io as _io  # noqa: E402
import logging  # noqa: E402
import time as _time  # noqa: E402

from cunumpy import _logging as _cnlogging  # noqa: E402


class _Tty(_io.StringIO):
    def isatty(self):
        return True


def _still_running(caplog, what):
    return [r for r in caplog.records if r.name == "cunumpy"
            and r.levelno == logging.INFO
            and r.getMessage().startswith(what + ": still running")]


def test_progress_record_appears_while_the_call_runs(caplog, monkeypatch):
    monkeypatch.setattr(_cnlogging, "_SLOW_SECONDS", 0.2)
    caplog.set_level(logging.INFO, logger="cunumpy")
    with _cnlogging.watch("fake slow work"):
        deadline = _time.monotonic() + 5
        while not _still_running(caplog, "fake slow work") and \
                _time.monotonic() < deadline:
            _time.sleep(0.05)
        # still inside the call: the record is already there
        assert len(_still_running(caplog, "fake slow work")) == 1
    with _cnlogging.watch("fast work"):
        pass
    _time.sleep(0.4)
    assert not _still_running(caplog, "fast work")


def test_progress_line_on_a_terminal_only(monkeypatch):
    monkeypatch.setattr(_cnlogging, "_SLOW_SECONDS", 0.1)
    tty = _Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    with _cnlogging.watch("fake planning"):
        _time.sleep(0.6)
        during = tty.getvalue()
    after = tty.getvalue()
    assert "\rfake planning " in during and " s" in during
    assert "fake planning: done in" in after and after.endswith("\n")
    plain = _io.StringIO()
    monkeypatch.setattr(sys, "stderr", plain)
    with _cnlogging.watch("fake planning"):
        _time.sleep(0.4)
    assert plain.getvalue() == ""


def test_fft_calls_are_watched(caplog, monkeypatch):
    monkeypatch.setattr(_cnlogging, "_SLOW_SECONDS", 0.1)
    caplog.set_level(logging.INFO, logger="cunumpy")

    def cn_slowfft(a, n, axis, norm):  # stands for a long FFTW planning
        _time.sleep(0.5)
        return a

    f = xp.fft._one(cn_slowfft)
    x = xp.ones(4)
    assert f(x) is x
    assert _still_running(caplog, "FFT planning/transform (slowfft)")
