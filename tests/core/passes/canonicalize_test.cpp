// Constant folding checked against references computed here independently: integer
// ops in C++ types of the op's exact width, float ops in float64 and then rounded to
// the element type, on fresh random operands (the seed is printed on failure).

#include "trident/ir/Builder.h"
#include "trident/ir/Verifier.h"
#include "trident/passes/Canonicalize.h"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <optional>
#include <random>

using namespace trident;

namespace {

struct Case {
  OpCode code;
  std::string predicate; // cmpi / cmpf only
  Attribute lhs, rhs;    // constant operand values
  Type operandType, resultType;
};

// Builds one function returning op(lhs, rhs) for every case, canonicalizes it and
// returns, per case, the folded constant's value (absent when it did not fold).
std::vector<Attribute> foldAll(const std::vector<Case> &cases, bool unary = false) {
  Module m;
  Builder b(m);
  std::vector<Type> results;
  for (const Case &c : cases)
    results.push_back(c.resultType);
  Op *f = b.func("f", {}, results);
  b.setInsertionPointToEnd(f->region());
  std::vector<Value *> values;
  for (const Case &c : cases) {
    Type t[] = {c.operandType};
    Value *lhs = b.create(OpCode::Constant, std::span<Value *const>{}, t, {{"value", c.lhs}})->result();
    std::vector<Value *> operands{lhs};
    if (!unary)
      operands.push_back(
          b.create(OpCode::Constant, std::span<Value *const>{}, t, {{"value", c.rhs}})->result());
    AttributeList attrs;
    if (!c.predicate.empty())
      attrs.set("predicate", Attribute::string(c.predicate));
    Type r[] = {c.resultType};
    values.push_back(b.create(c.code, operands, r, attrs)->result());
  }
  b.ret(values);
  Diagnostics diags;
  REQUIRE(verify(m, diags));
  REQUIRE(canonicalize(m, diags));
  REQUIRE(verify(m, diags));
  std::vector<Attribute> out;
  Op *ret = f->region()->terminator();
  for (unsigned i = 0; i < ret->numOperands(); ++i) {
    Op *def = ret->operand(i)->definingOp();
    out.push_back(def && def->is(OpCode::Constant) ? def->attr("value") : Attribute());
  }
  return out;
}

// ---- integer references, in the exact-width C++ types ----

template <class S> std::optional<int64_t> intReference(OpCode code, S a, S b) {
  using U = std::make_unsigned_t<S>;
  const U ua = static_cast<U>(a), ub = static_cast<U>(b);
  constexpr unsigned bits = sizeof(S) * 8;
  auto wrap = [](U v) { return static_cast<int64_t>(static_cast<S>(v)); };
  switch (code) {
  case OpCode::AddI: return wrap(static_cast<U>(ua + ub));
  case OpCode::SubI: return wrap(static_cast<U>(ua - ub));
  case OpCode::MulI: return wrap(static_cast<U>(static_cast<uint64_t>(ua) * ub));
  case OpCode::DivSI:
    if (b == 0 || (a == std::numeric_limits<S>::min() && b == -1))
      return std::nullopt;
    return static_cast<int64_t>(static_cast<S>(a / b));
  case OpCode::RemSI:
    if (b == 0 || (a == std::numeric_limits<S>::min() && b == -1))
      return b == 0 ? std::nullopt : std::optional<int64_t>(0);
    return static_cast<int64_t>(static_cast<S>(a % b));
  case OpCode::DivUI: return ub == 0 ? std::nullopt : std::optional<int64_t>(wrap(static_cast<U>(ua / ub)));
  case OpCode::RemUI: return ub == 0 ? std::nullopt : std::optional<int64_t>(wrap(static_cast<U>(ua % ub)));
  case OpCode::AndI: return wrap(ua & ub);
  case OpCode::OrI: return wrap(ua | ub);
  case OpCode::XOrI: return wrap(ua ^ ub);
  case OpCode::ShLI:
    return ub >= bits ? std::nullopt : std::optional<int64_t>(wrap(static_cast<U>(ua << ub)));
  case OpCode::ShRUI:
    return ub >= bits ? std::nullopt : std::optional<int64_t>(wrap(static_cast<U>(ua >> ub)));
  case OpCode::ShRSI:
    return ub >= bits ? std::nullopt : std::optional<int64_t>(static_cast<int64_t>(a >> ub));
  case OpCode::MinSI: return static_cast<int64_t>(std::min(a, b));
  case OpCode::MaxSI: return static_cast<int64_t>(std::max(a, b));
  case OpCode::MinUI: return wrap(std::min(ua, ub));
  case OpCode::MaxUI: return wrap(std::max(ua, ub));
  case OpCode::UMulHi: return wrap(static_cast<U>((static_cast<unsigned __int128>(ua) * ub) >> bits));
  default: return std::nullopt;
  }
}

std::optional<int64_t> intReference(OpCode code, unsigned width, int64_t a, int64_t b) {
  switch (width) {
  case 8: return intReference<int8_t>(code, static_cast<int8_t>(a), static_cast<int8_t>(b));
  case 16: return intReference<int16_t>(code, static_cast<int16_t>(a), static_cast<int16_t>(b));
  case 32: return intReference<int32_t>(code, static_cast<int32_t>(a), static_cast<int32_t>(b));
  default: return intReference<int64_t>(code, a, b);
  }
}

template <class S> bool compareReference(const std::string &p, S a, S b) {
  using U = std::make_unsigned_t<S>;
  U ua = static_cast<U>(a), ub = static_cast<U>(b);
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
  return ua >= ub; // uge
}

bool compareReference(const std::string &p, unsigned width, int64_t a, int64_t b) {
  switch (width) {
  case 8: return compareReference<int8_t>(p, static_cast<int8_t>(a), static_cast<int8_t>(b));
  case 16: return compareReference<int16_t>(p, static_cast<int16_t>(a), static_cast<int16_t>(b));
  case 32: return compareReference<int32_t>(p, static_cast<int32_t>(a), static_cast<int32_t>(b));
  default: return compareReference<int64_t>(p, a, b);
  }
}

// A random value of `width` bits, sign-extended, often an edge case.
int64_t randomInt(std::mt19937_64 &rng, unsigned width) {
  const int64_t lo = width == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (width - 1));
  const int64_t hi = width == 64 ? std::numeric_limits<int64_t>::max() : (int64_t(1) << (width - 1)) - 1;
  switch (rng() % 8) {
  case 0: return 0;
  case 1: return 1;
  case 2: return -1;
  case 3: return lo;
  case 4: return hi;
  case 5: return static_cast<int64_t>(rng() % (width + 2)); // shift amounts near the width
  default: {
    uint64_t bits = rng();
    int64_t v =
        width == 64 ? static_cast<int64_t>(bits) : static_cast<int64_t>(bits << (64 - width)) >> (64 - width);
    return v;
  }
  }
}

