// Dots on cooperative matrices (Vulkan's VK_KHR_cooperative_matrix; TargetDesc::
// coopMatrices): each subgroup computes its part of the result as tiles of the
// device's shape (m x n, k at a time), held in coopmat values whose layout over the
// invocations only the driver knows. So they are never taken apart: A and B are
// written to shared memory (row by row, or column by column where that is how their
// registers are contiguous; rows padded by 16 bytes where they fit, so that the rows of
// a tile fall in distinct banks, else tile by tile) and each k step loads their tiles
// from there; a loop-invariant operand is loaded as tiles once, before the loop; operands the loop
// loads an iteration ahead (Pipeline.h) may go to two buffers by turns. An accumulator
// carried by a loop stays a coopmat through it, also through a product by a scale per
// row (its block value is "laid out" as coopLayout, a marker the conversions
// recognise); every other use gets the result through shared memory in
// coopResultLayout, stored tile by tile and read back one row of tiles per subgroup at
// a time so the buffer stays small (and the other way round).
//
//   %acc = scf.for ... iter_args(%c = zeros) { %d = tt.dot %a, %b, %c; scf.yield %d }
// ->
//   %z = th.coop_fill %cst0 : coopmat<16x16xf32, acc>                  (one per tile)
//   %r = scf.for ..., %z, ... : coopmat<16x16xf32, acc>, ... ({
//     th.store_shared %sa, ... (A, rows of K + 8)   th.store_shared %sb, ... (B, rows of N + 8)
//     %ta = th.coop_load %sa, %ia {layout = "row", stride = K + 8} : coopmat<16x16xf16, a>
//     %tb = th.coop_load %sb, %ib {layout = "row", stride = N + 8} : coopmat<16x16xf16, b>
//     %d = th.coop_mma %ta, %tb, %c0 : coopmat<16x16xf32, acc>          (per tile and k step)
//     scf.yield %d, ... })
//   th.coop_store %buf, %i, %r {layout = "row", stride = N}          (a row of tiles)
//   %x = th.load_shared %buf, ... : vector<4xf32>                      (in the store's layout)
//
//   %s = arith.mulf %c, %alpha_rows; %d = tt.dot %a, %b, %s   (in the loop)
// ->
//   th.store_shared %strip, ... (M x 16: row r holds 16 copies of alpha[r])
//   %t = th.coop_load %strip, %i {layout = "row", stride = 16} : coopmat<16x16xf32, acc>
//   %s0 = arith.mulf %c0, %t : coopmat<16x16xf32, acc>                (per tile of the row)
//
// Where the target knows which element each invocation's component holds
// (CoopMatrixShape::layouts, e.g. NVIDIA's mma.sync fragments), nothing of that goes
// through shared memory but the loaded operands: a result is extracted into its
// components' layout (coopComponentLayout, DotLayout.h), and tiles are built by inserts
// from registers already in a tile's layout (attention's P, a row scale, a C):
//
//   %s = tt.dot %q, %k, %zeros; %p = arith.truncf (softmax of %s); %o = tt.dot %p, %v, %acc
// ->
//   %x0 = th.coop_extract %s0 {index = 0} : f32 ...                   (8 per tile: registers)
//   ... row max / exp2 / row sum on registers (shuffles within a row's 4 lanes) ...
//   %z = th.coop_fill %cst0 : coopmat<16x16xf16, a>
//   %p0 = th.coop_insert %z, %h0 {index = 0} : coopmat<16x16xf16, a> ... (8 per tile of P)
//   %o0 = th.coop_mma %p0, %v0, %acc0 : coopmat<16x16xf32, acc>
#include "CoopOwnership.h"
#include "LowerContext.h"
#include "trident/simt/DotLayout.h"

#include <algorithm>
#include <cassert>
#include <map>

