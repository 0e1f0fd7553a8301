#pragma once
// The IR infrastructure shared by the block IR and the thread IR:
// SSA values, ops with operands, results, attributes and regions, blocks, modules.
//
// Ownership: a Module owns its top op; an op owns its results and its regions;
// a region is exactly one Block, which owns its arguments and its ops (a doubly
// linked list). Control flow is structured, so a region never needs more blocks.
//
// Every Value keeps the list of its uses, so passes can replace values and
// find dead ones without scanning.

#include "trident/ir/Attribute.h"
#include "trident/ir/OpInfo.h"
#include "trident/ir/Type.h"
#include "trident/support/Location.h"

#include <cassert>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace trident {

class Block;
class Op;

struct Use {
  Op *user;
  unsigned operandIndex;
  bool operator==(const Use &) const = default;
};

// An SSA value: the result of an op or an argument of a block.
class Value {
public:
  Type type() const { return type_; }
  void setType(Type t) { type_ = t; }
  // The op that defines this value, or null for a block argument.
  Op *definingOp() const { return op_; }
  // The block whose argument this is, or null for an op result.
  Block *ownerBlock() const { return block_; }
  bool isBlockArgument() const { return block_ != nullptr; }
  // Result number, or argument number.
  unsigned index() const { return index_; }

  const std::vector<Use> &uses() const { return uses_; }
  bool hasUses() const { return !uses_.empty(); }
  // Makes every user of this value use `v` instead.
  void replaceAllUsesWith(Value *v);

private:
  friend class Op;
  friend class Block;
  Value(Type type, Op *op, Block *block, unsigned index) : type_(type), op_(op), block_(block), index_(index) {}
  Type type_;
  Op *op_;
  Block *block_;
  unsigned index_;
  std::vector<Use> uses_;
};

// A region body: arguments and an ordered list of ops.
class Block {
public:
  Block() = default;
  Block(const Block &) = delete;
  Block &operator=(const Block &) = delete;
  ~Block();

  // The op whose region this is (null for a detached block).
  Op *parentOp() const { return parent_; }

  Value *addArgument(Type type);
  unsigned numArguments() const { return static_cast<unsigned>(args_.size()); }
  Value *argument(unsigned i) const { return args_[i].get(); }
  std::vector<Value *> arguments() const;
  // Removes argument `i`, which must have no uses.
  void eraseArgument(unsigned i);

  Op *front() const { return first_; }
  Op *back() const { return last_; }
  bool empty() const { return first_ == nullptr; }
  // The last op if it is a terminator, else null.
  Op *terminator() const;

  // Takes ownership of `op` (which must be detached).
  void push_back(Op *op);
  void insertBefore(Op *pos, Op *op); // pos == nullptr appends
  // Moves all ops of `other` before `pos` (null: to the end) in this block.
  void splice(Op *pos, Block &other);

  // Iteration over ops; erasing the op being visited is not allowed (use ops()).
  class iterator {
  public:
    explicit iterator(Op *op) : op_(op) {}
    Op *operator*() const { return op_; }
    iterator &operator++();
    bool operator!=(const iterator &o) const { return op_ != o.op_; }
    bool operator==(const iterator &o) const { return op_ == o.op_; }
  private:
    Op *op_;
  };
  iterator begin() const { return iterator(first_); }
  iterator end() const { return iterator(nullptr); }
  // A snapshot of the ops, safe to iterate while erasing or moving them.
  std::vector<Op *> ops() const;
  size_t size() const;

private:
  friend class Op;
  Op *parent_ = nullptr;
  std::vector<std::unique_ptr<Value>> args_;
  Op *first_ = nullptr, *last_ = nullptr;
};

// Maps values of an original to values of a copy, for Op::clone.
class ValueMap {
public:
  void map(Value *from, Value *to);
  // The mapped value, or `v` itself when it has no mapping.
  Value *lookup(Value *v) const;
  bool contains(Value *v) const;
private:
  std::vector<std::pair<Value *, Value *>> sorted_;
};

