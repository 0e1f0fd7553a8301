// The code generator's core: the kernel entry, frames and names, calls to jit
// functions (inlined, or tt.call for noinline ones), argument binding.

#include "CodeGen.h"

#include "KernelInfo.h"
#include "Parser.h"

#include <algorithm>
#include <cstdio>

namespace trident::frontend {

namespace {

constexpr uint64_t kWorkLimit = 400000;
constexpr int kMaxDepth = 600;
constexpr size_t kMaxCallDepth = 64;

// What a noinline callee is specialized on: types of tensors, values of constants.
std::string specializationKey(const Object &v) {
  if (v.is(Object::Kind::Tuple)) {
    std::string s = "tuple";
    for (const Object &item : v.items)
      s += "_" + specializationKey(item);
    return s + "_end";
  }
  if (v.is(Object::Kind::BlockPtr)) {
    const BlockPointer &bp = *v.blockPtr;
    std::string s = (bp.isDescriptor ? (bp.padNan ? "tensordescnan_" : "tensordesc_") : "blockptr_") +
                    bp.base.dtype.name();
    for (int64_t d : bp.blockShape)
      s += "_" + std::to_string(d);
    for (int64_t d : bp.order)
      s += "o" + std::to_string(d);
    return s;
  }
  return v.describe();
}

std::string plural(size_t n, const char *noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

} // namespace

namespace {

// Every builtin, by its qualified name. The table is the same for every code generator:
// its functions are stateless (each gets the CodeGen it works for as an argument, and
// captures at most constant names and numbers), so it is built once per process and
// shared read-only (a function-local static: thread-safe to initialize). Building it
// (a map of about a thousand std::functions) was a fifth of compiling a small kernel.
const BuiltinTable &builtinTable() {
  static const BuiltinTable table = [] {
    BuiltinTable t;
    registerCoreBuiltins(t);
    registerMemoryBuiltins(t);
    registerDescriptorBuiltins(t);
    registerMathBuiltins(t);
    registerReduceBuiltins(t);
    registerShapeBuiltins(t);
    registerDebugBuiltins(t);
    registerDotBuiltins(t);
    registerPreludeBuiltins(t);
    registerPythonBuiltins(t);
    registerLibdeviceBuiltins(t);
    registerStandardBuiltins(t);
    registerSelectBuiltins(t);
    registerTargetBuiltins(t);
    return t;
  }();
  return table;
}

} // namespace

CodeGen::CodeGen(Module &module, ModuleSet &modules, const ModuleEnv &mainModule, bool debug)
    : module_(module), modules_(modules), main_(mainModule), prelude_(modules.prelude()), debug_(debug),
      builtins_(builtinTable()) {}

FrameGuard::FrameGuard(CodeGen &cg, const FunctionDef &fn, const ModuleEnv &module)
    : cg_(cg), savedSource_(cg.source_) {
  auto f = std::make_unique<CodeGen::Frame>();
  f->function = &fn;
  f->module = &module;
  cg.frames_.push_back(std::move(f));
  cg.source_ = module.source.get();
}

FrameGuard::~FrameGuard() {
  cg_.frames_.pop_back();
  cg_.source_ = savedSource_;
}

void CodeGen::setLoc(const Span &s) {
  if (preludeDepth_ > 0)
    b_.setLoc(callLoc_);
  else
    b_.setLoc(pos(s).location());
}

void CodeGen::staticPrint(const std::string &text) {
  if (staticPrint_)
    staticPrint_(text);
  else
    std::fputs(text.c_str(), stderr);
}

CodeGen::DepthGuard::DepthGuard(CodeGen &cg, const Span &s) : cg_(cg) {
  if (++cg_.depth_ > kMaxDepth) {
    --cg_.depth_;
    cg_.error(s, "the kernel nests too deeply: expressions, blocks and calls more than " +
                     std::to_string(kMaxDepth) + " levels deep");
  }
}

void CodeGen::tick(const Span &s) {
  if (++work_ > kWorkLimit)
    error(s, "the kernel is too large to compile: more than " + std::to_string(kWorkLimit) +
                 " steps after unrolling loops and inlining calls");
}

// ---- arguments ---------------------------------------------------------------

std::vector<std::optional<Arg>> CallArgs::bind(CodeGen &cg,
                                               std::initializer_list<const char *> params) const {
  std::vector<std::string> names;
  std::vector<bool> required;
  int varargs = -1;
  for (const char *p : params) {
    std::string n = p;
    if (n[0] == '*') {
      varargs = static_cast<int>(names.size());
      names.push_back(n.substr(1));
      required.push_back(false);
      continue;
    }
    bool optional = n.back() == '=';
    if (optional)
      n.pop_back();
    names.push_back(n);
    required.push_back(!optional);
  }
  std::vector<std::optional<Arg>> bound(names.size());
  size_t fixed = varargs >= 0 ? static_cast<size_t>(varargs) : names.size();
  for (size_t i = 0; i < positional.size(); ++i) {
    if (i < fixed) {
      bound[i] = positional[i];
    } else if (varargs >= 0) {
      if (!bound[varargs]) {
        Arg rest;
        rest.value = Object::tuple({});
        rest.span = positional[i].span;
        bound[varargs] = rest;
      }
      bound[varargs]->value.items.push_back(positional[i].value);
    } else {
      cg.error(positional[i].span, callee + "() takes at most " + std::to_string(fixed) +
                                       " positional arguments (" + std::to_string(positional.size()) +
                                       " given)");
    }
  }
  for (const auto &[name, arg] : keywords) {
    auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end() || (varargs >= 0 && it - names.begin() == varargs))
      cg.error(arg.span, callee + "() got an unexpected keyword argument '" + name + "'");
    size_t i = static_cast<size_t>(it - names.begin());
    if (bound[i])
      cg.error(arg.span, callee + "() got multiple values for argument '" + name + "'");
    bound[i] = arg;
  }
  for (size_t i = 0; i < names.size(); ++i)
    if (required[i] && !bound[i])
      cg.error(span, callee + "() missing required argument '" + names[i] + "'");
  return bound;
}

Tensor CodeGen::tensorArg(const Arg &a) {
  if (!a.value.isTensor() && !a.value.isPyNumber())
    error(a.span, "expected a tensor, got " + a.value.describe());
  return toTensor(a.value, a.span);
}

int64_t CodeGen::intArg(const Arg &a, const char *what) {
  const Object &o = a.value;
  if (o.kind == Object::Kind::Int && o.intValue >= INT64_MIN && o.intValue <= INT64_MAX)
    return static_cast<int64_t>(o.intValue);
  if (o.kind == Object::Kind::Bool)
    return o.boolValue;
  if (o.isTensor() && a.expr && a.expr->kind == ExprKind::Name)
    error(a.span,
          std::string(what) + " must be a tl.constexpr integer, but '" + a.expr->name + "' is a tensor");
  error(a.span, std::string(what) + " must be a tl.constexpr integer, got " + o.describe());
}

bool CodeGen::boolArg(const Arg &a, const char *what) {
  const Object &o = a.value;
  if (o.kind == Object::Kind::Bool || o.kind == Object::Kind::Int || o.kind == Object::Kind::None)
    return truthy(o, a.span);
  error(a.span, std::string(what) + " must be a tl.constexpr bool, got " + o.describe());
}

std::string CodeGen::stringArg(const Arg &a, const char *what) {
  if (a.value.kind == Object::Kind::String)
    return a.value.name;
  if (a.value.kind == Object::Kind::None)
    return "";
  error(a.span, std::string(what) + " must be a string, got " + a.value.describe());
}

DType CodeGen::dtypeArg(const Arg &a, const char *what) {
  if (a.value.kind == Object::Kind::DType && a.value.dtype.isVoid())
    error(a.span, std::string(what) + " cannot be tl.void: no value has that type (it marks the absence of one)");
  if (a.value.kind == Object::Kind::DType)
    return a.value.dtype;
  error(a.span, std::string(what) + " must be a dtype such as tl.float32, got " + a.value.describe());
}

int64_t CodeGen::shapeDim(const Object &o, const Expr *expr, const Span &span, const char *what) {
  if (o.kind == Object::Kind::Int) {
    if (o.intValue < 0 || o.intValue > (PyInt(1) << 40))
      error(span, std::string(what) + " has an invalid dimension " + pyIntStr(o.intValue));
    return static_cast<int64_t>(o.intValue);
  }
  if (o.isTensor()) {
    if (expr && expr->kind == ExprKind::Name)
      error(span, "'" + expr->name + "' is used as a shape but is not a tl.constexpr");
    error(span, std::string(what) + " must be a tl.constexpr, but this value is a tensor");
  }
  error(span, std::string(what) + " must be a tl.constexpr integer, got " + o.describe());
}

std::vector<int64_t> CodeGen::shapeArg(const Arg &a, const char *what) {
  std::vector<int64_t> shape;
  if (a.value.kind == Object::Kind::Tuple) {
    const Expr *literal =
        a.expr && (a.expr->kind == ExprKind::Tuple || a.expr->kind == ExprKind::List) ? a.expr : nullptr;
    for (size_t i = 0; i < a.value.items.size(); ++i) {
      const Expr *e = literal && i < literal->items.size() ? literal->items[i].get() : nullptr;
      shape.push_back(shapeDim(a.value.items[i], e, e ? e->span : a.span, what));
    }
    return shape;
  }
  shape.push_back(shapeDim(a.value, a.expr, a.span, what));
  return shape;
}

void CodeGen::checkBlockShape(std::span<const int64_t> shape, const Span &span) {
  if (shape.size() > 8)
    error(span, "blocks may have at most 8 dimensions, got " + std::to_string(shape.size()));
  int64_t numel = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t d = shape[i];
    if (d <= 0 || (d & (d - 1)) != 0)
      error(span, "shape element " + std::to_string(i) + " must be a power of two, got " + std::to_string(d));
    numel *= d;
    if (numel > (int64_t(1) << 20))
      error(span, "the block has more than 1048576 elements (Triton's maximum)");
  }
}

