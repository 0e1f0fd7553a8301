// trident-translate: thread IR text -> a target's code, the stages after the SIMT
// lowering (docs/thread-ir.md, "Translating thread IR").
//
//   trident-translate --target=cuda:sm_90 --emit=ptx kernel.tir      PTX
//   trident-translate --target=cuda:sm_80 --emit=llvm -O0 kernel.tir the LLVM IR as translated
//   trident-translate --target=hip:gfx942 --emit=amdgcn kernel.tir   AMDGPU assembly (HSACO's code)
//   trident-translate --target=vulkan --emit=spirv kernel.tir        SPIR-V, validated, disassembled
//
// The input is thread IR (what `trident-opt --lower-to-thread-ir ...` or `trident compile
// --emit thread-ir` print); it is verified first. Errors print as
// "file:line:col: error: message" and exit with status 1.

#include "ExpectedDiagnostics.h"
#include "Targets.h"

#include "trident/ir/Parser.h"
#include "trident/ir/Verifier.h"
#include "trident/simt/VerifyThreadIR.h"

#ifdef TRIDENT_TOOLS_NVPTX
#include "trident/backends/nvptx/CodeGen.h"
#endif
#ifdef TRIDENT_TOOLS_AMDGPU
#include "trident/backends/amdgpu/CodeGen.h"
#endif
#ifdef TRIDENT_TOOLS_SPIRV
#include "trident/backends/spirv/CodeGen.h"
#include "trident/backends/spirv/Tools.h"
#endif

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>

using namespace trident;

namespace {

struct Options {
  std::string target, emit, input = "-", output = "-", kernel;
  int optLevel = -1; // -1: the backend's default
  bool verifyDiagnostics = false;
};

void printUsage(std::ostream &os) {
  os << "usage: trident-translate --target=<name> --emit=<kind> [options] [input.tir | -]\n"
        "\n"
        "  --target=<name>       " << tools::knownTargets() << "\n"
        "  --emit=<kind>         cuda: llvm, ptx; hip: llvm, amdgcn; vulkan: spirv\n"
        "                        (llvm: the module the code generator gets, device libraries linked)\n"
        "  -O<n>                 LLVM optimization level (cuda: 2, hip: 3 by default; -O0: as translated)\n"
        "  --kernel=<name>       the tt.func to translate (vulkan; default: the only one)\n"
        "  -o <file>             write the result to <file> (default: stdout)\n"
        "  --verify-diagnostics  check the errors against 'expected-error' comments\n"
        "  --help                show this text\n";
}

bool parseArguments(int argc, char **argv, Options &opts) {
  bool sawInput = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      printUsage(std::cout);
      std::exit(0);
    } else if (arg.rfind("--target=", 0) == 0) {
      opts.target = arg.substr(9);
    } else if (arg.rfind("--emit=", 0) == 0) {
      opts.emit = arg.substr(7);
    } else if (arg.rfind("--kernel=", 0) == 0) {
      opts.kernel = arg.substr(9);
    } else if (arg.size() == 3 && arg.rfind("-O", 0) == 0 && arg[2] >= '0' && arg[2] <= '3') {
      opts.optLevel = arg[2] - '0';
    } else if (arg == "-o" && i + 1 < argc) {
      opts.output = argv[++i];
    } else if (arg == "--verify-diagnostics") {
      opts.verifyDiagnostics = true;
    } else if (arg.rfind("-", 0) == 0 && arg != "-") {
      std::cerr << "trident-translate: error: unknown option '" << arg << "' (see --help)\n";
      return false;
    } else if (!sawInput) {
      opts.input = arg;
      sawInput = true;
    } else {
      std::cerr << "trident-translate: error: more than one input file\n";
      return false;
    }
  }
  if (opts.target.empty() || opts.emit.empty()) {
    std::cerr << "trident-translate: error: --target=<name> and --emit=<kind> are required (see --help)\n";
    return false;
  }
  return true;
}

