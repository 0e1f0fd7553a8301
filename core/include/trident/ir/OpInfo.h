#pragma once
// Op codes and the static facts the op table (Ops.def) gives about each op.

#include <cstdint>
#include <optional>
#include <string_view>

namespace trident {

enum class OpCode : uint16_t {
#define TRIDENT_OP(Id, Name, MinOps, MaxOps, Results, Regions, Traits) Id,
#include "trident/ir/Ops.def"
#undef TRIDENT_OP
};

enum OpTrait : uint32_t {
  kNone = 0,
  kPure = 1u << 0,          // no side effects: CSE, DCE and LICM may move or drop it
  kTerminator = 1u << 1,    // ends a region
  kCommutative = 1u << 2,   // binary, operands may be swapped
  kElementwise = 1u << 3,   // operands and results have one shape; applies per element
  kReadsMemory = 1u << 4,
  kWritesMemory = 1u << 5,  // also: observable effects (print, assert)
  kIsolated = 1u << 6,      // regions do not see values from outside
};

struct OpInfo {
  OpCode code;
  std::string_view name;
  int minOperands, maxOperands; // maxOperands < 0: variadic
  int numResults;               // < 0: variadic
  int numRegions;
  uint32_t traits;

  bool has(OpTrait t) const { return (traits & t) != 0; }
};

const OpInfo &opInfo(OpCode code);
// Looks an op up by its textual name ("arith.addi").
std::optional<OpCode> opCodeByName(std::string_view name);
// Number of op codes in the table.
unsigned numOpCodes();

} // namespace trident
