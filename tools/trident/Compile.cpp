#include "Commands.h"

#include "trident/Bundle.h"
#include "trident/Compiler.h"
#include "trident/Error.h"
#include "trident/Runtime.h"
#include "trident/support/Spelling.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <optional>

namespace trident::tool {

namespace {

// The entries of a signature string, split at its top-level commas.
std::vector<std::string> signatureEntries(const std::string &signature) {
  std::vector<std::string> out{""};
  char quote = 0;
  int depth = 0;
  for (char c : signature) {
    if (quote) {
      quote = c == quote ? 0 : quote;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    } else if (c == ',' && depth == 0) {
      out.emplace_back();
      continue;
    }
    out.back() += c;
  }
  return out;
}

const char *kCompileHelp =
    "usage: trident compile FILE --kernel K --signature S [--target T]... [--emit KIND] [-o OUT]\n"
    "\n"
    "  FILE               a Triton-language .py file, or block IR (.tir: no --signature needed)\n"
    "  --kernel K         the @triton.jit function to compile\n"
    "  --signature S      one entry per parameter, as Triton writes them:\n"
    "                     \"*fp32:16, *fp32:16, *fp32:16, i32, 1024\" (pointers *DTYPE, :16 for\n"
    "                     16-divisible values, 1 for the constant 1, constexprs as values);\n"
    "                     none for a kernel without parameters\n"
    "  --target T         host, cuda:sm_90, hip:gfx942, vulkan, or a device name (cuda:0);\n"
    "                     default host; repeat it for a bundle\n"
    "  --emit KIND        block-ir (default): the block IR after the core passes\n"
    "                     binary: the plugin's binary for the target\n"
    "                     bundle: a .tbundle with a binary per --target (Kernel::fromBundle,\n"
    "                       `trident run k.tbundle`, runtimes without the compiler)\n"
    "                     header: a C++ header embedding that bundle, with a typed launcher\n"
    "                     thread-ir, llvm, ptx, cubin, spirv, spirv-asm, hsaco: a backend's output\n"
    "  -o OUT             write to OUT (default: standard output)\n"
    "  --num-warps N      default 4\n"
    "  --num-stages N     default 3\n"
    "  --namespace NS     header: the C++ namespace of the launcher (default: trident_kernels)\n"
    "  --debug            keep device asserts; verify the IR after every pass\n";

void writeOutput(const std::string &path, const std::string &bytes) {
  if (path.empty() || path == "-") {
    std::fwrite(bytes.data(), 1, bytes.size(), stdout);
    return;
  }
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), std::streamsize(bytes.size()));
  if (!f)
    throw Error(ErrorCode::Io, "cannot write '" + path + "'");
}

// OUT with ".config<i>" before its extension.
std::string configPath(const std::string &path, size_t i) {
  if (path.empty() || path == "-")
    return path;
  size_t slash = path.find_last_of('/'), dot = path.find_last_of('.');
  std::string tag = ".config" + std::to_string(i);
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return path + tag;
  return path.substr(0, dot) + tag + path.substr(dot);
}

// A signature without the parameters @triton.autotune's configs set: one artifact per
// config (OUT.config<i>.EXT), each with the config's num_warps and num_stages; configs
// the target cannot take (too much shared memory, say) are skipped with a line each, as
// the autotuner prunes them at run time. Nothing when the signature names every parameter.
std::optional<int> compileConfigs(const Options &opts, const std::string &source, const std::string &file,
                                  const std::string &kernel, const std::string &emit, bool debug) {
  if (emit == "block-ir")
    return std::nullopt;
  std::vector<std::string> given = signatureEntries(opts.get("signature"));
  for (const KernelSummary &k : listSourceKernels(source, file)) {
    if (k.name != kernel || k.autotuneConfigs.empty() || given.size() >= k.params.size())
      continue;
    const std::string target = opts.get("target", "host");
    size_t compiled = 0;
    std::string failures;
    for (size_t c = 0; c < k.autotuneConfigs.size(); ++c) {
      const KernelSummary::Config &config = k.autotuneConfigs[c];
      std::string signature, text;
      size_t next = 0;
      bool missing = false;
      for (const std::string &p : k.params) {
        auto kw = std::find_if(config.kwargs.begin(), config.kwargs.end(), [&](const auto &e) { return e.first == p; });
        std::string entry = kw != config.kwargs.end() ? kw->second : next < given.size() ? given[next++] : "";
        missing = missing || entry.empty();
        signature += (signature.empty() ? "" : ", ") + entry;
      }
      for (const auto &[name, value] : config.kwargs)
        text += name + "=" + value + ", ";
      text += "num_warps=" + std::to_string(config.numWarps) + ", num_stages=" + std::to_string(config.numStages);
      if (next != given.size() || missing)
        throw Error(ErrorCode::InvalidArgument, "the signature gives " + std::to_string(given.size()) +
                                                    " entries; '" + kernel + "' takes " +
                                                    std::to_string(k.params.size()) +
                                                    " parameters, its autotune configs set " + text);
      try {
        ArtifactRequest req;
        req.target = target;
        req.emit = emit;
        req.numWarps = config.numWarps;
        req.numStages = config.numStages;
        req.debug = debug;
        Artifact a = compileArtifact(Runtime::get(), compileToBlockIR(source, file, kernel, signature, debug, target),
                                     kernel, req);
        std::string path = configPath(opts.get("o"), c);
        writeOutput(path, std::string(a.bytes.begin(), a.bytes.end()));
        std::fprintf(stderr, "trident compile: config %zu (%s): %s for %s, %zu bytes, %u threads/program, %u B shared%s%s\n",
                     c, text.c_str(), emit.c_str(), a.target.c_str(), a.bytes.size(), a.threadsPerProgram,
                     a.sharedMemory, path.empty() ? "" : " -> ", path.c_str());
        ++compiled;
      } catch (const Error &e) {
        if (e.code() == ErrorCode::InvalidArgument)
          throw;
        std::string why = e.what();
        std::replace(why.begin(), why.end(), '\n', ' ');
        std::fprintf(stderr, "trident compile: skipping config %zu (%s): %s\n", c, text.c_str(), why.c_str());
        failures += "\n  " + text + ": " + e.what();
      }
    }
    if (!compiled)
      throw Error(ErrorCode::Compile, "no autotune config of '" + kernel + "' compiles for " + target + ":" + failures);
    return 0;
  }
  return std::nullopt;
}

} // namespace

