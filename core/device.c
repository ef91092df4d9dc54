/* The device helpers of include/cunumpy/device.h: the backend decides
 * whether they act (CUDA) or answer that there is nothing to do (CPU). */
#include <errno.h>
#include <stdlib.h>

#include "cunumpy/cuda.h"
#include "cunumpy/device.h"
#include "internal.h"

static bool cuda_active(void) { return cn_active_backend() != cn_cpu_backend(); }

cn_status cn_set_device(int32_t device) {
  if (device < 0)
    return cn_error(CN_ERR_VALUE, "cn_set_device: argument 'device' is %d, "
                                  "must be non-negative",
                    (int)device);
  if (!cuda_active())
    return CN_OK;
  return cn_cuda_set_device(device);
}

cn_status cn_memory_info(int32_t *available, int64_t *free_bytes,
                         int64_t *total_bytes) {
  const char *fn = "cn_memory_info";
  CN_CHECK_OUT(available, fn);
  CN_CHECK_OUT(free_bytes, fn);
  CN_CHECK_OUT(total_bytes, fn);
  if (!cuda_active()) {
    *available = 0;
    *free_bytes = *total_bytes = 0;
    return CN_OK;
  }
  int64_t f = 0, t = 0;
  cn_status st = cn_cuda_memory_info(&f, &t, -1);
  if (st != CN_OK)
    return st;
  *available = 1;
  *free_bytes = f;
  *total_bytes = t;
  return CN_OK;
}

/* Launchers name the node-local rank differently; the first set wins. */
static const char *const k_local_rank_vars[] = {
    "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
    "MV2_COMM_WORLD_LOCAL_RANK",  "SLURM_LOCALID",
    "PMI_LOCAL_RANK",             "PMIX_LOCAL_RANK",
};

cn_status cn_local_rank(int32_t *out) {
  CN_CHECK_OUT(out, "cn_local_rank");
  for (size_t i = 0; i < sizeof k_local_rank_vars / sizeof *k_local_rank_vars;
       i++) {
    const char *v = getenv(k_local_rank_vars[i]);
    if (v == NULL || *v == '\0')
      continue;
    char *end = NULL;
    errno = 0;
    long r = strtol(v, &end, 10);
    if (errno != 0 || end == v || *end != '\0' || r < 0 || r > INT32_MAX)
      return cn_error(CN_ERR_VALUE,
                      "cn_local_rank: %s is '%.64s', not a non-negative "
                      "integer",
                      k_local_rank_vars[i], v);
    *out = (int32_t)r;
    return CN_OK;
  }
  *out = 0;
  return CN_OK;
}

cn_status cn_set_device_for_rank(int32_t *device, int32_t rank) {
  const char *fn = "cn_set_device_for_rank";
  CN_CHECK_OUT(device, fn);
  if (rank < 0)
    return cn_error(CN_ERR_VALUE, "%s: argument 'rank' is negative (%d)", fn,
                    (int)rank);
  if (!cuda_active()) {
    *device = -1;
    return CN_OK;
  }
  return cn_cuda_set_device_for_rank(device, rank);
}

cn_status cn_bind_local_device(int32_t *device) {
  CN_CHECK_OUT(device, "cn_bind_local_device");
  int32_t rank = 0;
  cn_status st = cn_local_rank(&rank);
  if (st != CN_OK)
    return cn_error_prefix(st, "cn_bind_local_device");
  return cn_set_device_for_rank(device, rank);
}

cn_status cn_synchronize_for_mpi(int32_t n, const cn_array *arrays) {
  const char *fn = "cn_synchronize_for_mpi";
  if (n < 0)
    return cn_error(CN_ERR_VALUE, "%s: argument 'n' is negative (%d)", fn,
                    (int)n);
  if (n > 0 && arrays == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'arrays' is NULL", fn);
  bool on_cuda = false;
  for (int32_t i = 0; i < n; i++) {
    CN_CHECK_ARRAY(arrays[i], fn, "arrays[i]");
    int32_t type = 0, id = 0;
    cn_status st = cn_array_device(&type, &id, arrays[i]);
    if (st != CN_OK)
      return st;
    on_cuda |= type == CN_DEVICE_CUDA || type == CN_DEVICE_CUDA_MANAGED;
  }
  if (n == 0)
    return cuda_active() ? cn_cuda_device_synchronize() : CN_OK;
  return on_cuda ? cn_cuda_synchronize_all() : CN_OK;
}
