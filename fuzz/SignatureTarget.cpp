// Triton signature strings ("*fp32:16, i32, 1024"): any bytes give argument specs
// or a diagnostic. Specs that parse must be well formed: a pointer has a pointer
// type, a divisibility of 1 or 16.
#include "FuzzTargets.h"

#include "trident/frontend/Frontend.h"

namespace trident::fuzz {

void fuzzSignature(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  Diagnostics diags;
  auto sig = parseSignature(text, diags);
  if (!sig) {
    if (diags.list().empty())
      fuzzFailure("parseSignature rejected an input without a diagnostic");
    return;
  }
  for (const ArgSpec &a : *sig) {
    if (a.divisibility != 1 && a.divisibility != 16)
      fuzzFailure("a divisibility other than 1 or 16");
    if ((a.kind == ArgSpec::Kind::Pointer) != (a.type && a.type.isPtr()))
      fuzzFailure("a pointer argument without a pointer type, or the reverse");
    if (a.kind == ArgSpec::Kind::Constexpr && a.constexprValue.empty())
      fuzzFailure("a constexpr without a value");
  }
}

} // namespace trident::fuzz
