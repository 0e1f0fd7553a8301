// The thread-IR simulator's matrix-unit and asynchronous-copy ops (th.mma,
// th.ldmatrix, th.async_copy / commit / wait) and its bank-conflict counts, on
// hand-written thread IR. Fragments are packed with the PTX ISA's formulas, not the
// atoms' bit maps, so the maps of NvidiaAtoms.h are checked too.
#include "NvidiaAtoms.h"
#include "SimtTestUtil.h"

#include "trident/support/FloatFormats.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <sstream>

using namespace trident;
using namespace trident::simt::test;

namespace {

// ---- th.mma

using Element = std::pair<unsigned, unsigned>; // (row, col)
using Matrix = std::vector<double>;            // row-major

// The PTX ISA's fragment layouts: the element register i of lane L holds
// (g = L / 4, the group; t = L % 4, the thread in the group).
Element ptxA16816(unsigned lane, unsigned i) {
  return {lane / 4 + 8 * ((i >> 1) & 1), 2 * (lane % 4) + (i & 1) + 8 * (i >> 2)};
}
Element ptxB16816(unsigned lane, unsigned i) { return {2 * (lane % 4) + (i & 1) + 8 * (i >> 1), lane / 4}; }
Element ptxA1688(unsigned lane, unsigned i) { return {lane / 4 + 8 * (i & 1), lane % 4 + 4 * (i >> 1)}; }
Element ptxB1688(unsigned lane, unsigned i) { return {lane % 4 + 4 * i, lane / 4}; }
Element ptxC(unsigned lane, unsigned i) { return {lane / 4 + 8 * (i >> 1), 2 * (lane % 4) + (i & 1)}; }

struct Layouts {
  std::function<Element(unsigned, unsigned)> a, b, c;
};

unsigned registers(const MatrixAtom::OperandMap &map) { return 1u << map.registerBits.size(); }

// Thread t loads its A, B and C registers as vectors from a, b and c at t * (the
// count), runs th.mma and stores D's registers to d likewise.
std::string mmaKernel(const MatrixAtom &atom, unsigned warps, const std::string &atomName) {
  std::ostringstream body;
  std::vector<std::string> operands;
  auto load = [&](const std::string &name, Type type, unsigned n) {
    body << "    %" << name << "n = arith.constant {value = " << n << "} : i32\n"
         << "    %" << name << "o = arith.muli %t, %" << name << "n : i32\n"
         << "    %" << name << "p = tt.addptr %" << name << ", %" << name << "o : ptr<" << type.str() << ">\n"
         << "    %" << name << "v = th.load %" << name << "p : vector<" << n << "x" << type.str() << ">\n";
    for (unsigned i = 0; i < n; ++i) {
      body << "    %" << name << i << " = th.extract %" << name << "v {index = " << i << "} : " << type.str()
           << "\n";
      operands.push_back("%" + name + std::to_string(i));
    }
  };
  load("a", atom.aType, registers(atom.a));
  load("b", atom.bType, registers(atom.b));
  load("c", atom.cType, registers(atom.c));
  unsigned nc = registers(atom.c);
  std::string results, types;
  for (unsigned i = 0; i < nc; ++i) {
    results += (i ? ", %r" : "%r") + std::to_string(i);
    types += (i ? ", " : "") + atom.cType.str();
  }
  body << "    " << results << " = th.mma ";
  for (size_t i = 0; i < operands.size(); ++i)
    body << (i ? ", " : "") << operands[i];
  body << " {atom = \"" << atomName << "\"} : " << types << "\n"
       << "    %dv = th.pack " << results << " : vector<" << nc << "x" << atom.cType.str() << ">\n"
       << "    %dp = tt.addptr %d, %co : ptr<" << atom.cType.str() << ">\n"
       << "    th.store %dp, %dv\n";
  std::string c = atom.cType.str();
  return kernel(32 * warps, 0,
                "%a: ptr<" + atom.aType.str() + ">, %b: ptr<" + atom.bType.str() + ">, %c: ptr<" + c +
                    ">, %d: ptr<" + c + ">",
                body.str());
}

// The bits of `v` in `type` (v must be exact in it).
uint64_t encode(double v, Type type) {
  if (type == Type::f16())
    return encodeFloat(v, FloatFormat::F16);
  if (type == Type::bf16())
    return encodeFloat(v, FloatFormat::BF16);
  if (type == Type::f32())
    return std::bit_cast<uint32_t>(static_cast<float>(v));
  return static_cast<uint64_t>(static_cast<int64_t>(v)); // integers, two's complement
}

double decode(uint32_t bits, Type type) {
  if (type == Type::f32())
    return std::bit_cast<float>(bits);
  return static_cast<int32_t>(bits); // i32
}

// Packs `matrices` (one per warp, rows x cols) into per-thread registers by `layout`.
std::vector<uint8_t> pack(const std::vector<Matrix> &matrices, unsigned cols, Type type, unsigned regs,
                          const std::function<Element(unsigned, unsigned)> &layout) {
  size_t eb = type.bitWidth() / 8;
  std::vector<uint8_t> bytes(matrices.size() * 32 * regs * eb);
  for (size_t w = 0; w < matrices.size(); ++w)
    for (unsigned lane = 0; lane < 32; ++lane)
      for (unsigned i = 0; i < regs; ++i) {
        auto [r, c] = layout(lane, i);
        uint64_t bits = encode(matrices[w][r * cols + c], type);
        std::memcpy(&bytes[((w * 32 + lane) * regs + i) * eb], &bits, eb);
      }
  return bytes;
}

// Runs `atom` on A, B and C of each warp (lists of equal length) in a simulator
// given `atoms`; returns each warp's D.
std::vector<Matrix> simulateMma(const MatrixAtom &atom, const Layouts &layouts, const std::vector<Matrix> &a,
                                const std::vector<Matrix> &b, const std::vector<Matrix> &c,
                                std::vector<MatrixAtom> atoms = nvidiaAtoms()) {
  unsigned warps = static_cast<unsigned>(a.size()), n = static_cast<unsigned>(atom.n);
  unsigned nc = registers(atom.c);
  std::vector<uint8_t> pa = pack(a, static_cast<unsigned>(atom.k), atom.aType, registers(atom.a), layouts.a);
  std::vector<uint8_t> pb = pack(b, n, atom.bType, registers(atom.b), layouts.b);
  std::vector<uint8_t> pc = pack(c, n, atom.cType, nc, layouts.c);
  std::vector<uint8_t> pd(pc.size(), 0xff);
  ThreadSim sim(32, std::move(atoms));
  for (std::vector<uint8_t> *buffer : {&pa, &pb, &pc, &pd})
    sim.addBuffer(buffer->data(), buffer->size());
  std::string error = runKernel(sim, mmaKernel(atom, warps, atom.name),
                                {ptrArg(pa.data()), ptrArg(pb.data()), ptrArg(pc.data()), ptrArg(pd.data())});
  INFO(error);
  REQUIRE(error.empty());
  std::vector<Matrix> d(warps, Matrix(c[0].size()));
  for (unsigned w = 0; w < warps; ++w)
    for (unsigned lane = 0; lane < 32; ++lane)
      for (unsigned i = 0; i < nc; ++i) {
        uint32_t bits;
        std::memcpy(&bits, &pd[((w * 32 + lane) * nc + i) * 4], 4);
        auto [r, col] = layouts.c(lane, i);
        d[w][r * n + col] = decode(bits, atom.cType);
      }
  return d;
}

// D = A * B + C in double, each input first passed through `input`.
Matrix reference(
    const MatrixAtom &atom, const Matrix &a, const Matrix &b, const Matrix &c,
    const std::function<double(double)> &input = [](double x) { return x; }) {
  Matrix d(c.size());
  for (int64_t i = 0; i < atom.m; ++i)
    for (int64_t j = 0; j < atom.n; ++j) {
      double sum = c[i * atom.n + j];
      for (int64_t x = 0; x < atom.k; ++x)
        sum += input(a[i * atom.k + x]) * input(b[x * atom.n + j]);
      d[i * atom.n + j] = sum;
    }
  return d;
}

// Integers in [lo, hi] divided by `scale`: exact in every input type used here, and
// sums of their products exact in double.
Matrix randomMatrix(size_t size, std::mt19937 &gen, int lo, int hi, double scale = 1) {
  std::uniform_int_distribution<int> dist(lo, hi);
  Matrix m(size);
  for (double &x : m)
    x = dist(gen) / scale;
  return m;
}

const Layouts kLayouts16816{ptxA16816, ptxB16816, ptxC};
const Layouts kLayouts1688{ptxA1688, ptxB1688, ptxC};

void checkRandom16816(const MatrixAtom &atom, uint32_t seed) {
  std::mt19937 gen(seed);
  std::vector<Matrix> a, b, c;
  for (int w = 0; w < 2; ++w) { // two warps, each its own matrices
    a.push_back(randomMatrix(16 * 16, gen, -64, 64, 64));
    b.push_back(randomMatrix(16 * 8, gen, -64, 64, 64));
    c.push_back(randomMatrix(16 * 8, gen, -512, 512, 128));
  }
  std::vector<Matrix> d = simulateMma(atom, kLayouts16816, a, b, c);
  for (int w = 0; w < 2; ++w) {
    Matrix want = reference(atom, a[w], b[w], c[w]);
    for (size_t i = 0; i < want.size(); ++i) {
      INFO("warp " << w << " element " << i);
      CHECK(d[w][i] == static_cast<float>(want[i]));
    }
  }
}

// cvt.rna.tf32.f32 by arithmetic: 11 significant bits, halves away from zero.
double roundTf32(double x) {
  int e;
  double m = std::frexp(x, &e);
  return std::ldexp(std::round(std::ldexp(m, 11)), e - 11);
}

// ---- th.ldmatrix

// Thread t stores 16 bytes of `src` (element 8t) to shared element `{store}`;
// after a barrier, th.ldmatrix {count, trans} reads the rows lane L names by
// `{row}` and thread t stores its 2 * count elements to out at 2 * count * t.
const char *kLdMatrix = R"(    %c8 = arith.constant {value = 8} : i32
    %i = arith.muli %t, %c8 : i32
    %sp = tt.addptr %src, %i : ptr<i16>
    %v = th.load %sp : vector<8xi16>
    %s = th.shared_alloc {offset = 0, size = 512} : ptr<i16, 3>
    %lane = th.lane_id : i32
    %c1 = arith.constant {value = 1} : i32
    %c3 = arith.constant {value = 3} : i32
    %c4 = arith.constant {value = 4} : i32
    %c7 = arith.constant {value = 7} : i32
    %c32 = arith.constant {value = 32} : i32
{index}    th.store_shared %s, {store}, %v
    {barrier}
    %m = th.ldmatrix %s, {row} {count = {count}, trans = {trans}} : vector<{n}xi16>
    %cn = arith.constant {value = {n}} : i32
    %oi = arith.muli %t, %cn : i32
    %op = tt.addptr %out, %oi : ptr<i16>
    th.store %op, %m
)";

