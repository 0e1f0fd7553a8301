// The runtime test binary. Run without arguments it runs the doctest suite;
// with a --child-* argument it is a child process of a multi-process test:
//
//   --child-launch CACHE_DIR KIND [ROUNDS [FIRST]]
//         launch the add kernel (KIND: ir | source | both) with a disk cache in CACHE_DIR,
//         check the result, print the cache counters as key=value, the number of
//         cache warnings and the first one ("warning: ..."). With ROUNDS, do it
//         ROUNDS times, each with a fresh runtime and another num_warps (so another
//         cache entry: round r uses the (FIRST + r) % 3-th of 1, 2, 4 warps), summing
//         the counters.
//   --child-poll CACHE_DIR ENTRIES
//         list the disk cache in a tight loop (every entry read and checked) until it
//         holds ENTRIES valid entries (or 60 s pass); print polls=N torn=M, M being
//         the listings that showed an entry whose checksum or format was wrong
//   Faults the child makes for itself first (environment):
//     TRIDENT_TEST_FILE_SIZE_LIMIT=N  no file may grow past N bytes (RLIMIT_FSIZE):
//                                     writes fail as on a full disk
//     TRIDENT_TEST_NO_DAC_OVERRIDE=1  drop the capabilities that let root ignore
//                                     file permissions, so a read-only folder is one

#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "TestUtil.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>


namespace {

bool makeFaults() {
  if (const char *limit = std::getenv("TRIDENT_TEST_FILE_SIZE_LIMIT")) {
    std::signal(SIGXFSZ, SIG_IGN); // a write past the limit then fails with EFBIG
    rlimit r{rlim_t(std::strtoull(limit, nullptr, 10)), rlim_t(std::strtoull(limit, nullptr, 10))};
    if (setrlimit(RLIMIT_FSIZE, &r) != 0)
      return false;
  }
  if (std::getenv("TRIDENT_TEST_NO_DAC_OVERRIDE") && geteuid() == 0) {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2] = {};
    if (syscall(SYS_capget, &header, data) != 0)
      return false;
    for (int cap : {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER})
      data[cap / 32].effective &= ~(1u << (cap % 32));
    if (syscall(SYS_capset, &header, data) != 0)
      return false;
  }
  return true;
}

struct Totals {
  trident::CacheStats stats;
  int warnings = 0;
  std::string firstWarning;
};

bool launchOnce(const std::string &cacheDir, const std::string &kind, int numWarps, Totals &totals) {
  using namespace trident;
  {
    RuntimeOptions options = test::testOptions(cacheDir);
    options.pluginNames = std::vector<std::string>{"host"};
    options.log = [&](const LogMessage &m) {
      if (m.level == LogMessage::Level::Warning && m.topic == "cache" && totals.warnings++ == 0)
        totals.firstWarning = m.text;
    };
    Runtime rt(options);
    Device dev = rt.device("host:0");
    const int n = 1000;
    std::vector<float> x(n), y(n), out(n, -1.0f);
    for (int i = 0; i < n; ++i) {
      x[i] = float(i) * 0.5f;
      y[i] = float(n - i);
    }
    Buffer bx = Buffer::fromHost(dev, std::span<const float>(x));
    Buffer by = Buffer::fromHost(dev, std::span<const float>(y));
    Buffer bo = Buffer::fromHost(dev, std::span<const float>(out));
    bool ok = true;
    auto check = [&] {
      bo.copyToHost(std::span<float>(out));
      for (int i = 0; i < n; ++i)
        ok &= out[i] == x[i] + y[i];
      bo.fillBytes(0xff);
    };
    if (kind == "source" || kind == "both") {
      Kernel k = Kernel::fromFile(std::string(TRIDENT_TEST_SOURCE_DIR) + "/samples/vector_add.py", "add_kernel");
      k.launch(dev, Grid(cdiv(n, 128)), {bx, by, bo, n},
               {.numWarps = numWarps, .constexprs = {{"BLOCK_SIZE", 128}}});
      check();
    }
    if (kind == "ir" || kind == "both") {
      Kernel k = Kernel::fromBlockIR(test::addKernelIR(), "add");
      k.launch(dev, Grid(cdiv(n, 64)), {bx, by, bo, n}, {.numWarps = numWarps});
      check();
    }
    CacheStats s = rt.cacheStats();
    totals.stats.backendCompiles += s.backendCompiles;
    totals.stats.frontendCompiles += s.frontendCompiles;
    totals.stats.diskHits += s.diskHits;
    totals.stats.damagedEntries += s.damagedEntries;
    totals.stats.diskWrites += s.diskWrites;
    return ok;
  }
}

int childLaunch(const std::string &cacheDir, const std::string &kind, int rounds, int first) {
  if (!makeFaults()) {
    std::printf("error=cannot make the faults: %s\n", std::strerror(errno));
    return 5;
  }
  Totals totals;
  bool ok = true;
  try {
    for (int r = 0; r < rounds; ++r)
      ok &= launchOnce(cacheDir, kind, rounds == 1 ? 4 : 1 << ((first + r) % 3), totals);
  } catch (const std::exception &e) {
    std::printf("error=%s\n", e.what());
    return 4;
  }
  const trident::CacheStats &s = totals.stats;
  std::printf("ok=%d backend=%llu frontend=%llu diskhits=%llu damaged=%llu writes=%llu cachewarnings=%d\n", int(ok),
              (unsigned long long)s.backendCompiles, (unsigned long long)s.frontendCompiles,
              (unsigned long long)s.diskHits, (unsigned long long)s.damagedEntries, (unsigned long long)s.diskWrites,
              totals.warnings);
  if (totals.warnings)
    std::printf("warning: %s\n", totals.firstWarning.c_str());
  return ok ? 0 : 3;
}

int childPoll(const std::string &cacheDir, size_t entries) {
  using namespace trident;
  RuntimeOptions options = test::testOptions(cacheDir);
  options.pluginNames = std::vector<std::string>{"host"};
  Runtime rt(options);
  long polls = 0, torn = 0;
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (bool done = false; !done && std::chrono::steady_clock::now() < end; ++polls) {
    size_t valid = 0;
    bool bad = false;
    for (const DiskCacheEntryInfo &e : rt.diskCacheEntries()) {
      valid += e.valid;
      bad |= !e.valid;
    }
    torn += bad;
    done = valid >= entries;
  }
  std::printf("polls=%ld torn=%ld\n", polls, torn);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc >= 4 && argc <= 6 && std::strcmp(argv[1], "--child-launch") == 0)
    return childLaunch(argv[2], argv[3], argc >= 5 ? std::atoi(argv[4]) : 1, argc == 6 ? std::atoi(argv[5]) : 0);
  if (argc == 4 && std::strcmp(argv[1], "--child-poll") == 0)
    return childPoll(argv[2], size_t(std::atoi(argv[3])));
  doctest::Context context(argc, argv);
  return context.run();
}
