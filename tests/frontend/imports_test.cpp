// Imports of other modules (helpers and constants from sibling files and
// packages) and module-level if/try blocks decided at compile time. The files
// live in an in-memory file system (ImportOptions::readFile), except for one test
// that goes through the real one and TRIDENT_PYTHONPATH.
#include "FrontendTestUtil.h"

#include "trident/interp/Interpreter.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include <unistd.h>

using namespace trident;
using namespace trident::test;

namespace {

struct Files {
  std::map<std::string, std::string> files;
  std::vector<std::string> searchPath;

  ImportOptions options() const {
    ImportOptions o;
    o.useEnvironment = false;
    o.searchPath = searchPath;
    auto shared = std::make_shared<std::map<std::string, std::string>>(files);
    o.readFile = [shared](const std::string &path) -> std::optional<std::string> {
      auto it = shared->find(std::filesystem::path(path).lexically_normal().string());
      if (it == shared->end())
        return std::nullopt;
      return it->second;
    };
    o.isFolder = [shared](const std::string &path) {
      std::string prefix = std::filesystem::path(path).lexically_normal().string() + "/";
      auto it = shared->lower_bound(prefix);
      return it != shared->end() && it->first.rfind(prefix, 0) == 0;
    };
    return o;
  }

  Compiled compile(const std::string &mainPath, const std::string &kernel,
                   const std::string &signature) const {
    Compiled c;
    auto sig = parseSignature(signature, c.diags);
    REQUIRE(sig);
    CompileRequest req;
    req.kernel = kernel;
    req.args = *sig;
    req.imports = options();
    req.staticPrint = [](const std::string &) {};
    c.module = compileKernel(files.at(mainPath), mainPath, req, c.diags);
    if (c.module)
      c.ir = print(*c.module, PrintOptions{false});
    return c;
  }

  // "file:line:col: message" of the first diagnostic, without the snippet.
  std::string error(const std::string &mainPath, const std::string &kernel,
                    const std::string &signature) const {
    Compiled c = compile(mainPath, kernel, signature);
    if (c.module)
      return "no error";
    REQUIRE(!c.diags.empty());
    const Diagnostic &d = c.diags.list()[0];
    std::string file(d.loc.file());
    return std::filesystem::path(file).filename().string() + ":" + std::to_string(d.loc.line()) + ":" +
           std::to_string(d.loc.col()) + ": " + d.message.substr(0, d.message.find('\n'));
  }

  std::vector<std::string> kernels(const std::string &mainPath) const {
    Diagnostics diags;
    auto list = listKernels(files.at(mainPath), mainPath, diags, options());
    INFO(diags.str());
    REQUIRE(list);
    std::vector<std::string> names;
    for (const KernelInfo &k : *list)
      names.push_back(k.name);
    return names;
  }
};

// Runs kernel `k(out_ptr)` on one program and returns out[0..n).
std::vector<float> runOut(const Module &m, int n) {
  std::vector<float> out(static_cast<size_t>(n), -1.0f);
  Interpreter interp;
  interp.addBuffer(out.data(), out.size() * sizeof(float));
  Diagnostics diags;
  std::vector<KernelArg> args = {KernelArg::pointer(out.data(), Type::f32())};
  bool ok = interp.run(m, "k", args, {1, 1, 1}, diags);
  INFO(diags.str());
  REQUIRE(ok);
  return out;
}

const char *kStore4 = "    i = tl.arange(0, 4)\n";

} // namespace