// Index arithmetic for an 8 x 32 tile of 16-bit elements (64-byte rows) whose
// 16-byte chunk c of row r lies at chunk c ^ ((r >> 1) & %sw): %st is thread t's
// chunk (row t / 4, chunk t % 4) and %ld lane L's row of matrix L / 8 (the tile's
// columns 8j .. 8j+7), row L % 8. Every chunk sits in its own row, so the store is
// conflict-free either way; %sw = 3 makes the ldmatrix one too.
const char *kTileIndex = R"(    %sr = arith.divui %t, %c4 : i32
    %sc = arith.remui %t, %c4 : i32
    %sq0 = arith.shrui %sr, %c1 : i32
    %sq = arith.andi %sq0, %sw : i32
    %sx = arith.xori %sc, %sq : i32
    %sro = arith.muli %sr, %c32 : i32
    %sco = arith.muli %sx, %c8 : i32
    %st = arith.addi %sro, %sco : i32
    %lr = arith.andi %lane, %c7 : i32
    %lj = arith.divui %lane, %c8 : i32
    %lq0 = arith.shrui %lr, %c1 : i32
    %lq = arith.andi %lq0, %sw : i32
    %lx = arith.xori %lj, %lq : i32
    %lro = arith.muli %lr, %c32 : i32
    %lco = arith.muli %lx, %c8 : i32
    %ld = arith.addi %lro, %lco : i32
)";

