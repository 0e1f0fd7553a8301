#pragma once
// Internal to the frontend: the code generator. It walks the syntax tree of a
// @triton.jit function like an interpreter of the Python subset, evaluating
// compile-time values (constexprs) in C++ and emitting block IR for tensors.
// Calls to other jit functions are inlined by compiling the callee's body at the
// call site (noinline=True callees become a tt.func and a tt.call instead).
//
// The work is split by concern:
//   CodeGen.cpp          entry, frames, names, calls, the work budget
//   GenModule.cpp        module members, module-level tests, constexpr_function calls
//   GenExpr.cpp          expressions, attributes, subscripts
//   GenStmt.cpp          statements: assignment, if, for, while, return
//   Constexpr.cpp        Python semantics of compile-time values
//   Semantic.cpp         Triton's typing rules: promotion, casts, broadcasting
//   Arith.cpp            arithmetic and comparison operators on tensors
//   Builtins*.cpp        the tl.* functions, one file per family
//   Prelude.cpp          language functions written in the Triton language itself

#include "ModuleEnv.h"
#include "Object.h"

#include "trident/frontend/Frontend.h"
#include "trident/ir/Builder.h"

#include <functional>
#include <map>
#include <optional>
#include <set>

namespace trident::frontend {

// One argument at a call site.
struct Arg {
  Object value;
  Span span;
  const Expr *expr = nullptr; // null for arguments the frontend made up
};

class CodeGen;

// The arguments of one call of a builtin, and binding them to its parameters.
struct CallArgs {
  std::string callee; // "tl.load"
  Span span;          // the call
  std::vector<Arg> positional;
  std::vector<std::pair<std::string, Arg>> keywords;

  // Binds to `params`: "name" (required), "name=" (optional), "*name" (collects the
  // remaining positional arguments into a tuple). Returns one entry per parameter.
  std::vector<std::optional<Arg>> bind(CodeGen &cg, std::initializer_list<const char *> params) const;
};

using BuiltinFn = std::function<Object(CodeGen &, const CallArgs &)>;
using BuiltinTable = std::map<std::string, BuiltinFn, std::less<>>;

// Each Builtins*.cpp registers its functions under their qualified names.
void registerCoreBuiltins(BuiltinTable &t);
void registerMemoryBuiltins(BuiltinTable &t);
void registerDescriptorBuiltins(BuiltinTable &t); // tensor descriptors (BuiltinsDescriptor.cpp)
void registerMathBuiltins(BuiltinTable &t);
void registerReduceBuiltins(BuiltinTable &t);
void registerShapeBuiltins(BuiltinTable &t);
void registerDebugBuiltins(BuiltinTable &t);
void registerDotBuiltins(BuiltinTable &t);
void registerPreludeBuiltins(BuiltinTable &t);
void registerPythonBuiltins(BuiltinTable &t);
void registerLibdeviceBuiltins(BuiltinTable &t);
void registerStandardBuiltins(BuiltinTable &t);
void registerTargetBuiltins(BuiltinTable &t); // tl.condition, tl.async_task, tl.slice, tl.target_info
void registerSelectBuiltins(
    BuiltinTable &t); // tl.map_elementwise (GenSelect.cpp) // "libdevice.rint" ... (PreludeLibdevice.cpp)

// Python's str methods on compile-time strings (BuiltinsPython.cpp).
bool isStringMethod(const std::string &name);
Object stringMethod(CodeGen &cg, const std::string &self, const std::string &method, const CallArgs &args);

// The Triton-language source of the language functions the frontend implements
// in the language itself (random numbers...), and the names it defines.
std::string preludeSource();
const char *libdevicePreludeSource();      // appended to the prelude
const char *transcendentalPreludeSource(); // libdevice's tanh, pow, atan ... (PreludeTranscendental.cpp)
const char *standardPreludeSource();       // flip, sort, gather ... (PreludeStandard.cpp), appended too
const char *softFp8PreludeSource();        // float8e4b15/e4b8/e5b16 conversions (Fp8Software.cpp)
const char *roundingPreludeSource();       // libdevice's add_rz ... double2float_rd ... (PreludeRounding.cpp)
const char *specialPreludeSource();        // libdevice's erfc, fmod ... (PreludeSpecial.cpp)
const char *gammaPreludeSource();          // libdevice's lgamma, tgamma (PreludeGamma.cpp)
const char *besselPreludeSource();         // libdevice's j0 ... yn, cyl_bessel_i0/i1 (PreludeBessel.cpp)
const char *integerPreludeSource();        // libdevice's mul24, sad, byte_perm, rsqrt_rn, norm3d ... (PreludeInteger.cpp)

// A libdevice name implemented by a prelude function, which is called with the
// kernel's arguments followed by `constants` (compile-time integers: a rounding mode...).
struct LibdevicePrelude {
  std::string name, impl;
  std::vector<int> constants;
};
void addLibdevicePrelude(BuiltinTable &t, const std::vector<LibdevicePrelude> &entries);
void registerRoundingLibdevice(BuiltinTable &t); // PreludeRounding.cpp
void registerSpecialLibdevice(BuiltinTable &t);  // PreludeSpecial.cpp
void registerGammaLibdevice(BuiltinTable &t);    // PreludeGamma.cpp
void registerBesselLibdevice(BuiltinTable &t);   // PreludeBessel.cpp
void registerIntegerLibdevice(BuiltinTable &t);  // PreludeInteger.cpp

class CodeGen {
public:
  CodeGen(Module &module, ModuleSet &modules, const ModuleEnv &mainModule, bool debug);

