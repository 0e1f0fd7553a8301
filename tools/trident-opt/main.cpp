// trident-opt: runs passes on textual IR: the block-IR passes, and the steps of the
// SIMT lowering for a target (docs/simt.md, "The lowering as text").
//
//   trident-opt --inline --canonicalize --cse input.tir      passes run in flag order
//   cat input.tir | trident-opt --dce -                      stdin when no file or '-'
//   trident-opt --target=cuda:sm_90 --assign-layouts --lower-to-thread-ir
//     --allocate-shared-memory --insert-barriers kernel.tir  block IR to thread IR
//
// Errors in the input (syntax, verifier) print as "file:line:col: error: message" and
// exit with status 1.

#include "ExpectedDiagnostics.h"

#include "trident/ir/Parser.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"
#include "trident/passes/PassManager.h"
#include "trident/passes/PassRegistry.h"
#include "trident/passes/Pipeline.h"
#include "trident/simt/SimtPasses.h"

#include "Targets.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace trident;

namespace {

// One pass of the command line: a block-IR pass, a SIMT pass, or the default pipeline.
struct PassChoice {
  const PassInfo *pass = nullptr;
  const simt::SimtPassInfo *simtPass = nullptr; // both null: the default pipeline
};

struct Options {
  std::vector<PassChoice> passes;
  std::string target;           // --target=, for the SIMT passes
  unsigned numWarps = 0;        // --num-warps=, 0: Triton's default
  unsigned numStages = 3;       // --num-stages=
  std::string input = "-";
  std::string output = "-";
  bool verifyEach = true;
  bool printIrAfterAll = false;
  bool timePasses = false;
  bool verifyDiagnostics = false;
  bool locations = true;
  bool splitInputFile = false;
};

void printUsage(std::ostream &os) {
  os << "usage: trident-opt [options] [input.tir | -]\n"
        "\n"
        "passes, run in the order given:\n";
  for (const PassInfo &p : allPasses())
    os << "  --" << p.name << std::string(p.name.size() < 20 ? 20 - p.name.size() : 1, ' ') << p.summary
       << "\n";
  os << "  --optimize            the default pipeline (inline, canonicalize, cse, licm, ...)\n"
        "\n"
        "SIMT passes, for the target --target names:\n";
  for (const simt::SimtPassInfo &p : simt::simtPasses())
    os << "  --" << p.name << std::string(p.name.size() < 24 ? 24 - p.name.size() : 1, ' ') << p.summary << "\n";
  os << "  --target=<name>         the target of the SIMT passes: " << tools::knownTargets() << "\n"
        "  --num-warps=<n>         warps per program (default: Triton's choice)\n"
        "  --num-stages=<n>        pipelining depth of dot loops (default 3; 1: none)\n"
        "\n"
        "options:\n"
        "  -o <file>               write the result to <file> (default: stdout)\n"
        "  --verify-each           verify the IR after every pass (default)\n"
        "  --no-verify-each        verify only the input\n"
        "  --print-ir-after-all    print the IR after every pass to stderr\n"
        "  --time-passes           print the time of every pass to stderr\n"
        "  --verify-diagnostics    check the errors against 'expected-error' comments\n"
        "  --no-locations          print no loc(...) in the result\n"
        "  --split-input-file      treat each part between '// -----' lines as its own input\n"
        "  --help                  show this text\n";
}

// Fills `opts`; on a bad argument prints why and returns false.
bool parseArguments(int argc, char **argv, Options &opts) {
  bool sawInput = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      printUsage(std::cout);
      std::exit(0);
    } else if (arg == "-o") {
      if (i + 1 >= argc) {
        std::cerr << "trident-opt: error: '-o' needs a file name\n";
        return false;
      }
      opts.output = argv[++i];
    } else if (arg == "--verify-each") {
      opts.verifyEach = true;
    } else if (arg == "--no-verify-each") {
      opts.verifyEach = false;
    } else if (arg == "--print-ir-after-all") {
      opts.printIrAfterAll = true;
    } else if (arg == "--time-passes") {
      opts.timePasses = true;
    } else if (arg == "--verify-diagnostics") {
      opts.verifyDiagnostics = true;
    } else if (arg == "--no-locations") {
      opts.locations = false;
    } else if (arg == "--split-input-file") {
      opts.splitInputFile = true;
    } else if (arg == "--optimize") {
      opts.passes.push_back({});
    } else if (arg.rfind("--target=", 0) == 0) {
      opts.target = arg.substr(9);
    } else if (arg.rfind("--num-warps=", 0) == 0 || arg.rfind("--num-stages=", 0) == 0) {
      std::string value = arg.substr(arg.find('=') + 1);
      if (value.empty() || value.size() > 4 || value.find_first_not_of("0123456789") != std::string::npos) {
        std::cerr << "trident-opt: error: '" << arg << "' needs a number\n";
        return false;
      }
      (arg.rfind("--num-warps=", 0) == 0 ? opts.numWarps : opts.numStages) = unsigned(std::stoul(value));
    } else if (arg.rfind("--", 0) == 0) {
      const PassInfo *pass = lookupPass(arg.substr(2));
      const simt::SimtPassInfo *simtPass = pass ? nullptr : simt::lookupSimtPass(arg.substr(2));
      if (!pass && !simtPass) {
        std::cerr << "trident-opt: error: unknown option '" << arg << "' (see --help)\n";
        return false;
      }
      opts.passes.push_back({pass, simtPass});
    } else if (!sawInput) {
      opts.input = arg;
      sawInput = true;
    } else {
      std::cerr << "trident-opt: error: more than one input file ('" << opts.input << "' and '" << arg
                << "')\n";
      return false;
    }
  }
  bool needsTarget = false;
  for (const PassChoice &p : opts.passes)
    needsTarget |= p.simtPass != nullptr;
  if (needsTarget && opts.target.empty()) {
    std::cerr << "trident-opt: error: the SIMT passes need --target=<name> (" << tools::knownTargets() << ")\n";
    return false;
  }
  return true;
}

