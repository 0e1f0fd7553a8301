// Every block-IR op on every element type it takes compiles to PTX for sm_80 and
// sm_90 (LLVM must be able to select each of them), and ptxas accepts the result:
// elementwise arithmetic, comparisons, math and casts, reductions and scans (warp
// shuffles of every width), and atomics of every kind.
#include "trident/backends/nvptx/CodeGen.h"
#include "trident/backends/nvptx/Target.h"
#include "trident/ir/ArithOps.h"
#include "trident/ir/Builder.h"
#include "trident/ir/MathOps.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <unistd.h>

using namespace trident;
namespace fs = std::filesystem;

namespace {

constexpr int64_t kBlock = 256;

bool havePtxas() { return std::string(TRIDENT_PTXAS).size() > 0 && fs::exists(TRIDENT_PTXAS); }

int runPtxas(const std::string &ptx, const std::string &arch, std::string &output) {
  fs::path dir = fs::temp_directory_path();
  std::string stem = "trident_ops_" + std::to_string(::getpid()) + "_" + arch;
  fs::path file = dir / (stem + ".ptx"), log = dir / (stem + ".log");
  std::ofstream(file) << ptx;
  std::string cmd = std::string(TRIDENT_PTXAS) + " -arch=" + nvptx::llvmProcessor(arch) + " " + file.string() + " -o /dev/null > " +
                    log.string() + " 2>&1";
  int rc = std::system(cmd.c_str());
  std::ifstream in(log);
  std::stringstream ss;
  ss << in.rdbuf();
  output = ss.str();
  fs::remove(file);
  fs::remove(log);
  return rc;
}

// A kernel (x: ptr<T>, y: ptr<T>, out: ptr<R>...) that loads blocks x and y and stores
// what `body` computes from them, one output pointer per result.
struct KernelBuilder {
  Module module;
  Builder b{module};
  Value *x = nullptr, *y = nullptr;
  Op *func = nullptr;
  std::vector<Type> outTypes;

  void build(Type t, const std::vector<Type> &outs,
             const std::function<std::vector<Value *>(KernelBuilder &)> &body) {
    outTypes = outs;
    std::vector<Type> params{Type::ptr(t), Type::ptr(t)};
    for (Type o : outs)
      params.push_back(Type::ptr(o));
    func = b.func("ops", params, {});
    b.setInsertionPointToEnd(func->region());
    Value *offs = b.makeRange(0, kBlock);
    int64_t shape[] = {kBlock};
    auto ptrs = [&](unsigned arg) { return b.addPtr(b.splat(func->region()->argument(arg), shape), offs); };
    x = b.load(ptrs(0));
    y = b.load(ptrs(1));
    std::vector<Value *> results = body(*this);
    for (size_t i = 0; i < results.size(); ++i) {
      Value *r = results[i];
      Value *p = ptrs(static_cast<unsigned>(2 + i));
      if (!r->type().isBlock()) // a scalar result (a full reduction): every element gets it
        r = b.splat(r, shape);
      b.store(p, r);
    }
    b.ret();
  }
};

void compileEverywhere(const std::string &name, Module &m) {
  Diagnostics diags;
  bool valid = verify(m, diags);
  INFO(name << "\n" << diags.str() << "\n" << print(m));
  REQUIRE(valid);
  for (const char *arch : {"sm_80", "sm_90"}) {
    INFO(arch);
    std::optional<nvptx::PTXModule> ptx = nvptx::compileModuleToPTX(m, *nvptx::targetDesc(arch), {}, diags);
    INFO(diags.str());
    REQUIRE(ptx.has_value());
    if (havePtxas()) {
      std::string output;
      int rc = runPtxas(ptx->ptx, arch, output);
      INFO(output);
      CHECK(rc == 0);
    }
  }
}

const std::vector<Type> kIntegers = {Type::i8(), Type::i16(), Type::i32(), Type::i64()};
const std::vector<Type> kFloats = {Type::f16(), Type::bf16(), Type::f32(), Type::f64()};

// The ops of ArithOps.def on `elements` of `arity` operands.
std::vector<OpCode> arithOps(ArithElements elements, int arity) {
  std::vector<OpCode> ops;
  for (unsigned i = 0; i < numOpCodes(); ++i)
    if (const ArithOpInfo *a = arithOpInfo(static_cast<OpCode>(i)); a && a->elements == elements && a->arity == arity)
      ops.push_back(a->code);
  return ops;
}

} // namespace

