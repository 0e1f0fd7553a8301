#pragma once
// Character-level scanning for the IR parser: trivia, identifiers, value names,
// numbers and strings, with positions turned into line:column locations.
//
// The IR grammar is small but context dependent (`4xf32` inside a block type is a
// dimension, an 'x' and a type), so the parser asks for the token it expects next
// instead of consuming a fixed token stream.

#include "trident/support/Location.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace trident::text {

// A numeric literal: an integer (no '.', exponent, inf or nan) or a float.
struct NumberLiteral {
  bool isFloat = false;
  int64_t intValue = 0;
  double floatValue = 0;
};

class Lexer {
public:
  static constexpr int kEnd = -1;

  Lexer(std::string_view text, std::string_view bufferName);

  // Skips whitespace and `//` comments.
  void skipTrivia();
  // The next character after trivia, or kEnd.
  int peek();
  // The character `ahead` places after the cursor, without skipping trivia, or kEnd.
  int peekRaw(size_t ahead = 0) const;
  bool atEnd() { return peek() == kEnd; }
  // Consumes `c` (after trivia) if it is next.
  bool consumeIf(char c);
  // Consumes `c` immediately at the cursor (no trivia skipped) if it is next.
  bool consumeRawIf(char c);

  // The cursor, after trivia, to remember and return to.
  size_t pos() {
    skipTrivia();
    return pos_;
  }
  void reset(size_t pos) { pos_ = pos; }
  Location locationAt(size_t pos) const;

  // [A-Za-z_][A-Za-z0-9_]* (with '.' too when `dots`), after trivia; empty if none.
  std::string_view identifier(bool dots);
  // The name after '%' ([A-Za-z0-9_.$]+), at the cursor which must be at '%';
  // empty when no name follows.
  std::string_view valueName();
  // Digits only, after trivia; nullopt (cursor unmoved) if no digit is next,
  // `overflow` set when they do not fit in uint64_t.
  std::optional<uint64_t> unsignedInteger(bool &overflow);
  // An integer or float literal, after trivia. On failure returns nullopt and sets
  // `error` (empty when no number starts here, cursor unmoved).
  std::optional<NumberLiteral> number(std::string &error);
  // A double-quoted string with escapes, after trivia; the cursor must be at '"'.
  // On failure returns nullopt, sets `error`, and leaves `errorPos` at the culprit.
  std::optional<std::string> string(std::string &error, size_t &errorPos);

private:
  std::string_view text_;
  std::string_view bufferName_;
  size_t pos_ = 0;
};

} // namespace trident::text
