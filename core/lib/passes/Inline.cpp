#include "trident/passes/Inline.h"

#include <map>
#include <set>

namespace trident {

namespace {

bool boolAttr(const Op *op, std::string_view name) {
  const Attribute &a = op->attr(name);
  return a.isBool() && a.getBool();
}

std::vector<Op *> callsIn(Op *f) {
  std::vector<Op *> calls;
  f->walk([&](Op *op) {
    if (op->is(OpCode::Call))
      calls.push_back(op);
  });
  return calls;
}

Op *calleeOf(const Module &m, const Op *call) {
  const Attribute &callee = call->attr("callee");
  return callee.isString() ? m.lookupFunction(callee.getString()) : nullptr;
}

// Copies the callee's body in place of `call`; its tt.return gives the results.
void inlineCall(Op *call, const Op *callee) {
  const Block *body = callee->region();
  ValueMap map;
  for (unsigned i = 0; i < body->numArguments(); ++i)
    map.map(body->argument(i), call->operand(i));
  const Op *ret = body->terminator();
  for (const Op *op = body->front(); op && op != ret; op = op->next())
    call->parentBlock()->insertBefore(call, op->clone(map));
  for (unsigned i = 0; i < call->numResults(); ++i)
    call->result(i)->replaceAllUsesWith(map.lookup(ret->operand(i)));
  call->erase();
}

class Inliner {
public:
  explicit Inliner(Module &m) : module_(m) {}

  void processOnce(Op *f) {
    if (state_[f] == State::Unvisited)
      process(f);
  }

private:
  // Inlines into `f` after its callees were themselves processed (post-order of
  // the call graph); a callee still in progress is recursive and stays a call.
  void process(Op *f) {
    state_[f] = State::InProgress;
    for (Op *call : callsIn(f)) {
      Op *callee = calleeOf(module_, call);
      if (callee && state_[callee] == State::Unvisited)
        process(callee);
    }
    for (Op *call : callsIn(f)) {
      Op *callee = calleeOf(module_, call);
      if (callee && state_[callee] == State::Done && !boolAttr(callee, "noinline") &&
          callee->region()->terminator())
        inlineCall(call, callee);
    }
    state_[f] = State::Done;
  }

  enum class State { Unvisited, InProgress, Done };
  Module &module_;
  std::map<const Op *, State> state_;
};

// Erases private functions that no other function calls, until none is left.
void dropUnusedPrivateFunctions(Module &m) {
  for (bool changed = true; changed;) {
    changed = false;
    std::set<std::string, std::less<>> called;
    for (Op *f : m.functions())
      for (Op *call : callsIn(f))
        if (const Attribute &callee = call->attr("callee");
            callee.isString() && callee.getString() != func::name(f))
          called.insert(callee.getString());
    for (Op *f : m.functions())
      if (boolAttr(f, "private") && !called.count(func::name(f))) {
        f->erase();
        changed = true;
      }
  }
}

} // namespace

bool inlineCalls(Module &m, Diagnostics &) {
  Inliner inliner(m);
  for (Op *f : m.functions())
    inliner.processOnce(f);
  dropUnusedPrivateFunctions(m);
  return true;
}

} // namespace trident