struct LdMatrixRun {
  std::string error;
  std::vector<int16_t> out;
  uint64_t wavefronts = 0, conflicts = 0;
};

LdMatrixRun runLdMatrix(const std::vector<std::pair<std::string, std::string>> &keys, int count, int trans,
                        const std::vector<int16_t> &src, int32_t swizzle = 0) {
  std::vector<std::pair<std::string, std::string>> all = keys;
  all.insert(
      all.end(),
      {{"count", std::to_string(count)}, {"trans", std::to_string(trans)}, {"n", std::to_string(2 * count)}});
  std::string text = kernel(32, 512, "%src: ptr<i16>, %out: ptr<i16>, %sw: i32", fill(kLdMatrix, all));
  LdMatrixRun run;
  run.out.assign(32 * 2 * count, -1);
  ThreadSim sim;
  sim.addBuffer(const_cast<int16_t *>(src.data()), src.size() * 2);
  sim.addBuffer(run.out.data(), run.out.size() * 2);
  run.error = runKernel(sim, text, {ptrArg(src.data()), ptrArg(run.out.data()), i32Arg(swizzle)});
  run.wavefronts = sim.sharedWavefronts();
  run.conflicts = sim.bankConflicts();
  return run;
}

// Matrix j, element (r, c): a value that names it.
int16_t tileValue(unsigned j, unsigned r, unsigned c) { return static_cast<int16_t>(1000 * j + 10 * r + c); }

