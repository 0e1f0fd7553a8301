// trident-randtest: runs random kernels on the interpreter and on every device (or one)
// and prints each failure with its seed, its arguments and its IR.
//
//   trident-randtest --seeds 1000 --first 5000 --device cuda:0
//   trident-randtest --first 1234 --seeds 1 --print-ir       # show one kernel

#include "Compare.h"
#include "Differential.h"
#include "IsolatedRuns.h"
#include "KernelFile.h"
#include "Reducer.h"

#include "trident/Trident.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"

#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

using namespace trident;
using namespace trident::e2e;

namespace {

void usage(std::ostream &os) {
  os << "usage: trident-randtest [--seeds N] [--first S] [--device D] [--disable F1,F2,...]\n"
        "                        [--ops N] [--max-elements N] [--print-ir] [--no-devices] [--strict] [--quiet]\n"
        "  --seeds N         how many seeds to run (default 100)\n"
        "  --first S         the first seed (default 0)\n"
        "  --device D        only this device or plugin (\"cuda:0\", \"vulkan\"); default: every device\n"
        "  --disable F,...   leave these features out of the kernels; features:\n"
        "                   ";
  for (const std::string &f : generatorFeatures())
    os << " " << f;
  os << "\n"
        "  --ops N           about how many ops a kernel has (default 60)\n"
        "  --max-elements N  the largest block (default 256)\n"
        "  --dot-weight W    how often a step builds a tt.dot (default 0.06; elementwise ops: 9)\n"
        "  --print-ir        print every kernel, not only failing ones\n"
        "  --no-devices      only generate, verify and run the interpreter\n"
        "  --strict          count kernels a device's compiler does not support yet as failures\n"
        "  --compile T,...   also compile every kernel for these targets (\"cuda:sm_90\"): needs no\n"
        "                    device; with --no-devices, only compile; \"sim:sm_90\" also runs the\n"
        "                    kernel's thread IR for sm_90 in the simulator and compares it\n"
        "  --reduce D        shrink each failing kernel on device D (\"vulkan:0\") and print it\n"
        "  --reduce-seconds T stop shrinking a kernel after T seconds and print it as far as it got\n"
        "  --ir FILE         run the block IR in FILE (a kernel --reduce printed, maybe edited) with\n"
        "                    the arguments of seed --first on --device D (\"host:0\", \"sim:sm_90\")\n"
        "                    and compare it with the interpreter\n"
        "  --save-kernel FILE write the kernel of seed --first, with its arguments, to FILE\n"
        "                    (KernelFile.h; --comment TEXT goes into its header) and stop; with\n"
        "                    --reduce, the reduced kernel of the (last) failing seed instead;\n"
        "                    with --ir, the kernel of that file\n"
        "  --kernel FILE     run a kernel FILE that --save-kernel wrote on --device D and compare it\n"
        "                    with the interpreter: it replays after the generator has changed\n"
        "  --no-isolate      run in this process (for a debugger); by default seeds run in child\n"
        "                    processes, so a crash or hang fails one seed, not the run\n"
        "  --quiet           print only failures and the summary\n";
}

// Runs kernel `k` on `device` and the interpreter and compares them.
int runKernel(RandomKernel k, const std::string &device) {
  std::unique_ptr<Runtime> runtime;
  std::unique_ptr<DeviceRunner> runner;
  try {
    if (device.rfind("sim:", 0) == 0) {
      runner = makeSimulatorRunner(device.substr(4));
    } else {
      runtime = std::make_unique<Runtime>(e2eRuntimeOptions());
      DeviceSelection selection = selectDevices(*runtime, device.empty() ? "host:0" : device);
      if (!selection.runners.empty())
        runner = std::move(selection.runners[0]);
      else
        for (const std::string &s : selection.skipped) // why: CTest skips on these lines
          std::cout << "SKIPPED: " << s << "\n";
    }
  } catch (const Error &e) {
    std::cerr << "trident-randtest: " << e.what() << "\n";
    return 2;
  }
  if (!runner) {
    std::cerr << "trident-randtest: no device '" << device << "'\n";
    return 2;
  }
  std::string ir = print(k.module, PrintOptions{.locations = false});
  RunResult reference = makeInterpreterRunner()->run(k, ir);
  if (!reference.ok) {
    std::cout << "the interpreter failed: " << reference.error << "\n";
    return 1;
  }
  RunResult run = runner->run(k, ir);
  if (!run.ok) {
    std::cout << runner->name() << ": run failed: " << run.error << "\n";
    return 1;
  }
  std::string report;
  for (size_t i = 0; i < k.args.size() && !run.compiledOnly; ++i)
    if (k.args[i].kind == ArgSpec::Kind::Buffer)
      report += compareBuffer(k.args[i], reference.buffers[i], run.buffers[i]).report;
  std::cout << runner->name() << ": " << (report.empty() ? "passed\n" : "wrong results:\n" + report);
  return report.empty() ? 0 : 1;
}

std::optional<std::string> readText(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "trident-randtest: cannot read '" << path << "'\n";
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

int saveKernelAs(const std::string &path, const RandomKernel &k, const std::string &comment);

// --ir: the kernel in `path` with the arguments of `seed`, on `device` and the interpreter;
// with --save-kernel, written to `saveFile` with those arguments instead.
int runFile(const std::string &path, uint64_t seed, const GeneratorOptions &options, const std::string &device,
            const std::string &saveFile, const std::string &comment) {
  std::optional<std::string> text = readText(path);
  if (!text)
    return 2;
  RandomKernel k = generateRandomKernel(seed, options);
  Diagnostics diags;
  std::optional<Module> m = parseModule(*text, path, diags);
  if (!m || !verify(*m, diags)) {
    std::cerr << diags.str();
    return 2;
  }
  k.module = std::move(*m);
  Op *f = k.module.lookupFunction(k.name);
  if (!f || f->region()->numArguments() != k.args.size()) {
    std::cerr << "trident-randtest: '" << path << "' needs a function '" << k.name << "' with the "
              << k.args.size() << " parameters of seed " << seed << "\n";
    return 2;
  }
  if (!saveFile.empty())
    return saveKernelAs(saveFile, k, comment);
  return runKernel(std::move(k), device);
}

// --kernel: a kernel file (KernelFile.h), arguments and all.
int runKernelFile(const std::string &path, const std::string &device) {
  std::optional<std::string> text = readText(path);
  if (!text)
    return 2;
  std::string error;
  std::optional<RandomKernel> k = readKernelFile(*text, error);
  Diagnostics diags;
  if (!k || !verify(k->module, diags)) {
    std::cerr << "trident-randtest: '" << path << "': " << (k ? diags.str() : error) << "\n";
    return 2;
  }
  return runKernel(std::move(*k), device);
}

// --save-kernel: the kernel of `seed` as a kernel file.
int saveKernel(const std::string &path, uint64_t seed, const GeneratorOptions &options, const std::string &comment) {
  return saveKernelAs(path, generateRandomKernel(seed, options), comment);
}

int saveKernelAs(const std::string &path, const RandomKernel &k, const std::string &comment) {
  std::ofstream out(path, std::ios::binary);
  out << writeKernelFile(k, comment);
  if (!out) {
    std::cerr << "trident-randtest: cannot write '" << path << "'\n";
    return 2;
  }
  return 0;
}

bool parseNumber(const char *s, uint64_t &out) {
  char *end = nullptr;
  out = std::strtoull(s, &end, 10);
  return end && *end == 0 && *s;
}

} // namespace

int main(int argc, char **argv) {
  uint64_t seeds = 100, first = 0, ops = 60, maxElements = 256;
  double reduceSeconds = 0;
  std::string only;
  bool printIR = false, noDevices = false, quiet = false, strict = false, isolate = true;
  std::string reduceOn, irFile, saveFile, kernelFile, comment;
  std::vector<std::string> compileTargets;
  GeneratorOptions options;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char * {
      if (i + 1 >= argc) {
        std::cerr << "trident-randtest: " << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    auto number = [&](uint64_t &out) {
      const char *v = value();
      if (!parseNumber(v, out)) {
        std::cerr << "trident-randtest: " << a << " needs a number, got '" << v << "'\n";
        std::exit(2);
      }
    };
    if (a == "--seeds")
      number(seeds);
    else if (a == "--first")
      number(first);
    else if (a == "--ops")
      number(ops);
    else if (a == "--max-elements")
      number(maxElements);
    else if (a == "--dot-weight") {
      const char *v = value();
      char *end = nullptr;
      options.dotWeight = std::strtod(v, &end);
      if (!end || *end || options.dotWeight < 0) {
        std::cerr << "trident-randtest: --dot-weight needs a number >= 0, got '" << v << "'\n";
        return 2;
      }
    } else if (a == "--reduce-seconds") {
      const char *v = value();
      char *end = nullptr;
      reduceSeconds = std::strtod(v, &end);
      if (!end || *end || reduceSeconds <= 0) {
        std::cerr << "trident-randtest: --reduce-seconds needs a number > 0, got '" << v << "'\n";
        return 2;
      }
    } else if (a == "--device")
      only = value();
    else if (a == "--disable") {
      std::stringstream list(value());
      for (std::string f; std::getline(list, f, ',');) {
        bool known = false;
        for (const std::string &g : generatorFeatures())
          known |= g == f;
        if (!known) {
          std::cerr << "trident-randtest: unknown feature '" << f << "'\n";
          usage(std::cerr);
          return 2;
        }
        options.disabled.insert(f);
      }
    } else if (a == "--print-ir")
      printIR = true;
    else if (a == "--no-devices")
      noDevices = true;
    else if (a == "--compile") {
      std::stringstream list(value());
      for (std::string t; std::getline(list, t, ',');)
        compileTargets.push_back(t);
    } else if (a == "--reduce")
      reduceOn = value();
    else if (a == "--ir")
      irFile = value();
    else if (a == "--save-kernel")
      saveFile = value();
    else if (a == "--kernel")
      kernelFile = value();
    else if (a == "--comment")
      comment = value();
    else if (a == "--no-isolate")
      isolate = false;
    else if (a == "--strict")
      strict = true;
    else if (a == "--quiet")
      quiet = true;
    else if (a == "--help" || a == "-h") {
      usage(std::cout);
      return 0;
    } else {
      std::cerr << "trident-randtest: unknown option '" << a << "'\n";
      usage(std::cerr);
      return 2;
    }
  }
  options.ops = int(ops);
  options.maxElements = int64_t(maxElements);
  if (!irFile.empty())
    return runFile(irFile, first, options, only, saveFile, comment);
  if (!saveFile.empty() && reduceOn.empty())
    return saveKernel(saveFile, first, options, comment);
  if (!kernelFile.empty())
    return runKernelFile(kernelFile, only);

  std::map<std::string, uint64_t> passed, failed, unsupported;
  std::map<std::string, uint64_t> featureCounts;
  uint64_t problems = 0, failedSeeds = 0, outputs = 0, unchecked = 0;
  auto onSeed = [&](const SeedResult &r) {
    outputs += r.outputs;
    unchecked += r.skippedOutputs;
    for (const std::string &f : r.features)
      featureCounts[f]++;
    problems += !r.problem.empty();
    for (const DeviceVerdict &v : r.verdicts) {
      (v.passed ? passed : v.unsupported ? unsupported : failed)[v.device]++;
      if (v.unsupported && !strict) {
        size_t at = v.message.rfind(": error: ");
        std::cout << "UNSUPPORTED: " << v.device << ": seed " << r.seed << ": "
                  << v.message.substr(at == std::string::npos ? 0 : at + 9) << "\n";
      }
    }
    RandomKernel k = generateRandomKernel(r.seed, options);
    if (!r.passed(strict)) {
      ++failedSeeds;
      std::cout << "FAILED " << describe(r, &k) << "\n";
      if (!reduceOn.empty()) {
        std::optional<Reduction> red = reduceFailure(r.seed, options, reduceOn, reduceSeconds);
        if (!red)
          std::cout << "seed " << r.seed << ": does not fail on " << reduceOn << " when run alone\n";
        else
          std::cout << "REDUCED seed " << r.seed << " on " << reduceOn << " (" << red->failure << "): "
                    << red->opsBefore << " -> " << red->opsAfter << " ops in " << red->runs << " runs"
                    << (red->complete ? "" : " (the time ran out: reduced only so far)") << "\ngrid " << red->kernel.grid[0] << "x"
                    << red->kernel.grid[1] << "x" << red->kernel.grid[2] << ", arguments:\n"
                    << describeArgs(red->kernel) << print(red->kernel.module, PrintOptions{.locations = false})
                    << "\n";
        if (red && !saveFile.empty()) {
          std::ofstream out(saveFile, std::ios::binary);
          out << writeKernelFile(red->kernel, comment);
          std::cout << (out ? "saved the reduced kernel to " : "cannot write ") << saveFile << "\n";
        }
      }
    } else if (printIR) {
      std::cout << "seed " << r.seed << ": passed\ngrid " << k.grid[0] << "x" << k.grid[1] << "x" << k.grid[2]
                << ", arguments:\n"
                << describeArgs(k) << r.ir << "\n";
    }
    std::cout.flush();
  };

  std::vector<std::string> deviceNames;
  if (isolate) {
    IsolatedRunOptions iso;
    iso.generator = options;
    iso.device = only;
    iso.noDevices = noDevices;
    iso.compileTargets = compileTargets;
    IsolatedRunSummary summary = runSeedsIsolated(first, seeds, iso, onSeed);
    if (!summary.fatal.empty()) {
      std::cerr << "trident-randtest: " << summary.fatal << "\n";
      return 2;
    }
    deviceNames = summary.devices;
    for (const std::string &s : summary.skipped)
      std::cout << "SKIPPED: " << s << "\n";
  } else {
    std::unique_ptr<Runtime> runtime;
    DeviceSelection devices;
    if (!noDevices || !compileTargets.empty()) {
      try {
        runtime = std::make_unique<Runtime>(e2eRuntimeOptions());
        devices = selectDevices(*runtime, noDevices ? "none" : only, compileTargets);
        if (noDevices)
          devices.skipped.clear();
      } catch (const Error &e) {
        std::cerr << "trident-randtest: " << e.what() << "\n";
        return 2;
      }
      for (const std::string &s : devices.skipped)
        std::cout << "SKIPPED: " << s << "\n";
    }
    std::vector<DeviceRunner *> runners = devices.pointers();
    for (DeviceRunner *r : runners)
      deviceNames.push_back(r->name());
    for (uint64_t seed = first; seed < first + seeds; ++seed)
      onSeed(runSeed(seed, options, runners));
  }

  std::cout << "seeds " << first << ".." << first + seeds - 1 << ": " << seeds - failedSeeds << " passed, "
            << failedSeeds << " failed";
  if (problems)
    std::cout << " (" << problems << " before any device ran)";
  std::cout << "; " << outputs << " outputs, " << unchecked << " without a usable bound\n";
  for (const std::string &d : deviceNames)
    std::cout << "  " << d << ": " << passed[d] << " passed, " << failed[d] << " failed, " << unsupported[d]
              << " unsupported\n";
  if (!quiet) {
    std::cout << "  features:";
    for (const auto &[f, n] : featureCounts)
      std::cout << " " << f << "=" << n;
    std::cout << "\n";
  }
  return failedSeeds ? 1 : 0;
}
