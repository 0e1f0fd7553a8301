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
// Whether the linked SPIRV-Tools parse SPV_KHR_cooperative_matrix (2023.4 and later;
// Debian bookworm's 2023.1 does not): a module declaring its capability disassembles.
bool toolsKnowKhrCooperativeMatrix() {
  static const bool known = [] {
    std::vector<uint32_t> words{kMagic, kVersion1_5, 0, 1, 0, (2u << 16) | uint32_t(Spv::Capability),
                                uint32_t(Capability::CooperativeMatrixKHR)};
    spvtools::SpirvTools tools(kEnv);
    tools.SetMessageConsumer([](spv_message_level_t, const char *, const spv_position_t &, const char *) {});
    std::string text;
    return tools.Disassemble(words, &text, 0);
  }();
  return known;
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

bool usesKhrCooperativeMatrix(const std::vector<uint32_t> &words) {
  for (size_t i = 5; i < words.size() && (words[i] & 0xffff) == uint32_t(Spv::Capability); i += words[i] >> 16)
    if (words[i + 1] == uint32_t(Capability::CooperativeMatrixKHR))
      return true;
  return false;
}

// Older SPIRV-Tools see cooperative matrices in their NV form (nvCooperativeMatrixForm).
bool needsNvForm(const std::vector<uint32_t> &words) {
  return usesKhrCooperativeMatrix(words) && !toolsKnowKhrCooperativeMatrix();
}

} // namespace

std::string validate(const std::vector<uint32_t> &words) {
  if (needsNvForm(words)) {
    std::string messages = validate(nvCooperativeMatrixForm(words));
    return messages.empty() ? messages
                            : "spirv: (validated with its cooperative matrices in SPV_NV_cooperative_matrix form: "
                              "these SPIRV-Tools predate SPV_KHR_cooperative_matrix)\n" +
                                  messages;
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
  if (needsNvForm(words))
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
  if (needsNvForm(words))
    return "; these SPIRV-Tools predate SPV_KHR_cooperative_matrix: its instructions are shown in their\n"
           "; SPV_NV_cooperative_matrix form (the binary has the KHR ones)\n" +
           disassemble(nvCooperativeMatrixForm(words));
  spvtools::SpirvTools tools(kEnv);
  std::string text, messages;
  tools.SetMessageConsumer(collector(messages));
  if (!tools.Disassemble(words, &text,
                         SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT))
    return "; disassembly failed\n" + messages;
  return text;
}

} // namespace trident::spirv
