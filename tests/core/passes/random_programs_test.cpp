// Differential test: random scalar programs (integer arithmetic, comparisons,
// selects, scf.if, scf.for, scf.while, calls of a private helper) run through random pass
// pipelines must compute what they computed before, on random arguments. A small
// evaluator written here is the reference; the verifier runs after every pass.

#include "trident/ir/Builder.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"
#include "trident/passes/PassManager.h"
#include "trident/passes/PassRegistry.h"

#include <doctest/doctest.h>

#include <map>
#include <random>

using namespace trident;

namespace {

// ---- the reference evaluator, for the ops the generator emits ----

class Evaluator {
public:
  explicit Evaluator(const Module &m) : module_(m) {}

  std::vector<int32_t> call(const Op *f, const std::vector<int32_t> &args) {
    std::map<const Value *, int32_t> env;
    const Block *body = f->region();
    for (unsigned i = 0; i < args.size(); ++i)
      env[body->argument(i)] = args[i];
    return run(body, env);
  }

private:
  // Runs the ops of `block`; returns the values its terminator passes on.
  std::vector<int32_t> run(const Block *block, std::map<const Value *, int32_t> &env) {
    for (const Op *op : *block) {
      auto in = [&](unsigned i) { return env.at(op->operand(i)); };
      auto u = [&](unsigned i) { return static_cast<uint32_t>(in(i)); };
      auto set = [&](int64_t v) { env[op->result()] = static_cast<int32_t>(static_cast<uint32_t>(v)); };
      switch (op->code()) {
      case OpCode::Constant: {
        const Attribute &a = op->attr("value");
        set(a.isBool() ? a.getBool() : a.getInt());
        break;
      }
      case OpCode::AddI: set(int64_t(u(0)) + u(1)); break;
      case OpCode::SubI: set(int64_t(u(0)) - u(1)); break;
      case OpCode::MulI: set(static_cast<int64_t>(uint64_t(u(0)) * u(1))); break;
      case OpCode::AndI: set(u(0) & u(1)); break;
      case OpCode::OrI: set(u(0) | u(1)); break;
      case OpCode::XOrI: set(u(0) ^ u(1)); break;
      case OpCode::ShLI: set(static_cast<uint32_t>(u(0) << u(1))); break;
      case OpCode::ShRUI: set(u(0) >> u(1)); break;
      case OpCode::ShRSI: set(in(0) >> u(1)); break;
      case OpCode::DivSI: set(in(0) / in(1)); break;
      case OpCode::RemUI: set(u(0) % u(1)); break;
      case OpCode::MinSI: set(std::min(in(0), in(1))); break;
      case OpCode::MaxUI: set(std::max(u(0), u(1))); break;
      case OpCode::Select: env[op->result()] = in(0) ? in(1) : in(2); break;
      case OpCode::CmpI: {
        const std::string &p = op->stringAttr("predicate");
        bool r = p == "eq"    ? in(0) == in(1)
                 : p == "ne"  ? in(0) != in(1)
                 : p == "slt" ? in(0) < in(1)
                 : p == "sge" ? in(0) >= in(1)
                 : p == "ult" ? u(0) < u(1)
                              : u(0) >= u(1);
        env[op->result()] = r;
        break;
      }
      case OpCode::If: {
        std::vector<int32_t> out = run(op->region(in(0) ? 0 : 1), env);
        for (unsigned i = 0; i < op->numResults(); ++i)
          env[op->result(i)] = out[i];
        break;
      }
      case OpCode::For: {
        std::vector<int32_t> carried;
        for (unsigned i = 3; i < op->numOperands(); ++i)
          carried.push_back(in(i));
        const Block *body = op->region();
        for (int32_t iv = in(0); iv < in(1); iv += in(2)) {
          env[body->argument(0)] = iv;
          for (unsigned i = 0; i < carried.size(); ++i)
            env[body->argument(1 + i)] = carried[i];
          carried = run(body, env);
        }
        for (unsigned i = 0; i < op->numResults(); ++i)
          env[op->result(i)] = carried[i];
        break;
      }
      case OpCode::While: {
        std::vector<int32_t> carried;
        for (unsigned i = 0; i < op->numOperands(); ++i)
          carried.push_back(in(i));
        const Block *before = op->region(0), *after = op->region(1);
        for (int trips = 0;; ++trips) {
          // The generator's loops end within 3 trips; a broken pass must not hang the test.
          if (trips > 100) {
            FAIL("scf.while runs on and on");
            return {};
          }
          for (unsigned i = 0; i < carried.size(); ++i)
            env[before->argument(i)] = carried[i];
          std::vector<int32_t> forwarded = run(before, env); // the condition, then the values
          if (!forwarded[0]) {
            for (unsigned i = 0; i < op->numResults(); ++i)
              env[op->result(i)] = forwarded[1 + i];
            break;
          }
          for (unsigned i = 0; i < after->numArguments(); ++i)
            env[after->argument(i)] = forwarded[1 + i];
          carried = run(after, env);
        }
        break;
      }
      case OpCode::Call: {
        std::vector<int32_t> args;
        for (unsigned i = 0; i < op->numOperands(); ++i)
          args.push_back(in(i));
        std::vector<int32_t> out = call(module_.lookupFunction(op->stringAttr("callee")), args);
        for (unsigned i = 0; i < op->numResults(); ++i)
          env[op->result(i)] = out[i];
        break;
      }
      case OpCode::Yield:
      case OpCode::Condition:
      case OpCode::Return: {
        std::vector<int32_t> out;
        for (unsigned i = 0; i < op->numOperands(); ++i)
          out.push_back(in(i));
        return out;
      }
      default: FAIL("the evaluator does not know " << op->name()); return {};
      }
    }
    return {};
  }