TEST_CASE("imports: helpers and constants from sibling modules, packages and package parents") {
  Files fs;
  fs.files["/r/pkg/__init__.py"] = "";
  fs.files["/r/pkg/common.py"] = "import triton\nimport triton.language as tl\nSCALE = 3.0\n"
                                 "@triton.jit\ndef scale(x):\n    return x * SCALE\n";
  fs.files["/r/pkg/ops/__init__.py"] = "from .utils import plus_one as exported_plus_one\n";
  fs.files["/r/pkg/ops/utils.py"] = "import triton\nimport triton.language as tl\nOFFSET: tl.constexpr = 1\n"
                                    "@triton.jit\ndef plus_one(x):\n    return x + OFFSET\n";
  fs.files["/r/pkg/ops/k.py"] =
      std::string(kHeader) +
      "from .utils import plus_one\n"              // relative, sibling
      "from pkg.common import scale, SCALE as S\n" // absolute, via the package's parent
      "from .. import common as c\n"               // relative, a package up
      "import pkg.ops.utils as u\n"                // module alias
      "import pkg.common\n"                        // binds pkg
      "from . import exported_plus_one\n"          // a name of the package's __init__
      "@triton.jit\ndef k(out_ptr):\n" +
      kStore4 +
      "    x = i.to(tl.float32)\n"
      "    tl.store(out_ptr + i, plus_one(x))\n"
      "    tl.store(out_ptr + 4 + i, scale(x) + S)\n"
      "    tl.store(out_ptr + 8 + i, c.scale(x) + u.OFFSET)\n"
      "    tl.store(out_ptr + 12 + i, pkg.common.scale(x) * pkg.ops.utils.OFFSET)\n"
      "    tl.store(out_ptr + 16 + i, exported_plus_one(x) + c.SCALE)\n";
  Compiled c = fs.compile("/r/pkg/ops/k.py", "k", "*fp32");
  INFO(c.diags.str());
  REQUIRE(c.module);
  std::vector<float> out = runOut(*c.module, 20);
  for (int i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(out[i] == i + 1.0f);
    CHECK(out[4 + i] == i * 3.0f + 3.0f);
    CHECK(out[8 + i] == i * 3.0f + 1.0f);
    CHECK(out[12 + i] == i * 3.0f);
    CHECK(out[16 + i] == i + 1.0f + 3.0f);
  }
}

TEST_CASE("imports: names are per module (two modules both define _helper)") {
  Files fs;
  fs.files["/p/a.py"] = std::string(kHeader) + "K = 2\n@triton.jit\ndef _helper(x):\n    return x * K\n"
                                               "@triton.jit\ndef f(x):\n    return _helper(x)\n";
  fs.files["/p/b.py"] = std::string(kHeader) + "K = 100\n@triton.jit\ndef _helper(x):\n    return x + K\n"
                                               "@triton.jit\ndef f(x):\n    return _helper(x)\n";
  fs.files["/p/k.py"] =
      std::string(kHeader) +
      "import a\nfrom b import f as bf\nK = -1\n"
      "@triton.jit\ndef _helper(x):\n    return x - 1000\n"
      "@triton.jit\ndef k(out_ptr):\n" +
      kStore4 +
      "    x = i.to(tl.float32)\n    tl.store(out_ptr + i, a.f(x))\n"
      "    tl.store(out_ptr + 4 + i, bf(x))\n    tl.store(out_ptr + 8 + i, _helper(x) + K)\n";
  Compiled c = fs.compile("/p/k.py", "k", "*fp32");
  INFO(c.diags.str());
  REQUIRE(c.module);
  std::vector<float> out = runOut(*c.module, 12);
  for (int i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(out[i] == 2.0f * i);
    CHECK(out[4 + i] == i + 100.0f);
    CHECK(out[8 + i] == i - 1001.0f);
  }
}

TEST_CASE("imports: the search path, star imports and import cycles") {
  Files fs;
  fs.searchPath = {"/lib"};
  fs.files["/lib/kernels_common/__init__.py"] = "";
  fs.files["/lib/kernels_common/consts.py"] =
      "import triton.language as tl\nfrom .cyc import TWICE\nBLOCK = 4\nDTYPE = tl.float32\n_PRIVATE = 7\n";
  fs.files["/lib/kernels_common/cyc.py"] = "from .consts import BLOCK\nTWICE = BLOCK * 2\n";
  fs.files["/src/k.py"] = std::string(kHeader) + "from kernels_common.consts import *\n"
                                                 "@triton.jit\ndef k(out_ptr):\n"
                                                 "    i = tl.arange(0, BLOCK)\n"
                                                 "    tl.store(out_ptr + i, (i + TWICE).to(DTYPE))\n"
                                                 "@triton.jit\ndef bad(out_ptr):\n"
                                                 "    tl.store(out_ptr, _PRIVATE)\n";
  Compiled c = fs.compile("/src/k.py", "k", "*fp32");
  INFO(c.diags.str());
  REQUIRE(c.module);
  std::vector<float> out = runOut(*c.module, 4);
  for (int i = 0; i < 4; ++i)
    CHECK(out[i] == i + 8.0f);
  // A star import binds public names only.
  CHECK(fs.error("/src/k.py", "bad", "*fp32") == "k.py:11:23: name '_PRIVATE' is not defined");
}

