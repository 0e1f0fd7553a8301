// @triton.autotune: on the first launch for a value of the autotune key (per
// device), every config is compiled and timed and the fastest is remembered, in
// memory and in the disk cache. Later launches with the same key find the winner
// with a shared lock and no allocation.
//
// Timing: every config is compiled (and run once) first, then the first one runs for
// a warm-up (warmupBudget: a GPU that idled during the compiles is slow for a while),
// then each is timed, back to back: launches until kRepLaunches have run and
// timingMinimum() has passed, or until kRepBudget (the host interpreter is slow; GPUs
// reach the count); the fastest launch counts.
// Configs that fail to compile or launch (out of shared memory, say) are skipped.
// Every buffer argument is saved before tuning and restored after each config, as
// Triton's restore_value does, so tuning never changes the launch's results.

#include "KernelImpl.h"

#include "Sha256.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <mutex>

namespace trident::detail {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kRepLaunches = 5;
constexpr std::chrono::milliseconds kRepBudget{200};

// How long the first working config runs before any is timed:
// TRIDENT_AUTOTUNE_WARMUP_MS, else 1000 ms on Vulkan (NVIDIA's driver on the H200
// runs a matmul 5x slower for its first few hundred ms of work after an idle second),
// 200 ms on other GPUs, none on the host and CPU plugins.
std::chrono::milliseconds warmupBudget(const DeviceImpl &device) {
  static const int fromEnv = [] {
    const char *v = std::getenv("TRIDENT_AUTOTUNE_WARMUP_MS");
    return v && *v ? std::max(0, std::atoi(v)) : -1;
  }();
  if (fromEnv >= 0)
    return std::chrono::milliseconds(fromEnv);
  const std::string &plugin = device.plugin->name();
  return std::chrono::milliseconds(plugin == "host" || plugin == "cpu" ? 0 : plugin == "vulkan" ? 1000 : 200);
}

// How long a config's timed launches last at least: TRIDENT_AUTOTUNE_MIN_MS, default 40
// (the fastest launch of them counts; a GPU that idled while the config compiled comes
// back to its clocks within them).
std::chrono::milliseconds timingMinimum() {
  static const std::chrono::milliseconds minimum = [] {
    const char *v = std::getenv("TRIDENT_AUTOTUNE_MIN_MS");
    return std::chrono::milliseconds(v && *v ? std::max(0, std::atoi(v)) : 40);
  }();
  return minimum;
}

// The key: for each key parameter its kind and value, then the dtype of every
// pointer argument. Returns the number of words written.
size_t tuneKey(const KernelImpl &k, std::span<const Arg> args, const LaunchOptions &options, uint64_t *out) {
  size_t w = 0;
  for (size_t j : k.tuneKeyParams) {
    uint64_t kind = 0, value = 0;
    if (j < args.size()) {
      const Arg &a = args[j];
      kind = uint64_t(a.kind()) + 1;
      if (a.kind() == Arg::Kind::Pointer || a.kind() == Arg::Kind::TensorDescriptor)
        value = uint64_t(a.dtype());
      else if (a.kind() == Arg::Kind::Constexpr)
        value = a.constexprValue()->kind() == Constexpr::Kind::Source
                    ? std::hash<std::string>()(a.constexprValue()->text())
                    : uint64_t(a.constexprValue()->intValue());
      else
        value = a.bits();
    } else {
      for (const auto &[name, c] : options.constexprs)
        if (name == k.params[j].name) {
          kind = 16;
          value = c.kind() == Constexpr::Kind::Float ? std::bit_cast<uint64_t>(c.floatValue()) : uint64_t(c.intValue());
        }
    }
    out[w++] = kind;
    out[w++] = value;
  }
  for (const Arg &a : args)
    if (a.kind() == Arg::Kind::Pointer)
      out[w++] = 0x100 | uint64_t(a.dtype());
  return w;
}

const TuneWinner *findWinner(const KernelImpl &k, const std::shared_ptr<DeviceImpl> &device, const uint64_t *key,
                             size_t n) {
  for (const TuneWinner &w : k.winners) {
    if (w.device != device || w.key.size() != n)
      continue;
    bool same = true;
    for (size_t i = 0; i < n && same; ++i)
      same = w.key[i] == key[i];
    if (same)
      return &w;
  }
  return nullptr;
}

// Device memory of the launch's buffers, saved on the host.
struct SavedBuffers {
  std::vector<std::pair<const BufferImpl *, std::vector<uint8_t>>> saved;

