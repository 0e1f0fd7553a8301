// fused_softmax.py: row-wise softmax, one row per program in a grid-stride loop.

#include "Samples.h"

#include <algorithm>
#include <cmath>

namespace samples {

Result runFusedSoftmax(Context &ctx) {
  Result r{"fused_softmax"};
  const int rows = ctx.large ? 4096 : 96, cols = ctx.large ? 1823 : 781;
  const int block = 1 << int(std::ceil(std::log2(cols)));
  auto x = randomFloats(ctx.rng, size_t(rows) * cols, -4, 4);
  Buffer bx = Buffer::fromHost(ctx.device, std::span<const float>(x));
  Buffer out(ctx.device, size_t(rows) * cols, DType::F32);
  poison(out);
  Kernel k = Kernel::fromFile(ctx.file("fused_softmax.py"), "softmax_kernel");
  const int programs = std::min(rows, 1024);
  LaunchOptions opts;
  opts.numWarps = 8;
  opts.constexprs = {{"BLOCK_SIZE", block}, {"num_stages", 2}};
  r.ms = timeLaunches(ctx, [&] { k.launch(ctx.device, Grid(programs), {out, bx, cols, cols, rows, cols}, opts); });
  std::vector<double> ref(x.size());
  for (int i = 0; i < rows; ++i) {
    const float *row = x.data() + size_t(i) * cols;
    double mx = *std::max_element(row, row + cols), sum = 0;
    for (int j = 0; j < cols; ++j)
      sum += std::exp(double(row[j]) - mx);
    for (int j = 0; j < cols; ++j)
      ref[size_t(i) * cols + j] = std::exp(double(row[j]) - mx) / sum;
  }
  compare(r, toDoubles(out.toHost<float>()), ref, 1e-7, 1e-5);
  r.bytes = 2.0 * 4 * rows * cols;
  return r;
}

} // namespace samples
