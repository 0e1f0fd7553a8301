// The names of triton.language that shape how code is compiled rather than what it
// computes: tl.condition (a while loop's condition with compiler hints),
// tl.async_task (a warp-specialization context manager), tl.slice (Triton's slice
// objects) and tl.target_info (what the compile target is).
//
// Trident does not warp-specialize: the body of `with tl.async_task([...]):` runs as
// ordinary code of every program, which is what it computes under Triton too (the
// task ids only assign its ops to warp groups). tl.condition's disable_licm is
// recorded on the tt.while as an attribute; no pass reads it yet.
//
// tl.target_info's functions are Triton's constexpr functions: they answer for the
// target the compile request names (CompileRequest::target). With no target named,
// they answer as Triton does when no driver is active (current_target() is None):
// False.

#include "CodeGen.h"

#include <cctype>

namespace trident::frontend {

namespace {

bool atHintSite(const CodeGen &cg, const Span &s) {
  return cg.hintSite && cg.hintBuffer == cg.pos(s).buffer && cg.hintSite->span.line == s.line && cg.hintSite->span.col == s.col &&
         cg.hintSite->span.begin == s.begin;
}

// The architecture part of a target name: "cuda:sm_90a" -> "sm_90a", "hip:gfx942" -> "gfx942".
std::string archOf(const std::string &target) {
  size_t colon = target.find(':');
  return colon == std::string::npos ? std::string() : target.substr(colon + 1);
}

bool startsWith(const std::string &s, const char *prefix) { return s.rfind(prefix, 0) == 0; }

// NVIDIA's compute capability as Triton's GPUTarget.arch holds it: sm_90a -> 90,
// sm_100 -> 100; nullopt for a target that is not cuda.
std::optional<int64_t> cudaCapability(const std::string &target) {
  if (!startsWith(target, "cuda:"))
    return std::nullopt;
  std::string arch = archOf(target);
  if (!startsWith(arch, "sm_"))
    return std::nullopt;
  int64_t v = 0;
  size_t i = 3;
  for (; i < arch.size() && std::isdigit(static_cast<unsigned char>(arch[i])) && v < 100000; ++i)
    v = v * 10 + (arch[i] - '0');
  return i > 3 ? std::optional<int64_t>(v) : std::nullopt;
}

} // namespace

void registerTargetBuiltins(BuiltinTable &t) {
  // tl.slice(start, stop, step): what `a:b:c` in a subscript makes (Triton's own class).
  t["tl.slice"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"start", "stop", "step"});
    Object s;
    s.kind = Object::Kind::Slice;
    for (const auto &part : a) {
      if (!part->value.isConstexpr())
        cg.error(part->span, "tl.slice's bounds must be compile-time values (None or an int), got " +
                                 part->value.describe());
      s.items.push_back(part->value);
    }
    return s;
  };
  // while tl.condition(c, disable_licm=False): the condition c, with a hint for the loop.
  t["tl.condition"] = [](CodeGen &cg, const CallArgs &args) {
    if (!atHintSite(cg, args.span) || cg.hintKind != CodeGen::HintKind::WhileTest)
      cg.error(args.span, "tl.condition(...) can only be the condition of a while loop: `while tl.condition(c):`");
    auto a = args.bind(cg, {"arg1", "disable_licm="});
    cg.whileDisableLicm = a[1] && cg.boolArg(*a[1], "tl.condition's disable_licm");
    return a[0]->value;
  };
  // with tl.async_task([0, 1]): the ops of the body belong to those warp-specialization tasks.
  t["tl.async_task"] = [](CodeGen &cg, const CallArgs &args) {
    if (!atHintSite(cg, args.span) || cg.hintKind != CodeGen::HintKind::WithItem)
      cg.error(args.span, "tl.async_task(...) can only be used as a context manager: `with tl.async_task([0]):`");
    auto a = args.bind(cg, {"task_ids"});
    const Object &ids = a[0]->value;
    if (!ids.is(Object::Kind::Tuple) || ids.items.empty())
      cg.error(a[0]->span, "tl.async_task needs a non-empty list of task ids, got " + ids.describe());
    for (const Object &id : ids.items)
      if (!id.is(Object::Kind::Int) || id.intValue < 0)
        cg.error(a[0]->span, "tl.async_task's task ids must be non-negative compile-time integers, got " +
                                 id.describe());
    Object task = Object::named(Object::Kind::Enum, "tl.async_task");
    task.items = ids.items;
    return task;
  };
  auto noArgs = [](CodeGen &cg, const CallArgs &args) { args.bind(cg, {}); };
  t["tl.target_info.is_cuda"] = [noArgs](CodeGen &cg, const CallArgs &args) {
    noArgs(cg, args);
    return Object::boolean(startsWith(cg.target(), "cuda:"));
  };
  t["tl.target_info.is_hip"] = [noArgs](CodeGen &cg, const CallArgs &args) {
    noArgs(cg, args);
    return Object::boolean(startsWith(cg.target(), "hip:"));
  };
  t["tl.target_info.is_hip_cdna3"] = [noArgs](CodeGen &cg, const CallArgs &args) {
    noArgs(cg, args);
    return Object::boolean(startsWith(cg.target(), "hip:") && archOf(cg.target()) == "gfx942");
  };
  t["tl.target_info.is_hip_cdna4"] = [noArgs](CodeGen &cg, const CallArgs &args) {
    noArgs(cg, args);
    return Object::boolean(startsWith(cg.target(), "hip:") && archOf(cg.target()) == "gfx950");
  };
  t["tl.target_info.cuda_capability_geq"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"major", "minor="});
    int64_t major = cg.intArg(*a[0], "cuda_capability_geq's major");
    int64_t minor = a[1] ? cg.intArg(*a[1], "cuda_capability_geq's minor") : 0;
    std::optional<int64_t> cc = cudaCapability(cg.target());
    return Object::boolean(cc && *cc >= major * 10 + minor);
  };
  t["tl.target_info.current_target"] = [](CodeGen &cg, const CallArgs &args) -> Object {
    cg.error(args.span, "tl.target_info.current_target() returns Triton's GPUTarget object, which Trident does "
                        "not model; use is_cuda(), cuda_capability_geq(major, minor), is_hip(), is_hip_cdna3() "
                        "or is_hip_cdna4()");
  };
}

} // namespace trident::frontend
