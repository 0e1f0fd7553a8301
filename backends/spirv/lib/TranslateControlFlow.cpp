// scf.for, scf.if and scf.while as SPIR-V structured control flow.
//
//   scf.for:  pre -> header [phis; iv < ub; LoopMerge] -> body ... -> continue [iv += step] -> header
//                                 `-> merge (results = the header's phis)
//             a start that may be negative counts from zero instead (see rebasedLoop):
//             pre [trips] -> header [phis; n <u trips; LoopMerge] -> body [iv = lb + n * step] ...
//                          -> continue [n += 1] -> header
//   scf.if:   [SelectionMerge] -> then ... / else ... -> merge [phis]
//   scf.while: pre -> header [phis; LoopMerge] -> before ... [condition] -> after ... -> continue -> header
//                                                        `-> merge (results = the condition's values)
//
// Loop-carried values are phis in the header whose back-edge operands are
// patched once the body has been translated. A vector value is one phi per component;
// a boolean is carried as a 32-bit 0 or 1 (see wideLoopBools).
#include "Translator.h"

#include <cstdlib>
#include <cstring>
#include <optional>

namespace trident::spirv {

namespace {

// The ids and component types of `values`, flattened, with each value's component count.
struct Flat {
  Ids ids;
  std::vector<uint32_t> types;
  std::vector<size_t> counts;
};

Flat flatten(Translator &t, std::span<Value *const> values) {
  Flat f;
  for (Value *v : values) {
    const Ids &ids = t.get(v);
    f.ids.insert(f.ids.end(), ids.begin(), ids.end());
    f.types.insert(f.types.end(), ids.size(), t.valueType(v->type()));
    f.counts.push_back(ids.size());
  }
  return f;
}

// Gives `values[i]` the next counts[i] ids of `ids`.
void unflatten(Translator &t, std::span<Value *const> values, const std::vector<size_t> &counts, const Ids &ids) {
  size_t at = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    t.set(values[i], Ids(ids.begin() + at, ids.begin() + at + counts[i]));
    at += counts[i];
  }
}

bool checkValues(Translator &t, const Op *op, std::span<Value *const> values) {
  for (Value *v : values)
    if (v->type().element().isPtr() && v->type().element().addressSpace() != 0)
      return t.error(op, "carries a shared-memory pointer, which the SPIR-V backend cannot translate");
  return true;
}

// Whether loops carry booleans as 32-bit integers (TRIDENT_VULKAN_WIDE_LOOP_BOOL, on unless
// "off"): the header's phi is then a 0 or 1 (OpSelect before the loop and at the back edge)
// and the loop reads it through OpINotEqual. NVIDIA's driver 580 crashed (SIGSEGV in
// libnvidia-glvkspirv.so, at pipeline creation) on every random kernel of the H200's runs
// whose SPIR-V had an OpPhi of OpTypeBool in a loop header, and on none of the others:
// seeds 940 1272 2302 2561 2894 at --dot-weight 8 (2300 seeds, 600..2899), and the first
// 10 of the thirteenth session's 27 at the default weight (170 558 1237 ..., regenerated
// by today's generator); no passing seed of 600..899 (dot weight 8) nor of 100..139
// (default weight) had one. Not yet confirmed on the device.
bool wideLoopBools() {
  static const bool on = [] {
    const char *v = std::getenv("TRIDENT_VULKAN_WIDE_LOOP_BOOL");
    return !v || std::strcmp(v, "off") != 0;
  }();
  return on;
}

// The loop-carried values of a header's phis: `types` become the phis' own types (bool to
// u32 where wideLoopBools), and `ids` (in the current block: before the loop, or at the
// back edge) are converted to them.
Ids carried(Translator &t, const Ids &ids, std::vector<uint32_t> &types) {
  Ids out = ids;
  if (!wideLoopBools())
    return out;
  for (size_t i = 0; i < ids.size(); ++i)
    if (types[i] == t.boolType()) {
      types[i] = t.u32Type();
      out[i] = t.emit(Spv::Select, t.u32Type(), {ids[i], t.constant(t.u32Type(), 1), t.constant(t.u32Type(), 0)});
    }
  return out;
}

// The values the loop reads from its header's phis `phis` of types `phiTypes` (after the
// header's last phi): booleans again where carried() widened them (`types`: the values'
// own types).
Ids fromCarried(Translator &t, const Ids &phis, const std::vector<uint32_t> &phiTypes,
                const std::vector<uint32_t> &types) {
  Ids out = phis;
  for (size_t i = 0; i < phis.size(); ++i)
    if (phiTypes[i] != types[i])
      out[i] = t.emit(Spv::INotEqual, t.boolType(), {phis[i], t.constant(t.u32Type(), 0)});
  return out;
}

std::optional<int64_t> intConstant(const Value *v) {
  const Op *def = v->definingOp();
  if (!def || !def->is(OpCode::Constant) || !def->attr("value").isInt())
    return std::nullopt;
  return def->attr("value").getInt();
}

// How a loop counts. NVIDIA's driver 580 ran `for (i = -3; i < 1; ++i)` (constant bounds, a
// 32-bit counter, a body with barriers and inner loops) three times, not four, on the
// H200: trident-randtest seed 358's outputs there are exactly those of the loop cut to
// -3..0. So a loop whose start may be negative counts 0, 1, ... instead (the form of
// glslang's loops), and its induction variable is start + n * step:
//   Own      the induction variable is the counter, compared with the end: starts that are
//            constants of zero or more, or values IndexRanges proves non-negative.
//   Trips    the counter runs below a trip count, computed before the loop: negative
//            constant starts (the count folds where the other bounds are constants too).
//   Compare  the counter runs while start + n * step < end: other starts. With a trip
//            count instead (its division, a 64-bit OpUDiv for i64 loops), the driver
//            computed seed 2582 of trident-randtest wrongly on the H200.
// TRIDENT_VULKAN_LOOP_REBASE=off keeps every loop's own counter, =trips counts every loop
// that does not start at a constant of zero or more below a trip count (the form before);
// both to check the driver.
enum class Counting { Own, Trips, Compare };

Counting countingOf(Translator &t, const Op *op) {
  static const char *knob = std::getenv("TRIDENT_VULKAN_LOOP_REBASE");
  static const bool off = knob && !std::strcmp(knob, "off"), trips = knob && !std::strcmp(knob, "trips");
  const Value *lb = op->operand(0);
  std::optional<int64_t> c = intConstant(lb);
  if (off || (c && *c >= 0))
    return Counting::Own;
  if (c || trips)
    return Counting::Trips;
  std::optional<IntRange> r = t.ranges().of(const_cast<Value *>(lb));
  return r && r->nonNegative() ? Counting::Own : Counting::Compare;
}

// The trip count of `for (iv = lb; iv < ub; iv += step)` with step > 0, in ivType:
// lb < ub ? (ub - lb - 1) / step + 1 : 0, the difference and quotient unsigned (ub - lb
// of two signed values that compare lb < ub is their distance without overflow).
uint32_t tripCount(Translator &t, const Op *op, uint32_t ivType, uint32_t lb, uint32_t ub, uint32_t step) {
  std::optional<int64_t> l = intConstant(op->operand(0)), u = intConstant(op->operand(1)),
                         s = intConstant(op->operand(2));
  if (l && u && s && *s > 0)
    return t.constant(ivType, *l < *u ? uint64_t((*u - *l - 1) / *s + 1) : 0);
  uint32_t one = t.constant(ivType, 1), zero = t.constant(ivType, 0);
  uint32_t any = t.emit(Spv::SLessThan, t.boolType(), {lb, ub});
  uint32_t distance = t.emit(Spv::ISub, ivType, {t.emit(Spv::ISub, ivType, {ub, lb}), one});
  uint32_t trips = t.emit(Spv::IAdd, ivType, {t.emit(Spv::UDiv, ivType, {distance, step}), one});
  return t.emit(Spv::Select, ivType, {any, trips, zero});
}

bool translateFor(Translator &t, Op *op) {
  Block *body = op->region();
  std::span<Value *const> inits = op->operands().subspan(3);
  if (!checkValues(t, op, inits))
    return false;
  uint32_t lb = t.scalar(op->operand(0)), ub = t.scalar(op->operand(1)), step = t.scalar(op->operand(2));
  uint32_t ivType = t.valueType(op->operand(0)->type());
  Counting counting = countingOf(t, op);
  bool rebased = counting != Counting::Own;
  uint32_t trips = counting == Counting::Trips ? tripCount(t, op, ivType, lb, ub, step) : 0;
  Flat init = flatten(t, inits);
  std::vector<uint32_t> phiTypes = init.types;
  Ids initial = carried(t, init.ids, phiTypes);
  uint32_t start = t.currentLabel(), header = t.w.newId(), bodyLabel = t.w.newId(), cont = t.w.newId(),
           merge = t.w.newId();
  t.emitVoid(Spv::Branch, {header});
  t.beginBlock(header);
  // The counter: iv itself, or the iteration number n of a rebased loop.
  Translator::PendingPhi counter = t.loopPhi(ivType, rebased ? t.constant(ivType, 0) : lb, start);
  std::vector<Translator::PendingPhi> phis;
  Ids phiIds;
  for (size_t i = 0; i < initial.size(); ++i) {
    phis.push_back(t.loopPhi(phiTypes[i], initial[i], start));
    phiIds.push_back(phis.back().id);
  }
  Ids current = fromCarried(t, phiIds, phiTypes, init.types);
  auto rebase = [&] { return t.emit(Spv::IAdd, ivType, {lb, t.emit(Spv::IMul, ivType, {counter.id, step})}); };
  uint32_t iv = counting == Counting::Compare ? rebase() : 0;
  uint32_t inRange = counting == Counting::Trips ? t.emit(Spv::ULessThan, t.boolType(), {counter.id, trips})
                                                 : t.emit(Spv::SLessThan, t.boolType(), {iv ? iv : counter.id, ub});
  t.emitVoid(Spv::LoopMerge, {merge, cont, 0});
  t.emitVoid(Spv::BranchConditional, {inRange, bodyLabel, merge});

  t.beginBlock(bodyLabel);
  if (!iv)
    iv = rebased ? rebase() : counter.id;
  t.set(body->argument(0), {iv});
  std::vector<Value *> iters = body->arguments();
  unflatten(t, std::span(iters).subspan(1), init.counts, current);
  if (!t.translateBlock(body))
    return false;
  Flat next = flatten(t, body->terminator()->operands());
  t.emitVoid(Spv::Branch, {cont});

  t.beginBlock(cont);
  uint32_t counterNext = t.emit(Spv::IAdd, ivType, {counter.id, rebased ? t.constant(ivType, 1) : step});
  std::vector<uint32_t> nextTypes = next.types;
  Ids nextIds = carried(t, next.ids, nextTypes);
  t.emitVoid(Spv::Branch, {header});
  t.patchPhi(counter, counterNext, cont);
  for (size_t i = 0; i < phis.size(); ++i)
    t.patchPhi(phis[i], nextIds[i], cont);

  t.beginBlock(merge);
  std::vector<Value *> results = op->results();
  unflatten(t, results, init.counts, current);
  return true;
}

bool translateIf(Translator &t, Op *op) {
  uint32_t cond = t.scalar(op->operand(0));
  std::vector<Value *> results = op->results();
  if (!checkValues(t, op, results))
    return false;
  bool hasElse = !op->region(1)->empty();
  uint32_t then = t.w.newId(), otherwise = hasElse ? t.w.newId() : 0, merge = t.w.newId();
  t.emitVoid(Spv::SelectionMerge, {merge, 0});
  t.emitVoid(Spv::BranchConditional, {cond, then, hasElse ? otherwise : merge});

  t.beginBlock(then);
  if (!t.translateBlock(op->region(0)))
    return false;
  Flat thenValues = results.empty() ? Flat{} : flatten(t, op->region(0)->terminator()->operands());
  uint32_t thenEnd = t.currentLabel();
  t.emitVoid(Spv::Branch, {merge});

  Flat elseValues;
  uint32_t elseEnd = 0;
  if (hasElse) {
    t.beginBlock(otherwise);
    if (!t.translateBlock(op->region(1)))
      return false;
    if (!results.empty())
      elseValues = flatten(t, op->region(1)->terminator()->operands());
    elseEnd = t.currentLabel();
    t.emitVoid(Spv::Branch, {merge});
  }

  t.beginBlock(merge);
  Ids merged;
  for (size_t i = 0; i < thenValues.ids.size(); ++i)
    merged.push_back(
        t.emit(Spv::Phi, thenValues.types[i], {thenValues.ids[i], thenEnd, elseValues.ids[i], elseEnd}));
  unflatten(t, results, thenValues.counts, merged);
  return true;
}

bool translateWhile(Translator &t, Op *op) {
  Block *before = op->region(0), *after = op->region(1);
  if (!checkValues(t, op, op->operands()) || !checkValues(t, op, op->results()))
    return false;
  Flat init = flatten(t, op->operands());
  std::vector<uint32_t> phiTypes = init.types;
  Ids initial = carried(t, init.ids, phiTypes);
  uint32_t start = t.currentLabel(), header = t.w.newId(), beforeLabel = t.w.newId(), afterLabel = t.w.newId(),
           cont = t.w.newId(), merge = t.w.newId();
  t.emitVoid(Spv::Branch, {header});
  t.beginBlock(header);
  std::vector<Translator::PendingPhi> phis;
  Ids phiIds;
  for (size_t i = 0; i < initial.size(); ++i) {
    phis.push_back(t.loopPhi(phiTypes[i], initial[i], start));
    phiIds.push_back(phis.back().id);
  }
  Ids current = fromCarried(t, phiIds, phiTypes, init.types);
  t.emitVoid(Spv::LoopMerge, {merge, cont, 0});
  t.emitVoid(Spv::Branch, {beforeLabel});

  t.beginBlock(beforeLabel);
  std::vector<Value *> beforeArgs = before->arguments();
  unflatten(t, beforeArgs, init.counts, current);
  if (!t.translateBlock(before))
    return false;
  Op *condition = before->terminator();
  uint32_t c = t.scalar(condition->operand(0));
  Flat passed = flatten(t, condition->operands().subspan(1));
  t.emitVoid(Spv::BranchConditional, {c, afterLabel, merge});

  t.beginBlock(afterLabel);
  std::vector<Value *> afterArgs = after->arguments();
  unflatten(t, afterArgs, passed.counts, passed.ids);
  if (!t.translateBlock(after))
    return false;
  Flat next = flatten(t, after->terminator()->operands());
  t.emitVoid(Spv::Branch, {cont});

  t.beginBlock(cont);
  std::vector<uint32_t> nextTypes = next.types;
  Ids nextIds = carried(t, next.ids, nextTypes);
  t.emitVoid(Spv::Branch, {header});
  for (size_t i = 0; i < phis.size(); ++i)
    t.patchPhi(phis[i], nextIds[i], cont);

  t.beginBlock(merge);
  std::vector<Value *> results = op->results();
  unflatten(t, results, passed.counts, passed.ids);
  return true;
}

} // namespace

bool translateControlFlow(Translator &t, Op *op) {
  switch (op->code()) {
  case OpCode::For: return translateFor(t, op);
  case OpCode::If: return translateIf(t, op);
  case OpCode::While: return translateWhile(t, op);
  default: return t.error(op, "cannot be translated");
  }
}

} // namespace trident::spirv
