#pragma once
// Reads textual IR (as the printer writes it). Malformed text gives diagnostics
// with line:column in `bufferName`, never a crash. The result is not verified.

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

#include <optional>
#include <string_view>

namespace trident {

std::optional<Module> parseModule(std::string_view text, std::string_view bufferName,
                                  Diagnostics &diags);

} // namespace trident
