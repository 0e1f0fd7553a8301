// Kernels from bundles: Kernel::fromBundle, and the cold path of their launches,
// which picks the bundle entry for a device and a launch's arguments instead of
// compiling.
//
// An entry fits a launch when its plugin is the device's, its target is one the
// device runs, and its signature's assumptions hold for the arguments: an entry
// compiled for "*fp32" or "i32" takes any such argument (one for "*fp32:16" only
// a 16-byte-aligned address, one for "1" only the value 1), constexpr values must
// be equal. Among the fitting entries the best target wins (the device's exact
// target; then the plugin's generic target, as "vulkan"; then the newest older
// CUDA architecture, whose PTX the driver compiles), then the most specialized
// signature. An entry the plugin refuses to load gives way to the next.

#include "KernelImpl.h"
#include "Sha256.h"

#include "trident/Bundle.h"
#include "trident/Error.h"

#include <algorithm>
#include <bit>
#include <charconv>

namespace trident {

using namespace detail;

namespace detail {

std::vector<std::string> splitSignature(const std::string &signature) {
  std::vector<std::string> out;
  std::string current;
  int depth = 0;
  char quote = 0;
  auto flush = [&] {
    size_t b = current.find_first_not_of(" \t"), e = current.find_last_not_of(" \t");
    out.push_back(b == std::string::npos ? "" : current.substr(b, e - b + 1));
    current.clear();
  };
  for (char c : signature) {
    if (quote) {
      if (c == quote)
        quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == ',' && depth == 0) {
      flush();
      continue;
    }
    current += c;
  }
  if (!current.empty() || !out.empty())
    flush();
  return out;
}

std::string normalizeSignature(const std::vector<bool> &isConstexpr, const std::string &signature) {
  std::vector<std::string> tokens = splitSignature(signature);
  std::string out;
  for (size_t i = 0; i < tokens.size(); ++i) {
    std::string t = tokens[i];
    if (i < isConstexpr.size() && isConstexpr[i]) {
      t = parseConstexprSource(t).pythonSource();
    } else if (t != "1" && t != "None") {
      bool pointer = t.starts_with("*");
      std::string body = pointer ? t.substr(1) : t;
      std::string suffix;
      if (body.ends_with(":16")) {
        suffix = ":16";
        body.resize(body.size() - 3);
      }
      if (std::optional<DType> d = parseDType(body))
        t = (pointer ? "*" : "") + std::string(dtypeName(*d)) + suffix;
    }
    out += (i ? ", " : "") + t;
  }
  return out;
}

namespace {

// How well an entry's target suits a device: lower is better; nullopt: not at all.
std::optional<int> targetRank(const BundleEntry &e, const DeviceImpl &device) {
  if (e.plugin != device.plugin->name())
    return std::nullopt;
  const std::string &t = device.info.target;
  if (e.target == t)
    return 0;
  if (e.target == e.plugin) // the plugin's generic target: "vulkan"
    return 1;
  // CUDA: PTX for an older architecture runs on a newer one (the driver compiles it;
  // a cubin inside would be refused at load, and the next entry tried).
  auto sm = [](const std::string &s) -> std::optional<int> {
    if (!s.starts_with("cuda:sm_"))
      return std::nullopt;
    int v = 0;
    auto [p, ec] = std::from_chars(s.data() + 8, s.data() + s.size(), v);
    return ec == std::errc() ? std::optional<int>(v) : std::nullopt;
  };
  std::optional<int> have = sm(t), built = sm(e.target);
  if (have && built && *built < *have)
    return 2 + (*have - *built);
  return std::nullopt;
}

// Whether entry token `want` accepts the launch's token `got` for parameter `r`.
// `generalized` counts the assumptions the entry does not make; `runtimeOne` is set
// when the launch's 1 must be passed as an argument (the entry was not specialized on it).
bool tokenFits(const std::string &want, const std::string &got, const Resolved &r, int &generalized,
               bool &runtimeOne) {
  if (want == got)
    return true;
  if (got.ends_with(":16") && want == got.substr(0, got.size() - 3)) {
    ++generalized;
    return true;
  }
  if (r.tag == Resolved::Tag::IntOne && want == dtypeName(r.dtype)) {
    ++generalized;
    runtimeOne = true;
    return true;
  }
  return false;
}

std::string entryList(const Bundle &b) {
  std::string s;
  for (const BundleEntry &e : b.entries)
    s += "\n  " + e.target + " (" + e.plugin + " plugin), num_warps " + std::to_string(e.numWarps) + ": " +
         e.signature;
  return s;
}

} // namespace

Specialization &bundleSpecialization(KernelImpl &k, const std::shared_ptr<DeviceImpl> &device, const Resolved *r,
                                     const SpecKey &key, const EffectiveOptions &o) {
  const Bundle &bundle = *k.bundle;
  std::vector<std::string> got;
  for (size_t i = 0; i < k.params.size(); ++i)
    got.push_back(paramSignature(k, r, i));
  struct Candidate {
    const BundleEntry *entry;
    int rank, generalized;
    uint64_t runtimeOnes;
  };
  std::vector<Candidate> candidates;
  for (const BundleEntry &e : bundle.entries) {
    std::optional<int> rank = targetRank(e, *device);
    if (!rank || (o.warpsGiven && int(e.numWarps) != o.numWarps) ||
        (o.stagesGiven && int(e.numStages) != o.numStages))
      continue;
    std::vector<std::string> want = splitSignature(e.signature);
    if (want.size() != got.size())
      continue;
    Candidate c{&e, *rank, 0, 0};
    bool fits = true;
    for (size_t i = 0; i < got.size() && fits; ++i) {
      bool runtimeOne = false;
      fits = tokenFits(want[i], got[i], r[i], c.generalized, runtimeOne);
      if (runtimeOne)
        c.runtimeOnes |= uint64_t(1) << i;
    }
    if (fits)
      candidates.push_back(c);
  }
  // Ties keep the bundle's order (std::sort with the position as the last key).
  std::sort(candidates.begin(), candidates.end(), [](const Candidate &a, const Candidate &b) {
    if (a.rank != b.rank)
      return a.rank < b.rank;
    return a.generalized != b.generalized ? a.generalized < b.generalized : a.entry < b.entry;
  });
  std::string actual;
  for (const std::string &g : got)
    actual += (actual.empty() ? "" : ", ") + g;
  if (candidates.empty())
    throw Error(ErrorCode::NotFound,
                "bundle " + k.fileName + " has no entry for " + device->name + " (target " + device->info.target +
                    ", " + device->plugin->name() + " plugin) and this launch (" + actual +
                    (o.warpsGiven ? ", num_warps " + std::to_string(o.numWarps) : std::string()) +
                    "); it holds:" + entryList(bundle));
  const Plugin &plugin = *device->plugin;
  std::string refusals;
  for (const Candidate &c : candidates) {
    auto spec = std::make_unique<Specialization>();
    spec->device = device;
    spec->key = key;
    spec->runtimeOnes = c.runtimeOnes;
    for (size_t i = 0; i < k.params.size(); ++i)
      if (r[i].tag == Resolved::Tag::ConstSource)
        spec->sourceTexts.emplace_back(uint32_t(i), *r[i].text);
    trident_module loaded = nullptr; // a refused load's output is never unloaded
    trident_status s = plugin.tryCall(&trident_plugin_api::module_load, device->handle(), c.entry->binary.data(),
                                      c.entry->binary.size(), &loaded);
    spec->module = s == TRIDENT_SUCCESS ? loaded : nullptr;
    if (s != TRIDENT_SUCCESS) {
      refusals += "\n  " + c.entry->target + ": " + plugin.lastError();
      continue;
    }
    plugin.call(&trident_plugin_api::module_get_kernel, "module_get_kernel",
                "finding kernel '" + k.name + "' in bundle " + k.fileName + " on " + device->name, spec->module,
                k.name.c_str(), &spec->kernel);
    std::unique_lock lock(k.mutex);
    k.specializations.push_back(std::move(spec));
    return *k.specializations.back();
  }
  throw Error(ErrorCode::NotSupported, "bundle " + k.fileName + ": " + device->name +
                                           " refused every entry that fits this launch:" + refusals);
}

} // namespace detail

namespace {

Kernel kernelOfBundle(Bundle bundle, const std::string &what, std::span<const uint8_t> bytes) {
  auto impl = std::make_shared<KernelImpl>();
  impl->name = bundle.kernel;
  impl->fileName = what;
  Sha256 sha; // identifies the bundle in autotuning's disk-cache entries
  sha.field("bundle");
  sha.update(bytes.data(), bytes.size());
  impl->sourceHash = sha.hexDigest();
  // A constexpr parameter defaults to the value every entry was compiled with.
  for (size_t i = 0; i < bundle.params.size(); ++i) {
    Param p;
    p.name = bundle.params[i].name;
    p.isConstexpr = bundle.params[i].isConstexpr;
    if (p.isConstexpr && !bundle.entries.empty()) {
      std::optional<std::string> common;
      bool same = true;
      for (const BundleEntry &e : bundle.entries) {
        std::vector<std::string> tokens = splitSignature(e.signature);
        std::string t = i < tokens.size() ? tokens[i] : "";
        if (common && *common != t)
          same = false;
        common = t;
      }
      if (same && common && !common->empty())
        p.defaultValue = parseConstexprSource(*common);
    }
    impl->params.push_back(std::move(p));
  }
  indexParams(*impl);
  auto paramIndex = [&](const std::string &name, const char *role) {
    for (size_t i = 0; i < impl->params.size(); ++i)
      if (impl->params[i].name == name)
        return i;
    throw Error(ErrorCode::InvalidArgument, what + " is not a usable Trident bundle: its " + role + " names '" +
                                                name + "', which is not a parameter of '" + impl->name + "'");
  };
  for (const BundleConfig &c : bundle.configs)
    impl->configs.push_back(makeTuneConfig(c.kwargs, int(c.numWarps), int(c.numStages)));
  for (const std::string &key : bundle.tuneKey)
    impl->tuneKeyParams.push_back(paramIndex(key, "autotune key"));
  for (const auto &[param, lambda] : bundle.heuristics) {
    impl->heuristicParams.push_back(paramIndex(param, "heuristics"));
    impl->heuristics.emplace_back(param, lambda, impl->paramNames);
  }
  impl->bundle = std::make_shared<const Bundle>(std::move(bundle));
  return Kernel(std::move(impl));
}

} // namespace

std::vector<std::string> signatureEntries(const std::string &signature) {
  return splitSignature(signature);
}

Kernel Kernel::fromBundle(const std::string &path) {
  std::vector<uint8_t> bytes = readBundleBytes(path);
  return fromBundle(bytes, path);
}

Kernel Kernel::fromBundle(std::span<const uint8_t> bytes, const std::string &name) {
  return kernelOfBundle(readBundle(bytes, name), name, bytes);
}

} // namespace trident
