#include "trident/sdk/BinaryContainer.h"

#include <algorithm>

namespace trident::sdk {

std::string writeContainer(std::string_view header, std::string_view lines, std::string_view kind,
                           std::string_view code, bool sized) {
  std::string out(header);
  out += lines;
  out += kind;
  if (sized)
    out += " " + std::to_string(code.size());
  out += "\n";
  out += code;
  return out;
}

ContainerError readContainer(std::string_view bytes, std::string_view header,
                             std::span<const std::string_view> kinds, bool sized,
                             const ContainerLineReader &line, std::string &kind, std::string &code) {
  if (!bytes.starts_with(header))
    return ContainerError::Header;
  bytes.remove_prefix(header.size());
  while (!bytes.empty()) {
    size_t eol = bytes.find('\n');
    // An unsized code line may end the binary without its newline (empty code).
    if (eol == std::string_view::npos && sized)
      return ContainerError::Code;
    std::string_view text = bytes.substr(0, eol);
    bytes.remove_prefix(eol == std::string_view::npos ? bytes.size() : eol + 1);
    std::istringstream fields{std::string(text)};
    std::string word;
    fields >> word;
    if (std::find(kinds.begin(), kinds.end(), word) != kinds.end()) {
      if (sized) {
        size_t size = 0;
        if (!(fields >> size) || size != bytes.size())
          return ContainerError::Size;
      } else if (text != word) {
        return ContainerError::Size;
      }
      kind = word;
      code.assign(bytes);
      return ContainerError::None;
    }
    if (!line(word, fields))
      return ContainerError::Line;
  }
  return ContainerError::Code;
}

} // namespace trident::sdk
