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
__host__ __device__ inline int cn_host_f2i(float f) {
  int i;
  memcpy(&i, &f, 4);
  return i;
}
__host__ __device__ inline long long cn_host_d2l(double d) {
  long long i;
  memcpy(&i, &d, 8);
  return i;
}
#define CN_DEV __host__ __device__ inline
#define CN_SHARED static
#define CN_SYNC() (void)0
#define CN_I2F cn_host_i2f
#define CN_L2D cn_host_l2d
#define CN_F2I cn_host_f2i
#define CN_D2L cn_host_d2l
#endif
