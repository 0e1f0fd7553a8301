// The SPIR-V of hand-written thread-IR kernels is valid for Vulkan 1.2 (SPIRV-Tools'
// validator), uses what it should, and constructs the backend cannot translate
// give diagnostics.

#include "CoopMatmulKernel.h"
#include "KernelFiles.h"

#include "trident/backends/spirv/CodeGen.h"
#include "trident/backends/spirv/Tools.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"

#include <doctest/doctest.h>

using namespace trident;
using namespace trident::spirv;

namespace {

DeviceInfo lavapipeLike() {
  DeviceInfo d = genericDevice();
  d.name = "vulkan:test (subgroups of 8)";
  d.subgroupSize = 8;
  d.sharedMemoryBytes = 32768;
  d.features |= kShaderBufferFloat32AtomicAdd;
  return d;
}

std::optional<SpirvKernel> compileFile(const std::string &file, const std::string &kernel, const DeviceInfo &device,
                                       Diagnostics &diags, bool optimize = false) {
  std::optional<Module> m = test::parseKernelFile(file, diags);
  REQUIRE_MESSAGE(m, diags.str());
  REQUIRE_MESSAGE(verify(*m, diags), diags.str());
  SpirvOptions options;
  options.optimize = optimize;
  return compileToSpirv(*m, kernel, device, options, diags);
}

std::optional<SpirvKernel> compileText(const std::string &text, const DeviceInfo &device, Diagnostics &diags) {
  std::optional<Module> m = parseModule(text, "<test>", diags);
  REQUIRE_MESSAGE(m, diags.str());
  REQUIRE_MESSAGE(verify(*m, diags), diags.str());
  return compileToSpirv(*m, "k", device, SpirvOptions{}, diags);
}

bool contains(const std::string &text, const std::string &what) { return text.find(what) != std::string::npos; }

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
    ++n;
  return n;
}

} // namespace

TEST_CASE("hand-written kernels give valid SPIR-V for every device description") {
  const std::pair<const char *, const char *> kernels[] = {{"vector_add.tir", "vector_add"},
                                                           {"vector_add4.tir", "vector_add4"},
                                                           {"reduce.tir", "reduce"},
                                                           {"loop.tir", "loop"},
                                                           {"atomics.tir", "atomics"}};
  for (const DeviceInfo &device : {lavapipeLike(), genericDevice()}) {
    for (bool optimize : {false, true}) {
      for (const auto &[file, kernel] : kernels) {
        CAPTURE(file);
        CAPTURE(device.name);
        CAPTURE(optimize);
        Diagnostics diags;
        std::optional<SpirvKernel> k = compileFile(file, kernel, device, diags, optimize);
        REQUIRE_MESSAGE(k, diags.str());
        CHECK(validate(k->words) == "");
        CHECK(k->words.at(0) == 0x07230203u);
        CHECK(k->interface.name == kernel);
        CHECK(k->interface.subgroupSize == device.subgroupSize);
        CHECK(contains(disassemble(k->words), "OpEntryPoint GLCompute"));
      }
    }
  }
}

TEST_CASE("vector add: addresses become PhysicalStorageBuffer pointers, arguments push constants") {
  Diagnostics diags;
  std::optional<SpirvKernel> k = compileFile("vector_add.tir", "vector_add", lavapipeLike(), diags);
  REQUIRE_MESSAGE(k, diags.str());
  std::string text = disassemble(k->words);
  CHECK(contains(text, "OpMemoryModel PhysicalStorageBuffer64 GLSL450"));
  CHECK(contains(text, "OpConvertUToPtr"));
  CHECK(contains(text, "Aligned 4"));
  CHECK(contains(text, "LocalSize 64 1 1"));
  CHECK(contains(text, "OpSelectionMerge")); // the masked accesses
  CHECK_FALSE(contains(text, "Float16"));
  const KernelInterface &i = k->interface;
  CHECK(i.numThreads == 64);
  CHECK_FALSE(i.argsInBuffer);
  REQUIRE(i.args.size() == 4);
  CHECK(i.args[0].kind == ArgKind::Pointer);
  CHECK(i.args[0].offset == kHeaderBytes);
  CHECK(i.args[2].offset == kHeaderBytes + 16);
  CHECK(i.args[3].kind == ArgKind::I32);
  CHECK(i.args[3].offset == kHeaderBytes + 24);
  CHECK(i.pushConstantBytes == 56);
  CHECK((i.requiredFeatures & kShaderInt64) != 0);
  CHECK((i.requiredFeatures & (kShaderFloat16 | kShaderInt8 | kShaderFloat64)) == 0);
}

TEST_CASE("vector accesses of four floats are one 16-byte load") {
  Diagnostics diags;
  std::optional<SpirvKernel> k = compileFile("vector_add4.tir", "vector_add4", lavapipeLike(), diags);
  REQUIRE_MESSAGE(k, diags.str());
  std::string text = disassemble(k->words);
  CHECK(contains(text, "Aligned 16"));
  CHECK(contains(text, "v4float"));
}

