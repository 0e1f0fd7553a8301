#include "trident/backends/spirv/Tools.h"

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

namespace trident::spirv {

namespace {
constexpr spv_target_env kEnv = SPV_ENV_VULKAN_1_2;

// Collects SPIRV-Tools' messages, one per line.
spvtools::MessageConsumer collector(std::string &out) {
  return [&out](spv_message_level_t, const char *, const spv_position_t &position, const char *message) {
    out += "spirv: word " + std::to_string(position.index) + ": " + message + "\n";
  };
}
} // namespace

std::string validate(const std::vector<uint32_t> &words) {
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
  spvtools::SpirvTools tools(kEnv);
  std::string text, messages;
  tools.SetMessageConsumer(collector(messages));
  if (!tools.Disassemble(words, &text,
                         SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT))
    return "; disassembly failed\n" + messages;
  return text;
}

} // namespace trident::spirv
