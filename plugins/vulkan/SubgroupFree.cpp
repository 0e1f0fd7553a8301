// Kernels lowered for one subgroup size, made to run on any (KernelBinary.h,
// withoutSubgroupIds): the generic target's kernels on devices whose subgroups are
// not 32 wide and cannot be made so (lavapipe: 8). Only kernels whose sole use of
// subgroups is the lane and warp ids qualify; their loads are rewritten to divide the
// workgroup's invocation index instead. Opcodes, capabilities and built-ins are the
// SPIR-V specification's numbers.

#include "KernelBinary.h"

#include <algorithm>

namespace trident::vulkan {

namespace {

constexpr uint32_t kOpName = 5, kOpEntryPoint = 15, kOpCapability = 17, kOpTypeInt = 21, kOpTypePointer = 32,
                   kOpConstant = 43, kOpVariable = 59, kOpLoad = 61, kOpDecorate = 71, kOpMemberDecorate = 72,
                   kOpUDiv = 134, kOpUMod = 137, kOpControlBarrier = 224, kOpMemoryBarrier = 225,
                   kOpGroupNonUniformElect = 333;
constexpr uint32_t kDecorationBuiltIn = 11, kScopeSubgroup = 3;
constexpr uint32_t kBuiltInLocalInvocationIndex = 29, kBuiltInSubgroupId = 40, kBuiltInSubgroupLocalInvocationId = 41;

bool subgroupCapability(uint32_t c) {
  return c == 18 /* Groups */ || (c >= 62 && c <= 68) /* GroupNonUniform{Vote..Quad} */ ||
         c == 4423 /* SubgroupBallotKHR */ || c == 4431 /* SubgroupVoteKHR */ ||
         c == 5297 /* GroupNonUniformPartitionedNV */ || c == 5357 /* CooperativeMatrixNV */ ||
         c == 6022 /* CooperativeMatrixKHR */;
}
// SubgroupSize, SubgroupMaxSize, NumSubgroups, NumEnqueuedSubgroups, Subgroup{Eq,Ge,Gt,Le,Lt}Mask.
bool otherSubgroupBuiltIn(uint32_t b) { return (b >= 36 && b <= 39) || (b >= 4416 && b <= 4420); }

uint32_t instruction(uint32_t count, uint32_t op) { return count << 16 | op; }

} // namespace

std::optional<std::vector<uint32_t>> withoutSubgroupIds(const std::vector<uint32_t> &words, uint32_t subgroupSize,
                                                        std::string &why) {
  if (words.size() < 5 || subgroupSize == 0) {
    why = "malformed SPIR-V";
    return std::nullopt;
  }
  // First pass: what the module uses, and the lane and warp variables.
  uint32_t laneVar = 0, warpVar = 0, pointerType = 0, uintType = 0;
  bool ownIndexVar = false;
  std::vector<std::pair<uint32_t, uint32_t>> constants; // (id, value) of one-word OpConstants
  std::vector<uint32_t> barrierScopes;
  std::vector<std::pair<uint32_t, uint32_t>> pointers, variables; // (id, type)
  for (size_t at = 5; at < words.size();) {
    uint32_t count = words[at] >> 16, op = words[at] & 0xffffu;
    if (count == 0 || at + count > words.size()) {
      why = "malformed SPIR-V";
      return std::nullopt;
    }
    const uint32_t *w = &words[at];
    if (op == kOpCapability && count >= 2 && subgroupCapability(w[1])) {
      why = "subgroup operations (SPIR-V capability " + std::to_string(w[1]) + ")";
      return std::nullopt;
    }
    if (op == kOpGroupNonUniformElect) {
      why = "subgroup operations (OpGroupNonUniformElect)";
      return std::nullopt;
    }
    if (op == kOpDecorate && count >= 4 && w[2] == kDecorationBuiltIn) {
      if (otherSubgroupBuiltIn(w[3])) {
        why = "a subgroup built-in variable (BuiltIn " + std::to_string(w[3]) + ")";
        return std::nullopt;
      }
      if (w[3] == kBuiltInLocalInvocationIndex)
        ownIndexVar = true;
      if (w[3] == kBuiltInSubgroupLocalInvocationId)
        laneVar = w[1];
      if (w[3] == kBuiltInSubgroupId)
        warpVar = w[1];
    }
    if (op == kOpConstant && count == 4)
      constants.emplace_back(w[2], w[3]);
    if (op == kOpControlBarrier && count >= 4) {
      barrierScopes.push_back(w[1]);
      barrierScopes.push_back(w[2]);
    }
    if (op == kOpMemoryBarrier && count >= 3)
      barrierScopes.push_back(w[1]);
    if (op == kOpTypePointer && count == 4)
      pointers.emplace_back(w[1], w[3]);
    if (op == kOpVariable && count >= 4)
      variables.emplace_back(w[2], w[1]);
    at += count;
  }
  for (uint32_t scope : barrierScopes)
    for (const auto &[id, value] : constants)
      if (id == scope && value == kScopeSubgroup) {
        why = "a subgroup-scope barrier";
        return std::nullopt;
      }
  if (!laneVar && !warpVar)
    return words; // nothing of subgroups at all
  if (ownIndexVar) { // not what the backend writes beside the ids
    why = "a LocalInvocationIndex variable beside the subgroup ids";
    return std::nullopt;
  }
  // The variables' type: a pointer to a 32-bit unsigned integer, which the constant
  // and the arithmetic use too.
  uint32_t anyVar = laneVar ? laneVar : warpVar;
  for (const auto &[id, type] : variables)
    if (id == anyVar)
      pointerType = type;
  for (const auto &[id, pointee] : pointers)
    if (id == pointerType)
      uintType = pointee;
  if (!uintType) {
    why = "malformed SPIR-V (the subgroup ids' type)";
    return std::nullopt;
  }

  // Second pass: one LocalInvocationIndex variable (the lane's, or the warp's when
  // there is no lane) in place of both; each load of an id divides it.
  uint32_t bound = words[3];
  uint32_t sizeConstant = bound++;
  uint32_t indexVar = laneVar ? laneVar : warpVar;
  uint32_t dropped = laneVar && warpVar ? warpVar : 0;
  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  out.reserve(words.size() + 16);
  bool constantPlaced = false;
  for (size_t at = 5; at < words.size();) {
    uint32_t count = words[at] >> 16, op = words[at] & 0xffffu;
    const uint32_t *w = &words[at];
    at += count;
    if (op == kOpEntryPoint && count >= 4) {
      // Execution model, function, a NUL-terminated name, then the interface ids.
      size_t name = 3;
      while (name < count && (w[name] >> 24) != 0)
        ++name;
      std::vector<uint32_t> ep(w, w + std::min<size_t>(name + 1, count));
      for (size_t i = name + 1; i < count; ++i)
        if (w[i] != dropped)
          ep.push_back(w[i]);
      ep[0] = instruction(uint32_t(ep.size()), op);
      out.insert(out.end(), ep.begin(), ep.end());
      continue;
    }
    if ((op == kOpName || op == kOpDecorate || op == kOpMemberDecorate) && count >= 2 && w[1] == dropped && dropped)
      continue;
    if (op == kOpDecorate && count >= 4 && w[1] == indexVar && w[2] == kDecorationBuiltIn) {
      out.insert(out.end(), {w[0], w[1], w[2], kBuiltInLocalInvocationIndex});
      continue;
    }
    if (op == kOpVariable && count >= 4 && w[2] == dropped && dropped)
      continue;
    if (op == kOpLoad && count >= 4 && (w[3] == laneVar || w[3] == warpVar) && w[3] != 0) {
      if (count != 4) {
        why = "a subgroup id loaded with memory operands";
        return std::nullopt;
      }
      uint32_t index = bound++;
      out.insert(out.end(), {instruction(4, kOpLoad), uintType, index, indexVar});
      out.insert(out.end(), {instruction(5, w[3] == laneVar ? kOpUMod : kOpUDiv), uintType, w[2], index, sizeConstant});
      continue;
    }
    // Any other use of the variables (an access chain, a copy) is not one the backend writes.
    for (uint32_t i = 1; i < count; ++i)
      if ((w[i] == laneVar || w[i] == warpVar) && w[i] != 0 && op != kOpVariable && op != kOpDecorate &&
          op != kOpName && op != kOpEntryPoint) {
        why = "a subgroup id used other than by a load (opcode " + std::to_string(op) + ")";
        return std::nullopt;
      }
    out.insert(out.end(), w, w + count);
    if (op == kOpTypeInt && count == 4 && w[1] == uintType && !constantPlaced) {
      out.insert(out.end(), {instruction(4, kOpConstant), uintType, sizeConstant, subgroupSize});
      constantPlaced = true;
    }
  }
  if (!constantPlaced) {
    why = "malformed SPIR-V (no declaration of the subgroup ids' integer type)";
    return std::nullopt;
  }
  out[3] = bound;
  // The basic GroupNonUniform capability stays: every device the plugin opens has
  // subgroup operations in compute shaders.
  return out;
}

} // namespace trident::vulkan
