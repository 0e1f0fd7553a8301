// Thread-IR ops beyond elementwise arithmetic, on the Vulkan device: shuffles in
// every mode for every value width, shared memory with vector and predicated
// accesses, vector global accesses (up to 16 bytes, masked, with `other`), bytes
// as booleans, and every atomic kind, against models computed on the host.

#include "VulkanHarness.h"

#include "trident/support/FloatFormats.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <random>

using namespace trident;
using namespace trident::test;

namespace trident::test {
extern VulkanHarness *harness;
}

namespace {

std::string num(int64_t v) { return std::to_string(v); }

std::vector<uint8_t> randomBytes(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<uint8_t> v(n);
  for (uint8_t &b : v)
    b = uint8_t(gen());
  return v;
}

// Keeps NaN patterns out of float data that must round-trip bit for bit through registers.
void sanitize(std::vector<uint8_t> &bytes, const std::string &type) {
  size_t size = type == "f16" || type == "bf16" ? 2 : type == "f32" ? 4 : type == "f64" ? 8 : 0;
  for (size_t i = 0; size && i < bytes.size(); i += size)
    bytes[i + size - 1] &= 0x3f; // exponent below all ones
  if (type == "i1")
    for (uint8_t &b : bytes)
      b &= 1;
}

} // namespace

TEST_CASE("shuffles in every mode and width") {
  VulkanHarness &h = *harness;
  const int w = int(h.props.warp_size), threads = 4 * w;
  REQUIRE(w >= 4);
  for (const char *type : {"i1", "i8", "i16", "f16", "bf16", "i32", "f32", "i64", "f64"}) {
    CAPTURE(type);
    std::string t = type;
    size_t size = t == "i1" || t == "i8" ? 1 : t == "i16" || t == "f16" || t == "bf16" ? 2 : t == "i64" || t == "f64" ? 8 : 4;
    int xorMask = 5 & (w - 1);
    std::string text = "builtin.module ({\n  tt.func {num_threads = " + num(threads) +
                       ", sym_name = \"k\"} ({\n  ^(%in: ptr<" + t + ">, %out: ptr<" + t + ">):\n"
                       R"(    %t = th.thread_id : i32
    %lane = th.lane_id : i32
    %p = tt.addptr %in, %t : ptr<)" + t + R"(>
    %v = th.load %p : )" + t + R"(
    %c3 = arith.constant {value = 3} : i32
    %c1 = arith.constant {value = 1} : i32
    %c4 = arith.constant {value = 4} : i32
    %mask = arith.constant {value = )" + num(w - 1) + R"(} : i32
    %x = arith.constant {value = )" + num(xorMask) + R"(} : i32
    %l3 = arith.muli %lane, %c3 : i32
    %l31 = arith.addi %l3, %c1 : i32
    %src = arith.andi %l31, %mask : i32
    %a = th.shuffle %v, %src {mode = "idx"} : )" + t + R"(
    %b = th.shuffle %v, %x {mode = "xor"} : )" + t + R"(
    %c = th.shuffle %v, %c3 {mode = "up"} : )" + t + R"(
    %d = th.shuffle %v, %c3 {mode = "down"} : )" + t + R"(
    %o = arith.muli %t, %c4 : i32
    %q0 = tt.addptr %out, %o : ptr<)" + t + R"(>
    %q1 = tt.addptr %q0, %c1 : ptr<)" + t + R"(>
    %q2 = tt.addptr %q1, %c1 : ptr<)" + t + R"(>
    %q3 = tt.addptr %q2, %c1 : ptr<)" + t + R"(>
    th.store %q0, %a
    th.store %q1, %b
    th.store %q2, %c
    th.store %q3, %d
    tt.return
  })
})
)";
    std::vector<uint8_t> in = randomBytes(threads * size, std::random_device()());
    sanitize(in, t);
    trident_devptr din = h.upload(in), dout = h.upload(std::vector<uint8_t>(threads * 4 * size, 0xee));
    VulkanHarness::Kernel k = h.load(text, "k");
    h.launch(k, {1, 1, 1}, {h.ptr(din), h.ptr(dout)});
    std::vector<uint8_t> out = h.download<uint8_t>(dout, threads * 4 * size);
    int bad = 0;
    for (int tid = 0; tid < threads; ++tid) {
      int lane = tid % w, base = tid - lane;
      int sources[4] = {base + ((lane * 3 + 1) & (w - 1)), base + (lane ^ xorMask), lane >= 3 ? tid - 3 : tid,
                        lane + 3 < w ? tid + 3 : tid};
      for (int m = 0; m < 4; ++m)
        bad += std::memcmp(out.data() + (tid * 4 + m) * size, in.data() + sources[m] * size, size) != 0;
    }
    CHECK(bad == 0);
    h.unload(k);
    h.free(din);
    h.free(dout);
  }
}

