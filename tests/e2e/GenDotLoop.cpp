// K loops: acc = dot(load(A tile k), load(B tile k), acc) for `trips` tiles k, then an
// epilogue. Each program (and outer loop slot) owns a matrix of A, M x (K * tiles), and
// one of B, (K * tiles) x N, row- or column-major; an iteration loads one tile of each:
//
//   - through pointers: offsets indexed by the iteration's tile, or pointers carried by
//     the loop that advance by a tile's K each iteration (the loads the SIMT lowering
//     pipelines with cp.async), masked along K, M or N sometimes;
//   - through a tensor descriptor (tt.descriptor_load without `checked`, Triton's
//     `desc.load`): only matrices that keep TensorDescriptor's contract (row-major rows of
//     16-byte multiples, a 16-byte aligned base, boxes of 16 bytes or more per row), whose
//     bounds are the masks' (zero padding);
//   - through a block pointer (`checked` = its boundary_check, `tl.make_block_ptr`), which
//     promises nothing of alignment: any matrix, column-major ones included.
//
// A tile may be loaded as its transpose and turned around by tt.trans, and get a relu
// before the dot; other work may run in the loop's body.

#include "GenDot.h"

#include <algorithm>

namespace trident::e2e {

bool tensorDescriptorContract(int64_t elementBytes, int64_t baseMultiple, int64_t rowStride, int64_t colStride,
                              int64_t boxCols) {
  return colStride == 1 && rowStride * elementBytes % 16 == 0 && baseMultiple * elementBytes % 16 == 0 &&
         boxCols * elementBytes >= 16;
}

// The matrix of one operand, `shape` the dot's view of its tile (K along `kAxis`), its
// data and its strides.
void DotGen::layoutTile(LoopTile &s, std::vector<int64_t> shape, int kAxis, const DotRange &r, const char *name,
                        const DotKind &kind, int64_t kd, int64_t tiles) {
  s.range = &r;
  s.trans = rng.chance(0.08);
  if (s.trans) {
    std::swap(shape[0], shape[1]);
    kAxis = 1 - kAxis;
  }
  s.tile = shape, s.kAxis = kAxis;
  bool colMajor = rng.chance(0.3);
  // The matrix all tiles lie in: tile dims, with the K axis `tiles` times longer.
  int64_t rows = shape[0] * (kAxis == 0 ? tiles : 1), cols = shape[1] * (kAxis == 1 ? tiles : 1);
  s.rows = rows, s.cols = cols;
  s.rowStride = colMajor ? 1 : cols;
  s.colStride = colMajor ? rows : 1;
  s.advance = kd * (kAxis == 0 ? s.rowStride : s.colStride);
  int64_t per = rows * cols;
  size_t count = size_t(g.numPrograms_ * g.scopes_.back().slotCount * per);
  s.param = newInput(kind.in, count, r, name);
  s.index = strided(shape, s.rowStride, s.colStride);
  s.base = tileBase(per);
  s.keepsContract = tensorDescriptorContract(int64_t(kind.in.bitWidth() / 8), per, s.rowStride, s.colStride, shape[1]);
}

// This iteration's tile through pointers, masked along K (kBound) and across it (edgeBound).
Value *DotGen::pointerLoad(const KLoopState &k, LoopTile &s, unsigned argIndex, Value *edgeBound) {
  Value *ptrs;
  if (k.advancing) {
    ptrs = k.body->argument(argIndex);
  } else {
    Value *start = note(g.b_.binary(OpCode::AddI, s.base, note(g.b_.binary(OpCode::MulI, k.index, i32(s.advance)))));
    ptrs = note(g.b_.addPtr(note(g.b_.splat(s.param, s.tile)),
                            note(g.b_.binary(OpCode::AddI, note(g.b_.splat(start, s.tile)), s.index))));
  }
  Value *mask = nullptr;
  auto conj = [&](Value *c) { mask = mask ? note(g.b_.binary(OpCode::AndI, mask, c)) : c; };
  if (k.kBound) {
    Value *kStart = note(g.b_.splat(note(g.b_.binary(OpCode::MulI, k.index, i32(k.kd))), s.tile));
    Value *kPos = note(g.b_.binary(OpCode::AddI, kStart, g.axisIndex(s.tile, s.kAxis)));
    conj(note(g.b_.cmpi("slt", kPos, note(g.b_.splat(k.kBound, s.tile)))));
  }
  if (edgeBound)
    conj(note(g.b_.cmpi("slt", g.axisIndex(s.tile, 1 - s.kAxis), note(g.b_.splat(edgeBound, s.tile)))));
  if (mask)
    g.use("mask");
  Type t = Type::block(s.tile, k.kind.in);
  return maskedLoad(ptrs, mask, t, factsOf(k.kind.in, *s.range), *s.range);
}

// This iteration's tile by tt.descriptor_load: the tensor is the program's matrix, the
// box's K offset the iteration's, and the bounds are the dimensions' sizes (zero padding
// for masks). With `checked` (a block pointer's boundary_check) the dimensions with a
// bound and some others; without it (a tensor descriptor) every dimension is checked, and
// only matrices that keep the contract are read so.
Value *DotGen::descriptorLoad(const KLoopState &k, LoopTile &s, Value *edgeBound) {
  std::vector<Value *> operands = {note(g.b_.addPtr(s.param, s.base))}, strides, offsets;
  int64_t checked = 0;
  for (int d = 0; d < 2; ++d) {
    Value *bound = d == s.kAxis ? k.kBound : edgeBound;
    if (bound || side.chance(0.5))
      checked |= int64_t(1) << d;
    operands.push_back(bound ? note(g.b_.cast(OpCode::ExtSI, bound, Type::i64()))
                             : g.constInt(d == 0 ? s.rows : s.cols, Type::i64()));
    strides.push_back(g.constInt(d == 0 ? s.rowStride : s.colStride, Type::i64()));
    offsets.push_back(d == s.kAxis ? note(g.b_.binary(OpCode::MulI, k.index, i32(k.kd))) : i32(0));
  }
  operands.insert(operands.end(), strides.begin(), strides.end());
  operands.insert(operands.end(), offsets.begin(), offsets.end());
  AttributeList attrs;
  attrs.set("padding", Attribute::string("zero"));
  // A matrix that breaks TensorDescriptor's contract (column-major, rows of other than
  // 16-byte multiples, boxes under 16 bytes a row) is read through a block pointer.
  if (checked != 3 || !s.keepsContract || side.chance(0.5))
    attrs.set("checked", Attribute::integer(checked));
  if (k.kBound || edgeBound)
    g.use("mask");
  g.use("descriptor");
  Type t = Type::block(s.tile, k.kind.in);
  Op *load = g.b_.create(OpCode::DescriptorLoad, operands, std::span<const Type>(&t, 1), attrs);
  // Zero padding is inside every range factsOf gives.
  return g.recordWith(load->result(), factsOf(k.kind.in, *s.range), false);
}

// The dot's operand of this iteration: the tile, turned around if loaded transposed, and
// now and then a relu.
Value *DotGen::loadSide(const KLoopState &k, LoopTile &s, unsigned argIndex, Value *edgeBound) {
  Value *v = s.descriptor ? descriptorLoad(k, s, edgeBound) : pointerLoad(k, s, argIndex, edgeBound);
  if (s.trans) {
    g.use("shape");
    v = g.record(g.b_.trans(v, std::vector<int64_t>{1, 0}));
  }
  // An elementwise op between the load and the dot, now and then.
  if (rng.chance(0.06)) {
    Value *w = g.record(g.b_.binary(v->type().element().isFloat() ? OpCode::MaxNumF : OpCode::MaxSI, v,
                                    v->type().element().isFloat() ? g.constFloat(0, v->type())
                                                                  : g.constInt(0, v->type())));
    v = w;
  }
  return v;
}

bool DotGen::loop(DotKind kind) {
  if (!g.budgetLeft())
    return false;
  int64_t trips = int64_t(rng.weighted({0.08, 0.2, 0.3, 0.27, 0.15}));
  int64_t tiles = std::max<int64_t>(trips, 1);
  std::vector<int64_t> as, bs;
  pickShape(kind, true, g.numPrograms_ * g.scopes_.back().slotCount * tiles, as, bs);
  // Now and then the tiles come through tensor descriptors or block pointers
  // (tt.descriptor_load). sm_90's tensor maps serve the tiles of warpgroup dots (M of 64
  // on four warps): such loops often get that M.
  bool descriptors = g.enabled("descriptor") && side.chance(0.3);
  if (descriptors && as[0] % 16 == 0 && as[0] < 64 && as[1] % 16 == 0 && bs[1] % 8 == 0 && side.chance(0.6))
    as[0] = 64;
  int64_t m = as[0], kd = as[1], n = bs[1];
  std::vector<int64_t> cs = {m, n};
  int64_t step = rng.range(1, 3), lb = rng.range(-3, 3);
  int64_t ub = trips == 0 ? lb - rng.range(0, 2) : lb + (trips - 1) * step + 1 + rng.range(0, step - 1);
  DotRange ra, rb;
  pickRanges(kind, kd * tiles, ra, rb);
  Type ct = Type::block(cs, kind.acc);
  Value *acc0 = accumulator(ct, ra, rb, kd * tiles);
  // Check the whole loop's sums before building it: tiles * K products per element.
  Facts fa = factsOf(kind.in, ra), fb = factsOf(kind.in, rb);
  {
    bool tf32 = kind.in == Type::f32() && kind.precision != "ieee";
    if (tf32 && !(fitsTf32(fa) && fitsTf32(fb)))
      kind.precision = "ieee", tf32 = false;
    // Relu on an operand keeps its facts within the range; the others below do too.
    if (!g.acceptable(ct, dotFacts(kind.acc, fa, fb, g.facts(acc0), kd * tiles, tf32)))
      return false;
  }

  LoopTile sa, sb;
  layoutTile(sa, as, 1, ra, "a", kind, kd, tiles);
  layoutTile(sb, bs, 0, rb, "b", kind, kd, tiles);
  for (LoopTile *s : {&sa, &sb})
    s->descriptor = descriptors && side.chance(0.85);
  KLoopState k;
  k.kind = kind, k.kd = kd;
  k.advancing = !descriptors && rng.chance(0.6);
  for (LoopTile *s : {&sa, &sb})
    if (k.advancing)
      s->ptrs0 = note(g.b_.addPtr(note(g.b_.splat(s->param, s->tile)),
                                  note(g.b_.binary(OpCode::AddI, note(g.b_.splat(s->base, s->tile)), s->index))));
  // Masks: K beyond a bound (the last tile partly), rows of A or columns of B beyond one.
  bool maskK = g.enabled("mask") && rng.chance(0.3);
  int64_t kValid = rng.chance(0.7) ? rng.range(kd * (tiles - 1) + 1, kd * tiles) : rng.range(0, kd * tiles);
  k.kBound = maskK ? g.addScalarParam(Type::i32(), uint64_t(kValid), intFacts(kValid, kValid), "k") : nullptr;
  auto edge = [&](int64_t dim) -> Value * {
    if (!g.enabled("mask") || !rng.chance(0.12))
      return nullptr;
    int64_t v = rng.range(0, dim);
    return g.addScalarParam(Type::i32(), uint64_t(v), intFacts(v, v), "bound");
  };
  Value *rowBound = edge(m), *colBound = edge(n);

  Type boundType = g.typeEnabled(Type::i64()) && rng.chance(0.2) ? Type::i64() : Type::i32();
  auto bound = [&](int64_t v) {
    if (g.enabled("scalar-args") && rng.chance(0.3)) {
      g.use("scalar-args");
      return g.addScalarParam(boundType, uint64_t(v), intFacts(v, v), "b");
    }
    return g.constInt(v, boundType);
  };
  Value *lbv = bound(lb), *ubv = bound(ub), *stepv = bound(step);
  std::vector<Value *> inits = {acc0};
  if (k.advancing)
    inits.push_back(sa.ptrs0), inits.push_back(sb.ptrs0);
  g.use("loop");
  Op *loopOp = g.b_.forOp(lbv, ubv, stepv, inits);
  g.loops_[loopOp] = {lb, step, trips};
  if (rng.chance(0.3))
    loopOp->setAttr("num_stages", Attribute::integer(rng.range(1, 4)));
  Block *body = loopOp->region();
  k.body = body;
  Builder outer = g.b_;
  g.b_.setInsertionPointToEnd(body);
  g.enterScope();
  Value *iv = body->argument(0);
  g.recordWith(iv, trips > 0 ? intFacts(lb, lb + (trips - 1) * step) : intFacts(lb, lb));
  Facts accFacts = join(g.facts(acc0), dotFacts(kind.acc, fa, fb, g.facts(acc0), kd * tiles,
                                                 kind.in == Type::f32() && kind.precision != "ieee"));
  Value *accArg = g.recordWith(body->argument(1), accFacts, false);
  if (k.advancing) {
    g.recordWith(body->argument(2), otherFacts(), false);
    g.recordWith(body->argument(3), otherFacts(), false);
  }
  // This iteration's tile (and slot): (iv - lb) / step.
  Generator::Scope &scope = g.scopes_.back();
  Value *iv32 = boundType == Type::i64() ? note(g.b_.cast(OpCode::TruncI, iv, Type::i32())) : iv;
  k.index = note(g.b_.binary(OpCode::DivSI, note(g.b_.binary(OpCode::SubI, iv32, i32(lb))), i32(step)));
  g.facts_[k.index] = intFacts(0, tiles - 1);
  Value *slot = k.index;
  if (scope.slot)
    slot = note(g.b_.binary(OpCode::AddI, note(g.b_.binary(OpCode::MulI, scope.slot, i32(tiles))), k.index));
  scope.slot = slot;
  scope.slotCount *= tiles;

  Value *a = loadSide(k, sa, 2, rowBound), *b = loadSide(k, sb, 3, colBound);
  Value *d = g.record(g.b_.dot(a, b, accArg, kind.precision));
  g.pool_.push_back(a);
  g.pool_.push_back(b);
  std::vector<Value *> yields = {d};
  if (k.advancing)
    for (auto [s, arg] : {std::pair{&sa, 2u}, std::pair{&sb, 3u}}) {
      Type offsetType = Type::block(s->tile, Type::i32());
      yields.push_back(note(g.b_.addPtr(body->argument(arg), g.constInt(s->advance, offsetType))));
    }
  // Other work in the loop, now and then.
  if (rng.chance(0.25))
    g.genBody(int(rng.range(1, 2)));
  g.b_.yield(yields);
  g.exitScope();
  g.b_ = outer;
  Value *result = g.record(loopOp->result(0));
  for (unsigned i = 1; i < loopOp->numResults(); ++i)
    g.recordWith(loopOp->result(i), otherFacts(), false);
  epilogue(result);
  return true;
}

} // namespace trident::e2e
