// Random kernels: every generated kernel verifies; generation is deterministic and
// covers every feature; the harness catches wrong results; and on every device the
// runtime has, each fixed seed gives the interpreter's results. Devices that are
// absent are reported as SKIPPED with the reason.

#include "Compare.h"
#include "Differential.h"
#include "IsolatedRuns.h"
#include "KernelFile.h"

#include "trident/Trident.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"
#include "trident/support/FloatFormats.h"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <numeric>

using namespace trident;
using namespace trident::e2e;

namespace {

constexpr uint64_t kVerifySeeds = 500;
constexpr uint64_t kDeviceSeeds = 200;

// The reference interpreter with one written element changed: a device that is wrong.
class CorruptingRunner final : public DeviceRunner {
public:
  const std::string &name() const override { return name_; }
  RunResult run(const RandomKernel &k, const std::string &ir) override {
    RunResult r = makeInterpreterRunner()->run(k, ir);
    for (size_t i = 0; i < k.args.size(); ++i) {
      const ArgSpec &a = k.args[i];
      if (a.written && !r.buffers[i].empty()) {
        // The first element unwritten if it was written, else written: a lost store or
        // a stray one, which any comparison mode must notice.
        size_t bytes = a.element == Type::i1() ? 1 : a.element.bitWidth() / 8;
        bool wasWritten = false;
        for (size_t b = 0; b < bytes; ++b)
          wasWritten |= r.buffers[i][b] != 0x7f;
        for (size_t b = 0; b < bytes; ++b)
          r.buffers[i][b] = wasWritten ? 0x7f : 0;
        corrupted = true;
        break;
      }
    }
    return r;
  }
  bool corrupted = false;

private:
  std::string name_ = "corrupting";
};

} // namespace

TEST_CASE("every generated kernel passes the verifier") {
  size_t failures = 0;
  for (uint64_t seed = 0; seed < kVerifySeeds; ++seed) {
    RandomKernel k = generateRandomKernel(seed);
    Diagnostics diags;
    bool ok = verify(k.module, diags);
    if (!ok && failures++ < 3)
      MESSAGE("seed " << seed << ":\n" << diags.str() << print(k.module));
    CHECK(ok);
    // The arguments describe the function's parameters one to one.
    Op *f = k.module.lookupFunction(k.name);
    REQUIRE(f);
    REQUIRE(f->region()->numArguments() == k.args.size());
    for (size_t i = 0; i < k.args.size(); ++i) {
      Type p = f->region()->argument(unsigned(i))->type();
      const ArgSpec &a = k.args[i];
      CHECK((a.kind == ArgSpec::Kind::Buffer ? p == Type::ptr(a.element) : p == a.element));
      if (a.kind == ArgSpec::Kind::Buffer)
        CHECK(a.init.size() == a.count * (a.element == Type::i1() ? 1 : a.element.bitWidth() / 8));
    }
  }
  CHECK(failures == 0);
}

TEST_CASE("a seed names one kernel, and seeds differ") {
  std::set<std::string> distinct;
  for (uint64_t seed : {0ull, 1ull, 7ull, 123456789ull}) {
    RandomKernel a = generateRandomKernel(seed), b = generateRandomKernel(seed);
    std::string ia = print(a.module), ib = print(b.module);
    CHECK(ia == ib);
    REQUIRE(a.args.size() == b.args.size());
    for (size_t i = 0; i < a.args.size(); ++i) {
      CHECK(a.args[i].init == b.args[i].init);
      CHECK(a.args[i].bits == b.args[i].bits);
    }
    CHECK(a.grid == b.grid);
    distinct.insert(ia);
  }
  CHECK(distinct.size() == 4);
}

TEST_CASE("the fixed seeds cover every feature, and a disabled feature stays out") {
  std::map<std::string, int> seen;
  for (uint64_t seed = 0; seed < kDeviceSeeds; ++seed)
    for (const std::string &f : generateRandomKernel(seed).features)
      seen[f]++;
  for (const std::string &f : generatorFeatures()) {
    INFO("feature " << f);
    CHECK(seen[f] > 0);
  }
  GeneratorOptions options;
  options.disabled = {"scan", "loop", "f64", "atomic"};
  for (uint64_t seed = 0; seed < 100; ++seed) {
    RandomKernel k = generateRandomKernel(seed, options);
    for (const std::string &f : options.disabled)
      CHECK(k.features.count(f) == 0);
    std::string ir = print(k.module);
    CHECK(ir.find("tt.scan") == std::string::npos);
    CHECK(ir.find("scf.for") == std::string::npos);
    CHECK(ir.find("f64") == std::string::npos);
    CHECK(ir.find("atomic") == std::string::npos);
  }
}

