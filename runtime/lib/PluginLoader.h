#pragma once
// Finds plugin files, loads them with Boost.DLL, checks the ABI handshake and
// initializes them. Nothing a plugin does wrong at this stage is fatal: it is
// recorded in a PluginReport and the plugin is skipped.

#include "Plugin.h"
#include "trident/Runtime.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace trident::detail {

struct LoadedPlugins {
  std::vector<PluginReport> reports;
  std::vector<std::shared_ptr<Plugin>> plugins; // usable ones (with or without devices)
};

// The install's plugin folder: lib/trident/plugins beside the runtime library.
std::string defaultPluginDir();

// Plugin files are named libtrident-plugin-<name>.so; `names` (when given) keeps
// only those plugin names. The first plugin of a name wins.
LoadedPlugins loadPlugins(const std::vector<std::string> &dirs,
                          const std::optional<std::vector<std::string>> &names);

} // namespace trident::detail
