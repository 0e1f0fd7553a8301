// The launcher `trident compile --emit header` wrote for vector_add.py (built in
// tests/package/CMakeLists.txt), used as a user's program would: a typed call, no
// argument packing, linked against the runtime built without the compiler.
//   bundle_header_test DEVICE

#include "vector_add_kernel.h"

#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  try {
    trident::Device dev = trident::Device::get(argc > 1 ? argv[1] : "host:0");
    const int n = 4096;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) {
      x[size_t(i)] = 0.25f * float(i);
      y[size_t(i)] = 1.0f;
    }
    trident::Buffer bx = trident::Buffer::fromHost(dev, std::span<const float>(x));
    trident::Buffer by = trident::Buffer::fromHost(dev, std::span<const float>(y));
    trident::Buffer out(dev, n, trident::DType::F32);
    test_kernels::add_kernel(dev, trident::Grid(trident::cdiv(n, 256)), bx, by, out, n);
    std::vector<float> r = out.toHost<float>();
    int wrong = 0;
    for (int i = 0; i < n; ++i)
      wrong += r[size_t(i)] != x[size_t(i)] + y[size_t(i)];
    std::printf("header launcher on %s (%s): %d of %d elements wrong\n", dev.name().c_str(),
                trident::hasCompiler() ? "with the compiler" : "no compiler", wrong, n);
    return wrong == 0 ? 0 : 1;
  } catch (const trident::Error &e) {
    std::fprintf(stderr, "bundle_header_test: %s\n", e.what());
    return 1;
  }
}
