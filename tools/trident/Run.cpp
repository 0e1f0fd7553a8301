#include "Commands.h"

#include "trident/Trident.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdlib.h>

namespace trident::tool {

namespace {

const char *kRunHelp =
    "usage: trident run FILE --kernel K --grid G --arg SPEC... [options]\n"
    "\n"
    "  FILE                 a Triton-language .py file, block IR (.tir), or a bundle (.tbundle,\n"
    "                       from `trident compile --emit bundle`; --kernel is then optional)\n"
    "  --grid X[,Y[,Z]]     programs per dimension\n"
    "  --arg SPEC           one per parameter, in order; SPEC is one of\n"
    "       random:DTYPE:N  a buffer of N random values (floats in [-1, 1), integers in [0, 100))\n"
    "       arange:DTYPE:N  0, 1, ..., N-1\n"
    "       zeros:DTYPE:N   ones:DTYPE:N\n"
    "       tensordesc:GEN:DTYPE:N:SHAPE:BLOCK[:STRIDES]\n"
    "                       a host tensor descriptor (Triton's TensorDescriptor) over a buffer\n"
    "                       made as GEN:DTYPE:N, with SHAPE, BLOCK and STRIDES written 64x128\n"
    "                       (STRIDES default: row-major, the last 1)\n"
    "       DTYPE:VALUE     a scalar of that type (i32:1024, fp32:0.5)\n"
    "       VALUE           1024 (i32), 0.5 (fp32), True/False\n"
    "       NAME=VALUE      a parameter by name (constexprs: BLOCK_SIZE=1024)\n"
    "  --device D           device name (default: the default device)\n"
    "  --num-warps N --num-stages N\n"
    "  --seed S             seed of the random inputs (default 0)\n"
    "  --print N            print the first N elements of each buffer (default 8)\n"
    "  --save DIR           write each buffer to DIR/<parameter>.bin\n"
    "  --repeat R           time R warm launches after the first (default 10)\n";

// Generated inputs and saved outputs pass through the host this many elements at a time.
constexpr size_t kStagingElements = size_t(1) << 22;

struct BufferArg {
  size_t param;
  Buffer buffer;
};

// "64x128" -> {64, 128}.
std::vector<int64_t> dims(const std::string &text, const std::string &spec) {
  std::vector<int64_t> out;
  size_t start = 0;
  for (;;) {
    size_t end = text.find('x', start);
    std::string part = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    char *stop = nullptr;
    long long v = std::strtoll(part.c_str(), &stop, 10);
    if (part.empty() || *stop != '\0' || v < 0)
      throw UsageError("bad dimensions '" + text + "' in --arg " + spec + " (write them 64x128)");
    out.push_back(v);
    if (end == std::string::npos)
      return out;
    start = end + 1;
  }
}

void storeValue(std::vector<uint8_t> &bytes, size_t i, DType t, double v) {
  uint8_t *p = bytes.data() + i * dtypeBytes(t);
  auto put = [&](auto x) { std::memcpy(p, &x, sizeof x); };
  switch (t) {
  case DType::I1: put(uint8_t(v != 0)); break;
  case DType::I8: put(int8_t(v)); break;
  case DType::I16: put(int16_t(v)); break;
  case DType::I32: put(int32_t(v)); break;
  case DType::I64: put(int64_t(v)); break;
  case DType::U8: put(uint8_t(v)); break;
  case DType::U16: put(uint16_t(v)); break;
  case DType::U32: put(uint32_t(v)); break;
  case DType::U64: put(uint64_t(v)); break;
  case DType::F16: put(floatToHalf(float(v))); break;
  case DType::BF16: put(floatToBFloat16(float(v))); break;
  case DType::F32: put(float(v)); break;
  case DType::F64: put(double(v)); break;
  default: throw Error(ErrorCode::NotSupported, "cannot generate values of " + std::string(dtypeName(t)));
  }
}

double loadValue(const uint8_t *p, DType t) {
  auto get = [&](auto x) { std::memcpy(&x, p, sizeof x); return x; };
  switch (t) {
  case DType::I1: return get(uint8_t());
  case DType::I8: return get(int8_t());
  case DType::I16: return get(int16_t());
  case DType::I32: return get(int32_t());
  case DType::I64: return double(get(int64_t()));
  case DType::U8: return get(uint8_t());
  case DType::U16: return get(uint16_t());
  case DType::U32: return get(uint32_t());
  case DType::U64: return double(get(uint64_t()));
  case DType::F16: return halfToFloat(get(uint16_t()));
  case DType::BF16: return bfloat16ToFloat(get(uint16_t()));
  case DType::F32: return get(float());
  case DType::F64: return get(double());
  default: return std::nan("");
  }
}

DType dtypeOrThrow(const std::string &s) {
  if (auto t = parseDType(s))
    return *t;
  throw UsageError("unknown dtype '" + s + "' (fp32, fp16, bf16, fp64, i8..i64, u8..u64, i1)");
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos)
      return out;
    start = end + 1;
  }
}

