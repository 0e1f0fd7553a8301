// Kernels from Triton-language source through the frontend: specialization,
// constexprs, what is packed, errors that point at the source, the disk cache
// across processes, and autotuning.

#include "TestUtil.h"
#include "trident/plugin.h"

#include <doctest/doctest.h>

#include <fstream>
#include <random>

using namespace trident;

namespace {

const char *kScaleSource = R"(
import triton
import triton.language as tl

@triton.jit
def scale_kernel(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr, SQUARE: tl.constexpr = False):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if SQUARE:
        x = x * x
    tl.store(out_ptr + offs, x * factor, mask=mask)

@triton.jit
def broken_kernel(x_ptr):
    tl.store(x_ptr, undefined_name)
)";

const char *kTunedSource = R"(
import triton
import triton.language as tl

@triton.autotune(configs=[triton.Config({'BLOCK': 32}, num_warps=1), triton.Config({'BLOCK': 64}, num_warps=2)],
                 key=['n'])
@triton.jit
def inc_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask) + 1.0, mask=mask)
)";

} // namespace

TEST_CASE("a source kernel runs with constexprs, defaults and Triton's specializations") {
  Runtime rt(test::testOptions());
  Device dev = rt.device("host:0");
  Kernel k = Kernel::fromSource(kScaleSource, "scale_kernel", "scale.py");
  REQUIRE(k.numParams() == 6);
  CHECK(k.paramName(4) == "BLOCK");
  CHECK(k.paramIsConstexpr(4));
  CHECK_FALSE(k.paramIsConstexpr(2));

  std::mt19937 rng(99);
  std::uniform_real_distribution<float> dist(-2, 2);
  const int n = 777;
  std::vector<float> x(n);
  for (float &v : x)
    v = dist(rng);
  Buffer bx = Buffer::fromHost(dev, std::span<const float>(x));
  Buffer out(dev, n, DType::F32);
  for (bool square : {false, true}) {
    out.fillBytes(0xff);
    k.launch(dev, Grid(cdiv(n, 128)), {bx, out, n, 0.5f},
             {.constexprs = {{"BLOCK", 128}, {"SQUARE", square}}});
    auto got = out.toHost<float>();
    for (int i = 0; i < n; ++i) {
      double v = x[size_t(i)];
      double ref = (square ? v * v : v) * 0.5;
      CHECK(std::abs(got[size_t(i)] - ref) <= 1e-6 * (1 + std::abs(ref)));
    }
  }
  // The default of SQUARE (False) and a positional constexpr.
  out.fillBytes(0xff);
  k.launch(dev, Grid(cdiv(n, 64)), {bx, out, n, 2.0f, 64});
  auto got = out.toHost<float>();
  for (int i = 0; i < n; ++i)
    CHECK(got[size_t(i)] == x[size_t(i)] * 2.0f);

  // n == 1 is specialized as a constant, like Triton.
  out.fillBytes(0);
  k.launch(dev, Grid(1), {bx, out, 1, 3.0f, 16});
  CHECK(out.toHost<float>()[0] == x[0] * 3.0f);
  CHECK(out.toHost<float>()[1] == 0.0f);
  CHECK(k.blockIR(dev, std::vector<Arg>{bx, out, 1, 3.0f, 16}).find("ptr<f32>, %1: ptr<f32>, %2: f32)") !=
        std::string::npos);
  // Three specializations so far: SQUARE False/True, BLOCK 64, n == 1.
  CHECK(rt.cacheStats().frontendCompiles == 4);
}

TEST_CASE("only runtime arguments are packed: constexprs and integers equal to 1 are not") {
  Runtime rt(test::testOptions("", {TRIDENT_TEST_STUB_DIR}));
  Device dev = rt.device("stub-recorder:0");
  Kernel k = Kernel::fromSource(kScaleSource, "scale_kernel", "scale.py");
  Buffer rec(dev, 512, DType::F32);
  auto numArgs = [&] {
    std::vector<uint32_t> words(8);
    rec.copyToHost(words.data(), 32);
    return words[5];
  };
  k.launch(dev, Grid(1), {rec, rec, 100, 1.5f}, {.constexprs = {{"BLOCK", 32}}});
  CHECK(numArgs() == 4);
  k.launch(dev, Grid(1), {rec, rec, 1, 1.5f}, {.constexprs = {{"BLOCK", 32}}});
  CHECK(numArgs() == 3); // n == 1 became a constant
}

