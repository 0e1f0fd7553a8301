#include "Source.h"

namespace trident::frontend {

SourceBuffer::SourceBuffer(std::string name, std::string text)
    : name_(std::move(name)), text_(std::move(text)) {
  lineStarts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n' || (text_[i] == '\r' && (i + 1 == text_.size() || text_[i + 1] != '\n')))
      lineStarts_.push_back(i + 1);
}

std::string_view SourceBuffer::line(uint32_t line) const {
  if (line == 0 || line > lineStarts_.size())
    return {};
  size_t begin = lineStarts_[line - 1];
  size_t end = begin;
  while (end < text_.size() && text_[end] != '\n' && text_[end] != '\r')
    ++end;
  return std::string_view(text_).substr(begin, end - begin);
}

std::string_view SourceBuffer::slice(size_t begin, size_t end) const {
  if (begin > text_.size())
    begin = text_.size();
  if (end > text_.size())
    end = text_.size();
  if (end < begin)
    end = begin;
  return std::string_view(text_).substr(begin, end - begin);
}

Location SourcePos::location() const {
  if (!buffer)
    return {};
  return Location::get(buffer->name(), line, col);
}

void fail(SourcePos pos, std::string message) { throw CompileError{pos, std::move(message)}; }

void report(Diagnostics &diags, const CompileError &error) {
  std::string message = error.message;
  if (error.pos.buffer) {
    std::string_view text = error.pos.buffer->line(error.pos.line);
    if (!text.empty()) {
      std::string caret;
      // Keep tabs so the caret lines up under the same column in a terminal.
      for (size_t i = 0; i + 1 < error.pos.col && i < text.size(); ++i)
        caret += text[i] == '\t' ? '\t' : ' ';
      message += "\n    " + std::string(text) + "\n    " + caret + "^";
    }
  }
  diags.error(error.pos.location(), std::move(message));
}

} // namespace trident::frontend
