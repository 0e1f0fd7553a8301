#include "trident/simt/VerifyThreadIR.h"

#include "trident/ir/Verifier.h"

#include <string>

namespace trident::simt {

namespace {

class Checker {
public:
  explicit Checker(Diagnostics &diags) : diags_(diags) {}

  void check(const Op *op) {
    op_ = op;
    checkTypes();
    switch (op->code()) {
    case OpCode::ThThreadId:
    case OpCode::ThLaneId:
    case OpCode::ThWarpId: expect(op->result()->type() == Type::i32(), "result must be i32"); break;
    case OpCode::ThPack: checkPack(); break;
    case OpCode::ThExtract: checkExtract(); break;
    case OpCode::ThLoad: checkLoad(); break;
    case OpCode::ThStore: checkStore(); break;
    case OpCode::ThAtomicRMW:
    case OpCode::ThAtomicCAS: checkAtomic(); break;
    case OpCode::ThSharedAlloc: checkSharedAlloc(); break;
    case OpCode::ThLoadShared:
    case OpCode::ThStoreShared: checkSharedAccess(); break;
    case OpCode::ThShuffle: checkShuffle(); break;
    case OpCode::ThMma: expect(op->attr("atom").isString(), "needs a string attribute 'atom'"); break;
    case OpCode::ThLdMatrix: checkLdMatrix(); break;
    case OpCode::ThAsyncCopy: checkAsyncCopy(); break;
    case OpCode::ThMbarrierInit:
    case OpCode::ThAsyncArrive:
    case OpCode::ThMbarrierWait:
    case OpCode::ThTmaArrive:
    case OpCode::ThMbarrierArrive: checkMbarrier(); break;
    case OpCode::ThWarpSpecialize: checkWarpSpecialize(); break;
    case OpCode::ThSetMaxNReg: checkSetMaxNReg(); break;
    case OpCode::ThTmaLoad: checkTmaLoad(); break;
    case OpCode::ThAsyncWait:
    case OpCode::ThWgmmaWait:
      expect(op->attr("pending").isInt() && op->intAttr("pending") >= 0,
             "needs a non-negative integer attribute 'pending'");
      if (op->is(OpCode::ThWgmmaWait))
        checkPassThrough();
      break;
    case OpCode::ThWgmma: checkWgmma(); break;
    case OpCode::ThWgmmaFence: checkPassThrough(); break;
    case OpCode::ThBarrier:
      expect(!op->attr("scope").present() || (op->attr("scope").isString() && op->stringAttr("scope") == "subgroup"),
             "has no attribute 'scope' (the program) or the string \"subgroup\"");
      break;
    case OpCode::ThCoopLoad:
    case OpCode::ThCoopStore:
    case OpCode::ThCoopMma:
    case OpCode::ThCoopFill:
    case OpCode::ThCoopExtract:
    case OpCode::ThCoopInsert: checkCoop(); break;
    case OpCode::Func:
      expect(op->attr("num_threads").isInt() && op->intAttr("num_threads") > 0,
             "needs a positive integer attribute 'num_threads' in thread IR");
      break;
    case OpCode::Load:
    case OpCode::Store:
    case OpCode::AtomicRMW:
    case OpCode::AtomicCAS:
    case OpCode::MakeRange:
    case OpCode::Splat:
    case OpCode::Broadcast:
    case OpCode::ExpandDims:
    case OpCode::Reshape:
    case OpCode::Trans:
    case OpCode::Join:
    case OpCode::Split:
    case OpCode::Cat:
    case OpCode::Dot:
    case OpCode::Reduce:
    case OpCode::ReduceReturn:
    case OpCode::Scan:
    case OpCode::ScanReturn:
    case OpCode::Call:
    case OpCode::MultipleOf:
    case OpCode::MaxContiguous:
    case OpCode::Barrier: error("is a block-IR op and cannot appear in thread IR"); break;
    default: break;
    }
  }

private:
  void error(const std::string &message) {
    diags_.error(op_->loc(), "'" + std::string(op_->name()) + "' op " + message);
  }
  void expect(bool ok, const std::string &message) {
    if (!ok)
      error(message);
  }

  // No blocks in thread IR; vectors only where th ops make or take them.
  void checkTypes() {
    auto bad = [&](Type t, const std::string &what) {
      if (t.isBlock())
        error(what + " has block type " + t.str() + "; thread IR has scalars and short vectors only");
    };
    for (unsigned i = 0; i < op_->numResults(); ++i)
      bad(op_->result(i)->type(), "result #" + std::to_string(i));
    for (unsigned r = 0; r < op_->numRegions(); ++r)
      for (unsigned i = 0; i < op_->region(r)->numArguments(); ++i)
        bad(op_->region(r)->argument(i)->type(), "region argument #" + std::to_string(i));
  }

