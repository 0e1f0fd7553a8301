// The smallest complete Trident program: compile Triton's vector-add tutorial
// kernel (samples/vector_add.py, unchanged) for the best device present, launch
// it, and check the result. README.md shows this file.
//
//   build/bin/quickstart                      # default device: cuda, hip, vulkan, then host
//   TRIDENT_DEVICE=vulkan:0 build/bin/quickstart
#include "trident/Trident.h"

#include <cmath>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) try {
  using namespace trident;
  const char *source = argc > 1 ? argv[1] : TRIDENT_SAMPLES_DIR "/vector_add.py";
  const int n = 1 << 20;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i)
    x[i] = float(i), y[i] = 0.5f * float(i);

  Device dev = Runtime::get().defaultDevice();
  Buffer bx = Buffer::fromHost(dev, std::span<const float>(x));
  Buffer by = Buffer::fromHost(dev, std::span<const float>(y));
  Buffer out(dev, n, DType::F32);

  // Compiled on first launch for this device and signature, then cached.
  Kernel add = Kernel::fromFile(source, "add_kernel");
  Grid grid([&](const Meta &meta) -> Dim3 { return {cdiv(n, meta["BLOCK_SIZE"])}; });
  LaunchOptions options;
  options.constexprs = {{"BLOCK_SIZE", 1024}};
  add.launch(dev, grid, {bx, by, out, n}, options);

  std::vector<float> result = out.toHost<float>();
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += result[i] != x[i] + y[i];
  std::printf("%s (%s): %d of %d elements wrong\n", dev.name().c_str(), dev.info().name.c_str(), wrong, n);
  return wrong == 0 ? 0 : 1;
} catch (const trident::Error &e) {
  std::fprintf(stderr, "quickstart: %s\n", e.what());
  return 2;
}
