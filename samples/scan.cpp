// scan.py: tl.associative_scan with custom combiners: a running sum, and a
// linear recurrence h[t] = a[t] * h[t-1] + b[t] scanned as composed affine maps.

#include "Samples.h"

#include <cmath>

namespace samples {

Result runScan(Context &ctx) {
  Result r{"scan"};
  const int n = 1000;
  auto x = randomFloats(ctx.rng, size_t(n));
  Buffer bx = Buffer::fromHost(ctx.device, std::span<const float>(x));
  Buffer out(ctx.device, size_t(n), DType::F32);
  poison(out);
  Kernel sum = Kernel::fromFile(ctx.file("scan.py"), "running_sum_kernel");
  LaunchOptions opts;
  opts.constexprs = {{"BLOCK", 1024}};
  r.ms = timeLaunches(ctx, [&] { sum.launch(ctx.device, Grid(1), {bx, out, n}, opts); });
  std::vector<double> ref(static_cast<size_t>(n));
  double acc = 0;
  for (int i = 0; i < n; ++i)
    ref[size_t(i)] = acc += x[size_t(i)];
  compare(r, toDoubles(out.toHost<float>()), ref, 1e-4, 1e-5);

  const int rows = 4, cols = 50;
  auto a = randomFloats(ctx.rng, size_t(rows) * cols, 0, 1), b = randomFloats(ctx.rng, size_t(rows) * cols);
  Buffer ba = Buffer::fromHost(ctx.device, std::span<const float>(a));
  Buffer bb = Buffer::fromHost(ctx.device, std::span<const float>(b));
  Buffer h(ctx.device, size_t(rows) * cols, DType::F32);
  poison(h);
  Kernel rec = Kernel::fromFile(ctx.file("scan.py"), "linear_recurrence_kernel");
  LaunchOptions ropts;
  ropts.constexprs = {{"ROWS", 4}, {"COLS", 64}};
  rec.launch(ctx.device, Grid(1), {ba, bb, h, cols}, ropts);
  std::vector<double> refH(size_t(rows) * cols);
  for (int i = 0; i < rows; ++i) {
    double state = 0;
    for (int t = 0; t < cols; ++t)
      refH[size_t(i) * cols + t] = state = a[size_t(i) * cols + t] * state + b[size_t(i) * cols + t];
  }
  compare(r, toDoubles(h.toHost<float>()), refH, 1e-5, 1e-5);
  r.bytes = 8.0 * n;
  return r;
}

} // namespace samples
