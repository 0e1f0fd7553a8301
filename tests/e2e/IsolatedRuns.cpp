// The child writes one record per seed to a pipe (a line-based format; strings are
// length-prefixed), announcing each stage before it starts, so the parent can tell
// where a child that died was.

#include "IsolatedRuns.h"

#include "trident/Trident.h"
#include "trident/ir/Printer.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <execinfo.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace trident::e2e {

namespace {

class Writer {
public:
  explicit Writer(int fd) : fd_(fd) {}
  void line(const std::string &s) { write(s + "\n"); }
  void text(const std::string &tag, const std::string &s) { write(tag + " " + std::to_string(s.size()) + "\n" + s); }

private:
  void write(const std::string &s) {
    size_t done = 0;
    while (done < s.size()) {
      ssize_t n = ::write(fd_, s.data() + done, s.size() - done);
      if (n <= 0)
        _exit(3); // the parent is gone
      done += size_t(n);
    }
  }
  int fd_;
};

} // namespace

void restoreDefaultSignals() {
  // A test framework's crash handlers would report the child's crash as its own.
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM})
    std::signal(sig, SIG_DFL);
}

namespace {

// A crashing child prints its stack (shared objects and offsets: whether the crash is
// in Trident or in a driver) before it dies of the signal as it would have.
void printStackAndDie(int sig) {
  void *frames[64];
  int n = backtrace(frames, 64);
  static const char header[] = "trident-randtest: child crashed; stack:\n";
  ssize_t ignored = ::write(2, header, sizeof header - 1);
  (void)ignored;
  backtrace_symbols_fd(frames, n, 2);
  std::signal(sig, SIG_DFL);
  raise(sig);
}

[[noreturn]] void childMain(int fd, uint64_t first, uint64_t end, const IsolatedRunOptions &options) {
  restoreDefaultSignals();
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL})
    std::signal(sig, printStackAndDie);
  Writer out(fd);
  std::unique_ptr<Runtime> runtime;
  DeviceSelection devices;
  if (!options.noDevices || !options.compileTargets.empty()) {
    try {
      runtime = std::make_unique<Runtime>(e2eRuntimeOptions());
      devices = selectDevices(*runtime, options.noDevices ? "none" : options.device, options.compileTargets);
      if (options.noDevices)
        devices.skipped.clear();
    } catch (const Error &e) {
      out.text("FATAL", e.what());
      _exit(0);
    }
  }
  for (const auto &r : devices.runners)
    out.text("DEVICE", r->name());
  for (const std::string &s : devices.skipped)
    out.text("SKIPPED", s);
  std::vector<DeviceRunner *> runners = devices.pointers();
  for (uint64_t seed = first; seed < end; ++seed) {
    out.line("BEGIN " + std::to_string(seed));
    alarm(options.secondsPerSeed);
    SeedHooks hooks;
    hooks.stage = [&](const std::string &stage) { out.text("STAGE", stage); };
    hooks.verdict = [&](const DeviceVerdict &v) {
      out.line(std::string("VERDICT ") + (v.passed ? "1 " : "0 ") + (v.unsupported ? "1" : "0"));
      out.text("DEVICE_NAME", v.device);
      out.text("MESSAGE", v.message);
    };
    SeedResult r = runSeed(seed, options.generator, runners, hooks);
    alarm(0);
    out.text("PROBLEM", r.problem);
    std::string features;
    for (const std::string &f : r.features)
      features += (features.empty() ? "" : " ") + f;
    out.text("FEATURES", features);
    out.line("OUTPUTS " + std::to_string(r.outputs) + " " + std::to_string(r.skippedOutputs));
    out.line("END");
  }
  out.line("DONE");
  _exit(0);
}