TEST_CASE("the interpreter's results obey the generator's facts") {
  // The facts decide how results are compared; here they are checked against real
  // runs: every written value lies in its promised range, exact floats are multiples
  // of 2^-frac. (runSeed checks this too, on every seed it runs.)
  auto interp = makeInterpreterRunner();
  size_t checked = 0;
  for (uint64_t seed = 0; seed < kDeviceSeeds; ++seed) {
    RandomKernel k = generateRandomKernel(seed);
    RunResult r = interp->run(k, "");
    INFO("seed " << seed);
    REQUIRE_MESSAGE(r.ok, r.error);
    for (size_t i = 0; i < k.args.size(); ++i) {
      const ArgSpec &a = k.args[i];
      if (!a.written || !a.check.hasRange || a.check.mode == OutputCheck::Mode::Skip)
        continue;
      checked += a.count;
      CHECK_MESSAGE(checkPromise(a, r.buffers[i]).empty(), checkPromise(a, r.buffers[i]));
    }
  }
  CHECK(checked > 1000);
  // And a broken promise is noticed.
  ArgSpec a;
  a.name = "out";
  a.element = Type::i32();
  a.count = 1;
  a.written = true;
  a.check.hasRange = true;
  a.check.lo = 0, a.check.hi = 10;
  CHECK(checkPromise(a, {5, 0, 0, 0}).empty());
  CHECK(!checkPromise(a, {11, 0, 0, 0}).empty());
  CHECK(!checkPromise(a, {0xff, 0xff, 0xff, 0xff}).empty());
}

TEST_CASE("the facts of descriptor loads hold in dot loops") {
  // Seeds 3097, 3877 and 4689 at --dot-weight 8 broke their promises in the interpreter
  // itself: the facts of a tt.descriptor_load were inferred again (when the loop around
  // it was recorded) as a pointer's, and what the loop computed from them went wrong.
  GeneratorOptions options;
  options.dotWeight = 8;
  auto interp = makeInterpreterRunner();
  for (uint64_t seed : {3097ull, 3877ull, 4689ull}) {
    RandomKernel k = generateRandomKernel(seed, options);
    INFO("seed " << seed << " at dot weight 8");
    CHECK(print(k.module).find("tt.descriptor_load") != std::string::npos);
    RunResult r = interp->run(k, "");
    REQUIRE_MESSAGE(r.ok, r.error);
    for (size_t i = 0; i < k.args.size(); ++i) {
      const ArgSpec &a = k.args[i];
      if (a.written && a.check.hasRange && a.check.mode != OutputCheck::Mode::Skip)
        CHECK_MESSAGE(checkPromise(a, r.buffers[i]).empty(), checkPromise(a, r.buffers[i]));
    }
  }
}

namespace {

// A number `v` is surely a multiple of (0: v is 0), from constants, products and sums.
int64_t knownMultiple(const Value *v) {
  const Op *op = v->definingOp();
  if (!op)
    return 1;
  switch (op->code()) {
  case OpCode::Constant: {
    const Attribute &a = op->attr("value");
    return a.isInt() ? std::abs(a.getInt()) : 1;
  }
  case OpCode::MulI: return knownMultiple(op->operand(0)) * knownMultiple(op->operand(1));
  case OpCode::AddI:
  case OpCode::SubI: return std::gcd(knownMultiple(op->operand(0)), knownMultiple(op->operand(1)));
  case OpCode::ExtSI:
  case OpCode::ExtUI:
  case OpCode::Splat: return knownMultiple(op->operand(0));
  default: return 1;
  }
}

// Why tensor-descriptor load `load` breaks the contract of Triton's TensorDescriptor
// (buffers start 16-byte aligned), or "" when it keeps it.
std::string breaksDescriptorContract(const Op *load) {
  Type t = load->result()->type();
  int64_t bytes = t.element().bitWidth() / 8;
  unsigned rank = t.rank();
  const Value *base = load->operand(0);
  if (const Op *def = base->definingOp()) {
    if (def->code() != OpCode::AddPtr || !def->operand(0)->isBlockArgument())
      return "a base that is not a buffer plus an offset";
    if (knownMultiple(def->operand(1)) * bytes % 16 != 0)
      return "a base that may not be 16-byte aligned";
  }
  for (unsigned d = 0; d < rank; ++d) {
    const Op *c = load->operand(1 + rank + d)->definingOp();
    if (!c || c->code() != OpCode::Constant)
      return "a stride that is not a constant";
    int64_t stride = c->attr("value").getInt();
    if (d + 1 == rank && stride != 1)
      return "a last stride of " + std::to_string(stride);
    if (d + 1 < rank && stride * bytes % 16 != 0)
      return "stride " + std::to_string(d) + " of " + std::to_string(stride * bytes) + " bytes";
  }
  if (t.shape().back() * bytes < 16)
    return "a box of " + std::to_string(t.shape().back() * bytes) + " bytes per row";
  return "";
}

} // namespace

