/* cunumpy/dlpack.h: DLPack 1.x exchange. The structs are declared here from
 * the DLPack specification (same names and layout); if the official
 * dlpack.h was included first, its declarations are used instead, and ours
 * claim its include guard so a later include of it is harmless. */
#ifndef CUNUMPY_DLPACK_H
#define CUNUMPY_DLPACK_H

#include "cunumpy/array.h"

#if !defined(DLPACK_DLPACK_H_)
#define DLPACK_DLPACK_H_
#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 1

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

typedef enum {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17
} DLDeviceType;

typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

typedef enum {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6
} DLDataTypeCode;

typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

typedef struct {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides;
  uint64_t byte_offset;
} DLTensor;

typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)

typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned *self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

#ifdef __cplusplus
}
#endif
#endif /* DLPACK_DLPACK_H_ */

#ifdef __cplusplus
extern "C" {
#endif

/* Exports a as a versioned DLPack tensor (version 1.1). The tensor holds a
 * reference to a's buffer; the consumer calls its deleter exactly once (any
 * thread, any time). READ_ONLY is set for read-only and broadcast views.
 * data is element (0,...,0) (NULL when empty), byte_offset is 0, strides
 * are in elements and never NULL. */
CN_API cn_status cn_to_dlpack(DLManagedTensorVersioned **out, cn_array a);
/* Same, as a legacy (unversioned) tensor. CN_ERR_VALUE for read-only and
 * broadcast views, which a legacy tensor cannot mark read-only. */
CN_API cn_status cn_to_dlpack_legacy(DLManagedTensor **out, cn_array a);
/* Imports a versioned tensor without copying. The tensor is consumed in every
 * case: on success its deleter runs when the last view goes away, on failure
 * it runs before return. Rejects (CN_ERR_VALUE/TYPE/DEVICE) an unknown major
 * version (touching nothing but version and deleter), NULL data with a
 * non-zero size, negative extents, strides that overflow, unknown dtypes,
 * lanes != 1, misaligned elements, devices this build cannot serve (CPU and
 * CUDA host memory are served; CUDA memory loads the CUDA plugin). NULL
 * strides mean C-contiguous. READ_ONLY gives a read-only array. */
CN_API cn_status cn_from_dlpack(cn_array *out, DLManagedTensorVersioned *t);
/* Same for a legacy tensor. */
CN_API cn_status cn_from_dlpack_legacy(cn_array *out, DLManagedTensor *t);

#ifdef __cplusplus
}
#endif
#endif
