// `trident compile --emit header`: a C++ header holding a bundle and a typed
// launcher for its kernel, so that a program launches it like a function:
//
//   #include "add_kernel.h"
//   trident_kernels::add_kernel(device, trident::Grid(cdiv(n, 1024)), x, y, out, n);
//
// Pointer parameters take Buffers, scalars their C++ type; constexpr parameters
// are the values the bundle was compiled with and are not passed.

#include "Commands.h"

#include "trident/Error.h"

#include <cstdio>
#include <filesystem>
#include <set>

namespace trident::tool {

namespace {

std::string identifier(const std::string &name) {
  static const std::set<std::string> keywords = {
      "alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char", "class", "const",
      "constexpr", "continue", "default", "delete", "do", "double", "else", "enum", "explicit", "export",
      "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace",
      "new", "noexcept", "not", "nullptr", "operator", "or", "private", "protected", "public", "register",
      "return", "short", "signed", "sizeof", "static", "struct", "switch", "template", "this", "throw", "true",
      "try", "typedef", "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "while", "xor",
      "device", "grid", "stream", "options"}; // and the launcher's own parameters
  return keywords.count(name) ? name + "_" : name;
}

// The C++ parameter type for a signature entry, and how it becomes an Arg.
struct ScalarType {
  const char *type;
  const char *wrap; // "" or a function applied to the value ("trident::Arg::f16")
};

ScalarType scalarType(std::string token) {
  if (token.ends_with(":16"))
    token.resize(token.size() - 3);
  static const std::pair<const char *, ScalarType> table[] = {
      {"i1", {"bool", ""}},          {"i8", {"int8_t", ""}},     {"i16", {"int16_t", ""}},
      {"i32", {"int32_t", ""}},      {"i64", {"int64_t", ""}},   {"u8", {"uint8_t", ""}},
      {"u16", {"uint16_t", ""}},     {"u32", {"uint32_t", ""}},  {"u64", {"uint64_t", ""}},
      {"fp32", {"float", ""}},       {"fp64", {"double", ""}},   {"fp16", {"float", "trident::Arg::f16"}},
      {"bf16", {"float", "trident::Arg::bf16"}}, {"1", {"int32_t", ""}}};
  for (const auto &[name, t] : table)
    if (token == name)
      return t;
  throw Error(ErrorCode::NotSupported, "--emit header: no C++ type for signature entry '" + token + "'");
}

std::string cString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

} // namespace

std::string launcherHeader(const Bundle &bundle, const std::vector<uint8_t> &bytes, const std::string &ns,
                           const std::string &sourceFile) {
  if (bundle.entries.empty())
    throw Error(ErrorCode::InvalidArgument, "--emit header: the bundle has no entries");
  const BundleEntry &first = bundle.entries.front();
  const std::vector<std::string> tokens = signatureEntries(first.signature);
  if (tokens.size() != bundle.params.size())
    throw Error(ErrorCode::Internal, "--emit header: the signature does not match the parameters");
  const std::string name = identifier(bundle.kernel);
  std::string targets;
  for (const BundleEntry &e : bundle.entries)
    targets += (targets.empty() ? "" : ", ") + e.target;

  // Arguments are positional up to the last runtime parameter; constexprs after it
  // take the bundle's values (or an autotuned config's) by themselves.
  auto isConstant = [&](size_t i) { return bundle.params[i].isConstexpr || tokens[i] == "None"; };
  size_t passed = 0;
  for (size_t i = 0; i < tokens.size(); ++i)
    if (!isConstant(i))
      passed = i + 1;
  auto setByConfig = [&](const std::string &name) {
    for (const BundleConfig &c : bundle.configs)
      for (const auto &kw : c.kwargs)
        if (kw.first == name)
          return true;
    return false;
  };
  std::string params, constants, args, forward;
  for (size_t i = 0; i < passed; ++i) {
    const std::string p = identifier(bundle.params[i].name);
    args += (args.empty() ? "" : ", ");
    if (isConstant(i)) {
      if (setByConfig(bundle.params[i].name))
        throw Error(ErrorCode::NotSupported, "--emit header: autotuned parameter '" + bundle.params[i].name +
                                                 "' comes before runtime parameters; launch the bundle with "
                                                 "Kernel::fromBundle instead");
      constants += "  const trident::Constexpr " + p + " = trident::Constexpr::source(" + cString(tokens[i]) + ");\n";
      args += p;
      continue;
    }
    forward += ", " + p;
    if (tokens[i].starts_with("*")) {
      params += ", const trident::Buffer &" + p;
      args += p;
    } else {
      ScalarType t = scalarType(tokens[i]);
      params += std::string(", ") + t.type + " " + p;
      args += *t.wrap ? std::string(t.wrap) + "(" + p + ")" : p;
    }
  }

  std::string h;
  h += "// Generated by `trident compile --emit header` from " + std::filesystem::path(sourceFile).filename().string() +
       ": kernel '" + bundle.kernel + "'\n";
  h += "// for (" + first.signature + "), compiled for " + targets + ".\n";
  h += "// Link Trident::runtime (a runtime without the compiler is enough).\n";
  h += "#pragma once\n\n#include \"trident/Trident.h\"\n\n#include <cstdint>\n#include <span>\n\n";
  h += "namespace " + ns + " {\n\n";
  h += "namespace " + name + "_bundle {\ninline const unsigned char bytes[] = {";
  char buf[16];
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s0x%02x", i == 0 ? "\n  " : i % 16 ? "," : ",\n  ", bytes[i]);
    h += buf;
  }
  h += "\n};\n} // namespace " + name + "_bundle\n\n";
  h += "// The kernel, loaded from the embedded bundle on first use.\n";
  h += "inline const trident::Kernel &" + name + "_kernel() {\n";
  h += "  static const trident::Kernel kernel = trident::Kernel::fromBundle(\n";
  h += "      std::span<const uint8_t>(" + name + "_bundle::bytes, sizeof " + name + "_bundle::bytes), " +
       cString(bundle.kernel + ".tbundle (embedded)") + ");\n";
  h += "  return kernel;\n}\n\n";
  h += "// Launches " + bundle.kernel + " on `stream`.\n";
  h += "inline void " + name + "(const trident::Stream &stream, const trident::Grid &grid" + params +
       ", const trident::LaunchOptions &options = {}) {\n";
  h += constants;
  h += "  " + name + "_kernel().launch(stream, grid, {" + args + "}, options);\n}\n\n";
  h += "// Launches " + bundle.kernel + " on the device's default stream.\n";
  h += "inline void " + name + "(const trident::Device &device, const trident::Grid &grid" + params +
       ", const trident::LaunchOptions &options = {}) {\n";
  h += "  " + name + "(device.defaultStream(), grid" + forward + ", options);\n}\n\n";
  h += "} // namespace " + ns + "\n";
  return h;
}

} // namespace trident::tool