// The four 8x8 matrices one after another (matrix j, row r at element 64j + 8r).
std::vector<int16_t> consecutiveMatrices() {
  std::vector<int16_t> v(256);
  for (unsigned j = 0; j < 4; ++j)
    for (unsigned r = 0; r < 8; ++r)
      for (unsigned c = 0; c < 8; ++c)
        v[64 * j + 8 * r + c] = tileValue(j, r, c);
  return v;
}

// What lane L's result holds per the .def: elements 2j, 2j+1 from matrix j.
void checkLdMatrixResult(const std::vector<int16_t> &out, int count, bool trans) {
  int n = 2 * count;
  for (unsigned lane = 0; lane < 32; ++lane)
    for (int j = 0; j < count; ++j)
      for (unsigned e = 0; e < 2; ++e) {
        unsigned r = lane / 4, c = 2 * (lane % 4) + e;
        INFO("lane " << lane << " matrix " << j << " e " << e);
        CHECK(out[lane * n + 2 * j + e] == (trans ? tileValue(j, c, r) : tileValue(j, r, c)));
      }
}

// ---- asynchronous copies

// 64 threads; thread t copies 16 bytes from src + 4t to shared element 4t where
// 4t < %n (zeros elsewhere), then `{sync}`, then reads shared element {read} into
// out + 4t. %nb is thread (t + 1) % 64's chunk.
const char *kAsyncCopy = R"(    %c1 = arith.constant {value = 1} : i32
    %c4 = arith.constant {value = 4} : i32
    %c64 = arith.constant {value = 64} : i32
    %i = arith.muli %t, %c4 : i32
    %sp = tt.addptr %src, %i : ptr<f32>
    %s = th.shared_alloc {offset = 0, size = {size}} : ptr<f32, 3>
    %p = arith.cmpi %i, %n {predicate = "slt"} : i1
    th.async_copy %s, %i, %sp, %p {bytes = 16}
{sync}    %t1 = arith.addi %t, %c1 : i32
    %t2 = arith.remui %t1, %c64 : i32
    %nb = arith.muli %t2, %c4 : i32
{read})";

const char *kReadChunk = R"(    %v = th.load_shared %s, {index} : vector<4xf32>
    %op = tt.addptr %out, %i : ptr<f32>
    th.store %op, %v
)";

struct AsyncRun {
  std::string error;
  std::vector<float> src, out;
};

constexpr int32_t kCopied = 200; // floats of src: threads 50 .. 63 copy nothing

AsyncRun runAsync(const std::string &sync, const std::string &read) {
  AsyncRun run;
  run.src = randomFloats(kCopied, 7);
  run.out.assign(256, -1.f);
  std::string text = kernel(64, 1024, "%src: ptr<f32>, %out: ptr<f32>, %n: i32",
                            fill(kAsyncCopy, {{"size", "1024"}, {"sync", sync}, {"read", read}}));
  ThreadSim sim;
  sim.addBuffer(run.src.data(), run.src.size() * 4); // exactly: a read past it fails
  sim.addBuffer(run.out.data(), run.out.size() * 4);
  run.error = runKernel(sim, text, {ptrArg(run.src.data()), ptrArg(run.out.data()), i32Arg(kCopied)});
  return run;
}

std::string readChunk(const std::string &index) { return fill(kReadChunk, {{"index", index}}); }

const std::string kCommitWait = "    th.async_commit\n    th.async_wait {pending = 0}\n";