TEST_CASE("imports: errors name the missing module or name, and point into the imported file") {
  Files fs;
  fs.files["/p/util.py"] = std::string(kHeader) +
                           "@triton.jit\ndef broken(x):\n    return x + undefined_name\n"
                           "X = torch.float32\n";
  fs.files["/p/k.py"] = std::string(kHeader) + "import torch\nfrom .missing import helper\n"
                                               "from .util import broken, nothere, X\n"
                                               "import util\n"
                                               "@triton.jit\ndef k1(p):\n    helper(p)\n"
                                               "@triton.jit\ndef k2(p):\n    nothere(p)\n"
                                               "@triton.jit\ndef k3(p):\n    broken(p)\n"
                                               "@triton.jit\ndef k4(p):\n    util.nope(p)\n"
                                               "@triton.jit\ndef k5(p):\n    tl.store(p, X)\n"
                                               "@triton.jit\ndef k6(p):\n    torch.ones(p)\n";
  CHECK(fs.error("/p/k.py", "k1", "*fp32") ==
        "k.py:10:5: global 'helper' cannot be used in a kernel: no module named '.missing' next to /p/k.py");
  CHECK(fs.error("/p/k.py", "k2", "*fp32") ==
        "k.py:13:5: cannot import name 'nothere' from 'util' (/p/util.py)");
  CHECK(fs.error("/p/k.py", "k3", "*fp32") == "util.py:6:16: name 'undefined_name' is not defined");
  CHECK(fs.error("/p/k.py", "k4", "*fp32") == "k.py:19:5: module 'util' has no attribute 'nope'");
  CHECK(fs.error("/p/k.py", "k5", "*fp32") ==
        "util.py:7:5: global 'X' cannot be used in a kernel: name 'torch' is not defined (used as 'X' from "
        "/p/k.py:22)");
  CHECK(fs.error("/p/k.py", "k6", "*fp32") ==
        "k.py:25:5: module 'torch' cannot be used inside a @triton.jit function");
}

TEST_CASE("imports: files on disk, found through TRIDENT_PYTHONPATH and the kernel's folder") {
  namespace sfs = std::filesystem;
  sfs::path root = sfs::temp_directory_path() / ("trident_imports_" + std::to_string(::getpid()));
  sfs::remove_all(root);
  sfs::create_directories(root / "kernels");
  sfs::create_directories(root / "shared" / "nspkg"); // a package without __init__.py
  auto write = [](const sfs::path &p, const std::string &text) { std::ofstream(p) << text; };
  write(root / "shared" / "nspkg" / "helpers.py",
        std::string(kHeader) + "@triton.jit\ndef triple(x):\n    return x * 3\n");
  write(root / "kernels" / "local.py", "N = 4\n");
  std::string main = std::string(kHeader) + "from nspkg.helpers import triple\nfrom local import N\n"
                                            "@triton.jit\ndef k(out_ptr):\n    i = tl.arange(0, N)\n"
                                            "    tl.store(out_ptr + i, triple(i.to(tl.float32)))\n";
  write(root / "kernels" / "k.py", main);
  std::string kernelFile = (root / "kernels" / "k.py").string();
  auto compile = [&]() {
    Compiled c;
    auto sig = parseSignature("*fp32", c.diags);
    CompileRequest req;
    req.kernel = "k";
    req.args = *sig;
    c.module = compileKernel(main, kernelFile, req, c.diags);
    return c;
  };
  ::unsetenv("TRIDENT_PYTHONPATH");
  Compiled without = compile();
  CHECK(!without.module);
  CHECK(without.diags.str().find("no module named 'nspkg.helpers'") == std::string::npos); // a host module
  CHECK(without.diags.str().find("module 'nspkg.helpers' cannot be used") != std::string::npos);
  std::string path = "/nonexistent:" + (root / "shared").string();
  ::setenv("TRIDENT_PYTHONPATH", path.c_str(), 1);
  Compiled with = compile();
  ::unsetenv("TRIDENT_PYTHONPATH");
  INFO(with.diags.str());
  REQUIRE(with.module);
  std::vector<float> out = runOut(*with.module, 4);
  for (int i = 0; i < 4; ++i)
    CHECK(out[i] == 3.0f * i);
  sfs::remove_all(root);
}

