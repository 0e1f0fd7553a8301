#pragma once
// Status and message plumbing every plugin needs: a thread-local last error that
// last_error() returns, and a guard that keeps C++ exceptions from crossing the ABI.
//
//   trident_status f(...) {
//     return sdk::guarded([&]() -> trident_status {
//       if (bad) return sdk::fail(TRIDENT_ERROR_INVALID_ARGUMENT, "what is wrong");
//       return TRIDENT_SUCCESS;
//     });
//   }

#include "trident/plugin.h"

#include <exception>
#include <new>
#include <string>

namespace trident::sdk {

// Sets this thread's last error (of this plugin) and returns `status`.
trident_status fail(trident_status status, std::string message);
// This thread's last error: the plugin's last_error entry (never NULL).
const char *lastError();
// Runs `body`, turning escaping exceptions into statuses.
template <class F> trident_status guarded(F &&body) {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return fail(TRIDENT_ERROR_OUT_OF_MEMORY, "out of host memory");
  } catch (const std::exception &e) {
    return fail(TRIDENT_ERROR_INTERNAL, std::string("internal error: ") + e.what());
  }
}
// "0x1f00": addresses in messages.
std::string hex(uint64_t v);

} // namespace trident::sdk
