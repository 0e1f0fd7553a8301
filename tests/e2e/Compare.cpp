#include "Compare.h"

#include "trident/support/FloatFormats.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <sstream>

namespace trident::e2e {

namespace {

size_t elementBytes(Type e) { return e == Type::i1() ? 1 : e.bitWidth() / 8; }

uint64_t rawBits(const std::vector<uint8_t> &buf, size_t i, size_t bytes) {
  uint64_t v = 0;
  for (size_t b = 0; b < bytes; ++b)
    v |= uint64_t(buf[i * bytes + b]) << (8 * b);
  return v;
}

double decode(Type e, uint64_t bits) {
  switch (e.kind()) {
  case TypeKind::F16: return decodeFloat(uint32_t(bits), FloatFormat::F16);
  case TypeKind::BF16: return decodeFloat(uint32_t(bits), FloatFormat::BF16);
  case TypeKind::F8E4M3: return decodeFloat(uint32_t(bits), FloatFormat::F8E4M3);
  case TypeKind::F8E5M2: return decodeFloat(uint32_t(bits), FloatFormat::F8E5M2);
  case TypeKind::F32: return double(std::bit_cast<float>(uint32_t(bits)));
  default: return std::bit_cast<double>(bits);
  }
}

std::string show(Type e, uint64_t bits, bool poisoned) {
  std::ostringstream os;
  if (poisoned) {
    os << "<unwritten>";
    return os.str();
  }
  if (e.isInteger()) {
    unsigned w = e == Type::i1() ? 8 : e.bitWidth();
    int64_t s = w >= 64 ? int64_t(bits) : int64_t(bits << (64 - w)) >> (64 - w);
    os << s;
  } else {
    os.precision(17);
    os << decode(e, bits);
  }
  os << " (0x" << std::hex << bits << ")";
  return os.str();
}

} // namespace

BufferComparison compareBuffer(const ArgSpec &spec, const std::vector<uint8_t> &reference,
                               const std::vector<uint8_t> &actual, size_t maxReported) {
  BufferComparison out;
  if (reference.size() != actual.size()) {
    out.mismatches = 1;
    out.report = spec.name + ": " + std::to_string(actual.size()) + " bytes, expected " +
                 std::to_string(reference.size()) + "\n";
    return out;
  }
  Type e = spec.element;
  size_t bytes = elementBytes(e);
  uint64_t poisonBits = 0;
  for (size_t b = 0; b < bytes; ++b)
    poisonBits |= uint64_t(0x7f) << (8 * b);
  bool outputWithPoison = spec.written && !spec.init.empty() && spec.init[0] == 0x7f;
  std::ostringstream report;
  for (size_t i = 0; i < spec.count; ++i) {
    uint64_t r = rawBits(reference, i, bytes), a = rawBits(actual, i, bytes);
    if (r == a)
      continue;
    bool rPoison = outputWithPoison && r == poisonBits, aPoison = outputWithPoison && a == poisonBits;
    bool bad = true;
    if (!rPoison && !aPoison) {
      switch (spec.check.mode) {
      case OutputCheck::Mode::Bytes: break;
      case OutputCheck::Mode::Exact: bad = !(decode(e, r) == decode(e, a)); break;
      case OutputCheck::Mode::Tolerance: {
        double dr = decode(e, r), da = decode(e, a);
        bad = !(std::abs(dr - da) <= spec.check.tolerance);
        break;
      }
      case OutputCheck::Mode::Skip: bad = false; break;
      }
    }
    if (!bad)
      continue;
    if (out.mismatches++ < maxReported) {
      report << "  " << spec.name << "[" << i << "]: expected " << show(e, r, rPoison) << ", got "
             << show(e, a, aPoison);
      if (spec.check.mode == OutputCheck::Mode::Tolerance)
        report << " (tolerance " << spec.check.tolerance << ")";
      report << "\n";
    }
  }
  if (out.mismatches > maxReported)
    report << "  " << spec.name << ": " << out.mismatches << " mismatches in all\n";
  out.report = report.str();
  return out;
}

double elementValue(const ArgSpec &spec, const std::vector<uint8_t> &buffer, size_t i, bool &unwritten) {
  Type e = spec.element;
  size_t bytes = elementBytes(e);
  uint64_t bits = rawBits(buffer, i, bytes);
  unwritten = true;
  for (size_t b = 0; b < bytes; ++b)
    unwritten &= buffer[i * bytes + b] == 0x7f;
  if (e == Type::i1())
    return bits ? -1 : 0;
  if (e.isInteger()) {
    unsigned w = e.bitWidth();
    return double(w >= 64 ? int64_t(bits) : int64_t(bits << (64 - w)) >> (64 - w));
  }
  return decode(e, bits);
}

std::string checkPromise(const ArgSpec &spec, const std::vector<uint8_t> &reference) {
  const OutputCheck &c = spec.check;
  if (!spec.written || !c.hasRange || c.mode == OutputCheck::Mode::Skip)
    return "";
  double slack = c.mode == OutputCheck::Mode::Tolerance ? c.tolerance : 0;
  for (size_t i = 0; i < spec.count; ++i) {
    bool unwritten;
    double v = elementValue(spec, reference, i, unwritten);
    if (unwritten && spec.init.size() && spec.init[0] == 0x7f)
      continue;
    bool inRange = v >= c.lo - slack && v <= c.hi + slack;
    bool onGrid = !c.exact || std::ldexp(v, c.frac) == std::floor(std::ldexp(v, c.frac));
    if (!inRange || !onGrid) {
      std::ostringstream os;
      os.precision(17);
      os << spec.name << "[" << i << "] = " << v << ", but the generator promised [" << c.lo << ", " << c.hi << "]";
      if (c.exact)
        os << ", multiples of 2^-" << c.frac;
      return os.str();
    }
  }
  return "";
}

} // namespace trident::e2e