TEST_CASE("the generator's tensor descriptors keep Triton's contract") {
  // Triton's TensorDescriptor takes a 16-byte aligned base, strides that are multiples
  // of 16 bytes but the last, which is 1, and boxes of 16 bytes or more per row; CUDA's
  // cuTensorMapEncodeTiled refuses others (a (1, 48) tensor with strides (1, 1) did).
  // Loads with `checked` are block pointers, which promise nothing of the kind.
  GeneratorOptions options;
  options.dotWeight = 8;
  size_t descriptors = 0, blockPointers = 0, broken = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    RandomKernel k = generateRandomKernel(seed, options);
    k.module.op()->walk([&](Op *op) {
      if (op->code() != OpCode::DescriptorLoad)
        return;
      if (op->attr("checked").present()) {
        ++blockPointers;
        return;
      }
      ++descriptors;
      std::string why = breaksDescriptorContract(op);
      if (!why.empty() && broken++ < 5)
        MESSAGE("seed " << seed << ": a tensor descriptor with " << why << ": " << print(op));
    });
  }
  MESSAGE(descriptors << " tensor-descriptor loads, " << blockPointers << " block-pointer loads");
  CHECK(broken == 0);
  CHECK(descriptors > 20);
  CHECK(blockPointers > 20);
}

TEST_CASE("a kernel file gives back the kernel, arguments and all") {
  GeneratorOptions options;
  options.dotWeight = 8;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    RandomKernel k = generateRandomKernel(seed, options);
    std::string text = writeKernelFile(k, "seed " + std::to_string(seed) + "\nat dot weight 8");
    std::string error;
    std::optional<RandomKernel> back = readKernelFile(text, error);
    INFO("seed " << seed);
    REQUIRE_MESSAGE(back, error);
    CHECK(writeKernelFile(*back, "seed " + std::to_string(seed) + "\nat dot weight 8") == text);
    CHECK(print(back->module) == print(k.module));
    CHECK(back->grid == k.grid);
    REQUIRE(back->args.size() == k.args.size());
    for (size_t i = 0; i < k.args.size(); ++i) {
      const ArgSpec &a = k.args[i], &b = back->args[i];
      CHECK((a.kind == b.kind && a.name == b.name && a.element == b.element && a.count == b.count));
      CHECK((a.init == b.init && a.bits == b.bits && a.written == b.written));
      CHECK((a.check.mode == b.check.mode && a.check.tolerance == b.check.tolerance &&
             a.check.hasRange == b.check.hasRange && a.check.lo == b.check.lo && a.check.hi == b.check.hi &&
             a.check.exact == b.check.exact && a.check.frac == b.check.frac));
    }
  }
  std::string error;
  CHECK(!readKernelFile("trident-kernel 1\ngrid 1 1 1\n", error));
  CHECK(error.find("no IR") != std::string::npos);
  CHECK(!readKernelFile("trident-kernel 1\nbuffer in0 f32 2 input mode=bytes tolerance=0x0p+0\ndata 0011\n", error));
  CHECK(error.find("bad data") != std::string::npos);
}

TEST_CASE("the comparison tells right results from wrong ones") {
  ArgSpec a;
  a.name = "out";
  a.element = Type::f32();
  a.count = 3;
  a.written = true;
  a.init = std::vector<uint8_t>(12, 0x7f);
  auto bytesOf = [](std::initializer_list<float> v) {
    std::vector<uint8_t> out;
    for (float f : v)
      for (int b = 0; b < 4; ++b)
        out.push_back(uint8_t(std::bit_cast<uint32_t>(f) >> (8 * b)));
    return out;
  };
  a.check.mode = OutputCheck::Mode::Tolerance;
  a.check.tolerance = 1e-3;
  CHECK(compareBuffer(a, bytesOf({1, 2, 3}), bytesOf({1.0005f, 2, 3})).mismatches == 0);
  CHECK(compareBuffer(a, bytesOf({1, 2, 3}), bytesOf({1.01f, 2, 3})).mismatches == 1);
  CHECK(compareBuffer(a, bytesOf({1, 2, 3}), bytesOf({1, NAN, 3})).mismatches == 1);
  std::vector<uint8_t> unwritten = bytesOf({1, 2, 3});
  std::fill(unwritten.begin() + 4, unwritten.begin() + 8, 0x7f);
  CHECK(compareBuffer(a, bytesOf({1, 2, 3}), unwritten).mismatches == 1);
  CHECK(compareBuffer(a, unwritten, bytesOf({1, 2, 3})).mismatches == 1);
  a.check.mode = OutputCheck::Mode::Exact;
  CHECK(compareBuffer(a, bytesOf({1, -0.0f, 3}), bytesOf({1, 0, 3})).mismatches == 0);
  CHECK(compareBuffer(a, bytesOf({1, 2, 3}), bytesOf({1, std::nextafter(2.0f, 3.0f), 3})).mismatches == 1);
  a.check.mode = OutputCheck::Mode::Bytes;
  CHECK(compareBuffer(a, bytesOf({1, -0.0f, 3}), bytesOf({1, 0, 3})).mismatches == 1);
  CHECK(compareBuffer(a, bytesOf({1, 2, 3}), bytesOf({1, 2})).mismatches == 1);
}

