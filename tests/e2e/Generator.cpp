// The generator's frame: the kernel function, its program index and parameters, the
// pool of values and their facts, index helpers, the top-level loop and the outputs.

#include "Generator.h"

#include <cassert>
#include <cmath>

namespace trident::e2e {

bool isFloatType(Type t) { return t.element().isFloat(); }
bool isIntType(Type t) { return t.element().isInteger(); }
std::vector<int64_t> shapeOf(Type t) { return {t.shape().begin(), t.shape().end()}; }
int64_t numElements(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

const std::vector<std::string> &generatorFeatures() {
  static const std::vector<std::string> features = {
      "i8",   "i16",    "i32",  "i64",  "f16",  "bf16",   "f32",     "f64",        "f8",
      "math", "shape",  "reduce", "scan", "loop", "if",   "atomic",  "mask",       "gather",
      "bitcast", "scalar-args", "dot", "descriptor"};
  return features;
}

RandomKernel generateRandomKernel(uint64_t seed, const GeneratorOptions &options) {
  Generator g(seed, options);
  return g.run();
}

Generator::Generator(uint64_t seed, const GeneratorOptions &options) : options_(options), rng_(seed) {
  kernel_.seed = seed;
}

// ---- pool and facts ------------------------------------------------------------

const Facts &Generator::facts(const Value *v) const {
  auto it = facts_.find(v);
  assert(it != facts_.end() && "value without facts");
  return it->second;
}

Value *Generator::record(Value *v) {
  Op *op = v->definingOp();
  for (unsigned i = 0; i < op->numResults(); ++i)
    facts_[op->result(i)] = infer(op, i);
  pool_.push_back(v);
  --opsLeft_;
  return v;
}

Value *Generator::recordWith(Value *v, const Facts &f, bool addToPool) {
  facts_[v] = f;
  if (addToPool)
    pool_.push_back(v);
  return v;
}

namespace {

// Facts of a float constant: exact when it is a dyadic number `t` holds exactly
// (powers of two get a negative fraction: 8 is a multiple of 2^3).
Facts constantFloatFacts(double v, Type t) {
  if (v == 0)
    return exactFloat(0, 0, 0);
  for (int frac = -30; frac <= 12; ++frac) {
    double scaled = std::ldexp(v, frac);
    if (scaled == std::floor(scaled)) {
      Facts f = exactFloat(v, v, frac);
      if (fitsExact(t, f))
        return f;
      break;
    }
  }
  // Rounded to t the same way everywhere: the value moves, the devices agree.
  double w = unitRoundoff(t) * std::abs(v);
  return approxFloat(v - w, v + w, 0);
}

} // namespace

Facts Generator::infer(const Op *op, unsigned result) {
  Value *r = op->result(result);
  Type t = r->type();
  auto in = [&](unsigned i) -> const Facts & { return facts(op->operand(i)); };
  switch (op->code()) {
  case OpCode::GetProgramId: return intFacts(0, kernel_.grid[size_t(op->intAttr("axis"))] - 1);
  case OpCode::GetNumPrograms: {
    int64_t n = kernel_.grid[size_t(op->intAttr("axis"))];
    return intFacts(n, n);
  }
  case OpCode::MakeRange: return intFacts(op->intAttr("start"), op->intAttr("end") - 1);
  case OpCode::Constant: {
    const Attribute &a = op->attr("value");
    if (a.isBool())
      return a.getBool() ? intFacts(-1, -1) : intFacts(0, 0);
    if (a.isInt()) { // the low bits, read signed (255 : i8 is -1)
      unsigned w = t.element().bitWidth();
      int64_t v = w >= 64 ? a.getInt() : int64_t(uint64_t(a.getInt()) << (64 - w)) >> (64 - w);
      return intFacts(v, v);
    }
    return constantFloatFacts(a.getFloat(), t);
  }
  case OpCode::Splat:
  case OpCode::Broadcast:
  case OpCode::ExpandDims:
  case OpCode::Reshape:
  case OpCode::Trans:
  case OpCode::Split:
  case OpCode::MultipleOf:
  case OpCode::MaxContiguous: return in(0);
  case OpCode::Join:
  case OpCode::Cat: return join(in(0), in(1));
  case OpCode::AddPtr:
  case OpCode::PtrToInt:
  case OpCode::IntToPtr: return otherFacts();
  case OpCode::Load:
  case OpCode::DescriptorLoad:
  case OpCode::AtomicRMW:
  case OpCode::AtomicCAS: return facts(r); // fixed when built (a loop's inferFor infers its body again)
  case OpCode::Reduce:
  case OpCode::Scan: {
    const std::vector<Combine> &kinds = combiners_.at(op);
    int64_t n = op->operand(result)->type().shape()[size_t(op->intAttr("axis"))];
    return combineFacts(kinds[result], t.element(), n, in(result));
  }
  case OpCode::Dot: {
    Type at = op->operand(0)->type();
    const Attribute &precision = op->attr("input_precision");
    bool tf32 = at.element() == Type::f32() && precision.isString() && precision.getString() != "ieee";
    return dotFacts(t.element(), in(0), in(1), in(2), at.shape()[at.rank() - 1], tf32);
  }
  case OpCode::For: return inferFor(op, result);
  case OpCode::If: return inferIf(op, result);
  default: break;
  }
  std::vector<Facts> operands;
  for (unsigned i = 0; i < op->numOperands(); ++i)
    operands.push_back(in(i));
  return transfer(op->code(), t, operands, op->operand(0)->type());
}

void Generator::inferBlock(const Block *block) {
  for (const Op *op : *block)
    for (unsigned i = 0; i < op->numResults(); ++i)
      facts_[op->result(i)] = infer(op, i);
}

void Generator::enterScope() {
  Scope s;
  s.poolStart = pool_.size();
  s.slot = scopes_.back().slot;
  s.slotCount = scopes_.back().slotCount;
  scopes_.push_back(std::move(s));
}

void Generator::exitScope() {
  pool_.resize(scopes_.back().poolStart);
  scopes_.pop_back();
}

// ---- constants, indices, parameters --------------------------------------------

Value *Generator::constInt(int64_t v, Type t) { return recordWith(b_.constInt(v, t), intFacts(v, v), false); }

Value *Generator::constFloat(double v, Type t) {
  Value *c = b_.constFloat(v, t);
  return recordWith(c, constantFloatFacts(v, t), false);
}

Value *Generator::axisIndex(const std::vector<int64_t> &shape, int axis) {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
    if (auto f = it->axisIndex.find({shape, axis}); f != it->axisIndex.end())
      return f->second;
  int64_t d = shape[size_t(axis)];
  Value *v = b_.makeRange(0, d);
  facts_[v] = intFacts(0, d - 1);
  for (int j = 0; j < axis; ++j) {
    v = b_.expandDims(v, 0);
    facts_[v] = intFacts(0, d - 1);
  }
  for (size_t j = size_t(axis) + 1; j < shape.size(); ++j) {
    v = b_.expandDims(v, int(v->type().rank()));
    facts_[v] = intFacts(0, d - 1);
  }
  if (v->type().shape().size() != shape.size() || shapeOf(v->type()) != shape) {
    v = b_.broadcast(v, shape);
    facts_[v] = intFacts(0, d - 1);
  }
  scopes_.back().axisIndex[{shape, axis}] = v;
  return v;
}

Value *Generator::linearIndex(const std::vector<int64_t> &shape) {
  if (shape.empty())
    return constInt(0, Type::i32());
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
    if (auto f = it->linearIndex.find(shape); f != it->linearIndex.end())
      return f->second;
  Value *sum = nullptr;
  int64_t stride = 1;
  for (int axis = int(shape.size()) - 1; axis >= 0; --axis) {
    Value *idx = axisIndex(shape, axis);
    if (stride != 1 && shape[size_t(axis)] > 1) {
      Value *s = b_.constInt(stride, Type::block(shape, Type::i32()));
      facts_[s] = intFacts(stride, stride);
      idx = b_.binary(OpCode::MulI, idx, s);
      facts_[idx] = intFacts(0, (shape[size_t(axis)] - 1) * stride);
    }
    if (shape[size_t(axis)] > 1 || !sum) {
      if (sum) {
        sum = b_.binary(OpCode::AddI, sum, idx);
      } else {
        sum = idx;
      }
    }
    stride *= shape[size_t(axis)];
  }
  facts_[sum] = intFacts(0, stride - 1);
  scopes_.back().linearIndex[shape] = sum;
  return sum;
}

Value *Generator::addBufferParam(ArgSpec spec) {
  Value *p = func_->region()->addArgument(Type::ptr(spec.element));
  params_[p] = kernel_.args.size();
  kernel_.args.push_back(std::move(spec));
  facts_[p] = otherFacts();
  return p;
}

Value *Generator::addScalarParam(Type t, uint64_t bits, const Facts &f, const std::string &prefix) {
  Value *p = func_->region()->addArgument(t);
  params_[p] = kernel_.args.size();
  ArgSpec spec;
  spec.kind = ArgSpec::Kind::Scalar;
  spec.name = prefix + std::to_string(kernel_.args.size());
  spec.element = t;
  spec.bits = bits;
  kernel_.args.push_back(std::move(spec));
  facts_[p] = f;
  return p;
}

ArgSpec &Generator::argOf(Value *param) { return kernel_.args[params_.at(param)]; }

// ---- the kernel -------------------------------------------------------------------

bool Generator::step() {
  if (!paramsLeft()) // only steps that rarely add parameters
    switch (rng_.weighted({9, enabled("shape") ? 3.0 : 0, enabled("reduce") ? 2.0 : 0, enabled("scan") ? 1.2 : 0})) {
    case 0: return genElementwise();
    case 1: return genShapeOp();
    case 2: return genReduce();
    default: return genScan();
    }
  std::vector<double> weights = {
      9,                                                  // elementwise
      enabled("shape") ? 3.0 : 0,                         // shape ops
      enabled("reduce") ? 2.0 : 0,                        // reductions
      enabled("scan") ? 1.2 : 0,                          // scans
      1.5,                                                // loads
      enabled("gather") ? 0.8 : 0,                        // gathers
      enabled("atomic") ? 0.8 : 0,                        // atomics
      1.0,                                                // stores
      enabled("loop") && depth() < 3 ? 1.0 : 0,           // scf.for
      enabled("if") && depth() < 3 ? 1.0 : 0,             // scf.if
      enabled("dot") ? options_.dotWeight : 0,            // tt.dot, alone or in a K loop
  };
  switch (rng_.weighted(weights)) {
  case 0: return genElementwise();
  case 1: return genShapeOp();
  case 2: return genReduce();
  case 3: return genScan();
  case 4: return genLoadStep();
  case 5: return genGather();
  case 6: return genAtomic();
  case 7: return genStoreStep();
  case 8: return genFor();
  case 9: return genIf();
  default: return genDot();
  }
}

namespace {

std::vector<int64_t> randomShape(Rng &rng, int64_t maxElements) {
  int maxLog = 0;
  while ((int64_t(1) << (maxLog + 1)) <= maxElements / 2)
    ++maxLog; // leave room for join, cat and broadcasts
  int rank = int(rng.weighted({0.4, 0.45, 0.15})) + 1;
  int total = int(rng.range(rank == 1 ? 0 : 1, std::max(1, maxLog)));
  std::vector<int64_t> logs(size_t(rank), 0);
  for (int i = 0; i < total; ++i)
    logs[size_t(rng.range(0, rank - 1))]++;
  std::vector<int64_t> shape;
  for (int64_t l : logs)
    shape.push_back(int64_t(1) << l);
  return shape;
}

} // namespace

RandomKernel Generator::run() {
  b_ = Builder(kernel_.module);
  func_ = b_.func(kernel_.name, {}, {});
  b_.setInsertionPointToEnd(func_->region());
  scopes_.push_back(Scope{});
  opsLeft_ = 1 << 20; // the frame's ops do not count

  // The grid and the linear program index pid0 + n0 * (pid1 + n1 * pid2).
  int dims = int(rng_.weighted({0.5, 0.35, 0.15})) + 1;
  for (int d = 0; d < dims; ++d)
    kernel_.grid[size_t(d)] = uint32_t(rng_.range(1, dims == 1 ? 4 : dims == 2 ? 3 : 2));
  numPrograms_ = int64_t(kernel_.grid[0]) * kernel_.grid[1] * kernel_.grid[2];
  program_ = record(b_.programId(0));
  for (int d = dims - 1; d >= 1; --d) {
    Value *inner = record(b_.programId(d));
    if (d + 1 < dims)
      inner = record(b_.binary(OpCode::AddI, inner, record(b_.binary(OpCode::MulI, record(b_.numPrograms(d)), program_))));
    program_ = inner;
  }
  if (dims > 1)
    program_ = record(b_.binary(OpCode::AddI, record(b_.programId(0)),
                                record(b_.binary(OpCode::MulI, record(b_.numPrograms(0)), program_))));
  facts_[program_] = intFacts(0, numPrograms_ - 1);

  tileShape_ = randomShape(rng_, options_.maxElements);
  pool_.push_back(linearIndex(tileShape_));

  // A first input or two, so every step has something to work on.
  opsLeft_ = options_.ops;
  int loads = int(rng_.range(1, 2));
  for (int i = 0; i < loads; ++i)
    genLoadStep();
  for (int attempts = 0; opsLeft_ > 0 && attempts < options_.ops * 10; ++attempts)
    step();

  // Outputs: the values nothing uses yet, most recent first.
  std::vector<Value *> sinks;
  for (auto it = pool_.rbegin(); it != pool_.rend() && sinks.size() < 6; ++it) {
    Value *v = *it;
    Facts::Kind k = facts(v).kind;
    if (!v->hasUses() && k != Facts::Kind::Other && v->type().numElements() <= options_.maxElements)
      sinks.push_back(v);
  }
  if (sinks.empty() || rng_.chance(0.3)) {
    Value *v = pickValue([&](Value *x) { return facts(x).kind != Facts::Kind::Other; });
    if (v)
      sinks.push_back(v);
  }
  for (Value *v : sinks)
    storeOutput(v, true);
  b_.ret();
  // Most kernels say what Triton's specialization would: every buffer starts 16-byte
  // aligned (every device allocates so), and integer scalars that are multiples of 16
  // are. Loads and stores may then be vectorized, and dot operands copied
  // asynchronously in 16-byte pieces.
  if (rng_.chance(0.6) && !kernel_.args.empty()) {
    std::vector<int64_t> divisibility;
    for (const ArgSpec &a : kernel_.args) {
      bool multiple = a.kind == ArgSpec::Kind::Scalar && a.element.isInteger() && a.element != Type::i1() &&
                      int64_t(a.bits) % 16 == 0;
      divisibility.push_back(a.kind == ArgSpec::Kind::Buffer || multiple ? 16 : 1);
    }
    func_->setAttr("arg_divisibility", Attribute::ints(std::move(divisibility)));
  }
  finishOutputs();
  return std::move(kernel_);
}

bool Generator::typeEnabled(Type element) const {
  switch (element.kind()) {
  case TypeKind::I1: return true;
  case TypeKind::F8E4M3:
  case TypeKind::F8E5M2: return enabled("f8");
  default: return enabled(scalarKindName(element.kind()));
  }
}

Type Generator::randomElement(bool wantFloat) {
  std::vector<Type> types;
  std::vector<double> weights;
  auto add = [&](Type t, double w) {
    if (typeEnabled(t)) {
      types.push_back(t);
      weights.push_back(w);
    }
  };
  if (wantFloat) {
    add(Type::f16(), 1), add(Type::bf16(), 0.7), add(Type::f32(), 3), add(Type::f64(), 1);
    if (types.empty())
      return Type::f32(); // every float type is off: f32 still carries casts
  } else {
    add(Type::i8(), 1), add(Type::i16(), 0.8), add(Type::i32(), 3), add(Type::i64(), 1.2);
    if (types.empty())
      return Type::i32();
  }
  Type t = types[rng_.weighted(weights)];
  use(scalarKindName(t.kind()));
  return t;
}

void Generator::finishOutputs() {
  std::map<size_t, Facts> stored;
  for (auto [arg, v] : stores_) {
    auto it = stored.find(arg);
    if (it == stored.end())
      stored[arg] = facts(v);
    else
      it->second = join(it->second, facts(v));
  }
  for (auto &[arg, f] : stored) {
    OutputCheck &check = kernel_.args[arg].check;
    Type t = kernel_.args[arg].element;
    if (f.kind == Facts::Kind::Float) {
      check.hasRange = true;
      check.lo = f.lo, check.hi = f.hi, check.exact = f.exact, check.frac = f.frac;
    } else if (f.kind == Facts::Kind::Int && (f.ilo != intMin(t) || f.ihi != intMax(t))) {
      check.hasRange = true;
      check.lo = double(f.ilo), check.hi = double(f.ihi);
    }
    if (f.kind != Facts::Kind::Float) {
      check.mode = OutputCheck::Mode::Bytes;
    } else if (f.exact) {
      check.mode = OutputCheck::Mode::Exact;
    } else {
      check.mode = OutputCheck::Mode::Tolerance;
      // err bounds |device - reference| already; twice that leaves room for the
      // double arithmetic of the bounds themselves.
      check.tolerance = 2 * f.err;
      if (!std::isfinite(check.tolerance) || check.tolerance > 0.5 * std::max(f.mag(), 1.0))
        check.mode = OutputCheck::Mode::Skip;
    }
  }
}

} // namespace trident::e2e
