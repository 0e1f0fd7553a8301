#pragma once
// Shared by the interpreter tests: a runner that parses, verifies and runs IR text;
// a harness for elementwise ops (inputs loaded from buffers, the result stored);
// random seeds; and the registry of ops that tests cover, which coverage_test.cpp
// checks against the op table.

#include "trident/interp/Interpreter.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Verifier.h"
#include "trident/support/FloatFormats.h"

#include <doctest/doctest.h>

#include <bit>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace interp_test {

using namespace trident;

// ---- coverage ----------------------------------------------------------------

// Op names that some test runs (and checks that it ran, with Runner::executed).
inline std::set<std::string> &coveredOps() {
  static std::set<std::string> ops;
  return ops;
}
// Registers `names` as covered; used in static initializers next to the tests.
inline bool cover(std::initializer_list<const char *> names) {
  for (const char *n : names)
    coveredOps().insert(n);
  return true;
}

// ---- seeds -------------------------------------------------------------------

// A fixed seed and a fresh one (TRIDENT_TEST_SEED replaces the fresh one, to replay
// a failure). Tests print the seed with INFO so a failure names it.
inline std::vector<uint32_t> seeds() {
  uint32_t fresh;
  if (const char *env = std::getenv("TRIDENT_TEST_SEED"))
    fresh = static_cast<uint32_t>(std::strtoul(env, nullptr, 10));
  else
    fresh = std::random_device{}();
  return {12345u, fresh};
}

// ---- running IR --------------------------------------------------------------

struct Runner {
  Interpreter interp;
  std::ostringstream printed; // what tt.print wrote
  Diagnostics diags;
  std::optional<Module> module;

  Runner() { interp.setOutput(printed); }

  // Parses and verifies `text`; both must succeed.
  void load(std::string_view text) {
    Diagnostics d;
    module = parseModule(text, "test.ir", d);
    INFO("parse errors:\n" << d.str() << "text:\n" << text);
    REQUIRE(module.has_value());
    bool valid = verify(*module, d);
    INFO("verifier errors:\n" << d.str());
    REQUIRE(valid);
  }

  template <class T> void buffer(std::vector<T> &v, std::string name) {
    interp.addBuffer(v.data(), v.size() * sizeof(T), std::move(name));
  }

  bool run(std::string_view kernel, const std::vector<KernelArg> &args,
           std::array<uint32_t, 3> grid = {1, 1, 1}) {
    diags.clear();
    return interp.run(*module, kernel, args, grid, diags);
  }

  // Runs and requires success, showing the diagnostics otherwise.
  void runOk(std::string_view kernel, const std::vector<KernelArg> &args,
             std::array<uint32_t, 3> grid = {1, 1, 1}) {
    bool ok = run(kernel, args, grid);
    INFO("diagnostics:\n" << diags.str());
    REQUIRE(ok);
  }

  bool executed(std::string_view opName) const {
    std::optional<OpCode> code = opCodeByName(opName);
    REQUIRE(code.has_value());
    return interp.executionCount(*code) > 0;
  }

  // The one diagnostic's message (requires exactly one).
  std::string error() const {
    INFO(diags.str());
    REQUIRE(diags.list().size() == 1);
    return diags.list()[0].message;
  }
};

// ---- elementwise harness -----------------------------------------------------

inline std::string blockOf(int64_t n, Type t) { return "block<" + std::to_string(n) + "x" + t.str() + ">"; }

inline unsigned bytesOf(Type t) { return t.isPtr() ? 8 : t.bitWidth() < 8 ? 1 : t.bitWidth() / 8; }

