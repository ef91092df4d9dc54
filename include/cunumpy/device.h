/* cunumpy/device.h: device helpers that work on every backend (the CuNumpy
 * guide's set_device, memory_info, local_rank, bind_local_device,
 * set_device_for_rank, synchronize_for_mpi). On the CPU backend they do
 * nothing and say so; on the CUDA backend they act on CUDA devices through
 * cunumpy/cuda.h and return its errors. */
#ifndef CUNUMPY_DEVICE_H
#define CUNUMPY_DEVICE_H

#include "cunumpy/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Selects the calling thread's CUDA device when the CUDA backend is active;
 * a no-op (CN_OK) on the CPU backend. CN_ERR_VALUE for a negative device,
 * CN_ERR_DEVICE for an ordinal outside [0, device count). */
CN_API cn_status cn_set_device(int32_t device);
/* Free and total bytes of the current CUDA device with *available = 1 when
 * the CUDA backend is active; *available = 0 and both sizes 0 on the CPU
 * backend. CN_ERR_VALUE for a NULL output. */
CN_API cn_status cn_memory_info(int32_t *available, int64_t *free_bytes,
                                int64_t *total_bytes);
/* The node-local rank the MPI launcher or scheduler exports, from the first
 * set of OMPI_COMM_WORLD_LOCAL_RANK (Open MPI), MPI_LOCALRANKID
 * (MPICH/Hydra), MV2_COMM_WORLD_LOCAL_RANK (MVAPICH), SLURM_LOCALID,
 * PMI_LOCAL_RANK, PMIX_LOCAL_RANK; 0 when none is set. Readable before
 * MPI_Init. CN_ERR_VALUE naming the variable when its value is not a
 * non-negative integer. */
CN_API cn_status cn_local_rank(int32_t *out);
/* Round-robin device for an MPI rank: on the CUDA backend selects device
 * rank % device count and writes it to *device; on the CPU backend writes
 * -1 and selects nothing. CN_ERR_VALUE for a negative rank. */
CN_API cn_status cn_set_device_for_rank(int32_t *device, int32_t rank);
/* cn_set_device_for_rank(device, cn_local_rank()): binds this process to
 * its node-local GPU, before MPI_Init as CUDA-aware MPI needs. */
CN_API cn_status cn_bind_local_device(int32_t *device);
/* Waits until the work writing the n arrays has finished, so that MPI may
 * read or write their memory: when one of them is on a CUDA device, every
 * device is synchronised (arrays do not record the stream that wrote
 * them); CPU arrays need nothing. n = 0 waits for the current device when the CUDA
 * backend is active. CN_ERR_VALUE for n < 0 or a NULL array. */
CN_API cn_status cn_synchronize_for_mpi(int32_t n, const cn_array *arrays);

#ifdef __cplusplus
}
#endif
#endif