// Reads the records of one child: lines "TAG [ARGS]"; texts are "TAG LENGTH" followed
// by that many bytes.
class Reader {
public:
  explicit Reader(int fd) : fd_(fd) {}
  // The next line, split into its tag and the rest; false at the end of input.
  bool line(std::string &tag, std::string &args) {
    std::string l;
    char c;
    bool any = false;
    while (get(c)) {
      any = true;
      if (c == '\n')
        break;
      l += c;
    }
    size_t space = l.find(' ');
    tag = l.substr(0, space);
    args = space == std::string::npos ? "" : l.substr(space + 1);
    return any;
  }
  // The payload of a text record whose line held its length.
  bool payload(const std::string &length, std::string &s) {
    size_t n = size_t(std::strtoull(length.c_str(), nullptr, 10));
    s.clear();
    char c;
    while (s.size() < n && get(c))
      s += c;
    return s.size() == n;
  }
  // A whole text record (its line and payload), expecting nothing about its tag.
  bool text(std::string &s) {
    std::string tag, args;
    return line(tag, args) && payload(args, s);
  }

private:
  bool get(char &c) {
    if (pos_ == len_) {
      ssize_t n;
      do
        n = ::read(fd_, buf_, sizeof buf_);
      while (n < 0 && errno == EINTR);
      if (n <= 0)
        return false;
      pos_ = 0, len_ = size_t(n);
    }
    c = buf_[pos_++];
    return true;
  }
  int fd_;
  char buf_[65536];
  size_t pos_ = 0, len_ = 0;
};

std::string deathOf(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    if (sig == SIGALRM)
      return "timed out";
    return std::string("crashed (signal ") + std::to_string(sig) + ", " + strsignal(sig) + ")";
  }
  return "exited with status " + std::to_string(WEXITSTATUS(status)) + " before finishing";
}

} // namespace

IsolatedRunSummary runSeedsIsolated(uint64_t first, uint64_t count, const IsolatedRunOptions &options,
                                    const std::function<void(const SeedResult &)> &onSeed) {
  IsolatedRunSummary summary;
  uint64_t next = first, end = first + count;
  bool firstChild = true;
  while (next < end) {
    int fds[2];
    if (pipe(fds) != 0) {
      summary.fatal = std::string("pipe: ") + strerror(errno);
      return summary;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
      summary.fatal = std::string("fork: ") + strerror(errno);
      return summary;
    }
    if (pid == 0) {
      close(fds[0]);
      childMain(fds[1], next, end, options);
    }
    close(fds[1]);
    Reader in(fds[0]);
    SeedResult current;
    bool inSeed = false, done = false;
    std::string stage, tag, args, s;
    while (in.line(tag, args)) {
      if (tag == "FATAL") {
        in.payload(args, summary.fatal);
      } else if (tag == "DEVICE") {
        in.payload(args, s);
        if (firstChild)
          summary.devices.push_back(s);
      } else if (tag == "SKIPPED") {
        in.payload(args, s);
        if (firstChild)
          summary.skipped.push_back(s);
      } else if (tag == "BEGIN") {
        current = SeedResult{};
        current.seed = std::strtoull(args.c_str(), nullptr, 10);
        inSeed = true;
        stage = "generating the kernel";
      } else if (tag == "STAGE") {
        in.payload(args, stage);
      } else if (tag == "PROBLEM") {
        in.payload(args, current.problem);
      } else if (tag == "VERDICT") {
        DeviceVerdict v;
        v.passed = args.size() >= 1 && args[0] == '1';
        v.unsupported = args.size() >= 3 && args[2] == '1';
        in.text(v.device);
        in.text(v.message);
        current.verdicts.push_back(std::move(v));
      } else if (tag == "FEATURES") {
        in.payload(args, s);
        std::istringstream words(s);
        for (std::string f; words >> f;)
          current.features.insert(f);
      } else if (tag == "OUTPUTS") {
        std::istringstream nums(args);
        nums >> current.outputs >> current.skippedOutputs;
      } else if (tag == "END") {
        current.ir = print(generateRandomKernel(current.seed, options.generator).module,
                           PrintOptions{.locations = false});
        onSeed(current);
        inSeed = false;
        next = current.seed + 1;
      } else if (tag == "DONE") {
        done = true;
      }
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    firstChild = false;
    if (!summary.fatal.empty())
      return summary;
    if (done)
      break;
    // The child died: the seed it was in fails where it was.
    if (!inSeed) {
      summary.fatal = "the child " + deathOf(status) + " before running a seed";
      return summary;
    }
    std::string why = deathOf(status);
    if (stage.rfind("device ", 0) == 0) {
      DeviceVerdict v;
      v.device = stage.substr(7);
      v.message = "the run " + why;
      current.verdicts.push_back(std::move(v));
    } else {
      current.problem = "the harness " + why + " while " + stage;
    }
    current.ir = print(generateRandomKernel(current.seed, options.generator).module, PrintOptions{.locations = false});
    onSeed(current);
    next = current.seed + 1;
  }
  return summary;
}

} // namespace trident::e2e
