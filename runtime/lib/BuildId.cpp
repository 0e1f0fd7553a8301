// This build's id; runtime/BuildId.cmake computes it at build time into BuildIdValue.h.

#include "trident/Runtime.h"

#include "BuildIdValue.h"

namespace trident {

const char *buildId() { return TRIDENT_BUILD_ID; }

} // namespace trident
