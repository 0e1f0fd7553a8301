// DLPack export and import of Buffers (trident/DLPack.h).

#include "trident/DLPack.h"

#include "Impl.h"
#include "trident/Error.h"
#include "trident/Runtime.h"

#include <memory>
#include <vector>

namespace trident {

using namespace detail;
using namespace dlpack;

DLDataType dlpackTypeOf(DType t) {
  uint8_t bits = uint8_t(dtypeBytes(t) * 8);
  switch (t) {
  case DType::I1: return {kDLBool, 8, 1};
  case DType::I8: case DType::I16: case DType::I32: case DType::I64: return {kDLInt, bits, 1};
  case DType::U8: case DType::U16: case DType::U32: case DType::U64:
  case DType::F8E4M3: case DType::F8E5M2: return {kDLUInt, bits, 1};
  case DType::BF16: return {kDLBfloat, 16, 1};
  default: return {kDLFloat, bits, 1};
  }
}

std::optional<DType> dtypeOfDLPack(DLDataType t) {
  if (t.lanes != 1)
    return std::nullopt;
  switch (t.code) {
  case kDLInt:
    return t.bits == 8 ? DType::I8 : t.bits == 16 ? DType::I16 : t.bits == 32 ? DType::I32
         : t.bits == 64 ? std::optional(DType::I64) : std::nullopt;
  case kDLUInt:
    return t.bits == 8 ? DType::U8 : t.bits == 16 ? DType::U16 : t.bits == 32 ? DType::U32
         : t.bits == 64 ? std::optional(DType::U64) : std::nullopt;
  case kDLFloat:
    return t.bits == 16 ? DType::F16 : t.bits == 32 ? DType::F32 : t.bits == 64 ? std::optional(DType::F64)
                                                                               : std::nullopt;
  case kDLBfloat: return t.bits == 16 ? std::optional(DType::BF16) : std::nullopt;
  case kDLBool: return t.bits == 8 ? std::optional(DType::I1) : std::nullopt;
  default: return std::nullopt;
  }
}

namespace {

// What an exported tensor owns: the buffer, and the shape and strides it points to.
struct Exported {
  DLManagedTensor managed{};
  Buffer buffer;
  std::vector<int64_t> shape, strides;
};

void deleteExported(DLManagedTensor *t) { delete static_cast<Exported *>(t->manager_ctx); }

} // namespace

DLManagedTensor *toDLPack(const Buffer &buffer, std::span<const int64_t> shape) {
  requireHandle(bool(buffer), "Buffer");
  const Device &d = buffer.device();
  int32_t type = d.info().hostMemory ? kDLCPU : d.plugin() == "cuda" ? kDLCUDA : d.plugin() == "hip" ? kDLROCM : -1;
  if (type < 0)
    throw Error(ErrorCode::NotSupported, "a buffer on " + d.name() +
                                             " cannot be shared through DLPack (only host, CUDA and ROCm memory can)");
  auto e = std::make_unique<Exported>();
  e->buffer = buffer;
  e->shape.assign(shape.begin(), shape.end());
  if (e->shape.empty())
    e->shape.push_back(int64_t(buffer.size()));
  int64_t count = 1;
  for (int64_t s : e->shape)
    count = s < 0 ? -1 : count * s;
  if (count != int64_t(buffer.size()))
    throw Error(ErrorCode::InvalidArgument, "toDLPack: the shape holds " + std::to_string(count) +
                                                " elements but the buffer " + std::to_string(buffer.size()));
  e->strides.assign(e->shape.size(), 1);
  for (size_t i = e->shape.size(); i-- > 1;)
    e->strides[i - 1] = e->strides[i] * e->shape[i];
  DLTensor &t = e->managed.dl_tensor;
  t.data = reinterpret_cast<void *>(buffer.address());
  t.device = {type, d.info().hostMemory ? 0 : int32_t(d.ordinal())};
  t.ndim = int32_t(e->shape.size());
  t.dtype = dlpackTypeOf(buffer.dtype());
  t.shape = e->shape.data();
  t.strides = e->strides.data();
  t.byte_offset = 0;
  e->managed.manager_ctx = e.get();
  e->managed.deleter = deleteExported;
  return &e.release()->managed;
}

Buffer fromDLPack(DLManagedTensor *tensor, const Device &hostDevice) {
  if (!tensor)
    throw Error(ErrorCode::InvalidArgument, "fromDLPack: no tensor");
  // Owned from here on: its deleter runs when the Buffer (or this function, on error) lets go.
  std::shared_ptr<DLManagedTensor> owner(tensor, [](DLManagedTensor *t) {
    if (t->deleter)
      t->deleter(t);
  });
  const DLTensor &t = tensor->dl_tensor;
  std::optional<DType> dtype = dtypeOfDLPack(t.dtype);
  if (!dtype)
    throw Error(ErrorCode::InvalidArgument, "fromDLPack: the tensor's element type (code " +
                                                std::to_string(t.dtype.code) + ", " + std::to_string(t.dtype.bits) +
                                                " bits, " + std::to_string(t.dtype.lanes) + " lanes) has no Trident dtype");
  if (t.ndim < 0 || (t.ndim > 0 && !t.shape))
    throw Error(ErrorCode::InvalidArgument, "fromDLPack: the tensor has no shape");
  size_t count = 1;
  for (int32_t i = 0; i < t.ndim; ++i) {
    if (t.shape[i] < 0)
      throw Error(ErrorCode::InvalidArgument, "fromDLPack: the tensor has a negative extent");
    count *= size_t(t.shape[i]);
  }
  if (t.strides && count > 1) {
    int64_t expected = 1;
    for (int32_t i = t.ndim; i-- > 0;) {
      if (t.shape[i] != 1 && t.strides[i] != expected)
        throw Error(ErrorCode::InvalidArgument, "fromDLPack: the tensor is not contiguous and row-major "
                                                "(make it so first)");
      expected *= t.shape[i];
    }
  }
  Device device;
  switch (t.device.device_type) {
  case kDLCPU:
  case kDLCUDAHost:
  case kDLROCMHost:
    device = hostDevice ? hostDevice : Runtime::get().device("host:0");
    if (!device.info().hostMemory)
      throw Error(ErrorCode::InvalidArgument, "fromDLPack: the tensor is in host memory, which " + device.name() +
                                                  " cannot use in place; copy it there (Buffer::copyFromHost)");
    break;
  case kDLCUDA:
  case kDLCUDAManaged: device = Runtime::get().device("cuda:" + std::to_string(t.device.device_id)); break;
  case kDLROCM: device = Runtime::get().device("hip:" + std::to_string(t.device.device_id)); break;
  default:
    throw Error(ErrorCode::NotSupported, "fromDLPack: tensors on DLPack device type " +
                                             std::to_string(t.device.device_type) +
                                             " are not supported (host, CUDA and ROCm memory are)");
  }
  uint64_t address = reinterpret_cast<uint64_t>(t.data) + t.byte_offset;
  Buffer b = Buffer::import(device, address, count, *dtype);
  b.impl()->owner = std::move(owner);
  return b;
}

} // namespace trident
