#pragma once
// Diagnostics: what a user caused (bad source, bad IR text), with a location.

#include "trident/support/Location.h"

#include <string>
#include <vector>

namespace trident {

struct Diagnostic {
  Location loc;
  std::string message; // lowercase, no trailing period
  // "file:line:col: error: message"
  std::string str() const;
};

// Collects diagnostics; functions that can fail on user input take one of these.
class Diagnostics {
public:
  void error(Location loc, std::string message) { list_.push_back({loc, std::move(message)}); }
  bool empty() const { return list_.empty(); }
  const std::vector<Diagnostic> &list() const { return list_; }
  // All diagnostics, one per line.
  std::string str() const;
  void clear() { list_.clear(); }

private:
  std::vector<Diagnostic> list_;
};

} // namespace trident