// A kernel "k" with one pointer parameter per input type and one for the output:
// it loads inputs %x0, %x1, ... (blocks of n), runs `body`, which must define %y of
// type block<n x out>, and stores %y.
inline std::string elementwiseKernel(const std::string &body, const std::vector<Type> &ins, Type out,
                                     int64_t n) {
  std::string params, loads;
  std::string range = "%r";
  for (size_t i = 0; i < ins.size(); ++i) {
    std::string k = std::to_string(i), pt = "ptr<" + ins[i].str() + ">";
    params += "%in" + k + ": " + pt + ", ";
    loads += "    %s" + k + " = tt.splat %in" + k + " : " + blockOf(n, Type::ptr(ins[i])) + "\n";
    loads += "    %p" + k + " = tt.addptr %s" + k + ", %r : " + blockOf(n, Type::ptr(ins[i])) + "\n";
    loads += "    %x" + k + " = tt.load %p" + k + " : " + blockOf(n, ins[i]) + "\n";
  }
  params += "%out: ptr<" + out.str() + ">";
  return "builtin.module ({\n  tt.func {sym_name = \"k\"} ({\n  ^(" + params + "):\n" +
         "    %r = tt.make_range {end = " + std::to_string(n) + ", start = 0} : " + blockOf(n, Type::i32()) +
         "\n" + loads + "    " + body + "\n" + "    %so = tt.splat %out : " + blockOf(n, Type::ptr(out)) +
         "\n" + "    %po = tt.addptr %so, %r : " + blockOf(n, Type::ptr(out)) + "\n" +
         "    tt.store %po, %y\n" + "    tt.return\n  })\n})\n";
}

// IR lines that load the m x n row-major block at pointer %<ptr> (elements of e) into
// %<name>; the values they define are prefixed with <name>_.
inline std::string load2d(const std::string &name, const std::string &ptr, Type e, int64_t m, int64_t n) {
  const std::string M = std::to_string(m), N = std::to_string(n), p = "%" + name + "_";
  const std::string mn = "block<" + M + "x" + N + "x";
  return "    " + p + "rm = tt.make_range {end = " + M + ", start = 0} : block<" + M + "xi32>\n" + "    " +
         p + "rn = tt.make_range {end = " + N + ", start = 0} : block<" + N + "xi32>\n" + "    " + p +
         "em = tt.expand_dims " + p + "rm {axis = 1} : block<" + M + "x1xi32>\n" + "    " + p +
         "en = tt.expand_dims " + p + "rn {axis = 0} : block<1x" + N + "xi32>\n" + "    " + p +
         "cn = arith.constant {value = " + N + "} : block<" + M + "x1xi32>\n" + "    " + p +
         "rows = arith.muli " + p + "em, " + p + "cn : block<" + M + "x1xi32>\n" + "    " + p +
         "bm = tt.broadcast " + p + "rows : " + mn + "i32>\n" + "    " + p + "bn = tt.broadcast " + p +
         "en : " + mn + "i32>\n" + "    " + p + "offs = arith.addi " + p + "bm, " + p + "bn : " + mn +
         "i32>\n" + "    " + p + "base = tt.splat %" + ptr + " : " + mn + "ptr<" + e.str() + ">>\n" + "    " +
         p + "ptrs = tt.addptr " + p + "base, " + p + "offs : " + mn + "ptr<" + e.str() + ">>\n" + "    %" +
         name + " = tt.load " + p + "ptrs : " + mn + e.str() + ">\n";
}

// A kernel "k"(%in: ptr<E>, %out: ptr<R>) that loads in[0..m*n) as an m x n block %x
// of E (through 2-D offsets), runs `body`, which defines %y holding `total` elements of
// R in any shape (or a scalar when total is 0), and stores %y flattened to out.
inline std::string blockKernel(Type e, int m, int n, const std::string &body, Type r, int total) {
  const std::string T = std::to_string(total);
  std::string store = total == 0 ? "    tt.store %out, %y\n"
                                 : "    %flat = tt.reshape %y : " + blockOf(total, r) + "\n" +
                                       "    %rt = tt.make_range {end = " + T +
                                       ", start = 0} : " + blockOf(total, Type::i32()) + "\n" +
                                       "    %pout = tt.splat %out : " + blockOf(total, Type::ptr(r)) + "\n" +
                                       "    %pout2 = tt.addptr %pout, %rt : " + blockOf(total, Type::ptr(r)) +
                                       "\n" + "    tt.store %pout2, %flat\n";
  return "builtin.module ({\n  tt.func {sym_name = \"k\"} ({\n  ^(%in: ptr<" + e.str() + ">, %out: ptr<" +
         r.str() + ">):\n" + load2d("x", "in", e, m, n) + body + "\n" + store + "    tt.return\n  })\n})\n";
}

