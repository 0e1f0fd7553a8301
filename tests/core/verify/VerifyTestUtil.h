#pragma once
// Shared by the verifier tests: parse textual IR, verify it, and compare the
// verifier's messages; a registry of per-op cases so that one test can check
// that every op of the table has a valid and an invalid sample.

#include "trident/ir/Parser.h"
#include "trident/ir/Verifier.h"

#include <doctest/doctest.h>

#include <iterator>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace verify_test {

// Parameters of the kernel that `kernel` wraps a body in; bodies use them freely.
inline constexpr std::string_view kParams =
    "%p: ptr<f32>, %pi: ptr<i32>, %n: i32, %l: i64, %f: f32, %h: f16, %c: i1, "
    "%x: block<4xf32>, %y: block<4xf32>, %i: block<4xi32>, %j: block<4xi64>, %m: block<4xi1>, "
    "%pb: block<4xptr<f32>>, %pib: block<4xptr<i32>>, "
    "%a: block<16x8xf16>, %b: block<8x32xf16>, %acc: block<16x32xf32>, %x2: block<4x8xf32>";

// A module with one kernel "k" whose body is `body` followed by tt.return;
// text that already is a module is returned unchanged.
inline std::string kernel(std::string_view body) {
  if (body.starts_with("builtin.module"))
    return std::string(body);
  return "builtin.module ({\n  tt.func {sym_name = \"k\"} ({\n  ^(" + std::string(kParams) + "):\n" +
         std::string(body) + "\n    tt.return\n  })\n})\n";
}

// Parses `text`, which must parse.
inline trident::Module parse(std::string_view text) {
  trident::Diagnostics diags;
  std::optional<trident::Module> m = trident::parseModule(text, "test.ir", diags);
  INFO("parse errors:\n" << diags.str() << "text:\n" << text);
  REQUIRE(m.has_value());
  return std::move(*m);
}

// The verifier's messages (without locations), one per line; empty when valid.
// Also checks that verify() returns false exactly when there are messages.
inline std::string errorsOf(const trident::Op *op) {
  trident::Diagnostics diags;
  bool ok = trident::verify(op, diags);
  std::string out;
  for (const trident::Diagnostic &d : diags.list())
    out += (out.empty() ? "" : "\n") + d.message;
  CHECK(ok == out.empty());
  return out;
}

inline std::string errorsOf(const trident::Module &m) { return errorsOf(m.op()); }

// The messages of verifying `body` wrapped by `kernel`.
inline std::string errors(std::string_view body) { return errorsOf(parse(kernel(body))); }

// ---- per-op case registry ----
struct Case {
  std::string_view op;      // the op the case is about
  std::string_view body;    // a kernel body, or a whole module
  std::string_view message; // empty for valid cases; otherwise all expected messages, one per line
};

inline std::vector<Case> &registry() {
  static std::vector<Case> cases;
  return cases;
}

struct Register {
  template <class Cases> explicit Register(const Cases &cases) {
    registry().insert(registry().end(), std::begin(cases), std::end(cases));
  }
};

// Runs every case of `cases` (an array or vector); a valid case must also contain the op it names.
template <class Cases> void runCases(const Cases &cases) {
  for (const Case &c : cases) {
    INFO("op: " << c.op << "\nbody:\n" << c.body);
    trident::Module m = parse(kernel(c.body));
    CHECK(errorsOf(m) == c.message);
    if (c.message.empty()) {
      bool found = false;
      m.op()->walk([&](trident::Op *op) { found = found || op->name() == c.op; });
      CHECK(found);
    }
  }
}

} // namespace verify_test