int compileCommand(const Args &args) {
  Options opts(args);
  if (opts.flag("help") || opts.flag("h")) {
    std::fputs(kCompileHelp, stdout);
    return 0;
  }
  opts.allowOnly({"kernel", "signature", "target", "emit", "o", "num-warps", "num-stages", "namespace"},
                 {"debug", "help", "h"});
  if (opts.positional().size() != 1)
    throw UsageError(opts.positional().empty() ? "FILE is required" : "one FILE at a time");
  const std::string file = opts.positional()[0];
  const std::string kernel = opts.get("kernel");
  if (kernel.empty())
    throw UsageError("--kernel is required (the @triton.jit function to compile)");
  // A .tir file is block IR already (what `--emit block-ir` or trident-randtest --print-ir write).
  const bool isBlockIR = file.ends_with(".tir");
  const std::string emit = opts.get("emit", "block-ir");
  const bool isBundle = emit == "bundle" || emit == "header";
  if (isBundle && isBlockIR)
    throw UsageError("--emit " + emit + " needs a Triton-language source file, not block IR");

  std::vector<std::string> targets = opts.all("target");
  if (targets.size() > 1 && !isBundle)
    throw UsageError("several --target options make a bundle: add --emit bundle (or header)");
  const bool debug = opts.flag("debug");
  const int numWarps = int(opts.integer("num-warps", 4));
  const int numStages = int(opts.integer("num-stages", 3));
  const std::string source = readFile(file);
  if (!isBlockIR) {
    // A kernel the file lacks is reported against the file, not a line of it.
    std::vector<std::string> names;
    const std::vector<KernelSummary> kernels = listSourceKernels(source, file);
    for (const KernelSummary &k : kernels)
      names.push_back(k.name);
    if (std::find(names.begin(), names.end(), kernel) == names.end()) {
      std::string list;
      for (const std::string &n : names)
        list += (list.empty() ? "" : ", ") + n;
      std::optional<std::string> near = closestSpelling(kernel, names);
      throw Error(ErrorCode::NotFound, "no @triton.jit function named '" + kernel + "' in " + file +
                                           " (it defines: " + (list.empty() ? "none" : list) + ")" +
                                           (near ? "; did you mean '" + *near + "'?" : ""));
    }
    // A kernel without parameters takes the empty signature.
    bool takesParams = false;
    for (const KernelSummary &k : kernels)
      takesParams = takesParams || (k.name == kernel && !k.params.empty());
    if (takesParams && opts.get("signature").empty())
      throw UsageError("--signature is required, one entry per parameter: e.g. \"*fp32:16, *fp32:16, i32, 1024\"");
  }
  if (!isBlockIR && !isBundle)
    if (std::optional<int> rc = compileConfigs(opts, source, file, kernel, emit, debug))
      return *rc;

  if (isBundle) {
    if (targets.empty())
      targets.push_back("host");
    Bundle bundle = compileBundle(Runtime::get(), source, file, kernel, opts.get("signature"), targets, numWarps,
                                  numStages, debug);
    std::vector<uint8_t> bytes = writeBundle(bundle);
    for (const BundleEntry &e : bundle.entries)
      std::fprintf(stderr, "trident compile: %s for %s by the %s plugin: %zu bytes\n", kernel.c_str(),
                   e.target.c_str(), e.plugin.c_str(), e.binary.size());
    if (emit == "bundle") {
      writeOutput(opts.get("o"), std::string(bytes.begin(), bytes.end()));
    } else {
      std::string ns = opts.get("namespace", "trident_kernels");
      writeOutput(opts.get("o"), launcherHeader(bundle, bytes, ns, file));
    }
    return 0;
  }

  // tl.target_info answers for --target; with --emit block-ir and no --target, for none.
  const std::string frontendTarget = !targets.empty() ? targets[0] : emit == "block-ir" ? "" : "host";
  std::string ir =
      isBlockIR ? source : compileToBlockIR(source, file, kernel, opts.get("signature"), debug, frontendTarget);
  std::string out;
  if (emit == "block-ir") {
    out = ir;
  } else {
    ArtifactRequest req;
    req.target = targets.empty() ? "host" : targets[0];
    req.emit = emit;
    req.numWarps = numWarps;
    req.numStages = numStages;
    req.debug = debug;
    Artifact a = compileArtifact(Runtime::get(), ir, kernel, req);
    out.assign(a.bytes.begin(), a.bytes.end());
    std::fprintf(stderr, "trident compile: %s for %s by the %s plugin: %zu bytes, %u threads/program, %u B shared\n",
                 emit.c_str(), a.target.c_str(), a.plugin.c_str(), a.bytes.size(), a.threadsPerProgram,
                 a.sharedMemory);
  }
  writeOutput(opts.get("o"), out);
  return 0;
}

} // namespace trident::tool
