#pragma once
// --verify-diagnostics: the input text names the errors it expects, next to the
// line they belong to, and the run passes when exactly those errors come out.
//
//   %1 = arith.addi %0, %x : i32   // expected-error {{operand types must match}}
//   // expected-error@+1 {{unknown op 'arith.nope'}}
//   %2 = arith.nope %0 : i32
//
// `@+N` / `@-N` move the expected line relative to the comment's line. The text
// between the braces must occur in the message of an error on that line. Ops carry
// the line only when the text gives it (`loc("f.tir":8:5)`). The pass manager's
// "pass 'x' failed" that follows a pass's own error is not a diagnostic of its own.

#include "trident/support/Diagnostic.h"

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace trident::opt {

struct ExpectedDiagnostic {
  unsigned line;        // 1-based line the error must be reported on
  unsigned commentLine; // where the annotation is, for messages about it
  std::string text;     // must occur in the message
};

// The annotations in `text`; malformed ones are reported in `problems` as
// "<line>: error: <message>".
std::vector<ExpectedDiagnostic> parseExpectedDiagnostics(std::string_view text,
                                                         std::vector<std::string> &problems);

// Matches produced against expected diagnostics; reports every mismatch to `err`
// (prefixed with `bufferName`) and returns true when there is none.
bool checkDiagnostics(const std::vector<ExpectedDiagnostic> &expected, const Diagnostics &produced,
                      std::string_view bufferName, std::ostream &err);

} // namespace trident::opt
