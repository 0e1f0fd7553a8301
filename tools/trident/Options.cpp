#include "Commands.h"

#include "trident/Error.h"
#include "trident/support/Spelling.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>

namespace trident::tool {

Options::Options(const Args &args) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (a.size() > 1 && a[0] == '-' && !(a.size() > 1 && (std::isdigit(static_cast<unsigned char>(a[1])) || a[1] == '.'))) {
      std::string name = a.substr(a.find_first_not_of('-'));
      size_t eq = name.find('=');
      if (eq != std::string::npos) {
        values_.emplace_back(name.substr(0, eq), name.substr(eq + 1));
      } else if (i + 1 < args.size() && (args[i + 1].empty() || args[i + 1][0] != '-' ||
                                          (args[i + 1].size() > 1 && std::isdigit(static_cast<unsigned char>(args[i + 1][1]))))) {
        values_.emplace_back(name, args[++i]);
      } else {
        flags_.push_back(name);
      }
    } else {
      positional_.push_back(a);
    }
  }
}

std::string Options::get(const std::string &name, const std::string &fallback) const {
  std::string v = fallback;
  for (const auto &[n, value] : values_)
    if (n == name)
      v = value;
  return v;
}

std::vector<std::string> Options::all(const std::string &name) const {
  std::vector<std::string> out;
  for (const auto &[n, value] : values_)
    if (n == name)
      out.push_back(value);
  return out;
}

int64_t Options::integer(const std::string &name, int64_t fallback) const {
  const std::string text = get(name);
  if (text.empty())
    return fallback;
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 0);
  if (*end != '\0' || errno == ERANGE)
    throw UsageError("--" + name + " takes an integer, not '" + text + "'");
  return v;
}

bool Options::flag(const std::string &name) const {
  return std::find(flags_.begin(), flags_.end(), name) != flags_.end();
}

void Options::allowOnly(const std::vector<std::string> &known, const std::vector<std::string> &flags) {
  auto listed = [](const std::vector<std::string> &names, const std::string &n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  auto unknown = [&](const std::string &n) {
    std::vector<std::string> all = known;
    all.insert(all.end(), flags.begin(), flags.end());
    std::optional<std::string> near = closestSpelling(n, all);
    return UsageError("unknown option --" + n + (near ? " (did you mean --" + *near + "?)" : ""));
  };
  // A known flag followed by a word ("--debug file.py") took that word as its value:
  // give the word back as an operand.
  std::vector<std::pair<std::string, std::string>> values;
  for (auto &[n, v] : values_) {
    if (listed(known, n)) {
      values.emplace_back(n, v);
    } else if (listed(flags, n)) {
      flags_.push_back(n);
      positional_.push_back(v);
    } else {
      throw unknown(n);
    }
  }
  values_ = std::move(values);
  for (const std::string &f : flags_)
    if (!listed(flags, f)) {
      if (listed(known, f))
        throw UsageError("--" + f + " needs a value");
      throw unknown(f);
    }
}


std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(ErrorCode::NotFound, "cannot open '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace trident::tool
