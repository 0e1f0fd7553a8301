#include "trident/support/StageTimer.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace trident {

namespace {

// A name safe as a file name: letters, digits, '_', '.' and '-' kept, the rest '-'.
std::string fileName(std::string_view s) {
  std::string out;
  for (char c : s)
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-') ? c : '-';
  return out.empty() ? "module" : out;
}

} // namespace

StageTimer::StageTimer(const char *who, std::string_view kernel)
    : who_(who), kernel_(kernel), on_(std::getenv("TRIDENT_TIME_STAGES") != nullptr) {
  if (const char *dir = std::getenv("TRIDENT_DUMP_IR"); dir && *dir)
    dumpDir_ = dir;
  reset();
}

void StageTimer::lap(const char *stage) {
  if (on_)
    std::fprintf(stderr, "trident %s: %-22s %8.2f ms wall %8.2f ms cpu\n", who_, stage,
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall_).count(),
                 1e3 * static_cast<double>(std::clock() - cpu_) / CLOCKS_PER_SEC);
  reset();
}

void StageTimer::reset() {
  wall_ = std::chrono::steady_clock::now();
  cpu_ = std::clock();
}

void StageTimer::dump(std::string_view stage, std::string_view extension, const std::string &text) const {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path dir = fs::path(dumpDir_) / fileName(kernel_);
  fs::create_directories(dir, ec);
  size_t count = 0;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    ++count;
  char number[16];
  std::snprintf(number, sizeof number, "%02zu", count);
  fs::path file = dir / (std::string(number) + "-" + fileName(who_) + "-" + fileName(stage) + "." +
                         std::string(extension));
  std::ofstream out(file, std::ios::binary);
  out << text;
  if (!out)
    std::fprintf(stderr, "trident: cannot write %s (TRIDENT_DUMP_IR)\n", file.string().c_str());
}

} // namespace trident
