#include "ThreadSim.h"
#include "ThreadSimImpl.h"

#include "trident/support/FloatFormats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <sstream>
#include <unordered_map>

namespace trident::simt::test {

namespace detail {

[[noreturn]] void fail(const Op *op, const std::string &message) {
  throw SimError{std::string(op->name()) + ": " + message};
}

unsigned bitsOf(Type t) { return t.isPtr() ? 64 : t.bitWidth(); }

uint64_t mask(uint64_t w, unsigned bits) { return bits >= 64 ? w : (w & ((uint64_t(1) << bits) - 1)); }

int64_t signedOf(uint64_t w, unsigned bits) {
  if (bits >= 64)
    return static_cast<int64_t>(w);
  uint64_t m = uint64_t(1) << (bits - 1);
  w = mask(w, bits);
  return static_cast<int64_t>((w ^ m) - m);
}

namespace {

// f16 to float (exact).
float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ffu;
  if (exp == 0)
    return (sign ? -1.f : 1.f) * std::ldexp(float(mant), -24);
  if (exp == 31)
    return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
}

} // namespace

double floatOf(uint64_t w, Type t) {
  if (t == Type::f32())
    return std::bit_cast<float>(static_cast<uint32_t>(w));
  if (t == Type::f64())
    return std::bit_cast<double>(w);
  if (t == Type::f16())
    return halfToFloat(static_cast<uint16_t>(w));
  if (t == Type::bf16())
    return std::bit_cast<float>(static_cast<uint32_t>(w & 0xffffu) << 16);
  if (t == Type::f8e4m3())
    return decodeFloat(static_cast<uint32_t>(w & 0xffu), FloatFormat::F8E4M3);
  if (t == Type::f8e5m2())
    return decodeFloat(static_cast<uint32_t>(w & 0xffu), FloatFormat::F8E5M2);
  throw SimError{"unsupported float type " + t.str()};
}

uint64_t wordOf(double d, Type t) {
  if (t == Type::f32())
    return std::bit_cast<uint32_t>(static_cast<float>(d));
  if (t == Type::f64())
    return std::bit_cast<uint64_t>(d);
  // Rounded once from the double: through float, an f64 would round twice (as
  // arith.truncf from f64 must not; GPUs convert f64 to f16 in one step).
  if (t == Type::f16())
    return encodeFloat(d, FloatFormat::F16);
  if (t == Type::bf16())
    return encodeFloat(d, FloatFormat::BF16);
  if (t == Type::f8e4m3())
    return encodeFloat(d, FloatFormat::F8E4M3);
  if (t == Type::f8e5m2())
    return encodeFloat(d, FloatFormat::F8E5M2);
  throw SimError{"unsupported float type " + t.str()};
}

} // namespace detail

using namespace detail;

namespace {

// f32 arithmetic rounds once, in float; f16 and bf16 compute in float and round.
template <class F> uint64_t floatBinary(uint64_t a, uint64_t b, Type t, F f) {
  if (t == Type::f16() || t == Type::bf16()) {
    float x = static_cast<float>(floatOf(a, t)), y = static_cast<float>(floatOf(b, t));
    return wordOf(static_cast<float>(f(x, y)), t);
  }
  if (t == Type::f32()) {
    float x = std::bit_cast<float>(static_cast<uint32_t>(a)),
          y = std::bit_cast<float>(static_cast<uint32_t>(b));
    return std::bit_cast<uint32_t>(static_cast<float>(f(x, y)));
  }
  return std::bit_cast<uint64_t>(static_cast<double>(f(floatOf(a, t), floatOf(b, t))));
}

} // namespace

class SimProgram {
public:
  SimProgram(ThreadSim &sim, const Op *func, std::array<uint32_t, 3> pid, std::array<uint32_t, 3> grid)
      : sim_(sim), func_(func), pid_(pid), grid_(grid),
        threads_(static_cast<unsigned>(func->intAttr("num_threads"))),
        shared_(static_cast<size_t>(func->intAttr("shared_bytes")), threads_),
        storedSinceBarrier_(threads_, 0) {}

  void run(const std::vector<uint64_t> &args) {
    Block *body = func_->region();
    for (unsigned i = 0; i < body->numArguments(); ++i)
      values_[body->argument(i)] = Words(threads_, args[i]);
    runBlock(body);
    shared_.checkAllCopiesDone(func_);
    async_.checkAllDone(func_);
    sim_.wavefronts_ += banks_.wavefronts;
    sim_.minimumWavefronts_ += banks_.minimum;
  }

private:
  // A vector's elements; a cooperative matrix is its whole tile in every thread of the warp.
  unsigned lanesOf(Type t) const {
    return t.isVector() || t.isCoopMatrix() ? static_cast<unsigned>(t.numElements()) : 1;
  }
  const Words &get(const Value *v) const { return values_.at(v); }
  void set(const Value *v, Words w) { values_[v] = std::move(w); }

  uint64_t uniform(const Op *op, const Value *v) {
    const Words &w = get(v);
    for (uint64_t x : w)
      if (x != w[0])
        fail(op, "a value that must be uniform differs between threads");
    return w[0];
  }

  // Runs the ops of `block` up to its terminator; returns the terminator.
  Op *runBlock(Block *block) {
    for (Op *op : *block) {
      if (op->has(kTerminator))
        return op;
      runOp(op);
    }
    return nullptr;
  }

