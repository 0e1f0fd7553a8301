#pragma once
// Block-IR kernels of every op family, with their block shapes as parameters. The
// SIMT tests run them in the thread-IR simulator; the backend tests compile them.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace trident::simt::test {

// Replaces every "@KEY@" in `text`.
inline std::string instantiate(std::string text, const std::vector<std::pair<std::string, int64_t>> &values) {
  for (const auto &[key, value] : values) {
    std::string pattern = "@" + key + "@";
    for (size_t at = text.find(pattern); at != std::string::npos; at = text.find(pattern, at))
      text.replace(at, pattern.size(), std::to_string(value));
  }
  return text;
}

// The offsets of an MxN tile of a row-major matrix with row stride %stride, as %off.
inline const char *kTileOffsets = R"(
    %ri = tt.make_range {end = @M@, start = 0} : block<@M@xi32>
    %ci = tt.make_range {end = @N@, start = 0} : block<@N@xi32>
    %r2 = tt.expand_dims %ri {axis = 1} : block<@M@x1xi32>
    %c2 = tt.expand_dims %ci {axis = 0} : block<1x@N@xi32>
    %st = tt.splat %stride : block<@M@x1xi32>
    %ro = arith.muli %r2, %st : block<@M@x1xi32>
    %rob = tt.broadcast %ro : block<@M@x@N@xi32>
    %cob = tt.broadcast %c2 : block<@M@x@N@xi32>
    %off = arith.addi %rob, %cob : block<@M@x@N@xi32>
)";

// rowsum[i] = sum_j x[i][j], colmax[j] = max_i x[i][j] over one MxN tile.
inline std::string reduce2dKernel(int64_t m, int64_t n) {
  return instantiate(std::string(R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 16, 16], sym_name = "reduce2d"} ({
  ^(%x: ptr<f32>, %rowsum: ptr<f32>, %colmax: ptr<f32>, %stride: i32):)") +
                         kTileOffsets + R"(
    %xs = tt.splat %x : block<@M@x@N@xptr<f32>>
    %p = tt.addptr %xs, %off : block<@M@x@N@xptr<f32>>
    %v = tt.load %p : block<@M@x@N@xf32>
    %rs = tt.reduce %v {axis = 1} : block<@M@xf32> ({
    ^(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s
    })
    %cm = tt.reduce %v {axis = 0} : block<@N@xf32> ({
    ^(%a: f32, %b: f32):
      %s = arith.maxnumf %a, %b : f32
      tt.reduce.return %s
    })
    %rsp = tt.splat %rowsum : block<@M@xptr<f32>>
    %rsa = tt.addptr %rsp, %ri : block<@M@xptr<f32>>
    tt.store %rsa, %rs
    %cmp = tt.splat %colmax : block<@N@xptr<f32>>
    %cma = tt.addptr %cmp, %ci : block<@N@xptr<f32>>
    tt.store %cma, %cm
    tt.return
  })
})
)",
                     {{"M", m}, {"N", n}});
}

