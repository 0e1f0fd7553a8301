#include "trident/Error.h"

namespace trident {

const char *errorCodeName(ErrorCode code) {
  switch (code) {
  case ErrorCode::InvalidArgument: return "invalid argument";
  case ErrorCode::NotFound: return "not found";
  case ErrorCode::NotSupported: return "not supported";
  case ErrorCode::OutOfMemory: return "out of memory";
  case ErrorCode::Compile: return "compile error";
  case ErrorCode::Launch: return "launch error";
  case ErrorCode::Device: return "device error";
  case ErrorCode::Unavailable: return "unavailable";
  case ErrorCode::Io: return "i/o error";
  case ErrorCode::Internal: return "internal error";
  }
  return "error";
}

} // namespace trident
