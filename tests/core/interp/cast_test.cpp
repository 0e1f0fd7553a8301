// Casts (integer widths, int <-> float, float <-> float with both roundings),
// bitcasts, select and pointer ops.

#include "InterpTestUtil.h"

#include <cmath>
#include <limits>

using namespace interp_test;

namespace {

const bool kCovered = cover({"arith.extsi", "arith.extui", "arith.trunci", "arith.sitofp", "arith.uitofp",
                             "arith.fptosi", "arith.fptoui", "arith.extf", "arith.truncf", "tt.bitcast",
                             "arith.select", "tt.addptr", "tt.ptr_to_int", "tt.int_to_ptr"});

std::string cast(const char *op, Type to, int64_t n, const std::string &attrs = "") {
  return "%y = " + std::string(op) + " %x0" + attrs + " : " + blockOf(n, to);
}

// The raw bits of the value of `t` nearest to the integer v (ties to even), found by
// comparing neighbours in long double, which holds every int64 exactly.
uint64_t nearestFloatRaw(Type t, long double v) {
  uint64_t guess = floatRaw(t, static_cast<double>(v));
  uint64_t best = guess;
  long double bestErr = std::fabs(static_cast<long double>(floatValue(t, guess)) - v);
  for (int delta : {-1, 1}) {
    uint64_t c = guess + static_cast<uint64_t>(delta);
    double cv = floatValue(t, c);
    if (cv != cv || std::signbit(cv) != std::signbit(static_cast<double>(v)))
      continue;
    long double err = std::fabs(static_cast<long double>(cv) - v);
    if (err < bestErr || (err == bestErr && (c & 1) == 0)) {
      best = c;
      bestErr = err;
    }
  }
  return best;
}

} // namespace

TEST_CASE("integer casts: extsi, extui, trunci") {
  (void)kCovered;
  std::vector<uint64_t> a = {0, 1, 0x7f, 0x80, 0xff, 0x12, 0xfe, 0x40};
  Type i8 = Type::i8(), i32 = Type::i32(), i64 = Type::i64(), i16 = Type::i16(), i1 = Type::i1();
  Runner r1, r2, r3, r4;
  CHECK(runElementwise(r1, cast("arith.extsi", i32, 8), {i8}, {a}, i32) ==
        std::vector<uint64_t>{0, 1, 0x7f, 0xffffff80, 0xffffffff, 0x12, 0xfffffffe, 0x40});
  CHECK(runElementwise(r2, cast("arith.extui", i64, 8), {i8}, {a}, i64) == a);
  std::vector<uint64_t> wide = {0x123456789abcdef0, uint64_t(-1), 0x8000, 0x7fff, 0, 1, 0x10000, 0xffff8000};
  CHECK(runElementwise(r3, cast("arith.trunci", i16, 8), {i64}, {wide}, i16) ==
        std::vector<uint64_t>{0xdef0, 0xffff, 0x8000, 0x7fff, 0, 1, 0, 0x8000});
  std::vector<uint64_t> bits = {0, 1, 1, 0};
  CHECK(runElementwise(r4, cast("arith.extsi", i32, 4), {i1}, {bits}, i32) ==
        std::vector<uint64_t>{0, 0xffffffff, 0xffffffff, 0});
  CHECK(r1.executed("arith.extsi"));
  CHECK(r2.executed("arith.extui"));
  CHECK(r3.executed("arith.trunci"));
}

TEST_CASE("sitofp and uitofp round once to the nearest value") {
  constexpr int64_t n = 64;
  for (uint32_t seed : seeds()) {
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    for (Type from : {Type::i16(), Type::i32(), Type::i64()}) {
      const unsigned w = from.bitWidth();
      const uint64_t m = w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
      std::vector<uint64_t> a(n);
      for (int64_t i = 0; i < n; ++i)
        a[i] = (i % 3 == 0 ? rng() >> (rng() % 64) : rng()) & m; // all magnitudes
      a[0] = 0;
      a[1] = m;
      a[2] = m >> 1;
      a[3] = (m >> 1) + 1;
      for (Type to : {Type::f64(), Type::f32(), Type::f16(), Type::bf16()}) {
        for (bool isSigned : {true, false}) {
          const char *op = isSigned ? "arith.sitofp" : "arith.uitofp";
          INFO(std::string(op) << " " << from.str() << " to " << to.str());
          Runner r;
          std::vector<uint64_t> y = runElementwise(r, cast(op, to, n), {from}, {a}, to);
          CHECK(r.executed(op));
          for (int64_t i = 0; i < n; ++i) {
            long double v = isSigned && w < 64 && (a[i] >> (w - 1))
                                ? static_cast<long double>(static_cast<int64_t>(a[i] | ~m))
                            : isSigned ? static_cast<long double>(static_cast<int64_t>(a[i]))
                                       : static_cast<long double>(a[i]);
            uint64_t expected = nearestFloatRaw(to, v);
            if (to == Type::f16() && std::fabs(v) >= 65520) // beyond the largest f16, ties included
              expected = floatRaw(to, v < 0 ? -INFINITY : INFINITY);
            INFO("input " << static_cast<double>(v));
            CHECK(y[i] == expected);
          }
        }
      }
    }
  }
}

