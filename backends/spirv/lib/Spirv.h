#pragma once
// The SPIR-V numbers the writer uses (opcodes, enumerants, GLSL.std.450
// instructions), from the SPIR-V 1.5 specification. Only what Trident emits.

#include <cstdint>

namespace trident::spirv {

enum class Spv : uint16_t {
  Undef = 1,
  Name = 5,
  Extension = 10,
  ExtInstImport = 11,
  ExtInst = 12,
  MemoryModel = 14,
  EntryPoint = 15,
  ExecutionMode = 16,
  Capability = 17,
  TypeVoid = 19,
  TypeBool = 20,
  TypeInt = 21,
  TypeFloat = 22,
  TypeVector = 23,
  TypeArray = 28,
  TypeStruct = 30,
  TypePointer = 32,
  TypeFunction = 33,
  ConstantTrue = 41,
  ConstantFalse = 42,
  Constant = 43,
  ConstantNull = 46,
  Function = 54,
  FunctionEnd = 56,
  Variable = 59,
  Load = 61,
  Store = 62,
  AccessChain = 65,
  Decorate = 71,
  MemberDecorate = 72,
  CompositeConstruct = 80,
  CompositeExtract = 81,
  CompositeInsert = 82,
  ConvertFToU = 109,
  ConvertFToS = 110,
  ConvertSToF = 111,
  ConvertUToF = 112,
  UConvert = 113,
  SConvert = 114,
  FConvert = 115,
  ConvertUToPtr = 120,
  Bitcast = 124,
  SNegate = 126,
  FNegate = 127,
  IAdd = 128,
  FAdd = 129,
  ISub = 130,
  FSub = 131,
  IMul = 132,
  FMul = 133,
  UDiv = 134,
  SDiv = 135,
  FDiv = 136,
  UMod = 137,
  SRem = 138,
  FRem = 140,
  UMulExtended = 151,
  IsNan = 156,
  IsInf = 157,
  LogicalEqual = 164,
  LogicalNotEqual = 165,
  LogicalOr = 166,
  LogicalAnd = 167,
  LogicalNot = 168,
  Select = 169,
  IEqual = 170,
  INotEqual = 171,
  UGreaterThan = 172,
  SGreaterThan = 173,
  UGreaterThanEqual = 174,
  SGreaterThanEqual = 175,
  ULessThan = 176,
  SLessThan = 177,
  ULessThanEqual = 178,
  SLessThanEqual = 179,
  FOrdEqual = 180,
  FUnordEqual = 181,
  FOrdNotEqual = 182,
  FUnordNotEqual = 183,
  FOrdLessThan = 184,
  FUnordLessThan = 185,
  FOrdGreaterThan = 186,
  FUnordGreaterThan = 187,
  FOrdLessThanEqual = 188,
  FUnordLessThanEqual = 189,
  FOrdGreaterThanEqual = 190,
  FUnordGreaterThanEqual = 191,
  ShiftRightLogical = 194,
  ShiftRightArithmetic = 195,
  ShiftLeftLogical = 196,
  BitwiseOr = 197,
  BitwiseXor = 198,
  BitwiseAnd = 199,
  Not = 200,
  ControlBarrier = 224,
  AtomicLoad = 227,
  AtomicExchange = 229,
  AtomicCompareExchange = 230,
  AtomicIAdd = 234,
  AtomicSMin = 236,
  AtomicUMin = 237,
  AtomicSMax = 238,
  AtomicUMax = 239,
  AtomicAnd = 240,
  AtomicOr = 241,
  AtomicXor = 242,
  Phi = 245,
  LoopMerge = 246,
  SelectionMerge = 247,
  Label = 248,
  Branch = 249,
  BranchConditional = 250,
  Return = 253,
  GroupNonUniformShuffle = 345,
  GroupNonUniformShuffleXor = 346,
  GroupNonUniformShuffleUp = 347,
  GroupNonUniformShuffleDown = 348,
  TypeCooperativeMatrixKHR = 4456,
  CooperativeMatrixLoadKHR = 4457,
  CooperativeMatrixStoreKHR = 4458,
  CooperativeMatrixMulAddKHR = 4459,
  // SPV_NV_cooperative_matrix: only in the form SPIRV-Tools 2023.1 validates (Tools.cpp).
  TypeCooperativeMatrixNV = 5358,
  CooperativeMatrixLoadNV = 5359,
  CooperativeMatrixStoreNV = 5360,
  CooperativeMatrixMulAddNV = 5361,
  AtomicFAddEXT = 6035,
};

enum class Capability : uint32_t {
  Shader = 1,
  Float16 = 9,
  Float64 = 10,
  Int64 = 11,
  Int64Atomics = 12,
  Int16 = 22,
  Int8 = 39,
  GroupNonUniform = 61,
  GroupNonUniformShuffle = 65,
  GroupNonUniformShuffleRelative = 66,
  StorageBuffer16BitAccess = 4433,
  StorageBuffer8BitAccess = 4448,
  PhysicalStorageBufferAddresses = 5347,
  WorkgroupMemoryExplicitLayoutKHR = 4428,
  WorkgroupMemoryExplicitLayout8BitAccessKHR = 4429,
  WorkgroupMemoryExplicitLayout16BitAccessKHR = 4430,
  DenormPreserve = 4464,
  SignedZeroInfNanPreserve = 4466,
  RoundingModeRTE = 4467,
  VulkanMemoryModel = 5345,
  VulkanMemoryModelDeviceScope = 5346,
  // SPV_KHR_bfloat16 (2025; not in bookworm's spirv-headers): a bfloat16 OpTypeFloat, and
  // its use as a cooperative matrix's component type.
  BFloat16TypeKHR = 5116,
  BFloat16CooperativeMatrixKHR = 5118,
  CooperativeMatrixNV = 5357,
  CooperativeMatrixKHR = 6022,
  AtomicFloat32AddEXT = 6033,
  AtomicFloat64AddEXT = 6034,
};

enum class StorageClass : uint32_t {
  Input = 1,
  Workgroup = 4,
  Function = 7,
  PushConstant = 9,
  PhysicalStorageBuffer = 5349,
};

enum class Decoration : uint32_t {
  Block = 2,
  ArrayStride = 6,
  Aliased = 20,
  BuiltIn = 11,
  Offset = 35,
  NoContraction = 42,
};

enum class BuiltIn : uint32_t {
  WorkgroupId = 26,
  LocalInvocationIndex = 29,
  SubgroupId = 40,
  SubgroupLocalInvocationId = 41,
};

enum class Scope : uint32_t { CrossDevice = 0, Device = 1, Workgroup = 2, Subgroup = 3, Invocation = 4 };

namespace semantics {
constexpr uint32_t kNone = 0, kAcquire = 0x2, kRelease = 0x4, kAcquireRelease = 0x8, kUniformMemory = 0x40,
                   kWorkgroupMemory = 0x100;
// Vulkan memory model only: availability and visibility operations of a barrier or atomic.
constexpr uint32_t kMakeAvailable = 0x2000, kMakeVisible = 0x4000;
}
namespace memory_access {
constexpr uint32_t kVolatile = 0x1, kAligned = 0x2;
// Vulkan memory model only: the access takes part in inter-invocation ordering; a load
// sees what is visible at the scope that follows it (MakePointerVisible).
constexpr uint32_t kMakePointerVisible = 0x10, kNonPrivatePointer = 0x20;
}

constexpr uint32_t kAddressingPhysicalStorageBuffer64 = 5348;
constexpr uint32_t kMemoryModelGLSL450 = 1;
constexpr uint32_t kMemoryModelVulkan = 3; // with the VulkanMemoryModel capability (cooperative matrices need it)
// Cooperative Matrix Use, Layout and Operands (SPV_KHR_cooperative_matrix).
constexpr uint32_t kCoopMatrixRowMajor = 0, kCoopMatrixColumnMajor = 1;
constexpr uint32_t kCoopMatrixSignedA = 0x1, kCoopMatrixSignedB = 0x2, kCoopMatrixSignedC = 0x4,
                   kCoopMatrixSignedResult = 0x8;
// FP Encoding operand of OpTypeFloat (SPV_KHR_bfloat16): `OpTypeFloat 16 BFloat16KHR`.
constexpr uint32_t kFPEncodingBFloat16 = 0;
constexpr uint32_t kExecutionModelGLCompute = 5;
constexpr uint32_t kExecutionModeLocalSize = 17;
constexpr uint32_t kExecutionModeDenormPreserve = 4459;
constexpr uint32_t kExecutionModeSignedZeroInfNanPreserve = 4461;
constexpr uint32_t kExecutionModeRoundingModeRTE = 4462;
constexpr uint32_t kMagic = 0x07230203;
constexpr uint32_t kVersion1_5 = 0x00010500;

// GLSL.std.450 extended instructions.
enum class Glsl : uint32_t {
  FAbs = 4,
  Floor = 8,
  Ceil = 9,
  Sin = 13,
  Cos = 14,
  Exp = 27,
  Log = 28,
  Exp2 = 29,
  Log2 = 30,
  Sqrt = 31,
  InverseSqrt = 32,
  UMin = 38,
  SMin = 39,
  UMax = 41,
  SMax = 42,
  Fma = 50,
  FrexpStruct = 52,
  Ldexp = 53,
  NMin = 79, // the other operand when one is NaN
  NMax = 80,
};

} // namespace trident::spirv
