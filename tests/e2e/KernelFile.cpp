#include "KernelFile.h"

#include "trident/ir/Parser.h"
#include "trident/ir/Printer.h"
#include "trident/support/Diagnostic.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace trident::e2e {

namespace {

const char *const kModes[] = {"bytes", "exact", "tolerance", "skip"};

// Doubles as C99 hexadecimal floats: exact both ways.
std::string hexDouble(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

std::string hexBytes(const std::vector<uint8_t> &bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  s.reserve(bytes.size() * 2);
  for (uint8_t b : bytes)
    s += digits[b >> 4], s += digits[b & 15];
  return s;
}

bool parseHexBytes(const std::string &s, std::vector<uint8_t> &out) {
  if (s.size() % 2)
    return false;
  auto digit = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; };
  for (size_t i = 0; i < s.size(); i += 2) {
    int hi = digit(s[i]), lo = digit(s[i + 1]);
    if (hi < 0 || lo < 0)
      return false;
    out.push_back(uint8_t(hi << 4 | lo));
  }
  return true;
}

// "key=value" fields of a buffer line.
std::string field(const std::vector<std::string> &words, const std::string &key) {
  for (const std::string &w : words)
    if (w.rfind(key + "=", 0) == 0)
      return w.substr(key.size() + 1);
  return "";
}

} // namespace

std::string writeKernelFile(const RandomKernel &k, const std::string &comment) {
  std::ostringstream os;
  os << "trident-kernel 1\n";
  std::istringstream lines(comment);
  for (std::string line; std::getline(lines, line);)
    os << "# " << line << "\n";
  os << "seed " << k.seed << "\nname " << k.name << "\ngrid " << k.grid[0] << " " << k.grid[1] << " " << k.grid[2]
     << "\n";
  const Op *f = k.module.lookupFunction(k.name);
  for (size_t i = 0; i < k.args.size(); ++i) {
    const ArgSpec &a = k.args[i];
    if (a.kind == ArgSpec::Kind::Scalar) {
      char bits[32];
      std::snprintf(bits, sizeof bits, "%llx", static_cast<unsigned long long>(a.bits));
      os << "scalar " << a.name << " " << a.element.str() << " " << bits << "\n";
      continue;
    }
    const OutputCheck &c = a.check;
    os << "buffer " << a.name << " " << a.element.str() << " " << a.count << " " << (a.written ? "written" : "input")
       << " mode=" << kModes[int(c.mode)] << " tolerance=" << hexDouble(c.tolerance);
    if (c.hasRange)
      os << " range=" << hexDouble(c.lo) << "," << hexDouble(c.hi);
    os << " frac=" << c.frac << (c.exact ? " exact" : "");
    os << "\n";
    bool uniform = !a.init.empty() && std::all_of(a.init.begin(), a.init.end(), [&](uint8_t b) { return b == a.init[0]; });
    // The contents of a buffer the kernel never touches (a reduced kernel keeps every
    // parameter) cannot matter: zeros stand for them.
    bool unused = f && i < f->region()->numArguments() && !f->region()->argument(unsigned(i))->hasUses();
    if (unused && !a.written)
      os << "unused\n";
    else if (uniform)
      os << "fill " << hexBytes({a.init[0]}) << "\n";
    else
      os << "data " << hexBytes(a.init) << "\n";
  }
  std::string ir = print(k.module, PrintOptions{.locations = false});
  os << "ir " << ir.size() << "\n" << ir;
  return os.str();
}

std::optional<RandomKernel> readKernelFile(const std::string &text, std::string &error) {
  std::istringstream in(text);
  RandomKernel k;
  std::string line;
  size_t lineNo = 0;
  auto fail = [&](const std::string &why) -> std::optional<RandomKernel> {
    error = "line " + std::to_string(lineNo) + ": " + why;
    return std::nullopt;
  };
  auto type = [&](const std::string &s) -> std::optional<Type> {
    Diagnostics diags;
    return parseType(s, diags);
  };
  if (!std::getline(in, line) || line != "trident-kernel 1")
    return fail("not a kernel file (no 'trident-kernel 1' first)");
  ++lineNo;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string s; words >> s;)
      w.push_back(s);
    if (w.empty())
      continue;
    const std::string &key = w[0];
    if (key == "seed" && w.size() == 2) {
      k.seed = std::stoull(w[1]);
    } else if (key == "name" && w.size() == 2) {
      k.name = w[1];
    } else if (key == "grid" && w.size() == 4) {
      for (int d = 0; d < 3; ++d)
        k.grid[size_t(d)] = uint32_t(std::stoul(w[size_t(d) + 1]));
    } else if (key == "scalar" && w.size() == 4) {
      ArgSpec a;
      a.kind = ArgSpec::Kind::Scalar;
      a.name = w[1];
      std::optional<Type> t = type(w[2]);
      if (!t)
        return fail("bad type '" + w[2] + "'");
      a.element = *t;
      a.bits = std::stoull(w[3], nullptr, 16);
      k.args.push_back(std::move(a));
    } else if (key == "buffer" && w.size() >= 5) {
      ArgSpec a;
      a.name = w[1];
      std::optional<Type> t = type(w[2]);
      if (!t)
        return fail("bad type '" + w[2] + "'");
      a.element = *t;
      a.count = std::stoull(w[3]);
      a.written = w[4] == "written";
      std::string mode = field(w, "mode");
      auto m = std::find(std::begin(kModes), std::end(kModes), mode);
      if (m == std::end(kModes))
        return fail("bad mode '" + mode + "'");
      a.check.mode = OutputCheck::Mode(m - std::begin(kModes));
      a.check.tolerance = std::strtod(field(w, "tolerance").c_str(), nullptr);
      if (std::string range = field(w, "range"); !range.empty()) {
        size_t comma = range.find(',');
        a.check.hasRange = true;
        a.check.lo = std::strtod(range.substr(0, comma).c_str(), nullptr);
        a.check.hi = std::strtod(range.substr(comma + 1).c_str(), nullptr);
      }
      if (std::string frac = field(w, "frac"); !frac.empty())
        a.check.frac = std::stoi(frac);
      a.check.exact = std::find(w.begin(), w.end(), "exact") != w.end();
      size_t bytes = a.count * (a.element == Type::i1() ? 1 : a.element.bitWidth() / 8);
      std::string contents;
      ++lineNo;
      if (!std::getline(in, contents))
        return fail("a buffer without contents");
      if (contents == "unused") {
        a.init.assign(bytes, 0);
      } else if (contents.rfind("fill ", 0) == 0) {
        std::vector<uint8_t> b;
        if (!parseHexBytes(contents.substr(5), b) || b.size() != 1)
          return fail("bad fill");
        a.init.assign(bytes, b[0]);
      } else if (contents.rfind("data ", 0) != 0 || !parseHexBytes(contents.substr(5), a.init) ||
                 a.init.size() != bytes) {
        return fail("bad data of buffer " + a.name);
      }
      k.args.push_back(std::move(a));
    } else if (key == "ir" && w.size() == 2) {
      size_t size = std::stoull(w[1]);
      std::string ir(size, '\0');
      in.read(ir.data(), std::streamsize(size));
      if (size_t(in.gcount()) != size)
        return fail("the IR is cut short");
      Diagnostics diags;
      std::optional<Module> m = parseModule(ir, "<kernel file>", diags);
      if (!m)
        return fail("the IR does not parse:\n" + diags.str());
      k.module = std::move(*m);
      return k;
    } else {
      return fail("unexpected '" + line.substr(0, 60) + "'");
    }
  }
  return fail("no IR");
}

} // namespace trident::e2e
