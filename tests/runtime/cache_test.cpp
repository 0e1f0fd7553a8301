// The disk cache: shared between processes, safe under concurrent writers,
// and robust against damaged entries.

#include "TestUtil.h"

#include <doctest/doctest.h>

#include <fstream>

using namespace trident;

namespace {

void launchAdd(Runtime &rt) {
  Device dev = rt.device("host:0");
  Kernel add = Kernel::fromBlockIR(test::addKernelIR(), "add");
  std::vector<float> x(200, 1.0f), y(200, 2.0f);
  Buffer bx = Buffer::fromHost(dev, std::span<const float>(x));
  Buffer by = Buffer::fromHost(dev, std::span<const float>(y));
  Buffer bo(dev, 200, DType::F32);
  add.launch(dev, Grid(4), {bx, by, bo, 200});
  for (float v : bo.toHost<float>())
    REQUIRE(v == 3.0f);
}

// A runtime caching in `dir` as the build `buildId` would.
RuntimeOptions optionsOfBuild(const std::string &dir, const std::string &buildId) {
  RuntimeOptions o = test::testOptions(dir);
  o.buildId = buildId;
  return o;
}

} // namespace

TEST_CASE("a second process compiles nothing for a kernel the first compiled") {
  test::TempDir cache;
  std::string out1, out2;
  REQUIRE(test::runChild({"--child-launch", cache.path(), "ir"}, {}, out1) == 0);
  CHECK(test::childValue(out1, "ok") == 1);
  CHECK(test::childValue(out1, "backend") == 1);
  CHECK(test::childValue(out1, "writes") == 1);
  REQUIRE(test::runChild({"--child-launch", cache.path(), "ir"}, {}, out2) == 0);
  CHECK(test::childValue(out2, "ok") == 1);
  CHECK(test::childValue(out2, "backend") == 0);
  CHECK(test::childValue(out2, "frontend") == 0);
  CHECK(test::childValue(out2, "diskhits") == 1);
}

TEST_CASE("several processes writing the cache at once leave it valid") {
  test::TempDir cache;
  std::vector<std::vector<std::string>> args(8, {"--child-launch", cache.path(), "ir"});
  std::vector<std::string> outputs;
  std::vector<int> codes = test::runChildrenAtOnce(args, {}, outputs);
  for (size_t i = 0; i < codes.size(); ++i) {
    INFO("child " << i << ": " << outputs[i]);
    CHECK(codes[i] == 0);
    CHECK(test::childValue(outputs[i], "ok") == 1);
  }
  // One entry, whole and valid, no temporary files left behind.
  Runtime rt(test::testOptions(cache.path()));
  auto entries = rt.diskCacheEntries();
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].valid);
  CHECK(entries[0].kernel == "add");
  CHECK(entries[0].plugin == "host");
  size_t files = 0;
  for (auto &f : std::filesystem::recursive_directory_iterator(cache.path()))
    files += f.is_regular_file();
  CHECK(files == 1);
  // And a later process uses it.
  std::string out;
  REQUIRE(test::runChild({"--child-launch", cache.path(), "ir"}, {}, out) == 0);
  CHECK(test::childValue(out, "backend") == 0);
  CHECK(test::childValue(out, "diskhits") == 1);
}

TEST_CASE("a damaged entry is recompiled, not loaded") {
  test::TempDir cache;
  {
    Runtime rt(test::testOptions(cache.path()));
    launchAdd(rt);
    CHECK(rt.cacheStats().diskWrites == 1);
  }
  Runtime probe(test::testOptions(cache.path()));
  auto entries = probe.diskCacheEntries();
  REQUIRE(entries.size() == 1);
  const std::string path = entries[0].path;
  SUBCASE("a flipped byte in the payload") {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(std::streamoff(entries[0].bytes / 2));
    char c = 0;
    f.read(&c, 1);
    c = char(c ^ 0x20);
    f.seekp(std::streamoff(entries[0].bytes / 2));
    f.write(&c, 1);
  }
  SUBCASE("a truncated file") {
    std::filesystem::resize_file(path, entries[0].bytes - 40);
  }
  SUBCASE("a file cut inside its header") {
    std::filesystem::resize_file(path, 20);
  }
  SUBCASE("an empty file") {
    std::filesystem::resize_file(path, 0);
  }
  SUBCASE("garbage") {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << "not a cache entry";
  }
  CHECK_FALSE(probe.diskCacheEntries()[0].valid);
  Runtime rt(test::testOptions(cache.path()));
  launchAdd(rt); // checks the results
  CacheStats s = rt.cacheStats();
  CHECK(s.damagedEntries == 1);
  CHECK(s.diskHits == 0);
  CHECK(s.backendCompiles == 1);
  CHECK(s.diskWrites == 1);
  auto after = rt.diskCacheEntries();
  REQUIRE(after.size() == 1);
  CHECK(after[0].valid);
  // The repaired entry serves the next runtime.
  Runtime again(test::testOptions(cache.path()));
  launchAdd(again);
  CHECK(again.cacheStats().diskHits == 1);
  CHECK(again.cacheStats().backendCompiles == 0);
}