bool sameFloat(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
}

// A random float of `type` (f32 or f64), often special.
double randomFloat(std::mt19937_64 &rng, Type type) {
  static const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, 3.0, INFINITY, -INFINITY, NAN, 1e-40, 1e30};
  uint64_t pick = rng() % 16;
  if (pick < std::size(specials))
    return type == Type::f32() ? static_cast<double>(static_cast<float>(specials[pick])) : specials[pick];
  std::uniform_real_distribution<double> dist(-100.0, 100.0);
  double v = dist(rng) * std::ldexp(1.0, static_cast<int>(rng() % 40) - 20);
  return type == Type::f32() ? static_cast<double>(static_cast<float>(v)) : v;
}

// The float64 reference, rounded once to `type` (exact for these ops: float64 has more
// than twice the precision of f32, so rounding twice changes nothing).
std::optional<double> floatReference(OpCode code, Type type, double a, double b) {
  double r;
  switch (code) {
  case OpCode::AddF: r = a + b; break;
  case OpCode::SubF: r = a - b; break;
  case OpCode::MulF: r = a * b; break;
  case OpCode::DivF: r = a / b; break;
  case OpCode::RemF: r = std::fmod(a, b); break;
  case OpCode::MinimumF:
    if (std::isnan(a) || std::isnan(b))
      return NAN;
    r = (a < b || (a == b && std::signbit(a))) ? a : b;
    break;
  case OpCode::MaximumF:
    if (std::isnan(a) || std::isnan(b))
      return NAN;
    r = (a > b || (a == b && !std::signbit(a))) ? a : b;
    break;
  default: return std::nullopt;
  }
  return type == Type::f32() ? static_cast<double>(static_cast<float>(r)) : r;
}

uint64_t seedForThisRun() {
  uint64_t seed = std::random_device{}();
  return seed;
}

} // namespace

