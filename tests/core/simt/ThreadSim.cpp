#include "ThreadSim.h"
#include "ThreadSimImpl.h"

#include "trident/support/FloatFormats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <sstream>
#include <thread>
#include <unordered_map>

namespace trident::simt::test {

using namespace detail;

class SimProgram {
public:
  SimProgram(ThreadSim &sim, const Op *func, std::array<uint32_t, 3> pid, std::array<uint32_t, 3> grid)
      : sim_(sim), func_(func), pid_(pid), grid_(grid),
        threads_(static_cast<unsigned>(func->intAttr("num_threads"))), hi_(threads_),
        shared_(static_cast<size_t>(func->intAttr("shared_bytes")), threads_, sim.warpSize_),
        storedSinceBarrier_(threads_, 0) {}

  void run(const std::vector<uint64_t> &args) {
    Block *body = func_->region();
    // Tensor-map parameters (after the kernel's own, simt/Tma.h) hold their map's index;
    // th.tma_load reads the map from `tensor_maps` and the arguments.
    const Attribute &maps = func_->attr("tensor_maps");
    if (maps.isInts())
      tensorMaps_ = maps.getInts();
    unsigned own = body->numArguments() - unsigned(tensorMaps_.size() / 19);
    args_ = args;
    if (args.size() < own)
      fail(func_, "the kernel takes " + std::to_string(own) + " arguments, got " + std::to_string(args.size()));
    for (unsigned i = 0; i < body->numArguments(); ++i)
      values_[body->argument(i)] = Words(threads_, i < own ? args[i] : i - own);
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
    for (unsigned t = lo_; t < hi_; ++t)
      if (w[t] != w[lo_])
        fail(op, "a value that must be uniform differs between threads");
    return w[lo_];
  }
  // Whether thread t runs the ops now: every thread, except inside a th.warp_specialize
  // region (its threads only). The others' words are computed but have no effects.
  bool on(unsigned t) const { return t >= lo_ && t < hi_; }

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
    case OpCode::ThWarpSpecialize: return runWarpSpecialize(op);
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
    std::vector<const Words *> in;
    for (Value *v : op->operands())
      in.push_back(&get(v));
    set(op->result(), runScalarOp(op, in, threads_, pid_, grid_));
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

  // ---- warp specialization ----
  // th.warp_specialize: each region runs on its own host thread, but only one at a time
  // (the turn passes at a th.mbarrier_wait whose phase is not complete, and at a region's
  // end), so the simulation stays deterministic: a region runs until it must wait. A
  // turn that finds every region waiting is a deadlock.
  struct Partition {
    unsigned lo, hi;
    Block *region;
    bool done = false;
  };
  struct Schedule {
    std::mutex m;
    std::condition_variable cv;
    std::vector<Partition> parts;
    int turn = 0;
    int stalls = 0;              // turns passed in a row by regions that still could not go on
    bool failed = false;         // a region failed: the others unwind
    std::exception_ptr error;    // the first failure
  };
  struct Unwind {};

  void runWarpSpecialize(Op *op) {
    if (partitions_)
      fail(op, "cannot be nested in another th.warp_specialize");
    auto consumers = static_cast<unsigned>(op->intAttr("consumer_threads"));
    if (consumers == 0 || consumers >= threads_)
      fail(op, "consumer_threads must lie between 0 and num_threads");
    Schedule s;
    s.parts = {{consumers, threads_, op->region(0)}, {0, consumers, op->region(1)}};
    schedule_ = &s;
    partitions_ = 2;
    shared_.beginPartitions(consumers);
    s.turn = 1; // the consumers first: they wait at once, and the producer fills the ring
    std::vector<std::thread> hosts;
    for (int k = 0; k < 2; ++k)
      hosts.emplace_back([this, &s, k] {
        std::unique_lock<std::mutex> lock(s.m);
        s.cv.wait(lock, [&] { return s.turn == k; });
        try {
          if (s.failed)
            throw Unwind{};
          enter(k);
          lock.unlock();
          runBlock(s.parts[size_t(k)].region);
          lock.lock();
        } catch (const Unwind &) {
          if (!lock.owns_lock())
            lock.lock();
        } catch (...) {
          if (!lock.owns_lock())
            lock.lock();
          if (!s.failed)
            s.error = std::current_exception();
          s.failed = true;
        }
        s.parts[size_t(k)].done = true;
        s.stalls = 0;
        passTurn(s, k);
      });
    for (std::thread &h : hosts)
      h.join();
    schedule_ = nullptr;
    partitions_ = 0;
    lo_ = 0;
    hi_ = threads_;
    shared_.endPartitions();
    if (s.error)
      std::rethrow_exception(s.error);
  }

  // Region k runs now: its threads, its clock.
  void enter(int k) {
    current_ = k;
    lo_ = schedule_->parts[size_t(k)].lo;
    hi_ = schedule_->parts[size_t(k)].hi;
    shared_.setPartition(k);
  }

