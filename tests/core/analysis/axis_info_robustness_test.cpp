// Robustness: the analysis runs on every round-trip sample (both IR levels) and on
// mutated samples that parse but are not verified (mismatched types, values used
// out of place); it must finish and give every value facts of its own rank.
#include "AxisTestUtil.h"

#include "../ir/Samples.h"

#include <algorithm>
#include <cctype>
#include <random>

using namespace trident;
using namespace trident::testing;

namespace {

bool isPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// Spots worth mutating: value names, free-standing numbers, and types.
std::vector<std::pair<size_t, size_t>> mutationSpots(const std::string &text) {
  std::vector<std::pair<size_t, size_t>> spots;
  auto word = [&](size_t i) {
    return i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_');
  };
  for (size_t i = 0; i < text.size(); ++i) {
    if (i > 0 && word(i - 1))
      continue;
    size_t end = i;
    if (text[i] == '%') {
      for (end = i + 1; end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])); ++end) {
      }
      if (end == i + 1)
        continue;
    } else if (std::isdigit(static_cast<unsigned char>(text[i]))) {
      while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
        ++end;
      if (word(end)) // 4x8 inside a block type
        continue;
    } else if (text.compare(i, 6, "block<") == 0 || text.compare(i, 4, "ptr<") == 0) {
      int depth = 0;
      for (end = i; end < text.size(); ++end) {
        depth += text[end] == '<';
        if (text[end] == '>' && --depth == 0)
          break;
      }
      if (end == text.size())
        continue;
      ++end;
    } else if (text.compare(i, 3, "i32") == 0 || text.compare(i, 3, "i64") == 0 ||
               text.compare(i, 3, "f32") == 0) {
      end = i + 3;
      if (word(end))
        continue;
    } else {
      continue;
    }
    spots.emplace_back(i, end - i);
    i = end - 1;
  }
  return spots;
}

// Analyzes `m` and checks the shape of every fact; returns the number of values seen.
unsigned analyzeAndCheck(const Module &m) {
  AxisInfoAnalysis analysis(m);
  unsigned seen = 0;
  for (Op *f : m.functions()) {
    f->walk([&](Op *op) {
      std::vector<Value *> values = op->results();
      for (unsigned r = 0; r < op->numRegions(); ++r)
        for (Value *arg : op->region(r)->arguments())
          values.push_back(arg);
      for (Value *v : values) {
        const AxisInfo *a = analysis.lookup(v);
        REQUIRE(a);
        unsigned rank = v->type().isBlock() && v->type().rank() > 0 ? v->type().rank() : 1;
        CHECK(a->rank() == rank);
        for (unsigned d = 0; d < a->rank(); ++d) {
          CHECK(isPow2(a->divisibility(d)));
          CHECK(isPow2(a->contiguity(d)));
          CHECK(isPow2(a->constancy(d)));
        }
        if (v->type().isBlock() && v->type().element().isPtr())
          CHECK(analysis.vectorWidth(v) >= 1);
        ++seen;
      }
    });
  }
  CHECK(!printAxisInfo(m).empty());
  return seen;
}

} // namespace

TEST_CASE("every round-trip sample is analyzed") {
  std::map<std::string, std::string> samples = loadRoundTripSamples();
  REQUIRE(samples.size() >= 4);
  for (const auto &[name, text] : samples) {
    CAPTURE(name);
    Diagnostics diags;
    std::optional<Module> m = parseModule(text, name, diags);
    REQUIRE(m);
    CHECK(analyzeAndCheck(*m) > 0);
  }
}

TEST_CASE("mutated samples that still parse are analyzed without failing") {
  uint64_t seed = std::random_device{}();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  static const char *types[] = {"i1",
                                "i32",
                                "i64",
                                "f32",
                                "ptr<f32>",
                                "ptr<f16>",
                                "block<4xi32>",
                                "block<16xi32>",
                                "block<4x8xi32>",
                                "block<16xptr<f16>>",
                                "block<16x1xi32>"};
  std::map<std::string, std::string> samples = loadRoundTripSamples();
  samples["kernel"] = kernelText("%0: ptr<f32>, %1: i32", "[16, 16]", R"(
    %2 = tt.get_program_id {axis = 0} : i32
    %3 = arith.constant {value = 16} : i32
    %4 = arith.muli %2, %3 : i32
    %5 = tt.make_range {end = 16, start = 0} : block<16xi32>
    %6 = tt.splat %4 : block<16xi32>
    %7 = arith.addi %6, %5 : block<16xi32>
    %8 = tt.splat %1 : block<16xi32>
    %9 = arith.cmpi %7, %8 {predicate = "slt"} : block<16xi1>
    %10 = tt.splat %0 : block<16xptr<f32>>
    %11 = tt.addptr %10, %7 : block<16xptr<f32>>
    %12 = arith.constant {value = 0} : i32
    %13 = scf.for %12, %1, %3, %11 : block<16xptr<f32>> ({
    ^(%14: i32, %15: block<16xptr<f32>>):
      %16 = tt.load %15, %9 : block<16xf32>
      %17 = tt.addptr %15, %8 : block<16xptr<f32>>
      scf.yield %17
    })
    %18 = tt.expand_dims %7 {axis = 1} : block<16x1xi32>
    %19 = tt.broadcast %18 : block<16x4xi32>
    %20 = tt.trans %19 {order = [1, 0]} : block<4x16xi32>
    %21 = tt.reshape %20 : block<64xi32>
    %22 = tt.multiple_of %21 {values = [8]} : block<64xi32>
    %23 = arith.remsi %7, %8 : block<16xi32>
)");
  unsigned parsed = 0;
  for (const auto &[name, text] : samples) {
    CAPTURE(name);
    std::vector<std::pair<size_t, size_t>> spots = mutationSpots(text);
    REQUIRE(!spots.empty());
    for (int round = 0; round < 500; ++round) {
      std::string mutated = text;
      // A few edits from the end backwards keep the earlier positions valid.
      std::vector<size_t> picks;
      for (int e = 0; e < 3; ++e)
        picks.push_back(std::uniform_int_distribution<size_t>(0, spots.size() - 1)(rng));
      std::sort(picks.rbegin(), picks.rend());
      picks.erase(std::unique(picks.begin(), picks.end()), picks.end());
      for (size_t p : picks) {
        auto [pos, len] = spots[p];
        std::string old = text.substr(pos, len), repl;
        if (old[0] == '%')
          repl = "%" + std::to_string(std::uniform_int_distribution<int>(0, 24)(rng));
        else if (std::isdigit(static_cast<unsigned char>(old[0])))
          repl = std::to_string(std::uniform_int_distribution<int>(0, 70)(rng));
        else
          repl = types[std::uniform_int_distribution<size_t>(0, std::size(types) - 1)(rng)];
        mutated.replace(pos, len, repl);
      }
      Diagnostics diags;
      std::optional<Module> m = parseModule(mutated, name, diags);
      if (!m)
        continue;
      ++parsed;
      CAPTURE(mutated);
      analyzeAndCheck(*m);
    }
  }
  CHECK(parsed > 100); // the mutations must reach the analysis
}
