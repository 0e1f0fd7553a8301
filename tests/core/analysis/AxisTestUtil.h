#pragma once
// Helpers for the axis-info tests: parse a kernel from IR text, analyze it, and reach
// its values by the numbers the printer gives them.

#include "trident/analysis/AxisInfo.h"
#include "trident/ir/Parser.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace trident::testing {

// Values of `func` in the printer's order: arguments, then each op's results, then the
// arguments and ops of its regions.
inline void collectValues(Block *block, std::vector<Value *> &out) {
  for (Op *op : *block) {
    for (Value *r : op->results())
      out.push_back(r);
    for (unsigned i = 0; i < op->numRegions(); ++i) {
      for (Value *a : op->region(i)->arguments())
        out.push_back(a);
      collectValues(op->region(i), out);
    }
  }
}

struct Analyzed {
  Module module;
  std::vector<Value *> values; // of the first function, numbered as printed
  std::unique_ptr<AxisInfoAnalysis> analysis;

  Value *value(unsigned n) const {
    REQUIRE(n < values.size());
    return values[n];
  }
  const AxisInfo &operator[](unsigned n) const { return analysis->get(value(n)); }
  std::string str(unsigned n) const { return (*this)[n].str(); }
  unsigned vectorWidth(unsigned ptr, int mask = -1, unsigned maxBytes = 16, int dim = -1) const {
    return analysis->vectorWidth(value(ptr), mask < 0 ? nullptr : value(mask), maxBytes, dim);
  }
};

inline Analyzed analyzeText(const std::string &text) {
  Diagnostics diags;
  std::optional<Module> m = parseModule(text, "axis.tir", diags);
  INFO(diags.str());
  REQUIRE(m);
  REQUIRE(diags.empty());
  Analyzed a{std::move(*m), {}, nullptr};
  std::vector<Op *> funcs = a.module.functions();
  REQUIRE(!funcs.empty());
  Block *body = funcs.front()->region();
  for (Value *arg : body->arguments())
    a.values.push_back(arg);
  collectValues(body, a.values);
  a.analysis = std::make_unique<AxisInfoAnalysis>(a.module);
  return a;
}

// A module with one kernel "k": `params` like "%0: ptr<f32>, %1: i32", `divisibility`
// like "[16, 1]" (empty: no attribute), `body` the ops before tt.return.
inline std::string kernelText(std::string_view params, std::string_view divisibility, std::string_view body) {
  std::string s = "builtin.module ({\n  tt.func {";
  if (!divisibility.empty())
    s += "arg_divisibility = " + std::string(divisibility) + ", ";
  s += "sym_name = \"k\"} ({\n  ^(" + std::string(params) + "):\n" + std::string(body) +
       "    tt.return\n  })\n})\n";
  return s;
}

inline Analyzed analyzeKernel(std::string_view params, std::string_view divisibility, std::string_view body) {
  return analyzeText(kernelText(params, divisibility, body));
}

constexpr int64_t kMax = AxisInfo::kMaxDivisibility;

} // namespace trident::testing