// ---- bank counts of one kernel body (shared memory: `sharedBytes` of f32 at %s)

std::pair<uint64_t, uint64_t> bankCounts(unsigned threads, unsigned sharedBytes, const std::string &body) {
  std::string text = kernel(threads, sharedBytes, "",
                            "    %s = th.shared_alloc {offset = 0, size = " + std::to_string(sharedBytes) +
                                "} : ptr<f32, 3>\n    %one = arith.constant {value = 1.0} : f32\n" + body);
  ThreadSim sim;
  std::string error = runKernel(sim, text, {});
  INFO(error);
  REQUIRE(error.empty());
  return {sim.sharedWavefronts(), sim.bankConflicts()};
}

} // namespace

TEST_CASE("th.mma m16n8k16 f16 -> f32: two warps against a CPU reference") {
  checkRandom16816(nvidiaMma16816("mma.m16n8k16.f32.f16", Type::f16()), 1);
}

TEST_CASE("th.mma m16n8k16 bf16 -> f32: two warps against a CPU reference") {
  checkRandom16816(nvidiaMma16816("mma.m16n8k16.f32.bf16", Type::bf16()), 2);
}

TEST_CASE("th.mma sums in double and rounds once to f32") {
  MatrixAtom atom = nvidiaMma16816("mma.m16n8k16.f32.f16", Type::f16());
  Matrix a(16 * 16, 0), b(16 * 8, 0), c(16 * 8, 0);
  for (int x = 0; x < 16; ++x)
    a[x] = b[x * 8] = std::ldexp(1.0, -12); // D[0][0] = 1 + 16 * 2^-24
  c[0] = 1;
  std::vector<Matrix> d = simulateMma(atom, kLayouts16816, {a}, {b}, {c});
  CHECK(d[0][0] == 1 + std::ldexp(1.0, -20)); // adding in f32 would stay at 1
  CHECK(d[0][1] == 0);
}

TEST_CASE("th.mma m16n8k8 tf32: inputs rounded as cvt.rna.tf32.f32, against a CPU reference") {
  MatrixAtom atom = nvidiaMma1688Tf32();
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> magnitude(0.5f, 1.f);
  auto randomF32 = [&](size_t size) { // 24-bit significands, one binade: exact sums in double
    Matrix m(size);
    for (double &x : m)
      x = (gen() & 1 ? -1 : 1) * magnitude(gen);
    return m;
  };
  std::vector<Matrix> a = {randomF32(16 * 8), randomF32(16 * 8)}, b = {randomF32(8 * 8), randomF32(8 * 8)};
  std::vector<Matrix> c = {randomMatrix(16 * 8, gen, -1024, 1024, 1024),
                           randomMatrix(16 * 8, gen, -1024, 1024, 1024)};
  std::vector<Matrix> d = simulateMma(atom, kLayouts1688, a, b, c);
  int differFromUnrounded = 0;
  for (int w = 0; w < 2; ++w) {
    Matrix want = reference(atom, a[w], b[w], c[w], roundTf32), unrounded = reference(atom, a[w], b[w], c[w]);
    for (size_t i = 0; i < want.size(); ++i) {
      INFO("warp " << w << " element " << i);
      CHECK(d[w][i] == static_cast<float>(want[i]));
      differFromUnrounded += static_cast<float>(unrounded[i]) != d[w][i];
    }
  }
  CHECK(differFromUnrounded > 100); // the rounding mattered

  SUBCASE("ties round away from zero") {
    Matrix ta(16 * 8, 0), tb(8 * 8, 0), tc(16 * 8, 0);
    ta[0 * 8] = 1 + std::ldexp(1.0, -11);                        // halfway: up to 1 + 2^-10
    ta[1 * 8] = -(1 + std::ldexp(1.0, -11));                     // down to -(1 + 2^-10)
    ta[2 * 8] = 1 + std::ldexp(1.0, -11) - std::ldexp(1.0, -23); // below halfway: 1
    tb[0] = 1;
    std::vector<Matrix> td = simulateMma(atom, kLayouts1688, {ta}, {tb}, {tc});
    CHECK(td[0][0 * 8] == 1 + std::ldexp(1.0, -10));
    CHECK(td[0][1 * 8] == -(1 + std::ldexp(1.0, -10)));
    CHECK(td[0][2 * 8] == 1);
  }
}

