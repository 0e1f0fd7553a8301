#pragma once
// A block-IR matmul the SIMT lowering puts on cooperative matrices where the device has
// f16 x f16 -> f32 ones (shared by the codegen test, which compiles it for vulkan:nvidia,
// and the run test, which runs it on vulkan:0 when that device has them): C = A B with
// A M x K and B K x N f16, row-major, K in steps of BK through a loop that carries the
// f32 accumulator; C is stored twice, as f32 and converted to f16 (two layouts read
// back from the tiles). With `initFromC`, the accumulator starts as C's contents (not a
// splat: it reaches the tiles through shared memory) and C is its input too. With
// `doubleInLoop`, each iteration doubles the accumulator before the dot (attention's
// rescaling): the dot's C is then computed, so the loop carries ordinary registers.
// `element`: the type of A, B and D ("f16", or "bf16" for the bf16 x bf16 -> f32 shapes).

#include <sstream>
#include <string>

namespace trident::test {

inline std::string coopMatmulKernel(int M, int N, int K, int BK, bool initFromC = false,
                                    bool doubleInLoop = false, const std::string &element = "f16") {
  std::ostringstream s;
  const std::string &e = element;
  std::string m = std::to_string(M), n = std::to_string(N), bk = std::to_string(BK);
  std::string a = "block<" + m + "x" + bk, b = "block<" + bk + "x" + n, c = "block<" + m + "x" + n;
  s << "builtin.module ({\n  tt.func {sym_name = \"mm\"} ({\n"
    << "  ^(%A: ptr<" << e << ">, %B: ptr<" << e << ">, %C: ptr<f32>, %D: ptr<" << e << ">):\n"
    << "    %rm = tt.make_range {end = " << m << ", start = 0} : block<" << m << "xi32>\n"
    << "    %rn = tt.make_range {end = " << n << ", start = 0} : block<" << n << "xi32>\n"
    << "    %rk = tt.make_range {end = " << bk << ", start = 0} : block<" << bk << "xi32>\n"
    << "    %cK = arith.constant {value = " << K << "} : i32\n"
    << "    %cN = arith.constant {value = " << N
    << "} : i32\n"
    // A offsets: row * K + k; B offsets: k * N + col; C: row * N + col.
    << "    %am0 = tt.expand_dims %rm {axis = 1} : block<" << m << "x1xi32>\n"
    << "    %sK1 = tt.splat %cK : block<" << m << "x1xi32>\n"
    << "    %am1 = arith.muli %am0, %sK1 : block<" << m << "x1xi32>\n"
    << "    %am = tt.broadcast %am1 : " << a << "xi32>\n"
    << "    %ak0 = tt.expand_dims %rk {axis = 0} : block<1x" << bk << "xi32>\n"
    << "    %ak = tt.broadcast %ak0 : " << a << "xi32>\n"
    << "    %ao = arith.addi %am, %ak : " << a << "xi32>\n"
    << "    %bk0 = tt.expand_dims %rk {axis = 1} : block<" << bk << "x1xi32>\n"
    << "    %sN1 = tt.splat %cN : block<" << bk << "x1xi32>\n"
    << "    %bk1 = arith.muli %bk0, %sN1 : block<" << bk << "x1xi32>\n"
    << "    %bkk = tt.broadcast %bk1 : " << b << "xi32>\n"
    << "    %bn0 = tt.expand_dims %rn {axis = 0} : block<1x" << n << "xi32>\n"
    << "    %bn = tt.broadcast %bn0 : " << b << "xi32>\n"
    << "    %bo = arith.addi %bkk, %bn : " << b << "xi32>\n"
    << "    %sA = tt.splat %A : " << a << "xptr<" << e << ">>\n"
    << "    %pa = tt.addptr %sA, %ao : " << a << "xptr<" << e << ">>\n"
    << "    %sB = tt.splat %B : " << b << "xptr<" << e << ">>\n"
    << "    %pb = tt.addptr %sB, %bo : " << b << "xptr<" << e << ">>\n"
    << "    %cm0 = tt.expand_dims %rm {axis = 1} : block<" << m << "x1xi32>\n"
    << "    %sN2 = tt.splat %cN : block<" << m << "x1xi32>\n"
    << "    %cm1 = arith.muli %cm0, %sN2 : block<" << m << "x1xi32>\n"
    << "    %cm = tt.broadcast %cm1 : " << c << "xi32>\n"
    << "    %cn = tt.broadcast %bn0 : " << c << "xi32>\n"
    << "    %co = arith.addi %cm, %cn : " << c << "xi32>\n"
    << "    %sC = tt.splat %C : " << c << "xptr<f32>>\n"
    << "    %pc = tt.addptr %sC, %co : " << c << "xptr<f32>>\n"
    << (initFromC ? "    %zero = tt.load %pc : " + c + "xf32>\n"
                  : "    %zero = arith.constant {value = 0.0} : " + c + "xf32>\n")
    << "    %c0 = arith.constant {value = 0} : i32\n"
    << "    %c1 = arith.constant {value = 1} : i32\n"
    << "    %steps = arith.constant {value = " << K / BK << "} : i32\n"
    << "    %stepA = arith.constant {value = " << BK << "} : " << a << "xi32>\n"
    << "    %stepB = arith.constant {value = " << BK * N << "} : " << b << "xi32>\n"
    << "    %acc, %pa2, %pb2 = scf.for %c0, %steps, %c1, %zero, %pa, %pb : " << c << "xf32>, " << a << "xptr<"
    << e << ">>, " << b << "xptr<" << e << ">> ({\n"
    << "    ^(%i: i32, %x: " << c << "xf32>, %qa: " << a << "xptr<" << e << ">>, %qb: " << b << "xptr<" << e
    << ">>):\n"
    << "      %ta = tt.load %qa : " << a << "x" << e << ">\n"
    << "      %tb = tt.load %qb : " << b << "x" << e << ">\n"
    << (doubleInLoop ? "      %two = arith.constant {value = 2.0} : " + c +
                           "xf32>\n"
                           "      %x2 = arith.mulf %x, %two : " +
                           c +
                           "xf32>\n"
                           "      %d = tt.dot %ta, %tb, %x2 : " +
                           c + "xf32>\n"
                     : "      %d = tt.dot %ta, %tb, %x : " + c + "xf32>\n")
    << "      %na = tt.addptr %qa, %stepA : " << a << "xptr<" << e << ">>\n"
    << "      %nb = tt.addptr %qb, %stepB : " << b << "xptr<" << e << ">>\n"
    << "      scf.yield %d, %na, %nb\n"
    << "    })\n"
    << "    tt.store %pc, %acc\n"
    << "    %h = arith.truncf %acc : " << c << "x" << e << ">\n"
    << "    %sD = tt.splat %D : " << c << "xptr<" << e << ">>\n"
    << "    %pd = tt.addptr %sD, %co : " << c << "xptr<" << e << ">>\n"
    << "    tt.store %pd, %h\n"
    << "    tt.return\n  })\n})\n";
  return s.str();
}

} // namespace trident::test
