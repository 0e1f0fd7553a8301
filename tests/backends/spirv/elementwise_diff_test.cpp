// Differential test of elementwise ops: each op of the table runs as a block-IR
// kernel (load, op, store over 256 elements) in the reference interpreter and on
// the Vulkan device through the SIMT lowering and the SPIR-V backend, on fresh
// random inputs with the corner cases mixed in (NaN, infinities, signed zeros,
// subnormals, the integer extremes, shift amounts past the width, divisors of -1).
// Results must agree bit for bit, except where Trident lets targets use their
// math libraries (a few ulp) or an approximate division.

#include "VulkanHarness.h"

#include "trident/interp/Interpreter.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Verifier.h"
#include "trident/support/FloatFormats.h"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

using namespace trident;
using namespace trident::test;

namespace trident::test {
extern VulkanHarness *harness;
}

namespace {

constexpr int kN = 256;

// Whether the device may flush f32 subnormals (it does not report
// shaderDenormPreserveFloat32), and how many elements were accepted as that flushing.
bool flushesF32Subnormals = false;
int flushedElements = 0;
std::string flushedOps; // the cases they were in

enum class Domain { Any, Shift, Divisor, Positive, Small, Unit, Periodic, Edges };

struct Case {
  std::string op;
  std::vector<Type> ins;
  Type out;
  std::string attrs;  // " {predicate = \"slt\"}"
  double ulps = 0;    // float results: allowed distance; 0 = the same bits
  double absolute = 0; // or this absolute error
  Domain domain = Domain::Any;
};

unsigned bytesOf(Type t) { return t == Type::i1() ? 1 : t.bitWidth() / 8; }

FloatFormat formatOf(Type t) {
  switch (t.kind()) {
  case TypeKind::F16: return FloatFormat::F16;
  case TypeKind::BF16: return FloatFormat::BF16;
  case TypeKind::F8E4M3: return FloatFormat::F8E4M3;
  case TypeKind::F8E5M2: return FloatFormat::F8E5M2;
  default: return FloatFormat::F32;
  }
}

uint64_t encode(Type t, double v) {
  if (t == Type::f64())
    return std::bit_cast<uint64_t>(v);
  if (t == Type::f32())
    return std::bit_cast<uint32_t>(float(v));
  return encodeFloat(v, formatOf(t));
}

double decode(Type t, uint64_t bits) {
  if (t == Type::f64())
    return std::bit_cast<double>(bits);
  if (t == Type::f32())
    return std::bit_cast<float>(uint32_t(bits));
  return decodeFloat(uint32_t(bits), formatOf(t));
}

// One random input element of type `t` (its bits), corner cases included.
uint64_t randomElement(std::mt19937_64 &gen, Type t, Domain domain) {
  std::uniform_int_distribution<int> pick(0, 99);
  int p = pick(gen);
  if (t == Type::i1())
    return gen() & 1;
  if (t.isInteger()) {
    unsigned w = t.bitWidth();
    uint64_t mask = w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
    if (domain == Domain::Shift)
      return gen() % (w + 5);
    uint64_t v;
    if (p < 25) {
      v = uint64_t(int64_t(gen() % 17) - 8);
    } else if (p < 40) {
      const uint64_t edges[] = {0, 1, mask, mask >> 1, (mask >> 1) + 1, (mask >> 1) - 1, (mask >> 1) + 2};
      v = edges[gen() % 7];
    } else {
      v = gen();
    }
    v &= mask;
    if (domain == Domain::Divisor && v == 0)
      v = 3;
    return v;
  }
  double v;
  if (domain == Domain::Edges) {
    // f64 sin, cos, erf: where their sequences switch paths or lose the most, with signs.
    // (Not 0x1.6ac5b262ca1ffp+849, the double closest to a multiple of pi/2: glibc's cos
    // is 8 ulps off there, the backend's 0.05 ulp by mpmath.)
    const double edges[] = {0.0, 0x1p-1074, 0x1p-1022, 1e-300, 0x1p-27, 0x1.fffffffffffffp-28, 1e-8, 0.75,
                            std::nextafter(0.75, 0.0), 1.75, 5.75, 5.9, 5.95, 6.0, std::nextafter(6.0, 0.0), 27.0,
                            0.7853981633974483, 1.5707963267948966, 3.141592653589793, 4.71238898038469, 1e5,
                            0x1p20 * 1.5707963267948966, std::nextafter(0x1p20 * 1.5707963267948966, 0.0),
                            0x1p21, 1e22, 0x1.fffffffffffffp+1023, 0x1p1023, 9.3e18,
                            INFINITY, NAN};
    double e = edges[gen() % std::size(edges)];
    return encode(t, (gen() & 1) ? -e : e);
  }
  if (domain == Domain::Periodic && p < 70) {
    // sin and cos: next to multiples of pi/2 (a few ulps off), up to 1e5 and beyond,
    // tiny and huge magnitudes; the rest as Any.
    if (p < 30) {
      double k = double(int64_t(gen() % 200001) - 100000);
      v = std::nextafter(k * 1.5707963267948966, (gen() & 1) ? INFINITY : -INFINITY);
      for (int steps = int(gen() % 4); steps > 0; --steps)
        v = std::nextafter(v, (gen() & 1) ? INFINITY : -INFINITY);
    } else if (p < 50) {
      v = std::uniform_real_distribution<double>(-1e5, 1e5)(gen);
    } else {
      v = std::ldexp(std::uniform_real_distribution<double>(-1, 1)(gen), int(gen() % 2070) - 1045);
    }
    return encode(t, v);
  }
  if (domain == Domain::Unit) {
    v = std::uniform_real_distribution<double>(-1, 1)(gen);
  } else if (domain == Domain::Small) {
    v = std::uniform_real_distribution<double>(-10, 10)(gen);
  } else if (p < 60) {
    v = std::uniform_real_distribution<double>(-100, 100)(gen);
  } else if (p < 75) {
    v = std::ldexp(std::uniform_real_distribution<double>(-1, 1)(gen), int(gen() % 80) - 40);
  } else {
    const double specials[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 0.5, 3e38, -3e38, 65504, 1e-40,
                               -1e-45, 2147483648.0, -2147483649.0, 4294967296.0, 9.3e18, 255.5, -128.5, 1e-8};
    v = specials[gen() % std::size(specials)];
  }
  if (domain == Domain::Positive)
    v = std::abs(v);
  return encode(t, v);
}

// The distance in units in the last place between two finite floats of type `t`.
double ulpDistance(Type t, uint64_t a, uint64_t b) {
  unsigned w = t.bitWidth();
  auto ordered = [&](uint64_t x) -> int64_t {
    uint64_t sign = uint64_t(1) << (w - 1);
    uint64_t magnitude = x & (sign - 1);
    return (x & sign) ? -int64_t(magnitude) : int64_t(magnitude);
  };
  return std::abs(double(ordered(a) - ordered(b)));
}

bool isSubnormal(Type t, uint64_t bits) {
  if (!t.isFloat())
    return false;
  double v = decode(t, bits);
  double smallestNormal = t == Type::f16() ? 0x1p-14 : t == Type::f64() ? 0x1p-1022 : 0x1p-126;
  return v != 0 && std::abs(v) < smallestNormal;
}

bool hasSubnormalInput(const Case &c, const std::vector<std::vector<uint8_t>> &inputs, int i) {
  for (size_t k = 0; k < inputs.size(); ++k) {
    uint64_t v = 0;
    std::memcpy(&v, inputs[k].data() + i * bytesOf(c.ins[k]), bytesOf(c.ins[k]));
    if (isSubnormal(c.ins[k], v))
      return true;
  }
  return false;
}

// Subnormals of f32's exponent range (f32 and bf16): the ones a device without
// shaderDenormPreserveFloat32 may flush to zero.
bool isF32RangeSubnormal(Type t, uint64_t bits) { return (t == Type::f32() || t == Type::bf16()) && isSubnormal(t, bits); }

// The inputs with every f32-range subnormal replaced by a zero of its sign.
std::vector<std::vector<uint8_t>> flushedInputs(const Case &c, std::vector<std::vector<uint8_t>> inputs) {
  for (size_t k = 0; k < inputs.size(); ++k)
    for (int i = 0; i < kN; ++i) {
      unsigned n = bytesOf(c.ins[k]);
      uint64_t v = 0;
      std::memcpy(&v, inputs[k].data() + i * n, n);
      if (isF32RangeSubnormal(c.ins[k], v)) {
        v &= uint64_t(1) << (8 * n - 1);
        std::memcpy(inputs[k].data() + i * n, &v, n);
      }
    }
  return inputs;
}

std::string moduleText(const Case &c) {
  std::ostringstream s;
  std::string n = std::to_string(kN);
  s << "builtin.module ({\n  tt.func {sym_name = \"k\"} ({\n  ^(";
  for (size_t i = 0; i < c.ins.size(); ++i)
    s << "%in" << i << ": ptr<" << c.ins[i].str() << ">, ";
  s << "%out: ptr<" << c.out.str() << ">):\n";
  s << "    %r = tt.make_range {end = " << n << ", start = 0} : block<" << n << "xi32>\n";
  for (size_t i = 0; i < c.ins.size(); ++i) {
    std::string t = c.ins[i].str();
    s << "    %s" << i << " = tt.splat %in" << i << " : block<" << n << "xptr<" << t << ">>\n";
    s << "    %p" << i << " = tt.addptr %s" << i << ", %r : block<" << n << "xptr<" << t << ">>\n";
    s << "    %x" << i << " = tt.load %p" << i << " : block<" << n << "x" << t << ">\n";
  }
  s << "    %y = " << c.op;
  for (size_t i = 0; i < c.ins.size(); ++i)
    s << (i ? ", " : " ") << "%x" << i;
  s << c.attrs << " : block<" << n << "x" << c.out.str() << ">\n";
  s << "    %so = tt.splat %out : block<" << n << "xptr<" << c.out.str() << ">>\n";
  s << "    %po = tt.addptr %so, %r : block<" << n << "xptr<" << c.out.str() << ">>\n";
  s << "    tt.store %po, %y\n    tt.return\n  })\n})\n";
  return s.str();
}

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

// Runs one case on both sides; returns a description of the first mismatches ("" when none).
std::string runCase(const Case &c, uint64_t seed) {
  VulkanHarness &h = *harness;
  std::string text = moduleText(c);
  Diagnostics diags;
  std::optional<Module> m = parseModule(text, c.op, diags);
  if (!m || !verify(*m, diags))
    return "invalid test kernel:\n" + diags.str() + text;

  std::mt19937_64 gen(seed);
  std::vector<std::vector<uint8_t>> inputs;
  for (size_t operand = 0; operand < c.ins.size(); ++operand) {
    Type t = c.ins[operand];
    std::vector<uint8_t> bytes(kN * bytesOf(t));
    Domain d = c.domain;
    if (operand == 0 && c.ins.size() > 1 && (d == Domain::Shift || d == Domain::Divisor))
      d = Domain::Any; // the domain constrains the second operand
    for (int i = 0; i < kN; ++i) {
      uint64_t v = randomElement(gen, t, d);
      std::memcpy(bytes.data() + i * bytesOf(t), &v, bytesOf(t));
    }
    inputs.push_back(std::move(bytes));
  }
  unsigned outBytes = bytesOf(c.out);

  // The reference; and, on a device that flushes f32 subnormals, the reference on
  // inputs flushed the same way.
  auto reference = [&](std::vector<std::vector<uint8_t>> &ins, std::vector<uint8_t> &result) {
    Interpreter interp;
    std::vector<KernelArg> args;
    for (size_t i = 0; i < ins.size(); ++i) {
      interp.addBuffer(ins[i].data(), ins[i].size());
      args.push_back(KernelArg::pointer(ins[i].data(), c.ins[i]));
    }
    interp.addBuffer(result.data(), result.size());
    args.push_back(KernelArg::pointer(result.data(), c.out));
    return interp.run(*m, "k", args, {1, 1, 1}, diags);
  };
  std::vector<uint8_t> expected(kN * outBytes, 0xcd), expectedFlushed;
  if (!reference(inputs, expected))
    return "the interpreter failed:\n" + diags.str();
  if (flushesF32Subnormals) {
    std::vector<std::vector<uint8_t>> flushed = flushedInputs(c, inputs);
    expectedFlushed.assign(kN * outBytes, 0xcd);
    if (!reference(flushed, expectedFlushed))
      return "the interpreter failed:\n" + diags.str();
  }

  // The device.
  std::vector<trident_devptr> buffers;
  std::vector<trident_kernel_arg> deviceArgs;
  for (const auto &in : inputs) {
    buffers.push_back(h.upload(in));
    deviceArgs.push_back(h.ptr(buffers.back()));
  }
  buffers.push_back(h.upload(std::vector<uint8_t>(kN * outBytes, 0xcd)));
  deviceArgs.push_back(h.ptr(buffers.back()));
  std::string problems;
  try {
    VulkanHarness::Kernel k = h.load(text, "k", 4);
    h.launch(k, {1, 1, 1}, deviceArgs);
    std::vector<uint8_t> got = h.download<uint8_t>(buffers.back(), kN * outBytes);
    h.unload(k);
    int shown = 0, bad = 0;
    for (int i = 0; i < kN; ++i) {
      uint64_t e = 0, g = 0;
      std::memcpy(&e, expected.data() + i * outBytes, outBytes);
      std::memcpy(&g, got.data() + i * outBytes, outBytes);
      bool ok = e == g;
      if (!ok && c.out.isFloat() && std::isnan(decode(c.out, e)) && std::isnan(decode(c.out, g)))
        ok = true; // NaN payloads are unspecified
      if (!ok && flushesF32Subnormals) {
        // Accepted only as the flushing the device declares: the result of the flushed
        // inputs, itself flushed when it is an f32-range subnormal.
        uint64_t f = 0;
        std::memcpy(&f, expectedFlushed.data() + i * outBytes, outBytes);
        uint64_t signBit = uint64_t(1) << (8 * outBytes - 1);
        bool flushedMatch = g == f || (isF32RangeSubnormal(c.out, f) && (g & ~signBit) == 0) ||
                            (c.out.isFloat() && std::isnan(decode(c.out, f)) && std::isnan(decode(c.out, g)));
        if (flushedMatch && (hasSubnormalInput(c, inputs, i) || isF32RangeSubnormal(c.out, e))) {
          ++flushedElements;
          std::string name = c.op + " " + c.ins[0].str();
          if (flushedOps.find(name) == std::string::npos)
            flushedOps += (flushedOps.empty() ? "" : ", ") + name;
          continue;
        }
      }
      if (!ok && c.op.rfind("math.", 0) == 0 && c.ulps > 0 && hasSubnormalInput(c, inputs, i))
        continue; // math.* approximations may flush subnormals (docs/ir.md)
      if (!ok && c.out.isFloat()) {
        double ev = decode(c.out, e), gv = decode(c.out, g);
        if (std::isnan(ev) && std::isnan(gv))
          ok = true; // NaN payloads are unspecified
        else if (std::isfinite(ev) && std::isfinite(gv) && (c.ulps > 0 || c.absolute > 0))
          ok = ulpDistance(c.out, e, g) <= c.ulps || std::abs(ev - gv) <= c.absolute;
        // Trident's own f64 sequences keep the sign of a zero result (sin(-0) = -0).
        if (ok && c.out == Type::f64() && ev == 0 && gv == 0)
          ok = std::signbit(ev) == std::signbit(gv);
      }
      if (!ok) {
        ++bad;
        if (shown++ < 4) {
          problems += "  element " + std::to_string(i) + ": inputs";
          for (size_t k2 = 0; k2 < inputs.size(); ++k2) {
            uint64_t v = 0;
            std::memcpy(&v, inputs[k2].data() + i * bytesOf(c.ins[k2]), bytesOf(c.ins[k2]));
            problems += " " + hex(v) + (c.ins[k2].isFloat() ? " (" + std::to_string(decode(c.ins[k2], v)) + ")" : "");
          }
          problems += ": expected " + hex(e) + (c.out.isFloat() ? " (" + std::to_string(decode(c.out, e)) + ")" : "") +
                      ", got " + hex(g) + (c.out.isFloat() ? " (" + std::to_string(decode(c.out, g)) + ")" : "") + "\n";
        }
      }
    }
    if (bad)
      problems = std::to_string(bad) + " of " + std::to_string(kN) + " elements differ:\n" + problems;
  } catch (const std::exception &e) {
    problems = e.what();
  }
  for (trident_devptr p : buffers)
    h.free(p);
  return problems;
}

// Whether kernels for this device keep f32 subnormals: the plugin asks for the
// DenormPreserve execution mode exactly where the device reports
// shaderDenormPreserveFloat32 (VkPhysicalDeviceFloatControlsProperties), so the SPIR-V
// it makes for an f32 kernel says it. Without the mode Vulkan lets the implementation
// flush subnormals in any operation (NVIDIA's driver on the H200 keeps them through adds
// and multiplies, flushes them in comparisons, division, square root and conversions).
bool preservesF32Subnormals() {
  Case addf{"arith.addf", {Type::f32(), Type::f32()}, Type::f32(), "", 0, 0, Domain::Any};
  std::vector<uint8_t> text = harness->compile(moduleText(addf), "k", "spirv-asm", 4);
  return std::string(text.begin(), text.end()).find("OpExecutionMode %k DenormPreserve 32") != std::string::npos;
}

std::vector<Case> cases() {
  std::vector<Case> out;
  auto add = [&](std::string op, std::vector<Type> ins, Type res, std::string attrs = "", double ulps = 0,
                 Domain d = Domain::Any, double absolute = 0) {
    out.push_back({std::move(op), std::move(ins), res, std::move(attrs), ulps, absolute, d});
  };
  const Type ints[] = {Type::i8(), Type::i16(), Type::i32(), Type::i64()};
  for (Type t : ints) {
    for (const char *op : {"arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori", "arith.xori",
                           "arith.minsi", "arith.minui", "arith.maxsi", "arith.maxui"})
      add(op, {t, t}, t);
    for (const char *op : {"arith.divsi", "arith.divui", "arith.remsi", "arith.remui"})
      add(op, {t, t}, t, "", 0, Domain::Divisor);
    for (const char *op : {"arith.shli", "arith.shrsi", "arith.shrui"})
      add(op, {t, t}, t, "", 0, Domain::Shift);
    add("math.absi", {t}, t);
  }
  for (Type t : {Type::i32(), Type::i64()})
    add("tt.umulhi", {t, t}, t);
  for (const char *p : {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"}) {
    add("arith.cmpi", {Type::i32(), Type::i32()}, Type::i1(), std::string(" {predicate = \"") + p + "\"}");
    add("arith.cmpi", {Type::i1(), Type::i1()}, Type::i1(), std::string(" {predicate = \"") + p + "\"}");
  }
  add("arith.cmpi", {Type::i8(), Type::i8()}, Type::i1(), " {predicate = \"slt\"}");
  add("arith.cmpi", {Type::i64(), Type::i64()}, Type::i1(), " {predicate = \"ugt\"}");
  for (const char *op : {"arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori", "arith.xori",
                         "arith.minsi", "arith.minui", "arith.maxsi", "arith.maxui"})
    add(op, {Type::i1(), Type::i1()}, Type::i1());

  const Type floats[] = {Type::f16(), Type::bf16(), Type::f32(), Type::f64()};
  for (Type t : floats) {
    for (const char *op : {"arith.addf", "arith.subf", "arith.mulf", "arith.minimumf", "arith.maximumf",
                           "arith.minnumf", "arith.maxnumf", "tt.precise_divf"})
      add(op, {t, t}, t);
    add("arith.divf", {t, t}, t, "", 3);
    add("arith.remf", {t, t}, t);
    // Exact, but bf16 rounds through f32 (one ulp).
    add("math.fma", {t, t, t}, t, "", t == Type::bf16() ? 1 : 0);
    for (const char *op : {"arith.negf", "math.absf", "math.floor", "math.ceil", "tt.precise_sqrt"})
      add(op, {t}, t);
    add("math.sqrt", {t}, t, "", 3);
    add("math.rsqrt", {t}, t, "", 4, Domain::Positive);
    for (const char *p : {"oeq", "one", "olt", "ole", "ogt", "oge", "ord", "ueq", "une", "ult", "ule", "ugt", "uge",
                          "uno"})
      add("arith.cmpf", {t, t}, Type::i1(), std::string(" {predicate = \"") + p + "\"}");
  }
  for (Type t : {Type::f16(), Type::bf16(), Type::f32()}) {
    add("math.exp", {t}, t, "", 64, Domain::Small);
    add("math.exp2", {t}, t, "", 64, Domain::Small);
    add("math.log", {t}, t, "", 8, Domain::Positive, 1e-6);
    add("math.log2", {t}, t, "", 8, Domain::Positive, 1e-6);
    add("math.sin", {t}, t, "", 8, Domain::Small, 5e-4);
    add("math.cos", {t}, t, "", 8, Domain::Small, 5e-4);
    add("math.erf", {t}, t, "", 8, Domain::Small, 1e-6);
  }
  add("math.erf", {Type::f32()}, Type::f32(), "", 4, Domain::Unit);
  // f64 exp and log have their own sequences (GLSL has no f64 form): specials, overflow,
  // underflow and negative arguments included.
  // On lavapipe, at 1 ulp (2 for log2) about one run in twenty had an element off.
  for (const char *op : {"math.exp", "math.exp2", "math.log", "math.log2"}) {
    double ulps = std::string(op) == "math.log2" ? 3 : 2;
    add(op, {Type::f64()}, Type::f64(), "", ulps);
    add(op, {Type::f64()}, Type::f64(), "", ulps, op[6] == 'e' ? Domain::Small : Domain::Positive);
  }
  // So have f64 sin, cos and erf: specials, arguments next to multiples of pi/2, huge
  // ones (2^21 and beyond: the wide reduction), erf's tails and its piece boundaries.
  for (const char *op : {"math.sin", "math.cos", "math.erf"})
    for (Domain d : {Domain::Any, Domain::Small, Domain::Periodic, Domain::Edges})
      add(op, {Type::f64()}, Type::f64(), "", 2, d);

  // Casts.
  for (auto [from, to] : {std::pair{Type::i8(), Type::i32()}, {Type::i16(), Type::i64()}, {Type::i32(), Type::i64()},
                          {Type::i1(), Type::i32()}, {Type::i1(), Type::i8()}}) {
    add("arith.extsi", {from}, to);
    add("arith.extui", {from}, to);
  }
  for (auto [from, to] : {std::pair{Type::i64(), Type::i32()}, {Type::i32(), Type::i8()}, {Type::i32(), Type::i1()},
                          {Type::i16(), Type::i8()}})
    add("arith.trunci", {from}, to);
  for (auto [from, to] : {std::pair{Type::i32(), Type::f32()}, {Type::i64(), Type::f64()}, {Type::i8(), Type::f16()},
                          {Type::i32(), Type::bf16()}, {Type::i1(), Type::f32()}, {Type::i64(), Type::f32()}}) {
    add("arith.sitofp", {from}, to);
    add("arith.uitofp", {from}, to);
  }
  for (auto [from, to] : {std::pair{Type::f32(), Type::i32()}, {Type::f32(), Type::i8()}, {Type::f64(), Type::i64()},
                          {Type::f16(), Type::i16()}, {Type::f32(), Type::i64()}, {Type::bf16(), Type::i32()},
                          {Type::f64(), Type::i32()}, {Type::f32(), Type::i1()}}) {
    add("arith.fptosi", {from}, to);
    add("arith.fptoui", {from}, to);
  }
  for (auto [from, to] : {std::pair{Type::f16(), Type::f32()}, {Type::bf16(), Type::f32()}, {Type::f32(), Type::f64()},
                          {Type::f16(), Type::f64()}, {Type::f8e4m3(), Type::f32()}, {Type::f8e5m2(), Type::f32()},
                          {Type::f8e4m3(), Type::f16()}, {Type::f8e5m2(), Type::bf16()}, {Type::bf16(), Type::f64()}})
    add("arith.extf", {from}, to);
  for (auto [from, to] : {std::pair{Type::f32(), Type::f16()}, {Type::f64(), Type::f32()}, {Type::f32(), Type::bf16()},
                          {Type::f64(), Type::f16()}, {Type::f64(), Type::bf16()}})
    add("arith.truncf", {from}, to);
  add("arith.truncf", {Type::f32()}, Type::bf16(), " {rounding = \"rtz\"}");
  for (auto [from, to] : {std::pair{Type::f32(), Type::i32()}, {Type::i16(), Type::f16()}, {Type::bf16(), Type::i16()},
                          {Type::i64(), Type::f64()}})
    add("tt.bitcast", {from}, to);
  add("arith.select", {Type::i1(), Type::f32(), Type::f32()}, Type::f32());
  add("arith.select", {Type::i1(), Type::i64(), Type::i64()}, Type::i64());
  add("arith.select", {Type::i1(), Type::i1(), Type::i1()}, Type::i1());
  return out;
}

} // namespace

// TRIDENT_TEST_SEED=N repeats a run; TRIDENT_TEST_OP=name runs only the cases of one op.
TEST_CASE("elementwise ops agree with the reference interpreter") {
  const char *seedText = std::getenv("TRIDENT_TEST_SEED");
  uint64_t seed = seedText ? std::strtoull(seedText, nullptr, 10) : std::random_device()();
  CAPTURE(seed);
  int failed = 0;
  flushesF32Subnormals = !preservesF32Subnormals();
  if (flushesF32Subnormals)
    MESSAGE("NOTE: ", harness->props.name, " does not report shaderDenormPreserveFloat32, so Vulkan lets it flush "
            "f32 subnormals (bf16 computes in f32): an element with an f32-range subnormal input or result must "
            "match either the reference or the reference on flushed inputs with a flushed result");
  else
    MESSAGE(harness->props.name, " reports shaderDenormPreserveFloat32 (kernels run with DenormPreserve 32): "
                                 "subnormals must be exact");
  std::vector<Case> all = cases();
  if (const char *only = std::getenv("TRIDENT_TEST_OP"))
    std::erase_if(all, [&](const Case &c) { return c.op != only; });
  for (size_t i = 0; i < all.size(); ++i) {
    const Case &c = all[i];
    std::string problems = runCase(c, seed + i);
    std::string ins;
    for (Type t : c.ins)
      ins += (ins.empty() ? "" : ", ") + t.str();
    INFO(c.op, c.attrs, " (", ins, ") -> ", c.out.str());
    CHECK_MESSAGE(problems.empty(), problems);
    failed += !problems.empty();
  }
  size_t agreed = all.size() - size_t(failed);
  MESSAGE(agreed, " of ", all.size(), " elementwise cases agree");
  if (flushedElements)
    MESSAGE("NOTE: ", flushedElements, " elements matched only as flushed f32 subnormals (", flushedOps,
            "): the device flushed them, as it may without shaderDenormPreserveFloat32");
}