  // Cooperative matrices: shared-memory tiles of their element type, consistent shapes and uses.
  void checkCoop() {
    if (op_->is(OpCode::ThCoopFill)) {
      Type m = op_->result()->type();
      if (!m.isCoopMatrix())
        return error("result must be a coopmat, got " + m.str());
      return expect(op_->operand(0)->type() == m.element(), "operand must be " + m.element().str());
    }
    if (op_->is(OpCode::ThCoopExtract) || op_->is(OpCode::ThCoopInsert)) {
      Type m = op_->operand(0)->type();
      if (!m.isCoopMatrix())
        return error("operand #0 must be a coopmat, got " + m.str());
      // A subgroup holds every element once: no invocation has more components than the matrix has elements.
      expect(op_->attr("index").isInt() && op_->intAttr("index") >= 0 && op_->intAttr("index") < m.numElements(),
             "needs an integer attribute 'index' in [0, " + std::to_string(m.numElements()) + ")");
      if (op_->is(OpCode::ThCoopExtract))
        return expect(op_->result()->type() == m.element(), "result must be " + m.element().str());
      expect(op_->operand(1)->type() == m.element(), "operand #1 must be " + m.element().str());
      return expect(op_->result()->type() == m, "result must be " + m.str());
    }
    if (op_->is(OpCode::ThCoopMma)) {
      Type a = op_->operand(0)->type(), b = op_->operand(1)->type(), c = op_->operand(2)->type();
      Type d = op_->result()->type();
      if (!a.isCoopMatrix() || !b.isCoopMatrix() || !c.isCoopMatrix() || a.matrixUse() != 0 || b.matrixUse() != 1 ||
          c.matrixUse() != 2)
        return error("operands must be coopmats of uses a, b and acc");
      expect(d == c, "result must be " + c.str());
      return expect(a.shape()[0] == c.shape()[0] && a.shape()[1] == b.shape()[0] && b.shape()[1] == c.shape()[1],
                    "shapes " + a.str() + " x " + b.str() + " do not make " + c.str());
    }
    bool store = op_->is(OpCode::ThCoopStore);
    Type m = store ? op_->operand(2)->type() : op_->result()->type();
    if (!m.isCoopMatrix())
      return error(std::string(store ? "operand #2" : "result") + " must be a coopmat, got " + m.str());
    Type element = pointee(0, 3);
    if (!element)
      return;
    expect(element == m.element(), "the allocation's elements must be " + m.element().str());
    expect(op_->operand(1)->type() == Type::i32(), "index must be i32");
    expect(op_->attr("stride").isInt() && op_->intAttr("stride") > 0, "needs a positive integer attribute 'stride'");
    expect(op_->attr("layout").isString() &&
               (op_->stringAttr("layout") == "row" || op_->stringAttr("layout") == "col"),
           "needs a string attribute 'layout', \"row\" or \"col\"");
  }

  // `t` is `element` or a vector of it.
  static bool isElementOrVector(Type t, Type element) {
    return t == element || (t.isVector() && t.element() == element);
  }

  void checkPack() {
    Type element = op_->operand(0)->type();
    for (Value *v : op_->operands())
      if (v->type() != element)
        return error("operands must all have one scalar type, got " + element.str() + " and " +
                     v->type().str());
    expect(op_->result()->type() == Type::vector(op_->numOperands(), element),
           "result must be " + Type::vector(op_->numOperands(), element).str());
  }

  void checkExtract() {
    Type v = op_->operand(0)->type();
    if (!v.isVector())
      return error("operand must be a vector, got " + v.str());
    const Attribute &index = op_->attr("index");
    if (!index.isInt() || index.getInt() < 0 || index.getInt() >= v.numElements())
      return error("needs an integer attribute 'index' in [0, " + std::to_string(v.numElements()) + ")");
    expect(op_->result()->type() == v.element(), "result must be " + v.element().str());
  }

  // Operand `i` is a scalar pointer into address space `space`; returns its pointee.
  Type pointee(unsigned i, unsigned space) {
    Type t = op_->operand(i)->type();
    if (!t.isPtr() || t.addressSpace() != space) {
      error("operand #" + std::to_string(i) + " must be a pointer" + (space ? " into shared memory" : "") +
            ", got " + t.str());
      return Type();
    }
    return t.pointee();
  }

