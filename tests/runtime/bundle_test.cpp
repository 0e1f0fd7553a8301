// Bundles (trident/Bundle.h): the file format and its damage checks, choosing an
// entry per device and launch, and the errors when none fits.

#include "TestUtil.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

using namespace trident;

namespace {

std::string vectorAddSource() {
  std::ifstream in(std::string(TRIDENT_TEST_SOURCE_DIR) + "/samples/vector_add.py");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Bundle hostBundle(Runtime &rt, const std::string &signature) {
  return compileBundle(rt, vectorAddSource(), "vector_add.py", "add_kernel", signature, {"host"});
}

// Runs the bundle's add_kernel on host:0 over n elements; returns how many are wrong.
int runAdd(Runtime &rt, const Kernel &k, int n, LaunchOptions options = {}) {
  Device dev = rt.device("host:0");
  std::vector<float> x(static_cast<size_t>(n)), y(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    x[size_t(i)] = float(i);
    y[size_t(i)] = 2.0f;
  }
  Buffer bx = Buffer::fromHost(dev, std::span<const float>(x));
  Buffer by = Buffer::fromHost(dev, std::span<const float>(y));
  Buffer out(dev, size_t(n), DType::F32);
  out.fillBytes(0xff);
  k.launch(dev, Grid(cdiv(n, 64)), {bx, by, out, n}, options);
  int wrong = 0;
  std::vector<float> r = out.toHost<float>();
  for (int i = 0; i < n; ++i)
    wrong += r[size_t(i)] != float(i) + 2.0f;
  return wrong;
}

} // namespace

TEST_CASE("a bundle writes, reads back and launches without compiling") {
  Runtime rt(test::testOptions());
  Bundle b = hostBundle(rt, "*fp32:16,*f32:16, *fp32:16, i32, 64");
  CHECK(b.kernel == "add_kernel");
  REQUIRE(b.params.size() == 5);
  CHECK(b.params[4].name == "BLOCK_SIZE");
  CHECK(b.params[4].isConstexpr);
  REQUIRE(b.entries.size() == 1);
  CHECK(b.entries[0].plugin == "host");
  CHECK(b.entries[0].target == "host");
  CHECK(b.entries[0].signature == "*fp32:16, *fp32:16, *fp32:16, i32, 64"); // normalized
  std::vector<uint8_t> bytes = writeBundle(b);
  Bundle back = readBundle(bytes);
  CHECK(back.entries[0].binary == b.entries[0].binary);
  CHECK(signatureEntries(back.entries[0].signature).size() == 5);

  Runtime fresh(test::testOptions());
  Kernel k = Kernel::fromBundle(bytes, "add.tbundle");
  CHECK(k.name() == "add_kernel");
  CHECK(runAdd(fresh, k, 1000) == 0); // BLOCK_SIZE defaults to the bundle's 64
  CHECK(runAdd(fresh, k, 1000, {.constexprs = {{"BLOCK_SIZE", 64}}}) == 0);
  CacheStats s = fresh.cacheStats();
  CHECK(s.frontendCompiles == 0);
  CHECK(s.backendCompiles == 0);
}

TEST_CASE("an entry without a specialization takes the launches it does not assume") {
  Runtime rt(test::testOptions());
  Kernel k = Kernel::fromBundle(writeBundle(hostBundle(rt, "*fp32, *fp32, *fp32, i32, 64")));
  CHECK(runAdd(rt, k, 1000) == 0); // aligned pointers, n not a multiple of 16
  CHECK(runAdd(rt, k, 960) == 0);  // n a multiple of 16
  CHECK(runAdd(rt, k, 1) == 0);    // n == 1: passed as an argument, not folded
}

TEST_CASE("a launch no entry fits is an error that lists the entries") {
  Runtime rt(test::testOptions());
  Kernel k = Kernel::fromBundle(writeBundle(hostBundle(rt, "*fp32:16, *fp32:16, *fp32:16, i32:16, 64")),
                                "add.tbundle");
  CHECK(runAdd(rt, k, 960) == 0);
  try {
    runAdd(rt, k, 1000); // i32, not i32:16
    FAIL("expected an error");
  } catch (const Error &e) {
    CHECK(e.code() == ErrorCode::NotFound);
    CHECK(std::string(e.what()).find("bundle add.tbundle has no entry for host:0") != std::string::npos);
    CHECK(std::string(e.what()).find("*fp32:16, *fp32:16, *fp32:16, i32, 64") != std::string::npos);
    CHECK(std::string(e.what()).find("host (host plugin), num_warps 4: *fp32:16, *fp32:16, *fp32:16, i32:16, 64") !=
          std::string::npos);
  }
  CHECK_THROWS_AS(runAdd(rt, k, 960, {.constexprs = {{"BLOCK_SIZE", 128}}}), Error);
  CHECK_THROWS_AS(runAdd(rt, k, 960, {.numWarps = 8}), Error);
  try {
    (void)k.blockIR(rt.device("host:0"), {});
    FAIL("expected an error");
  } catch (const Error &e) {
    CHECK(e.code() == ErrorCode::NotSupported);
  }
}

TEST_CASE("a bundle for other devices only says so") {
  Runtime rt(test::testOptions());
  Bundle b = hostBundle(rt, "*fp32:16, *fp32:16, *fp32:16, i32, 64");
  b.entries[0].plugin = "vulkan";
  b.entries[0].target = "vulkan";
  Kernel k = Kernel::fromBundle(writeBundle(b), "vk.tbundle");
  try {
    runAdd(rt, k, 1000);
    FAIL("expected an error");
  } catch (const Error &e) {
    CHECK(std::string(e.what()).find("no entry for host:0 (target host, host plugin)") != std::string::npos);
    CHECK(std::string(e.what()).find("vulkan (vulkan plugin)") != std::string::npos);
  }
}

TEST_CASE("a damaged, truncated or foreign bundle is refused with a reason") {
  Runtime rt(test::testOptions());
  std::vector<uint8_t> bytes = writeBundle(hostBundle(rt, "*fp32:16, *fp32:16, *fp32:16, i32, 64"));
  auto refusal = [](std::vector<uint8_t> b) -> std::string {
    try {
      (void)Kernel::fromBundle(b, "k.tbundle");
    } catch (const Error &e) {
      CHECK(e.code() == ErrorCode::InvalidArgument);
      return e.what();
    }
    return "accepted";
  };
  std::vector<uint8_t> flipped = bytes;
  flipped[flipped.size() / 2] ^= 0x10;
  CHECK(refusal(flipped).find("checksum does not match") != std::string::npos);
  CHECK(refusal(std::vector<uint8_t>(bytes.begin(), bytes.begin() + long(bytes.size() - 7))).find("checksum") !=
        std::string::npos);
  CHECK(refusal(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 12)).find("truncated") != std::string::npos);
  CHECK(refusal({}).find("does not start with TRIDENTB") != std::string::npos);
  std::vector<uint8_t> cacheEntry = {'T', 'R', 'I', 'D', 'E', 'N', 'T', 'K', 2, 0, 0, 0};
  CHECK(refusal(cacheEntry).find("does not start with TRIDENTB") != std::string::npos);
  std::vector<uint8_t> newer = bytes;
  newer[8] = 9; // format 9
  CHECK(refusal(newer).find("has format 9") != std::string::npos);
  CHECK_THROWS_AS(Kernel::fromBundle(std::string("/nonexistent/k.tbundle")), Error);
}

