// Block IR and thread IR as text: the parser must turn any bytes into a module or a
// diagnostic. A module that parses must print and parse back to the same text; one
// that verifies must stay valid through the default block pipeline (block IR) or pass
// the thread-IR verifier or fail it with a diagnostic (thread IR).
#include "FuzzTargets.h"

#include "trident/ir/Parser.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"
#include "trident/passes/PassManager.h"
#include "trident/passes/Pipeline.h"
#include "trident/simt/VerifyThreadIR.h"

#include <optional>
#include <string>

namespace trident::fuzz {

namespace {

std::optional<Module> parseInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  Diagnostics diags;
  std::optional<Module> m = parseModule(text, "fuzz.tir", diags);
  if (!m && diags.list().empty())
    fuzzFailure("the parser rejected an input without a diagnostic");
  return m;
}

// print(parse(print(m))) == print(m).
void checkRoundTrip(const Module &m) {
  std::string printed = print(m);
  Diagnostics diags;
  std::optional<Module> again = parseModule(printed, "printed.tir", diags);
  if (!again)
    fuzzFailure(("printed IR does not parse back: " + diags.str()));
  if (print(*again) != printed)
    fuzzFailure("printed IR parses back to a different module");
}

bool verifies(const Module &m) {
  Diagnostics diags;
  bool ok = verify(m, diags);
  if (!ok && diags.list().empty())
    fuzzFailure("the verifier rejected a module without a diagnostic");
  return ok;
}

} // namespace

void fuzzBlockIR(const uint8_t *data, size_t size) {
  std::optional<Module> m = parseInput(data, size);
  if (!m)
    return;
  checkRoundTrip(*m);
  if (!verifies(*m))
    return;
  PassManager pm;
  addDefaultPipeline(pm);
  Diagnostics diags;
  if (!pm.run(*m, diags))
    for (const Diagnostic &d : diags.list())
      if (d.message.find("produced invalid IR") != std::string::npos)
        fuzzFailure(diags.str());
}

void fuzzThreadIR(const uint8_t *data, size_t size) {
  std::optional<Module> m = parseInput(data, size);
  if (!m)
    return;
  checkRoundTrip(*m);
  if (!verifies(*m))
    return;
  Diagnostics diags;
  if (!simt::verifyThreadIR(*m, diags) && diags.list().empty())
    fuzzFailure("the thread-IR verifier rejected a module without a diagnostic");
}

} // namespace trident::fuzz