  const Module &module_;
};

// ---- the generator ----

class Generator {
public:
  explicit Generator(std::mt19937_64 &rng) : rng_(rng) {}

  Module build() {
    Module m;
    Builder b(m);
    Type i32 = Type::i32();
    // A private helper: (x, y) -> (x * 3 + y, x ^ y).
    helper_ = b.func("helper", std::vector<Type>{i32, i32}, std::vector<Type>{i32, i32});
    helper_->setAttr("private", Attribute::boolean(true));
    b.setInsertionPointToEnd(helper_->region());
    Value *x = helper_->region()->argument(0), *y = helper_->region()->argument(1);
    Value *r0 = b.binary(OpCode::AddI, b.binary(OpCode::MulI, x, b.constInt(3, i32)), y);
    Value *r1 = b.binary(OpCode::XOrI, x, y);
    Value *rets[] = {r0, r1};
    b.ret(rets);

    b.setInsertionPointToEnd(m.body());
    Op *f = b.func("f", std::vector<Type>{i32, i32, i32}, std::vector<Type>{i32, i32, i32});
    b.setInsertionPointToEnd(f->region());
    Scope scope;
    for (Value *arg : f->region()->arguments())
      scope.ints.push_back(arg);
    fill(b, scope, 0, 14);
    Value *out[] = {pickInt(scope), pickInt(scope), pickInt(scope)};
    b.ret(out);
    return m;
  }

private:
  struct Scope {
    std::vector<Value *> ints, bools;
  };

  int64_t pick(int64_t n) { return static_cast<int64_t>(rng_() % static_cast<uint64_t>(n)); }
  Value *pickInt(const Scope &s) { return s.ints[pick(static_cast<int64_t>(s.ints.size()))]; }

  Value *constant(Builder &b) {
    static const int64_t values[] = {0, 1, 2, 3, -1, 7, 31, 255, -2147483648LL, 2147483647};
    return b.constInt(values[pick(std::size(values))], Type::i32());
  }

