// Soundness: random straight-line index arithmetic is analyzed, then run on fresh
// random inputs that satisfy the argument divisibility; every fact the analysis states
// (divisibility, contiguity, constancy, constant value, non-negativity) must hold for
// the concrete values. Values whose computation overflows i32 or divides by zero are
// not checked (the analysis assumes neither happens).
#include "trident/analysis/AxisInfo.h"
#include "trident/ir/Builder.h"

#include <doctest/doctest.h>

#include <map>
#include <random>

using namespace trident;

namespace {

struct Concrete {
  std::vector<int64_t> shape; // {1} for scalars
  std::vector<int64_t> v;     // row-major; i32 sign-extended, i1 as 0/1, pointers as addresses
  bool poisoned = false;
};

const int64_t kConstants[] = {0, 1, 2, 3, 4, 5, 7, 8, 12, 16, 31, 32, 48, 64, 100, 1000, -1, -3, -4, -16};

std::vector<int64_t> shapeOf(Type t) {
  if (!t.isBlock())
    return {1};
  return {t.shape().begin(), t.shape().end()};
}

bool fitsI32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }
int64_t asI32(uint64_t bits) { return static_cast<int32_t>(static_cast<uint32_t>(bits)); }

// One i32 binary op on exact values; nullopt when it overflows or is undefined.
std::optional<int64_t> evalBinary(OpCode code, int64_t a, int64_t b) {
  uint32_t ua = static_cast<uint32_t>(a), ub = static_cast<uint32_t>(b);
  int64_t r;
  switch (code) {
  case OpCode::AddI: r = a + b; break;
  case OpCode::SubI: r = a - b; break;
  case OpCode::MulI: r = a * b; break;
  case OpCode::DivSI:
    if (b == 0 || (a == INT32_MIN && b == -1))
      return std::nullopt;
    r = a / b;
    break;
  case OpCode::RemSI:
    if (b == 0 || (a == INT32_MIN && b == -1))
      return std::nullopt;
    r = a % b;
    break;
  case OpCode::DivUI:
    if (ub == 0)
      return std::nullopt;
    r = asI32(ua / ub);
    break;
  case OpCode::RemUI:
    if (ub == 0)
      return std::nullopt;
    r = asI32(ua % ub);
    break;
  case OpCode::AndI: r = a & b; break;
  case OpCode::OrI: r = a | b; break;
  case OpCode::XOrI: r = a ^ b; break;
  case OpCode::ShLI:
    if (b < 0 || b >= 32)
      return std::nullopt;
    r = a * (int64_t(1) << b);
    break;
  case OpCode::ShRSI:
    if (b < 0 || b >= 32)
      return std::nullopt;
    r = a >> b;
    break;
  case OpCode::ShRUI:
    if (b < 0 || b >= 32)
      return std::nullopt;
    r = asI32(ua >> b);
    break;
  case OpCode::MinSI: r = std::min(a, b); break;
  case OpCode::MaxSI: r = std::max(a, b); break;
  case OpCode::MinUI: r = asI32(std::min(ua, ub)); break;
  case OpCode::MaxUI: r = asI32(std::max(ua, ub)); break;
  default: return std::nullopt;
  }
  if (!fitsI32(r))
    return std::nullopt;
  return r;
}

bool evalCmp(const std::string &p, int64_t a, int64_t b) {
  uint32_t ua = static_cast<uint32_t>(a), ub = static_cast<uint32_t>(b);
  if (p == "eq")
    return a == b;
  if (p == "ne")
    return a != b;
  if (p == "slt")
    return a < b;
  if (p == "sle")
    return a <= b;
  if (p == "sgt")
    return a > b;
  if (p == "sge")
    return a >= b;
  if (p == "ult")
    return ua < ub;
  if (p == "ule")
    return ua <= ub;
  if (p == "ugt")
    return ua > ub;
  return ua >= ub;
}

