#pragma once
// What a name or an expression stands for while a kernel is compiled: a
// compile-time Python value (a constexpr: None, bool, int, float, str, dtype,
// tuple, function, module), or a Triton tensor (an IR value with its dtype; a
// 0-d tensor is an IR scalar), or a block pointer from tl.make_block_ptr.

#include "DType.h"

#include "trident/ir/IR.h"

#include <memory>
#include <string>
#include <vector>

namespace trident::frontend {

struct FunctionDef;
struct ModuleEnv;

// Python integers as the frontend holds them: exact within [-2^64, 2^64].
using PyInt = __int128;

struct Tensor {
  Value *value = nullptr;
  DType dtype; // the element dtype
  Type type() const { return value->type(); }
  std::span<const int64_t> shape() const { return value->type().shape(); }
  bool isBlock() const { return value->type().isBlock(); }
};

struct BlockPointer;

struct Object {
  enum class Kind : uint8_t {
    None,
    Bool,
    Int,
    Float,
    String,
    Ellipsis,
    DType, // tl.float16 ...
    Tensor,
    Tuple,       // also Python lists
    Slice,       // items: lower, upper, step (None when absent)
    JitFunction, // a @triton.jit function
    Builtin,     // a function of the language (name: "tl.load", "min", "math.log2")
    Module,      // name: "triton.language", "math", ...; functionModule: a module read from a file
    BlockPtr,
    BoundMethod, // name: method; items[0]: the object
    Enum,        // name: "PropagateNan.ALL" ...
  };

  Kind kind = Kind::None;
  bool boolValue = false;
  PyInt intValue = 0;
  double floatValue = 0;
  std::string name; // String value; Builtin/Module/BoundMethod/Enum name
  DType dtype;      // DType value
  Tensor tensor;
  std::vector<Object> items;
  const FunctionDef *function = nullptr;
  const ModuleEnv *functionModule = nullptr; // JitFunction: its module; Module: the file's module
  std::shared_ptr<const BlockPointer> blockPtr;

  static Object none() { return Object{}; }
  static Object boolean(bool v) {
    Object o;
    o.kind = Kind::Bool;
    o.boolValue = v;
    return o;
  }
  static Object integer(PyInt v) {
    Object o;
    o.kind = Kind::Int;
    o.intValue = v;
    return o;
  }
  static Object floating(double v) {
    Object o;
    o.kind = Kind::Float;
    o.floatValue = v;
    return o;
  }
  static Object string(std::string v) { return named(Kind::String, std::move(v)); }
  static Object named(Kind k, std::string n) {
    Object o;
    o.kind = k;
    o.name = std::move(n);
    return o;
  }
  static Object ofDType(DType d) {
    Object o;
    o.kind = Kind::DType;
    o.dtype = d;
    return o;
  }
  static Object ofTensor(Tensor t) {
    Object o;
    o.kind = Kind::Tensor;
    o.tensor = t;
    return o;
  }
  static Object ofTensor(Value *v, DType d) { return ofTensor(Tensor{v, d}); }
  static Object tuple(std::vector<Object> items) {
    Object o;
    o.kind = Kind::Tuple;
    o.items = std::move(items);
    return o;
  }

  bool is(Kind k) const { return kind == k; }
  bool isTensor() const { return kind == Kind::Tensor; }
  // A Python number (bool, int, float): what Triton's to_tensor materializes.
  bool isPyNumber() const { return kind == Kind::Bool || kind == Kind::Int || kind == Kind::Float; }
  // Everything but tensors and block pointers (and tuples holding them) is known at compile time.
  bool isConstexpr() const;

  // Identity for merging control flow: the same IR values and the same constants.
  bool sameAs(const Object &o) const;
  // For messages: "int32", "constexpr[128]", "tuple", "function 'f'"...
  std::string describe() const;
};

// tl.make_block_ptr: a pointer to a block of a larger tensor, lowered to plain
// pointer arithmetic on use. A tensor descriptor (tl.make_tensor_descriptor, or a
// tensordesc parameter) is one without offsets or order: its loads and stores
// name the offsets, and every dimension is bounds-checked.
struct BlockPointer {
  Tensor base;                        // scalar pointer
  std::vector<Tensor> shape, strides; // i64 scalars
  std::vector<Tensor> offsets;        // i32 scalars
  std::vector<int64_t> blockShape, order;
  bool isDescriptor = false;
  bool padNan = false; // a descriptor's padding_option="nan"
};

// Python's str() of a constexpr value, as static_print and messages show it.
std::string pythonStr(const Object &o);
std::string pyIntStr(PyInt v);

} // namespace trident::frontend