TEST_CASE("vector and masked global accesses of every width") {
  VulkanHarness &h = *harness;
  // Thread t copies elements [n*t, n*t + n) when t is even, else writes `other` (all 0x5a bytes).
  for (auto [type, n] : {std::pair{"f16", 8}, {"i8", 16}, {"i8", 8}, {"bf16", 4}, {"i64", 2}, {"f32", 4}, {"f64", 2},
                         {"i16", 2}, {"i1", 4}}) {
    std::string t = type;
    CAPTURE(t);
    CAPTURE(n);
    size_t size = t == "i1" || t == "i8" ? 1 : t == "i16" || t == "f16" || t == "bf16" ? 2 : t == "i64" || t == "f64" ? 8 : 4;
    const int threads = int(h.props.warp_size) * 2;
    std::string vec = "vector<" + num(n) + "x" + t + ">";
    std::string otherAttr = t == "i1" ? "false" : (t[0] == 'f' || t == "bf16") ? "90.0" : "90";
    std::string text = "builtin.module ({\n  tt.func {num_threads = " + num(threads) +
                       ", sym_name = \"k\"} ({\n  ^(%in: ptr<" + t + ">, %out: ptr<" + t + ">):\n"
                       R"(    %t = th.thread_id : i32
    %cn = arith.constant {value = )" + num(n) + R"(} : i32
    %c1 = arith.constant {value = 1} : i32
    %c0 = arith.constant {value = 0} : i32
    %i = arith.muli %t, %cn : i32
    %bit = arith.andi %t, %c1 : i32
    %even = arith.cmpi %bit, %c0 {predicate = "eq"} : i1
    %o = arith.constant {value = )" + otherAttr + R"(} : )" + t + R"(
    %ov = th.pack )";
    for (int j = 0; j < n; ++j)
      text += std::string(j ? ", " : "") + "%o";
    text += " : " + vec + "\n" + R"(    %p = tt.addptr %in, %i : ptr<)" + t + R"(>
    %v = th.load %p, %even, %ov {volatile = true} : )" + vec + R"(
    %q = tt.addptr %out, %i : ptr<)" + t + R"(>
    th.store %q, %v
    tt.return
  })
})
)";
    std::vector<uint8_t> in = randomBytes(threads * n * size, std::random_device()());
    sanitize(in, t);
    trident_devptr din = h.upload(in), dout = h.upload(std::vector<uint8_t>(in.size(), 0xee));
    VulkanHarness::Kernel k = h.load(text, "k");
    h.launch(k, {1, 1, 1}, {h.ptr(din), h.ptr(dout)});
    std::vector<uint8_t> out = h.download<uint8_t>(dout, in.size());
    std::vector<uint8_t> otherBytes(size);
    if (t == "i1") {
      otherBytes[0] = 0;
    } else if (t == "f16") {
      uint16_t b = floatToF16(90.0f);
      std::memcpy(otherBytes.data(), &b, 2);
    } else if (t == "bf16") {
      uint16_t b = floatToBF16(90.0f);
      std::memcpy(otherBytes.data(), &b, 2);
    } else if (t == "f32") {
      float f = 90.0f;
      std::memcpy(otherBytes.data(), &f, 4);
    } else if (t == "f64") {
      double d = 90.0;
      std::memcpy(otherBytes.data(), &d, 8);
    } else {
      int64_t v = 90;
      std::memcpy(otherBytes.data(), &v, size);
    }
    int bad = 0;
    for (int tid = 0; tid < threads; ++tid)
      for (int j = 0; j < n; ++j) {
        size_t at = (size_t(tid) * n + j) * size;
        const uint8_t *want = tid % 2 == 0 ? in.data() + at : otherBytes.data();
        bad += std::memcmp(out.data() + at, want, size) != 0;
      }
    CHECK(bad == 0);
    h.unload(k);
    h.free(din);
    h.free(dout);
  }
}

