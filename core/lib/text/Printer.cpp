#include "trident/ir/Printer.h"

#include <sstream>
#include <unordered_map>

namespace trident {

namespace {

class Printer {
public:
  Printer(std::ostream &os, const PrintOptions &opts) : os_(os), opts_(opts) {}

  void printOp(const Op *op, unsigned indent) {
    os_ << std::string(indent, ' ');
    for (unsigned i = 0; i < op->numResults(); ++i)
      os_ << (i ? ", " : "") << define(op->result(i));
    if (op->numResults())
      os_ << " = ";
    os_ << op->name();
    for (unsigned i = 0; i < op->numOperands(); ++i)
      os_ << (i ? ", " : " ") << use(op->operand(i));
    printAttributes(op->attrs());
    for (unsigned i = 0; i < op->numResults(); ++i)
      os_ << (i ? ", " : " : ") << op->result(i)->type().str();
    if (op->numRegions()) {
      // An isolated op's regions see nothing outside: their numbering starts afresh, and
      // an outer value used inside (invalid IR) prints as %?N.
      unsigned savedNext = next_;
      std::unordered_map<const Value *, unsigned> savedNames;
      if (op->has(kIsolated)) {
        next_ = 0;
        savedNames.swap(names_);
      }
      os_ << " (";
      for (unsigned r = 0; r < op->numRegions(); ++r) {
        os_ << (r ? ", " : "");
        printRegion(op->region(r), indent);
      }
      os_ << ")";
      if (op->has(kIsolated)) {
        next_ = savedNext;
        savedNames.swap(names_);
      }
    }
    if (opts_.locations && op->loc().known()) {
      Location loc = op->loc();
      os_ << " loc(" << Attribute::string(std::string(loc.file())).str() << ":" << loc.line() << ":"
          << loc.col() << ")";
    }
  }

private:
  void printAttributes(const AttributeList &attrs) {
    bool first = true;
    for (const NamedAttribute &a : attrs.entries()) {
      if (!a.value.present())
        continue;
      os_ << (first ? " {" : ", ") << a.name << " = " << a.value.str();
      first = false;
    }
    if (!first)
      os_ << "}";
  }

  // `{`, the argument header, one op per line, `}` at the op's indentation.
  void printRegion(const Block *block, unsigned indent) {
    if (block->numArguments() == 0 && block->empty()) {
      os_ << "{}";
      return;
    }
    os_ << "{\n";
    if (block->numArguments()) {
      os_ << std::string(indent, ' ') << "^(";
      for (unsigned i = 0; i < block->numArguments(); ++i) {
        Value *arg = block->argument(i);
        os_ << (i ? ", " : "") << define(arg) << ": " << arg->type().str();
      }
      os_ << "):\n";
    }
    for (const Op *op : *block) {
      printOp(op, indent + 2);
      os_ << "\n";
    }
    os_ << std::string(indent, ' ') << "}";
  }

  std::string define(const Value *v) {
    unsigned n = next_++;
    names_[v] = n;
    return "%" + std::to_string(n);
  }

  std::string use(const Value *v) {
    if (!v)
      return "%<null>";
    if (auto it = names_.find(v); it != names_.end())
      return "%" + std::to_string(it->second);
    auto [it, inserted] = outside_.try_emplace(v, static_cast<unsigned>(outside_.size()));
    return "%?" + std::to_string(it->second);
  }

  std::ostream &os_;
  const PrintOptions &opts_;
  std::unordered_map<const Value *, unsigned> names_;   // values defined so far
  std::unordered_map<const Value *, unsigned> outside_; // used but not (yet) defined
  unsigned next_ = 0;
};

} // namespace

void print(std::ostream &os, const Module &m, const PrintOptions &opts) {
  Printer(os, opts).printOp(m.op(), 0);
  os << "\n";
}

std::string print(const Module &m, const PrintOptions &opts) {
  std::ostringstream os;
  print(os, m, opts);
  return os.str();
}

std::string print(const Op *op, const PrintOptions &opts) {
  std::ostringstream os;
  Printer(os, opts).printOp(op, 0);
  return os.str();
}

} // namespace trident