TEST_CASE("reduction: subgroup shuffles, workgroup memory, barrier, loops, float atomics") {
  Diagnostics diags;
  std::optional<SpirvKernel> k = compileFile("reduce.tir", "reduce", lavapipeLike(), diags);
  REQUIRE_MESSAGE(k, diags.str());
  std::string text = disassemble(k->words);
  CHECK(contains(text, "OpGroupNonUniformShuffleXor"));
  CHECK(contains(text, "OpControlBarrier"));
  CHECK(contains(text, "Workgroup"));
  CHECK(contains(text, "OpLoopMerge"));
  CHECK(contains(text, "OpAtomicFAddEXT"));
  CHECK(k->interface.sharedBytes == 512);
  CHECK(contains(text, "OpName %shared \"shared\"")); // one packed u32 array
  CHECK((k->interface.requiredFeatures & kShaderBufferFloat32AtomicAdd) != 0);
  CHECK((k->interface.requiredFeatures & kSubgroupShuffle) != 0);

  // Without the float-atomic feature: a compare-exchange loop.
  DeviceInfo plain = lavapipeLike();
  plain.features &= ~uint64_t(kShaderBufferFloat32AtomicAdd);
  k = compileFile("reduce.tir", "reduce", plain, diags);
  REQUIRE_MESSAGE(k, diags.str());
  text = disassemble(k->words);
  CHECK_FALSE(contains(text, "OpAtomicFAddEXT"));
  CHECK(contains(text, "OpAtomicCompareExchange"));
  CHECK((k->interface.requiredFeatures & kShaderBufferFloat32AtomicAdd) == 0);
}

TEST_CASE("64-bit atomics need shaderBufferInt64Atomics") {
  Diagnostics diags;
  std::optional<SpirvKernel> k = compileFile("atomics.tir", "atomics", lavapipeLike(), diags);
  REQUIRE_MESSAGE(k, diags.str());
  CHECK((k->interface.requiredFeatures & kShaderBufferInt64Atomics) != 0);
  CHECK(featureNames(kShaderBufferInt64Atomics | kShaderFloat16) == "shaderFloat16, shaderBufferInt64Atomics");
}

TEST_CASE("arguments beyond the push-constant limit go to a buffer") {
  std::string params, uses;
  for (int i = 0; i < 20; ++i)
    params += std::string(i ? ", " : "") + "%a" + std::to_string(i) + ": i64";
  std::string text = "builtin.module ({\n tt.func {num_threads = 8, sym_name = \"k\"} ({\n ^(%p: ptr<i64>, " + params +
                     "):\n  %s = arith.addi %a0, %a19 : i64\n  th.store %p, %s\n  tt.return\n })\n})\n";
  Diagnostics diags;
  DeviceInfo device = lavapipeLike();
  std::optional<SpirvKernel> k = compileText(text, device, diags);
  REQUIRE_MESSAGE(k, diags.str());
  CHECK(k->interface.argsInBuffer);
  CHECK(k->interface.pushConstantBytes == kArgBufferAddressOffset + 8);
  CHECK(k->interface.argBufferBytes == 21 * 8);
  CHECK(k->interface.args.at(20).offset == 160);
  CHECK(validate(k->words) == "");
  device.pushConstantBytes = 256;
  k = compileText(text, device, diags);
  REQUIRE_MESSAGE(k, diags.str());
  CHECK_FALSE(k->interface.argsInBuffer);
}

TEST_CASE("narrow and wide types: capabilities follow use") {
  const char *text = R"(builtin.module ({
  tt.func {num_threads = 8, sym_name = "k"} ({
  ^(%h: ptr<f16>, %b: ptr<bf16>, %q: ptr<i8>, %d: ptr<f64>, %x: f16, %y: bf16):
    %v = th.load %h : vector<8xf16>
    %w = th.load %b : vector<2xbf16>
    %c = th.load %q : vector<16xi8>
    %h0 = th.extract %v {index = 7} : f16
    %w1 = th.extract %w {index = 1} : bf16
    %c3 = th.extract %c {index = 3} : i8
    %s = arith.addf %h0, %x : f16
    %t = arith.mulf %w1, %y : bf16
    %f = arith.extf %t : f32
    %g = arith.extf %s : f32
    %e = arith.sitofp %c3 : f32
    %u = arith.addf %f, %g : f32
    %z = arith.addf %u, %e : f32
    %dd = arith.extf %z : f64
    th.store %d, %dd
    %hv = th.pack %s, %s, %s, %s, %s, %s, %s, %s : vector<8xf16>
    th.store %h, %hv
    tt.return
  })
})
)";
  Diagnostics diags;
  std::optional<SpirvKernel> k = compileText(text, lavapipeLike(), diags);
  REQUIRE_MESSAGE(k, diags.str());
  uint64_t f = k->interface.requiredFeatures;
  CHECK((f & kShaderFloat16) != 0);
  CHECK((f & kShaderFloat64) != 0);
  CHECK((f & kShaderInt8) != 0);
  CHECK((f & kStorageBuffer8BitAccess) != 0);
  CHECK((f & kStorageBuffer16BitAccess) != 0);
}