// out (N x M, row stride M) = transpose(x (M x N, row stride %stride)) * 2 + y[j] broadcast along rows of
// out.
inline std::string transposeKernel(int64_t m, int64_t n) {
  return instantiate(std::string(R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 16, 16], sym_name = "transpose"} ({
  ^(%x: ptr<f32>, %y: ptr<f32>, %out: ptr<f32>, %stride: i32):)") +
                         kTileOffsets + R"(
    %xs = tt.splat %x : block<@M@x@N@xptr<f32>>
    %p = tt.addptr %xs, %off : block<@M@x@N@xptr<f32>>
    %v = tt.load %p : block<@M@x@N@xf32>
    %t = tt.trans %v {order = [1, 0]} : block<@N@x@M@xf32>
    %two = arith.constant {value = 2.0} : block<@N@x@M@xf32>
    %t2 = arith.mulf %t, %two : block<@N@x@M@xf32>
    %ys = tt.splat %y : block<@N@xptr<f32>>
    %yp = tt.addptr %ys, %ci : block<@N@xptr<f32>>
    %yv = tt.load %yp : block<@N@xf32>
    %ye = tt.expand_dims %yv {axis = 1} : block<@N@x1xf32>
    %yb = tt.broadcast %ye : block<@N@x@M@xf32>
    %sum = arith.addf %t2, %yb : block<@N@x@M@xf32>
    %or = tt.expand_dims %ci {axis = 1} : block<@N@x1xi32>
    %oc = tt.expand_dims %ri {axis = 0} : block<1x@M@xi32>
    %ms = arith.constant {value = @M@} : block<@N@x1xi32>
    %orm = arith.muli %or, %ms : block<@N@x1xi32>
    %orb = tt.broadcast %orm : block<@N@x@M@xi32>
    %ocb = tt.broadcast %oc : block<@N@x@M@xi32>
    %oo = arith.addi %orb, %ocb : block<@N@x@M@xi32>
    %os = tt.splat %out : block<@N@x@M@xptr<f32>>
    %op = tt.addptr %os, %oo : block<@N@x@M@xptr<f32>>
    tt.store %op, %sum
    tt.return
  })
})
)",
                     {{"M", m}, {"N", n}});
}

// out[i] = sum_k x[k * B + i] for k < %K, a loop-carried block; out2[i] = the same,
// counted down with scf.while; scf.if picks max or sum by a flag.
inline std::string loopKernel(int64_t block) {
  return instantiate(R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 1, 1], sym_name = "loops"} ({
  ^(%x: ptr<f32>, %out: ptr<f32>, %K: i32, %flag: i32):
    %r = tt.make_range {end = @B@, start = 0} : block<@B@xi32>
    %xs = tt.splat %x : block<@B@xptr<f32>>
    %zero = arith.constant {value = 0.0} : block<@B@xf32>
    %c0 = arith.constant {value = 0} : i32
    %c1 = arith.constant {value = 1} : i32
    %cb = arith.constant {value = @B@} : i32
    %acc = scf.for %c0, %K, %c1, %zero : block<@B@xf32> ({
    ^(%k: i32, %a: block<@B@xf32>):
      %base = arith.muli %k, %cb : i32
      %bs = tt.splat %base : block<@B@xi32>
      %o = arith.addi %bs, %r : block<@B@xi32>
      %p = tt.addptr %xs, %o : block<@B@xptr<f32>>
      %v = tt.load %p : block<@B@xf32>
      %n = arith.addf %a, %v : block<@B@xf32>
      scf.yield %n
    })
    %km1 = arith.subi %K, %c1 : i32
    %w0, %w1 = scf.while %km1, %zero : i32, block<@B@xf32> ({
    ^(%i: i32, %a: block<@B@xf32>):
      %go = arith.cmpi %i, %c0 {predicate = "sge"} : i1
      scf.condition %go, %i, %a
    }, {
    ^(%i: i32, %a: block<@B@xf32>):
      %base = arith.muli %i, %cb : i32
      %bs = tt.splat %base : block<@B@xi32>
      %o = arith.addi %bs, %r : block<@B@xi32>
      %p = tt.addptr %xs, %o : block<@B@xptr<f32>>
      %v = tt.load %p : block<@B@xf32>
      %n = arith.maxnumf %a, %v : block<@B@xf32>
      %j = arith.subi %i, %c1 : i32
      scf.yield %j, %n
    })
    %isMax = arith.cmpi %flag, %c0 {predicate = "ne"} : i1
    %res = scf.if %isMax : block<@B@xf32> ({
      scf.yield %w1
    }, {
      scf.yield %acc
    })
    %os = tt.splat %out : block<@B@xptr<f32>>
    %op = tt.addptr %os, %r : block<@B@xptr<f32>>
    tt.store %op, %res
    tt.return
  })
})
)",
                     {{"B", block}});
}

