#include "Commands.h"

#include "trident/Compiler.h"
#include "trident/Error.h"
#include "trident/Runtime.h"

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

void writeOutput(const std::string &path, const std::string &out) {
  if (path.empty() || path == "-") {
    std::fwrite(out.data(), 1, out.size(), stdout);
    return;
  }
  std::ofstream f(path, std::ios::binary);
  f.write(out.data(), std::streamsize(out.size()));
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
        Artifact a = compileArtifact(Runtime::get(), compileToBlockIR(source, file, kernel, signature, debug), kernel,
                                     req);
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
  opts.allowOnly({"kernel", "signature", "target", "emit", "o", "num-warps", "num-stages"}, {"debug"});
  if (opts.positional().size() != 1)
    throw Error(ErrorCode::InvalidArgument,
                "usage: trident compile FILE --kernel K --signature S [--target T] [--emit KIND] [-o OUT]");
  const std::string file = opts.positional()[0];
  const std::string kernel = opts.get("kernel");
  if (kernel.empty())
    throw Error(ErrorCode::InvalidArgument, "--kernel is required (the @triton.jit function to compile)");
  // A .tir file is block IR already (what `--emit block-ir` or trident-randtest --print-ir write).
  const bool isBlockIR = file.ends_with(".tir");
  if (!isBlockIR && opts.get("signature").empty())
    throw Error(ErrorCode::InvalidArgument,
                "--signature is required, one entry per parameter: e.g. \"*fp32:16, *fp32:16, i32, 1024\"");
  const std::string emit = opts.get("emit", "block-ir");
  const bool debug = opts.flag("debug");
  if (!isBlockIR)
    if (std::optional<int> rc = compileConfigs(opts, readFile(file), file, kernel, emit, debug))
      return *rc;
  std::string ir =
      isBlockIR ? readFile(file) : compileToBlockIR(readFile(file), file, kernel, opts.get("signature"), debug);

  std::string out;
  if (emit == "block-ir") {
    out = ir;
  } else {
    ArtifactRequest req;
    req.target = opts.get("target", "host");
    req.emit = emit;
    req.numWarps = std::stoi(opts.get("num-warps", "4"));
    req.numStages = std::stoi(opts.get("num-stages", "3"));
    req.debug = debug;
    Artifact a = compileArtifact(Runtime::get(), ir, kernel, req);
    out.assign(a.bytes.begin(), a.bytes.end());
    std::fprintf(stderr, "trident compile: %s for %s by the %s plugin: %zu bytes, %u threads/program, %u B shared\n",
                 emit.c_str(), a.target.c_str(), a.plugin.c_str(), a.bytes.size(), a.threadsPerProgram,
                 a.sharedMemory);
  }
  const std::string outPath = opts.get("o");
  if (outPath.empty() || outPath == "-") {
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
  }
  std::ofstream f(outPath, std::ios::binary);
  f.write(out.data(), std::streamsize(out.size()));
  if (!f)
    throw Error(ErrorCode::Io, "cannot write '" + outPath + "'");
  return 0;
}

} // namespace trident::tool
