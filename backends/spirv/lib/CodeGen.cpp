// The driver of the SPIR-V backend: the argument layout, the entry point and its
// interface (builtins, push constants), value bookkeeping, structured-control-flow
// helpers and op dispatch. The op families live in Translate*.cpp.
#include "Translator.h"

#include "trident/backends/spirv/CodeGen.h"
#include "trident/ir/MathOps.h"

#include <cassert>
#include <set>

namespace trident::spirv {

// ---- argument layout ---------------------------------------------------------------

namespace {
ArgKind argKind(Type t) {
  switch (t.kind()) {
  case TypeKind::Ptr: return ArgKind::Pointer;
  case TypeKind::I1: return ArgKind::I1;
  case TypeKind::I8: return ArgKind::I8;
  case TypeKind::I16: return ArgKind::I16;
  case TypeKind::I32: return ArgKind::I32;
  case TypeKind::I64: return ArgKind::I64;
  case TypeKind::F16: return ArgKind::F16;
  case TypeKind::BF16: return ArgKind::BF16;
  case TypeKind::F32: return ArgKind::F32;
  case TypeKind::F64: return ArgKind::F64;
  default: return ArgKind::I8; // f8 scalars travel as their bits
  }
}

uint32_t alignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
} // namespace

void layoutArguments(std::span<const Type> params, unsigned pushConstantBytes, KernelInterface &out) {
  // Offsets inside a block that starts at `start`.
  auto layout = [&](uint32_t start) {
    out.args.clear();
    uint32_t offset = start;
    for (Type t : params) {
      ArgSlot s;
      s.kind = argKind(t);
      s.size = (s.kind == ArgKind::Pointer || s.kind == ArgKind::I64 || s.kind == ArgKind::F64) ? 8 : 4;
      offset = alignUp(offset, s.size);
      s.offset = offset;
      offset += s.size;
      out.args.push_back(s);
    }
    return alignUp(offset, 8);
  };
  uint32_t inline_ = layout(kHeaderBytes);
  if (inline_ <= pushConstantBytes) {
    out.argsInBuffer = false;
    out.argBufferBytes = 0;
    out.pushConstantBytes = inline_;
    return;
  }
  out.argsInBuffer = true;
  out.argBufferBytes = std::max<uint32_t>(layout(0), 8);
  out.pushConstantBytes = kArgBufferAddressOffset + 8;
}

// ---- values and types ------------------------------------------------------------------

const Ids &Translator::get(Value *v) {
  auto it = values_.find(v);
  assert(it != values_.end() && "value used before it was translated");
  return it->second;
}

uint32_t Translator::valueType(Type t) {
  if (t.isCoopMatrix()) {
    // A matrix of bf16 has bfloat16 components (SPV_KHR_bfloat16); its elements move to and
    // from shared memory as the u16 words every other bf16 value is.
    uint32_t component = t.element() == Type::bf16() ? w.bfloat16Type() : valueType(t.element());
    return w.coopMatrixType(component, uint32_t(t.shape()[0]), uint32_t(t.shape()[1]), t.matrixUse());
  }
  Type e = t.element();
  switch (e.kind()) {
  case TypeKind::I1: return w.boolType();
  case TypeKind::I8:
  case TypeKind::F8E4M3:
  case TypeKind::F8E5M2: return w.intType(8);
  case TypeKind::I16:
  case TypeKind::BF16: return w.intType(16);
  case TypeKind::I32: return w.intType(32);
  case TypeKind::I64:
  case TypeKind::Ptr: return w.intType(64);
  case TypeKind::F16: return w.floatType(16);
  case TypeKind::F32: return w.floatType(32);
  case TypeKind::F64: return w.floatType(64);
  default: assert(false && "not a scalar type"); return 0;
  }
}

uint32_t Translator::memoryType(Type t) {
  return t.element() == Type::i1() ? w.intType(8) : valueType(t);
}

unsigned Translator::memoryBytes(Type t) {
  Type e = t.element();
  if (e == Type::i1())
    return 1;
  return e.bitWidth() / 8;
}

uint32_t Translator::emit(Spv op, uint32_t type, std::initializer_list<uint32_t> operands) {
  return emit(op, type, std::vector<uint32_t>(operands));
}

uint32_t Translator::emit(Spv op, uint32_t type, const std::vector<uint32_t> &operands) {
  uint32_t id = w.newId();
  std::vector<uint32_t> all{type, id};
  all.insert(all.end(), operands.begin(), operands.end());
  code().emit(op, all);
  return id;
}

uint32_t Translator::glsl(Glsl inst, uint32_t type, std::initializer_list<uint32_t> args) {
  std::vector<uint32_t> ops{w.glsl(), uint32_t(inst)};
  ops.insert(ops.end(), args);
  return emit(Spv::ExtInst, type, ops);
}

uint32_t Translator::constant(uint32_t type, uint64_t bits) {
  if (type == w.boolType())
    return w.boolConstant(bits != 0);
  uint32_t id = w.constant(type, bits);
  constantValues_[id] = bits;
  return id;
}

std::optional<uint64_t> Translator::constantValue(uint32_t id) const {
  auto it = constantValues_.find(id);
  if (it == constantValues_.end())
    return std::nullopt;
  return it->second;
}

bool Translator::error(const Op *op, std::string message) {
  diags.error(op->loc(), "'" + std::string(op->name()) + "' op " + message);
  return false;
}

// ---- control flow helpers ------------------------------------------------------------------

void Translator::beginBlock(uint32_t label) {
  code().emit(Spv::Label, {label});
  currentLabel_ = label;
}

Ids Translator::guarded(uint32_t cond, const std::vector<uint32_t> &types, const Ids &otherwise,
                        const std::function<Ids()> &body) {
  if (!cond)
    return body();
  uint32_t start = currentLabel_, then = w.newId(), merge = w.newId();
  emitVoid(Spv::SelectionMerge, {merge, 0});
  emitVoid(Spv::BranchConditional, {cond, then, merge});
  beginBlock(then);
  Ids values = body();
  uint32_t thenEnd = currentLabel_;
  emitVoid(Spv::Branch, {merge});
  beginBlock(merge);
  Ids out;
  for (size_t i = 0; i < types.size(); ++i)
    out.push_back(emit(Spv::Phi, types[i], {values[i], thenEnd, otherwise[i], start}));
  return out;
}

Translator::PendingPhi Translator::loopPhi(uint32_t type, uint32_t initial, uint32_t initialLabel) {
  uint32_t id = emit(Spv::Phi, type, {initial, initialLabel, 0, 0});
  return {body_.size() - 2, id};
}

void Translator::patchPhi(const PendingPhi &phi, uint32_t value, uint32_t label) {
  body_.words()[phi.position] = value;
  body_.words()[phi.position + 1] = label;
}

Ids Translator::whileLoop(const std::vector<uint32_t> &types, const Ids &initial,
                          const std::function<uint32_t(const Ids &)> &cond, const std::function<Ids(const Ids &)> &step) {
  uint32_t start = currentLabel_, header = w.newId(), check = w.newId(), body = w.newId(), cont = w.newId(),
           merge = w.newId();
  emitVoid(Spv::Branch, {header});
  beginBlock(header);
  std::vector<PendingPhi> phis;
  Ids vars;
  for (size_t i = 0; i < types.size(); ++i) {
    phis.push_back(loopPhi(types[i], initial[i], start));
    vars.push_back(phis.back().id);
  }
  emitVoid(Spv::LoopMerge, {merge, cont, 0});
  emitVoid(Spv::Branch, {check});
  beginBlock(check);
  emitVoid(Spv::BranchConditional, {cond(vars), body, merge});
  beginBlock(body);
  Ids next = step(vars);
  emitVoid(Spv::Branch, {cont});
  beginBlock(cont);
  emitVoid(Spv::Branch, {header});
  for (size_t i = 0; i < phis.size(); ++i)
    patchPhi(phis[i], next[i], cont);
  beginBlock(merge);
  return vars;
}

bool Translator::translateBlock(Block *block) {
  for (Op *op : *block) {
    if (op->is(OpCode::Yield) || op->is(OpCode::Condition))
      continue; // read by the parent op
    if (!translateOp(op))
      return false;
  }
  return true;
}

bool Translator::translateOp(Op *op) {
  if (op->is(OpCode::MulF) && op->result()->type().isCoopMatrix())
    return translateCoopMatrix(*this, op); // element by element on whole matrices
  if (mathOpInfo(op->code()))
    return translateMath(*this, op); // MathOps.def
  switch (op->code()) {
  case OpCode::Return:
    if (op->numOperands())
      return error(op, "with values cannot be translated: kernels return nothing");
    emitVoid(Spv::Return, {});
    return true;
  case OpCode::For:
  case OpCode::If:
  case OpCode::While: return translateControlFlow(*this, op);
  case OpCode::ThThreadId:
  case OpCode::ThLaneId:
  case OpCode::ThWarpId:
  case OpCode::ThPack:
  case OpCode::ThExtract:
  case OpCode::ThShuffle:
  case OpCode::GetProgramId:
  case OpCode::GetNumPrograms: return translateThread(*this, op);
  case OpCode::ThLoad:
  case OpCode::ThStore:
  case OpCode::ThAtomicRMW:
  case OpCode::ThAtomicCAS:
  case OpCode::ThSharedAlloc:
  case OpCode::ThLoadShared:
  case OpCode::ThStoreShared:
  case OpCode::ThBarrier: return translateMemory(*this, op);
  case OpCode::ThCoopLoad:
  case OpCode::ThCoopStore:
  case OpCode::ThCoopMma:
  case OpCode::ThCoopFill:
  case OpCode::ThCoopExtract:
  case OpCode::ThCoopInsert: return translateCoopMatrix(*this, op);
  case OpCode::PreciseDivF: return translateMath(*this, op);
  case OpCode::ExtSI:
  case OpCode::ExtUI:
  case OpCode::TruncI:
  case OpCode::SIToFP:
  case OpCode::UIToFP:
  case OpCode::FPToSI:
  case OpCode::FPToUI:
  case OpCode::ExtF:
  case OpCode::TruncF:
  case OpCode::Bitcast:
  case OpCode::PtrToInt:
  case OpCode::IntToPtr:
  case OpCode::AddPtr: return translateCast(*this, op);
  case OpCode::Assume: return true;
  case OpCode::ThPrintf: // tt.print / tt.device_print
    return error(op, "tt.print is not supported on Vulkan yet (SPIR-V has no printf without "
                      "NonSemantic.DebugPrintf and a validation layer to read it); remove it or run on cuda");
  case OpCode::ThAssert: // tt.device_assert in debug builds
    return error(op, "tt.device_assert is not supported on Vulkan yet; compile without debug or run on cuda");
  case OpCode::ElementwiseInlineAsm:
    return error(op, "tl.inline_asm_elementwise is not supported for target 'vulkan' (SPIR-V): SPIR-V has no "
                     "inline assembly; its assembly is for a GPU's native instruction set (PTX on cuda)");
  default: return translateArith(*this, op);
  }
}

// ---- builtins, push constants, arguments ---------------------------------------------------

uint32_t Translator::inputBuiltin(BuiltIn builtin, uint32_t type) {
  auto it = builtins_.find(uint32_t(builtin));
  if (it != builtins_.end())
    return it->second;
  uint32_t var = w.globalVariable(w.pointerType(StorageClass::Input, type), StorageClass::Input);
  w.decorate(var, Decoration::BuiltIn, {uint32_t(builtin)});
  interface_.push_back(var);
  uint32_t value = inPrologue([&] { return emit(Spv::Load, type, {var}); });
  builtins_[uint32_t(builtin)] = value;
  return value;
}

uint32_t Translator::laneId() {
  if (!lane_) {
    w.capability(Capability::GroupNonUniform);
    lane_ = inputBuiltin(BuiltIn::SubgroupLocalInvocationId, u32Type());
  }
  return lane_;
}

uint32_t Translator::warpId() {
  if (!warp_) {
    w.capability(Capability::GroupNonUniform);
    warp_ = inputBuiltin(BuiltIn::SubgroupId, u32Type());
  }
  return warp_;
}

// thread = warp * warpSize + lane, so that thread, warp and lane ids agree with
// the subgroups the shuffles see whatever order the driver assigns invocations in.
uint32_t Translator::threadId() {
  if (!thread_) {
    uint32_t lane = laneId(), warp = warpId();
    unsigned log2 = 0;
    while ((1u << log2) < device.subgroupSize)
      ++log2;
    thread_ = inPrologue([&] {
      uint32_t shifted = emit(Spv::ShiftLeftLogical, u32Type(), {warp, u32(log2)});
      return emit(Spv::BitwiseOr, u32Type(), {shifted, lane});
    });
  }
  return thread_;
}

namespace {
// Push-constant members: the header's six u32, then one per argument.
constexpr uint32_t kHeaderMembers = 6;
} // namespace

void Translator::declareInterface(const Op *) {
  const KernelInterface &k = *iface_;
  std::vector<uint32_t> members(kHeaderMembers, u32Type());
  auto slotType = [&](const ArgSlot &s) { return s.size == 8 ? u64Type() : u32Type(); };
  if (k.argsInBuffer) {
    members.push_back(u64Type());
    std::vector<uint32_t> argMembers;
    for (const ArgSlot &s : k.args)
      argMembers.push_back(slotType(s));
    if (argMembers.empty())
      argMembers.push_back(u32Type());
    argStruct_ = w.structType(argMembers);
    w.decorate(argStruct_, Decoration::Block);
    for (size_t i = 0; i < k.args.size(); ++i)
      w.memberDecorate(argStruct_, uint32_t(i), Decoration::Offset, {k.args[i].offset});
  } else {
    for (const ArgSlot &s : k.args)
      members.push_back(slotType(s));
  }
  pushStruct_ = w.structType(members);
  w.decorate(pushStruct_, Decoration::Block);
  for (uint32_t i = 0; i < kHeaderMembers; ++i)
    w.memberDecorate(pushStruct_, i, Decoration::Offset, {4 * i});
  if (k.argsInBuffer) {
    w.memberDecorate(pushStruct_, kHeaderMembers, Decoration::Offset, {kArgBufferAddressOffset});
  } else {
    for (size_t i = 0; i < k.args.size(); ++i)
      w.memberDecorate(pushStruct_, kHeaderMembers + uint32_t(i), Decoration::Offset, {k.args[i].offset});
  }
  pushConstants_ = w.globalVariable(w.pointerType(StorageClass::PushConstant, pushStruct_), StorageClass::PushConstant);
  w.name(pushConstants_, "launch");
  interface_.push_back(pushConstants_);
}

namespace {
uint32_t pushMember(Translator &t, uint32_t var, uint32_t member, uint32_t type) {
  uint32_t ptr = t.emit(Spv::AccessChain, t.w.pointerType(StorageClass::PushConstant, type), {var, t.u32(member)});
  return t.emit(Spv::Load, type, {ptr});
}
} // namespace

uint32_t Translator::loadArgument(unsigned index, Type type) {
  const ArgSlot &slot = iface_->args[index];
  uint32_t slotType = slot.size == 8 ? u64Type() : u32Type();
  return inPrologue([&] {
    uint32_t raw;
    if (iface_->argsInBuffer) {
      if (!argBase_) {
        w.capability(Capability::PhysicalStorageBufferAddresses);
        uint32_t address = pushMember(*this, pushConstants_, kHeaderMembers, u64Type());
        argBase_ = emit(Spv::ConvertUToPtr, w.pointerType(StorageClass::PhysicalStorageBuffer, argStruct_), {address});
      }
      uint32_t ptr = emit(Spv::AccessChain, w.pointerType(StorageClass::PhysicalStorageBuffer, slotType),
                          {argBase_, u32(index)});
      raw = emit(Spv::Load, slotType, {ptr, memory_access::kAligned, slot.size});
    } else {
      raw = pushMember(*this, pushConstants_, kHeaderMembers + index, slotType);
    }
    switch (slot.kind) {
    case ArgKind::Pointer:
    case ArgKind::I64:
    case ArgKind::I32: return raw;
    case ArgKind::F32:
    case ArgKind::F64: return emit(Spv::Bitcast, valueType(type), {raw});
    case ArgKind::I1: return emit(Spv::INotEqual, boolType(), {raw, u32(0)});
    case ArgKind::I8:
    case ArgKind::I16:
    case ArgKind::BF16: return emit(Spv::UConvert, valueType(type), {raw});
    case ArgKind::F16: return emit(Spv::Bitcast, valueType(type), {emit(Spv::UConvert, w.intType(16), {raw})});
    }
    return raw;
  });
}

uint32_t Translator::programId(unsigned axis) {
  if (!programIds_[axis]) {
    uint32_t ids = inputBuiltin(BuiltIn::WorkgroupId, w.vectorType(u32Type(), 3));
    programIds_[axis] = inPrologue([&] {
      uint32_t local = emit(Spv::CompositeExtract, u32Type(), {ids, axis});
      uint32_t base = pushMember(*this, pushConstants_, axis, u32Type());
      return emit(Spv::IAdd, u32Type(), {local, base});
    });
  }
  return programIds_[axis];
}

uint32_t Translator::numPrograms(unsigned axis) {
  if (!numPrograms_[axis])
    numPrograms_[axis] = inPrologue([&] { return pushMember(*this, pushConstants_, 3 + axis, u32Type()); });
  return numPrograms_[axis];
}

uint32_t Translator::opaqueZero() {
  if (!opaqueZero_)
    opaqueZero_ = inPrologue([&] { return emit(Spv::ShiftRightLogical, u32Type(), {numPrograms(0), u32(31)}); });
  return opaqueZero_;
}

// ---- the function --------------------------------------------------------------------------

bool Translator::translateFunction(const Op *func, KernelInterface &iface) {
  func_ = func;
  iface_ = &iface;
  iface.name = std::string(func::name(func));
  const Attribute &threads = func->attr("num_threads");
  if (!threads.isInt() || threads.getInt() <= 0)
    return error(func, "needs a positive 'num_threads' attribute: it is not thread IR");
  iface.numThreads = uint32_t(threads.getInt());
  iface.subgroupSize = device.subgroupSize;
  if (iface.numThreads > device.maxThreadsPerProgram)
    return error(func, "has " + std::to_string(iface.numThreads) + " threads; " + device.name + " allows " +
                           std::to_string(device.maxThreadsPerProgram) + " per program");
  if (iface.numThreads % device.subgroupSize != 0)
    return error(func, "has " + std::to_string(iface.numThreads) + " threads, not a multiple of the subgroup size " +
                           std::to_string(device.subgroupSize));
  ranges_.emplace(device.subgroupSize, iface.numThreads);
  std::vector<Type> params = func::argumentTypes(func);
  for (Type t : params)
    if (!t.isScalar() || (t.isPtr() && t.addressSpace() != 0))
      return error(func, "parameter of type " + t.str() + " cannot be passed to a Vulkan kernel");
  if (!func::resultTypes(func).empty())
    return error(func, "returns values; kernels return nothing");
  layoutArguments(params, device.pushConstantBytes, iface);
  sharedLayout_ = chooseSharedLayout(func, device.features, packedShared_);
  // Cooperative matrices need the Vulkan memory model. So do atomics that acquire or
  // release, where the device has it: without it global
  // memory is not coherent between workgroups (buffer addresses cannot be decorated
  // Coherent), and on NVIDIA's driver a spin lock's critical section read stale partial
  // sums (layer norm's backward: dw and db wrong on the H200, right on lavapipe). With it
  // every global access is non-private, and the atomics and barriers make them available
  // and visible (TranslateMemory.cpp).
  bool ordersMemory = false;
  const_cast<Op *>(func)->walk([&](Op *op) {
    vulkanMemoryModel_ = vulkanMemoryModel_ || op->is(OpCode::ThCoopLoad) || op->is(OpCode::ThCoopStore) ||
                         op->is(OpCode::ThCoopMma) || op->is(OpCode::ThCoopFill);
    if (op->is(OpCode::ThAtomicRMW) || op->is(OpCode::ThAtomicCAS))
      ordersMemory = ordersMemory || !op->attr("sem").isString() || op->stringAttr("sem") != "relaxed";
  });
  vulkanMemoryModel_ = vulkanMemoryModel_ || (ordersMemory && (device.features & kVulkanMemoryModel));
  if (vulkanMemoryModel_) {
    w.capability(Capability::VulkanMemoryModel);
    w.capability(Capability::VulkanMemoryModelDeviceScope);
    require(kVulkanMemoryModel);
  }

  w.capability(Capability::Shader);
  w.capability(Capability::Int64); // addresses are u64
  w.capability(Capability::PhysicalStorageBufferAddresses);
  declareInterface(func);

  uint32_t entryLabel = w.newId(), firstLabel = w.newId();
  beginBlock(firstLabel);
  Block *entry = func->region();
  for (unsigned i = 0; i < entry->numArguments(); ++i)
    if (entry->argument(i)->hasUses())
      set(entry->argument(i), {loadArgument(i, params[i])});
  if (!translateBlock(entry))
    return false;
  if (!entry->terminator() || !entry->terminator()->is(OpCode::Return))
    emitVoid(Spv::Return, {});
  iface.sharedBytes = uint32_t(separateShared_ + aliasedShared_);
  if (iface.sharedBytes > device.sharedMemoryBytes)
    return error(func, "needs " + std::to_string(iface.sharedBytes) + " bytes of workgroup memory" +
                           (separateShared_ ? " (one array per th.shared_alloc: they were not placed)" : "") +
                           "; " + device.name + " has " + std::to_string(device.sharedMemoryBytes));

  // Float controls where the device has them: -0, inf and NaN survive the driver's
  // optimizer, subnormals are kept, and results round to nearest even (conversions too).
  for (unsigned bits : std::set<unsigned>(w.floatWidths())) {
    unsigned k = bits == 16 ? 0 : bits == 32 ? 1 : 2;
    if (uint64_t f = kSignedZeroInfNanPreserveFloat16 << k; device.features & f) {
      w.capability(Capability::SignedZeroInfNanPreserve);
      w.executionMode(kExecutionModeSignedZeroInfNanPreserve, {bits});
      required_ |= f;
    }
    if (uint64_t f = kDenormPreserveFloat16 << k; device.features & f) {
      w.capability(Capability::DenormPreserve);
      w.executionMode(kExecutionModeDenormPreserve, {bits});
      required_ |= f;
    }
    if (uint64_t f = kRoundingModeRTEFloat16 << k; device.features & f) {
      w.capability(Capability::RoundingModeRTE);
      w.executionMode(kExecutionModeRoundingModeRTE, {bits});
      required_ |= f;
    }
  }

  uint32_t voidType = w.voidType();
  uint32_t fnType = w.functionType(voidType);
  uint32_t fn = w.newId();
  Words &out = w.body();
  out.emit(Spv::Function, {voidType, fn, 0, fnType});
  out.emit(Spv::Label, {entryLabel});
  out.words().insert(out.words().end(), prologue_.words().begin(), prologue_.words().end());
  out.emit(Spv::Branch, {firstLabel});
  out.words().insert(out.words().end(), body_.words().begin(), body_.words().end());
  out.emit(Spv::FunctionEnd, {});
  w.entryPoint(fn, iface.name, interface_, iface.numThreads);
  w.name(fn, iface.name);

  iface.requiredFeatures = required_;
  return true;
}

void Translator::addInterface(uint32_t variable) { interface_.push_back(variable); }

uint32_t Translator::pairType(uint32_t first, uint32_t second) {
  auto key = std::make_pair(first, second);
  auto it = pairTypes_.find(key);
  if (it != pairTypes_.end())
    return it->second;
  uint32_t members[] = {first, second};
  return pairTypes_[key] = w.structType(members);
}

void mapComponents(Translator &t, Op *op, const std::function<uint32_t(const std::vector<uint32_t> &)> &f) {
  Type r = op->numResults() ? op->result()->type() : Type();
  size_t n = r && r.isVector() ? size_t(r.numElements()) : 1;
  Ids out;
  std::vector<uint32_t> args(op->numOperands());
  for (size_t i = 0; i < n; ++i) {
    for (unsigned k = 0; k < op->numOperands(); ++k) {
      const Ids &ids = t.get(op->operand(k));
      args[k] = ids.size() == 1 ? ids[0] : ids[i];
    }
    out.push_back(f(args));
  }
  t.set(op->result(), std::move(out));
}

// ---- entry point ------------------------------------------------------------------------------

namespace {
// The device features the module's capabilities need.
uint64_t featuresOf(const ModuleWriter &w) {
  const std::pair<Capability, uint64_t> map[] = {
      {Capability::Int8, kShaderInt8},
      {Capability::Int16, kShaderInt16},
      {Capability::Int64, kShaderInt64},
      {Capability::Float16, kShaderFloat16},
      {Capability::Float64, kShaderFloat64},
      {Capability::StorageBuffer8BitAccess, kStorageBuffer8BitAccess},
      {Capability::StorageBuffer16BitAccess, kStorageBuffer16BitAccess},
      {Capability::Int64Atomics, kShaderBufferInt64Atomics},
      {Capability::AtomicFloat32AddEXT, kShaderBufferFloat32AtomicAdd},
      {Capability::AtomicFloat64AddEXT, kShaderBufferFloat64AtomicAdd},
      {Capability::GroupNonUniformShuffle, kSubgroupShuffle},
      {Capability::GroupNonUniformShuffleRelative, kSubgroupShuffleRelative},
      {Capability::CooperativeMatrixKHR, kCooperativeMatrix},
      {Capability::VulkanMemoryModel, kVulkanMemoryModel},
      {Capability::BFloat16TypeKHR, kShaderBFloat16Type},
      {Capability::BFloat16CooperativeMatrixKHR, kShaderBFloat16CooperativeMatrix},
  };
  uint64_t f = 0;
  for (const auto &[cap, bit] : map)
    if (w.hasCapability(cap))
      f |= bit;
  return f;
}
} // namespace

std::optional<SpirvKernel> generateSpirv(const Module &threadIR, std::string_view kernel, const DeviceInfo &device,
                                         Diagnostics &diags) {
  const Op *func = threadIR.lookupFunction(kernel);
  if (!func) {
    diags.error(Location(), "the thread IR has no tt.func named '" + std::string(kernel) + "'");
    return std::nullopt;
  }
  ModuleWriter w;
  Translator t(w, device, diags);
  SpirvKernel out;
  if (!t.translateFunction(func, out.interface))
    return std::nullopt;
  out.interface.requiredFeatures |= featuresOf(w);
  out.words = w.finish();
  return out;
}

} // namespace trident::spirv
