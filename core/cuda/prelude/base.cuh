// cunumpy CUDA prelude: compiled by NVRTC in front of every generated
// kernel (core/cuda/codegen.c). It defines, for every compute type, the k_*
// helpers that core/ops.def expressions use, with the semantics of
// core/cpu/scalar.h (NumPy's), the unsafe casts of core/cpu/dtypes.h (x86
// results for NaN and out-of-range float -> int), and the templates of the
// elementwise, reduction and scan kernels the generator instantiates.
// Self-contained: NVRTC gets no include path.

// tests/cuda/prelude_host.cu compiles this file as host code (nvcc), with
// its own CN_DEV, CN_SHARED, CN_SYNC and bit casts.
#ifndef CN_DEV
#define CN_DEV __device__ __forceinline__
#define CN_SHARED __shared__
#define CN_SYNC __syncthreads
#define CN_I2F __int_as_float
#define CN_L2D __longlong_as_double
#define CN_F2I __float_as_int
#define CN_D2L __double_as_longlong
#endif
#define CN_MAX_DIMS 32

typedef signed char cn_i8;
typedef short cn_i16;
typedef int cn_i32;
typedef long long cn_i64;
typedef unsigned char cn_u8;
typedef unsigned short cn_u16;
typedef unsigned int cn_u32;
typedef unsigned long long cn_u64;

