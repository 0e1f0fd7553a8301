#include "Libdevice.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cstdlib>
#include <mutex>

namespace trident::nvptx {

namespace {

// The bitcode file, read once per process (the parsed module belongs to a context).
const llvm::MemoryBuffer *libdeviceBuffer(std::string &path) {
  static std::unique_ptr<llvm::MemoryBuffer> buffer;
  static std::string foundPath;
  static std::once_flag once;
  std::call_once(once, [] {
    const char *env = std::getenv("TRIDENT_LIBDEVICE");
    foundPath = env && *env ? env : TRIDENT_LIBDEVICE_PATH;
    auto file = llvm::MemoryBuffer::getFile(foundPath);
    if (file)
      buffer = std::move(*file);
  });
  path = foundPath;
  return buffer.get();
}

bool isKernel(const llvm::Function &f) {
  const llvm::NamedMDNode *annotations = f.getParent()->getNamedMetadata("nvvm.annotations");
  if (!annotations)
    return false;
  for (const llvm::MDNode *node : annotations->operands()) {
    if (node->getNumOperands() < 2)
      continue;
    auto *fn = llvm::dyn_cast_or_null<llvm::ConstantAsMetadata>(node->getOperand(0));
    auto *kind = llvm::dyn_cast_or_null<llvm::MDString>(node->getOperand(1));
    if (fn && kind && fn->getValue() == &f && kind->getString() == "kernel")
      return true;
  }
  return false;
}

} // namespace

bool linkLibdevice(llvm::Module &m, Diagnostics &diags) {
  std::vector<std::string> needed;
  for (const llvm::Function &f : m)
    if (f.isDeclaration() && f.getName().starts_with("__nv_"))
      needed.push_back(f.getName().str());
  if (!needed.empty()) {
    std::string path;
    const llvm::MemoryBuffer *buffer = libdeviceBuffer(path);
    if (!buffer) {
      diags.error(Location(), "libdevice not found at '" + path + "' (set TRIDENT_LIBDEVICE); needed for " +
                                  needed.front());
      return false;
    }
    auto lib = llvm::getLazyBitcodeModule(buffer->getMemBufferRef(), m.getContext());
    if (!lib) {
      diags.error(Location(), "cannot read libdevice '" + path + "': " + llvm::toString(lib.takeError()));
      return false;
    }
    (*lib)->setTargetTriple(m.getTargetTriple());
    (*lib)->setDataLayout(m.getDataLayout());
    if (llvm::Linker::linkModules(m, std::move(*lib), llvm::Linker::LinkOnlyNeeded)) {
      diags.error(Location(), "cannot link libdevice '" + path + "'");
      return false;
    }
    // libdevice asks __nvvm_reflect whether to flush denormals: it must not.
    m.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(0));
  }
  for (llvm::Function &f : m)
    if (!f.isDeclaration() && !isKernel(f))
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  return true;
}

} // namespace trident::nvptx