TEST_CASE("shared memory: vector stores and loads across threads, predicated stores, barriers") {
  VulkanHarness &h = *harness;
  const int threads = int(h.props.warp_size) * 4;
  // Each thread stores 4 consecutive i32 at 4*t; after a barrier it reads those of
  // thread threads-1-t. A byte array is written only by threads with t % 3 == 0.
  std::string text = "builtin.module ({\n  tt.func {num_threads = " + num(threads) +
                     ", sym_name = \"k\"} ({\n  ^(%in: ptr<i32>, %out: ptr<i32>, %flags: ptr<i8>):\n" +
                     "    %words = th.shared_alloc {offset = 0, size = " + num(threads * 16) + "} : ptr<i32, 3>\n" +
                     "    %bytes = th.shared_alloc {offset = " + num(threads * 16) + ", size = " + num(threads) + "} : ptr<i8, 3>\n" +
                     "    %last = arith.constant {value = " + num(threads - 1) + "} : i32\n" + R"(    %t = th.thread_id : i32
    %c4 = arith.constant {value = 4} : i32
    %c3 = arith.constant {value = 3} : i32
    %c0 = arith.constant {value = 0} : i32
    %z = arith.constant {value = 0} : i8
    %one = arith.constant {value = 1} : i8
    %i = arith.muli %t, %c4 : i32
    %p = tt.addptr %in, %i : ptr<i32>
    %v = th.load %p : vector<4xi32>
    th.store_shared %words, %i, %v
    th.store_shared %bytes, %t, %z
    th.barrier
    %r = arith.remui %t, %c3 : i32
    %third = arith.cmpi %r, %c0 {predicate = "eq"} : i1
    th.store_shared %bytes, %t, %one, %third
    th.barrier
    %u = arith.subi %last, %t : i32
    %j = arith.muli %u, %c4 : i32
    %w = th.load_shared %words, %j : vector<4xi32>
    %q = tt.addptr %out, %i : ptr<i32>
    th.store %q, %w
    %f = th.load_shared %bytes, %u : i8
    %fp = tt.addptr %flags, %t : ptr<i8>
    th.store %fp, %f
    tt.return
  })
})
)";
  std::vector<int32_t> in(threads * 4);
  std::mt19937 gen(std::random_device{}());
  for (int32_t &v : in)
    v = int32_t(gen());
  trident_devptr din = h.upload(in), dout = h.upload(std::vector<int32_t>(in.size(), -1)),
                 dflags = h.upload(std::vector<uint8_t>(threads, 7));
  VulkanHarness::Kernel k = h.load(text, "k");
  h.launch(k, {3, 1, 1}, {h.ptr(din), h.ptr(dout), h.ptr(dflags)});
  std::vector<int32_t> out = h.download<int32_t>(dout, in.size());
  std::vector<uint8_t> flags = h.download<uint8_t>(dflags, threads);
  int bad = 0;
  for (int t = 0; t < threads; ++t) {
    int u = threads - 1 - t;
    for (int j = 0; j < 4; ++j)
      bad += out[t * 4 + j] != in[u * 4 + j];
    bad += flags[t] != (u % 3 == 0 ? 1 : 0);
  }
  CHECK(bad == 0);
  h.unload(k);
  for (trident_devptr p : {din, dout, dflags})
    h.free(p);
}

