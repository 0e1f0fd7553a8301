#include "Tma.h"

#include "LowerContext.h"
#include "trident/ir/Builder.h"

#include <algorithm>

namespace trident::simt {

namespace {

// `v` as a tensor-map word: the index of the kernel argument it is (directly or
// extended to 64 bits), or -1 - its value when it is an integer constant.
std::optional<int64_t> reference(const Value *v) {
  const Op *def = v->definingOp();
  if (def && (def->is(OpCode::ExtSI) || def->is(OpCode::ExtUI)))
    return reference(def->operand(0));
  if (def && def->is(OpCode::Constant)) {
    const Attribute &value = def->attr("value");
    if (value.isInt() && value.getInt() >= 0)
      return -1 - value.getInt();
    return std::nullopt;
  }
  const Block *owner = v->ownerBlock();
  const Op *parent = owner ? owner->parentOp() : nullptr;
  if (!def && parent && parent->is(OpCode::Func))
    return int64_t(v->index());
  return std::nullopt;
}

// `v`, an i32 (or the i64 extension of one) coordinate of the tensor-copy engine.
const Value *coordinate(const Value *v) {
  const Op *def = v->definingOp();
  if (v->type() == Type::i32())
    return v;
  if (def && def->is(OpCode::ExtSI) && def->operand(0)->type() == Type::i32())
    return def->operand(0);
  return nullptr;
}

// `offset` (a scalar element offset) as a sum of coordinate * stride terms, each stride
// a reference and each coordinate an i32 value (null: 1).
bool offsetTerms(const Value *offset, std::vector<BaseTerm> &terms) {
  const Op *def = offset->definingOp();
  if (std::optional<int64_t> ref = reference(offset)) {
    terms.push_back({nullptr, *ref});
    return true;
  }
  if (def && def->is(OpCode::AddI))
    return offsetTerms(def->operand(0), terms) && offsetTerms(def->operand(1), terms);
  if (def && def->is(OpCode::MulI))
    for (unsigned k = 0; k < 2; ++k) {
      std::optional<int64_t> ref = reference(def->operand(1 - k));
      if (const Value *c = coordinate(def->operand(k)); ref && c) {
        terms.push_back({c, *ref});
        return true;
      }
    }
  return false;
}

const Op *functionOf(const Op *op) {
  while (op && !op->is(OpCode::Func))
    op = op->parentOp();
  return op;
}

// Whether reference `ref` (a stride in elements, or a base pointer when `elementBytes`
// is 1) is known to make a multiple of 16 bytes: a constant, or an argument whose
// specialization says it divides by enough (arg_divisibility).
bool aligned16(const Op *func, int64_t ref, int64_t elementBytes) {
  if (ref < 0)
    return (-1 - ref) * elementBytes % 16 == 0;
  const Attribute &divs = func ? func->attr("arg_divisibility") : Attribute();
  int64_t d = divs.isInts() && size_t(ref) < divs.getInts().size() ? divs.getInts()[size_t(ref)] : 1;
  return d * elementBytes % 16 == 0;
}

bool definedOutside(const Value *v, const Op *loop) {
  const Op *def = v->definingOp();
  const Op *owner = def ? def : v->ownerBlock()->parentOp();
  return owner && !owner->isInside(loop);
}

} // namespace

std::optional<int64_t> tensorMapBase(const Value *base, std::vector<BaseTerm> &terms) {
  const Op *def = base->definingOp();
  if (def && def->is(OpCode::AddPtr) && !def->operand(1)->type().isBlock()) {
    std::optional<int64_t> arg = tensorMapBase(def->operand(0), terms);
    return arg && offsetTerms(def->operand(1), terms) ? arg : std::nullopt;
  }
  std::optional<int64_t> ref = reference(base);
  return ref && *ref >= 0 ? ref : std::nullopt;
}

std::vector<const Value *> tensorMapOuterCoordinates(const Op *load) {
  std::vector<BaseTerm> terms;
  tensorMapBase(load->operand(0), terms);
  std::vector<const Value *> out;
  for (const BaseTerm &t : terms)
    out.push_back(t.coordinate);
  return out;
}

int64_t TensorMapSpec::copyElements() const {
  int64_t n = 1;
  for (size_t k = 0; k + 1 < tile.size(); ++k)
    n *= tile[k];
  return n * box.back();
}

bool TensorMapSpec::sameMap(const TensorMapSpec &o) const {
  return rank == o.rank && elementBytes == o.elementBytes && swizzle == o.swizzle && base == o.base &&
         sizes == o.sizes && strides == o.strides && box == o.box;
}

void TensorMapSpec::appendWords(std::vector<int64_t> &out) const {
  size_t first = out.size();
  out.resize(first + kTensorMapWords, 0);
  int64_t *w = out.data() + first;
  w[0] = rank;
  w[1] = elementBytes;
  w[2] = swizzle;
  w[3] = base;
  for (int64_t k = 0; k < rank; ++k) {
    w[4 + k] = sizes[size_t(k)];
    w[9 + k] = strides[size_t(k)];
    w[14 + k] = box[size_t(k)];
  }
}

bool tensorMapCandidate(const Op *load, const TargetDesc &target, unsigned numWarps) {
  if (numWarps % 4 != 0)
    return false;
  const Op *parent = load->parentOp();
  if (!parent || !parent->is(OpCode::For) || load->result()->uses().empty() || !tensorMapSpec(load, target, numWarps))
    return false;
  for (const Use &u : load->result()->uses()) {
    const Op *user = u.user;
    unsigned operand = u.operandIndex;
    if (user->is(OpCode::Trans) && user->result()->uses().size() == 1) {
      operand = user->result()->uses()[0].operandIndex;
      user = user->result()->uses()[0].user;
    }
    if (!user->is(OpCode::Dot) || operand > 1)
      return false;
  }
  return true;
}

bool transposeForTensorMap(Op *load, const TargetDesc &target, unsigned numWarps) {
  if (!target.tensorMaps || numWarps % 4 != 0 || !load->is(OpCode::DescriptorLoad) || load->numOperands() != 7 ||
      reference(load->operand(3)) != -1 - 1 || reference(load->operand(4)) == -1 - 1 ||
      !load->parentOp() || !load->parentOp()->is(OpCode::For) || load->result()->uses().empty())
    return false;
  std::vector<Use> uses = load->result()->uses();
  for (const Use &u : uses)
    if (!u.user->is(OpCode::Dot) || u.operandIndex > 1)
      return false;
  Builder b;
  b.setInsertionPoint(load);
  b.setLoc(load->loc());
  std::vector<Value *> operands;
  for (unsigned k : {0u, 2u, 1u, 4u, 3u, 6u, 5u})
    operands.push_back(load->operand(k));
  AttributeList attrs = load->attrs();
  if (const Attribute &checked = load->attr("checked"); checked.isInt())
    attrs.set("checked", Attribute::integer((checked.getInt() & 1) << 1 | (checked.getInt() >> 1 & 1)));
  std::span<const int64_t> shape = load->result()->type().shape();
  std::vector<int64_t> swapped{shape[1], shape[0]};
  Type result = Type::block(swapped, load->result()->type().element());
  Op *t = b.create(OpCode::DescriptorLoad, operands, std::span<const Type>(&result, 1), attrs);
  if (!tensorMapSpec(t, target, numWarps)) {
    t->erase();
    return false;
  }
  const int64_t order[] = {1, 0};
  for (const Use &u : uses) {
    b.setInsertionPoint(u.user);
    u.user->setOperand(u.operandIndex, b.trans(t->result(), order));
  }
  load->erase();
  return true;
}

SharedLayout tensorMapLayout(const TensorMapSpec &spec) {
  return SharedLayout::swizzled(spec.tile, unsigned(spec.tile.size() - 1), unsigned(spec.elementBytes));
}

std::optional<TensorMapSpec> tensorMapSpec(const Op *load, const TargetDesc &target, unsigned numWarps) {
  bool blockPointers =
      target.blockPointerTensorMaps || (numWarps && numWarps <= target.blockPointerTensorMapWarps);
  if (!target.tensorMaps || !load->is(OpCode::DescriptorLoad) || load->stringAttr("padding") != "zero" ||
      (load->attr("checked").present() && !blockPointers))
    return std::nullopt;
  TensorMapSpec s;
  s.rank = int64_t(load->numOperands() - 1) / 3;
  Type result = load->result()->type();
  s.elementBytes = Lowering::storageType(result.element()).bitWidth() / 8;
  s.tile.assign(result.shape().begin(), result.shape().end());
  if (s.rank != 2 || (s.elementBytes != 1 && s.elementBytes != 2 && s.elementBytes != 4))
    return std::nullopt;
  // A block pointer's base may be an argument plus coordinate * stride terms (attention's
  // Q + off_z * stride_qz + off_h * stride_qh): each term is one more dimension of the
  // map, outermost, of one element per box, its coordinate fixed for the loop.
  std::vector<BaseTerm> terms;
  std::optional<int64_t> base = tensorMapBase(load->operand(0), terms);
  if (!base || s.rank + int64_t(terms.size()) > 5)
    return std::nullopt;
  const Op *loop = load->parentOp();
  for (const BaseTerm &t : terms)
    if (t.coordinate && loop && loop->is(OpCode::For) && !definedOutside(t.coordinate, loop))
      return std::nullopt;
  s.base = *base;
  for (const BaseTerm &t : terms) {
    s.sizes.push_back(-1 - kOuterExtent);
    s.strides.push_back(t.stride);
    s.box.push_back(1);
  }
  for (int64_t k = 0; k < s.rank; ++k) {
    std::optional<int64_t> size = reference(load->operand(unsigned(1 + k)));
    std::optional<int64_t> stride = reference(load->operand(unsigned(1 + s.rank + k)));
    if (!size || !stride)
      return std::nullopt;
    s.sizes.push_back(*size);
    s.strides.push_back(*stride);
  }
  if (s.strides.back() != -1 - 1)
    return std::nullopt; // the innermost dimension must be contiguous
  // A tensor descriptor promises 16-byte alignment of its base and strides (Triton's
  // TensorDescriptor checks it); a block pointer (`checked` present) promises nothing,
  // so the kernel's specialization must prove it.
  if (load->attr("checked").present()) {
    const Op *func = functionOf(load);
    if (!aligned16(func, s.base, 1))
      return std::nullopt;
    for (size_t k = 0; k + 1 < s.strides.size(); ++k)
      if (!aligned16(func, s.strides[k], s.elementBytes))
        return std::nullopt;
  }
  s.rank += int64_t(terms.size());
  // Rows of 128 bytes or more are copied 128 bytes at a time (the widest swizzle);
  // 32- and 64-byte rows in one copy with their own swizzle; 16-byte rows unswizzled.
  int64_t rowBytes = s.tile.back() * s.elementBytes;
  if (!isPowerOfTwo(s.tile[0]) || !isPowerOfTwo(rowBytes) || rowBytes < 16 || s.tile[0] > 256)
    return std::nullopt;
  s.swizzle = rowBytes >= 128 ? 128 : rowBytes >= 32 ? rowBytes : 0;
  s.box.push_back(s.tile[0]);
  s.box.push_back(std::min<int64_t>(rowBytes, 128) / s.elementBytes);
  // The copies' placement, computed as the hardware does it (16-byte chunk c of row r of
  // copy j at j * rows * rowBytes' + r * rowBytes' + (c ^ phase(r)) * 16), must be the
  // shared layout the lowering reads: checked element by element.
  SharedLayout shared = tensorMapLayout(s);
  int64_t inner = s.box.back(), rows = s.tile[0], chunkElems = 16 / s.elementBytes;
  int64_t swizzleRows = s.swizzle / 16; // the pattern repeats every 8 (128), 4 (64), 2 (32) x 128 bytes
  int64_t perPhase = s.swizzle ? 128 / s.swizzle : 1;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < s.tile[1]; ++c) {
      int64_t j = c / inner, within = c % inner;
      int64_t chunk = within / chunkElems;
      if (s.swizzle)
        chunk ^= (r / perPhase) % swizzleRows;
      int64_t at = j * rows * inner + r * inner + chunk * chunkElems + within % chunkElems;
      if (shared.offset(r * s.tile[1] + c) != at)
        return std::nullopt;
    }
  return s;
}

} // namespace trident::simt
