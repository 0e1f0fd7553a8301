#include "Commands.h"

#include "trident/Error.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
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

bool Options::flag(const std::string &name) const {
  return std::find(flags_.begin(), flags_.end(), name) != flags_.end();
}

void Options::allowOnly(const std::vector<std::string> &known, const std::vector<std::string> &flags) const {
  for (const auto &[n, v] : values_) {
    if (std::find(known.begin(), known.end(), n) != known.end())
      continue;
    if (std::find(flags.begin(), flags.end(), n) != flags.end())
      throw Error(ErrorCode::InvalidArgument, "--" + n + " takes no value");
    throw Error(ErrorCode::InvalidArgument, "unknown option --" + n);
  }
  for (const std::string &f : flags_)
    if (std::find(flags.begin(), flags.end(), f) == flags.end())
      throw Error(ErrorCode::InvalidArgument, std::find(known.begin(), known.end(), f) != known.end()
                                                  ? "--" + f + " needs a value"
                                                  : "unknown option --" + f);
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