  void checkPredicate(unsigned i) {
    if (op_->numOperands() > i)
      expect(op_->operand(i)->type() == Type::i1(),
             "predicate must be i1, got " + op_->operand(i)->type().str());
  }

  void checkLoad() {
    Type element = pointee(0, 0);
    if (!element)
      return;
    Type r = op_->result()->type();
    expect(isElementOrVector(r, element),
           "result must be " + element.str() + " or a vector of it, got " + r.str());
    checkPredicate(1);
    if (op_->numOperands() > 2)
      expect(op_->operand(2)->type() == r, "'other' must have the result type " + r.str());
  }

  void checkStore() {
    Type element = pointee(0, 0);
    if (!element)
      return;
    Type v = op_->operand(1)->type();
    expect(isElementOrVector(v, element),
           "value must be " + element.str() + " or a vector of it, got " + v.str());
    checkPredicate(2);
  }

  void checkAtomic() {
    Type element = pointee(0, 0);
    if (!element)
      return;
    bool cas = op_->is(OpCode::ThAtomicCAS);
    unsigned numData = cas ? 3 : 2;
    for (unsigned i = 1; i < numData; ++i)
      expect(op_->operand(i)->type() == element, "operand #" + std::to_string(i) + " must be " +
                                                     element.str() + ", got " +
                                                     op_->operand(i)->type().str());
    expect(op_->result()->type() == element, "result must be " + element.str());
    checkPredicate(numData);
    if (!cas)
      checkAtomicKind(element);
    expect(op_->attr("sem").isString() && op_->attr("scope").isString(),
           "needs string attributes 'sem' and 'scope'");
  }

  // th.atomic_rmw keeps tt.atomic_rmw's kinds and the elements each takes: a backend
  // translates "fadd" to a float instruction and the others to integer ones.
  void checkAtomicKind(Type element) {
    const Attribute &kind = op_->attr("kind");
    if (!kind.isString())
      return error("needs a string attribute 'kind'");
    const std::string &name = kind.getString();
    bool known = false;
    for (std::string_view k : kAtomicRMWKinds)
      known = known || k == name;
    std::string what = "kind '" + name + "'";
    if (!known)
      return error(what + " is not an atomic read-modify-write");
    expect(atomicKindSupports(name, element), what + " does not support " + element.str() + " elements");
  }

  void checkSharedAlloc() {
    Type t = op_->result()->type();
    if (!t.isPtr() || t.addressSpace() != 3)
      return error("result must be a pointer into shared memory (address space 3), got " + t.str());
    const Attribute &size = op_->attr("size"), &offset = op_->attr("offset");
    int64_t bytes = t.pointee().bitWidth() / 8;
    if (!size.isInt() || size.getInt() <= 0 || bytes == 0 || size.getInt() % bytes != 0)
      return error("needs a positive integer attribute 'size' that is a multiple of the element size");
    expect(offset.isInt() && offset.getInt() >= -1,
           "needs an integer attribute 'offset' (-1 before allocation)");
  }

  // Operands 0 and 1 of a shared-memory access: an allocation and an i32 index; its
  // element type (null after an error).
  Type sharedElement() {
    const Op *alloc = op_->operand(0)->definingOp();
    if (!alloc || !alloc->is(OpCode::ThSharedAlloc)) {
      error("operand #0 must be the result of th.shared_alloc");
      return Type();
    }
    expect(op_->operand(1)->type() == Type::i32(), "index must be i32, got " + op_->operand(1)->type().str());
    return pointee(0, 3);
  }

  void checkSharedAccess() {
    Type element = sharedElement();
    if (!element)
      return;
    Type v = op_->is(OpCode::ThLoadShared) ? op_->result()->type() : op_->operand(2)->type();
    expect(isElementOrVector(v, element),
           "accessed value must be " + element.str() + " or a vector of it, got " + v.str());
    if (op_->is(OpCode::ThStoreShared))
      checkPredicate(3);
  }