// counts[i] += 1 for each program (atomic add on a block), old values stored to
// olds[pid * B + i]; ticket = atomic add of 1 on a scalar, stored to tickets[pid].
inline std::string atomicKernel(int64_t block) {
  return instantiate(R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 16], sym_name = "atomics"} ({
  ^(%counts: ptr<i32>, %olds: ptr<i32>, %tickets: ptr<i32>):
    %pid = tt.get_program_id {axis = 0} : i32
    %r = tt.make_range {end = @B@, start = 0} : block<@B@xi32>
    %cs = tt.splat %counts : block<@B@xptr<i32>>
    %cp = tt.addptr %cs, %r : block<@B@xptr<i32>>
    %one = arith.constant {value = 1} : block<@B@xi32>
    %old = tt.atomic_rmw %cp, %one {kind = "add", scope = "gpu", sem = "acq_rel"} : block<@B@xi32>
    %cb = arith.constant {value = @B@} : i32
    %base = arith.muli %pid, %cb : i32
    %bs = tt.splat %base : block<@B@xi32>
    %o = arith.addi %bs, %r : block<@B@xi32>
    %os = tt.splat %olds : block<@B@xptr<i32>>
    %op = tt.addptr %os, %o : block<@B@xptr<i32>>
    tt.store %op, %old
    %c1 = arith.constant {value = 1} : i32
    %t = tt.atomic_rmw %tickets, %c1 {kind = "add", scope = "gpu", sem = "acq_rel"} : i32
    %tp = tt.addptr %tickets, %pid : ptr<i32>
    %c1p = arith.constant {value = 1} : i32
    %tpp = tt.addptr %tp, %c1p : ptr<i32>
    tt.store %tpp, %t
    tt.return
  })
})
)",
                     {{"B", block}});
}

// Per row of an MxN tile: the maximum and its first column (a two-operand reduce).
inline std::string argmaxKernel(int64_t m, int64_t n) {
  return instantiate(std::string(R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 16, 16], sym_name = "argmax"} ({
  ^(%x: ptr<f32>, %vals: ptr<f32>, %idxs: ptr<i32>, %stride: i32):)") +
                         kTileOffsets + R"(
    %xs = tt.splat %x : block<@M@x@N@xptr<f32>>
    %p = tt.addptr %xs, %off : block<@M@x@N@xptr<f32>>
    %v = tt.load %p : block<@M@x@N@xf32>
    %mv, %mi = tt.reduce %v, %cob {axis = 1} : block<@M@xf32>, block<@M@xi32> ({
    ^(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf %a, %b {predicate = "ogt"} : i1
      %eq = arith.cmpf %a, %b {predicate = "oeq"} : i1
      %lt = arith.cmpi %ai, %bi {predicate = "slt"} : i1
      %tie = arith.andi %eq, %lt : i1
      %keep = arith.ori %gt, %tie : i1
      %rv = arith.select %keep, %a, %b : f32
      %ri2 = arith.select %keep, %ai, %bi : i32
      tt.reduce.return %rv, %ri2
    })
    %vs = tt.splat %vals : block<@M@xptr<f32>>
    %vp = tt.addptr %vs, %ri : block<@M@xptr<f32>>
    tt.store %vp, %mv
    %is = tt.splat %idxs : block<@M@xptr<i32>>
    %ip = tt.addptr %is, %ri : block<@M@xptr<i32>>
    tt.store %ip, %mi
    tt.return
  })
})
)",
                     {{"M", m}, {"N", n}});
}