TEST_CASE("source errors point at the file and line, and bad calls name the parameter") {
  Runtime rt(test::testOptions());
  Device dev = rt.device("host:0");
  Buffer b(dev, 16, DType::F32);
  CHECK_THROWS_WITH_AS(Kernel::fromSource(kScaleSource, "scale", "scale.py"),
                       doctest::Contains("no @triton.jit function named 'scale' in scale.py (it defines: "
                                         "scale_kernel, broken_kernel)"),
                       Error);
  Kernel broken = Kernel::fromSource(kScaleSource, "broken_kernel", "scale.py");
  try {
    broken.launch(dev, Grid(1), {b});
    FAIL("compiling broken_kernel should fail");
  } catch (const Error &e) {
    CHECK(e.code() == ErrorCode::Compile);
    CHECK(std::string(e.what()).find("scale.py:16:") != std::string::npos);
  }
  Kernel k = Kernel::fromSource(kScaleSource, "scale_kernel", "scale.py");
  CHECK_THROWS_WITH_AS(k.launch(dev, Grid(1), {b, b, 16, 1.0f}),
                       doctest::Contains("missing a value for parameter 'BLOCK'"), Error);
  CHECK_THROWS_WITH_AS(k.launch(dev, Grid(1), {b, b, 16, 1.0f, b}),
                       doctest::Contains("argument 4 ('BLOCK') of kernel 'scale_kernel': the parameter is "
                                         "tl.constexpr"),
                       Error);
  CHECK_THROWS_WITH_AS(k.launch(dev, Grid(1), {b, b, 16, 1.0f, 16}, {.constexprs = {{"BLOCK", 16}}}),
                       doctest::Contains("given twice"), Error);
}

TEST_CASE("a second process compiles nothing for a source kernel the first compiled") {
  test::TempDir cache;
  std::string out1, out2;
  REQUIRE(test::runChild({"--child-launch", cache.path(), "source"}, {}, out1) == 0);
  CHECK(test::childValue(out1, "frontend") == 1);
  CHECK(test::childValue(out1, "backend") == 1);
  REQUIRE(test::runChild({"--child-launch", cache.path(), "source"}, {}, out2) == 0);
  CHECK(test::childValue(out2, "ok") == 1);
  CHECK(test::childValue(out2, "frontend") == 0);
  CHECK(test::childValue(out2, "backend") == 0);
  CHECK(test::childValue(out2, "diskhits") == 1);
}

TEST_CASE("autotuning picks a config per key, keeps results intact, and remembers the winner on disk") {
  test::TempDir cache;
  const int n = 300;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i)
    x[size_t(i)] = float(i);
  uint64_t compilesFirst = 0;
  for (int round = 0; round < 2; ++round) {
    Runtime rt(test::testOptions(cache.path()));
    Device dev = rt.device("host:0");
    Kernel k = Kernel::fromSource(kTunedSource, "inc_kernel", "tuned.py");
    Buffer b = Buffer::fromHost(dev, std::span<const float>(x));
    int64_t block = 0;
    Grid grid([&](const Meta &m) -> Dim3 {
      block = m["BLOCK"];
      return {cdiv(n, m["BLOCK"])};
    });
    k.launch(dev, grid, {b, n});
    // Tuning launched the kernel several times, but the buffer was restored
    // each time: the launch incremented it exactly once.
    auto got = b.toHost<float>();
    for (int i = 0; i < n; ++i)
      CHECK(got[size_t(i)] == float(i) + 1.0f);
    CHECK((block == 32 || block == 64));
    k.launch(dev, grid, {b, n}); // the winner is reused
    CHECK(b.toHost<float>()[5] == 7.0f);
    if (round == 0) {
      compilesFirst = rt.cacheStats().backendCompiles;
      CHECK(compilesFirst == 2); // both configs were compiled and timed
    } else {
      // The winner came from disk: no tuning, only its binary (also from disk).
      CHECK(rt.cacheStats().backendCompiles == 0);
      CHECK(rt.cacheStats().diskHits == 1);
    }
  }
}

