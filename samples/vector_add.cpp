// vector_add.py: out = x + y, fp32, masked tail.

#include "Samples.h"

namespace samples {

Result runVectorAdd(Context &ctx) {
  Result r{"vector_add"};
  const int n = ctx.large ? (1 << 24) + 3 : (1 << 18) + 3;
  auto x = randomFloats(ctx.rng, size_t(n)), y = randomFloats(ctx.rng, size_t(n));
  Buffer bx = Buffer::fromHost(ctx.device, std::span<const float>(x));
  Buffer by = Buffer::fromHost(ctx.device, std::span<const float>(y));
  Buffer out(ctx.device, size_t(n), DType::F32);
  poison(out);
  Kernel k = Kernel::fromFile(ctx.file("vector_add.py"), "add_kernel");
  Grid grid([&](const Meta &m) -> Dim3 { return {cdiv(n, m["BLOCK_SIZE"])}; });
  LaunchOptions opts;
  opts.constexprs = {{"BLOCK_SIZE", 1024}};
  r.ms = timeLaunches(ctx, [&] { k.launch(ctx.device, grid, {bx, by, out, n}, opts); });
  std::vector<double> ref(static_cast<size_t>(n));
  for (size_t i = 0; i < ref.size(); ++i)
    ref[i] = double(x[i]) + double(y[i]);
  compare(r, toDoubles(out.toHost<float>()), ref, 0, 1e-7); // one fp32 rounding
  r.bytes = 3.0 * 4 * n;
  r.flops = n;
  return r;
}

} // namespace samples
