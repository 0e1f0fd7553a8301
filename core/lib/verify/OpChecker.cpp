#include "OpChecker.h"

namespace trident::verifier {

namespace {

std::string quoteName(std::string_view name) { return "'" + std::string(name) + "'"; }

std::string describeAttr(const Attribute &a) { return a.str(); }

std::string joinAllowed(std::initializer_list<std::string_view> allowed) {
  std::string s;
  for (std::string_view a : allowed) {
    if (!s.empty())
      s += ", ";
    s += a.empty() ? std::string("\"\"") : std::string(a);
  }
  return s;
}

std::string regionName(const Op *op, unsigned r) {
  return op->numRegions() == 1 ? std::string("region") : "region #" + std::to_string(r);
}

} // namespace

void OpChecker::error(const std::string &message) {
  failed_ = true;
  diags_.error(op_->loc(), quoteName(op_->name()) + " op " + message);
}

// ---- attributes --------------------------------------------------------------

std::optional<int64_t> OpChecker::intAttr(std::string_view name, bool required) {
  const Attribute &a = op_->attr(name);
  if (!a.present()) {
    if (required)
      error("requires integer attribute '" + std::string(name) + "'");
    return std::nullopt;
  }
  if (!a.isInt()) {
    error("attribute '" + std::string(name) + "' must be an integer, got " + describeAttr(a));
    return std::nullopt;
  }
  return a.getInt();
}

std::optional<bool> OpChecker::boolAttr(std::string_view name, bool required) {
  const Attribute &a = op_->attr(name);
  if (!a.present()) {
    if (required)
      error("requires boolean attribute '" + std::string(name) + "'");
    return std::nullopt;
  }
  if (!a.isBool()) {
    error("attribute '" + std::string(name) + "' must be true or false, got " + describeAttr(a));
    return std::nullopt;
  }
  return a.getBool();
}

std::optional<std::string> OpChecker::stringAttr(std::string_view name, bool required,
                                                 std::initializer_list<std::string_view> allowed) {
  const Attribute &a = op_->attr(name);
  if (!a.present()) {
    if (required)
      error("requires string attribute '" + std::string(name) + "'");
    return std::nullopt;
  }
  if (!a.isString()) {
    error("attribute '" + std::string(name) + "' must be a string, got " + describeAttr(a));
    return std::nullopt;
  }
  if (allowed.size() != 0) {
    bool found = false;
    for (std::string_view v : allowed)
      found = found || v == a.getString();
    if (!found) {
      error("attribute '" + std::string(name) + "' must be one of " + joinAllowed(allowed) + ", got " +
            describeAttr(a));
      return std::nullopt;
    }
  }
  return a.getString();
}

const Attribute::IntArray *OpChecker::intsAttr(std::string_view name, bool required) {
  const Attribute &a = op_->attr(name);
  if (!a.present()) {
    if (required)
      error("requires integer array attribute '" + std::string(name) + "'");
    return nullptr;
  }
  if (!a.isInts()) {
    error("attribute '" + std::string(name) + "' must be an integer array, got " + describeAttr(a));
    return nullptr;
  }
  return &a.getInts();
}

const Attribute::TypeArray *OpChecker::typesAttr(std::string_view name, bool required) {
  const Attribute &a = op_->attr(name);
  if (!a.present()) {
    if (required)
      error("requires type array attribute '" + std::string(name) + "'");
    return nullptr;
  }
  if (!a.isTypes()) {
    error("attribute '" + std::string(name) + "' must be a type array, got " + describeAttr(a));
    return nullptr;
  }
  return &a.getTypes();
}

// ---- types -------------------------------------------------------------------

bool OpChecker::expectSameOperandTypes(unsigned a, unsigned b) {
  if (operand(a) == operand(b))
    return true;
  error("operand types must match, got " + operand(a).str() + " and " + operand(b).str());
  return false;
}

bool OpChecker::expectResultType(unsigned i, Type expected) {
  if (result(i) == expected)
    return true;
  std::string which = op_->numResults() == 1 ? "result" : "result #" + std::to_string(i);
  error(which + " type must be " + expected.str() + ", got " + result(i).str());
  return false;
}

bool OpChecker::expectIntegerLike(Type t, std::string_view what) {
  if (t.element().isInteger())
    return true;
  error(std::string(what) + " must have integer elements, got " + t.str());
  return false;
}

bool OpChecker::expectFloatLike(Type t, std::string_view what) {
  if (t.element().isFloat())
    return true;
  error(std::string(what) + " must have float elements, got " + t.str());
  return false;
}

bool OpChecker::expectBoolLike(Type t, std::string_view what) {
  if (t.element() == Type::i1())
    return true;
  error(std::string(what) + " must have i1 elements, got " + t.str());
  return false;
}

bool OpChecker::expectBlock(Type t, std::string_view what) {
  if (t.isBlock())
    return true;
  error(std::string(what) + " must be a block, got " + t.str());
  return false;
}

bool OpChecker::expectScalar(Type t, std::string_view what) {
  if (t.isScalar())
    return true;
  error(std::string(what) + " must be a scalar, got " + t.str());
  return false;
}

// ---- regions -----------------------------------------------------------------

const Op *OpChecker::terminatorOf(unsigned r, OpCode code) {
  const Op *last = op_->region(r)->back();
  if (last && last->is(code))
    return last;
  error(regionName(op_, r) + " must end in " + quoteName(opInfo(code).name));
  return nullptr;
}

bool OpChecker::expectRegionArguments(unsigned r, std::span<const Type> types, std::string_view what) {
  const Block *block = op_->region(r);
  if (block->numArguments() != types.size()) {
    error(regionName(op_, r) + " has " + counted(block->numArguments(), "argument") + ", expected " +
          std::to_string(types.size()) + " (" + std::string(what) + ")");
    return false;
  }
  bool ok = true;
  for (unsigned i = 0; i < types.size(); ++i) {
    if (block->argument(i)->type() != types[i]) {
      error(regionName(op_, r) + " argument #" + std::to_string(i) + " has type " +
            block->argument(i)->type().str() + ", expected " + types[i].str() + " (" + std::string(what) +
            ")");
      ok = false;
    }
  }
  return ok;
}

bool checkTerminatorValues(OpChecker &c, std::span<const Type> expected, std::string_view target,
                           unsigned first) {
  const Op *op = c.op();
  unsigned count = op->numOperands() - first;
  if (count != expected.size()) {
    c.error("passes " + counted(count, "value") + ", expected " + std::to_string(expected.size()) +
            " to match " + std::string(target));
    return false;
  }
  bool ok = true;
  for (unsigned i = 0; i < expected.size(); ++i) {
    if (c.operand(first + i) != expected[i]) {
      c.error("value #" + std::to_string(i) + " has type " + c.operand(first + i).str() + ", expected " +
              expected[i].str() + " to match " + std::string(target));
      ok = false;
    }
  }
  return ok;
}

// ---- helpers -----------------------------------------------------------------

std::vector<Type> typesOf(std::span<Value *const> values) {
  std::vector<Type> out;
  for (Value *v : values)
    out.push_back(v->type());
  return out;
}

bool sameShape(Type a, Type b) { return a.withElement(Type::i1()) == b.withElement(Type::i1()); }

std::string shapeString(Type t) {
  if (t.rank() == 0)
    return "scalar";
  std::string s;
  for (int64_t d : t.shape()) {
    if (!s.empty())
      s += "x";
    s += std::to_string(d);
  }
  return s;
}

std::string typeProblem(Type t) {
  if (!t)
    return "is missing";
  if (t.isBlock()) {
    for (int64_t d : t.shape())
      if (!isPowerOfTwo(d))
        return "has type " + t.str() + ", but block dimensions must be powers of two";
  } else if (t.isVector()) {
    if (t.shape()[0] <= 0)
      return "has type " + t.str() + ", but vector lengths must be positive";
  }
  return {};
}

bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

std::string counted(size_t n, std::string_view singular, std::string_view plural) {
  std::string word = n == 1           ? std::string(singular)
                     : plural.empty() ? std::string(singular) + "s"
                                      : std::string(plural);
  return std::to_string(n) + " " + word;
}

const Op *enclosingModule(const Op *op) {
  for (const Op *p = op; p; p = p->parentOp())
    if (p->is(OpCode::Module))
      return p;
  return nullptr;
}

} // namespace trident::verifier
