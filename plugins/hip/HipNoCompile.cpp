// The compile entries of a HIP plugin built without the compiler
// (-DTRIDENT_ENABLE_COMPILER=OFF, in place of HipCompile.cpp): it
// loads and launches code objects compiled ahead of time (bundles) and compiles
// nothing, so neither backends/amdgpu nor LLVM (or lld) is linked in.

#include "HipPlugin.h"

namespace trident::hip {

trident_status supportsTarget(trident_context, const char *target) {
  return fail(TRIDENT_ERROR_NOT_SUPPORTED, std::string("this hip plugin was built without the compiler; it loads "
                                                       "kernels compiled ahead of time and compiles none (asked for '") +
                                               (target ? target : "") + "')");
}

trident_status compile(trident_context ctx, const char *target, const char *, size_t, const char *,
                       const trident_compile_options *, trident_binary *) {
  return supportsTarget(ctx, target);
}

trident_status binaryRelease(trident_context, trident_binary *) { return TRIDENT_SUCCESS; }

} // namespace trident::hip
