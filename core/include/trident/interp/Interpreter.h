#pragma once
// The reference interpreter: runs a block-IR kernel over a 1-3-D grid on host
// memory with Triton's semantics. Every load, store and atomic is checked against
// the registered buffers; an access outside them is an error naming the op and
// its source location.
//
//   Interpreter interp;
//   interp.addBuffer(x.data(), x.size() * sizeof(float), "x");
//   std::vector<KernelArg> args = {KernelArg::pointer(x.data()), KernelArg::i32(n)};
//   if (!interp.run(module, "add_kernel", args, {grid, 1, 1}, diags)) ...
//
// The semantic choices (program order, integer corner cases, float rounding,
// reduction order, ...) are described in docs/interpreter.md.

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

#include <array>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <span>
#include <string>

namespace trident {

// One kernel argument as the launch ABI packs it: the bits of a scalar (sign- or
// zero-extended integers, IEEE floats, or a 64-bit address for pointers) and the
// type it must have.
struct KernelArg {
  Type type;
  uint64_t bits = 0;

  static KernelArg pointer(const void *p, Type pointee = Type::f32());
  static KernelArg i1(bool v);
  static KernelArg i32(int32_t v);
  static KernelArg i64(int64_t v);
  static KernelArg f32(float v);
  static KernelArg f64(double v);
};

// One run at a time per Interpreter; separate interpreters may run concurrently.
class Interpreter {
public:
  Interpreter();
  ~Interpreter();

  // Makes [base, base + bytes) accessible to kernels; `name` appears in errors.
  void addBuffer(void *base, size_t bytes, std::string name = {});
  void removeBuffer(void *base);
  void clearBuffers();

  // Runs `kernel` (a tt.func of `m`) once per program of `grid`. Returns false and
  // fills `diags` on an out-of-bounds access, a failed tt.assert, a bad argument
  // list or an unsupported op; buffers may then hold partial results.
  // The module must pass the verifier.
  bool run(const Module &m, std::string_view kernel, std::span<const KernelArg> args,
           std::array<uint32_t, 3> grid, Diagnostics &diags);

  // A part of a grid: the programs offset[d] <= pid[d] < offset[d] + size[d].
  struct ProgramBox {
    std::array<uint32_t, 3> offset{0, 0, 0};
    std::array<uint32_t, 3> size{0, 0, 0};
  };
  // Runs only the programs of `box`, in the same order as a run of the whole grid
  // would; tt.get_program_id, tt.get_num_programs, tt.print and every diagnostic see
  // the program's place in `grid`. One launch can so be split over several
  // interpreters (the host plugin's threads). A box outside `grid` is an error.
  bool run(const Module &m, std::string_view kernel, std::span<const KernelArg> args,
           std::array<uint32_t, 3> grid, const ProgramBox &box, Diagnostics &diags);

  // Where tt.print writes (std::cout unless set).
  void setOutput(std::ostream &os);
  // How many times ops of `code` have run, summed over every run of this interpreter
  // (terminators count when reached, tt.func per call, builtin.module per run).
  uint64_t executionCount(OpCode code) const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace trident