// ---- names -------------------------------------------------------------------

Object CodeGen::lookupName(const std::string &name, const Span &span) {
  Frame &f = frame();
  if (auto it = f.locals.find(name); it != f.locals.end())
    return it->second;
  if (const GlobalEntry *g = f.module->lookup(name))
    return evalGlobal(*f.module, name, *g, span);
  if (name == "__name__")
    return Object::string(f.module->name);
  static const char *pyBuiltins[] = {"range",   "min",   "max",   "abs",        "len", "int",
                                     "float",   "bool",  "print", "isinstance", "str", "getattr",
                                     "hasattr", "tuple", "list",  "round",      "map"};
  for (const char *b : pyBuiltins)
    if (name == b)
      return Object::named(Object::Kind::Builtin, std::string("py.") + b);
  error(span, "name '" + name + "' is not defined");
}

Object CodeGen::evalGlobal(const ModuleEnv &env, const std::string &name, const GlobalEntry &g,
                           const Span &span) {
  switch (g.kind) {
  case GlobalEntry::Kind::Function: {
    Object o;
    o.kind = Object::Kind::JitFunction;
    o.function = g.function;
    o.functionModule = &env;
    return o;
  }
  case GlobalEntry::Kind::Module: {
    Object o = Object::named(Object::Kind::Module, g.path);
    o.functionModule = g.module;
    return o;
  }
  case GlobalEntry::Kind::ImportFrom: {
    if (!g.module)
      return moduleMember(g.path, g.member, span);
    auto key = std::make_pair(&env, name);
    if (evaluatingGlobals_.count(key))
      error(span, "'" + name + "' is imported in a cycle of modules that never defines it");
    evaluatingGlobals_.insert(key);
    struct Exit {
      std::set<std::pair<const ModuleEnv *, std::string>> &set;
      std::pair<const ModuleEnv *, std::string> key;
      ~Exit() { set.erase(key); }
    } exit{evaluatingGlobals_, key};
    return fileModuleMember(*g.module, g.member, span, true);
  }
  case GlobalEntry::Kind::Opaque:
    error(span, "global '" + name + "' cannot be used in a kernel: " +
                    (g.reason.empty() ? std::string("it is not a compile-time constant") : g.reason));
  case GlobalEntry::Kind::Constant: break;
  }
  auto key = std::make_pair(&env, name);
  if (evaluatingGlobals_.count(key))
    error(span, "global '" + name + "' is defined in terms of itself");
  evaluatingGlobals_.insert(key);
  Object value;
  {
    // Evaluate in the global's own module, with no locals.
    static const FunctionDef moduleScope;
    FrameGuard guard(*this, moduleScope, env);
    try {
      value = eval(*g.value);
    } catch (CompileError &e) {
      evaluatingGlobals_.erase(key);
      e.message = "global '" + name + "' cannot be used in a kernel: " + e.message;
      throw;
    }
  }
  evaluatingGlobals_.erase(key);
  if (!value.isConstexpr())
    error(span, "global '" + name + "' cannot be used in a kernel: it is not a compile-time constant");
  return value;
}

