#pragma once
// SHA-256 (FIPS 180-4): cache keys and entry checksums. Written here so the
// runtime needs no crypto library.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace trident::detail {

class Sha256 {
public:
  Sha256();
  void update(const void *data, size_t bytes);
  void update(std::string_view s) { update(s.data(), s.size()); }
  // Adds a length-prefixed string, so that field boundaries are part of the hash.
  void field(std::string_view s);
  std::array<uint8_t, 32> digest();
  // The digest as 64 lowercase hex digits.
  std::string hexDigest();

private:
  void block(const uint8_t *p);
  std::array<uint32_t, 8> h_;
  std::array<uint8_t, 64> buf_{};
  size_t bufLen_ = 0;
  uint64_t totalBytes_ = 0;
};

std::string toHex(const uint8_t *data, size_t bytes);

} // namespace trident::detail
