// The bundle file format and compiling a bundle. Layout (little-endian):
//
//   "TRIDENTB" u32 formatVersion (1)
//   str kernel  u32 paramCount  { str name  u8 isConstexpr }
//   u32 entryCount  { str plugin  str target  str signature
//                     u32 numWarps  u32 numStages  u32 threadsPerProgram  u32 sharedMemory
//                     u64 binaryBytes  binary }
//   u32 configCount  { u32 kwargCount { str name  str value }  u32 numWarps  u32 numStages }
//   u32 keyCount  { str param }   u32 heuristicCount  { str param  str lambda }
//   32-byte SHA-256 of everything before it
//
// (str = u32 length + bytes.) The checksum makes a damaged or truncated file an
// error instead of a binary handed to a driver.

#include "trident/Bundle.h"

#include "ByteIO.h"
#include "FrontendBridge.h"
#include "KernelImpl.h"
#include "Sha256.h"
#include "trident/Compiler.h"
#include "trident/Error.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace trident {

using namespace detail;

namespace {

constexpr char kMagic[8] = {'T', 'R', 'I', 'D', 'E', 'N', 'T', 'B'};
constexpr uint32_t kFormatVersion = 1;

[[noreturn]] void bad(const std::string &what, const std::string &why) {
  throw Error(ErrorCode::InvalidArgument, what + " is not a usable Trident bundle: " + why);
}

} // namespace

std::vector<uint8_t> writeBundle(const Bundle &b) {
  std::vector<uint8_t> out(kMagic, kMagic + sizeof(kMagic));
  putU32(out, kFormatVersion);
  putStr(out, b.kernel);
  putU32(out, uint32_t(b.params.size()));
  for (const BundleParam &p : b.params) {
    putStr(out, p.name);
    putU8(out, p.isConstexpr);
  }
  putU32(out, uint32_t(b.entries.size()));
  for (const BundleEntry &e : b.entries) {
    putStr(out, e.plugin);
    putStr(out, e.target);
    putStr(out, e.signature);
    putU32(out, e.numWarps);
    putU32(out, e.numStages);
    putU32(out, e.threadsPerProgram);
    putU32(out, e.sharedMemory);
    putU64(out, e.binary.size());
    out.insert(out.end(), e.binary.begin(), e.binary.end());
  }
  putU32(out, uint32_t(b.configs.size()));
  for (const BundleConfig &c : b.configs) {
    putU32(out, uint32_t(c.kwargs.size()));
    for (const auto &[name, value] : c.kwargs) {
      putStr(out, name);
      putStr(out, value);
    }
    putU32(out, c.numWarps);
    putU32(out, c.numStages);
  }
  putU32(out, uint32_t(b.tuneKey.size()));
  for (const std::string &k : b.tuneKey)
    putStr(out, k);
  putU32(out, uint32_t(b.heuristics.size()));
  for (const auto &[param, lambda] : b.heuristics) {
    putStr(out, param);
    putStr(out, lambda);
  }
  Sha256 sha;
  sha.update(out.data(), out.size());
  auto sum = sha.digest();
  out.insert(out.end(), sum.begin(), sum.end());
  return out;
}

Bundle readBundle(std::span<const uint8_t> bytes, const std::string &what) {
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
    bad(what, "it does not start with TRIDENTB");
  if (bytes.size() < sizeof(kMagic) + 4 + 32)
    bad(what, "it is truncated (" + std::to_string(bytes.size()) + " bytes)");
  const size_t body = bytes.size() - 32;
  Reader r{bytes.data() + sizeof(kMagic), bytes.data() + body};
  const uint32_t format = r.u32();
  if (format != kFormatVersion)
    bad(what, "it has format " + std::to_string(format) + "; this runtime reads format " +
                  std::to_string(kFormatVersion) + " (rebuild the bundle with this Trident's `trident compile`)");
  Sha256 sha;
  sha.update(bytes.data(), body);
  auto sum = sha.digest();
  if (std::memcmp(sum.data(), bytes.data() + body, 32) != 0)
    bad(what, "its checksum does not match (the file is damaged or truncated)");
  Bundle b;
  b.kernel = r.str();
  const uint32_t paramCount = r.u32();
  if (paramCount > kMaxParams)
    bad(what, "it declares " + std::to_string(paramCount) + " parameters (at most " + std::to_string(kMaxParams) +
                  ")");
  for (uint32_t i = 0; i < paramCount && r.ok; ++i) {
    BundleParam p;
    p.name = r.str();
    p.isConstexpr = r.u8() != 0;
    b.params.push_back(std::move(p));
  }
  const uint32_t entryCount = r.u32();
  if (r.ok && entryCount > size_t(r.end - r.p) / 4)
    bad(what, "its fields do not fit its size");
  for (uint32_t i = 0; i < entryCount && r.ok; ++i) {
    BundleEntry e;
    e.plugin = r.str();
    e.target = r.str();
    e.signature = r.str();
    e.numWarps = r.u32();
    e.numStages = r.u32();
    e.threadsPerProgram = r.u32();
    e.sharedMemory = r.u32();
    const uint64_t n = r.u64();
    if (!r.need(n))
      break;
    e.binary.assign(r.p, r.p + n);
    r.p += n;
    b.entries.push_back(std::move(e));
  }
  // Counts are bounded by what is left (every item takes at least 4 bytes), so a
  // forged count cannot make the reader allocate without end.
  auto count = [&]() {
    uint32_t n = r.u32();
    if (r.ok && n > size_t(r.end - r.p) / 4)
      r.ok = false;
    return r.ok ? n : 0;
  };
  const uint32_t configCount = count();
  for (uint32_t i = 0; i < configCount && r.ok; ++i) {
    BundleConfig c;
    const uint32_t kwargs = count();
    for (uint32_t j = 0; j < kwargs && r.ok; ++j) {
      std::string name = r.str();
      c.kwargs.emplace_back(std::move(name), r.str());
    }
    c.numWarps = r.u32();
    c.numStages = r.u32();
    b.configs.push_back(std::move(c));
  }
  const uint32_t keyCount = count();
  for (uint32_t i = 0; i < keyCount && r.ok; ++i)
    b.tuneKey.push_back(r.str());
  const uint32_t heuristicCount = count();
  for (uint32_t i = 0; i < heuristicCount && r.ok; ++i) {
    std::string param = r.str();
    b.heuristics.emplace_back(std::move(param), r.str());
  }
  if (!r.ok || r.p != r.end)
    bad(what, "its fields do not fit its size");
  if (b.kernel.empty())
    bad(what, "it names no kernel");
  return b;
}