TEST_CASE("th.mma on integer atoms: s8 and u8 products in 64 bits, wrapped to i32") {
  for (bool isUnsigned : {false, true}) {
    CAPTURE(isUnsigned);
    // A made-up atom: the m16n8k16 maps with 8-bit inputs (NVIDIA's integer atoms have k = 32).
    MatrixAtom atom =
        nvidiaMma16816(isUnsigned ? "test.m16n8k16.s32.u8" : "test.m16n8k16.s32.s8", Type::i8());
    atom.cType = Type::i32();
    std::mt19937 gen(4);
    Matrix a = isUnsigned ? randomMatrix(16 * 16, gen, 0, 255) : randomMatrix(16 * 16, gen, -128, 127);
    Matrix b = isUnsigned ? randomMatrix(16 * 8, gen, 0, 255) : randomMatrix(16 * 8, gen, -128, 127);
    Matrix c = randomMatrix(16 * 8, gen, -100000, 100000);
    c[0] = 2147483647; // wraps: the products of row 0 and column 0 sum to more than 0
    for (int x = 0; x < 16; ++x)
      a[x] = b[x * 8] = 100;
    std::vector<Matrix> d = simulateMma(atom, kLayouts16816, {a}, {b}, {c}, {atom});
    Matrix want = reference(atom, a, b, c); // exact in double
    CHECK(want[0] > 2147483647);
    for (size_t i = 0; i < want.size(); ++i) {
      INFO("element " << i);
      CHECK(d[0][i] == static_cast<int32_t>(static_cast<uint32_t>(static_cast<int64_t>(want[i]))));
    }
  }
}

TEST_CASE("th.mma errors: an atom the simulator was not given, operands that do not fit the atom") {
  MatrixAtom f16 = nvidiaMma16816("mma.m16n8k16.f32.f16", Type::f16());
  std::vector<uint8_t> buffer(64 * 1024);
  std::vector<uint64_t> args(4, ptrArg(buffer.data()));
  {
    ThreadSim sim(32, nvidiaAtoms());
    sim.addBuffer(buffer.data(), buffer.size());
    std::string error = runKernel(sim, mmaKernel(f16, 1, "mma.m16n8k64.s32.s4"), args);
    CHECK(error.find("unknown matrix atom 'mma.m16n8k64.s32.s4'") != std::string::npos);
  }
  {
    ThreadSim sim; // no atoms at all
    sim.addBuffer(buffer.data(), buffer.size());
    std::string error = runKernel(sim, mmaKernel(f16, 1, f16.name), args);
    CHECK(error.find("unknown matrix atom 'mma.m16n8k16.f32.f16'") != std::string::npos);
  }
  {
    ThreadSim sim(32, nvidiaAtoms()); // tf32's 10 operands named as the f16 atom (16)
    sim.addBuffer(buffer.data(), buffer.size());
    std::string error = runKernel(sim, mmaKernel(nvidiaMma1688Tf32(), 1, f16.name), args);
    CHECK(error.find("takes 16 operands and gives 4 results") != std::string::npos);
  }
}

TEST_CASE("th.ldmatrix x1, x2, x4, with and without trans") {
  std::vector<int16_t> src = consecutiveMatrices();
  for (int count : {1, 2, 4})
    for (int trans : {0, 1}) {
      CAPTURE(count);
      CAPTURE(trans);
      LdMatrixRun run = runLdMatrix(
          {{"index", ""}, {"store", "%i"}, {"barrier", "th.barrier"}, {"row", "%i"}}, count, trans, src);
      INFO(run.error);
      REQUIRE(run.error.empty());
      checkLdMatrixResult(run.out, count, trans);
      // 16-byte stores: 4 phases of 8 consecutive rows; each matrix of 8 consecutive rows: 1.
      CHECK(run.wavefronts == 4u + count);
      CHECK(run.conflicts == 0);
    }
}

