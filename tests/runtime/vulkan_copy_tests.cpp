// Device-to-device copies and fills on vulkan:0 (lavapipe here): large aligned
// ranges run as compute kernels (plugins/vulkan/VulkanCopy.cpp), the rest as
// transfer commands. Every case checks the bytes exactly, on random data, and
// that the bytes around the range are untouched; the plugin's test-only counter
// trident_vulkan_copy_kernel_launches says which path each case took. The plugin
// uses the kernels on GPUs only; main sets TRIDENT_VULKAN_COPY_KERNEL=1 so that
// they run on lavapipe too. Exits 77 (a skip CTest reports) without a Vulkan device.

#define DOCTEST_CONFIG_IMPLEMENT
#include "VulkanHarness.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <random>

using trident::test::VulkanHarness;

namespace {

VulkanHarness &harness() {
  static VulkanHarness h(TRIDENT_VULKAN_PLUGIN);
  return h;
}

// Kernel-path dispatches so far (all devices).
uint64_t kernelLaunches() {
  using Fn = uint64_t (*)();
  static Fn fn = reinterpret_cast<Fn>(dlsym(harness().lib, "trident_vulkan_copy_kernel_launches"));
  bool exported = fn != nullptr;
  REQUIRE(exported);
  return fn();
}

std::vector<uint8_t> randomBytes(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (uint8_t &b : v)
    b = uint8_t(rng());
  return v;
}

constexpr size_t kKernelMin = 64 << 10; // kMinKernelBytes of the plugin

// A device buffer of `bytes` random bytes and its host copy, which each operation
// below updates as the device should.
struct Mirror {
  VulkanHarness &h;
  trident_devptr ptr;
  std::vector<uint8_t> host;
  Mirror(VulkanHarness &harness, size_t bytes, unsigned seed)
      : h(harness), ptr(harness.upload(randomBytes(bytes, seed))), host(randomBytes(bytes, seed)) {}
  ~Mirror() { h.free(ptr); }
  // The device's bytes equal the mirror's, every one (guards around a range included).
  void check(const char *what) {
    std::vector<uint8_t> back = h.download<uint8_t>(ptr, host.size());
    size_t bad = 0, first = host.size();
    for (size_t i = 0; i < host.size(); ++i)
      if (back[i] != host[i] && bad++ == 0)
        first = i;
    INFO(what << ": " << bad << " bytes differ, the first at " << first);
    CHECK(bad == 0);
  }
};

// Copies `bytes` from src+srcOff to dst+dstOff on the device and in the mirrors.
void copy(Mirror &dst, size_t dstOff, Mirror &src, size_t srcOff, size_t bytes) {
  VulkanHarness &h = dst.h;
  h.check(h.api->memcpy_dtod(h.stream, dst.ptr + dstOff, src.ptr + srcOff, bytes), "memcpy_dtod");
  std::vector<uint8_t> part(src.host.begin() + long(srcOff), src.host.begin() + long(srcOff + bytes));
  std::copy(part.begin(), part.end(), dst.host.begin() + long(dstOff));
}

// Fills `count` patterns of `size` bytes from dst+off on the device and in the mirror.
void fill(Mirror &dst, size_t off, uint32_t pattern, uint32_t size, size_t count) {
  VulkanHarness &h = dst.h;
  h.check(h.api->mem_fill(h.stream, dst.ptr + off, pattern, size, count), "mem_fill");
  for (size_t i = 0; i < count; ++i)
    std::memcpy(dst.host.data() + off + i * size, &pattern, size);
}

} // namespace

