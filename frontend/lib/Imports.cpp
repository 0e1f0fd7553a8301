// Finding the modules a kernel file imports: Python's rules for packages
// (folders with __init__.py, or without one), relative imports, and the search
// path (the kernel file's folder and its package's parents, ImportOptions,
// TRIDENT_PYTHONPATH). Triton's own modules are known by name, never read.

#include "ModuleEnv.h"

#include "CodeGen.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace trident::frontend {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxModules = 256;
constexpr std::uintmax_t kMaxFileBytes = 16u << 20;

bool isIdentifier(const std::string &s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
    return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
      return false;
  return true;
}

std::vector<std::string> splitDots(const std::string &dotted) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t dot = dotted.find('.', start);
    parts.push_back(dotted.substr(start, dot - start));
    if (dot == std::string::npos)
      return parts;
    start = dot + 1;
  }
}

std::string join(const std::string &folder, const std::string &name) {
  return (fs::path(folder) / name).string();
}

std::string parentOf(const std::string &folder) {
  fs::path p = fs::path(folder).parent_path();
  return p.empty() ? folder : p.string();
}

} // namespace

bool isLanguageModule(const std::string &dotted) {
  return dotted == "math" || dotted == "triton" || dotted.rfind("triton.", 0) == 0;
}

bool languageModuleExists(const std::string &dotted) {
  static const std::set<std::string> modules = {
      "math",
      "triton",
      "triton.language",
      "triton.language.core",
      "triton.language.math",
      "triton.language.standard",
      "triton.language.semantic",
      "triton.language.random",
      "triton.language.target_info",
      "triton.language.extra",
      "triton.language.extra.libdevice",
      "triton.language.extra.cuda",
      "triton.language.extra.cuda.libdevice",
      "triton.language.extra.cuda.utils",
      "triton.language.extra.hip",
      "triton.language.extra.hip.libdevice",
      "triton.runtime",
      "triton.runtime.jit",
      "triton.runtime.autotuner",
      "triton.runtime.driver",
      "triton.runtime.errors",
      "triton.runtime.cache",
      "triton.runtime.interpreter",
      "triton.testing",
      "triton.compiler",
      "triton.compiler.compiler",
      "triton.compiler.errors",
      "triton.backends",
      "triton.backends.compiler",
      "triton.tools",
      "triton.tools.tensor_descriptor",
      "triton.tools.disasm",
      "triton.knobs",
      "triton.experimental",
      "triton.experimental.gluon",
      "triton.experimental.gluon.language",
      "triton.profiler",
  };
  return modules.count(dotted) > 0;
}

ModuleSet::ModuleSet(const ImportOptions &options) : options_(options) {}

ModuleSet::~ModuleSet() = default;

std::optional<std::string> ModuleSet::readFile(const std::string &path) const {
  if (options_.readFile)
    return options_.readFile(path);
  std::error_code ec;
  if (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) > kMaxFileBytes || ec)
    return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool ModuleSet::isFolder(const std::string &path) const {
  if (options_.isFolder)
    return options_.isFolder(path);
  if (options_.readFile)
    return false;
  std::error_code ec;
  return fs::is_directory(path, ec);
}

const ModuleEnv &ModuleSet::addMain(const std::string &fileName, std::string text) {
  fs::path file = fs::path(fileName).lexically_normal();
  std::string folder = file.parent_path().string();
  if (folder.empty())
    folder = ".";
  // The kernel file's package: the folders above it holding __init__.py.
  std::string name = file.stem().string(), dir = folder;
  roots_.push_back(folder);
  for (int depth = 0; depth < 32 && readFile(join(dir, "__init__.py")); ++depth) {
    std::string parent = parentOf(dir);
    if (parent == dir)
      break;
    name = fs::path(dir).filename().string() + "." + name;
    dir = parent;
    roots_.push_back(dir);
  }
  for (const std::string &f : options_.searchPath)
    roots_.push_back(f);
  if (options_.useEnvironment)
    if (const char *env = std::getenv("TRIDENT_PYTHONPATH")) {
      std::string list = env;
      size_t start = 0;
      while (start <= list.size()) {
        size_t colon = list.find(':', start);
        std::string f = list.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        if (!f.empty())
          roots_.push_back(f);
        if (colon == std::string::npos)
          break;
        start = colon + 1;
      }
    }
  auto env = std::make_unique<ModuleEnv>();
  env->source = std::make_unique<SourceBuffer>(fileName, std::move(text));
  env->name = name;
  env->folder = folder;
  env->isPackage = file.filename() == "__init__.py";
  ModuleEnv &main = *env;
  main_ = &main;
  modules_[file.string()] = std::move(env);
  load(main);
  return main;
}

const ModuleEnv &ModuleSet::prelude() {
  if (!ownsPrelude_) {
    // The prelude is the same text for every compile and reads nothing outside itself
    // (it imports only the language, no files, and has no module-level tests), so it
    // is parsed and bound once per process, by a set of its own, and shared read-only
    // (a function-local static: thread-safe to initialize). Parsing it (3000 lines) was
    // most of the cost of compiling a small kernel.
    static const ModuleEnv &shared = []() -> const ModuleEnv & {
      ImportOptions none;
      none.useEnvironment = false;
      none.readFile = [](const std::string &) -> std::optional<std::string> { return std::nullopt; };
      static ModuleSet owner(none);
      owner.ownsPrelude_ = true;
      return owner.prelude();
    }();
    return shared;
  }
  if (!prelude_) {
    prelude_ = std::make_unique<ModuleEnv>();
    prelude_->source = std::make_unique<SourceBuffer>("<triton.language>", preludeSource());
    prelude_->name = "triton.language";
    load(*prelude_);
  }
  return *prelude_;
}

