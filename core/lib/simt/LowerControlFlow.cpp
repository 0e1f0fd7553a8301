// Structured control flow: scf.for/if/while keep their shape; every block value
// they carry becomes one value per register, in the layout assigned to the
// region argument or result, and what the regions yield is converted to it.
//
//   %s = scf.for %lb, %ub, %st, %init : block<256xf32> ({ ^(%i: i32, %acc: block<256xf32>): ... })
// ->
//   %s0, %s1 = scf.for %lb, %ub, %st, %init0, %init1 : f32, f32 ({ ^(%i: i32, %a0: f32, %a1: f32): ... })
#include "LowerContext.h"

namespace trident::simt {

namespace {

// Saves the builder's insertion point and restores it on destruction.
class InsertionGuard {
public:
  explicit InsertionGuard(Builder &b) : b_(b), block_(b.block()), before_(b.insertionOp()) {}
  ~InsertionGuard() {
    if (before_)
      b_.setInsertionPoint(before_);
    else
      b_.setInsertionPointToEnd(block_);
  }

private:
  Builder &b_;
  Block *block_;
  Op *before_;
};

// The values of `values`, each converted to the matching layout, one after another.
std::vector<Value *> flatten(Lowering &l, std::span<Value *const> values,
                             const std::vector<LinearLayout> &layouts) {
  std::vector<Value *> out;
  for (size_t i = 0; i < values.size(); ++i) {
    Lowered v = l.get(values[i], layouts[i]);
    out.insert(out.end(), v.regs.begin(), v.regs.end());
  }
  return out;
}

std::vector<Type> typesOf(const std::vector<Value *> &values) {
  std::vector<Type> types;
  for (Value *v : values)
    types.push_back(v->type());
  return types;
}

// Binds `blockValues` (laid out as `layouts`) to consecutive thread-IR values from `flat`.
void bindValues(Lowering &l, std::span<Value *const> blockValues, const std::vector<LinearLayout> &layouts,
                const std::vector<Value *> &flat, size_t first) {
  for (size_t i = 0; i < blockValues.size(); ++i) {
    int64_t n = layouts[i].numRegisters();
    Lowered v{layouts[i], std::vector<Value *>(flat.begin() + first, flat.begin() + first + n)};
    first += n;
    l.set(blockValues[i], std::move(v));
  }
}

std::vector<LinearLayout> layoutsOf(Lowering &l, std::span<Value *const> values) {
  std::vector<LinearLayout> out;
  for (Value *v : values)
    out.push_back(l.assigned(v));
  return out;
}

// Lowers `from` into `to` and ends it with `terminator` carrying the values of
// `from`'s terminator (after the first `skip` operands) converted to `layouts`.
bool lowerRegion(Lowering &l, Block *from, Block *to, OpCode terminator,
                 const std::vector<LinearLayout> &layouts, unsigned skip = 0) {
  InsertionGuard guard(l.b);
  l.b.setInsertionPointToEnd(to);
  if (!l.lowerBody(from))
    return false;
  Op *term = from->terminator();
  if (!term)
    return true;
  l.b.setLoc(term->loc());
  std::vector<Value *> operands;
  for (unsigned i = 0; i < skip; ++i)
    operands.push_back(l.scalar(term->operand(i)));
  std::vector<Value *> rest = flatten(l, term->operands().subspan(skip), layouts);
  operands.insert(operands.end(), rest.begin(), rest.end());
  l.b.create(terminator, operands, std::span<const Type>{});
  return true;
}

} // namespace

bool lowerFor(Lowering &l, Op *op) {
  Block *body = op->region();
  std::vector<Value *> iterArgs;
  for (unsigned i = 1; i < body->numArguments(); ++i)
    iterArgs.push_back(body->argument(i));
  std::vector<LinearLayout> layouts = layoutsOf(l, iterArgs);
  std::vector<Value *> operands{l.scalar(op->operand(0)), l.scalar(op->operand(1)), l.scalar(op->operand(2))};
  std::vector<Value *> inits = flatten(l, op->operands().subspan(3), layouts);
  operands.insert(operands.end(), inits.begin(), inits.end());
  std::vector<Type> types = typesOf(inits);
  Op *loop = l.b.create(OpCode::For, operands, types, {}, 1);
  Block *newBody = loop->region();
  l.setScalar(body->argument(0), newBody->addArgument(operands[0]->type()));
  std::vector<Value *> newArgs;
  for (Type t : types)
    newArgs.push_back(newBody->addArgument(t));
  bindValues(l, iterArgs, layouts, newArgs, 0);
  if (!lowerRegion(l, body, newBody, OpCode::Yield, layouts))
    return false;
  bindValues(l, op->results(), layouts, loop->results(), 0);
  return true;
}

bool lowerIf(Lowering &l, Op *op) {
  std::vector<Value *> results = op->results();
  std::vector<LinearLayout> layouts = layoutsOf(l, results);
  std::vector<Type> types;
  for (size_t i = 0; i < results.size(); ++i)
    for (int64_t r = 0; r < layouts[i].numRegisters(); ++r)
      types.push_back(results[i]->type().element());
  Value *cond[] = {l.scalar(op->operand(0))};
  Op *branch = l.b.create(OpCode::If, cond, types, {}, 2);
  for (unsigned k = 0; k < 2; ++k)
    if (!lowerRegion(l, op->region(k), branch->region(k), OpCode::Yield, layouts))
      return false;
  bindValues(l, results, layouts, branch->results(), 0);
  return true;
}

bool lowerWhile(Lowering &l, Op *op) {
  Block *before = op->region(0), *after = op->region(1);
  std::vector<LinearLayout> beforeLayouts = layoutsOf(l, before->arguments());
  std::vector<LinearLayout> afterLayouts = layoutsOf(l, op->results());
  std::vector<Value *> inits = flatten(l, op->operands(), beforeLayouts);
  std::vector<Type> afterTypes;
  for (size_t i = 0; i < afterLayouts.size(); ++i)
    for (int64_t r = 0; r < afterLayouts[i].numRegisters(); ++r)
      afterTypes.push_back(op->result(static_cast<unsigned>(i))->type().element());
  Op *loop = l.b.create(OpCode::While, inits, afterTypes, {}, 2);
  std::vector<Value *> beforeArgs, afterArgs;
  for (Value *v : inits)
    beforeArgs.push_back(loop->region(0)->addArgument(v->type()));
  for (Type t : afterTypes)
    afterArgs.push_back(loop->region(1)->addArgument(t));
  bindValues(l, before->arguments(), beforeLayouts, beforeArgs, 0);
  if (!lowerRegion(l, before, loop->region(0), OpCode::Condition, afterLayouts, 1))
    return false;
  bindValues(l, after->arguments(), afterLayouts, afterArgs, 0);
  if (!lowerRegion(l, after, loop->region(1), OpCode::Yield, beforeLayouts))
    return false;
  bindValues(l, op->results(), afterLayouts, loop->results(), 0);
  return true;
}

} // namespace trident::simt
