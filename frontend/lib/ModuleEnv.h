#pragma once
// Python modules as the frontend sees them: a parsed file and what its
// module-level names stand for (@triton.jit functions, constants, imports), and
// the set of modules one compile reads (the kernel file, the files it imports,
// the language prelude).
//
// A module's names are bound by running its module-level statements in order,
// as Python does: `def`s and `NAME = ...` bind (constants are evaluated lazily,
// when a kernel first uses them), imports are resolved to files, and `if` and
// `try` blocks are decided now:
//
//   if triton.__version__ >= "3.0":      the test is evaluated at compile time
//       from .new import helper          (Triton 3.6's version, hasattr on tl...);
//   else:                                only the taken branch binds names
//       from .old import helper
//   try:                                 the body runs until an import fails (a
//       from triton.tools... import X    module or name that does not exist);
//   except ImportError:                  then the matching handler runs
//       X = None
//
// A test that cannot be evaluated (torch.cuda.is_available()) binds every name
// either branch assigns as opaque, with the reason, so that a kernel using one
// gets an error saying why.

#include "AST.h"

#include "trident/frontend/Frontend.h"

#include <map>
#include <memory>
#include <string>

namespace trident::frontend {

struct ModuleEnv;

struct GlobalEntry {
  enum class Kind : uint8_t {
    Function,   // a def (jit or not: FunctionDef::parsed tells)
    Constant,   // NAME = value
    Module,     // import a.b as c  (path = "a.b"; module: the file, when one was found)
    ImportFrom, // from path import member (module: the file, when one was found)
    Opaque,     // assigned by a statement the frontend cannot evaluate (reason: why)
  };
  Kind kind = Kind::Opaque;
  const FunctionDef *function = nullptr;
  const Expr *value = nullptr;
  const ModuleEnv *module = nullptr; // a module read from a file; null: the language or unknown
  std::string path, member;
  std::string reason; // Opaque: "it is assigned under a module-level condition that ..."
  Span span;
};

struct ModuleEnv {
  std::unique_ptr<SourceBuffer> source;
  ModuleAST ast;
  std::string name;       // dotted: "pkg.ops.utils"; the kernel file's: its stem or package path
  std::string folder;     // where `from . import x` looks (a package: its own folder)
  bool isPackage = false; // submodules are the files in `folder`
  enum class State : uint8_t { Found, Loading, Loaded } state = State::Found;
  std::map<std::string, GlobalEntry, std::less<>> globals;
  std::vector<const FunctionDef *> definitions; // functions bound, in the order they were
  // Functions made jit by a call (`k = triton.jit(f)`), parsed again with their bodies.
  std::vector<std::unique_ptr<FunctionDef>> derived;

  const GlobalEntry *lookup(std::string_view name) const {
    auto it = globals.find(name);
    return it == globals.end() ? nullptr : &it->second;
  }
  // The jit functions the module's names are bound to, in source order.
  std::vector<const FunctionDef *> jitFunctions() const;
};

class CodeGen;

// Every module of one compile. Modules are found when imported and read (parsed,
// names bound) when first used, so an import of a large host package costs a file
// lookup only.
class ModuleSet {
public:
  explicit ModuleSet(const ImportOptions &options);
  ~ModuleSet();
  ModuleSet(const ModuleSet &) = delete;
  ModuleSet &operator=(const ModuleSet &) = delete;

  // The kernel file, read now. Lexical errors throw CompileError.
  const ModuleEnv &addMain(const std::string &fileName, std::string text);
  // The language functions written in the Triton language (Prelude.cpp), read once
  // per process and shared by every set.
  const ModuleEnv &prelude();
  // Binds the names of a found module on first use (a no-op while it is being read).
  const ModuleEnv &load(const ModuleEnv &m);

  // `import a.b.c`: the file providing a.b.c, or null when none does.
  const ModuleEnv *findAbsolute(const std::string &dotted);
  // `from ..a import x` in `from` (level 2, dotted "a"); null when not found.
  const ModuleEnv *findRelative(const ModuleEnv &from, int level, const std::string &dotted);
  // The submodule `name` of a package, or null.
  const ModuleEnv *submodule(const ModuleEnv &package, const std::string &name);
  // Reads every module found so far, and those they import, until none is left.
  // Modules that fail to read are skipped.
  void loadAll();
  // Every module read from a file, but the kernel file: (path, text), sorted by path.
  std::vector<std::pair<std::string, std::string>> files() const;
  // The folders absolute imports search, for messages.
  std::string searchedFolders() const;

private:
  // Runs module-level statements; false when an import failed inside a try (the
  // ImportError propagates to the handler; `why` says what failed).
  bool run(ModuleEnv &env, const StmtList &stmts, bool inTry, std::string &why);
  void bindImport(ModuleEnv &env, const Stmt &s, bool inTry, std::string &why, bool &failed);
  void bindImportFrom(ModuleEnv &env, const Stmt &s, bool inTry, std::string &why, bool &failed);
  // `k = triton.jit(f)`: binds k to f parsed again, with the decorator calls.
  void bindDecorated(ModuleEnv &env, const Expr &target, const FunctionDef &base,
                     std::vector<const Expr *> decorators);
  void bindOpaque(ModuleEnv &env, const StmtList &stmts, const std::string &reason);
  // A module file or package folder `name` in `folder`; null when absent.
  const ModuleEnv *lookIn(const std::string &folder, const std::string &name, const std::string &dotted);
  // A found module, to be read on first use; `file` is its key (a folder for a
  // package without __init__.py).
  const ModuleEnv *add(const std::string &file, std::string text, const std::string &dotted,
                       const std::string &folder, bool isPackage);
  std::optional<std::string> readFile(const std::string &path) const;
  bool isFolder(const std::string &path) const;
  CodeGen &evaluator();

  ImportOptions options_;
  std::vector<std::string> roots_;                            // where absolute imports look, in order
  std::map<std::string, std::unique_ptr<ModuleEnv>> modules_; // by file (or package folder)
  const ModuleEnv *main_ = nullptr;
  std::unique_ptr<ModuleEnv> prelude_; // only in the one set that owns the shared prelude
  bool ownsPrelude_ = false;
  int loadDepth_ = 0;
  // Module-level tests are evaluated by a code generator of their own, building
  // into a scratch module, so that nothing they do reaches the kernel's IR.
  std::unique_ptr<Module> scratch_;
  std::unique_ptr<CodeGen> evaluator_;
};

// True when `e` names tl.constexpr (tl.constexpr, triton.language.constexpr, constexpr).
bool isConstexprAnnotation(const Expr *e);

// True for the modules of Triton 3.6 (triton, triton.language.extra.libdevice,
// triton.tools.tensor_descriptor...) and Python's math.
bool isLanguageModule(const std::string &dotted);
bool languageModuleExists(const std::string &dotted);

} // namespace trident::frontend
