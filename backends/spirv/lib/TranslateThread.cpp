// Who-am-I ops, short vectors and cross-lane shuffles.
//
// th.shuffle becomes a GroupNonUniform shuffle at subgroup scope. Values are
// shuffled as 32-bit words (narrower ones widened, 64-bit ones as two words), so
// that no shaderSubgroupExtendedTypes feature is needed; booleans too, as 0 or 1, so
// that every shuffle has one 32-bit shape (SPIR-V allows boolean shuffles, but drivers
// see them rarely). SPIR-V leaves
// up/down shuffles from outside the subgroup undefined; Trident keeps the own value.
#include "Translator.h"

namespace trident::spirv {

namespace {

bool translateShuffle(Translator &t, Op *op) {
  Type type = op->result()->type();
  const std::string &mode = op->stringAttr("mode");
  Spv spv = mode == "idx"   ? Spv::GroupNonUniformShuffle
           : mode == "xor" ? Spv::GroupNonUniformShuffleXor
           : mode == "up"  ? Spv::GroupNonUniformShuffleUp
                           : Spv::GroupNonUniformShuffleDown;
  bool relative = mode == "up" || mode == "down";
  t.w.capability(Capability::GroupNonUniform);
  t.w.capability(relative ? Capability::GroupNonUniformShuffleRelative : Capability::GroupNonUniformShuffle);
  uint32_t value = t.scalar(op->operand(0)), lane = t.scalar(op->operand(1));
  uint32_t vt = t.valueType(type), u32 = t.u32Type();
  unsigned bits = type == Type::i1() ? 1 : type.bitWidth();

  // To a shuffleable type and back.
  uint32_t wire = value, wireType = vt;
  if (bits == 64) {
    wireType = t.w.vectorType(u32, 2);
    wire = t.emit(Spv::Bitcast, wireType, {value});
  } else if (bits == 8 || bits == 16) {
    uint32_t bitsType = t.w.intType(bits);
    uint32_t asBits = bitsType == vt ? value : t.emit(Spv::Bitcast, bitsType, {value});
    wireType = u32;
    wire = t.emit(Spv::UConvert, u32, {asBits});
  } else if (bits == 1) {
    wireType = u32;
    wire = t.emit(Spv::Select, u32, {value, t.u32(1), t.u32(0)});
  }
  uint32_t shuffled = t.emit(spv, wireType, {t.u32(uint32_t(Scope::Subgroup)), wire, lane});
  // up/down from outside the subgroup: the own value; selected on the word for i8 and
  // i16 when narrow selects run on words (wideNarrowSelects, Translator.h).
  auto inRange = [&] {
    uint32_t self = t.laneId(), b = t.boolType();
    return mode == "up" ? t.emit(Spv::UGreaterThanEqual, b, {self, lane})
                        : t.emit(Spv::ULessThan, b, {t.emit(Spv::IAdd, u32, {self, lane}),
                                                    t.u32(t.device.subgroupSize)});
  };
  bool selectWord = relative && (bits == 8 || bits == 16) && wideNarrowSelects();
  if (selectWord)
    shuffled = t.emit(Spv::Select, u32, {inRange(), shuffled, wire});
  uint32_t r = shuffled;
  if (bits == 64) {
    r = t.emit(Spv::Bitcast, vt, {shuffled});
  } else if (bits == 8 || bits == 16) {
    uint32_t bitsType = t.w.intType(bits);
    r = t.emit(Spv::UConvert, bitsType, {shuffled});
    if (bitsType != vt)
      r = t.emit(Spv::Bitcast, vt, {r});
  } else if (bits == 1) {
    r = t.emit(Spv::INotEqual, vt, {shuffled, t.u32(0)});
  }
  if (relative && !selectWord)
    r = t.emit(Spv::Select, vt, {inRange(), r, value});
  t.set(op->result(), {r});
  return true;
}

} // namespace

bool translateThread(Translator &t, Op *op) {
  switch (op->code()) {
  case OpCode::ThThreadId: t.set(op->result(), {t.threadId()}); return true;
  case OpCode::ThLaneId: t.set(op->result(), {t.laneId()}); return true;
  case OpCode::ThWarpId: t.set(op->result(), {t.warpId()}); return true;
  case OpCode::GetProgramId:
  case OpCode::GetNumPrograms: {
    int64_t axis = op->intAttr("axis");
    if (axis < 0 || axis > 2)
      return t.error(op, "has axis " + std::to_string(axis) + "; programs have axes 0, 1 and 2");
    t.set(op->result(), {op->is(OpCode::GetProgramId) ? t.programId(unsigned(axis)) : t.numPrograms(unsigned(axis))});
    return true;
  }
  case OpCode::ThPack: {
    if (translateNarrowingPack(t, op))
      return true;
    Ids ids;
    for (Value *v : op->operands())
      ids.push_back(t.scalar(v));
    t.set(op->result(), ids);
    return true;
  }
  case OpCode::ThExtract: t.set(op->result(), {t.get(op->operand(0)).at(size_t(op->intAttr("index")))}); return true;
  case OpCode::ThShuffle: return translateShuffle(t, op);
  default: return t.error(op, "cannot be translated");
  }
}

} // namespace trident::spirv
