// Triton's signature strings: one entry per kernel parameter, separated by commas.
//   *fp32:16   pointer to fp32 whose address is a multiple of 16
//   i32:16     int32 known to be a multiple of 16
//   u8 fp16 i1 scalars
//   1024 True 'ieee' tl.float16 None   constexpr values (Python source)
//   tensordesc<fp16[64, 64]>          a host tensor descriptor with its block shape

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

constexpr std::string_view kTensorDesc = "tensordesc<";

// "tensordesc<fp16[64, 64]>" (Triton may add a layout after the shape: "...], #shared>",
// which the block IR has no use for). Returns the error, or "" when `a` is filled in.
std::string parseTensorDesc(const std::string &entry, ArgSpec &a) {
  std::string bad = "signature entry '" + entry + "': ";
  if (entry.back() != '>')
    return bad + "a tensor descriptor is written tensordesc<dtype[d0, d1, ...]>";
  size_t open = entry.find('['), close = entry.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open)
    return bad + "a tensor descriptor needs a block shape in brackets: tensordesc<fp16[64, 64]>";
  std::string dtype = trim(std::string_view(entry).substr(kTensorDesc.size(), open - kTensorDesc.size()));
  auto d = frontend::dtypeFromSignatureName(dtype);
  if (!d || d->isBool())
    return bad + "unknown or unsupported element type '" + dtype + "'";
  std::string dims = entry.substr(open + 1, close - open - 1);
  size_t pos = 0;
  while (pos <= dims.size()) {
    size_t comma = dims.find(',', pos);
    std::string item = trim(
        std::string_view(dims).substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
    bool digits = !item.empty() && item.size() < 8;
    for (char c : item)
      digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (!digits || std::stoll(item) <= 0)
      return bad + "block dimension '" + item + "' is not a positive integer";
    a.blockShape.push_back(std::stoll(item));
    if (comma == std::string::npos)
      break;
    pos = comma + 1;
  }
  std::string rest = trim(std::string_view(entry).substr(close + 1, entry.size() - close - 2));
  if (!rest.empty() && rest[0] != ',')
    return bad + "unexpected '" + rest + "' after the block shape";
  if (a.blockShape.empty() || a.blockShape.size() > 5)
    return bad + "a tensor descriptor has 1 to 5 dimensions";
  a.kind = ArgSpec::Kind::TensorDesc;
  a.type = Type::ptr(d->type);
  a.isUnsigned = d->isUnsigned;
  a.softFp8 = static_cast<uint8_t>(d->softFp8);
  a.divisibility = 16;
  return "";
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
    if (text.substr(i, kTensorDesc.size()) == kTensorDesc) { // commas up to its '>' are its own
      size_t close = text.find('>', i);
      i = close == std::string_view::npos ? text.size() - 1 : close;
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
    if (entry.rfind(kTensorDesc, 0) == 0) {
      std::string problem = parseTensorDesc(entry, a);
      if (!problem.empty())
        bad(problem);
      else
        result.push_back(std::move(a));
      continue;
    }
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
      a.softFp8 = static_cast<uint8_t>(d->softFp8);
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
