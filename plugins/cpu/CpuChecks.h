#pragma once
// Bounds checks, the CPU plugin's debug mode (docs/cpu.md). A kernel compiled with the
// compile option `debug` (`@trident.jit(debug=True)`, LaunchOptions::debug) or while
// TRIDENT_CPU_CHECK=1 is set checks every global access (th.load, th.store,
// th.atomic_rmw, th.atomic_cas) against the buffers of its launch's pointer arguments
// before making it; a violation ends the launch with an error naming the kernel, the
// access's source position, the program (x, y, z), the address and the nearest buffer.
// Lanes whose predicate is false are not checked: they access nothing.
//
// How: after the thread loops (ThreadLoops.h), `insertBoundsChecks` puts before each
// access a th.printf under the access's predicate whose format starts with
// kCheckMarker and whose one argument is the address; CpuHooks::printf turns it into a
// call of kCheckSymbol (`checkAccess` below) and a return from the program where the
// call says no. A launch of a checked kernel holds a LaunchChecks for its duration.

#include "trident/ir/IR.h"
#include "trident/plugin.h"
#include "trident/sdk/HostDevices.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace trident::cpu {

// The modes a binary records (CpuBinary.h): unchecked, checked because the kernel was
// compiled with `debug`, checked because TRIDENT_CPU_CHECK=1 was set.
enum class CheckMode { Off, Debug, Environment };
const char *checkModeName(CheckMode mode); // "off", "debug", "env"
bool parseCheckMode(std::string_view name, CheckMode &out);
// True while TRIDENT_CPU_CHECK is set to something other than "" or "0".
bool checksFromEnvironment();
// The mode a kernel compiled now gets.
CheckMode checkModeFor(bool debugOption);
// Empty when a binary of `mode` may be loaded in this process; else why not. Without
// TRIDENT_CPU_CHECK a binary checked only because of it is refused (the default mode
// stays unchecked, even from a cache filled in a checked run), and with it an unchecked
// one: either way the runtime compiles the kernel again.
std::string checkModeRefusal(CheckMode mode);

// ---- compiling ---------------------------------------------------------------

inline constexpr std::string_view kCheckMarker = "\x01trident-cpu-check\x01";
// int32_t (uint64_t address, uint32_t bytes, const char *op, const char *where,
//          uint32_t x, uint32_t y, uint32_t z): nonzero when the access may go ahead.
inline constexpr const char *kCheckSymbol = "trident_cpu_check";

// Puts a check before every global access of the thread-IR function `func`.
void insertBoundsChecks(Op *func);

// A check's format, read back by CpuHooks: the op ("load", "store", "atomic_rmw",
// "atomic_cas"), the bytes it accesses and its source position ("" when unknown).
struct CheckSite {
  std::string op, where;
  uint32_t bytes = 0;
};
bool parseCheckFormat(std::string_view format, CheckSite &out);

// ---- launching -----------------------------------------------------------------

// The buffers one launch's kernel may access: the allocation of `device` that holds
// each pointer argument.
class LaunchChecks {
public:
  LaunchChecks(sdk::HostDevice &device, const trident_launch_params &params);
  // Makes `checkAccess` on this thread use `checks` until the scope ends.
  class Scope {
  public:
    explicit Scope(LaunchChecks *checks);
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;
  };

  bool failed() const { return failed_.load(std::memory_order_relaxed); }
  // The first violation's message (empty when none).
  std::string error();

  // True when [address, address + bytes) lies in one buffer; otherwise records the
  // violation (the first of the launch) and returns false, as every later call does.
  bool check(uint64_t address, uint32_t bytes, const char *op, const char *where, const uint32_t pid[3]);

private:
  struct Buffer {
    uint64_t base = 0, bytes = 0;
    std::vector<unsigned> arguments;
  };
  std::string describe(uint64_t address, uint32_t bytes) const;
  std::string name(const Buffer &b) const;

  std::string device_;
  std::vector<Buffer> buffers_;                // by base
  std::vector<std::pair<unsigned, uint64_t>> strays_; // pointer arguments in no allocation
  std::atomic<bool> failed_{false};
  std::mutex mutex_;
  std::string error_;
};

// What kCheckSymbol resolves to; checks against the LaunchChecks of this thread's scope.
extern "C" int32_t cpuCheckAccess(uint64_t address, uint32_t bytes, const char *op, const char *where, uint32_t x,
                                  uint32_t y, uint32_t z) noexcept;

} // namespace trident::cpu
