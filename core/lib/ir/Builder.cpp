#include "trident/ir/Builder.h"

#include <cassert>

namespace trident {

namespace {

std::vector<int64_t> toVec(std::span<const int64_t> s) { return {s.begin(), s.end()}; }

} // namespace

Op *Builder::insert(Op *op) {
  assert(block_ && "builder has no insertion point");
  block_->insertBefore(before_, op);
  return op;
}

Op *Builder::create(OpCode code, std::span<Value *const> operands, std::span<const Type> resultTypes,
                    AttributeList attrs, unsigned numRegions) {
  return insert(Op::create(code, loc_, operands, resultTypes, std::move(attrs), numRegions));
}

// ---- structure ---------------------------------------------------------------

Op *Builder::func(std::string_view name, std::span<const Type> params, std::span<const Type> results) {
  AttributeList attrs{{"sym_name", Attribute::string(std::string(name))}};
  if (!results.empty()) // absent means "returns nothing"
    attrs.set("result_types", Attribute::types({results.begin(), results.end()}));
  Op *f = create(OpCode::Func, std::span<Value *const>{}, std::span<const Type>{}, std::move(attrs), 1);
  for (Type t : params)
    f->region()->addArgument(t);
  return f;
}

Op *Builder::ret(std::span<Value *const> values) {
  return create(OpCode::Return, values, std::span<const Type>{});
}

Op *Builder::call(Op *callee, std::span<Value *const> args) {
  std::vector<Type> results = func::resultTypes(callee);
  return create(OpCode::Call, args, results,
                {{"callee", Attribute::string(std::string(func::name(callee)))}});
}

// ---- constants and block construction ----------------------------------------

Value *Builder::constInt(int64_t v, Type type) {
  assert(type.element().isInteger());
  return create(OpCode::Constant, {}, {type}, {{"value", Attribute::integer(v)}})->result();
}

Value *Builder::constFloat(double v, Type type) {
  assert(type.element().isFloat());
  return create(OpCode::Constant, {}, {type}, {{"value", Attribute::floating(v)}})->result();
}

Value *Builder::constBool(bool v, Type type) {
  assert(type.element() == Type::i1());
  return create(OpCode::Constant, {}, {type}, {{"value", Attribute::boolean(v)}})->result();
}

Value *Builder::programId(int axis) {
  return create(OpCode::GetProgramId, {}, {Type::i32()}, {{"axis", Attribute::integer(axis)}})->result();
}

Value *Builder::numPrograms(int axis) {
  return create(OpCode::GetNumPrograms, {}, {Type::i32()}, {{"axis", Attribute::integer(axis)}})->result();
}

Value *Builder::makeRange(int64_t start, int64_t end) {
  return create(OpCode::MakeRange, {}, {Type::block({end - start}, Type::i32())},
                {{"start", Attribute::integer(start)}, {"end", Attribute::integer(end)}})
      ->result();
}

Value *Builder::splat(Value *scalar, std::span<const int64_t> shape) {
  return create(OpCode::Splat, {scalar}, {Type::block(shape, scalar->type())})->result();
}

Value *Builder::broadcast(Value *v, std::span<const int64_t> shape) {
  return create(OpCode::Broadcast, {v}, {Type::block(shape, v->type().element())})->result();
}

Value *Builder::expandDims(Value *v, int axis) {
  std::vector<int64_t> shape = toVec(v->type().shape());
  shape.insert(shape.begin() + axis, 1);
  return create(OpCode::ExpandDims, {v}, {Type::block(shape, v->type().element())},
                {{"axis", Attribute::integer(axis)}})
      ->result();
}

Value *Builder::reshape(Value *v, std::span<const int64_t> shape, bool allowReorder) {
  AttributeList attrs;
  if (allowReorder)
    attrs.set("allow_reorder", Attribute::boolean(true));
  return create(OpCode::Reshape, {v}, {Type::block(shape, v->type().element())}, std::move(attrs))->result();
}

Value *Builder::trans(Value *v, std::span<const int64_t> order) {
  std::vector<int64_t> shape;
  for (int64_t d : order)
    shape.push_back(v->type().shape()[d]);
  return create(OpCode::Trans, {v}, {Type::block(shape, v->type().element())},
                {{"order", Attribute::ints(toVec(order))}})
      ->result();
}

Value *Builder::join(Value *a, Value *b) {
  std::vector<int64_t> shape = toVec(a->type().shape());
  shape.push_back(2);
  return create(OpCode::Join, {a, b}, {Type::block(shape, a->type().element())})->result();
}

std::pair<Value *, Value *> Builder::split(Value *v) {
  std::vector<int64_t> shape = toVec(v->type().shape());
  shape.pop_back();
  Type t = Type::block(shape, v->type().element());
  Op *op = create(OpCode::Split, {v}, {t, t});
  return {op->result(0), op->result(1)};
}

Value *Builder::cat(Value *a, Value *b) {
  std::vector<int64_t> shape = toVec(a->type().shape());
  shape[0] += b->type().shape()[0];
  return create(OpCode::Cat, {a, b}, {Type::block(shape, a->type().element())})->result();
}

// ---- arithmetic --------------------------------------------------------------

Value *Builder::binary(OpCode code, Value *a, Value *b) {
  return create(code, {a, b}, {a->type()})->result();
}

Value *Builder::unary(OpCode code, Value *a) { return create(code, {a}, {a->type()})->result(); }

Value *Builder::cmpi(std::string_view predicate, Value *a, Value *b) {
  return create(OpCode::CmpI, {a, b}, {a->type().withElement(Type::i1())},
                {{"predicate", Attribute::string(std::string(predicate))}})
      ->result();
}

Value *Builder::cmpf(std::string_view predicate, Value *a, Value *b) {
  return create(OpCode::CmpF, {a, b}, {a->type().withElement(Type::i1())},
                {{"predicate", Attribute::string(std::string(predicate))}})
      ->result();
}

Value *Builder::select(Value *cond, Value *a, Value *b) {
  return create(OpCode::Select, {cond, a, b}, {a->type()})->result();
}

Value *Builder::fma(Value *a, Value *b, Value *c) {
  return create(OpCode::Fma, {a, b, c}, {a->type()})->result();
}

Value *Builder::cast(OpCode code, Value *v, Type type) { return create(code, {v}, {type})->result(); }

Value *Builder::addPtr(Value *ptr, Value *offset) {
  return create(OpCode::AddPtr, {ptr, offset}, {ptr->type()})->result();
}

// ---- memory ------------------------------------------------------------------

Value *Builder::load(Value *ptr, Value *mask, Value *other, AttributeList attrs) {
  assert((mask || !other) && "load: 'other' needs a mask");
  std::vector<Value *> operands{ptr};
  if (mask)
    operands.push_back(mask);
  if (other)
    operands.push_back(other);
  Type t = ptr->type().withElement(ptr->type().element().pointee());
  Type types[] = {t};
  return create(OpCode::Load, operands, types, std::move(attrs))->result();
}

Op *Builder::store(Value *ptr, Value *value, Value *mask, AttributeList attrs) {
  std::vector<Value *> operands{ptr, value};
  if (mask)
    operands.push_back(mask);
  return create(OpCode::Store, operands, std::span<const Type>{}, std::move(attrs));
}

Value *Builder::atomicRMW(std::string_view kind, Value *ptr, Value *value, Value *mask,
                          std::string_view sem, std::string_view scope) {
  std::vector<Value *> operands{ptr, value};
  if (mask)
    operands.push_back(mask);
  Type types[] = {value->type()};
  return create(OpCode::AtomicRMW, operands, types,
                {{"kind", Attribute::string(std::string(kind))},
                 {"sem", Attribute::string(std::string(sem))},
                 {"scope", Attribute::string(std::string(scope))}})
      ->result();
}

Value *Builder::atomicCAS(Value *ptr, Value *cmp, Value *value, std::string_view sem, std::string_view scope) {
  return create(OpCode::AtomicCAS, {ptr, cmp, value}, {value->type()},
                {{"sem", Attribute::string(std::string(sem))}, {"scope", Attribute::string(std::string(scope))}})
      ->result();
}

// ---- matrix, reduce, scan ----------------------------------------------------

Value *Builder::dot(Value *a, Value *b, Value *acc, std::string_view inputPrecision) {
  return create(OpCode::Dot, {a, b, acc}, {acc->type()},
                {{"input_precision", Attribute::string(std::string(inputPrecision))}})
      ->result();
}

namespace {

Op *buildCombining(Builder &b, OpCode code, OpCode terminator, std::span<Value *const> inputs,
                   std::vector<Type> resultTypes, AttributeList attrs, const Builder::Combiner &body) {
  Op *op = b.create(code, inputs, resultTypes, std::move(attrs), 1);
  Block *region = op->region();
  std::vector<Value *> lhs, rhs;
  for (Value *v : inputs)
    lhs.push_back(region->addArgument(v->type().element()));
  for (Value *v : inputs)
    rhs.push_back(region->addArgument(v->type().element()));
  Builder inner;
  inner.setLoc(b.loc());
  inner.setInsertionPointToEnd(region);
  std::vector<Value *> combined = body(inner, lhs, rhs);
  inner.create(terminator, combined, std::span<const Type>{});
  return op;
}

} // namespace

Op *Builder::reduce(std::span<Value *const> inputs, int axis, const Combiner &body) {
  std::vector<Type> types;
  for (Value *v : inputs) {
    std::vector<int64_t> shape = toVec(v->type().shape());
    shape.erase(shape.begin() + axis);
    types.push_back(Type::block(shape, v->type().element()));
  }
  return buildCombining(*this, OpCode::Reduce, OpCode::ReduceReturn, inputs, types,
                        {{"axis", Attribute::integer(axis)}}, body);
}

Op *Builder::scan(std::span<Value *const> inputs, int axis, bool reverse, const Combiner &body) {
  std::vector<Type> types;
  for (Value *v : inputs)
    types.push_back(v->type());
  return buildCombining(*this, OpCode::Scan, OpCode::ScanReturn, inputs, types,
                        {{"axis", Attribute::integer(axis)}, {"reverse", Attribute::boolean(reverse)}}, body);
}

// ---- structured control flow -------------------------------------------------

Op *Builder::forOp(Value *lb, Value *ub, Value *step, std::span<Value *const> inits) {
  std::vector<Value *> operands{lb, ub, step};
  operands.insert(operands.end(), inits.begin(), inits.end());
  std::vector<Type> types;
  for (Value *v : inits)
    types.push_back(v->type());
  Op *op = create(OpCode::For, operands, types, {}, 1);
  op->region()->addArgument(lb->type());
  for (Value *v : inits)
    op->region()->addArgument(v->type());
  return op;
}

Op *Builder::ifOp(Value *cond, std::span<const Type> resultTypes) {
  Value *operands[] = {cond};
  return create(OpCode::If, operands, resultTypes, {}, 2);
}

Op *Builder::yield(std::span<Value *const> values) {
  return create(OpCode::Yield, values, std::span<const Type>{});
}

} // namespace trident