TEST_CASE("large aligned copies run as kernels and are exact, leaving the bytes around them") {
  VulkanHarness &h = harness();
  struct Case {
    size_t dstOff, srcOff, bytes;
  };
  // Offsets are multiples of 16 (the allocations are 256-aligned); sizes of
  // multiples of 16 and with a 4..12-byte tail that a transfer copies.
  for (Case c : {Case{0, 0, kKernelMin}, Case{16, 48, size_t(1) << 20}, Case{256, 16, (size_t(1) << 20) + 4},
                 Case{32, 0, (size_t(3) << 20) + 12}, Case{4096, 8192, (size_t(1) << 20) + 1027 * 16}}) {
    CAPTURE(c.dstOff);
    CAPTURE(c.srcOff);
    CAPTURE(c.bytes);
    Mirror src(h, c.srcOff + c.bytes + 512, unsigned(c.bytes)), dst(h, c.dstOff + c.bytes + 512, unsigned(c.bytes) + 1);
    uint64_t before = kernelLaunches();
    copy(dst, c.dstOff, src, c.srcOff, c.bytes);
    CHECK(kernelLaunches() == before + 1);
    dst.check("aligned copy");
    src.check("its source");
  }
}

TEST_CASE("counts larger than one dispatch are split into several, each exact") {
  VulkanHarness &h = harness();
  struct ChunkOverride { // words per dispatch, as if 2^30 were 4096
    ChunkOverride() { setenv("TRIDENT_VULKAN_COPY_CHUNK", "4096", 1); }
    ~ChunkOverride() { unsetenv("TRIDENT_VULKAN_COPY_CHUNK"); }
  } chunk;
  size_t bytes = (size_t(1) << 20) + 16;          // 65 dispatches: 64 of 4096 words and one of 4
  Mirror src(h, bytes + 64, 7), dst(h, bytes + 64, 8);
  uint64_t before = kernelLaunches();
  copy(dst, 32, src, 16, bytes);
  CHECK(kernelLaunches() == before + 65);
  dst.check("split copy");
  before = kernelLaunches();
  fill(dst, 16, 0x9e3779b9u, 4, bytes / 4);
  CHECK(kernelLaunches() == before + 65);
  dst.check("split fill");
}

TEST_CASE("unaligned, odd-sized and small copies take transfers and are exact") {
  VulkanHarness &h = harness();
  struct Case {
    size_t dstOff, srcOff, bytes;
  };
  for (Case c : {Case{1, 0, kKernelMin * 2}, Case{0, 4, kKernelMin * 2}, Case{8, 24, (size_t(1) << 20) + 3},
                 Case{3, 7, 100003}, Case{0, 0, kKernelMin - 16}, Case{16, 32, 1000}, Case{5, 9, 1}}) {
    CAPTURE(c.dstOff);
    CAPTURE(c.srcOff);
    CAPTURE(c.bytes);
    Mirror src(h, c.srcOff + c.bytes + 100, unsigned(c.bytes) + 2), dst(h, c.dstOff + c.bytes + 100, unsigned(c.bytes) + 3);
    uint64_t before = kernelLaunches();
    copy(dst, c.dstOff, src, c.srcOff, c.bytes);
    CHECK(kernelLaunches() == before);
    dst.check("transfer copy");
  }
}

TEST_CASE("overlapping copies in one buffer are exact; adjacent ones take the kernel") {
  VulkanHarness &h = harness();
  size_t bytes = size_t(1) << 20;
  for (long shift : {4096L, -4096L, 16L, -16L, 0L}) {
    CAPTURE(shift);
    Mirror m(h, bytes + 2 * 8192, unsigned(shift + 100000));
    size_t src = 8192, dst = size_t(long(src) + shift);
    uint64_t before = kernelLaunches();
    copy(m, dst, m, src, bytes); // Mirror::copy reads the source range before writing: a memmove
    CHECK(kernelLaunches() == before);
    m.check("overlapping copy");
  }
  Mirror m(h, 2 * bytes + 512, 11);
  uint64_t before = kernelLaunches();
  copy(m, 256 + bytes, m, 256, bytes); // touching, not overlapping
  CHECK(kernelLaunches() == before + 1);
  m.check("adjacent copy");
}

