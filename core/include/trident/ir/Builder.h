#pragma once
// Builds IR from C++: an insertion point, a current location, and one helper per
// common op. Result types are inferred where the op's rules fix them.
//
//   Builder b(module);                  // appends to the module body
//   Op *f = b.func("add", {ptrF32, ptrF32, i32}, {});
//   b.setInsertionPointToEnd(f->region());
//   Value *pid = b.programId(0);
//   Value *r = b.makeRange(0, 1024);

#include "trident/ir/IR.h"

#include <functional>

namespace trident {

class Builder {
public:
  Builder() = default;
  explicit Builder(Module &m) { setInsertionPointToEnd(m.body()); }

  // Insertion point: ops go before `before_` in `block_` (before_ == null: at the end).
  void setInsertionPointToEnd(Block *block) { block_ = block; before_ = nullptr; }
  void setInsertionPointToStart(Block *block) { block_ = block; before_ = block->front(); }
  void setInsertionPoint(Op *before) { block_ = before->parentBlock(); before_ = before; }
  void setInsertionPointAfter(Op *op) { block_ = op->parentBlock(); before_ = op->next(); }
  Block *block() const { return block_; }
  Op *insertionOp() const { return before_; }

  void setLoc(Location loc) { loc_ = loc; }
  Location loc() const { return loc_; }

  // Creates an op at the insertion point.
  Op *create(OpCode code, std::span<Value *const> operands, std::span<const Type> resultTypes,
             AttributeList attrs = {}, unsigned numRegions = 0);
  Op *create(OpCode code, std::initializer_list<Value *> operands,
             std::initializer_list<Type> resultTypes, AttributeList attrs = {},
             unsigned numRegions = 0) {
    return create(code, std::span<Value *const>(operands.begin(), operands.size()),
                  std::span<const Type>(resultTypes.begin(), resultTypes.size()), std::move(attrs),
                  numRegions);
  }
  // Inserts a detached op at the insertion point.
  Op *insert(Op *op);

  // ---- structure ----
  // A tt.func whose region has one argument per parameter.
  Op *func(std::string_view name, std::span<const Type> params, std::span<const Type> results);
  Op *ret(std::span<Value *const> values = {});
  Op *call(Op *callee, std::span<Value *const> args);

  // ---- constants and block construction ----
  Value *constInt(int64_t v, Type type);   // type: integer scalar or block of one
  Value *constFloat(double v, Type type);  // type: float scalar or block of one
  Value *constBool(bool v, Type type = Type::i1());
  Value *programId(int axis);
  Value *numPrograms(int axis);
  Value *makeRange(int64_t start, int64_t end);
  Value *splat(Value *scalar, std::span<const int64_t> shape);
  Value *broadcast(Value *v, std::span<const int64_t> shape);
  Value *expandDims(Value *v, int axis);
  Value *reshape(Value *v, std::span<const int64_t> shape, bool allowReorder = false);
  Value *trans(Value *v, std::span<const int64_t> order);
  Value *join(Value *a, Value *b);
  std::pair<Value *, Value *> split(Value *v);
  Value *cat(Value *a, Value *b);

  // ---- arithmetic: the result has the operands' type (cmp: i1 of that shape) ----
  Value *binary(OpCode code, Value *a, Value *b);
  Value *unary(OpCode code, Value *a);
  Value *cmpi(std::string_view predicate, Value *a, Value *b);
  Value *cmpf(std::string_view predicate, Value *a, Value *b);
  Value *select(Value *cond, Value *a, Value *b);
  Value *fma(Value *a, Value *b, Value *c);
  // A cast op (extsi, truncf, bitcast, ptr_to_int ...) to `type`.
  Value *cast(OpCode code, Value *v, Type type);
  Value *addPtr(Value *ptr, Value *offset);

  // ---- memory ----
  Value *load(Value *ptr, Value *mask = nullptr, Value *other = nullptr, AttributeList attrs = {});
  Op *store(Value *ptr, Value *value, Value *mask = nullptr, AttributeList attrs = {});
  Value *atomicRMW(std::string_view kind, Value *ptr, Value *value, Value *mask = nullptr,
                   std::string_view sem = "acq_rel", std::string_view scope = "gpu");
  Value *atomicCAS(Value *ptr, Value *cmp, Value *value, std::string_view sem = "acq_rel",
                   std::string_view scope = "gpu");

  // ---- matrix, reduce, scan ----
  Value *dot(Value *a, Value *b, Value *acc, std::string_view inputPrecision = "ieee");
  // A reduce/scan whose combiner region has 2N arguments (lhs..., rhs...) of the
  // inputs' element types; `body` fills it and returns the combined values.
  using Combiner = std::function<std::vector<Value *>(Builder &, std::span<Value *const> lhs,
                                                      std::span<Value *const> rhs)>;
  Op *reduce(std::span<Value *const> inputs, int axis, const Combiner &body);
  Op *scan(std::span<Value *const> inputs, int axis, bool reverse, const Combiner &body);

  // ---- structured control flow ----
  // scf.for; the region has (iv, iter...) arguments and must end in scf.yield.
  Op *forOp(Value *lb, Value *ub, Value *step, std::span<Value *const> inits);
  // scf.if with the given result types; both regions empty.
  Op *ifOp(Value *cond, std::span<const Type> resultTypes);
  Op *yield(std::span<Value *const> values = {});

private:
  Block *block_ = nullptr;
  Op *before_ = nullptr;
  Location loc_;
};

} // namespace trident
