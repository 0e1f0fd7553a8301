// dropout.py: seeded dropout with tl.rand. The reference draws the same random
// numbers as Triton's Philox 4x32-10 (tl.rand(seed, offset)), so every kept
// and dropped element is checked, and the kept ones against float64.

#include "Samples.h"

#include <cmath>

namespace samples {

namespace {

uint32_t umulhi(uint32_t a, uint32_t b) { return uint32_t((uint64_t(a) * b) >> 32); }

// Triton's randint(seed, offset): the first word of philox(seed, (offset, 0, 0, 0)).
uint32_t philoxFirst(uint64_t seed, uint32_t offset) {
  uint32_t c0 = offset, c1 = 0, c2 = 0, c3 = 0;
  uint32_t k0 = uint32_t(seed), k1 = uint32_t(seed >> 32);
  for (int round = 0; round < 10; ++round) {
    uint32_t p0 = c0, p2 = c2;
    c0 = umulhi(0xCD9E8D57u, p2) ^ c1 ^ k0;
    c2 = umulhi(0xD2511F53u, p0) ^ c3 ^ k1;
    c1 = 0xCD9E8D57u * p2;
    c3 = 0xD2511F53u * p0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c0;
}

// tl.rand: the int32 view of the word, folded to non-negative, times 2^-31 (fp32).
float uniform(uint64_t seed, uint32_t offset) {
  int32_t x = int32_t(philoxFirst(seed, offset));
  if (x < 0)
    x = -x - 1;
  return float(x) * 4.6566127342e-10f;
}

} // namespace

Result runDropout(Context &ctx) {
  Result r{"dropout"};
  const int n = ctx.large ? (1 << 24) + 5 : (1 << 16) + 5;
  const float p = 0.3f;
  const int seed = 123;
  auto x = randomFloats(ctx.rng, size_t(n));
  Buffer bx = Buffer::fromHost(ctx.device, std::span<const float>(x));
  Buffer out(ctx.device, size_t(n), DType::F32);
  poison(out);
  Kernel k = Kernel::fromFile(ctx.file("dropout.py"), "_seeded_dropout");
  Grid grid([&](const Meta &m) -> Dim3 { return {cdiv(n, m["BLOCK_SIZE"])}; });
  LaunchOptions opts;
  opts.constexprs = {{"BLOCK_SIZE", 1024}};
  r.ms = timeLaunches(ctx, [&] { k.launch(ctx.device, grid, {bx, out, n, p, seed}, opts); });
  std::vector<double> ref(static_cast<size_t>(n));
  size_t kept = 0;
  for (int i = 0; i < n; ++i) {
    bool keep = uniform(uint64_t(seed), uint32_t(i)) > p;
    kept += keep;
    ref[size_t(i)] = keep ? double(x[size_t(i)]) / (1.0 - double(p)) : 0.0;
  }
  compare(r, toDoubles(out.toHost<float>()), ref, 0, 1e-6);
  double keptShare = double(kept) / n;
  if (std::abs(keptShare - (1 - p)) > 0.02) {
    r.match = false;
    r.note = "kept share " + std::to_string(keptShare) + " is far from " + std::to_string(1 - p);
  }
  r.bytes = 2.0 * 4 * n;
  return r;
}

} // namespace samples
