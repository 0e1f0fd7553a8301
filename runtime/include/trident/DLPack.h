#pragma once
// DLPack (https://dmlc.github.io/dlpack, ABI 0.x): sharing Buffers with other array
// libraries without copying. The structures are declared here, in namespace
// trident::dlpack with the standard's layout, because Debian has no package of
// dlpack.h; a program that has the real header can reinterpret_cast between them.
//
//   DLManagedTensor *t = toDLPack(buffer);        // hand it to torch.from_dlpack & co.
//   Buffer b = fromDLPack(tensorFromElsewhere);    // Trident now owns `t` (calls its deleter)
//
// Host memory (the host plugin's buffers, kDLCPU; imported also from kDLCUDAHost and
// kDLROCMHost) and CUDA and ROCm device memory (kDLCUDA, kDLROCM; imported also from
// kDLCUDAManaged) are shared; Vulkan memory has no DLPack form here.

#include "trident/Buffer.h"
#include "trident/Export.h"

#include <cstdint>
#include <optional>
#include <span>

namespace trident {

class Runtime;

namespace dlpack {

enum DeviceType : int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLVulkan = 7,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLCUDAManaged = 13,
};
enum TypeCode : uint8_t { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLBool = 6 };

struct DLDevice {
  int32_t device_type;
  int32_t device_id;
};
struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides; // in elements; null: compact row-major
  uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(DLManagedTensor *self);
};

} // namespace dlpack

// The Trident dtype of a DLPack element type (nullopt for those Trident has not:
// vectors, complex, other widths), and the DLPack type of a dtype (fp8 as uint8).
TRIDENT_API std::optional<DType> dtypeOfDLPack(dlpack::DLDataType type);
TRIDENT_API dlpack::DLDataType dlpackTypeOf(DType dtype);

// `buffer` as a DLPack tensor of `shape` (default: one dimension of buffer.size()
// elements), row-major. The tensor keeps the buffer's memory alive until its deleter
// is called, which the receiver must do. Error(NotSupported) for memory DLPack
// cannot describe (Vulkan), Error(InvalidArgument) when shape's product is not the size.
TRIDENT_API dlpack::DLManagedTensor *toDLPack(const Buffer &buffer, std::span<const int64_t> shape = {});

// A Buffer over `tensor`'s memory, without copying: on the device the tensor names
// (cuda:<id>, hip:<id>), or for host memory on `hostDevice` (default: host:0 of the
// default runtime), which must use host addresses. The Buffer takes ownership: the
// tensor's deleter runs when the last copy of the Buffer goes (also when this
// throws). The tensor must be contiguous and row-major, of a dtype Trident has.
TRIDENT_API Buffer fromDLPack(dlpack::DLManagedTensor *tensor, const Device &hostDevice = Device());

} // namespace trident
