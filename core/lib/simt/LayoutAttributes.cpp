// Layout attributes on block IR: writing a LayoutAssignment and reading it back.
#include "trident/simt/LayoutAttributes.h"

#include <string>

namespace trident::simt {

namespace {

constexpr const char *kNumWarps = "num_warps";
constexpr const char *kLayouts = "layouts";
constexpr const char *kArgLayouts = "arg_layouts";
constexpr const char *kAccessLayout = "access_layout";
constexpr const char *kAccessVector = "access_vector";
constexpr const char *kMmaAtom = "mma_atom";
constexpr const char *kMmaWarps = "mma_warps";

bool isMemoryOp(const Op *op) {
  return op->is(OpCode::Load) || op->is(OpCode::Store) || op->is(OpCode::AtomicRMW) ||
         op->is(OpCode::AtomicCAS);
}

std::vector<Value *> blockResults(const Op *op) {
  std::vector<Value *> out;
  for (Value *r : op->results())
    if (r->type().isBlock())
      out.push_back(r);
  return out;
}

// The block arguments of the regions of a loop (the only ops whose region arguments are blocks).
std::vector<Value *> blockArguments(const Op *op) {
  std::vector<Value *> out;
  if (!op->is(OpCode::For) && !op->is(OpCode::While))
    return out;
  for (unsigned r = 0; r < op->numRegions(); ++r)
    for (unsigned i = 0; i < op->region(r)->numArguments(); ++i)
      if (op->region(r)->argument(i)->type().isBlock())
        out.push_back(op->region(r)->argument(i));
  return out;
}

Attribute layoutList(const LayoutAssignment &a, const std::vector<Value *> &values) {
  Attribute::LayoutArray list;
  for (Value *v : values)
    list.push_back(toBases(a.layout(v)));
  return Attribute::layouts(std::move(list));
}

class Reader {
public:
  Reader(const TargetDesc &target, Diagnostics &diags) : target_(target), diags_(diags) {}

  std::optional<LayoutAssignment> read(const Op *func) {
    const Attribute &warps = func->attr(kNumWarps);
    if (!warps.isInt() || warps.getInt() < 1 || (warps.getInt() & (warps.getInt() - 1)) != 0 ||
        uint64_t(warps.getInt()) * target_.warpSize > target_.maxThreadsPerProgram)
      return fail(func, "tt.func needs 'num_warps', a power of two of at most " +
                            std::to_string(target_.maxThreadsPerProgram / target_.warpSize) + " warps on " +
                            target_.name);
    a_.warpSize = target_.warpSize;
    a_.numWarps = unsigned(warps.getInt());
    bool ok = true;
    const_cast<Op *>(func)->walk([&](Op *op) {
      if (ok && op != func)
        ok = readOp(op);
    });
    if (!ok)
      return std::nullopt;
    return std::move(a_);
  }

private:
  std::nullopt_t fail(const Op *op, std::string message) {
    diags_.error(op->loc(), std::move(message));
    return std::nullopt;
  }

  // A layout of `shape` for this function's warps, or a diagnostic.
  std::optional<LinearLayout> check(const Op *op, const LayoutBases &bases, Type type, const char *what) {
    std::vector<int64_t> shape;
    if (type.isBlock())
      shape.assign(type.shape().begin(), type.shape().end());
    if (bases.shape != shape)
      return fail(op, std::string(what) + " " + bases.str() + " does not have the shape of its value (" +
                          type.str() + ")");
    if (bases.lane.size() != target_.log2WarpSize())
      return fail(op, std::string(what) + " " + bases.str() + " has " + std::to_string(bases.lane.size()) +
                          " lane bases; " + target_.name + " has warps of " + std::to_string(target_.warpSize));
    if ((size_t(1) << bases.warp.size()) != a_.numWarps)
      return fail(op, std::string(what) + " " + bases.str() + " has " + std::to_string(bases.warp.size()) +
                          " warp bases; the function has num_warps = " + std::to_string(a_.numWarps));
    LinearLayout l = fromBases(bases);
    if (!l.isSurjective())
      return fail(op, std::string(what) + " " + bases.str() + " does not hold every element of its block");
    return l;
  }

