#include "TestUtil.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace trident::test {

namespace fs = std::filesystem;

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  fs::path p = fs::temp_directory_path() /
               ("trident-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::remove_all(p);
  fs::create_directories(p);
  path_ = p.string();
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

RuntimeOptions testOptions(const std::string &cacheDir, std::vector<std::string> extraDirs) {
  RuntimeOptions o;
  o.pluginDirs = {TRIDENT_TEST_PLUGIN_DIR};
  for (std::string &d : extraDirs)
    o.pluginDirs.push_back(std::move(d));
  o.cacheDir = cacheDir;
  o.diskCache = !cacheDir.empty();
  return o;
}

std::string addKernelIR() {
  return R"(builtin.module ({
  tt.func {sym_name = "add"} ({
  ^(%x: ptr<f32>, %y: ptr<f32>, %out: ptr<f32>, %n: i32):
    %pid = tt.get_program_id {axis = 0} : i32 loc("add.py":3:11)
    %c64 = arith.constant {value = 64} : i32
    %start = arith.muli %pid, %c64 : i32
    %range = tt.make_range {end = 64, start = 0} : block<64xi32>
    %base = tt.splat %start : block<64xi32>
    %offs = arith.addi %base, %range : block<64xi32>
    %nb = tt.splat %n : block<64xi32>
    %mask = arith.cmpi %offs, %nb {predicate = "slt"} : block<64xi1> loc("add.py":6:12)
    %xs = tt.splat %x : block<64xptr<f32>>
    %xp = tt.addptr %xs, %offs : block<64xptr<f32>>
    %xv = tt.load %xp, %mask : block<64xf32> loc("add.py":7:8)
    %ys = tt.splat %y : block<64xptr<f32>>
    %yp = tt.addptr %ys, %offs : block<64xptr<f32>>
    %yv = tt.load %yp, %mask : block<64xf32> loc("add.py":8:8)
    %sum = arith.addf %xv, %yv : block<64xf32>
    %os = tt.splat %out : block<64xptr<f32>>
    %op = tt.addptr %os, %offs : block<64xptr<f32>>
    tt.store %op, %sum, %mask loc("add.py":10:4)
    tt.return
  })
})
)";
}

std::string axpyKernelIR() {
  return R"(builtin.module ({
  tt.func {sym_name = "axpy"} ({
  ^(%x: ptr<f32>, %y: ptr<f32>, %out: ptr<f32>, %s: f32, %n: i32):
    %px = tt.get_program_id {axis = 0} : i32
    %py = tt.get_program_id {axis = 1} : i32
    %nx = tt.get_num_programs {axis = 0} : i32
    %row = arith.muli %py, %nx : i32
    %blk = arith.addi %row, %px : i32
    %c32 = arith.constant {value = 32} : i32
    %start = arith.muli %blk, %c32 : i32
    %range = tt.make_range {end = 32, start = 0} : block<32xi32>
    %base = tt.splat %start : block<32xi32>
    %offs = arith.addi %base, %range : block<32xi32>
    %nb = tt.splat %n : block<32xi32>
    %mask = arith.cmpi %offs, %nb {predicate = "slt"} : block<32xi1>
    %xs = tt.splat %x : block<32xptr<f32>>
    %xp = tt.addptr %xs, %offs : block<32xptr<f32>>
    %xv = tt.load %xp, %mask : block<32xf32>
    %ys = tt.splat %y : block<32xptr<f32>>
    %yp = tt.addptr %ys, %offs : block<32xptr<f32>>
    %yv = tt.load %yp, %mask : block<32xf32>
    %sb = tt.splat %s : block<32xf32>
    %ax = arith.mulf %xv, %sb : block<32xf32>
    %r = arith.addf %ax, %yv : block<32xf32>
    %os = tt.splat %out : block<32xptr<f32>>
    %op = tt.addptr %os, %offs : block<32xptr<f32>>
    tt.store %op, %r, %mask
    tt.return
  })
})
)";
}

namespace {

pid_t spawnChild(const std::vector<std::string> &args, const std::vector<std::string> &env, int &readFd) {
  int fds[2];
  if (::pipe(fds) != 0)
    return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  std::vector<std::string> argStrings = {"/proc/self/exe"};
  argStrings.insert(argStrings.end(), args.begin(), args.end());
  std::vector<char *> argv;
  for (std::string &s : argStrings)
    argv.push_back(s.data());
  argv.push_back(nullptr);
  std::vector<std::string> envStrings;
  for (char **e = environ; *e; ++e)
    envStrings.emplace_back(*e);
  envStrings.insert(envStrings.end(), env.begin(), env.end());
  std::vector<char *> envp;
  for (std::string &s : envStrings)
    envp.push_back(s.data());
  envp.push_back(nullptr);
  pid_t pid = -1;
  if (posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv.data(), envp.data()) != 0)
    pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  readFd = fds[0];
  return pid;
}

int finish(pid_t pid, int fd, std::string &output) {
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0)
    output.append(buf, size_t(n));
  ::close(fd);
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid)
    return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

} // namespace

int runChild(const std::vector<std::string> &args, const std::vector<std::string> &env, std::string &output) {
  int fd = -1;
  pid_t pid = spawnChild(args, env, fd);
  return finish(pid, fd, output);
}

std::vector<int> runChildrenAtOnce(const std::vector<std::vector<std::string>> &argsPerChild,
                                   const std::vector<std::string> &env, std::vector<std::string> &outputs) {
  std::vector<std::pair<pid_t, int>> children;
  for (const auto &args : argsPerChild) {
    int fd = -1;
    pid_t pid = spawnChild(args, env, fd);
    children.emplace_back(pid, fd);
  }
  std::vector<int> codes;
  outputs.assign(children.size(), "");
  for (size_t i = 0; i < children.size(); ++i)
    codes.push_back(finish(children[i].first, children[i].second, outputs[i]));
  return codes;
}

long childValue(const std::string &output, const std::string &key) {
  size_t p = output.find(key + "=");
  if (p == std::string::npos)
    return -1;
  return std::strtol(output.c_str() + p + key.size() + 1, nullptr, 10);
}

} // namespace trident::test
