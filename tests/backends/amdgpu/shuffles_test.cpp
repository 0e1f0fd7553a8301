// Every th.shuffle mode, by hand-written thread IR: constant and variable lanes, 32-
// and 64-bit values, compiled for each architecture and read back from the disassembly.
#include "CodeObject.h"
#include "trident/backends/amdgpu/CodeGen.h"
#include "trident/backends/amdgpu/Target.h"
#include "trident/ir/Parser.h"

#include <doctest/doctest.h>

using namespace trident;

namespace {

const char *kShuffles = R"(builtin.module ({
  tt.func {num_threads = 128, shared_bytes = 0, sym_name = "shuffles"} ({
  ^(%x: ptr<i32>, %y: ptr<f32>, %z: ptr<i64>, %k: i32):
    %tid = th.thread_id : i32
    %px = tt.addptr %x, %tid : ptr<i32>
    %a = th.load %px : i32
    %py = tt.addptr %y, %tid : ptr<f32>
    %b = th.load %py : f32
    %pz = tt.addptr %z, %tid : ptr<i64>
    %c = th.load %pz : i64
    %c1 = arith.constant {value = 1} : i32
    %c3 = arith.constant {value = 3} : i32
    %c5 = arith.constant {value = 5} : i32
    %c7 = arith.constant {value = 7} : i32
    %c15 = arith.constant {value = 15} : i32
    %c17 = arith.constant {value = 17} : i32
    %s1 = th.shuffle %a, %c3 {mode = "idx"} : i32
    %s2 = th.shuffle %b, %k {mode = "idx"} : f32
    %s3 = th.shuffle %c, %k {mode = "xor"} : i64
    %s4 = th.shuffle %a, %c1 {mode = "up"} : i32
    %s5 = th.shuffle %b, %c1 {mode = "down"} : f32
    %s6 = th.shuffle %a, %c5 {mode = "xor"} : i32
    %s7 = th.shuffle %a, %c7 {mode = "xor"} : i32
    %s8 = th.shuffle %a, %c15 {mode = "xor"} : i32
    %s9 = th.shuffle %a, %c17 {mode = "xor"} : i32
    %t1 = arith.addi %s1, %s4 : i32
    %t2 = arith.addi %t1, %s6 : i32
    %t3 = arith.addi %t2, %s7 : i32
    %t4 = arith.addi %t3, %s8 : i32
    %t5 = arith.addi %t4, %s9 : i32
    th.store %px, %t5
    %f = arith.addf %s2, %s5 : f32
    th.store %py, %f
    th.store %pz, %s3
    tt.return
  })
}))";

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

} // namespace

TEST_CASE("every shuffle mode maps to the architecture's cross-lane instructions") {
  Diagnostics diags;
  std::optional<Module> m = parseModule(kShuffles, "shuffles.tir", diags);
  INFO(diags.str());
  REQUIRE(m.has_value());
  for (std::string_view a : amdgpu::supportedArchitectures()) {
    std::string arch(a);
    std::optional<amdgpu::HSACOModule> hsaco =
        amdgpu::compileThreadIRToHSACO(*m, *amdgpu::targetDesc(arch), {}, diags);
    INFO(arch << "\n" << diags.str());
    REQUIRE(hsaco.has_value());
    amdtest::CodeObjectView view = amdtest::inspect(hsaco->hsaco);
    const std::string &d = view.disassembly;
    INFO(d);
    REQUIRE(view.kernels.size() == 1);
    CHECK(view.kernels[0].wavefrontSize == amdgpu::wavefrontSize(arch));
    // idx of a constant lane: a scalar read of that lane.
    CHECK(count(d, "v_readlane_b32") >= 1);
    // idx and xor by a variable lane, up and down: ds_bpermute, twice for the i64.
    CHECK(count(d, "ds_bpermute_b32") >= 5);
    if (amdgpu::wavefrontSize(arch) == 64) {
      CHECK(count(d, "row_half_mirror") == 1); // xor 7
      CHECK(count(d, "row_mirror") == 1);      // xor 15
      CHECK(count(d, "ds_swizzle_b32") == 2);  // xor 5 and xor 17
    } else {
      CHECK(count(d, "row_xmask:5") == 1);
      CHECK(count(d, "row_xmask:7") == 1);
      CHECK(count(d, "row_xmask:15") == 1);
      CHECK(count(d, "v_permlanex16_b32") == 1);   // xor 17 = across the rows, then ...
      CHECK(count(d, "quad_perm:[1,0,3,2]") == 1); // ... xor 1 within them
    }
  }
}

TEST_CASE("thread IR without the lowering's attributes is refused") {
  const char *bad = R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%x: ptr<i32>):
    tt.return
  })
}))";
  Diagnostics diags;
  std::optional<Module> m = parseModule(bad, "bad.tir", diags);
  REQUIRE(m.has_value());
  CHECK_FALSE(amdgpu::compileThreadIRToHSACO(*m, *amdgpu::targetDesc("gfx942"), {}, diags).has_value());
  INFO(diags.str());
  CHECK(diags.str().find("num_threads") != std::string::npos);
}
