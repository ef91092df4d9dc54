"""Calls the stubs must reject: each line marked ``# E: code`` is a mypy
error of that code (test_typing.py requires exactly these errors)."""

import cunumpy as xp
import cunumpy.sparse as sps

a = xp.ones((2, 3))
a.shape + 1  # E: operator
a.ndim.upper()  # E: attr-defined
a.no_such_attribute  # E: attr-defined
xp.sum(a, axis="rows")  # E: arg-type
xp.sum(a, keepdims="yes")  # E: arg-type
xp.zeros("3")  # E: arg-type
xp.linalg.solve(a)  # E: call-arg
xp.sin(a, a, a)  # E: call-arg
xp.add(a)  # E: call-arg
n: int = xp.sum(a)  # E: assignment
s: str = a.size  # E: assignment
xp.fft.fft(a, norm=1)  # E: arg-type
xp.concatenate([a, a], out=3)  # E: arg-type
xp.random.default_rng(0).normal(size="2")  # E: arg-type
xp.linalg.eigh(a).no_such_field  # E: attr-defined
xp.where(a, a)  # E: call-overload
u: xp.ndarray = xp.unique(a, return_counts=True)  # E: assignment
pair: tuple[xp.ndarray, xp.ndarray] = xp.unique(a)  # E: assignment
xp.linalg.svd(a, compute_uv=False).S  # E: attr-defined
xp.linalg.qr(a, mode="r").Q  # E: attr-defined
step: str = xp.linspace(0, 1, retstep=True)[1]  # E: assignment
xp.indices((2, 2), sparse=True).shape  # E: attr-defined
xp.cuda.get_default_memory_pool().used_bytes().upper()  # E: attr-defined
xp.cuda.Device(0).id.upper()  # E: attr-defined
xp.profiler.benchmark(xp.sin, (a,)).cpu_times.no_such  # E: attr-defined
sps.csr_matrix(a).nnz.upper()  # E: attr-defined
(sps.csr_matrix(a) @ a).indptr  # E: attr-defined
