// trident: the command-line tool of the Trident runtime.
//
//   trident devices                       plugins loaded and skipped, devices
//   trident compile FILE --kernel K --signature S [--target T] [--emit KIND] [-o OUT]
//   trident run FILE --kernel K --grid G --arg SPEC... [--device D]
//   trident cache show|clear

#include "Commands.h"

#include "trident/Error.h"

#include <cstdio>
#include <exception>
#include <new>
#include <string_view>

namespace {

void usage(std::FILE *out) {
  std::fputs("usage: trident <command> [options]\n"
             "\n"
             "commands:\n"
             "  devices                      list plugins (loaded and skipped, with reasons) and devices\n"
             "  compile FILE --kernel K --signature S [--target T] [--emit KIND] [-o OUT]\n"
             "                               compile a kernel; KIND: block-ir, binary, or what a backend\n"
             "                               provides (thread-ir, llvm, ptx, spirv, hsaco); T: a target\n"
             "                               (host, cuda:sm_90, ...) or a device name (cuda:0); a FILE\n"
             "                               ending in .tir is block IR and needs no --signature\n"
             "  run FILE --kernel K --grid G --arg SPEC... [--device D]\n"
             "                               launch with generated inputs; `trident run --help` for SPEC\n"
             "  cache show|clear             the on-disk kernel cache (TRIDENT_CACHE_DIR)\n",
             out);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  std::string_view cmd = argv[1];
  trident::tool::Args args(argv + 2, argv + argc);
  try {
    if (cmd == "devices")
      return trident::tool::devicesCommand(args);
    if (cmd == "compile")
      return trident::tool::compileCommand(args);
    if (cmd == "run")
      return trident::tool::runCommand(args);
    if (cmd == "cache")
      return trident::tool::cacheCommand(args);
    if (cmd == "help" || cmd == "--help" || cmd == "-h") {
      usage(stdout);
      return 0;
    }
    std::fprintf(stderr, "trident: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
  } catch (const trident::Error &e) {
    std::fprintf(stderr, "trident %s: error: %s\n", argv[1], e.what());
    return 1;
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "trident %s: error: out of host memory\n", argv[1]);
    return 1;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "trident %s: internal error: %s\n", argv[1], e.what());
    return 1;
  }
}
