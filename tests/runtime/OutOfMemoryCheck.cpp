#include "OutOfMemoryCheck.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace trident::test {

void checkOutOfMemory(const Device &device) {
  const std::string name = device.name();
  const size_t pib = size_t(1) << 50;
  try {
    Buffer b(device, pib, DType::U8);
    FAIL("allocating 1 PiB on " << name << " should have failed");
  } catch (const Error &e) {
    std::string m = e.what();
    INFO(m);
    CHECK(e.code() == ErrorCode::OutOfMemory);
    CHECK(m.find("allocating 1125899906842624 bytes (1.0 PiB) on " + name + ": out of memory: 1.0 PiB requested on " +
                 name.substr(0, name.find(' '))) != std::string::npos);
    CHECK(m.find(" free") != std::string::npos);
  }
  // 2^62 fp32 elements are 2^64 bytes: refused before any size reaches the plugin.
  try {
    Buffer b(device, size_t(1) << 62, DType::F32);
    FAIL("allocating 2^64 bytes on " << name << " should have failed");
  } catch (const Error &e) {
    INFO(std::string(e.what()));
    CHECK(e.code() == ErrorCode::OutOfMemory);
    CHECK(std::string(e.what()).find("more than 2^64 bytes") != std::string::npos);
  }
  // The device still works.
  std::vector<float> x(1000, 2.5f);
  Buffer b = Buffer::fromHost(device, std::span<const float>(x));
  CHECK(b.toHost<float>() == x);
}

} // namespace trident::test