  void save(std::span<const Arg> args, trident_stream stream) {
    for (const Arg &a : args) {
      const BufferImpl *b = a.kind() == Arg::Kind::Pointer || a.kind() == Arg::Kind::TensorDescriptor ? a.buffer() : nullptr;
      if (!b || b->size == 0)
        continue;
      std::vector<uint8_t> bytes(b->size * dtypeBytes(b->dtype));
      const Plugin &p = *b->device->plugin;
      p.call(&trident_plugin_api::memcpy_dtoh, "memcpy_dtoh", "saving a buffer before autotuning", stream,
             bytes.data(), b->address, bytes.size());
      saved.emplace_back(b, std::move(bytes));
    }
    sync(stream);
  }
  void restore(trident_stream stream) {
    for (const auto &[b, bytes] : saved)
      b->device->plugin->call(&trident_plugin_api::memcpy_htod, "memcpy_htod", "restoring a buffer after autotuning",
                              stream, b->address, bytes.data(), bytes.size());
    sync(stream);
  }
  void sync(trident_stream stream) {
    if (!saved.empty())
      saved.front().first->device->plugin->call(&trident_plugin_api::stream_synchronize, "stream_synchronize",
                                                "waiting for autotuning copies", stream);
  }
};

std::string diskKeyOf(const KernelImpl &k, const DeviceImpl &device, const uint64_t *key, size_t n) {
  Sha256 sha;
  sha.field("trident-autotune");
  sha.field(trident::version());
  sha.field(device.shared->buildId);
  sha.field(k.sourceHash);
  sha.field(k.name);
  sha.field(device.plugin->name());
  sha.field(device.plugin->version());
  sha.field(device.plugin->buildId());
  sha.field(device.info.target);
  sha.update(key, n * sizeof(uint64_t));
  return sha.hexDigest();
}

} // namespace

