#include "ExpectedDiagnostics.h"

#include <cstdlib>

namespace trident::opt {

std::vector<ExpectedDiagnostic> parseExpectedDiagnostics(std::string_view text,
                                                         std::vector<std::string> &problems) {
  static constexpr std::string_view kMarker = "expected-error";
  std::vector<ExpectedDiagnostic> out;
  unsigned lineNo = 0;
  size_t lineStart = 0;
  while (lineStart <= text.size()) {
    ++lineNo;
    size_t lineEnd = text.find('\n', lineStart);
    if (lineEnd == std::string_view::npos)
      lineEnd = text.size();
    std::string_view line = text.substr(lineStart, lineEnd - lineStart);
    lineStart = lineEnd + 1;
    size_t comment = line.find("//");
    size_t at = comment == std::string_view::npos ? comment : line.find(kMarker, comment);
    if (at == std::string_view::npos)
      continue;
    std::string_view rest = line.substr(at + kMarker.size());
    // Prose that mentions the marker is no annotation: one has '@' or '{{' next.
    size_t next = rest.find_first_not_of(' ');
    if (next == std::string_view::npos || (rest[next] != '@' && rest.substr(next, 2) != "{{"))
      continue;
    long offset = 0;
    if (!rest.empty() && rest[0] == '@') {
      std::string number(rest.substr(1, rest.find_first_of(" {") - 1));
      char *end = nullptr;
      offset = std::strtol(number.c_str(), &end, 10);
      if (number.empty() || (number[0] != '+' && number[0] != '-') || *end != '\0') {
        problems.push_back(std::to_string(lineNo) +
                           ": error: expected '@+N' or '@-N' after 'expected-error'");
        continue;
      }
    }
    size_t open = rest.find("{{"), close = rest.rfind("}}");
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
      problems.push_back(std::to_string(lineNo) + ": error: expected '{{message}}' after 'expected-error'");
      continue;
    }
    long target = static_cast<long>(lineNo) + offset;
    if (target < 1) {
      problems.push_back(std::to_string(lineNo) + ": error: 'expected-error' points before the first line");
      continue;
    }
    out.push_back(
        {static_cast<unsigned>(target), lineNo, std::string(rest.substr(open + 2, close - open - 2))});
  }
  return out;
}

bool checkDiagnostics(const std::vector<ExpectedDiagnostic> &expected, const Diagnostics &produced,
                      std::string_view bufferName, std::ostream &err) {
  std::vector<bool> used(produced.list().size(), false);
  bool ok = true;
  for (const ExpectedDiagnostic &e : expected) {
    bool found = false;
    for (size_t i = 0; i < produced.list().size() && !found; ++i) {
      const Diagnostic &d = produced.list()[i];
      if (!used[i] && d.loc.line() == e.line && d.message.find(e.text) != std::string::npos)
        used[i] = found = true;
    }
    if (!found) {
      err << bufferName << ":" << e.commentLine << ": error: expected error on line " << e.line
          << " was not produced: " << e.text << "\n";
      ok = false;
    }
  }
  for (size_t i = 0; i < produced.list().size(); ++i) {
    const Diagnostic &d = produced.list()[i];
    // The pass manager's "pass 'x' failed" after a pass's own error says nothing more.
    bool summary = d.loc.line() == 0 && d.message.rfind("pass '", 0) == 0 && d.message.ends_with("' failed");
    if (!used[i] && !(summary && i > 0)) {
      err << d.str() << " (unexpected)\n";
      ok = false;
    }
  }
  return ok;
}

} // namespace trident::opt
