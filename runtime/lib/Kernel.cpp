// Kernel construction and the small value types of Kernel.h.

#include "KernelImpl.h"

#include "FrontendBridge.h"
#include "Sha256.h"
#include "trident/Error.h"
#include "trident/support/Spelling.h"

#include <bit>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace trident {

using namespace detail;

// ---- Constexpr, Arg, Meta ----

Constexpr Constexpr::source(std::string text) {
  Constexpr c;
  c.kind_ = Kind::Source;
  c.text_ = std::move(text);
  return c;
}

Constexpr Constexpr::string(std::string_view value) {
  std::string s = "'";
  for (char ch : value) {
    if (ch == '\'' || ch == '\\')
      s += '\\';
    s += ch;
  }
  return source(s + "'");
}

std::string Constexpr::pythonSource() const {
  switch (kind_) {
  case Kind::Int: return std::to_string(int_);
  case Kind::Bool: return int_ ? "True" : "False";
  case Kind::Float: {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", float_);
    std::string s = buf;
    if (s.find_first_of(".eEn") == std::string::npos)
      s += ".0";
    return s;
  }
  case Kind::Source: return text_;
  }
  return text_;
}

Arg::Arg(const Buffer &buffer)
    : kind_(Kind::Pointer), dtype_(buffer.dtype()), bits_(buffer.address()), buffer_(buffer.impl().get()) {}
Arg::Arg(const TensorDescriptor &d)
    : kind_(Kind::TensorDescriptor), dtype_(d.base.dtype), bits_(d.base.address),
      buffer_(d.buffer() ? d.buffer()->impl().get() : nullptr), descriptor_(&d) {}
Arg::Arg(float v) : kind_(Kind::Float), dtype_(DType::F32), bits_(std::bit_cast<uint32_t>(v)) {}
Arg::Arg(double v) : kind_(Kind::Float), dtype_(DType::F64), bits_(std::bit_cast<uint64_t>(v)) {}
Arg Arg::f16(float v) { return Arg(Kind::Float, DType::F16, floatToHalf(v)); }
Arg Arg::bf16(float v) { return Arg(Kind::Float, DType::BF16, floatToBFloat16(v)); }

std::optional<int64_t> Meta::get(std::string_view name) const {
  for (size_t i = 0; i < names_.size() && i < values_.size(); ++i)
    if (names_[i] == name)
      return values_[i].present ? std::optional<int64_t>(values_[i].value) : std::nullopt;
  return std::nullopt;
}

int64_t Meta::operator[](std::string_view name) const {
  if (auto v = get(name))
    return *v;
  std::string known;
  for (size_t i = 0; i < names_.size() && i < values_.size(); ++i)
    if (values_[i].present)
      known += (known.empty() ? "" : ", ") + names_[i];
  throw Error(ErrorCode::InvalidArgument, "the grid function asked for '" + std::string(name) +
                                              "', which is not an integer parameter of this launch (integer values: " +
                                              (known.empty() ? "none" : known) + ")");
}

// ---- construction ----

namespace detail {

Constexpr parseConstexprSource(const std::string &text) {
  if (text == "True")
    return Constexpr(true);
  if (text == "False")
    return Constexpr(false);
  int64_t i = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
  if (ec == std::errc() && p == text.data() + text.size())
    return Constexpr(i);
  double d = 0;
  auto [q, ec2] = std::from_chars(text.data(), text.data() + text.size(), d);
  if (ec2 == std::errc() && q == text.data() + text.size())
    return Constexpr(d);
  return Constexpr::source(text);
}

TuneConfig makeTuneConfig(const std::vector<std::pair<std::string, std::string>> &kwargs, int numWarps,
                          int numStages) {
  TuneConfig config;
  for (const auto &[name, value] : kwargs) {
    config.kwargs.emplace_back(name, parseConstexprSource(value));
    config.sources.emplace_back(name, value);
    config.text += name + "=" + value + ", ";
  }
  config.numWarps = numWarps;
  config.numStages = numStages;
  config.text += "num_warps=" + std::to_string(numWarps) + ", num_stages=" + std::to_string(numStages);
  return config;
}

Specialization::~Specialization() {
  if (module)
    device->plugin->tryCall(&trident_plugin_api::module_unload, module);
}

} // namespace detail