// Raw element bits (as memory holds them) packed into bytes and back.
inline std::vector<unsigned char> pack(const std::vector<uint64_t> &raw, Type t) {
  unsigned b = bytesOf(t);
  std::vector<unsigned char> bytes(raw.size() * b);
  for (size_t i = 0; i < raw.size(); ++i)
    std::memcpy(&bytes[i * b], &raw[i], b);
  return bytes;
}
inline std::vector<uint64_t> unpack(const std::vector<unsigned char> &bytes, Type t) {
  unsigned b = bytesOf(t);
  std::vector<uint64_t> raw(bytes.size() / b, 0);
  for (size_t i = 0; i < raw.size(); ++i)
    std::memcpy(&raw[i], &bytes[i * b], b);
  return raw;
}

// Runs `body` over `inputs` (raw bits per element, one vector per input) and returns
// the raw bits of the n results.
inline std::vector<uint64_t> runElementwise(Runner &r, const std::string &body, const std::vector<Type> &ins,
                                            const std::vector<std::vector<uint64_t>> &inputs, Type out) {
  const int64_t n = static_cast<int64_t>(inputs.at(0).size());
  r.load(elementwiseKernel(body, ins, out, n));
  std::vector<std::vector<unsigned char>> buffers;
  std::vector<KernelArg> args;
  for (size_t i = 0; i < ins.size(); ++i)
    buffers.push_back(pack(inputs[i], ins[i]));
  buffers.emplace_back(static_cast<size_t>(n) * bytesOf(out), 0xAB); // poisoned
  for (size_t i = 0; i < buffers.size(); ++i) {
    r.interp.addBuffer(buffers[i].data(), buffers[i].size(), "buf" + std::to_string(i));
    args.push_back(KernelArg::pointer(buffers[i].data(), i < ins.size() ? ins[i] : out));
  }
  r.runOk("k", args);
  r.interp.clearBuffers();
  return unpack(buffers.back(), out);
}

// ---- float helpers -----------------------------------------------------------

inline uint64_t f32Bits(float v) { return std::bit_cast<uint32_t>(v); }
inline float bitsF32(uint64_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b)); }
inline uint64_t f64Bits(double v) { return std::bit_cast<uint64_t>(v); }
inline double bitsF64(uint64_t b) { return std::bit_cast<double>(b); }

// The float format of a narrow float type.
inline FloatFormat formatOf(Type t) {
  switch (t.kind()) {
  case TypeKind::F16: return FloatFormat::F16;
  case TypeKind::BF16: return FloatFormat::BF16;
  case TypeKind::F8E4M3: return FloatFormat::F8E4M3;
  case TypeKind::F8E5M2: return FloatFormat::F8E5M2;
  default: return FloatFormat::F32;
  }
}

// Value of raw bits of any float type, and the raw bits of a value rounded to it.
inline double floatValue(Type t, uint64_t raw) {
  if (t.kind() == TypeKind::F64) // kinds, not Type::f64(): interned lookups are slow in loops
    return bitsF64(raw);
  if (t.kind() == TypeKind::F32)
    return bitsF32(raw);
  return decodeFloat(static_cast<uint32_t>(raw), formatOf(t));
}
inline uint64_t floatRaw(Type t, double v) {
  if (t.kind() == TypeKind::F64)
    return f64Bits(v);
  if (t.kind() == TypeKind::F32)
    return f32Bits(static_cast<float>(v));
  return encodeFloat(v, formatOf(t));
}

// True when a and b are the same float, NaNs matching any NaN.
inline bool sameFloat(double a, double b) {
  if (a != a || b != b)
    return a != a && b != b;
  return a == b && std::signbit(a) == std::signbit(b);
}

} // namespace interp_test
