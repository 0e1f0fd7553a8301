#include "Commands.h"

#include "trident/Compiler.h"
#include "trident/Error.h"
#include "trident/Runtime.h"

#include <cstdio>
#include <fstream>

namespace trident::tool {

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