  // Emits the kernel's tt.func, specialized for `args`. Throws CompileError.
  void compileKernel(const FunctionDef &kernel, const std::vector<ArgSpec> &args);

  // ---- module level (ModuleEnv) ----
  // The value of a module-level `if` test in `env`; nullopt (and why) when it is not
  // a compile-time value.
  std::optional<bool> moduleCondition(const ModuleEnv &env, const Expr &test, std::string &why);
  // True when the language module `path` (triton.language...) has `member` for Trident.
  bool languageHas(const std::string &path, const std::string &member);
  // Points the builder into a scratch function (for a code generator that only evaluates).
  void enterScratchFunction();
  ModuleSet &modules() { return modules_; }

  // ---- positions and errors ----
  SourcePos pos(const Span &s) const { return SourcePos{source_, s.line, s.col}; }
  [[noreturn]] void error(const Span &s, std::string message) const { fail(pos(s), std::move(message)); }
  Builder &builder() { return b_; }
  // Sets the builder's location to `s` (or to the call site inside prelude functions).
  void setLoc(const Span &s);
  // Counts work done, so that unrolling and inlining cannot run away.
  void tick(const Span &s);
  // Bounds the nesting of expressions, blocks and calls together (the C++ stack).
  class DepthGuard {
  public:
    DepthGuard(CodeGen &cg, const Span &s);
    ~DepthGuard() { --cg_.depth_; }
    DepthGuard(const DepthGuard &) = delete;
    DepthGuard &operator=(const DepthGuard &) = delete;

  private:
    CodeGen &cg_;
  };

  // ---- expressions (GenExpr.cpp) ----
  Object eval(const Expr &e);
  Object getAttribute(const Object &obj, const std::string &name, const Span &span);
  Object subscript(const Object &obj, const Object &index, const Span &span);
  Object call(const Object &callee, const CallArgs &args);
  Object lookupName(const std::string &name, const Span &span);

  // ---- statements (GenStmt.cpp) ----
  struct Continuation {
    const StmtList *stmts;
    size_t start;
    const Continuation *next;
  };
  // Compiles stmts[start..] then the continuations; true when it returned.
  bool execSequence(const StmtList &stmts, size_t start, const Continuation *next);

