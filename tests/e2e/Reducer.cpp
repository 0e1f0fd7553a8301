#include "Reducer.h"

#include "Compare.h"
#include "IsolatedRuns.h"

#include "trident/Trident.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"
#include "trident/passes/DCE.h"

#include <sys/wait.h>
#include <unistd.h>

namespace trident::e2e {

namespace {

enum class Outcome { Pass, Wrong, RunError, Crash, NotComparable };

const char *outcomeName(Outcome o) {
  switch (o) {
  case Outcome::Wrong: return "wrong results";
  case Outcome::RunError: return "run error";
  case Outcome::Crash: return "crash";
  default: return "pass";
  }
}

// Runs `k` on the device in a child process and classifies what happened.
Outcome tryKernel(const RandomKernel &k, const std::string &device) {
  Diagnostics diags;
  if (!verify(k.module, diags))
    return Outcome::NotComparable;
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    restoreDefaultSignals();
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
    return Outcome::Crash;
  switch (WEXITSTATUS(status)) {
  case 0: return Outcome::Pass;
  case 10: return Outcome::Wrong;
  case 11: return Outcome::RunError;
  default: return Outcome::NotComparable;
  }
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

std::optional<Reduction> reduceFailure(uint64_t seed, const GeneratorOptions &options, const std::string &device) {
  RandomKernel current = generateRandomKernel(seed, options);
  Outcome failure = tryKernel(current, device);
  if (failure == Outcome::Pass || failure == Outcome::NotComparable)
    return std::nullopt;
  Reduction r;
  r.failure = outcomeName(failure);
  r.opsBefore = countOps(current.module);

  // A candidate: a clone of the current module changed by `edit` (given the clone's
  // op at walk index i); kept when it fails the same way.
  auto attempt = [&](size_t i, const std::function<bool(Op *)> &edit) {
    Module m = current.module.clone();
    std::vector<Op *> ops = opsOf(m);
    if (i >= ops.size() || !edit(ops[i]))
      return false;
    Diagnostics diags;
    eliminateDeadCode(m, diags);
    RandomKernel candidate = withModule(current, std::move(m));
    if (tryKernel(candidate, device) != failure)
      return false;
    current = std::move(candidate);
    return true;
  };
  auto dropSideEffect = [](Op *op) {
    if (op->is(OpCode::Store) || ((op->is(OpCode::AtomicRMW) || op->is(OpCode::AtomicCAS)) && !op->result()->hasUses())) {
      op->erase();
      return true;
    }
    return false;
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
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < opsOf(current.module).size(); ++i)
      while (attempt(i, dropSideEffect))
        changed = true;
    if (failure == Outcome::Wrong)
      continue;
    for (size_t i = 0; i < opsOf(current.module).size(); ++i)
      while (attempt(i, bypass))
        changed = true;
  }
  r.opsAfter = countOps(current.module);
  r.kernel = std::move(current);
  return r;
}

} // namespace trident::e2e
