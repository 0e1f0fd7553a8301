// printAxisInfo: every value with its axis info, numbered as the IR printer numbers
// values (per function, in order of definition: an op's results, then its regions'
// arguments, then the ops inside).
//
//   tt.func @add
//     %0 = arg : ptr<f32> div=[16] contig=[1] const=[1]
//     %2 = tt.make_range : block<128xi32> div=[4611686018427387904] contig=[128] const=[1]
//     scf.for {
//       %5 = arg : i32 div=[1] contig=[1] const=[1]
//     }

#include "trident/analysis/AxisInfo.h"

#include <sstream>

namespace trident {

namespace {

class AxisInfoPrinter {
public:
  AxisInfoPrinter(const AxisInfoAnalysis &analysis, std::ostream &os) : analysis_(analysis), os_(os) {}

  void printFunction(Op *func) {
    next_ = 0;
    os_ << "tt.func @" << func::name(func) << "\n";
    printArguments(func->region(), 1);
    printBlock(func->region(), 1);
  }

private:
  void line(unsigned indent, const Value *v, std::string_view origin) {
    os_ << std::string(2 * indent, ' ') << "%" << next_++ << " = " << origin << " : " << v->type().str();
    const AxisInfo *a = analysis_.lookup(v);
    os_ << " " << (a ? a->str() : std::string("?")) << "\n";
  }

  void printArguments(Block *block, unsigned indent) {
    for (Value *arg : block->arguments())
      line(indent, arg, "arg");
  }

  void printBlock(Block *block, unsigned indent) {
    for (Op *op : *block) {
      for (Value *r : op->results())
        line(indent, r, op->name());
      for (unsigned i = 0; i < op->numRegions(); ++i) {
        os_ << std::string(2 * indent, ' ') << op->name() << " {\n";
        printArguments(op->region(i), indent + 1);
        printBlock(op->region(i), indent + 1);
        os_ << std::string(2 * indent, ' ') << "}\n";
      }
    }
  }

  const AxisInfoAnalysis &analysis_;
  std::ostream &os_;
  unsigned next_ = 0;
};

} // namespace

std::string printAxisInfo(const Module &module) {
  AxisInfoAnalysis analysis(module);
  std::ostringstream os;
  AxisInfoPrinter printer(analysis, os);
  for (Op *f : module.functions())
    printer.printFunction(f);
  return os.str();
}

} // namespace trident
