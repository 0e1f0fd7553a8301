#include "Reducer.h"

#include "Compare.h"
#include "IsolatedRuns.h"

#include "trident/Trident.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"
#include "trident/passes/DCE.h"

#include <chrono>
#include <csignal>
#include <cstring>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace trident::e2e {

namespace {

// A crash is one signal: a candidate that dies of another (or hangs: SIGALRM) fails
// differently. Crash + SIGSEGV and Crash + SIGABRT are different outcomes.
enum class Outcome { Pass, Wrong, RunError, Crash, Hang, NotComparable };
struct Result {
  Outcome outcome = Outcome::NotComparable;
  int signal = 0;
  bool operator==(const Result &) const = default;
};

std::string outcomeName(Result r) {
  switch (r.outcome) {
  case Outcome::Wrong: return "wrong results";
  case Outcome::RunError: return "run error";
  case Outcome::Crash: return std::string("crash (") + strsignal(r.signal) + ")";
  case Outcome::Hang: return "hang";
  default: return "pass";
  }
}

// Runs `k` on the device in a child process and classifies what happened.
Result tryKernel(const RandomKernel &k, const std::string &device) {
  Diagnostics diags;
  if (!verify(k.module, diags))
    return {};
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    restoreDefaultSignals();
    // A reduction of a crash crashes hundreds of children: no core files (a driver's
    // process is hundreds of MB).
    struct rlimit noCore = {0, 0};
    setrlimit(RLIMIT_CORE, &noCore);
    alarm(120);
    Runtime runtime(e2eRuntimeOptions());
    std::unique_ptr<DeviceRunner> runner;
    if (device.rfind("compile:", 0) == 0) {
      runner = makeCompileRunner(runtime, device.substr(8));
    } else if (device.rfind("sim:", 0) == 0) {
      runner = makeSimulatorRunner(device.substr(4));
      if (!runner)
        _exit(20);
    } else {
      DeviceSelection selection = selectDevices(runtime, device);
      if (selection.runners.empty())
        _exit(20);
      runner = std::move(selection.runners[0]);
    }
    std::string ir = print(k.module, PrintOptions{.locations = false});
    RunResult reference = makeInterpreterRunner()->run(k, ir);
    if (!reference.ok)
      _exit(12);
    RunResult run = runner->run(k, ir);
    if (!run.ok)
      _exit(11);
    if (run.compiledOnly)
      _exit(0);
    for (size_t i = 0; i < k.args.size(); ++i)
      if (k.args[i].kind == ArgSpec::Kind::Buffer &&
          compareBuffer(k.args[i], reference.buffers[i], run.buffers[i]).mismatches)
        _exit(10);
    _exit(0);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  if (WIFSIGNALED(status))
    return WTERMSIG(status) == SIGALRM ? Result{Outcome::Hang} : Result{Outcome::Crash, WTERMSIG(status)};
  switch (WEXITSTATUS(status)) {
  case 0: return {Outcome::Pass};
  case 10: return {Outcome::Wrong};
  case 11: return {Outcome::RunError};
  default: return {};
  }
}

bool isSideEffect(const Op *op) {
  return op->is(OpCode::Store) ||
         ((op->is(OpCode::AtomicRMW) || op->is(OpCode::AtomicCAS)) && !op->result()->hasUses());
}

size_t countOps(const Module &m) {
  size_t n = 0;
  m.op()->walk([&](Op *) { ++n; });
  return n;
}

RandomKernel withModule(const RandomKernel &k, Module m) {
  RandomKernel c;
  c.seed = k.seed;
  c.module = std::move(m);
  c.name = k.name;
  c.args = k.args;
  c.grid = k.grid;
  c.features = k.features;
  return c;
}

// The ops of `m` in walk order, as indices that survive a clone.
std::vector<Op *> opsOf(const Module &m) {
  std::vector<Op *> ops;
  m.op()->walk([&](Op *op) { ops.push_back(op); });
  return ops;
}

} // namespace

std::optional<Reduction> reduceFailure(uint64_t seed, const GeneratorOptions &options, const std::string &device,
                                       double seconds) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point deadline =
      seconds > 0 ? Clock::now() + std::chrono::milliseconds(int64_t(seconds * 1000)) : Clock::time_point::max();
  RandomKernel current = generateRandomKernel(seed, options);
  Result failure = tryKernel(current, device);
  if (failure.outcome == Outcome::Pass || failure.outcome == Outcome::NotComparable)
    return std::nullopt;
  Reduction r;
  r.failure = outcomeName(failure);
  r.opsBefore = countOps(current.module);
  ++r.runs;

  // A candidate: a clone of the current module changed by `edit` (given the clone's ops
  // in walk order); kept when it fails the same way. False once the time is up.
  bool timeUp = false;
  auto attempt = [&](const std::function<bool(const std::vector<Op *> &)> &edit) {
    if (timeUp || Clock::now() >= deadline) {
      timeUp = true;
      return false;
    }
    Module m = current.module.clone();
    if (!edit(opsOf(m)))
      return false;
    Diagnostics diags;
    eliminateDeadCode(m, diags);
    RandomKernel candidate = withModule(current, std::move(m));
    ++r.runs;
    if (!(tryKernel(candidate, device) == failure))
      return false;
    current = std::move(candidate);
    return true;
  };
  // The outputs, a chunk at a time (halves, quarters, ..., single ones: a crash in a
  // driver's compiler usually needs few of a kernel's outputs, and each run is a pipeline
  // to create).
  auto dropChunks = [&] {
    bool changed = false;
    auto effects = [&] {
      std::vector<size_t> at;
      std::vector<Op *> ops = opsOf(current.module);
      for (size_t i = 0; i < ops.size(); ++i)
        if (isSideEffect(ops[i]))
          at.push_back(i);
      return at;
    };
    std::vector<size_t> list = effects();
    for (size_t chunk = std::max<size_t>(1, list.size() / 2);; chunk /= 2) {
      for (size_t from = 0; from < list.size() && !timeUp;) {
        size_t to = std::min(list.size(), from + chunk);
        std::vector<size_t> drop(list.begin() + from, list.begin() + to);
        bool dropped = attempt([&](const std::vector<Op *> &ops) {
          for (size_t i : drop)
            ops[i]->erase();
          return true;
        });
        if (dropped) {
          changed = true;
          list = effects(); // the ones before `from` are where they were
        } else {
          from = to;
        }
      }
      if (chunk <= 1 || timeUp)
        break;
    }
    return changed;
  };
  auto bypass = [](Op *op) {
    if (op->numResults() != 1 || op->numRegions() != 0 || op->has(kTerminator))
      return false;
    for (Value *operand : op->operands())
      if (operand->type() == op->result()->type()) {
        op->result()->replaceAllUsesWith(operand);
        return true;
      }
    return false;
  };
  for (bool changed = true; changed && !timeUp;) {
    changed = dropChunks();
    if (failure.outcome == Outcome::Wrong)
      continue;
    for (size_t i = 0; i < opsOf(current.module).size() && !timeUp; ++i)
      while (attempt([&](const std::vector<Op *> &ops) { return i < ops.size() && bypass(ops[i]); }))
        changed = true;
  }
  r.complete = !timeUp;
  r.opsAfter = countOps(current.module);
  r.kernel = std::move(current);
  return r;
}

} // namespace trident::e2e