Bundle readBundleFile(const std::string &path) {
  std::vector<uint8_t> bytes = readBundleBytes(path);
  return readBundle(bytes, path);
}

std::vector<uint8_t> detail::readBundleBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(ErrorCode::NotFound, "cannot open bundle '" + path + "'");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad())
    throw Error(ErrorCode::Io, "cannot read bundle '" + path + "'");
  return bytes;
}

Bundle compileBundle(const Runtime &runtime, const std::string &source, const std::string &fileName,
                     const std::string &kernel, const std::string &signature,
                     const std::vector<std::string> &targets, int numWarps, int numStages, bool debug) {
  if (targets.empty())
    throw Error(ErrorCode::InvalidArgument, "a bundle needs at least one target");
  const SourceKernel *sk = nullptr;
  std::vector<SourceKernel> kernels = listKernelsInSource(source, fileName);
  for (const SourceKernel &k : kernels)
    if (k.name == kernel)
      sk = &k;
  if (!sk)
    throw Error(ErrorCode::NotFound, "no @triton.jit function named '" + kernel + "' in " + fileName);
  Bundle b;
  b.kernel = kernel;
  std::vector<bool> isConstexpr;
  for (const Param &p : sk->params) {
    b.params.push_back({p.name, p.isConstexpr});
    isConstexpr.push_back(p.isConstexpr);
  }
  b.tuneKey = sk->tuneKeys;
  b.heuristics = sk->heuristics;
  const std::string normalized = normalizeSignature(isConstexpr, signature);
  const std::vector<std::string> tokens = splitSignature(normalized);
  if (tokens.size() != b.params.size())
    throw Error(ErrorCode::InvalidArgument, "the signature (" + signature + ") has " + std::to_string(tokens.size()) +
                                                " entries, but kernel '" + kernel + "' has " +
                                                std::to_string(b.params.size()) + " parameters");
  // One variant without autotuning; with it, one per config: the config's values
  // replace the signature's entries for the parameters it sets (any placeholder there).
  struct Variant {
    std::string signature;
    int numWarps, numStages;
  };
  std::vector<Variant> variants;
  if (sk->configs.empty()) {
    variants.push_back({normalized, numWarps, numStages});
  } else {
    for (const TuneConfig &c : sk->configs) {
      BundleConfig bc;
      std::vector<std::string> t = tokens;
      for (const auto &[name, value] : c.kwargs) {
        bc.kwargs.emplace_back(name, value.pythonSource());
        for (size_t i = 0; i < b.params.size(); ++i)
          if (b.params[i].name == name)
            t[i] = value.pythonSource();
      }
      bc.numWarps = uint32_t(c.numWarps);
      bc.numStages = uint32_t(c.numStages);
      b.configs.push_back(std::move(bc));
      std::string sig;
      for (size_t i = 0; i < t.size(); ++i)
        sig += (i ? ", " : "") + t[i];
      variants.push_back({sig, c.numWarps, c.numStages});
    }
  }
  for (const Variant &v : variants) {
    // To block IR for each target (only tl.target_info's answers differ), then to binaries.
    for (const std::string &target : targets) {
      const std::string ir = compileToBlockIR(source, fileName, kernel, v.signature, debug, target);
      ArtifactRequest request;
      request.target = target;
      request.numWarps = v.numWarps;
      request.numStages = v.numStages;
      request.debug = debug;
      Artifact a = compileArtifact(runtime, ir, kernel, request);
      BundleEntry e;
      e.plugin = a.plugin;
      e.target = a.target;
      e.signature = v.signature;
      e.numWarps = uint32_t(v.numWarps);
      e.numStages = uint32_t(v.numStages);
      e.threadsPerProgram = a.threadsPerProgram;
      e.sharedMemory = a.sharedMemory;
      e.binary = std::move(a.bytes);
      b.entries.push_back(std::move(e));
    }
  }
  return b;
}

} // namespace trident