TEST_CASE("shared memory: narrow vectors as whole words, scalars and unaligned allocations beside them") {
  // Without explicit workgroup layouts (lavapipe) every allocation lives in one u32
  // array; vectors of i16/i8 that fill words move as plain words, scalars and
  // allocations off a word boundary are written with atomics on their word.
  VulkanHarness &h = *harness;
  const int threads = int(h.props.warp_size) * 4;
  const std::string n = num(threads);
  // %h: vector<8xi16> per thread at 8t; %b: vector<4xi8> per thread at 4t; %s: one
  // i16 per thread at an allocation 2 bytes past a word, written as vector<2xi16> by
  // even threads (pairs t, t+1) and as scalars by odd threads (t+1 only when in range).
  std::string text = "builtin.module ({\n  tt.func {num_threads = " + n +
                     ", sym_name = \"k\"} ({\n  ^(%in: ptr<i16>, %bin: ptr<i8>, %out: ptr<i16>, %bout: ptr<i8>, "
                     "%sout: ptr<i16>):\n" +
                     "    %h = th.shared_alloc {offset = 0, size = " + num(threads * 16) + "} : ptr<i16, 3>\n" +
                     "    %b = th.shared_alloc {offset = " + num(threads * 16) + ", size = " + num(threads * 4) +
                     "} : ptr<i8, 3>\n" + "    %s = th.shared_alloc {offset = " + num(threads * 20 + 2) +
                     ", size = " + num(threads * 2 + 14) + "} : ptr<i16, 3>\n" + // 16-byte multiple in all: uvec4 units
                     "    %last = arith.constant {value = " + num(threads - 1) + "} : i32\n" + R"(    %t = th.thread_id : i32
    %c8 = arith.constant {value = 8} : i32
    %c4 = arith.constant {value = 4} : i32
    %c2 = arith.constant {value = 2} : i32
    %c1 = arith.constant {value = 1} : i32
    %c0 = arith.constant {value = 0} : i32
    %i8 = arith.muli %t, %c8 : i32
    %i4 = arith.muli %t, %c4 : i32
    %p = tt.addptr %in, %i8 : ptr<i16>
    %v = th.load %p : vector<8xi16>
    th.store_shared %h, %i8, %v
    %pb = tt.addptr %bin, %i4 : ptr<i8>
    %vb = th.load %pb : vector<4xi8>
    th.store_shared %b, %i4, %vb
    %odd = arith.andi %t, %c1 : i32
    %isodd = arith.cmpi %odd, %c0 {predicate = "ne"} : i1
    %iseven = arith.cmpi %odd, %c0 {predicate = "eq"} : i1
    %pair = th.extract %v {index = 0} : i16
    %pv = th.pack %pair, %pair : vector<2xi16>
    th.store_shared %s, %t, %pv, %iseven
    th.barrier
    %e = th.extract %v {index = 1} : i16
    th.store_shared %s, %t, %e, %isodd
    th.barrier
    %u = arith.subi %last, %t : i32
    %j8 = arith.muli %u, %c8 : i32
    %j4 = arith.muli %u, %c4 : i32
    %w = th.load_shared %h, %j8 : vector<8xi16>
    %q = tt.addptr %out, %i8 : ptr<i16>
    th.store %q, %w
    %wb = th.load_shared %b, %j4 : vector<4xi8>
    %qb = tt.addptr %bout, %i4 : ptr<i8>
    th.store %qb, %wb
    %ws = th.load_shared %s, %u : i16
    %qs = tt.addptr %sout, %t : ptr<i16>
    th.store %qs, %ws
    tt.return
  })
})
)";
  std::mt19937 gen(std::random_device{}());
  std::vector<uint16_t> in(size_t(threads) * 8);
  std::vector<uint8_t> bin(size_t(threads) * 4);
  for (uint16_t &v : in)
    v = uint16_t(gen());
  for (uint8_t &v : bin)
    v = uint8_t(gen());
  trident_devptr din = h.upload(in), dbin = h.upload(bin), dout = h.upload(std::vector<uint16_t>(in.size(), 0xdead)),
                 dbout = h.upload(std::vector<uint8_t>(bin.size(), 0x5a)),
                 dsout = h.upload(std::vector<uint16_t>(threads, 0xdead));
  VulkanHarness::Kernel k = h.load(text, "k");
  h.launch(k, {2, 1, 1}, {h.ptr(din), h.ptr(dbin), h.ptr(dout), h.ptr(dbout), h.ptr(dsout)});
  std::vector<uint16_t> out = h.download<uint16_t>(dout, in.size()), sout = h.download<uint16_t>(dsout, threads);
  std::vector<uint8_t> bout = h.download<uint8_t>(dbout, bin.size());
  int bad = 0;
  for (int t = 0; t < threads; ++t) {
    int u = threads - 1 - t;
    for (int j = 0; j < 8; ++j)
      bad += out[size_t(t) * 8 + j] != in[size_t(u) * 8 + j];
    for (int j = 0; j < 4; ++j)
      bad += bout[size_t(t) * 4 + j] != bin[size_t(u) * 4 + j];
    // Element u of %s: written by an even thread u as its pair's first half, or by odd thread u.
    uint16_t expected = u % 2 == 0 ? in[size_t(u) * 8] : in[size_t(u) * 8 + 1];
    bad += sout[t] != expected;
  }
  CHECK(bad == 0);
  h.unload(k);
  for (trident_devptr p : {din, dbin, dout, dbout, dsout})
    h.free(p);
}