Object CodeGen::moduleMember(const std::string &path, const std::string &member, const Span &span) {
  return getAttribute(Object::named(Object::Kind::Module, path), member, span);
}

// ---- calls -------------------------------------------------------------------

void CodeGen::bindParameters(const FunctionDef &fn, const ModuleEnv &, const CallArgs &args) {
  Frame &f = frame();
  std::vector<std::optional<Object>> values(fn.params.size());
  size_t next = 0;
  for (const Arg &a : args.positional) {
    while (next < fn.params.size() && fn.params[next].isKwArgs)
      ++next;
    if (next >= fn.params.size())
      error(a.span,
            fn.name + "() takes " + std::to_string(fn.params.size()) + " arguments but more were given");
    if (fn.params[next].isVarArgs)
      error(a.span, fn.name + "(): *args parameters are not supported");
    values[next++] = a.value;
  }
  for (const auto &[name, a] : args.keywords) {
    size_t i = 0;
    while (i < fn.params.size() && fn.params[i].name != name)
      ++i;
    if (i == fn.params.size())
      error(a.span, fn.name + "() got an unexpected keyword argument '" + name + "'");
    if (values[i])
      error(a.span, fn.name + "() got multiple values for argument '" + name + "'");
    values[i] = a.value;
  }
  for (size_t i = 0; i < fn.params.size(); ++i) {
    const Param &p = fn.params[i];
    if (p.isVarArgs || p.isKwArgs)
      error(p.span, "*args and **kwargs parameters are not supported in @triton.jit functions");
    if (!values[i]) {
      if (!p.defaultValue)
        error(args.span, fn.name + "() missing required argument '" + p.name + "'");
      values[i] = eval(*p.defaultValue);
    }
    f.locals[p.name] = *values[i];
  }
}