// Runs the straight-line body of `func` on the given arguments and program id.
std::map<const Value *, Concrete> run(Op *func, const std::vector<int64_t> &args, int64_t pid) {
  std::map<const Value *, Concrete> vals;
  Block *body = func->region();
  for (unsigned i = 0; i < body->numArguments(); ++i)
    vals[body->argument(i)] = Concrete{{1}, {args[i]}, false};
  for (Op *op : *body) {
    if (op->numResults() != 1)
      continue;
    Type t = op->result()->type();
    Concrete r{shapeOf(t), {}, false};
    int64_t n = 1;
    for (int64_t s : r.shape)
      n *= s;
    auto in = [&](unsigned i) -> const Concrete & { return vals.at(op->operand(i)); };
    for (unsigned i = 0; i < op->numOperands(); ++i)
      r.poisoned = r.poisoned || in(i).poisoned;
    switch (op->code()) {
    case OpCode::Constant:
      r.v.assign(n, op->attr("value").isBool() ? op->attr("value").getBool() : op->intAttr("value"));
      break;
    case OpCode::MakeRange:
      for (int64_t i = 0; i < n; ++i)
        r.v.push_back(op->intAttr("start") + i);
      break;
    case OpCode::GetProgramId: r.v = {pid}; break;
    case OpCode::Splat: r.v.assign(n, in(0).v[0]); break;
    case OpCode::ExpandDims: r.v = in(0).v; break;
    case OpCode::Broadcast: {
      const Concrete &a = in(0);
      for (int64_t i = 0; i < n; ++i) { // rank 2: [R, C] from [R|1, C|1]
        int64_t row = i / r.shape[1], col = i % r.shape[1];
        r.v.push_back(a.v[(a.shape[0] == 1 ? 0 : row) * a.shape[1] + (a.shape[1] == 1 ? 0 : col)]);
      }
      break;
    }
    case OpCode::Trans: {
      const Concrete &a = in(0);
      for (int64_t i = 0; i < n; ++i) {
        int64_t row = i / r.shape[1], col = i % r.shape[1];
        r.v.push_back(a.v[col * a.shape[1] + row]);
      }
      break;
    }
    case OpCode::CmpI:
      for (int64_t i = 0; i < n; ++i)
        r.v.push_back(evalCmp(op->stringAttr("predicate"), in(0).v[i], in(1).v[i]));
      break;
    case OpCode::Select:
      for (int64_t i = 0; i < n; ++i)
        r.v.push_back(in(0).v[i] ? in(1).v[i] : in(2).v[i]);
      break;
    case OpCode::AddPtr:
      for (int64_t i = 0; i < n; ++i)
        r.v.push_back(in(0).v[i] + in(1).v[i] * 4);
      break;
    default:
      for (int64_t i = 0; i < n; ++i) {
        std::optional<int64_t> x;
        if (t.element() == Type::i1()) // and/or of masks
          x = op->is(OpCode::AndI) ? (in(0).v[i] & in(1).v[i]) : (in(0).v[i] | in(1).v[i]);
        else
          x = evalBinary(op->code(), in(0).v[i], in(1).v[i]);
        r.poisoned = r.poisoned || !x;
        r.v.push_back(x.value_or(0));
      }
      break;
    }
    vals[op->result()] = std::move(r);
  }
  return vals;
}