TEST_CASE("autotuning compiles every config before it times any") {
  // The middle config cannot compile (tl.arange needs a power of two): its warning comes
  // before the first timing, since every config is compiled first and the timings then
  // run back to back (a GPU idle during compiles would be slow for the first ones).
  const char *source = R"(
import triton
import triton.language as tl

@triton.autotune(configs=[triton.Config({'BLOCK': 32}), triton.Config({'BLOCK': 24}), triton.Config({'BLOCK': 64})],
                 key=['n'])
@triton.jit
def inc_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask) + 1.0, mask=mask)
)";
  std::vector<std::string> lines;
  RuntimeOptions options = test::testOptions();
  options.printAutotuning = true;
  options.log = [&](const LogMessage &m) { lines.push_back(m.text); };
  Runtime rt(options);
  Device dev = rt.device("host:0");
  Kernel k = Kernel::fromSource(source, "inc_kernel", "tuned3.py");
  const int n = 100;
  Buffer b = Buffer::fromHost(dev, std::span<const float>(std::vector<float>(n, 1.0f)));
  k.launch(dev, Grid([&](const Meta &m) -> Dim3 { return {cdiv(n, m["BLOCK"])}; }), {b, n});
  CHECK(b.toHost<float>()[n - 1] == 2.0f);
  size_t skipped = lines.size(), firstTiming = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("skipping BLOCK=24") != std::string::npos)
      skipped = std::min(skipped, i);
    if (lines[i].find(": config ") != std::string::npos)
      firstTiming = std::min(firstTiming, i);
  }
  INFO(lines.size() << " log lines");
  REQUIRE(skipped < lines.size());
  REQUIRE(firstTiming < lines.size());
  CHECK(skipped < firstTiming);
}

TEST_CASE("@triton.heuristics values are computed from the launch's values") {
  const char *source = R"(
import triton
import triton.language as tl

@triton.heuristics({'BLOCK': lambda args: triton.next_power_of_2(args['n']) if args['n'] < 64 else 64,
                    'EVEN': lambda args: args['n'] % args['BLOCK'] == 0 and not args['n'] == 0})
@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(out_ptr + offs, tl.load(x_ptr + offs) * 2.0)
    else:
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 3.0, mask=mask)
)";
  Runtime rt(test::testOptions());
  Device dev = rt.device("host:0");
  Kernel k = Kernel::fromSource(source, "copy_kernel", "heur.py");
  for (int n : {128, 100, 20}) {
    std::vector<float> x(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
      x[size_t(i)] = float(i) - 7.5f;
    Buffer bx = Buffer::fromHost(dev, std::span<const float>(x));
    Buffer out(dev, size_t(n), DType::F32);
    int64_t block = 0;
    k.launch(dev, Grid([&](const Meta &m) -> Dim3 {
               block = m["BLOCK"];
               return {cdiv(n, m["BLOCK"])};
             }),
             {bx, out, n});
    CHECK(block == (n < 64 ? 32 : 64));
    const float factor = n % block == 0 ? 2.0f : 3.0f;
    auto got = out.toHost<float>();
    for (int i = 0; i < n; ++i)
      CHECK(got[size_t(i)] == x[size_t(i)] * factor);
  }
  CHECK_THROWS_WITH_AS(k.launch(dev, Grid(1), {Buffer(dev, 4, DType::F32), Buffer(dev, 4, DType::F32), 4, 4}),
                       doctest::Contains("@triton.heuristics computes it"), Error);
}

