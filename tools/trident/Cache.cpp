#include "Commands.h"

#include "trident/Error.h"
#include "trident/Runtime.h"

#include <cstdio>

namespace trident::tool {

int cacheCommand(const Args &args) {
  Options opts(args);
  if (opts.flag("help") || opts.flag("h")) {
    std::fputs("usage: trident cache show|clear [--stale]\n"
               "\n"
               "  show           list the entries of the disk cache (TRIDENT_CACHE_DIR), with the build\n"
               "                 that wrote each; entries of other builds are never loaded\n"
               "  clear          remove every entry\n"
               "  clear --stale  remove only what this build never loads: entries of other builds, damaged ones\n",
               stdout);
    return 0;
  }
  opts.allowOnly({}, {"stale", "help", "h"});
  if (opts.positional().size() != 1 || (opts.positional()[0] != "show" && opts.positional()[0] != "clear"))
    throw UsageError("usage: trident cache show|clear [--stale]");
  Runtime &rt = Runtime::get();
  if (rt.cacheDir().empty()) {
    std::printf("the disk cache is disabled (TRIDENT_CACHE=0)\n");
    return 0;
  }
  if (opts.flag("stale") && opts.positional()[0] != "clear")
    throw UsageError("--stale goes with `trident cache clear`");
  if (opts.positional()[0] == "clear") {
    const bool stale = opts.flag("stale");
    size_t n = stale ? rt.clearStaleDiskCacheEntries() : rt.clearDiskCache();
    std::printf("removed %zu %sentr%s from %s\n", n, stale ? "stale " : "", n == 1 ? "y" : "ies",
                rt.cacheDir().c_str());
    return 0;
  }
  auto entries = rt.diskCacheEntries();
  const std::string thisBuild = buildId();
  unsigned long long total = 0;
  size_t damaged = 0, otherBuilds = 0;
  for (const auto &e : entries) {
    total += e.bytes;
    damaged += !e.valid;
    otherBuilds += e.valid && e.buildId != thisBuild;
  }
  std::printf("cache %s: %zu entr%s, %s", rt.cacheDir().c_str(), entries.size(), entries.size() == 1 ? "y" : "ies",
              formatByteSize(total).c_str());
  if (damaged)
    std::printf(", %zu damaged (recompiled on next use)", damaged);
  if (otherBuilds)
    std::printf(", %zu of other builds (never loaded; `trident cache clear --stale` removes them)", otherBuilds);
  std::printf("\nthis build: %s\n", thisBuild.c_str());
  // The plugins' own build ids are in every key too: a rebuilt plugin misses.
  for (const PluginReport &p : rt.plugins())
    if (p.loaded)
      std::printf("plugin %s: build id %s\n", p.name.c_str(), p.buildId.empty() ? "(none)" : p.buildId.c_str());
  for (const auto &e : entries) {
    if (!e.valid) {
      std::printf("  %-24s %-8s %-14s %10s  %-20s %s\n", "(damaged)", "", "", formatByteSize(e.bytes).c_str(), "",
                  e.path.c_str());
      continue;
    }
    // The build column: the first 12 hex digits of the id of the build that wrote it.
    std::string build = e.buildId.empty()         ? "(no build id)"
                        : e.buildId == thisBuild ? e.buildId.substr(0, 12)
                                                 : e.buildId.substr(0, 12) + " (other)";
    std::printf("  %-24s %-8s %-14s %10s  %-20s %s\n", e.kernel.c_str(), e.plugin.c_str(), e.target.c_str(),
                formatByteSize(e.bytes).c_str(), build.c_str(), e.path.c_str());
  }
  return 0;
}

} // namespace trident::tool