std::optional<std::string> readInput(const std::string &path) {
  if (path == "-")
    return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Parses, verifies and runs the passes; false with `diags` filled on any error.
std::optional<Module> process(const Options &opts, const std::string &text, const std::string &bufferName,
                              Diagnostics &diags) {
  std::optional<Module> module = parseModule(text, bufferName, diags);
  if (!module)
    return std::nullopt;
  if (!verify(*module, diags))
    return std::nullopt;
  PassManagerOptions pmOptions;
  pmOptions.verifyEach = opts.verifyEach;
  pmOptions.printAfterEach = opts.printIrAfterAll ? &std::cerr : nullptr;
  pmOptions.printLocations = opts.locations;
  pmOptions.timePasses = opts.timePasses;
  PassManager pm(pmOptions);
  simt::SimtPassContext context;
  if (!opts.target.empty()) {
    std::string error;
    std::optional<TargetDesc> target = tools::findTarget(opts.target, error);
    if (!target) {
      diags.error(Location(), error);
      return std::nullopt;
    }
    context.target = std::move(*target);
    context.lowering.numWarps = opts.numWarps;
    context.lowering.numStages = opts.numStages;
  }
  for (const PassChoice &choice : opts.passes) {
    if (choice.pass)
      pm.add(std::string(choice.pass->name), choice.pass->run);
    else if (const simt::SimtPassInfo *p = choice.simtPass)
      pm.add(std::string(p->name), [p, &context](Module &m, Diagnostics &d) { return p->run(m, context, d); });
    else
      addDefaultPipeline(pm);
  }
  bool ok = pm.run(*module, diags);
  if (opts.timePasses)
    pm.printTimings(std::cerr);
  if (!ok)
    return std::nullopt;
  return module;
}

constexpr std::string_view kSplitMarker = "// -----";

// The parts of `text` between lines that start with "// -----". Each part keeps the
// lines before it as empty lines, so diagnostics report lines of the whole file.
std::vector<std::string> splitInput(const std::string &text) {
  std::vector<std::string> parts(1);
  size_t lines = 0, pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    end = end == std::string::npos ? text.size() : end + 1;
    std::string_view line(text.data() + pos, end - pos);
    if (line.substr(0, kSplitMarker.size()) == kSplitMarker)
      parts.push_back(std::string(lines + 1, '\n'));
    else
      parts.back() += line;
    ++lines;
    pos = end;
  }
  return parts;
}

// Processes one input and prints the result to `out` or the errors to stderr.
bool runOne(const Options &opts, const std::string &text, const std::string &bufferName, std::ostream &out) {
  Diagnostics diags;
  std::optional<Module> module = process(opts, text, bufferName, diags);
  if (opts.verifyDiagnostics) {
    std::vector<std::string> problems;
    std::vector<opt::ExpectedDiagnostic> expected = opt::parseExpectedDiagnostics(text, problems);
    for (const std::string &p : problems)
      std::cerr << bufferName << ":" << p << "\n";
    return opt::checkDiagnostics(expected, diags, bufferName, std::cerr) && problems.empty();
  }
  if (!module) {
    out.flush(); // keeps the results and errors of split inputs in order on a terminal or pipe
    std::cerr << diags.str();
    return false;
  }
  PrintOptions printOptions;
  printOptions.locations = opts.locations;
  print(out, *module, printOptions);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  Options opts;
  if (!parseArguments(argc, argv, opts))
    return 2;
  std::optional<std::string> text = readInput(opts.input);
  if (!text) {
    std::cerr << "trident-opt: error: cannot read '" << opts.input << "'\n";
    return 1;
  }
  const std::string bufferName = opts.input == "-" ? "<stdin>" : opts.input;

  std::ofstream file;
  if (opts.output != "-") {
    file.open(opts.output, std::ios::binary);
    if (!file) {
      std::cerr << "trident-opt: error: cannot write '" << opts.output << "'\n";
      return 1;
    }
  }
  std::ostream &out = opts.output == "-" ? std::cout : file;

  bool ok = true;
  std::vector<std::string> parts = opts.splitInputFile ? splitInput(*text) : std::vector<std::string>{*text};
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i)
      out << kSplitMarker << "\n";
    ok &= runOne(opts, parts[i], bufferName, out);
  }
  return ok ? 0 : 1;
}
