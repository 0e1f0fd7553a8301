// The launch path. Once a specialization is compiled, a launch binds arguments
// into stack arrays, computes the specialization key, finds the loaded kernel
// under a shared lock, packs the runtime arguments and calls the plugin, with
// no heap allocation, string building or source hashing.

#include "KernelImpl.h"

#include <bit>
#include <mutex>

namespace trident {

using namespace detail;

namespace detail {

namespace {

[[noreturn]] void badArgument(const KernelImpl &k, size_t i, const std::string &what) {
  throw Error(ErrorCode::InvalidArgument, "argument " + std::to_string(i) + " ('" + k.params[i].name +
                                              "') of kernel '" + k.name + "': " + what);
}

bool fitsI32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

void specializeInt(const KernelImpl &k, size_t i, Resolved &r) {
  if (k.isBlockIR || k.params[i].doNotSpecialize)
    return;
  int64_t v = static_cast<int64_t>(r.bits);
  if (isUnsigned(r.dtype) ? r.bits == 1 : v == 1)
    r.tag = Resolved::Tag::IntOne;
  else
    r.divisibleBy16 = isUnsigned(r.dtype) ? r.bits % 16 == 0 : v % 16 == 0;
}

double floatValue(DType t, uint64_t bits) {
  switch (t) {
  case DType::F16: return halfToFloat(uint16_t(bits));
  case DType::BF16: return bfloat16ToFloat(uint16_t(bits));
  case DType::F32: return std::bit_cast<float>(uint32_t(bits));
  default: return std::bit_cast<double>(bits);
  }
}

void bindConstexpr(const KernelImpl &k, size_t i, const Constexpr &c, Resolved &r) {
  const Param &p = k.params[i];
  if (p.isConstexpr) {
    switch (c.kind()) {
    case Constexpr::Kind::Int: r.tag = Resolved::Tag::ConstInt; r.bits = uint64_t(c.intValue()); break;
    case Constexpr::Kind::Bool: r.tag = Resolved::Tag::ConstBool; r.bits = c.boolValue(); break;
    case Constexpr::Kind::Float: r.tag = Resolved::Tag::ConstFloat; r.bits = std::bit_cast<uint64_t>(c.floatValue()); break;
    case Constexpr::Kind::Source: r.tag = Resolved::Tag::ConstSource; r.text = &c.text(); break;
    }
    return;
  }
  // A runtime parameter given a plain value: Python's rules for its type.
  switch (c.kind()) {
  case Constexpr::Kind::Int:
    r.tag = Resolved::Tag::Int;
    r.dtype = fitsI32(c.intValue()) ? DType::I32 : DType::I64;
    r.bits = uint64_t(c.intValue());
    specializeInt(k, i, r);
    return;
  case Constexpr::Kind::Bool: r.tag = Resolved::Tag::Bool; r.dtype = DType::I1; r.bits = c.boolValue(); return;
  case Constexpr::Kind::Float:
    r.tag = Resolved::Tag::Float;
    r.dtype = DType::F32;
    r.bits = std::bit_cast<uint32_t>(float(c.floatValue()));
    return;
  case Constexpr::Kind::Source:
    // None is a constant for any parameter, as in Triton (optional pointers: `if B is not None`).
    if (c.text() == "None") {
      r.tag = Resolved::Tag::ConstSource;
      r.text = &c.text();
      return;
    }
    badArgument(k, i, "the parameter is not tl.constexpr, so it needs a value, not source text '" + c.text() + "'");
  }
}

// A descriptor as Triton's TensorDescriptor checks it: ranks that agree, a 16-byte aligned
// base, 32-bit sizes, a contiguous last dimension (the kernel assumes it), 16-byte
// aligned other strides.
void checkDescriptor(const KernelImpl &k, size_t i, const TensorDescriptor &d) {
  size_t rank = d.blockShape.size();
  if (rank < 1 || rank > 5 || d.shape.size() != rank || d.strides.size() != rank)
    badArgument(k, i, "a tensor descriptor needs a shape, strides and a block shape of one rank from 1 to 5; got " +
                          std::to_string(d.shape.size()) + ", " + std::to_string(d.strides.size()) + " and " +
                          std::to_string(rank));
  if (d.base.address % 16)
    badArgument(k, i, "a tensor descriptor's base must be 16-byte aligned");
  size_t bytes = dtypeBytes(d.base.dtype);
  for (size_t j = 0; j < rank; ++j) {
    if (d.shape[j] < 0 || d.shape[j] > INT32_MAX || d.blockShape[j] <= 0)
      badArgument(k, i, "tensor descriptor dimension " + std::to_string(j) + ": its size must be in [0, 2^31) and its "
                        "block size positive");
    if (j + 1 < rank && (d.strides[j] * int64_t(bytes)) % 16)
      badArgument(k, i, "tensor descriptor stride " + std::to_string(j) + " (" + std::to_string(d.strides[j]) +
                            " elements) is not a multiple of 16 bytes");
  }
  if (d.strides[rank - 1] != 1)
    badArgument(k, i, "a tensor descriptor's last stride must be 1 (its innermost dimension contiguous), got " +
                          std::to_string(d.strides[rank - 1]));
}

void bindArg(const KernelImpl &k, size_t i, const Arg &a, const DeviceImpl &device, Resolved &r) {
  const Param &p = k.params[i];
  if (a.kind() == Arg::Kind::Constexpr)
    return bindConstexpr(k, i, *a.constexprValue(), r);
  if (a.kind() == Arg::Kind::TensorDescriptor && (p.isConstexpr || k.isBlockIR))
    badArgument(k, i, k.isBlockIR ? "block IR takes a descriptor's base, shape and strides as separate arguments"
                                  : "the parameter is tl.constexpr; a tensor descriptor is a runtime argument");
  if (p.isConstexpr) {
    switch (a.kind()) {
    case Arg::Kind::Int: r.tag = Resolved::Tag::ConstInt; r.bits = a.bits(); return;
    case Arg::Kind::Bool: r.tag = Resolved::Tag::ConstBool; r.bits = a.bits(); return;
    case Arg::Kind::Float:
      r.tag = Resolved::Tag::ConstFloat;
      r.bits = std::bit_cast<uint64_t>(floatValue(a.dtype(), a.bits()));
      return;
    default: badArgument(k, i, "the parameter is tl.constexpr; pass a number, a bool or a Constexpr, not a pointer");
    }
  }
  r.dtype = a.dtype();
  r.bits = a.bits();
  switch (a.kind()) {
  case Arg::Kind::Pointer:
    r.tag = Resolved::Tag::Pointer;
    r.buffer = a.buffer();
    r.divisibleBy16 = !k.isBlockIR && a.bits() % 16 == 0;
    if (r.buffer && r.buffer->device != &device)
      badArgument(k, i, "the buffer is on " + r.buffer->device->name + " but the launch is on " + device.name +
                            "; copy it to " + device.name + " first (Buffer::copyFrom)");
    return;
  case Arg::Kind::TensorDescriptor:
    checkDescriptor(k, i, *a.descriptor());
    r.tag = Resolved::Tag::Descriptor;
    r.descriptor = a.descriptor();
    r.buffer = a.buffer();
    if (r.buffer && r.buffer->device != &device)
      badArgument(k, i, "the descriptor's buffer is on " + r.buffer->device->name + " but the launch is on " +
                            device.name);
    return;
  case Arg::Kind::Int:
    r.tag = Resolved::Tag::Int;
    specializeInt(k, i, r);
    return;
  case Arg::Kind::Float: r.tag = Resolved::Tag::Float; return;
  case Arg::Kind::Bool: r.tag = Resolved::Tag::Bool; return;
  case Arg::Kind::Constexpr: return;
  }
}

// A bound parameter as a heuristic sees it.
HeuristicValue heuristicInput(const Resolved &r, bool bound) {
  using K = HeuristicValue::Kind;
  if (!bound)
    return {};
  switch (r.tag) {
  case Resolved::Tag::ConstInt: case Resolved::Tag::Int: case Resolved::Tag::IntOne:
    return {K::Int, int64_t(r.bits), 0};
  case Resolved::Tag::ConstBool: case Resolved::Tag::Bool: return {K::Bool, int64_t(r.bits != 0), 0};
  case Resolved::Tag::ConstFloat: return {K::Float, 0, std::bit_cast<double>(r.bits)};
  case Resolved::Tag::Float: return {K::Float, 0, floatValue(r.dtype, r.bits)};
  default: return {};
  }
}

std::string paramList(const KernelImpl &k) {
  std::string s;
  for (const Param &p : k.params)
    s += (s.empty() ? "" : ", ") + p.name + (p.isConstexpr ? ": tl.constexpr" : "");
  return s;
}

uint32_t abiType(const Resolved &r) {
  if (r.tag == Resolved::Tag::Pointer)
    return TRIDENT_ARG_POINTER;
  switch (r.dtype) {
  case DType::I1: return TRIDENT_ARG_I1;
  case DType::I8: case DType::U8: return TRIDENT_ARG_I8;
  case DType::I16: case DType::U16: return TRIDENT_ARG_I16;
  case DType::I32: case DType::U32: return TRIDENT_ARG_I32;
  case DType::I64: case DType::U64: return TRIDENT_ARG_I64;
  case DType::F16: return TRIDENT_ARG_F16;
  case DType::BF16: return TRIDENT_ARG_BF16;
  case DType::F32: return TRIDENT_ARG_F32;
  case DType::F64: return TRIDENT_ARG_F64;
  default: return 0;
  }
}

uint64_t fnv1a(const std::string &s) {
  uint64_t h = 1469598103934665603ull;
  for (char c : s)
    h = (h ^ uint8_t(c)) * 1099511628211ull;
  return h;
}

bool sourceTextsMatch(const Specialization &s, const Resolved *r) {
  for (const auto &[param, text] : s.sourceTexts)
    if (!r[param].text || *r[param].text != text)
      return false;
  return true;
}

void checkGrid(const KernelImpl &k, const DeviceImpl &d, const Dim3 &g) {
  const int64_t dims[3] = {g.x, g.y, g.z};
  static const char names[3] = {'x', 'y', 'z'};
  for (int i = 0; i < 3; ++i) {
    if (dims[i] <= 0)
      throw Error(ErrorCode::InvalidArgument,
                  "kernel '" + k.name + "': grid (" + std::to_string(g.x) + ", " + std::to_string(g.y) + ", " +
                      std::to_string(g.z) + ") has " + (dims[i] == 0 ? "zero" : "a negative") + " programs along " +
                      names[i] + "; every dimension needs at least one program");
    if (d.info.maxGrid[i] && uint64_t(dims[i]) > d.info.maxGrid[i])
      throw Error(ErrorCode::InvalidArgument, "kernel '" + k.name + "': grid dimension " + names[i] + " = " +
                                                  std::to_string(dims[i]) + " exceeds the limit of " + d.name +
                                                  " (" + std::to_string(d.info.maxGrid[i]) + ")");
  }
}

} // namespace

void resolveArguments(const KernelImpl &k, const DeviceImpl &device, std::span<const Arg> args,
                      const LaunchOptions &options, const TuneConfig *config, Resolved *out) {
  size_t n = k.params.size();
  if (args.size() > n)
    throw Error(ErrorCode::InvalidArgument, "kernel '" + k.name + "' takes " + std::to_string(n) +
                                                " parameters (" + paramList(k) + ") but the launch passes " +
                                                std::to_string(args.size()) + " arguments");
  bool bound[kMaxParams] = {};
  for (size_t i = 0; i < args.size(); ++i) {
    bindArg(k, i, args[i], device, out[i]);
    bound[i] = true;
  }
  for (const auto &[name, value] : options.constexprs) {
    size_t j = 0;
    while (j < n && k.params[j].name != name)
      ++j;
    if (j == n)
      throw Error(ErrorCode::InvalidArgument, "kernel '" + k.name + "' has no parameter named '" + name +
                                                  "' (its parameters: " + paramList(k) + ")");
    if (bound[j])
      badArgument(k, j, "given twice, positionally and by name");
    bindConstexpr(k, j, value, out[j]);
    bound[j] = true;
  }
  if (config) {
    for (const auto &[name, value] : config->kwargs) {
      size_t j = 0;
      while (j < n && k.params[j].name != name)
        ++j;
      if (j == n)
        throw Error(ErrorCode::InvalidArgument, "kernel '" + k.name + "': an autotune config sets '" + name +
                                                    "', which is not a parameter (its parameters: " + paramList(k) +
                                                    ")");
      if (bound[j])
        badArgument(k, j, "the autotuner's configs set it; do not pass it to the launch");
      bindConstexpr(k, j, value, out[j]);
      bound[j] = true;
    }
  }
  bool computed[kMaxParams] = {};
  for (size_t j : k.heuristicParams)
    computed[j] = true;
  for (size_t j = 0; j < n; ++j)
    if (!bound[j] && !computed[j] && k.params[j].defaultValue) {
      bindConstexpr(k, j, *k.params[j].defaultValue, out[j]);
      bound[j] = true;
    }
  for (size_t h = 0; h < k.heuristics.size(); ++h) {
    size_t j = k.heuristicParams[h];
    if (bound[j])
      badArgument(k, j, "@triton.heuristics computes it; do not pass it to the launch");
    HeuristicValue v = k.heuristics[h].evaluate([&](uint32_t i) { return heuristicInput(out[i], bound[i]); });
    Constexpr c = v.kind == HeuristicValue::Kind::Float  ? Constexpr(v.f)
                  : v.kind == HeuristicValue::Kind::Bool ? Constexpr(v.i != 0)
                                                         : Constexpr(v.i);
    bindConstexpr(k, j, c, out[j]);
    bound[j] = true;
  }
  for (size_t j = 0; j < n; ++j) {
    if (bound[j])
      continue;
    if (!k.params[j].defaultValue)
      throw Error(ErrorCode::InvalidArgument, "kernel '" + k.name + "': missing a value for parameter '" +
                                                  k.params[j].name + "' (parameters: " + paramList(k) + "; " +
                                                  std::to_string(args.size()) + " given positionally)");
    bindConstexpr(k, j, *k.params[j].defaultValue, out[j]);
  }
}

EffectiveOptions effectiveOptions(const LaunchOptions &o, const TuneConfig *config) {
  EffectiveOptions e;
  e.numWarps = o.numWarps > 0 ? o.numWarps : config ? config->numWarps : 4;
  e.numStages = o.numStages > 0 ? o.numStages : config ? config->numStages : 3;
  e.debug = o.debug;
  e.warpsGiven = o.numWarps > 0 || config;
  e.stagesGiven = o.numStages > 0 || config;
  return e;
}

void computeKey(const KernelImpl &k, const Resolved *r, const EffectiveOptions &o, SpecKey &key) {
  size_t n = k.params.size();
  uint64_t warps = uint64_t(o.numWarps), stages = uint64_t(o.numStages);
  key.words[0] = warps | stages << 16 | uint64_t(o.debug) << 32 | uint64_t(n) << 40;
  uint64_t h = key.words[0] * 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < n; ++i) {
    uint64_t w0 = uint64_t(r[i].tag) | uint64_t(r[i].dtype) << 8 | uint64_t(r[i].divisibleBy16) << 16;
    uint64_t w1 = 0;
    switch (r[i].tag) {
    case Resolved::Tag::ConstInt: case Resolved::Tag::ConstBool: case Resolved::Tag::ConstFloat: w1 = r[i].bits; break;
    case Resolved::Tag::ConstSource: w1 = fnv1a(*r[i].text); break;
    case Resolved::Tag::Descriptor: // the block shape is compiled in
      for (int64_t b : r[i].descriptor->blockShape)
        w1 = (w1 ^ uint64_t(b)) * 0x100000001b3ull + 1;
      break;
    default: break;
    }
    key.words[1 + 2 * i] = w0;
    key.words[2 + 2 * i] = w1;
    h = (h ^ w0) * 0x100000001b3ull;
    h = (h ^ w1) * 0x100000001b3ull;
  }
  key.size = uint32_t(1 + 2 * n);
  key.hash = h;
}

Specialization &specializationFor(KernelImpl &k, const std::shared_ptr<DeviceImpl> &device, const Resolved *r,
                                  const EffectiveOptions &options) {
  SpecKey key;
  computeKey(k, r, options, key);
  {
    std::shared_lock lock(k.mutex);
    for (const auto &s : k.specializations)
      if (s->device == device && s->key == key && sourceTextsMatch(*s, r)) {
        device->shared->counters.memoryHits.fetch_add(1, std::memory_order_relaxed);
        return *s;
      }
  }
  std::lock_guard compiling(k.compiling.of(device->info.target));
  {
    std::shared_lock lock(k.mutex); // another thread may have compiled it meanwhile
    for (const auto &s : k.specializations)
      if (s->device == device && s->key == key && sourceTextsMatch(*s, r))
        return *s;
  }
  return compileSpecialization(k, device, r, key, options);
}

void launchWithConfig(KernelImpl &k, const std::shared_ptr<DeviceImpl> &device, trident_stream stream,
                      const Grid &grid, std::span<const Arg> args, const LaunchOptions &options,
                      const TuneConfig *config) {
  size_t n = k.params.size();
  Resolved resolved[kMaxParams];
  resolveArguments(k, *device, args, options, config, resolved);
  Specialization &spec = specializationFor(k, device, resolved, effectiveOptions(options, config));

  Meta::Value metaValues[kMaxParams];
  for (size_t i = 0; i < n; ++i) {
    const Resolved &r = resolved[i];
    bool integer = r.tag == Resolved::Tag::ConstInt || r.tag == Resolved::Tag::ConstBool ||
                   r.tag == Resolved::Tag::Int || r.tag == Resolved::Tag::IntOne || r.tag == Resolved::Tag::Bool;
    metaValues[i] = {integer, static_cast<int64_t>(r.bits)};
  }
  Dim3 g = grid.resolve(Meta(std::span<const std::string>(k.paramNames), std::span<const Meta::Value>(metaValues, n)));
  checkGrid(k, *device, g);

  // A descriptor is 1 + 2 rank arguments: its base, its shape (i32), its strides (i64).
  trident_kernel_arg packed[kMaxParams * 11];
  uint32_t count = 0;
  for (size_t i = 0; i < n; ++i) {
    if (const TensorDescriptor *d = resolved[i].descriptor) {
      packed[count++] = {TRIDENT_ARG_POINTER, 0, d->base.address};
      for (int64_t s : d->shape)
        packed[count++] = {TRIDENT_ARG_I32, 0, uint64_t(s)};
      for (int64_t s : d->strides)
        packed[count++] = {TRIDENT_ARG_I64, 0, uint64_t(s)};
    } else if (resolved[i].isRuntime() || (spec.runtimeOnes >> i & 1)) {
      packed[count++] = {abiType(resolved[i]), 0, resolved[i].bits};
    }
  }
  trident_launch_params params{};
  params.version = TRIDENT_LAUNCH_ABI_VERSION;
  params.grid[0] = uint32_t(g.x);
  params.grid[1] = uint32_t(g.y);
  params.grid[2] = uint32_t(g.z);
  params.dynamic_shared_memory = options.dynamicSharedMemory;
  params.num_args = count;
  params.args = packed;
  const Plugin &plugin = *device->plugin;
  trident_status s = plugin.tryCall(&trident_plugin_api::launch, stream, spec.kernel, &params);
  if (s != TRIDENT_SUCCESS) {
    if (s == TRIDENT_ERROR_NOT_SUPPORTED && !plugin.has(&trident_plugin_api::launch))
      plugin.throwNotSupported("launch", "launching kernel '" + k.name + "'");
    plugin.throwStatus(s, "launching kernel '" + k.name + "' on " + device->name);
  }
}

} // namespace detail

