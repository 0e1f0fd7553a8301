#pragma once
// The dot generator, shared by its two files: GenDot.cpp builds one tt.dot (its kind,
// shapes, operand ranges, operands, accumulator, epilogue) and GenDotLoop.cpp K loops
// whose tiles come through pointers, tensor descriptors or block pointers into a dot on
// a loop-carried accumulator. Generator::genDot is the entry point.

#include "Generator.h"

namespace trident::e2e {

struct DotKind {
  Type in, acc;
  std::string precision;
};

// k * 2^-frac with |k| <= kmax (k >= 0 when nonNegative), or approximations uniform in
// [lo, hi]; integers: k alone.
struct DotRange {
  int frac = 0;
  int64_t kmax = 1;
  bool nonNegative = false;
  bool approx = false;
  double lo = -1, hi = 1;
};

// The facts every element of range `r` of type `e` obeys (zero included).
Facts factsOf(Type e, const DotRange &r);

// One operand of a K loop: a matrix per program and loop slot, of which each iteration
// loads one tile along K.
struct LoopTile {
  std::vector<int64_t> tile; // the loaded block's shape
  int kAxis = 0;             // the axis of the loaded block along K
  int64_t rowStride = 0, colStride = 0, advance = 0;
  bool trans = false;         // loaded as the transpose and turned around by tt.trans
  bool descriptor = false;    // its tiles come by tt.descriptor_load
  bool keepsContract = false; // a tensor descriptor may read it (tensorDescriptorContract)
  int64_t rows = 0, cols = 0; // the matrix all its tiles lie in
  Value *param = nullptr, *index = nullptr, *base = nullptr, *ptrs0 = nullptr;
  const DotRange *range = nullptr;
};

// What the tile loads of one K loop's iteration share.
struct KLoopState {
  DotKind kind;
  int64_t kd = 0;             // K of one tile
  Value *index = nullptr;     // this iteration's tile, (iv - lb) / step
  Value *kBound = nullptr;    // K at or beyond it reads zeros (or `other`), or null
  bool advancing = false;     // the pointers are loop-carried and advance
  Block *body = nullptr;
};

// Whether a row-major matrix of `rows` x `cols` elements of `elementBytes` with strides
// (rowStride, colStride), starting at a 16-byte aligned base plus `baseMultiple` elements
// times anything, loaded in boxes whose last dimension is `boxCols`, keeps the contract of
// Triton's TensorDescriptor: the base 16-byte aligned, every stride but the last a multiple
// of 16 bytes (one-element dimensions too), the last stride 1, and (Triton's frontend)
// 16 bytes or more in the box's last dimension. Other tiles go by block pointers.
bool tensorDescriptorContract(int64_t elementBytes, int64_t baseMultiple, int64_t rowStride, int64_t colStride,
                              int64_t boxCols);

class DotGen {
public:
  // `side`: the draws of the descriptor choices (loop), a stream of their own so that
  // kernels without descriptors stay what they were before them.
  explicit DotGen(Generator &g)
      : g(g), rng(g.rng_), side(g.kernel_.seed * 0x9e3779b97f4a7c15ull + g.kernel_.args.size()) {}

  bool run();

private:
  // ---- GenDot.cpp ----
  std::optional<DotKind> pickKind();
  void pickShape(const DotKind &kind, bool forLoop, int64_t repeats, std::vector<int64_t> &a,
                 std::vector<int64_t> &bShape);
  DotRange pickRange(const DotKind &kind, int bits);
  void pickRanges(const DotKind &kind, int64_t products, DotRange &ra, DotRange &rb);
  bool allowApprox(const DotKind &kind) const;
  bool suitable(const Facts &f, Type t, const DotRange &r) const;

  Value *note(Value *v) { return g.recordWith(v, g.infer(v->definingOp(), 0), false); }
  Value *i32(int64_t v) { return g.constInt(v, Type::i32()); }
  Value *tileBase(int64_t per);
  Value *strided(const std::vector<int64_t> &shape, int64_t rowStride, int64_t colStride);
  Value *newInput(Type e, size_t count, const DotRange &r, std::string prefix = "in");
  Value *maskedLoad(Value *ptrs, Value *mask, Type t, const Facts &f, const DotRange &r);
  Value *loadTile(Type t, const DotRange &r);
  Value *operand(Type t, const DotRange &r, bool allowTrans = true);
  Value *tweak(Value *x, const DotRange &r);
  Value *accumulator(Type t, const DotRange &ra, const DotRange &rb, int64_t products);
  bool finishDot(DotKind &kind, Value *a, Value *b, Value *acc, int64_t products);
  void epilogue(Value *d);

  // ---- GenDotLoop.cpp ----
  bool loop(DotKind kind);
  void layoutTile(LoopTile &s, std::vector<int64_t> shape, int kAxis, const DotRange &r, const char *name,
                  const DotKind &kind, int64_t kd, int64_t tiles);
  Value *pointerLoad(const KLoopState &k, LoopTile &s, unsigned argIndex, Value *edgeBound);
  Value *descriptorLoad(const KLoopState &k, LoopTile &s, Value *edgeBound);
  Value *loadSide(const KLoopState &k, LoopTile &s, unsigned argIndex, Value *edgeBound);

  Generator &g;
  Rng &rng;
  Rng side;
};

} // namespace trident::e2e