TEST_CASE("fptosi and fptoui truncate, saturate, and turn NaN into 0") {
  const double nan = std::nan("");
  std::vector<double> xs = {1.9,          -1.9,          0.0,      -0.0,      1e20,  -1e20, nan, 2147483647.0,
                            2147483648.0, -2147483649.0, INFINITY, -INFINITY, 255.5, -0.5,  3e9, 100.0};
  Type f64 = Type::f64(), i32 = Type::i32(), i8 = Type::i8();
  std::vector<uint64_t> a;
  for (double x : xs)
    a.push_back(f64Bits(x));
  Runner r1, r2, r3;
  CHECK(runElementwise(r1, cast("arith.fptosi", i32, 16), {f64}, {a}, i32) ==
        std::vector<uint64_t>{1, 0xffffffff, 0, 0, 0x7fffffff, 0x80000000, 0, 0x7fffffff, 0x7fffffff,
                              0x80000000, 0x7fffffff, 0x80000000, 255, 0, 0x7fffffff, 100});
  CHECK(runElementwise(r2, cast("arith.fptoui", i32, 16), {f64}, {a}, i32) ==
        std::vector<uint64_t>{1, 0, 0, 0, 0xffffffff, 0, 0, 0x7fffffff, 0x80000000, 0, 0xffffffff, 0, 255, 0,
                              3000000000u, 100});
  CHECK(
      runElementwise(r3, cast("arith.fptosi", i8, 16), {f64}, {a}, i8) ==
      std::vector<uint64_t>{1, 0xff, 0, 0, 0x7f, 0x80, 0, 0x7f, 0x7f, 0x80, 0x7f, 0x80, 0x7f, 0, 0x7f, 100});
  CHECK(r1.executed("arith.fptosi"));
  CHECK(r2.executed("arith.fptoui"));
  // From f16, to i64.
  Type f16 = Type::f16(), i64 = Type::i64();
  std::vector<uint64_t> h = {floatRaw(f16, -65504.0), floatRaw(f16, 2.75), floatRaw(f16, -INFINITY),
                             floatRaw(f16, 0.25)};
  Runner r4;
  CHECK(runElementwise(r4, cast("arith.fptosi", i64, 4), {f16}, {h}, i64) ==
        std::vector<uint64_t>{uint64_t(-65504), 2, uint64_t(INT64_MIN), 0});
}

TEST_CASE("extf is exact for every f16, bf16 and f8 pattern") {
  struct {
    Type from, to;
  } cases[] = {{Type::f16(), Type::f32()},
               {Type::bf16(), Type::f64()},
               {Type::f8e4m3(), Type::f16()},
               {Type::f8e5m2(), Type::f32()},
               {Type::f32(), Type::f64()}};
  for (auto &c : cases) {
    INFO(c.from.str() << " to " << c.to.str());
    const unsigned w = c.from.bitWidth();
    const int64_t n = w == 32 ? 1024 : int64_t(1) << w;
    std::vector<uint64_t> a(n);
    std::mt19937 rng(7);
    for (int64_t i = 0; i < n; ++i)
      a[i] = w == 32 ? rng() : static_cast<uint64_t>(i);
    Runner r;
    std::vector<uint64_t> y = runElementwise(r, cast("arith.extf", c.to, n), {c.from}, {a}, c.to);
    CHECK(r.executed("arith.extf"));
    for (int64_t i = 0; i < n; ++i) {
      INFO("bits " << a[i]);
      CHECK(sameFloat(floatValue(c.to, y[i]), floatValue(c.from, a[i])));
    }
  }
}

TEST_CASE("truncf rounds to nearest even by default and toward zero on request") {
  constexpr int64_t n = 256;
  for (uint32_t seed : seeds()) {
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    struct {
      Type from, to;
    } cases[] = {{Type::f32(), Type::f16()},    {Type::f32(), Type::bf16()},   {Type::f32(), Type::f8e4m3()},
                 {Type::f32(), Type::f8e5m2()}, {Type::f64(), Type::f32()},    {Type::f16(), Type::f8e5m2()},
                 {Type::f64(), Type::f16()},    {Type::bf16(), Type::f8e4m3()}};
    for (auto &c : cases) {
      std::vector<uint64_t> a(n);
      const unsigned w = c.from.bitWidth();
      for (int64_t i = 0; i < n; ++i) {
        // Random patterns, and values near the target's range.
        double near = std::ldexp(std::uniform_real_distribution<double>(-2, 2)(rng), int(rng() % 40) - 20);
        a[i] = i % 2 ? (w == 64 ? rng() : rng() & ((uint64_t(1) << w) - 1)) : floatRaw(c.from, near);
      }
      for (const char *rounding : {"", "rtne", "rtz"}) {
        INFO(c.from.str() << " to " << c.to.str() << " rounding '" << std::string(rounding) << "'");
        std::string attrs = *rounding ? " {rounding = \"" + std::string(rounding) + "\"}" : "";
        Runner r;
        std::vector<uint64_t> y =
            runElementwise(r, cast("arith.truncf", c.to, n, attrs), {c.from}, {a}, c.to);
        CHECK(r.executed("arith.truncf"));
        FloatRounding mode =
            std::string(rounding) == "rtz" ? FloatRounding::TowardZero : FloatRounding::NearestEven;
        for (int64_t i = 0; i < n; ++i) {
          double x = floatValue(c.from, a[i]);
          INFO("input " << x);
          double got = floatValue(c.to, y[i]);
          if (c.to == Type::f32()) {
            CHECK(sameFloat(got, decodeFloat(encodeFloat(x, FloatFormat::F32, mode), FloatFormat::F32)));
            if (mode == FloatRounding::NearestEven)
              CHECK(sameFloat(got, static_cast<float>(x)));
          } else {
            CHECK(sameFloat(got, decodeFloat(encodeFloat(x, formatOf(c.to), mode), formatOf(c.to))));
          }
        }
      }
    }
  }
}

