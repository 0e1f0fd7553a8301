// The disk cache under stress: a folder that cannot be written (read-only, or
// full: writes that fail part way), and many processes writing the same keys at
// once. A cache that cannot be written is never an error: the runtime warns once
// and goes on compiling; an entry is either whole or absent.

#include "TestUtil.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>

using namespace trident;

namespace fs = std::filesystem;

namespace {

size_t filesUnder(const std::string &dir) {
  size_t n = 0;
  std::error_code ec;
  for (auto &f : fs::recursive_directory_iterator(dir, ec))
    n += f.is_regular_file();
  return n;
}

std::string warningOf(const std::string &output) {
  size_t p = output.find("warning: ");
  return p == std::string::npos ? "" : output.substr(p + 9, output.find('\n', p) - p - 9);
}

// Makes `dir` and everything under it read-only (and back, for the TempDir to remove it).
void setWritable(const std::string &dir, bool writable) {
  const fs::perms w = fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write;
  std::vector<fs::path> paths = {dir};
  for (auto &f : fs::recursive_directory_iterator(dir))
    paths.push_back(f.path());
  for (const fs::path &p : paths)
    fs::permissions(p, w, writable ? fs::perm_options::add : fs::perm_options::remove);
}

const std::vector<std::string> kReadOnly = {"TRIDENT_TEST_NO_DAC_OVERRIDE=1"};

} // namespace

TEST_CASE("a read-only cache folder: compiles go on, one warning, entries already there still load") {
  test::TempDir cache;
  setWritable(cache.path(), false);
  std::string out;
  // One runtime, two kernels to store: the first failure warns, the second is not tried.
  REQUIRE(test::runChild({"--child-launch", cache.path(), "both"}, kReadOnly, out) == 0);
  INFO(out);
  CHECK(test::childValue(out, "ok") == 1);
  CHECK(test::childValue(out, "backend") == 2);
  CHECK(test::childValue(out, "writes") == 0);
  CHECK(test::childValue(out, "cachewarnings") == 1);
  const std::string w = warningOf(out);
  CHECK(w.starts_with("cannot write the disk cache in " + cache.path() + " (creating " + cache.path() + "/kernels/"));
  CHECK(w.ends_with(": Permission denied); going on without writing to it (kernels are compiled as usual; "
                    "TRIDENT_CACHE_DIR chooses another folder, TRIDENT_CACHE=0 turns the cache off)"));
  CHECK(filesUnder(cache.path()) == 0);

  // An entry written while the folder was writable is loaded once it is read-only.
  setWritable(cache.path(), true);
  out.clear();
  REQUIRE(test::runChild({"--child-launch", cache.path(), "ir"}, {}, out) == 0);
  CHECK(test::childValue(out, "writes") == 1);
  setWritable(cache.path(), false);
  out.clear();
  REQUIRE(test::runChild({"--child-launch", cache.path(), "ir"}, kReadOnly, out) == 0);
  CHECK(test::childValue(out, "ok") == 1);
  CHECK(test::childValue(out, "diskhits") == 1);
  CHECK(test::childValue(out, "backend") == 0);
  CHECK(test::childValue(out, "cachewarnings") == 0);
  setWritable(cache.path(), true);
}

TEST_CASE("a full disk: a write that fails part way leaves no partial file and warns once") {
  test::TempDir cache;
  // No file may grow past 100 bytes: every entry's write fails inside its payload.
  const std::vector<std::string> full = {"TRIDENT_TEST_FILE_SIZE_LIMIT=100"};
  std::string out;
  REQUIRE(test::runChild({"--child-launch", cache.path(), "source", "1"}, full, out) == 0);
  INFO(out);
  CHECK(test::childValue(out, "ok") == 1);
  CHECK(test::childValue(out, "writes") == 0);
  CHECK(test::childValue(out, "cachewarnings") == 1);
  const std::string w = warningOf(out);
  CHECK(w.starts_with("cannot write the disk cache in " + cache.path() + " (writing " + cache.path() + "/kernels/"));
  CHECK(w.find(".tmp.") != std::string::npos);
  CHECK(w.find(": File too large); going on without writing to it") != std::string::npos);
  CHECK(filesUnder(cache.path()) == 0); // the partial temporary file was removed
  // Once there is room, the same kernel is cached as usual.
  out.clear();
  REQUIRE(test::runChild({"--child-launch", cache.path(), "source", "1"}, {}, out) == 0);
  CHECK(test::childValue(out, "writes") == 1);
  CHECK(test::childValue(out, "cachewarnings") == 0);
}

TEST_CASE("a cache folder that is a file: no cache, no failure") {
  test::TempDir dir;
  const std::string file = dir.path() + "/not-a-folder";
  { std::ofstream(file) << "x"; }
  std::string out;
  REQUIRE(test::runChild({"--child-launch", file, "ir"}, {}, out) == 0);
  INFO(out);
  CHECK(test::childValue(out, "ok") == 1);
  CHECK(test::childValue(out, "cachewarnings") == 1);
  CHECK(warningOf(out).find("Not a directory") != std::string::npos);
}

TEST_CASE("many processes writing the same keys at once: every one computes right, no torn entry loads") {
  test::TempDir cache;
  // Three keys (num_warps 1, 2, 4); child i takes them in the order i, i + 1, i + 2,
  // so while some children write a key, others read it.
  const int children = 8, rounds = 3;
  std::vector<std::vector<std::string>> args;
  for (int i = 0; i < children; ++i)
    args.push_back({"--child-launch", cache.path(), "source", std::to_string(rounds), std::to_string(i)});
  // And two readers checking every entry in a loop until all three are there: a
  // writer that is not atomic shows them a torn entry.
  const int pollers = 2;
  for (int i = 0; i < pollers; ++i)
    args.push_back({"--child-poll", cache.path(), std::to_string(rounds)});
  std::vector<std::string> outputs;
  std::vector<int> codes = test::runChildrenAtOnce(args, {}, outputs);
  for (int i = children; i < children + pollers; ++i) {
    INFO("reader: " << outputs[size_t(i)]);
    CHECK(codes[size_t(i)] == 0);
    CHECK(test::childValue(outputs[size_t(i)], "polls") > 0);
    CHECK(test::childValue(outputs[size_t(i)], "torn") == 0);
  }
  codes.resize(size_t(children));
  long hits = 0;
  for (size_t i = 0; i < codes.size(); ++i) {
    INFO("child " << i << ": " << outputs[i]);
    CHECK(codes[i] == 0);
    CHECK(test::childValue(outputs[i], "ok") == 1);
    CHECK(test::childValue(outputs[i], "damaged") == 0); // never a torn or partial entry
    CHECK(test::childValue(outputs[i], "cachewarnings") == 0);
    hits += test::childValue(outputs[i], "diskhits");
  }
  MESSAGE("disk hits among the racing children: " << hits << " of " << children * rounds);
  // One whole, valid entry per key and nothing else (no temporary files).
  Runtime rt(test::testOptions(cache.path()));
  auto entries = rt.diskCacheEntries();
  CHECK(entries.size() == size_t(rounds));
  for (const DiskCacheEntryInfo &e : entries)
    CHECK(e.valid);
  CHECK(filesUnder(cache.path()) == size_t(rounds));
  // A later process finds every one.
  std::string out;
  REQUIRE(test::runChild({"--child-launch", cache.path(), "source", std::to_string(rounds)}, {}, out) == 0);
  CHECK(test::childValue(out, "diskhits") == rounds);
  CHECK(test::childValue(out, "backend") == 0);
}
