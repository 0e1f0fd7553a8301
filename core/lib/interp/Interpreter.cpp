// The interpreter's driver: arguments, the grid of programs, value frames, op
// dispatch and structured control flow (scf.for, scf.if, scf.while, tt.call).

#include "trident/interp/Interpreter.h"

#include "InterpImpl.h"

#include <algorithm>
#include <cstring>
#include <iostream>

namespace trident {

using interp::RtValue;

// ---- KernelArg ---------------------------------------------------------------

KernelArg KernelArg::pointer(const void *p, Type pointee) {
  return {Type::ptr(pointee), static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p))};
}
KernelArg KernelArg::i1(bool v) { return {Type::i1(), v ? 1u : 0u}; }
KernelArg KernelArg::i32(int32_t v) { return {Type::i32(), static_cast<uint64_t>(static_cast<int64_t>(v))}; }
KernelArg KernelArg::i64(int64_t v) { return {Type::i64(), static_cast<uint64_t>(v)}; }
KernelArg KernelArg::f32(float v) { return {Type::f32(), std::bit_cast<uint32_t>(v)}; }
KernelArg KernelArg::f64(double v) { return {Type::f64(), std::bit_cast<uint64_t>(v)}; }

// ---- Interpreter -------------------------------------------------------------

struct Interpreter::Impl {
  interp::Memory memory;
  std::ostream *out = &std::cout;
  std::vector<uint64_t> opCounts = std::vector<uint64_t>(numOpCodes(), 0);
};

Interpreter::Interpreter() : impl_(std::make_unique<Impl>()) {}
Interpreter::~Interpreter() = default;

void Interpreter::addBuffer(void *base, size_t bytes, std::string name) {
  impl_->memory.add(reinterpret_cast<uintptr_t>(base), bytes, std::move(name));
}
void Interpreter::removeBuffer(void *base) { impl_->memory.remove(reinterpret_cast<uintptr_t>(base)); }
void Interpreter::clearBuffers() { impl_->memory.clear(); }
void Interpreter::setOutput(std::ostream &os) { impl_->out = &os; }
uint64_t Interpreter::executionCount(OpCode code) const {
  return impl_->opCounts[static_cast<unsigned>(code)];
}

bool Interpreter::run(const Module &m, std::string_view kernel, std::span<const KernelArg> args,
                      std::array<uint32_t, 3> grid, Diagnostics &diags) {
  return run(m, kernel, args, grid, ProgramBox{{0, 0, 0}, grid}, diags);
}

bool Interpreter::run(const Module &m, std::string_view kernel, std::span<const KernelArg> args,
                      std::array<uint32_t, 3> grid, const ProgramBox &box, Diagnostics &diags) {
  for (int d = 0; d < 3; ++d)
    if (box.offset[d] > grid[d] || box.size[d] > grid[d] - box.offset[d]) {
      diags.error({}, "programs [" + std::to_string(box.offset[d]) + ", " +
                          std::to_string(uint64_t(box.offset[d]) + box.size[d]) + ") of axis " + std::to_string(d) +
                          " are outside the grid of " + std::to_string(grid[d]));
      return false;
    }
  const Op *func = m.lookupFunction(kernel);
  if (!func) {
    diags.error({}, "no function named '" + std::string(kernel) + "' in the module");
    return false;
  }
  const Block *body = func->region();
  if (args.size() != body->numArguments()) {
    diags.error(func->loc(), "kernel '" + std::string(kernel) + "' takes " +
                                 std::to_string(body->numArguments()) + " arguments, got " +
                                 std::to_string(args.size()));
    return false;
  }
  std::vector<RtValue> values;
  for (unsigned i = 0; i < args.size(); ++i) {
    Type param = body->argument(i)->type();
    // Pointers are addresses whatever their pointee; scalars must match exactly.
    bool matches = param.isPtr() ? args[i].type && args[i].type.isPtr() : args[i].type == param;
    if (!matches) {
      diags.error(func->loc(), "kernel '" + std::string(kernel) + "' argument #" + std::to_string(i) +
                                   " must be " + param.str() + ", got " +
                                   (args[i].type ? args[i].type.str() : std::string("no type")));
      return false;
    }
    values.push_back({param, {}, {interp::rawToSlot(param, args[i].bits)}});
  }

  impl_->opCounts[static_cast<unsigned>(OpCode::Module)]++;
  interp::Exec exec(m, impl_->memory, *impl_->out, grid, impl_->opCounts, diags);
  // Programs run one after another, axis 0 fastest.
  const std::array<uint32_t, 3> &o = box.offset, &n = box.size;
  for (uint32_t z = o[2]; z < o[2] + n[2]; ++z)
    for (uint32_t y = o[1]; y < o[1] + n[1]; ++y)
      for (uint32_t x = o[0]; x < o[0] + n[0]; ++x) {
        exec.pid = {x, y, z};
        if (!exec.callFunction(func, values, nullptr))
          return false;
      }
  return true;
}

