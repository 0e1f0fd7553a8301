// Triton's signature strings: one entry per kernel parameter, separated by commas.
//   *fp32:16   pointer to fp32 whose address is a multiple of 16
//   i32:16     int32 known to be a multiple of 16
//   u8 fp16 i1 scalars
//   1024 True 'ieee' tl.float16 None   constexpr values (Python source)

#include "trident/frontend/Frontend.h"

#include "DType.h"

#include <cctype>

namespace trident {

namespace {

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
    ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
    --e;
  return std::string(s.substr(b, e - b));
}

} // namespace

std::optional<std::vector<ArgSpec>> parseSignature(std::string_view text, Diagnostics &diags) {
  std::vector<ArgSpec> result;
  // Split at commas outside brackets and quotes.
  std::vector<std::pair<std::string, size_t>> entries; // text, column of its start
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ',';
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '\'' || c == '"')
      quote = c;
    else if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '}')
      --depth;
    else if (c == ',' && depth <= 0) {
      entries.emplace_back(std::string(text.substr(start, i - start)), start);
      start = i + 1;
    }
  }
  if (quote) {
    diags.error(Location::get("<signature>", 1, static_cast<uint32_t>(text.size() + 1)),
                "unterminated string in signature");
    return std::nullopt;
  }
  if (entries.size() == 1 && trim(entries[0].first).empty())
    return result; // an empty signature: no parameters
  bool ok = true;
  for (auto &[raw, col] : entries) {
    std::string entry = trim(raw);
    Location loc = Location::get("<signature>", 1, static_cast<uint32_t>(col + 1));
    auto bad = [&](std::string message) {
      diags.error(loc, std::move(message));
      ok = false;
    };
    if (entry.empty()) {
      bad("empty entry in signature");
      continue;
    }
    ArgSpec a;
    std::string type = entry;
    int divisibility = 1;
    bool hasSuffix = false;
    size_t colon = entry.rfind(':');
    if (colon != std::string::npos && entry[0] != '\'' && entry[0] != '"') {
      std::string suffix = trim(entry.substr(colon + 1));
      std::string head = trim(entry.substr(0, colon));
      bool digits = !suffix.empty() && suffix.size() < 6;
      for (char c : suffix)
        digits = digits && std::isdigit(static_cast<unsigned char>(c));
      if (digits && (head[0] == '*' || frontend::dtypeFromSignatureName(head))) {
        divisibility = std::stoi(suffix);
        type = head;
        hasSuffix = true;
        if (divisibility != 16 && divisibility != 1) {
          bad("signature entry '" + entry + "': the only specialization is ':16' (divisible by 16)");
          continue;
        }
      }
    }
    if (type[0] == '*') {
      std::string pointee = trim(type.substr(1));
      auto d = frontend::dtypeFromSignatureName(pointee);
      if (!d) {
        bad("unknown pointee type '" + pointee + "' in signature entry '" + entry + "'");
        continue;
      }
      a.kind = ArgSpec::Kind::Pointer;
      a.type = Type::ptr(d->type);
      a.isUnsigned = d->isUnsigned;
      a.divisibility = divisibility;
    } else if (auto d = frontend::dtypeFromSignatureName(type)) {
      if (d->isBool()) {
        a.kind = ArgSpec::Kind::Bool;
      } else if (d->isInt()) {
        a.kind = ArgSpec::Kind::Int;
        a.isUnsigned = d->isUnsigned;
      } else {
        a.kind = ArgSpec::Kind::Float;
      }
      if (hasSuffix && divisibility != 1 && a.kind != ArgSpec::Kind::Int) {
        bad("signature entry '" + entry + "': only integers and pointers can be marked divisible by 16");
        continue;
      }
      a.type = d->type;
      a.divisibility = divisibility;
    } else {
      a.kind = ArgSpec::Kind::Constexpr;
      a.constexprValue = entry;
    }
    result.push_back(std::move(a));
  }
  if (!ok)
    return std::nullopt;
  return result;
}

} // namespace trident
