// Runs ptxas in a child process on temporary files (ptxas reads and writes files
// only), collecting its messages for the caller's error.
#include "Ptxas.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace trident::cuda {
namespace fs = std::filesystem;

std::string findPtxas() {
  if (const char *p = std::getenv("TRIDENT_PTXAS"); p && *p)
    return fs::exists(p) ? p : "";
  if (fs::exists("/usr/local/cuda/bin/ptxas"))
    return "/usr/local/cuda/bin/ptxas";
  if (const char *path = std::getenv("PATH")) {
    std::istringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty() && fs::exists(fs::path(dir) / "ptxas"))
        return (fs::path(dir) / "ptxas").string();
  }
  return "";
}

bool cubinRequested() {
  const char *v = std::getenv("TRIDENT_CUDA_CUBIN");
  return v && (std::strcmp(v, "1") == 0 || std::strcmp(v, "on") == 0);
}

namespace {

std::string slurp(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

std::optional<std::string> assemble(const std::string &ptxas, const std::string &ptx, const std::string &arch,
                                    std::string &error) {
  char dirTemplate[] = "/tmp/trident-ptxas-XXXXXX";
  if (!mkdtemp(dirTemplate)) {
    error = std::string("cannot make a temporary folder for ptxas: ") + std::strerror(errno);
    return std::nullopt;
  }
  fs::path dir = dirTemplate, in = dir / "kernel.ptx", out = dir / "kernel.cubin", log = dir / "ptxas.log";
  std::optional<std::string> cubin;
  {
    std::ofstream(in, std::ios::binary) << ptx;
    std::vector<std::string> args = {ptxas, "-arch=" + arch, "-O3", in.string(), "-o", out.string()};
    std::vector<char *> argv;
    for (std::string &a : args)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid = 0;
    int rc = posix_spawn(&pid, ptxas.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    if (rc != 0)
      error = "cannot run " + ptxas + ": " + std::strerror(rc);
    else if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
      error = ptxas + " -arch=" + arch + " rejected the PTX:\n" + slurp(log);
    else
      cubin = slurp(out);
  }
  std::error_code ignored;
  fs::remove_all(dir, ignored);
  return cubin;
}

} // namespace trident::cuda
