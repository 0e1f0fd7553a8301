#pragma once
// Builds one SPIR-V module word by word: ids, the logical sections in the order
// the specification requires, and interned types and constants (asking for the
// same type or constant twice gives the same id).
//
//   ModuleWriter w;
//   uint32_t f32 = w.floatType(32);
//   uint32_t one = w.constant(f32, std::bit_cast<uint32_t>(1.0f));
//   w.body().emit(Spv::FAdd, {f32, w.newId(), one, one});
//   std::vector<uint32_t> words = w.finish();

#include "Spirv.h"

#include <cstdint>
#include <initializer_list>
#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace trident::spirv {

// A growing list of instructions.
class Words {
public:
  void emit(Spv op, std::initializer_list<uint32_t> operands) { emit(op, std::span(operands.begin(), operands.size())); }
  void emit(Spv op, std::span<const uint32_t> operands);
  // An instruction whose operands end with a literal string.
  void emitWithString(Spv op, std::initializer_list<uint32_t> before, std::string_view text,
                      std::initializer_list<uint32_t> after = {});
  const std::vector<uint32_t> &words() const { return words_; }
  std::vector<uint32_t> &words() { return words_; }
  size_t size() const { return words_.size(); }

private:
  std::vector<uint32_t> words_;
};

class ModuleWriter {
public:
  uint32_t newId() { return nextId_++; }

  void capability(Capability c) { capabilities_.insert(uint32_t(c)); }
  void extension(std::string name) { extensions_.insert(std::move(name)); }
  bool hasCapability(Capability c) const { return capabilities_.count(uint32_t(c)) != 0; }
  // The id of the GLSL.std.450 instruction set (imported on first use).
  uint32_t glsl();

  // Types; ints are unsigned-flavoured (signedness lives in the instructions).
  uint32_t voidType();
  uint32_t boolType();
  uint32_t intType(unsigned bits);
  uint32_t floatType(unsigned bits);
  // `OpTypeFloat 16 BFloat16KHR` (SPV_KHR_bfloat16): only cooperative matrices' components
  // (a scalar bf16 is its u16 bits, Translator.h); not among floatWidths().
  uint32_t bfloat16Type();
  uint32_t vectorType(uint32_t component, unsigned count);
  uint32_t arrayType(uint32_t element, uint32_t length, uint32_t stride); // stride 0: undecorated
  uint32_t pointerType(StorageClass storage, uint32_t pointee);
  uint32_t functionType(uint32_t result);
  // A cooperative matrix of subgroup scope (`use`: 0 A, 1 B, 2 accumulator); one of
  // bfloat16Type() components adds BFloat16CooperativeMatrixKHR.
  uint32_t coopMatrixType(uint32_t component, uint32_t rows, uint32_t cols, uint32_t use);
  // A new struct (never interned: each carries its own decorations).
  uint32_t structType(std::span<const uint32_t> members);

  // Scalar constants; `bits` holds the value's bit pattern (ints and floats).
  uint32_t constant(uint32_t type, uint64_t bits);
  uint32_t boolConstant(bool v);
  uint32_t nullConstant(uint32_t type);
  uint32_t u32(uint32_t v) { return constant(intType(32), v); }
  // The bit width of an int or float type.
  unsigned widthOf(uint32_t type) const { return widths_.at(type); }

  // A module-scope variable (Input, PushConstant, Workgroup).
  uint32_t globalVariable(uint32_t pointerType, StorageClass storage);

  void decorate(uint32_t target, Decoration d, std::initializer_list<uint32_t> literals = {});
  void memberDecorate(uint32_t structType, uint32_t member, Decoration d, std::initializer_list<uint32_t> literals);
  void name(uint32_t target, std::string_view text);

  // The function body being written.
  Words &body() { return body_; }

  // An execution mode of the entry point (with its literal operands), set by entryPoint.
  void executionMode(uint32_t mode, std::initializer_list<uint32_t> literals) {
    std::vector<uint32_t> m{mode};
    m.insert(m.end(), literals);
    extraModes_.push_back(std::move(m));
  }
  // The float widths the module uses so far.
  const std::set<unsigned> &floatWidths() const { return floatWidths_; }

  // Declares the GLCompute entry point `function` named `name` with a local size
  // of (x, 1, 1), listing `interface` (every global variable it uses).
  void entryPoint(uint32_t function, std::string_view name, std::span<const uint32_t> interface, uint32_t x);

  // The whole module: header, then every section in order.
  std::vector<uint32_t> finish() const;

private:
  uint32_t nextId_ = 1;
  std::set<uint32_t> capabilities_;
  std::set<std::string> extensions_;
  uint32_t glsl_ = 0;
  uint32_t bfloat16_ = 0; // bfloat16Type(), once asked for
  Words entry_, modes_, debug_, annotations_, globals_, body_;
  std::map<std::vector<uint32_t>, uint32_t> types_;     // opcode + operands -> id
  std::map<std::pair<uint32_t, uint64_t>, uint32_t> constants_;
  std::map<uint32_t, uint32_t> nulls_;
  std::map<uint32_t, unsigned> widths_; // int and float type id -> bits
  std::set<unsigned> floatWidths_;
  std::vector<std::vector<uint32_t>> extraModes_;
  uint32_t interned(Spv op, std::initializer_list<uint32_t> operands);
};

} // namespace trident::spirv