  std::vector<Words> operandWords(const Op *term, unsigned first = 0) {
    std::vector<Words> out;
    for (unsigned i = first; i < term->numOperands(); ++i)
      out.push_back(get(term->operand(i)));
    return out;
  }
  // The th.wgmma groups the operands are in flight in (-1: none), carried with them.
  std::vector<int64_t> operandGroups(const Op *term, unsigned first = 0) {
    std::vector<int64_t> out;
    for (unsigned i = first; i < term->numOperands(); ++i)
      out.push_back(async_.groupOf(term->operand(i)));
    return out;
  }

  void runOp(Op *op) {
    async_.checkReads(op);
    switch (op->code()) {
    case OpCode::For: return runFor(op);
    case OpCode::If: {
      bool c = uniform(op, op->operand(0)) & 1;
      Op *term = runBlock(op->region(c ? 0 : 1));
      for (unsigned i = 0; i < op->numResults(); ++i) {
        set(op->result(i), get(term->operand(i)));
        async_.setGroup(op->result(i), async_.groupOf(term->operand(i)));
      }
      return;
    }
    case OpCode::While: return runWhile(op);
    default: break;
    }
    if (op->name().starts_with("th."))
      return runThreadOp(op);
    if (op->is(OpCode::MulF) && op->result()->type().isCoopMatrix()) {
      // Element by element on whole tiles (each thread holds its warp's tile).
      const Words &a = get(op->operand(0)), &b = get(op->operand(1));
      Words out(a.size());
      Type e = op->result()->type().element();
      for (size_t i = 0; i < a.size(); ++i)
        out[i] = floatBinary(a[i], b[i], e, [](auto x, auto y) { return x * y; });
      return set(op->result(), std::move(out));
    }
    return runScalarOp(op);
  }

  void runFor(Op *op) {
    Type ivType = op->operand(0)->type();
    int64_t lb = signedOf(uniform(op, op->operand(0)), bitsOf(ivType));
    int64_t ub = signedOf(uniform(op, op->operand(1)), bitsOf(ivType));
    int64_t step = signedOf(uniform(op, op->operand(2)), bitsOf(ivType));
    if (step <= 0)
      fail(op, "step must be positive");
    Block *body = op->region();
    std::vector<Words> iters = operandWords(op, 3);
    std::vector<int64_t> groups = operandGroups(op, 3);
    for (int64_t iv = lb; iv < ub; iv += step) {
      set(body->argument(0), Words(threads_, mask(static_cast<uint64_t>(iv), bitsOf(ivType))));
      for (size_t i = 0; i < iters.size(); ++i) {
        set(body->argument(static_cast<unsigned>(i + 1)), iters[i]);
        async_.setGroup(body->argument(static_cast<unsigned>(i + 1)), groups[i]);
      }
      Op *yield = runBlock(body);
      iters = operandWords(yield);
      groups = operandGroups(yield);
    }
    for (unsigned i = 0; i < op->numResults(); ++i) {
      set(op->result(i), iters[i]);
      async_.setGroup(op->result(i), groups[i]);
    }
  }

  void runWhile(Op *op) {
    std::vector<Words> args = operandWords(op);
    std::vector<int64_t> groups = operandGroups(op);
    for (int trips = 0;; ++trips) {
      if (trips > 1000000)
        fail(op, "more than a million iterations");
      for (size_t i = 0; i < args.size(); ++i) {
        set(op->region(0)->argument(static_cast<unsigned>(i)), args[i]);
        async_.setGroup(op->region(0)->argument(static_cast<unsigned>(i)), groups[i]);
      }
      Op *cond = runBlock(op->region(0));
      std::vector<Words> forwarded = operandWords(cond, 1);
      std::vector<int64_t> forwardedGroups = operandGroups(cond, 1);
      Block *next = uniform(cond, cond->operand(0)) & 1 ? op->region(1) : nullptr;
      for (size_t i = 0; i < forwarded.size(); ++i) {
        const Value *to = next ? next->argument(static_cast<unsigned>(i)) : op->result(static_cast<unsigned>(i));
        set(to, forwarded[i]);
        async_.setGroup(to, forwardedGroups[i]);
      }
      if (!next)
        return;
      Op *yield = runBlock(next);
      args = operandWords(yield);
      groups = operandGroups(yield);
    }
  }

  // ---- memory checks ----
  void checkGlobal(const Op *op, uint64_t address, uint64_t bytes) {
    if (address % bytes != 0) {
      std::ostringstream os;
      os << "address 0x" << std::hex << address << std::dec << " is not aligned to the " << bytes
         << "-byte access";
      fail(op, os.str());
    }
    for (const ThreadSim::Buffer &b : sim_.buffers_)
      if (address >= b.base && address + bytes <= b.base + b.bytes)
        return;
    std::ostringstream os;
    os << "access of " << bytes << " bytes at 0x" << std::hex << address << " is outside every buffer";
    fail(op, os.str());
  }

  // The shared byte each thread's `index` (operand #1, in elements of `elementBytes`)
  // names in the allocation (operand #0).
  Words sharedOffsets(const Op *op, uint64_t elementBytes) {
    Words out(threads_);
    for (unsigned t = 0; t < threads_; ++t)
      out[t] = get(op->operand(0))[t] + signedOf(get(op->operand(1))[t], 32) * elementBytes;
    return out;
  }

