#pragma once
// The subcommands of the `trident` tool, one file each. Each takes the
// arguments after its name and returns the process exit code.

#include "trident/Bundle.h"
#include "trident/support/ByteSize.h" // formatByteSize: "1.5 GiB", "48.0 KiB", "0 B"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace trident::tool {

using Args = std::vector<std::string>;

int devicesCommand(const Args &args);
int compileCommand(const Args &args);
int runCommand(const Args &args);
int cacheCommand(const Args &args);

// A mistake in the command line itself (unknown option, missing operand): main
// prints it with a pointer to --help and exits with status 2.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// A C++ header that embeds `bytes` (the bundle written) and declares typed
// launchers for its kernel in namespace `ns` (`trident compile --emit header`).
std::string launcherHeader(const Bundle &bundle, const std::vector<uint8_t> &bytes, const std::string &ns,
                           const std::string &sourceFile);

// Reads a whole file; throws trident::Error(NotFound) when it cannot.
std::string readFile(const std::string &path);

// A small option reader: --name value, --name=value, and flags.
class Options {
public:
  explicit Options(const Args &args);
  // The value of --name (last one wins), or `fallback`.
  std::string get(const std::string &name, const std::string &fallback = "") const;
  std::vector<std::string> all(const std::string &name) const;
  // The integer value of --name, or `fallback`; throws UsageError when it is not one.
  int64_t integer(const std::string &name, int64_t fallback) const;
  bool flag(const std::string &name) const;
  const std::vector<std::string> &positional() const { return positional_; }
  // Throws UsageError for options not in `known` or `flags` (so typos are reported,
  // with the nearest known option).
  void allowOnly(const std::vector<std::string> &known, const std::vector<std::string> &flags = {});

private:
  std::vector<std::pair<std::string, std::string>> values_;
  std::vector<std::string> flags_;
  std::vector<std::string> positional_;
};

} // namespace trident::tool
