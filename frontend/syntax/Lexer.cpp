#include "Lexer.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace trident::frontend {

namespace {

constexpr std::array kKeywords = {"False",  "None",   "True",    "and",      "as",       "assert", "async",
                                  "await",  "break",  "class",   "continue", "def",      "del",    "elif",
                                  "else",   "except", "finally", "for",      "from",     "global", "if",
                                  "import", "in",     "is",      "lambda",   "nonlocal", "not",    "or",
                                  "pass",   "raise",  "return",  "try",      "while",    "with",   "yield"};

// Operators, longest first so that the first match is the longest.
constexpr std::array kOperators = {
    "**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=",
    "-=",  "*=",  "/=",  "%=",  "&=",  "|=", "^=", "@=", "+",  "-",  "*",  "/",  "%",  "@",  "&",  "|",
    "^",   "~",   "<",   ">",   "(",   ")",  "[",  "]",  "{",  "}",  ",",  ":",  ".",  ";",  "="};

// The longest operator `rest` starts with, or "" for none. The operators are grouped
// by their first character once (each group keeps kOperators' longest-first order), so
// a token is compared with the few operators of its first character, not all 47.
std::string_view operatorAt(std::string_view rest) {
  static const std::array<std::vector<std::string_view>, 256> byFirst = [] {
    std::array<std::vector<std::string_view>, 256> groups;
    for (const char *op : kOperators)
      groups[static_cast<unsigned char>(op[0])].push_back(op);
    return groups;
  }();
  if (rest.empty())
    return {};
  for (std::string_view o : byFirst[static_cast<unsigned char>(rest[0])]) {
    bool match = o.size() <= rest.size();
    for (size_t i = 1; match && i < o.size(); ++i)
      match = rest[i] == o[i];
    if (match)
      return o;
  }
  return {};
}

bool isIdentStart(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool isIdentChar(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

void appendUtf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | ((cp >> 18) & 0x07));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class Lexer {
public:
  explicit Lexer(const SourceBuffer &source) : src_(source), text_(source.text()) {}

  std::vector<Token> run() {
    indents_.push_back(0);
    while (pos_ < text_.size()) {
      if (atLineStart_ && brackets_.empty()) {
        if (!handleIndentation())
          continue;
      }
      lexToken();
    }
    if (!brackets_.empty())
      fail(posAt(brackets_.back().line, brackets_.back().col),
           "'" + std::string(1, brackets_.back().open) + "' was never closed");
    if (!tokens_.empty() && tokens_.back().kind != Tok::Newline && tokens_.back().kind != Tok::Dedent &&
        tokens_.back().kind != Tok::Indent)
      push(Tok::Newline, "", pos_, pos_);
    while (indents_.size() > 1) {
      indents_.pop_back();
      push(Tok::Dedent, "", pos_, pos_);
    }
    push(Tok::End, "", pos_, pos_);
    return std::move(tokens_);
  }

private:
  struct Bracket {
    char open;
    uint32_t line, col;
  };

  SourcePos posAt(uint32_t line, uint32_t col) const { return SourcePos{&src_, line, col}; }
  SourcePos here() const { return posAt(line_, col()); }
  uint32_t col() const { return static_cast<uint32_t>(pos_ - lineStart_ + 1); }
  char peek(size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }

  Token &push(Tok kind, std::string text, size_t begin, size_t end) {
    Token t;
    t.kind = kind;
    t.text = std::move(text);
    t.begin = static_cast<uint32_t>(begin);
    t.end = static_cast<uint32_t>(end);
    t.line = tokLine_;
    t.col = tokCol_;
    if (kind == Tok::Newline || kind == Tok::Indent || kind == Tok::Dedent || kind == Tok::End) {
      t.line = line_;
      t.col = col();
    }
    tokens_.push_back(std::move(t));
    return tokens_.back();
  }

  // Consumes a line break at pos_ (\n, \r\n or \r).
  bool consumeNewline() {
    if (peek() == '\r') {
      ++pos_;
      if (peek() == '\n')
        ++pos_;
    } else if (peek() == '\n') {
      ++pos_;
    } else {
      return false;
    }
    ++line_;
    lineStart_ = pos_;
    return true;
  }

  // At the start of a line outside brackets: measures indentation, skips blank
  // and comment-only lines, emits INDENT/DEDENT. Returns false when it consumed
  // a whole blank line.
  bool handleIndentation() {
    size_t width = 0;
    while (pos_ < text_.size()) {
      char c = peek();
      if (c == ' ')
        ++width;
      else if (c == '\t')
        width = (width / 8 + 1) * 8;
      else if (c == '\f')
        width = 0;
      else
        break;
      ++pos_;
    }
    char c = peek();
    if (c == '#') {
      while (pos_ < text_.size() && peek() != '\n' && peek() != '\r')
        ++pos_;
      c = peek();
    }
    if (c == '\n' || c == '\r') {
      consumeNewline();
      return false;
    }
    if (c == '\\' && (peek(1) == '\n' || peek(1) == '\r')) {
      // A backslash continuation on an otherwise empty line: the next line counts.
      ++pos_;
      consumeNewline();
      return false;
    }
    if (pos_ >= text_.size())
      return false;
    atLineStart_ = false;
    tokLine_ = line_;
    tokCol_ = col();
    if (width > indents_.back()) {
      if (indents_.size() > 200)
        fail(here(), "too many levels of indentation");
      indents_.push_back(width);
      push(Tok::Indent, "", pos_, pos_);
    } else {
      while (width < indents_.back()) {
        indents_.pop_back();
        push(Tok::Dedent, "", pos_, pos_);
      }
      if (width != indents_.back())
        fail(here(), "unindent does not match any outer indentation level");
    }
    return true;
  }

  void lexToken() {
    char c = peek();
    tokLine_ = line_;
    tokCol_ = col();
    if (c == ' ' || c == '\t' || c == '\f') {
      ++pos_;
      return;
    }
    if (c == '#') {
      while (pos_ < text_.size() && peek() != '\n' && peek() != '\r')
        ++pos_;
      return;
    }
    if (c == '\n' || c == '\r') {
      size_t begin = pos_;
      bool logicalEnd = brackets_.empty();
      if (logicalEnd)
        push(Tok::Newline, "", begin, begin);
      consumeNewline();
      if (logicalEnd)
        atLineStart_ = true;
      return;
    }
    if (c == '\\') {
      ++pos_;
      if (!consumeNewline())
        fail(posAt(tokLine_, tokCol_), "unexpected character after line continuation character");
      if (pos_ >= text_.size())
        fail(posAt(tokLine_, tokCol_), "unexpected end of file after line continuation character");
      return;
    }
    if (isIdentStart(static_cast<unsigned char>(c))) {
      size_t begin = pos_;
      while (pos_ < text_.size() && isIdentChar(static_cast<unsigned char>(peek())))
        ++pos_;
      std::string word(text_.substr(begin, pos_ - begin));
      if ((peek() == '\'' || peek() == '"') && isStringPrefix(word)) {
        lexString(begin, word);
        return;
      }
      push(Tok::Name, std::move(word), begin, pos_);
      return;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
      lexNumber();
      return;
    }
    if (c == '\'' || c == '"') {
      lexString(pos_, "");
      return;
    }
    if (std::string_view o = operatorAt(text_.substr(pos_)); !o.empty()) {
      size_t begin = pos_;
      pos_ += o.size();
      trackBracket(o);
      push(Tok::Op, std::string(o), begin, pos_);
      return;
    }
    if (c == '!')
      fail(here(), "invalid syntax: '!' (use 'not' or '!=')");
    unsigned char uc = static_cast<unsigned char>(c);
    if (uc < 0x20 || uc == 0x7f)
      fail(here(), "invalid character with code " + std::to_string(uc) + " in source");
    fail(here(), std::string("invalid character '") + c + "' in source");
  }

  void trackBracket(std::string_view o) {
    if (o == "(" || o == "[" || o == "{") {
      if (brackets_.size() >= 200)
        fail(posAt(tokLine_, tokCol_), "too many nested brackets");
      brackets_.push_back({o[0], tokLine_, tokCol_});
      return;
    }
    if (o != ")" && o != "]" && o != "}")
      return;
    char want = o == ")" ? '(' : o == "]" ? '[' : '{';
    if (brackets_.empty())
      fail(posAt(tokLine_, tokCol_), "unmatched '" + std::string(o) + "'");
    if (brackets_.back().open != want)
      fail(posAt(tokLine_, tokCol_), "closing '" + std::string(o) + "' does not match opening '" +
                                         std::string(1, brackets_.back().open) + "' at line " +
                                         std::to_string(brackets_.back().line));
    brackets_.pop_back();
  }

  static bool isStringPrefix(const std::string &w) {
    if (w.size() > 2)
      return false;
    bool r = false, b = false, f = false, u = false;
    for (char ch : w) {
      char l = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      bool &flag = l == 'r' ? r : l == 'b' ? b : l == 'f' ? f : u;
      if ((l != 'r' && l != 'b' && l != 'f' && l != 'u') || flag)
        return false;
      flag = true;
    }
    return !(u && w.size() > 1) && !(b && f);
  }

  void lexString(size_t begin, const std::string &prefix) {
    bool raw = false, bytes = false, fstr = false;
    for (char ch : prefix) {
      char l = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      raw |= l == 'r';
      bytes |= l == 'b';
      fstr |= l == 'f';
    }
    char quote = peek();
    bool triple = peek(1) == quote && peek(2) == quote;
    pos_ += triple ? 3 : 1;
    std::string value;
    while (true) {
      if (pos_ >= text_.size())
        fail(posAt(tokLine_, tokCol_),
             triple ? "unterminated triple-quoted string literal" : "unterminated string literal");
      char ch = peek();
      if (ch == quote && (!triple || (peek(1) == quote && peek(2) == quote))) {
        pos_ += triple ? 3 : 1;
        break;
      }
      if (ch == '\n' || ch == '\r') {
        if (!triple)
          fail(posAt(tokLine_, tokCol_), "unterminated string literal");
        value += '\n';
        consumeNewline();
        continue;
      }
      if (ch == '\\') {
        if (raw) {
          value += ch;
          ++pos_;
          if (pos_ < text_.size() && peek() != '\n' && peek() != '\r') {
            value += peek();
            ++pos_;
          }
          continue;
        }
        ++pos_;
        lexEscape(value);
        continue;
      }
      value += ch;
      ++pos_;
    }
    Token &t = push(Tok::String, std::move(value), begin, pos_);
    t.isBytes = bytes;
    t.isFString = fstr;
  }

  void lexEscape(std::string &value) {
    if (pos_ >= text_.size())
      return;
    char e = peek();
    if (e == '\n' || e == '\r') {
      consumeNewline();
      return;
    }
    ++pos_;
    auto hex = [&](int digits) {
      uint32_t v = 0;
      for (int i = 0; i < digits; ++i) {
        char h = peek();
        if (!std::isxdigit(static_cast<unsigned char>(h)))
          fail(here(), "truncated \\x, \\u or \\U escape in string literal");
        v = v * 16 + static_cast<uint32_t>(
                         std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : std::tolower(h) - 'a' + 10);
        ++pos_;
      }
      return v;
    };
    switch (e) {
    case 'n': value += '\n'; return;
    case 't': value += '\t'; return;
    case 'r': value += '\r'; return;
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7': {
      uint32_t v = static_cast<uint32_t>(e - '0');
      for (int i = 0; i < 2 && peek() >= '0' && peek() <= '7'; ++i, ++pos_)
        v = v * 8 + static_cast<uint32_t>(peek() - '0');
      appendUtf8(value, v);
      return;
    }
    case 'a': value += '\a'; return;
    case 'b': value += '\b'; return;
    case 'f': value += '\f'; return;
    case 'v': value += '\v'; return;
    case 'x': appendUtf8(value, hex(2)); return;
    case 'u': appendUtf8(value, hex(4)); return;
    case 'U': {
      uint32_t cp = hex(8);
      appendUtf8(value, cp > 0x10FFFF ? 0xFFFD : cp);
      return;
    }
    case '\\':
    case '\'':
    case '"': value += e; return;
    default:
      value += '\\';
      value += e;
      return;
    }
  }

  void lexNumber() {
    size_t begin = pos_;
    auto digitsOf = [&](auto isDigit) {
      std::string digits;
      while (pos_ < text_.size()) {
        char ch = peek();
        if (ch == '_' && isDigit(peek(1))) {
          ++pos_;
          continue;
        }
        if (!isDigit(ch))
          break;
        digits += ch;
        ++pos_;
      }
      return digits;
    };
    auto isDec = [](char ch) { return ch >= '0' && ch <= '9'; };
    char c0 = peek(), c1 = static_cast<char>(std::tolower(static_cast<unsigned char>(peek(1))));
    if (c0 == '0' && (c1 == 'x' || c1 == 'o' || c1 == 'b')) {
      pos_ += 2;
      if (peek() == '_')
        ++pos_;
      unsigned base = c1 == 'x' ? 16 : c1 == 'o' ? 8 : 2;
      std::string digits = digitsOf([base](char ch) {
        if (base == 16)
          return std::isxdigit(static_cast<unsigned char>(ch)) != 0;
        return ch >= '0' && ch < static_cast<char>('0' + base);
      });
      if (digits.empty())
        fail(posAt(tokLine_, tokCol_), "invalid " +
                                           std::string(base == 16  ? "hexadecimal"
                                                       : base == 8 ? "octal"
                                                                   : "binary") +
                                           " literal");
      finishInt(begin, digits, base);
      return;
    }
    std::string intPart = digitsOf(isDec);
    bool isFloat = false;
    std::string mantissa = intPart;
    if (peek() == '.' && !(peek(1) == '.' && peek(2) == '.')) {
      isFloat = true;
      ++pos_;
      mantissa += "." + digitsOf(isDec);
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (isDec(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && isDec(peek(2))))) {
      isFloat = true;
      mantissa += 'e';
      ++pos_;
      if (peek() == '+' || peek() == '-') {
        mantissa += peek();
        ++pos_;
      }
      mantissa += digitsOf(isDec);
    }
    if (peek() == 'j' || peek() == 'J') {
      ++pos_;
      push(Tok::Imaginary, std::string(text_.substr(begin, pos_ - begin)), begin, pos_);
      return;
    }
    if (isIdentChar(static_cast<unsigned char>(peek())))
      fail(posAt(tokLine_, tokCol_), "invalid decimal literal");
    if (isFloat) {
      Token &t = push(Tok::Float, std::string(text_.substr(begin, pos_ - begin)), begin, pos_);
      t.floatValue = std::strtod(mantissa.c_str(), nullptr);
      return;
    }
    if (intPart.size() > 1 && intPart[0] == '0' && intPart.find_first_not_of('0') != std::string::npos)
      fail(posAt(tokLine_, tokCol_), "leading zeros in decimal integer literals are not permitted");
    finishInt(begin, intPart, 10);
  }

  void finishInt(size_t begin, const std::string &digits, unsigned base) {
    unsigned __int128 v = 0;
    bool tooLarge = false;
    const unsigned __int128 limit = (static_cast<unsigned __int128>(1) << 127) / base;
    for (char ch : digits) {
      unsigned d = std::isdigit(static_cast<unsigned char>(ch))
                       ? static_cast<unsigned>(ch - '0')
                       : static_cast<unsigned>(std::tolower(ch) - 'a' + 10);
      if (v >= limit)
        tooLarge = true;
      else
        v = v * base + d;
    }
    if (isIdentChar(static_cast<unsigned char>(peek())))
      fail(posAt(tokLine_, tokCol_), "invalid integer literal");
    Token &t = push(Tok::Int, std::string(text_.substr(begin, pos_ - begin)), begin, pos_);
    t.intValue = v;
    t.intTooLarge = tooLarge;
  }

  const SourceBuffer &src_;
  std::string_view text_;
  size_t pos_ = 0, lineStart_ = 0;
  uint32_t line_ = 1;
  uint32_t tokLine_ = 1, tokCol_ = 1;
  bool atLineStart_ = true;
  std::vector<size_t> indents_;
  std::vector<Bracket> brackets_;
  std::vector<Token> tokens_;
};

} // namespace

bool isKeyword(std::string_view name) {
  for (const char *k : kKeywords)
    if (name == k)
      return true;
  return false;
}

std::vector<Token> tokenize(const SourceBuffer &source) { return Lexer(source).run(); }

} // namespace trident::frontend
