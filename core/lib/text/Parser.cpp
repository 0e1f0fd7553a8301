#include "trident/ir/Parser.h"

#include "Lexer.h"

#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace trident {

namespace {

using text::Lexer;

// Deeper nesting of regions and types is rejected rather than risking the stack.
constexpr unsigned kMaxNesting = 200;
// Blocks larger than this are surely junk; the bound keeps element counts far from overflow.
constexpr uint64_t kMaxElements = uint64_t(1) << 40;

std::string plural(size_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

// The count an op takes, as a phrase: "2 operands", "at least 1 operand", "1 to 3 operands".
std::string expectedCount(int min, int max, std::string_view word) {
  if (max < 0)
    return "at least " + plural(static_cast<size_t>(min), word);
  if (min == max)
    return plural(static_cast<size_t>(min), word);
  return std::to_string(min) + " to " + plural(static_cast<size_t>(max), word);
}

struct NamedPos {
  std::string name;
  size_t pos;
};

class Parser {
public:
  Parser(std::string_view text, std::string_view bufferName, Diagnostics &diags)
      : lex_(text, bufferName), diags_(diags) {}

  std::optional<Module> parseModule() {
    Block holder; // owns the top op until it is known to be a module
    scopes_.push_back(Scope{});
    size_t start = lex_.pos();
    if (lex_.atEnd()) {
      fail(start, "expected 'builtin.module'");
      return std::nullopt;
    }
    if (!parseOp(&holder))
      return std::nullopt;
    Op *top = holder.front();
    if (!top->is(OpCode::Module)) {
      fail(start, "expected 'builtin.module' at top level, got '" + std::string(top->name()) + "'");
      return std::nullopt;
    }
    if (!lex_.atEnd()) {
      fail(lex_.pos(), "expected end of input after the module");
      return std::nullopt;
    }
    top->detach();
    return Module(OwnedOp(top));
  }

  std::optional<Type> parseWholeType() {
    Type t;
    if (!parseType(t))
      return std::nullopt;
    if (!lex_.atEnd()) {
      fail(lex_.pos(), "expected end of input after the type");
      return std::nullopt;
    }
    return t;
  }

private:
  // Values visible in one region; an isolated region hides those of its parents.
  struct Scope {
    std::map<std::string, Value *, std::less<>> values;
    bool isolated = false;
  };

  // Counts nesting of regions and types for the duration of a parse function.
  class NestingGuard {
  public:
    explicit NestingGuard(unsigned &depth) : depth_(depth) { ++depth_; }
    ~NestingGuard() { --depth_; }
    bool tooDeep() const { return depth_ > kMaxNesting; }

  private:
    unsigned &depth_;
  };

  // Records the first error only: later ones would follow from it.
  bool fail(size_t pos, std::string message) {
    if (!failed_)
      diags_.error(lex_.locationAt(pos), std::move(message));
    failed_ = true;
    return false;
  }

  bool expect(char c, std::string_view what) {
    size_t pos = lex_.pos();
    if (lex_.consumeIf(c))
      return true;
    return fail(pos, "expected '" + std::string(1, c) + "' " + std::string(what));
  }

  // ---- values ----------------------------------------------------------------

  Value *lookup(std::string_view name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      if (auto found = it->values.find(name); found != it->values.end())
        return found->second;
      if (it->isolated)
        break;
    }
    return nullptr;
  }

  bool define(const NamedPos &name, Value *v) {
    if (lookup(name.name))
      return fail(name.pos, "value '%" + name.name + "' defined twice");
    scopes_.back().values.emplace(name.name, v);
    return true;
  }

  // '%' name, at the cursor (after trivia).
  bool parseValueName(NamedPos &out, std::string_view context) {
    size_t pos = lex_.pos();
    if (!lex_.consumeIf('%'))
      return fail(pos, "expected value name " + std::string(context));
    std::string_view name = lex_.valueName();
    if (name.empty())
      return fail(pos, "expected value name after '%'");
    out = {std::string(name), pos};
    return true;
  }

  bool parseValueList(std::vector<NamedPos> &out, std::string_view context) {
    do {
      NamedPos v;
      if (!parseValueName(v, context))
        return false;
      out.push_back(std::move(v));
    } while (lex_.consumeIf(','));
    return true;
  }

  // ---- types -----------------------------------------------------------------

  bool parseType(Type &out) {
    NestingGuard guard(depth_);
    size_t pos = lex_.pos();
    if (guard.tooDeep())
      return fail(pos, "types nested deeper than " + std::to_string(kMaxNesting) + " levels");
    std::string_view word = lex_.identifier(/*dots=*/false);
    if (word.empty())
      return fail(pos, "expected type");
    for (unsigned k = 0; k < static_cast<unsigned>(TypeKind::Ptr); ++k) {
      if (word == scalarKindName(static_cast<TypeKind>(k))) {
        out = Type::scalar(static_cast<TypeKind>(k));
        return true;
      }
    }
    if (word == "ptr")
      return parsePointerType(out);
    if (word == "block" || word == "vector")
      return parseShapedType(out, word == "vector");
    if (word == "coopmat")
      return parseCoopMatrixType(out);
    return fail(pos, "unknown type '" + std::string(word) + "'");
  }

  // After 'coopmat': '<' rows 'x' cols 'x' type ',' (a | b | acc) '>'
  bool parseCoopMatrixType(Type &out) {
    if (!expect('<', "after 'coopmat'"))
      return false;
    int64_t dims[2];
    for (int64_t &d : dims) {
      size_t pos = lex_.pos();
      bool overflow = false;
      std::optional<uint64_t> dim = lex_.unsignedInteger(overflow);
      if (!dim || *dim == 0 || overflow || *dim > 4096)
        return fail(pos, "expected a dimension from 1 to 4096 in coopmat type");
      d = static_cast<int64_t>(*dim);
      if (!lex_.consumeRawIf('x'))
        return fail(lex_.pos(), "expected 'x' after dimension in coopmat type");
    }
    size_t elementPos = lex_.pos();
    Type element;
    if (!parseType(element))
      return false;
    if (!element.isInteger() && !element.isFloat())
      return fail(elementPos, "coopmat element type must be an integer or float, got '" + element.str() + "'");
    if (!expect(',', "after the shape of a coopmat type"))
      return false;
    size_t usePos = lex_.pos();
    std::string_view use = lex_.identifier(/*dots=*/false);
    unsigned u = use == "a" ? 0 : use == "b" ? 1 : use == "acc" ? 2 : 3;
    if (u == 3)
      return fail(usePos, "expected a, b or acc as the use of a coopmat type");
    if (!expect('>', "at end of coopmat type"))
      return false;
    out = Type::coopMatrix(dims[0], dims[1], element, u);
    return true;
  }

  // After 'ptr': '<' type [',' integer] '>'
  bool parsePointerType(Type &out) {
    if (!expect('<', "after 'ptr'"))
      return false;
    size_t pointeePos = lex_.pos();
    Type pointee;
    if (!parseType(pointee))
      return false;
    if (!pointee.isScalar())
      return fail(pointeePos, "pointee type must be a scalar or pointer, got '" + pointee.str() + "'");
    uint64_t addressSpace = 0;
    if (lex_.consumeIf(',')) {
      size_t pos = lex_.pos();
      bool overflow = false;
      std::optional<uint64_t> n = lex_.unsignedInteger(overflow);
      if (!n)
        return fail(pos, "expected address space after ','");
      if (overflow || *n > std::numeric_limits<uint32_t>::max())
        return fail(pos, "address space out of range");
      addressSpace = *n;
    }
    if (!expect('>', "at end of pointer type"))
      return false;
    out = Type::ptr(pointee, static_cast<unsigned>(addressSpace));
    return true;
  }

  // After 'block' or 'vector': '<' (integer 'x')+ type '>'
  bool parseShapedType(Type &out, bool isVector) {
    const char *kind = isVector ? "vector" : "block";
    if (!expect('<', isVector ? "after 'vector'" : "after 'block'"))
      return false;
    std::vector<int64_t> shape;
    uint64_t elements = 1;
    size_t secondDimPos = 0;
    for (;;) {
      size_t pos = lex_.pos();
      if (shape.size() == 1)
        secondDimPos = pos;
      bool overflow = false;
      std::optional<uint64_t> dim = lex_.unsignedInteger(overflow);
      if (!dim)
        break;
      if (*dim == 0)
        return fail(pos, std::string(kind) + " dimension must be positive");
      if (overflow || *dim > kMaxElements / elements)
        return fail(pos, std::string(kind) + " type has too many elements");
      elements *= *dim;
      shape.push_back(static_cast<int64_t>(*dim));
      if (!lex_.consumeRawIf('x'))
        return fail(lex_.pos(), "expected 'x' after dimension in " + std::string(kind) + " type");
    }
    if (shape.empty())
      return fail(lex_.pos(), "expected dimension in " + std::string(kind) + " type");
    if (isVector && shape.size() != 1)
      return fail(secondDimPos, "vector type must have exactly one dimension");
    size_t elementPos = lex_.pos();
    Type element;
    if (!parseType(element))
      return false;
    if (!element.isScalar())
      return fail(elementPos, std::string(kind) + " element type must be a scalar or pointer, got '" +
                                  element.str() + "'");
    if (!expect('>', isVector ? "at end of vector type" : "at end of block type"))
      return false;
    out = isVector ? Type::vector(shape[0], element) : Type::block(shape, element);
    return true;
  }

  bool parseTypeList(std::vector<Type> &out) {
    do {
      Type t;
      if (!parseType(t))
        return false;
      out.push_back(t);
    } while (lex_.consumeIf(','));
    return true;
  }

  // ---- attributes ------------------------------------------------------------

  bool parseNumber(std::optional<text::NumberLiteral> &out) {
    size_t pos = lex_.pos();
    std::string error;
    out = lex_.number(error);
    if (!out)
      return fail(pos, error.empty() ? "expected number" : error);
    return true;
  }

  bool parseAttribute(Attribute &out) {
    size_t pos = lex_.pos();
    int c = lex_.peek();
    if (c == '"') {
      std::string error;
      size_t errorPos = pos;
      std::optional<std::string> s = lex_.string(error, errorPos);
      if (!s)
        return fail(errorPos, error);
      out = Attribute::string(std::move(*s));
      return true;
    }
    if (c == '[')
      return parseArrayAttribute(out);
    if (c == '-' || (c >= '0' && c <= '9')) {
      std::optional<text::NumberLiteral> n;
      if (!parseNumber(n))
        return false;
      out = n->isFloat ? Attribute::floating(n->floatValue) : Attribute::integer(n->intValue);
      return true;
    }
    std::string_view word = lex_.identifier(/*dots=*/false);
    if (word == "true" || word == "false") {
      out = Attribute::boolean(word == "true");
      return true;
    }
    if (word == "inf" || word == "nan") {
      lex_.reset(pos);
      std::optional<text::NumberLiteral> n;
      if (!parseNumber(n))
        return false;
      out = Attribute::floating(n->floatValue);
      return true;
    }
    if (word.empty())
      return fail(pos, "expected attribute value");
    if (word == "layout") {
      LayoutBases l;
      if (!parseLayoutAfterKeyword(l))
        return false;
      out = Attribute::layout(std::move(l));
      return true;
    }
    lex_.reset(pos);
    Type t;
    if (!parseType(t))
      return false;
    out = Attribute::type(t);
    return true;
  }

  // '[' [integer (',' integer)*] ']' | '[' type (',' type)* ']'
  bool parseArrayAttribute(Attribute &out) {
    lex_.consumeIf('[');
    if (lex_.consumeIf(']')) {
      out = Attribute::ints({});
      return true;
    }
    int c = lex_.peek();
    if (c == '-' || (c >= '0' && c <= '9')) {
      Attribute::IntArray ints;
      do {
        size_t pos = lex_.pos();
        std::optional<text::NumberLiteral> n;
        if (!parseNumber(n))
          return false;
        if (n->isFloat)
          return fail(pos, "expected integer in integer array");
        ints.push_back(n->intValue);
      } while (lex_.consumeIf(','));
      out = Attribute::ints(std::move(ints));
    } else if (startsLayout()) {
      Attribute::LayoutArray layouts;
      do {
        LayoutBases l;
        if (lex_.identifier(/*dots=*/false) != "layout")
          return fail(lex_.pos(), "expected 'layout' in layout array");
        if (!parseLayoutAfterKeyword(l))
          return false;
        layouts.push_back(std::move(l));
      } while (lex_.consumeIf(','));
      out = Attribute::layouts(std::move(layouts));
    } else {
      Attribute::TypeArray types;
      if (!parseTypeList(types))
        return false;
      out = Attribute::types(std::move(types));
    }
    return expect(']', "at end of array");
  }

  // True when the next word is 'layout' (which is no type).
  bool startsLayout() {
    size_t pos = lex_.pos();
    bool is = lex_.identifier(/*dots=*/false) == "layout";
    lex_.reset(pos);
    return is;
  }

  // After 'layout': '<' dim ('x' dim)* ':' 'reg' list 'lane' list 'warp' list '>'
  // with list = '[' [integer (',' integer)*] ']' (docs/ir-syntax.md).
  bool parseLayoutAfterKeyword(LayoutBases &out) {
    if (!expect('<', "after 'layout'"))
      return false;
    uint64_t elements = 1;
    for (;;) {
      size_t pos = lex_.pos();
      bool overflow = false;
      std::optional<uint64_t> dim = lex_.unsignedInteger(overflow);
      if (!dim)
        return fail(pos, "expected dimension in layout");
      if (*dim == 0 || (*dim & (*dim - 1)) != 0)
        return fail(pos, "layout dimension must be a power of two");
      if (overflow || *dim > kMaxElements / elements)
        return fail(pos, "layout has too many elements");
      elements *= *dim;
      out.shape.push_back(static_cast<int64_t>(*dim));
      if (!lex_.consumeRawIf('x'))
        break;
    }
    if (!expect(':', "after the shape of a layout"))
      return false;
    const char *names[] = {"reg", "lane", "warp"};
    std::vector<int64_t> *lists[] = {&out.reg, &out.lane, &out.warp};
    for (int i = 0; i < 3; ++i) {
      size_t pos = lex_.pos();
      if (lex_.identifier(/*dots=*/false) != names[i])
        return fail(pos, std::string("expected '") + names[i] + "' in layout");
      if (!expect('[', std::string("after '") + names[i] + "'"))
        return false;
      if (!lex_.consumeIf(']')) {
        do {
          size_t basisPos = lex_.pos();
          bool overflow = false;
          std::optional<uint64_t> basis = lex_.unsignedInteger(overflow);
          if (!basis)
            return fail(basisPos, "expected basis (a flat element index) in layout");
          if (overflow || *basis >= elements)
            return fail(basisPos, "layout basis " + std::to_string(*basis) + " is outside the " +
                                      std::to_string(elements) + " elements of its block");
          if (lists[i]->size() >= 40)
            return fail(basisPos, "layout has too many bases");
          lists[i]->push_back(static_cast<int64_t>(*basis));
        } while (lex_.consumeIf(','));
        if (!expect(']', "at end of layout bases"))
          return false;
      }
    }
    return expect('>', "at end of layout");
  }

  // '{' name '=' attr (',' name '=' attr)* '}'
  bool parseAttributeDict(AttributeList &out) {
    lex_.consumeIf('{');
    do {
      size_t pos = lex_.pos();
      std::string_view name = lex_.identifier(/*dots=*/false);
      if (name.empty())
        return fail(pos, "expected attribute name");
      if (out.has(name))
        return fail(pos, "attribute '" + std::string(name) + "' given twice");
      if (!expect('=', "after attribute name"))
        return false;
      Attribute value;
      if (!parseAttribute(value))
        return false;
      out.set(name, std::move(value));
    } while (lex_.consumeIf(','));
    return expect('}', "at end of attributes");
  }

  // 'loc(' string ':' integer ':' integer ')', after the word 'loc'.
  bool parseLocation(Location &out) {
    if (!expect('(', "after 'loc'"))
      return false;
    std::string error;
    size_t errorPos = lex_.pos();
    std::optional<std::string> file = lex_.string(error, errorPos);
    if (!file)
      return fail(errorPos, error == "expected string" ? "expected file name string in location" : error);
    uint32_t lineCol[2] = {0, 0};
    for (uint32_t &n : lineCol) {
      if (!expect(':', "in location"))
        return false;
      size_t pos = lex_.pos();
      bool overflow = false;
      std::optional<uint64_t> v = lex_.unsignedInteger(overflow);
      if (!v)
        return fail(pos, "expected line and column numbers in location");
      if (overflow || *v > std::numeric_limits<uint32_t>::max())
        return fail(pos, "location number out of range");
      n = static_cast<uint32_t>(*v);
    }
    if (!expect(')', "at end of location"))
      return false;
    out = Location::get(*file, lineCol[0], lineCol[1]);
    return true;
  }

  // ---- ops and regions ---------------------------------------------------------

  // "op 'tt.load' ", to begin a message about an op.
  static std::string opLabel(const OpInfo &info) { return "op '" + std::string(info.name) + "' "; }

  // True if the next word is `word` (which is not consumed).
  bool nextWordIs(std::string_view word) {
    size_t pos = lex_.pos();
    bool is = lex_.identifier(/*dots=*/true) == word;
    lex_.reset(pos);
    return is;
  }

  bool checkCounts(const OpInfo &info, size_t pos, size_t operands, size_t resultNames, size_t resultTypes) {
    auto op = [&] { return opLabel(info); }; // built on failure only: this runs for every op
    if (operands < static_cast<size_t>(info.minOperands) ||
        (info.maxOperands >= 0 && operands > static_cast<size_t>(info.maxOperands)))
      return fail(pos, op() + "expects " + expectedCount(info.minOperands, info.maxOperands, "operand") +
                           ", got " + std::to_string(operands));
    if (info.numResults >= 0 && resultTypes != static_cast<size_t>(info.numResults))
      return fail(pos, op() + "expects " + plural(static_cast<size_t>(info.numResults), "result type") +
                           ", got " + std::to_string(resultTypes));
    if (resultNames != resultTypes)
      return fail(pos, op() + "has " + plural(resultNames, "result name") + " but " +
                           plural(resultTypes, "result type"));
    return true;
  }

  bool parseOp(Block *into) {
    NestingGuard guard(depth_);
    size_t start = lex_.pos();
    if (guard.tooDeep())
      return fail(start, "regions nested deeper than " + std::to_string(kMaxNesting) + " levels");

    std::vector<NamedPos> resultNames;
    if (lex_.peek() == '%') {
      if (!parseValueList(resultNames, "in result list") || !expect('=', "after result names"))
        return false;
    }

    size_t namePos = lex_.pos();
    std::string_view name = lex_.identifier(/*dots=*/true);
    if (name.empty())
      return fail(namePos, "expected op name");
    std::optional<OpCode> code = opCodeByName(name);
    if (!code)
      return fail(namePos, "unknown op '" + std::string(name) + "'");
    const OpInfo &info = opInfo(*code);

    // Operands; a value list followed by '=' is the next op's results instead.
    std::vector<NamedPos> operandNames;
    if (lex_.peek() == '%') {
      size_t save = lex_.pos();
      if (!parseValueList(operandNames, "in operand list"))
        return false;
      if (lex_.peek() == '=') {
        lex_.reset(save);
        operandNames.clear();
      }
    }
    std::vector<Value *> operands;
    for (const NamedPos &n : operandNames) {
      Value *v = lookup(n.name);
      if (!v)
        return fail(n.pos, "use of undefined value '%" + n.name + "'");
      operands.push_back(v);
    }

    AttributeList attrs;
    if (lex_.peek() == '{' && !parseAttributeDict(attrs))
      return false;

    std::vector<Type> resultTypes;
    if (lex_.consumeIf(':') && !parseTypeList(resultTypes))
      return false;

    if (!checkCounts(info, namePos, operands.size(), resultNames.size(), resultTypes.size()))
      return false;

    OwnedOp op(Op::create(*code, Location(), operands, resultTypes, std::move(attrs),
                          static_cast<unsigned>(info.numRegions)));
    if (!parseRegions(op.get(), info, namePos))
      return false;

    if (nextWordIs("loc")) {
      lex_.identifier(/*dots=*/true);
      Location loc;
      if (!parseLocation(loc))
        return false;
      op->setLoc(loc);
    }

    // Results become visible after the op's regions, which cannot use them.
    for (size_t i = 0; i < resultNames.size(); ++i)
      if (!define(resultNames[i], op->result(static_cast<unsigned>(i))))
        return false;
    into->push_back(op.release());
    return true;
  }

  // ['(' region (',' region)* ')'], as many as the op table says.
  bool parseRegions(Op *op, const OpInfo &info, size_t namePos) {
    // The messages are built on failure only: this runs for every op.
    auto expected = [&] { return opLabel(info) + "expects " + plural(static_cast<size_t>(info.numRegions), "region"); };
    size_t pos = lex_.pos();
    if (!lex_.consumeIf('(')) {
      if (info.numRegions > 0)
        return fail(namePos, expected() + ", got 0");
      return true;
    }
    if (info.numRegions == 0)
      return fail(pos, opLabel(info) + "takes no regions");
    unsigned count = 0;
    do {
      size_t regionPos = lex_.pos();
      if (count == static_cast<unsigned>(info.numRegions))
        return fail(regionPos, expected() + ", got more");
      if (!parseRegion(op->region(count), op->has(kIsolated)))
        return false;
      ++count;
    } while (lex_.consumeIf(','));
    if (!expect(')', "after regions"))
      return false;
    if (count != static_cast<unsigned>(info.numRegions))
      return fail(namePos, expected() + ", got " + std::to_string(count));
    return true;
  }

  // '{' ['^(' [value ':' type (',' value ':' type)*] ')' ':'] op* '}'
  bool parseRegion(Block *block, bool isolated) {
    if (!expect('{', "to begin a region"))
      return false;
    scopes_.push_back(Scope{{}, isolated});
    bool ok = parseRegionBody(block);
    scopes_.pop_back();
    return ok;
  }

  bool parseRegionBody(Block *block) {
    if (lex_.consumeIf('^')) {
      if (!lex_.consumeRawIf('('))
        return fail(lex_.pos(), "expected '(' after '^'");
      if (!lex_.consumeIf(')')) {
        do {
          NamedPos name;
          if (!parseValueName(name, "in region arguments"))
            return false;
          if (!expect(':', "after value name"))
            return false;
          Type t;
          if (!parseType(t))
            return false;
          if (!define(name, block->addArgument(t)))
            return false;
        } while (lex_.consumeIf(','));
        if (!expect(')', "after region arguments"))
          return false;
      }
      if (!expect(':', "after region arguments"))
        return false;
    }
    while (lex_.peek() != '}') {
      if (lex_.atEnd())
        return fail(lex_.pos(), "expected '}' at end of region");
      if (!parseOp(block))
        return false;
    }
    lex_.consumeIf('}');
    return true;
  }

  Lexer lex_;
  Diagnostics &diags_;
  std::vector<Scope> scopes_;
  unsigned depth_ = 0;
  bool failed_ = false;
};

} // namespace

std::optional<Module> parseModule(std::string_view text, std::string_view bufferName, Diagnostics &diags) {
  return Parser(text, bufferName, diags).parseModule();
}

std::optional<Type> parseType(std::string_view text, Diagnostics &diags, std::string_view bufferName) {
  return Parser(text, bufferName, diags).parseWholeType();
}

} // namespace trident