TEST_CASE("fills of 1, 2 and 4-byte patterns, as kernels and as transfers, leave the bytes around them") {
  VulkanHarness &h = harness();
  struct Case {
    size_t off;
    uint32_t size;
    size_t count;
    bool kernel;
  };
  const size_t big = (size_t(1) << 20) + 16;
  for (Case c : {Case{0, 1, big, true}, Case{16, 1, big + 7, true}, Case{32, 2, big / 2 + 5, true},
                 Case{256, 4, big / 4 + 3, true}, Case{48, 4, kKernelMin / 4, true}, Case{1, 1, big, false},
                 Case{2, 2, big / 2, false}, Case{4, 4, big / 4, false}, Case{16, 4, kKernelMin / 4 - 4, false},
                 Case{3, 1, 13, false}, Case{6, 2, 7, false}}) {
    CAPTURE(c.off);
    CAPTURE(c.size);
    CAPTURE(c.count);
    Mirror m(h, c.off + c.count * c.size + 300, unsigned(c.count));
    uint32_t pattern = c.size == 1 ? 0xa5u : c.size == 2 ? 0xbeefu : 0x01c0ffeeu;
    uint64_t before = kernelLaunches();
    fill(m, c.off, pattern | 0x77000000u * (c.size < 4), c.size, c.count); // bits past the pattern are ignored
    CHECK(kernelLaunches() == before + (c.kernel ? 1 : 0));
    m.check("fill");
  }
}

TEST_CASE("by default the kernels run on GPUs only; TRIDENT_VULKAN_COPY_KERNEL=0 turns them off") {
  VulkanHarness &h = harness();
  struct Knob { // main sets it to 1; restored after this case
    explicit Knob(const char *v) {
      if (v)
        setenv("TRIDENT_VULKAN_COPY_KERNEL", v, 1);
      else
        unsetenv("TRIDENT_VULKAN_COPY_KERNEL");
    }
    ~Knob() { setenv("TRIDENT_VULKAN_COPY_KERNEL", "1", 1); }
  };
  bool gpu = (h.props.flags & TRIDENT_DEVICE_IS_GPU) != 0;
  size_t bytes = size_t(1) << 20;
  for (const char *v : {static_cast<const char *>(nullptr), "0"}) {
    CAPTURE((v ? v : "unset"));
    Knob knob(v);
    Mirror src(h, bytes, 21), dst(h, bytes, 22);
    uint64_t before = kernelLaunches();
    copy(dst, 0, src, 0, bytes);
    fill(src, 0, 0x5au, 1, bytes);
    CHECK(kernelLaunches() == before + (v == nullptr && gpu ? 2 : 0));
    dst.check("copy");
    src.check("fill");
  }
}