Object CodeGen::callJit(const FunctionDef &fn, const ModuleEnv &module, const CallArgs &args) {
  if (fn.parseError)
    throw *fn.parseError;
  if (!fn.parsed)
    error(args.span, "'" + fn.name + "' is not a @triton.jit function and cannot be called from a kernel");
  if (frames_.size() > kMaxCallDepth)
    error(args.span, "calls nest more than " + std::to_string(kMaxCallDepth) +
                         " deep (recursive @triton.jit functions are not supported)");
  if (fn.constexprFunction)
    return callConstexprFunction(fn, module, args);
  KernelInfo info = kernelInfo(fn, module, false);
  if (info.noinline)
    return callNoinline(fn, module, args);
  // Arguments are evaluated in the caller's frame; the callee gets a fresh one.
  FrameGuard guard(*this, fn, module);
  bindParameters(fn, module, args);
  execSequence(fn.body, 0, nullptr);
  return frame().returned ? *frame().returned : Object::none();
}

Object CodeGen::callPrelude(const std::string &name, const CallArgs &args) {
  const GlobalEntry *g = prelude_.lookup(name);
  if (!g || g->kind != GlobalEntry::Kind::Function)
    error(args.span, "internal error: the language prelude has no function '" + name + "'");
  if (preludeDepth_++ == 0)
    callLoc_ = b_.loc();
  struct Exit {
    int &depth;
    ~Exit() { --depth; }
  } exit{preludeDepth_};
  try {
    return callJit(*g->function, prelude_, args);
  } catch (CompileError &e) {
    // Errors inside the language's own functions are the caller's: report them there.
    if (e.pos.buffer == prelude_.source.get()) {
      e.pos = pos(args.span);
      e.message = args.callee + ": " + e.message;
    }
    throw;
  }
}

