// Triton signature strings ("*fp32:16, i32, 1024", "tensordesc<fp16[64, 64]>"): any
// bytes give argument specs or a diagnostic. Specs that parse must be well formed: a
// pointer or tensor descriptor (ptr<dtype>, its base) has a pointer type and nothing else
// has, a divisibility is 1 or 16, a tensor descriptor has 1 to 5 positive block
// dimensions, a constexpr has a value.
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
    bool pointerKind = a.kind == ArgSpec::Kind::Pointer || a.kind == ArgSpec::Kind::TensorDesc;
    if (pointerKind != (a.type && a.type.isPtr()))
      fuzzFailure("a pointer argument without a pointer type, or the reverse");
    if (a.kind == ArgSpec::Kind::TensorDesc) {
      if (a.blockShape.empty() || a.blockShape.size() > 5)
        fuzzFailure("a tensor descriptor without 1 to 5 block dimensions");
      for (int64_t d : a.blockShape)
        if (d <= 0)
          fuzzFailure("a tensor descriptor's block dimension is not positive");
    } else if (!a.blockShape.empty()) {
      fuzzFailure("a block shape on an argument that is not a tensor descriptor");
    }
    if (a.kind == ArgSpec::Kind::Constexpr && a.constexprValue.empty())
      fuzzFailure("a constexpr without a value");
  }
}

} // namespace trident::fuzz
