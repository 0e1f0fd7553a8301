#include "FuzzTarget.h"

#include "trident/frontend/Frontend.h"

#include <cctype>
#include <string_view>

namespace trident::fuzz {

namespace {

// A plausible signature for a kernel: constexprs get their default or a power of
// two, pointer-looking names a pointer, everything else an int32. The input's
// last byte picks among a few element types so fp16/int paths get exercised too.
std::string signatureFor(const KernelInfo &info, uint8_t flavor) {
  static const char *pointers[] = {"*fp32", "*fp16", "*i32", "*bf16"};
  static const char *blocks[] = {"16", "32", "64", "128"};
  std::string sig;
  for (size_t i = 0; i < info.params.size(); ++i) {
    if (!sig.empty())
      sig += ", ";
    const std::string &name = info.params[i];
    if (info.isConstexpr[i]) {
      sig += !info.defaults[i].empty() ? info.defaults[i] : blocks[(flavor + i) % 4];
      continue;
    }
    bool pointerLike = name.find("ptr") != std::string::npos ||
                       (!name.empty() && std::isupper(static_cast<unsigned char>(name[0])));
    sig += pointerLike ? pointers[(flavor + i) % 4] : (flavor & 8) ? "i64" : "i32:16";
  }
  return sig;
}

} // namespace

void runFrontendOnInput(const uint8_t *data, size_t size) {
  std::string_view source(reinterpret_cast<const char *>(data), size);
  uint8_t flavor = size ? data[size - 1] : 0;
  Diagnostics diags;
  // Imports find no files: an input reads nothing but itself.
  ImportOptions imports;
  imports.useEnvironment = false;
  imports.readFile = [](const std::string &) -> std::optional<std::string> { return std::nullopt; };
  auto kernels = listKernels(source, "fuzz.py", diags, imports);
  if (!kernels)
    return;
  size_t compiled = 0;
  for (const KernelInfo &info : *kernels) {
    if (compiled++ == 4)
      break;
    Diagnostics sigDiags;
    auto sig = parseSignature(signatureFor(info, flavor), sigDiags);
    if (!sig)
      continue;
    CompileRequest request;
    request.kernel = info.name;
    request.args = *sig;
    request.debug = (flavor & 16) != 0;
    request.staticPrint = [](const std::string &) {};
    request.imports = imports;
    Diagnostics compileDiags;
    auto module = compileKernel(source, "fuzz.py", request, compileDiags);
    // An internal error (IR that does not verify) is a frontend bug: make it a crash.
    if (!module)
      for (const Diagnostic &d : compileDiags.list())
        if (d.message.rfind("internal error", 0) == 0)
          __builtin_trap();
  }
}

} // namespace trident::fuzz