TEST_CASE("integer arithmetic and comparisons on every width") {
  if (!havePtxas())
    std::cout << "SKIPPED (partly): ptxas not found; op PTX is generated but not assembled\n";
  for (Type t : kIntegers) {
    KernelBuilder k;
    std::vector<OpCode> ops = arithOps(ArithElements::Integer, 2);
    REQUIRE(ops.size() == 18);
    std::vector<Type> outs(ops.size() + 2, t);
    k.build(t, outs, [&](KernelBuilder &kb) {
      std::vector<Value *> r;
      for (OpCode op : ops)
        r.push_back(kb.b.binary(op, kb.x, kb.y));
      r.push_back(kb.b.unary(OpCode::AbsI, kb.x));
      r.push_back(kb.b.select(kb.b.cmpi("ult", kb.x, kb.y), kb.x, kb.y));
      return r;
    });
    compileEverywhere("integers " + t.str(), k.module);
  }
}

TEST_CASE("float arithmetic, comparisons and math on every float type") {
  for (Type t : kFloats) {
    KernelBuilder k;
    // Every float op of ArithOps.def, and every unary and binary one of MathOps.def (math.fma below).
    std::vector<OpCode> binary = arithOps(ArithElements::Float, 2), unary = arithOps(ArithElements::Float, 1);
    REQUIRE(binary.size() == 10);
    for (unsigned i = 0; i < numOpCodes(); ++i) {
      const MathOpInfo *math = mathOpInfo(static_cast<OpCode>(i));
      if (math && math->elements == MathElements::Float && math->arity <= 2)
        (math->arity == 1 ? unary : binary).push_back(static_cast<OpCode>(i));
    }
    std::vector<Type> outs(binary.size() + unary.size() + 2, t);
    k.build(t, outs, [&](KernelBuilder &kb) {
      std::vector<Value *> r;
      for (OpCode op : binary)
        r.push_back(kb.b.binary(op, kb.x, kb.y));
      for (OpCode op : unary)
        r.push_back(kb.b.unary(op, kb.x));
      r.push_back(kb.b.fma(kb.x, kb.y, kb.x));
      r.push_back(kb.b.select(kb.b.cmpf("une", kb.x, kb.y), kb.x, kb.y));
      return r;
    });
    compileEverywhere("floats " + t.str(), k.module);
  }
}

TEST_CASE("casts between every pair of types") {
  std::vector<Type> all = kIntegers;
  all.insert(all.end(), kFloats.begin(), kFloats.end());
  for (Type from : all) {
    KernelBuilder k;
    std::vector<std::pair<OpCode, Type>> casts;
    for (Type to : all) {
      if (to == from)
        continue;
      if (from.isInteger() && to.isInteger())
        casts.push_back({to.bitWidth() > from.bitWidth() ? OpCode::ExtSI : OpCode::TruncI, to});
      else if (from.isInteger())
        casts.push_back({OpCode::SIToFP, to});
      else if (to.isInteger())
        casts.push_back({OpCode::FPToSI, to});
      else if (to.bitWidth() > from.bitWidth())
        casts.push_back({OpCode::ExtF, to});
      else if (to.bitWidth() < from.bitWidth())
        casts.push_back({OpCode::TruncF, to});
    }
    for (Type to : kIntegers)
      if (to != from && from.isInteger() && to.bitWidth() > from.bitWidth())
        casts.push_back({OpCode::ExtUI, to});
    if (from.isInteger())
      for (Type to : kFloats)
        casts.push_back({OpCode::UIToFP, to});
    if (from.isFloat())
      for (Type to : kIntegers)
        casts.push_back({OpCode::FPToUI, to});
    std::vector<Type> outs;
    for (auto &c : casts)
      outs.push_back(c.second);
    k.build(from, outs, [&](KernelBuilder &kb) {
      std::vector<Value *> r;
      int64_t shape[] = {kBlock};
      for (auto &[op, to] : casts)
        r.push_back(kb.b.cast(op, kb.x, Type::block(shape, to)));
      return r;
    });
    compileEverywhere("casts from " + from.str(), k.module);
  }
}

