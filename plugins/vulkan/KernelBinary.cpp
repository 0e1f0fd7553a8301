#include "KernelBinary.h"

#include <cstring>

namespace trident::vulkan {

namespace {
constexpr uint32_t kMagic = 0x314b5654; // "TVK1"
constexpr uint32_t kFormat = 1;

struct Writer {
  std::vector<uint8_t> out;
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i)
      out.push_back(uint8_t(v >> (8 * i)));
  }
  void u64(uint64_t v) {
    u32(uint32_t(v));
    u32(uint32_t(v >> 32));
  }
};

struct Reader {
  const uint8_t *p, *end;
  bool ok = true;
  uint32_t u32() {
    if (end - p < 4) {
      ok = false;
      return 0;
    }
    uint32_t v = uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    p += 4;
    return v;
  }
  uint64_t u64() {
    uint64_t lo = u32();
    return lo | uint64_t(u32()) << 32;
  }
};
} // namespace

std::vector<uint8_t> encodeBinary(const spirv::SpirvKernel &kernel) {
  const spirv::KernelInterface &k = kernel.interface;
  Writer w;
  w.u32(kMagic);
  w.u32(kFormat);
  for (uint32_t v : {k.numThreads, k.subgroupSize, k.sharedBytes, k.pushConstantBytes, uint32_t(k.argsInBuffer),
                     k.argBufferBytes})
    w.u32(v);
  w.u64(k.requiredFeatures);
  w.u32(uint32_t(k.name.size()));
  for (size_t i = 0; i < (k.name.size() + 3) / 4 * 4; ++i)
    w.out.push_back(i < k.name.size() ? uint8_t(k.name[i]) : 0);
  w.u32(uint32_t(k.args.size()));
  for (const spirv::ArgSlot &a : k.args) {
    w.u32(uint32_t(a.kind));
    w.u32(a.offset);
    w.u32(a.size);
  }
  w.u32(uint32_t(kernel.words.size()));
  for (uint32_t word : kernel.words)
    w.u32(word);
  return std::move(w.out);
}

std::optional<spirv::SpirvKernel> decodeBinary(const void *data, size_t size, std::string &error) {
  Reader r{static_cast<const uint8_t *>(data), static_cast<const uint8_t *>(data) + size};
  if (r.u32() != kMagic || !r.ok) {
    error = "not a Trident Vulkan binary";
    return std::nullopt;
  }
  if (uint32_t format = r.u32(); format != kFormat) {
    error = "Trident Vulkan binary format " + std::to_string(format) + ", this plugin reads format " +
            std::to_string(kFormat);
    return std::nullopt;
  }
  spirv::SpirvKernel out;
  spirv::KernelInterface &k = out.interface;
  k.numThreads = r.u32();
  k.subgroupSize = r.u32();
  k.sharedBytes = r.u32();
  k.pushConstantBytes = r.u32();
  k.argsInBuffer = r.u32() != 0;
  k.argBufferBytes = r.u32();
  k.requiredFeatures = r.u64();
  uint32_t nameLength = r.u32();
  if (!r.ok || size_t(r.end - r.p) < (size_t(nameLength) + 3) / 4 * 4) {
    error = "truncated Trident Vulkan binary";
    return std::nullopt;
  }
  k.name.assign(reinterpret_cast<const char *>(r.p), nameLength);
  r.p += (size_t(nameLength) + 3) / 4 * 4;
  uint32_t numArgs = r.u32();
  if (!r.ok || size_t(r.end - r.p) / 12 < numArgs) {
    error = "truncated Trident Vulkan binary";
    return std::nullopt;
  }
  for (uint32_t i = 0; i < numArgs; ++i) {
    spirv::ArgSlot a;
    uint32_t kind = r.u32();
    if (kind > uint32_t(spirv::ArgKind::F64)) {
      error = "Trident Vulkan binary with an unknown argument kind";
      return std::nullopt;
    }
    a.kind = spirv::ArgKind(kind);
    a.offset = r.u32();
    a.size = r.u32();
    k.args.push_back(a);
  }
  uint32_t numWords = r.u32();
  if (!r.ok || size_t(r.end - r.p) / 4 < numWords || numWords < 5) {
    error = "truncated Trident Vulkan binary";
    return std::nullopt;
  }
  out.words.resize(numWords);
  for (uint32_t &w : out.words)
    w = r.u32();
  if (r.p != r.end) {
    error = "Trident Vulkan binary with trailing bytes";
    return std::nullopt;
  }
  uint32_t limit = k.argsInBuffer ? k.argBufferBytes : k.pushConstantBytes;
  for (const spirv::ArgSlot &a : k.args)
    if ((a.size != 4 && a.size != 8) || a.offset > limit || a.size > limit - a.offset) {
      error = "Trident Vulkan binary with an argument outside its argument block";
      return std::nullopt;
    }
  return out;
}

} // namespace trident::vulkan
