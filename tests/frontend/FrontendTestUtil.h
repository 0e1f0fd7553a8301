#pragma once
// Helpers shared by the frontend tests: compile a source string for a signature
// and get the IR text, or the first error as "line:col: message".

#include "trident/frontend/Frontend.h"
#include "trident/ir/Printer.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace trident::test {

struct Compiled {
  std::optional<Module> module;
  Diagnostics diags;
  std::string ir; // printed without locations
};

inline Compiled compileSource(const std::string &source, const std::string &kernel,
                              const std::string &signature, bool debug = false,
                              const std::string &file = "k.py", const std::string &target = "") {
  Compiled c;
  auto sig = parseSignature(signature, c.diags);
  if (!sig)
    return c;
  CompileRequest req;
  req.kernel = kernel;
  req.args = *sig;
  req.debug = debug;
  req.target = target;
  req.staticPrint = [](const std::string &) {};
  c.module = compileKernel(source, file, req, c.diags);
  if (c.module)
    c.ir = print(*c.module, PrintOptions{false});
  return c;
}

// The IR of a successful compile; the diagnostics otherwise (so a failed CHECK shows them).
inline std::string ir(const std::string &source, const std::string &kernel, const std::string &signature) {
  Compiled c = compileSource(source, kernel, signature);
  return c.module ? c.ir : "ERROR: " + c.diags.str();
}

// "line:col: message" of the first diagnostic (message without the source snippet).
inline std::string firstError(const std::string &source, const std::string &kernel,
                              const std::string &signature) {
  Compiled c = compileSource(source, kernel, signature);
  if (c.module)
    return "no error";
  if (c.diags.empty())
    return "no diagnostic";
  const Diagnostic &d = c.diags.list()[0];
  std::string message = d.message.substr(0, d.message.find('\n'));
  return std::to_string(d.loc.line()) + ":" + std::to_string(d.loc.col()) + ": " + message;
}

inline std::string readSample(const std::string &name) {
  std::ifstream in(std::string(TRIDENT_SAMPLES_DIR) + "/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline size_t count(const std::string &haystack, const std::string &needle) {
  size_t n = 0;
  for (size_t p = haystack.find(needle); p != std::string::npos; p = haystack.find(needle, p + 1))
    ++n;
  return n;
}

// The seed of the tests of random inputs (they CAPTURE it, so a failure names it): fixed,
// so that CI's runs are repeatable; TRIDENT_TEST_SEED=N takes seed N, and
// TRIDENT_TEST_SEED=random a fresh one per run, to explore (the accuracy bounds are
// exceeded by a few seeds in a thousand: docs/testing.md).
inline uint32_t testSeed() {
  const char *env = std::getenv("TRIDENT_TEST_SEED");
  if (env && std::string(env) == "random")
    return std::random_device{}();
  if (env)
    return static_cast<uint32_t>(std::strtoul(env, nullptr, 10));
  return 20261206u;
}

// x exactly (printf's %a), to replay an input a failure names.
inline std::string hexFloat(double x) {
  char text[40];
  std::snprintf(text, sizeof text, "%a", x);
  return text;
}

// Prefix for test kernels.
inline const char *kHeader = "import triton\nimport triton.language as tl\n\n";

} // namespace trident::test
