#include "CpuJit.h"

#include "CpuChecks.h"
#include "CpuHooks.h"
#include "trident/support/FloatFormats.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>

#include <cstring>
#include <dlfcn.h>
#include <mutex>

namespace trident::cpu {

namespace {

thread_local std::string assertFailure;

extern "C" void cpuAssertFail(const char *message, const char *file, uint32_t line, const char *function) {
  if (!assertFailure.empty())
    return;
  assertFailure = std::string(file) + ":" + std::to_string(line) + ": in " + function +
                  ": assertion failed: " + (*message ? message : "tt.assert");
}

#if defined(__x86_64__)
// LLVM calls these for f32 and f64 -> bf16 on x86-64 CPUs without AVX512-BF16; the C
// library of this toolchain lacks them. bf16 travels in an XMM register, as _Float16 does.
_Float16 bitsAsHalf(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, sizeof h);
  return h;
}
extern "C" _Float16 cpuTruncSfBf2(float v) { return bitsAsHalf(floatToBF16(v)); }
extern "C" _Float16 cpuTruncDfBf2(double v) { return bitsAsHalf(uint16_t(encodeFloat(v, FloatFormat::BF16))); }
#endif

std::string message(llvm::Error error) {
  std::string text;
  llvm::handleAllErrors(std::move(error), [&](const llvm::ErrorInfoBase &e) { text += e.message(); });
  return text;
}

} // namespace

LoadedObject::~LoadedObject() = default;

std::unique_ptr<LoadedObject> LoadedObject::load(const std::string &object, std::string &why) {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
#if defined(__x86_64__)
    // The vector math functions kernels call (CpuCodeGen.cpp); resolved from the
    // process like the C library's. Without it a kernel using them fails to link.
    ::dlopen("libmvec.so.1", RTLD_NOW | RTLD_GLOBAL);
#endif
  });
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit) {
    why = "cannot create LLVM's JIT: " + message(jit.takeError());
    return nullptr;
  }
  llvm::orc::LLJIT &j = **jit;
  llvm::orc::JITDylib &dylib = j.getMainJITDylib();
  auto flags = llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable;
  llvm::orc::SymbolMap symbols;
  symbols[j.mangleAndIntern(kAssertFailSymbol)] = {llvm::orc::ExecutorAddr::fromPtr(&cpuAssertFail), flags};
  symbols[j.mangleAndIntern(kCheckSymbol)] = {llvm::orc::ExecutorAddr::fromPtr(&cpuCheckAccess), flags};
#if defined(__x86_64__)
  symbols[j.mangleAndIntern("__truncsfbf2")] = {llvm::orc::ExecutorAddr::fromPtr(&cpuTruncSfBf2), flags};
  symbols[j.mangleAndIntern("__truncdfbf2")] = {llvm::orc::ExecutorAddr::fromPtr(&cpuTruncDfBf2), flags};
#endif
  if (llvm::Error e = dylib.define(llvm::orc::absoluteSymbols(std::move(symbols)))) {
    why = "cannot define the plugin's symbols in LLVM's JIT: " + message(std::move(e));
    return nullptr;
  }
  auto process =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(j.getDataLayout().getGlobalPrefix());
  if (!process) {
    why = "cannot search this process's symbols: " + message(process.takeError());
    return nullptr;
  }
  dylib.addGenerator(std::move(*process));
  if (llvm::Error e = j.addObjectFile(llvm::MemoryBuffer::getMemBufferCopy(object, "trident-cpu-kernel"))) {
    why = "cannot load the kernel's object: " + message(std::move(e));
    return nullptr;
  }
  auto out = std::unique_ptr<LoadedObject>(new LoadedObject);
  out->jit_ = std::move(*jit);
  return out;
}

EntryFunction LoadedObject::entry(const std::string &kernel, std::string &why) {
  auto address = jit_->lookup(entrySymbol(kernel));
  if (!address) {
    why = "cannot link kernel '" + kernel + "': " + message(address.takeError());
    return nullptr;
  }
  return address->toPtr<EntryFunction>();
}

std::string takeAssertFailure() { return std::exchange(assertFailure, std::string()); }

} // namespace trident::cpu
