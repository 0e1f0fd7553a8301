#pragma once
// Test helpers: look into an AMD code object with LLVM's own tools (llvm-readelf,
// llvm-objdump), the way a person checks one without an AMD GPU.

#include "trident/ir/IR.h"

#include <cstdint>
#include <string>
#include <vector>

namespace trident::amdtest {

// One kernel argument as the AMDGPU metadata note lists it.
struct MetadataArg {
  int64_t offset = -1;
  int64_t size = -1;
  std::string valueKind;    // "global_buffer", "by_value", "hidden_..."
  std::string addressSpace; // "global" for buffers, "" otherwise
};

// One entry of amdhsa.kernels.
struct MetadataKernel {
  std::string name, symbol;
  int64_t wavefrontSize = -1;
  int64_t groupSegmentFixedSize = -1; // static LDS bytes
  int64_t kernargSegmentSize = -1;
  int64_t maxFlatWorkgroupSize = -1;
  int64_t vgprCount = -1, agprCount = -1, sgprCount = -1; // on gfx90a+ vgpr_count includes the AGPRs
  std::vector<MetadataArg> args;
};

// The fields of a kernel descriptor (<kernel>.kd, 64 bytes; LLVM's AMDGPUUsage,
// "Kernel Descriptor") that the tests check, read straight from the ELF bytes.
struct KernelDescriptor {
  bool found = false;
  uint32_t groupSegmentFixedSize = 0;
  uint32_t kernargSize = 0;
  bool entryIsKernel = false;   // kd address + kernel_code_entry_byte_offset = the kernel symbol
  bool wavefrontSize32 = false; // kernel_code_properties bit 10
  uint32_t computePgmRsrc1 = 0; // bits 0-5: GRANULATED_WORKITEM_VGPR_COUNT
  uint32_t computePgmRsrc3 = 0; // gfx90a+: bits 0-5 ACCUM_OFFSET (first AGPR / 4 - 1)
};

struct CodeObjectView {
  std::string header;      // llvm-readelf --file-header
  std::string symbols;     // llvm-readelf --symbols
  std::string notes;       // llvm-readelf --notes (the metadata as YAML)
  std::string disassembly; // llvm-objdump -d
  std::string target;      // amdhsa.target
  std::vector<MetadataKernel> kernels;
};

// The folder of LLVM's tools the tests use.
std::string llvmToolsDir();
// Runs `command` through the shell; returns its exit status, `output` its stdout+stderr.
int runCommand(const std::string &command, std::string &output);
// Reads <kernel>.kd of a code object through its dynamic symbol table.
KernelDescriptor readKernelDescriptor(const std::string &hsaco, const std::string &kernel);
// Writes `hsaco` to a temporary file and reads it back through the tools.
CodeObjectView inspect(const std::string &hsaco);
// Parses llvm-readelf's YAML rendering of the AMDGPU metadata note.
void parseMetadata(const std::string &notes, CodeObjectView &view);
// The layout a kernel's explicit arguments must have (natural alignment, in order),
// from the thread-IR function's argument types.
std::vector<MetadataArg> expectedArgs(const Op *threadFunc);
// Compiles `blockIR` for `arch` and checks the code object with the tools (doctest
// checks): ELF flags, kernel symbols and descriptors, metadata against the thread IR.
// Returns what the tools saw, for further checks. `what` names it in messages and
// in $TRIDENT_DUMP_DIR, where the code object is written when that is set.
CodeObjectView checkCodeObject(const Module &blockIR, const std::string &arch, const std::string &what);

} // namespace trident::amdtest
