#include "trident/Buffer.h"

#include "Impl.h"
#include "trident/Stream.h"
#include "trident/support/ByteSize.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace trident {

using namespace detail;

namespace detail {

BufferImpl::~BufferImpl() {
  if (owned && address)
    device->plugin->tryCall(&trident_plugin_api::mem_free, device->handle(), address);
}

} // namespace detail

namespace {

std::string describe(const BufferImpl &b) {
  return "a buffer of " + std::to_string(b.size) + " " + std::string(dtypeName(b.dtype)) + " on " + b.device->name;
}

void checkRange(const BufferImpl &b, size_t bytes, size_t offset, const char *what) {
  size_t total = b.size * dtypeBytes(b.dtype);
  if (offset > total || bytes > total - offset)
    throw Error(ErrorCode::InvalidArgument, std::string(what) + " of " + std::to_string(bytes) + " bytes at offset " +
                                                std::to_string(offset) + " does not fit " + describe(b) + " (" +
                                                std::to_string(total) + " bytes)");
}

trident_stream streamOn(const BufferImpl &b, const Stream &stream) {
  requireHandle(bool(stream), "Stream");
  if (stream.impl()->device.get() != b.device)
    throw Error(ErrorCode::InvalidArgument, "a stream of " + stream.impl()->device->name +
                                                " cannot copy into or out of " + describe(b) +
                                                "; use a stream of the buffer's device");
  return stream.impl()->stream;
}

} // namespace

Buffer::Buffer(const Device &device, size_t size, DType dtype) {
  requireHandle(bool(device), "Device");
  auto b = std::make_shared<BufferImpl>();
  b->deviceHandle = device;
  b->device = device.impl().get();
  b->size = size;
  b->dtype = dtype;
  DeviceImpl &d = *b->device;
  if (dtypeBytes(dtype) > 0 && size > SIZE_MAX / dtypeBytes(dtype))
    throw Error(ErrorCode::OutOfMemory, "allocating " + std::to_string(size) + " elements of " +
                                            std::string(dtypeName(dtype)) + " on " + d.name +
                                            ": out of memory: more than 2^64 bytes");
  size_t bytes = size * dtypeBytes(dtype);
  trident_devptr address = 0; // a failed call's output is never kept (nor freed)
  if (bytes > 0)
    TRIDENT_CALL(*d.plugin, mem_alloc,
                 "allocating " + std::to_string(bytes) + " bytes (" + formatByteSize(bytes) + ") on " + d.name,
                 d.handle(), bytes, &address);
  b->address = address;
  impl_ = std::move(b);
}

Buffer Buffer::import(const Device &device, uint64_t nativeMemory, size_t size, DType dtype) {
  requireHandle(bool(device), "Device");
  Buffer out;
  auto b = std::make_shared<BufferImpl>();
  b->deviceHandle = device;
  b->device = device.impl().get();
  b->size = size;
  b->dtype = dtype;
  DeviceImpl &d = *b->device;
  trident_devptr address = 0;
  TRIDENT_CALL(*d.plugin, mem_import, "importing native memory on " + d.name, d.handle(), nativeMemory,
               size * dtypeBytes(dtype), &address);
  b->address = address;
  out.impl_ = std::move(b);
  return out;
}

const Device &Buffer::device() const {
  requireHandle(impl_ != nullptr, "Buffer");
  return impl_->deviceHandle;
}
size_t Buffer::size() const {
  requireHandle(impl_ != nullptr, "Buffer");
  return impl_->size;
}
size_t Buffer::bytes() const {
  requireHandle(impl_ != nullptr, "Buffer");
  return impl_->size * dtypeBytes(impl_->dtype);
}
DType Buffer::dtype() const {
  requireHandle(impl_ != nullptr, "Buffer");
  return impl_->dtype;
}
uint64_t Buffer::address() const {
  requireHandle(impl_ != nullptr, "Buffer");
  return impl_->address;
}

void Buffer::checkHostElement(size_t elementBytes, size_t count) const {
  requireHandle(impl_ != nullptr, "Buffer");
  if (elementBytes != dtypeBytes(impl_->dtype))
    throw Error(ErrorCode::InvalidArgument, "host elements of " + std::to_string(elementBytes) +
                                                " bytes do not match " + describe(*impl_) + " (" +
                                                std::to_string(dtypeBytes(impl_->dtype)) + " bytes each)");
  if (count > impl_->size)
    throw Error(ErrorCode::InvalidArgument, "a host span of " + std::to_string(count) + " elements does not fit " +
                                                describe(*impl_));
}

void Buffer::copyFromHostAsync(const Stream &stream, const void *src, size_t bytes, size_t offset) {
  requireHandle(impl_ != nullptr, "Buffer");
  checkRange(*impl_, bytes, offset, "a copy from the host");
  if (bytes == 0)
    return;
  TRIDENT_CALL(*impl_->device->plugin, memcpy_htod, "copying to " + describe(*impl_), streamOn(*impl_, stream),
               impl_->address + offset, src, bytes);
}

