// Hand-written thread-IR kernels run on the first Vulkan device through the
// plugin's C ABI and give the right results: vector add, a reduction with
// shuffles and shared memory, loops, atomics, arguments in a buffer, large grids.

#include "KernelFiles.h"
#include "VulkanHarness.h"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <cstring>
#include <random>

using namespace trident;
using namespace trident::test;

namespace trident::test {
extern VulkanHarness *harness;
}

namespace {

std::vector<float> randomFloats(size_t n, unsigned seed, float lo = -1, float hi = 1) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = d(gen);
  return v;
}

unsigned freshSeed() { return std::random_device()(); }

uint32_t ceilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

} // namespace

TEST_CASE("vector add, masked at a ragged end") {
  VulkanHarness &h = *harness;
  unsigned seed = freshSeed();
  CAPTURE(seed);
  const uint32_t n = 1000;
  std::vector<float> a = randomFloats(n, seed), b = randomFloats(n, seed + 1), poison(n + 64, NAN);
  trident_devptr da = h.upload(a), db = h.upload(b), dc = h.upload(poison);
  VulkanHarness::Kernel k = h.load(readKernelFile("vector_add.tir"), "vector_add");
  h.launch(k, {ceilDiv(n, 64), 1, 1}, {h.ptr(da), h.ptr(db), h.ptr(dc), h.i32(int32_t(n))});
  std::vector<float> c = h.download<float>(dc, n + 64);
  int bad = 0;
  for (uint32_t i = 0; i < n; ++i)
    bad += c[i] != a[i] + b[i];
  CHECK(bad == 0);
  int touched = 0;
  for (uint32_t i = n; i < n + 64; ++i)
    touched += !std::isnan(c[i]);
  CHECK(touched == 0);
  h.unload(k);
  for (trident_devptr p : {da, db, dc})
    h.free(p);
}

TEST_CASE("vector add with 16-byte accesses") {
  VulkanHarness &h = *harness;
  unsigned seed = freshSeed();
  CAPTURE(seed);
  const uint32_t n = 128 * 5 + 64;
  std::vector<float> a = randomFloats(n, seed), b = randomFloats(n, seed + 1), poison(n, NAN);
  trident_devptr da = h.upload(a), db = h.upload(b), dc = h.upload(poison);
  VulkanHarness::Kernel k = h.load(readKernelFile("vector_add4.tir"), "vector_add4");
  h.launch(k, {ceilDiv(n, 128), 1, 1}, {h.ptr(da), h.ptr(db), h.ptr(dc), h.i32(int32_t(n))});
  std::vector<float> c = h.download<float>(dc, n);
  int bad = 0;
  for (uint32_t i = 0; i < n; ++i)
    bad += c[i] != a[i] + b[i];
  CHECK(bad == 0);
  h.unload(k);
  for (trident_devptr p : {da, db, dc})
    h.free(p);
}

TEST_CASE("reduction with subgroup shuffles, shared memory and a float atomic") {
  VulkanHarness &h = *harness;
  unsigned seed = freshSeed();
  CAPTURE(seed);
  const uint32_t n = 5000;
  std::vector<float> x = randomFloats(n, seed, 0, 1);
  double ref = 0;
  for (float v : x)
    ref += v;
  trident_devptr dx = h.upload(x), dout = h.upload(std::vector<float>{0.0f});
  VulkanHarness::Kernel k = h.load(readKernelFile("reduce.tir"), "reduce");
  h.launch(k, {ceilDiv(n, 128), 1, 1}, {h.ptr(dx), h.ptr(dout), h.i32(int32_t(n)), h.i32(int32_t(h.props.warp_size))});
  float got = h.download<float>(dout, 1)[0];
  CHECK(std::abs(got - ref) / ref < 1e-5);
  h.unload(k);
  h.free(dx);
  h.free(dout);
}

TEST_CASE("loops with a branch inside") {
  VulkanHarness &h = *harness;
  unsigned seed = freshSeed();
  CAPTURE(seed);
  const uint32_t n = 777;
  std::vector<float> x = randomFloats(n, seed);
  trident_devptr dx = h.upload(x), dout = h.upload(std::vector<float>(n, NAN));
  VulkanHarness::Kernel k = h.load(readKernelFile("loop.tir"), "loop");
  h.launch(k, {ceilDiv(n, 64), 1, 1}, {h.ptr(dx), h.ptr(dout), h.i32(int32_t(n))});
  std::vector<float> out = h.download<float>(dout, n);
  double worst = 0;
  for (uint32_t i = 0; i < n; ++i) {
    double ref = 0;
    for (uint32_t k2 = 0; k2 < i % 7; ++k2)
      ref += (k2 & 1) ? double(x[i]) * k2 : -double(k2);
    worst = std::max(worst, std::abs(out[i] - ref));
  }
  CHECK(worst < 1e-5);
  h.unload(k);
  h.free(dx);
  h.free(dout);
}

