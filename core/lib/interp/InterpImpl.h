#pragma once
// The interpreter's private pieces, shared by the files of one op family each:
// runtime values, the buffer registry, and the execution state of one run.
//
// A runtime value is a scalar or a block: its element type, its shape (empty for a
// scalar) and one 64-bit slot per element in row-major order. A slot holds
//   integers  the value zero-extended from its width (i1: 0 or 1)
//   pointers  the 64-bit host address
//   floats    the bits of a double holding the element's exact value
// so every float format computes through float/double and is rounded back to its
// type after each op.

#include "trident/interp/Interpreter.h"
#include "trident/support/FloatFormats.h"

#include <array>
#include <bit>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

namespace trident::interp {

struct RtValue {
  Type elem;                  // scalar or pointer type of the elements
  std::vector<int64_t> shape; // empty: a scalar
  std::vector<uint64_t> data; // one slot per element, row-major

  size_t size() const { return data.size(); }
};

// ---- slots -------------------------------------------------------------------

inline double slotToDouble(uint64_t slot) { return std::bit_cast<double>(slot); }
inline uint64_t doubleToSlot(double v) { return std::bit_cast<uint64_t>(v); }
inline uint64_t widthMask(unsigned bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }
inline int64_t signExtend(uint64_t v, unsigned bits) {
  if (bits >= 64)
    return static_cast<int64_t>(v);
  uint64_t signBit = uint64_t(1) << (bits - 1);
  return static_cast<int64_t>(((v & widthMask(bits)) ^ signBit) - signBit);
}
// The stride to walk an operand of an elementwise op: 0 broadcasts a single element.
inline size_t strideOf(const RtValue &v) { return v.size() == 1 ? 0 : 1; }

// The element count `n` and shape of an elementwise op over `operands`: each has n
// elements or one (which broadcasts). False when their sizes disagree.
bool elementwiseExtent(std::initializer_list<const RtValue *> operands, size_t &n,
                       std::vector<int64_t> &shape);

// The narrow format of a float type other than f32/f64.
FloatFormat narrowFormat(TypeKind kind);
// `v` rounded to the float type `elem` (f64: unchanged).
double roundToType(Type elem, double v, FloatRounding rounding = FloatRounding::NearestEven);
// Bytes one element of `elem` takes in memory (i1: one byte).
unsigned byteSize(Type elem);
// The bit pattern of a slot as `elem` stores it in memory, and back. Exact for every
// pattern, NaN payloads included.
uint64_t slotToRaw(Type elem, uint64_t slot);
uint64_t rawToSlot(Type elem, uint64_t raw);
// A slot as text: decimal integers, shortest round-tripping floats, 0x... addresses;
// `hex` prints the raw bits of any type in hexadecimal.
std::string formatSlot(Type elem, uint64_t slot, bool hex);

// ---- memory ------------------------------------------------------------------

class Memory {
public:
  void add(uint64_t base, uint64_t size, std::string name);
  void remove(uint64_t base);
  void clear();
  // True when [addr, addr + bytes) lies inside one registered buffer.
  bool contains(uint64_t addr, uint64_t bytes) const;
  // Where an access that `contains` refused lies, relative to the nearest buffer.
  std::string describeOutside(uint64_t addr, uint64_t bytes) const;

private:
  struct Buffer {
    uint64_t base, size;
    std::string name;
  };
  std::map<uint64_t, Buffer> buffers_;
  mutable const Buffer *lastHit_ = nullptr; // accesses come in runs within one buffer
};

// ---- execution state ---------------------------------------------------------

class Exec {
public:
  Exec(const Module &module, Memory &memory, std::ostream &out, std::array<uint32_t, 3> grid,
       std::vector<uint64_t> &opCounts, Diagnostics &diags)
      : module(module), memory(memory), out(out), grid(grid), opCounts_(opCounts), diags_(diags) {}

  // Runs `func` with `args` in a fresh frame; its returned values go to `results`.
  bool callFunction(const Op *func, std::vector<RtValue> args, std::vector<RtValue> *results);
  // Binds `args` to the region's arguments and runs its ops; the terminator's
  // operand values go to `yielded` (when not null).
  bool runRegion(const Block *region, std::vector<RtValue> args, std::vector<RtValue> *yielded);

  const RtValue &get(const Value *v) const;
  void set(const Value *v, RtValue value);

  // Reports an error at `op`'s location, naming the program; returns false.
  bool fail(const Op *op, const std::string &message);
  // "program (x, y, z)"
  std::string programName() const;

  const Module &module;
  Memory &memory;
  std::ostream &out;
  const std::array<uint32_t, 3> grid;
  std::array<uint32_t, 3> pid{0, 0, 0};

private:
  bool exec(const Op *op);
  bool execControlFlow(const Op *op);

  using Frame = std::unordered_map<const Value *, RtValue>;
  Frame *frame_ = nullptr;
  unsigned callDepth_ = 0;
  std::vector<uint64_t> &opCounts_;
  Diagnostics &diags_;
};

// ---- op families: each runs one op, returning false after reporting an error --

bool execArith(Exec &ex, const Op *op);  // integer/float ops, cmp, select, casts, math, pointers
bool execShape(Exec &ex, const Op *op);  // constants, ranges, splat/broadcast/reshape/trans/...
bool execMemory(Exec &ex, const Op *op); // load, store, atomics
bool execReduce(Exec &ex, const Op *op); // tt.reduce
bool execScan(Exec &ex, const Op *op);   // tt.scan
bool execDot(Exec &ex, const Op *op);    // tt.dot
bool execDebug(Exec &ex, const Op *op);  // tt.print, tt.assert

} // namespace trident::interp