namespace {

void launchOn(const KernelImpl &kc, const std::shared_ptr<DeviceImpl> &device, trident_stream stream,
              const Grid &grid, std::span<const Arg> args, const LaunchOptions &options) {
  KernelImpl &k = const_cast<KernelImpl &>(kc); // the caches inside are synchronized
  const TuneConfig *config = k.configs.empty() ? nullptr : &chooseConfig(k, device, stream, grid, args, options);
  launchWithConfig(k, device, stream, grid, args, options, config);
}

// The config a warmup or blockIR call uses: the tuned one when known, else the first.
const TuneConfig *configForInspection(const KernelImpl &k, const std::shared_ptr<DeviceImpl> &device) {
  if (k.configs.empty())
    return nullptr;
  std::shared_lock lock(k.tuneMutex);
  for (const TuneWinner &w : k.winners)
    if (w.device == device)
      return &k.configs[w.config];
  return &k.configs.front();
}

} // namespace

void Kernel::launch(const Device &device, const Grid &grid, std::initializer_list<Arg> args,
                    const LaunchOptions &options) const {
  requireHandle(impl_ != nullptr, "Kernel");
  requireHandle(bool(device), "Device");
  launchOn(*impl_, device.impl(), device.impl()->defaultStream(), grid,
           std::span<const Arg>(args.begin(), args.size()), options);
}

