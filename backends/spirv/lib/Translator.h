#pragma once
// The state of translating one thread-IR function to SPIR-V, shared by the
// files that translate each op family (Translate*.cpp). Internal to the backend.
//
// Every thread-IR value becomes a list of SPIR-V ids, one per component: a scalar
// has one, a vector<NxT> has N (vectors exist only in registers here; memory ops
// load and store them with SPIR-V vector types). Values the function needs
// everywhere (builtins, arguments) are computed in the entry block, the
// "prologue", which dominates all others.

#include "IndexRange.h"
#include "ModuleWriter.h"

#include "trident/ir/IR.h"
#include "trident/backends/spirv/CodeGen.h"
#include "trident/support/Diagnostic.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace trident::spirv {

using Ids = std::vector<uint32_t>;

// How a kernel's th.shared_alloc become Workgroup memory (TranslateShared.cpp).
enum class SharedLayout {
  Separate, // one array per allocation (allocations not placed yet)
  Block,    // Aliased Blocks at their offsets (VK_KHR_workgroup_memory_explicit_layout)
  Packed,   // one u32 array, allocations at their offsets, narrow stores by atomic and/or
};

class Translator {
public:
  Translator(ModuleWriter &w, const DeviceInfo &device, Diagnostics &diags) : w(w), device(device), diags(diags) {}

  // Translates `func` into the module as its entry point; fills `iface`.
  bool translateFunction(const Op *func, KernelInterface &iface);

  // ---- values ----------------------------------------------------------------
  const Ids &get(Value *v);
  uint32_t scalar(Value *v) { return get(v).at(0); }
  void set(Value *v, Ids ids) { values_[v] = std::move(ids); }

  // ---- types -----------------------------------------------------------------
  // The SPIR-V type of one component of a value of type `t` (i1: bool; bf16: u16
  // bits; f8: u8 bits; pointers: u64 addresses). `t` may be a vector.
  uint32_t valueType(Type t);
  // The SPIR-V type of an element of type `t` in memory (i1 as u8).
  uint32_t memoryType(Type t);
  // Bytes of an element of type `t` in memory.
  static unsigned memoryBytes(Type t);
  uint32_t boolType() { return w.boolType(); }
  uint32_t u32Type() { return w.intType(32); }
  uint32_t u64Type() { return w.intType(64); }

  // ---- instructions ------------------------------------------------------------
  // Emits `op` with a result of `type` into the current block; returns the result id.
  uint32_t emit(Spv op, uint32_t type, std::initializer_list<uint32_t> operands);
  uint32_t emit(Spv op, uint32_t type, const std::vector<uint32_t> &operands);
  // Emits an instruction without a result.
  void emitVoid(Spv op, std::initializer_list<uint32_t> operands) { code().emit(op, operands); }
  uint32_t glsl(Glsl inst, uint32_t type, std::initializer_list<uint32_t> args);
  // A constant of SPIR-V scalar type `type` (an int, float or bool type) with bits `bits`.
  uint32_t constant(uint32_t type, uint64_t bits);
  uint32_t u32(uint32_t v) { return w.u32(v); }
  uint32_t u64(uint64_t v) { return w.constant(u64Type(), v); }
  // The value of `id` when it is an integer constant.
  std::optional<uint64_t> constantValue(uint32_t id) const;
  // Where instructions go: the prologue while building it, else the body.
  Words &code() { return inPrologue_ ? prologue_ : body_; }

  // Runs `f` with instructions going to the entry block (for values every block may use).
  template <class F> auto inPrologue(F &&f) {
    bool saved = inPrologue_;
    inPrologue_ = true;
    auto r = f();
    inPrologue_ = saved;
    return r;
  }

  // ---- control flow -------------------------------------------------------------
  uint32_t currentLabel() const { return currentLabel_; }
  void beginBlock(uint32_t label);
  // Runs `body` only when `cond` is true; the results are `body`'s values where it ran
  // and `otherwise` where not (types `types`). With cond == 0, runs `body` unguarded.
  Ids guarded(uint32_t cond, const std::vector<uint32_t> &types, const Ids &otherwise,
              const std::function<Ids()> &body);
  // An OpPhi in the current block whose second incoming value is patched later.
  struct PendingPhi {
    size_t position; // index of the phi's last two operand words in the body
    uint32_t id;
  };
  PendingPhi loopPhi(uint32_t type, uint32_t initial, uint32_t initialLabel);
  void patchPhi(const PendingPhi &phi, uint32_t value, uint32_t label);
  // A structured loop: while (cond(vars)) vars = step(vars); returns the final vars
  // (`types` and `initial` give one entry per loop variable).
  Ids whileLoop(const std::vector<uint32_t> &types, const Ids &initial, const std::function<uint32_t(const Ids &)> &cond,
                const std::function<Ids(const Ids &)> &step);

