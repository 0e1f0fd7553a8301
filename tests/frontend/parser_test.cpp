// The parser: Python's grammar and precedence, the module-level skipper, and
// whole tutorial-style files.
#include "Parser.h"

#include "trident/frontend/Frontend.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

using namespace trident::frontend;

namespace {

struct Parsed {
  std::unique_ptr<SourceBuffer> source;
  ModuleAST module;
};

Parsed parse(std::string text) {
  Parsed p;
  p.source = std::make_unique<SourceBuffer>("t.py", std::move(text));
  p.module = parseModule(*p.source);
  return p;
}

// A compact rendering of an expression, with every operator parenthesized.
std::string show(const Expr *e) {
  if (!e)
    return "_";
  switch (e->kind) {
  case ExprKind::Name: return e->name;
  case ExprKind::Int: return std::to_string(static_cast<uint64_t>(e->intValue));
  case ExprKind::Float: {
    std::ostringstream os;
    os << e->floatValue;
    return os.str();
  }
  case ExprKind::String: return "'" + e->name + "'";
  case ExprKind::Bool: return e->boolValue ? "True" : "False";
  case ExprKind::None: return "None";
  case ExprKind::Ellipsis: return "...";
  case ExprKind::Attribute: return show(e->value.get()) + "." + e->name;
  case ExprKind::Call: {
    std::string s = show(e->value.get()) + "(";
    bool first = true;
    for (auto &a : e->items) {
      s += (first ? "" : ", ") + show(a.get());
      first = false;
    }
    for (auto &k : e->keywords) {
      s += (first ? "" : ", ") + k.name + "=" + show(k.value.get());
      first = false;
    }
    return s + ")";
  }
  case ExprKind::Subscript: return show(e->value.get()) + "[" + show(e->index.get()) + "]";
  case ExprKind::Slice:
    return show(e->items[0].get()) + ":" + show(e->items[1].get()) + ":" + show(e->items[2].get());
  case ExprKind::BinOp:
    return "(" + show(e->value.get()) + " " + spelling(e->binOp) + " " + show(e->index.get()) + ")";
  case ExprKind::UnaryOp: return std::string("(") + spelling(e->unaryOp) + " " + show(e->value.get()) + ")";
  case ExprKind::BoolOp: {
    std::string s = "(";
    for (size_t i = 0; i < e->items.size(); ++i)
      s += (i ? (e->boolValue ? " and " : " or ") : "") + show(e->items[i].get());
    return s + ")";
  }
  case ExprKind::Compare: {
    std::string s = "(" + show(e->items[0].get());
    for (size_t i = 0; i < e->cmpOps.size(); ++i)
      s += std::string(" ") + spelling(e->cmpOps[i]) + " " + show(e->items[i + 1].get());
    return s + ")";
  }
  case ExprKind::IfExp:
    return "(" + show(e->items[1].get()) + " if " + show(e->items[0].get()) + " else " +
           show(e->items[2].get()) + ")";
  case ExprKind::Tuple:
  case ExprKind::List: {
    std::string s = e->kind == ExprKind::Tuple ? "(" : "[";
    for (size_t i = 0; i < e->items.size(); ++i)
      s += (i ? ", " : "") + show(e->items[i].get());
    return s + (e->kind == ExprKind::Tuple ? ",)" : "]");
  }
  case ExprKind::Dict: return "{dict " + std::to_string(e->items.size()) + "}";
  case ExprKind::Set: return "{set}";
  case ExprKind::Lambda: return "lambda";
  case ExprKind::Starred: return "*" + show(e->value.get());
  case ExprKind::DoubleStarred: return "**" + show(e->value.get());
  case ExprKind::Unsupported: return "<" + e->name + ">";
  }
  return "?";
}

std::string expr(std::string text) {
  SourceBuffer src("e.py", std::move(text));
  return show(parseExpression(src).get());
}

std::string exprError(std::string text) {
  try {
    expr(std::move(text));
  } catch (const CompileError &e) {
    return std::to_string(e.pos.line) + ":" + std::to_string(e.pos.col) + ": " + e.message;
  }
  return "no error";
}

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const FunctionDef *findFunction(const ModuleAST &m, std::string_view name) {
  for (auto &s : m.body)
    if (s->kind == StmtKind::FunctionDef && s->function->name == name)
      return s->function.get();
  return nullptr;
}

} // namespace

