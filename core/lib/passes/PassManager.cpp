#include "trident/passes/PassManager.h"

#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"

#include <cstdio>

namespace trident {

void PassManager::add(std::string name, PassFunction pass) {
  passes_.push_back({std::move(name), std::move(pass)});
}

std::vector<std::string> PassManager::passNames() const {
  std::vector<std::string> names;
  for (const Entry &e : passes_)
    names.push_back(e.name);
  return names;
}

bool PassManager::run(Module &m, Diagnostics &diags) {
  timings_.clear();
  for (const Entry &pass : passes_) {
    auto start = std::chrono::steady_clock::now();
    bool ok = pass.run(m, diags);
    if (options_.timePasses)
      timings_.emplace_back(pass.name, std::chrono::steady_clock::now() - start);
    if (!ok) {
      diags.error(Location(), "pass '" + pass.name + "' failed");
      return false;
    }
    if (options_.printAfterEach) {
      *options_.printAfterEach << "// ----- IR after " << pass.name << " ----- //\n";
      PrintOptions printOptions;
      printOptions.locations = options_.printLocations;
      print(*options_.printAfterEach, m, printOptions);
    }
    if (options_.verifyEach) {
      Diagnostics problems;
      if (!verify(m, problems)) {
        // The pass broke the IR: that is a compiler bug, named first, then the details.
        diags.error(Location(), "pass '" + pass.name + "' produced invalid IR");
        for (const Diagnostic &d : problems.list())
          diags.error(d.loc, d.message);
        return false;
      }
    }
    if (options_.afterEach)
      options_.afterEach(pass.name, m);
  }
  return true;
}

void PassManager::printTimings(std::ostream &os) const {
  using Ms = std::chrono::duration<double, std::milli>;
  double total = 0;
  for (const auto &t : timings_)
    total += Ms(t.second).count();
  char line[256];
  os << "===--- pass timings ---===\n";
  std::snprintf(line, sizeof line, "%12s  %7s  %s\n", "wall (ms)", "share", "pass");
  os << line;
  for (const auto &[name, time] : timings_) {
    double ms = Ms(time).count();
    std::snprintf(line, sizeof line, "%12.3f  %6.1f%%  %s\n", ms, total > 0 ? 100.0 * ms / total : 0.0,
                  name.c_str());
    os << line;
  }
  std::snprintf(line, sizeof line, "%12.3f  %6.1f%%  %s\n", total, 100.0, "total");
  os << line;
}

} // namespace trident