  Value *boolean(Builder &b, Scope &s) {
    if (!s.bools.empty() && pick(3) != 0)
      return s.bools[pick(static_cast<int64_t>(s.bools.size()))];
    return b.constBool(pick(2) == 0);
  }

  // Appends `count` random ops to the insertion block; values they define join `s`.
  void fill(Builder &b, Scope &s, int depth, int count) {
    static const OpCode binaries[] = {OpCode::AddI, OpCode::SubI, OpCode::MulI,  OpCode::AndI,
                                      OpCode::OrI,  OpCode::XOrI, OpCode::MinSI, OpCode::MaxUI};
    static const char *predicates[] = {"eq", "ne", "slt", "sge", "ult", "uge"};
    for (int i = 0; i < count; ++i) {
      int64_t kind = pick(depth < 2 ? 13 : 9);
      if (kind <= 1) {
        s.ints.push_back(constant(b));
      } else if (kind <= 4) {
        Value *lhs = pick(4) == 0 ? constant(b) : pickInt(s);
        s.ints.push_back(b.binary(binaries[pick(std::size(binaries))], lhs, pickInt(s)));
      } else if (kind == 5) {
        // Shifts and divisions by constants that keep them defined.
        static const OpCode shifts[] = {OpCode::ShLI, OpCode::ShRSI, OpCode::ShRUI};
        if (pick(2) == 0)
          s.ints.push_back(b.binary(shifts[pick(3)], pickInt(s), b.constInt(pick(32), Type::i32())));
        else
          s.ints.push_back(b.binary(pick(2) ? OpCode::DivSI : OpCode::RemUI, pickInt(s),
                                    b.constInt(1 + pick(7), Type::i32())));
      } else if (kind == 6) {
        s.bools.push_back(b.cmpi(predicates[pick(std::size(predicates))], pickInt(s), pickInt(s)));
      } else if (kind == 7) {
        s.ints.push_back(b.select(boolean(b, s), pickInt(s), pickInt(s)));
      } else if (kind == 8) {
        Value *args[] = {pickInt(s), pickInt(s)};
        Op *call = b.call(helper_, args);
        s.ints.push_back(call->result(0));
        s.ints.push_back(call->result(1));
      } else if (kind <= 10) {
        buildIf(b, s, depth);
      } else if (kind == 11) {
        buildFor(b, s, depth);
      } else {
        buildWhile(b, s, depth);
      }
    }
  }

  void buildIf(Builder &b, Scope &s, int depth) {
    int results = static_cast<int>(pick(3));
    std::vector<Type> types(results, Type::i32());
    Op *op = b.ifOp(boolean(b, s), types);
    Op *after = op;
    for (unsigned r = 0; r < 2; ++r) {
      Builder inner;
      inner.setInsertionPointToEnd(op->region(r));
      Scope branch = s;
      fill(inner, branch, depth + 1, static_cast<int>(1 + pick(4)));
      std::vector<Value *> yielded;
      for (int i = 0; i < results; ++i)
        yielded.push_back(pickInt(branch));
      inner.yield(yielded);
    }
    for (Value *v : after->results())
      s.ints.push_back(v);
  }

  void buildFor(Builder &b, Scope &s, int depth) {
    // Bounds: constants (0 to 3 trips) or an argument masked to 0..7.
    Value *lb = b.constInt(pick(3), Type::i32());
    Value *ub = pick(2) ? b.constInt(pick(6), Type::i32())
                        : b.binary(OpCode::AndI, s.ints[0], b.constInt(7, Type::i32()));
    Value *step = b.constInt(1 + pick(2), Type::i32());
    int carried = static_cast<int>(pick(3));
    std::vector<Value *> inits;
    for (int i = 0; i < carried; ++i)
      inits.push_back(pickInt(s));
    Op *loop = b.forOp(lb, ub, step, inits);
    Builder inner;
    inner.setInsertionPointToEnd(loop->region());
    Scope body = s;
    for (Value *arg : loop->region()->arguments())
      body.ints.push_back(arg);
    fill(inner, body, depth + 1, static_cast<int>(1 + pick(5)));
    std::vector<Value *> yielded;
    for (int i = 0; i < carried; ++i)
      yielded.push_back(pickInt(body));
    inner.yield(yielded);
    for (Value *v : loop->results())
      s.ints.push_back(v);
  }

