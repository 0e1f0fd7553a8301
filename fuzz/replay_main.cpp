// Runs files through fuzz targets without libFuzzer, so that the seed corpus and every
// input that once crashed stay tested in the normal build:
//   trident-fuzz-replay CORPUS_DIR           every target on its seeds, CORPUS_DIR/<folder>/*
//   trident-fuzz-replay TARGET FILE|DIR...   one target on the files given
// A crash ends the run (the sanitizers of the build report it); the last line printed
// names the file being run.
#include "FuzzTargets.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace trident::fuzz;

namespace {

std::vector<fs::path> filesOf(const fs::path &p) {
  std::vector<fs::path> out;
  if (fs::is_directory(p)) {
    for (const auto &e : fs::directory_iterator(p))
      if (e.is_regular_file())
        out.push_back(e.path());
  } else {
    out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

size_t replay(const FuzzTarget &t, const fs::path &file) {
  std::ifstream in(file, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::fprintf(stderr, "%s: %s\n", std::string(t.name).c_str(), file.string().c_str());
  t.run(bytes.data(), bytes.size());
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 2) {
    size_t n = 0;
    for (const FuzzTarget &t : allFuzzTargets()) {
      fs::path dir = fs::path(argv[1]) / std::string(t.corpus);
      if (t.corpus.empty() || !fs::is_directory(dir))
        continue;
      size_t before = n;
      for (const fs::path &f : filesOf(dir))
        n += replay(t, f);
      std::printf("%s: %zu inputs\n", std::string(t.name).c_str(), n - before);
    }
    if (n == 0) {
      std::fprintf(stderr, "no corpus under %s\n", argv[1]);
      return 1;
    }
    std::printf("replayed %zu inputs, none crashed\n", n);
    return 0;
  }
  if (argc < 3) {
    std::fprintf(stderr, "usage: trident-fuzz-replay CORPUS_DIR | TARGET FILE|DIR...\n");
    return 2;
  }
  const FuzzTarget *t = lookupFuzzTarget(argv[1]);
  if (!t) {
    std::fprintf(stderr, "no fuzz target '%s'; the targets:", argv[1]);
    for (const FuzzTarget &x : allFuzzTargets())
      std::fprintf(stderr, " %s", std::string(x.name).c_str());
    std::fprintf(stderr, "\n");
    return 2;
  }
  size_t n = 0;
  for (int i = 2; i < argc; ++i)
    for (const fs::path &f : filesOf(argv[i]))
      n += replay(*t, f);
  std::printf("replayed %zu inputs, none crashed\n", n);
  return 0;
}
