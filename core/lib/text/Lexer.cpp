#include "Lexer.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace trident::text {

namespace {

bool isDigit(int c) { return c >= '0' && c <= '9'; }
bool isIdentStart(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isIdentChar(int c) { return isIdentStart(c) || isDigit(c); }
bool isValueNameChar(int c) { return isIdentChar(c) || c == '.' || c == '$'; }

int hexDigit(int c) {
  if (isDigit(c))
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

} // namespace

Lexer::Lexer(std::string_view text, std::string_view bufferName) : text_(text), bufferName_(bufferName) {}

// Only a diagnostic asks for a location (the parser reports its first error only), so
// the lines are counted here, up to `pos`, rather than indexed for every parse.
Location Lexer::locationAt(size_t pos) const {
  size_t line = 1, lineStart = 0;
  const char *begin = text_.data(), *end = begin + std::min(pos, text_.size());
  for (const char *p = begin; p < end;) {
    const void *newline = std::memchr(p, '\n', static_cast<size_t>(end - p));
    if (!newline)
      break;
    p = static_cast<const char *>(newline) + 1;
    ++line;
    lineStart = static_cast<size_t>(p - begin);
  }
  size_t col = pos - lineStart + 1;
  constexpr size_t kMax = std::numeric_limits<uint32_t>::max();
  return Location::get(bufferName_, static_cast<uint32_t>(std::min(line, kMax)),
                       static_cast<uint32_t>(std::min(col, kMax)));
}

void Lexer::skipTrivia() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      while (pos_ < text_.size() && text_[pos_] != '\n')
        ++pos_;
    } else {
      break;
    }
  }
}

int Lexer::peekRaw(size_t ahead) const {
  if (ahead >= text_.size() - std::min(pos_, text_.size()))
    return kEnd;
  return static_cast<unsigned char>(text_[pos_ + ahead]);
}

int Lexer::peek() {
  skipTrivia();
  return peekRaw();
}

bool Lexer::consumeIf(char c) {
  skipTrivia();
  return consumeRawIf(c);
}

bool Lexer::consumeRawIf(char c) {
  if (peekRaw() != static_cast<unsigned char>(c))
    return false;
  ++pos_;
  return true;
}

std::string_view Lexer::identifier(bool dots) {
  skipTrivia();
  if (!isIdentStart(peekRaw()))
    return {};
  size_t start = pos_;
  while (isIdentChar(peekRaw()) || (dots && peekRaw() == '.'))
    ++pos_;
  return text_.substr(start, pos_ - start);
}

std::string_view Lexer::valueName() {
  size_t start = pos_;
  while (isValueNameChar(peekRaw()))
    ++pos_;
  return text_.substr(start, pos_ - start);
}

std::optional<uint64_t> Lexer::unsignedInteger(bool &overflow) {
  skipTrivia();
  overflow = false;
  if (!isDigit(peekRaw()))
    return std::nullopt;
  uint64_t value = 0;
  while (isDigit(peekRaw())) {
    uint64_t digit = static_cast<uint64_t>(peekRaw() - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10)
      overflow = true;
    else
      value = value * 10 + digit;
    ++pos_;
  }
  return value;
}

std::optional<NumberLiteral> Lexer::number(std::string &error) {
  skipTrivia();
  error.clear();
  size_t start = pos_;
  bool negative = consumeRawIf('-');
  // inf, -inf, nan
  for (std::string_view word : {"inf", "nan"}) {
    if (text_.substr(pos_, word.size()) == word && !isIdentChar(peekRaw(word.size()))) {
      if (negative && word == "nan")
        break;
      pos_ += word.size();
      NumberLiteral lit;
      lit.isFloat = true;
      lit.floatValue = word == "nan" ? std::numeric_limits<double>::quiet_NaN()
                                     : (negative ? -1.0 : 1.0) * std::numeric_limits<double>::infinity();
      return lit;
    }
  }
  if (!isDigit(peekRaw())) {
    pos_ = start;
    if (negative)
      error = "expected digits after '-'";
    return std::nullopt;
  }
  bool isFloat = false;
  while (isDigit(peekRaw()))
    ++pos_;
  if (consumeRawIf('.')) {
    isFloat = true;
    while (isDigit(peekRaw()))
      ++pos_;
  }
  if (peekRaw() == 'e' || peekRaw() == 'E') {
    isFloat = true;
    ++pos_;
    if (peekRaw() == '+' || peekRaw() == '-')
      ++pos_;
    if (!isDigit(peekRaw())) {
      error = "expected exponent digits in float literal";
      return std::nullopt;
    }
    while (isDigit(peekRaw()))
      ++pos_;
  }
  std::string spelling(text_.substr(start, pos_ - start));
  NumberLiteral lit;
  lit.isFloat = isFloat;
  if (isFloat) {
    errno = 0;
    lit.floatValue = std::strtod(spelling.c_str(), nullptr);
    if (errno == ERANGE && std::isinf(lit.floatValue)) {
      error = "float literal '" + spelling + "' out of range";
      return std::nullopt;
    }
    return lit;
  }
  // Accumulate the magnitude, then apply the sign, so INT64_MIN is representable.
  uint64_t magnitude = 0;
  const uint64_t limit = negative ? uint64_t(1) << 63 : (uint64_t(1) << 63) - 1;
  for (char c : spelling.substr(negative ? 1 : 0)) {
    uint64_t digit = static_cast<uint64_t>(c - '0');
    if (magnitude > (limit - digit) / 10) {
      error = "integer literal '" + spelling + "' out of range";
      return std::nullopt;
    }
    magnitude = magnitude * 10 + digit;
  }
  lit.intValue = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  return lit;
}

std::optional<std::string> Lexer::string(std::string &error, size_t &errorPos) {
  skipTrivia();
  size_t start = pos_;
  if (!consumeRawIf('"')) {
    error = "expected string";
    errorPos = start;
    return std::nullopt;
  }
  std::string out;
  for (;;) {
    int c = peekRaw();
    if (c == kEnd || c == '\n') {
      error = "unterminated string";
      errorPos = start;
      return std::nullopt;
    }
    ++pos_;
    if (c == '"')
      return out;
    if (c != '\\') {
      out += static_cast<char>(c);
      continue;
    }
    int e = peekRaw();
    if (e == '"' || e == '\\') {
      out += static_cast<char>(e);
      ++pos_;
    } else if (e == 'n') {
      out += '\n';
      ++pos_;
    } else if (e == 't') {
      out += '\t';
      ++pos_;
    } else if (hexDigit(e) >= 0 && hexDigit(peekRaw(1)) >= 0) {
      out += static_cast<char>(hexDigit(e) * 16 + hexDigit(peekRaw(1)));
      pos_ += 2;
    } else {
      error = "invalid escape in string (use \\\" \\\\ \\n \\t or two hex digits)";
      errorPos = pos_ - 1;
      return std::nullopt;
    }
  }
}

} // namespace trident::text