TEST_CASE("f64 math without a GLSL form compiles to Trident's own sequences") {
  // exp, exp2, log, log2, sin, cos and erf of f64: nothing f64 is refused any more.
  const char *text = R"(builtin.module ({
  tt.func {num_threads = 8, sym_name = "k"} ({
  ^(%x: f64, %p: ptr<f64>):
    %s = math.sin %x : f64
    %c = math.cos %s : f64
    %e = math.erf %c : f64
    %l = math.log %e : f64
    th.store %p, %l
    tt.return
  })
})
)";
  Diagnostics diags;
  std::optional<SpirvKernel> k = compileText(text, lavapipeLike(), diags);
  REQUIRE_MESSAGE(k, diags.str());
  CHECK((k->interface.requiredFeatures & kShaderFloat64) != 0);
  CHECK(diags.str().empty());
}

TEST_CASE("what the backend cannot translate is a diagnostic") {
  Diagnostics diags;
  const char *mma = R"(builtin.module ({
  tt.func {num_threads = 8, sym_name = "k"} ({
  ^(%x: f32):
    %a, %b = th.mma %x, %x {atom = "none"} : f32, f32
    tt.return
  })
})
)";
  CHECK_FALSE(compileText(mma, lavapipeLike(), diags));
  CHECK(contains(diags.str(), "'th.mma' op is not supported by the SPIR-V backend"));

  diags.clear();
  const char *tooMuchShared = R"(builtin.module ({
  tt.func {num_threads = 8, sym_name = "k"} ({
    %s = th.shared_alloc {offset = 0, size = 65536} : ptr<f32, 3>
    tt.return
  })
})
)";
  CHECK_FALSE(compileText(tooMuchShared, lavapipeLike(), diags));
  CHECK(contains(diags.str(), "needs 65536 bytes of workgroup memory"));

  diags.clear();
  const char *oddThreads = R"(builtin.module ({
  tt.func {num_threads = 12, sym_name = "k"} ({
    tt.return
  })
})
)";
  CHECK_FALSE(compileText(oddThreads, lavapipeLike(), diags));
  CHECK(contains(diags.str(), "not a multiple of the subgroup size 8"));

  diags.clear();
  const char *print = R"(builtin.module ({
  tt.func {num_threads = 8, sym_name = "k"} ({
  ^(%c: i1, %x: i32):
    th.printf %c, %x {format = "x %d"}
    tt.return
  })
})
)";
  CHECK_FALSE(compileText(print, lavapipeLike(), diags));
  CHECK(contains(diags.str(), "tt.print is not supported on Vulkan yet"));

  diags.clear();
  const char *assertion = R"(builtin.module ({
  tt.func {num_threads = 8, sym_name = "k"} ({
  ^(%c: i1):
    th.assert %c {file = "k.py", function = "k", line = 3, message = "x > 0"}
    tt.return
  })
})
)";
  CHECK_FALSE(compileText(assertion, lavapipeLike(), diags));
  CHECK(contains(diags.str(), "tt.device_assert is not supported on Vulkan yet"));
}

TEST_CASE("shared allocations overlap where the device has explicit workgroup layouts") {
  const char *text = R"(builtin.module ({
  tt.func {num_threads = 8, sym_name = "k"} ({
  ^(%p: ptr<f32>, %q: ptr<f16>):
    %a = th.shared_alloc {offset = 0, size = 512} : ptr<f32, 3>
    %b = th.shared_alloc {offset = 256, size = 512} : ptr<f16, 3>
    %t = th.thread_id : i32
    %v = th.load %p : f32
    th.store_shared %a, %t, %v
    th.barrier
    %w = th.load_shared %a, %t : f32
    th.store %p, %w
    th.barrier
    %c2 = arith.constant {value = 2} : i32
    %t2 = arith.muli %t, %c2 : i32
    %h = th.load %q : vector<2xf16>
    th.store_shared %b, %t2, %h
    %e = th.extract %h {index = 0} : f16
    th.store_shared %b, %t, %e
    th.barrier
    %x = th.load_shared %b, %t2 : vector<2xf16>
    th.store %q, %x
    tt.return
  })
})
)";
  Diagnostics diags;
  DeviceInfo device = lavapipeLike();
  std::optional<SpirvKernel> k = compileText(text, device, diags);
  REQUIRE_MESSAGE(k, diags.str());
  // Packed into one u32 array: the scalar f16 store is an atomic and/or on its word;
  // the vector<2xf16> (aligned to its size) is one plain word store and one word load.
  CHECK(k->interface.sharedBytes == 768);
  std::string packed = disassemble(k->words);
  CHECK_FALSE(contains(packed, "WorkgroupMemoryExplicitLayout"));
  CHECK(count(packed, "OpAtomicAnd") == 1);
  CHECK(count(packed, "OpAtomicOr") == 1);

  device.features |= kWorkgroupMemoryExplicitLayout | kWorkgroupMemoryExplicitLayout16BitAccess;
  k = compileText(text, device, diags);
  REQUIRE_MESSAGE(k, diags.str());
  CHECK(k->interface.sharedBytes == 768); // [0, 512) and [256, 768) overlap
  CHECK(validate(k->words) == "");
  std::string asm_ = disassemble(k->words);
  CHECK(contains(asm_, "OpCapability WorkgroupMemoryExplicitLayoutKHR"));
  CHECK(contains(asm_, "OpCapability WorkgroupMemoryExplicitLayout16BitAccessKHR"));
  CHECK(contains(asm_, "OpMemberDecorate %_struct_"));
  CHECK(contains(asm_, "0 Offset 256"));
  CHECK((k->interface.requiredFeatures & kWorkgroupMemoryExplicitLayout16BitAccess) != 0);

  // 16-bit access missing: packed again.
  device.features &= ~uint64_t(kWorkgroupMemoryExplicitLayout16BitAccess);
  k = compileText(text, device, diags);
  REQUIRE_MESSAGE(k, diags.str());
  CHECK(k->interface.sharedBytes == 768);
  CHECK_FALSE(contains(disassemble(k->words), "WorkgroupMemoryExplicitLayout"));
  CHECK(validate(k->words) == "");

  // Allocations not placed yet (offset -1) get arrays of their own.
  std::string unplaced = text;
  for (size_t at; (at = unplaced.find("offset = 256")) != std::string::npos;)
    unplaced.replace(at, 12, "offset = -1");
  for (size_t at; (at = unplaced.find("offset = 0,")) != std::string::npos;)
    unplaced.replace(at, 11, "offset = -1,");
  k = compileText(unplaced, device, diags);
  REQUIRE_MESSAGE(k, diags.str());
  CHECK(k->interface.sharedBytes == 1024);
  CHECK(validate(k->words) == "");
}

