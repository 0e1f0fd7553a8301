// Python's builtins on compile-time values that module-level code uses to choose
// imports and constants: hasattr/getattr (on tl too: a name Trident does not
// understand is absent), isinstance, tuple/list/map, str methods, packaging.version.

#include "CodeGen.h"

#include <cctype>

namespace trident::frontend {

namespace {

const std::string &stringOf(CodeGen &cg, const Arg &a, const char *what) {
  if (!a.value.is(Object::Kind::String))
    cg.error(a.span, std::string(what) + " must be a string, got " + a.value.describe());
  return a.value.name;
}

// The items of an iterable compile-time value: a tuple or list, or a string's characters.
std::vector<Object> itemsOf(CodeGen &cg, const Arg &a, const char *callee) {
  if (a.value.is(Object::Kind::Tuple))
    return a.value.items;
  if (a.value.is(Object::Kind::String)) {
    std::vector<Object> chars;
    for (char c : a.value.name)
      chars.push_back(Object::string(std::string(1, c)));
    return chars;
  }
  cg.error(a.span, std::string(callee) + "() needs a tuple, list or string, got " + a.value.describe());
}

// packaging.version.parse("3.6.0"): the release numbers, compared like tuples. Trailing
// zeros are dropped so that Version("3.0") == Version("3.0.0"), as in packaging.
Object parseVersion(CodeGen &cg, const Arg &a) {
  const std::string &text = stringOf(cg, a, "the version");
  size_t i = 0;
  if (i < text.size() && (text[i] == 'v' || text[i] == 'V'))
    ++i;
  std::vector<Object> parts;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    PyInt n = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && n < (PyInt(1) << 60))
      n = n * 10 + (text[i++] - '0');
    parts.push_back(Object::integer(n));
    if (i + 1 < text.size() && text[i] == '.' && std::isdigit(static_cast<unsigned char>(text[i + 1])))
      ++i;
    else
      break;
  }
  if (parts.empty())
    cg.error(a.span, "invalid version: '" + text + "'");
  while (parts.size() > 1 && parts.back().intValue == 0)
    parts.pop_back();
  Object v = Object::tuple(std::move(parts));
  v.name = "Version";
  return v;
}

std::string strip(const std::string &s, const std::string *chars, bool left, bool right) {
  auto drop = [&](char c) {
    return chars ? chars->find(c) != std::string::npos : std::isspace(static_cast<unsigned char>(c)) != 0;
  };
  size_t b = 0, e = s.size();
  while (left && b < e && drop(s[b]))
    ++b;
  while (right && e > b && drop(s[e - 1]))
    --e;
  return s.substr(b, e - b);
}

} // namespace

bool isStringMethod(const std::string &name) {
  static const char *methods[] = {"split",  "startswith", "endswith", "strip", "lstrip",
                                  "rstrip", "replace",    "lower",    "upper", "isdigit"};
  for (const char *m : methods)
    if (name == m)
      return true;
  return false;
}

Object stringMethod(CodeGen &cg, const std::string &self, const std::string &method, const CallArgs &args0) {
  CallArgs args = args0;
  args.callee = "str." + method;
  if (method == "split") {
    auto a = args.bind(cg, {"sep=", "maxsplit="});
    bool bySpace = !a[0] || a[0]->value.is(Object::Kind::None);
    std::string sep = bySpace ? "" : stringOf(cg, *a[0], "the separator");
    int64_t maxsplit = a[1] ? cg.intArg(*a[1], "maxsplit") : -1;
    if (!bySpace && sep.empty())
      cg.error(a[0]->span, "empty separator");
    std::vector<Object> parts;
    size_t i = 0;
    if (bySpace) {
      while (true) {
        while (i < self.size() && std::isspace(static_cast<unsigned char>(self[i])))
          ++i;
        if (i == self.size())
          break;
        if (maxsplit >= 0 && static_cast<int64_t>(parts.size()) == maxsplit) {
          parts.push_back(Object::string(strip(self.substr(i), nullptr, false, true)));
          break;
        }
        size_t j = i;
        while (j < self.size() && !std::isspace(static_cast<unsigned char>(self[j])))
          ++j;
        parts.push_back(Object::string(self.substr(i, j - i)));
        i = j;
      }
    } else {
      while (true) {
        size_t j = self.find(sep, i);
        if (j == std::string::npos || (maxsplit >= 0 && static_cast<int64_t>(parts.size()) == maxsplit)) {
          parts.push_back(Object::string(self.substr(i)));
          break;
        }
        parts.push_back(Object::string(self.substr(i, j - i)));
        i = j + sep.size();
      }
    }
    return Object::tuple(std::move(parts));
  }
  if (method == "startswith" || method == "endswith") {
    auto a = args.bind(cg, {"prefix"});
    std::vector<Object> options =
        a[0]->value.is(Object::Kind::Tuple) ? a[0]->value.items : std::vector<Object>{a[0]->value};
    for (const Object &o : options) {
      if (!o.is(Object::Kind::String))
        cg.error(a[0]->span, args.callee + "() needs strings, got " + o.describe());
      const std::string &p = o.name;
      bool match = p.size() <= self.size() &&
                   (method == "startswith" ? self.compare(0, p.size(), p) == 0
                                           : self.compare(self.size() - p.size(), p.size(), p) == 0);
      if (match)
        return Object::boolean(true);
    }
    return Object::boolean(false);
  }
  if (method == "strip" || method == "lstrip" || method == "rstrip") {
    auto a = args.bind(cg, {"chars="});
    const std::string *chars =
        a[0] && !a[0]->value.is(Object::Kind::None) ? &stringOf(cg, *a[0], "the characters") : nullptr;
    return Object::string(strip(self, chars, method != "rstrip", method != "lstrip"));
  }
  if (method == "replace") {
    auto a = args.bind(cg, {"old", "new"});
    const std::string &from = stringOf(cg, *a[0], "the old text"), &to = stringOf(cg, *a[1], "the new text");
    if (from.empty())
      cg.error(a[0]->span, "str.replace with an empty pattern is not supported");
    std::string out;
    for (size_t i = 0; i < self.size();) {
      if (self.compare(i, from.size(), from) == 0) {
        out += to;
        i += from.size();
      } else {
        out += self[i++];
      }
    }
    return Object::string(out);
  }
  args.bind(cg, {});
  std::string out = self;
  if (method == "isdigit") {
    bool digits = !self.empty();
    for (char c : self)
      digits = digits && std::isdigit(static_cast<unsigned char>(c));
    return Object::boolean(digits);
  }
  for (char &c : out)
    c = static_cast<char>(method == "lower" ? std::tolower(static_cast<unsigned char>(c))
                                            : std::toupper(static_cast<unsigned char>(c)));
  return Object::string(out);
}