TEST_CASE("module-level if: version checks, hasattr, __name__ and elif choose imports and constants") {
  Files fs;
  fs.files["/m/new.py"] = std::string(kHeader) + "@triton.jit\ndef pick(x):\n    return x + 10\n";
  fs.files["/m/old.py"] = std::string(kHeader) + "@triton.jit\ndef pick(x):\n    return x - 10\n";
  fs.files["/m/k.py"] = std::string(kHeader) +
                        "from packaging import version\n"
                        "import math\n"
                        "if version.parse(triton.__version__) >= version.parse('3.0.0'):\n"
                        "    from .new import pick\n"
                        "else:\n"
                        "    from .old import pick\n"
                        "TRITON_MAJOR_MINOR = tuple(map(int, triton.__version__.split('.')[:2]))\n"
                        "if TRITON_MAJOR_MINOR >= (3, 7): A = 100.0\n"
                        "elif TRITON_MAJOR_MINOR >= (3, 6): A = 1.0\n"
                        "else: A = -1.0\n"
                        "if hasattr(tl, 'arange') and not hasattr(tl, 'no_such_function'):\n"
                        "    B = 2.0\n"
                        "if __name__ == '__main__':\n"
                        "    B = 1000.0\n"
                        "if triton.__version__.startswith('2.'):\n"
                        "    import does_not_matter\n"
                        "    B = -5.0\n"
                        "if version.Version(triton.__version__).major == 3 and version.parse('3.6') == "
                        "version.parse('3.6.0'):\n"
                        "    @triton.jit\n"
                        "    def k(out_ptr):\n"
                        "        i = tl.arange(0, 4)\n"
                        "        tl.store(out_ptr + i, pick(i.to(tl.float32)) + A * B)\n"
                        "else:\n"
                        "    @triton.jit\n"
                        "    def other(out_ptr):\n"
                        "        pass\n";
  CHECK(fs.kernels("/m/k.py") == std::vector<std::string>{"k"});
  Compiled c = fs.compile("/m/k.py", "k", "*fp32");
  INFO(c.diags.str());
  REQUIRE(c.module);
  std::vector<float> out = runOut(*c.module, 4);
  for (int i = 0; i < 4; ++i)
    CHECK(out[i] == i + 10.0f + 2.0f);
}

TEST_CASE("module-level if: a test that cannot be evaluated makes its names unusable, saying why") {
  Files fs;
  fs.files["/m/k.py"] = std::string(kHeader) + "import torch\nBLOCK = 64\n"
                                               "if torch.cuda.is_available():\n"
                                               "    BLOCK = 128\n"
                                               "    @triton.jit\n"
                                               "    def fast(p):\n"
                                               "        pass\n"
                                               "@triton.jit\ndef k(p):\n    tl.store(p, BLOCK)\n";
  CHECK(
      fs.error("/m/k.py", "k", "*i32") ==
      "k.py:13:17: global 'BLOCK' cannot be used in a kernel: it is assigned under a module-level condition "
      "(line 6) that Trident cannot evaluate at compile time: module 'torch' cannot be used inside a "
      "@triton.jit function");
  std::string fast = fs.error("/m/k.py", "fast", "*i32");
  CAPTURE(fast);
  CHECK(fast.find("k.py:9:5: 'fast' cannot be compiled: it is assigned under") == 0);
  CHECK(fs.kernels("/m/k.py") == std::vector<std::string>{"k"});
}

TEST_CASE("module-level try: an import that fails runs the matching except clause") {
  Files fs;
  fs.files["/t/present.py"] = std::string(kHeader) + "@triton.jit\ndef h(x):\n    return x * 2\n";
  fs.files["/t/k.py"] = std::string(kHeader) +
                        "try:\n"
                        "    from triton.tools.tensor_descriptor import TensorDescriptor\n"
                        "    HAS_TD = True\n"
                        "except ImportError:\n"
                        "    HAS_TD = False\n"
                        "try:\n"
                        "    from .absent import h\n" // fails: h comes from the handler
                        "    A = 1000.0\n"
                        "except (ValueError, ModuleNotFoundError) as e:\n"
                        "    from .present import h\n"
                        "    A = 1.0\n"
                        "else:\n"
                        "    A = -1.0\n"
                        "finally:\n"
                        "    C = 5.0\n"
                        "try:\n"
                        "    from triton.language.no_such_module import thing\n"
                        "    D = 1000.0\n"
                        "except:\n"
                        "    D = 0.5\n"
                        "try:\n"
                        "    from .present import not_defined_there\n"
                        "except ImportError:\n"
                        "    E = 0.25\n"
                        "try:\n"
                        "    import triton.language as tl2\n"
                        "    from triton.language import arange\n"
                        "except ImportError:\n"
                        "    E = 1000.0\n"
                        "try:\n"
                        "    from .absent import z\n"
                        "except ValueError:\n" // does not catch it: z stays unusable
                        "    z = 1\n"
                        "@triton.jit\ndef k(out_ptr):\n"
                        "    i = tl2.arange(0, 4)\n"
                        "    if HAS_TD:\n"
                        "        tl.store(out_ptr + i, h(i.to(tl.float32)) + A + C + D + E)\n"
                        "@triton.jit\ndef bad(p):\n    tl.store(p, z)\n";
  Compiled c = fs.compile("/t/k.py", "k", "*fp32");
  INFO(c.diags.str());
  REQUIRE(c.module);
  std::vector<float> out = runOut(*c.module, 4);
  for (int i = 0; i < 4; ++i)
    CHECK(out[i] == 2.0f * i + 1.0f + 5.0f + 0.5f + 0.25f);
  CHECK(fs.error("/t/k.py", "bad", "*i32") ==
        "k.py:44:17: global 'z' cannot be used in a kernel: no module named '.absent' next to /t/k.py");
}

