// th.printf and th.assert: the predicate or the failed condition becomes a branch
// around the target's print or assertion call (TargetHooks::printf / assertFail).
#include "Translator.h"

namespace trident::llvmgen {

namespace {
std::string stringOr(const Op *op, const char *name, const char *fallback) {
  const Attribute &a = op->attr(name);
  return a.isString() ? a.getString() : std::string(fallback);
}
} // namespace

bool Translator::translateDebug(Op *op) {
  if (op->is(OpCode::ThPrintf)) {
    std::vector<llvm::Value *> args;
    for (unsigned i = 1; i < op->numOperands(); ++i) {
      llvm::Value *v = value(op->operand(i));
      llvm::Type *t = v->getType();
      if (!t->isIntegerTy(32) && !t->isIntegerTy(64) && !t->isDoubleTy())
        return error(op, "th.printf operand #" + std::to_string(i) + " must be i32, i64 or f64");
      args.push_back(v);
    }
    bool supported = true;
    std::string format = stringOr(op, "format", "");
    predicated(
        value(op->operand(0)),
        [&]() -> llvm::Value * {
          supported = hooks.printf(b, format, args);
          return nullptr;
        },
        nullptr, nullptr);
    if (!supported)
      return error(op, "tt.print (th.printf) is not supported for target '" + std::string(hooks.triple()) +
                           "': it has no device printf without the vendor's device libraries");
    return true;
  }
  bool supported = true;
  const Attribute &line = op->attr("line");
  predicated(
      b.CreateNot(value(op->operand(0))),
      [&]() -> llvm::Value * {
        supported = hooks.assertFail(b, stringOr(op, "message", ""), stringOr(op, "file", "<unknown>"),
                                     line.isInt() ? static_cast<unsigned>(line.getInt()) : 0,
                                     stringOr(op, "function", "<kernel>"));
        return nullptr;
      },
      nullptr, nullptr);
  if (!supported)
    return error(op, "tt.assert (th.assert) is not supported for target '" + std::string(hooks.triple()) + "'");
  return true;
}

} // namespace trident::llvmgen
