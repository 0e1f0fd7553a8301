#pragma once
// A source file held in memory, and the error type the frontend's phases throw.
//
// Phases report user errors by throwing CompileError; the public entry points
// catch it and turn it into a Diagnostic whose message is followed by the source
// line and a caret under the column:
//
//   add.py:5:11: error: tl.arange's range must be a power of two, got 100
//       offs = tl.arange(0, 100)
//              ^

#include "trident/support/Diagnostic.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace trident::frontend {

class SourceBuffer {
public:
  SourceBuffer(std::string name, std::string text);
  const std::string &name() const { return name_; }
  const std::string &text() const { return text_; }
  // The text of 1-based line `line` without its line break ("" when out of range).
  std::string_view line(uint32_t line) const;
  // The source text in [begin, end).
  std::string_view slice(size_t begin, size_t end) const;

private:
  std::string name_, text_;
  std::vector<size_t> lineStarts_;
};

// A 1-based position in a buffer.
struct SourcePos {
  const SourceBuffer *buffer = nullptr;
  uint32_t line = 0, col = 0;
  Location location() const;
};

struct CompileError {
  SourcePos pos;
  std::string message; // lowercase, no trailing period
};

[[noreturn]] void fail(SourcePos pos, std::string message);

// Adds `error` to `diags`, with the source line and a caret after the message.
void report(Diagnostics &diags, const CompileError &error);

} // namespace trident::frontend