  // Counts the banks of one shared access of `bytes` bytes per thread, warp by warp.
  void countBanks(const std::vector<LaneAccess> &accesses, uint64_t bytes) {
    std::span<const LaneAccess> all(accesses);
    for (size_t first = 0; first < all.size(); first += sim_.warpSize_)
      countWarpAccess(all.subspan(first, std::min<size_t>(sim_.warpSize_, all.size() - first)), bytes,
                      banks_);
  }

  uint64_t elementBytes(Type t) const { return std::max(1u, bitsOf(t.element()) / 8); }

  // Shared accesses move at most 16 bytes per thread (docs/thread-ir.md).
  static void checkSharedBytes(const Op *op, uint64_t bytes) {
    if (bytes > 16)
      fail(op, "accesses " + std::to_string(bytes) + " bytes per thread, more than 16");
  }

  void runThreadOp(Op *op) {
    auto operandOr = [&](unsigned i) -> const Words * {
      return op->numOperands() > i ? &get(op->operand(i)) : nullptr;
    };
    Type rt = op->numResults() ? op->result()->type() : Type();
    Words out;
    switch (op->code()) {
    case OpCode::ThThreadId:
    case OpCode::ThLaneId:
    case OpCode::ThWarpId:
      for (unsigned t = 0; t < threads_; ++t)
        out.push_back(op->is(OpCode::ThThreadId) ? t
                      : op->is(OpCode::ThLaneId) ? t % sim_.warpSize_
                                                 : t / sim_.warpSize_);
      break;
    case OpCode::ThPack: {
      unsigned n = op->numOperands();
      out.resize(threads_ * n);
      for (unsigned t = 0; t < threads_; ++t)
        for (unsigned k = 0; k < n; ++k)
          out[t * n + k] = get(op->operand(k))[t];
      break;
    }
    case OpCode::ThExtract: {
      unsigned n = lanesOf(op->operand(0)->type());
      int64_t k = op->intAttr("index");
      for (unsigned t = 0; t < threads_; ++t)
        out.push_back(get(op->operand(0))[t * n + k]);
      break;
    }
    case OpCode::ThLoad: {
      unsigned n = lanesOf(rt);
      uint64_t eb = elementBytes(rt);
      const Words *pred = operandOr(1), *other = operandOr(2);
      out.assign(threads_ * n, 0xdeadbeefdeadbeefull);
      for (unsigned t = 0; t < threads_; ++t) {
        if (pred && !((*pred)[t] & 1)) {
          if (other)
            for (unsigned k = 0; k < n; ++k)
              out[t * n + k] = (*other)[t * n + k];
          continue;
        }
        uint64_t address = get(op->operand(0))[t];
        checkGlobal(op, address, eb * n);
        for (unsigned k = 0; k < n; ++k) {
          uint64_t w = 0;
          std::memcpy(&w, reinterpret_cast<const void *>(address + k * eb), eb);
          out[t * n + k] = rt.element() == Type::i1() ? (w != 0) : w;
        }
      }
      break;
    }
    case OpCode::ThStore: {
      Type vt = op->operand(1)->type();
      unsigned n = lanesOf(vt);
      uint64_t eb = elementBytes(vt);
      const Words *pred = operandOr(2);
      for (unsigned t = 0; t < threads_; ++t) {
        if (pred && !((*pred)[t] & 1))
          continue;
        uint64_t address = get(op->operand(0))[t];
        checkGlobal(op, address, eb * n);
        if (!storedSinceBarrier_[t])
          storedSinceBarrier_[t] = address;
        for (unsigned k = 0; k < n; ++k) {
          uint64_t w = get(op->operand(1))[t * n + k];
          std::memcpy(reinterpret_cast<void *>(address + k * eb), &w, eb);
        }
      }
      return;
    }
    case OpCode::ThAtomicRMW:
    case OpCode::ThAtomicCAS: return runAtomic(op);
    case OpCode::ThSharedAlloc: {
      int64_t offset = op->intAttr("offset");
      if (offset < 0 || offset + op->intAttr("size") > static_cast<int64_t>(shared_.size()))
        fail(op, "allocation lies outside the function's shared_bytes");
      out.assign(threads_, static_cast<uint64_t>(offset));
      break;
    }
    case OpCode::ThLoadShared: {
      unsigned n = lanesOf(rt);
      uint64_t eb = elementBytes(rt);
      Words offsets = sharedOffsets(op, eb);
      checkSharedBytes(op, eb * n);
      out.resize(threads_ * n);
      std::vector<LaneAccess> accesses(threads_);
      for (unsigned t = 0; t < threads_; ++t) {
        uint8_t bytes[16];
        shared_.read(op, t, offsets[t], eb * n, bytes);
        for (unsigned k = 0; k < n; ++k) {
          uint64_t w = 0;
          std::memcpy(&w, bytes + k * eb, eb);
          out[t * n + k] = w;
        }
        accesses[t] = {offsets[t], true};
      }
      countBanks(accesses, eb * n);
      break;
    }
    case OpCode::ThStoreShared: {
      Type vt = op->operand(2)->type();
      unsigned n = lanesOf(vt);
      uint64_t eb = elementBytes(vt);
      const Words *pred = operandOr(3);
      Words offsets = sharedOffsets(op, eb);
      checkSharedBytes(op, eb * n);
      std::vector<LaneAccess> accesses(threads_);
      for (unsigned t = 0; t < threads_; ++t) {
        if (pred && !((*pred)[t] & 1))
          continue; // no access
        uint8_t bytes[16];
        for (unsigned k = 0; k < n; ++k) {
          uint64_t w = get(op->operand(2))[t * n + k];
          std::memcpy(bytes + k * eb, &w, eb);
        }
        shared_.write(op, t, offsets[t], eb * n, bytes);
        accesses[t] = {offsets[t], true};
      }
      countBanks(accesses, eb * n);
      return;
    }
    case OpCode::ThBarrier: // completes no asynchronous copy
      shared_.barrier();
      std::fill(storedSinceBarrier_.begin(), storedSinceBarrier_.end(), 0);
      ++sim_.barriers_;
      return;
    case OpCode::ThMma:
    case OpCode::ThWgmma: return runMma(op);
    case OpCode::ThWgmmaCommit: return async_.commit();
    case OpCode::ThFenceAsyncShared: return shared_.fenceAsyncProxy();
    case OpCode::ThWgmmaFence:
    case OpCode::ThWgmmaWait: {
      // A wait completes groups (their shared reads too); what it passes on stays in
      // flight when its group is not among them. The values themselves were computed at
      // issue (the operands could not change since: nothing else may write them).
      int64_t done = op->is(OpCode::ThWgmmaWait) ? async_.wait(static_cast<size_t>(op->intAttr("pending"))) : -1;
      if (op->is(OpCode::ThWgmmaWait))
        shared_.completeAsyncReads(done);
      for (unsigned i = 0; i < op->numOperands(); ++i) {
        set(op->result(i), Words(get(op->operand(i))));
        int64_t g = async_.groupOf(op->operand(i));
        async_.setGroup(op->result(i), op->is(OpCode::ThWgmmaWait) && g <= done ? -1 : g);
      }
      return;
    }
    case OpCode::ThLdMatrix:
      out = runLdMatrix(op, shared_, sharedOffsets(op, elementBytes(op->operand(0)->type().pointee())),
                        threads_, sim_.warpSize_, banks_);
      break;
    case OpCode::ThAsyncCopy: return runAsyncCopy(op);
    case OpCode::ThAsyncCommit:
      for (unsigned t = 0; t < threads_; ++t)
        shared_.commitCopies(t);
      return;
    case OpCode::ThAsyncWait:
      for (unsigned t = 0; t < threads_; ++t)
        shared_.waitCopies(op, t, static_cast<size_t>(op->intAttr("pending")));
      return;
    case OpCode::ThMbarrierInit:
    case OpCode::ThAsyncArrive:
    case OpCode::ThMbarrierWait: {
      Words offsets = sharedOffsets(op, 8);
      const Words *pred = op->is(OpCode::ThMbarrierInit) ? operandOr(2) : nullptr;
      for (unsigned t = 0; t < threads_; ++t) {
        checkInAllocation(op, offsets[t], 8);
        if (op->is(OpCode::ThMbarrierInit)) {
          if (!pred || ((*pred)[t] & 1))
            shared_.initBarrier(op, t, offsets[t], static_cast<uint64_t>(op->intAttr("count")));
        } else if (op->is(OpCode::ThAsyncArrive)) {
          shared_.asyncArrive(op, t, offsets[t]);
        } else {
          shared_.waitBarrier(op, t, offsets[t], unsigned(get(op->operand(2))[t] & 1));
        }
      }
      return;
    }
    case OpCode::ThShuffle: {
      std::string mode = op->stringAttr("mode");
      unsigned ws = sim_.warpSize_;
      const Words &v = get(op->operand(0)), &l = get(op->operand(1));
      for (unsigned t = 0; t < threads_; ++t) {
        unsigned lane = t % ws, base = t - lane;
        int64_t arg = signedOf(l[t], 32), src = lane;
        if (mode == "idx")
          src = arg & (ws - 1);
        else if (mode == "xor")
          src = (lane ^ arg) & (ws - 1);
        else if (mode == "up")
          src = lane >= arg ? lane - arg : lane;
        else
          src = lane + arg < ws ? lane + arg : lane;
        out.push_back(v[base + src]);
      }
      break;
    }
    case OpCode::ThCoopLoad:
    case OpCode::ThCoopStore: runCoopAccess(op, out); break;
    case OpCode::ThCoopMma: out = runCoopMma(op); break;
    case OpCode::ThCoopFill:
      for (unsigned t = 0; t < threads_; ++t)
        out.insert(out.end(), lanesOf(rt), get(op->operand(0))[t]);
      break;
    default: fail(op, "not supported by the simulator");
    }
    if (op->numResults())
      set(op->result(), std::move(out));
  }