TEST_CASE("float controls follow the device") {
  const char *text = R"(builtin.module ({
  tt.func {num_threads = 8, sym_name = "k"} ({
  ^(%p: ptr<f32>):
    %v = th.load %p : f32
    %w = arith.addf %v, %v : f32
    th.store %p, %w
    tt.return
  })
})
)";
  Diagnostics diags;
  DeviceInfo device = lavapipeLike();
  device.features |= kSignedZeroInfNanPreserveFloat32 | kDenormPreserveFloat32 | kRoundingModeRTEFloat64;
  std::optional<SpirvKernel> k = compileText(text, device, diags);
  REQUIRE_MESSAGE(k, diags.str());
  std::string asm_ = disassemble(k->words);
  CHECK(contains(asm_, "OpExecutionMode %k SignedZeroInfNanPreserve 32"));
  CHECK(contains(asm_, "OpExecutionMode %k DenormPreserve 32"));
  CHECK_FALSE(contains(asm_, "RoundingModeRTE")); // no f64 in this kernel
  CHECK(validate(k->words) == "");
}

TEST_CASE("atomics that acquire or release put the module under the Vulkan memory model") {
  // A lock's critical section: the acquire, a load and a store of global memory, the release.
  // Under GLSL450 addressed buffers are not coherent between workgroups (NVIDIA's driver
  // read stale partial sums in layer norm's backward); under the Vulkan memory model the
  // accesses are non-private and the atomics make them available and visible.
  auto kernel = [](const std::string &sem) {
    std::string text = R"(builtin.module ({
  tt.func {num_threads = 8, sym_name = "k"} ({
  ^(%lock: ptr<i32>, %p: ptr<f32>):
    %c0 = arith.constant {value = 0} : i32
    %c1 = arith.constant {value = 1} : i32
    %got = th.atomic_cas %lock, %c0, %c1 {scope = "gpu", sem = "SEM"} : i32
    %v = th.load %p : f32
    %w = arith.addf %v, %v : f32
    th.store %p, %w
    %free = th.atomic_rmw %lock, %c0 {kind = "xchg", scope = "gpu", sem = "SEM"} : i32
    tt.return
  })
})
)";
    for (size_t at; (at = text.find("SEM")) != std::string::npos;)
      text.replace(at, 3, sem);
    return text;
  };
  Diagnostics diags;
  DeviceInfo device = lavapipeLike();
  device.features |= kVulkanMemoryModel;
  std::optional<SpirvKernel> k = compileText(kernel("acq_rel"), device, diags);
  REQUIRE_MESSAGE(k, diags.str());
  std::string asm_ = disassemble(k->words);
  CHECK(contains(asm_, "OpMemoryModel PhysicalStorageBuffer64 Vulkan"));
  CHECK(contains(asm_, "NonPrivatePointer"));
  CHECK(validate(k->words) == "");
  k = compileText(kernel("relaxed"), device, diags);
  REQUIRE_MESSAGE(k, diags.str());
  CHECK_FALSE(contains(disassemble(k->words), "OpMemoryModel PhysicalStorageBuffer64 Vulkan"));
  CHECK(validate(k->words) == "");
}