namespace {

const char *kAutotunedSource = R"(import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({'BLOCK': 32}, num_warps=1), triton.Config({'BLOCK': 64}, num_warps=2)],
                 key=['n'])
@triton.jit
def scale(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)
)";

} // namespace

TEST_CASE("an autotuned kernel's bundle holds every config and tunes among them, saying so") {
  Runtime compiler(test::testOptions());
  // BLOCK's entry is a placeholder: each config's value replaces it.
  Bundle b = compileBundle(compiler, kAutotunedSource, "scale.py", "scale", "*fp32:16, *fp32:16, i32, 0", {"host"});
  REQUIRE(b.configs.size() == 2);
  REQUIRE(b.entries.size() == 2);
  CHECK(b.entries[0].signature == "*fp32:16, *fp32:16, i32, 32");
  CHECK(b.entries[0].numWarps == 1);
  CHECK(b.entries[1].signature == "*fp32:16, *fp32:16, i32, 64");
  CHECK(b.entries[1].numWarps == 2);
  REQUIRE(b.tuneKey.size() == 1);
  CHECK(b.tuneKey[0] == "n");
  Bundle back = readBundle(writeBundle(b));
  CHECK(back.configs.size() == 2);
  CHECK(back.configs[1].kwargs.at(0) == std::pair<std::string, std::string>("BLOCK", "64"));

  std::vector<LogMessage> messages;
  RuntimeOptions options = test::testOptions();
  options.printAutotuning = true;
  options.log = [&](const LogMessage &m) { messages.push_back(m); };
  Runtime rt(options);
  Device dev = rt.device("host:0");
  Kernel k = Kernel::fromBundle(writeBundle(b), "scale.tbundle");
  const int n = 1000;
  std::vector<float> x(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    x[size_t(i)] = float(i);
  Buffer bx = Buffer::fromHost(dev, std::span<const float>(x));
  Buffer out(dev, size_t(n), DType::F32);
  Grid grid([&](const Meta &m) -> Dim3 { return {cdiv(n, m["BLOCK"])}; });
  k.launch(dev, grid, {bx, out, n});
  k.launch(dev, grid, {bx, out, n}); // tuned once
  std::vector<float> r = out.toHost<float>();
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += r[size_t(i)] != 2.0f * float(i);
  CHECK(wrong == 0);
  CHECK(rt.cacheStats().backendCompiles == 0);
  REQUIRE(messages.size() == 3); // two timings and the pick
  CHECK(messages[0].topic == "autotune");
  CHECK(messages[0].level == LogMessage::Level::Info);
  CHECK(messages[0].text.find("autotune scale on host:0: config 1/2 BLOCK=32, num_warps=1, num_stages=3: ") == 0);
  CHECK(messages[1].text.find("config 2/2 BLOCK=64, num_warps=2, num_stages=3: ") != std::string::npos);
  CHECK(messages[2].text.find("autotune scale on host:0: picked BLOCK=") == 0);
}
