// The frontend's entry points: compileKernel and listKernels.

#include "trident/frontend/Frontend.h"

#include "Cleanup.h"
#include "CodeGen.h"
#include "KernelInfo.h"

#include "trident/ir/Verifier.h"

namespace trident {

using namespace frontend;

std::optional<Module> compileKernel(std::string_view source, std::string_view fileName,
                                    const CompileRequest &request, Diagnostics &diags) {
  // Declared outside the try: errors point into the sources of its modules.
  ModuleSet modules(request.imports);
  try {
    const ModuleEnv &env = modules.addMain(std::string(fileName), std::string(source));
    const GlobalEntry *g = env.lookup(request.kernel);
    if (g && g->kind == GlobalEntry::Kind::Opaque && !g->reason.empty())
      fail(SourcePos{env.source.get(), g->span.line, g->span.col},
           "'" + request.kernel + "' cannot be compiled: " + g->reason);
    if (g && g->kind == GlobalEntry::Kind::Function && g->function->constexprFunction)
      fail(SourcePos{env.source.get(), g->span.line, g->span.col},
           "'" + request.kernel + "' is a @triton.constexpr_function, not a kernel");
    if (!g || g->kind != GlobalEntry::Kind::Function || !g->function->parsed)
      fail(SourcePos{env.source.get(), 1, 1},
           "no @triton.jit function named '" + request.kernel + "' in " + std::string(fileName));
    Module module;
    CodeGen cg(module, modules, env, request.debug);
    if (request.staticPrint)
      cg.setStaticPrint(request.staticPrint);
    cg.setTarget(request.target);
    cg.compileKernel(*g->function, request.args);
    eraseDeadPureOps(module);
    Diagnostics verifierDiags;
    if (!verify(module, verifierDiags)) {
      for (const Diagnostic &d : verifierDiags.list())
        diags.error(d.loc, "internal error: the frontend built invalid IR: " + d.message);
      return std::nullopt;
    }
    return module;
  } catch (const CompileError &e) {
    report(diags, e);
    return std::nullopt;
  }
}

std::optional<std::vector<KernelInfo>> listKernels(std::string_view source, std::string_view fileName,
                                                   Diagnostics &diags, const ImportOptions &imports) {
  ModuleSet modules(imports);
  try {
    const ModuleEnv &env = modules.addMain(std::string(fileName), std::string(source));
    std::vector<KernelInfo> result;
    for (const FunctionDef *fn : env.jitFunctions()) {
      try {
        result.push_back(kernelInfo(*fn, env));
      } catch (const CompileError &e) {
        KernelInfo broken;
        broken.name = fn->name;
        for (const Param &p : fn->params) {
          broken.params.push_back(p.name);
          broken.isConstexpr.push_back(isConstexprAnnotation(p.annotation.get()));
          broken.defaults.emplace_back();
        }
        Diagnostics d;
        report(d, e);
        broken.error = d.str();
        result.push_back(std::move(broken));
      }
    }
    return result;
  } catch (const CompileError &e) {
    report(diags, e);
    return std::nullopt;
  }
}

std::vector<std::pair<std::string, std::string>>
importedFiles(std::string_view source, std::string_view fileName, const ImportOptions &imports) {
  ModuleSet modules(imports);
  try {
    modules.addMain(std::string(fileName), std::string(source));
  } catch (const CompileError &) {
    return {};
  }
  modules.loadAll();
  return modules.files();
}

} // namespace trident