TEST_CASE("loops that start below zero run every iteration") {
  VulkanHarness &h = *harness;
  VulkanHarness::Kernel k = h.load(readKernelFile("loop_bounds.tir"), "loop_bounds");
  struct Bounds {
    int32_t lb, ub, step;
  };
  for (Bounds b :
       {Bounds{-5, 6, 2}, Bounds{-3, 1, 1}, Bounds{4, -2, 1}, Bounds{-2147483647, -2147483640, 3}}) {
    CAPTURE(b.lb);
    CAPTURE(b.ub);
    CAPTURE(b.step);
    trident_devptr dout = h.upload(std::vector<int32_t>(8, -1));
    h.launch(k, {1, 1, 1}, {h.ptr(dout), h.i32(b.lb), h.i32(b.ub), h.i32(b.step)});
    std::vector<int32_t> out = h.download<int32_t>(dout, 8);
    int32_t trips = 0;
    uint32_t sum = 0; // wraps as the kernel's does
    for (int64_t i = b.lb; i < b.ub; i += b.step)
      ++trips, sum += uint32_t(i);
    CHECK(out[0] == 4); // -3..1
    CHECK(out[1] == -6);
    CHECK(out[2] == 4); // -7..5 by 3
    CHECK(out[3] == -10);
    CHECK(out[4] == trips);
    CHECK(uint32_t(out[5]) == sum);
    CHECK(out[6] == 4); // 0..4
    CHECK(out[7] == 6);
    h.free(dout);
  }
  h.unload(k);
}

TEST_CASE("integer, 64-bit, float and compare-and-swap atomics") {
  VulkanHarness &h = *harness;
  const uint32_t n = 1000; // 16 programs of 64, the last one partly masked
  trident_devptr counts = h.upload(std::vector<int32_t>{0, -1}), wide = h.upload(std::vector<int64_t>{1ll << 40}),
                 sums = h.upload(std::vector<float>{0.0f}), slots = h.upload(std::vector<int32_t>(16, 0));
  VulkanHarness::Kernel k = h.load(readKernelFile("atomics.tir"), "atomics");
  h.launch(k, {16, 1, 1}, {h.ptr(counts), h.ptr(wide), h.ptr(sums), h.ptr(slots), h.i32(int32_t(n))});
  std::vector<int32_t> c = h.download<int32_t>(counts, 2);
  CHECK(c[0] == int32_t(n));
  CHECK(c[1] == int32_t(n - 1));
  CHECK(h.download<int64_t>(wide, 1)[0] == (1ll << 40) + 3 * int64_t(n));
  CHECK(h.download<float>(sums, 1)[0] == 0.5f * n);
  std::vector<int32_t> s = h.download<int32_t>(slots, 16);
  for (int i = 0; i < 16; ++i) {
    CAPTURE(i);
    CHECK(s[i] >= 1);
    CHECK((s[i] - 1) % 16 == i); // a thread with i % 16 == slot won
  }
  h.unload(k);
  for (trident_devptr p : {counts, wide, sums, slots})
    h.free(p);
}

TEST_CASE("arguments beyond the push-constant limit travel in a buffer") {
  VulkanHarness &h = *harness;
  std::string params, body = "    %s0 = arith.addi %a0, %a0 : i64\n";
  int count = int(h.props.struct_size) > 0 ? 40 : 0; // 40 * 8 bytes: beyond any device's push constants
  for (int i = 0; i < count; ++i)
    params += ", %a" + std::to_string(i) + ": i64";
  for (int i = 1; i < count; ++i)
    body += "    %s" + std::to_string(i) + " = arith.addi %s" + std::to_string(i - 1) + ", %a" + std::to_string(i) +
            " : i64\n";
  std::string text = "builtin.module ({\n  tt.func {num_threads = " + std::to_string(h.props.warp_size) +
                     ", sym_name = \"many\"} ({\n  ^(%p: ptr<i64>" + params + "):\n" + body +
                     "    th.store %p, %s" + std::to_string(count - 1) + "\n    tt.return\n  })\n})\n";
  trident_devptr out = h.upload(std::vector<int64_t>{0});
  VulkanHarness::Kernel k = h.load(text, "many");
  std::vector<trident_kernel_arg> args{h.ptr(out)};
  int64_t ref = 0;
  for (int i = 0; i < count; ++i) {
    int64_t v = (int64_t(i) << 33) + i * 7 - 5;
    args.push_back(h.i64(v));
    ref += i == 0 ? 2 * v : v;
  }
  h.launch(k, {1, 1, 1}, args);
  CHECK(h.download<int64_t>(out, 1)[0] == ref);
  h.unload(k);
  h.free(out);
}