  // ---- Python semantics of compile-time values (Constexpr.cpp) ----
  bool truthy(const Object &o, const Span &span);
  std::optional<Object> foldBinary(BinOpKind op, const Object &a, const Object &b, const Span &span);
  std::optional<Object> foldCompare(CmpOpKind op, const Object &a, const Object &b, const Span &span);
  std::optional<Object> foldUnary(UnaryOpKind op, const Object &a, const Span &span);
  PyInt checkedInt(PyInt v, const Span &span);

  // ---- Triton's typing rules (Semantic.cpp) ----
  // A Python number as a tensor, typed as Triton types literals; tensors pass through.
  Tensor toTensor(const Object &o, const Span &span);
  // A constant of `dtype` with the shape `shape` holding the Python number `o`.
  Tensor constant(const Object &o, DType dtype, std::span<const int64_t> shape, const Span &span);
  Tensor constantInt(int64_t v, DType dtype, std::span<const int64_t> shape = {});
  Tensor cast(const Tensor &t, DType to, const Span &span, std::string_view rounding = "");
  // A cast from or to an fp8 format held as bits (DType::isSoftFp8), through f32 (Fp8Software.cpp).
  Tensor softFp8Cast(const Tensor &t, DType to, const Span &span, std::string_view rounding);
  Tensor bitcast(const Tensor &t, DType to, const Span &span);
  // Triton's broadcast_impl_shape: a scalar is splat, a block broadcast along 1-dims.
  Tensor broadcastTo(const Tensor &t, std::span<const int64_t> shape, const Span &span);
  // Triton's broadcast_impl_value: numpy-style broadcasting of two operands.
  std::pair<Tensor, Tensor> broadcastPair(const Tensor &a, const Tensor &b, const Span &span);
  DType integerPromote(DType a, DType b) const;
  DType computationType(DType a, bool aIsPy, DType b, bool bIsPy, bool divOrMod, const Span &span) const;
  // Triton's binary_op_type_checking_impl: promotes, materializes literals, broadcasts.
  std::pair<Tensor, Tensor> binaryOperands(const Object &a, const Object &b, const Span &span,
                                           bool allowLhsPtr = false, bool allowRhsPtr = false,
                                           bool arithmeticCheck = true, bool divOrMod = false);
  // i1 of the same shape: x != 0 for non-bool tensors.
  Tensor toBool(const Tensor &t, const Span &span);
  Tensor where(const Object &cond, const Object &x, const Object &y, const Span &span);

  // ---- operators (Arith.cpp) ----
  Object binary(BinOpKind op, const Object &a, const Object &b, const Span &span);
  Object compare(CmpOpKind op, const Object &a, const Object &b, const Span &span);
  Object unary(UnaryOpKind op, const Object &a, const Span &span);
  Tensor minMax(bool isMax, const Object &a, const Object &b, bool propagateNan, const Span &span);
  Tensor logical(bool isAnd, const Tensor &a, const Tensor &b, const Span &span);

  // ---- argument helpers for builtins ----
  Tensor tensorArg(const Arg &a);
  int64_t intArg(const Arg &a, const char *what);
  bool boolArg(const Arg &a, const char *what);
  std::string stringArg(const Arg &a, const char *what);
  DType dtypeArg(const Arg &a, const char *what);
  // A shape: a constexpr int or a tuple/list of them; `what` names the use.
  std::vector<int64_t> shapeArg(const Arg &a, const char *what);
  // One shape dimension from an argument (a constexpr int, else the shape error).
  int64_t shapeDim(const Object &o, const Expr *expr, const Span &span, const char *what);
  // Checks Triton's block-shape rules: powers of two, at most 2^20 elements.
  void checkBlockShape(std::span<const int64_t> shape, const Span &span);

