#pragma once
// Kernels: @triton.jit functions from a .py file (or a string), compiled per
// device and per specialization on first launch, then cached in memory and on
// disk.
//
//   Kernel add = Kernel::fromFile("vector_add.py", "add_kernel");
//   add.launch(dev, Grid([&](const Meta &m) -> Dim3 { return {cdiv(n, m["BLOCK_SIZE"])}; }),
//              {x, y, out, n}, {.constexprs = {{"BLOCK_SIZE", 1024}}});
//
// Arguments bind to the kernel's parameters in order, as in a Triton call;
// parameters not given positionally come from LaunchOptions::constexprs (by
// name) or their default. A buffer or DevicePtr is a pointer argument of its
// dtype; C++ scalars keep their type (int -> i32, int64_t -> i64, unsigned ->
// u32, float -> fp32, double -> fp64, bool -> i1; Arg::f16/bf16 for half
// scalars). Like Triton, an integer argument equal to 1 is specialized as the
// constant 1, and integers and addresses divisible by 16 are marked so.

#include "trident/Export.h"
#include "trident/Buffer.h"
#include "trident/Device.h"
#include "trident/Stream.h"

#include <concepts>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace trident {

namespace detail { struct KernelImpl; }

// A tl.constexpr value: an integer, float, bool, or Python source text
// ("tl.float16", "'ieee'", "None").
class TRIDENT_API Constexpr {
public:
  enum class Kind : uint8_t { Int, Float, Bool, Source };

  template <std::integral T>
    requires(!std::same_as<T, bool>)
  Constexpr(T v) : kind_(Kind::Int), int_(static_cast<int64_t>(v)) {}
  Constexpr(bool v) : kind_(Kind::Bool), int_(v) {}
  Constexpr(double v) : kind_(Kind::Float), float_(v) {}
  Constexpr(const char *) = delete; // ambiguous: use source() or string()
  // Python source text, used as written: Constexpr::source("tl.float16").
  static Constexpr source(std::string text);
  // A Python string value: Constexpr::string("ieee") is 'ieee'.
  static Constexpr string(std::string_view value);

  Kind kind() const { return kind_; }
  int64_t intValue() const { return int_; }
  double floatValue() const { return float_; }
  bool boolValue() const { return int_ != 0; }
  const std::string &text() const { return text_; }
  // The value as Python source ("1024", "True", "0.5", "tl.float16").
  std::string pythonSource() const;

private:
  Constexpr() = default;
  Kind kind_ = Kind::Int;
  int64_t int_ = 0;
  double float_ = 0;
  std::string text_;
};

// A host tensor descriptor, Triton's TensorDescriptor: the tensor of `shape` (in
// elements; each dimension under 2^31) with `strides` (in elements; the last must be 1)
// starting at `base`, which a kernel reads and writes in boxes of `blockShape` (rank 1 to
// 5, the same rank). Its kernel parameter is written `tensordesc<fp16[128, 64]>` in
// signatures (docs/frontend.md, "The tensor-descriptor ABI").
struct TensorDescriptor {
  DevicePtr base;
  std::vector<int64_t> shape, strides, blockShape;
  TensorDescriptor(const Buffer &buffer, std::vector<int64_t> shape, std::vector<int64_t> strides,
                   std::vector<int64_t> blockShape)
      : base{buffer.address(), buffer.dtype()}, shape(std::move(shape)), strides(std::move(strides)), blockShape(std::move(blockShape)),
        buffer_(&buffer) {}
  TensorDescriptor(DevicePtr base, std::vector<int64_t> shape, std::vector<int64_t> strides,
                   std::vector<int64_t> blockShape)
      : base(base), shape(std::move(shape)), strides(std::move(strides)), blockShape(std::move(blockShape)) {}
  const Buffer *buffer() const { return buffer_; }

private:
  const Buffer *buffer_ = nullptr;
};

// One launch argument. Arg is a view: it refers to the Buffer, Constexpr or
// TensorDescriptor it was made from, so build it in the launch call.
class TRIDENT_API Arg {
public:
  enum class Kind : uint8_t { Pointer, Int, Float, Bool, Constexpr, TensorDescriptor };

  Arg(const Buffer &buffer);
  Arg(const DevicePtr &pointer) : kind_(Kind::Pointer), dtype_(pointer.dtype), bits_(pointer.address) {}
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  Arg(T v) : kind_(Kind::Int), dtype_(intDType<T>()), bits_(static_cast<uint64_t>(static_cast<int64_t>(v))) {
    if constexpr (std::is_unsigned_v<T>)
      bits_ = static_cast<uint64_t>(v);
  }
  Arg(bool v) : kind_(Kind::Bool), dtype_(DType::I1), bits_(v) {}
  Arg(float v);
  Arg(double v);
  Arg(const Constexpr &c) : kind_(Kind::Constexpr), constexpr_(&c) {}
  Arg(const TensorDescriptor &d);
  Arg(const char *) = delete; // would convert to bool: use Constexpr::source or Constexpr::string
  // Half-precision scalars.
  static Arg f16(float v);
  static Arg bf16(float v);

