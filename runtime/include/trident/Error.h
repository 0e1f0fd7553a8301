#pragma once
// How the runtime reports errors: every failure a user can cause (an unknown
// device, wrong kernel arguments, a compile error, a failed launch, a missing
// driver) throws trident::Error, whose what() is a message the user can act on
// and whose code() classifies it. Nothing else is thrown by the runtime except
// std::bad_alloc. Errors never cross the plugin ABI as exceptions: plugins return
// status codes and the runtime turns them into Error.

#include "trident/Export.h"
#include <stdexcept>
#include <string>

namespace trident {

enum class ErrorCode {
  InvalidArgument, // wrong argument count or type, bad grid, buffer of another device
  NotFound,        // unknown device, kernel name not in the file, missing file
  NotSupported,    // the plugin or target does not provide this operation
  OutOfMemory,
  Compile,         // the kernel source or IR was rejected
  Launch,          // the kernel failed while running (out-of-bounds access, assert)
  Device,          // the driver reported an error
  Unavailable,     // the plugin or driver cannot be used
  Io,              // reading or writing a file failed
  Internal,        // a bug in Trident or a plugin
};

// A short name for the code: "invalid argument", "not found" ...
TRIDENT_API const char *errorCodeName(ErrorCode code);

class TRIDENT_API Error : public std::runtime_error {
public:
  Error(ErrorCode code, const std::string &message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const noexcept { return code_; }

private:
  ErrorCode code_;
};

} // namespace trident
