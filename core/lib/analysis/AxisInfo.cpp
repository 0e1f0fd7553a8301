// The axis-info lattice: construction, the per-run divisibility query, meet, text.

#include "trident/analysis/AxisInfo.h"

#include "AxisInfoMath.h"

#include <algorithm>
#include <cassert>
#include <sstream>

namespace trident {

AxisInfo::AxisInfo(DimVector divisibility, DimVector contiguity, DimVector constancy,
                   std::optional<int64_t> constantValue, bool nonNegative)
    : divisibility_(std::move(divisibility)), contiguity_(std::move(contiguity)),
      constancy_(std::move(constancy)), constantValue_(constantValue),
      nonNegative_(nonNegative || (constantValue && *constantValue >= 0)) {
  assert(divisibility_.size() == contiguity_.size() && contiguity_.size() == constancy_.size());
}

AxisInfo AxisInfo::unknown(Type type) {
  unsigned rank = axis::rankOf(type);
  return AxisInfo(DimVector(rank, axis::unitBytes(type)), DimVector(rank, 1), DimVector(rank, 1));
}

AxisInfo AxisInfo::constant(int64_t value, Type type) {
  DimVector shape = axis::shapeOf(type);
  return AxisInfo(DimVector(shape.size(), axis::pow2Divisor(value)), DimVector(shape.size(), 1), shape, value,
                  value >= 0);
}

int64_t AxisInfo::divisibilityAt(unsigned dim, int64_t runLength, int64_t unitBytes) const {
  // Indices that are multiples of a whole run are run starts; inside a run, elements
  // step by one unit from a start, so a coarser grid keeps only that much alignment.
  if (runLength >= contiguity_[dim])
    return divisibility_[dim];
  return std::min(divisibility_[dim], axis::mulSat(runLength, unitBytes));
}

int64_t AxisInfo::elementDivisibility(int64_t unitBytes) const {
  int64_t best = 1;
  for (unsigned d = 0; d < rank(); ++d)
    best = std::max(best, divisibilityAt(d, 1, unitBytes));
  return best;
}

namespace {

void printDims(std::ostream &os, const char *name, const AxisInfo::DimVector &v) {
  os << name << "=[";
  for (size_t i = 0; i < v.size(); ++i)
    os << (i ? ", " : "") << v[i];
  os << "]";
}

} // namespace

std::string AxisInfo::str() const {
  std::ostringstream os;
  printDims(os, "div", divisibility_);
  os << " ";
  printDims(os, "contig", contiguity_);
  os << " ";
  printDims(os, "const", constancy_);
  if (constantValue_)
    os << " value=" << *constantValue_;
  return os.str();
}

AxisInfo meet(const AxisInfo &a, const AxisInfo &b, Type type) {
  if (a.rank() != b.rank())
    return AxisInfo::unknown(type);
  if (a.constantValue() && a.constantValue() == b.constantValue())
    return a;
  int64_t unit = axis::unitBytes(type);
  AxisInfo::DimVector div, contig, constancy;
  for (unsigned d = 0; d < a.rank(); ++d) {
    int64_t c = std::min(a.contiguity(d), b.contiguity(d));
    contig.push_back(c);
    constancy.push_back(std::min(a.constancy(d), b.constancy(d)));
    div.push_back(std::min(a.divisibilityAt(d, c, unit), b.divisibilityAt(d, c, unit)));
  }
  return AxisInfo(div, contig, constancy, std::nullopt, a.nonNegative() && b.nonNegative());
}

} // namespace trident
