// Shape manipulation: reshape, view, permute, trans, broadcast_to, broadcast,
// expand_dims, squeeze, unsqueeze, join, split, ravel, cat, interleave.

#include "CodeGen.h"

#include <algorithm>

namespace trident::frontend {

namespace {

// Shapes given as varargs (reshape(x, 4, 8)) or as one tuple (reshape(x, (4, 8))).
std::vector<int64_t> varShape(CodeGen &cg, const std::optional<Arg> &a, const char *what) {
  if (!a || a->value.items.empty())
    return {};
  const Object &items = a->value;
  if (items.items.size() == 1 && items.items[0].is(Object::Kind::Tuple))
    return cg.shapeArg(Arg{items.items[0], a->span, nullptr}, what);
  return cg.shapeArg(Arg{items, a->span, nullptr}, what);
}

std::string shapeStr(std::span<const int64_t> s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}

Tensor reshapeTo(CodeGen &cg, const Tensor &x, const std::vector<int64_t> &shape, bool reorder,
                 const Span &span) {
  if (shape.empty())
    cg.error(span, "tl.reshape needs a non-empty shape");
  cg.checkBlockShape(shape, span);
  int64_t numel = 1;
  for (int64_t d : shape)
    numel *= d;
  if (numel != x.type().numElements())
    cg.error(span, "cannot reshape a block of " + std::to_string(x.type().numElements()) +
                       " elements into shape " + shapeStr(shape));
  if (!x.isBlock())
    return cg.broadcastTo(x, shape, span);
  if (std::equal(shape.begin(), shape.end(), x.shape().begin(), x.shape().end()))
    return x;
  return Tensor{cg.builder().reshape(x.value, shape, reorder), x.dtype};
}

Object reshape(CodeGen &cg, const CallArgs &args, bool view) {
  auto a = args.bind(cg, {"input", "*shape", "can_reorder="});
  Tensor x = cg.tensorArg(*a[0]);
  bool reorder = view || (a[2] && cg.boolArg(*a[2], "can_reorder"));
  return Object::ofTensor(reshapeTo(cg, x, varShape(cg, a[1], "the shape"), reorder, args.span));
}

Tensor permute(CodeGen &cg, const Tensor &x, std::vector<int64_t> dims, const Span &span, const char *name) {
  size_t rank = x.shape().size();
  std::vector<int64_t> sorted = dims;
  std::sort(sorted.begin(), sorted.end());
  bool ok = dims.size() == rank;
  for (size_t i = 0; ok && i < rank; ++i)
    ok = sorted[i] == static_cast<int64_t>(i);
  if (!ok)
    cg.error(span, std::string(name) + ": dims must be a permutation of 0.." +
                       std::to_string(rank ? rank - 1 : 0) + " for a block of rank " + std::to_string(rank) +
                       ", got " + shapeStr(dims));
  bool identity = true;
  for (size_t i = 0; i < rank; ++i)
    identity = identity && dims[i] == static_cast<int64_t>(i);
  if (identity)
    return x;
  return Tensor{cg.builder().trans(x.value, dims), x.dtype};
}

Object trans(CodeGen &cg, const CallArgs &args, bool isPermute) {
  auto a = args.bind(cg, {"input", "*dims"});
  Tensor x = cg.tensorArg(*a[0]);
  std::vector<int64_t> dims = varShape(cg, a[1], "dims");
  if (dims.empty()) {
    if (isPermute)
      cg.error(args.span, "tl.permute needs dims");
    if (x.shape().size() != 2)
      cg.error(args.span,
               "tl.trans without dims needs a 2-D block, got rank " + std::to_string(x.shape().size()));
    dims = {1, 0};
  }
  return Object::ofTensor(permute(cg, x, dims, args.span, isPermute ? "tl.permute" : "tl.trans"));
}

Tensor expandDims(CodeGen &cg, Tensor x, const Arg &axisArg) {
  std::vector<int64_t> axes;
  if (axisArg.value.is(Object::Kind::Tuple)) {
    for (const Object &o : axisArg.value.items)
      axes.push_back(cg.intArg(Arg{o, axisArg.span, nullptr}, "axis"));
  } else {
    axes.push_back(cg.intArg(axisArg, "axis"));
  }
  int64_t newRank = static_cast<int64_t>(x.shape().size() + axes.size());
  if (newRank > 8)
    cg.error(axisArg.span, "blocks may have at most 8 dimensions");
  for (int64_t &ax : axes) {
    if (ax < -newRank || ax >= newRank)
      cg.error(axisArg.span, "tl.expand_dims: axis " + std::to_string(ax) +
                                 " is out of range for the result rank " + std::to_string(newRank));
    if (ax < 0)
      ax += newRank;
  }
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    cg.error(axisArg.span, "tl.expand_dims: repeated axis");
  for (int64_t ax : axes) {
    if (!x.isBlock()) {
      int64_t one[] = {1};
      x = Tensor{cg.builder().splat(x.value, one), x.dtype};
    } else {
      x = Tensor{cg.builder().expandDims(x.value, static_cast<int>(ax)), x.dtype};
    }
  }
  return x;
}

std::pair<Tensor, Tensor> sameTypePair(CodeGen &cg, const Arg &a, const Arg &b, const Span &span,
                                       const char *name) {
  Tensor x = cg.tensorArg(a), y = cg.tensorArg(b);
  std::tie(x, y) = cg.broadcastPair(x, y, span);
  if (x.dtype != y.dtype)
    cg.error(span, std::string(name) + ": both inputs must have the same dtype, got " + x.dtype.name() +
                       " and " + y.dtype.name());
  return {x, y};
}

} // namespace

void registerShapeBuiltins(BuiltinTable &t) {
  t["tl.reshape"] = [](CodeGen &cg, const CallArgs &args) { return reshape(cg, args, false); };
  t["tl.view"] = [](CodeGen &cg, const CallArgs &args) { return reshape(cg, args, true); };
  t["tl.trans"] = [](CodeGen &cg, const CallArgs &args) { return trans(cg, args, false); };
  t["tl.permute"] = [](CodeGen &cg, const CallArgs &args) { return trans(cg, args, true); };
  t["tl.broadcast_to"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"input", "*shape"});
    Tensor x = cg.tensorArg(*a[0]);
    std::vector<int64_t> shape = varShape(cg, a[1], "the shape");
    cg.checkBlockShape(shape, args.span);
    return Object::ofTensor(cg.broadcastTo(x, shape, args.span));
  };
  t["tl.broadcast"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"input", "other"});
    auto [x, y] = cg.broadcastPair(cg.tensorArg(*a[0]), cg.tensorArg(*a[1]), args.span);
    return Object::tuple({Object::ofTensor(x), Object::ofTensor(y)});
  };
  t["tl.expand_dims"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"input", "axis"});
    return Object::ofTensor(expandDims(cg, cg.tensorArg(*a[0]), *a[1]));
  };
  // Triton's standard.py: unsqueeze inserts a length-1 dimension at dim, squeeze removes
  // one (its length must be 1). A negative dim counts from the end, as expand_dims'.
  t["tl.unsqueeze"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"x", "dim"});
    cg.intArg(*a[1], "tl.unsqueeze's dim");
    return Object::ofTensor(expandDims(cg, cg.tensorArg(*a[0]), *a[1]));
  };
  t["tl.squeeze"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"x", "dim"});
    Tensor x = cg.tensorArg(*a[0]);
    int64_t rank = static_cast<int64_t>(x.shape().size());
    int64_t dim = cg.intArg(*a[1], "tl.squeeze's dim");
    if (dim < -rank || dim >= rank)
      cg.error(a[1]->span, "tl.squeeze: dim " + std::to_string(dim) + " is out of range for a tensor of rank " +
                               std::to_string(rank));
    if (dim < 0)
      dim += rank;
    if (x.shape()[static_cast<size_t>(dim)] != 1)
      cg.error(a[1]->span, "tl.squeeze: dimension " + std::to_string(dim) + " has length " +
                               std::to_string(x.shape()[static_cast<size_t>(dim)]) + ", not 1");
    if (rank == 1)
      cg.error(args.span, "tl.squeeze of a 1-d tensor would leave a 0-d block, which Triton does not have");
    std::vector<int64_t> shape(x.shape().begin(), x.shape().end());
    shape.erase(shape.begin() + dim);
    return Object::ofTensor(reshapeTo(cg, x, shape, false, args.span));
  };
  t["tl.join"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"a", "b"});
    auto [x, y] = sameTypePair(cg, *a[0], *a[1], args.span, "tl.join");
    return Object::ofTensor(cg.builder().join(x.value, y.value), x.dtype);
  };
  t["tl.split"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"a"});
    Tensor x = cg.tensorArg(*a[0]);
    if (!x.isBlock() || x.shape().back() != 2)
      cg.error(args.span, "tl.split: the last dimension must be 2, got " + Object::ofTensor(x).describe());
    auto [lo, hi] = cg.builder().split(x.value);
    return Object::tuple({Object::ofTensor(lo, x.dtype), Object::ofTensor(hi, x.dtype)});
  };
  t["tl.interleave"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"a", "b"});
    auto [x, y] = sameTypePair(cg, *a[0], *a[1], args.span, "tl.interleave");
    Tensor j{cg.builder().join(x.value, y.value), x.dtype};
    if (j.shape().size() == 1)
      return Object::ofTensor(j);
    std::vector<int64_t> shape(j.shape().begin(), j.shape().end() - 1);
    shape.back() *= 2;
    return Object::ofTensor(reshapeTo(cg, j, shape, false, args.span));
  };
  t["tl.ravel"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"x", "can_reorder="});
    Tensor x = cg.tensorArg(*a[0]);
    return Object::ofTensor(reshapeTo(cg, x, {x.type().numElements()}, true, args.span));
  };
  t["tl.cat"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"input", "other", "can_reorder="});
    if (!a[2] || !cg.boolArg(*a[2], "can_reorder"))
      cg.error(args.span, "tl.cat may reorder elements; pass can_reorder=True (as Triton requires)");
    Tensor x = cg.tensorArg(*a[0]), y = cg.tensorArg(*a[1]);
    if (!x.isBlock() || x.type() != y.type() || x.dtype != y.dtype)
      cg.error(args.span, "tl.cat needs two blocks of one type, got " + Object::ofTensor(x).describe() +
                              " and " + Object::ofTensor(y).describe());
    return Object::ofTensor(cg.builder().cat(x.value, y.value), x.dtype);
  };
}

} // namespace trident::frontend
