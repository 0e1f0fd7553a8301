// reduce_custom.py: tl.reduce with custom combiners: the element of largest
// magnitude per row (with its index, ties to the lower index), and the product
// of each column.

#include "Samples.h"

#include <cmath>

namespace samples {

Result runReduceCustom(Context &ctx) {
  Result r{"reduce_custom"};
  const int rows = ctx.large ? 4096 : 64, cols = 100;
  auto x = randomFloats(ctx.rng, size_t(rows) * cols, -3, 3);
  Buffer bx = Buffer::fromHost(ctx.device, std::span<const float>(x));
  Buffer value(ctx.device, size_t(rows), DType::F32), index(ctx.device, size_t(rows), DType::I32);
  poison(value);
  poison(index);
  Kernel absmax = Kernel::fromFile(ctx.file("reduce_custom.py"), "row_absmax_kernel");
  LaunchOptions opts;
  opts.constexprs = {{"BLOCK", 128}};
  r.ms = timeLaunches(ctx, [&] { absmax.launch(ctx.device, Grid(rows), {bx, value, index, cols, cols}, opts); });
  std::vector<double> refValue(static_cast<size_t>(rows)), refIndex(static_cast<size_t>(rows));
  for (int i = 0; i < rows; ++i) {
    int best = 0;
    for (int j = 1; j < cols; ++j)
      if (std::abs(x[size_t(i) * cols + j]) > std::abs(x[size_t(i) * cols + best]))
        best = j;
    refValue[size_t(i)] = x[size_t(i) * cols + best];
    refIndex[size_t(i)] = best;
  }
  compare(r, toDoubles(value.toHost<float>()), refValue, 0, 0);
  std::vector<int32_t> gotIndex = index.toHost<int32_t>();
  compare(r, std::vector<double>(gotIndex.begin(), gotIndex.end()), refIndex, 0, 0);

  // Column products of values near 1, so the product stays in range.
  const int prows = 16, pcols = 40;
  auto y = randomFloats(ctx.rng, size_t(prows) * pcols, 0.5f, 1.5f);
  Buffer by = Buffer::fromHost(ctx.device, std::span<const float>(y));
  Buffer prod(ctx.device, size_t(pcols), DType::F32);
  poison(prod);
  Kernel product = Kernel::fromFile(ctx.file("reduce_custom.py"), "column_product_kernel");
  LaunchOptions popts;
  popts.constexprs = {{"ROWS", 16}, {"COLS", 16}};
  product.launch(ctx.device, Grid(cdiv(pcols, 16)), {by, prod, prows, pcols}, popts);
  std::vector<double> refProd(static_cast<size_t>(pcols), 1.0);
  for (int i = 0; i < prows; ++i)
    for (int j = 0; j < pcols; ++j)
      refProd[size_t(j)] *= y[size_t(i) * pcols + j];
  compare(r, toDoubles(prod.toHost<float>()), refProd, 0, 1e-5);
  r.bytes = 4.0 * rows * cols + 8.0 * rows;
  return r;
}

} // namespace samples
