// Each op family, lowered for several block shapes and warp counts (replicated,
// exactly covered and repeated layouts), run in the simulator against references.
#include "KernelTemplates.h"
#include "SimtTestUtil.h"

#include "trident/support/FloatFormats.h"

#include <cmath>

using namespace trident;
using namespace trident::simt::test;

namespace {

const std::vector<std::pair<int64_t, int64_t>> kShapes = {{32, 64}, {4, 8},   {1, 128},
                                                          {128, 2}, {16, 16}, {2, 512}};

} // namespace

TEST_CASE("reduce along each axis of 2-D tiles") {
  for (auto [m, n] : kShapes)
    for (unsigned warps : {1u, 4u}) {
      INFO("tile " << m << "x" << n << ", " << warps << " warps");
      Module mod = lowerOrFail(reduce2dKernel(m, n), warps);
      int stride = static_cast<int>(n + 16);
      std::vector<float> x = randomFloats(m * stride, 7), rowsum(m, NAN), colmax(n, NAN);
      simulate(mod, "reduce2d",
               {ptrArg(x.data()), ptrArg(rowsum.data()), ptrArg(colmax.data()), i32Arg(stride)}, {1, 1, 1},
               {{x.data(), x.size() * 4}, {rowsum.data(), m * 4}, {colmax.data(), n * 4}});
      double worstSum = 0;
      int badMax = 0;
      for (int64_t i = 0; i < m; ++i) {
        double s = 0;
        for (int64_t j = 0; j < n; ++j)
          s += x[i * stride + j];
        worstSum = std::max(worstSum, std::abs(rowsum[i] - s));
      }
      for (int64_t j = 0; j < n; ++j) {
        float mx = -INFINITY;
        for (int64_t i = 0; i < m; ++i)
          mx = std::max(mx, x[i * stride + j]);
        badMax += colmax[j] != mx;
      }
      CHECK(worstSum < 1e-4);
      CHECK(badMax == 0);
    }
}

TEST_CASE("trans and broadcast convert layouts through shared memory") {
  for (auto [m, n] : kShapes)
    for (unsigned warps : {1u, 4u}) {
      INFO("tile " << m << "x" << n << ", " << warps << " warps");
      Module mod = lowerOrFail(transposeKernel(m, n), warps);
      int stride = static_cast<int>(n);
      std::vector<float> x = randomFloats(m * n, 8), y = randomFloats(n, 9), out(m * n, NAN);
      ThreadSim sim;
      simulate(mod, "transpose", {ptrArg(x.data()), ptrArg(y.data()), ptrArg(out.data()), i32Arg(stride)},
               {1, 1, 1}, {{x.data(), x.size() * 4}, {y.data(), y.size() * 4}, {out.data(), out.size() * 4}},
               &sim);
      int bad = 0;
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j)
          bad += out[j * m + i] != x[i * n + j] * 2 + y[j];
      CHECK(bad == 0);
    }
}

TEST_CASE("scf.for, scf.while and scf.if carry blocks") {
  for (int64_t block : {64, 256, 2048})
    for (unsigned warps : {1u, 4u}) {
      INFO("block " << block << ", " << warps << " warps");
      Module mod = lowerOrFail(loopKernel(block), warps);
      int k = 5;
      std::vector<float> x = randomFloats(k * block, 10);
      for (int flag : {0, 1}) {
        std::vector<float> out(block, NAN);
        simulate(mod, "loops", {ptrArg(x.data()), ptrArg(out.data()), i32Arg(k), i32Arg(flag)}, {1, 1, 1},
                 {{x.data(), x.size() * 4}, {out.data(), out.size() * 4}});
        int bad = 0;
        for (int64_t i = 0; i < block; ++i) {
          float sum = 0, mx = 0; // the while loop starts its maximum from zero
          for (int j = 0; j < k; ++j)
            sum += x[j * block + i];
          for (int j = k - 1; j >= 0; --j)
            mx = std::fmax(mx, x[j * block + i]);
          bad += out[i] != (flag ? mx : sum);
        }
        CHECK(bad == 0);
      }
    }
}

TEST_CASE("atomics update each element once, even where threads replicate it") {
  for (int64_t block : {16, 128, 1024})
    for (unsigned warps : {1u, 4u}) {
      INFO("block " << block << ", " << warps << " warps");
      Module mod = lowerOrFail(atomicKernel(block), warps);
      uint32_t programs = 3;
      std::vector<int32_t> counts(block, 0), olds(programs * block, -1), tickets(programs + 1, 0);
      simulate(mod, "atomics", {ptrArg(counts.data()), ptrArg(olds.data()), ptrArg(tickets.data())},
               {programs, 1, 1},
               {{counts.data(), counts.size() * 4},
                {olds.data(), olds.size() * 4},
                {tickets.data(), tickets.size() * 4}});
      int bad = 0;
      for (int64_t i = 0; i < block; ++i) {
        bad += counts[i] != int(programs);
        for (uint32_t p = 0; p < programs; ++p)
          bad += olds[p * block + i] != int(p); // programs run in order in the simulator
      }
      CHECK(bad == 0);
      CHECK(tickets[0] == int(programs));
      for (uint32_t p = 0; p < programs; ++p)
        CHECK(tickets[p + 1] == int(p));
    }
}