  // th.coop_load / th.coop_store: each warp moves its tile (the index must be the same in
  // the warp); element (r, c) counts as an access of lane (r * cols + c) % warp size, as
  // a driver spreads a tile over the subgroup.
  void runCoopAccess(Op *op, Words &out) {
    bool store = op->is(OpCode::ThCoopStore);
    Type m = store ? op->operand(2)->type() : op->result()->type();
    int64_t rows = m.shape()[0], cols = m.shape()[1], stride = op->intAttr("stride");
    bool column = op->stringAttr("layout") == "col";
    uint64_t eb = elementBytes(m);
    unsigned n = lanesOf(m), ws = sim_.warpSize_;
    if (threads_ % ws)
      fail(op, "runs on whole subgroups");
    Words offsets = sharedOffsets(op, eb);
    if (!store)
      out.assign(size_t(threads_) * n, 0);
    for (unsigned w = 0; w < threads_ / ws; ++w) {
      for (unsigned lane = 1; lane < ws; ++lane)
        if (offsets[w * ws + lane] != offsets[w * ws] ||
            (store && !std::equal(get(op->operand(2)).begin() + (w * ws) * n,
                                  get(op->operand(2)).begin() + (w * ws + 1) * n,
                                  get(op->operand(2)).begin() + (w * ws + lane) * n)))
          fail(op, "operands differ within a subgroup");
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
          uint64_t at = offsets[w * ws] + uint64_t(column ? c * stride + r : r * stride + c) * eb;
          unsigned thread = w * ws + unsigned((r * cols + c) % ws);
          size_t k = size_t(r * cols + c);
          if (store) {
            uint64_t v = get(op->operand(2))[size_t(w * ws) * n + k];
            checkInAllocation(op, at, eb);
            shared_.write(op, thread, at, eb, &v);
          } else {
            uint64_t v = 0;
            checkInAllocation(op, at, eb);
            shared_.read(op, thread, at, eb, &v);
            for (unsigned lane = 0; lane < ws; ++lane)
              out[size_t(w * ws + lane) * n + k] = v;
          }
        }
    }
  }

  // th.coop_mma: D = A * B + C per tile, summed exactly (double, 64-bit integers) and
  // rounded once, as th.mma.
  Words runCoopMma(Op *op) {
    Type a = op->operand(0)->type(), b = op->operand(1)->type(), c = op->operand(2)->type();
    int64_t M = a.shape()[0], K = a.shape()[1], N = b.shape()[1];
    unsigned na = lanesOf(a), nb = lanesOf(b), nc = lanesOf(c);
    const Words &A = get(op->operand(0)), &B = get(op->operand(1)), &C = get(op->operand(2));
    Words out(size_t(threads_) * nc);
    bool integer = c.element().isInteger();
    for (unsigned t = 0; t < threads_; ++t)
      for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
          size_t at = size_t(t) * nc + size_t(i * N + j);
          if (integer) {
            int64_t sum = signedOf(C[at], bitsOf(c.element()));
            for (int64_t k = 0; k < K; ++k)
              sum += signedOf(A[size_t(t) * na + size_t(i * K + k)], bitsOf(a.element())) *
                     signedOf(B[size_t(t) * nb + size_t(k * N + j)], bitsOf(b.element()));
            out[at] = mask(uint64_t(sum), bitsOf(c.element()));
          } else {
            double sum = floatOf(C[at], c.element());
            for (int64_t k = 0; k < K; ++k)
              sum += floatOf(A[size_t(t) * na + size_t(i * K + k)], a.element()) *
                     floatOf(B[size_t(t) * nb + size_t(k * N + j)], b.element());
            out[at] = wordOf(sum, c.element());
          }
        }
    return out;
  }

  void runMma(Op *op) {
    std::string name = op->stringAttr("atom");
    auto atom = std::find_if(sim_.atoms_.begin(), sim_.atoms_.end(),
                             [&](const MatrixAtom &a) { return a.name == name; });
    if (atom == sim_.atoms_.end())
      fail(op, "unknown matrix atom '" + name + "' (the simulator was given " +
                   std::to_string(sim_.atoms_.size()) + " atoms)");
    std::vector<const Words *> operands;
    for (unsigned i = 0; i < op->numOperands(); ++i)
      operands.push_back(&get(op->operand(i)));
    bool warpgroup = op->is(OpCode::ThWgmma);
    if (warpgroup)
      shared_.beginAsyncReads();
    std::vector<Words> results = warpgroup ? detail::runWgmma(op, *atom, shared_, operands, threads_, sim_.warpSize_)
                                           : detail::runMma(op, *atom, operands, threads_, sim_.warpSize_);
    for (unsigned i = 0; i < op->numResults(); ++i)
      set(op->result(i), std::move(results[i]));
    if (warpgroup) {
      shared_.endAsyncReads(async_.openGroup());
      async_.issue(op);
    }
  }

  // Reads the global bytes now (where the predicate is true; zeros elsewhere);
  // they land in shared memory when a th.async_wait completes the copy's group.
  void runAsyncCopy(Op *op) {
    uint64_t bytes = static_cast<uint64_t>(op->intAttr("bytes"));
    Words offsets = sharedOffsets(op, elementBytes(op->operand(0)->type().pointee()));
    const Words *pred = op->numOperands() > 3 ? &get(op->operand(3)) : nullptr;
    for (unsigned t = 0; t < threads_; ++t) {
      checkInAllocation(op, offsets[t], bytes);
      std::vector<uint8_t> data(bytes, 0);
      if (!pred || ((*pred)[t] & 1)) {
        uint64_t address = get(op->operand(2))[t];
        checkGlobal(op, address, bytes);
        std::memcpy(data.data(), reinterpret_cast<const void *>(address), bytes);
      }
      shared_.startCopy(op, t, offsets[t], std::move(data));
    }
  }

  void runAtomic(Op *op) {
    Type t = op->result()->type();
    bool cas = op->is(OpCode::ThAtomicCAS);
    unsigned numData = cas ? 3 : 2;
    const Words *pred = op->numOperands() > numData ? &get(op->operand(numData)) : nullptr;
    uint64_t eb = elementBytes(t);
    unsigned bits = bitsOf(t);
    if (sim_.checkReleases_)
      checkRelease(op, pred);
    Words out(threads_, 0);
    for (unsigned th = 0; th < threads_; ++th) {
      if (pred && !((*pred)[th] & 1))
        continue;
      uint64_t address = get(op->operand(0))[th];
      checkGlobal(op, address, eb);
      uint64_t old = 0;
      std::memcpy(&old, reinterpret_cast<const void *>(address), eb);
      // Words may hold a narrow integer sign-extended (a kernel's scalar arguments, as
      // the launch ABI packs them): compare and combine the element's bits only.
      uint64_t v = mask(get(op->operand(numData - 1))[th], bits), next = old;
      if (cas) {
        next = old == mask(get(op->operand(1))[th], bits) ? v : old;
      } else {
        std::string kind = op->stringAttr("kind");
        if (kind == "add")
          next = old + v;
        else if (kind == "fadd")
          next = floatBinary(old, v, t, [](auto a, auto b) { return a + b; });
        else if (kind == "and")
          next = old & v;
        else if (kind == "or")
          next = old | v;
        else if (kind == "xor")
          next = old ^ v;
        else if (kind == "max")
          next = signedOf(old, bits) >= signedOf(v, bits) ? old : v;
        else if (kind == "min")
          next = signedOf(old, bits) <= signedOf(v, bits) ? old : v;
        else if (kind == "umax")
          next = std::max(old, v);
        else if (kind == "umin")
          next = std::min(old, v);
        else if (kind == "xchg")
          next = v;
        else
          fail(op, "unknown kind " + kind);
      }
      next = mask(next, bits);
      std::memcpy(reinterpret_cast<void *>(address), &next, eb);
      out[th] = old;
    }
    set(op->result(), std::move(out));
  }

  // ThreadSim::checkReleases: a scalar release issued by some threads publishes the
  // global stores of those only.
  void checkRelease(const Op *op, const Words *pred) {
    std::string sem = op->attr("sem").isString() ? op->stringAttr("sem") : "acq_rel";
    const Words &address = get(op->operand(0));
    if ((sem != "release" && sem != "acq_rel") || !pred ||
        std::any_of(address.begin(), address.end(), [&](uint64_t a) { return a != address[0]; }))
      return;
    int issuer = -1;
    for (unsigned th = 0; th < threads_ && issuer < 0; ++th)
      if ((*pred)[th] & 1)
        issuer = int(th);
    for (unsigned th = 0; th < threads_; ++th)
      if (issuer >= 0 && !((*pred)[th] & 1) && storedSinceBarrier_[th]) {
        std::ostringstream os;
        os << "the release of 0x" << std::hex << address[0] << " by thread " << std::dec << issuer
           << " does not publish thread " << th << "'s store to 0x" << std::hex << storedSinceBarrier_[th]
           << std::dec << ": no th.barrier between them";
        fail(op, os.str());
      }
  }

  // ---- scalar ops, per thread ----
  void runScalarOp(Op *op) {
    Type rt = op->numResults() ? op->result()->type() : Type();
    unsigned rbits = rt ? bitsOf(rt) : 0;
    Words out(threads_);
    Type in = op->numOperands() ? op->operand(0)->type() : Type();
    unsigned ibits = in ? bitsOf(in) : 0;
    auto w = [&](unsigned i, unsigned t) { return get(op->operand(i))[t]; };
    std::function<uint64_t(unsigned)> f;
    auto fbin = [&](auto fn) { f = [&, fn](unsigned t) { return floatBinary(w(0, t), w(1, t), in, fn); }; };
    auto fun = [&](double (*fn)(double)) {
      f = [&, fn](unsigned t) { return wordOf(fn(floatOf(w(0, t), in)), rt); };
    };
    switch (op->code()) {
    case OpCode::Constant: {
      const Attribute &a = op->attr("value");
      uint64_t c = a.isBool()  ? a.getBool()
                   : a.isInt() ? mask(static_cast<uint64_t>(a.getInt()), rbits)
                               : wordOf(a.getFloat(), rt);
      f = [c](unsigned) { return c; };
      break;
    }
    case OpCode::GetProgramId: {
      uint64_t v = pid_[op->intAttr("axis")];
      f = [v](unsigned) { return v; };
      break;
    }
    case OpCode::GetNumPrograms: {
      uint64_t v = grid_[op->intAttr("axis")];
      f = [v](unsigned) { return v; };
      break;
    }
    case OpCode::AddI: f = [&](unsigned t) { return w(0, t) + w(1, t); }; break;
    case OpCode::SubI: f = [&](unsigned t) { return w(0, t) - w(1, t); }; break;
    case OpCode::MulI: f = [&](unsigned t) { return w(0, t) * w(1, t); }; break;
    case OpCode::DivSI:
      f = [&](unsigned t) {
        return static_cast<uint64_t>(signedOf(w(0, t), ibits) / signedOf(w(1, t), ibits));
      };
      break;
    case OpCode::RemSI:
      f = [&](unsigned t) {
        return static_cast<uint64_t>(signedOf(w(0, t), ibits) % signedOf(w(1, t), ibits));
      };
      break;
    case OpCode::DivUI: f = [&](unsigned t) { return mask(w(0, t), ibits) / mask(w(1, t), ibits); }; break;
    case OpCode::RemUI: f = [&](unsigned t) { return mask(w(0, t), ibits) % mask(w(1, t), ibits); }; break;
    case OpCode::AndI: f = [&](unsigned t) { return w(0, t) & w(1, t); }; break;
    case OpCode::OrI: f = [&](unsigned t) { return w(0, t) | w(1, t); }; break;
    case OpCode::XOrI: f = [&](unsigned t) { return w(0, t) ^ w(1, t); }; break;
    // Shifts by the width or more are defined (docs/ir.md): 0, or the sign for shrsi.
    case OpCode::ShLI:
      f = [&](unsigned t) { return mask(w(1, t), ibits) >= ibits ? 0 : w(0, t) << mask(w(1, t), ibits); };
      break;
    case OpCode::ShRUI:
      f = [&](unsigned t) {
        return mask(w(1, t), ibits) >= ibits ? 0 : mask(w(0, t), ibits) >> mask(w(1, t), ibits);
      };
      break;
    case OpCode::ShRSI:
      f = [&](unsigned t) {
        uint64_t s = std::min<uint64_t>(mask(w(1, t), ibits), ibits - 1);
        return static_cast<uint64_t>(signedOf(w(0, t), ibits) >> s);
      };
      break;
    case OpCode::MinSI:
    case OpCode::MaxSI:
      f = [&, max = op->is(OpCode::MaxSI)](unsigned t) {
        int64_t a = signedOf(w(0, t), ibits), b = signedOf(w(1, t), ibits);
        return static_cast<uint64_t>(max ? std::max(a, b) : std::min(a, b));
      };
      break;
    case OpCode::UMulHi:
      f = [&](unsigned t) {
        unsigned __int128 p = (unsigned __int128)mask(w(0, t), ibits) * mask(w(1, t), ibits);
        return static_cast<uint64_t>(p >> ibits);
      };
      break;
    case OpCode::MinUI:
      f = [&](unsigned t) { return std::min(mask(w(0, t), ibits), mask(w(1, t), ibits)); };
      break;
    case OpCode::MaxUI:
      f = [&](unsigned t) { return std::max(mask(w(0, t), ibits), mask(w(1, t), ibits)); };
      break;
    case OpCode::AddF: fbin([](auto a, auto b) { return a + b; }); break;
    case OpCode::SubF: fbin([](auto a, auto b) { return a - b; }); break;
    case OpCode::MulF: fbin([](auto a, auto b) { return a * b; }); break;
    case OpCode::DivF:
    case OpCode::PreciseDivF: fbin([](auto a, auto b) { return a / b; }); break;
    case OpCode::RemF: fbin([](auto a, auto b) { return std::fmod(a, b); }); break;
    case OpCode::MaxNumF: fbin([](auto a, auto b) { return std::fmax(a, b); }); break;
    case OpCode::MinNumF: fbin([](auto a, auto b) { return std::fmin(a, b); }); break;
    case OpCode::MaximumF:
      fbin([](auto a, auto b) { return std::isnan(a) || std::isnan(b) ? a + b : std::fmax(a, b); });
      break;
    case OpCode::MinimumF:
      fbin([](auto a, auto b) { return std::isnan(a) || std::isnan(b) ? a + b : std::fmin(a, b); });
      break;
    case OpCode::NegF: f = [&](unsigned t) { return w(0, t) ^ (uint64_t(1) << (ibits - 1)); }; break;
    case OpCode::CmpI: {
      std::string p = op->stringAttr("predicate");
      f = [&, p](unsigned t) -> uint64_t {
        int64_t a = signedOf(w(0, t), ibits), b = signedOf(w(1, t), ibits);
        uint64_t ua = mask(w(0, t), ibits), ub = mask(w(1, t), ibits);
        if (p == "eq")
          return ua == ub;
        if (p == "ne")
          return ua != ub;
        if (p == "slt")
          return a < b;
        if (p == "sle")
          return a <= b;
        if (p == "sgt")
          return a > b;
        if (p == "sge")
          return a >= b;
        if (p == "ult")
          return ua < ub;
        if (p == "ule")
          return ua <= ub;
        if (p == "ugt")
          return ua > ub;
        return ua >= ub;
      };
      break;
    }
    case OpCode::CmpF: {
      std::string p = op->stringAttr("predicate");
      f = [&, p](unsigned t) -> uint64_t {
        double a = floatOf(w(0, t), in), b = floatOf(w(1, t), in);
        bool unordered = std::isnan(a) || std::isnan(b);
        if (p == "ord")
          return !unordered;
        if (p == "uno")
          return unordered;
        bool r = p.ends_with("eq")   ? a == b
                 : p.ends_with("ne") ? a != b
                 : p.ends_with("lt") ? a < b
                 : p.ends_with("le") ? a <= b
                 : p.ends_with("gt") ? a > b
                                     : a >= b;
        return p[0] == 'u' ? (unordered || r) : (!unordered && r);
      };
      break;
    }
    case OpCode::Select: f = [&](unsigned t) { return (w(0, t) & 1) ? w(1, t) : w(2, t); }; break;
    case OpCode::ExtSI:
      f = [&](unsigned t) { return static_cast<uint64_t>(signedOf(w(0, t), ibits)); };
      break;
    case OpCode::ExtUI:
    case OpCode::TruncI:
    case OpCode::Bitcast:
    case OpCode::PtrToInt:
    case OpCode::IntToPtr: f = [&](unsigned t) { return mask(w(0, t), ibits); }; break;
    case OpCode::SIToFP:
      f = [&](unsigned t) { return wordOf(static_cast<double>(signedOf(w(0, t), ibits)), rt); };
      break;
    case OpCode::UIToFP:
      f = [&](unsigned t) { return wordOf(static_cast<double>(mask(w(0, t), ibits)), rt); };
      break;
    case OpCode::FPToSI: // saturating, NaN to 0 (docs/ir.md)
      f = [&](unsigned t) {
        double x = std::trunc(floatOf(w(0, t), in));
        double lo = -std::ldexp(1.0, int(rbits) - 1), hi = std::ldexp(1.0, int(rbits) - 1) - 1;
        return static_cast<uint64_t>(std::isnan(x) ? 0 : static_cast<int64_t>(std::clamp(x, lo, hi)));
      };
      break;
    case OpCode::FPToUI: // saturating, NaN and negatives to 0 (docs/ir.md)
      f = [&](unsigned t) {
        double x = std::trunc(floatOf(w(0, t), in));
        double hi = std::ldexp(1.0, int(rbits)) - 1;
        return static_cast<uint64_t>(std::isnan(x) || x < 0 ? 0 : std::min(x, hi));
      };
      break;
    case OpCode::ExtF:
    case OpCode::TruncF: f = [&](unsigned t) { return wordOf(floatOf(w(0, t), in), rt); }; break;
    case OpCode::AddPtr: {
      uint64_t eb = std::max(1u, bitsOf(rt.pointee()) / 8);
      Type offType = op->operand(1)->type();
      f = [&, eb, offType](unsigned t) {
        return w(0, t) + static_cast<uint64_t>(signedOf(w(1, t), bitsOf(offType))) * eb;
      };
      break;
    }
    case OpCode::Exp: fun([](double x) { return std::exp(x); }); break;
    case OpCode::Exp2: fun([](double x) { return std::exp2(x); }); break;
    case OpCode::Log: fun([](double x) { return std::log(x); }); break;
    case OpCode::Log2: fun([](double x) { return std::log2(x); }); break;
    case OpCode::Sqrt:
    case OpCode::PreciseSqrt: fun([](double x) { return std::sqrt(x); }); break;
    case OpCode::Rsqrt: fun([](double x) { return 1 / std::sqrt(x); }); break;
    case OpCode::Sin: fun([](double x) { return std::sin(x); }); break;
    case OpCode::Cos: fun([](double x) { return std::cos(x); }); break;
    case OpCode::AbsF: fun([](double x) { return std::fabs(x); }); break;
    case OpCode::Floor: fun([](double x) { return std::floor(x); }); break;
    case OpCode::Ceil: fun([](double x) { return std::ceil(x); }); break;
    case OpCode::Erf: fun([](double x) { return std::erf(x); }); break;
    case OpCode::AbsI:
      f = [&](unsigned t) { return static_cast<uint64_t>(std::abs(signedOf(w(0, t), ibits))); };
      break;
    case OpCode::Fma:
      f = [&](unsigned t) {
        return wordOf(std::fma(floatOf(w(0, t), in), floatOf(w(1, t), in), floatOf(w(2, t), in)), rt);
      };
      break;
    default: fail(op, "not supported by the simulator");
    }
    for (unsigned t = 0; t < threads_; ++t)
      out[t] = mask(f(t), rbits);
    set(op->result(), std::move(out));
  }

  ThreadSim &sim_;
  const Op *func_;
  std::array<uint32_t, 3> pid_, grid_;
  unsigned threads_ = 0;
  std::unordered_map<const Value *, Words> values_;
  SharedMemory shared_;
  WgmmaGroups async_;
  BankCounts banks_;
  // Per thread: the address of its first global store since the last barrier, or 0.
  std::vector<uint64_t> storedSinceBarrier_;
};

bool ThreadSim::run(const Module &threadIR, std::string_view kernel, const std::vector<uint64_t> &args,
                    std::array<uint32_t, 3> grid, std::string &error) {
  const Op *f = threadIR.lookupFunction(kernel);
  if (!f) {
    error = "no kernel '" + std::string(kernel) + "'";
    return false;
  }
  barriers_ = wavefronts_ = minimumWavefronts_ = 0;
  try {
    for (uint32_t z = 0; z < grid[2]; ++z)
      for (uint32_t y = 0; y < grid[1]; ++y)
        for (uint32_t x = 0; x < grid[0]; ++x) {
          SimProgram program(*this, f, {x, y, z}, grid);
          program.run(args);
        }
  } catch (const SimError &e) {
    error = e.message;
    return false;
  }
  return true;
}

} // namespace trident::simt::test