TEST_CASE("cache entries differ by options and clear() removes them") {
  test::TempDir cache;
  Runtime rt(test::testOptions(cache.path()));
  Device dev = rt.device("host:0");
  Kernel add = Kernel::fromBlockIR(test::addKernelIR(), "add");
  Buffer b(dev, 64, DType::F32);
  b.fillBytes(0);
  add.launch(dev, Grid(1), {b, b, b, 64});
  add.launch(dev, Grid(1), {b, b, b, 64}, {.numWarps = 2});
  CHECK(rt.diskCacheEntries().size() == 2);
  CHECK(rt.clearDiskCache() == 2);
  CHECK(rt.diskCacheEntries().empty());
}

TEST_CASE("entries carry this build's id, a hash computed when Trident is built") {
  std::string id = buildId();
  CHECK(id.size() == 64);
  CHECK(id.find_first_not_of("0123456789abcdef") == std::string::npos);
  test::TempDir cache;
  Runtime rt(test::testOptions(cache.path()));
  launchAdd(rt);
  auto entries = rt.diskCacheEntries();
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].buildId == id);
}

TEST_CASE("the build id is in the key: binaries another build cached are never loaded") {
  test::TempDir cache;
  {
    Runtime a(optionsOfBuild(cache.path(), "build-a"));
    launchAdd(a);
    CHECK(a.cacheStats().diskWrites == 1);
  }
  // The same kernel, specialization, options and plugin, another build: another key.
  Runtime b(optionsOfBuild(cache.path(), "build-b"));
  launchAdd(b);
  CacheStats s = b.cacheStats();
  CHECK(s.diskHits == 0);
  CHECK(s.damagedEntries == 0);
  CHECK(s.backendCompiles == 1);
  CHECK(s.diskWrites == 1);
  auto entries = b.diskCacheEntries();
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].path != entries[1].path);
  std::string pathA, pathB;
  for (const DiskCacheEntryInfo &e : entries) {
    CHECK(e.valid);
    (e.buildId == "build-a" ? pathA : pathB) = e.path;
  }
  REQUIRE(!pathA.empty());
  REQUIRE(!pathB.empty());
  // Each build finds its own entry.
  {
    Runtime a(optionsOfBuild(cache.path(), "build-a"));
    launchAdd(a);
    CHECK(a.cacheStats().diskHits == 1);
    CHECK(a.cacheStats().backendCompiles == 0);
  }
  // build-a's entry, whole and valid, put where build-b looks: build-b compiles its own.
  std::filesystem::copy_file(pathA, pathB, std::filesystem::copy_options::overwrite_existing);
  Runtime b2(optionsOfBuild(cache.path(), "build-b"));
  launchAdd(b2);
  CHECK(b2.cacheStats().diskHits == 0);
  CHECK(b2.cacheStats().backendCompiles == 1);
  CHECK(b2.cacheStats().diskWrites == 1);
  for (const DiskCacheEntryInfo &e : b2.diskCacheEntries())
    CHECK(e.buildId == (e.path == pathA ? "build-a" : "build-b"));
}

TEST_CASE("clearing stale entries removes other builds' and damaged ones, and keeps this build's") {
  test::TempDir cache;
  {
    Runtime a(optionsOfBuild(cache.path(), "build-a"));
    launchAdd(a);
  }
  Runtime b(optionsOfBuild(cache.path(), "build-b"));
  launchAdd(b);
  {
    Runtime c(optionsOfBuild(cache.path(), "build-c"));
    launchAdd(c);
    auto entries = c.diskCacheEntries();
    REQUIRE(entries.size() == 3);
    for (const DiskCacheEntryInfo &e : entries)
      if (e.buildId == "build-c")
        std::filesystem::resize_file(e.path, e.bytes / 2); // now damaged
  }
  CHECK(b.clearStaleDiskCacheEntries() == 2);
  auto left = b.diskCacheEntries();
  REQUIRE(left.size() == 1);
  CHECK(left[0].valid);
  CHECK(left[0].buildId == "build-b");
  // What is left still serves build-b.
  Runtime again(optionsOfBuild(cache.path(), "build-b"));
  launchAdd(again);
  CHECK(again.cacheStats().diskHits == 1);
  CHECK(again.cacheStats().backendCompiles == 0);
}

TEST_CASE("each plugin's own build id is known (it is part of every cache key)") {
  Runtime rt(test::testOptions());
  bool sawHost = false;
  for (const PluginReport &p : rt.plugins())
    if (p.loaded && p.name == "host") {
      sawHost = true;
      // GNU ld's default --build-id is a 160-bit SHA-1: 40 hex digits.
      CHECK(p.buildId.size() >= 16);
      CHECK(p.buildId.find_first_not_of("0123456789abcdef") == std::string::npos);
    }
  CHECK(sawHost);
}