TEST_CASE("kernel copies and fills are ordered after the kernels before them and before the ones after") {
  VulkanHarness &h = harness();
  const char *iota = R"(builtin.module ({
  tt.func {arg_divisibility = [1, 1, 1], sym_name = "iota_kernel"} ({
  ^(%0: ptr<i32>, %1: i32, %2: i32):
    %3 = tt.get_program_id {axis = 0} : i32
    %4 = arith.constant {value = 256} : i32
    %5 = arith.muli %3, %4 : i32
    %6 = tt.make_range {end = 256, start = 0} : block<256xi32>
    %7 = tt.splat %5 : block<256xi32>
    %8 = arith.addi %7, %6 : block<256xi32>
    %9 = tt.splat %2 : block<256xi32>
    %10 = arith.cmpi %8, %9 {predicate = "slt"} : block<256xi1>
    %11 = tt.splat %0 : block<256xptr<i32>>
    %12 = tt.addptr %11, %8 : block<256xptr<i32>>
    %13 = arith.constant {value = 3} : block<256xi32>
    %14 = arith.muli %8, %13 : block<256xi32>
    %15 = tt.splat %1 : block<256xi32>
    %16 = arith.addi %14, %15 : block<256xi32>
    tt.store %12, %16, %10
    tt.return
  })
})
)";
  const char *addOne = R"(builtin.module ({
  tt.func {arg_divisibility = [1, 1, 1], sym_name = "add_one_kernel"} ({
  ^(%0: ptr<i32>, %1: ptr<i32>, %2: i32):
    %3 = tt.get_program_id {axis = 0} : i32
    %4 = arith.constant {value = 256} : i32
    %5 = arith.muli %3, %4 : i32
    %6 = tt.make_range {end = 256, start = 0} : block<256xi32>
    %7 = tt.splat %5 : block<256xi32>
    %8 = arith.addi %7, %6 : block<256xi32>
    %9 = tt.splat %2 : block<256xi32>
    %10 = arith.cmpi %8, %9 {predicate = "slt"} : block<256xi1>
    %11 = tt.splat %0 : block<256xptr<i32>>
    %12 = tt.addptr %11, %8 : block<256xptr<i32>>
    %13 = tt.splat %1 : block<256xptr<i32>>
    %14 = tt.addptr %13, %8 : block<256xptr<i32>>
    %15 = tt.load %14, %10 : block<256xi32>
    %16 = arith.constant {value = 1} : block<256xi32>
    %17 = arith.addi %15, %16 : block<256xi32>
    tt.store %12, %17, %10
    tt.return
  })
})
)";
  VulkanHarness::Kernel iotaK = h.load(iota, "iota_kernel"), addK = h.load(addOne, "add_one_kernel");
  const int32_t n = 1 << 18; // 1 MiB of i32
  const uint32_t grid = uint32_t(n / 256);
  trident_devptr a = h.alloc(size_t(n) * 4), b = h.alloc(size_t(n) * 4), c = h.alloc(size_t(n) * 4);
  uint64_t before = kernelLaunches();
  // Nothing waits between the steps: only the stream's barriers order them.
  for (int32_t round = 0; round < 3; ++round) {
    int32_t seed = 1000 * round + 17;
    h.launch(iotaK, {grid, 1, 1}, {VulkanHarness::ptr(a), VulkanHarness::i32(seed), VulkanHarness::i32(n)});
    h.check(h.api->memcpy_dtod(h.stream, b, a, size_t(n) * 4), "memcpy_dtod"); // reads what iota wrote
    h.launch(addK, {grid, 1, 1}, {VulkanHarness::ptr(c), VulkanHarness::ptr(b), VulkanHarness::i32(n)});
    h.check(h.api->mem_fill(h.stream, b, 0xdeadbeefu, 4, size_t(n)), "mem_fill"); // after add_one read b
    h.launch(addK, {grid, 1, 1}, {VulkanHarness::ptr(a), VulkanHarness::ptr(b), VulkanHarness::i32(n)});
  }
  std::vector<int32_t> outC = h.download<int32_t>(c, size_t(n)), outA = h.download<int32_t>(a, size_t(n));
  CHECK(kernelLaunches() == before + 6);
  size_t badC = 0, badA = 0;
  for (int32_t i = 0; i < n; ++i) {
    badC += outC[size_t(i)] != i * 3 + 2017 + 1;
    badA += outA[size_t(i)] != int32_t(0xdeadbeefu + 1u);
  }
  CHECK(badC == 0);
  CHECK(badA == 0);
  h.free(a);
  h.free(b);
  h.free(c);
  h.unload(iotaK);
  h.unload(addK);
}

int main(int argc, char **argv) {
  try {
    if (!harness().hasDevice()) {
      std::printf("skipped: no Vulkan device (%s)\n", harness().noDeviceReason.c_str());
      return 77;
    }
  } catch (const std::exception &e) { // the plugin does not load: a failure, not a skip
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  // lavapipe is a CPU device, where the plugin keeps transfers unless told otherwise.
  setenv("TRIDENT_VULKAN_COPY_KERNEL", "1", 1);
  doctest::Context context(argc, argv);
  return context.run();
}
