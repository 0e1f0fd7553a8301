#include "Linker.h"

#include <lld/Common/Driver.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <mutex>

LLD_HAS_DRIVER(elf)

namespace trident::amdgpu {

namespace {

// Removes a temporary folder and what it holds when the link is done.
struct TemporaryFolder {
  llvm::SmallString<128> path;
  ~TemporaryFolder() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
  }
};

} // namespace

std::optional<std::string> linkCodeObject(llvm::StringRef object, Diagnostics &diags) {
  static std::mutex mutex;
  static bool broken = false; // lld asked not to be run again in this process
  std::lock_guard lock(mutex);
  if (broken) {
    diags.error(Location(), "lld cannot link another code object in this process after an earlier failure");
    return std::nullopt;
  }
  // lld reads and writes files: both live in a private temporary folder.
  TemporaryFolder dir;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("trident-hsaco", dir.path)) {
    diags.error(Location(), "cannot create a temporary folder for lld: " + ec.message());
    return std::nullopt;
  }
  llvm::SmallString<128> input(dir.path), output(dir.path);
  llvm::sys::path::append(input, "kernel.o");
  llvm::sys::path::append(output, "kernel.hsaco");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(input, ec);
    if (ec) {
      diags.error(Location(), "cannot write '" + std::string(input) + "': " + ec.message());
      return std::nullopt;
    }
    os << object;
  }
  const char *args[] = {"ld.lld", "-shared", "--no-undefined", input.c_str(), "-o", output.c_str()};
  std::string messages;
  llvm::raw_string_ostream out(messages), err(messages);
  lld::Result result = lld::lldMain(args, out, err, {{lld::Gnu, &lld::elf::link}});
  out.flush();
  err.flush();
  if (!result.canRunAgain)
    broken = true;
  if (result.retCode != 0) {
    diags.error(Location(), "lld cannot link the AMDGPU code object: " + messages);
    return std::nullopt;
  }
  auto linked = llvm::MemoryBuffer::getFile(output);
  if (!linked) {
    diags.error(Location(), "cannot read the code object lld wrote: " + linked.getError().message());
    return std::nullopt;
  }
  return (*linked)->getBuffer().str();
}

} // namespace trident::amdgpu
