#include "ModuleWriter.h"

#include <cassert>

namespace trident::spirv {

namespace {
uint32_t header(Spv op, size_t wordCount) {
  assert(wordCount < 0x10000 && "instruction too long");
  return uint32_t(wordCount) << 16 | uint32_t(op);
}

// A literal string: UTF-8 bytes, NUL-terminated, padded to whole words (little-endian).
std::vector<uint32_t> stringWords(std::string_view text) {
  std::vector<uint32_t> out(text.size() / 4 + 1, 0);
  for (size_t i = 0; i < text.size(); ++i)
    out[i / 4] |= uint32_t(uint8_t(text[i])) << (8 * (i % 4));
  return out;
}
} // namespace

void Words::emit(Spv op, std::span<const uint32_t> operands) {
  words_.push_back(header(op, operands.size() + 1));
  words_.insert(words_.end(), operands.begin(), operands.end());
}

void Words::emitWithString(Spv op, std::initializer_list<uint32_t> before, std::string_view text,
                           std::initializer_list<uint32_t> after) {
  std::vector<uint32_t> operands(before);
  std::vector<uint32_t> s = stringWords(text);
  operands.insert(operands.end(), s.begin(), s.end());
  operands.insert(operands.end(), after);
  emit(op, operands);
}

uint32_t ModuleWriter::glsl() {
  if (!glsl_)
    glsl_ = newId();
  return glsl_;
}

uint32_t ModuleWriter::interned(Spv op, std::initializer_list<uint32_t> operands) {
  std::vector<uint32_t> key{uint32_t(op)};
  key.insert(key.end(), operands);
  auto it = types_.find(key);
  if (it != types_.end())
    return it->second;
  uint32_t id = newId();
  std::vector<uint32_t> ops{id};
  ops.insert(ops.end(), operands);
  globals_.emit(op, ops);
  types_.emplace(std::move(key), id);
  return id;
}

uint32_t ModuleWriter::voidType() { return interned(Spv::TypeVoid, {}); }
uint32_t ModuleWriter::boolType() { return interned(Spv::TypeBool, {}); }

uint32_t ModuleWriter::intType(unsigned bits) {
  if (bits == 8)
    capability(Capability::Int8);
  else if (bits == 16)
    capability(Capability::Int16);
  else if (bits == 64)
    capability(Capability::Int64);
  uint32_t id = interned(Spv::TypeInt, {bits, 0});
  widths_[id] = bits;
  return id;
}

uint32_t ModuleWriter::floatType(unsigned bits) {
  if (bits == 16)
    capability(Capability::Float16);
  else if (bits == 64)
    capability(Capability::Float64);
  uint32_t id = interned(Spv::TypeFloat, {bits});
  widths_[id] = bits;
  floatWidths_.insert(bits);
  return id;
}

uint32_t ModuleWriter::bfloat16Type() {
  capability(Capability::BFloat16TypeKHR);
  extension("SPV_KHR_bfloat16");
  uint32_t id = interned(Spv::TypeFloat, {16, kFPEncodingBFloat16});
  widths_[id] = 16;
  bfloat16_ = id;
  return id;
}

uint32_t ModuleWriter::vectorType(uint32_t component, unsigned count) {
  return interned(Spv::TypeVector, {component, count});
}

uint32_t ModuleWriter::arrayType(uint32_t element, uint32_t length, uint32_t stride) {
  uint32_t lengthId = u32(length);
  if (!stride)
    return interned(Spv::TypeArray, {element, lengthId});
  // Decorated arrays are distinct types: key them by their stride too.
  std::vector<uint32_t> key{uint32_t(Spv::TypeArray), element, lengthId, stride};
  auto it = types_.find(key);
  if (it != types_.end())
    return it->second;
  uint32_t id = newId();
  globals_.emit(Spv::TypeArray, {id, element, lengthId});
  decorate(id, Decoration::ArrayStride, {stride});
  types_.emplace(std::move(key), id);
  return id;
}

uint32_t ModuleWriter::pointerType(StorageClass storage, uint32_t pointee) {
  return interned(Spv::TypePointer, {uint32_t(storage), pointee});
}

uint32_t ModuleWriter::functionType(uint32_t result) { return interned(Spv::TypeFunction, {result}); }

uint32_t ModuleWriter::coopMatrixType(uint32_t component, uint32_t rows, uint32_t cols, uint32_t use) {
  capability(Capability::CooperativeMatrixKHR);
  extension("SPV_KHR_cooperative_matrix");
  if (bfloat16_ && component == bfloat16_)
    capability(Capability::BFloat16CooperativeMatrixKHR);
  uint32_t scope = u32(uint32_t(Scope::Subgroup)), r = u32(rows), c = u32(cols), u = u32(use);
  return interned(Spv::TypeCooperativeMatrixKHR, {component, scope, r, c, u});
}

uint32_t ModuleWriter::structType(std::span<const uint32_t> members) {
  uint32_t id = newId();
  std::vector<uint32_t> ops{id};
  ops.insert(ops.end(), members.begin(), members.end());
  globals_.emit(Spv::TypeStruct, ops);
  return id;
}

uint32_t ModuleWriter::constant(uint32_t type, uint64_t bits) {
  auto key = std::make_pair(type, bits);
  auto it = constants_.find(key);
  if (it != constants_.end())
    return it->second;
  assert(widths_.count(type) && "constant of a type that is not a scalar number");
  unsigned width = widths_.at(type);
  uint32_t id = newId();
  if (width == 64)
    globals_.emit(Spv::Constant, {type, id, uint32_t(bits), uint32_t(bits >> 32)});
  else
    globals_.emit(Spv::Constant, {type, id, uint32_t(bits & (width == 32 ? 0xffffffffu : (1u << width) - 1))});
  constants_.emplace(key, id);
  return id;
}

uint32_t ModuleWriter::boolConstant(bool v) {
  uint32_t type = boolType();
  auto key = std::make_pair(type, uint64_t(v));
  auto it = constants_.find(key);
  if (it != constants_.end())
    return it->second;
  uint32_t id = newId();
  globals_.emit(v ? Spv::ConstantTrue : Spv::ConstantFalse, {type, id});
  constants_.emplace(key, id);
  return id;
}

uint32_t ModuleWriter::nullConstant(uint32_t type) {
  auto it = nulls_.find(type);
  if (it != nulls_.end())
    return it->second;
  uint32_t id = newId();
  globals_.emit(Spv::ConstantNull, {type, id});
  nulls_.emplace(type, id);
  return id;
}

uint32_t ModuleWriter::globalVariable(uint32_t pointerType, StorageClass storage) {
  uint32_t id = newId();
  globals_.emit(Spv::Variable, {pointerType, id, uint32_t(storage)});
  return id;
}

void ModuleWriter::decorate(uint32_t target, Decoration d, std::initializer_list<uint32_t> literals) {
  std::vector<uint32_t> ops{target, uint32_t(d)};
  ops.insert(ops.end(), literals);
  annotations_.emit(Spv::Decorate, ops);
}

void ModuleWriter::memberDecorate(uint32_t structType, uint32_t member, Decoration d,
                                  std::initializer_list<uint32_t> literals) {
  std::vector<uint32_t> ops{structType, member, uint32_t(d)};
  ops.insert(ops.end(), literals);
  annotations_.emit(Spv::MemberDecorate, ops);
}

void ModuleWriter::name(uint32_t target, std::string_view text) { debug_.emitWithString(Spv::Name, {target}, text); }

void ModuleWriter::entryPoint(uint32_t function, std::string_view name, std::span<const uint32_t> interface,
                              uint32_t x) {
  std::vector<uint32_t> ops{kExecutionModelGLCompute, function};
  std::vector<uint32_t> s = stringWords(name);
  ops.insert(ops.end(), s.begin(), s.end());
  ops.insert(ops.end(), interface.begin(), interface.end());
  entry_.emit(Spv::EntryPoint, ops);
  modes_.emit(Spv::ExecutionMode, {function, kExecutionModeLocalSize, x, 1, 1});
  for (const std::vector<uint32_t> &m : extraModes_) {
    std::vector<uint32_t> ops{function};
    ops.insert(ops.end(), m.begin(), m.end());
    modes_.emit(Spv::ExecutionMode, ops);
  }
}

std::vector<uint32_t> ModuleWriter::finish() const {
  std::vector<uint32_t> out{kMagic, kVersion1_5, 0 /* generator */, nextId_, 0};
  Words head;
  for (uint32_t c : capabilities_)
    head.emit(Spv::Capability, {c});
  for (const std::string &e : extensions_)
    head.emitWithString(Spv::Extension, {}, e);
  if (glsl_)
    head.emitWithString(Spv::ExtInstImport, {glsl_}, "GLSL.std.450");
  bool vulkanModel = capabilities_.count(uint32_t(Capability::VulkanMemoryModel)) != 0;
  head.emit(Spv::MemoryModel,
            {kAddressingPhysicalStorageBuffer64, vulkanModel ? kMemoryModelVulkan : kMemoryModelGLSL450});
  const Words *sections[] = {&head, &entry_, &modes_, &debug_, &annotations_, &globals_, &body_};
  for (const Words *section : sections)
    out.insert(out.end(), section->words().begin(), section->words().end());
  return out;
}

} // namespace trident::spirv
