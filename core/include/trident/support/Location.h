#pragma once
// A source location: file, line and column (1-based; 0 means unknown).

#include <cstdint>
#include <string>
#include <string_view>

namespace trident {

class Location {
public:
  Location() = default;
  // Interns `file` so that locations stay two words plus a pointer.
  static Location get(std::string_view file, uint32_t line, uint32_t col);

  bool known() const { return file_ != nullptr; }
  std::string_view file() const { return file_ ? std::string_view(*file_) : std::string_view(); }
  uint32_t line() const { return line_; }
  uint32_t col() const { return col_; }
  // "file:line:col", or "<unknown>".
  std::string str() const;

  bool operator==(const Location &) const = default;

private:
  const std::string *file_ = nullptr;
  uint32_t line_ = 0, col_ = 0;
};

} // namespace trident