namespace trident::simt {

namespace {

int64_t flatOf(std::span<const int64_t> shape, int64_t row, int64_t col) { return row * shape[1] + col; }

std::optional<CoopPlan> planCoop(const Lowering &l, const Op *dot) {
  return simt::planCoop(dot, l.target, l.layouts.numWarps);
}

// The M x 1 block that `v` broadcasts along the columns of a rank-2 block (a scale per
// row: attention's alpha[:, None]), or null.
Value *rowScale(Value *v) {
  const Op *def = v->definingOp();
  if (!def || !def->is(OpCode::Broadcast) || v->type().rank() != 2)
    return nullptr;
  Value *src = def->operand(0);
  return src->type().rank() == 2 && src->type().shape()[1] == 1 && src->type().shape()[0] == v->type().shape()[0]
             ? src
             : nullptr;
}

// The marker layout of a result held as cooperative matrices: a register per tile of
// the subgroup's part (columns of tiles first), warps tiling M then N; the lanes, whose
// part the driver decides, are -1 (no real layout has a negative basis).
LinearLayout coopLayout(std::span<const int64_t> shape, const CoopPlan &plan, unsigned warpSize) {
  int64_t RM = shape[0] / plan.warpsM, RN = shape[1] / plan.warpsN;
  std::vector<int64_t> reg, warp;
  for (int64_t j = plan.shape->n; j < RN; j *= 2)
    reg.push_back(flatOf(shape, 0, j));
  for (int64_t i = plan.shape->m; i < RM; i *= 2)
    reg.push_back(flatOf(shape, i, 0));
  for (int64_t w = 1; w < plan.warpsM; w *= 2)
    warp.push_back(flatOf(shape, RM * w, 0));
  for (int64_t w = 1; w < plan.warpsN; w *= 2)
    warp.push_back(flatOf(shape, 0, RN * w));
  // Warps of one lane (the CPU) have no lane bit: one -1 still marks the layout.
  return LinearLayout({shape[0], shape[1]}, reg, std::vector<int64_t>(std::max(1u, log2Exact(warpSize)), -1), warp);
}

// The plan a coopLayout was made for, read back from its bases.
CoopPlan planOf(const Lowering &l, const LinearLayout &layout, const CoopMatrixShape *shape) {
  CoopPlan plan{shape, 1, 1};
  for (int64_t b : layout.warpBases())
    (b >= layout.shape()[1] ? plan.warpsM : plan.warpsN) *= 2;
  (void)l;
  return plan;
}

// This subgroup's offset in elements: the sum over the set bits i of its warp id of
// `offsetOf(warp basis i)`. A sum, not the XOR of a layout: padded rows make offsets
// that share bits.
template <class F> Value *subgroupBase(Lowering &l, const LinearLayout &layout, F offsetOf) {
  Value *sum = nullptr;
  for (size_t i = 0; i < layout.warpBases().size(); ++i) {
    int64_t offset = offsetOf(layout.warpBases()[i]);
    if (!offset)
      continue;
    Value *bit = l.b.binary(OpCode::AndI, l.b.binary(OpCode::ShRUI, l.warpId(), l.constI32(int64_t(i))), l.constI32(1));
    Value *term = l.b.binary(OpCode::MulI, bit, l.constI32(offset));
    sum = sum ? l.b.binary(OpCode::AddI, sum, term) : term;
  }
  return sum ? sum : l.constI32(0);
}

Value *plus(Lowering &l, Value *base, int64_t offset) {
  return offset ? l.b.binary(OpCode::AddI, base, l.constI32(offset)) : base;
}

Value *coopLoad(Lowering &l, Value *buffer, Value *index, int64_t stride, Type type, const char *layout = "row") {
  Value *operands[] = {buffer, index};
  Type types[] = {type};
  return l.b.create(OpCode::ThCoopLoad, operands, types,
                    {{"stride", Attribute::integer(stride)}, {"layout", Attribute::string(layout)}})
      ->result();
}

void coopStore(Lowering &l, Value *buffer, Value *index, Value *m, int64_t stride) {
  Value *operands[] = {buffer, index, m};
  l.b.create(OpCode::ThCoopStore, operands, std::span<const Type>{},
             {{"stride", Attribute::integer(stride)}, {"layout", Attribute::string("row")}});
}

// Components of a tile of `s` for `use` (its known layout's registers).
int64_t componentsOf(const CoopMatrixShape &s, unsigned use) {
  return int64_t(1) << s.layouts->of(use).componentBits.size();
}

// Tiles (coopmat values in coopLayout's order) as the block `layout` (coopComponentLayout)
// holds them: each tile's components extracted, tile after tile.
Lowered extractTiles(Lowering &l, const std::vector<Value *> &tiles, const LinearLayout &layout, int64_t components) {
  Lowered out{layout, {}};
  for (Value *tile : tiles) {
    Type element = tile->type().element();
    for (int64_t i = 0; i < components; ++i) {
      Value *operands[] = {tile};
      Type types[] = {element};
      out.regs.push_back(
          l.b.create(OpCode::ThCoopExtract, operands, types, {{"index", Attribute::integer(i)}})->result());
    }
  }
  return out;
}

// Registers [first, first + components) of `regs` as one tile of type `tile`: inserted,
// component by component, into a tile of zeros.
Value *insertTile(Lowering &l, const std::vector<Value *> &regs, int64_t first, int64_t components, Type tile) {
  Type element = tile.element();
  Value *zero[] = {element.isFloat() ? l.b.constFloat(0, element) : l.b.constInt(0, element)};
  Type types[] = {tile};
  Value *m = l.b.create(OpCode::ThCoopFill, zero, types)->result();
  for (int64_t i = 0; i < components; ++i) {
    Value *operands[] = {m, regs[size_t(first + i)]};
    m = l.b.create(OpCode::ThCoopInsert, operands, types, {{"index", Attribute::integer(i)}})->result();
  }
  return m;
}

// The cooperative-matrix shape of tiles held as `layout` with element type `element`.
const CoopMatrixShape *shapeFor(const Lowering &l, const LinearLayout &layout, Type element) {
  for (const CoopMatrixShape &s : l.target.coopMatrices) {
    if (s.resultType != element)
      continue;
    CoopPlan plan = planOf(l, layout, &s);
    if (layout.shape()[0] % (s.m * plan.warpsM) == 0 && layout.shape()[1] % (s.n * plan.warpsN) == 0 &&
        coopLayout(layout.shape(), plan, l.target.warpSize) == layout)
      return &s;
  }
  return nullptr;
}

// How a conversion between tiles (coopLayout `tiles`) and an ordinary layout `other`
// moves through shared memory: in rounds when each subgroup holds several rows of tiles
// (rm > 1) and `other` holds every such row in registers (no lane or warp basis picks
// the row of tiles): each round moves one row of tiles of every subgroup's part through
// a buffer of warpsM * m rows. Else the whole block at once, row-major.
struct CoopRounds {
  CoopPlan plan;
  int64_t tileRows = 1;               // rows of tiles per subgroup
  int64_t rm = 1, rn = 1, count = 1; // rows and columns of tiles per round, rounds
  SharedLayout at;                    // element (row, col) -> its offset in its round's buffer
  int64_t bufferElements = 0;
  unsigned colBits = 0, mBits = 0;
  int64_t tileRow(int64_t flat) const { return ((flat >> colBits) >> mBits) & (rm - 1); }
};

CoopRounds coopRounds(const Lowering &l, const LinearLayout &tiles, const CoopMatrixShape &s,
                      const LinearLayout &other) {
  std::span<const int64_t> shape = other.shape();
  CoopRounds r;
  r.plan = planOf(l, tiles, &s);
  int64_t M = shape[0], N = shape[1];
  r.tileRows = r.rm = M / r.plan.warpsM / s.m;
  r.rn = N / r.plan.warpsN / s.n;
  r.colBits = log2Exact(N);
  r.mBits = log2Exact(s.m);
  bool rounds = r.rm > 1;
  for (const std::vector<int64_t> *bases : {&other.laneBases(), &other.warpBases()})
    for (int64_t b : *bases)
      rounds = rounds && r.tileRow(b) == 0;
  if (!rounds) {
    r.rn *= r.rm; // one round of every tile
    r.rm = 1;
    r.at = SharedLayout::rowMajor(M * N);
    r.bufferElements = M * N;
    return r;
  }
  // The rows of a tile stay, the row of tiles is the round (offset 0), the subgroups' rows stack.
  unsigned rmBits = log2Exact(r.rm);
  for (unsigned bit = 0; bit < r.colBits; ++bit)
    r.at.bases.push_back(int64_t(1) << bit);
  for (unsigned bit = 0; bit < log2Exact(M); ++bit) {
    int64_t row = int64_t(1) << bit;
    r.at.bases.push_back(bit < r.mBits ? row * N : bit < r.mBits + rmBits ? 0 : (row >> rmBits) * N);
  }
  r.count = r.rm;
  r.bufferElements = r.plan.warpsM * s.m * N;
  return r;
}

// A conversion buffer between `tiles` and `other` that each subgroup uses alone is marked
// so (Barriers.h), where the target takes subgroup barriers.
void markIfOwned(Lowering &l, Value *buffer, const LinearLayout &tiles, const CoopMatrixShape &s,
                 const LinearLayout &other, const SharedLayout &at, int64_t N) {
  if (l.target.subgroupBarriers && ownedBySubgroups(tiles, s, other, at, N))
    buffer->definingOp()->setAttr("subgroup", Attribute::integer(1));
}

// Which registers of `layout` hold elements of round `round` (all of them with one round).
std::vector<bool> roundRegisters(const CoopRounds &r, const LinearLayout &layout, int64_t round) {
  std::vector<bool> only(size_t(layout.numRegisters()), false);
  for (int64_t reg = 0; reg < layout.numRegisters(); ++reg)
    only[size_t(reg)] = r.count == 1 || r.tileRow(layout.registerOffset(reg)) == round;
  return only;
}

// Tiles held as `layout` (coopLayout), to `dst`, through shared memory (coopRounds); a
// `dst` that allows no rounds where there could be some goes through a blocked layout.
Lowered materialize(Lowering &l, const Lowered &tiles, const CoopMatrixShape &s, const LinearLayout &dst, Type element) {
  if (s.layouts) { // the components in their own layout, then as any conversion
    LinearLayout known = coopComponentLayout(dst.shape(), planOf(l, tiles.layout, &s), 2);
    return l.convert(extractTiles(l, tiles.regs, known, componentsOf(s, 2)), dst);
  }
  CoopRounds r = coopRounds(l, tiles.layout, s, dst);
  if (r.count == 1 && r.tileRows > 1) {
    LinearLayout blocked = LinearLayout::defaultBlocked(dst.shape(), l.target.warpSize, l.layouts.numWarps, 4);
    if (blocked != dst && coopRounds(l, tiles.layout, s, blocked).count > 1)
      return l.convert(materialize(l, tiles, s, blocked, element), dst);
  }
  int64_t N = dst.shape()[1];
  Value *buffer = l.sharedAlloc(element, r.bufferElements);
  markIfOwned(l, buffer, tiles.layout, s, dst, r.at, N);
  Value *base = subgroupBase(l, tiles.layout, [&](int64_t b) { return r.at.offset(b); });
  Lowered out{dst, std::vector<Value *>(size_t(dst.numRegisters()), nullptr)};
  for (int64_t round = 0; round < r.count; ++round) {
    for (int64_t t = 0; t < r.rn; ++t) {
      int64_t reg = round * r.rn + t;
      coopStore(l, buffer, plus(l, base, r.at.offset(tiles.layout.registerOffset(reg))), tiles.regs[size_t(reg)], N);
    }
    std::vector<bool> only = roundRegisters(r, dst, round);
    if (std::none_of(only.begin(), only.end(), [](bool b) { return b; }))
      continue;
    Lowered read = l.readShared(buffer, element, dst, r.at, &only);
    for (size_t i = 0; i < out.regs.size(); ++i)
      if (only[i])
        out.regs[i] = read.regs[i];
  }
  return out;
}

// Writes the registers `only` of `src` to `buffer` arranged as `at` (one thread of each
// group of replicas, vectors as wide as the registers are contiguous there).
void writeSome(Lowering &l, Value *buffer, const Lowered &src, const SharedLayout &at, const std::vector<bool> &only) {
  Type storage = Lowering::storageType(src.regs[0]->type());
  int64_t maxWidth = std::max<int64_t>(1, l.target.maxVectorBytes / (storage.bitWidth() / 8));
  LinearLayout offsets = at.offsets(src.layout);
  int64_t width = std::min(contiguousSharedRegisters(offsets), maxWidth);
  int64_t dups = src.layout.registerReplicationMask();
  Value *owner = l.ownerPredicate(src.layout);
  for (int64_t r = 0; r < src.layout.numRegisters(); r += width) {
    if ((r & dups) || !only[size_t(r)])
      continue;
    std::vector<Value *> stored;
    for (int64_t i = 0; i < width; ++i)
      stored.push_back(l.toStorage(src.regs[size_t(r + i)]));
    std::vector<Value *> operands{buffer, l.elementIndex(offsets, r), packRegisters(l, stored, 0, width)};
    if (owner)
      operands.push_back(owner);
    l.b.create(OpCode::ThStoreShared, operands, std::span<const Type>{});
  }
}

// `src` (an ordinary layout) as tiles of `dst` (coopLayout): a block every thread holds
// one value of (a splat, tl.zeros) fills them; anything else goes through shared memory,
// in rounds where `src` allows them (coopRounds).
Lowered toTiles(Lowering &l, const Lowered &src, const LinearLayout &dst, const CoopMatrixShape &s, Type element) {
  Type tile = Type::coopMatrix(s.m, s.n, element, 2);
  Lowered out{dst, {}};
  bool splat = std::all_of(src.regs.begin(), src.regs.end(), [&](Value *v) { return v == src.regs[0]; });
  if (splat) {
    Value *x[] = {src.regs[0]};
    Type types[] = {tile};
    Value *fill = l.b.create(OpCode::ThCoopFill, x, types)->result();
    out.regs.assign(size_t(dst.numRegisters()), fill);
    return out;
  }
  if (s.layouts) { // converted to the components' layout, each tile built from its registers
    Lowered regs = l.convert(src, coopComponentLayout(dst.shape(), planOf(l, dst, &s), 2));
    int64_t components = componentsOf(s, 2);
    for (int64_t t = 0; t < dst.numRegisters(); ++t)
      out.regs.push_back(insertTile(l, regs.regs, t * components, components, tile));
    return out;
  }
  CoopRounds r = coopRounds(l, dst, s, src.layout);
  int64_t N = dst.shape()[1];
  Value *buffer = l.sharedAlloc(element, r.bufferElements);
  markIfOwned(l, buffer, dst, s, src.layout, r.at, N);
  Value *base = subgroupBase(l, dst, [&](int64_t b) { return r.at.offset(b); });
  for (int64_t round = 0; round < r.count; ++round) {
    writeSome(l, buffer, src, r.at, roundRegisters(r, src.layout, round));
    for (int64_t t = 0; t < r.rn; ++t) {
      int64_t reg = round * r.rn + t;
      out.regs.push_back(coopLoad(l, buffer, plus(l, base, r.at.offset(dst.registerOffset(reg))), N, tile));
    }
  }
  return out;
}

// How a dot operand (rows x cols) lies in its shared array: row by row with rows of
// `cols + pad` elements, or (`transposed`) column by column with columns of `rows + pad`:
// the way its registers hold contiguous elements, so that its stores are as wide as its
// registers (attention's K^T tile is contiguous down its columns). 16 bytes of padding
// put the rows (columns) of a tile in distinct banks (64 or 128 bytes would share them).
// Where the padding does not fit (128x256x64 at 48 KiB: rows of 128 and 512 bytes, every
// row of a tile in the same banks) the array is `tiled`: tile by tile, each tile's lines
// (rows, or columns where transposed) contiguous, so a tile is one run of bytes loaded
// with the stride of its line and the array needs no more than the operand's bytes.
struct OperandArray {
  int64_t rows = 0, cols = 0, pad = 0;
  bool transposed = false, tiled = false;
  int64_t line = 0, lines = 0; // tiled: a tile's extent along its lines and across them

