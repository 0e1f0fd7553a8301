// Keeps the verifier tests and the IR reference complete: every block-IR op of
// the op table has a valid and an invalid sample, and a heading in docs/ir.md.

#include "VerifyTestUtil.h"

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace trident;

namespace {

// Block-IR ops of the table; thread IR ops ("th.") are documented in docs/thread-ir.md.
std::vector<std::string_view> blockOpNames() {
  std::vector<std::string_view> names;
  for (unsigned i = 0; i < numOpCodes(); ++i) {
    std::string_view name = opInfo(static_cast<OpCode>(i)).name;
    if (!name.starts_with("th."))
      names.push_back(name);
  }
  return names;
}

// docs/ir.md, found from this file's path: tests/core/verify/ -> the repository root.
std::string readReference() {
  std::filesystem::path root =
      std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().parent_path();
  std::ifstream in(root / "docs" / "ir.md");
  REQUIRE_MESSAGE(in.good(), "cannot open " << (root / "docs" / "ir.md").string());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The text of every markdown heading, without '#', spaces and backquotes.
std::set<std::string> headings(const std::string &markdown) {
  std::set<std::string> out;
  std::istringstream lines(markdown);
  std::string line;
  bool inCode = false;
  while (std::getline(lines, line)) {
    if (line.starts_with("```"))
      inCode = !inCode;
    if (inCode || !line.starts_with("#"))
      continue;
    std::string text;
    for (char ch : line.substr(line.find_first_not_of('#')))
      if (ch != '`')
        text += ch;
    size_t b = text.find_first_not_of(' '), e = text.find_last_not_of(' ');
    if (b != std::string::npos)
      out.insert(text.substr(b, e - b + 1));
  }
  return out;
}

} // namespace

TEST_CASE("every block-IR op has a valid and an invalid verifier sample") {
  std::set<std::string_view> valid, invalid;
  for (const verify_test::Case &c : verify_test::registry())
    (c.message.empty() ? valid : invalid).insert(c.op);
  for (std::string_view name : blockOpNames()) {
    INFO("op: " << name);
    CHECK(valid.count(name) == 1);
    CHECK(invalid.count(name) == 1);
  }
  // Cases name real ops (a typo would silently cover nothing).
  for (const verify_test::Case &c : verify_test::registry()) {
    INFO("case op: " << c.op);
    CHECK(opCodeByName(c.op).has_value());
  }
}

TEST_CASE("docs/ir.md has a heading for every block-IR op") {
  std::set<std::string> found = headings(readReference());
  for (std::string_view name : blockOpNames()) {
    INFO("op: " << name);
    CHECK(found.count(std::string(name)) == 1);
  }
}

TEST_CASE("the heading reader sees headings outside code only") {
  std::set<std::string> h =
      headings("# Title\n### `arith.addi`\n```\n# not.a.heading\n```\ntext # no\n## tt.dot \n");
  CHECK(h == std::set<std::string>{"Title", "arith.addi", "tt.dot"});
}
