// A consumer of the Trident package: runs vector_add.py (or, in a runtime without
// the compiler, a bundle of it) on one device and checks every element.
//
//   consumer KERNEL_FILE [DEVICE]        KERNEL_FILE: a .py file or a .tbundle

#include "trident/Trident.h"

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: consumer KERNEL_FILE [DEVICE]\n");
    return 2;
  }
  const std::string file = argv[1];
  try {
    using namespace trident;
    if (std::string(TRIDENT_VERSION_STRING) != version()) {
      std::fprintf(stderr, "consumer: headers of %s, library of %s\n", TRIDENT_VERSION_STRING, version());
      return 1;
    }
    Device dev = argc > 2 ? Device::get(argv[2]) : Device::defaultDevice();
    const int n = 1000;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) {
      x[i] = float(i);
      y[i] = 0.5f * float(i);
    }
    Buffer bx = Buffer::fromHost(dev, std::span<const float>(x));
    Buffer by = Buffer::fromHost(dev, std::span<const float>(y));
    Buffer out(dev, n, DType::F32);
    Kernel add = file.ends_with(".tbundle") ? Kernel::fromBundle(file) : Kernel::fromFile(file, "add_kernel");
    LaunchOptions options;
    options.constexprs = {{"BLOCK_SIZE", 256}};
    add.launch(dev, Grid(cdiv(n, 256)), {bx, by, out, n}, options);
    std::vector<float> result = out.toHost<float>();
    int wrong = 0;
    for (int i = 0; i < n; ++i)
      wrong += result[i] != x[i] + y[i];
    std::printf("consumer: trident %s (build %.12s), %s on %s: %d of %d elements wrong\n", version(), buildId(),
                file.ends_with(".tbundle") ? "bundle" : "source", dev.name().c_str(), wrong, n);
    return wrong == 0 ? 0 : 1;
  } catch (const trident::Error &e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
}
