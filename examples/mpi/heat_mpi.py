"""2-d heat equation on MPI ranks with mpi4py, the grids in cunumpy arrays.

u_t = u_xx + u_yy on the unit square, u = 0 on the boundary,
u(x, y, 0) = sin(pi x) sin(pi y), explicit Euler on an (n+2) x (n+2) grid,
distributed by blocks of rows. Each rank holds its rows plus two halo rows
in a C-ordered cunumpy array; mpi4py sends and receives the halo rows
straight from and into the array's memory through the buffer protocol (a
row view is a writable buffer: no copy). The update is cunumpy ops into
preallocated outputs. The heat content is a distributed reduction
(Allreduce of the ranks' 0-d engine sums, again as buffers), and rank 0
gathers the grid and writes it as raw float64, so runs on different rank
counts compare byte for byte. CPU backend (Debian's Open MPI is not
CUDA-aware; on a CUDA-aware MPI, mpi4py takes device arrays through their
__cuda_array_interface__).

    mpirun -np P python3 heat_mpi.py [n] [steps] [outfile]
"""
import math
import sys

from mpi4py import MPI

import cunumpy as cn


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 64
    steps = int(argv[2]) if len(argv) > 2 else 100
    outfile = argv[3] if len(argv) > 3 else None
    comm = MPI.COMM_WORLD
    rank, nranks = comm.Get_rank(), comm.Get_size()
    if n < nranks:
        raise SystemExit("heat_mpi: the grid needs at least one row per rank")
    counts = [n // nranks + (r < n % nranks) for r in range(nranks)]
    offsets = [sum(counts[:r]) for r in range(nranks)]
    nloc, offset = counts[rank], offsets[rank]
    below = rank - 1 if rank > 0 else MPI.PROC_NULL
    above = rank + 1 if rank < nranks - 1 else MPI.PROC_NULL
    dx = 1.0 / (n + 1)
    dt = 0.2 * dx * dx
    rate = dt / (dx * dx)

    x = cn.arange(n + 2, dtype=cn.float64) * dx
    y = (cn.arange(nloc + 2, dtype=cn.float64) + offset) * dx
    grids = [cn.zeros((nloc + 2, n + 2)), cn.zeros((nloc + 2, n + 2))]
    grids[0][1:-1, 1:-1] = cn.sin(math.pi * y[1:-1, None]) * \
        cn.sin(math.pi * x[None, 1:-1])
    s1, s2, s3 = (cn.empty((nloc, n)) for _ in range(3))

    for k in range(steps):
        src, dst = grids[k % 2], grids[(k + 1) % 2]
        comm.Sendrecv(src[1], dest=below, sendtag=0,
                      recvbuf=src[nloc + 1], source=above, recvtag=0)
        comm.Sendrecv(src[nloc], dest=above, sendtag=1,
                      recvbuf=src[0], source=below, recvtag=1)
        centre = src[1:-1, 1:-1]
        cn.add(src[1:-1, :-2], src[1:-1, 2:], out=s1)
        cn.add(src[:-2, 1:-1], src[2:, 1:-1], out=s2)
        cn.add(s1, s2, out=s3)
        cn.multiply(centre, 4.0, out=s1)
        cn.subtract(s3, s1, out=s2)
        cn.multiply(s2, rate, out=s3)
        cn.add(centre, s3, out=dst[1:-1, 1:-1])
    final = grids[steps % 2]

    t = steps * dt
    exact = math.exp(-2 * math.pi ** 2 * t) * cn.sin(math.pi * y[1:-1, None]) * \
        cn.sin(math.pi * x[None, 1:-1])
    local = cn.stack([cn.sum(final[1:-1, 1:-1]),
                      cn.max(cn.abs(final[1:-1, 1:-1] - exact))])
    heat, err = cn.empty(1), cn.empty(1)
    comm.Allreduce(local[0:1], heat, op=MPI.SUM)
    comm.Allreduce(local[1:2], err, op=MPI.MAX)

    grid = cn.empty((n, n + 2)) if rank == 0 else None
    comm.Gatherv(final[1:-1],
                 (grid, [c * (n + 2) for c in counts],
                  [o * (n + 2) for o in offsets], MPI.DOUBLE), root=0)
    if rank == 0:
        print(f"grid {n + 2}x{n + 2}, {steps} steps on {nranks} ranks")
        print(f"heat content (engine sums, Allreduce) * dx^2 = "
              f"{float(heat[0]) * dx * dx:.4e}")
        print(f"max error vs exact solution = {float(err[0]):.4e}")
        if outfile:
            with open(outfile, "wb") as f:
                f.write(memoryview(cn.ascontiguousarray(grid[:, 1:-1])))
        if float(err[0]) > 1e-2 * math.exp(-2 * math.pi ** 2 * t):
            raise SystemExit("heat_mpi: error too large")


if __name__ == "__main__":
    main(sys.argv)
