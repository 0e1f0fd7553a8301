#pragma once
// The binary container of the CUDA, HIP and CPU plugins: a header line naming the
// plugin's format, lines the plugin defines (its kernels, its target), and then its
// code, after a line holding the code's kind, either alone (the code is the rest of
// the binary) or, `sized`, with the code's size:
//   trident-cuda-binary 1                  // trident-cpu-binary 1
//   kernel add_kernel threads 128 ...      cpu znver3 +adx,...
//   ptx                                    kernel add_kernel 0 1 1 1 5
//   <the code, to the end>                 object 2312
//                                          <2312 bytes>
// The bytes are each plugin's existing format, so binaries in disk caches and bundles
// stay readable. (The host plugin's binary is its block IR after a header comment, and
// the Vulkan plugin's a little-endian record: neither has this shape; docs/plugin-sdk.md.)

#include <functional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>

namespace trident::sdk {

// `header` and `lines` end with newlines; `lines` may be empty.
std::string writeContainer(std::string_view header, std::string_view lines, std::string_view kind,
                           std::string_view code, bool sized);

// What is wrong with a container that does not read.
enum class ContainerError {
  None,
  Header, // it does not start with the header
  Line,   // the plugin's line reader refused a line
  Code,   // no line names a code kind (or, sized, the last line has no newline)
  Size,   // the code line is malformed: sized, its size is missing or not that of what
          // follows; unsized, it holds more than the kind
};

// A line before the code's: its first word and the rest (empty line: empty word);
// false refuses it.
using ContainerLineReader = std::function<bool(const std::string &word, std::istringstream &fields)>;

// Reads `bytes`: each line after the header goes to `line`, in order, until one whose
// first word is one of `kinds`; then `kind` and `code` are set.
ContainerError readContainer(std::string_view bytes, std::string_view header,
                             std::span<const std::string_view> kinds, bool sized,
                             const ContainerLineReader &line, std::string &kind, std::string &code);

} // namespace trident::sdk
