#include "trident/backends/spirv/Tools.h"

#include "Spirv.h"

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

#include <cstring>
#include <map>
#include <set>
#include <string_view>

namespace trident::spirv {

namespace {
constexpr spv_target_env kEnv = SPV_ENV_VULKAN_1_2;

// Collects SPIRV-Tools' messages, one per line.
spvtools::MessageConsumer collector(std::string &out) {
  return [&out](spv_message_level_t, const char *, const spv_position_t &position, const char *message) {
    out += "spirv: word " + std::to_string(position.index) + ": " + message + "\n";
  };
}
// Whether the linked SPIRV-Tools parse a module declaring capability `c`.
bool toolsParse(Capability c) {
  std::vector<uint32_t> words{kMagic,     kVersion1_5, 0, 1, 0, (2u << 16) | uint32_t(Spv::Capability),
                              uint32_t(c)};
  spvtools::SpirvTools tools(kEnv);
  tools.SetMessageConsumer([](spv_message_level_t, const char *, const spv_position_t &, const char *) {});
  std::string text;
  return tools.Disassemble(words, &text, 0);
}
// SPV_KHR_cooperative_matrix: SPIRV-Tools 2023.4 and later (Debian bookworm's 2023.1 does not).
bool toolsKnowKhrCooperativeMatrix() {
  static const bool known = toolsParse(Capability::CooperativeMatrixKHR);
  return known;
}
// SPV_KHR_bfloat16: SPIRV-Tools of 2025 and later.
bool toolsKnowBFloat16() {
  static const bool known = toolsParse(Capability::BFloat16TypeKHR);
  return known;
}

bool declaresCapability(const std::vector<uint32_t> &words, Capability c) {
  for (size_t i = 5; i < words.size() && (words[i] & 0xffff) == uint32_t(Spv::Capability);
       i += words[i] >> 16)
    if (words[i + 1] == uint32_t(c))
      return true;
  return false;
}

// The module with its bfloat16 type (SPV_KHR_bfloat16) read as f16, for SPIRV-Tools
// that predate the extension: `OpTypeFloat 16 BFloat16KHR` becomes `OpTypeFloat 16` (the
// module's f16 type where it has one: a second declaration of it would be invalid), the
// capability BFloat16TypeKHR becomes Float16, BFloat16CooperativeMatrixKHR and the
// extension go. What is then checked is the module with f16 matrices in place of bf16
// ones. Trident uses the bfloat16 type only as cooperative matrices' component type
// (ModuleWriter::bfloat16Type), so that is the one place its id is replaced; a bf16
// matrix type that then equals an f16 one (a kernel with both dots) is dropped for it,
// and the instructions whose result type it was take the f16 one.
std::vector<uint32_t> f16ForBFloat16(const std::vector<uint32_t> &words) {
  const uint32_t header = 5;
  uint32_t bf16 = 0, f16 = 0;
  for (size_t i = header; i < words.size(); i += words[i] >> 16)
    if ((words[i] & 0xffff) == uint32_t(Spv::TypeFloat) && words[i + 2] == 16)
      ((words[i] >> 16) == 4 && words[i + 3] == kFPEncodingBFloat16 ? bf16 : f16) = words[i + 1];
  uint32_t as = f16 ? f16 : bf16; // the id the checked copy's one 16-bit float type has
  // Matrix types by their operands once bf16 reads as f16; bf16 ones equal to another.
  std::map<std::vector<uint32_t>, uint32_t> matrices;
  std::map<uint32_t, uint32_t> alias;
  for (size_t i = header; i < words.size(); i += words[i] >> 16)
    if ((words[i] & 0xffff) == uint32_t(Spv::TypeCooperativeMatrixKHR) && words[i + 2] == f16)
      matrices.emplace(
          std::vector<uint32_t>(words.begin() + long(i) + 2, words.begin() + long(i + (words[i] >> 16))),
          words[i + 1]);
  for (size_t i = header; i < words.size(); i += words[i] >> 16)
    if ((words[i] & 0xffff) == uint32_t(Spv::TypeCooperativeMatrixKHR) && words[i + 2] == bf16 && f16) {
      std::vector<uint32_t> key(words.begin() + long(i) + 2, words.begin() + long(i + (words[i] >> 16)));
      key[0] = f16;
      if (auto it = matrices.find(key); it != matrices.end())
        alias[words[i + 1]] = it->second;
    }
  bool hasFloat16 = declaresCapability(words, Capability::Float16), declared = false;
  std::vector<uint32_t> out(words.begin(), words.begin() + header);
  for (size_t i = header; i < words.size(); i += words[i] >> 16) {
    uint32_t length = words[i] >> 16;
    Spv op = Spv(words[i] & 0xffff);
    const uint32_t *w = &words[i];
    if (op == Spv::Capability && w[1] == uint32_t(Capability::BFloat16TypeKHR)) {
      if (!hasFloat16)
        out.insert(out.end(), {(2u << 16) | uint32_t(Spv::Capability), uint32_t(Capability::Float16)});
    } else if (op == Spv::Capability && w[1] == uint32_t(Capability::BFloat16CooperativeMatrixKHR)) {
      // dropped
    } else if (op == Spv::Extension &&
               std::string_view(reinterpret_cast<const char *>(w + 1)) == "SPV_KHR_bfloat16") {
      // dropped
    } else if (op == Spv::TypeFloat && w[2] == 16) {
      if (!declared) // the first of the two declarations, so it precedes every use of either
        out.insert(out.end(), {(3u << 16) | uint32_t(Spv::TypeFloat), as, 16});
      declared = true;
    } else if (op == Spv::TypeCooperativeMatrixKHR && alias.count(w[1])) {
      // dropped: its uses (function code, after every type) take the f16 matrix type
    } else {
      size_t at = out.size();
      out.insert(out.end(), w, w + length);
      if (op == Spv::TypeCooperativeMatrixKHR && w[2] == bf16)
        out[at + 2] = as;
      else if (length > 1 && alias.count(w[1])) // a result of the dropped type
        out[at + 1] = alias[w[1]];
    }
  }
  return out;
}

// The module with its SPV_KHR_cooperative_matrix instructions in their
// SPV_NV_cooperative_matrix form, which older SPIRV-Tools validate the same way for
// what Trident emits: types lose their use (a fresh scope constant per use keeps A and
// B of one shape distinct types), loads and stores take a boolean column-major operand
// for the layout, the multiply-add loses its signedness operands, and a component-wise
// OpFMul of matrices (KHR has it, NV only OpFAdd and the like, with the same typing
// rules) is checked as an OpFAdd. Everything else is unchanged, word for word.
std::vector<uint32_t> nvCooperativeMatrixForm(const std::vector<uint32_t> &words) {
  const uint32_t header = 5;
  uint32_t bound = words[3];
  std::map<uint32_t, uint32_t> constants; // OpConstant id -> its (first) value word
  std::set<uint32_t> matrixTypes;
  uint32_t u32Type = 0, boolType = 0;
  for (size_t i = header; i < words.size(); i += words[i] >> 16) {
    Spv op = Spv(words[i] & 0xffff);
    if (op == Spv::TypeCooperativeMatrixKHR)
      matrixTypes.insert(words[i + 1]);
    if (op == Spv::Constant)
      constants[words[i + 2]] = words[i + 3];
    if (op == Spv::TypeInt && words[i + 2] == 32 && words[i + 3] == 0)
      u32Type = words[i + 1];
    if (op == Spv::TypeBool)
      boolType = words[i + 1];
  }
  uint32_t scopes[3] = {bound, bound + 1, bound + 2};
  bound += 3;
  std::vector<uint32_t> beforeFunctions;
  if (!boolType) {
    boolType = bound++;
    beforeFunctions.insert(beforeFunctions.end(), {(2u << 16) | uint32_t(Spv::TypeBool), boolType});
  }
  uint32_t falseId = bound++, trueId = bound++;
  beforeFunctions.insert(beforeFunctions.end(), {(3u << 16) | uint32_t(Spv::ConstantFalse), boolType, falseId,
                                                 (3u << 16) | uint32_t(Spv::ConstantTrue), boolType, trueId});
  std::vector<uint32_t> out(words.begin(), words.begin() + header);
  out[3] = bound;
  bool scopesDeclared = false, constantsDeclared = false;
  for (size_t i = header; i < words.size(); i += words[i] >> 16) {
    uint32_t length = words[i] >> 16;
    Spv op = Spv(words[i] & 0xffff);
    const uint32_t *w = &words[i];
    auto emit = [&](Spv code, std::initializer_list<uint32_t> operands) {
      out.push_back((uint32_t(operands.size() + 1) << 16) | uint32_t(code));
      out.insert(out.end(), operands);
    };
    if (op == Spv::Capability && w[1] == uint32_t(Capability::CooperativeMatrixKHR)) {
      emit(Spv::Capability, {uint32_t(Capability::CooperativeMatrixNV)});
    } else if (op == Spv::Extension &&
               std::string_view(reinterpret_cast<const char *>(w + 1)) == "SPV_KHR_cooperative_matrix") {
      std::vector<uint32_t> name(length - 1, 0);
      std::memcpy(name.data(), "SPV_NV_cooperative_matrix", sizeof "SPV_NV_cooperative_matrix");
      out.push_back(words[i]);
      out.insert(out.end(), name.begin(), name.end());
    } else if (op == Spv::TypeCooperativeMatrixKHR) {
      if (!scopesDeclared) {
        for (uint32_t id : scopes)
          emit(Spv::Constant, {u32Type, id, uint32_t(Scope::Subgroup)});
        scopesDeclared = true;
      }
      emit(Spv::TypeCooperativeMatrixNV, {w[1], w[2], scopes[constants[w[6]] % 3], w[4], w[5]});
    } else if (op == Spv::CooperativeMatrixLoadKHR) {
      uint32_t column = constants[w[4]] == kCoopMatrixColumnMajor ? trueId : falseId;
      emit(Spv::CooperativeMatrixLoadNV, {w[1], w[2], w[3], w[5], column});
    } else if (op == Spv::CooperativeMatrixStoreKHR) {
      uint32_t column = constants[w[3]] == kCoopMatrixColumnMajor ? trueId : falseId;
      emit(Spv::CooperativeMatrixStoreNV, {w[1], w[2], w[4], column});
    } else if (op == Spv::CooperativeMatrixMulAddKHR) {
      emit(Spv::CooperativeMatrixMulAddNV, {w[1], w[2], w[3], w[4], w[5]});
    } else if (op == Spv::FMul && matrixTypes.count(w[1])) {
      emit(Spv::FAdd, {w[1], w[2], w[3], w[4]});
    } else {
      if (op == Spv::Function && !constantsDeclared) {
        out.insert(out.end(), beforeFunctions.begin(), beforeFunctions.end());
        constantsDeclared = true;
      }
      out.insert(out.end(), w, w + length);
    }
  }
  return out;
}

// Older SPIRV-Tools see cooperative matrices in their NV form (nvCooperativeMatrixForm)
// and bfloat16 as f16 (f16ForBFloat16).
bool needsNvForm(const std::vector<uint32_t> &words) {
  return declaresCapability(words, Capability::CooperativeMatrixKHR) && !toolsKnowKhrCooperativeMatrix();
}
bool needsF16Form(const std::vector<uint32_t> &words) {
  return declaresCapability(words, Capability::BFloat16TypeKHR) && !toolsKnowBFloat16();
}

// The module as these SPIRV-Tools read it, and a line on how it was rewritten ("" when not).
std::vector<uint32_t> toolsForm(const std::vector<uint32_t> &words, std::string &note) {
  std::vector<uint32_t> out = needsF16Form(words) ? f16ForBFloat16(words) : words;
  if (needsNvForm(words))
    out = nvCooperativeMatrixForm(out);
  note = needsNvForm(words) && needsF16Form(words)
             ? "its cooperative matrices in SPV_NV_cooperative_matrix form and bfloat16 read as f16: these "
               "SPIRV-Tools predate SPV_KHR_cooperative_matrix and SPV_KHR_bfloat16"
         : needsNvForm(words)
             ? "its cooperative matrices in SPV_NV_cooperative_matrix form: these SPIRV-Tools predate "
               "SPV_KHR_cooperative_matrix"
         : needsF16Form(words) ? "bfloat16 read as f16: these SPIRV-Tools predate SPV_KHR_bfloat16"
                               : "";
  return out;
}

} // namespace

std::string validate(const std::vector<uint32_t> &words) {
  if (needsNvForm(words) || needsF16Form(words)) {
    std::string note;
    std::string messages = validate(toolsForm(words, note));
    return messages.empty() ? messages : "spirv: (validated with " + note + ")\n" + messages;
  }
  std::string messages;
  spvtools::SpirvTools tools(kEnv);
  tools.SetMessageConsumer(collector(messages));
  spvtools::ValidatorOptions options;
  options.SetScalarBlockLayout(false);
  if (tools.Validate(words.data(), words.size(), options))
    return {};
  return messages.empty() ? "spirv: invalid module\n" : messages;
}

bool optimize(std::vector<uint32_t> &words, std::string &error) {
  if (needsNvForm(words) || needsF16Form(words))
    return true; // these SPIRV-Tools cannot read the module; it stays as written
  spvtools::Optimizer opt(kEnv);
  opt.SetMessageConsumer(collector(error));
  opt.RegisterPerformancePasses();
  std::vector<uint32_t> out;
  if (!opt.Run(words.data(), words.size(), &out))
    return false;
  words = std::move(out);
  return true;
}

std::string disassemble(const std::vector<uint32_t> &words) {
  if (needsNvForm(words) || needsF16Form(words)) {
    std::string note;
    std::vector<uint32_t> form = toolsForm(words, note);
    return "; shown with " + note + " (the binary has the KHR instructions and types)\n" + disassemble(form);
  }
  spvtools::SpirvTools tools(kEnv);
  std::string text, messages;
  tools.SetMessageConsumer(collector(messages));
  if (!tools.Disassemble(words, &text,
                         SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT))
    return "; disassembly failed\n" + messages;
  return text;
}

} // namespace trident::spirv