Constexpr parseValue(const std::string &text) {
  if (text == "True" || text == "true")
    return Constexpr(true);
  if (text == "False" || text == "false")
    return Constexpr(false);
  char *end = nullptr;
  long long i = std::strtoll(text.c_str(), &end, 0);
  if (!text.empty() && *end == '\0')
    return Constexpr(int64_t(i));
  double d = std::strtod(text.c_str(), &end);
  if (!text.empty() && *end == '\0')
    return Constexpr(d);
  return Constexpr::source(text);
}

} // namespace

int runCommand(const Args &args) {
  Options opts(args);
  if (opts.flag("help") || opts.flag("h")) {
    std::fputs(kRunHelp, stdout);
    return 0;
  }
  opts.allowOnly({"kernel", "grid", "arg", "device", "num-warps", "num-stages", "seed", "print", "save", "repeat"},
                 {"help"});
  if (opts.positional().size() != 1 || opts.get("grid").empty())
    throw UsageError("FILE and --grid are required");
  // Numbers first: a usage mistake is reported before any work.
  const int repeat = int(opts.integer("repeat", 10));
  const int printN = int(opts.integer("print", 8));
  // Autotuning can take long: say what each config took (TRIDENT_PRINT_AUTOTUNING=0 quiets it).
  ::setenv("TRIDENT_PRINT_AUTOTUNING", "1", 0);
  const std::string file = opts.positional()[0];
  const bool isBundle = file.ends_with(".tbundle");
  if (opts.get("kernel").empty() && !isBundle)
    throw UsageError("--kernel is required (the @triton.jit function to run)");
  // A .tir file is block IR (`trident compile --emit block-ir`, trident-randtest --print-ir);
  // a .tbundle holds compiled binaries (`trident compile --emit bundle`).
  Kernel kernel = isBundle                 ? Kernel::fromBundle(file)
                  : file.ends_with(".tir") ? Kernel::fromBlockIR(readFile(file), opts.get("kernel"))
                                           : Kernel::fromFile(file, opts.get("kernel"));
  if (isBundle && !opts.get("kernel").empty() && opts.get("kernel") != kernel.name())
    throw Error(ErrorCode::NotFound, "bundle " + file + " holds kernel '" + kernel.name() + "', not '" +
                                         opts.get("kernel") + "'");
  Device device = opts.get("device").empty() ? Runtime::get().defaultDevice() : Runtime::get().device(opts.get("device"));

  std::vector<int64_t> grid;
  for (const std::string &g : split(opts.get("grid"), ','))
    grid.push_back(std::stoll(g));
  if (grid.empty() || grid.size() > 3)
    throw UsageError("--grid takes 1 to 3 comma-separated sizes");
  grid.resize(3, 1);

  std::mt19937_64 rng(uint64_t(opts.integer("seed", 0)));
  std::vector<std::string> specs = opts.all("arg");
  std::vector<BufferArg> buffers;
  std::deque<TensorDescriptor> descriptors; // stable storage for Arg views
  std::vector<Constexpr> scalars; // stable storage for Arg views
  scalars.reserve(specs.size());
  // per positional arg: (index, 0 = buffer / 1 = scalar / 2 = typed / 3 = descriptor)
  std::vector<std::pair<size_t, int>> order;
  std::vector<Arg> typed;                   // typed scalars (DTYPE:VALUE)
  typed.reserve(specs.size());
  LaunchOptions launchOptions;
  launchOptions.numWarps = int(opts.integer("num-warps", 0));
  launchOptions.numStages = int(opts.integer("num-stages", 0));
  for (const std::string &spec : specs) {
    size_t eq = spec.find('=');
    if (eq != std::string::npos) {
      launchOptions.constexprs.emplace_back(spec.substr(0, eq), parseValue(spec.substr(eq + 1)));
      continue;
    }
    std::vector<std::string> parts = split(spec, ':');
    std::vector<int64_t> descShape, descBlock, descStrides;
    bool isDescriptor = parts[0] == "tensordesc";
    if (isDescriptor) {
      if (parts.size() != 6 && parts.size() != 7)
        throw UsageError("--arg " + spec + ": write tensordesc:GEN:DTYPE:N:SHAPE:BLOCK[:STRIDES]");
      descShape = dims(parts[4], spec);
      descBlock = dims(parts[5], spec);
      if (parts.size() == 7) {
        descStrides = dims(parts[6], spec);
      } else {
        descStrides.assign(descShape.size(), 1);
        for (size_t d = descShape.size(); d-- > 1;)
          descStrides[d - 1] = descStrides[d] * descShape[d];
      }
      if (descBlock.size() != descShape.size() || descStrides.size() != descShape.size())
        throw UsageError("--arg " + spec + ": SHAPE, BLOCK and STRIDES need the same number of dimensions");
      parts = {parts[1], parts[2], parts[3]};
    }
    if (parts.size() == 3) {
      DType t = dtypeOrThrow(parts[1]);
      size_t n = std::stoull(parts[2]);
      const std::string &generator = parts[0];
      if (generator != "random" && generator != "arange" && generator != "ones" && generator != "zeros")
        throw UsageError("unknown generator '" + generator + "' in --arg " + spec +
                         " (random, arange, zeros, ones)");
      // The device allocates first (a size it cannot hold is its out-of-memory error);
      // the values go through a bounded host buffer.
      Buffer b(device, n, t);
      std::uniform_real_distribution<double> real(-1.0, 1.0);
      std::uniform_int_distribution<int> integer(0, 99);
      std::vector<uint8_t> host(std::min(n, kStagingElements) * dtypeBytes(t));
      for (size_t first = 0; first < n; first += kStagingElements) {
        size_t count = std::min(n - first, kStagingElements);
        for (size_t i = 0; i < count; ++i) {
          double v = generator == "random" ? (isFloat(t) ? real(rng) : integer(rng))
                     : generator == "arange" ? double(first + i)
                     : generator == "ones"   ? 1.0
                                             : 0.0;
          storeValue(host, i, t, v);
        }
        b.copyFromHost(host.data(), count * dtypeBytes(t), first * dtypeBytes(t));
      }
      if (isDescriptor) {
        descriptors.emplace_back(DevicePtr{b.address(), t}, descShape, descStrides, descBlock);
        order.emplace_back(descriptors.size() - 1, 3);
        buffers.push_back({order.size() - 1, b}); // printed and saved like the others
        continue;
      }
      order.emplace_back(buffers.size(), 0);
      buffers.push_back({order.size() - 1, b});
    } else if (parts.size() == 2) {
      DType t = dtypeOrThrow(parts[0]);
      double v = std::stod(parts[1]);
      switch (t) {
      case DType::F16: typed.push_back(Arg::f16(float(v))); break;
      case DType::BF16: typed.push_back(Arg::bf16(float(v))); break;
      case DType::F32: typed.push_back(Arg(float(v))); break;
      case DType::F64: typed.push_back(Arg(v)); break;
      case DType::I1: typed.push_back(Arg(v != 0)); break;
      case DType::I8: typed.push_back(Arg(int8_t(v))); break;
      case DType::I16: typed.push_back(Arg(int16_t(v))); break;
      case DType::I32: typed.push_back(Arg(int32_t(std::stoll(parts[1])))); break;
      case DType::I64: typed.push_back(Arg(int64_t(std::stoll(parts[1])))); break;
      case DType::U8: typed.push_back(Arg(uint8_t(v))); break;
      case DType::U16: typed.push_back(Arg(uint16_t(v))); break;
      case DType::U32: typed.push_back(Arg(uint32_t(std::stoull(parts[1])))); break;
      case DType::U64: typed.push_back(Arg(uint64_t(std::stoull(parts[1])))); break;
      default: throw UsageError("no scalars of " + parts[0]);
      }
      order.emplace_back(typed.size() - 1, 2);
    } else {
      scalars.push_back(parseValue(spec));
      order.emplace_back(scalars.size() - 1, 1);
    }
  }
  std::vector<Arg> launchArgs;
  for (const auto &[index, kind] : order) {
    if (kind == 0)
      launchArgs.emplace_back(buffers[index].buffer);
    else if (kind == 3)
      launchArgs.emplace_back(descriptors[index]);
    else if (kind == 2)
      launchArgs.push_back(typed[index]);
    else if (scalars[index].kind() == Constexpr::Kind::Int && scalars[index].intValue() >= INT32_MIN &&
             scalars[index].intValue() <= INT32_MAX)
      launchArgs.emplace_back(int32_t(scalars[index].intValue()));
    else if (scalars[index].kind() == Constexpr::Kind::Float)
      launchArgs.emplace_back(float(scalars[index].floatValue()));
    else
      launchArgs.emplace_back(scalars[index]);
  }

  Grid g(grid[0], grid[1], grid[2]);
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  kernel.launch(device.defaultStream(), g, launchArgs, launchOptions);
  device.synchronize();
  double firstMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();

  double warmUs = 0;
  if (repeat > 0) {
    Stream s = device.defaultStream();
    Event start(device), stop(device);
    start.record(s);
    auto t1 = Clock::now();
    for (int i = 0; i < repeat; ++i)
      kernel.launch(s, g, launchArgs, launchOptions);
    stop.record(s);
    stop.synchronize();
    warmUs = std::chrono::duration<double, std::micro>(Clock::now() - t1).count() / repeat;
    double eventUs = Event::elapsedMs(start, stop) * 1000.0 / repeat;
    std::printf("%s on %s: first launch (with compile) %.3f ms; warm launch %.1f us (device %.1f us, %d runs)\n",
                kernel.name().c_str(), device.name().c_str(), firstMs, warmUs, eventUs, repeat);
  } else {
    std::printf("%s on %s: first launch (with compile) %.3f ms\n", kernel.name().c_str(), device.name().c_str(),
                firstMs);
  }

  std::string saveDir = opts.get("save");
  if (!saveDir.empty())
    std::filesystem::create_directories(saveDir);
  for (const BufferArg &b : buffers) {
    const DType t = b.buffer.dtype();
    const size_t elementBytes = dtypeBytes(t);
    std::string name = b.param < kernel.numParams() ? kernel.paramName(b.param) : "arg" + std::to_string(b.param);
    size_t shown = std::min<size_t>(b.buffer.size(), size_t(std::max(printN, 0)));
    std::vector<uint8_t> host(shown * elementBytes);
    b.buffer.copyToHost(host.data(), host.size());
    std::printf("%s: %s[%zu] = [", name.c_str(), std::string(dtypeName(t)).c_str(), b.buffer.size());
    for (size_t i = 0; i < shown; ++i)
      std::printf("%s%g", i ? ", " : "", loadValue(host.data() + i * elementBytes, t));
    std::printf("%s]\n", shown < b.buffer.size() ? ", ..." : "");
    if (!saveDir.empty()) {
      std::ofstream f(std::filesystem::path(saveDir) / (name + ".bin"), std::ios::binary);
      host.resize(std::min(b.buffer.size(), kStagingElements) * elementBytes);
      for (size_t first = 0; first < b.buffer.size() && f; first += kStagingElements) {
        size_t bytes = std::min(b.buffer.size() - first, kStagingElements) * elementBytes;
        b.buffer.copyToHost(host.data(), bytes, first * elementBytes);
        f.write(reinterpret_cast<const char *>(host.data()), std::streamsize(bytes));
      }
      if (!f)
        throw Error(ErrorCode::Io, "cannot write " + saveDir + "/" + name + ".bin");
    }
  }
  return 0;
}

} // namespace trident::tool