  bool readList(const Op *op, const char *name, const std::vector<Value *> &values) {
    const Attribute &attr = op->attr(name);
    if (values.empty()) {
      if (attr.present())
        return fail(op, std::string("'") + name + "' on an op without block values"), false;
      return true;
    }
    if (!attr.isLayouts())
      return fail(op, std::string(op->name()) + " needs '" + name + "': one layout per block " +
                          (name == std::string(kLayouts) ? "result" : "region argument")),
             false;
    const Attribute::LayoutArray &list = attr.getLayouts();
    if (list.size() != values.size())
      return fail(op, std::string("'") + name + "' has " + std::to_string(list.size()) + " layouts for " +
                          std::to_string(values.size()) + " block values"),
             false;
    for (size_t i = 0; i < values.size(); ++i) {
      std::optional<LinearLayout> l = check(op, list[i], values[i]->type(), "layout");
      if (!l)
        return false;
      a_.set(values[i], *l);
    }
    return true;
  }

  bool readOp(const Op *op) {
    if (!readList(op, kLayouts, blockResults(op)) || !readList(op, kArgLayouts, blockArguments(op)))
      return false;
    const Attribute &access = op->attr(kAccessLayout);
    if (isMemoryOp(op) && access.present()) {
      // The access covers the pointer operand's shape (a store has no block result).
      Type shaped = op->operand(0)->type();
      if (!access.isLayout())
        return fail(op, "'access_layout' must be a layout"), false;
      std::optional<LinearLayout> l = check(op, access.getLayout(), shaped, "access layout");
      if (!l)
        return false;
      const Attribute &width = op->attr(kAccessVector);
      int64_t vector = width.isInt() ? width.getInt() : 1;
      if (vector < 1 || (vector & (vector - 1)) != 0)
        return fail(op, "'access_vector' must be a power of two"), false;
      a_.setAccess(op, *l, vector);
    } else if (isMemoryOp(op) && op->operand(0)->type().isBlock()) {
      return fail(op, std::string(op->name()) + " on blocks needs 'access_layout'"), false;
    }
    const Attribute &atom = op->attr(kMmaAtom);
    if (op->is(OpCode::Dot) && atom.present()) {
      const MatrixAtom *found = nullptr;
      for (const MatrixAtom &m : target_.matrixAtoms)
        if (atom.isString() && m.name == atom.getString())
          found = &m;
      if (!found)
        return fail(op, "'mma_atom' " + atom.str() + " is not a matrix atom of " + target_.name), false;
      const Attribute &warps = op->attr(kMmaWarps);
      if (!warps.isInts() || warps.getInts().size() != 2 || warps.getInts()[0] < 1 || warps.getInts()[1] < 1)
        return fail(op, "'mma_warps' must be [warps along M, warps along N]"), false;
      a_.setMmaPlan(op, MmaPlan{found, warps.getInts()[0], warps.getInts()[1]});
    }
    return true;
  }

  const TargetDesc &target_;
  Diagnostics &diags_;
  LayoutAssignment a_;
};

} // namespace

LayoutBases toBases(const LinearLayout &layout) {
  return LayoutBases{layout.shape(), layout.regBases(), layout.laneBases(), layout.warpBases()};
}

LinearLayout fromBases(const LayoutBases &bases) {
  return LinearLayout(bases.shape, bases.reg, bases.lane, bases.warp);
}

void writeLayoutAttributes(Op *func, const LayoutAssignment &layouts) {
  func->setAttr(kNumWarps, Attribute::integer(layouts.numWarps));
  func->walk([&](Op *op) {
    if (op == func)
      return;
    if (std::vector<Value *> results = blockResults(op); !results.empty())
      op->setAttr(kLayouts, layoutList(layouts, results));
    if (std::vector<Value *> args = blockArguments(op); !args.empty())
      op->setAttr(kArgLayouts, layoutList(layouts, args));
    if (isMemoryOp(op) && op->operand(0)->type().isBlock()) {
      op->setAttr(kAccessLayout, Attribute::layout(toBases(layouts.accessLayout(op))));
      op->setAttr(kAccessVector, Attribute::integer(layouts.vectorElements(op)));
    }
    if (const MmaPlan *plan = op->is(OpCode::Dot) ? layouts.mmaPlan(op) : nullptr) {
      op->setAttr(kMmaAtom, Attribute::string(plan->atom->name));
      op->setAttr(kMmaWarps, Attribute::ints({plan->warpsM, plan->warpsN}));
    }
  });
}

bool hasLayoutAttributes(const Op *func) { return func->attr(kNumWarps).present(); }

std::optional<LayoutAssignment> readLayoutAttributes(const Op *func, const TargetDesc &target, Diagnostics &diags) {
  return Reader(target, diags).read(func);
}

void eraseLayoutAttributes(Op *func) {
  func->walk([&](Op *op) {
    for (const char *name : {kNumWarps, kLayouts, kArgLayouts, kAccessLayout, kAccessVector, kMmaAtom, kMmaWarps})
      op->attrs().erase(name);
  });
}

} // namespace trident::simt
