// The driver of the SIMT lowering: function setup, op dispatch, value bookkeeping
// and the index arithmetic that every op family shares.
#include "LowerContext.h"

#include "trident/simt/Lowering.h"

#include "trident/simt/Barriers.h"
#include "trident/simt/LayoutAttributes.h"
#include "trident/simt/SharedMemory.h"

#include <cassert>
#include <unordered_map>

namespace trident::simt {

Lowering::Lowering(const TargetDesc &target, LayoutAssignment &layouts, Diagnostics &diags)
    : target(target), layouts(layouts), diags(diags) {}

bool Lowering::error(const Op *op, std::string message) {
  diags.error(op->loc(), std::move(message));
  return false;
}

LinearLayout Lowering::scalarLayout() const {
  return LinearLayout::replicated({}, layouts.warpSize, layouts.numWarps);
}

// ---- values --------------------------------------------------------------------

const Lowered &Lowering::get(Value *v) {
  auto it = values_.find(v);
  assert(it != values_.end() && "value used before it was lowered");
  return it->second;
}

namespace {
// True when `inner` is `outer` or nested in one of the regions of ops inside it.
bool isInside(Block *inner, Block *outer) {
  while (inner) {
    if (inner == outer)
      return true;
    Op *parent = inner->parentOp();
    inner = parent ? parent->parentBlock() : nullptr;
  }
  return false;
}
} // namespace

Lowered Lowering::get(Value *v, const LinearLayout &layout) {
  const Lowered &own = get(v);
  if (own.layout == layout)
    return own;
  // A scalar (the condition of a select on blocks) is the same in every thread:
  // every register of any layout holds it. Neither a conversion nor a
  // rematerialization applies (its definition may be a function argument).
  if (!v->type().isBlock()) {
    assert(own.regs.size() == 1);
    return Lowered{layout, std::vector<Value *>(layout.numRegisters(), own.regs[0])};
  }
  auto key = std::make_pair(static_cast<const Value *>(v), layout.str());
  auto it = conversions_.find(key);
  if (it != conversions_.end() && isInside(b.block(), it->second.block))
    return it->second.value;
  int budget = 12;
  Lowered converted = isCoopLayout(own.layout) || isCoopLayout(layout) ? convertCoop(*this, v, own, layout)
                      : canRematerialize(v, budget)                     ? rematerialize(v, layout)
                                                                        : convert(own, layout);
  conversions_[key] = {converted, b.block()};
  return converted;
}

Value *Lowering::scalar(Value *v) {
  const Lowered &l = get(v);
  assert(l.regs.size() == 1);
  return l.regs[0];
}

void Lowering::set(Value *v, Lowered l) {
  assert(static_cast<int64_t>(l.regs.size()) == l.layout.numRegisters());
  values_[v] = std::move(l);
  // A value lowered again (a combiner inlined twice) must not see old conversions.
  for (auto it = conversions_.lower_bound({v, std::string()});
       it != conversions_.end() && it->first.first == v;)
    it = conversions_.erase(it);
}

void Lowering::setScalar(Value *v, Value *t) { set(v, Lowered{scalarLayout(), {t}}); }

// ---- thread-IR helpers -------------------------------------------------------------

Value *Lowering::constI32(int64_t v) {
  auto it = constants_.find(v);
  if (it != constants_.end())
    return it->second;
  return constants_[v] = prologue_.constInt(v, Type::i32());
}

Value *Lowering::layoutBase(const LinearLayout &layout) {
  std::string key = layout.str();
  key = key.substr(key.find(" lane"));
  auto it = bases_.find(key);
  if (it != bases_.end())
    return it->second;
  Builder &p = prologue_;
  bool disjoint = layout.isDisjoint();
  Value *acc = nullptr;
  auto combine = [&](Value *v) { acc = !acc ? v : p.binary(disjoint ? OpCode::OrI : OpCode::XOrI, acc, v); };
  // Runs of id bits that map to consecutive index bits become one shift-and-mask.
  auto addBits = [&](const std::vector<int64_t> &bases, Value *id) {
    size_t n = bases.size();
    for (size_t i = 0; i < n;) {
      if (bases[i] == 0) {
        ++i;
        continue;
      }
      if (!isPowerOfTwo(bases[i])) {
        Value *bit = p.binary(OpCode::AndI, p.binary(OpCode::ShRUI, id, constI32(int64_t(i))), constI32(1));
        combine(p.binary(OpCode::MulI, bit, constI32(bases[i])));
        ++i;
        continue;
      }
      size_t j = i + 1;
      while (j < n && bases[j] == bases[j - 1] * 2)
        ++j;
      Value *v = id;
      if (i)
        v = p.binary(OpCode::ShRUI, v, constI32(int64_t(i)));
      if (j < n)
        v = p.binary(OpCode::AndI, v, constI32((int64_t(1) << (j - i)) - 1));
      if (unsigned shift = log2Exact(bases[i]))
        v = p.binary(OpCode::ShLI, v, constI32(shift));
      combine(v);
      i = j;
    }
  };
  addBits(layout.laneBases(), lane_);
  addBits(layout.warpBases(), warp_);
  if (!acc)
    acc = constI32(0);
  return bases_[key] = acc;
}

Value *Lowering::ownerPredicate(const LinearLayout &layout) {
  int64_t laneMask = layout.laneReplicationMask(), warpMask = layout.warpReplicationMask();
  if (!laneMask && !warpMask)
    return nullptr;
  std::string key = std::to_string(laneMask) + "/" + std::to_string(warpMask);
  auto it = owners_.find(key);
  if (it != owners_.end())
    return it->second;
  Builder &p = prologue_;
  Value *pred = nullptr;
  auto test = [&](Value *id, int64_t mask) {
    if (!mask)
      return;
    Value *c = p.cmpi("eq", p.binary(OpCode::AndI, id, constI32(mask)), constI32(0));
    pred = pred ? p.binary(OpCode::AndI, pred, c) : c;
  };
  test(lane_, laneMask);
  test(warp_, warpMask);
  return owners_[key] = pred;
}

Value *Lowering::elementIndex(const LinearLayout &layout, int64_t reg) {
  Value *base = layoutBase(layout);
  int64_t c = layout.registerOffset(reg);
  if (c == 0)
    return base;
  return b.binary(layout.isDisjoint() ? OpCode::AddI : OpCode::XOrI, base, constI32(c));
}

Value *Lowering::dimIndex(const LinearLayout &layout, unsigned dim, int64_t reg) {
  unsigned off = layout.dimOffset(dim), bits = layout.dimBits(dim);
  int64_t mask = (int64_t(1) << bits) - 1;
  // Keyed by the shape too: the same lanes and warps give other indices in another shape.
  std::string text = layout.str();
  std::string key =
      text.substr(0, text.find(':')) + text.substr(text.find(" lane")) + "#" + std::to_string(dim);
  Value *base;
  auto it = bases_.find(key);
  if (it != bases_.end()) {
    base = it->second;
  } else {
    base = layoutBase(layout);
    if (off)
      base = prologue_.binary(OpCode::ShRUI, base, constI32(off));
    unsigned total = 0;
    for (unsigned d = 0; d < layout.rank(); ++d)
      total += layout.dimBits(d);
    if (off + bits < total) // the top dimension needs no mask: bases stay inside the block
      base = prologue_.binary(OpCode::AndI, base, constI32(mask));
    bases_[key] = base;
  }
  int64_t c = (layout.registerOffset(reg) >> off) & mask;
  if (c == 0)
    return base;
  return b.binary(layout.isDisjoint() ? OpCode::AddI : OpCode::XOrI, base, constI32(c));
}

void Lowering::barrier() {
  Op *last = b.insertionOp() ? b.insertionOp()->prev() : b.block()->back();
  while (last && last->has(kPure) && last->numRegions() == 0) // no access between: still ordered
    last = last->prev();
  if (!last || !last->is(OpCode::ThBarrier))
    b.create(OpCode::ThBarrier, std::span<Value *const>{}, std::span<const Type>{});
}

Value *Lowering::andPredicates(Value *a, Value *c) {
  if (!a)
    return c;
  if (!c)
    return a;
  return b.binary(OpCode::AndI, a, c);
}

Type Lowering::storageType(Type t) {
  if (t == Type::i1())
    return Type::i8();
  if (t.isPtr())
    return Type::i64();
  return t;
}

Value *Lowering::toStorage(Value *v) {
  Type t = v->type();
  if (t == Type::i1())
    return b.cast(OpCode::ExtUI, v, Type::i8());
  if (t.isPtr())
    return b.cast(OpCode::PtrToInt, v, Type::i64());
  return v;
}

Value *Lowering::fromStorage(Value *v, Type type) {
  if (type == Type::i1())
    return b.cast(OpCode::TruncI, v, Type::i1());
  if (type.isPtr())
    return b.cast(OpCode::IntToPtr, v, type);
  return v;
}

Value *Lowering::sharedAlloc(Type element, int64_t count, int64_t align) {
  Type t = storageType(element);
  int64_t bytes = count * (t.bitWidth() / 8);
  Type types[] = {Type::ptr(t, 3)};
  Op *alloc = b.create(OpCode::ThSharedAlloc, std::span<Value *const>{}, types,
                       {{"offset", Attribute::integer(-1)}, {"size", Attribute::integer(bytes)}});
  if (align > 16)
    alloc->setAttr("align", Attribute::integer(align));
  return alloc->result();
}

// ---- ops and regions -----------------------------------------------------------------

bool Lowering::lowerBody(Block *block) {
  for (Op *op : *block) {
    if (op->has(kTerminator))
      break;
    if (!lowerOp(op))
      return false;
  }
  return true;
}

std::optional<std::vector<Value *>> Lowering::inlineCombiner(Block *region, std::span<Value *const> args) {
  assert(region->numArguments() == args.size());
  for (unsigned i = 0; i < args.size(); ++i)
    setScalar(region->argument(i), args[i]);
  if (!lowerBody(region))
    return std::nullopt;
  std::vector<Value *> results;
  for (Value *v : region->terminator()->operands())
    results.push_back(scalar(v));
  return results;
}

namespace {

bool lowerProgramInfo(Lowering &l, Op *op) {
  Type types[] = {Type::i32()};
  Op *t = l.b.create(op->code(), std::span<Value *const>{}, types, op->attrs());
  l.setScalar(op->result(), t->result());
  return true;
}

bool lowerPassThrough(Lowering &l, Op *op) {
  l.set(op->result(), l.get(op->operand(0)));
  return true;
}

} // namespace

bool Lowering::lowerOp(Op *op) {
  b.setLoc(op->loc());
  switch (op->code()) {
  case OpCode::Constant: return lowerConstant(*this, op);
  case OpCode::MakeRange: return lowerMakeRange(*this, op);
  case OpCode::Splat: return lowerSplat(*this, op);
  case OpCode::Broadcast: return lowerBroadcast(*this, op);
  case OpCode::ExpandDims:
  case OpCode::Reshape:
  case OpCode::Trans: return lowerViewOp(*this, op);
  case OpCode::Join: return lowerJoin(*this, op);
  case OpCode::Split: return lowerSplit(*this, op);
  case OpCode::Cat: return lowerCat(*this, op);
  case OpCode::Load: return lowerLoad(*this, op);
  case OpCode::DescriptorLoad: return lowerDescriptorLoad(*this, op);
  case OpCode::Store: return lowerStore(*this, op);
  case OpCode::AtomicRMW:
  case OpCode::AtomicCAS: return lowerAtomic(*this, op);
  case OpCode::Reduce: return lowerReduce(*this, op);
  case OpCode::Scan: return lowerScan(*this, op);
  case OpCode::Dot: return lowerDot(*this, op);
  case OpCode::For: return lowerFor(*this, op);
  case OpCode::If: return lowerIf(*this, op);
  case OpCode::While: return lowerWhile(*this, op);
  case OpCode::GetProgramId:
  case OpCode::GetNumPrograms: return lowerProgramInfo(*this, op);
  case OpCode::MultipleOf:
  case OpCode::MaxContiguous: return lowerPassThrough(*this, op);
  case OpCode::Assume: return true;
  case OpCode::Call:
    return error(op,
                 "tt.call to '" + op->stringAttr("callee") + "' must be inlined before the SIMT lowering");
  case OpCode::Print:
  case OpCode::Assert:
  case OpCode::Barrier: return lowerDebug(*this, op);
  case OpCode::ElementwiseInlineAsm: return lowerInlineAsm(*this, op);
  default: break;
  }
  if (op->is(OpCode::MulF) && lowerMulCoop(*this, op))
    return true; // on cooperative matrices (LowerCoopMatrix.cpp)
  if (op->has(kElementwise))
    return lowerElementwise(*this, op);
  return error(op, std::string(op->name()) + " cannot be lowered to thread IR");
}

Value *Lowering::tensorMapArg(const TensorMapSpec &spec) const {
  for (size_t i = 0; i < tensorMaps.size(); ++i)
    if (tensorMaps[i].sameMap(spec))
      return tensorMapArgs[i];
  return nullptr;
}

bool Lowering::lowerFunction(const Op *blockFunc, Module &out) {
  Builder mb(out);
  mb.setLoc(blockFunc->loc());
  std::vector<Type> params = func::argumentTypes(blockFunc);
  for (Type t : params)
    if (!t.isScalar())
      return error(blockFunc, "tt.func parameter of type " + t.str() +
                                  " cannot be lowered: kernels take "
                                  "scalars and pointers");
  // One tensor map parameter (Tma.h) per distinct map the kernel's descriptor loads read.
  size_t own = params.size();
  tensorMaps.clear();
  const_cast<Op *>(blockFunc)->walk([&](Op *op) {
    if (std::optional<TensorMapSpec> spec = tensorMapSpec(op, target, layouts.numWarps))
      if (std::none_of(tensorMaps.begin(), tensorMaps.end(), [&](const TensorMapSpec &s) { return s.sameMap(*spec); }))
        tensorMaps.push_back(*spec);
  });
  for (size_t i = 0; i < tensorMaps.size(); ++i)
    params.push_back(Type::ptr(Type::i8()));
  Op *f = mb.func(func::name(blockFunc), params, {});
  f->setAttr("num_threads", Attribute::integer(int64_t(layouts.numWarps) * layouts.warpSize));
  f->setAttr("shared_bytes", Attribute::integer(0));
  if (!tensorMaps.empty()) {
    std::vector<int64_t> words;
    for (const TensorMapSpec &s : tensorMaps)
      s.appendWords(words);
    f->setAttr("tensor_maps", Attribute::ints(std::move(words)));
  }
  Block *entry = f->region();
  Block *blockEntry = blockFunc->region();
  for (unsigned i = 0; i < own; ++i)
    setScalar(blockEntry->argument(i), entry->argument(i));
  tensorMapArgs.clear();
  for (size_t i = own; i < params.size(); ++i)
    tensorMapArgs.push_back(entry->argument(unsigned(i)));

  prologue_.setInsertionPointToEnd(entry);
  prologue_.setLoc(blockFunc->loc());
  Type i32[] = {Type::i32()};
  thread_ = prologue_.create(OpCode::ThThreadId, std::span<Value *const>{}, i32)->result();
  lane_ = prologue_.create(OpCode::ThLaneId, std::span<Value *const>{}, i32)->result();
  warp_ = prologue_.create(OpCode::ThWarpId, std::span<Value *const>{}, i32)->result();

  // The body goes to a detached block, spliced after the prologue at the end, so
  // that prologue values may be added while the body is lowered.
  Block body;
  b.setInsertionPointToEnd(&body);
  specialized = nullptr;
  if (!lowerBody(blockEntry))
    return false;
  if (specialized) {
    // The rest of the kernel went into the consumers' region; the producer warps come
    // after the consumers (LowerWarpSpecialize.cpp).
    f->setAttr("num_threads", Attribute::integer(int64_t(layouts.numWarps + kProducerWarps) * layouts.warpSize));
    b.setInsertionPointToEnd(&body);
  }
  if (Op *term = blockEntry->terminator(); term && term->numOperands())
    return error(term, "tt.return with values cannot be lowered: kernels return nothing");
  b.setLoc(blockEntry->terminator() ? blockEntry->terminator()->loc() : blockFunc->loc());
  b.ret();
  entry->splice(nullptr, body);
  return true;
}

// ---- entry points --------------------------------------------------------------------

unsigned defaultNumWarps(const Op *func, const TargetDesc &target) {
  int64_t largest = 0;
  const_cast<Op *>(func)->walk([&](Op *op) {
    for (Value *r : op->results())
      if (r->type().isBlock())
        largest = std::max(largest, r->type().numElements());
  });
  unsigned warps = largest >= 8192 ? 8 : 4;
  while (warps > 1 && warps * target.warpSize > target.maxThreadsPerProgram)
    warps /= 2;
  return warps;
}

bool placeSharedMemory(Op *threadFunc, const TargetDesc &target, Diagnostics &diags) {
  int64_t shared = allocateSharedMemory(threadFunc, target.spreadSharedMemory ? int64_t(target.sharedMemoryBytes) : 0);
  threadFunc->setAttr("shared_bytes", Attribute::integer(shared));
  if (static_cast<uint64_t>(shared) <= target.maxSharedMemoryBytes)
    return true;
  diags.error(threadFunc->loc(), "tt.func '" + std::string(func::name(threadFunc)) + "' needs " +
                                     std::to_string(shared) + " bytes of shared memory; " + target.name +
                                     " has " + std::to_string(target.maxSharedMemoryBytes));
  return false;
}

std::optional<Module> lowerToThreadIR(const Module &input, const TargetDesc &target,
                                      const LoweringOptions &options, Diagnostics &diags) {
  // Functions with layout attributes (trident-opt --assign-layouts) are lowered in the
  // layouts they carry; the attributes are read from a copy, then dropped, so that no
  // lowered op copies them into thread IR.
  Module annotated;
  std::unordered_map<const Op *, LayoutAssignment> given;
  const Module *source = &input;
  for (Op *f : input.functions())
    if (hasLayoutAttributes(f))
      source = &annotated;
  if (source == &annotated) {
    annotated = input.clone();
    for (Op *f : annotated.functions()) {
      if (!hasLayoutAttributes(f))
        continue;
      std::optional<LayoutAssignment> read = readLayoutAttributes(f, target, diags);
      if (!read)
        return std::nullopt;
      eraseLayoutAttributes(f);
      given.emplace(f, std::move(*read));
    }
  }
  const Module &blockIR = *source;
  Module out;
  if (!options.onlyFunction.empty() && !blockIR.lookupFunction(options.onlyFunction)) {
    diags.error(Location(), "the module has no tt.func named '" + options.onlyFunction + "'");
    return std::nullopt;
  }
  for (Op *f : blockIR.functions()) {
    if (!options.onlyFunction.empty() && func::name(f) != options.onlyFunction)
      continue;
    if (!func::resultTypes(f).empty()) {
      if (options.onlyFunction.empty())
        continue; // a device function: inlined into its callers already
      diags.error(f->loc(),
                  "tt.func '" + options.onlyFunction + "' returns values; a kernel returns nothing");
      return std::nullopt;
    }
    auto it = given.find(f);
    unsigned numWarps = it != given.end() ? it->second.numWarps
                        : options.numWarps ? options.numWarps
                                           : defaultNumWarps(f, target);
    if (it != given.end() && options.numWarps && options.numWarps != numWarps) {
      diags.error(f->loc(), "the layouts of tt.func '" + std::string(func::name(f)) + "' are for num_warps = " +
                                std::to_string(numWarps) + ", not " + std::to_string(options.numWarps));
      return std::nullopt;
    }
    if (!isPowerOfTwo(numWarps) || numWarps * target.warpSize > target.maxThreadsPerProgram) {
      diags.error(f->loc(), "num_warps = " + std::to_string(numWarps) + " is not a power of two of at most " +
                                std::to_string(target.maxThreadsPerProgram / target.warpSize) + " warps on " +
                                target.name);
      return std::nullopt;
    }
    LayoutAssignment layouts = it != given.end() ? std::move(it->second) : assignLayouts(f, target, numWarps);
    Lowering lowering(target, layouts, diags);
    lowering.numStages = int(options.numStages);
    if (!lowering.lowerFunction(f, out))
      return std::nullopt;
    Op *lowered = out.functions().back();
    if (options.allocateSharedMemory && !placeSharedMemory(lowered, target, diags))
      return std::nullopt;
    if (options.allocateSharedMemory && options.insertBarriers)
      insertBarriers(lowered);
  }
  return out;
}

} // namespace trident::simt