TEST_CASE("program ids of grids larger than one dispatch") {
  VulkanHarness &h = *harness;
  // out[pid1 * X + pid0] = pid0 + 100000 * pid1 + num_programs(0) - X; X is past lavapipe's 65535.
  const uint32_t x = 65536 + 37, y = 2;
  std::string text = "builtin.module ({\n  tt.func {num_threads = " + std::to_string(h.props.warp_size) +
                     R"(, sym_name = "ids"} ({
  ^(%out: ptr<i32>):
    %p0 = tt.get_program_id {axis = 0} : i32
    %p1 = tt.get_program_id {axis = 1} : i32
    %n0 = tt.get_num_programs {axis = 0} : i32
    %t = th.thread_id : i32
    %c0 = arith.constant {value = 0} : i32
    %first = arith.cmpi %t, %c0 {predicate = "eq"} : i1
    %row = arith.muli %p1, %n0 : i32
    %i = arith.addi %row, %p0 : i32
    %big = arith.constant {value = 100000} : i32
    %v1 = arith.muli %p1, %big : i32
    %v2 = arith.addi %v1, %p0 : i32
    %cx = arith.constant {value = )" + std::to_string(x) + R"(} : i32
    %d = arith.subi %n0, %cx : i32
    %v = arith.addi %v2, %d : i32
    %p = tt.addptr %out, %i : ptr<i32>
    th.store %p, %v, %first
    tt.return
  })
})
)";
  trident_devptr out = h.upload(std::vector<int32_t>(size_t(x) * y, -1));
  VulkanHarness::Kernel k = h.load(text, "ids");
  h.launch(k, {x, y, 1}, {h.ptr(out)});
  std::vector<int32_t> v = h.download<int32_t>(out, size_t(x) * y);
  int bad = 0;
  for (uint32_t j = 0; j < y; ++j)
    for (uint32_t i = 0; i < x; ++i)
      bad += v[size_t(j) * x + i] != int32_t(i + 100000 * j);
  CHECK(bad == 0);
  h.unload(k);
  h.free(out);
}

