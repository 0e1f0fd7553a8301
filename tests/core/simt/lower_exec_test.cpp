// Lowered kernels run in the thread-IR simulator against float64 references.
#include "SimtTestUtil.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace trident;
using namespace trident::simt::test;

namespace {

std::string kernelText(const std::string &name) {
  // The kernels live next to this file.
  std::ifstream in(std::filesystem::path(__FILE__).parent_path() / "kernels" / name);
  std::stringstream ss;
  ss << in.rdbuf();
  REQUIRE(!ss.str().empty());
  return ss.str();
}

} // namespace

TEST_CASE("vector add runs correctly with a ragged last program") {
  // n is declared divisible by 16 (vector accesses under the mask), or not (scalar ones).
  for (auto [divisibility, n] : {std::pair{16, 2048 + 528}, std::pair{1, 2048 + 517}})
    for (unsigned warps : {1u, 4u, 8u}) {
      std::string text = kernelText("vector_add.ttir");
      if (divisibility == 1)
        text.replace(text.find("16, 16, 16, 16"), 14, "16, 16, 16, 1");
      Module m = lowerOrFail(text, warps);
      CHECK(countOps(m, "th.load") == (divisibility == 16 ? 4 : 16) * 4 / int(warps));
      std::vector<float> x = randomFloats(n, 1), y = randomFloats(n, 2), out(n, NAN);
      simulate(m, "add_kernel", {ptrArg(x.data()), ptrArg(y.data()), ptrArg(out.data()), i32Arg(n)},
               {3, 1, 1}, {{x.data(), n * 4}, {y.data(), n * 4}, {out.data(), n * 4}});
      int bad = 0;
      for (int i = 0; i < n; ++i)
        bad += out[i] != x[i] + y[i];
      CHECK(bad == 0);
    }
}

TEST_CASE("softmax rows match a float64 reference") {
  for (unsigned warps : {2u, 4u, 8u}) {
    Module m = lowerOrFail(kernelText("softmax.ttir"), warps);
    int rows = 3, cols = 781, stride = 1024;
    std::vector<float> in = randomFloats(rows * stride, 3, -5, 5), out(rows * stride, NAN);
    simulate(m, "softmax_kernel",
             {ptrArg(out.data()), ptrArg(in.data()), i32Arg(stride), i32Arg(stride), i32Arg(cols)},
             {static_cast<uint32_t>(rows), 1, 1}, {{in.data(), in.size() * 4}, {out.data(), out.size() * 4}});
    double worst = 0;
    for (int r = 0; r < rows; ++r) {
      double mx = -INFINITY, sum = 0;
      for (int c = 0; c < cols; ++c)
        mx = std::max(mx, double(in[r * stride + c]));
      for (int c = 0; c < cols; ++c)
        sum += std::exp(double(in[r * stride + c]) - mx);
      for (int c = 0; c < cols; ++c) {
        double ref = std::exp(double(in[r * stride + c]) - mx) / sum;
        worst = std::max(worst, std::abs(out[r * stride + c] - ref) / ref);
      }
      CHECK(std::isnan(out[r * stride + cols])); // masked columns untouched
    }
    CHECK(worst < 1e-5);
  }
}