Object CodeGen::callNoinline(const FunctionDef &fn, const ModuleEnv &module, const CallArgs &args) {
  // Specialize on the argument types and constexpr values.
  std::vector<Object> argValues;
  Object result;
  Op *callee = nullptr;
  std::vector<Value *> operands;
  std::string symbol;
  {
    FrameGuard guard(*this, fn, module);
    bindParameters(fn, module, args);
    symbol = fn.name;
    for (const Param &p : fn.params) {
      const Object &v = frame().locals[p.name];
      std::string part = specializationKey(v);
      std::string clean;
      for (char c : part)
        clean += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      symbol += "__" + clean;
      flatten(v, operands, args.span);
      argValues.push_back(v);
    }
  }
  auto found = noinlineFuncs_.find(symbol);
  Object returnSkeleton;
  if (found == noinlineFuncs_.end()) {
    Block *savedBlock = b_.block();
    Op *savedBefore = b_.insertionOp();
    Location savedLoc = b_.loc();
    b_.setInsertionPointToEnd(module_.body());
    std::vector<Type> params;
    for (Value *v : operands)
      params.push_back(v->type());
    Op *f = b_.func(symbol, params, {});
    f->setAttr("noinline", Attribute::boolean(true));
    {
      FrameGuard guard(*this, fn, module);
      std::vector<Value *> regionArgs = f->region()->arguments();
      size_t idx = 0;
      b_.setInsertionPointToEnd(f->region()); // rebuild may make constants
      for (size_t i = 0; i < fn.params.size(); ++i)
        frame().locals[fn.params[i].name] = rebuild(argValues[i], regionArgs, idx);
      execSequence(fn.body, 0, nullptr);
      returnSkeleton = frame().returned ? *frame().returned : Object::none();
      std::vector<Value *> results;
      flatten(returnSkeleton, results, fn.span);
      std::vector<Type> resultTypes;
      for (Value *v : results)
        resultTypes.push_back(v->type());
      b_.ret(results);
      if (!resultTypes.empty())
        f->setAttr("result_types", Attribute::types(resultTypes));
    }
    noinlineFuncs_[symbol] = f;
    noinlineReturns_[symbol] = returnSkeleton;
    callee = f;
    if (savedBefore)
      b_.setInsertionPoint(savedBefore);
    else
      b_.setInsertionPointToEnd(savedBlock);
    b_.setLoc(savedLoc);
  } else {
    callee = found->second;
    returnSkeleton = noinlineReturns_[symbol];
  }
  setLoc(args.span);
  Op *call = b_.call(callee, operands);
  std::vector<Value *> results = call->results();
  size_t idx = 0;
  return rebuild(returnSkeleton, results, idx);
}

// ---- the kernel --------------------------------------------------------------