TEST_CASE("@triton.heuristics lambdas are read by the frontend's parser: lines, chains, what is refused") {
  auto kernelWith = [](const std::string &lambda) {
    return Kernel::fromSource("import triton\nimport triton.language as tl\n\n@triton.heuristics({'B': " + lambda +
                                  "})\n@triton.jit\ndef k(x_ptr, n, B: tl.constexpr):\n"
                                  "    tl.store(x_ptr + tl.arange(0, 1), tl.full((1,), B, tl.int32))\n",
                              "k", "h.py");
  };
  Runtime rt(test::testOptions());
  Device dev = rt.device("host:0");
  auto valueFor = [&](Kernel &k, int n) {
    Buffer x(dev, 1, DType::I32);
    k.launch(dev, Grid(1), {x, n});
    return x.toHost<int32_t>()[0];
  };
  // Over two lines (as inside the dict's braces), a chained comparison, ** and //, max.
  Kernel k = kernelWith("lambda args: 1 if 0 < args['n'] <= 8\n        else max(2 ** 3, -(-args['n'] // 2))");
  CHECK(valueFor(k, 5) == 1);
  CHECK(valueFor(k, 0) == 8);
  CHECK(valueFor(k, 30) == 15);
  for (auto [lambda, message] : std::initializer_list<std::pair<const char *, const char *>>{
           {"lambda args: args['n'] << 1", "@triton.heuristics for 'B': '<<' is not supported in `lambda args: "
                                           "args['n'] << 1` (supported: numbers"},
           {"lambda args: args['m']", "'m' is not a parameter of the kernel"},
           {"lambda args: min(args['n'])", "min takes two arguments"},
           {"lambda args: tl.cdiv(args['n'], 2)", "'tl.cdiv' is not supported"},
           {"lambda a, b: 1", "expected a lambda of one parameter"}}) {
    CHECK_THROWS_WITH_AS(kernelWith(lambda), doctest::Contains(message), Error);
  }
}

TEST_CASE("None binds to a runtime parameter as a constant, as Triton's optional pointers") {
  Runtime rt(test::testOptions());
  Device dev = rt.device("host:0");
  Kernel k = Kernel::fromSource(R"(
import triton
import triton.language as tl

@triton.jit
def axpy(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    r = 2.0 * tl.load(x_ptr + offs, mask=mask)
    if y_ptr is not None:
        r += tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, r, mask=mask)
)", "axpy", "axpy.py");
  std::vector<float> xs = {1, 2, 3}, ys = {10, 20, 30};
  Buffer x = Buffer::fromHost(dev, std::span<const float>(xs)), y = Buffer::fromHost(dev, std::span<const float>(ys));
  Buffer out(dev, 3, DType::F32);
  Constexpr none = Constexpr::source("None");
  LaunchOptions opts{.constexprs = {{"BLOCK", 4}}};
  k.launch(dev, Grid(1), {x, none, out, 3}, opts);
  CHECK(out.toHost<float>() == std::vector<float>{2, 4, 6});
  k.launch(dev, Grid(1), {x, y, out, 3}, opts);
  CHECK(out.toHost<float>() == std::vector<float>{12, 24, 36});
  // Other source text is still refused for a runtime parameter.
  Constexpr text = Constexpr::source("tl.float16");
  CHECK_THROWS_WITH_AS(k.launch(dev, Grid(1), {x, text, out, 3}, opts), doctest::Contains("not source text"),
                       Error);
}

TEST_CASE("a kernel file's imported helper modules are part of its cache key") {
  test::TempDir dir, cache;
  auto write = [](const std::string &path, const std::string &text) { std::ofstream(path) << text; };
  std::string kernelFile = dir.path() + "/k.py";
  write(kernelFile, "import triton\nimport triton.language as tl\nfrom .helpers import bump\n"
                    "@triton.jit\ndef k(x_ptr):\n    i = tl.arange(0, 16)\n"
                    "    tl.store(x_ptr + i, bump(tl.load(x_ptr + i)))\n");
  auto runWith = [&](const std::string &helper, size_t expectedCompiles) {
    write(dir.path() + "/helpers.py",
          "import triton\n@triton.jit\ndef bump(x):\n    return " + helper + "\n");
    Runtime rt(test::testOptions(cache.path()));
    Device dev = rt.device("host:0");
    Kernel k = Kernel::fromFile(kernelFile, "k");
    std::vector<float> x(16, 1.0f);
    Buffer b = Buffer::fromHost(dev, std::span<const float>(x));
    k.launch(dev, Grid(1), {b});
    CHECK(rt.cacheStats().frontendCompiles == expectedCompiles);
    return b.toHost<float>()[3];
  };
  CHECK(runWith("x + 1.0", 1) == 2.0f);
  CHECK(runWith("x + 1.0", 0) == 2.0f);   // from the disk cache
  CHECK(runWith("x * 10.0", 1) == 10.0f); // the helper changed: compiled again
}

