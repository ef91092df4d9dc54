// The device prelude's qualifiers and bit casts for its compilation as host
// code by nvcc (tests/cuda/prelude_host.cu, tests/cuda/rng_host.cu): device
// functions become host inline functions, shared memory static storage.
#ifndef CUNUMPY_TESTS_CUDA_HOST_DEVICE_H
#define CUNUMPY_TESTS_CUDA_HOST_DEVICE_H
#include <cstring>

__host__ __device__ inline float cn_host_i2f(int i) {
  float f;
  memcpy(&f, &i, 4);
  return f;
}
__host__ __device__ inline double cn_host_l2d(long long i) {
  double d;
  memcpy(&d, &i, 8);
  return d;
}
#define CN_DEV __host__ __device__ inline
#define CN_SHARED static
#define CN_SYNC() (void)0
#define CN_I2F cn_host_i2f
#define CN_L2D cn_host_l2d
#endif
