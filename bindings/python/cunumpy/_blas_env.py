"""OpenBLAS's kernel choice, made before libcunumpy loads OpenBLAS.

Debian's OpenBLAS (0.3.21) picks its kernels from the CPU's model number
and falls back to the generic Prescott kernels for a model it does not
know, which is what virtual machines that hide the model report: dgemm
then runs about 4x slower than with the AVX-512 kernels the CPU has
(3.5 against 14 GFLOPS for n=1500 on one core here). OpenBLAS reads
OPENBLAS_CORETYPE once, when it is loaded, so the choice has to be in the
environment before the engine's library is: this picks the kernels from
the CPU's feature flags (SkylakeX for AVX-512 F/BW/DQ/VL, Haswell for
AVX2+FMA) unless the user has set OPENBLAS_CORETYPE. C and Fortran
programs set OPENBLAS_CORETYPE themselves (README, "Build options").
"""
import os


def _coretype_from_flags(flags):
    if {"avx512f", "avx512bw", "avx512dq", "avx512vl"} <= flags:
        return "SkylakeX"
    if {"avx2", "fma"} <= flags:
        return "Haswell"
    return None


def _cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


if "OPENBLAS_CORETYPE" not in os.environ:
    _ct = _coretype_from_flags(_cpu_flags())
    if _ct is not None:
        os.environ["OPENBLAS_CORETYPE"] = _ct