TEST_CASE("th.ldmatrix errors: misaligned rows, rows outside the allocation, a read racing a write") {
  std::vector<int16_t> src = consecutiveMatrices();
  std::vector<std::pair<std::string, std::string>> keys = {{"index", "    %mis = arith.addi %i, %c4 : i32\n"},
                                                           {"store", "%i"},
                                                           {"barrier", "th.barrier"},
                                                           {"row", "%mis"}};
  LdMatrixRun run = runLdMatrix(keys, 4, 0, src); // element 8L + 4: 8 bytes off
  CHECK(run.error.find("th.ldmatrix: lane 0 names shared byte 8, which is not 16-byte aligned") !=
        std::string::npos);

  keys[0].second = "    %past = arith.addi %i, %c32 : i32\n";
  keys[3].second = "%past"; // lane 31's row ends 64 bytes past the 512
  run = runLdMatrix(keys, 4, 0, src);
  CHECK(run.error.find("is outside its allocation") != std::string::npos);

  keys[0].second = "";
  keys[2].second = "";
  keys[3].second = "%i"; // no barrier: lane 1 receives row 0, which thread 0 wrote
  run = runLdMatrix(keys, 1, 0, src);
  CHECK(run.error.find("race: shared byte 0 is read after another thread wrote it") != std::string::npos);
}

TEST_CASE("bank conflicts: an 8 x 64-byte f16 tile read by ldmatrix x4, row-major and XOR-swizzled") {
  // The tile's element (r, c) = matrix c / 8's element (r, c % 8).
  std::vector<int16_t> tile(256);
  for (unsigned r = 0; r < 8; ++r)
    for (unsigned c = 0; c < 32; ++c)
      tile[32 * r + c] = tileValue(c / 8, r, c % 8);
  std::vector<std::pair<std::string, std::string>> keys = {
      {"index", kTileIndex}, {"store", "%st"}, {"barrier", "th.barrier"}, {"row", "%ld"}};
  // Row-major: each matrix's rows start at words 16r + 4j, so rows r and r + 2 share
  // banks: 4 distinct words per bank, 4 wavefronts per matrix instead of 1.
  LdMatrixRun plain = runLdMatrix(keys, 4, 0, tile, 0);
  INFO(plain.error);
  REQUIRE(plain.error.empty());
  checkLdMatrixResult(plain.out, 4, false);
  CHECK(plain.wavefronts == 4 + 16); // the stores: 4 phases of 1
  CHECK(plain.conflicts == 12);
  // Chunk c of row r at c ^ ((r >> 1) & 3): a matrix's 8 rows cover all 32 banks.
  LdMatrixRun swizzled = runLdMatrix(keys, 4, 0, tile, 3);
  INFO(swizzled.error);
  REQUIRE(swizzled.error.empty());
  checkLdMatrixResult(swizzled.out, 4, false);
  CHECK(swizzled.wavefronts == 4 + 4);
  CHECK(swizzled.conflicts == 0);
}

TEST_CASE("bank conflicts of load_shared and store_shared: strides, broadcasts, 8-byte phases, predicates") {
  const std::string stride32 = "    %c32 = arith.constant {value = 32} : i32\n"
                               "    %i = arith.muli %t, %c32 : i32\n"
                               "    th.store_shared %s, %i, %one\n"
                               "    %x = th.load_shared %s, %i : f32\n";
  // Two warps; a stride of 32 words puts a warp's 32 words in one bank: 32 wavefronts,
  // 31 beyond the minimum, for the store and the load of each warp.
  CHECK(bankCounts(64, 64 * 32 * 4, stride32) == std::pair<uint64_t, uint64_t>{4 * 32, 4 * 31});

  const std::string broadcast = "    %c0 = arith.constant {value = 0} : i32\n"
                                "    %first = arith.cmpi %t, %c0 {predicate = \"eq\"} : i1\n"
                                "    th.store_shared %s, %c0, %one, %first\n"
                                "    th.barrier\n"
                                "    %x = th.load_shared %s, %c0 : f32\n";
  // The store: one thread in warp 0, none in warp 1 (no access, no wavefront); the
  // load: one word for all 32 threads of each warp.
  CHECK(bankCounts(64, 4, broadcast) == std::pair<uint64_t, uint64_t>{1 + 2, 0});

  const std::string wide = "    %v = th.pack %one, %one : vector<2xf32>\n"
                           "    %c{k} = arith.constant {value = {k}} : i32\n"
                           "    %i = arith.muli %t, %c{k} : i32\n"
                           "    th.store_shared %s, %i, %v\n";
  // 8 bytes a thread, two phases of 16: consecutive, 1 each; every 4th word pair
  // (stride 16 bytes): lanes t and t + 8 of a phase share banks, 2 each.
  CHECK(bankCounts(32, 256, fill(wide, {{"k", "2"}})) == std::pair<uint64_t, uint64_t>{2, 0});
  CHECK(bankCounts(32, 512, fill(wide, {{"k", "4"}})) == std::pair<uint64_t, uint64_t>{4, 2});
}

