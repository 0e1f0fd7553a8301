#include "Differential.h"

#include "Compare.h"

#include "trident/Trident.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"

#include <algorithm>
#include <sstream>

#ifndef TRIDENT_E2E_PLUGIN_DIR
#define TRIDENT_E2E_PLUGIN_DIR ""
#endif

namespace trident::e2e {

bool SeedResult::passed(bool strict) const {
  if (!problem.empty())
    return false;
  for (const DeviceVerdict &v : verdicts)
    if (!v.passed && (strict || !v.unsupported))
      return false;
  return true;
}

SeedResult runSeed(uint64_t seed, const GeneratorOptions &options, std::span<DeviceRunner *const> devices,
                   const SeedHooks &hooks) {
  auto stage = [&](const std::string &s) {
    if (hooks.stage)
      hooks.stage(s);
  };
  auto done = [&](DeviceVerdict v) {
    if (hooks.verdict)
      hooks.verdict(v);
    return v;
  };
  SeedResult result;
  result.seed = seed;
  RandomKernel kernel = generateRandomKernel(seed, options);
  result.features = kernel.features;
  result.ir = print(kernel.module, PrintOptions{.locations = false});
  for (const ArgSpec &a : kernel.args)
    if (a.written) {
      ++result.outputs;
      result.skippedOutputs += a.check.mode == OutputCheck::Mode::Skip;
    }

  Diagnostics diags;
  stage("verifying the kernel");
  if (!verify(kernel.module, diags)) {
    result.problem = "the generated kernel does not verify:\n" + diags.str();
    return result;
  }
  stage("parsing the printed kernel");
  std::optional<Module> reparsed = parseModule(result.ir, "<random kernel>", diags);
  if (!reparsed) {
    result.problem = "the printed kernel does not parse:\n" + diags.str();
    return result;
  }
  if (std::string again = print(*reparsed, PrintOptions{.locations = false}); again != result.ir) {
    result.problem = "the printed kernel does not print the same after parsing:\n" + again;
    return result;
  }

  stage("running the reference interpreter");
  RunResult reference = makeInterpreterRunner()->run(kernel, result.ir);
  if (!reference.ok) {
    result.problem = "the reference interpreter failed:\n" + reference.error;
    return result;
  }
  for (size_t i = 0; i < kernel.args.size(); ++i)
    if (kernel.args[i].kind == ArgSpec::Kind::Buffer)
      if (std::string broken = checkPromise(kernel.args[i], reference.buffers[i]); !broken.empty()) {
        result.problem = "the generator's facts do not hold (a generator bug): " + broken;
        return result;
      }
  for (DeviceRunner *device : devices) {
    DeviceVerdict verdict;
    verdict.device = device->name();
    stage("device " + device->name());
    RunResult run = device->run(kernel, result.ir);
    if (!run.ok) {
      verdict.message = "run failed: " + run.error;
      verdict.unsupported = run.error.find("not supported") != std::string::npos &&
                            run.error.find("compile error") != std::string::npos;
      result.verdicts.push_back(done(std::move(verdict)));
      continue;
    }
    std::string report;
    for (size_t i = 0; i < kernel.args.size() && !run.compiledOnly; ++i) {
      if (kernel.args[i].kind != ArgSpec::Kind::Buffer)
        continue;
      BufferComparison c = compareBuffer(kernel.args[i], reference.buffers[i], run.buffers[i]);
      report += c.report;
    }
    verdict.passed = report.empty();
    if (!verdict.passed)
      verdict.message = "wrong results:\n" + report;
    result.verdicts.push_back(done(std::move(verdict)));
  }
  return result;
}

std::string describeArgs(const RandomKernel &k) {
  std::ostringstream os;
  for (size_t i = 0; i < k.args.size(); ++i) {
    const ArgSpec &a = k.args[i];
    os << "  #" << i << " " << a.name << ": ";
    if (a.kind == ArgSpec::Kind::Scalar) {
      os << a.element.str() << " = 0x" << std::hex << a.bits << std::dec << "\n";
      continue;
    }
    os << "ptr<" << a.element.str() << "> [" << a.count << "]";
    if (a.written) {
      static const char *const modes[] = {"bytes", "exact", "tolerance", "unchecked"};
      os << " output, " << modes[int(a.check.mode)];
      if (a.check.mode == OutputCheck::Mode::Tolerance)
        os << " " << a.check.tolerance;
    }
    os << "\n";
  }
  return os.str();
}

std::string describe(const SeedResult &r, const RandomKernel *kernel) {
  std::ostringstream os;
  os << "seed " << r.seed << ": ";
  if (!r.problem.empty())
    os << r.problem << "\n";
  for (const DeviceVerdict &v : r.verdicts)
    if (!v.passed)
      os << v.device << (v.unsupported ? " (unsupported)" : "") << ": " << v.message << "\n";
  if (kernel)
    os << "grid " << kernel->grid[0] << "x" << kernel->grid[1] << "x" << kernel->grid[2] << ", arguments:\n"
       << describeArgs(*kernel);
  os << r.ir;
  return os.str();
}

RuntimeOptions e2eRuntimeOptions() {
  RuntimeOptions options = RuntimeOptions::fromEnvironment();
  std::string buildTree = TRIDENT_E2E_PLUGIN_DIR;
  if (!buildTree.empty() && std::find(options.pluginDirs.begin(), options.pluginDirs.end(), buildTree) ==
                                options.pluginDirs.end())
    options.pluginDirs.insert(options.pluginDirs.begin(), buildTree);
  options.diskCache = false;
  return options;
}

std::vector<DeviceRunner *> DeviceSelection::pointers() const {
  std::vector<DeviceRunner *> out;
  for (const auto &r : runners)
    out.push_back(r.get());
  return out;
}

DeviceSelection selectDevices(const Runtime &runtime, const std::string &only,
                              const std::vector<std::string> &compileTargets) {
  DeviceSelection selection;
  for (const std::string &t : compileTargets) {
    if (t.rfind("sim:", 0) != 0) {
      selection.runners.push_back(makeCompileRunner(runtime, t));
    } else if (std::unique_ptr<DeviceRunner> sim = makeSimulatorRunner(t.substr(4))) {
      selection.runners.push_back(std::move(sim));
    } else {
      selection.skipped.push_back(t + ": no simulator: this build has no NVPTX backend");
    }
  }
  for (const Device &d : runtime.devices())
    if (only.empty() || d.name() == only || d.plugin() == only)
      selection.runners.push_back(makeRuntimeRunner(d));
  if (!only.empty() && selection.runners.empty())
    selection.skipped.push_back(only + ": no device: the runtime has no device or plugin named '" + only + "'");
  // Every backend Trident has: those without a device are reported, never silently absent.
  for (const char *plugin : {"host", "cpu", "cuda", "hip", "vulkan"}) {
    if (!only.empty() && only.rfind(plugin, 0) != 0)
      continue;
    bool present = false;
    for (const Device &d : runtime.devices())
      present |= d.plugin() == plugin;
    if (present)
      continue;
    std::string reason = "plugin not found in the plugin folders";
    for (const PluginReport &p : runtime.plugins())
      if (p.name == plugin || p.path.find(std::string("trident-plugin-") + plugin + ".") != std::string::npos)
        reason = p.loaded ? (p.reason.empty() ? "0 devices" : p.reason) : "plugin not loaded: " + p.reason;
    selection.skipped.push_back(std::string(plugin) + ": no device: " + reason);
  }
  return selection;
}

} // namespace trident::e2e