TEST_CASE("integer ops on constants fold like the exact-width C++ arithmetic") {
  const uint64_t seed = seedForThisRun();
  INFO("seed = " << seed);
  std::mt19937_64 rng(seed);
  const OpCode ops[] = {OpCode::AddI,  OpCode::SubI,  OpCode::MulI,  OpCode::DivSI, OpCode::DivUI,
                        OpCode::RemSI, OpCode::RemUI, OpCode::AndI,  OpCode::OrI,   OpCode::XOrI,
                        OpCode::ShLI,  OpCode::ShRSI, OpCode::ShRUI, OpCode::MinSI, OpCode::MaxSI,
                        OpCode::MinUI, OpCode::MaxUI, OpCode::UMulHi};
  for (unsigned width : {8u, 16u, 32u, 64u}) {
    Type t = Type::integer(width);
    std::vector<Case> cases;
    for (int n = 0; n < 40; ++n)
      for (OpCode code : ops)
        cases.push_back({code, "", Attribute::integer(randomInt(rng, width)),
                         Attribute::integer(randomInt(rng, width)), t, t});
    std::vector<Attribute> folded = foldAll(cases);
    for (size_t i = 0; i < cases.size(); ++i) {
      const Case &c = cases[i];
      std::optional<int64_t> expected = intReference(c.code, width, c.lhs.getInt(), c.rhs.getInt());
      INFO(opInfo(c.code).name << " i" << width << " " << c.lhs.getInt() << ", " << c.rhs.getInt());
      if (!expected) {
        CHECK_FALSE(folded[i].present());
      } else {
        REQUIRE(folded[i].isInt());
        CHECK(folded[i].getInt() == *expected);
      }
    }
  }
}

TEST_CASE("integer comparisons on constants fold for every predicate") {
  const uint64_t seed = seedForThisRun();
  INFO("seed = " << seed);
  std::mt19937_64 rng(seed);
  const char *predicates[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
  for (unsigned width : {8u, 16u, 32u, 64u}) {
    std::vector<Case> cases;
    for (int n = 0; n < 30; ++n)
      for (const char *p : predicates)
        cases.push_back({OpCode::CmpI, p, Attribute::integer(randomInt(rng, width)),
                         Attribute::integer(randomInt(rng, width)), Type::integer(width), Type::i1()});
    std::vector<Attribute> folded = foldAll(cases);
    for (size_t i = 0; i < cases.size(); ++i) {
      const Case &c = cases[i];
      INFO(c.predicate << " i" << width << " " << c.lhs.getInt() << ", " << c.rhs.getInt());
      REQUIRE(folded[i].isBool());
      CHECK(folded[i].getBool() == compareReference(c.predicate, width, c.lhs.getInt(), c.rhs.getInt()));
    }
  }
}

TEST_CASE("f32 and f64 ops on constants fold to the float64 result rounded to the type") {
  const uint64_t seed = seedForThisRun();
  INFO("seed = " << seed);
  std::mt19937_64 rng(seed);
  const OpCode ops[] = {OpCode::AddF, OpCode::SubF,     OpCode::MulF,    OpCode::DivF,
                        OpCode::RemF, OpCode::MinimumF, OpCode::MaximumF};
  for (Type t : {Type::f32(), Type::f64()}) {
    std::vector<Case> cases;
    for (int n = 0; n < 60; ++n)
      for (OpCode code : ops)
        cases.push_back({code, "", Attribute::floating(randomFloat(rng, t)),
                         Attribute::floating(randomFloat(rng, t)), t, t});
    std::vector<Attribute> folded = foldAll(cases);
    for (size_t i = 0; i < cases.size(); ++i) {
      const Case &c = cases[i];
      double expected = *floatReference(c.code, t, c.lhs.getFloat(), c.rhs.getFloat());
      INFO(opInfo(c.code).name << " " << t.str() << " " << c.lhs.str() << ", " << c.rhs.str());
      REQUIRE(folded[i].isFloat());
      CHECK(sameFloat(folded[i].getFloat(), expected));
    }
  }
}

TEST_CASE("float comparisons fold with ordered and unordered predicates") {
  const uint64_t seed = seedForThisRun();
  INFO("seed = " << seed);
  std::mt19937_64 rng(seed);
  const char *predicates[] = {"oeq", "one", "olt", "ole", "ogt", "oge", "ord",
                              "ueq", "une", "ult", "ule", "ugt", "uge", "uno"};
  std::vector<Case> cases;
  for (int n = 0; n < 30; ++n)
    for (const char *p : predicates)
      cases.push_back({OpCode::CmpF, p, Attribute::floating(randomFloat(rng, Type::f32())),
                       Attribute::floating(randomFloat(rng, Type::f32())), Type::f32(), Type::i1()});
  std::vector<Attribute> folded = foldAll(cases);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case &c = cases[i];
    double a = c.lhs.getFloat(), b = c.rhs.getFloat();
    bool unordered = std::isnan(a) || std::isnan(b);
    std::string p = c.predicate;
    bool expected;
    if (p == "ord" || p == "uno") {
      expected = (p == "uno") == unordered;
    } else if (unordered) {
      expected = p[0] == 'u';
    } else {
      std::string rel = p.substr(1);
      expected = rel == "eq"   ? a == b
                 : rel == "ne" ? a != b
                 : rel == "lt" ? a < b
                 : rel == "le" ? a <= b
                 : rel == "gt" ? a > b
                               : a >= b;
    }
    INFO(p << " " << c.lhs.str() << ", " << c.rhs.str());
    REQUIRE(folded[i].isBool());
    CHECK(folded[i].getBool() == expected);
  }
}

