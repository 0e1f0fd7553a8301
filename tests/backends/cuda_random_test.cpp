// Random kernels (RandomKernel.h) on cuda:0 against the interpreter. Seeds 1..200
// by default (TRIDENT_RANDOM_SEEDS=N, TRIDENT_RANDOM_FIRST_SEED=S to change). Without
// a CUDA device the test says so loudly and does nothing else.
#include "CudaHarness.h"
#include "RandomKernel.h"
#include "trident/interp/Interpreter.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"

#include <doctest/doctest.h>

#include <cmath>
#include <iostream>

using namespace trident;
using namespace trident::test;

TEST_CASE("random kernels on cuda:0 agree with the interpreter") {
  CudaHarness h(TRIDENT_CUDA_PLUGIN);
  if (!h.hasDevice()) {
    std::cout << "SKIPPED: no CUDA device: " << h.noDeviceReason << "\n";
    CHECK(!h.noDeviceReason.empty());
    return;
  }
  auto env = [](const char *name, uint64_t fallback) {
    const char *v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
  };
  uint64_t first = env("TRIDENT_RANDOM_FIRST_SEED", 1), count = env("TRIDENT_RANDOM_SEEDS", 200);
  int failures = 0;
  for (uint64_t seed = first; seed < first + count; ++seed) {
    RandomKernel k = RandomKernelGenerator(seed).generate();
    std::string text = print(k.module);
    INFO("seed " << seed << "\n" << text);
    Diagnostics diags;
    REQUIRE(verify(k.module, diags));
    int64_t e = k.numElements();
    int32_t n = static_cast<int32_t>(e - int64_t(seed % 3) * (e / 4));
    std::mt19937 gen(static_cast<uint32_t>(seed * 7919));
    std::uniform_real_distribution<float> real(-1, 1);
    std::uniform_int_distribution<int32_t> integer(-1000, 1000);
    std::vector<float> x(e), outf(e, -7.f);
    std::vector<int32_t> y(e), outi(e, -7), counts(16, 0);
    for (int64_t i = 0; i < e; ++i) {
      x[i] = real(gen);
      y[i] = integer(gen);
    }
    std::vector<float> refF = outf;
    std::vector<int32_t> refI = outi, refC = counts;
    Interpreter interp;
    interp.addBuffer(x.data(), e * 4);
    interp.addBuffer(y.data(), e * 4);
    interp.addBuffer(refF.data(), e * 4);
    interp.addBuffer(refI.data(), e * 4);
    interp.addBuffer(refC.data(), 64);
    KernelArg args[] = {KernelArg::pointer(x.data()),
                        KernelArg::pointer(y.data(), Type::i32()),
                        KernelArg::pointer(refF.data()),
                        KernelArg::pointer(refI.data(), Type::i32()),
                        KernelArg::pointer(refC.data(), Type::i32()),
                        KernelArg::i32(n)};
    REQUIRE(interp.run(k.module, "random_kernel", args, {1, 1, 1}, diags));

    auto loaded = h.load(h.compile(text, "random_kernel", h.target, nullptr, k.numWarps), "random_kernel");
    trident_devptr dx = h.upload(x), dy = h.upload(y), df = h.upload(outf), di = h.upload(outi),
                   dc = h.upload(counts);
    h.launch(loaded.kernel, {1, 1, 1},
             {CudaHarness::ptr(dx), CudaHarness::ptr(dy), CudaHarness::ptr(df), CudaHarness::ptr(di),
              CudaHarness::ptr(dc), CudaHarness::i32(n)});
    std::vector<float> gotF = h.download<float>(df, e);
    std::vector<int32_t> gotI = h.download<int32_t>(di, e), gotC = h.download<int32_t>(dc, 16);
    int bad = 0;
    for (int64_t i = 0; i < e; ++i) {
      float w = refF[i], g = gotF[i];
      bad += !((std::isnan(w) && std::isnan(g)) || w == g || std::abs(w - g) <= 1e-3f + 1e-3f * std::abs(w));
      bad += refI[i] != gotI[i];
    }
    for (int i = 0; i < 16; ++i)
      bad += refC[i] != gotC[i];
    CHECK(bad == 0);
    failures += bad != 0;
    for (trident_devptr p : {dx, dy, df, di, dc})
      h.api->mem_free(h.device, p);
    h.api->module_unload(loaded.module);
  }
  std::cout << "random kernels on cuda:0: " << count - failures << " of " << count
            << " agree with the interpreter\n";
}