class Op {
public:
  // Creates a detached op. Each region starts as an empty block without arguments.
  static Op *create(OpCode code, Location loc, std::span<Value *const> operands,
                    std::span<const Type> resultTypes, AttributeList attrs = {},
                    unsigned numRegions = 0);
  Op(const Op &) = delete;
  Op &operator=(const Op &) = delete;

  OpCode code() const { return code_; }
  const OpInfo &info() const { return opInfo(code_); }
  std::string_view name() const { return info().name; }
  bool is(OpCode c) const { return code_ == c; }
  bool has(OpTrait t) const { return info().has(t); }
  Location loc() const { return loc_; }
  void setLoc(Location loc) { loc_ = loc; }

  unsigned numOperands() const { return static_cast<unsigned>(operands_.size()); }
  Value *operand(unsigned i) const { return operands_[i]; }
  std::span<Value *const> operands() const { return operands_; }
  void setOperand(unsigned i, Value *v);
  void setOperands(std::span<Value *const> operands);
  void addOperand(Value *v);
  void eraseOperand(unsigned i);

  unsigned numResults() const { return static_cast<unsigned>(results_.size()); }
  Value *result(unsigned i = 0) const { return results_[i].get(); }
  std::vector<Value *> results() const;
  Value *addResult(Type type);
  // Removes result `i`, which must have no uses.
  void eraseResult(unsigned i);

  AttributeList &attrs() { return attrs_; }
  const AttributeList &attrs() const { return attrs_; }
  const Attribute &attr(std::string_view name) const { return attrs_.get(name); }
  void setAttr(std::string_view name, Attribute value) { attrs_.set(name, std::move(value)); }
  // Typed accessors for attributes the verifier has checked.
  int64_t intAttr(std::string_view name) const { return attr(name).getInt(); }
  const std::string &stringAttr(std::string_view name) const { return attr(name).getString(); }

  unsigned numRegions() const { return static_cast<unsigned>(regions_.size()); }
  Block *region(unsigned i = 0) const { return regions_[i].get(); }

  Block *parentBlock() const { return block_; }
  Op *parentOp() const; // the op whose region holds this op
  Op *next() const { return next_; }
  Op *prev() const { return prev_; }
  // True if this op is `other` or nested inside one of its regions.
  bool isInside(const Op *other) const;

  // Unlinks from the parent block; ownership passes to the caller.
  void detach();
  // Unlinks and destroys; results must have no uses outside this op.
  void erase();
  void moveBefore(Op *pos);
  void moveAfter(Op *pos);

  // Deep copy; operands are mapped through `map` (unmapped ones are kept), and
  // the copy's results and region arguments are added to `map`.
  Op *clone(ValueMap &map) const;

  // Visits this op and all nested ops, parents before children.
  template <class F> void walk(F &&f) {
    f(this);
    for (auto &r : regions_)
      for (Op *op : r->ops())
        op->walk(f);
  }

private:
  friend class Block;
  friend struct OpDeleter;
  Op(OpCode code, Location loc) : code_(code), loc_(loc) {}
  ~Op();
  void dropOperandUses();

  OpCode code_;
  Location loc_;
  std::vector<Value *> operands_;
  std::vector<std::unique_ptr<Value>> results_;
  AttributeList attrs_;
  std::vector<std::unique_ptr<Block>> regions_;
  Block *block_ = nullptr;
  Op *prev_ = nullptr, *next_ = nullptr;
};

struct OpDeleter {
  void operator()(Op *op) const;
};
using OwnedOp = std::unique_ptr<Op, OpDeleter>;

// A module: a builtin.module op whose region holds tt.func ops.
class Module {
public:
  Module();
  explicit Module(OwnedOp op); // takes a builtin.module op
  Op *op() const { return op_.get(); }
  Block *body() const { return op_->region(0); }
  std::vector<Op *> functions() const;
  Op *lookupFunction(std::string_view name) const; // null when absent
  // Deep copy.
  Module clone() const;

private:
  OwnedOp op_;
};

// Accessors for tt.func ops.
namespace func {
std::string_view name(const Op *f);
std::vector<Type> argumentTypes(const Op *f);
std::vector<Type> resultTypes(const Op *f);
} // namespace func

} // namespace trident
