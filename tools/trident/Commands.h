#pragma once
// The subcommands of the `trident` tool, one file each. Each takes the
// arguments after its name and returns the process exit code.

#include "trident/support/ByteSize.h" // formatByteSize: "1.5 GiB", "48.0 KiB", "0 B"

#include <string>
#include <vector>

namespace trident::tool {

using Args = std::vector<std::string>;

int devicesCommand(const Args &args);
int compileCommand(const Args &args);
int runCommand(const Args &args);
int cacheCommand(const Args &args);

// Reads a whole file; throws trident::Error(NotFound) when it cannot.
std::string readFile(const std::string &path);

// A small option reader: --name value, --name=value, and flags.
class Options {
public:
  explicit Options(const Args &args);
  // The value of --name (last one wins), or `fallback`.
  std::string get(const std::string &name, const std::string &fallback = "") const;
  std::vector<std::string> all(const std::string &name) const;
  bool flag(const std::string &name) const;
  const std::vector<std::string> &positional() const { return positional_; }
  // Throws for options not in `known` (so typos are reported).
  void allowOnly(const std::vector<std::string> &known, const std::vector<std::string> &flags = {}) const;

private:
  std::vector<std::pair<std::string, std::string>> values_;
  std::vector<std::string> flags_;
  std::vector<std::string> positional_;
};

} // namespace trident::tool
