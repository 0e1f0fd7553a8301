#pragma once
// The state behind a Kernel: its source and parameters, and the in-memory cache
// of compiled specializations (per device, per specialization key).
//
// The warm launch path (KernelLaunch.cpp) resolves arguments into a fixed-size
// array on the stack, computes the SpecKey from argument kinds, dtypes,
// divisibility by 16, equality to 1 and constexpr values, finds the
// Specialization under a shared lock, packs the runtime arguments on the stack
// and calls the plugin: no source hashing, no strings, no heap allocation.

#include "Heuristics.h"
#include "Impl.h"
#include "trident/Bundle.h"
#include "trident/Kernel.h"

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

namespace trident::detail {

// Kernels with more parameters are refused (a fixed bound keeps launches off the heap).
constexpr size_t kMaxParams = 64;

struct Param {
  std::string name;
  bool isConstexpr = false;
  bool doNotSpecialize = false;
  std::optional<Constexpr> defaultValue; // from the source's default, parsed
};

// One @triton.autotune config: constexpr values and launch options.
struct TuneConfig {
  std::vector<std::pair<std::string, Constexpr>> kwargs;
  int numWarps = 4;
  int numStages = 3;
  std::string text; // "BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, num_warps=8, num_stages=3"
  std::vector<std::pair<std::string, std::string>> sources; // each kwarg's value as written ("128")
};

// A mutex per key (a device, a target), made on first use.
template <class Key> class MutexPerKey {
public:
  std::mutex &of(const Key &key) {
    std::lock_guard lock(mutex_);
    std::unique_ptr<std::mutex> &m = mutexes_[key];
    if (!m)
      m = std::make_unique<std::mutex>();
    return *m;
  }

private:
  std::mutex mutex_;
  std::map<Key, std::unique_ptr<std::mutex>> mutexes_;
};

// The config chosen for one device and one value of the autotune key.
struct TuneWinner {
  std::shared_ptr<DeviceImpl> device;
  std::vector<uint64_t> key;
  size_t config = 0;
};

// One parameter of one launch, after binding positional, named and default values.
struct Resolved {
  enum class Tag : uint8_t { Pointer = 1, Int, Float, Bool, Descriptor, ConstInt, ConstFloat, ConstBool, ConstSource, IntOne };
  Tag tag = Tag::Int;
  DType dtype = DType::I32;
  bool divisibleBy16 = false;
  uint64_t bits = 0;                // runtime value, or constexpr value bits
  const std::string *text = nullptr; // ConstSource: the source text
  const BufferImpl *buffer = nullptr;
  const TensorDescriptor *descriptor = nullptr; // Descriptor: base, shape, strides, block shape
  bool isRuntime() const { return tag <= Tag::Descriptor; }
};

// The specialization key: a header word, then two words per parameter.
struct SpecKey {
  uint32_t size = 0;
  std::array<uint64_t, 1 + 2 * kMaxParams> words;
  uint64_t hash = 0;
  bool operator==(const SpecKey &o) const {
    if (size != o.size || hash != o.hash)
      return false;
    for (uint32_t i = 0; i < size; ++i)
      if (words[i] != o.words[i])
        return false;
    return true;
  }
};

// A compiled, loaded specialization on one device.
struct Specialization {
  std::shared_ptr<DeviceImpl> device;
  SpecKey key;
  std::vector<std::pair<uint32_t, std::string>> sourceTexts; // (param, text) of ConstSource values
  trident_module module = nullptr;
  trident_kernel kernel = nullptr;
  // Bit i: parameter i is a launch's constant 1 that this binary takes as an argument
  // (a bundle entry compiled without that specialization).
  uint64_t runtimeOnes = 0;
  std::string blockIR; // when it was compiled in this process
  ~Specialization();
};

struct KernelImpl {
  std::string name;
  std::string source;
  std::string fileName;
  bool isBlockIR = false; // source holds block IR; every parameter is a runtime one
  std::string sourceHash; // SHA-256 of what identifies the source, computed once
  // Kernel::fromBundle: the binaries launches choose from (BundleLaunch.cpp); fileName
  // names the bundle. No compiler is involved.
  std::shared_ptr<const Bundle> bundle;
  std::vector<Param> params;
  std::vector<std::string> paramNames; // for Meta

  mutable std::shared_mutex mutex; // guards the lists below; never held while compiling or tuning
  std::vector<std::unique_ptr<Specialization>> specializations;
  // One compile at a time per target: devices of one target share the binary (it is
  // compiled once), and other targets' launches and compiles go on meanwhile.
  MutexPerKey<std::string> compiling;

