#pragma once
// Seeded random block-IR kernels for differential testing: a seed gives one kernel
// (a tt.func in a Module, built with the Builder) together with everything needed to
// run it: its arguments' initial contents, the grid, and how to compare each buffer
// after the run. See docs/testing.md for what the kernels cover.
//
//   RandomKernel k = generateRandomKernel(42);
//   Diagnostics diags;
//   assert(verify(k.module, diags));   // every generated kernel verifies

#include "trident/ir/IR.h"

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace trident::e2e {

// How a buffer's contents after the run are compared with the interpreter's.
struct OutputCheck {
  enum class Mode : uint8_t {
    Bytes,     // bit for bit (integers, inputs, arbitrary bits)
    Exact,     // floats every device computes exactly: equal values
    Tolerance, // floats that may differ: |device - reference| <= tolerance
    Skip,      // no bound holds (a loop made its error unbounded): only written-or-not
  };
  Mode mode = Mode::Bytes;
  double tolerance = 0;
  // What the generator's facts promise about every written element (floats, and
  // integers whose range is known): the reference's values lie in [lo, hi] (the
  // tolerance aside); exact floats are multiples of 2^-frac.
  bool hasRange = false;
  double lo = 0, hi = 0;
  bool exact = false;
  int frac = 0;
};

// One kernel parameter.
struct ArgSpec {
  enum class Kind : uint8_t { Buffer, Scalar };
  Kind kind = Kind::Buffer;
  std::string name;           // for messages: "in3", "out0", "n1"
  Type element;               // the buffer's element type, or the scalar's type
  // Buffers.
  size_t count = 0;           // elements
  std::vector<uint8_t> init;  // initial bytes: input data, or poison for outputs
  bool written = false;       // the kernel stores or atomically updates it
  OutputCheck check;
  // Scalars: the value as the launch ABI packs it (integers sign-extended, floats as
  // their IEEE bits in the low bits).
  uint64_t bits = 0;
};

// Families of ops a kernel may use; each can be turned off (GeneratorOptions::disabled).
// Element types: "i8" "i16" "i32" "i64" "f16" "bf16" "f32" "f64" "f8".
// Constructs: "math" "shape" "reduce" "scan" "loop" "if" "atomic" "mask" "gather"
// "bitcast" "scalar-args" "dot".
const std::vector<std::string> &generatorFeatures();

struct GeneratorOptions {
  int64_t maxElements = 256; // the largest block a kernel builds
  int ops = 60;              // about how many ops the generation steps add
  // How often a step builds a tt.dot (a relative weight; elementwise ops have 9): dots
  // cost the thread-IR simulator most, so the default keeps the fixed seeds fast.
  double dotWeight = 0.06;
  std::set<std::string> disabled;
};

struct RandomKernel {
  uint64_t seed = 0;
  Module module;
  std::string name = "random_kernel";
  std::vector<ArgSpec> args;
  std::array<uint32_t, 3> grid{1, 1, 1};
  // The features this kernel uses (a subset of generatorFeatures()).
  std::set<std::string> features;
};

// The kernel of `seed`; the same seed and options give the same kernel everywhere.
RandomKernel generateRandomKernel(uint64_t seed, const GeneratorOptions &options = {});

} // namespace trident::e2e
