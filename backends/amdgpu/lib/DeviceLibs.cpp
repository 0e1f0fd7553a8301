#include "DeviceLibs.h"

#include "trident/backends/amdgpu/Target.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

namespace trident::amdgpu {

namespace {

// Bitcode files, read once per process (a parsed module belongs to one context).
const llvm::MemoryBuffer *bitcodeFile(const std::string &path) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> files;
  std::lock_guard lock(mutex);
  auto it = files.find(path);
  if (it == files.end()) {
    auto file = llvm::MemoryBuffer::getFile(path);
    it = files.emplace(path, file ? std::move(*file) : nullptr).first;
  }
  return it->second.get();
}

// One oclc control variable: the file that defines it and, for libraries that lack
// the file (ROCm 5.2 ships no oclc_isa_version_942.bc or _1100.bc), its definition.
struct Control {
  std::string file;   // "oclc_daz_opt_off"
  std::string symbol; // "__oclc_daz_opt"
  unsigned bits;      // 8 or 32
  uint64_t value;
};

std::vector<Control> controls(const std::string &arch) {
  unsigned isa = isaVersion(arch);
  std::string isaName = arch.substr(3); // "90a", "942", "1100"
  bool wave64 = wavefrontSize(arch) == 64;
  return {
      {"oclc_isa_version_" + isaName, "__oclc_ISA_version", 32, isa},
      {wave64 ? "oclc_wavefrontsize64_on" : "oclc_wavefrontsize64_off", "__oclc_wavefrontsize64", 8, wave64},
      {"oclc_finite_only_off", "__oclc_finite_only_opt", 8, 0},
      {"oclc_unsafe_math_off", "__oclc_unsafe_math_opt", 8, 0},
      {"oclc_daz_opt_off", "__oclc_daz_opt", 8, 0},
      {"oclc_correctly_rounded_sqrt_on", "__oclc_correctly_rounded_sqrt32", 8, 1},
      {"oclc_abi_version_500", "__oclc_ABI_version", 32, 500}};
}

// Defines `c` in `m` as the device libraries do: a constant in the constant address space.
void defineControl(llvm::Module &m, const Control &c) {
  llvm::Type *t = llvm::IntegerType::get(m.getContext(), c.bits);
  auto *g = m.getGlobalVariable(c.symbol, true);
  if (g && !g->isDeclaration())
    return;
  auto *init = llvm::ConstantInt::get(t, c.value);
  auto *def = new llvm::GlobalVariable(m, t, true, llvm::GlobalValue::LinkOnceODRLinkage, init,
                                       c.symbol + ".def", nullptr, llvm::GlobalValue::NotThreadLocal, 4);
  def->setAlignment(llvm::Align(c.bits / 8));
  if (g) {
    g->replaceAllUsesWith(def);
    g->eraseFromParent();
  }
  def->setName(c.symbol);
}

bool linkFile(llvm::Module &m, const std::string &path, unsigned flags, Diagnostics &diags) {
  const llvm::MemoryBuffer *buffer = bitcodeFile(path);
  if (!buffer) {
    diags.error(Location(), "cannot read the ROCm device library '" + path + "'");
    return false;
  }
  auto lib = llvm::getLazyBitcodeModule(buffer->getMemBufferRef(), m.getContext());
  if (!lib) {
    diags.error(Location(),
                "cannot read the ROCm device library '" + path + "': " + llvm::toString(lib.takeError()));
    return false;
  }
  (*lib)->setTargetTriple(m.getTargetTriple());
  (*lib)->setDataLayout(m.getDataLayout());
  if (llvm::Linker::linkModules(m, std::move(*lib), flags)) {
    diags.error(Location(), "cannot link the ROCm device library '" + path + "'");
    return false;
  }
  return true;
}

bool declares(const llvm::Module &m, llvm::StringRef prefix) {
  for (const llvm::Function &f : m)
    if (f.isDeclaration() && f.getName().starts_with(prefix))
      return true;
  return false;
}

} // namespace

std::string deviceLibsPath() {
  namespace fs = std::filesystem;
  if (const char *env = std::getenv("TRIDENT_ROCM_DEVICE_LIBS"); env && *env)
    return env;
  for (const char *dir : {TRIDENT_ROCM_DEVICE_LIBS_PATH, "/opt/rocm/amdgcn/bitcode",
                          "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"}) {
    std::error_code ec;
    if (fs::exists(fs::path(dir) / "ocml.bc", ec))
      return dir;
  }
  return "";
}

bool linkDeviceLibs(llvm::Module &m, const std::string &arch, Diagnostics &diags) {
  std::vector<std::string> libraries;
  // ocml calls into ockl, so ocml comes first and ockl links what both need.
  if (declares(m, "__ocml_"))
    libraries.push_back("ocml");
  if (declares(m, "__ocml_") || declares(m, "__ockl_"))
    libraries.push_back("ockl");
  if (!libraries.empty()) {
    std::string dir = deviceLibsPath();
    if (dir.empty()) {
      std::string needed;
      for (const llvm::Function &f : m)
        if (f.isDeclaration() && (f.getName().starts_with("__ocml_") || f.getName().starts_with("__ockl_"))) {
          needed = f.getName().str();
          break;
        }
      diags.error(Location(),
                  "the ROCm device libraries (ocml.bc, ockl.bc) were not found (install rocm-device-libs "
                  "or set TRIDENT_ROCM_DEVICE_LIBS); needed for " +
                      needed);
      return false;
    }
    for (const std::string &lib : libraries)
      if (!linkFile(m, dir + "/" + lib + ".bc", llvm::Linker::LinkOnlyNeeded, diags))
        return false;
    namespace fs = std::filesystem;
    for (const Control &c : controls(arch)) {
      std::string file = dir + "/" + c.file + ".bc";
      std::error_code ec;
      if (fs::exists(file, ec)) {
        if (!linkFile(m, file, llvm::Linker::None, diags))
          return false;
      } else {
        defineControl(m, c);
      }
    }
  }
  // Internalize: only kernels stay visible, so the optimizer may inline and fold the rest.
  for (llvm::Function &f : m)
    if (!f.isDeclaration() && f.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::GlobalVariable &g : m.globals())
    if (!g.isDeclaration() && !g.getName().starts_with("llvm."))
      g.setLinkage(llvm::GlobalValue::InternalLinkage);
  return true;
}

} // namespace trident::amdgpu