TEST_CASE("two-operand reduce: argmax with the first index on ties") {
  for (auto [m, n] : kShapes)
    for (unsigned warps : {1u, 4u}) {
      INFO("tile " << m << "x" << n << ", " << warps << " warps");
      Module mod = lowerOrFail(argmaxKernel(m, n), warps);
      int stride = static_cast<int>(n);
      std::vector<float> x = randomFloats(m * n, 11);
      for (float &v : x) // force ties
        v = std::round(v * 4) / 4;
      std::vector<float> vals(m, NAN);
      std::vector<int32_t> idxs(m, -1);
      simulate(mod, "argmax", {ptrArg(x.data()), ptrArg(vals.data()), ptrArg(idxs.data()), i32Arg(stride)},
               {1, 1, 1}, {{x.data(), x.size() * 4}, {vals.data(), m * 4}, {idxs.data(), m * 4}});
      int bad = 0;
      for (int64_t i = 0; i < m; ++i) {
        int64_t best = 0;
        for (int64_t j = 1; j < n; ++j)
          if (x[i * n + j] > x[i * n + best])
            best = j;
        bad += vals[i] != x[i * n + best] || idxs[i] != best;
      }
      CHECK(bad == 0);
    }
}

TEST_CASE("join, split, cat and reshape") {
  for (int64_t n : {16, 128, 1024})
    for (unsigned warps : {1u, 4u}) {
      INFO("n " << n << ", " << warps << " warps");
      Module mod = lowerOrFail(joinSplitCatKernel(n), warps);
      std::vector<int32_t> a(n), b(n), out(2 * n, -1), out2(2 * n, -1);
      for (int64_t i = 0; i < n; ++i)
        a[i] = int32_t(3 * i + 1), b[i] = int32_t(-5 * i - 2);
      simulate(mod, "join_split_cat",
               {ptrArg(a.data()), ptrArg(b.data()), ptrArg(out.data()), ptrArg(out2.data())}, {1, 1, 1},
               {{a.data(), n * 4}, {b.data(), n * 4}, {out.data(), 2 * n * 4}, {out2.data(), 2 * n * 4}});
      int bad = 0;
      for (int64_t i = 0; i < n; ++i)
        bad += out[i] != b[i] || out[n + i] != a[i] || out2[2 * i] != a[i] || out2[2 * i + 1] != b[i];
      CHECK(bad == 0);
    }
}

TEST_CASE("scan along each axis, forward and reverse, with a non-commutative combiner") {
  for (auto [m, n] : kShapes)
    for (int64_t axis : {0, 1})
      for (bool reverse : {false, true})
        for (unsigned warps : {1u, 4u}) {
          INFO("tile " << m << "x" << n << ", axis " << axis << (reverse ? " reversed" : "") << ", " << warps
                       << " warps");
          Module mod = lowerOrFail(scanKernel(m, n, axis, reverse), warps);
          int stride = static_cast<int>(n);
          std::mt19937 gen(static_cast<uint32_t>(m * 131 + n * 7 + axis * 3 + reverse));
          std::uniform_int_distribution<int32_t> dist(-3, 3);
          std::vector<int32_t> x(m * n), sums(m * n, 12345), lasts(m * n, 12345);
          for (int32_t &v : x)
            v = dist(gen);
          simulate(
              mod, "scan", {ptrArg(x.data()), ptrArg(sums.data()), ptrArg(lasts.data()), i32Arg(stride)},
              {1, 1, 1},
              {{x.data(), x.size() * 4}, {sums.data(), sums.size() * 4}, {lasts.data(), lasts.size() * 4}});
          int bad = 0;
          int64_t len = axis == 0 ? m : n, other = axis == 0 ? n : m;
          for (int64_t o = 0; o < other; ++o) {
            int32_t sum = 0, last = 0;
            for (int64_t t = 0; t < len; ++t) {
              int64_t i = reverse ? len - 1 - t : t;
              int64_t at = axis == 0 ? i * n + o : o * n + i;
              sum += x[at];
              last = x[at] != 0 ? x[at] : (t == 0 ? x[at] : last);
              bad += sums[at] != sum || lasts[at] != last;
            }
          }
          CHECK(bad == 0);
        }
}

