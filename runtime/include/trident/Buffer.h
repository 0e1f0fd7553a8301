#pragma once
// Device memory holding `size` elements of one dtype. Buffer is a shared handle:
// copies of a Buffer refer to the same memory, freed with the last one.
//
//   Buffer x(dev, n, DType::F32);
//   x.copyFromHost(std::span<const float>(hostX));
//   std::vector<float> back = x.toHost<float>();

#include "trident/Export.h"
#include "trident/DType.h"
#include "trident/Device.h"
#include "trident/Error.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace trident {

namespace detail { struct BufferImpl; }
class Stream;

// A device address that Trident does not own (from another library), with the
// dtype a kernel should see it as.
struct DevicePtr {
  uint64_t address = 0;
  DType dtype = DType::F32;
};

class TRIDENT_API Buffer {
public:
  Buffer() = default;
  // Allocates `size` elements of `dtype` on `device` (contents undefined).
  Buffer(const Device &device, size_t size, DType dtype);
  // Allocates and fills from host data.
  template <class T> static Buffer fromHost(const Device &device, std::span<const T> data) {
    Buffer b(device, data.size(), dtypeOf<T>());
    b.copyFromHost(data);
    return b;
  }
  // Allocates a buffer of `dtype` and fills it with host elements of the same size
  // (e.g. fp16 data held as uint16_t bits).
  template <class T> static Buffer fromHost(const Device &device, std::span<const T> data, DType dtype) {
    Buffer b(device, data.size(), dtype);
    b.copyFromHost(data);
    return b;
  }
  // Makes a native allocation of another library usable as a Buffer (not owned): a
  // CUdeviceptr or hipDeviceptr_t value, or a host address on the host plugin; the
  // Vulkan plugin refuses (Error(NotSupported)). trident/DLPack.h builds on it.
  static Buffer import(const Device &device, uint64_t nativeMemory, size_t size, DType dtype);

  explicit operator bool() const { return impl_ != nullptr; }
  const Device &device() const;
  size_t size() const;  // elements
  size_t bytes() const;
  DType dtype() const;
  uint64_t address() const; // the device address kernels see

  // Synchronous copies (they wait for the device's default stream).
  void copyFromHost(const void *src, size_t bytes, size_t offsetBytes = 0);
  void copyToHost(void *dst, size_t bytes, size_t offsetBytes = 0) const;
  template <class T> void copyFromHost(std::span<const T> src) {
    checkHostElement(sizeof(T), src.size());
    copyFromHost(src.data(), src.size_bytes());
  }
  template <class T> void copyToHost(std::span<T> dst) const {
    checkHostElement(sizeof(T), dst.size());
    copyToHost(dst.data(), dst.size_bytes());
  }
  template <class T> std::vector<T> toHost() const {
    std::vector<T> out(size());
    copyToHost(std::span<T>(out));
    return out;
  }
  // Copies all of `src` (same byte size; any device, of any plugin) into this buffer,
  // after the work enqueued so far on both buffers' default streams.
  void copyFrom(const Buffer &src);
  // Copies `bytes` of `src` from `srcOffsetBytes` to `dstOffsetBytes` of this buffer.
  void copyFrom(const Buffer &src, size_t bytes, size_t dstOffsetBytes, size_t srcOffsetBytes);
  // Sets every byte to `byte`.
  void fillBytes(uint8_t byte);

  // Asynchronous forms on `stream` (of this buffer's device). Host memory must
  // stay valid until the stream has passed the copy.
  void copyFromHostAsync(const Stream &stream, const void *src, size_t bytes, size_t offsetBytes = 0);
  void copyToHostAsync(const Stream &stream, void *dst, size_t bytes, size_t offsetBytes = 0) const;
  // Copies from `src` (any device) on `stream`, a stream of this buffer's device. Work
  // on src's device is not waited for: make `stream` wait for an Event recorded
  // after it (Stream::wait). Between devices of one plugin with peer access the
  // copy is enqueued (CopyRoute::Peer); otherwise it goes through host memory and
  // returns when done (it waits for `stream` and src's default stream first).
  void copyFromAsync(const Stream &stream, const Buffer &src);
  void copyFromAsync(const Stream &stream, const Buffer &src, size_t bytes, size_t dstOffsetBytes,
                     size_t srcOffsetBytes);

  bool operator==(const Buffer &o) const { return impl_ == o.impl_; }
  const std::shared_ptr<detail::BufferImpl> &impl() const { return impl_; }

private:
  void checkHostElement(size_t elementBytes, size_t count) const;
  std::shared_ptr<detail::BufferImpl> impl_;
};

} // namespace trident