  // @triton.autotune: configs, the parameters of the key, and the winners so far.
  std::vector<TuneConfig> configs;
  std::vector<size_t> tuneKeyParams;
  mutable std::shared_mutex tuneMutex; // guards winners; not held while tuning
  std::vector<TuneWinner> winners;
  MutexPerKey<const DeviceImpl *> tuning; // one tuning at a time per device (it compiles: a lock of its own)

  // @triton.heuristics, applied in order on every launch.
  std::vector<Heuristic> heuristics;
  std::vector<size_t> heuristicParams;
};

// Options after applying the autotuned config and Triton's defaults.
struct EffectiveOptions {
  int numWarps = 4;
  int numStages = 3;
  bool debug = false;
  bool warpsGiven = false, stagesGiven = false; // by the launch or a config, not by default (bundles match them)
};

// Binds `args` and `options` to the kernel's parameters; throws Error(InvalidArgument).
// `out` must hold kernel.params.size() entries.
// `config` (may be null) supplies values for parameters the launch leaves out.
void resolveArguments(const KernelImpl &kernel, const DeviceImpl &device, std::span<const Arg> args,
                      const LaunchOptions &options, const TuneConfig *config, Resolved *out);
void computeKey(const KernelImpl &kernel, const Resolved *resolved, const EffectiveOptions &options, SpecKey &key);
// The cold path: compiles (or loads from disk) and inserts a specialization. Called
// with the kernel's compiling.of(target) held; takes the kernel's mutex to insert.
Specialization &compileSpecialization(KernelImpl &kernel, const std::shared_ptr<DeviceImpl> &device,
                                      const Resolved *resolved, const SpecKey &key, const EffectiveOptions &options);
// Finds or compiles the specialization for these arguments.
Specialization &specializationFor(KernelImpl &kernel, const std::shared_ptr<DeviceImpl> &device,
                                  const Resolved *resolved, const EffectiveOptions &options);
EffectiveOptions effectiveOptions(const LaunchOptions &options, const TuneConfig *config);

// Launches with a given config (null: none); the core of every launch.
void launchWithConfig(KernelImpl &kernel, const std::shared_ptr<DeviceImpl> &device, trident_stream stream,
                      const Grid &grid, std::span<const Arg> args, const LaunchOptions &options,
                      const TuneConfig *config);
// The autotuned config for this launch: remembered, read from disk, or found by
// benchmarking every config (Autotune.cpp).
const TuneConfig &chooseConfig(KernelImpl &kernel, const std::shared_ptr<DeviceImpl> &device, trident_stream stream,
                               const Grid &grid, std::span<const Arg> args, const LaunchOptions &options);

// The Triton signature string of a resolved launch ("*fp32:16, i32, 1024"), and
// the entry of one parameter ("*fp32:16").
std::string signatureOf(const KernelImpl &kernel, const Resolved *resolved);
std::string paramSignature(const KernelImpl &kernel, const Resolved *resolved, size_t i);
// A signature's entries, split at top-level commas and trimmed.
std::vector<std::string> splitSignature(const std::string &signature);
// `signature` written the way signatureOf writes launches (dtype names, constexpr
// values as Python source), so that bundle entries and launches compare as text.
std::string normalizeSignature(const std::vector<bool> &isConstexpr, const std::string &signature);
// The bytes of a bundle file; Error(NotFound) or Error(Io) when it cannot be read.
std::vector<uint8_t> readBundleBytes(const std::string &path);
// Refuses kernels with more than kMaxParams parameters; fills paramNames.
void indexParams(KernelImpl &kernel);
// The cold path of a bundle kernel: the best entry of its bundle for the device
// and the arguments, loaded (BundleLaunch.cpp). Called like compileSpecialization.
Specialization &bundleSpecialization(KernelImpl &kernel, const std::shared_ptr<DeviceImpl> &device,
                                     const Resolved *resolved, const SpecKey &key, const EffectiveOptions &options);

// Reads a default value or constexpr written as Python source ("1024", "True", "1e-5").
Constexpr parseConstexprSource(const std::string &text);
// A config from its keyword arguments as Python source, with its text for messages
// and cache entries ("BLOCK_SIZE=128, num_warps=4, num_stages=3").
TuneConfig makeTuneConfig(const std::vector<std::pair<std::string, std::string>> &kwargs, int numWarps,
                          int numStages);

// Source to optimized block IR (frontend + core passes); throws Error(Compile).
// `target` (a device's target, "cuda:sm_90"...) is what tl.target_info answers for.
std::string sourceToBlockIR(const std::string &source, const std::string &fileName, const std::string &kernel,
                            const std::string &signature, bool debug, const std::string &target);
// Plugin compile of block IR; throws Error.
CacheEntry compileWithPlugin(const Plugin &plugin, const std::string &target, const std::string &blockIR,
                             const std::string &kernel, const char *emit, int numWarps, int numStages, bool debug);

} // namespace trident::detail
