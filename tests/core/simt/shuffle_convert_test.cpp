// Layout conversions inside warps lower to th.shuffle, not shared memory, and move
// every element where its new layout wants it (checked in the thread-IR simulator
// against the exact permutation); conversions across warps still use shared memory.
#include "KernelTemplates.h"
#include "SimtTestUtil.h"

#include <cstring>
#include <random>

using namespace trident;
using namespace trident::simt::test;

namespace {

// out = reshape(trans(reshape(x, AxBxC), [0, 2, 1]), A*C*B): the loads and stores
// are coalesced along the flat index, so the transpose needs a layout conversion.
std::string permuteKernel(int64_t a, int64_t b, int64_t c, const std::string &type) {
  std::string text = instantiate(R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16], sym_name = "permute"} ({
  ^(%x: ptr<@T@>, %out: ptr<@T@>):
    %i = tt.make_range {end = @N@, start = 0} : block<@N@xi32>
    %xs = tt.splat %x : block<@N@xptr<@T@>>
    %p = tt.addptr %xs, %i : block<@N@xptr<@T@>>
    %v = tt.load %p : block<@N@x@T@>
    %r = tt.reshape %v : block<@A@x@B@x@C@x@T@>
    %t = tt.trans %r {order = [0, 2, 1]} : block<@A@x@C@x@B@x@T@>
    %f = tt.reshape %t : block<@N@x@T@>
    %os = tt.splat %out : block<@N@xptr<@T@>>
    %op = tt.addptr %os, %i : block<@N@xptr<@T@>>
    tt.store %op, %f
    tt.return
  })
})
)",
                                 {{"N", a * b * c}, {"A", a}, {"B", b}, {"C", c}});
  for (size_t at = text.find("@T@"); at != std::string::npos; at = text.find("@T@", at))
    text.replace(at, 3, type);
  return text;
}

// Runs the permutation on random elements of `bytes` bytes; returns how many are wrong.
int runPermute(const Module &m, int64_t a, int64_t b, int64_t c, size_t bytes, uint32_t seed) {
  size_t n = static_cast<size_t>(a * b * c);
  std::vector<unsigned char> x(n * bytes), out(n * bytes, 0xAB);
  std::mt19937 gen(seed);
  for (unsigned char &byte : x)
    byte = static_cast<unsigned char>(gen());
  simulate(m, "permute", {ptrArg(x.data()), ptrArg(out.data())}, {1, 1, 1},
           {{x.data(), x.size()}, {out.data(), out.size()}});
  int bad = 0;
  for (int64_t i = 0; i < a; ++i)
    for (int64_t j = 0; j < b; ++j)
      for (int64_t k = 0; k < c; ++k) {
        size_t from = static_cast<size_t>((i * b + j) * c + k), to = static_cast<size_t>((i * c + k) * b + j);
        bad += std::memcmp(&x[from * bytes], &out[to * bytes], bytes) != 0;
      }
  return bad;
}

} // namespace

TEST_CASE("a transpose inside one warp lowers to shuffles, not shared memory") {
  // block<32x4xf32> on 1 warp: lanes along rows (4 per thread) to lanes along columns.
  Module m = lowerOrFail(permuteKernel(1, 32, 4, "f32"), 1);
  INFO(print(m));
  CHECK(countOps(m, "th.shuffle") > 0);
  CHECK(countOps(m, "th.shuffle") <= 16);
  CHECK(countOps(m, "th.shared_alloc") == 0);
  CHECK(countOps(m, "th.barrier") == 0);
  CHECK(runPermute(m, 1, 32, 4, 4, 1) == 0);
}

TEST_CASE("four warps with the same warp bases convert by shuffles") {
  // block<4x32x4xf32>: each warp transposes its own 32x4 slab.
  Module m = lowerOrFail(permuteKernel(4, 32, 4, "f32"), 4);
  INFO(print(m));
  CHECK(countOps(m, "th.shuffle") > 0);
  CHECK(countOps(m, "th.shared_alloc") == 0);
  CHECK(runPermute(m, 4, 32, 4, 4, 2) == 0);
  // More registers per thread: 8 slabs over 4 warps, and 1 warp holding all of them.
  for (unsigned warps : {1u, 2u, 4u}) {
    INFO(warps << " warps");
    Module big = lowerOrFail(permuteKernel(8, 32, 4, "f32"), warps);
    CHECK(countOps(big, "th.shared_alloc") == 0);
    CHECK(runPermute(big, 8, 32, 4, 4, 3 + warps) == 0);
  }
}

TEST_CASE("shuffle conversions move narrow and 64-bit elements whole") {
  for (const char *type : {"i8", "f16", "i16", "i64", "f64"}) {
    size_t bytes = std::string(type).substr(1) == "8" ? 1 : std::string(type).substr(1) == "16" ? 2 : 8;
    for (auto [a, b, c, warps] : {std::tuple{1, 32, 4, 1u}, std::tuple{4, 32, 4, 4u}, std::tuple{2, 16, 8, 1u}}) {
      INFO(type << " " << a << "x" << b << "x" << c << ", " << warps << " warps");
      Module m = lowerOrFail(permuteKernel(a, b, c, type), warps);
      CHECK(runPermute(m, a, b, c, bytes, 7) == 0);
    }
  }
}

TEST_CASE("other shapes and warp counts permute correctly whichever way they convert") {
  for (auto [a, b, c] : {std::tuple{1, 8, 4}, std::tuple{1, 64, 2}, std::tuple{2, 64, 8}, std::tuple{1, 128, 4},
                         std::tuple{4, 4, 32}, std::tuple{1, 4, 128}})
    for (unsigned warps : {1u, 2u, 4u, 8u}) {
      INFO(a << "x" << b << "x" << c << ", " << warps << " warps");
      Module m = lowerOrFail(permuteKernel(a, b, c, "f32"), warps);
      CHECK(runPermute(m, a, b, c, 4, 11) == 0);
    }
}

TEST_CASE("a conversion across warps still goes through shared memory") {
  // block<128x4xf32> on 4 warps: the warps hold rows before and columns after.
  Module m = lowerOrFail(permuteKernel(1, 128, 4, "f32"), 4);
  INFO(print(m));
  CHECK(countOps(m, "th.shared_alloc") > 0);
  CHECK(countOps(m, "th.shuffle") == 0);
  CHECK(runPermute(m, 1, 128, 4, 4, 5) == 0);
}
