// This build's id; runtime/BuildId.cmake computes it at build time into BuildIdValue.h.

#include "trident/Runtime.h"

#include "BuildIdValue.h"

namespace trident {

const char *buildId() { return TRIDENT_BUILD_ID; }

const char *sourceRevision() { return TRIDENT_SOURCE_REVISION; }

bool hasCompiler() { return TRIDENT_RUNTIME_HAS_FRONTEND != 0; }

} // namespace trident