void Buffer::copyToHostAsync(const Stream &stream, void *dst, size_t bytes, size_t offset) const {
  requireHandle(impl_ != nullptr, "Buffer");
  checkRange(*impl_, bytes, offset, "a copy to the host");
  if (bytes == 0)
    return;
  TRIDENT_CALL(*impl_->device->plugin, memcpy_dtoh, "copying from " + describe(*impl_), streamOn(*impl_, stream),
               dst, impl_->address + offset, bytes);
}

void Buffer::copyFromHost(const void *src, size_t bytes, size_t offset) {
  requireHandle(impl_ != nullptr, "Buffer");
  Stream s = impl_->deviceHandle.defaultStream();
  copyFromHostAsync(s, src, bytes, offset);
  s.synchronize();
}

void Buffer::copyToHost(void *dst, size_t bytes, size_t offset) const {
  requireHandle(impl_ != nullptr, "Buffer");
  Stream s = impl_->deviceHandle.defaultStream();
  copyToHostAsync(s, dst, bytes, offset);
  s.synchronize();
}

namespace {

// Whole-buffer copies need buffers of one size.
void requireSameSize(const BufferImpl &dst, const BufferImpl &src) {
  size_t dstBytes = dst.size * dtypeBytes(dst.dtype), srcBytes = src.size * dtypeBytes(src.dtype);
  if (srcBytes != dstBytes)
    throw Error(ErrorCode::InvalidArgument, "cannot copy " + describe(src) + " (" + std::to_string(srcBytes) +
                                                " bytes) into " + describe(dst) + " (" + std::to_string(dstBytes) +
                                                " bytes)");
}

} // namespace

void Buffer::copyFromAsync(const Stream &stream, const Buffer &src) {
  requireHandle(impl_ != nullptr && bool(src), "Buffer");
  requireSameSize(*impl_, *src.impl_);
  copyFromAsync(stream, src, bytes(), 0, 0);
}

void Buffer::copyFromAsync(const Stream &stream, const Buffer &src, size_t bytes, size_t dstOffset,
                           size_t srcOffset) {
  requireHandle(impl_ != nullptr && bool(src), "Buffer");
  const BufferImpl &s = *src.impl_;
  checkRange(*impl_, bytes, dstOffset, "a copy between buffers");
  checkRange(s, bytes, srcOffset, "a copy between buffers");
  trident_stream ts = streamOn(*impl_, stream);
  if (bytes == 0)
    return;
  Plugin &plugin = *impl_->device->plugin;
  trident_devptr dst = impl_->address + dstOffset, from = s.address + srcOffset;
  CopyRoute route = impl_->device->routeFrom(*s.device);
  if (route == CopyRoute::SameDevice) {
    TRIDENT_CALL(plugin, memcpy_dtod, "copying within " + impl_->device->name, ts, dst, from, bytes);
    return;
  }
  if (route == CopyRoute::Peer) {
    trident_status st = plugin.tryCall(&trident_plugin_api::memcpy_peer, ts, dst, s.device->handle(), from, bytes);
    if (st == TRIDENT_SUCCESS)
      return;
    if (st != TRIDENT_ERROR_NOT_SUPPORTED)
      plugin.throwStatus(st, "copying from " + s.device->name + " to " + impl_->device->name);
  }
  // Through host memory. The destination stream first: events of the source's
  // device that it was told to wait for are then complete. Then the source's
  // default stream (copyToHost waits for it), then the upload.
  stream.synchronize();
  std::unique_ptr<uint8_t[]> staging(new uint8_t[bytes]);
  src.copyToHost(staging.get(), bytes, srcOffset);
  copyFromHostAsync(stream, staging.get(), bytes, dstOffset);
  stream.synchronize(); // the staging memory dies here
}

void Buffer::copyFrom(const Buffer &src) {
  requireHandle(impl_ != nullptr && bool(src), "Buffer");
  requireSameSize(*impl_, *src.impl_);
  copyFrom(src, bytes(), 0, 0);
}

void Buffer::copyFrom(const Buffer &src, size_t bytes, size_t dstOffset, size_t srcOffset) {
  requireHandle(impl_ != nullptr && bool(src), "Buffer");
  if (src.impl_->device != impl_->device)
    src.impl_->deviceHandle.defaultStream().synchronize(); // the source's pending writes land first
  Stream s = impl_->deviceHandle.defaultStream();
  copyFromAsync(s, src, bytes, dstOffset, srcOffset);
  s.synchronize();
}

void Buffer::fillBytes(uint8_t byte) {
  requireHandle(impl_ != nullptr, "Buffer");
  if (bytes() == 0)
    return;
  Stream s = impl_->deviceHandle.defaultStream();
  TRIDENT_CALL(*impl_->device->plugin, mem_fill, "filling " + describe(*impl_), s.impl()->stream, impl_->address,
               uint32_t(byte), 1u, bytes());
  s.synchronize();
}

} // namespace trident
