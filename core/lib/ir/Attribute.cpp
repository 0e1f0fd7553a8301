#include "trident/ir/Attribute.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace trident {

namespace {

std::string formatFloat(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  char buf[64];
  // The shortest of %.{1..17}g that reads back exactly.
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v)
      break;
  }
  std::string s = buf;
  if (s.find_first_of(".eni") == std::string::npos)
    s += ".0";
  return s;
}

std::string quote(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%02X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

} // namespace

std::string LayoutBases::str() const {
  std::string s = "layout<";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(shape[i]);
  s += ":";
  auto list = [&](const char *name, const std::vector<int64_t> &v) {
    s += std::string(" ") + name + " [";
    for (size_t i = 0; i < v.size(); ++i)
      s += (i ? ", " : "") + std::to_string(v[i]);
    s += "]";
  };
  list("reg", reg);
  list("lane", lane);
  list("warp", warp);
  return s + ">";
}

std::string Attribute::str() const {
  if (isInt())
    return std::to_string(getInt());
  if (isFloat())
    return formatFloat(getFloat());
  if (isBool())
    return getBool() ? "true" : "false";
  if (isString())
    return quote(getString());
  if (isType())
    return getType().str();
  if (isLayout())
    return getLayout().str();
  std::string s = "[";
  if (isInts()) {
    for (size_t i = 0; i < getInts().size(); ++i)
      s += (i ? ", " : "") + std::to_string(getInts()[i]);
  } else if (isTypes()) {
    for (size_t i = 0; i < getTypes().size(); ++i)
      s += (i ? ", " : "") + getTypes()[i].str();
  } else if (isLayouts()) {
    for (size_t i = 0; i < getLayouts().size(); ++i)
      s += (i ? ", " : "") + getLayouts()[i].str();
  } else {
    return "<absent>";
  }
  return s + "]";
}

AttributeList::AttributeList(std::initializer_list<NamedAttribute> attrs) {
  for (const NamedAttribute &a : attrs)
    set(a.name, a.value);
}

const Attribute &AttributeList::get(std::string_view name) const {
  static const Attribute absent;
  auto it = std::lower_bound(entries_.begin(), entries_.end(), name,
                             [](const NamedAttribute &a, std::string_view n) { return a.name < n; });
  return it != entries_.end() && it->name == name ? it->value : absent;
}

void AttributeList::set(std::string_view name, Attribute value) {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), name,
                             [](const NamedAttribute &a, std::string_view n) { return a.name < n; });
  if (it != entries_.end() && it->name == name)
    it->value = std::move(value);
  else
    entries_.insert(it, NamedAttribute{std::string(name), std::move(value)});
}

void AttributeList::erase(std::string_view name) {
  std::erase_if(entries_, [&](const NamedAttribute &a) { return a.name == name; });
}

} // namespace trident
