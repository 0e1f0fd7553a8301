// Rules of builtin.module, tt.func, tt.return and tt.call.

#include "OpChecker.h"

#include <set>

namespace trident::verifier {

namespace {

void verifyModule(OpChecker &c) {
  const Op *op = c.op();
  if (op->parentOp())
    c.error("must be the top-level op");
  const Block *body = op->region();
  if (body->numArguments() != 0)
    c.error("region must have no arguments");
  std::set<std::string> names;
  for (const Op *inner : *body) {
    if (!inner->is(OpCode::Func)) {
      c.error("may only contain 'tt.func' ops, got '" + std::string(inner->name()) + "'");
      continue;
    }
    const Attribute &name = inner->attr("sym_name");
    if (name.isString() && !names.insert(name.getString()).second) {
      OpChecker f(inner, c.diags());
      f.error("redefines function \"" + name.getString() + "\"");
    }
  }
}

void verifyFunc(OpChecker &c) {
  const Op *op = c.op();
  if (op->parentOp() && !op->parentOp()->is(OpCode::Module))
    c.error("must be directly inside 'builtin.module'");
  if (std::optional<std::string> name = c.stringAttr("sym_name", true); name && name->empty())
    c.error("attribute 'sym_name' must not be empty");
  else if (name && name->find('\0') != std::string::npos) // kernel names travel as C strings
    c.error("attribute 'sym_name' must not contain a NUL byte");
  if (const Attribute::TypeArray *results = c.typesAttr("result_types", false)) {
    if (results->empty())
      c.error("attribute 'result_types' must be omitted when the function returns nothing");
    for (size_t i = 0; i < results->size(); ++i)
      if (std::string problem = typeProblem((*results)[i]); !problem.empty())
        c.error("result #" + std::to_string(i) + " " + problem);
  }
  c.boolAttr("noinline");
  if (const Attribute::IntArray *divisibility = c.intsAttr("arg_divisibility", false)) {
    if (divisibility->size() != op->region()->numArguments())
      c.error("attribute 'arg_divisibility' has " + counted(divisibility->size(), "entry", "entries") +
              ", expected one per parameter (" + std::to_string(op->region()->numArguments()) + ")");
    for (int64_t d : *divisibility)
      if (d < 1) {
        c.error("attribute 'arg_divisibility' entries must be at least 1, got " + std::to_string(d));
        break;
      }
  }
  c.terminatorOf(0, OpCode::Return);
}

void verifyReturn(OpChecker &c) {
  const Op *parent = c.op()->parentOp();
  if (!parent || !parent->is(OpCode::Func)) {
    c.error("must be directly inside a 'tt.func'");
    return;
  }
  std::vector<Type> results = func::resultTypes(parent);
  checkTerminatorValues(c, results, "the 'tt.func' result types");
}

void verifyCall(OpChecker &c) {
  const Op *op = c.op();
  std::optional<std::string> callee = c.stringAttr("callee", true);
  if (!callee)
    return;
  const Op *module = enclosingModule(op);
  if (!module) {
    c.error("is not inside a module, so callee \"" + *callee + "\" cannot be found");
    return;
  }
  const Op *target = nullptr;
  for (const Op *f : *module->region())
    if (f->is(OpCode::Func) && f->attr("sym_name").isString() && f->attr("sym_name").getString() == *callee)
      target = f;
  if (!target) {
    c.error("calls \"" + *callee + "\", which is not a function of the module");
    return;
  }
  std::vector<Type> params = func::argumentTypes(target);
  if (params.size() != op->numOperands()) {
    c.error("passes " + counted(op->numOperands(), "argument") + ", but \"" + *callee + "\" takes " +
            std::to_string(params.size()));
  } else {
    for (unsigned i = 0; i < params.size(); ++i)
      if (c.operand(i) != params[i])
        c.error("argument #" + std::to_string(i) + " has type " + c.operand(i).str() + ", but \"" + *callee +
                "\" expects " + params[i].str());
  }
  std::vector<Type> results = func::resultTypes(target);
  if (results.size() != op->numResults()) {
    c.error("has " + counted(op->numResults(), "result") + ", but \"" + *callee + "\" returns " +
            std::to_string(results.size()));
  } else {
    for (unsigned i = 0; i < results.size(); ++i)
      if (c.result(i) != results[i])
        c.error("result #" + std::to_string(i) + " has type " + c.result(i).str() + ", but \"" + *callee +
                "\" returns " + results[i].str());
  }
}

} // namespace

void verifyStructureOp(OpChecker &c) {
  switch (c.op()->code()) {
  case OpCode::Module: return verifyModule(c);
  case OpCode::Func: return verifyFunc(c);
  case OpCode::Return: return verifyReturn(c);
  case OpCode::Call: return verifyCall(c);
  default: return;
  }
}

} // namespace trident::verifier