TEST_CASE("remsi and min/max avoid what drivers answer differently") {
  // NVIDIA's OpSRem behaves like OpSMod on negative operands: it may not appear.
  // min/max are GLSL's NMin/NMax (NaN operands lose) with the signs of two zeros
  // fixed by integer operations, not float comparisons of the operands.
  const char *text = R"(builtin.module ({
  tt.func {num_threads = 8, sym_name = "k"} ({
  ^(%p: ptr<i32>, %q: ptr<f32>):
    %a = th.load %p : i32
    %r = arith.remsi %a, %a : i32
    th.store %p, %r
    %x = th.load %q : f32
    %m = arith.minnumf %x, %x : f32
    %n = arith.maximumf %m, %x : f32
    th.store %q, %n
    tt.return
  })
})
)";
  Diagnostics diags;
  std::optional<SpirvKernel> k = compileText(text, lavapipeLike(), diags);
  REQUIRE_MESSAGE(k, diags.str());
  std::string asm_ = disassemble(k->words);
  CHECK(validate(k->words) == "");
  CHECK_FALSE(contains(asm_, "OpSRem"));
  CHECK(contains(asm_, "OpUMod"));
  CHECK_FALSE(contains(asm_, "OpFOrdLessThan"));
  CHECK_FALSE(contains(asm_, "OpFOrdGreaterThan"));
  CHECK(contains(asm_, "NMin"));
  CHECK(contains(asm_, "NMax"));
  CHECK(contains(asm_, "OpIsNan")); // maximumf: a NaN operand wins
}

TEST_CASE("a loop whose start may be negative counts from zero") {
  // NVIDIA's driver 580 ran the constant loop -3..1 three times on the H200; loops
  // starting at a constant of zero or more keep their induction variable as the counter,
  // loops from negative constants count below a trip count, and a loop from a run-time
  // start counts while start + n * step < end (no division: seed 2582 on the H200).
  Diagnostics diags;
  std::optional<SpirvKernel> k = compileFile("loop_bounds.tir", "loop_bounds", lavapipeLike(), diags);
  REQUIRE_MESSAGE(k, diags.str());
  std::string asm_ = disassemble(k->words);
  CHECK(validate(k->words) == "");
  CHECK(count(asm_, "OpLoopMerge") == 4);
  CHECK(count(asm_, "OpULessThan") == 2); // -3..1 and -7..5
  CHECK(count(asm_, "OpUDiv") == 0);      // their trip counts fold; the run-time loop has none
  CHECK(contains(asm_, "OpULessThan %bool %"));
  CHECK(contains(asm_, " %uint_4\n")); // -3..1 and -7..5 by 3: four trips each
  CHECK_FALSE(contains(asm_, "OpPhi %uint %uint_4294967293"));
}

TEST_CASE("num_warps counts warps of 32 threads where subgroups are narrower") {
  // lavapipe's subgroups are 8 lanes: with num_warps subgroups, each thread would hold
  // 4 times more of every block and lavapipe would compile a 4 times larger shader
  // (matmul cold: 98 s instead of 10 s; attention: over ten minutes).
  const char *text = R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16], sym_name = "k"} ({
  ^(%x: ptr<f32>, %y: ptr<f32>):
    %r = tt.make_range {end = 1024, start = 0} : block<1024xi32>
    %xs = tt.splat %x : block<1024xptr<f32>>
    %px = tt.addptr %xs, %r : block<1024xptr<f32>>
    %v = tt.load %px : block<1024xf32>
    %ys = tt.splat %y : block<1024xptr<f32>>
    %py = tt.addptr %ys, %r : block<1024xptr<f32>>
    tt.store %py, %v
    tt.return
  })
})
)";
  Diagnostics diags;
  std::optional<Module> m = parseModule(text, "<test>", diags);
  REQUIRE_MESSAGE(m, diags.str());
  REQUIRE_MESSAGE(verify(*m, diags), diags.str());
  auto threads = [&](const DeviceInfo &device, unsigned numWarps) {
    SpirvOptions options;
    options.numWarps = numWarps;
    std::optional<SpirvKernel> k = compileToSpirv(*m, "k", device, options, diags);
    REQUIRE_MESSAGE(k, diags.str());
    return k->interface.numThreads;
  };
  DeviceInfo lavapipe = lavapipeLike();
  CHECK(threads(lavapipe, 4) == 128);
  CHECK(threads(lavapipe, 0) == 128); // Triton's default, 4 warps
  CHECK(threads(lavapipe, 1) == 32);
  CHECK(threads(genericDevice(), 4) == 128);
  lavapipe.maxThreadsPerProgram = 64; // never more threads than the device has
  CHECK(threads(lavapipe, 4) == 64);
}

TEST_CASE("an offset the thread ids bound folds its constant into the address") {
  // lane + 32 cannot wrap (lanes are 0..7 here): the address is (p + lane * 4) + 128,
  // with the lane zero-extended. An offset from an argument keeps the sign extension.
  const char *text = R"(builtin.module ({
  tt.func {num_threads = 8, sym_name = "k"} ({
  ^(%p: ptr<f32>, %n: i32):
    %l = th.lane_id : i32
    %c = arith.constant {value = 32} : i32
    %o = arith.addi %l, %c : i32
    %a = tt.addptr %p, %o : ptr<f32>
    %x = th.load %a : f32
    %b = tt.addptr %p, %n : ptr<f32>
    th.store %b, %x
    tt.return
  })
})
)";
  Diagnostics diags;
  std::optional<SpirvKernel> k = compileText(text, lavapipeLike(), diags);
  REQUIRE_MESSAGE(k, diags.str());
  std::string asm_ = disassemble(k->words);
  INFO(asm_);
  CHECK(validate(k->words) == "");
  CHECK(contains(asm_, "OpUConvert %ulong"));
  CHECK(contains(asm_, "%ulong_128"));  // 32 elements of 4 bytes, added last
  CHECK(contains(asm_, "OpSConvert %ulong")); // %n: nothing known
}

