#include "PluginLoader.h"

#include "trident/Runtime.h"

#include <boost/dll/runtime_symbol_info.hpp>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <set>
#include <system_error>

namespace trident::detail {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kPrefix = "libtrident-plugin-";
constexpr std::string_view kSuffix = ".so";

std::optional<std::string> pluginNameOfFile(const fs::path &p) {
  std::string f = p.filename().string();
  if (f.size() <= kPrefix.size() + kSuffix.size() || !f.starts_with(kPrefix) || !f.ends_with(kSuffix))
    return std::nullopt;
  return f.substr(kPrefix.size(), f.size() - kPrefix.size() - kSuffix.size());
}

std::string abiString(unsigned major, unsigned minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

// The table entries a plugin cannot work without, in table order.
bool hasRequiredEntries(const trident_plugin_api *api, std::string &missing) {
  struct Entry { size_t end; bool present; const char *name; };
  const Entry entries[] = {
      {offsetof(trident_plugin_api, last_error) + sizeof(void *), api->last_error != nullptr, "last_error"},
      {offsetof(trident_plugin_api, init) + sizeof(void *), api->init != nullptr, "init"},
      {offsetof(trident_plugin_api, shutdown) + sizeof(void *), api->shutdown != nullptr, "shutdown"},
      {offsetof(trident_plugin_api, device_count) + sizeof(void *), api->device_count != nullptr, "device_count"},
      {offsetof(trident_plugin_api, device_props) + sizeof(void *), api->device_props != nullptr, "device_props"},
  };
  for (const Entry &e : entries) {
    if (api->struct_size < e.end || !e.present) {
      missing = e.name;
      return false;
    }
  }
  return true;
}

// Loads one file; fills `report` and returns the plugin when it is usable.
std::shared_ptr<Plugin> loadOne(const fs::path &path, PluginReport &report) {
  std::error_code ec;
  boost::dll::shared_library lib;
  lib.load(path, ec, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
  if (ec) {
    report.reason = "cannot be loaded: " + ec.message();
    return nullptr;
  }
  if (!lib.has(TRIDENT_PLUGIN_ENTRY_SYMBOL)) {
    report.reason = std::string("not a Trident plugin: it exports no '") + TRIDENT_PLUGIN_ENTRY_SYMBOL + "' symbol";
    return nullptr;
  }
  auto entry = lib.get<const trident_plugin_info *(uint32_t, uint32_t)>(TRIDENT_PLUGIN_ENTRY_SYMBOL);
  const trident_plugin_info *info = entry(TRIDENT_PLUGIN_ABI_MAJOR, TRIDENT_PLUGIN_ABI_MINOR);
  const std::string ours = abiString(TRIDENT_PLUGIN_ABI_MAJOR, TRIDENT_PLUGIN_ABI_MINOR);
  if (!info || info->struct_size < offsetof(trident_plugin_info, abi_minor) + sizeof(uint16_t)) {
    report.reason = "the entry point returned no plugin description";
    return nullptr;
  }
  if (info->abi_major != TRIDENT_PLUGIN_ABI_MAJOR) {
    report.reason = "built for plugin ABI " + abiString(info->abi_major, info->abi_minor) +
                    ", but this runtime uses plugin ABI " + ours +
                    " (a different major version); rebuild the plugin against this Trident";
    return nullptr;
  }
  if (info->struct_size < offsetof(trident_plugin_info, api) + sizeof(void *) || !info->api) {
    report.reason = "its plugin description has no function table";
    return nullptr;
  }
  if (info->name && *info->name)
    report.name = info->name;
  if (info->version)
    report.version = info->version;
  std::string missing;
  if (!hasRequiredEntries(info->api, missing)) {
    report.reason = "its function table lacks the required entry '" + missing + "'";
    return nullptr;
  }
  trident_init_params params{};
  params.struct_size = sizeof(params);
  params.runtime_abi_major = TRIDENT_PLUGIN_ABI_MAJOR;
  params.runtime_abi_minor = TRIDENT_PLUGIN_ABI_MINOR;
  params.runtime_version = trident::version();
  trident_context ctx = nullptr;
  if (info->api->init(&params, &ctx) != TRIDENT_SUCCESS) {
    const char *m = info->api->last_error();
    report.reason = std::string("initialization failed: ") + (m && *m ? m : "(no message)");
    return nullptr;
  }
  auto plugin = std::make_shared<Plugin>(std::move(lib), info, ctx, path.string());
  report.buildId = plugin->buildId();
  uint32_t count = 0;
  const char *why = nullptr;
  if (info->api->device_count(ctx, &count, &why) != TRIDENT_SUCCESS) {
    report.reason = "listing devices failed: " + plugin->lastError();
    return nullptr;
  }
  report.deviceCount = count;
  if (count == 0)
    report.reason = std::string("0 devices: ") + (why && *why ? why : "(no reason given)");
  report.loaded = true;
  return plugin;
}

} // namespace

std::string defaultPluginDir() {
  std::error_code ec;
  fs::path self = boost::dll::this_line_location(ec);
  if (ec)
    return {};
  fs::path lib = self.lexically_normal().parent_path();
  fs::path dir = lib / "trident" / "plugins";
  if (fs::is_directory(dir, ec))
    return dir.string();
  // The runtime linked into an executable in bin/: try the sibling lib/.
  fs::path sibling = lib.parent_path() / "lib" / "trident" / "plugins";
  if (fs::is_directory(sibling, ec))
    return sibling.string();
  return dir.string();
}

LoadedPlugins loadPlugins(const std::vector<std::string> &dirs,
                          const std::optional<std::vector<std::string>> &names) {
  LoadedPlugins out;
  std::set<std::string> seenNames;
  std::set<fs::path> seenFiles;
  for (const std::string &dir : dirs) {
    std::error_code ec;
    if (dir.empty() || !fs::is_directory(dir, ec))
      continue;
    std::vector<fs::path> files;
    for (const auto &e : fs::directory_iterator(dir, ec))
      if (pluginNameOfFile(e.path()))
        files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path &file : files) {
      fs::path canonical = fs::weakly_canonical(file, ec);
      if (!seenFiles.insert(ec ? file : canonical).second)
        continue; // the same folder listed twice
      std::string fileName = *pluginNameOfFile(file);
      if (names && std::find(names->begin(), names->end(), fileName) == names->end())
        continue;
      PluginReport report;
      report.path = file.string();
      report.name = fileName;
      if (seenNames.count(fileName)) {
        report.reason = "a plugin named '" + fileName + "' was already loaded from an earlier folder";
        out.reports.push_back(std::move(report));
        continue;
      }
      std::shared_ptr<Plugin> plugin = loadOne(file, report);
      if (plugin) {
        if (seenNames.count(plugin->name())) {
          report.loaded = false;
          report.reason = "a plugin named '" + plugin->name() + "' was already loaded";
          plugin.reset();
        } else {
          seenNames.insert(plugin->name());
          out.plugins.push_back(std::move(plugin));
        }
      }
      seenNames.insert(fileName);
      out.reports.push_back(std::move(report));
    }
  }
  return out;
}

} // namespace trident::detail
