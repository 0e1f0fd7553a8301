// runtime_stress: many threads compiling, autotuning and launching at once on several
// devices (host:0 and vulkan:0 by default), sharing kernels, one runtime's caches and
// a disk-cache folder with a second runtime. Every result is checked against the
// host's arithmetic. Meant to run under ThreadSanitizer (scripts/tsan.sh); CTest runs
// a small instance in every build.
//
//   runtime_stress [--threads N] [--rounds R] [--devices host:0,vulkan:0]
//
// A device that is not present is reported ("SKIPPED: vulkan:0 ...") and left out;
// exit status 0 when every check passed, 1 otherwise, 77 when no device is present.

#include "TestUtil.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

using namespace trident;

namespace {

// An autotuned kernel: every key value (n) tunes again, per device.
const char *kTunedSource = R"(import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({'BLOCK': 32}, num_warps=1),
        triton.Config({'BLOCK': 64}, num_warps=2),
        triton.Config({'BLOCK': 128}, num_warps=4),
    ],
    key=['n'],
)
@triton.jit
def scale_add(x_ptr, y_ptr, out_ptr, a, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * a + y, mask=mask)
)";

// A plain kernel compiled per specialization (BLOCK differs by thread).
const char *kPlainSource = R"(import triton
import triton.language as tl


@triton.jit
def sub_mul(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, (x - y) * 2.0, mask=mask)
)";

struct Shared {
  std::vector<Device> devices;
  Kernel tuned, plain, axpy; // shared by every thread
  std::atomic<int> failures{0};
  std::mutex printMutex;
  void fail(const std::string &what) {
    failures++;
    std::lock_guard lock(printMutex);
    std::fprintf(stderr, "FAILED: %s\n", what.c_str());
  }
};

std::vector<float> randomFloats(std::mt19937 &rng, size_t n) {
  std::uniform_int_distribution<int> d(-64, 64); // small dyadic values: exact in f32 sums and products
  std::vector<float> v(n);
  for (float &f : v)
    f = float(d(rng)) / 8;
  return v;
}

// One round of one thread: each kernel once on `dev` through its own stream, then one
// launch on the device's default stream, which all threads share.
void round(Shared &s, const Device &dev, std::mt19937 &rng, int thread, int r) {
  const int n = 100 + int(rng() % 900);
  std::vector<float> x = randomFloats(rng, size_t(n)), y = randomFloats(rng, size_t(n));
  Stream stream(dev);
  Buffer bx(dev, size_t(n), DType::F32), by(dev, size_t(n), DType::F32), bo(dev, size_t(n), DType::F32);
  bx.copyFromHostAsync(stream, x.data(), x.size() * 4);
  by.copyFromHostAsync(stream, y.data(), y.size() * 4);
  std::vector<float> out(static_cast<size_t>(n));
  auto check = [&](const char *kernel, auto expected) {
    bo.copyToHostAsync(stream, out.data(), out.size() * 4);
    stream.synchronize();
    for (int i = 0; i < n; ++i)
      if (out[size_t(i)] != expected(i)) {
        std::ostringstream m;
        m << kernel << " on " << dev.name() << ", thread " << thread << ", round " << r << ": element " << i
          << " is " << out[size_t(i)] << ", expected " << expected(i);
        s.fail(m.str());
        return;
      }
  };
  const float a = float(int(rng() % 8)) / 2;
  // Autotuned: n in a few buckets, so threads meet on some keys and tune new ones.
  const int tunedN = n / 100 * 100; // at most n
  s.tuned.launch(stream, Grid([&](const Meta &m) -> Dim3 { return {cdiv(tunedN, m["BLOCK"])}; }),
                 {bx, by, bo, a, tunedN});
  check("scale_add", [&](int i) { return i < tunedN ? x[size_t(i)] * a + y[size_t(i)] : out[size_t(i)]; });
  const int block = 32 << (thread % 3);
  s.plain.launch(stream, Grid(cdiv(n, block)), {bx, by, bo, n}, {.constexprs = {{"BLOCK", block}}});
  check("sub_mul", [&](int i) { return (x[size_t(i)] - y[size_t(i)]) * 2.0f; });
  s.axpy.launch(stream, Grid(cdiv(n, 32)), {bx, by, bo, a, n});
  check("axpy", [&](int i) { return x[size_t(i)] * a + y[size_t(i)]; });
  // Events across this thread's stream and the device's default stream.
  Event done(dev);
  done.record(stream);
  dev.defaultStream().wait(done);
  done.synchronize();
  // The device's default stream, shared by every thread: a launch and a synchronous copy back.
  s.plain.launch(dev, Grid(cdiv(n, block)), {by, bx, bo, n}, {.constexprs = {{"BLOCK", block}}});
  std::vector<float> back = bo.toHost<float>();
  for (int i = 0; i < n; ++i)
    if (back[size_t(i)] != (y[size_t(i)] - x[size_t(i)]) * 2.0f) {
      s.fail("sub_mul on the default stream of " + dev.name() + ", thread " + std::to_string(thread) + ", round " +
             std::to_string(r) + ": element " + std::to_string(i) + " is wrong");
      return;
    }
}

std::vector<std::string> split(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty())
      out.push_back(item);
  return out;
}

} // namespace

int main(int argc, char **argv) {
  int threads = 6, rounds = 4;
  std::vector<std::string> wanted = {"host:0", "vulkan:0"};
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--threads"))
      threads = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--rounds"))
      rounds = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--devices"))
      wanted = split(argv[i + 1]);
    else {
      std::fprintf(stderr, "usage: runtime_stress [--threads N] [--rounds R] [--devices a,b]\n");
      return 2;
    }
  }
  test::TempDir cache;
  Runtime rt(test::testOptions(cache.path()));
  Runtime second(test::testOptions(cache.path())); // another runtime on the same cache folder
  Shared s;
  for (const std::string &name : wanted) {
    try {
      s.devices.push_back(rt.device(name));
    } catch (const Error &e) {
      std::printf("SKIPPED: %s: %s\n", name.c_str(), e.what());
    }
  }
  if (s.devices.empty())
    return 77;
  s.tuned = Kernel::fromSource(kTunedSource, "scale_add", "scale_add.py");
  s.plain = Kernel::fromSource(kPlainSource, "sub_mul", "sub_mul.py");
  s.axpy = Kernel::fromBlockIR(test::axpyKernelIR(), "axpy");
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      std::mt19937 rng(1000u + unsigned(t));
      for (int r = 0; r < rounds; ++r) {
        try {
          // Odd threads use the second runtime's device of the same name now and then.
          const Device &mine = s.devices[size_t(t + r) % s.devices.size()];
          Device dev = (t % 2 && r % 2) ? second.device(mine.name()) : mine;
          round(s, dev, rng, t, r);
        } catch (const std::exception &e) {
          s.fail("thread " + std::to_string(t) + ", round " + std::to_string(r) + ": " + e.what());
        }
      }
    });
  for (std::thread &t : pool)
    t.join();
  CacheStats c = rt.cacheStats(), c2 = second.cacheStats();
  std::printf("%d threads x %d rounds on", threads, rounds);
  for (const Device &d : s.devices)
    std::printf(" %s", d.name().c_str());
  std::printf(": %d failures; compiles %llu + %llu, disk hits %llu + %llu, disk writes %llu + %llu\n",
              s.failures.load(), (unsigned long long)c.backendCompiles, (unsigned long long)c2.backendCompiles,
              (unsigned long long)c.diskHits, (unsigned long long)c2.diskHits, (unsigned long long)c.diskWrites,
              (unsigned long long)c2.diskWrites);
  return s.failures ? 1 : 0;
}