  // Gives the turn to the next region not done (the lock held).
  static void passTurn(Schedule &s, int k) {
    int n = int(s.parts.size());
    for (int j = 1; j <= n; ++j)
      if (!s.parts[size_t((k + j) % n)].done) {
        s.turn = (k + j) % n;
        break;
      }
    s.cv.notify_all();
  }

  // A th.mbarrier_wait in a region: until every thread's phase can complete, the other
  // regions run.
  void waitUntilComplete(const Op *op, const Words &offsets) {
    auto ready = [&] {
      for (unsigned t = lo_; t < hi_; ++t)
        if (!shared_.phaseReady(offsets[t], unsigned(get(op->operand(2))[t] & 1)))
          return false;
      return true;
    };
    Schedule &s = *schedule_;
    int k = current_;
    while (!ready()) {
      std::unique_lock<std::mutex> lock(s.m);
      int live = int(std::count_if(s.parts.begin(), s.parts.end(), [](const Partition &p) { return !p.done; }));
      if (++s.stalls > live)
        fail(op, "deadlock: every warp-specialized region waits for an mbarrier phase that cannot complete (this "
                 "one for the barrier at shared byte " + std::to_string(offsets[lo_]) + ")");
      passTurn(s, k);
      s.cv.wait(lock, [&] { return s.turn == k; });
      if (s.failed)
        throw Unwind{};
      enter(k);
    }
    std::lock_guard<std::mutex> lock(s.m);
    s.stalls = 0;
  }

