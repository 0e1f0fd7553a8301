#include "trident/ir/IR.h"

#include <algorithm>

namespace trident {

// ---- Value -------------------------------------------------------------------

namespace {

// Removes one use; use order carries no meaning, so the last use fills the hole.
void removeUse(std::vector<Use> &uses, Use u) {
  for (size_t i = uses.size(); i-- > 0;) {
    if (uses[i] == u) {
      uses[i] = uses.back();
      uses.pop_back();
      return;
    }
  }
}

} // namespace

void Value::replaceAllUsesWith(Value *v) {
  if (v == this)
    return;
  std::vector<Use> uses = uses_;
  for (const Use &u : uses)
    u.user->setOperand(u.operandIndex, v);
}

// ---- Block -------------------------------------------------------------------

Block::~Block() {
  // Drop every operand use first, so ops can be destroyed in any order.
  for (Op *op = first_; op; op = op->next_)
    op->walk([](Op *o) { o->dropOperandUses(); });
  while (first_) {
    Op *op = first_;
    first_ = op->next_;
    op->block_ = nullptr;
    delete op;
  }
}

Value *Block::addArgument(Type type) {
  args_.push_back(std::unique_ptr<Value>(new Value(type, nullptr, this, numArguments())));
  return args_.back().get();
}

std::vector<Value *> Block::arguments() const {
  std::vector<Value *> out;
  for (auto &a : args_)
    out.push_back(a.get());
  return out;
}

void Block::eraseArgument(unsigned i) {
  assert(!args_[i]->hasUses() && "erasing a block argument that is still used");
  args_.erase(args_.begin() + i);
  for (unsigned j = i; j < args_.size(); ++j)
    args_[j]->index_ = j;
}

Op *Block::terminator() const {
  return last_ && last_->has(kTerminator) ? last_ : nullptr;
}

void Block::push_back(Op *op) { insertBefore(nullptr, op); }

void Block::insertBefore(Op *pos, Op *op) {
  assert(!op->block_ && "op is already in a block");
  assert((!pos || pos->block_ == this) && "insertion point is in another block");
  op->block_ = this;
  op->next_ = pos;
  op->prev_ = pos ? pos->prev_ : last_;
  if (op->prev_)
    op->prev_->next_ = op;
  else
    first_ = op;
  if (pos)
    pos->prev_ = op;
  else
    last_ = op;
}

void Block::splice(Op *pos, Block &other) {
  for (Op *op : other.ops()) {
    op->detach();
    insertBefore(pos, op);
  }
}

Block::iterator &Block::iterator::operator++() {
  op_ = op_->next();
  return *this;
}

std::vector<Op *> Block::ops() const {
  std::vector<Op *> out;
  for (Op *op = first_; op; op = op->next_)
    out.push_back(op);
  return out;
}

size_t Block::size() const {
  size_t n = 0;
  for (Op *op = first_; op; op = op->next_)
    ++n;
  return n;
}

// ---- ValueMap ----------------------------------------------------------------

void ValueMap::map(Value *from, Value *to) {
  auto it = std::lower_bound(sorted_.begin(), sorted_.end(), from,
                             [](const auto &p, Value *v) { return p.first < v; });
  if (it != sorted_.end() && it->first == from)
    it->second = to;
  else
    sorted_.insert(it, {from, to});
}

Value *ValueMap::lookup(Value *v) const {
  auto it = std::lower_bound(sorted_.begin(), sorted_.end(), v,
                             [](const auto &p, Value *x) { return p.first < x; });
  return it != sorted_.end() && it->first == v ? it->second : v;
}

bool ValueMap::contains(Value *v) const {
  auto it = std::lower_bound(sorted_.begin(), sorted_.end(), v,
                             [](const auto &p, Value *x) { return p.first < x; });
  return it != sorted_.end() && it->first == v;
}

// ---- Op ----------------------------------------------------------------------

Op *Op::create(OpCode code, Location loc, std::span<Value *const> operands,
               std::span<const Type> resultTypes, AttributeList attrs, unsigned numRegions) {
  Op *op = new Op(code, loc);
  for (Value *v : operands)
    op->addOperand(v);
  for (Type t : resultTypes)
    op->addResult(t);
  op->attrs_ = std::move(attrs);
  for (unsigned i = 0; i < numRegions; ++i) {
    op->regions_.push_back(std::make_unique<Block>());
    op->regions_.back()->parent_ = op;
  }
  return op;
}

Op::~Op() {
  dropOperandUses();
  regions_.clear();
}

void Op::dropOperandUses() {
  for (unsigned i = 0; i < operands_.size(); ++i) {
    if (Value *v = operands_[i])
      removeUse(v->uses_, Use{this, i});
    operands_[i] = nullptr;
  }
}

void Op::setOperand(unsigned i, Value *v) {
  if (Value *old = operands_[i])
    removeUse(old->uses_, Use{this, i});
  operands_[i] = v;
  if (v)
    v->uses_.push_back(Use{this, i});
}

void Op::setOperands(std::span<Value *const> operands) {
  std::vector<Value *> copy(operands.begin(), operands.end());
  dropOperandUses();
  operands_.clear();
  for (Value *v : copy)
    addOperand(v);
}

void Op::addOperand(Value *v) {
  operands_.push_back(nullptr);
  setOperand(numOperands() - 1, v);
}

void Op::eraseOperand(unsigned i) {
  std::vector<Value *> rest(operands_.begin() + i + 1, operands_.end());
  while (operands_.size() > i) {
    setOperand(numOperands() - 1, nullptr);
    operands_.pop_back();
  }
  for (Value *v : rest)
    addOperand(v);
}

std::vector<Value *> Op::results() const {
  std::vector<Value *> out;
  for (auto &r : results_)
    out.push_back(r.get());
  return out;
}

Value *Op::addResult(Type type) {
  results_.push_back(std::unique_ptr<Value>(new Value(type, this, nullptr, numResults())));
  return results_.back().get();
}

void Op::eraseResult(unsigned i) {
  assert(!results_[i]->hasUses() && "erasing a result that is still used");
  results_.erase(results_.begin() + i);
  for (unsigned j = i; j < results_.size(); ++j)
    results_[j]->index_ = j;
}

Op *Op::parentOp() const { return block_ ? block_->parentOp() : nullptr; }

bool Op::isInside(const Op *other) const {
  for (const Op *op = this; op; op = op->parentOp())
    if (op == other)
      return true;
  return false;
}

void Op::detach() {
  if (!block_)
    return;
  if (prev_)
    prev_->next_ = next_;
  else
    block_->first_ = next_;
  if (next_)
    next_->prev_ = prev_;
  else
    block_->last_ = prev_;
  prev_ = next_ = nullptr;
  block_ = nullptr;
}

void Op::erase() {
  detach();
  walk([](Op *o) { o->dropOperandUses(); });
#ifndef NDEBUG
  for (auto &r : results_)
    assert(!r->hasUses() && "erasing an op whose results are still used");
#endif
  delete this;
}

void Op::moveBefore(Op *pos) {
  detach();
  pos->block_->insertBefore(pos, this);
}

void Op::moveAfter(Op *pos) {
  detach();
  pos->block_->insertBefore(pos->next_, this);
}

Op *Op::clone(ValueMap &map) const {
  std::vector<Value *> operands;
  for (Value *v : operands_)
    operands.push_back(map.lookup(v));
  std::vector<Type> types;
  for (auto &r : results_)
    types.push_back(r->type());
  Op *copy = create(code_, loc_, operands, types, attrs_, numRegions());
  for (unsigned i = 0; i < numResults(); ++i)
    map.map(result(i), copy->result(i));
  for (unsigned r = 0; r < numRegions(); ++r) {
    Block *from = region(r), *to = copy->region(r);
    for (unsigned a = 0; a < from->numArguments(); ++a)
      map.map(from->argument(a), to->addArgument(from->argument(a)->type()));
    for (Op *op = from->front(); op; op = op->next())
      to->push_back(op->clone(map));
  }
  return copy;
}

void OpDeleter::operator()(Op *op) const {
  if (op)
    op->erase();
}

// ---- Module ------------------------------------------------------------------

Module::Module() : op_(Op::create(OpCode::Module, Location(), {}, {}, {}, 1)) {}

Module::Module(OwnedOp op) : op_(std::move(op)) {
  assert(op_ && op_->is(OpCode::Module));
}

std::vector<Op *> Module::functions() const {
  std::vector<Op *> out;
  for (Op *op : *body())
    if (op->is(OpCode::Func))
      out.push_back(op);
  return out;
}

Op *Module::lookupFunction(std::string_view name) const {
  for (Op *op : *body())
    if (op->is(OpCode::Func) && func::name(op) == name)
      return op;
  return nullptr;
}

Module Module::clone() const {
  ValueMap map;
  return Module(OwnedOp(op_->clone(map)));
}

namespace func {

std::string_view name(const Op *f) { return f->attr("sym_name").getString(); }

std::vector<Type> argumentTypes(const Op *f) {
  std::vector<Type> out;
  for (Value *v : f->region()->arguments())
    out.push_back(v->type());
  return out;
}

std::vector<Type> resultTypes(const Op *f) {
  const Attribute &a = f->attr("result_types");
  return a.isTypes() ? a.getTypes() : std::vector<Type>{};
}

} // namespace func

} // namespace trident