TEST_CASE("operator precedence follows Python") {
  CHECK(expr("a + b * c") == "(a + (b * c))");
  CHECK(expr("a * b + c") == "((a * b) + c)");
  CHECK(expr("a - b - c") == "((a - b) - c)");
  CHECK(expr("-a ** 2") == "(- (a ** 2))");
  CHECK(expr("a ** -b ** c") == "(a ** (- (b ** c)))");
  CHECK(expr("a & b | c ^ d") == "((a & b) | (c ^ d))");
  CHECK(expr("a << 1 + 2") == "(a << (1 + 2))");
  CHECK(expr("a < b < c") == "(a < b < c)");
  CHECK(expr("not a == b and c or d") == "(((not (a == b)) and c) or d)");
  CHECK(expr("x if c else y if d else z") == "(x if c else (y if d else z))");
  CHECK(expr("a // b % c") == "((a // b) % c)");
  CHECK(expr("~a & b") == "((~ a) & b)");
  CHECK(expr("a is not None") == "(a is not None)");
  CHECK(expr("a not in b") == "(a not in b)");
}

TEST_CASE("primaries: calls, attributes, subscripts, slices") {
  CHECK(expr("tl.load(p + offs, mask=m, other=0.0)") == "tl.load((p + offs), mask=m, other=0)");
  CHECK(expr("x[:, None]") == "x[(_:_:_, None,)]");
  CHECK(expr("x[None]") == "x[None]");
  CHECK(expr("x[1:2:3]") == "x[1:2:3]");
  CHECK(expr("x.to(tl.float16).T") == "x.to(tl.float16).T");
  CHECK(expr("f(*args, **kw)") == "f(*args, **kw)");
  CHECK(expr("(1,)") == "(1,)");
  CHECK(expr("()") == "(,)");
  CHECK(expr("(a)") == "a");
  CHECK(expr("[1, 2]") == "[1, 2]");
  CHECK(expr("a, b") == "(a, b,)");
  CHECK(expr("'ab' 'cd'") == "'abcd'");
  CHECK(expr("float('inf')") == "float('inf')");
  CHECK(expr("{'a': 1, 'b': 2}") == "{dict 2}");
  CHECK(expr("lambda args: args['K'] % 16 == 0") == "lambda");
  CHECK(expr("[x for x in y]") == "<comprehension>");
  CHECK(expr("f(x for x in y)") == "f(<generator expression>)");
  CHECK(expr("f'{x}'") == "<f-string>");
  CHECK(expr("...") == "...");
}

TEST_CASE("expression syntax errors") {
  CHECK(exprError("a +") == "1:4: invalid syntax: unexpected end of line in expression");
  CHECK(exprError("f(a") == "1:2: '(' was never closed");
  CHECK(exprError("x if c") == "1:7: expected 'else' in conditional expression");
  CHECK(exprError("a.1") != "no error");
  std::string deep(150, '(');
  CHECK(exprError(deep + "1" + std::string(150, ')')) == "1:101: expression is nested too deeply");
  std::string chain = "a";
  for (int i = 0; i < 300; ++i)
    chain += " + a";
  CHECK(exprError(chain) == "1:1: expression is nested too deeply");
}

TEST_CASE("statements of a jit function") {
  auto p = parse("import triton\nimport triton.language as tl\n\n@triton.jit\n"
                 "def k(x_ptr, n, BLOCK: tl.constexpr = 128):\n"
                 "    a, b = 1, 2\n"
                 "    c: tl.constexpr = 3\n"
                 "    a += b; b -= 1\n"
                 "    if a:\n        pass\n    elif b:\n        return\n    else:\n        a = b = 1\n"
                 "    for i in range(0, n, 2):\n        continue\n"
                 "    while a < b:\n        break\n"
                 "    assert a, 'msg'\n"
                 "    with open(f) as g:\n        pass\n"
                 "    try:\n        pass\n    except E:\n        pass\n    finally:\n        pass\n"
                 "    return a, b\n");
  const FunctionDef *k = findFunction(p.module, "k");
  REQUIRE(k);
  CHECK(k->parsed);
  CHECK(!k->parseError);
  REQUIRE(k->params.size() == 3);
  CHECK(k->params[2].name == "BLOCK");
  CHECK(show(k->params[2].annotation.get()) == "tl.constexpr");
  CHECK(show(k->params[2].defaultValue.get()) == "128");
  std::vector<StmtKind> kinds;
  for (auto &s : k->body)
    kinds.push_back(s->kind);
  std::vector<StmtKind> expected = {StmtKind::Assign,      StmtKind::AnnAssign, StmtKind::AugAssign,
                                    StmtKind::AugAssign,   StmtKind::If,        StmtKind::For,
                                    StmtKind::While,       StmtKind::Assert,    StmtKind::Unsupported,
                                    StmtKind::Unsupported, StmtKind::Return};
  CHECK(kinds == expected);
  const Stmt &ifs = *k->body[4];
  REQUIRE(ifs.orelse.size() == 1);
  CHECK(ifs.orelse[0]->kind == StmtKind::If);
  REQUIRE(ifs.orelse[0]->orelse.size() == 1);
  CHECK(ifs.orelse[0]->orelse[0]->targets.size() == 2);
  CHECK(k->body[8]->module == "with");
  CHECK(k->body[9]->module == "try");
}