TEST_CASE("dot on f8e4m3 and f8e5m2 inputs, f32 accumulators") {
  for (const char *in : {"f8e4m3", "f8e5m2"}) {
    INFO(in);
    Module mod = lowerOrFail(dotKernel(16, 32, 16, in, "f32"), 4);
    std::mt19937 gen(9);
    std::uniform_int_distribution<int> byte(0, 255);
    bool e4 = std::string(in) == "f8e4m3";
    auto decode = [&](uint8_t b) { return e4 ? f8e4m3ToFloat(b) : f8e5m2ToFloat(b); };
    auto finite = [&](uint8_t b) { return std::isfinite(decode(b)) && std::fabs(decode(b)) < 16; };
    std::vector<uint8_t> a(16 * 16), b(16 * 32);
    for (auto *v : {&a, &b})
      for (uint8_t &x : *v)
        do
          x = uint8_t(byte(gen));
        while (!finite(x));
    std::vector<float> c0 = randomFloats(16 * 32, 3), out(16 * 32, NAN);
    simulate(mod, "dot", {ptrArg(a.data()), ptrArg(b.data()), ptrArg(c0.data()), ptrArg(out.data())},
             {1, 1, 1},
             {{a.data(), a.size()},
              {b.data(), b.size()},
              {c0.data(), c0.size() * 4},
              {out.data(), out.size() * 4}});
    double worst = 0;
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 32; ++j) {
        double ref = c0[i * 32 + j];
        for (int t = 0; t < 16; ++t)
          ref += double(decode(a[i * 16 + t])) * decode(b[t * 32 + j]);
        worst = std::max(worst, std::abs(out[i * 32 + j] - ref) / (1 + std::abs(ref)));
      }
    CHECK(worst < 1e-5);
  }
}

TEST_CASE("dot with multiply-adds, f32 and i8 -> i32") {
  struct Case {
    int64_t m, n, k;
    unsigned warps;
  };
  for (Case c : {Case{32, 32, 16, 4}, Case{16, 64, 32, 4}, Case{64, 16, 8, 2}, Case{8, 8, 4, 1},
                 Case{4, 4, 64, 4}, Case{64, 64, 32, 4}, Case{64, 32, 64, 4}}) {
    INFO(c.m << "x" << c.n << "x" << c.k << ", " << c.warps << " warps");
    {
      Module mod = lowerOrFail(dotKernel(c.m, c.n, c.k, "f32", "f32"), c.warps);
      std::vector<float> a = randomFloats(c.m * c.k, 21), b = randomFloats(c.k * c.n, 22),
                         c0 = randomFloats(c.m * c.n, 23), out(c.m * c.n, NAN);
      simulate(mod, "dot", {ptrArg(a.data()), ptrArg(b.data()), ptrArg(c0.data()), ptrArg(out.data())},
               {1, 1, 1},
               {{a.data(), a.size() * 4},
                {b.data(), b.size() * 4},
                {c0.data(), c0.size() * 4},
                {out.data(), out.size() * 4}});
      double worst = 0;
      for (int64_t i = 0; i < c.m; ++i)
        for (int64_t j = 0; j < c.n; ++j) {
          double ref = c0[i * c.n + j];
          for (int64_t t = 0; t < c.k; ++t)
            ref += double(a[i * c.k + t]) * b[t * c.n + j];
          worst = std::max(worst, std::abs(out[i * c.n + j] - ref));
        }
      CHECK(worst < 1e-4);
    }
    {
      Module mod = lowerOrFail(dotKernel(c.m, c.n, c.k, "i8", "i32"), c.warps);
      std::mt19937 gen(5);
      std::uniform_int_distribution<int> dist(-128, 127);
      std::vector<int8_t> a(c.m * c.k), b(c.k * c.n);
      for (auto &v : a)
        v = int8_t(dist(gen));
      for (auto &v : b)
        v = int8_t(dist(gen));
      std::vector<int32_t> c0(c.m * c.n, 1000), out(c.m * c.n, 0);
      simulate(mod, "dot", {ptrArg(a.data()), ptrArg(b.data()), ptrArg(c0.data()), ptrArg(out.data())},
               {1, 1, 1},
               {{a.data(), a.size()},
                {b.data(), b.size()},
                {c0.data(), c0.size() * 4},
                {out.data(), out.size() * 4}});
      int bad = 0;
      for (int64_t i = 0; i < c.m; ++i)
        for (int64_t j = 0; j < c.n; ++j) {
          int32_t ref = 1000;
          for (int64_t t = 0; t < c.k; ++t)
            ref += int32_t(a[i * c.k + t]) * b[t * c.n + j];
          bad += out[i * c.n + j] != ref;
        }
      CHECK(bad == 0);
    }
  }
}
