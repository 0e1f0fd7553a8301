#include "CodeObject.h"

#include "trident/backends/amdgpu/CodeGen.h"
#include "trident/backends/amdgpu/Target.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <elf.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace trident::amdtest {

namespace fs = std::filesystem;

std::string llvmToolsDir() { return TRIDENT_LLVM_TOOLS_DIR; }

int runCommand(const std::string &command, std::string &output) {
  output.clear();
  FILE *pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe)
    return -1;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    output.append(buffer.data(), n);
  int status = ::pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

namespace {

std::string trim(std::string s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

int64_t toInt(const std::string &s) {
  try {
    return std::stoll(s);
  } catch (...) {
    return -1;
  }
}

} // namespace

void parseMetadata(const std::string &notes, CodeObjectView &view) {
  // The YAML is regular: "amdhsa.kernels:" then "  - .key: value" entries per kernel,
  // whose ".args:" hold "      - .key: value" entries per argument.
  std::istringstream in(notes);
  std::string line;
  MetadataKernel *kernel = nullptr;
  MetadataArg *arg = nullptr;
  bool inArgs = false, inKernels = false;
  while (std::getline(in, line)) {
    std::string t = trim(line);
    size_t indent = line.find_first_not_of(' ');
    if (t.starts_with("amdhsa.target:")) {
      view.target = trim(t.substr(14));
      if (view.target.size() >= 2 && view.target.front() == '\'')
        view.target = view.target.substr(1, view.target.size() - 2);
      continue;
    }
    if (t.starts_with("amdhsa.")) {
      inKernels = t.starts_with("amdhsa.kernels:");
      kernel = nullptr;
      continue;
    }
    if (!inKernels)
      continue;
    bool item = t.starts_with("- ");
    if (item)
      t = trim(t.substr(2));
    if (item && indent == 2) { // a new kernel
      view.kernels.emplace_back();
      kernel = &view.kernels.back();
      arg = nullptr;
      inArgs = false;
    } else if (item && inArgs && kernel) { // a new argument
      kernel->args.emplace_back();
      arg = &kernel->args.back();
    }
    if (!kernel)
      continue;
    size_t colon = t.find(':');
    if (colon == std::string::npos || !t.starts_with("."))
      continue;
    std::string key = t.substr(0, colon), value = trim(t.substr(colon + 1));
    // Keys of the kernel sit at indent 4 (2 on the line of its "- "); argument keys deeper.
    bool kernelKey = (item && indent == 2) || (!item && indent == 4);
    if (kernelKey) {
      inArgs = key == ".args";
      arg = nullptr;
      if (key == ".name")
        kernel->name = value;
      else if (key == ".symbol")
        kernel->symbol = value;
      else if (key == ".wavefront_size")
        kernel->wavefrontSize = toInt(value);
      else if (key == ".group_segment_fixed_size")
        kernel->groupSegmentFixedSize = toInt(value);
      else if (key == ".kernarg_segment_size")
        kernel->kernargSegmentSize = toInt(value);
      else if (key == ".max_flat_workgroup_size")
        kernel->maxFlatWorkgroupSize = toInt(value);
      else if (key == ".vgpr_count")
        kernel->vgprCount = toInt(value);
      else if (key == ".agpr_count")
        kernel->agprCount = toInt(value);
      else if (key == ".sgpr_count")
        kernel->sgprCount = toInt(value);
    } else if (inArgs && arg) {
      if (key == ".offset")
        arg->offset = toInt(value);
      else if (key == ".size")
        arg->size = toInt(value);
      else if (key == ".value_kind")
        arg->valueKind = value;
      else if (key == ".address_space")
        arg->addressSpace = value;
    }
  }
}

CodeObjectView inspect(const std::string &hsaco) {
  static int counter = 0;
  fs::path file = fs::temp_directory_path() /
                  ("trident_amd_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".hsaco");
  std::ofstream(file, std::ios::binary) << hsaco;
  CodeObjectView view;
  std::string bin = llvmToolsDir() + "/", path = file.string();
  runCommand(bin + "llvm-readelf --file-header " + path, view.header);
  runCommand(bin + "llvm-readelf --symbols " + path, view.symbols);
  runCommand(bin + "llvm-readelf --notes " + path, view.notes);
  runCommand(bin + "llvm-objdump -d " + path, view.disassembly);
  fs::remove(file);
  parseMetadata(view.notes, view);
  return view;
}

KernelDescriptor readKernelDescriptor(const std::string &hsaco, const std::string &kernel) {
  KernelDescriptor kd;
  auto read = [&](size_t offset, auto &out) {
    if (offset + sizeof out > hsaco.size())
      return false;
    std::memcpy(&out, hsaco.data() + offset, sizeof out);
    return true;
  };
  Elf64_Ehdr eh;
  if (!read(0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
    return kd;
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  for (unsigned i = 0; i < eh.e_shnum; ++i)
    if (!read(eh.e_shoff + i * sizeof(Elf64_Shdr), sections[i]))
      return kd;
  // File offset of a virtual address: through the section that holds it.
  auto fileOffset = [&](uint64_t address) -> int64_t {
    for (const Elf64_Shdr &s : sections)
      if (s.sh_type != SHT_NOBITS && s.sh_addr <= address && address < s.sh_addr + s.sh_size)
        return static_cast<int64_t>(s.sh_offset + (address - s.sh_addr));
    return -1;
  };
  uint64_t code = 0, descriptor = 0;
  for (const Elf64_Shdr &s : sections) {
    if (s.sh_type != SHT_DYNSYM)
      continue;
    const Elf64_Shdr &strings = sections[s.sh_link];
    for (size_t at = 0; at + sizeof(Elf64_Sym) <= s.sh_size; at += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      read(s.sh_offset + at, sym);
      std::string name(hsaco.c_str() + strings.sh_offset + sym.st_name);
      if (name == kernel)
        code = sym.st_value;
      else if (name == kernel + ".kd")
        descriptor = sym.st_value;
    }
  }
  int64_t at = descriptor ? fileOffset(descriptor) : -1;
  if (at < 0)
    return kd;
  int64_t entry = 0;
  uint16_t properties = 0;
  kd.found = read(at, kd.groupSegmentFixedSize) && read(at + 8, kd.kernargSize) && read(at + 16, entry) &&
             read(at + 56, properties) && read(at + 44, kd.computePgmRsrc3) && read(at + 48, kd.computePgmRsrc1);
  kd.entryIsKernel = code != 0 && descriptor + entry == code;
  kd.wavefrontSize32 = (properties >> 10) & 1;
  return kd;
}

std::vector<MetadataArg> expectedArgs(const Op *threadFunc) {
  std::vector<MetadataArg> out;
  int64_t end = 0;
  for (Type t : func::argumentTypes(threadFunc)) {
    MetadataArg a;
    if (t.isPtr()) {
      a.size = 8;
      a.valueKind = "global_buffer";
      a.addressSpace = "global";
    } else {
      a.size = std::max<int64_t>(1, t.bitWidth() / 8);
      a.valueKind = "by_value";
    }
    a.offset = (end + a.size - 1) / a.size * a.size;
    end = a.offset + a.size;
    out.push_back(a);
  }
  return out;
}

namespace {

// e_flags as llvm-readelf prints it ("Flags: 0x53F, gfx90a, xnack, sramecc").
unsigned elfFlags(const std::string &header) {
  size_t at = header.find("Flags:");
  if (at == std::string::npos)
    return 0;
  return static_cast<unsigned>(std::strtoul(header.c_str() + header.find("0x", at), nullptr, 16));
}

// EF_AMDGPU_MACH_* of the ELF ABI (LLVM's AMDGPUUsage, "AMDGPU ELF Header"): the low byte of e_flags.
unsigned machineNumber(const std::string &arch) {
  if (arch == "gfx90a")
    return 0x3f;
  if (arch == "gfx942")
    return 0x4c;
  if (arch == "gfx1100")
    return 0x41;
  return 0;
}

} // namespace

CodeObjectView checkCodeObject(const Module &blockIR, const std::string &arch, const std::string &what) {
  INFO(what << " for " << arch);
  Diagnostics diags;
  std::optional<TargetDesc> target = amdgpu::targetDesc(arch);
  REQUIRE(target.has_value());
  std::optional<Module> threadIR = amdgpu::lowerToThreadIR(blockIR, *target, {}, diags);
  INFO(diags.str());
  REQUIRE(threadIR.has_value());
  std::optional<amdgpu::HSACOModule> hsaco = amdgpu::compileModuleToHSACO(blockIR, *target, {}, diags);
  INFO(diags.str());
  REQUIRE(hsaco.has_value());
  if (const char *dump = std::getenv("TRIDENT_DUMP_DIR"))
    std::ofstream(fs::path(dump) / (what + "." + arch + ".hsaco"), std::ios::binary) << hsaco->hsaco;
  CodeObjectView view = inspect(hsaco->hsaco);
  INFO(view.header);
  // The ELF header: an AMDGPU shared object whose flags name the architecture.
  CHECK(view.header.find("AMDGPU") != std::string::npos);
  CHECK(view.header.find("DYN (Shared object file)") != std::string::npos);
  CHECK(view.header.find("Machine:                           EM_AMDGPU") != std::string::npos);
  CHECK(view.header.find(", " + arch) != std::string::npos);
  CHECK((elfFlags(view.header) & 0xff) == machineNumber(arch));
  CHECK(view.target.starts_with("amdgcn-amd-amdhsa--" + arch));
  std::vector<Op *> funcs = threadIR->functions();
  REQUIRE(view.kernels.size() == funcs.size());
  REQUIRE(hsaco->kernels.size() == funcs.size());
  for (size_t i = 0; i < funcs.size(); ++i) {
    std::string name(func::name(funcs[i]));
    INFO("kernel " << name << "\n" << view.notes);
    const amdgpu::KernelInfo &info = hsaco->kernels[i];
    auto k = std::find_if(view.kernels.begin(), view.kernels.end(),
                          [&](const MetadataKernel &m) { return m.name == name; });
    REQUIRE(k != view.kernels.end());
    CHECK(info.name == name);
    // The kernel's code and its descriptor are symbols of the object.
    CHECK(view.symbols.find(" FUNC    GLOBAL PROTECTED") != std::string::npos);
    CHECK(view.symbols.find(" " + name + "\n") != std::string::npos);
    CHECK(view.symbols.find(" " + name + ".kd\n") != std::string::npos);
    CHECK(k->symbol == name + ".kd");
    CHECK(k->wavefrontSize == amdgpu::wavefrontSize(arch));
    CHECK(k->maxFlatWorkgroupSize == info.numThreads);
    CHECK(info.numThreads % amdgpu::wavefrontSize(arch) == 0);
    // Shared memory is static LDS of exactly the lowering's size.
    CHECK(k->groupSegmentFixedSize == static_cast<int64_t>(info.sharedBytes));
    CHECK(static_cast<uint64_t>(k->groupSegmentFixedSize) <= target->maxSharedMemoryBytes);
    // The explicit arguments, then only hidden ones (code object v5's implicit arguments).
    std::vector<MetadataArg> expected = expectedArgs(funcs[i]);
    REQUIRE(k->args.size() >= expected.size());
    for (size_t a = 0; a < expected.size(); ++a) {
      INFO("argument " << a);
      CHECK(k->args[a].offset == expected[a].offset);
      CHECK(k->args[a].size == expected[a].size);
      CHECK(k->args[a].valueKind == expected[a].valueKind);
      CHECK(k->args[a].addressSpace == expected[a].addressSpace);
    }
    for (size_t a = expected.size(); a < k->args.size(); ++a)
      CHECK(k->args[a].valueKind.starts_with("hidden_"));
    CHECK(k->kernargSegmentSize >= (expected.empty() ? 0 : expected.back().offset + expected.back().size));
    // The descriptor the loader reads agrees with the metadata and enters the kernel's code.
    KernelDescriptor kd = readKernelDescriptor(hsaco->hsaco, name);
    REQUIRE(kd.found);
    CHECK(kd.groupSegmentFixedSize == k->groupSegmentFixedSize);
    CHECK(kd.kernargSize == k->kernargSegmentSize);
    CHECK(kd.entryIsKernel);
    CHECK(kd.wavefrontSize32 == (amdgpu::wavefrontSize(arch) == 32));
  }
  // The disassembler reads the code for this architecture and finds each kernel.
  CHECK(view.disassembly.find("s_endpgm") != std::string::npos);
  for (Op *f : funcs)
    CHECK(view.disassembly.find("<" + std::string(func::name(f)) + ">:") != std::string::npos);
  return view;
}

} // namespace trident::amdtest
