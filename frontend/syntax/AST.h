#pragma once
// The syntax tree of the Python subset the frontend reads. Positions are 1-based
// (line, column) in the file the node came from; `begin`/`end` are byte offsets,
// so the original text of any node (a lambda in @triton.heuristics, a default
// value) can be recovered.

#include "Source.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace trident::frontend {

struct Span {
  uint32_t line = 0, col = 0;
  uint32_t begin = 0, end = 0;
};

enum class ExprKind : uint8_t {
  Name,
  Int,
  Float,
  String,
  Bool,
  None,
  Ellipsis,
  Attribute, // value.name
  Call,      // callee(args..., keywords...)
  Subscript, // value[index]
  Slice,     // lower:upper:step (children may be null)
  BinOp,     // lhs op rhs
  UnaryOp,   // op operand
  BoolOp,    // operands joined by 'and' / 'or'
  Compare,   // operands[0] ops[0] operands[1] ops[1] ...
  IfExp,     // body if test else orelse
  Tuple,
  List,
  Dict,
  Set,
  Lambda,        // lambda params: body
  Starred,       // *value (in calls)
  DoubleStarred, // **value (in calls)
  Unsupported,   // a construct the frontend parses past but cannot compile (comprehension, f-string...)
};

enum class BinOpKind : uint8_t {
  Add,
  Sub,
  Mul,
  Div,
  FloorDiv,
  Mod,
  Pow,
  LShift,
  RShift,
  BitAnd,
  BitOr,
  BitXor,
  MatMul
};
enum class UnaryOpKind : uint8_t { Neg, Pos, Invert, Not };
enum class CmpOpKind : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

const char *spelling(BinOpKind op);
const char *spelling(UnaryOpKind op);
const char *spelling(CmpOpKind op);

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Keyword {
  std::string name;
  Span span;
  ExprPtr value;
};

struct Expr {
  ExprKind kind;
  Span span;
  std::string name;               // Name: id; Attribute: attr; String: value; Unsupported: construct
  unsigned __int128 intValue = 0; // Int (non-negative literal)
  bool intTooLarge = false;
  double floatValue = 0;  // Float
  bool boolValue = false; // Bool; BoolOp: true for 'and'
  BinOpKind binOp = BinOpKind::Add;
  UnaryOpKind unaryOp = UnaryOpKind::Neg;
  std::vector<CmpOpKind> cmpOps;
  ExprPtr value;               // Attribute/Subscript/Starred: the object; Call: callee; UnaryOp: operand;
                               // Lambda: the body
  ExprPtr index;               // Subscript: the index; BinOp: rhs (value is lhs)
  std::vector<ExprPtr> items;  // Call args, tuple/list/set elements, Dict keys, BoolOp/Compare operands,
                               // Slice [lower, upper, step], IfExp [test, body, orelse], Lambda parameters
  std::vector<ExprPtr> values; // Dict values
  std::vector<Keyword> keywords;
  unsigned depth = 1; // nesting depth, bounded by the parser

  Expr(ExprKind k, Span s) : kind(k), span(s) {}
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

enum class StmtKind : uint8_t {
  Expr,
  Assign,
  AugAssign,
  AnnAssign,
  If,
  For,
  While,
  Return,
  Pass,
  Break,
  Continue,
  Assert,
  FunctionDef,
  Import,
  ImportFrom,
  With,        // inside functions: `with a, b:` (targets: the context expressions)
  Try,         // module level only: try/except/else/finally (inside kernels it is Unsupported)
  Unsupported, // try, class, del, global, raise, ... : `construct` names it
  Skipped,     // module level: a statement the frontend does not need (host code)
};

struct Param {
  std::string name;
  Span span;
  ExprPtr annotation;   // may be null
  ExprPtr defaultValue; // may be null
  bool isVarArgs = false, isKwArgs = false;
};

struct Alias {
  std::string name;   // dotted module or imported name
  std::string asName; // empty when absent
  Span span;
};

struct FunctionDef {
  std::string name;
  Span span;
  std::vector<ExprPtr> decorators;
  std::vector<Param> params;
  StmtList body;
  const SourceBuffer *source = nullptr;
  bool parsed = true;                     // false: the body was skipped (not a jit function)
  bool constexprFunction = false;         // @triton.constexpr_function: evaluated at compile time
  // Decorators applied by calls (`k = triton.autotune(...)(triton.jit(fn))`), outermost
  // first, before `decorators`; they belong to the module-level assignment.
  std::vector<const Expr *> appliedDecorators;
  std::optional<CompileError> parseError; // a jit function whose body does not parse
};

struct Stmt;

// One `except` clause of a module-level try.
struct ExceptHandler {
  Span span;
  std::unique_ptr<Expr> type; // null for a bare `except:`
  StmtList body;
};

struct Stmt {
  StmtKind kind;
  Span span;
  std::vector<ExprPtr> targets; // Assign: targets (a = b = c has two); AnnAssign/AugAssign/For: one
  ExprPtr value;                // Expr/Assign/AugAssign/AnnAssign/Return value; If/While test; For iter;
                                // Assert test
  ExprPtr annotation;           // AnnAssign; Assert: message
  BinOpKind augOp = BinOpKind::Add;
  StmtList body, orelse;               // If/For/While; Try: body and else
  std::vector<ExceptHandler> handlers; // Try
  StmtList finalbody;                  // Try
  std::unique_ptr<FunctionDef> function;
  std::vector<Alias> aliases; // Import/ImportFrom
  std::string module;         // ImportFrom; Unsupported: the construct
  int importLevel = 0;        // ImportFrom: leading dots

  Stmt(StmtKind k, Span s) : kind(k), span(s) {}
};

// A parsed file: its module-level statements.
struct ModuleAST {
  const SourceBuffer *source = nullptr;
  StmtList body;
};

} // namespace trident::frontend
