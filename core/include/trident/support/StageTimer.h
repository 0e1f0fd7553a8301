#pragma once
// TRIDENT_TIME_STAGES=1 makes a compilation print how long each of its stages took
// (stderr): wall time and this process's CPU time (the fair measure on a loaded
// machine). Used by the backends:
//
//   StageTimer timer("nvptx");   ... timer.lap("optimize");   ... timer.lap("PTX");
//   -> trident nvptx: optimize      27.10 ms wall    27.05 ms cpu

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace trident {

class StageTimer {
public:
  explicit StageTimer(const char *who) : who_(who), on_(std::getenv("TRIDENT_TIME_STAGES") != nullptr) { reset(); }

  // Prints the time since the last lap (or construction) as `stage`, when enabled.
  void lap(const char *stage) {
    if (!on_)
      return;
    std::fprintf(stderr, "trident %s: %-10s %8.2f ms wall %8.2f ms cpu\n", who_, stage,
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall_).count(),
                 1e3 * static_cast<double>(std::clock() - cpu_) / CLOCKS_PER_SEC);
    reset();
  }

private:
  void reset() {
    wall_ = std::chrono::steady_clock::now();
    cpu_ = std::clock();
  }
  const char *who_;
  bool on_;
  std::chrono::steady_clock::time_point wall_;
  std::clock_t cpu_ = 0;
};

} // namespace trident