TEST_CASE("the harness reports a device that computes something else") {
  CorruptingRunner wrong;
  DeviceRunner *devices[] = {&wrong};
  size_t caught = 0, runs = 0;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    wrong.corrupted = false;
    SeedResult r = runSeed(seed, {}, devices);
    REQUIRE(r.problem.empty());
    if (!wrong.corrupted)
      continue;
    ++runs;
    caught += !r.passed();
    if (r.passed())
      MESSAGE("seed " << seed << ": a corrupted buffer went unnoticed\n" << r.ir);
  }
  CHECK(runs > 10);
  CHECK(caught == runs);
}

TEST_CASE("random kernels give the interpreter's results on every device") {
  // Seeds run in child processes (IsolatedRuns.h): a device that crashes or hangs
  // fails its seed and the run goes on. A device's compiler may not support every op
  // yet: such seeds are reported as UNSUPPORTED (and fail when TRIDENT_RANDTEST_STRICT=1).
  const char *strictEnv = std::getenv("TRIDENT_RANDTEST_STRICT");
  bool strict = strictEnv && std::string(strictEnv) == "1";
  std::map<std::string, size_t> passed, failed, unsupported;
  size_t problems = 0, outputs = 0, unchecked = 0;
  // The thread-IR simulator runs the lowering CUDA devices get (warps of 32) on any machine.
  IsolatedRunOptions options;
  options.compileTargets = {"sim:sm_90"};
  IsolatedRunSummary summary = runSeedsIsolated(0, kDeviceSeeds, options, [&](const SeedResult &r) {
    outputs += r.outputs;
    unchecked += r.skippedOutputs;
    if (!r.problem.empty())
      ++problems;
    for (const DeviceVerdict &v : r.verdicts) {
      (v.passed ? passed : v.unsupported ? unsupported : failed)[v.device]++;
      if (v.unsupported) {
        size_t at = v.message.rfind(": error: ");
        std::cout << "UNSUPPORTED: " << v.device << ": seed " << r.seed << ": "
                  << v.message.substr(at == std::string::npos ? 0 : at + 9) << "\n";
      }
    }
    if (!r.passed(false)) {
      RandomKernel k = generateRandomKernel(r.seed);
      std::cout << "FAILED: " << describe(r, &k) << "\n";
    }
  });
  REQUIRE_MESSAGE(summary.fatal.empty(), summary.fatal);
  for (const std::string &s : summary.skipped)
    std::cout << "SKIPPED: " << s << "\n";
  std::cout << "random kernels: seeds 0.." << kDeviceSeeds - 1 << ", " << outputs << " outputs (" << unchecked
            << " without a usable bound)\n";
  for (const std::string &d : summary.devices)
    std::cout << "  " << d << ": " << passed[d] << " passed, " << failed[d] << " failed, " << unsupported[d]
              << " unsupported\n";
  std::cout << "  " << summary.skipped.size() << " backends SKIPPED (no device)\n";
  bool hasHost = false;
  for (const std::string &d : summary.devices)
    hasHost |= d == "host:0";
  CHECK_MESSAGE(hasHost, "host:0 is missing: the host plugin must always be present");
  CHECK(problems == 0);
  for (const std::string &d : summary.devices) {
    INFO("device " << d);
    CHECK(failed[d] == 0);
    CHECK(passed[d] + unsupported[d] == kDeviceSeeds);
    if (strict)
      CHECK(unsupported[d] == 0);
  }
  // Nearly every output must be compared against a bound.
  CHECK(unchecked * 20 <= outputs);
}