// out = cat(b', a') where (a', b') = split(join(a, b)) and out2 = reshape(join(a, b)):
// out[0:N] = b, out[N:2N] = a; out2[2i] = a[i], out2[2i+1] = b[i].
inline std::string joinSplitCatKernel(int64_t n) {
  return instantiate(R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 16, 16], sym_name = "join_split_cat"} ({
  ^(%a: ptr<i32>, %b: ptr<i32>, %out: ptr<i32>, %out2: ptr<i32>):
    %r = tt.make_range {end = @N@, start = 0} : block<@N@xi32>
    %as = tt.splat %a : block<@N@xptr<i32>>
    %ap = tt.addptr %as, %r : block<@N@xptr<i32>>
    %av = tt.load %ap : block<@N@xi32>
    %bs = tt.splat %b : block<@N@xptr<i32>>
    %bp = tt.addptr %bs, %r : block<@N@xptr<i32>>
    %bv = tt.load %bp : block<@N@xi32>
    %j = tt.join %av, %bv : block<@N@x2xi32>
    %s0, %s1 = tt.split %j : block<@N@xi32>, block<@N@xi32>
    %c = tt.cat %s1, %s0 : block<@2N@xi32>
    %r2 = tt.make_range {end = @2N@, start = 0} : block<@2N@xi32>
    %os = tt.splat %out : block<@2N@xptr<i32>>
    %op = tt.addptr %os, %r2 : block<@2N@xptr<i32>>
    tt.store %op, %c
    %flat = tt.reshape %j : block<@2N@xi32>
    %o2s = tt.splat %out2 : block<@2N@xptr<i32>>
    %o2p = tt.addptr %o2s, %r2 : block<@2N@xptr<i32>>
    tt.store %o2p, %flat
    tt.return
  })
})
)",
                     {{"N", n}, {"2N", 2 * n}});
}

// Along `axis` of an MxN i32 tile (row stride %stride): sums[...] = the inclusive
// prefix sum, lasts[...] = the last nonzero element so far (an associative combiner
// that is not commutative); `reverse` scans from the last index down. Outputs are MxN
// with row stride N.
inline std::string scanKernel(int64_t m, int64_t n, int64_t axis, bool reverse) {
  std::string text = std::string(R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 16, 16], sym_name = "scan"} ({
  ^(%x: ptr<i32>, %sums: ptr<i32>, %lasts: ptr<i32>, %stride: i32):)") +
                     kTileOffsets + R"(
    %xs = tt.splat %x : block<@M@x@N@xptr<i32>>
    %p = tt.addptr %xs, %off : block<@M@x@N@xptr<i32>>
    %v = tt.load %p : block<@M@x@N@xi32>
    %s = tt.scan %v {axis = @AXIS@, reverse = @REV@} : block<@M@x@N@xi32> ({
    ^(%a: i32, %b: i32):
      %r = arith.addi %a, %b : i32
      tt.scan.return %r
    })
    %l = tt.scan %v {axis = @AXIS@, reverse = @REV@} : block<@M@x@N@xi32> ({
    ^(%a: i32, %b: i32):
      %z = arith.constant {value = 0} : i32
      %nz = arith.cmpi %b, %z {predicate = "ne"} : i1
      %r = arith.select %nz, %b, %a : i32
      tt.scan.return %r
    })
    %ns = arith.constant {value = @N@} : block<@M@x1xi32>
    %orow = arith.muli %r2, %ns : block<@M@x1xi32>
    %orb = tt.broadcast %orow : block<@M@x@N@xi32>
    %oo = arith.addi %orb, %cob : block<@M@x@N@xi32>
    %ss = tt.splat %sums : block<@M@x@N@xptr<i32>>
    %sp = tt.addptr %ss, %oo : block<@M@x@N@xptr<i32>>
    tt.store %sp, %s
    %ls = tt.splat %lasts : block<@M@x@N@xptr<i32>>
    %lp = tt.addptr %ls, %oo : block<@M@x@N@xptr<i32>>
    tt.store %lp, %l
    tt.return
  })
})
)";
  for (size_t at = text.find("@REV@"); at != std::string::npos; at = text.find("@REV@"))
    text.replace(at, 5, reverse ? "true" : "false");
  return instantiate(text, {{"M", m}, {"N", n}, {"AXIS", axis}});
}

