#pragma once
// Splits Python source into tokens, the way Python's tokenizer does: logical lines
// end in NEWLINE, indentation changes give INDENT / DEDENT, lines join inside
// brackets and after a backslash, comments and blank lines vanish. Strings (all
// prefixes, triple-quoted) and numbers (hex, octal, binary, underscores,
// exponents, imaginary) are decoded. Errors throw CompileError.

#include "Source.h"

#include <cstdint>
#include <string>
#include <vector>

namespace trident::frontend {

enum class Tok : uint8_t { Name, Int, Float, Imaginary, String, Op, Newline, Indent, Dedent, End };

struct Token {
  Tok kind = Tok::End;
  uint32_t line = 0, col = 0;  // 1-based start
  uint32_t begin = 0, end = 0; // byte offsets of the token's text
  std::string text;            // names and operators as written; strings decoded
  unsigned __int128 intValue = 0;
  bool intTooLarge = false; // an integer literal of 128 bits or more
  double floatValue = 0;
  bool isBytes = false, isFString = false;

  bool is(Tok k, std::string_view t) const { return kind == k && text == t; }
  bool isOp(std::string_view t) const { return is(Tok::Op, t); }
  bool isName(std::string_view t) const { return is(Tok::Name, t); }
};

std::vector<Token> tokenize(const SourceBuffer &source);

// True for Python's reserved words (which the lexer returns as Name tokens).
bool isKeyword(std::string_view name);

} // namespace trident::frontend
