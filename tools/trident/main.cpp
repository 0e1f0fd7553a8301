// trident: the command-line tool of the Trident runtime.
//
//   trident devices                       plugins loaded and skipped, devices
//   trident compile FILE --kernel K --signature S [--target T]... [--emit KIND] [-o OUT]
//   trident run FILE --kernel K --grid G --arg SPEC... [--device D]
//   trident cache show|clear [--stale]
//   trident --version
//
// Exit status: 0 on success, 1 when the work failed (a compile error, a failed
// launch), 2 for a mistake in the command line itself.

#include "Commands.h"

#include "trident/Error.h"
#include "trident/Runtime.h"
#include "trident/Version.h"
#include "trident/plugin.h"
#include "trident/support/Spelling.h"

#include <cstdio>
#include <exception>
#include <new>
#include <stdexcept>
#include <string_view>

namespace {

void usage(std::FILE *out) {
  std::fputs("usage: trident <command> [options]\n"
             "\n"
             "commands:\n"
             "  devices                      list plugins (loaded and skipped, with reasons) and devices\n"
             "  compile FILE --kernel K --signature S [--target T]... [--emit KIND] [-o OUT]\n"
             "                               compile a kernel: block IR, a backend's output, or a\n"
             "                               bundle for several targets; `trident compile --help`\n"
             "  run FILE --kernel K --grid G --arg SPEC... [--device D]\n"
             "                               launch with generated inputs (FILE: .py, .tir or .tbundle);\n"
             "                               `trident run --help` for SPEC\n"
             "  cache show|clear [--stale]   the on-disk kernel cache (TRIDENT_CACHE_DIR)\n"
             "  --version                    the version, build id and source revision\n",
             out);
}

int printVersion() {
  std::printf("trident %s\n", trident::version());
  std::printf("build id: %s\n", trident::buildId());
  const std::string revision = trident::sourceRevision();
  std::printf("source: %s\n", revision.empty() ? "unknown (not built from a git checkout)" : revision.c_str());
  std::printf("compiler: %s\n", trident::hasCompiler() ? "yes (Triton-language source, block IR and bundles)"
                                                       : "no (bundles and block IR only)");
  std::printf("plugin ABI: %u.%u\n", TRIDENT_PLUGIN_ABI_MAJOR, TRIDENT_PLUGIN_ABI_MINOR);
  return 0;
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
    if (cmd == "--version" || cmd == "version")
      return printVersion();
    std::optional<std::string> near =
        trident::closestSpelling(std::string(cmd), {"devices", "compile", "run", "cache", "help", "version"});
    std::fprintf(stderr, "trident: unknown command '%s'%s\n\n", argv[1],
                 near ? (" (did you mean '" + *near + "'?)").c_str() : "");
    usage(stderr);
    return 2;
  } catch (const trident::tool::UsageError &e) {
    std::fprintf(stderr, "trident %s: %s\n(`trident %s --help` lists the options)\n", argv[1], e.what(), argv[1]);
    return 2;
  } catch (const std::invalid_argument &) { // std::stoll and friends, on an operand
    std::fprintf(stderr, "trident %s: a number in the command line does not parse\n", argv[1]);
    return 2;
  } catch (const std::out_of_range &) {
    std::fprintf(stderr, "trident %s: a number in the command line is out of range\n", argv[1]);
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
