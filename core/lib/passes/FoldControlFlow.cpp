// Folding of structured control flow whose path is known: scf.if on a constant
// condition, scf.for with constant bounds that runs zero times or once, and
// loop-carried values of an scf.for that never change.

#include "Constant.h"
#include "Fold.h"

namespace trident::passes {

namespace {

// Moves the ops of `region` (an scf region of `op`) before `op`, makes `op`'s
// results the values its terminator yields, and erases `op`.
void inlineRegionInPlaceOf(Op *op, Block *region) {
  std::vector<Value *> yielded;
  if (Op *terminator = region->terminator()) {
    for (Value *v : terminator->operands())
      yielded.push_back(v);
    terminator->erase();
  }
  op->parentBlock()->splice(op, *region);
  for (unsigned i = 0; i < op->numResults(); ++i)
    op->result(i)->replaceAllUsesWith(yielded[i]);
  op->erase();
}

bool foldIf(Op *op) {
  std::optional<ConstantValue> cond = constantOf(op->operand(0));
  if (!cond)
    return false;
  inlineRegionInPlaceOf(op, op->region(cond->zext() ? 0 : 1));
  return true;
}

// A loop-carried value that every trip yields unchanged (its own argument, or its
// initial value) is that initial value everywhere; DCE then drops it from the loop.
//   %r = scf.for %lb, %ub, %s, %x ({ ^(%i, %acc): ... scf.yield %x })   uses of %acc, %r -> %x
bool foldInvariantCarried(Op *op) {
  Block *body = op->region();
  Op *yield = body->terminator();
  if (!yield)
    return false;
  bool changed = false;
  for (unsigned i = 0; i < op->numResults(); ++i) {
    Value *init = op->operand(3 + i), *carried = body->argument(1 + i), *next = yield->operand(i);
    if (next != init && next != carried)
      continue;
    if (next == carried) {
      yield->setOperand(i, init);
      changed = true;
    }
    if (carried->hasUses() || op->result(i)->hasUses()) {
      carried->replaceAllUsesWith(init);
      op->result(i)->replaceAllUsesWith(init);
      changed = true;
    }
  }
  return changed;
}

// Bounds compare signed, as the loop `for (iv = lb; iv < ub; iv += step)`.
bool foldFor(Op *op) {
  if (foldInvariantCarried(op))
    return true;
  std::optional<ConstantValue> lb = constantOf(op->operand(0)), ub = constantOf(op->operand(1)),
                               step = constantOf(op->operand(2));
  if (!lb || !ub || !step || step->sext() <= 0)
    return false;
  const __int128 lower = lb->sext(), upper = ub->sext(), stride = step->sext();
  if (lower >= upper) {
    for (unsigned i = 0; i < op->numResults(); ++i)
      op->result(i)->replaceAllUsesWith(op->operand(3 + i));
    op->erase();
    return true;
  }
  // Once: the second induction value is past the bound and still fits the type
  // (a wrapped increment would start a second trip).
  const unsigned width = lb->width();
  const __int128 maxValue = (static_cast<__int128>(1) << (width - 1)) - 1;
  if (upper - lower > stride || lower + stride > maxValue)
    return false;
  Block *body = op->region();
  // The induction variable is the lower bound; the loop-carried values their inits.
  body->argument(0)->replaceAllUsesWith(op->operand(0));
  for (unsigned i = 1; i < body->numArguments(); ++i)
    body->argument(i)->replaceAllUsesWith(op->operand(2 + i));
  inlineRegionInPlaceOf(op, body);
  return true;
}

} // namespace

bool foldControlFlow(Op *op) {
  switch (op->code()) {
  case OpCode::If: return foldIf(op);
  case OpCode::For: return foldFor(op);
  default: return false;
  }
}

} // namespace trident::passes
