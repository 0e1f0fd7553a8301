// Matrix-unit ops of the thread-IR simulator: th.mma (one MatrixAtom per warp) and
// th.ldmatrix, as core/include/trident/ir/ThreadOps.def defines them.
#include "ThreadSimImpl.h"

#include <array>
#include <string_view>

namespace trident::simt::test::detail {

namespace {

using Element = std::pair<int64_t, int64_t>; // (row, col)

// Thread IR's control flow is uniform (the simulator fails on a non-uniform branch),
// so every thread executes each op; a warp-wide op then needs whole warps.
void requireWholeWarps(const Op *op, unsigned threads, unsigned warpSize) {
  if (threads % warpSize)
    fail(op, "runs on whole warps; num_threads " + std::to_string(threads) + " is not a multiple of " +
                 std::to_string(warpSize));
}

std::string elementName(Element e) {
  return "(" + std::to_string(e.first) + ", " + std::to_string(e.second) + ")";
}

// ---- th.mma

unsigned registersOf(const MatrixAtom::OperandMap &map) { return 1u << map.registerBits.size(); }

// The element that register `reg` of lane `lane` holds: the XOR of the elements of
// the set bits of both.
Element elementOf(const MatrixAtom::OperandMap &map, unsigned reg, unsigned lane) {
  Element e{0, 0};
  auto add = [&e](const std::vector<Element> &bits, unsigned index) {
    for (size_t j = 0; j < bits.size(); ++j)
      if ((index >> j) & 1) {
        e.first ^= bits[j].first;
        e.second ^= bits[j].second;
      }
  };
  add(map.registerBits, reg);
  add(map.laneBits, lane);
  return e;
}

// One of A, B and C: its map and shape, and where its registers start among the
// op's operands.
struct Operand {
  const char *name;
  const MatrixAtom::OperandMap &map;
  Type type;
  int64_t rows, cols;
  unsigned first;
};

void checkSignature(const Op *op, const MatrixAtom &atom, const std::array<Operand, 3> &operands,
                    unsigned warpSize) {
  for (const Operand &o : operands)
    if ((1u << o.map.laneBits.size()) != warpSize)
      fail(op, "atom '" + atom.name + "' maps " + std::to_string(1u << o.map.laneBits.size()) + " lanes of " +
                   o.name + ", the warp has " + std::to_string(warpSize));
  const Operand &c = operands[2];
  unsigned total = c.first + registersOf(c.map);
  if (op->numOperands() != total || op->numResults() != registersOf(c.map))
    fail(op, "atom '" + atom.name + "' takes " + std::to_string(total) + " operands and gives " +
                 std::to_string(registersOf(c.map)) + " results");
  for (const Operand &o : operands)
    for (unsigned i = 0; i < registersOf(o.map); ++i)
      if (op->operand(o.first + i)->type() != o.type)
        fail(op, std::string("register ") + std::to_string(i) + " of " + o.name + " must be " + o.type.str() +
                     " for atom '" + atom.name + "'");
  for (unsigned i = 0; i < op->numResults(); ++i)
    if (op->result(i)->type() != c.type)
      fail(op, "results must be " + c.type.str() + " for atom '" + atom.name + "'");
  if (atom.aType.isFloat() != atom.cType.isFloat() || atom.bType.isFloat() != atom.cType.isFloat())
    fail(op, "atom '" + atom.name + "' mixes integer and float types");
}

// One warp's operand as a row-major rows x cols matrix, from its lanes' registers:
// every element must be held, and registers that hold the same one must agree.
Words gather(const Op *op, const MatrixAtom &atom, const Operand &o,
             const std::vector<const Words *> &operands, unsigned firstThread, unsigned warpSize) {
  size_t size = static_cast<size_t>(o.rows * o.cols);
  Words matrix(size);
  std::vector<bool> held(size, false);
  for (unsigned lane = 0; lane < warpSize; ++lane)
    for (unsigned reg = 0; reg < registersOf(o.map); ++reg) {
      Element e = elementOf(o.map, reg, lane);
      auto where = [&] { return "register " + std::to_string(reg) + " of lane " + std::to_string(lane); };
      if (e.first >= o.rows || e.second >= o.cols)
        fail(op, "atom '" + atom.name + "' maps " + where() + " to " + o.name + elementName(e) +
                     ", outside its " + std::to_string(o.rows) + " x " + std::to_string(o.cols));
      size_t i = static_cast<size_t>(e.first * o.cols + e.second);
      uint64_t w = (*operands[o.first + reg])[firstThread + lane];
      if (held[i] && matrix[i] != w)
        fail(op, where() + " and another register of warp " + std::to_string(firstThread / warpSize) +
                     " hold different values of " + o.name + elementName(e));
      matrix[i] = w;
      held[i] = true;
    }
  for (size_t i = 0; i < size; ++i)
    if (!held[i])
      fail(op, std::string(o.name) + elementName({int64_t(i) / o.cols, int64_t(i) % o.cols}) +
                   " is in no register of atom '" + atom.name + "'");
  return matrix;
}

// cvt.rna.tf32.f32: keeps 10 of the 23 mantissa bits, to nearest with ties away
// from zero (adding half the dropped range to the magnitude does both; a carry into
// the exponent is correct, up to infinity). Infinities and NaNs stay as they are.
uint64_t roundToTf32(uint64_t w) {
  uint32_t x = static_cast<uint32_t>(w);
  if ((x & 0x7f800000u) == 0x7f800000u)
    return x;
  return (x + 0x1000u) & ~0x1fffu;
}

// Integer inputs are signed unless the atom's name says otherwise: PTX-style names
// ("mma.m16n8k32.s32.u8.s8") give D's type, then A's and B's (one field: both).
bool unsignedInput(const MatrixAtom &atom, bool isB) {
  std::vector<std::string_view> fields;
  std::string_view name = atom.name;
  for (size_t dot; (dot = name.find('.')) != std::string_view::npos; name.remove_prefix(dot + 1))
    fields.push_back(name.substr(0, dot));
  fields.push_back(name);
  if (fields.size() < 4)
    return false;
  return fields[isB && fields.size() > 4 ? 4 : 3].starts_with('u');
}

// D = A * B + C of one warp, row-major m x n. Floats: exact inputs (tf32 atoms round
// theirs first), the products and C summed in double, rounded once to C's type;
// f16/bf16/tf32 products are exact in double, and so are their sums unless the
// exponents spread too far. Integers: in 64 bits, wrapped to C's width.
Words multiply(const MatrixAtom &atom, const Words &a, const Words &b, const Words &c) {
  int64_t m = atom.m, n = atom.n, k = atom.k;
  bool tf32 = atom.name.find("tf32") != std::string::npos;
  bool ua = unsignedInput(atom, false), ub = unsignedInput(atom, true);
  auto floatIn = [tf32](uint64_t w, Type t) { return floatOf(tf32 ? roundToTf32(w) : w, t); };
  auto intIn = [](uint64_t w, Type t, bool isUnsigned) {
    return isUnsigned ? mask(w, bitsOf(t)) : static_cast<uint64_t>(signedOf(w, bitsOf(t)));
  };
  Words d(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      uint64_t cw = c[i * n + j];
      if (atom.cType.isFloat()) {
        double sum = floatOf(cw, atom.cType);
        for (int64_t x = 0; x < k; ++x)
          sum += floatIn(a[i * k + x], atom.aType) * floatIn(b[x * n + j], atom.bType);
        d[i * n + j] = wordOf(sum, atom.cType);
      } else { // unsigned arithmetic: wraps modulo 2^64 instead of overflowing
        uint64_t sum = static_cast<uint64_t>(signedOf(cw, bitsOf(atom.cType)));
        for (int64_t x = 0; x < k; ++x)
          sum += intIn(a[i * k + x], atom.aType, ua) * intIn(b[x * n + j], atom.bType, ub);
        d[i * n + j] = mask(sum, bitsOf(atom.cType));
      }
    }
  return d;
}

// ---- th.ldmatrix

using MatrixRows = std::array<std::array<uint16_t, 8>, 8>;

// Matrix j of the warp starting at `firstThread`: the 16-byte rows that lanes
// 8j .. 8j+7 name. Each row's elements go to several lanes, so for the race checks
// every lane of the warp reads every row. The 8 rows are one phase for the banks.
MatrixRows readMatrix(const Op *op, SharedMemory &shared, const Words &offsets, unsigned firstThread,
                      unsigned j, unsigned warpSize, BankCounts &banks) {
  MatrixRows rows;
  std::array<LaneAccess, 8> phase;
  for (unsigned r = 0; r < 8; ++r) {
    unsigned lane = 8 * j + r;
    uint64_t offset = offsets[firstThread + lane];
    if (offset % 16)
      fail(op, "lane " + std::to_string(lane) + " names shared byte " + std::to_string(offset) +
                   ", which is not 16-byte aligned");
    checkInAllocation(op, offset, 16);
    for (unsigned reader = 0; reader < warpSize; ++reader)
      shared.read(op, firstThread + reader, offset, 16, rows[r].data());
    phase[r] = {offset, true};
  }
  countPhase(phase, 16, banks);
  return rows;
}

} // namespace

std::vector<Words> runMma(const Op *op, const MatrixAtom &atom, const std::vector<const Words *> &operands,
                          unsigned threads, unsigned warpSize) {
  requireWholeWarps(op, threads, warpSize);
  unsigned bFirst = registersOf(atom.a), cFirst = bFirst + registersOf(atom.b);
  std::array<Operand, 3> ops = {Operand{"A", atom.a, atom.aType, atom.m, atom.k, 0},
                                Operand{"B", atom.b, atom.bType, atom.k, atom.n, bFirst},
                                Operand{"C", atom.c, atom.cType, atom.m, atom.n, cFirst}};
  checkSignature(op, atom, ops, warpSize);
  const Operand &c = ops[2];
  std::vector<Words> results(registersOf(c.map), Words(threads));
  for (unsigned first = 0; first < threads; first += warpSize) {
    Words d = multiply(atom, gather(op, atom, ops[0], operands, first, warpSize),
                       gather(op, atom, ops[1], operands, first, warpSize),
                       gather(op, atom, c, operands, first, warpSize));
    // D's registers are C's: the same map.
    for (unsigned lane = 0; lane < warpSize; ++lane)
      for (unsigned reg = 0; reg < results.size(); ++reg) {
        Element e = elementOf(c.map, reg, lane);
        results[reg][first + lane] = d[e.first * atom.n + e.second];
      }
  }
  return results;
}

Words runLdMatrix(const Op *op, SharedMemory &shared, const Words &offsets, unsigned threads,
                  unsigned warpSize, BankCounts &banks) {
  if (warpSize != 32)
    fail(op, "needs warps of 32 lanes, not " + std::to_string(warpSize));
  requireWholeWarps(op, threads, warpSize);
  unsigned count = static_cast<unsigned>(op->intAttr("count")), n = 2 * count;
  bool trans = op->intAttr("trans") != 0;
  Words out(static_cast<size_t>(threads) * n);
  for (unsigned first = 0; first < threads; first += warpSize)
    for (unsigned j = 0; j < count; ++j) {
      MatrixRows rows = readMatrix(op, shared, offsets, first, j, warpSize, banks);
      for (unsigned lane = 0; lane < warpSize; ++lane)
        for (unsigned e = 0; e < 2; ++e) {
          unsigned r = lane / 4, c = 2 * (lane % 4) + e;
          out[(first + lane) * n + 2 * j + e] = trans ? rows[c][r] : rows[r][c];
        }
    }
  return out;
}

} // namespace trident::simt::test::detail
