#include "trident/sdk/Status.h"

#include <cstdio>

namespace trident::sdk {

namespace {
thread_local std::string lastErrorText;
} // namespace

trident_status fail(trident_status status, std::string message) {
  lastErrorText = std::move(message);
  return status;
}

const char *lastError() { return lastErrorText.c_str(); }

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

} // namespace trident::sdk