TEST_CASE("a kernel whose decorator cannot be read fails alone; the file's other kernels load") {
  const char *source = R"(
import triton
import triton.language as tl

@triton.heuristics(values=make_heuristics())
@triton.jit
def broken(x_ptr, EVEN: tl.constexpr):
    pass

def inc(x_ptr):
    tl.store(x_ptr, tl.load(x_ptr) + 1.0)

inc_kernel = triton.jit(inc)
)";
  Runtime rt(test::testOptions());
  Device dev = rt.device("host:0");
  CHECK_THROWS_WITH_AS(Kernel::fromSource(source, "broken", "two.py"),
                       doctest::Contains("two.py:5:2: error: @triton.heuristics needs a dict literal"),
                       Error);
  Kernel k = Kernel::fromSource(source, "inc_kernel", "two.py");
  std::vector<float> x = {41.0f};
  Buffer b = Buffer::fromHost(dev, std::span<const float>(x));
  k.launch(dev, Grid(1), {b});
  CHECK(b.toHost<float>()[0] == 42.0f);
}

namespace {

// Boxes of a 2-D tensor through host tensor descriptors: out = 2 * x, box by box; the
// boxes at the right and bottom edges hang over the tensor (their outside reads zero
// and is not stored).
const char *kDescriptorSource = R"(
import triton
import triton.language as tl

@triton.jit
def double_boxes(x_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    r = tl.program_id(0) * BM
    c = tl.program_id(1) * BN
    out_desc.store([r, c], x_desc.load([r, c]) * 2)
)";

} // namespace

TEST_CASE("host tensor descriptors: one argument each, boxes at the edges clipped, misuse refused") {
  Runtime rt(test::testOptions());
  Device dev = rt.device("host:0");
  Kernel k = Kernel::fromSource(kDescriptorSource, "double_boxes", "boxes.py");
  const int rows = 37, cols = 44, ld = 48; // a row pitch of 48 floats: 16-byte aligned rows
  std::vector<float> x(size_t(rows) * ld), out(size_t(rows) * ld, -1.0f);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(i % 97) - 40;
  Buffer bx = Buffer::fromHost(dev, std::span<const float>(x)), bo = Buffer::fromHost(dev, std::span<const float>(out));
  TensorDescriptor dx(bx, {rows, cols}, {ld, 1}, {16, 16}), dout(bo, {rows, cols}, {ld, 1}, {16, 16});
  LaunchOptions opts;
  opts.constexprs = {{"BM", 16}, {"BN", 16}};
  k.launch(dev, Grid(cdiv(rows, 16), cdiv(cols, 16)), {dx, dout}, opts);
  std::vector<float> got = bo.toHost<float>();
  size_t wrong = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < ld; ++c)
      wrong += got[size_t(r) * ld + c] != (c < cols ? 2 * x[size_t(r) * ld + c] : -1.0f);
  CHECK(wrong == 0);
  // The block shape is compiled in: another one is another specialization.
  std::vector<Arg> args = {dx, dout};
  std::string ir16 = k.blockIR(dev, args, opts);
  TensorDescriptor dx8(bx, {rows, cols}, {ld, 1}, {8, 8}), dout8(bo, {rows, cols}, {ld, 1}, {8, 8});
  LaunchOptions opts8;
  opts8.constexprs = {{"BM", 8}, {"BN", 8}};
  std::vector<Arg> args8 = {dx8, dout8};
  CHECK(k.blockIR(dev, args8, opts8) != ir16);

  TensorDescriptor strided(bx, {rows, cols}, {ld, 2}, {16, 16});
  CHECK_THROWS_WITH(k.launch(dev, Grid(1, 1), {strided, dout}, opts),
                    doctest::Contains("last stride must be 1"));
  TensorDescriptor ragged(bx, {rows, cols}, {45, 1}, {16, 16});
  CHECK_THROWS_WITH(k.launch(dev, Grid(1, 1), {ragged, dout}, opts), doctest::Contains("not a multiple of 16 bytes"));
  TensorDescriptor flat(bx, {rows * ld}, {1}, {16, 16});
  CHECK_THROWS_WITH(k.launch(dev, Grid(1, 1), {flat, dout}, opts), doctest::Contains("one rank from 1 to 5"));
}