CodeGen &ModuleSet::evaluator() {
  if (!evaluator_) {
    // Loading the prelude evaluates its decorators (@triton.constexpr_function), which
    // asks for the evaluator again: load it first, so that only one evaluator (and
    // one scratch module) is ever made.
    const ModuleEnv &language = prelude();
    if (evaluator_)
      return *evaluator_;
    scratch_ = std::make_unique<Module>();
    evaluator_ = std::make_unique<CodeGen>(*scratch_, *this, language, false);
    evaluator_->enterScratchFunction();
  }
  return *evaluator_;
}

const ModuleEnv *ModuleSet::lookIn(const std::string &folder, const std::string &name,
                                   const std::string &dotted) {
  if (!isIdentifier(name))
    return nullptr;
  std::string base = fs::path(join(folder, name)).lexically_normal().string();
  struct Candidate {
    std::string file;
    bool isPackage;
  };
  for (const Candidate &c :
       {Candidate{join(base, "__init__.py"), true}, Candidate{base + ".py", false}, Candidate{base, true}}) {
    if (auto it = modules_.find(c.file); it != modules_.end())
      return it->second.get();
    if (modules_.size() >= kMaxModules)
      return nullptr;
    std::optional<std::string> text;
    if (c.file == base) { // a folder without __init__.py: a namespace package
      if (!isFolder(base))
        continue;
      text = "";
    } else {
      text = readFile(c.file);
      if (!text)
        continue;
    }
    return add(c.file, std::move(*text), dotted, c.isPackage ? base : folder, c.isPackage);
  }
  return nullptr;
}

const ModuleEnv *ModuleSet::add(const std::string &file, std::string text, const std::string &dotted,
                                const std::string &folder, bool isPackage) {
  auto env = std::make_unique<ModuleEnv>();
  env->source = std::make_unique<SourceBuffer>(file, std::move(text));
  env->name = dotted;
  env->folder = folder;
  env->isPackage = isPackage;
  const ModuleEnv *result = env.get();
  modules_[file] = std::move(env);
  return result;
}

const ModuleEnv *ModuleSet::findAbsolute(const std::string &dotted) {
  std::vector<std::string> parts = splitDots(dotted);
  const ModuleEnv *m = nullptr;
  for (const std::string &root : roots_)
    if ((m = lookIn(root, parts[0], parts[0])))
      break;
  for (size_t i = 1; m && i < parts.size(); ++i)
    m = submodule(*m, parts[i]);
  return m;
}

const ModuleEnv *ModuleSet::findRelative(const ModuleEnv &from, int level, const std::string &dotted) {
  // The package `from` belongs to, then `level - 1` packages up.
  std::vector<std::string> names = splitDots(from.name);
  if (!from.isPackage)
    names.pop_back();
  std::string base = from.folder;
  for (int i = 1; i < level; ++i) {
    base = parentOf(base);
    if (!names.empty())
      names.pop_back();
  }
  std::string packageName;
  for (const std::string &n : names)
    packageName += (packageName.empty() ? "" : ".") + n;
  if (dotted.empty()) {
    // `from . import x`: the package folder itself, with or without __init__.py.
    std::string init = join(base, "__init__.py");
    for (const std::string &key : {init, base})
      if (auto it = modules_.find(key); it != modules_.end())
        return it->second.get();
    std::optional<std::string> text = readFile(init);
    return add(text ? init : base, text ? std::move(*text) : "",
               packageName.empty() ? fs::path(base).filename().string() : packageName, base, true);
  }
  std::vector<std::string> parts = splitDots(dotted);
  // A kernel file outside any package imports its folder's files by their own names.
  const ModuleEnv *m = lookIn(base, parts[0], packageName.empty() ? parts[0] : packageName + "." + parts[0]);
  for (size_t i = 1; m && i < parts.size(); ++i)
    m = submodule(*m, parts[i]);
  return m;
}

const ModuleEnv *ModuleSet::submodule(const ModuleEnv &package, const std::string &name) {
  if (!package.isPackage)
    return nullptr;
  return lookIn(package.folder, name, package.name + "." + name);
}

void ModuleSet::loadAll() {
  std::set<const ModuleEnv *> tried;
  for (bool progress = true; progress;) {
    progress = false;
    std::vector<const ModuleEnv *> pending;
    for (const auto &[key, m] : modules_)
      if (m->state == ModuleEnv::State::Found && tried.insert(m.get()).second)
        pending.push_back(m.get());
    for (const ModuleEnv *m : pending) {
      progress = true;
      try {
        load(*m);
      } catch (CompileError &) {
      }
    }
  }
}

std::vector<std::pair<std::string, std::string>> ModuleSet::files() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto &entry : modules_)
    if (const ModuleEnv *m = entry.second.get(); m != main_ && m->state == ModuleEnv::State::Loaded)
      out.emplace_back(m->source->name(), m->source->text());
  return out;
}

std::string ModuleSet::searchedFolders() const {
  std::string s;
  for (const std::string &r : roots_)
    s += (s.empty() ? "" : ", ") + r;
  return s;
}

} // namespace trident::frontend