TEST_CASE("tt.bitcast keeps every bit, NaN payloads included") {
  Type f32 = Type::f32(), i32 = Type::i32(), f16 = Type::f16(), i16 = Type::i16();
  std::vector<uint64_t> bits = {0x7f800001, 0xffc00000, 0x3f800000, 0x80000000,
                                0x00000001, 0x7fbfffff, 0,          0x7f7fffff};
  Runner r1, r2, r3;
  CHECK(runElementwise(r1, cast("tt.bitcast", f32, 8), {i32}, {bits}, f32) == bits);
  CHECK(runElementwise(r2, cast("tt.bitcast", i32, 8), {f32}, {bits}, i32) == bits);
  std::vector<uint64_t> half = {0x7c01, 0xfe00, 0x3c00, 0x8000};
  CHECK(runElementwise(r3, cast("tt.bitcast", i16, 4), {f16}, {half}, i16) == half);
  CHECK(r1.executed("tt.bitcast"));
}

TEST_CASE("arith.select picks per element") {
  Type i1 = Type::i1(), f32 = Type::f32();
  std::vector<uint64_t> c = {1, 0, 0, 1}, a, b;
  for (float v : {1.f, 2.f, 3.f, 4.f})
    a.push_back(f32Bits(v));
  for (float v : {-1.f, -2.f, -3.f, -4.f})
    b.push_back(f32Bits(v));
  Runner r;
  std::vector<uint64_t> y =
      runElementwise(r, "%y = arith.select %x0, %x1, %x2 : block<4xf32>", {i1, f32, f32}, {c, a, b}, f32);
  CHECK(r.executed("arith.select"));
  CHECK(y == std::vector<uint64_t>{f32Bits(1), f32Bits(-2), f32Bits(-3), f32Bits(4)});
}

TEST_CASE("pointer arithmetic scales by the pointee size; ptr_to_int and int_to_ptr round-trip") {
  // out[i] = ptr_to_int(addptr(base, off[i])) - ptr_to_int(base), through int_to_ptr and back.
  Runner r;
  r.load(R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%base: ptr<f64>, %offs: ptr<i32>, %out: ptr<i64>):
    %r = tt.make_range {end = 4, start = 0} : block<4xi32>
    %op = tt.splat %offs : block<4xptr<i32>>
    %op2 = tt.addptr %op, %r : block<4xptr<i32>>
    %o = tt.load %op2 : block<4xi32>
    %b = tt.splat %base : block<4xptr<f64>>
    %p = tt.addptr %b, %o : block<4xptr<f64>>
    %pi = tt.ptr_to_int %p : block<4xi64>
    %back = tt.int_to_ptr %pi : block<4xptr<f64>>
    %pi2 = tt.ptr_to_int %back : block<4xi64>
    %bi = tt.ptr_to_int %b : block<4xi64>
    %d = arith.subi %pi2, %bi : block<4xi64>
    %wide = arith.extsi %o : block<4xi64>
    %p64 = tt.addptr %b, %wide : block<4xptr<f64>>
    %pi3 = tt.ptr_to_int %p64 : block<4xi64>
    %d2 = arith.subi %pi3, %pi : block<4xi64>
    %sum = arith.addi %d, %d2 : block<4xi64>
    %so = tt.splat %out : block<4xptr<i64>>
    %po = tt.addptr %so, %r : block<4xptr<i64>>
    tt.store %po, %sum
    tt.return
  })
}))");
  std::vector<double> base(4);
  std::vector<int32_t> offs = {0, 3, -2, 1000};
  std::vector<int64_t> out(4, 0);
  r.buffer(offs, "offs");
  r.buffer(out, "out");
  r.runOk("k", {KernelArg::pointer(base.data(), Type::f64()), KernelArg::pointer(offs.data(), Type::i32()),
                KernelArg::pointer(out.data(), Type::i64())});
  CHECK(out == std::vector<int64_t>{0, 24, -16, 8000}); // d2 is 0: both offset widths agree
  CHECK(r.executed("tt.addptr"));
  CHECK(r.executed("tt.ptr_to_int"));
  CHECK(r.executed("tt.int_to_ptr"));
}