  // Translates the ops of `block` in order (the terminator too, unless it is
  // scf.yield or scf.condition, whose operands the caller reads).
  bool translateBlock(Block *block);

  // ---- builtins and arguments -----------------------------------------------------
  uint32_t laneId();
  uint32_t warpId();
  uint32_t threadId();
  // tt.get_program_id / tt.get_num_programs along `axis`.
  uint32_t programId(unsigned axis);
  uint32_t numPrograms(unsigned axis);
  // A u32 zero no driver can fold (num_programs(0) >> 31; grids are below 2^31), made once.
  uint32_t opaqueZero();

  // Bounds of the function's integer index values (valid while translating a function).
  IndexRanges &ranges() { return *ranges_; }

  bool error(const Op *op, std::string message);
  void require(uint64_t features) { required_ |= features; }
  // Counts workgroup memory: an array of its own, or one placed at [offset, end) of the shared block.
  void addSeparateShared(uint64_t bytes) { separateShared_ += bytes; }
  void addAliasedShared(uint64_t end) { aliasedShared_ = std::max(aliasedShared_, end); }
  SharedLayout sharedLayout() const { return sharedLayout_; }
  // The module declares the Vulkan memory model (it uses cooperative matrices). Then
  // only NonPrivatePointer accesses are ordered by barriers and atomics, and those
  // make writes available and visible only with MakeAvailable / MakeVisible.
  bool vulkanMemoryModel() const { return vulkanMemoryModel_; }
  // What every shared-memory load and store adds after its pointer (nothing, or
  // NonPrivatePointer under the Vulkan memory model).
  std::vector<uint32_t> sharedAccessOperands() const {
    return vulkanMemoryModel_ ? std::vector<uint32_t>{memory_access::kNonPrivatePointer}
                              : std::vector<uint32_t>{};
  }
  uint64_t packedSharedBytes() const { return packedShared_; }
  // The packed layout's u32 array (made on first use).
  uint32_t &packedSharedVariable() { return packedVariable_; }
  // The byte offset of a shared allocation (Block and Packed layouts).
  void setSharedOffset(const Value *alloc, int64_t offset) { sharedOffsets_[alloc] = offset; }
  int64_t sharedOffset(const Value *alloc) const { return sharedOffsets_.at(alloc); }
  // Where a value came from when a wider one was split into it (piece `index` of `whole`:
  // a narrow element of a u32 word, a word of a word vector), so that joining the same
  // pieces again gives back `whole` instead of new instructions (joinWords).
  struct Piece {
    uint32_t whole = 0;
    unsigned index = 0, count = 0; // piece `index` of the `count` pieces of `whole`
    bool operator==(const Piece &) const = default;
  };
  void notePiece(uint32_t piece, uint32_t whole, unsigned index, unsigned count) {
    pieces_[piece] = {whole, index, count};
  }
  Piece pieceOf(uint32_t id) const {
    auto it = pieces_.find(id);
    return it == pieces_.end() ? Piece{} : it->second;
  }
  // Block layout: the Aliased Block variable viewing allocation `alloc` as an array of
  // `type` (a u32 word vector: 16-byte shared accesses, made on first use).
  uint32_t &sharedView(const Value *alloc, uint32_t type) { return sharedViews_[{alloc, type}]; }
  // Adds a global variable to the entry point's interface.
  void addInterface(uint32_t variable);
  KernelInterface &interface() { return *iface_; }
  // A struct {first, second} (the result of OpUMulExtended, FrexpStruct), one per pair.
  uint32_t pairType(uint32_t first, uint32_t second);
  uint32_t pairType(uint32_t type) { return pairType(type, type); }

  ModuleWriter &w;
  const DeviceInfo &device;
  Diagnostics &diags;

private:
  bool translateOp(Op *op);
  uint32_t inputBuiltin(BuiltIn builtin, uint32_t type);
  uint32_t loadArgument(unsigned index, Type type);
  void declareInterface(const Op *func);

  std::unordered_map<const Value *, Ids> values_;
  std::map<uint32_t, uint64_t> constantValues_;
  Words prologue_, body_;
  bool inPrologue_ = false;
  uint32_t currentLabel_ = 0;
  uint64_t required_ = 0;

  std::vector<uint32_t> interface_;       // global variables for OpEntryPoint
  std::map<uint32_t, uint32_t> builtins_; // BuiltIn -> loaded value
  uint32_t lane_ = 0, warp_ = 0, thread_ = 0;
  uint32_t programIds_[3] = {0, 0, 0}, numPrograms_[3] = {0, 0, 0}, opaqueZero_ = 0;
  uint32_t pushConstants_ = 0, pushStruct_ = 0;
  uint32_t argBase_ = 0, argStruct_ = 0; // argument buffer: PSB pointer, struct type
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> pairTypes_;
  uint64_t separateShared_ = 0, aliasedShared_ = 0;
  SharedLayout sharedLayout_ = SharedLayout::Separate;
  bool vulkanMemoryModel_ = false;
  uint64_t packedShared_ = 0;
  uint32_t packedVariable_ = 0;
  std::unordered_map<const Value *, int64_t> sharedOffsets_;
  std::unordered_map<uint32_t, Piece> pieces_;
  std::map<std::pair<const Value *, uint32_t>, uint32_t> sharedViews_;
  KernelInterface *iface_ = nullptr;
  const Op *func_ = nullptr;
  std::optional<IndexRanges> ranges_;
};