TEST_CASE("casts of constants fold; out-of-range float-to-int casts do not") {
  const uint64_t seed = seedForThisRun();
  INFO("seed = " << seed);
  std::mt19937_64 rng(seed);
  std::vector<Case> cases;
  std::vector<std::optional<double>> expected; // ints as doubles are exact below 2^53 here
  for (int n = 0; n < 200; ++n) {
    int64_t v = randomInt(rng, 16);
    cases.push_back({OpCode::ExtSI, "", Attribute::integer(v), {}, Type::i16(), Type::i32()});
    expected.push_back(static_cast<double>(static_cast<int16_t>(v)));
    cases.push_back({OpCode::ExtUI, "", Attribute::integer(v), {}, Type::i16(), Type::i64()});
    expected.push_back(static_cast<double>(static_cast<uint16_t>(v)));
    cases.push_back({OpCode::TruncI, "", Attribute::integer(v), {}, Type::i16(), Type::i8()});
    expected.push_back(static_cast<double>(static_cast<int8_t>(v)));
    int64_t w = randomInt(rng, 64);
    cases.push_back({OpCode::SIToFP, "", Attribute::integer(w), {}, Type::i64(), Type::f32()});
    expected.push_back(static_cast<double>(static_cast<float>(static_cast<long double>(w))));
    cases.push_back({OpCode::UIToFP, "", Attribute::integer(w), {}, Type::i64(), Type::f64()});
    expected.push_back(static_cast<double>(static_cast<uint64_t>(w)));
    double f = randomFloat(rng, Type::f32()) * 1e3;
    f = static_cast<double>(static_cast<float>(f));
    cases.push_back({OpCode::FPToSI, "", Attribute::floating(f), {}, Type::f32(), Type::i16()});
    double t = std::trunc(f) + 0.0; // an integer has no negative zero
    expected.push_back(std::isnan(f) || t < -32768.0 || t > 32767.0 ? std::nullopt
                                                                    : std::optional<double>(t));
  }
  std::vector<Attribute> folded = foldAll(cases, /*unary=*/true);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case &c = cases[i];
    INFO(opInfo(c.code).name << " " << c.lhs.str() << " to " << c.resultType.str());
    if (!expected[i]) {
      CHECK_FALSE(folded[i].present());
      continue;
    }
    REQUIRE(folded[i].present());
    double got = folded[i].isInt() ? static_cast<double>(folded[i].getInt()) : folded[i].getFloat();
    if (c.code == OpCode::UIToFP || c.code == OpCode::ExtUI) {
      // Unsigned results print as the signed value of the same bits when wider than 63 bits.
      if (folded[i].isInt() && folded[i].getInt() < 0)
        got += 18446744073709551616.0;
    }
    CHECK(sameFloat(got, *expected[i]));
  }
}

namespace {

// bf16 from float, rounded to nearest even on the bits (NaN stays NaN).
float roundToBF16(float v) {
  if (std::isnan(v))
    return v;
  uint32_t bits = std::bit_cast<uint32_t>(v);
  bits += 0x7fff + ((bits >> 16) & 1);
  return std::bit_cast<float>(bits & 0xffff0000u);
}

// Half-precision references: the compiler's own _Float16, and float rounded to bf16
// (float's 24 bits make that second rounding exact for + - * /).
std::optional<double> halfReference(OpCode code, Type type, double a, double b) {
  if (type == Type::f16()) {
    _Float16 x = static_cast<_Float16>(a), y = static_cast<_Float16>(b), r;
    switch (code) {
    case OpCode::AddF: r = x + y; break;
    case OpCode::SubF: r = x - y; break;
    case OpCode::MulF: r = x * y; break;
    case OpCode::DivF: r = x / y; break;
    case OpCode::RemF:
      r = static_cast<_Float16>(std::fmod(static_cast<float>(x), static_cast<float>(y)));
      break;
    default: return std::nullopt;
    }
    return static_cast<double>(r);
  }
  float x = static_cast<float>(a), y = static_cast<float>(b), r;
  switch (code) {
  case OpCode::AddF: r = x + y; break;
  case OpCode::SubF: r = x - y; break;
  case OpCode::MulF: r = x * y; break;
  case OpCode::DivF: r = x / y; break;
  case OpCode::RemF: r = std::fmod(x, y); break;
  default: return std::nullopt;
  }
  return static_cast<double>(roundToBF16(r));
}

// A random value of f16 or bf16 from random bits: every class, subnormals included.
double randomHalf(std::mt19937_64 &rng, Type type) {
  uint16_t bits = static_cast<uint16_t>(rng());
  if (type == Type::f16())
    return static_cast<double>(std::bit_cast<_Float16>(bits));
  return static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(bits) << 16));
}

} // namespace

