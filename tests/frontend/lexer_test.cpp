// The lexer: Python's tokens, indentation, continuation lines, literals.
#include "Lexer.h"

#include <doctest/doctest.h>

#include <memory>

using namespace trident::frontend;

namespace {

std::vector<Token> lex(std::string text) {
  static std::vector<std::unique_ptr<SourceBuffer>> keep;
  keep.push_back(std::make_unique<SourceBuffer>("t.py", std::move(text)));
  return tokenize(*keep.back());
}

std::string kinds(const std::vector<Token> &toks) {
  std::string s;
  for (const Token &t : toks) {
    switch (t.kind) {
    case Tok::Name: s += "N"; break;
    case Tok::Int: s += "I"; break;
    case Tok::Float: s += "F"; break;
    case Tok::Imaginary: s += "J"; break;
    case Tok::String: s += "S"; break;
    case Tok::Op: s += "(" + t.text + ")"; break;
    case Tok::Newline: s += ";"; break;
    case Tok::Indent: s += ">"; break;
    case Tok::Dedent: s += "<"; break;
    case Tok::End: s += "$"; break;
    }
  }
  return s;
}

std::string lexError(std::string text) {
  try {
    lex(std::move(text));
  } catch (const CompileError &e) {
    return std::to_string(e.pos.line) + ":" + std::to_string(e.pos.col) + ": " + e.message;
  }
  return "no error";
}

} // namespace

TEST_CASE("indentation gives INDENT and DEDENT, blank and comment lines vanish") {
  auto toks = lex("def f(x):\n    y = x\n\n    # note\n    if y:\n        return y\n    return 0\n");
  CHECK(kinds(toks) == "NN(()N())(:);>N(=)N;NN(:);>NN;<NI;<$");
}

TEST_CASE("brackets and backslashes join lines") {
  CHECK(kinds(lex("x = f(1,\n      2)\n")) == "N(=)N(()I(,)I());$");
  CHECK(kinds(lex("x = 1 + \\\n    2\n")) == "N(=)I(+)I;$");
  CHECK(kinds(lex("x = [\n1,\n# c\n]\n")) == "N(=)([)I(,)(]);$");
}

TEST_CASE("numbers: hex, octal, binary, underscores, floats, exponents, imaginary") {
  auto toks = lex("0x9E3779B9 0o17 0b101 1_000_000 1.5 .5 1e-3 2.5E+2 3j 7.\n");
  REQUIRE(toks.size() >= 10);
  CHECK(static_cast<uint64_t>(toks[0].intValue) == 0x9E3779B9u);
  CHECK(static_cast<uint64_t>(toks[1].intValue) == 15);
  CHECK(static_cast<uint64_t>(toks[2].intValue) == 5);
  CHECK(static_cast<uint64_t>(toks[3].intValue) == 1000000);
  CHECK(toks[4].floatValue == 1.5);
  CHECK(toks[5].floatValue == 0.5);
  CHECK(toks[6].floatValue == doctest::Approx(1e-3));
  CHECK(toks[7].floatValue == 250.0);
  CHECK(toks[8].kind == Tok::Imaginary);
  CHECK(toks[9].kind == Tok::Float);
  CHECK(toks[9].floatValue == 7.0);
  auto big = lex("340282366920938463463374607431768211456\n");
  CHECK(big[0].intTooLarge);
  CHECK(!lex("18446744073709551615\n")[0].intTooLarge);
}

TEST_CASE("strings: prefixes, escapes, triple quotes, concatenation is the parser's") {
  auto toks = lex("a = 'x\\ty'\nb = r'\\n'\nc = \"\"\"doc\nstring\"\"\"\nd = f'{x}'\ne = b'by'\n");
  CHECK(toks[2].text == "x\ty");
  CHECK(toks[6].text == "\\n");
  CHECK(toks[10].text == "doc\nstring");
  CHECK(toks[10].line == 3);
  CHECK(toks[14].isFString);
  CHECK(toks[18].isBytes);
  CHECK(lex("s = '\\x41\\u00e9'\n")[2].text == "A\xc3\xa9");
}

TEST_CASE("positions are 1-based lines and columns") {
  auto toks = lex("x = 1\n  \nif x:\n    y = x +  2\n");
  CHECK(toks[0].line == 1);
  CHECK(toks[0].col == 1);
  const Token &two = toks[toks.size() - 4];
  CHECK(two.kind == Tok::Int);
  CHECK(two.line == 4);
  CHECK(two.col == 14);
}

TEST_CASE("CRLF and CR line endings") {
  CHECK(kinds(lex("a = 1\r\nif a:\r\n    b = 2\r\n")) == "N(=)I;NN(:);>N(=)I;<$");
  CHECK(kinds(lex("a = 1\rb = 2")) == "N(=)I;N(=)I;$");
}

TEST_CASE("lexical errors name the problem and its place") {
  CHECK(lexError("x = 'abc\n") == "1:5: unterminated string literal");
  CHECK(lexError("x = \"\"\"abc\n") == "1:5: unterminated triple-quoted string literal");
  CHECK(lexError("if x:\n        y\n    z\n") == "3:5: unindent does not match any outer indentation level");
  CHECK(lexError("x = (1,\n") == "1:5: '(' was never closed");
  CHECK(lexError("x = 1)\n") == "1:6: unmatched ')'");
  CHECK(lexError("x = (1]\n") == "1:7: closing ']' does not match opening '(' at line 1");
  CHECK(lexError("x = 1 $ 2\n") == "1:7: invalid character '$' in source");
  CHECK(lexError("x = 09\n") == "1:5: leading zeros in decimal integer literals are not permitted");
  CHECK(lexError("x = 1 ! 2\n") == "1:7: invalid syntax: '!' (use 'not' or '!=')");
  CHECK(lexError("x = 0x\n") == "1:5: invalid hexadecimal literal");
}