// isinstance(obj, cls) for the classes kernels test: tl.tensor, tl.tensor_descriptor,
// tl.constexpr, tl.dtype, tuples, and Python's int/float/bool/str.
bool isInstance(CodeGen &cg, const Object &o, const Object &cls, const Span &span) {
  if (cls.is(Object::Kind::Tuple)) {
    for (const Object &c : cls.items)
      if (isInstance(cg, o, c, span))
        return true;
    return false;
  }
  const std::string &n = cls.is(Object::Kind::Builtin) ? cls.name : std::string();
  bool descriptor = o.is(Object::Kind::BlockPtr) && o.blockPtr->isDescriptor;
  if (n == "tl.tensor")
    return o.isTensor() || (o.is(Object::Kind::BlockPtr) && !descriptor);
  if (n == "tl.tensor_descriptor")
    return descriptor;
  if (n == "tl.constexpr")
    return o.isConstexpr() && !o.is(Object::Kind::Tuple);
  if (n == "tl.dtype")
    return o.is(Object::Kind::DType);
  if (n == "tl.slice")
    return o.is(Object::Kind::Slice);
  if (n == "tl.tuple" || n == "py.tuple" || n == "py.list")
    return o.is(Object::Kind::Tuple);
  if (n == "py.int")
    return o.is(Object::Kind::Int) || o.is(Object::Kind::Bool);
  if (n == "py.bool")
    return o.is(Object::Kind::Bool);
  if (n == "py.float")
    return o.is(Object::Kind::Float);
  if (n == "py.str")
    return o.is(Object::Kind::String);
  cg.error(span, "isinstance() with " + cls.describe() + " is not supported inside a @triton.jit function");
}

void registerPythonBuiltins(BuiltinTable &t) {
  t["py.isinstance"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"obj", "class_or_tuple"});
    return Object::boolean(isInstance(cg, a[0]->value, a[1]->value, a[1]->span));
  };
  t["py.hasattr"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"obj", "name"});
    const std::string &name = stringOf(cg, *a[1], "hasattr()'s name");
    try {
      cg.getAttribute(a[0]->value, name, a[1]->span);
      return Object::boolean(true);
    } catch (CompileError &) {
      return Object::boolean(false);
    }
  };
  t["py.getattr"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"obj", "name", "default="});
    const std::string &name = stringOf(cg, *a[1], "getattr()'s name");
    if (!a[2])
      return cg.getAttribute(a[0]->value, name, a[1]->span);
    try {
      return cg.getAttribute(a[0]->value, name, a[1]->span);
    } catch (CompileError &) {
      return a[2]->value;
    }
  };
  for (const char *n : {"py.tuple", "py.list"})
    t[n] = [](CodeGen &cg, const CallArgs &args) {
      auto a = args.bind(cg, {"iterable="});
      return Object::tuple(a[0] ? itemsOf(cg, *a[0], args.callee.c_str()) : std::vector<Object>{});
    };
  t["py.map"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"function", "iterable"});
    std::vector<Object> out;
    for (const Object &item : itemsOf(cg, *a[1], "map")) {
      CallArgs one;
      one.callee = args.callee;
      one.span = args.span;
      one.positional.push_back(Arg{item, a[1]->span, nullptr});
      out.push_back(cg.call(a[0]->value, one));
    }
    return Object::tuple(std::move(out));
  };
  // tl.tuple(iterable): a tuple, as Python's.
  t["tl.tuple"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"args="});
    return Object::tuple(a[0] ? itemsOf(cg, *a[0], "tl.tuple") : std::vector<Object>{});
  };
  t["packaging.version.parse"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"version"});
    return parseVersion(cg, *a[0]);
  };
}

} // namespace trident::frontend