  // ---- calls ----
  Object callJit(const FunctionDef &fn, const ModuleEnv &module, const CallArgs &args);
  // Calls a prelude function by name (its ops get the caller's location).
  Object callPrelude(const std::string &name, const CallArgs &args);
  // Builds a reduce/scan combiner region body by calling `combine` on scalars.
  std::vector<Value *> buildCombiner(const Object &combine, std::span<Value *const> lhs,
                                     std::span<Value *const> rhs, const std::vector<DType> &dtypes,
                                     const Span &span);

  // ---- block pointers ----
  // The pointer block and boundary mask a block pointer addresses.
  std::pair<Tensor, std::optional<Tensor>>
  blockPointerAccess(const BlockPointer &bp, std::span<const int64_t> boundaryCheck, const Span &span);
  // A tensor descriptor over `base` (shape: i32 scalars, strides: i64 scalars), with
  // Triton's checks; the last stride is taken to be 1 (Triton requires it).
  Object makeDescriptor(Tensor base, std::vector<Tensor> shape, std::vector<Tensor> strides,
                        std::vector<int64_t> blockShape, bool padNan, const Span &span);
  // desc.shape, desc.strides, desc.block_shape, desc.dtype and the methods.
  Object descriptorAttribute(const Object &desc, const std::string &name, const Span &span);

  // ---- control flow values ----
  // Flattens the IR values of an object (tensors, tuples, block pointers) for
  // loop-carried values and branch results; Python numbers are materialized.
  void flatten(const Object &o, std::vector<Value *> &out, const Span &span);
  // Rebuilds an object shaped like `skeleton` from values[idx...].
  Object rebuild(const Object &skeleton, std::span<Value *const> values, size_t &idx);
  // Like `flatten` for `o` materialized, but false when it differs from `skeleton`
  // in structure, types or compile-time values.
  bool flattenLike(const Object &o, const Object &skeleton, std::vector<Value *> &out, const Span &span);
  // Python numbers become tensors (Triton's assignment rule), recursively in tuples.
  Object materialize(const Object &o, const Span &span);

  // ---- frames ----
  struct Frame {
    const FunctionDef *function = nullptr;
    const ModuleEnv *module = nullptr;
    std::map<std::string, Object, std::less<>> locals;
    int loopDepth = 0;
    std::optional<Object> returned;
    bool isKernel = false;
    bool constexprFunction = false; // a @triton.constexpr_function: Python semantics throughout
  };
  Frame &frame() { return *frames_.back(); }
  // Inside tl.map_elementwise's function (GenSelect.cpp): an `if` on a block
  // condition computes both branches and selects per element.
  int elementwiseDepth = 0;
  // where(cond, a, b) through tuples; equal objects stay as they are.
  Object selectObjects(const Tensor &cond, const Object &a, const Object &b, const Span &span);
  const BuiltinTable &builtins() const { return builtins_; }
  bool debug() const { return debug_; }
  Module &module() { return module_; }
  // tl.static_print output: to the request's callback, or standard error.
  void setStaticPrint(std::function<void(const std::string &)> f) { staticPrint_ = std::move(f); }
  void staticPrint(const std::string &text);
  // The compile target ("cuda:sm_90", "hip:gfx942", "vulkan", "host"; empty: not
  // known), which tl.target_info answers for.
  void setTarget(std::string target) { target_ = std::move(target); }
  const std::string &target() const { return target_; }
  // The expression being evaluated as a while loop's test or a `with` item: the only
  // places tl.condition and tl.async_task may be called (BuiltinsTarget.cpp).
  enum class HintKind : uint8_t { None, WhileTest, WithItem };
  const Expr *hintSite = nullptr;
  const SourceBuffer *hintBuffer = nullptr; // the file hintSite is in
  HintKind hintKind = HintKind::None;
  bool whileDisableLicm = false; // set by tl.condition(..., disable_licm=True)
  // Sets hintSite for its lifetime.
  class HintSiteGuard {
  public:
    HintSiteGuard(CodeGen &cg, const Expr *site, HintKind kind)
        : cg_(cg), site_(cg.hintSite), buffer_(cg.hintBuffer), kind_(cg.hintKind), licm_(cg.whileDisableLicm) {
      cg.hintSite = site;
      cg.hintBuffer = cg.pos(Span{}).buffer;
      cg.hintKind = kind;
      cg.whileDisableLicm = false;
    }
    ~HintSiteGuard() {
      cg_.hintSite = site_;
      cg_.hintBuffer = buffer_;
      cg_.hintKind = kind_;
      cg_.whileDisableLicm = licm_;
    }
    HintSiteGuard(const HintSiteGuard &) = delete;
    HintSiteGuard &operator=(const HintSiteGuard &) = delete;