// Cooperative matrices (issue 14): a matmul compiled for the vulkan:nvidia profile loads,
// multiplies and stores coopmat tiles; its module is valid (validate() sees the NV form
// where these SPIRV-Tools predate SPV_KHR_cooperative_matrix) and needs the extension.
// The same kernel for the generic target (no cooperative matrices) keeps multiply-adds.
TEST_CASE("a matmul on vulkan:nvidia runs on cooperative matrices") {
  std::optional<DeviceInfo> nvidia = profileDevice("vulkan:nvidia");
  REQUIRE(nvidia);
  REQUIRE(profileDevice("vulkan:lavapipe"));
  CHECK_FALSE(profileDevice("vulkan:nonesuch"));
  std::string text = test::coopMatmulKernel(64, 64, 64, 32);
  Diagnostics diags;
  std::optional<Module> m = parseModule(text, "<coop>", diags);
  REQUIRE_MESSAGE(m, diags.str());
  REQUIRE_MESSAGE(verify(*m, diags), diags.str());
  std::optional<Module> lowered = lowerToThreadIR(*m, *nvidia, SpirvOptions{}, diags);
  REQUIRE_MESSAGE(lowered, diags.str());
  std::string threadIR = print(*lowered);
  CHECK(count(threadIR, "th.coop_mma") == 8); // 2x2 tiles per subgroup, 2 k steps per dot
  CHECK(contains(threadIR, "coopmat<16x16xf32, acc>"));
  std::optional<SpirvKernel> k = compileToSpirv(*m, "mm", *nvidia, SpirvOptions{}, diags);
  REQUIRE_MESSAGE(k, diags.str());
  auto hasOpcode = [&](uint32_t opcode) {
    for (size_t i = 5; i < k->words.size(); i += k->words[i] >> 16)
      if ((k->words[i] & 0xffff) == opcode)
        return true;
    return false;
  };
  CHECK(hasOpcode(4459)); // OpCooperativeMatrixMulAddKHR
  CHECK(hasOpcode(4457)); // OpCooperativeMatrixLoadKHR
  // The profile has NVIDIA's known layouts: the result is read by its components
  // (OpCompositeExtract of the matrix), no tile of it is stored to shared memory, and the
  // kernel needs a device whose probe confirmed them. Without them it is stored.
  CHECK_FALSE(hasOpcode(4458)); // OpCooperativeMatrixStoreKHR
  CHECK(contains(threadIR, "th.coop_extract"));
  CHECK((k->interface.requiredFeatures & kCoopMatrixNvidiaLayouts) != 0);
  DeviceInfo opaque = *nvidia;
  opaque.features &= ~uint64_t(kCoopMatrixNvidiaLayouts);
  std::optional<SpirvKernel> stored = compileToSpirv(*m, "mm", opaque, SpirvOptions{}, diags);
  REQUIRE_MESSAGE(stored, diags.str());
  bool storesTiles = false;
  for (size_t i = 5; i < stored->words.size(); i += stored->words[i] >> 16)
    storesTiles = storesTiles || (stored->words[i] & 0xffff) == 4458;
  CHECK(storesTiles);
  CHECK((stored->interface.requiredFeatures & kCoopMatrixNvidiaLayouts) == 0);
  CHECK((k->interface.requiredFeatures & kCooperativeMatrix) != 0);
  CHECK((k->interface.requiredFeatures & kVulkanMemoryModel) != 0);
  CHECK(validate(k->words).empty());
  std::string asm_ = disassemble(k->words);
  INFO(asm_);
  CHECK(contains(asm_, "CooperativeMatrixMulAdd"));
  // On the Vulkan memory model a barrier orders only non-private accesses, and makes
  // writes available and visible only when it says so: AcquireRelease | UniformMemory |
  // WorkgroupMemory | MakeAvailable | MakeVisible = 0x6148.
  CHECK(contains(asm_, "OpMemoryModel PhysicalStorageBuffer64 Vulkan"));
  CHECK(contains(asm_, "OpControlBarrier %uint_2 %uint_2 %uint_24904"));
  CHECK(contains(asm_, "Aligned|NonPrivatePointer"));
  std::optional<SpirvKernel> generic = compileToSpirv(*m, "mm", genericDevice(), SpirvOptions{}, diags);
  REQUIRE_MESSAGE(generic, diags.str());
  CHECK((generic->interface.requiredFeatures & kCooperativeMatrix) == 0);
  // GLSL450's model: the same barrier without those bits (0x148), accesses as they were.
  std::string genericAsm = disassemble(generic->words);
  CHECK(contains(genericAsm, "OpControlBarrier %uint_2 %uint_2 %uint_328"));
  CHECK_FALSE(contains(genericAsm, "NonPrivatePointer"));
}