  void checkLdMatrix() {
    Type element = sharedElement();
    if (!element)
      return;
    unsigned bits = element.bitWidth();
    expect(bits == 8 || bits == 16 || bits == 32, "the allocation must hold 8-, 16- or 32-bit elements, got " + element.str());
    const Attribute &count = op_->attr("count"), &trans = op_->attr("trans");
    if (!count.isInt() || (count.getInt() != 1 && count.getInt() != 2 && count.getInt() != 4))
      return error("needs an integer attribute 'count' of 1, 2 or 4");
    expect(trans.isInt() && (trans.getInt() == 0 || (trans.getInt() == 1 && bits == 16)),
           "needs an integer attribute 'trans' of 0 or 1 (1 for 16-bit elements only)");
    if (bits == 8 || bits == 16 || bits == 32)
      expect(op_->result()->type() == Type::vector(count.getInt() * 32 / bits, element),
             "result must be " + Type::vector(count.getInt() * 32 / bits, element).str());
  }

  void checkAsyncCopy() {
    Type element = sharedElement();
    Type source = element ? pointee(2, 0) : Type();
    if (!element || !source)
      return;
    expect(source == element, "source and allocation must hold one element type, got " + source.str() +
                                  " and " + element.str());
    const Attribute &bytes = op_->attr("bytes");
    bool ok = bytes.isInt() && (bytes.getInt() == 4 || bytes.getInt() == 8 || bytes.getInt() == 16) &&
              bytes.getInt() * 8 >= element.bitWidth();
    expect(ok, "needs an integer attribute 'bytes' of 4, 8 or 16 (at least one element)");
    checkPredicate(3);
  }

  void checkMbarrier() {
    Type element = sharedElement();
    if (!element)
      return;
    expect(element == Type::i64(), "the barrier's allocation must hold i64, got " + element.str());
    if (op_->is(OpCode::ThMbarrierInit)) {
      const Attribute &count = op_->attr("count");
      expect(count.isInt() && count.getInt() > 0 && count.getInt() < (1 << 20),
             "needs an integer attribute 'count' in 1 .. 2^20 - 1");
      checkPredicate(2);
    }
    if (op_->is(OpCode::ThMbarrierWait))
      expect(op_->operand(2)->type() == Type::i32(), "parity must be i32, got " + op_->operand(2)->type().str());
    if (op_->is(OpCode::ThMbarrierArrive))
      checkPredicate(2);
    if (op_->is(OpCode::ThTmaArrive)) {
      expect(op_->operand(2)->type() == Type::i32(), "bytes must be i32, got " + op_->operand(2)->type().str());
      expect(op_->operand(3)->type() == Type::i1(), "predicate must be i1, got " + op_->operand(3)->type().str());
    }
  }

  // th.tma_load %dst, %index, %map, %bars, %bar, %pred, %coords...: the map is one of the
  // function's tensor-map parameters (after its own, `tensor_maps`), the barrier an i64 one.
  void checkTmaLoad() {
    if (!sharedElement())
      return;
    const Value *map = op_->operand(2);
    const Op *f = op_->parentOp();
    while (f && !f->is(OpCode::Func))
      f = f->parentOp();
    const Attribute &maps = f ? f->attr("tensor_maps") : Attribute();
    size_t count = maps.isInts() ? maps.getInts().size() / 19 : 0;
    size_t params = f ? f->region()->numArguments() : 0;
    expect(!map->definingOp() && f && map->ownerBlock() == f->region() && map->index() + count >= params,
           "operand #2 must be one of the function's tensor-map parameters (attribute 'tensor_maps')");
    const Op *bars = op_->operand(3)->definingOp();
    expect(bars && bars->is(OpCode::ThSharedAlloc) && pointee(3, 3) == Type::i64(),
           "operand #3 must be a th.shared_alloc of i64 barriers");
    expect(op_->operand(4)->type() == Type::i32(), "the barrier's index must be i32");
    expect(op_->operand(5)->type() == Type::i1(), "predicate must be i1, got " + op_->operand(5)->type().str());
    for (unsigned i = 6; i < op_->numOperands(); ++i)
      expect(op_->operand(i)->type() == Type::i32(), "coordinates must be i32");
  }

  void checkPassThrough() {
    if (op_->numOperands() != op_->numResults())
      return error("needs one result per operand");
    for (unsigned i = 0; i < op_->numOperands(); ++i)
      expect(op_->result(i)->type() == op_->operand(i)->type(), "result #" + std::to_string(i) +
                                                                     " must have its operand's type");
  }

