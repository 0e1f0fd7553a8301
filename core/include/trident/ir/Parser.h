#pragma once
// Reads textual IR (as the printer writes it; docs/ir-syntax.md). Malformed text gives
// diagnostics with line:column in `bufferName`, never a crash. The result is not verified:
// the parser checks syntax, names (defined before use, once) and the op table's operand,
// result and region counts; type rules are the verifier's.

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

#include <optional>
#include <string_view>

namespace trident {

// A whole module: one builtin.module op and nothing after it but comments.
std::optional<Module> parseModule(std::string_view text, std::string_view bufferName, Diagnostics &diags);

// One type ("i32", "block<128x64xf16>", "ptr<f16, 3>") and nothing after it.
std::optional<Type> parseType(std::string_view text, Diagnostics &diags,
                              std::string_view bufferName = "<type>");

} // namespace trident
