// The CPU plugin's bounds checks (CpuChecks.h): the thread-IR instrumentation, the
// check's format, and the launch-time buffers and reports.
#include "CpuChecks.h"

#include "trident/ir/Builder.h"
#include "trident/sdk/Status.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>

namespace trident::cpu {

// ---- modes ---------------------------------------------------------------------

const char *checkModeName(CheckMode mode) {
  switch (mode) {
  case CheckMode::Off: return "off";
  case CheckMode::Debug: return "debug";
  case CheckMode::Environment: return "env";
  }
  return "off";
}

bool parseCheckMode(std::string_view name, CheckMode &out) {
  for (CheckMode m : {CheckMode::Off, CheckMode::Debug, CheckMode::Environment})
    if (name == checkModeName(m)) {
      out = m;
      return true;
    }
  return false;
}

bool checksFromEnvironment() {
  const char *v = std::getenv("TRIDENT_CPU_CHECK");
  return v && *v && std::strcmp(v, "0") != 0;
}

CheckMode checkModeFor(bool debugOption) {
  if (debugOption)
    return CheckMode::Debug;
  return checksFromEnvironment() ? CheckMode::Environment : CheckMode::Off;
}

std::string checkModeRefusal(CheckMode mode) {
  bool wanted = checksFromEnvironment();
  if (wanted && mode == CheckMode::Off)
    return "the binary was compiled without bounds checks, which TRIDENT_CPU_CHECK asks for; compile it again";
  if (!wanted && mode == CheckMode::Environment)
    return "the binary was compiled with the bounds checks of TRIDENT_CPU_CHECK, which is not set now; compile it "
           "again";
  return {};
}

// ---- compiling -----------------------------------------------------------------

namespace {

unsigned bytesOf(Type t) {
  unsigned element = std::max(1u, t.element().bitWidth() / 8); // i1 is a byte in memory
  return element * unsigned(t.isVector() ? t.numElements() : 1);
}

} // namespace

void insertBoundsChecks(Op *func) {
  std::vector<Op *> accesses;
  func->walk([&](Op *op) {
    if (op->is(OpCode::ThLoad) || op->is(OpCode::ThStore) || op->is(OpCode::ThAtomicRMW) ||
        op->is(OpCode::ThAtomicCAS))
      accesses.push_back(op);
  });
  for (Op *op : accesses) {
    const char *name = "load";
    unsigned predicate = 1;
    Type accessed;
    switch (op->code()) {
    case OpCode::ThLoad: accessed = op->result()->type(); break;
    case OpCode::ThStore:
      name = "store";
      predicate = 2;
      accessed = op->operand(1)->type();
      break;
    case OpCode::ThAtomicRMW:
      name = "atomic_rmw";
      predicate = 2;
      accessed = op->result()->type();
      break;
    default:
      name = "atomic_cas";
      predicate = 3;
      accessed = op->result()->type();
      break;
    }
    Builder b;
    b.setInsertionPoint(op);
    b.setLoc(op->loc());
    Value *pred = op->numOperands() > predicate ? op->operand(predicate) : b.constBool(true);
    Value *address = b.cast(OpCode::PtrToInt, op->operand(0), Type::i64());
    std::string where = op->loc().known() ? op->loc().str() : std::string();
    std::string format =
        std::string(kCheckMarker) + name + "\n" + std::to_string(bytesOf(accessed)) + "\n" + where;
    Value *operands[] = {pred, address};
    b.create(OpCode::ThPrintf, operands, std::span<const Type>{}, {{"format", Attribute::string(format)}});
  }
}

bool parseCheckFormat(std::string_view format, CheckSite &out) {
  if (!format.starts_with(kCheckMarker))
    return false;
  format.remove_prefix(kCheckMarker.size());
  size_t a = format.find('\n'), b = a == std::string_view::npos ? a : format.find('\n', a + 1);
  if (b == std::string_view::npos)
    return false;
  out.op = std::string(format.substr(0, a));
  out.bytes = uint32_t(std::strtoul(std::string(format.substr(a + 1, b - a - 1)).c_str(), nullptr, 10));
  out.where = std::string(format.substr(b + 1));
  return true;
}

// ---- launching -----------------------------------------------------------------

namespace {
thread_local LaunchChecks *currentChecks = nullptr;

bool inside(uint64_t base, uint64_t size, uint64_t address, uint64_t bytes) {
  return address >= base && size >= bytes && address - base <= size - bytes;
}
} // namespace

LaunchChecks::LaunchChecks(sdk::HostDevice &device, const trident_launch_params &params) : device_(device.name) {
  std::map<uint64_t, Buffer> byBase;
  std::lock_guard lock(device.mutex);
  for (uint32_t i = 0; i < params.num_args; ++i) {
    if (params.args[i].type != TRIDENT_ARG_POINTER)
      continue;
    uint64_t p = params.args[i].bits;
    auto it = device.allocations.upper_bound(p);
    if (it != device.allocations.begin() && p - std::prev(it)->first < std::prev(it)->second.bytes) {
      --it;
      Buffer &b = byBase[it->first];
      b.base = it->first;
      b.bytes = it->second.bytes;
      b.arguments.push_back(i);
    } else {
      strays_.emplace_back(i, p);
    }
  }
  for (auto &[base, b] : byBase)
    buffers_.push_back(std::move(b));
}

LaunchChecks::Scope::Scope(LaunchChecks *checks) { currentChecks = checks; }
LaunchChecks::Scope::~Scope() { currentChecks = nullptr; }

std::string LaunchChecks::error() {
  std::lock_guard lock(mutex_);
  return error_.empty() && failed() ? "an out-of-bounds access (out of host memory for its message)" : error_;
}

bool LaunchChecks::check(uint64_t address, uint32_t bytes, const char *op, const char *where, const uint32_t pid[3]) {
  if (failed())
    return false;
  for (const Buffer &b : buffers_)
    if (inside(b.base, b.bytes, address, bytes))
      return true;
  if (failed_.exchange(true)) // another program's violation came first
    return false;
  std::string message = (*where ? std::string(where) + ": " : std::string()) + "error: out-of-bounds " + op + ": " +
                        describe(address, bytes) + " in program (" + std::to_string(pid[0]) + ", " +
                        std::to_string(pid[1]) + ", " + std::to_string(pid[2]) + ")";
  std::lock_guard lock(mutex_);
  error_ = std::move(message);
  return false;
}

std::string LaunchChecks::name(const Buffer &b) const {
  std::string args;
  for (size_t i = 0; i < b.arguments.size(); ++i)
    args += (i ? i + 1 == b.arguments.size() ? " and " : ", " : "") + std::to_string(b.arguments[i]);
  return "the buffer of argument" + std::string(b.arguments.size() > 1 ? "s " : " ") + args + " (the " +
         std::to_string(b.bytes) + "-byte allocation at " + sdk::hex(b.base) + " of " + device_ + ")";
}

// As the interpreter says it (core/lib/interp/InterpMemory.cpp): past the end of the
// buffer the access starts in or below, or before the start of the one above.
std::string LaunchChecks::describe(uint64_t address, uint32_t bytes) const {
  const std::string at = "address " + sdk::hex(address);
  if (buffers_.empty()) {
    std::string why = at + " is in no buffer: no pointer argument of the launch is in an allocation of " + device_;
    for (const auto &[arg, p] : strays_)
      why += "; argument " + std::to_string(arg) + " is " + sdk::hex(p);
    return why;
  }
  auto above = std::upper_bound(buffers_.begin(), buffers_.end(), address,
                                [](uint64_t a, const Buffer &b) { return a < b.base; });
  const Buffer *below = above != buffers_.begin() ? &*std::prev(above) : nullptr;
  uint64_t end = below ? below->base + below->bytes : 0;
  if (below && address < end)
    return "the " + std::to_string(bytes) + "-byte access at " + at + " runs " + std::to_string(address + bytes - end) +
           " bytes past the end of " + name(*below);
  uint64_t distBelow = below ? address - end : UINT64_MAX;
  uint64_t distAbove = above != buffers_.end() ? above->base - address : UINT64_MAX;
  if (distBelow <= distAbove)
    return at + " is " + std::to_string(address + bytes - end) + " bytes past the end of " + name(*below);
  return at + " is " + std::to_string(distAbove) + " bytes before the start of " + name(*above);
}

extern "C" int32_t cpuCheckAccess(uint64_t address, uint32_t bytes, const char *op, const char *where, uint32_t x,
                                  uint32_t y, uint32_t z) noexcept {
  LaunchChecks *checks = currentChecks;
  if (!checks) // a checked kernel outside a launch: cannot happen, so let it be
    return 1;
  const uint32_t pid[3] = {x, y, z};
  try {
    return checks->check(address, bytes, op, where, pid) ? 1 : 0;
  } catch (...) { // out of memory for the message: stop the program all the same
    return 0;
  }
}

} // namespace trident::cpu
