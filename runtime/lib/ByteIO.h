#pragma once
// Little-endian fields of Trident's file formats (disk-cache entries, bundles):
// writers append to a byte vector; Reader reads from a range and turns any overrun
// into ok == false instead of reading past the end.

#include <cstdint>
#include <string>
#include <vector>

namespace trident::detail {

inline void putU8(std::vector<uint8_t> &out, uint8_t v) { out.push_back(v); }
inline void putU32(std::vector<uint8_t> &out, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out.push_back(uint8_t(v >> (8 * i)));
}
inline void putU64(std::vector<uint8_t> &out, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out.push_back(uint8_t(v >> (8 * i)));
}
inline void putStr(std::vector<uint8_t> &out, const std::string &s) {
  putU32(out, uint32_t(s.size()));
  out.insert(out.end(), s.begin(), s.end());
}

// Reads fields from a byte range; any overrun sets `ok` to false.
struct Reader {
  const uint8_t *p, *end;
  bool ok = true;
  bool need(size_t n) {
    if (!ok || size_t(end - p) < n)
      ok = false;
    return ok;
  }
  uint8_t u8() {
    if (!need(1)) return 0;
    return *p++;
  }
  uint32_t u32() {
    if (!need(4)) return 0;
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
      v |= uint32_t(p[i]) << (8 * i);
    p += 4;
    return v;
  }
  uint64_t u64() {
    if (!need(8)) return 0;
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v |= uint64_t(p[i]) << (8 * i);
    p += 8;
    return v;
  }
  std::string str() {
    uint32_t n = u32();
    if (!need(n)) return {};
    std::string s(reinterpret_cast<const char *>(p), n);
    p += n;
    return s;
  }
};

} // namespace trident::detail