namespace {

std::string hashOf(std::initializer_list<std::string_view> fields) {
  Sha256 sha;
  for (std::string_view f : fields)
    sha.field(f);
  return sha.hexDigest();
}

} // namespace

void detail::indexParams(KernelImpl &k) {
  if (k.params.size() > kMaxParams)
    throw Error(ErrorCode::NotSupported, "kernel '" + k.name + "' has " + std::to_string(k.params.size()) +
                                             " parameters; Trident supports at most " + std::to_string(kMaxParams));
  for (const Param &p : k.params)
    k.paramNames.push_back(p.name);
}

Kernel Kernel::fromSource(std::string source, const std::string &name, std::string fileName) {
  std::vector<SourceKernel> kernels = listKernelsInSource(source, fileName);
  const SourceKernel *found = nullptr;
  for (const SourceKernel &k : kernels)
    if (k.name == name)
      found = &k;
  if (!found) {
    std::string names;
    std::vector<std::string> known;
    for (const SourceKernel &k : kernels) {
      names += (names.empty() ? "" : ", ") + k.name;
      known.push_back(k.name);
    }
    std::optional<std::string> near = closestSpelling(name, known);
    throw Error(ErrorCode::NotFound, "no @triton.jit function named '" + name + "' in " + fileName +
                                         " (it defines: " + (names.empty() ? "none" : names) + ")" +
                                         (near ? "; did you mean '" + *near + "'?" : ""));
  }
  if (!found->error.empty())
    throw Error(ErrorCode::Compile,
                "cannot read kernel '" + name + "' in " + fileName + ":\n" + found->error);
  auto impl = std::make_shared<KernelImpl>();
  impl->name = name;
  impl->fileName = fileName;
  impl->params = found->params;
  impl->configs = found->configs;
  for (const std::string &key : found->tuneKeys) {
    size_t j = 0;
    while (j < impl->params.size() && impl->params[j].name != key)
      ++j;
    if (j == impl->params.size())
      throw Error(ErrorCode::Compile, fileName + ": @triton.autotune key '" + key + "' is not a parameter of '" +
                                          name + "'");
    impl->tuneKeyParams.push_back(j);
  }
  std::vector<std::string> names;
  for (const Param &p : impl->params)
    names.push_back(p.name);
  for (const auto &[param, lambda] : found->heuristics) {
    size_t j = 0;
    while (j < names.size() && names[j] != param)
      ++j;
    if (j == names.size())
      throw Error(ErrorCode::Compile, fileName + ": @triton.heuristics sets '" + param + "', which is not a parameter of '" +
                                          name + "'");
    impl->heuristics.emplace_back(param, lambda, names);
    impl->heuristicParams.push_back(j);
  }
  // The whole file and the modules it imports: they hold every jit function and
  // constant the kernel can use.
  impl->sourceHash = hashOf({"source", fileName, source, importedSourcesKey(source, fileName)});
  impl->source = std::move(source);
  indexParams(*impl);
  Kernel k;
  k.impl_ = std::move(impl);
  return k;
}

Kernel Kernel::fromFile(const std::string &path, const std::string &name) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(ErrorCode::NotFound, "cannot open kernel file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return fromSource(text.str(), name, path);
}

Kernel Kernel::fromBlockIR(std::string ir, const std::string &name) {
  auto impl = std::make_shared<KernelImpl>();
  impl->name = name;
  impl->fileName = "<block IR>";
  impl->isBlockIR = true;
  for (const std::string &p : blockIRParams(ir, name)) {
    Param param;
    param.name = p;
    impl->params.push_back(std::move(param));
  }
  impl->sourceHash = hashOf({"block-ir", ir});
  impl->source = std::move(ir);
  indexParams(*impl);
  Kernel k;
  k.impl_ = std::move(impl);
  return k;
}

const std::string &Kernel::name() const {
  requireHandle(impl_ != nullptr, "Kernel");
  return impl_->name;
}
size_t Kernel::numParams() const {
  requireHandle(impl_ != nullptr, "Kernel");
  return impl_->params.size();
}
const std::string &Kernel::paramName(size_t i) const {
  requireHandle(impl_ != nullptr, "Kernel");
  return impl_->params.at(i).name;
}
bool Kernel::paramIsConstexpr(size_t i) const {
  requireHandle(impl_ != nullptr, "Kernel");
  return impl_->params.at(i).isConstexpr;
}

} // namespace trident