TEST_CASE("f8 conversions and rounding toward zero") {
  std::vector<Type> f8 = {Type::f8e4m3(), Type::f8e5m2()};
  for (Type from : kFloats) {
    KernelBuilder k;
    std::vector<Type> outs = f8;
    if (from.bitWidth() > 16)
      outs.push_back(Type::f16());
    if (from.bitWidth() > 16)
      outs.push_back(Type::bf16());
    k.build(from, outs, [&](KernelBuilder &kb) {
      int64_t shape[] = {kBlock};
      std::vector<Value *> r;
      for (size_t i = 0; i < outs.size(); ++i) {
        AttributeList rtz;
        if (i % 2)
          rtz.set("rounding", Attribute::string("rtz"));
        Type types[] = {Type::block(shape, outs[i])};
        Value *operands[] = {kb.x};
        r.push_back(kb.b.create(OpCode::TruncF, operands, types, rtz)->result());
      }
      return r;
    });
    compileEverywhere("truncf from " + from.str(), k.module);
  }
  for (Type from : f8) {
    KernelBuilder k;
    k.build(from, kFloats, [&](KernelBuilder &kb) {
      int64_t shape[] = {kBlock};
      std::vector<Value *> r;
      for (Type to : kFloats)
        r.push_back(kb.b.cast(OpCode::ExtF, kb.x, Type::block(shape, to)));
      return r;
    });
    compileEverywhere("extf from " + from.str(), k.module);
  }
}

TEST_CASE("reductions and scans of every type (shuffles of every width)") {
  std::vector<Type> all = kIntegers;
  all.insert(all.end(), kFloats.begin(), kFloats.end());
  for (Type t : all) {
    KernelBuilder k;
    OpCode add = t.isFloat() ? OpCode::AddF : OpCode::AddI;
    OpCode max = t.isFloat() ? OpCode::MaxNumF : OpCode::MaxSI;
    k.build(t, {t, t, t}, [&](KernelBuilder &kb) {
      auto combine = [](OpCode code) {
        return [code](Builder &ib, std::span<Value *const> l, std::span<Value *const> r) {
          return std::vector<Value *>{ib.binary(code, l[0], r[0])};
        };
      };
      Value *in[] = {kb.x};
      Value *sum = kb.b.reduce(in, 0, combine(add))->result();
      Value *mx = kb.b.reduce(in, 0, combine(max))->result();
      Value *scan = kb.b.scan(in, 0, false, combine(add))->result();
      return std::vector<Value *>{sum, mx, scan};
    });
    compileEverywhere("reduce/scan " + t.str(), k.module);
  }
}

TEST_CASE("atomics of every kind and type") {
  struct Atomic {
    const char *kind;
    std::vector<Type> types;
  };
  std::vector<Atomic> atomics = {
      {"add", {Type::i32(), Type::i64()}},  {"fadd", {Type::f16(), Type::f32(), Type::f64()}},
      {"and", {Type::i32(), Type::i64()}},  {"or", {Type::i32(), Type::i64()}},
      {"xor", {Type::i32(), Type::i64()}},  {"max", {Type::i32(), Type::i64()}},
      {"min", {Type::i32(), Type::i64()}},  {"umax", {Type::i32(), Type::i64()}},
      {"umin", {Type::i32(), Type::i64()}}, {"xchg", {Type::i32(), Type::i64(), Type::f32(), Type::f64()}}};
  for (const Atomic &a : atomics)
    for (Type t : a.types) {
      KernelBuilder k;
      k.build(t, {t, t}, [&](KernelBuilder &kb) {
        int64_t shape[] = {kBlock};
        Value *offs = kb.b.makeRange(0, kBlock);
        Value *p = kb.b.addPtr(kb.b.splat(kb.func->region()->argument(2), shape), offs);
        // A block atomic whose old values are used, and a scalar one (one thread issues it).
        Value *old = kb.b.atomicRMW(a.kind, p, kb.y);
        Value *first = kb.b.addPtr(kb.func->region()->argument(3), kb.b.constInt(0, Type::i32()));
        Value *one = t.isFloat() ? kb.b.constFloat(1.0, t) : kb.b.constInt(1, t);
        Value *scalarOld = kb.b.atomicRMW(a.kind, first, one);
        return std::vector<Value *>{old, scalarOld};
      });
      compileEverywhere(std::string("atomic ") + a.kind + " " + t.str(), k.module);
    }
  for (Type t : {Type::i16(), Type::i32(), Type::i64(), Type::f16(), Type::f32(), Type::f64()}) {
    KernelBuilder k;
    k.build(t, {t}, [&](KernelBuilder &kb) {
      int64_t shape[] = {kBlock};
      Value *offs = kb.b.makeRange(0, kBlock);
      Value *p = kb.b.addPtr(kb.b.splat(kb.func->region()->argument(2), shape), offs);
      return std::vector<Value *>{kb.b.atomicCAS(p, kb.x, kb.y)};
    });
    compileEverywhere("atomic_cas " + t.str(), k.module);
  }
}