  // The layout attributes of an operand in shared memory (`x` is "a" or "b").
  void checkMatrixLayout(const std::string &x) {
    const Attribute &major = op_->attr(x + "_major"), &swizzle = op_->attr(x + "_swizzle");
    expect(major.isString() && (major.getString() == "k" || major.getString() == "mn"),
           "needs attribute '" + x + "_major' = \"k\" or \"mn\"");
    expect(swizzle.isInt() && (swizzle.getInt() == 32 || swizzle.getInt() == 64 || swizzle.getInt() == 128),
           "needs an integer attribute '" + x + "_swizzle' of 32, 64 or 128");
    for (const char *stride : {"_sbo", "_lbo"}) {
      const Attribute &v = op_->attr(x + stride);
      expect(v.isInt() && v.getInt() > 0 && v.getInt() % 16 == 0 && v.getInt() < (int64_t(1) << 18),
             "needs an integer attribute '" + x + stride + "': a positive multiple of 16 below 2^18");
    }
  }

  void checkWgmma() {
    expect(op_->attr("atom").isString(), "needs a string attribute 'atom'");
    if (!sharedElement())
      return;
    checkMatrixLayout("b");
    const Attribute &a = op_->attr("a");
    if (!a.isString() || (a.getString() != "shared" && a.getString() != "registers"))
      return error("needs attribute 'a' = \"shared\" or \"registers\"");
    if (a.getString() == "shared") {
      const Op *alloc = op_->numOperands() > 3 ? op_->operand(2)->definingOp() : nullptr;
      expect(alloc && alloc->is(OpCode::ThSharedAlloc), "operand #2 (A) must be the result of th.shared_alloc");
      expect(op_->numOperands() > 3 && op_->operand(3)->type() == Type::i32(), "A's index must be i32");
      checkMatrixLayout("a");
    }
  }

  // Producer threads (consumer_threads and up) run region 0, consumers region 1; the op
  // is the last of the kernel's body (nothing flows out of it) and whole warpgroups run
  // each region.
  void checkWarpSpecialize() {
    const Op *f = op_->parentOp();
    if (!f || !f->is(OpCode::Func)) {
      for (const Op *p = f; p; p = p->parentOp())
        if (p->is(OpCode::ThWarpSpecialize))
          return error("cannot be nested in another");
      return error("must be directly inside the 'tt.func'");
    }
    const Attribute &c = op_->attr("consumer_threads");
    int64_t threads = f->attr("num_threads").isInt() ? f->intAttr("num_threads") : 0;
    expect(c.isInt() && c.getInt() > 0 && c.getInt() < threads && c.getInt() % 128 == 0 && threads % 128 == 0,
           "needs an integer attribute 'consumer_threads', a multiple of 128 below the function's num_threads "
           "(itself a multiple of 128)");
    expect(op_->next() && op_->next()->is(OpCode::Return), "must be followed by the function's 'tt.return'");
    for (unsigned r = 0; r < 2; ++r) {
      const Block *region = op_->region(r);
      expect(region->numArguments() == 0, "regions take no arguments");
      for (const Op *inner : *region)
        if (inner->has(kTerminator))
          expect(false, "regions have no terminator, got '" + std::string(inner->name()) + "'");
    }
  }

  void checkSetMaxNReg() {
    const Attribute &count = op_->attr("count"), &mode = op_->attr("mode");
    expect(count.isInt() && count.getInt() >= 24 && count.getInt() <= 256 && count.getInt() % 8 == 0,
           "needs an integer attribute 'count' in 24 .. 256, a multiple of 8");
    expect(mode.isString() && (mode.getString() == "inc" || mode.getString() == "dec"),
           "needs attribute 'mode' = \"inc\" or \"dec\"");
    const Op *parent = op_->parentOp();
    expect(parent && parent->is(OpCode::ThWarpSpecialize), "must be directly inside a 'th.warp_specialize' region");
  }

  void checkShuffle() {
    Type v = op_->operand(0)->type();
    expect(v.isScalar() && v.bitWidth() <= 64, "value must be a scalar of at most 64 bits, got " + v.str());
    expect(op_->operand(1)->type() == Type::i32(), "lane must be i32, got " + op_->operand(1)->type().str());
    expect(op_->result()->type() == v, "result must have the value's type " + v.str());
    const Attribute &mode = op_->attr("mode");
    bool known = mode.isString() && (mode.getString() == "idx" || mode.getString() == "xor" ||
                                     mode.getString() == "up" || mode.getString() == "down");
    expect(known, "needs attribute 'mode' = \"idx\", \"xor\", \"up\" or \"down\"");
  }

  Diagnostics &diags_;
  const Op *op_ = nullptr;
};

} // namespace

bool verifyThreadIR(const Module &m, Diagnostics &diags) {
  size_t before = diags.list().size();
  Checker checker(diags);
  m.op()->walk([&](Op *op) { checker.check(op); });
  return diags.list().size() == before;
}

} // namespace trident::simt