namespace {

// The instructions of a module: (opcode, words) pairs, header left out.
std::vector<std::vector<uint32_t>> instructions(const std::vector<uint32_t> &words) {
  std::vector<std::vector<uint32_t>> out;
  for (size_t i = 5; i < words.size(); i += words[i] >> 16)
    out.emplace_back(words.begin() + long(i), words.begin() + long(i + (words[i] >> 16)));
  return out;
}

} // namespace

// bf16 dots (issue 14) on the bf16 cooperative matrices of vulkan:nvidia
// (VK_KHR_shader_bfloat16, SPV_KHR_bfloat16): A and B are matrices of `OpTypeFloat 16
// BFloat16KHR`, multiplied into f32 by OpCooperativeMatrixMulAddKHR; the kernel needs both
// bfloat16 features; scalar bf16 stays u16 words (the float type is a matrix component
// only). The module validates with bfloat16 read as f16 where these SPIRV-Tools predate
// it. A device without the bfloat16 features keeps multiply-adds for it, and its f16 dots
// on cooperative matrices.
TEST_CASE("a bf16 matmul on vulkan:nvidia runs on bf16 cooperative matrices") {
  std::optional<DeviceInfo> nvidia = profileDevice("vulkan:nvidia");
  REQUIRE(nvidia);
  Diagnostics diags;
  std::optional<Module> m =
      parseModule(test::coopMatmulKernel(64, 64, 64, 32, false, false, "bf16"), "<bf16>", diags);
  REQUIRE_MESSAGE((m && verify(*m, diags)), diags.str());
  std::optional<Module> lowered = lowerToThreadIR(*m, *nvidia, SpirvOptions{}, diags);
  REQUIRE_MESSAGE(lowered, diags.str());
  std::string threadIR = print(*lowered);
  CHECK(count(threadIR, "th.coop_mma") == 8);
  CHECK(contains(threadIR, "coopmat<16x16xbf16, a>"));
  CHECK(contains(threadIR, "coopmat<16x16xbf16, b>"));
  std::optional<SpirvKernel> k = compileToSpirv(*m, "mm", *nvidia, SpirvOptions{}, diags);
  REQUIRE_MESSAGE(k, diags.str());
  uint32_t bf16 = 0, mulAdds = 0, bf16Matrices = 0, bf16Results = 0;
  bool typeCap = false, matrixCap = false, extension = false;
  for (const std::vector<uint32_t> &w : instructions(k->words))
    if (w[0] == ((4u << 16) | 22) && w[2] == 16 && w[3] == 0) // OpTypeFloat 16 BFloat16KHR
      bf16 = w[1];
  REQUIRE_MESSAGE(bf16 != 0, "no OpTypeFloat 16 BFloat16KHR");
  for (const std::vector<uint32_t> &w : instructions(k->words)) {
    uint32_t op = w[0] & 0xffff;
    typeCap = typeCap || (op == 17 && w[1] == 5116);     // OpCapability BFloat16TypeKHR
    matrixCap = matrixCap || (op == 17 && w[1] == 5118); // OpCapability BFloat16CooperativeMatrixKHR
    extension =
        extension || (op == 10 && std::string(reinterpret_cast<const char *>(&w[1])) == "SPV_KHR_bfloat16");
    mulAdds += op == 4459;                                   // OpCooperativeMatrixMulAddKHR
    bf16Matrices += op == 4456 && w[2] == bf16;              // OpTypeCooperativeMatrixKHR of bfloat16
    bf16Results += w.size() > 2 && w[1] == bf16 && op != 22; // a value of scalar bfloat16
  }
  CHECK(typeCap);
  CHECK(matrixCap);
  CHECK(extension);
  CHECK(mulAdds == 8);
  CHECK(bf16Matrices == 2); // A and B
  CHECK(bf16Results == 0);  // bf16 scalars are u16: their conversions stay the exact integer ones
  CHECK((k->interface.requiredFeatures & kShaderBFloat16Type) != 0);
  CHECK((k->interface.requiredFeatures & kShaderBFloat16CooperativeMatrix) != 0);
  CHECK(featureNames(kShaderBFloat16CooperativeMatrix).find("shaderBFloat16CooperativeMatrix") !=
        std::string::npos);
  CHECK(validate(k->words).empty());
  std::string asm_ = disassemble(k->words);
  INFO(asm_);
  CHECK(contains(asm_, "CooperativeMatrixMulAdd"));

  // D stored as f16 instead: the module has an f16 type beside the bfloat16 one, which the
  // validator's copy then merges into it (one OpTypeFloat 16 there).
  std::string text = test::coopMatmulKernel(64, 64, 64, 32, false, false, "bf16");
  size_t tail = text.find("tt.store %pc, %acc");
  REQUIRE(tail != std::string::npos);
  std::string mixed = text.substr(0, tail), rest = text.substr(tail);
  for (size_t at = rest.find("bf16"); at != std::string::npos; at = rest.find("bf16", at))
    rest.erase(at, 1);
  mixed.replace(mixed.find("%D: ptr<bf16>"), 13, "%D: ptr<f16>");
  std::optional<Module> mm = parseModule(mixed + rest, "<bf16, f16 D>", diags);
  REQUIRE_MESSAGE((mm && verify(*mm, diags)), diags.str());
  std::optional<SpirvKernel> both = compileToSpirv(*mm, "mm", *nvidia, SpirvOptions{}, diags);
  REQUIRE_MESSAGE(both, diags.str());
  int floats16 = 0;
  for (const std::vector<uint32_t> &w : instructions(both->words))
    floats16 += (w[0] & 0xffff) == 22 && w[2] == 16;
  CHECK(floats16 == 2);
  CHECK(validate(both->words).empty());

  // The same profile without VK_KHR_shader_bfloat16: f16 shapes only.
  DeviceInfo noBf16 = *nvidia;
  noBf16.features &= ~uint64_t(kShaderBFloat16CooperativeMatrix);
  CHECK(targetDesc(noBf16).coopMatrices.size() + 1 == targetDesc(*nvidia).coopMatrices.size());
  std::optional<SpirvKernel> plain = compileToSpirv(*m, "mm", noBf16, SpirvOptions{}, diags);
  REQUIRE_MESSAGE(plain, diags.str());
  CHECK((plain->interface.requiredFeatures & (kCooperativeMatrix | kShaderBFloat16Type)) == 0);
  CHECK(validate(plain->words).empty());
  std::optional<Module> f16 = parseModule(test::coopMatmulKernel(64, 64, 64, 32), "<f16>", diags);
  REQUIRE(f16);
  std::optional<SpirvKernel> f16Kernel = compileToSpirv(*f16, "mm", noBf16, SpirvOptions{}, diags);
  REQUIRE_MESSAGE(f16Kernel, diags.str());
  CHECK((f16Kernel->interface.requiredFeatures & kCooperativeMatrix) != 0);
  CHECK((f16Kernel->interface.requiredFeatures & kShaderBFloat16Type) == 0);
}

