# lit configuration of Trident's IR tests (run through CTest as the test `lit`).
#
# Test files end in .tir (Trident IR, the textual form in docs/ir-syntax.md). Each
# holds its RUN: and CHECK: lines as // comments, e.g.
#   // RUN: trident-opt --canonicalize %s | FileCheck %s
# trident-opt and trident-translate (the build's), trident where it is built, FileCheck
# and not (LLVM 19's) are found on PATH. The backends of the build are features: `// REQUIRES: nvptx`.
import os

import lit.formats

config.name = "Trident"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".tir"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = getattr(config, "trident_obj_root", config.test_source_root)

tools_dir = getattr(config, "trident_tools_dir", None)
llvm_tools_dir = getattr(config, "llvm_tools_dir", "/usr/lib/llvm-19/bin")
if tools_dir is None:
    lit_config.fatal("run lit on the build folder (tests/lit in the build), which holds lit.site.cfg.py")
translate_dir = getattr(config, "trident_translate_dir", tools_dir)
for tool, where in [("trident-opt", tools_dir), ("trident-translate", translate_dir)]:
    if not os.path.exists(os.path.join(where, tool)):
        lit_config.fatal("%s is not built in %s (ninja %s)" % (tool, where, tool))
for tool in ["FileCheck", "not"]:
    if not os.path.exists(os.path.join(llvm_tools_dir, tool)):
        lit_config.fatal("%s not found in %s (install llvm-19-tools)" % (tool, llvm_tools_dir))

for backend in getattr(config, "trident_backends", []):
    config.available_features.add(backend)

# `trident` itself (REQUIRES: trident): whole compiles through the runtime and a plugin.
cli_dir = getattr(config, "trident_cli_dir", "")
if cli_dir and os.path.exists(os.path.join(cli_dir, "trident")):
    config.available_features.add("trident")
config.environment["TRIDENT_CACHE"] = "0"

# ptxas (REQUIRES: ptxas, or `%if ptxas %{ %ptxas ... %}`): PTX tests assemble what they check.
ptxas = getattr(config, "ptxas", "")
if ptxas and os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

path = [tools_dir, translate_dir] + ([cli_dir] if cli_dir else []) + [llvm_tools_dir]
path.append(config.environment.get("PATH", os.environ.get("PATH", "")))
config.environment["PATH"] = os.pathsep.join(path)