// c = a (MxK, row-major) @ b (KxN) + c0 (MxN); a and b hold `in` elements, c `acc` ones.
inline std::string dotKernel(int64_t m, int64_t n, int64_t k, const std::string &in, const std::string &acc) {
  std::string text = R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 16, 16], sym_name = "dot"} ({
  ^(%a: ptr<@IN@>, %b: ptr<@IN@>, %c0: ptr<@ACC@>, %c: ptr<@ACC@>):
    %rm = tt.make_range {end = @M@, start = 0} : block<@M@xi32>
    %rn = tt.make_range {end = @N@, start = 0} : block<@N@xi32>
    %rk = tt.make_range {end = @K@, start = 0} : block<@K@xi32>
    %am = tt.expand_dims %rm {axis = 1} : block<@M@x1xi32>
    %ak = tt.expand_dims %rk {axis = 0} : block<1x@K@xi32>
    %kc = arith.constant {value = @K@} : block<@M@x1xi32>
    %amk = arith.muli %am, %kc : block<@M@x1xi32>
    %amb = tt.broadcast %amk : block<@M@x@K@xi32>
    %akb = tt.broadcast %ak : block<@M@x@K@xi32>
    %aoff = arith.addi %amb, %akb : block<@M@x@K@xi32>
    %as = tt.splat %a : block<@M@x@K@xptr<@IN@>>
    %ap = tt.addptr %as, %aoff : block<@M@x@K@xptr<@IN@>>
    %av = tt.load %ap : block<@M@x@K@x@IN@>
    %bk = tt.expand_dims %rk {axis = 1} : block<@K@x1xi32>
    %bn = tt.expand_dims %rn {axis = 0} : block<1x@N@xi32>
    %nc = arith.constant {value = @N@} : block<@K@x1xi32>
    %bkn = arith.muli %bk, %nc : block<@K@x1xi32>
    %bkb = tt.broadcast %bkn : block<@K@x@N@xi32>
    %bnb = tt.broadcast %bn : block<@K@x@N@xi32>
    %boff = arith.addi %bkb, %bnb : block<@K@x@N@xi32>
    %bs = tt.splat %b : block<@K@x@N@xptr<@IN@>>
    %bp = tt.addptr %bs, %boff : block<@K@x@N@xptr<@IN@>>
    %bv = tt.load %bp : block<@K@x@N@x@IN@>
    %cm = tt.expand_dims %rm {axis = 1} : block<@M@x1xi32>
    %cn = tt.expand_dims %rn {axis = 0} : block<1x@N@xi32>
    %ncc = arith.constant {value = @N@} : block<@M@x1xi32>
    %cmn = arith.muli %cm, %ncc : block<@M@x1xi32>
    %cmb = tt.broadcast %cmn : block<@M@x@N@xi32>
    %cnb = tt.broadcast %cn : block<@M@x@N@xi32>
    %coff = arith.addi %cmb, %cnb : block<@M@x@N@xi32>
    %c0s = tt.splat %c0 : block<@M@x@N@xptr<@ACC@>>
    %c0p = tt.addptr %c0s, %coff : block<@M@x@N@xptr<@ACC@>>
    %c0v = tt.load %c0p : block<@M@x@N@x@ACC@>
    %d = tt.dot %av, %bv, %c0v : block<@M@x@N@x@ACC@>
    %cs = tt.splat %c : block<@M@x@N@xptr<@ACC@>>
    %cp = tt.addptr %cs, %coff : block<@M@x@N@xptr<@ACC@>>
    tt.store %cp, %d
    tt.return
  })
})
)";
  for (auto [key, value] : {std::pair<std::string, std::string>{"@IN@", in}, {"@ACC@", acc}})
    for (size_t at = text.find(key); at != std::string::npos; at = text.find(key))
      text.replace(at, key.size(), value);
  return instantiate(text, {{"M", m}, {"N", n}, {"K", k}});
}

} // namespace trident::simt::test