// The translation of a verified thread-IR module; nothing after diagnostics.
std::optional<std::string> translate(const Module &m, const Options &opts, const TargetDesc &target,
                                     Diagnostics &diags) {
  auto refuse = [&](const char *kinds) -> std::optional<std::string> {
    diags.error(Location(), "--emit=" + opts.emit + " is not a translation for " + target.name + " (it has " +
                                kinds + ")");
    return std::nullopt;
  };
  [[maybe_unused]] auto nonEmpty = [](std::string s) { return s.empty() ? std::nullopt : std::optional<std::string>(std::move(s)); };
#ifdef TRIDENT_TOOLS_NVPTX
  if (opts.target.starts_with("cuda:")) {
    nvptx::PTXOptions o;
    if (opts.optLevel >= 0)
      o.optLevel = unsigned(opts.optLevel);
    if (opts.emit == "llvm")
      return nonEmpty(nvptx::emitLLVMFromThreadIR(m, target, o, diags));
    if (opts.emit == "ptx") {
      std::optional<nvptx::PTXModule> ptx = nvptx::compileThreadIRToPTX(m, target, o, diags);
      return ptx ? std::optional<std::string>(ptx->ptx) : std::nullopt;
    }
    return refuse("llvm, ptx");
  }
#endif
#ifdef TRIDENT_TOOLS_AMDGPU
  if (opts.target.starts_with("hip:")) {
    amdgpu::HSACOOptions o;
    if (opts.optLevel >= 0)
      o.optLevel = unsigned(opts.optLevel);
    if (opts.emit == "llvm")
      return nonEmpty(amdgpu::emitLLVMFromThreadIR(m, target, o, diags));
    if (opts.emit == "amdgcn")
      return nonEmpty(amdgpu::emitAssemblyFromThreadIR(m, target, o, diags));
    return refuse("llvm, amdgcn");
  }
#endif
#ifdef TRIDENT_TOOLS_SPIRV
  if (std::optional<spirv::DeviceInfo> device = spirv::profileDevice(opts.target)) { // vulkan, vulkan:nvidia, ...
    if (opts.emit != "spirv")
      return refuse("spirv");
    std::string kernel = opts.kernel;
    if (kernel.empty()) {
      if (m.functions().size() != 1) {
        diags.error(Location(), "the module has " + std::to_string(m.functions().size()) +
                                    " tt.func ops; name one with --kernel=");
        return std::nullopt;
      }
      kernel = std::string(func::name(m.functions()[0]));
    }
    std::optional<spirv::SpirvKernel> k = spirv::compileToSpirv(m, kernel, *device, {}, diags);
    return k ? std::optional<std::string>(spirv::disassemble(k->words)) : std::nullopt;
  }
#endif
  (void)m;
  return refuse("no translation in this build");
}

} // namespace

int main(int argc, char **argv) {
  Options opts;
  if (!parseArguments(argc, argv, opts))
    return 2;
  std::string text;
  if (opts.input == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(opts.input, std::ios::binary);
    if (!in) {
      std::cerr << "trident-translate: error: cannot read '" << opts.input << "'\n";
      return 1;
    }
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::string bufferName = opts.input == "-" ? "<stdin>" : opts.input;

  Diagnostics diags;
  std::optional<std::string> result;
  std::string error;
  std::optional<TargetDesc> target = tools::findTarget(opts.target, error);
  if (!target) {
    diags.error(Location(), error);
  } else if (std::optional<Module> m = parseModule(text, bufferName, diags);
             m && verify(*m, diags) && simt::verifyThreadIR(*m, diags)) {
    for (Op *f : m->functions())
      if (!f->attr("num_threads").present())
        diags.error(f->loc(), "tt.func '" + std::string(func::name(f)) +
                                  "' is block IR (no num_threads): lower it first (trident-opt --lower-to-thread-ir)");
    if (diags.empty())
      result = translate(*m, opts, *target, diags);
  }
  if (opts.verifyDiagnostics) {
    std::vector<std::string> problems;
    std::vector<opt::ExpectedDiagnostic> expected = opt::parseExpectedDiagnostics(text, problems);
    for (const std::string &p : problems)
      std::cerr << bufferName << ":" << p << "\n";
    return opt::checkDiagnostics(expected, diags, bufferName, std::cerr) && problems.empty() ? 0 : 1;
  }
  if (!result) {
    std::cerr << diags.str();
    return 1;
  }
  if (opts.output == "-") {
    std::cout << *result;
  } else {
    std::ofstream out(opts.output, std::ios::binary);
    out << *result;
    if (!out) {
      std::cerr << "trident-translate: error: cannot write '" << opts.output << "'\n";
      return 1;
    }
  }
  return 0;
}