  // The threads a matrix op runs on: all, or the consumers of a th.warp_specialize
  // (threads 0 .. C-1; the producer issues copies only).
  unsigned matrixThreads(const Op *op) const {
    if (lo_ != 0)
      fail(op, "matrix ops run in regions of threads from 0 only");
    return hi_;
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
        if (!on(t))
          continue;
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
        if (!on(t) || (pred && !((*pred)[t] & 1)))
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
        if (!on(t))
          continue;
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
        if (!on(t) || (pred && !((*pred)[t] & 1)))
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
      if (op->attr("scope").isString()) { // every warp at once: the threads run in lockstep
        shared_.subgroupBarrier();
        ++sim_.subgroupBarriers_;
        return;
      }
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
                        matrixThreads(op), sim_.warpSize_, banks_);
      out.resize(size_t(threads_) * lanesOf(rt));
      break;
    case OpCode::ThAsyncCopy: return runAsyncCopy(op);
    case OpCode::ThAsyncCommit:
      for (unsigned t = lo_; t < hi_; ++t)
        shared_.commitCopies(t);
      return;
    case OpCode::ThAsyncWait:
      for (unsigned t = lo_; t < hi_; ++t)
        shared_.waitCopies(op, t, static_cast<size_t>(op->intAttr("pending")));
      return;
    case OpCode::ThMbarrierInit:
    case OpCode::ThAsyncArrive:
    case OpCode::ThMbarrierArrive:
    case OpCode::ThMbarrierWait: {
      Words offsets = sharedOffsets(op, 8);
      const Words *pred = op->is(OpCode::ThMbarrierInit) || op->is(OpCode::ThMbarrierArrive) ? operandOr(2) : nullptr;
      if (op->is(OpCode::ThMbarrierWait) && partitions_)
        waitUntilComplete(op, offsets);
      for (unsigned t = 0; t < threads_; ++t) {
        if (!on(t))
          continue;
        checkInAllocation(op, offsets[t], 8);
        if (op->is(OpCode::ThMbarrierArrive)) {
          if (!pred || ((*pred)[t] & 1))
            shared_.arrive(op, t, offsets[t]);
        } else if (op->is(OpCode::ThMbarrierInit)) {
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
    case OpCode::ThTmaArrive: {
      Words offsets = sharedOffsets(op, 8);
      const Words &bytes = get(op->operand(2)), &pred = get(op->operand(3));
      for (unsigned t = 0; t < threads_; ++t)
        if (on(t) && (pred[t] & 1)) {
          checkInAllocation(op, offsets[t], 8);
          shared_.tensorArrive(op, t, offsets[t], bytes[t] & 0xffffffffu);
        }
      return;
    }
    case OpCode::ThTmaLoad: return runTensorCopy(op);
    case OpCode::ThSetMaxNReg: return; // registers are not modelled
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
    case OpCode::ThCoopExtract:
    case OpCode::ThCoopInsert: out = runCoopComponent(op); break;
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

  // The known layout of matrices of type `m` (the first shape listing one for its use).
  const CoopComponentMap &componentMap(const Op *op, Type m) const {
    int64_t rows = m.shape()[0], cols = m.shape()[1];
    unsigned use = m.matrixUse();
    for (const CoopMatrixShape &s : sim_.coopShapes_) {
      if (!s.layouts)
        continue;
      bool fits = use == 0   ? rows == s.m && cols == s.k && m.element() == s.aType
                  : use == 1 ? rows == s.k && cols == s.n && m.element() == s.bType
                             : rows == s.m && cols == s.n && (m.element() == s.cType || m.element() == s.resultType);
      if (fits)
        return s.layouts->of(use);
    }
    fail(op, "no known layout of " + m.str() + " (ThreadSim::setCoopMatrices)");
  }

  // th.coop_extract / th.coop_insert: component i of lane l is the tile's element the known
  // layout puts there (each thread holds its warp's whole tile, so an insert writes the
  // element of every lane's component into the tile all of them hold).
  Words runCoopComponent(Op *op) {
    Type m = op->operand(0)->type();
    const CoopComponentMap &map = componentMap(op, m);
    unsigned ws = sim_.warpSize_, n = lanesOf(m);
    int64_t index = op->intAttr("index"), cols = m.shape()[1];
    if (index >> map.componentBits.size() || (size_t(1) << map.laneBits.size()) != ws)
      fail(op, "component " + std::to_string(index) + " is not one of the known layout's");
    auto element = [&](unsigned lane) {
      auto [row, col] = map.elementOf(index, lane);
      return size_t(row * cols + col);
    };
    const Words &tiles = get(op->operand(0));
    if (op->is(OpCode::ThCoopExtract)) {
      Words out(threads_);
      for (unsigned t = 0; t < threads_; ++t)
        out[t] = tiles[size_t(t) * n + element(t % ws)];
      return out;
    }
    const Words &x = get(op->operand(1));
    Words out = tiles;
    for (unsigned w = 0; w < threads_ / ws; ++w)
      for (unsigned lane = 0; lane < ws; ++lane)
        for (unsigned t = w * ws; t < (w + 1) * ws; ++t)
          out[size_t(t) * n + element(lane)] = x[w * ws + lane];
    return out;
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
    unsigned threads = matrixThreads(op);
    std::vector<Words> results = warpgroup ? detail::runWgmma(op, *atom, shared_, operands, threads, sim_.warpSize_)
                                           : detail::runMma(op, *atom, operands, threads, sim_.warpSize_);
    for (Words &w : results)
      w.resize(threads_);
    for (unsigned i = 0; i < op->numResults(); ++i)
      set(op->result(i), std::move(results[i]));
    if (warpgroup) {
      shared_.endAsyncReads(async_.openGroup());
      async_.issue(op);
    }
  }

  // Reads the global bytes now (where the predicate is true; zeros elsewhere);
  // they land in shared memory when a th.async_wait completes the copy's group.
  // th.tma_load: the box tensorBox makes (ThreadSimShared.cpp), by each thread of %pred.
  void runTensorCopy(Op *op) {
    uint64_t m = get(op->operand(2))[0];
    if ((m + 1) * 19 > tensorMaps_.size())
      fail(op, "operand #2 is not one of the kernel's tensor maps");
    if (int64_t(op->numOperands()) != 6 + tensorMaps_[m * 19])
      fail(op, "a tensor copy needs one coordinate per dimension of its map");
    auto value = [&](int64_t ref) { return ref < 0 ? uint64_t(-1 - ref) : args_.at(size_t(ref)); };
    auto read = [&](uint64_t address, uint64_t bytes, void *out) {
      checkGlobal(op, address, bytes);
      std::memcpy(out, reinterpret_cast<const void *>(address), size_t(bytes));
    };
    const Words &pred = get(op->operand(5));
    Words dst = sharedOffsets(op, uint64_t(tensorMaps_[m * 19 + 1]));
    for (unsigned t = 0; t < threads_; ++t) {
      if (!on(t) || !(pred[t] & 1))
        continue;
      if (dst[t] % 128)
        fail(op, "a tensor copy's destination must be 128-byte aligned, got shared byte " + std::to_string(dst[t]));
      std::vector<int64_t> at;
      for (unsigned k = 6; k < op->numOperands(); ++k)
        at.push_back(signedOf(get(op->operand(k))[t], 32));
      std::vector<uint8_t> data = tensorBox(tensorMaps_.data() + m * 19, value, at, dst[t], read);
      checkInAllocation(op, dst[t], data.size());
      uint64_t barrier = get(op->operand(3))[t] + signedOf(get(op->operand(4))[t], 32) * 8;
      shared_.tensorCopy(op, t, barrier, dst[t], std::move(data));
    }
  }

  void runAsyncCopy(Op *op) {
    uint64_t bytes = static_cast<uint64_t>(op->intAttr("bytes"));
    Words offsets = sharedOffsets(op, elementBytes(op->operand(0)->type().pointee()));
    const Words *pred = op->numOperands() > 3 ? &get(op->operand(3)) : nullptr;
    for (unsigned t = 0; t < threads_; ++t) {
      if (!on(t))
        continue;
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
      if (!on(th) || (pred && !((*pred)[th] & 1)))
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
  ThreadSim &sim_;
  const Op *func_;
  std::array<uint32_t, 3> pid_, grid_;
  unsigned threads_ = 0;
  unsigned lo_ = 0, hi_ = 0; // the threads running now (on)
  int partitions_ = 0, current_ = -1;
  Schedule *schedule_ = nullptr;
  std::unordered_map<const Value *, Words> values_;
  std::vector<int64_t> tensorMaps_; // the kernel's tensor_maps words
  std::vector<uint64_t> args_;
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
