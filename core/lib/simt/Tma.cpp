#include "Tma.h"

#include "LowerContext.h"

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

} // namespace

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
  if (!parent || !parent->is(OpCode::For) || load->result()->uses().empty() || !tensorMapSpec(load, target))
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

SharedLayout tensorMapLayout(const TensorMapSpec &spec) {
  return SharedLayout::swizzled(spec.tile, unsigned(spec.rank - 1), unsigned(spec.elementBytes));
}

std::optional<TensorMapSpec> tensorMapSpec(const Op *load, const TargetDesc &target) {
  if (!target.tensorMaps || !load->is(OpCode::DescriptorLoad) || load->stringAttr("padding") != "zero")
    return std::nullopt;
  TensorMapSpec s;
  s.rank = int64_t(load->numOperands() - 1) / 3;
  Type result = load->result()->type();
  s.elementBytes = Lowering::storageType(result.element()).bitWidth() / 8;
  s.tile.assign(result.shape().begin(), result.shape().end());
  if (s.rank != 2 || (s.elementBytes != 1 && s.elementBytes != 2 && s.elementBytes != 4))
    return std::nullopt;
  std::optional<int64_t> base = reference(load->operand(0));
  if (!base || *base < 0)
    return std::nullopt;
  s.base = *base;
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
  // Rows of 128 bytes or more are copied 128 bytes at a time (the widest swizzle);
  // 32- and 64-byte rows in one copy with their own swizzle; 16-byte rows unswizzled.
  int64_t rowBytes = s.tile.back() * s.elementBytes;
  if (!isPowerOfTwo(s.tile[0]) || !isPowerOfTwo(rowBytes) || rowBytes < 16 || s.tile[0] > 256)
    return std::nullopt;
  s.swizzle = rowBytes >= 128 ? 128 : rowBytes >= 32 ? rowBytes : 0;
  s.box = {s.tile[0], std::min<int64_t>(rowBytes, 128) / s.elementBytes};
  // The copies' placement, computed as the hardware does it (16-byte chunk c of row r of
  // copy j at j * rows * rowBytes' + r * rowBytes' + (c ^ phase(r)) * 16), must be the
  // shared layout the lowering reads: checked element by element.
  SharedLayout shared = tensorMapLayout(s);
  int64_t inner = s.box[1], rows = s.tile[0], chunkElems = 16 / s.elementBytes;
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
