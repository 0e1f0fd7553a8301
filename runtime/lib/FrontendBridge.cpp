#include "FrontendBridge.h"

#include "trident/Compiler.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Printer.h"
#include "trident/passes/PassManager.h"
#include "trident/passes/Pipeline.h"
#include "trident/support/StageTimer.h"

#if TRIDENT_RUNTIME_HAS_FRONTEND
#include "trident/frontend/Frontend.h"
#endif

#include <algorithm>

namespace trident {

namespace detail {

#if !TRIDENT_RUNTIME_HAS_FRONTEND
namespace {

[[noreturn]] void noFrontend() {
  throw Error(ErrorCode::NotSupported,
              "this build of Trident has no frontend (it was built without the compiler): it runs kernels "
              "compiled ahead of time, Kernel::fromBundle of a `trident compile --emit bundle` file, and block IR");
}

} // namespace
#endif

std::vector<SourceKernel> listKernelsInSource(const std::string &source, const std::string &fileName) {
#if TRIDENT_RUNTIME_HAS_FRONTEND
  Diagnostics diags;
  auto infos = trident::listKernels(source, fileName, diags);
  if (!infos)
    throw Error(ErrorCode::Compile, "cannot read " + fileName + ":\n" + diags.str());
  std::vector<SourceKernel> out;
  for (const KernelInfo &info : *infos) {
    SourceKernel k;
    k.name = info.name;
    for (size_t i = 0; i < info.params.size(); ++i) {
      Param p;
      p.name = info.params[i];
      p.isConstexpr = i < info.isConstexpr.size() && info.isConstexpr[i];
      p.doNotSpecialize = std::find(info.doNotSpecialize.begin(), info.doNotSpecialize.end(), p.name) !=
                          info.doNotSpecialize.end();
      if (i < info.defaults.size() && !info.defaults[i].empty())
        p.defaultValue = parseConstexprSource(info.defaults[i]);
      k.params.push_back(std::move(p));
    }
    for (const KernelInfo::Config &c : info.autotuneConfigs) {
      k.configs.push_back(makeTuneConfig(c.kwargs, c.numWarps, c.numStages));
    }
    k.tuneKeys = info.autotuneKeys;
    k.heuristics = info.heuristics;
    k.error = info.error;
    out.push_back(std::move(k));
  }
  return out;
#else
  (void)source;
  (void)fileName;
  noFrontend();
#endif
}

std::string importedSourcesKey(const std::string &source, const std::string &fileName) {
#if TRIDENT_RUNTIME_HAS_FRONTEND
  std::string key;
  for (const auto &[path, text] : trident::importedFiles(source, fileName))
    key += path + '\0' + std::to_string(text.size()) + '\0' + text;
  return key;
#else
  (void)source;
  (void)fileName;
  return "";
#endif
}

std::string sourceToBlockIR(const std::string &source, const std::string &fileName, const std::string &kernel,
                            const std::string &signature, bool debug, const std::string &target) {
#if TRIDENT_RUNTIME_HAS_FRONTEND
  Diagnostics diags;
  auto args = parseSignature(signature, diags);
  if (!args)
    throw Error(ErrorCode::InvalidArgument, "bad signature '" + signature + "':\n" + diags.str());
  CompileRequest request;
  request.kernel = kernel;
  request.args = std::move(*args);
  request.debug = debug;
  request.target = target;
  StageTimer stages("runtime", kernel);
  std::optional<Module> m = compileKernel(source, fileName, request, diags);
  if (!m)
    throw Error(ErrorCode::Compile, "cannot compile '" + kernel + "' for (" + signature + "):\n" + diags.str());
  stages.lap("frontend", "tir", [&] { return print(*m); });
  PassManagerOptions po;
  po.afterEach = [&](const std::string &pass, const Module &after) {
    stages.lap(pass.c_str(), "tir", [&] { return print(after); });
  };
#ifdef NDEBUG
  po.verifyEach = debug;
#else
  po.verifyEach = true;
#endif
  PassManager pm(po);
  addDefaultPipeline(pm);
  if (!pm.run(*m, diags))
    throw Error(ErrorCode::Compile, "optimizing '" + kernel + "' failed:\n" + diags.str());
  // The plugin's compileToThreadIR does not run the pipeline a second time.
  markBlockPipelineDone(*m);
  return print(*m);
#else
  (void)source;
  (void)fileName;
  (void)kernel;
  (void)signature;
  (void)debug;
  (void)target;
  noFrontend();
#endif
}

std::vector<std::string> blockIRParams(const std::string &ir, const std::string &name) {
  Diagnostics diags;
  std::optional<Module> m = parseModule(ir, "<block IR>", diags);
  if (!m)
    throw Error(ErrorCode::Compile, "the block IR does not parse:\n" + diags.str());
  Op *f = m->lookupFunction(name);
  if (!f)
    throw Error(ErrorCode::NotFound, "the block IR has no tt.func named '" + name + "'");
  std::vector<std::string> names;
  for (unsigned i = 0; i < f->region()->numArguments(); ++i)
    names.push_back("%" + std::to_string(i));
  return names;
}

} // namespace detail

std::string compileToBlockIR(const std::string &source, const std::string &fileName, const std::string &kernel,
                             const std::string &signature, bool debug, const std::string &target) {
  return detail::sourceToBlockIR(source, fileName, kernel, signature, debug, target);
}

std::vector<KernelSummary> listSourceKernels(const std::string &source, const std::string &fileName) {
  std::vector<KernelSummary> out;
  for (const detail::SourceKernel &k : detail::listKernelsInSource(source, fileName)) {
    KernelSummary s;
    s.name = k.name;
    for (const detail::Param &p : k.params) {
      s.params.push_back(p.name);
      s.isConstexpr.push_back(p.isConstexpr);
    }
    for (const detail::TuneConfig &c : k.configs)
      s.autotuneConfigs.push_back({c.sources, c.numWarps, c.numStages});
    out.push_back(std::move(s));
  }
  return out;
}

} // namespace trident