TEST_CASE("copies, fills and events") {
  VulkanHarness &h = *harness;
  std::vector<uint8_t> bytes(1000);
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = uint8_t(i * 7);
  trident_devptr a = h.upload(bytes), b = h.alloc(1000);
  CHECK(a % 256 == 0);
  CHECK(b % 256 == 0);
  h.check(h.api->memcpy_dtod(h.stream, b, a, 1000), "memcpy_dtod");
  CHECK(h.download<uint8_t>(b, 1000) == bytes);
  // Overlapping copy inside one allocation moves like memmove.
  h.check(h.api->memcpy_dtod(h.stream, a + 1, a, 500), "memcpy_dtod");
  std::vector<uint8_t> moved = bytes;
  std::memmove(moved.data() + 1, moved.data(), 500);
  CHECK(h.download<uint8_t>(a, 1000) == moved);
  // Fills of 1, 2 and 4 bytes, aligned and not.
  h.check(h.api->mem_fill(h.stream, b, 0xab, 1, 1000), "mem_fill");
  CHECK(h.download<uint8_t>(b, 1000) == std::vector<uint8_t>(1000, 0xab));
  h.check(h.api->mem_fill(h.stream, b + 2, 0x1234, 2, 3), "mem_fill");
  std::vector<uint8_t> want(1000, 0xab);
  for (int i = 0; i < 3; ++i) {
    want[2 + 2 * i] = 0x34;
    want[3 + 2 * i] = 0x12;
  }
  CHECK(h.download<uint8_t>(b, 1000) == want);
  h.check(h.api->mem_fill(h.stream, b + 8, 0xdeadbeef, 4, 2), "mem_fill");
  uint32_t words[2];
  std::memcpy(words, h.download<uint8_t>(b, 16).data() + 8, 8);
  CHECK(words[0] == 0xdeadbeefu);
  CHECK(words[1] == 0xdeadbeefu);
  // Out of range.
  CHECK(h.api->memcpy_htod(h.stream, b + 900, bytes.data(), 200) == TRIDENT_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(h.api->last_error()).find("is not inside one allocation") != std::string::npos);

  trident_event start, end;
  h.check(h.api->event_create(h.device, &start), "event_create");
  h.check(h.api->event_create(h.device, &end), "event_create");
  h.check(h.api->event_record(start, h.stream), "event_record");
  h.check(h.api->mem_fill(h.stream, b, 0, 4, 250), "mem_fill");
  h.check(h.api->event_record(end, h.stream), "event_record");
  h.check(h.api->event_synchronize(end), "event_synchronize");
  float ms = -1;
  h.check(h.api->event_elapsed_ms(start, end, &ms), "event_elapsed_ms");
  CHECK(ms >= 0);
  CHECK(ms < 10000);
  // Recorded again: after its last recording ran (its query reset from the host), and
  // twice in one open batch (reset by a command there; the validation layer of the
  // test command aborts on a timestamp written to a query not reset).
  for (int again = 0; again < 2; ++again) {
    h.check(h.api->event_record(start, h.stream), "event_record");
    if (again)
      h.check(h.api->event_record(start, h.stream), "event_record");
    h.check(h.api->mem_fill(h.stream, b, again, 4, 250), "mem_fill");
    h.check(h.api->event_record(end, h.stream), "event_record");
    ms = -1;
    h.check(h.api->event_elapsed_ms(start, end, &ms), "event_elapsed_ms");
    CHECK(ms >= 0);
    CHECK(ms < 10000);
  }
  h.api->event_destroy(start);
  h.api->event_destroy(end);
  h.free(a);
  h.free(b);
}

TEST_CASE("launch and load errors are statuses with messages") {
  VulkanHarness &h = *harness;
  VulkanHarness::Kernel k = h.load(readKernelFile("vector_add.tir"), "vector_add");
  trident_devptr p = h.alloc(256);
  CHECK(h.tryLaunch(k, {1, 1, 1}, {h.ptr(p), h.ptr(p), h.ptr(p), h.f32(1.0f)}) == TRIDENT_ERROR_INVALID_ARGUMENT);
  CHECK(h.error() == "argument 3 of kernel 'vector_add' expects i32 but the launch passes f32");
  CHECK(h.tryLaunch(k, {1, 1, 1}, {h.ptr(p)}) == TRIDENT_ERROR_INVALID_ARGUMENT);
  CHECK(h.error() == "kernel 'vector_add' takes 4 runtime arguments, the launch passes 1");
  CHECK(h.tryLaunch(k, {1, 0, 1}, {h.ptr(p), h.ptr(p), h.ptr(p), h.i32(1)}) == TRIDENT_ERROR_INVALID_ARGUMENT);
  CHECK(h.error() == "grid dimension 1 is 0");
  trident_kernel other = nullptr;
  CHECK(h.api->module_get_kernel(k.module, "vector_sub", &other) == TRIDENT_ERROR_NOT_FOUND);
  CHECK(h.error() == "the module has no kernel 'vector_sub'");
  CHECK(other == nullptr);
  h.unload(k);
  h.free(p);

  trident_module m = nullptr;
  const char junk[] = "not a kernel";
  CHECK(h.api->module_load(h.device, junk, sizeof junk, &m) == TRIDENT_ERROR_INVALID_ARGUMENT);
  CHECK(h.error() == "not a Trident Vulkan binary");

  trident_compile_options o{};
  o.struct_size = sizeof o;
  trident_binary b{};
  b.struct_size = sizeof b;
  std::string ir = readKernelFile("vector_add.tir");
  CHECK(h.api->compile(h.ctx, "vulkan:no such device", ir.data(), ir.size(), "vector_add", &o, &b) ==
        TRIDENT_ERROR_NOT_SUPPORTED);
  CHECK(h.api->supports_target(h.ctx, h.props.target) == TRIDENT_SUCCESS);
  CHECK(h.api->supports_target(h.ctx, "vulkan") == TRIDENT_SUCCESS);
  CHECK(h.api->supports_target(h.ctx, "cuda:sm_90") == TRIDENT_ERROR_NOT_SUPPORTED);
  o.emit = "ptx";
  CHECK(h.api->compile(h.ctx, h.props.target, ir.data(), ir.size(), "vector_add", &o, &b) ==
        TRIDENT_ERROR_NOT_SUPPORTED);
}