TEST_CASE("module-level if and try: statements that do not parse are skipped, the rest still loads") {
  Files fs;
  fs.files["/s/k.py"] = std::string(kHeader) + "if 1 +:\n    X = 1\nelse:\n    X = 2\n"
                                               "try:\n    Y = 3\n" // no except/finally
                                               "Z = 4\n"
                                               "if True:\n    W = 5 +\nV = 6\n"
                                               "@triton.jit\ndef k(out_ptr):\n"
                                               "    tl.store(out_ptr, Z + V)\n";
  Compiled c = fs.compile("/s/k.py", "k", "*fp32");
  INFO(c.diags.str());
  REQUIRE(c.module);
  CHECK(runOut(*c.module, 1)[0] == 10.0f);
}

TEST_CASE("importedFiles lists every module file a kernel file reaches, for cache keys") {
  Files fs;
  fs.files["/q/pkg/__init__.py"] = "from .a import f\n";
  fs.files["/q/pkg/a.py"] = "from .b import g\nimport torch\n";
  fs.files["/q/pkg/b.py"] = "X = 1\n";
  fs.files["/q/pkg/unused.py"] = "Y = 2\n";
  fs.files["/q/k.py"] = std::string(kHeader) + "import pkg\nfrom pkg import b as bb\n";
  auto files = importedFiles(fs.files.at("/q/k.py"), "/q/k.py", fs.options());
  std::vector<std::string> paths;
  for (const auto &[path, text] : files) {
    paths.push_back(path);
    CHECK(text == fs.files.at(path));
  }
  CHECK(paths == std::vector<std::string>{"/q/pkg/__init__.py", "/q/pkg/a.py", "/q/pkg/b.py"});
}

TEST_CASE("imports: hostile inputs stay bounded (deep chains, self imports, star cycles)") {
  Files fs;
  // m0 star-imports m1 ... m99: reading more than 64 modules deep is an error, not a stack overflow.
  for (int i = 0; i < 100; ++i)
    fs.files["/h/m" + std::to_string(i) + ".py"] =
        i < 99 ? "from .m" + std::to_string(i + 1) + " import *\nV" + std::to_string(i) + " = " + std::to_string(i) + "\n"
               : "V99 = 99\n";
  fs.files["/h/k.py"] = std::string(kHeader) + "from . import k\nfrom .k import x\nfrom .m0 import V99\n"
                                               "@triton.jit\ndef far(p):\n    tl.store(p, V99)\n"
                                               "@triton.jit\ndef me(p):\n    tl.store(p, x)\n";
  std::string far = fs.error("/h/k.py", "far", "*i32");
  CAPTURE(far);
  CHECK(far.find("modules import each other more than 64 levels deep") != std::string::npos);
  CHECK(fs.error("/h/k.py", "me", "*i32") == "k.py:12:17: 'x' is imported in a cycle of modules that never defines it");
  Files cyc;
  cyc.files["/c/a.py"] = "from .b import *\nA = 1\n";
  cyc.files["/c/b.py"] = "from .a import *\nB = 2\n";
  cyc.files["/c/k.py"] = std::string(kHeader) + "from .a import *\n@triton.jit\ndef k(p):\n    tl.store(p, B)\n";
  CHECK(cyc.error("/c/k.py", "k", "*i32") == "no error");
}
