// The runtime test binary. Run without arguments it runs the doctest suite;
// with a --child-* argument it is a child process of a multi-process test:
//
//   --child-launch CACHE_DIR KIND   launch the add kernel (KIND: ir | source) once
//                                   with a disk cache in CACHE_DIR, check the result,
//                                   print the cache counters as key=value

#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "TestUtil.h"

#include <cstdio>
#include <cstring>
#include <vector>


namespace {

int childLaunch(const std::string &cacheDir, const std::string &kind) {
  using namespace trident;
  try {
    Runtime rt(test::testOptions(cacheDir));
    Device dev = rt.device("host:0");
    const int n = 1000;
    std::vector<float> x(n), y(n), out(n, -1.0f);
    for (int i = 0; i < n; ++i) {
      x[i] = float(i) * 0.5f;
      y[i] = float(n - i);
    }
    Buffer bx = Buffer::fromHost(dev, std::span<const float>(x));
    Buffer by = Buffer::fromHost(dev, std::span<const float>(y));
    Buffer bo = Buffer::fromHost(dev, std::span<const float>(out));
    if (kind == "source") {
      Kernel k = Kernel::fromFile(std::string(TRIDENT_TEST_SOURCE_DIR) + "/samples/vector_add.py", "add_kernel");
      k.launch(dev, Grid(cdiv(n, 128)), {bx, by, bo, n}, {.constexprs = {{"BLOCK_SIZE", 128}}});
    } else {
      Kernel k = Kernel::fromBlockIR(test::addKernelIR(), "add");
      k.launch(dev, Grid(cdiv(n, 64)), {bx, by, bo, n});
    }
    bo.copyToHost(std::span<float>(out));
    bool ok = true;
    for (int i = 0; i < n; ++i)
      ok &= out[i] == x[i] + y[i];
    CacheStats s = rt.cacheStats();
    std::printf("ok=%d backend=%llu frontend=%llu diskhits=%llu damaged=%llu writes=%llu\n", int(ok),
                (unsigned long long)s.backendCompiles, (unsigned long long)s.frontendCompiles,
                (unsigned long long)s.diskHits, (unsigned long long)s.damagedEntries,
                (unsigned long long)s.diskWrites);
    return ok ? 0 : 3;
  } catch (const std::exception &e) {
    std::printf("error=%s\n", e.what());
    return 4;
  }
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 4 && std::strcmp(argv[1], "--child-launch") == 0)
    return childLaunch(argv[2], argv[3]);
  doctest::Context context(argc, argv);
  return context.run();
}
