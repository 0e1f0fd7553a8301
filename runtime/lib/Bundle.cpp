// The bundle file format and compiling a bundle. Layout (little-endian):
//
//   "TRIDENTB" u32 formatVersion (1)
//   str kernel  u32 paramCount  { str name  u8 isConstexpr }
//   u32 entryCount  { str plugin  str target  str signature
//                     u32 numWarps  u32 numStages  u32 threadsPerProgram  u32 sharedMemory
//                     u64 binaryBytes  binary }
//   32-byte SHA-256 of everything before it
//
// (str = u32 length + bytes.) The checksum makes a damaged or truncated file an
// error instead of a binary handed to a driver.

#include "trident/Bundle.h"

#include "ByteIO.h"
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
  if (!r.ok || r.p != r.end)
    bad(what, "its fields do not fit its size");
  if (b.kernel.empty())
    bad(what, "it names no kernel");
  return b;
}

Bundle readBundleFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(ErrorCode::NotFound, "cannot open bundle '" + path + "'");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad())
    throw Error(ErrorCode::Io, "cannot read bundle '" + path + "'");
  return readBundle(bytes, path);
}

Bundle compileBundle(const Runtime &runtime, const std::string &source, const std::string &fileName,
                     const std::string &kernel, const std::string &signature,
                     const std::vector<std::string> &targets, int numWarps, int numStages, bool debug) {
  if (targets.empty())
    throw Error(ErrorCode::InvalidArgument, "a bundle needs at least one target");
  Bundle b;
  b.kernel = kernel;
  std::vector<bool> isConstexpr;
  for (const KernelSummary &k : listSourceKernels(source, fileName))
    if (k.name == kernel)
      for (size_t i = 0; i < k.params.size(); ++i) {
        b.params.push_back({k.params[i], bool(k.isConstexpr[i])});
        isConstexpr.push_back(k.isConstexpr[i]);
      }
  const std::string normalized = normalizeSignature(isConstexpr, signature);
  if (splitSignature(normalized).size() != b.params.size())
    throw Error(ErrorCode::InvalidArgument, "the signature (" + signature + ") has " +
                                                std::to_string(splitSignature(normalized).size()) +
                                                " entries, but kernel '" + kernel + "' has " +
                                                std::to_string(b.params.size()) + " parameters");
  // Once to block IR (target-neutral), then once per target.
  const std::string ir = compileToBlockIR(source, fileName, kernel, normalized, debug);
  for (const std::string &target : targets) {
    ArtifactRequest request;
    request.target = target;
    request.numWarps = numWarps;
    request.numStages = numStages;
    request.debug = debug;
    Artifact a = compileArtifact(runtime, ir, kernel, request);
    BundleEntry e;
    e.plugin = a.plugin;
    e.target = a.target;
    e.signature = normalized;
    e.numWarps = uint32_t(numWarps);
    e.numStages = uint32_t(numStages);
    e.threadsPerProgram = a.threadsPerProgram;
    e.sharedMemory = a.sharedMemory;
    e.binary = std::move(a.bytes);
    b.entries.push_back(std::move(e));
  }
  return b;
}

} // namespace trident