  private:
    CodeGen &cg_;
    const Expr *site_;
    const SourceBuffer *buffer_;
    HintKind kind_;
    bool licm_;
  };

private:
  friend class FrameGuard;
  Object evalGlobal(const ModuleEnv &env, const std::string &name, const GlobalEntry &g, const Span &span);
  Object moduleMember(const std::string &path, const std::string &member, const Span &span);
  // `member` of a module read from a file: a global of it, else a submodule.
  Object fileModuleMember(const ModuleEnv &env, const std::string &member, const Span &span, bool fromImport);
  Object evalCall(const Expr &e);
  Object evalIfExp(const Expr &e);
  Object tensorMethod(const Object &self, const std::string &method, const CallArgs &args);
  // Statements (GenStmt.cpp).
  void assignTarget(const Expr &target, const Object &value);
  // An if statement; returns nullopt when the sequence continues after it.
  std::optional<bool> genIf(const Stmt &s, const StmtList &stmts, size_t index, const Continuation *next);
  // genIf on a block condition inside tl.map_elementwise (GenSelect.cpp).
  std::optional<bool> genIfSelect(const Stmt &s, const Tensor &cond, const StmtList &stmts, size_t index,
                                  const Continuation *next);
  void genFor(const Stmt &s);
  void genWhile(const Stmt &s);
  // `with tl.async_task([...]):` (the only context manager of the language); true when it returned.
  bool genWith(const Stmt &s, const StmtList &stmts, size_t index, const Continuation *next);
  Object callNoinline(const FunctionDef &fn, const ModuleEnv &module, const CallArgs &args);
  Object callConstexprFunction(const FunctionDef &fn, const ModuleEnv &module, const CallArgs &args);
  void bindParameters(const FunctionDef &fn, const ModuleEnv &module, const CallArgs &args);

  Module &module_;
  ModuleSet &modules_;
  const ModuleEnv &main_, &prelude_;
  bool debug_;
  Builder b_;
  const BuiltinTable &builtins_; // shared by every CodeGen (CodeGen.cpp)
  const SourceBuffer *source_ = nullptr;
  std::vector<std::unique_ptr<Frame>> frames_;
  std::set<std::pair<const ModuleEnv *, std::string>> evaluatingGlobals_;
  std::map<std::string, Op *> noinlineFuncs_;
  std::map<std::string, Object> noinlineReturns_;
  int preludeDepth_ = 0; // > 0 while compiling prelude functions: their ops get callLoc_
  Location callLoc_;
  uint64_t work_ = 0;
  int depth_ = 0;
  std::function<void(const std::string &)> staticPrint_;
  std::string target_;
};

// Sets the current frame (and its source buffer) for the lifetime of the guard.
class FrameGuard {
public:
  FrameGuard(CodeGen &cg, const FunctionDef &fn, const ModuleEnv &module);
  ~FrameGuard();
  FrameGuard(const FrameGuard &) = delete;
  FrameGuard &operator=(const FrameGuard &) = delete;

private:
  CodeGen &cg_;
  const SourceBuffer *savedSource_;
};

// Names assigned anywhere in `stmts` (targets of =, +=, annotated =, for), sorted.
std::set<std::string> assignedNames(const StmtList &stmts);
// True when a return statement occurs in `stmts` outside loops.
bool containsReturn(const StmtList &stmts);

} // namespace trident::frontend
