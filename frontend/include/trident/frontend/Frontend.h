#pragma once
// The frontend: Triton-language source (@triton.jit functions in a .py file) to
// block IR, specialized for one call signature. No Python is involved.
//
//   Diagnostics diags;
//   auto sig = parseSignature("*fp32:16, *fp32:16, *fp32:16, i32, 1024", diags);
//   auto m = compileKernel(source, "add.py", "add_kernel", *sig, diags);

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace trident {

// One argument of a call signature.
struct ArgSpec {
  enum class Kind { Pointer, Int, Float, Bool, Constexpr, TensorDesc };
  Kind kind = Kind::Int;
  Type type;               // Pointer, TensorDesc: ptr<dtype>; Int: i8..i64; Float: f16..f64; Bool: i1
  bool isUnsigned = false; // Int: Triton's u8..u64; Pointer: an unsigned pointee (*u32)
  // Pointer, TensorDesc: an fp8 format the IR holds as i8 bits (*fp8e4b15: 1, *fp8e4b8: 2,
  // *fp8e5b16: 3; 0 for every other pointee).
  uint8_t softFp8 = 0;
  // Triton's specializations: 16 when the integer or address is known to be a
  // multiple of 16; an integer equal to 1 is passed as Constexpr 1 instead.
  int divisibility = 1;
  // Constexpr: the value as Python source text ("1024", "True", "'ieee'", "tl.float16").
  std::string constexprValue;
  // TensorDesc (Triton's "tensordesc<fp16[64, 64]>"): the block shape. The kernel
  // takes it as 1 + 2 * rank parameters: the base pointer, the shape (i32 each),
  // the strides (i64 each; the last must be 1, as Triton requires).
  std::vector<int64_t> blockShape;
};

// Triton's signature strings: "*fp32:16, *fp16, i32:16, i64, fp32, u8, i1, 1024, True".
// A pointer is '*' + dtype, ":16" marks divisibility; "tensordesc<fp16[64, 64]>" is a
// host tensor descriptor; a bare value is a constexpr.
std::optional<std::vector<ArgSpec>> parseSignature(std::string_view text, Diagnostics &diags);

// The Triton release whose language the frontend implements: `triton.__version__`
// in module-level conditions, packaging.version comparisons.
inline constexpr const char *kTritonVersion = "3.6.0";

// How `import` and `from ... import` in kernel files find other Python modules.
// A module is searched for in the kernel file's folder, then in the folders above
// it up to the parent of its outermost package (folders holding __init__.py), then
// in `searchPath`, then in TRIDENT_PYTHONPATH's folders (':'-separated). Only the
// jit functions and compile-time constants of imported modules are read.
// triton, triton.language... and math are the language's own modules and never
// read from files; modules found nowhere (torch, numpy) may be imported but not used.
struct ImportOptions {
  std::vector<std::string> searchPath;
  bool useEnvironment = true; // TRIDENT_PYTHONPATH
  // The file system, replaceable for tests and fuzzing: readFile gives a file's text
  // (nullopt when it is not a readable file), isFolder tells folders (for packages
  // without __init__.py). Unset: the real file system.
  std::function<std::optional<std::string>(const std::string &path)> readFile;
  std::function<bool(const std::string &path)> isFolder;
};

struct CompileRequest {
  std::string kernel;        // name of the @triton.jit function
  std::vector<ArgSpec> args; // one per parameter, in order (trailing parameters with
                             // defaults may be left out: their defaults become constexprs)
  // Triton's debug mode: `assert` and tl.device_assert become tt.assert (dropped otherwise).
  bool debug = false;
  // Receives tl.static_print output; when empty, it goes to standard error.
  std::function<void(const std::string &)> staticPrint;
  ImportOptions imports;
  // The target the block IR is compiled for ("cuda:sm_90", "hip:gfx942", "vulkan",
  // "host"), which tl.target_info.is_cuda(), cuda_capability_geq(...), is_hip() ...
  // answer for at compile time. Empty: not known; they answer False, as Triton's do
  // when no driver is active. The block IR is otherwise the same for every target.
  std::string target;
};

// Compiles one kernel (and the jit functions it calls) to a block-IR module with
// one tt.func named after the kernel. The same source and request always give
// byte-identical IR. On error returns nullopt with diagnostics that carry
// file:line:column; the message is followed by the source line and a caret.
// The tt.func takes only the runtime arguments: constexpr parameters (and
// arguments the signature gives as constants) are not parameters of it.
std::optional<Module> compileKernel(std::string_view source, std::string_view fileName,
                                    const CompileRequest &request, Diagnostics &diags);

// Autotuning and launch facts recorded from decorators, for the runtime.
struct KernelInfo {
  std::string name;
  std::vector<std::string> params;   // parameter names, in order
  std::vector<bool> isConstexpr;     // per parameter
  std::vector<std::string> defaults; // per parameter: default value source, or ""
  std::vector<std::string> doNotSpecialize;
  bool noinline = false;
  // @triton.autotune: configs (kwargs as name -> Python source, num_warps, num_stages) and keys.
  struct Config {
    std::vector<std::pair<std::string, std::string>> kwargs;
    int numWarps = 4;
    int numStages = 3;
  };
  std::vector<Config> autotuneConfigs;
  std::vector<std::string> autotuneKeys;
  // @triton.heuristics: parameter name -> lambda source text.
  std::vector<std::pair<std::string, std::string>> heuristics;
  // Not empty when this kernel's decorators cannot be read: the diagnostic (file:line:col,
  // message, snippet). The file's other kernels are still listed and usable.
  std::string error;
};

// Lists the @triton.jit functions of a source file with their decorator facts.
// The jit functions are those the module defines after its module-level `if` and
// `try` blocks are evaluated (see ImportOptions for the modules it imports), and
// those made jit by calls (`k = triton.jit(f)`, `k = triton.autotune(...)(f)`).
// Fails only when the file itself cannot be read; a kernel whose decorators cannot
// be read carries KernelInfo::error.
std::optional<std::vector<KernelInfo>> listKernels(std::string_view source, std::string_view fileName,
                                                   Diagnostics &diags, const ImportOptions &imports = {});

// Every module file the source imports, directly or through the modules it
// imports, as compileKernel resolves them: (path, text) pairs sorted by path. A
// cache of compiled kernels must key on these besides the source itself. Files
// that do not read or tokenize are left out (compiling reports them).
std::vector<std::pair<std::string, std::string>>
importedFiles(std::string_view source, std::string_view fileName, const ImportOptions &imports = {});

} // namespace trident