void Kernel::launch(const Stream &stream, const Grid &grid, std::initializer_list<Arg> args,
                    const LaunchOptions &options) const {
  launch(stream, grid, std::span<const Arg>(args.begin(), args.size()), options);
}

void Kernel::launch(const Stream &stream, const Grid &grid, std::span<const Arg> args,
                    const LaunchOptions &options) const {
  requireHandle(impl_ != nullptr, "Kernel");
  requireHandle(bool(stream), "Stream");
  launchOn(*impl_, stream.impl()->device, stream.impl()->stream, grid, args, options);
}

void Kernel::warmup(const Device &device, std::span<const Arg> args, const LaunchOptions &options) const {
  requireHandle(impl_ != nullptr, "Kernel");
  requireHandle(bool(device), "Device");
  Resolved resolved[kMaxParams];
  const TuneConfig *config = configForInspection(*impl_, device.impl());
  resolveArguments(*impl_, *device.impl(), args, options, config, resolved);
  specializationFor(*impl_, device.impl(), resolved, effectiveOptions(options, config));
}

std::string Kernel::blockIR(const Device &device, std::span<const Arg> args, const LaunchOptions &options) const {
  requireHandle(impl_ != nullptr, "Kernel");
  requireHandle(bool(device), "Device");
  if (impl_->bundle)
    throw Error(ErrorCode::NotSupported, "kernel '" + impl_->name + "' comes from bundle " + impl_->fileName +
                                             ", which holds binaries, not block IR");
  Resolved resolved[kMaxParams];
  const TuneConfig *config = configForInspection(*impl_, device.impl());
  resolveArguments(*impl_, *device.impl(), args, options, config, resolved);
  Specialization &s = specializationFor(*impl_, device.impl(), resolved, effectiveOptions(options, config));
  std::shared_lock lock(impl_->mutex);
  if (!s.blockIR.empty())
    return s.blockIR;
  lock.unlock();
  // Loaded from the disk cache: compile the IR again (front half only).
  std::unique_lock ulock(impl_->mutex);
  if (s.blockIR.empty())
    s.blockIR = impl_->isBlockIR ? impl_->source
                                 : sourceToBlockIR(impl_->source, impl_->fileName, impl_->name,
                                                   signatureOf(*impl_, resolved), options.debug,
                                                   device.impl()->info.target);
  return s.blockIR;
}

} // namespace trident
