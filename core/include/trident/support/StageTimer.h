#pragma once
// The stages of one compile, each named, timed and dumped:
//
//   TRIDENT_TIME_STAGES=1   prints how long each stage took (stderr): wall time and this
//                           process's CPU time (the fair measure on a loaded machine)
//   TRIDENT_DUMP_IR=DIR     writes the IR after each stage to DIR/<kernel>/NN-<who>-<stage>.<ext>,
//                           NN counting the files already there, so the runtime's stages and
//                           the plugin's follow each other in one folder per kernel
//
//   StageTimer timer("nvptx", kernel);   ... timer.lap("optimize", "ll", [&] { return text(m); });
//   -> trident nvptx: optimize                  27.10 ms wall    27.05 ms cpu
//   -> DIR/add_kernel/14-nvptx-optimize.ll
//
// The dump's text is made only when dumping, so the stages cost nothing otherwise.

#include <chrono>
#include <ctime>
#include <string>
#include <string_view>

namespace trident {

class StageTimer {
public:
  explicit StageTimer(const char *who, std::string_view kernel = {});

  // Ends stage `stage`: prints its time (since the last lap, or construction) when enabled.
  void lap(const char *stage);
  // The same, and writes `text()` as the stage's IR (a file ending in `extension`) when dumping.
  template <class F> void lap(const char *stage, const char *extension, F &&text) {
    if (dumping())
      dump(stage, extension, text());
    lap(stage);
  }
  bool dumping() const { return !dumpDir_.empty(); }

private:
  void reset();
  void dump(std::string_view stage, std::string_view extension, const std::string &text) const;
  const char *who_;
  std::string kernel_;
  bool on_;
  std::string dumpDir_;
  std::chrono::steady_clock::time_point wall_;
  std::clock_t cpu_ = 0;
};

} // namespace trident