TEST_CASE("every atomic kind on i32 and i64, exchange and compare-and-swap on floats") {
  VulkanHarness &h = *harness;
  const int threads = int(h.props.warp_size) * 8, programs = 3;
  for (const char *type : {"i32", "i64"}) {
    std::string t = type;
    CAPTURE(t);
    size_t size = t == "i32" ? 4 : 8;
    const char *kinds[] = {"add", "and", "or", "xor", "max", "min", "umax", "umin", "xchg"};
    // Slot k gets, from every thread of every program, value = f(global id) under kind k.
    std::string text = "builtin.module ({\n  tt.func {num_threads = " + num(threads) +
                       ", sym_name = \"k\"} ({\n  ^(%slots: ptr<" + t + ">, %olds: ptr<" + t + ">):\n" + R"(    %pid = tt.get_program_id {axis = 0} : i32
    %n = arith.constant {value = )" + num(threads) + R"(} : i32
    %base = arith.muli %pid, %n : i32
    %tid = th.thread_id : i32
    %g = arith.addi %base, %tid : i32
    )" + (t == "i64" ? "%g64 = arith.extsi %g : i64" : "%g64 = arith.ori %g, %g : i32") + R"(
    %m = arith.constant {value = )" + num(t == "i64" ? int64_t(uint64_t(-7046029254386353131ll) * 2)
                                                     : int64_t(int32_t(uint32_t(-7046029254386353131ll)))) +
            "} : " + t + "\n";
    text += "    %v = arith.muli %g64, %m : " + t + "\n    %c9 = arith.constant {value = 9} : i32\n    %go = arith.muli %g, %c9 : i32\n";
    for (int k = 0; k < 9; ++k) {
      std::string s = num(k);
      text += "    %c" + s + "_ = arith.constant {value = " + s + "} : i32\n";
      text += "    %p" + s + " = tt.addptr %slots, %c" + s + "_ : ptr<" + t + ">\n";
      text += "    %r" + s + " = th.atomic_rmw %p" + s + ", %v {kind = \"" + kinds[k] +
              "\", scope = \"gpu\", sem = \"acq_rel\"} : " + t + "\n";
      text += "    %oi" + s + " = arith.addi %go, %c" + s + "_ : i32\n";
      text += "    %op" + s + " = tt.addptr %olds, %oi" + s + " : ptr<" + t + ">\n";
      text += "    th.store %op" + s + ", %r" + s + "\n";
    }
    text += "    tt.return\n  })\n})\n";
    int total = threads * programs;
    std::vector<int64_t> values(total);
    int64_t mul = t == "i64" ? int64_t(uint64_t(-7046029254386353131ll) * 2) : int64_t(int32_t(uint32_t(-7046029254386353131ll)));
    for (int g = 0; g < total; ++g)
      values[g] = t == "i64" ? int64_t(uint64_t(g) * uint64_t(mul)) : int64_t(int32_t(uint32_t(g) * uint32_t(mul)));
    std::vector<int64_t> initial = {5, -1, 0, 0x1234, INT64_MIN, INT64_MAX, 0, -1, 42};
    if (t == "i32")
      initial = {5, -1, 0, 0x1234, INT32_MIN, INT32_MAX, 0, -1, 42};
    std::vector<uint8_t> init(9 * size);
    for (int k = 0; k < 9; ++k)
      std::memcpy(init.data() + k * size, &initial[k], size);
    trident_devptr slots = h.upload(init), olds = h.upload(std::vector<uint8_t>(size_t(total) * 9 * size, 0));
    VulkanHarness::Kernel kern = h.load(text, "k");
    h.launch(kern, {uint32_t(programs), 1, 1}, {h.ptr(slots), h.ptr(olds)});
    std::vector<uint8_t> fin = h.download<uint8_t>(slots, 9 * size);
    auto read = [&](const uint8_t *p) {
      int64_t v = 0;
      std::memcpy(&v, p, size);
      if (size == 4)
        v = int32_t(v);
      return v;
    };
    auto u = [&](int64_t v) { return size == 4 ? uint64_t(uint32_t(v)) : uint64_t(v); };
    for (int k = 0; k < 9; ++k) {
      CAPTURE(kinds[k]);
      int64_t want = initial[k];
      for (int64_t v : values) {
        switch (k) {
        case 0: want = size == 4 ? int32_t(uint32_t(want) + uint32_t(v)) : int64_t(uint64_t(want) + uint64_t(v)); break;
        case 1: want &= v; break;
        case 2: want |= v; break;
        case 3: want ^= v; break;
        case 4: want = std::max(want, v); break;
        case 5: want = std::min(want, v); break;
        case 6: want = u(want) >= u(v) ? want : v; break;
        case 7: want = u(want) <= u(v) ? want : v; break;
        default: break;
        }
      }
      int64_t got = read(fin.data() + k * size);
      if (k == 8) { // exchange: the old values and the final one are the initial and every new value
        std::vector<uint8_t> o = h.download<uint8_t>(olds, size_t(total) * 9 * size);
        std::vector<int64_t> seen{got}, expected = values;
        for (int g = 0; g < total; ++g)
          seen.push_back(read(o.data() + (size_t(g) * 9 + 8) * size));
        expected.push_back(initial[8]);
        std::sort(seen.begin(), seen.end());
        std::sort(expected.begin(), expected.end());
        CHECK(seen == expected);
      } else {
        CHECK(got == want);
      }
    }
    h.unload(kern);
    h.free(slots);
    h.free(olds);
  }
}

