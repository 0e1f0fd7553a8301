// Loads and stores: vectorized, predicated, coalesced.
#include "SimtTestUtil.h"

#include <iostream>

using namespace trident;
using namespace trident::simt::test;

namespace {

const char *kVectorAdd = R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 16, 16], sym_name = "add_kernel"} ({
  ^(%x: ptr<f32>, %y: ptr<f32>, %out: ptr<f32>, %n: i32):
    %pid = tt.get_program_id {axis = 0} : i32
    %c = arith.constant {value = 1024} : i32
    %start = arith.muli %pid, %c : i32
    %r = tt.make_range {end = 1024, start = 0} : block<1024xi32>
    %s = tt.splat %start : block<1024xi32>
    %offs = arith.addi %s, %r : block<1024xi32>
    %ns = tt.splat %n : block<1024xi32>
    %mask = arith.cmpi %offs, %ns {predicate = "slt"} : block<1024xi1>
    %xs = tt.splat %x : block<1024xptr<f32>>
    %xp = tt.addptr %xs, %offs : block<1024xptr<f32>>
    %xv = tt.load %xp, %mask : block<1024xf32>
    %ys = tt.splat %y : block<1024xptr<f32>>
    %yp = tt.addptr %ys, %offs : block<1024xptr<f32>>
    %yv = tt.load %yp, %mask : block<1024xf32>
    %sum = arith.addf %xv, %yv : block<1024xf32>
    %os = tt.splat %out : block<1024xptr<f32>>
    %op = tt.addptr %os, %offs : block<1024xptr<f32>>
    tt.store %op, %sum, %mask
    tt.return
  })
})
)";

} // namespace

TEST_CASE("vector add: 16-byte loads and stores, no shared memory") {
  Module m = lowerOrFail(kVectorAdd);
  if (getenv("TRIDENT_DUMP"))
    std::cout << print(m);
  // 1024 f32 over 128 threads: 8 per thread as two 4-wide accesses per operand.
  CHECK(countOps(m, "th.load") == 4);
  CHECK(countOps(m, "th.store") == 2);
  CHECK(countOps(m, "arith.addf") == 8);
  CHECK(countOps(m, "th.shared_alloc") == 0);
  CHECK(countOps(m, "th.barrier") == 0);
  bool allVectors = true;
  m.op()->walk([&](Op *op) {
    if (op->is(OpCode::ThLoad))
      allVectors &= op->result()->type() == Type::vector(4, Type::f32());
  });
  CHECK(allVectors);
}
