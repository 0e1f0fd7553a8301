#pragma once
// The runtime's only contact with the frontend and the core passes: source to
// kernel lists and block IR. Kept in one file so that the rest of the runtime
// sees neither.

#include "KernelImpl.h"

#include <string>
#include <vector>

namespace trident::detail {

struct SourceKernel {
  std::string name;
  std::vector<Param> params;
  std::vector<TuneConfig> configs; // @triton.autotune
  std::vector<std::string> tuneKeys;
  std::vector<std::pair<std::string, std::string>> heuristics; // @triton.heuristics: parameter -> lambda
  std::string error; // its decorators cannot be read: the diagnostic (the file's other kernels load)
};

// The @triton.jit functions of a source file; throws Error(Compile).
std::vector<SourceKernel> listKernelsInSource(const std::string &source, const std::string &fileName);
// The files a source imports (path and text, concatenated), for cache keys: a kernel
// must recompile when a helper module it imports changes.
std::string importedSourcesKey(const std::string &source, const std::string &fileName);
// Parameter names (%0, %1 ...) of tt.func `name` in block IR text; throws Error(Compile/NotFound).
std::vector<std::string> blockIRParams(const std::string &ir, const std::string &name);

} // namespace trident::detail
