// The cold path of a launch: find the specialization's binary in this process,
// then in the disk cache, else compile it (frontend, core passes, plugin), store
// it, and load it on the device.

#include "KernelImpl.h"

#include "Sha256.h"
#include "trident/Compiler.h"

#include <bit>
#include <cstdio>

namespace trident {

using namespace detail;

namespace detail {

namespace {

std::string floatSource(double v) {
  return Constexpr(v).pythonSource();
}

// Loads a binary on the device; false (with the plugin's message) when the plugin refuses it.
// A refused load leaves `module` null: what the plugin wrote there is never unloaded.
trident_status loadModule(DeviceImpl &device, const CacheEntry &entry, trident_module &module) {
  trident_module loaded = nullptr;
  trident_status s = device.plugin->tryCall(&trident_plugin_api::module_load, device.handle(), entry.payload.data(),
                                            entry.payload.size(), &loaded);
  module = s == TRIDENT_SUCCESS ? loaded : nullptr;
  return s;
}

} // namespace

std::string signatureOf(const KernelImpl &k, const Resolved *r) {
  std::string sig;
  for (size_t i = 0; i < k.params.size(); ++i)
    sig += (i ? ", " : "") + paramSignature(k, r, i);
  return sig;
}

std::string paramSignature(const KernelImpl &, const Resolved *r, size_t i) {
  const Resolved &a = r[i];
  std::string sig;
  switch (a.tag) {
  case Resolved::Tag::Pointer: sig = "*" + std::string(dtypeName(a.dtype)); break;
  case Resolved::Tag::Int: sig = dtypeName(a.dtype); break;
  case Resolved::Tag::Float: sig = dtypeName(a.dtype); break;
  case Resolved::Tag::Bool: sig = "i1"; break;
  case Resolved::Tag::Descriptor: {
    sig = "tensordesc<" + std::string(dtypeName(a.dtype)) + "[";
    for (size_t d = 0; d < a.descriptor->blockShape.size(); ++d)
      sig += (d ? ", " : "") + std::to_string(a.descriptor->blockShape[d]);
    sig += "]>";
    break;
  }
  case Resolved::Tag::IntOne: sig = "1"; break;
  case Resolved::Tag::ConstInt: sig = std::to_string(int64_t(a.bits)); break;
  case Resolved::Tag::ConstBool: sig = a.bits ? "True" : "False"; break;
  case Resolved::Tag::ConstFloat: sig = floatSource(std::bit_cast<double>(a.bits)); break;
  case Resolved::Tag::ConstSource: sig = *a.text; break;
  }
  if (a.divisibleBy16 && (a.tag == Resolved::Tag::Pointer || a.tag == Resolved::Tag::Int))
    sig += ":16";
  return sig;
}

CacheEntry compileWithPlugin(const Plugin &plugin, const std::string &target, const std::string &blockIR,
                             const std::string &kernel, const char *emit, int numWarps, int numStages, bool debug) {
  trident_compile_options opts{};
  opts.struct_size = sizeof(opts);
  opts.num_warps = uint32_t(numWarps);
  opts.num_stages = uint32_t(numStages);
  opts.debug = debug;
  opts.emit = emit;
  trident_binary bin{};
  bin.struct_size = sizeof(bin);
  bin.metadata.struct_size = sizeof(bin.metadata);
  plugin.call(&trident_plugin_api::compile, "compile", "compiling kernel '" + kernel + "' for " + target,
              plugin.context(), target.c_str(), blockIR.data(), blockIR.size(), kernel.c_str(), &opts, &bin);
  CacheEntry e;
  e.kernel = kernel;
  e.plugin = plugin.name();
  e.target = target;
  e.threadsPerProgram = bin.metadata.threads_per_program;
  e.sharedMemory = bin.metadata.shared_memory;
  const auto *bytes = static_cast<const uint8_t *>(bin.data);
  e.payload.assign(bytes, bytes + bin.size);
  plugin.tryCall(&trident_plugin_api::binary_release, plugin.context(), &bin);
  return e;
}

Specialization &compileSpecialization(KernelImpl &k, const std::shared_ptr<DeviceImpl> &device, const Resolved *r,
                                      const SpecKey &key, const EffectiveOptions &o) {
  if (k.bundle)
    return bundleSpecialization(k, device, r, key, o);
  RuntimeShared &shared = *device->shared;
  const Plugin &plugin = *device->plugin;
  const int warps = o.numWarps, stages = o.numStages;
  const std::string signature = signatureOf(k, r);
  // The disk-cache key: everything that shapes the binary, the build's id included.
  Sha256 sha;
  for (const std::string &field :
       {std::string("trident-kernel"), std::string(trident::version()), shared.buildId, k.sourceHash, k.name,
        signature, std::to_string(warps), std::to_string(stages), std::string(o.debug ? "debug" : "release"),
        plugin.name(), plugin.version(), plugin.buildId(), device->info.target})
    sha.field(field);
  const std::string cacheKey = sha.hexDigest();

  auto spec = std::make_unique<Specialization>();
  spec->device = device;
  spec->key = key;
  for (size_t i = 0; i < k.params.size(); ++i)
    if (r[i].tag == Resolved::Tag::ConstSource)
      spec->sourceTexts.emplace_back(uint32_t(i), *r[i].text);

  // 1. Compiled earlier in this process (for another device of the same target).
  std::shared_ptr<const CacheEntry> entry;
  {
    std::lock_guard lock(shared.binariesMutex);
    auto it = shared.binaries.find(cacheKey);
    if (it != shared.binaries.end())
      entry = it->second;
  }
  if (entry && loadModule(*device, *entry, spec->module) != TRIDENT_SUCCESS)
    entry.reset();
  // 2. The disk cache.
  if (!entry && shared.disk) {
    CacheEntry loaded;
    switch (shared.disk->load(cacheKey, loaded)) {
    case DiskCache::Lookup::Hit:
      if (loadModule(*device, loaded, spec->module) == TRIDENT_SUCCESS) {
        shared.counters.diskHits++;
        entry = std::make_shared<CacheEntry>(std::move(loaded));
      } else {
        shared.counters.damagedEntries++; // checksum fine, but the plugin cannot use it
      }
      break;
    case DiskCache::Lookup::Damaged: shared.counters.damagedEntries++; [[fallthrough]];
    case DiskCache::Lookup::Miss: shared.counters.diskMisses++; break;
    }
  }
  // 3. Compile.
  if (!entry) {
    if (k.isBlockIR) {
      spec->blockIR = k.source;
    } else {
      spec->blockIR = sourceToBlockIR(k.source, k.fileName, k.name, signature, o.debug, device->info.target);
      shared.counters.frontendCompiles++;
    }
    auto compiled = std::make_shared<CacheEntry>(
        compileWithPlugin(plugin, device->info.target, spec->blockIR, k.name, nullptr, warps, stages, o.debug));
    shared.counters.backendCompiles++;
    shared.storeInDiskCache(cacheKey, *compiled);
    trident_status s = loadModule(*device, *compiled, spec->module);
    if (s != TRIDENT_SUCCESS)
      plugin.throwStatus(s, "loading kernel '" + k.name + "' on " + device->name);
    entry = std::move(compiled);
  }
  {
    std::lock_guard lock(shared.binariesMutex);
    shared.binaries.emplace(cacheKey, entry);
  }
  plugin.call(&trident_plugin_api::module_get_kernel, "module_get_kernel",
              "finding kernel '" + k.name + "' in its module on " + device->name, spec->module, k.name.c_str(),
              &spec->kernel);
  std::unique_lock lock(k.mutex);
  k.specializations.push_back(std::move(spec));
  return *k.specializations.back();
}

} // namespace detail

Artifact compileArtifact(const Runtime &runtime, const std::string &blockIR, const std::string &kernel,
                         const ArtifactRequest &request) {
  const RuntimeImpl &rt = *runtime.impl();
  std::string target = request.target;
  std::vector<std::shared_ptr<Plugin>> candidates;
  for (const Device &d : rt.devices)
    if (d.name() == request.target) { // a device name: that device's plugin and target
      target = d.info().target;
      candidates.push_back(d.impl()->plugin);
    }
  if (candidates.empty())
    for (const auto &p : rt.plugins)
      if (p->tryCall(&trident_plugin_api::supports_target, p->context(), target.c_str()) == TRIDENT_SUCCESS)
        candidates.push_back(p);
  if (candidates.empty()) {
    std::string loaded;
    for (const auto &p : rt.plugins)
      loaded += (loaded.empty() ? "" : ", ") + p->name();
    throw Error(ErrorCode::NotSupported, "no loaded plugin compiles for target '" + request.target +
                                             "' (loaded plugins: " + (loaded.empty() ? "none" : loaded) +
                                             "; run `trident devices` to see skipped ones)");
  }
  std::string refusals;
  for (const auto &p : candidates) {
    try {
      CacheEntry e = compileWithPlugin(*p, target, blockIR, kernel,
                                       request.emit == "binary" ? nullptr : request.emit.c_str(), request.numWarps,
                                       request.numStages, request.debug);
      Artifact a;
      a.plugin = p->name();
      a.target = target;
      a.bytes = std::move(e.payload);
      a.threadsPerProgram = e.threadsPerProgram;
      a.sharedMemory = e.sharedMemory;
      return a;
    } catch (const Error &err) {
      if (err.code() != ErrorCode::NotSupported)
        throw;
      refusals += std::string("; ") + err.what();
    }
  }
  throw Error(ErrorCode::NotSupported, "'" + request.emit + "' for target '" + target +
                                           "' is not provided by any loaded backend" + refusals);
}

} // namespace trident