  // A counting scf.while (at most 3 trips) carrying one more value; it forwards the
  // counter and a value computed in the before region.
  void buildWhile(Builder &b, Scope &s, int depth) {
    Type i32 = Type::i32();
    Value *inits[] = {b.constInt(pick(3), i32), pickInt(s)};
    Type types[] = {i32, i32};
    Op *loop = b.create(OpCode::While, inits, types, {}, 2);
    Block *before = loop->region(0), *after = loop->region(1);
    Value *counter = before->addArgument(i32);
    Value *carried = before->addArgument(i32);
    Builder inner;
    inner.setInsertionPointToEnd(before);
    Scope head = s;
    head.ints.push_back(counter);
    head.ints.push_back(carried);
    fill(inner, head, depth + 1, static_cast<int>(pick(3)));
    Value *more = inner.cmpi("slt", counter, inner.constInt(3, i32));
    Value *forwarded[] = {more, counter, pickInt(head)};
    inner.create(OpCode::Condition, forwarded, std::span<const Type>{});

    Value *count = after->addArgument(i32);
    Value *value = after->addArgument(i32);
    inner.setInsertionPointToEnd(after);
    Scope body = s;
    body.ints.push_back(count);
    body.ints.push_back(value);
    fill(inner, body, depth + 1, static_cast<int>(1 + pick(4)));
    Value *next[] = {inner.binary(OpCode::AddI, count, inner.constInt(1, i32)), pickInt(body)};
    inner.yield(next);
    for (Value *v : loop->results())
      s.ints.push_back(v);
  }

  std::mt19937_64 &rng_;
  Op *helper_ = nullptr;
};

} // namespace

TEST_CASE("random programs compute the same after random pass pipelines") {
  const uint64_t seed = std::random_device{}();
  INFO("seed = " << seed);
  std::mt19937_64 rng(seed);
  std::span<const PassInfo> passes = allPasses();
  int changedPrograms = 0;
  for (int program = 0; program < 150; ++program) {
    Module m = Generator(rng).build();
    Diagnostics diags;
    REQUIRE(verify(m, diags));
    std::string before = print(m);
    INFO("program:\n" << before);

    std::vector<std::vector<int32_t>> inputs;
    std::vector<std::vector<int32_t>> expected;
    {
      Evaluator eval(m);
      for (int run = 0; run < 8; ++run) {
        std::vector<int32_t> args;
        for (int i = 0; i < 3; ++i)
          args.push_back(static_cast<int32_t>(rng()) >> static_cast<int>(rng() % 32));
        inputs.push_back(args);
        expected.push_back(eval.call(m.lookupFunction("f"), args));
      }
    }

    PassManager pm; // verifies after every pass
    std::string pipeline;
    for (int i = 0, n = 1 + static_cast<int>(rng() % 7); i < n; ++i) {
      const PassInfo &p = passes[rng() % passes.size()];
      pm.add(std::string(p.name), p.run);
      pipeline += " --" + std::string(p.name);
    }
    INFO("pipeline:" << pipeline);
    REQUIRE(pm.run(m, diags));
    std::string after = print(m);
    INFO("after:\n" << after);
    changedPrograms += after != before;

    Evaluator eval(m);
    for (size_t run = 0; run < inputs.size(); ++run)
      CHECK(eval.call(m.lookupFunction("f"), inputs[run]) == expected[run]);
  }
  CHECK(changedPrograms > 100); // the pipelines did transform the programs
}