TEST_CASE("the module reader keeps imports, constants and jit functions and skips host code") {
  auto p =
      parse("import torch\nimport triton\nimport triton.language as tl\nfrom triton.language import "
            "(arange, load as ld)\n"
            "BLOCK = 128\nSCALE = tl.constexpr(2.0)\nDEVICE = "
            "triton.runtime.driver.active.get_active_torch_device()\n"
            "configs = [triton.Config({'B': b}) for b in (16, 32)]\n"
            "class Foo:\n    def bar(self):\n        return {x: y for x, y in z}\n"
            "def host(x):\n    with torch.no_grad():\n        return x @ x\n"
            "@torch.no_grad()\ndef host2(): pass\n"
            "@triton.jit\ndef k(x):\n    return x\n"
            "if __name__ == '__main__':\n    k[(1,)](torch.ones(3))\n    print(f'{1}')\nelse:\n    pass\n"
            "x = 1; y = 2\n"
            "print('done', end='')\n"
            "@triton.jit\ndef broken(x):\n    return x +\n"
            "@triton.jit(do_not_specialize=['n'])\ndef last(n):\n    pass\n");
  std::vector<std::string> seen;
  for (auto &s : p.module.body) {
    switch (s->kind) {
    case StmtKind::Import: seen.push_back("import"); break;
    case StmtKind::ImportFrom: seen.push_back("from"); break;
    case StmtKind::Assign: seen.push_back("=" + s->targets[0]->name); break;
    case StmtKind::FunctionDef:
      seen.push_back(std::string(s->function->parsed ? "jit " : "def ") + s->function->name);
      break;
    case StmtKind::Skipped: seen.push_back("skip"); break;
    case StmtKind::If: seen.push_back("if"); break;
    default: seen.push_back("?"); break;
    }
  }
  std::vector<std::string> expected = {"import",  "import",   "import", "from",       "=BLOCK",    "=SCALE",
                                       "=DEVICE", "=configs", "skip",   "def host",   "def host2", "jit k",
                                       "if",      "skip",     "skip",   "jit broken", "jit last"};
  CHECK(seen == expected);
  const FunctionDef *broken = findFunction(p.module, "broken");
  REQUIRE(broken);
  REQUIRE(broken->parseError);
  CHECK(broken->parseError->message == "invalid syntax: unexpected end of line in expression");
  CHECK(broken->parseError->pos.line == 29);
}

TEST_CASE("every sample parses completely") {
  for (const char *name : {"vector_add", "fused_softmax", "matmul", "layer_norm", "dropout", "attention",
                           "reduce_custom", "scan"}) {
    CAPTURE(name);
    std::string text = readFile(std::string(TRIDENT_SAMPLES_DIR) + "/" + name + ".py");
    REQUIRE(!text.empty());
    auto p = parse(text);
    int jit = 0;
    for (auto &s : p.module.body)
      if (s->kind == StmtKind::FunctionDef && s->function->parsed) {
        ++jit;
        CHECK(!s->function->parseError);
        CHECK(!s->function->body.empty());
      }
    CHECK(jit >= 1);
  }
}

TEST_CASE("host code of every kind is skipped and the kernels still compile") {
  std::string src = R"PY(from __future__ import annotations
import os, sys
import triton
import triton.language as tl
from typing import (Optional,
                    List)


@dataclass(frozen=True)
class Cfg:
    a: int = 1

    @property
    def f(self) -> int:
        return self.a


async def main(*args, **kwargs) -> None:
    async with x as y:
        await z


x = [i for i in range(3) if i]
y = {k: v for k, v in d.items()}
if (n := len(x)) > 2:
    pass
match x:
    case [1, 2]:
        pass
    case _:
        pass
lam = lambda *a, **k: (a, k)
s = f"{x!r:>10}"
t = """multi
line"""; u = 1
BLOCK: tl.constexpr = 64


@triton.jit
def k(x_ptr):
    """A docstring, with 'quotes' and "more"."""
    offs = tl.arange(0, BLOCK)  # a comment
    tl.store(x_ptr + offs, \
             1.0)


print(*x, sep="")
try:
    import torch
except ImportError:
    torch = None
finally:
    pass
with open("f") as f, open("g") as g:
    data = f.read()
del x
global_var: int
)PY";
  trident::Diagnostics diags;
  auto kernels = trident::listKernels(src, "zoo.py", diags);
  REQUIRE(kernels);
  REQUIRE(kernels->size() == 1);
  CHECK((*kernels)[0].name == "k");
  auto sig = trident::parseSignature("*fp32", diags);
  trident::CompileRequest req;
  req.kernel = "k";
  req.args = *sig;
  auto m = trident::compileKernel(src, "zoo.py", req, diags);
  INFO(diags.str());
  CHECK(m);
}
