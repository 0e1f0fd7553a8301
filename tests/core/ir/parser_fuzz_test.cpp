// A small deterministic mutation fuzz of the parser: random byte edits of valid
// modules must give either a module that prints stably or exactly one located
// diagnostic; never a crash, a hang or a sanitizer report.
#include "trident/ir/Parser.h"
#include "trident/ir/Printer.h"

#include "Samples.h"

#include <doctest/doctest.h>

#include <random>

using namespace trident;

namespace {

// Bytes that the grammar gives meaning to, so edits reach deep into the parser.
constexpr std::string_view kInteresting = "%^(){}[]<>=:,.x-\"\\/ \n0123456789ifbpeltnu$_";

std::string mutate(std::string text, std::mt19937 &rng) {
  auto below = [&](size_t n) { return n ? static_cast<size_t>(rng() % n) : 0; };
  unsigned edits = 1 + static_cast<unsigned>(below(3));
  for (unsigned e = 0; e < edits; ++e) {
    size_t pos = below(text.size() + 1);
    char c = rng() % 4 == 0 ? static_cast<char>(rng() % 256) : kInteresting[below(kInteresting.size())];
    switch (rng() % 5) {
    case 0: // replace
      if (pos < text.size())
        text[pos] = c;
      break;
    case 1: // insert
      text.insert(pos, 1, c);
      break;
    case 2: // erase a run
      text.erase(pos, std::min(below(8) + 1, text.size() - pos));
      break;
    case 3: { // duplicate a run elsewhere
      size_t from = below(text.size());
      std::string run = text.substr(from, below(24) + 1);
      text.insert(pos, run);
      break;
    }
    default: // truncate
      text.resize(pos);
      break;
    }
  }
  return text;
}

} // namespace

TEST_CASE("mutated modules never crash the parser") {
  std::map<std::string, std::string> samples = testing::loadRoundTripSamples();
  REQUIRE(!samples.empty());
  std::vector<std::string> bases;
  for (const auto &[name, text] : samples)
    bases.push_back(text);

  std::mt19937 rng(20240611);
  unsigned parsed = 0, rejected = 0;
  for (unsigned i = 0; i < 2000; ++i) {
    std::string text = mutate(bases[i % bases.size()], rng);
    Diagnostics diags;
    std::optional<Module> m = parseModule(text, "fuzz.tir", diags);
    if (m) {
      ++parsed;
      CHECK(diags.empty());
      // Whatever parsed prints in canonical form, which reads back identically.
      std::string printed = print(*m);
      Diagnostics again;
      std::optional<Module> m2 = parseModule(printed, "fuzz2.tir", again);
      CAPTURE(text);
      REQUIRE(m2);
      CHECK(print(*m2) == printed);
    } else {
      ++rejected;
      REQUIRE(diags.list().size() == 1);
      const Location &loc = diags.list()[0].loc;
      CHECK(loc.file() == "fuzz.tir");
      CHECK(loc.line() >= 1);
      CHECK(loc.col() >= 1);
      CHECK(!diags.list()[0].message.empty());
    }
  }
  // Both outcomes must occur, or the fuzz is not exercising anything.
  CHECK(parsed > 0);
  CHECK(rejected > 1000);
}
