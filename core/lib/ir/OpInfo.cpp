#include "trident/ir/OpInfo.h"
#include "trident/ir/ArithOps.h"
#include "trident/ir/MathOps.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace trident {

namespace {

constexpr OpInfo kOps[] = {
#define TRIDENT_OP(Id, Name, MinOps, MaxOps, Results, Regions, Traits)                            \
  OpInfo{OpCode::Id, Name, MinOps, MaxOps, Results, Regions, static_cast<uint32_t>(Traits)},
#include "trident/ir/Ops.def"
#undef TRIDENT_OP
};

constexpr unsigned kNumOps = sizeof(kOps) / sizeof(kOps[0]);

// Op codes sorted by name, for lookups by the parser.
const std::array<OpCode, kNumOps> &byName() {
  static const std::array<OpCode, kNumOps> sorted = [] {
    std::array<OpCode, kNumOps> a{};
    for (unsigned i = 0; i < kNumOps; ++i)
      a[i] = kOps[i].code;
    std::sort(a.begin(), a.end(), [](OpCode x, OpCode y) {
      return kOps[static_cast<unsigned>(x)].name < kOps[static_cast<unsigned>(y)].name;
    });
    return a;
  }();
  return sorted;
}

} // namespace

const OpInfo &opInfo(OpCode code) {
  assert(static_cast<unsigned>(code) < kNumOps);
  return kOps[static_cast<unsigned>(code)];
}

std::optional<OpCode> opCodeByName(std::string_view name) {
  const auto &sorted = byName();
  auto it = std::lower_bound(sorted.begin(), sorted.end(), name,
                             [](OpCode c, std::string_view n) { return opInfo(c).name < n; });
  if (it != sorted.end() && opInfo(*it).name == name)
    return *it;
  return std::nullopt;
}

unsigned numOpCodes() { return kNumOps; }

const MathOpInfo *mathOpInfo(OpCode code) {
  static constexpr MathOpInfo kMath[] = {
#define TRIDENT_MATH_OP(Id, Name, Arity, Elements, Scalar, Llvm, Devlib, Libm, Glsl, Spirv)          \
  MathOpInfo{OpCode::Id, Arity, MathElements::Elements, Devlib, Libm, Glsl, Spirv},
#include "trident/ir/MathOps.def"
#undef TRIDENT_MATH_OP
  };
  for (const MathOpInfo &m : kMath)
    if (m.code == code)
      return &m;
  return nullptr;
}

const ArithOpInfo *arithOpInfo(OpCode code) {
  static constexpr ArithOpInfo kArith[] = {
#define TRIDENT_ARITH_OP(Id, Name, Arity, Elements, ...) ArithOpInfo{OpCode::Id, Arity, ArithElements::Elements},
#include "trident/ir/ArithOps.def"
#undef TRIDENT_ARITH_OP
  };
  // Ops.def includes the table in one piece, so its op codes are consecutive.
  size_t i = size_t(code) - size_t(kArith[0].code);
  return i < std::size(kArith) && kArith[i].code == code ? &kArith[i] : nullptr;
}

} // namespace trident