TEST_CASE("emit kinds: spirv words, disassembly, thread IR") {
  VulkanHarness &h = *harness;
  std::string ir = readKernelFile("vector_add.tir");
  std::vector<uint8_t> words = h.compile(ir, "vector_add", "spirv");
  REQUIRE(words.size() % 4 == 0);
  uint32_t magic;
  std::memcpy(&magic, words.data(), 4);
  CHECK(magic == 0x07230203u);
  std::vector<uint8_t> text = h.compile(ir, "vector_add", "spirv-asm");
  CHECK(std::string(text.begin(), text.end()).find("OpEntryPoint GLCompute %vector_add \"vector_add\"") !=
        std::string::npos);
  std::vector<uint8_t> generic = h.compile(ir, "vector_add", "spirv-asm", 0, "vulkan");
  CHECK(!generic.empty());
  std::vector<uint8_t> thread = h.compile(ir, "vector_add", "thread-ir");
  CHECK(std::string(thread.begin(), thread.end()).find("th.load") != std::string::npos);
}

// The generic target lowers for subgroups of 32. A kernel whose SPIR-V does not depend
// on the subgroup size (vector add: no subgroup operation, built-in or barrier) loads
// and runs on any device, lavapipe's 8 included; one that does (softmax's reductions
// shuffle within subgroups) runs where 32 can be had and is refused elsewhere with
// the reason and the target to use.
TEST_CASE("generic-target kernels on the device's subgroup size") {
  VulkanHarness &h = *harness;
  CAPTURE(h.props.name);
  CAPTURE(h.props.warp_size);
  auto readSimtKernel = [](const char *name) {
    std::ifstream in(std::string(TRIDENT_SIMT_KERNELS_DIR) + "/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  std::string addIR = readSimtKernel("vector_add.ttir");
  REQUIRE(!addIR.empty());
  std::vector<uint8_t> add = h.compile(addIR, "add_kernel", nullptr, 4, "vulkan");
  VulkanHarness::Kernel k = h.loadBinary(add, "add_kernel");
  const uint32_t n = 3000;
  std::vector<float> a = randomFloats(n, 7), b = randomFloats(n, 8), zero(n, 0.0f);
  trident_devptr da = h.upload(a), db = h.upload(b), dc = h.upload(zero);
  h.launch(k, {ceilDiv(n, 1024), 1, 1}, {h.ptr(da), h.ptr(db), h.ptr(dc), h.i32(int32_t(n))});
  std::vector<float> c = h.download<float>(dc, n);
  int bad = 0;
  for (uint32_t i = 0; i < n; ++i)
    bad += c[i] != a[i] + b[i];
  CHECK(bad == 0);
  h.unload(k);

  std::string softmaxIR = readSimtKernel("softmax.ttir");
  REQUIRE(!softmaxIR.empty());
  std::vector<uint8_t> softmax = h.compile(softmaxIR, "softmax_kernel", nullptr, 4, "vulkan");
  trident_module module = nullptr;
  trident_status s = h.api->module_load(h.device, softmax.data(), softmax.size(), &module);
  bool lavapipe = std::string(h.props.name).find("llvmpipe") != std::string::npos;
  if (s == TRIDENT_SUCCESS) {
    CHECK_FALSE(lavapipe); // 8 wide, fixed
    MESSAGE("the generic softmax loads here (the device runs subgroups of 32)");
    CHECK(h.api->module_unload(module) == TRIDENT_SUCCESS);
  } else {
    CHECK(s == TRIDENT_ERROR_NOT_SUPPORTED);
    std::string e = h.error();
    CHECK(e.find("kernel 'softmax_kernel' was compiled for subgroups of 32 and depends on their size (it has "
                 "subgroup operations") != std::string::npos);
    CHECK(e.find("(--target vulkan:0)") != std::string::npos);
    // Its own target works.
    VulkanHarness::Kernel own = h.load(softmaxIR, "softmax_kernel", 4);
    h.unload(own);
  }
  for (trident_devptr p : {da, db, dc})
    h.free(p);
}