bool isPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// The first fact of `a` that `c` violates, or "" when all hold; `unit` is the step of
// contiguity (4 for f32 pointers).
std::string violatedFact(const AxisInfo &a, const Concrete &c, int64_t unit, bool is32) {
  unsigned rank = static_cast<unsigned>(c.shape.size());
  if (a.rank() != rank)
    return "rank";
  std::vector<int64_t> strides(rank, 1);
  for (int d = static_cast<int>(rank) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * c.shape[d + 1];
  for (unsigned d = 0; d < rank; ++d) {
    if (!isPow2(a.divisibility(d)) || !isPow2(a.contiguity(d)) || !isPow2(a.constancy(d)))
      return "not a power of two in dim " + std::to_string(d);
    if (c.shape[d] % a.contiguity(d) != 0 || c.shape[d] % a.constancy(d) != 0)
      return "run longer than dim " + std::to_string(d);
  }
  for (size_t i = 0; i < c.v.size(); ++i) {
    std::string at = " at element " + std::to_string(i) + " = " + std::to_string(c.v[i]);
    for (unsigned d = 0; d < rank; ++d) {
      int64_t pos = (static_cast<int64_t>(i) / strides[d]) % c.shape[d];
      int64_t prev = static_cast<int64_t>(i) - strides[d];
      if (pos % a.contiguity(d) != 0 && c.v[i] != c.v[prev] + unit)
        return "contiguity in dim " + std::to_string(d) + at;
      if (pos % a.constancy(d) != 0 && c.v[i] != c.v[prev])
        return "constancy in dim " + std::to_string(d) + at;
      int64_t div = std::min<int64_t>(a.divisibility(d), is32 ? int64_t(1) << 32 : int64_t(1) << 62);
      if (pos % a.contiguity(d) == 0 && (static_cast<uint64_t>(c.v[i]) & static_cast<uint64_t>(div - 1)) != 0)
        return "divisibility in dim " + std::to_string(d) + at;
    }
    if (a.constantValue() && c.v[i] != *a.constantValue())
      return "constant value" + at;
    if (a.nonNegative() && c.v[i] < 0)
      return "non-negativity" + at;
  }
  return "";
}

class ProgramGenerator {
public:
  explicit ProgramGenerator(uint64_t seed) : rng_(seed) {}

  // Builds a random kernel into `m`; returns the tt.func.
  Op *build(Module &m, std::vector<int64_t> &argDivisibility) {
    Builder b(m);
    Type ptr = Type::ptr(Type::f32());
    Type params[] = {Type::i32(), Type::i32(), ptr};
    Op *f = b.func("fuzz", params, {});
    argDivisibility = {pick({1, 2, 4, 8, 16, 32}), pick({1, 2, 4, 8, 16, 32}), pick({1, 16})};
    f->setAttr("arg_divisibility", Attribute::ints(argDivisibility));
    b.setInsertionPointToEnd(f->region());
    Block *body = f->region();
    add(body->argument(0));
    add(body->argument(1));
    ptrArg_ = body->argument(2);
    add(b.programId(0));
    for (int i = 0; i < 3; ++i)
      add(b.constInt(pick(kConstants), Type::i32()));
    add(b.makeRange(0, 8));
    add(b.makeRange(0, 4));
    add(b.makeRange(8, 16));
    add(b.makeRange(4, 8));
    for (int step = 0; step < 40; ++step)
      randomOp(b);
    b.ret();
    return f;
  }

private:
  int64_t pick(std::initializer_list<int64_t> xs) { return xs.begin()[uniform(0, xs.size() - 1)]; }
  template <size_t N> int64_t pick(const int64_t (&xs)[N]) { return xs[uniform(0, N - 1)]; }
  size_t uniform(size_t lo, size_t hi) { return std::uniform_int_distribution<size_t>(lo, hi)(rng_); }

  void add(Value *v) { pools_[v->type()].push_back(v); }
  Value *from(Type t) {
    auto &pool = pools_[t];
    return pool.empty() ? nullptr : pool[uniform(0, pool.size() - 1)];
  }
  Type intType() {
    static const Type types[] = {Type::i32(), Type::block({8}, Type::i32()), Type::block({4}, Type::i32()),
                                 Type::block({4, 8}, Type::i32()), Type::block({8, 4}, Type::i32())};
    return types[uniform(0, 4)];
  }

  void randomOp(Builder &b) {
    static const OpCode binops[] = {OpCode::AddI,  OpCode::SubI,  OpCode::MulI,  OpCode::DivSI, OpCode::DivUI,
                                    OpCode::RemSI, OpCode::RemUI, OpCode::AndI,  OpCode::OrI,   OpCode::XOrI,
                                    OpCode::ShLI,  OpCode::ShRSI, OpCode::ShRUI, OpCode::MinSI, OpCode::MaxSI,
                                    OpCode::MinUI, OpCode::MaxUI, OpCode::AddI,  OpCode::AddI,  OpCode::MulI};
    static const char *preds[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
    Type t = intType();
    Type b48 = Type::block({4, 8}, Type::i32());
    Type p48 = Type::block({4, 8}, Type::ptr(Type::f32()));
    switch (uniform(0, 10)) {
    case 0:
    case 1:
    case 2:
    case 10: { // binary op, the right side often a constant
      Value *x = from(t);
      if (!x)
        return;
      OpCode code = binops[uniform(0, std::size(binops) - 1)];
      Value *y = uniform(0, 1) ? from(t) : b.constInt(pick(kConstants), t);
      if (code == OpCode::ShLI || code == OpCode::ShRSI || code == OpCode::ShRUI)
        y = b.constInt(pick({0, 1, 2, 3, 4, 5}), t);
      add(b.binary(code, x, y));
      return;
    }
    case 3: { // splat a scalar, often as the base of an index block: splat(s) + x
      if (!t.isBlock())
        return;
      Value *base = b.splat(from(Type::i32()), t.shape());
      Value *x = from(t);
      add(x && uniform(0, 2) ? b.binary(OpCode::AddI, base, x) : base);
      return;
    }
    case 4: { // grow a row or a column to the 4x8 tile
      bool row = uniform(0, 1);
      Value *x = from(Type::block({row ? 8 : 4}, Type::i32()));
      if (!x)
        return;
      add(b.broadcast(b.expandDims(x, row ? 0 : 1), b48.shape()));
      return;
    }
    case 5: { // transpose
      Value *x = from(uniform(0, 1) ? b48 : Type::block({8, 4}, Type::i32()));
      if (x)
        add(b.trans(x, std::vector<int64_t>{1, 0}));
      return;
    }
    case 6: { // compare, then maybe select or combine masks
      Value *x = from(t), *y = from(t);
      if (!x || !t.isBlock())
        return;
      Value *mask = b.cmpi(preds[uniform(0, std::size(preds) - 1)], x, y);
      add(mask);
      if (Value *other = from(mask->type()))
        add(b.binary(uniform(0, 1) ? OpCode::AndI : OpCode::OrI, mask, other));
      if (uniform(0, 1))
        add(b.select(mask, from(t), from(t)));
      return;
    }
    case 7: { // pointer tiles
      Value *off = from(b48);
      if (!off)
        return;
      Value *base = from(p48);
      if (!base || uniform(0, 1))
        base = b.splat(ptrArg_, b48.shape());
      add(b.addPtr(base, off));
      return;
    }
    case 8: { // select between pointer tiles
      Value *mask = from(Type::block({4, 8}, Type::i1()));
      Value *x = from(p48), *y = from(p48);
      if (mask && x && y)
        add(b.select(mask, x, y));
      return;
    }
    default: // a block constant
      if (t.isBlock())
        add(b.constInt(pick(kConstants), t));
      return;
    }
  }

  std::mt19937_64 rng_;
  struct TypeLess {
    bool operator()(Type a, Type b) const { return std::less<const void *>()(a.opaque(), b.opaque()); }
  };
  std::map<Type, std::vector<Value *>, TypeLess> pools_;
  Value *ptrArg_ = nullptr;
};

} // namespace

TEST_CASE("every stated fact holds on random programs with random inputs") {
  uint64_t seed = std::random_device{}();
  CAPTURE(seed);
  std::mt19937_64 inputs(seed ^ 0x9e3779b97f4a7c15ull);
  unsigned checkedValues = 0, nontrivialFacts = 0, failures = 0;
  for (int program = 0; program < 2000 && failures < 10; ++program) {
    CAPTURE(program);
    Module m;
    std::vector<int64_t> divs;
    Op *f = ProgramGenerator(seed + program).build(m, divs);
    AxisInfoAnalysis analysis(f);
    for (int trial = 0; trial < 4; ++trial) {
      auto multiple = [&](int64_t d, int64_t lo, int64_t hi) {
        return d * std::uniform_int_distribution<int64_t>(lo, hi)(inputs);
      };
      std::vector<int64_t> args = {multiple(divs[0], -40, 40), multiple(divs[1], -40, 40),
                                   multiple(std::max<int64_t>(divs[2], 4), 1, 1 << 16)};
      int64_t pid = std::uniform_int_distribution<int64_t>(0, 50)(inputs);
      std::map<const Value *, Concrete> vals = run(f, args, pid);
      for (const auto &[value, concrete] : vals) {
        if (concrete.poisoned)
          continue;
        const AxisInfo &info = analysis.get(value);
        Type e = value->type().element();
        std::string violated = violatedFact(info, concrete, e.isPtr() ? 4 : 1, !e.isPtr());
        if (!violated.empty()) {
          INFO("value of type ", value->type().str(), " from ",
               value->definingOp() ? value->definingOp()->name() : "argument", ": ", info.str());
          INFO("args ", args[0], " ", args[1], " ", args[2], " pid ", pid);
          CHECK_MESSAGE(violated.empty(), violated);
          ++failures;
        }
        ++checkedValues;
        for (unsigned d = 0; d < info.rank(); ++d)
          nontrivialFacts += (info.contiguity(d) > 1) + (info.constancy(d) > 1) + (info.divisibility(d) > 1);
      }
    }
  }
  // The generator must exercise the analysis, not only trivial facts.
  CHECK(checkedValues > 10000);
  CHECK(nontrivialFacts > 10000);
}