const TuneConfig &chooseConfig(KernelImpl &k, const std::shared_ptr<DeviceImpl> &device, trident_stream stream,
                               const Grid &grid, std::span<const Arg> args, const LaunchOptions &options) {
  uint64_t key[3 * kMaxParams];
  size_t n = tuneKey(k, args, options, key);
  {
    std::shared_lock lock(k.tuneMutex);
    if (const TuneWinner *w = findWinner(k, device, key, n))
      return k.configs[w->config];
  }
  // One tuning at a time per kernel and device; launches elsewhere go on.
  std::lock_guard tuning(k.tuning.of(device.get()));
  {
    std::shared_lock lock(k.tuneMutex);
    if (const TuneWinner *w = findWinner(k, device, key, n))
      return k.configs[w->config];
  }

  RuntimeShared &shared = *device->shared;
  const std::string diskKey = diskKeyOf(k, *device, key, n);
  size_t winner = k.configs.size();
  if (shared.disk) {
    CacheEntry e;
    if (shared.disk->load(diskKey, e) == DiskCache::Lookup::Hit && e.kind == "autotune") {
      std::string text(e.payload.begin(), e.payload.end());
      for (size_t c = 0; c < k.configs.size(); ++c)
        if (k.configs[c].text == text)
          winner = c;
    }
    if (winner < k.configs.size() && shared.printAutotuning)
      shared.message(LogMessage::Level::Info, "autotune",
                     "autotune " + k.name + " on " + device->name + ": " + k.configs[winner].text +
                         " (chosen earlier, from the disk cache)");
  }
  if (winner == k.configs.size()) {
    SavedBuffers saved;
    saved.save(args, stream);
    double best = std::numeric_limits<double>::infinity();
    std::string failures;
    auto skip = [&](size_t c, const Error &e) {
      if (e.code() == ErrorCode::InvalidArgument)
        throw; // the user's arguments are wrong whatever the config
      failures += "\n  " + k.configs[c].text + ": " + e.what();
      // Triton's OutOfResources pruning, said in one line.
      std::string why = e.what();
      std::replace(why.begin(), why.end(), '\n', ' ');
      shared.message(LogMessage::Level::Warning, "autotune",
                     "autotune " + k.name + " on " + device->name + ": skipping " + k.configs[c].text + ": " + why);
    };
    auto synchronize = [&] {
      device->plugin->call(&trident_plugin_api::stream_synchronize, "stream_synchronize", "autotuning", stream);
    };
    // 1. Compile every config first (a launch each), so that the timings below run
    //    back to back and the GPU does not idle between them.
    std::vector<size_t> working;
    for (size_t c = 0; c < k.configs.size(); ++c) {
      try {
        launchWithConfig(k, device, stream, grid, args, options, &k.configs[c]);
        synchronize();
        working.push_back(c);
      } catch (const Error &e) {
        skip(c, e);
      }
      saved.restore(stream);
    }
    // 2. A GPU that idled while the configs compiled runs at lower clocks until it
    //    has worked for a while (NVIDIA's Vulkan driver: about a second), so the
    //    first config runs for warmupBudget() before anything is timed.
    if (!working.empty()) {
      try {
        auto start = Clock::now();
        while (Clock::now() - start < warmupBudget(*device)) {
          launchWithConfig(k, device, stream, grid, args, options, &k.configs[working.front()]);
          synchronize();
        }
      } catch (const Error &e) {
        skip(working.front(), e);
        working.erase(working.begin());
      }
      saved.restore(stream);
    }
    // 3. Time each: launches one at a time until kRepLaunches have run and
    //    timingMinimum() has passed, or kRepBudget; the fastest launch counts.
    for (size_t c : working) {
      try {
        int runs = 0;
        double t = std::numeric_limits<double>::infinity();
        auto start = Clock::now();
        do {
          auto launched = Clock::now();
          launchWithConfig(k, device, stream, grid, args, options, &k.configs[c]);
          synchronize();
          t = std::min(t, std::chrono::duration<double>(Clock::now() - launched).count());
          ++runs;
        } while ((runs < kRepLaunches || Clock::now() - start < timingMinimum()) && Clock::now() - start < kRepBudget);
        if (shared.printAutotuning) {
          char ms[32];
          std::snprintf(ms, sizeof ms, "%.4f ms", t * 1e3);
          shared.message(LogMessage::Level::Info, "autotune",
                         "autotune " + k.name + " on " + device->name + ": config " + std::to_string(c + 1) + "/" +
                             std::to_string(k.configs.size()) + " " + k.configs[c].text + ": " + ms + " (" +
                             std::to_string(runs) + " run" + (runs == 1 ? "" : "s") + ")");
        }
        if (t < best) {
          best = t;
          winner = c;
        }
      } catch (const Error &e) {
        skip(c, e);
      }
      saved.restore(stream);
    }
    if (winner == k.configs.size())
      throw Error(ErrorCode::Compile, "kernel '" + k.name + "': no autotune config works on " + device->name + ":" +
                                          failures);
    if (shared.printAutotuning) {
      char ms[32];
      std::snprintf(ms, sizeof ms, "%.4f ms", best * 1e3);
      shared.message(LogMessage::Level::Info, "autotune",
                     "autotune " + k.name + " on " + device->name + ": picked " + k.configs[winner].text + " (" + ms +
                         ", the fastest of " + std::to_string(k.configs.size()) + " configs)");
    }
    if (shared.disk) {
      CacheEntry e;
      e.kind = "autotune";
      e.kernel = k.name;
      e.plugin = device->plugin->name();
      e.target = device->info.target;
      e.payload.assign(k.configs[winner].text.begin(), k.configs[winner].text.end());
      shared.storeInDiskCache(diskKey, e);
    }
  }
  std::unique_lock lock(k.tuneMutex);
  k.winners.push_back({device, std::vector<uint64_t>(key, key + n), winner});
  return k.configs[winner];
}

} // namespace trident::detail