TEST_CASE("float exchange and compare-and-swap compare bits") {
  VulkanHarness &h = *harness;
  // cas(slot, -0.0, 1.0) must fail on +0.0 and succeed on -0.0; xchg on f64 returns the old bits.
  std::string text = R"(builtin.module ({
  tt.func {num_threads = )" + num(h.props.warp_size) + R"(, sym_name = "k"} ({
  ^(%f: ptr<f32>, %d: ptr<f64>, %out: ptr<f32>):
    %t = th.thread_id : i32
    %c0 = arith.constant {value = 0} : i32
    %first = arith.cmpi %t, %c0 {predicate = "eq"} : i1
    %nz = arith.constant {value = -0.0} : f32
    %one = arith.constant {value = 1.0} : f32
    %c1 = arith.constant {value = 1} : i32
    %f1 = tt.addptr %f, %c1 : ptr<f32>
    %a = th.atomic_cas %f, %nz, %one, %first {scope = "gpu", sem = "acq_rel"} : f32
    %b = th.atomic_cas %f1, %nz, %one, %first {scope = "gpu", sem = "relaxed"} : f32
    %two = arith.constant {value = 2.5} : f64
    %c = th.atomic_rmw %d, %two, %first {kind = "xchg", scope = "gpu", sem = "acq_rel"} : f64
    %cf = arith.truncf %c : f32
    %o1 = tt.addptr %out, %c1 : ptr<f32>
    %c2 = arith.constant {value = 2} : i32
    %o2 = tt.addptr %out, %c2 : ptr<f32>
    th.store %out, %a, %first
    th.store %o1, %b, %first
    th.store %o2, %cf, %first
    tt.return
  })
})
)";
  trident_devptr f = h.upload(std::vector<float>{0.0f, -0.0f}), d = h.upload(std::vector<double>{-3.25}),
                 out = h.upload(std::vector<float>(3, 9.0f));
  VulkanHarness::Kernel k = h.load(text, "k");
  h.launch(k, {1, 1, 1}, {h.ptr(f), h.ptr(d), h.ptr(out)});
  std::vector<float> fs = h.download<float>(f, 2), o = h.download<float>(out, 3);
  CHECK(std::bit_cast<uint32_t>(fs[0]) == 0u); // +0.0 kept: the compare is on bits
  CHECK(fs[1] == 1.0f);
  CHECK(std::bit_cast<uint32_t>(o[0]) == 0u);
  CHECK(std::bit_cast<uint32_t>(o[1]) == 0x80000000u);
  CHECK(o[2] == -3.25f);
  CHECK(h.download<double>(d, 1)[0] == 2.5);
  h.unload(k);
  for (trident_devptr p : {f, d, out})
    h.free(p);
}