namespace interp {

// ---- frames and errors -------------------------------------------------------

const RtValue &Exec::get(const Value *v) const {
  auto it = frame_->find(v);
  assert(it != frame_->end() && "value used before its definition");
  return it->second;
}

void Exec::set(const Value *v, RtValue value) { (*frame_)[v] = std::move(value); }

std::string Exec::programName() const {
  return "program (" + std::to_string(pid[0]) + ", " + std::to_string(pid[1]) + ", " +
         std::to_string(pid[2]) + ")";
}

bool Exec::fail(const Op *op, const std::string &message) {
  diags_.error(op->loc(), message + " in " + programName());
  return false;
}

// ---- regions and calls -------------------------------------------------------

namespace {

constexpr unsigned kMaxCallDepth = 256;

// A value defined in `region` itself dies when the region's terminator runs, so the
// terminator may move it out instead of copying (unless it passes it twice).
bool definedIn(const Value *v, const Block *region) {
  if (v->isBlockArgument())
    return v->ownerBlock() == region;
  return v->definingOp()->parentBlock() == region;
}

} // namespace

bool Exec::runRegion(const Block *region, std::vector<RtValue> args, std::vector<RtValue> *yielded) {
  assert(args.size() == region->numArguments());
  for (unsigned i = 0; i < args.size(); ++i)
    set(region->argument(i), std::move(args[i]));
  for (const Op *op : *region) {
    if (!op->has(kTerminator)) {
      if (!exec(op))
        return false;
      continue;
    }
    opCounts_[static_cast<unsigned>(op->code())]++;
    if (!yielded)
      return true;
    yielded->clear();
    std::span<Value *const> operands = op->operands();
    for (size_t i = 0; i < operands.size(); ++i) {
      const Value *v = operands[i];
      bool repeated = std::count(operands.begin(), operands.end(), v) > 1;
      auto it = frame_->find(v);
      if (it == frame_->end())
        return fail(op, "'" + std::string(op->name()) + "' operand #" + std::to_string(i) + " has no value");
      if (definedIn(v, region) && !repeated)
        yielded->push_back(std::move(it->second));
      else
        yielded->push_back(it->second);
    }
    return true;
  }
  if (yielded)
    yielded->clear();
  return true;
}

bool Exec::callFunction(const Op *func, std::vector<RtValue> args, std::vector<RtValue> *results) {
  if (callDepth_ >= kMaxCallDepth) {
    diags_.error(func->loc(), "call depth exceeds " + std::to_string(kMaxCallDepth) + " calling '" +
                                  std::string(func::name(func)) + "' in " + programName());
    return false;
  }
  opCounts_[static_cast<unsigned>(OpCode::Func)]++;
  Frame frame;
  Frame *saved = frame_;
  frame_ = &frame;
  ++callDepth_;
  bool ok = runRegion(func->region(), std::move(args), results);
  --callDepth_;
  frame_ = saved;
  return ok;
}

// ---- dispatch ----------------------------------------------------------------

bool Exec::exec(const Op *op) {
  opCounts_[static_cast<unsigned>(op->code())]++;
  // Unverified IR could use a value before defining it: refuse instead of crashing.
  for (unsigned i = 0; i < op->numOperands(); ++i)
    if (!frame_->count(op->operand(i)))
      return fail(op, "'" + std::string(op->name()) + "' operand #" + std::to_string(i) + " has no value");

  switch (op->code()) {
  case OpCode::For:
  case OpCode::If:
  case OpCode::While:
  case OpCode::Call: return execControlFlow(op);

  case OpCode::GetProgramId:
  case OpCode::GetNumPrograms: {
    int64_t axis = op->attr("axis").isInt() ? op->intAttr("axis") : -1;
    if (axis < 0 || axis > 2)
      return fail(op, "'" + std::string(op->name()) + "' axis must be 0, 1 or 2");
    uint32_t v = op->is(OpCode::GetProgramId) ? pid[axis] : grid[axis];
    set(op->result(), {op->result()->type(), {}, {v}});
    return true;
  }

  case OpCode::MultipleOf:
  case OpCode::MaxContiguous: set(op->result(), get(op->operand(0))); return true;
  case OpCode::Assume: return true;
  // A program's elements run in order here, so every access before a barrier is done.
  case OpCode::Barrier: return true;
  case OpCode::ElementwiseInlineAsm:
    return fail(op, "tl.inline_asm_elementwise is not supported on the host interpreter: its assembly is "
                    "for a GPU target (PTX on cuda); run this kernel on a cuda device");

  case OpCode::Print:
  case OpCode::Assert: return execDebug(*this, op);

  case OpCode::Load:
  case OpCode::DescriptorLoad:
  case OpCode::Store:
  case OpCode::AtomicRMW:
  case OpCode::AtomicCAS: return execMemory(*this, op);

  case OpCode::Dot: return execDot(*this, op);
  case OpCode::Reduce: return execReduce(*this, op);
  case OpCode::Scan: return execScan(*this, op);

  case OpCode::Constant:
  case OpCode::MakeRange:
  case OpCode::Splat:
  case OpCode::Broadcast:
  case OpCode::ExpandDims:
  case OpCode::Reshape:
  case OpCode::Trans:
  case OpCode::Join:
  case OpCode::Split:
  case OpCode::Cat: return execShape(*this, op);

  case OpCode::Module:
  case OpCode::Func: return fail(op, "'" + std::string(op->name()) + "' cannot appear inside a function");

  default:
    if (op->name().starts_with("th."))
      return fail(op,
                  "'" + std::string(op->name()) + "' is a thread-IR op, which the interpreter does not run");
    return execArith(*this, op);
  }
}

// ---- structured control flow -------------------------------------------------

namespace {

std::vector<RtValue> operandValues(const Exec &ex, const Op *op, unsigned first) {
  std::vector<RtValue> values;
  for (unsigned i = first; i < op->numOperands(); ++i)
    values.push_back(ex.get(op->operand(i)));
  return values;
}

} // namespace

bool Exec::execControlFlow(const Op *op) {
  auto setResults = [&](std::vector<RtValue> &values) {
    if (values.size() != op->numResults())
      return fail(op, "'" + std::string(op->name()) + "' got " + std::to_string(values.size()) +
                          " values for " + std::to_string(op->numResults()) + " results");
    for (unsigned i = 0; i < op->numResults(); ++i)
      set(op->result(i), std::move(values[i]));
    return true;
  };

  switch (op->code()) {
  case OpCode::For: {
    const RtValue &lbv = get(op->operand(0)), &ubv = get(op->operand(1)), &stepv = get(op->operand(2));
    Type ivType = lbv.elem;
    unsigned width = ivType.bitWidth();
    int64_t lb = signExtend(lbv.data[0], width), ub = signExtend(ubv.data[0], width),
            step = signExtend(stepv.data[0], width);
    if (step <= 0)
      return fail(op, "'scf.for' step must be positive, got " + std::to_string(step));
    // The trip count, computed without overflow; the induction variable never wraps.
    __int128 span = static_cast<__int128>(ub) - lb;
    int64_t trips = span <= 0 ? 0 : static_cast<int64_t>((span + step - 1) / step);
    std::vector<RtValue> iters = operandValues(*this, op, 3), yielded;
    for (int64_t k = 0; k < trips; ++k) {
      uint64_t iv = static_cast<uint64_t>(static_cast<__int128>(lb) + static_cast<__int128>(k) * step) &
                    widthMask(width);
      std::vector<RtValue> args;
      args.reserve(iters.size() + 1);
      args.push_back({ivType, {}, {iv}});
      for (RtValue &v : iters)
        args.push_back(std::move(v));
      if (!runRegion(op->region(0), std::move(args), &yielded))
        return false;
      if (yielded.size() != op->numResults())
        return fail(op, "'scf.for' body yields " + std::to_string(yielded.size()) + " values, expected " +
                            std::to_string(op->numResults()));
      iters = std::move(yielded);
      yielded.clear();
    }
    return setResults(iters);
  }

  case OpCode::If: {
    bool cond = get(op->operand(0)).data[0] & 1;
    std::vector<RtValue> yielded;
    if (!runRegion(op->region(cond ? 0 : 1), {}, &yielded))
      return false;
    return setResults(yielded);
  }

  case OpCode::While: {
    std::vector<RtValue> current = operandValues(*this, op, 0), yielded;
    for (;;) {
      if (!runRegion(op->region(0), std::move(current), &yielded))
        return false;
      if (yielded.empty())
        return fail(op, "'scf.while' before region must end in 'scf.condition'");
      bool cond = yielded[0].data[0] & 1;
      std::vector<RtValue> passed(std::make_move_iterator(yielded.begin() + 1),
                                  std::make_move_iterator(yielded.end()));
      if (!cond)
        return setResults(passed);
      if (!runRegion(op->region(1), std::move(passed), &current))
        return false;
    }
  }

  case OpCode::Call: {
    const Attribute &callee = op->attr("callee");
    const Op *func = callee.isString() ? module.lookupFunction(callee.getString()) : nullptr;
    if (!func)
      return fail(op, "'tt.call' callee is not a function of the module");
    if (func->region()->numArguments() != op->numOperands())
      return fail(op, "'tt.call' passes " + std::to_string(op->numOperands()) +
                          " arguments to a function of " + std::to_string(func->region()->numArguments()));
    std::vector<RtValue> results;
    if (!callFunction(func, operandValues(*this, op, 0), &results))
      return false;
    return setResults(results);
  }

  default: return fail(op, "'" + std::string(op->name()) + "' is not a control-flow op");
  }
}

} // namespace interp
} // namespace trident