// Applies `f` to each component of `op`'s operands (a scalar operand is used for
// every component) and sets `op`'s result to the components `f` returns.
void mapComponents(Translator &t, Op *op, const std::function<uint32_t(const std::vector<uint32_t> &)> &f);

// bf16 values are u16 bits; arithmetic on them runs in f32 (TranslateCast.cpp).
uint32_t bf16ToF32(Translator &t, uint32_t bits);
uint32_t f32ToBF16(Translator &t, uint32_t value, bool towardZero);
// `value` (f32 or f64 `from`) rounded to nearest even to f16, bf16 (u16 bits) or f32,
// exactly on every driver: integer arithmetic on the bits (TranslateCast.cpp).
uint32_t narrowFloat(Translator &t, uint32_t value, Type from, Type to);
// f32 -> f16 conversions under RoundingModeRTE packed by one th.pack share their NaN
// fix-up: sharedNanFixup gives the pack of such a conversion (else null), and
// translateNarrowingPack translates a pack that has them (false for any other pack).
const Op *sharedNanFixup(const Translator &t, const Op *truncf);
bool translateNarrowingPack(Translator &t, Op *pack);

// Whether selects of i8 and i16 values, and extensions of i1 to them, run on 32-bit
// words and narrow the result (TRIDENT_VULKAN_WIDE_NARROW_SELECT=on; off by default until
// measured): NVIDIA's driver 580 computes seeds 2695 and 5386 wrongly, each an extension
// of a narrow OpSelect's result to 32 bits (TranslateArith.cpp, wideNarrowOps).
bool wideNarrowSelects();

// Exact floating-point sequences (FloatExact.cpp), on f32 or f64 values of `type`.
// C's fmod(x, y), exactly (OpFRem may round).
uint32_t exactRemainder(Translator &t, uint32_t type, uint32_t x, uint32_t y);
// exp (base2: exp2) and log (base2: log2) of an f64 value, within a few ulps (MathF64.cpp).
uint32_t expF64(Translator &t, uint32_t x, bool base2);
uint32_t logF64(Translator &t, uint32_t x, bool base2);
// sin (cosine: cos) of an f64 value, within an ulp or so for every finite x (MathF64Trig.cpp).
uint32_t sinCosF64(Translator &t, uint32_t x, bool cosine);
// erf of an f64 value, within one ulp (MathF64Erf.cpp).
uint32_t erfF64(Translator &t, uint32_t x);
// a * b + c rounded once, for f16 and f32 `type` (through f64, rounding to odd).
uint32_t fusedMultiplyAdd(Translator &t, uint32_t type, uint32_t a, uint32_t b, uint32_t c);

// The memory form of a value of element type `element` and back (i1: a byte 0 or 1).
uint32_t toMemory(Translator &t, Type element, uint32_t v);
uint32_t fromMemory(Translator &t, Type element, uint32_t v);

// Narrow elements (memory form, `element` of 1 or 2 bytes) to and from u32 words: the
// `words` words of `v` (a word vector, or one u32 when words = 1) as their elements, the
// first in the low bits; and elements back into a word vector (or one word), which is
// the original where the elements are exactly its pieces (Translator::notePiece).
Ids splitWords(Translator &t, Type element, uint32_t v, unsigned words);
uint32_t joinWords(Translator &t, Type element, const Ids &memoryValues);

// The layout for `func` on a device with `features`, and the bytes a packed layout spans.
SharedLayout chooseSharedLayout(const Op *func, uint64_t features, uint64_t &packedBytes);

// Op families (Translate*.cpp); each returns false after reporting an error.
bool translateArith(Translator &t, Op *op);      // arith.* and tt.* on scalars
bool translateCast(Translator &t, Op *op);       // arith casts, tt.bitcast, pointer casts
bool translateMath(Translator &t, Op *op);       // math.*, tt.precise_*
bool translateMemory(Translator &t, Op *op);     // th.load/store, atomics, barrier
bool translateShared(Translator &t, Op *op);     // th.shared_alloc, th.load_shared, th.store_shared
bool translateControlFlow(Translator &t, Op *op); // scf.for/if/while
bool translateThread(Translator &t, Op *op);     // ids, shuffles, pack/extract
bool translateCoopMatrix(Translator &t, Op *op); // th.coop_* (TranslateCoopMatrix.cpp)

} // namespace trident::spirv