  Kind kind() const { return kind_; }
  DType dtype() const { return dtype_; }
  uint64_t bits() const { return bits_; } // address, or the scalar's bits (integers sign/zero-extended)
  const detail::BufferImpl *buffer() const { return buffer_; }
  const Constexpr *constexprValue() const { return constexpr_; }
  const TensorDescriptor *descriptor() const { return descriptor_; }

private:
  Arg(Kind k, DType t, uint64_t bits) : kind_(k), dtype_(t), bits_(bits) {}
  template <class T> static constexpr DType intDType() {
    if constexpr (sizeof(T) == 1) return std::is_signed_v<T> ? DType::I8 : DType::U8;
    else if constexpr (sizeof(T) == 2) return std::is_signed_v<T> ? DType::I16 : DType::U16;
    else if constexpr (sizeof(T) == 4) return std::is_signed_v<T> ? DType::I32 : DType::U32;
    else return std::is_signed_v<T> ? DType::I64 : DType::U64;
  }
  Kind kind_;
  DType dtype_ = DType::I32;
  uint64_t bits_ = 0;
  const detail::BufferImpl *buffer_ = nullptr;
  const Constexpr *constexpr_ = nullptr;
  const TensorDescriptor *descriptor_ = nullptr;
};

// Read-only view of a launch's named values, for grid functions: meta["BLOCK"]
// gives an integer constexpr or integer argument by parameter name.
class TRIDENT_API Meta {
public:
  struct Value {
    bool present = false;
    int64_t value = 0;
  };
  Meta(std::span<const std::string> names, std::span<const Value> values) : names_(names), values_(values) {}
  // The integer value of parameter `name`; throws Error(InvalidArgument) when it has none.
  int64_t operator[](std::string_view name) const;
  std::optional<int64_t> get(std::string_view name) const;

private:
  std::span<const std::string> names_;
  std::span<const Value> values_;
};

struct Dim3 {
  int64_t x = 1, y = 1, z = 1;
};

// ceil(a / b), as triton.cdiv.
constexpr int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// A launch grid: fixed sizes, or a function of the launch's values (as Triton's
// `grid = lambda meta: (triton.cdiv(n, meta['BLOCK']),)`).
class TRIDENT_API Grid {
public:
  Grid(int64_t x, int64_t y = 1, int64_t z = 1) : fixed_{x, y, z} {}
  Grid(Dim3 d) : fixed_(d) {}
  template <class F>
    requires std::is_invocable_r_v<Dim3, const F &, const Meta &>
  Grid(F f) : fn_(std::move(f)) {}

  Dim3 resolve(const Meta &meta) const { return fn_ ? fn_(meta) : fixed_; }

private:
  Dim3 fixed_;
  std::function<Dim3(const Meta &)> fn_;
};

struct LaunchOptions {
  int numWarps = 0;  // 0: the autotuned config's, else Triton's default 4
  int numStages = 0; // 0: the autotuned config's, else Triton's default 3
  // Values of parameters by name (usually the tl.constexpr ones).
  std::vector<std::pair<std::string, Constexpr>> constexprs = {};
  uint32_t dynamicSharedMemory = 0;
  bool debug = false; // keep device asserts; verify the IR after every pass
};

class TRIDENT_API Kernel {
public:
  Kernel() = default;
  // The @triton.jit function `name` of a .py file; throws Error(NotFound) when the
  // file or the function is missing, Error(Compile) when the file does not parse.
  static Kernel fromFile(const std::string &path, const std::string &name);
  static Kernel fromSource(std::string source, const std::string &name, std::string fileName = "<source>");
  // A kernel already in block IR (a tt.func named `name`); every parameter is a
  // runtime parameter and no specialization happens.
  static Kernel fromBlockIR(std::string ir, const std::string &name);
  // A kernel compiled ahead of time (trident/Bundle.h), from a .tbundle file or its
  // bytes; needs no compiler. Each launch uses the bundle's best entry for its device
  // and arguments; Error(NotFound) lists the entries when none fits. Constexpr
  // parameters default to the values the entries were compiled with.
  static Kernel fromBundle(const std::string &path);
  static Kernel fromBundle(std::span<const uint8_t> bytes, const std::string &name = "<bundle>");

  explicit operator bool() const { return impl_ != nullptr; }
  const std::string &name() const;
  size_t numParams() const;
  const std::string &paramName(size_t i) const;
  bool paramIsConstexpr(size_t i) const;

  // Launches on the device's default stream.
  void launch(const Device &device, const Grid &grid, std::initializer_list<Arg> args,
              const LaunchOptions &options = {}) const;
  void launch(const Stream &stream, const Grid &grid, std::initializer_list<Arg> args,
              const LaunchOptions &options = {}) const;
  void launch(const Stream &stream, const Grid &grid, std::span<const Arg> args,
              const LaunchOptions &options = {}) const;

  // Compiles (or finds) the specialization these arguments select, without launching.
  void warmup(const Device &device, std::span<const Arg> args, const LaunchOptions &options = {}) const;
  // The block IR of that specialization (after the core passes).
  std::string blockIR(const Device &device, std::span<const Arg> args, const LaunchOptions &options = {}) const;

  const std::shared_ptr<detail::KernelImpl> &impl() const { return impl_; }
  explicit Kernel(std::shared_ptr<detail::KernelImpl> impl) : impl_(std::move(impl)) {}

private:
  std::shared_ptr<detail::KernelImpl> impl_;
};

} // namespace trident