TEST_CASE(
    "async copies: copy, commit, wait, barrier, then any thread reads the data; zeros where pred is false") {
  AsyncRun run = runAsync(kCommitWait + "    th.barrier\n", readChunk("%nb"));
  INFO(run.error);
  REQUIRE(run.error.empty());
  for (int t = 0; t < 64; ++t) {
    int from = 4 * ((t + 1) % 64);
    for (int e = 0; e < 4; ++e) {
      INFO("thread " << t << " element " << e);
      CHECK(run.out[4 * t + e] == (from < kCopied ? run.src[from + e] : 0.f));
    }
  }
  // Without a barrier a thread may read what it copied itself.
  run = runAsync(kCommitWait, readChunk("%i"));
  INFO(run.error);
  CHECK(run.error.empty());
}

TEST_CASE(
    "async copy errors: reading before the wait, another thread's bytes without a barrier, never waiting") {
  // No wait: the bytes are still in flight.
  AsyncRun run = runAsync("    th.async_commit\n    th.barrier\n", readChunk("%i"));
  CHECK(run.error.find("th.load_shared: shared byte 0 is read while an asynchronous copy to it is pending") !=
        std::string::npos);
  // A wait without a commit waits for nothing: the copy is in the open group.
  run = runAsync("    th.async_wait {pending = 0}\n", readChunk("%i"));
  CHECK(run.error.find("is read while an asynchronous copy to it is pending") != std::string::npos);
  // A store to the bytes in flight.
  run = runAsync("    th.async_commit\n", "    %z = arith.constant {value = 0.0} : f32\n"
                                          "    th.store_shared %s, %i, %z\n");
  CHECK(run.error.find(
            "th.store_shared: shared byte 0 is written while an asynchronous copy to it is pending") !=
        std::string::npos);
  // The wait completes the copy, but thread t reads thread t + 1's bytes without a barrier.
  run = runAsync(kCommitWait, readChunk("%nb"));
  CHECK(run.error.find("th.load_shared: race: shared byte 16 is read after another thread wrote it") !=
        std::string::npos);
  // The program ends with its copies never waited for.
  run = runAsync("    th.async_commit\n", "");
  CHECK(run.error.find("never waited for") != std::string::npos);
}

TEST_CASE("async_wait {pending = N} leaves the newest N groups in flight") {
  // Group 1 copies to shared elements 0 .. 255 (thread t: 4t), group 2 to 256 .. 511.
  const std::string groups = "    th.async_commit\n"
                             "    %c256 = arith.constant {value = 256} : i32\n"
                             "    %i2 = arith.addi %i, %c256 : i32\n"
                             "    th.async_copy %s, %i2, %sp, %p {bytes = 16}\n"
                             "    th.async_commit\n"
                             "    th.async_wait {pending = 1}\n"
                             "    th.barrier\n";
  struct Result {
    std::string error;
    bool neighbourCopied = false;
  };
  auto run = [&](const std::string &tail) {
    std::string body = fill(kAsyncCopy, {{"size", "2048"}, {"sync", groups}, {"read", tail}});
    std::vector<float> src = randomFloats(kCopied, 9), out(256, -1.f);
    ThreadSim sim;
    sim.addBuffer(src.data(), src.size() * 4);
    sim.addBuffer(out.data(), out.size() * 4);
    Result r;
    r.error = runKernel(sim, kernel(64, 2048, "%src: ptr<f32>, %out: ptr<f32>, %n: i32", body),
                        {ptrArg(src.data()), ptrArg(out.data()), i32Arg(kCopied)});
    r.neighbourCopied = out[0] == src[4];
    return r;
  };
  const std::string waitAll = "    th.async_wait {pending = 0}\n";
  // Group 1 is complete: after the barrier thread t reads thread t + 1's chunk.
  Result done = run(readChunk("%nb") + waitAll);
  INFO(done.error);
  CHECK(done.error.empty());
  CHECK(done.neighbourCopied);
  // Group 2 is still in flight, the barrier notwithstanding.
  Result inFlight = run(readChunk("%i2") + waitAll);
  CHECK(inFlight.error.find("shared byte 1024 is read while an asynchronous copy to it is pending") !=
        std::string::npos);
  // And never waiting for it fails at the end.
  Result never = run("");
  CHECK(never.error.find("never waited for") != std::string::npos);
}
