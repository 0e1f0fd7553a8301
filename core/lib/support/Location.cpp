#include "trident/support/Location.h"
#include "trident/support/Diagnostic.h"

#include <mutex>
#include <set>

namespace trident {

Location Location::get(std::string_view file, uint32_t line, uint32_t col) {
  static std::mutex mutex;
  static std::set<std::string, std::less<>> files; // node-based: pointers stay valid
  std::lock_guard lock(mutex);
  auto it = files.find(file);
  if (it == files.end())
    it = files.emplace(file).first;
  Location loc;
  loc.file_ = &*it;
  loc.line_ = line;
  loc.col_ = col;
  return loc;
}

std::string Location::str() const {
  if (!known())
    return "<unknown>";
  return *file_ + ":" + std::to_string(line_) + ":" + std::to_string(col_);
}

std::string Diagnostic::str() const { return loc.str() + ": error: " + message; }

std::string Diagnostics::str() const {
  std::string s;
  for (const Diagnostic &d : list_)
    s += d.str() + "\n";
  return s;
}

} // namespace trident