// An f16 and a bf16 dot of one shape in one kernel: their A (and B) matrix types differ
// only in the component, which the validator's copy reads as f16 for both; it keeps one
// type of the two there, so the module still validates.
TEST_CASE("a kernel with an f16 and a bf16 dot of one shape validates") {
  const char *text = R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%A: ptr<f16>, %B: ptr<bf16>, %C: ptr<f32>):
    %r = tt.make_range {end = 16, start = 0} : block<16xi32>
    %c16 = arith.constant {value = 16} : i32
    %row0 = tt.expand_dims %r {axis = 1} : block<16x1xi32>
    %s16 = tt.splat %c16 : block<16x1xi32>
    %row = arith.muli %row0, %s16 : block<16x1xi32>
    %rows = tt.broadcast %row : block<16x16xi32>
    %col0 = tt.expand_dims %r {axis = 0} : block<1x16xi32>
    %cols = tt.broadcast %col0 : block<16x16xi32>
    %off = arith.addi %rows, %cols : block<16x16xi32>
    %sa = tt.splat %A : block<16x16xptr<f16>>
    %pa = tt.addptr %sa, %off : block<16x16xptr<f16>>
    %a = tt.load %pa : block<16x16xf16>
    %sb = tt.splat %B : block<16x16xptr<bf16>>
    %pb = tt.addptr %sb, %off : block<16x16xptr<bf16>>
    %b = tt.load %pb : block<16x16xbf16>
    %z = arith.constant {value = 0.0} : block<16x16xf32>
    %d1 = tt.dot %a, %a, %z : block<16x16xf32>
    %d2 = tt.dot %b, %b, %d1 : block<16x16xf32>
    %sc = tt.splat %C : block<16x16xptr<f32>>
    %pc = tt.addptr %sc, %off : block<16x16xptr<f32>>
    tt.store %pc, %d2
    tt.return
  })
})
)";
  std::optional<DeviceInfo> nvidia = profileDevice("vulkan:nvidia");
  REQUIRE(nvidia);
  Diagnostics diags;
  std::optional<Module> m = parseModule(text, "<f16 and bf16>", diags);
  REQUIRE_MESSAGE((m && verify(*m, diags)), diags.str());
  SpirvOptions options;
  options.numWarps = 1;
  std::optional<SpirvKernel> k = compileToSpirv(*m, "k", *nvidia, options, diags);
  REQUIRE_MESSAGE(k, diags.str());
  int mulAdds = 0, matrixTypes = 0;
  for (const std::vector<uint32_t> &w : instructions(k->words)) {
    mulAdds += (w[0] & 0xffff) == 4459;
    matrixTypes += (w[0] & 0xffff) == 4456;
  }
  CHECK(mulAdds == 2);
  CHECK(matrixTypes == 5); // A and B of f16, A and B of bf16, the f32 accumulator
  CHECK(validate(k->words).empty());
}