void CodeGen::compileKernel(const FunctionDef &kernel, const std::vector<ArgSpec> &args) {
  if (kernel.parseError)
    throw *kernel.parseError;
  KernelInfo info = kernelInfo(kernel, main_, false);
  FrameGuard guard(*this, kernel, main_);
  frame().isKernel = true;
  const std::vector<Param> &params = kernel.params;
  if (args.size() > params.size())
    error(kernel.span, "kernel '" + kernel.name + "' takes " + plural(params.size(), "parameter") +
                           ", but the signature gives " + std::to_string(args.size()));
  std::vector<Type> types;
  std::vector<int64_t> divisibility;
  struct RuntimeParam {
    size_t param; // index into params
    DType dtype;
    size_t arg; // its first tt.func argument
  };
  std::vector<RuntimeParam> runtime;
  std::vector<RuntimeParam> descriptors;
  for (size_t i = 0; i < params.size(); ++i) {
    const Param &p = params[i];
    if (p.isVarArgs || p.isKwArgs)
      error(p.span, "kernel parameters cannot be *args or **kwargs");
    bool annotated = isConstexprAnnotation(p.annotation.get());
    bool dontSpecialize = std::find(info.doNotSpecialize.begin(), info.doNotSpecialize.end(), p.name) !=
                          info.doNotSpecialize.end();
    if (i >= args.size()) {
      if (!p.defaultValue)
        error(kernel.span, "kernel '" + kernel.name + "' takes " + plural(params.size(), "parameter") +
                               ", but the signature gives " + std::to_string(args.size()));
      frame().locals[p.name] = eval(*p.defaultValue);
      continue;
    }
    const ArgSpec &a = args[i];
    if (a.kind == ArgSpec::Kind::Constexpr) {
      if (dontSpecialize && !annotated)
        error(p.span, "parameter '" + p.name +
                          "' is listed in do_not_specialize, but the signature gives a constant");
      SourceBuffer valueSource("<signature>", a.constexprValue);
      Object value;
      try {
        ExprPtr e = parseExpression(valueSource);
        // Evaluated at module scope, where tl, triton and math always mean the language.
        static const FunctionDef signatureScope;
        FrameGuard scope(*this, signatureScope, main_);
        source_ = &valueSource;
        frame().locals["tl"] = Object::named(Object::Kind::Module, "triton.language");
        frame().locals["triton"] = Object::named(Object::Kind::Module, "triton");
        frame().locals["math"] = Object::named(Object::Kind::Module, "math");
        value = eval(*e);
      } catch (CompileError &e) {
        error(p.span, "the constexpr value '" + a.constexprValue + "' given for parameter '" + p.name +
                          "' is not valid: " + e.message);
      }
      if (!value.isConstexpr())
        error(p.span, "the value given for parameter '" + p.name + "' is not a compile-time constant");
      frame().locals[p.name] = value;
      continue;
    }
    if (annotated)
      error(p.span, "parameter '" + p.name + "' is a tl.constexpr: the signature must give its value");
    if (a.kind == ArgSpec::Kind::TensorDesc) {
      // The ABI of a host tensor descriptor: base pointer, shape (i32 each), strides (i64 each).
      descriptors.push_back({i, DType{a.type, a.isUnsigned, static_cast<SoftFp8>(a.softFp8)}, types.size()});
      types.push_back(a.type);
      divisibility.push_back(dontSpecialize ? 1 : 16);
      for (size_t k = 0; k < 2 * a.blockShape.size(); ++k) {
        types.push_back(k < a.blockShape.size() ? Type::i32() : Type::i64());
        divisibility.push_back(1);
      }
      continue;
    }
    DType d;
    switch (a.kind) {
    case ArgSpec::Kind::Pointer: d = DType{a.type, a.isUnsigned, static_cast<SoftFp8>(a.softFp8)}; break;
    case ArgSpec::Kind::Int: d = DType{a.type, a.isUnsigned}; break;
    case ArgSpec::Kind::Float: d = DType{a.type, false}; break;
    case ArgSpec::Kind::Bool: d = DType::i1(); break;
    case ArgSpec::Kind::Constexpr:
    case ArgSpec::Kind::TensorDesc: break;
    }
    if (!d.type || (a.kind == ArgSpec::Kind::Pointer && !d.isPtr()) ||
        (a.kind == ArgSpec::Kind::Int && !d.isInt()) || (a.kind == ArgSpec::Kind::Float && !d.isFloat()))
      error(p.span, "the signature gives parameter '" + p.name + "' an invalid type");
    runtime.push_back({i, d, types.size()});
    types.push_back(d.type);
    divisibility.push_back(dontSpecialize || a.divisibility < 1 ? 1 : a.divisibility);
  }
  b_.setInsertionPointToEnd(module_.body());
  setLoc(kernel.span);
  Op *f = b_.func(kernel.name, types, {});
  if (!types.empty())
    f->setAttr("arg_divisibility", Attribute::ints(divisibility));
  b_.setInsertionPointToEnd(f->region());
  for (const RuntimeParam &r : runtime)
    frame().locals[params[r.param].name] = Object::ofTensor(f->region()->argument(r.arg), r.dtype);
  for (const RuntimeParam &r : descriptors) {
    size_t rank = args[r.param].blockShape.size();
    std::vector<Tensor> shape, strides;
    for (size_t k = 0; k < rank; ++k) {
      shape.push_back(Tensor{f->region()->argument(r.arg + 1 + k), DType::i32()});
      strides.push_back(Tensor{f->region()->argument(r.arg + 1 + rank + k), DType::i64()});
    }
    frame().locals[params[r.param].name] =
        makeDescriptor(Tensor{f->region()->argument(r.arg), r.dtype}, shape, strides,
                       args[r.param].blockShape, false, params[r.param].span);
  }
  execSequence(kernel.body, 0, nullptr);
  if (frame().returned && !frame().returned->is(Object::Kind::None))
    error(kernel.span, "kernel '" + kernel.name + "' returns a value; kernels must return nothing");
  setLoc(kernel.span);
  b_.ret();
  // The kernel's own tt.func comes first, then the noinline functions it calls.
  if (module_.body()->front() != f)
    f->moveBefore(module_.body()->front());
}

} // namespace trident::frontend