  // Along the lines (contiguous) and across them.
  int64_t along() const { return transposed ? rows : cols; }
  int64_t across() const { return transposed ? cols : rows; }
  int64_t stride() const { return tiled ? line : along() + pad; }
  int64_t elements() const { return tiled ? rows * cols : across() * (along() + pad); }
  // Where element (row, col) of the operand is in the array.
  int64_t at(int64_t row, int64_t col) const {
    int64_t q = transposed ? row : col, p = transposed ? col : row;
    if (!tiled)
      return p * stride() + q;
    return (p / lines) * lines * along() + (q / line) * lines * line + (p % lines) * line + q % line;
  }
  // The same for `row` and `col` computed by the program.
  Value *at(Lowering &l, Value *row, Value *col) const {
    Value *q = transposed ? row : col, *p = transposed ? col : row;
    auto mul = [&](Value *v, int64_t k) { return l.b.binary(OpCode::ShLI, v, l.constI32(log2Exact(k))); };
    auto add = [&](Value *x, Value *y) { return l.b.binary(OpCode::AddI, x, y); };
    if (!tiled)
      return add(l.b.binary(OpCode::MulI, p, l.constI32(stride())), q);
    auto div = [&](Value *v, int64_t k) { return l.b.binary(OpCode::ShRUI, v, l.constI32(log2Exact(k))); };
    auto mod = [&](Value *v, int64_t k) { return l.b.binary(OpCode::AndI, v, l.constI32(k - 1)); };
    return add(add(mul(div(p, lines), lines * along()), mul(div(q, line), lines * line)),
               add(mul(mod(p, lines), line), mod(q, line)));
  }
};

// `src` written to its array `a` (a new shared allocation, or `buffer` at element
// `offset`).
Value *writeOperand(Lowering &l, const Lowered &src, const OperandArray &a, Value *buffer = nullptr,
                    Value *offset = nullptr) {
  Type element = src.regs[0]->type();
  Type storage = Lowering::storageType(element);
  int64_t maxWidth = std::max<int64_t>(1, l.target.maxVectorBytes / (storage.bitWidth() / 8));
  if (!buffer)
    buffer = l.sharedAlloc(element, a.elements());
  int64_t width = std::min(src.layout.contiguousRegisters(a.transposed ? 0 : 1), maxWidth);
  if (a.tiled)
    width = std::min(width, a.line); // a store stays inside one line of a tile
  int64_t dups = src.layout.registerReplicationMask();
  Value *owner = l.ownerPredicate(src.layout);
  unsigned colBits = log2Exact(a.cols);
  for (int64_t r = 0; r < src.layout.numRegisters(); r += width) {
    if (r & dups)
      continue;
    std::vector<Value *> stored;
    for (int64_t i = 0; i < width; ++i)
      stored.push_back(l.toStorage(src.regs[size_t(r + i)]));
    Value *flat = l.elementIndex(src.layout, r);
    Value *index = nullptr;
    if (!a.tiled && !a.transposed) {
      Value *row = l.b.binary(OpCode::ShRUI, flat, l.constI32(colBits));
      index = a.pad ? l.b.binary(OpCode::AddI, flat, l.b.binary(OpCode::MulI, row, l.constI32(a.pad))) : flat;
    } else {
      Value *row = l.b.binary(OpCode::ShRUI, flat, l.constI32(colBits));
      Value *col = l.b.binary(OpCode::AndI, flat, l.constI32(a.cols - 1));
      index = a.at(l, row, col);
    }
    if (offset)
      index = l.b.binary(OpCode::AddI, index, offset);
    std::vector<Value *> operands{buffer, index, packRegisters(l, stored, 0, width)};
    if (owner)
      operands.push_back(owner);
    l.b.create(OpCode::ThStoreShared, operands, std::span<const Type>{});
  }
  return buffer;
}

// The tiles of dot operand A (which = 0) or B (1) of a dot whose result is held as
// `layout` (coopLayout): written to shared memory row-major with rows padded by `pad`
// elements and loaded tile by tile in each k step; or, when the operand does not change
// in the loop being lowered (attention's Q), loaded once before the loop and kept in
// registers through it, so that its shared memory is free inside the loop (at
// HEAD_DIM 128, Q's 32 KiB and the loop's tiles would not fit NVIDIA's 48 KiB). An
// operand the loop loads an iteration ahead (`pre`, Pipeline.h) with `twice` goes to one
// of two buffers allocated before the loop, by the iteration's parity: the next
// iteration's stores then need no barrier after this one's tile loads (the one barrier
// between each iteration's stores and its loads orders the buffer written next too).
// With CoopPrefetch::Late (pre->late) the buffer (one or two) lives through the loop:
// the first iteration's registers are stored before the loop, and storeNext() stores the
// next iteration's after this one's matrix operations (into the other half when twice).
class CoopOperand {
public:
  CoopOperand(Lowering &l, Value *v, int which, const LinearLayout &layout, const CoopMatrixShape &s,
              int64_t pad, bool tiled, const Lowering::Prefetched *pre, bool twice)
      : l_(l), which_(which), s_(s) {
    std::span<const int64_t> shape = v->type().shape();
    a_.rows = shape[0];
    a_.cols = shape[1];
    a_.pad = tiled ? 0 : pad;
    a_.tiled = tiled;
    int64_t N = layout.shape()[1];
    tile_ = which ? Type::coopMatrix(s.k, s.n, s.bType, 1) : Type::coopMatrix(s.m, s.k, s.aType, 0);
    // Registers that already are the tiles' components (known layouts: attention's P, the
    // first dot's result converted to f16) build the tiles themselves: no shared memory.
    if (s.layouts && !pre) {
      const Lowered &own = l.get(v);
      if (own.layout == coopComponentLayout(shape, planOf(l, layout, &s), unsigned(which))) {
        regs_ = own.regs;
        components_ = componentsOf(s, unsigned(which));
        kSteps_ = (which ? shape[0] : shape[1]) / s.k;
        return;
      }
    }
    Op *loop = outermostInvariantLoop(l, v);
    InsertionGuard guard(l.b);
    if (loop)
      l.b.setInsertionPoint(loop);
    late_ = pre && pre->late && !loop;
    const Lowered &own = late_ ? pre->regs : l.get(v);
    a_.transposed = own.layout.contiguousRegisters(0) > own.layout.contiguousRegisters(1);
    // A tile of A is m x k, of B k x n; its lines run along the operand's columns, or
    // down its rows where transposed.
    int64_t tileRows = which ? s.k : s.m, tileCols = which ? s.n : s.k;
    a_.line = a_.transposed ? tileRows : tileCols;
    a_.lines = a_.transposed ? tileCols : tileRows;
    int64_t elements = a_.elements();
    Value *offset = nullptr;
    if (pre && (twice || late_) && !loop) {
      {
        InsertionGuard beforeLoop(l.b);
        l.b.setInsertionPoint(l.loops.back().second);
        buffer_ = l.sharedAlloc(v->type().element(), (twice ? 2 : 1) * elements);
        buffer_->definingOp()->setAttr("pipelined", Attribute::integer(1));
        if (late_)
          writeOperand(l, pre->first, a_, buffer_);
      }
      if (twice) {
        offset = l.b.binary(OpCode::MulI, pre->parity, l.constI32(elements));
        doubled_ = true;
      }
      if (late_) {
        next_ = &pre->regs;
        if (twice)
          nextOffset_ = l.b.binary(OpCode::MulI, l.b.binary(OpCode::XOrI, pre->parity, l.constI32(1)),
                                   l.constI32(elements));
      }
    }
    if (!late_)
      buffer_ = writeOperand(l, own, a_, buffer_, offset);
    // This subgroup's rows of A or columns of B.
    base_ = subgroupBase(l, layout, [&](int64_t b) {
      int64_t row = which ? 0 : (b >= N ? b / N : 0), col = which ? (b < N ? b : 0) : 0;
      return a_.at(row, col);
    });
    if (offset)
      base_ = l.b.binary(OpCode::AddI, base_, offset);
    if (!loop)
      return;
    int64_t tiles = (which ? N / s.n : layout.shape()[0] / s.m) / (int64_t(1) << countWarps(layout, N, which));
    for (int64_t k0 = 0; k0 < (which ? shape[0] : shape[1]); k0 += s.k)
      for (int64_t t = 0; t < tiles; ++t)
        hoisted_[{t, k0}] = load(t, k0);
  }
  bool late() const { return late_; }
  // Late: the next iteration's registers into the buffer it reads (after this one's reads).
  void storeNext() {
    if (late_)
      writeOperand(l_, *next_, a_, buffer_, nextOffset_);
  }
  bool doubled() const { return doubled_; }
  // Tile t (of the subgroup's rows of A or columns of B) at k step k0.
  Value *tile(int64_t t, int64_t k0) {
    if (components_) // registers: component bits, then k steps, then the M (N) repeats
      return insertTile(l_, regs_, (t * kSteps_ + k0 / s_.k) * components_, components_, tile_);
    auto it = hoisted_.find({t, k0});
    return it != hoisted_.end() ? it->second : load(t, k0);
  }

private:
  static unsigned countWarps(const LinearLayout &layout, int64_t N, int which) {
    unsigned n = 0;
    for (int64_t b : layout.warpBases())
      n += which ? b < N : b >= N;
    return n;
  }
  Value *load(int64_t t, int64_t k0) {
    int64_t index = which_ ? a_.at(k0, t * s_.n) : a_.at(t * s_.m, k0);
    return coopLoad(l_, buffer_, plus(l_, base_, index), a_.stride(), tile_, a_.transposed ? "col" : "row");
  }
  Lowering &l_;
  int which_;
  bool doubled_ = false, late_ = false;
  const CoopMatrixShape &s_;
  OperandArray a_;
  const Lowered *next_ = nullptr;
  Value *nextOffset_ = nullptr;
  Type tile_;
  Value *buffer_ = nullptr, *base_ = nullptr;
  std::map<std::pair<int64_t, int64_t>, Value *> hoisted_;
  std::vector<Value *> regs_; // the components, where they build the tiles
  int64_t components_ = 0, kSteps_ = 0;
};

} // namespace

bool isCoopLayout(const LinearLayout &layout) { return !layout.laneBases().empty() && layout.laneBases()[0] == -1; }

Lowered convertCoop(Lowering &l, Value *v, const Lowered &own, const LinearLayout &dst) {
  Type element = v->type().element();
  if (isCoopLayout(own.layout)) {
    const CoopMatrixShape *s = shapeFor(l, own.layout, element);
    assert(s && "a coopLayout no shape of the target makes");
    if (!isCoopLayout(dst))
      return materialize(l, own, *s, dst, element);
    LinearLayout blocked = LinearLayout::defaultBlocked(dst.shape(), l.target.warpSize, l.layouts.numWarps, 4);
    Lowered mid = materialize(l, own, *s, blocked, element);
    const CoopMatrixShape *t = shapeFor(l, dst, element);
    return toTiles(l, mid, dst, *t, element);
  }
  const CoopMatrixShape *s = shapeFor(l, dst, element);
  assert(s && "a coopLayout no shape of the target makes");
  return toTiles(l, own, dst, *s, element);
}

void planCoopLoop(Lowering &l, const Op *loop) {
  Block *body = loop->region();
  const Op *yield = body->terminator();
  if (!yield)
    return;
  for (unsigned i = 0; i + 1 < body->numArguments() && i < yield->numOperands(); ++i) {
    Value *arg = body->argument(i + 1), *next = yield->operand(i);
    const Op *dot = next->definingOp();
    if (!dot || !dot->is(OpCode::Dot) || dot->parentBlock() != body || arg->uses().size() != 1)
      continue;
    // The accumulator goes into the dot as it is, or scaled by rows first (attention's
    // acc * alpha[:, None]), which the tiles do themselves (lowerMulCoop).
    Value *scaled = dot->operand(2);
    const Op *mul = scaled->definingOp();
    bool rowScaled = mul && mul->is(OpCode::MulF) && mul->parentBlock() == body && scaled->uses().size() == 1 &&
                     arg->uses()[0].user == mul && rowScale(mul->operand(arg == mul->operand(0) ? 1 : 0));
    if (scaled != arg && !rowScaled)
      continue;
    std::optional<CoopPlan> plan = planCoop(l, dot);
    if (!plan)
      continue;
    LinearLayout layout = coopLayout(next->type().shape(), *plan, l.target.warpSize);
    for (const Value *v : {arg, scaled, next, loop->result(i)})
      l.coopLayouts[v] = layout;
  }
}

bool lowerMulCoop(Lowering &l, Op *op) {
  LinearLayout layout = l.assigned(op->result());
  if (!isCoopLayout(layout))
    return false;
  unsigned matrix = rowScale(op->operand(1)) ? 0 : 1;
  Value *column = rowScale(op->operand(1 - matrix));
  assert(column && "planCoopLoop gives a product a coopLayout only when it scales rows");
  Type element = op->result()->type().element();
  const CoopMatrixShape *s = shapeFor(l, layout, element);
  assert(s && "a coopLayout no shape of the target makes");
  CoopPlan plan = planOf(l, layout, s);
  Lowered acc = l.get(op->operand(matrix), layout);
  int64_t M = layout.shape()[0], N = layout.shape()[1];
  int64_t rm = M / plan.warpsM / s->m, rn = N / plan.warpsN / s->n;
  Type tile = Type::coopMatrix(s->m, s->n, element, 2);
  if (s->layouts) {
    // Known layouts: the scales in the components' layout (a broadcast keeps the column's
    // registers), one tile of them built per row of tiles (the rows' tiles share it).
    LinearLayout known = coopComponentLayout(layout.shape(), plan, 2);
    Lowered scales = l.get(column, known.broadcastSource(column->type().shape()));
    int64_t components = componentsOf(*s, 2);
    for (int64_t i = 0; i < rm; ++i) {
      Value *scale = insertTile(l, scales.regs, i * rn * components, components, tile);
      for (int64_t j = 0; j < rn; ++j)
        acc.regs[size_t(i * rn + j)] = l.b.binary(OpCode::MulF, acc.regs[size_t(i * rn + j)], scale);
    }
    l.set(op->result(), std::move(acc));
    return true;
  }
  // The scales as an M x n strip (row r: n copies of scale r) in shared memory, from
  // the broadcast's M x 1 source; each subgroup loads a tile of it per row of tiles.
  LinearLayout strip = LinearLayout::defaultBlocked(std::vector<int64_t>{M, s->n}, l.target.warpSize,
                                                    l.layouts.numWarps);
  Lowered scales = l.get(column, strip.broadcastSource(column->type().shape()));
  Value *buffer = l.writeShared(Lowered{strip, scales.regs});
  Value *base = subgroupBase(l, layout, [&](int64_t b) { return b >= N ? b / N * s->n : 0; });
  for (int64_t i = 0; i < rm; ++i) {
    Value *scale = coopLoad(l, buffer, plus(l, base, i * s->m * s->n), s->n, tile);
    for (int64_t j = 0; j < rn; ++j)
      acc.regs[size_t(i * rn + j)] = l.b.binary(OpCode::MulF, acc.regs[size_t(i * rn + j)], scale);
  }
  l.set(op->result(), std::move(acc));
  return true;
}

bool lowerDotCoop(Lowering &l, Op *op) {
  std::optional<CoopPlan> plan = planCoop(l, op);
  if (!plan)
    return false;
  const CoopMatrixShape &s = *plan->shape;
  Value *result = op->result();
  std::span<const int64_t> shape = result->type().shape();
  int64_t M = shape[0], N = shape[1], K = op->operand(0)->type().shape()[1];
  LinearLayout layout = coopLayout(shape, *plan, l.target.warpSize);
  Lowered acc = l.get(op->operand(2), layout);
  // A and B with 16 bytes of padding per line where both still fit, else tile by tile
  // (OperandArray).
  int64_t elementBytes = Lowering::storageType(s.aType).bitWidth() / 8;
  int64_t pad = l.target.coopShared == CoopSharedLayout::Unpadded ? 0 : 16 / elementBytes;
  int64_t bytes = (M * (K + pad) + K * (N + pad)) * elementBytes;
  bool tiled = l.target.coopShared == CoopSharedLayout::Tiled;
  if (bytes > int64_t(l.target.sharedMemoryBytes)) {
    pad = 0;
    tiled = l.target.coopShared != CoopSharedLayout::Padded && l.target.coopShared != CoopSharedLayout::Unpadded;
  }
  if (tiled)
    bytes = (M * K + K * N) * elementBytes;
  // Operands loaded an iteration ahead go to two buffers by turns where twice the
  // bytes fit and this is the loop's only dot (the others' buffers share the memory).
  auto prefetchOf = [&](Value *v) -> const Lowering::Prefetched * {
    auto it = l.prefetched.find(v);
    return it == l.prefetched.end() ? nullptr : &it->second;
  };
  int dots = 0;
  for (const Op *o : *op->parentBlock())
    dots += o->is(OpCode::Dot);
  bool twice = 2 * bytes <= int64_t(l.target.sharedMemoryBytes) && dots == 1;
  CoopOperand a(l, op->operand(0), 0, layout, s, pad, tiled, prefetchOf(op->operand(0)), twice);
  CoopOperand b(l, op->operand(1), 1, layout, s, pad, tiled, prefetchOf(op->operand(1)), twice);
  // The barrier pass leaves the buffers of prefetched operands to this one: this
  // iteration's tiles (stored by the previous one, or before the loop) are visible.
  bool late = a.late() || b.late();
  if (a.doubled() || b.doubled() || late)
    l.b.create(OpCode::ThBarrier, std::span<Value *const>{}, std::span<const Type>{});
  int64_t rm = M / plan->warpsM / s.m, rn = N / plan->warpsN / s.n;
  Type cTile = Type::coopMatrix(s.m, s.n, s.cType, 2);
  for (int64_t k0 = 0; k0 < K; k0 += s.k) {
    std::vector<Value *> as, bs;
    for (int64_t i = 0; i < rm; ++i)
      as.push_back(a.tile(i, k0));
    if (!l.target.coopLazyB)
      for (int64_t j = 0; j < rn; ++j)
        bs.push_back(b.tile(j, k0));
    auto mma = [&](int64_t i, int64_t j, Value *bTile) {
      size_t r = size_t(i * rn + j);
      Value *operands[] = {as[size_t(i)], bTile, acc.regs[r]};
      Type types[] = {cTile};
      acc.regs[r] = l.b.create(OpCode::ThCoopMma, operands, types)->result();
    };
    if (l.target.coopLazyB) {
      for (int64_t j = 0; j < rn; ++j) {
        Value *bTile = b.tile(j, k0);
        for (int64_t i = 0; i < rm; ++i)
          mma(i, j, bTile);
      }
    } else {
      for (int64_t i = 0; i < rm; ++i)
        for (int64_t j = 0; j < rn; ++j)
          mma(i, j, bs[size_t(j)]);
    }
  }
  if (late) {
    // One buffer: every subgroup is done reading it before the next tiles overwrite it.
    if (!a.doubled() && !b.doubled())
      l.b.create(OpCode::ThBarrier, std::span<Value *const>{}, std::span<const Type>{});
    a.storeNext();
    b.storeNext();
  }
  LinearLayout wanted = l.assigned(result);
  l.set(result, isCoopLayout(wanted) ? std::move(acc) : materialize(l, acc, s, wanted, result->type().element()));
  return true;
}

} // namespace trident::simt