TEST_CASE("f16 and bf16 ops on constants fold like half-precision hardware") {
  const uint64_t seed = seedForThisRun();
  INFO("seed = " << seed);
  std::mt19937_64 rng(seed);
  const OpCode ops[] = {OpCode::AddF, OpCode::SubF, OpCode::MulF, OpCode::DivF, OpCode::RemF};
  for (Type t : {Type::f16(), Type::bf16()}) {
    std::vector<Case> cases;
    for (int n = 0; n < 200; ++n)
      for (OpCode code : ops)
        cases.push_back({code, "", Attribute::floating(randomHalf(rng, t)),
                         Attribute::floating(randomHalf(rng, t)), t, t});
    std::vector<Attribute> folded = foldAll(cases);
    for (size_t i = 0; i < cases.size(); ++i) {
      const Case &c = cases[i];
      double expected = *halfReference(c.code, t, c.lhs.getFloat(), c.rhs.getFloat());
      INFO(opInfo(c.code).name << " " << t.str() << " " << c.lhs.str() << ", " << c.rhs.str());
      REQUIRE(folded[i].isFloat());
      CHECK(sameFloat(folded[i].getFloat(), expected));
    }
  }
}

TEST_CASE("narrowing float casts round to nearest even or toward zero as asked") {
  const uint64_t seed = seedForThisRun();
  INFO("seed = " << seed);
  std::mt19937_64 rng(seed);
  Module m;
  Builder b(m);
  std::vector<double> inputs;
  for (int n = 0; n < 300; ++n)
    inputs.push_back(static_cast<double>(static_cast<float>(randomFloat(rng, Type::f32()))));
  std::vector<Type> results(inputs.size() * 2, Type::f16());
  Op *f = b.func("f", {}, results);
  b.setInsertionPointToEnd(f->region());
  std::vector<Value *> values;
  for (double v : inputs) {
    Value *c = b.constFloat(v, Type::f32());
    values.push_back(b.cast(OpCode::TruncF, c, Type::f16()));
    Value *z = b.cast(OpCode::TruncF, c, Type::f16());
    z->definingOp()->setAttr("rounding", Attribute::string("rtz"));
    values.push_back(z);
  }
  b.ret(values);
  Diagnostics diags;
  REQUIRE(verify(m, diags));
  REQUIRE(canonicalize(m, diags));
  Op *ret = f->region()->terminator();
  for (size_t i = 0; i < inputs.size(); ++i) {
    INFO("truncf " << inputs[i]);
    Op *nearest = ret->operand(2 * i)->definingOp();
    Op *towardZero = ret->operand(2 * i + 1)->definingOp();
    REQUIRE(nearest->is(OpCode::Constant));
    REQUIRE(towardZero->is(OpCode::Constant));
    const double v = inputs[i];
    CHECK(sameFloat(nearest->attr("value").getFloat(),
                    static_cast<double>(static_cast<_Float16>(static_cast<float>(v)))));
    // Toward zero: the f16 value nearest to v that is no larger in magnitude.
    double tz = towardZero->attr("value").getFloat();
    if (std::isnan(v)) {
      CHECK(std::isnan(tz));
      continue;
    }
    CHECK(std::fabs(tz) <= std::fabs(v));
    CHECK(static_cast<double>(static_cast<_Float16>(tz)) == tz); // an f16 value
    if (!std::isinf(v) && std::fabs(v) < 65504.0) {
      // The next f16 away from zero would be larger in magnitude than v.
      _Float16 h = static_cast<_Float16>(tz);
      uint16_t bits = std::bit_cast<uint16_t>(h);
      double next = static_cast<double>(std::bit_cast<_Float16>(static_cast<uint16_t>(bits + 1)));
      CHECK(std::fabs(next) > std::fabs(v));
    }
  }
}
