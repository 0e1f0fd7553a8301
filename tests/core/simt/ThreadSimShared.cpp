// Shared memory of the thread-IR simulator: race checks, asynchronous copies
// (th.async_copy / commit / wait, and mbarriers) and bank-conflict counting.
#include "ThreadSimImpl.h"

#include <algorithm>
#include <utility>

namespace trident::simt::test::detail {

namespace {

constexpr uint64_t kBanks = 32, kBankBytes = 4;

std::string byteName(uint64_t i) { return "shared byte " + std::to_string(i); }

} // namespace

void countPhase(std::span<const LaneAccess> phase, uint64_t bytes, BankCounts &counts) {
  std::vector<uint64_t> words; // the 4-byte words touched
  for (const LaneAccess &a : phase)
    if (a.active)
      for (uint64_t w = a.offset / kBankBytes; w <= (a.offset + bytes - 1) / kBankBytes; ++w)
        words.push_back(w);
  if (words.empty())
    return;
  // Distinct words ordered by bank: the longest run of one bank is the wavefront count.
  auto byBank = [](uint64_t a, uint64_t b) { return std::pair(a % kBanks, a) < std::pair(b % kBanks, b); };
  std::sort(words.begin(), words.end(), byBank);
  words.erase(std::unique(words.begin(), words.end()), words.end());
  size_t most = 0, run = 0;
  for (size_t i = 0; i < words.size(); ++i) {
    run = i > 0 && words[i] % kBanks == words[i - 1] % kBanks ? run + 1 : 1;
    most = std::max(most, run);
  }
  counts.wavefronts += most;
  counts.minimum += 1;
}

void countWarpAccess(std::span<const LaneAccess> lanes, uint64_t bytes, BankCounts &counts) {
  size_t perPhase = bytes <= 4 ? 32 : bytes <= 8 ? 16 : 8;
  for (size_t first = 0; first < lanes.size(); first += perPhase)
    countPhase(lanes.subspan(first, std::min(perPhase, lanes.size() - first)), bytes, counts);
}

void checkInAllocation(const Op *access, uint64_t offset, uint64_t bytes, unsigned allocOperand) {
  const Op *alloc = access->operand(allocOperand)->definingOp();
  uint64_t begin = static_cast<uint64_t>(alloc->intAttr("offset"));
  uint64_t end = begin + static_cast<uint64_t>(alloc->intAttr("size"));
  if (offset < begin || offset > end || bytes > end - offset)
    fail(access, "access of " + std::to_string(bytes) + " bytes at " + byteName(offset) +
                     " is outside its allocation (bytes " + std::to_string(begin) + " to " +
                     std::to_string(end) + ")");
}

SharedMemory::SharedMemory(size_t bytes, unsigned threads, unsigned warpSize)
    : bytes_(bytes, 0), writer_(bytes, -1), writeEpoch_(bytes, -1), reader_(bytes, -1), readEpoch_(bytes, -1),
      writeSubgroupEpoch_(bytes, 0), readSubgroupEpoch_(bytes, 0), readerWarp_(bytes, -1), warpSize_(warpSize),
      copiesPending_(bytes, 0), copies_(threads), asyncHolds_(bytes, 0), unfenced_(bytes, false) {}

void SharedMemory::read(const Op *op, unsigned thread, uint64_t offset, uint64_t bytes, void *out) {
  checkAndRecord(op, thread, offset, bytes, Access::Read);
  std::copy_n(&bytes_[offset], bytes, static_cast<uint8_t *>(out));
}

void SharedMemory::write(const Op *op, unsigned thread, uint64_t offset, uint64_t bytes, const void *in) {
  checkAndRecord(op, thread, offset, bytes, Access::Write);
  std::copy_n(static_cast<const uint8_t *>(in), bytes, &bytes_[offset]);
}

// A copy in flight may land at any moment until it is waited for: no thread may
// access its bytes meanwhile, and starting it races with other threads' accesses
// since the last barrier just as a write would. Its bytes count as written only
// when a wait completes it (waitCopies writes them).
void SharedMemory::checkAndRecord(const Op *op, unsigned thread, uint64_t offset, uint64_t bytes,
                                  Access access) {
  // Accesses align to their size; tensor copies (boxes of kilobytes) to 128 bytes.
  if (offset > bytes_.size() || bytes > bytes_.size() - offset || offset % std::min<uint64_t>(bytes, 128))
    fail(op, "shared access of " + std::to_string(bytes) + " bytes at " + std::to_string(offset) +
                 " is outside the program's " + std::to_string(bytes_.size()) + " bytes or misaligned");
  int t = static_cast<int>(thread);
  for (uint64_t i = offset; i < offset + bytes; ++i) {
    if (copiesPending_[i])
      fail(op, access == Access::StartCopy
                   ? "two asynchronous copies to " + byteName(i) + " are pending at once"
                   : byteName(i) + (access == Access::Read ? " is read" : " is written") +
                         " while an asynchronous copy to it is pending (no th.async_wait has completed it)");
    if (access == Access::Read)
      readByte(op, t, i);
    else
      writeByte(op, t, i, access == Access::Write);
  }
  if (access == Access::StartCopy)
    for (uint64_t i = offset; i < offset + bytes; ++i)
      ++copiesPending_[i];
}

void SharedMemory::readByte(const Op *op, int thread, uint64_t i) {
  if (writeEpoch_[i] < 0)
    fail(op, byteName(i) + " is read before any thread wrote it");
  if (recordingAsync_) {
    if (unfenced_[i])
      fail(op, byteName(i) + " is read by the async proxy after a write no th.fence_async_shared ordered before it");
    recorded_.push_back(i);
  }
  int warp = thread / int(warpSize_);
  // Another warp-specialized region's accesses are ordered by mbarriers (partitionRead).
  bool crosses = partitions_ && partitionOf(writer_[i]) != current_;
  if (writeEpoch_[i] == epoch_ && writer_[i] != thread && !crosses &&
      !warpOrdered(thread, writer_[i] / int(warpSize_), writeSubgroupEpoch_[i]))
    fail(op, "race: " + byteName(i) + " is read after another thread wrote it, without a barrier between");
  if (partitions_) {
    partitionRead(op, i);
    readerRegion_[i] = readEpoch_[i] == epoch_ && readerRegion_[i] != current_ ? -2 : current_;
  }
  if (readEpoch_[i] == epoch_ && reader_[i] != thread) {
    reader_[i] = -2; // several readers: any later writer races
    if (readerWarp_[i] != warp)
      readerWarp_[i] = -2; // ... unless they were of its warp, before a subgroup barrier
  } else if (readEpoch_[i] != epoch_) {
    reader_[i] = thread;
    readerWarp_[i] = warp;
  }
  readEpoch_[i] = epoch_;
  readSubgroupEpoch_[i] = subgroupEpoch_;
}

void SharedMemory::writeByte(const Op *op, int thread, uint64_t i, bool record) {
  if (asyncHolds_[i])
    fail(op, byteName(i) + " is written while a th.wgmma in flight reads it (no th.wgmma_wait has completed its group)");
  bool writerCrosses = partitions_ && partitionOf(writer_[i]) != current_;
  bool readersCross = partitions_ && readerRegion_[i] >= 0 && readerRegion_[i] != current_;
  if (writeEpoch_[i] == epoch_ && writer_[i] != thread && !writerCrosses &&
      !warpOrdered(thread, writer_[i] / int(warpSize_), writeSubgroupEpoch_[i]))
    fail(op, "race: two threads write " + byteName(i) + " without a barrier between");
  if (readEpoch_[i] == epoch_ && reader_[i] != thread && !readersCross &&
      !warpOrdered(thread, readerWarp_[i], readSubgroupEpoch_[i]))
    fail(op, "race: " + byteName(i) + " is written after another thread read it, without a barrier between");
  if (partitions_)
    partitionWrite(op, i, record);
  if (record) {
    writer_[i] = thread;
    writeEpoch_[i] = epoch_;
    writeSubgroupEpoch_[i] = subgroupEpoch_;
    unfenced_[i] = true;
  }
}

void SharedMemory::beginAsyncReads() {
  recordingAsync_ = true;
  recorded_.clear();
}

void SharedMemory::endAsyncReads(int64_t group) {
  recordingAsync_ = false;
  for (uint64_t i : recorded_)
    ++asyncHolds_[i];
  heldBy_.push_back({group, std::move(recorded_)});
  recorded_.clear();
}

void SharedMemory::completeAsyncReads(int64_t throughGroup) {
  while (!heldBy_.empty() && heldBy_.front().first <= throughGroup) {
    for (uint64_t i : heldBy_.front().second) {
      --asyncHolds_[i];
      if (partitions_) // the read is done now (an arrival after this releases it)
        readClock_[i * 2 + size_t(current_)] = clock_[size_t(current_)][size_t(current_)];
    }
    heldBy_.pop_front();
  }
}

void SharedMemory::startCopy(const Op *op, unsigned thread, uint64_t offset, std::vector<uint8_t> data) {
  checkAndRecord(op, thread, offset, data.size(), Access::StartCopy);
  copies_[thread].open.push_back({offset, std::move(data)});
}

void SharedMemory::commitCopies(unsigned thread) {
  ThreadCopies &c = copies_[thread];
  c.committed.push_back(std::move(c.open));
  c.open.clear();
}

void SharedMemory::waitCopies(const Op *op, unsigned thread, size_t pending) {
  ThreadCopies &c = copies_[thread];
  while (c.committed.size() > pending) {
    for (const Copy &copy : c.committed.front()) {
      for (uint64_t i = copy.offset; i < copy.offset + copy.data.size(); ++i)
        --copiesPending_[i];
      write(op, thread, copy.offset, copy.data.size(), copy.data.data());
    }
    c.committed.pop_front();
  }
}

void SharedMemory::initBarrier(const Op *op, unsigned thread, uint64_t offset, uint64_t count) {
  auto it = barriers_.find(offset);
  if (it != barriers_.end())
    for (const Phase &p : it->second.phases)
      if (p.arrivals)
        fail(op, "the barrier at " + byteName(offset) + " is initialized again while its phase " +
                     std::to_string(it->second.completed) + " has " + std::to_string(p.arrivals) + " of its " +
                     std::to_string(it->second.count) + " arrivals (it is still in use)");
  uint8_t object[8] = {};
  write(op, thread, offset, 8, object);
  barriers_[offset] = Barrier{count, 0, {}, -1, {}};
}

// The barrier at `offset`, initialized where `thread` may see it: by itself, or before a
// th.barrier.
SharedMemory::Barrier &SharedMemory::barrierAt(const Op *op, unsigned thread, uint64_t offset) {
  auto it = barriers_.find(offset);
  if (offset + 8 > bytes_.size() || it == barriers_.end())
    fail(op, "no barrier was initialized at " + byteName(offset));
  if (writeEpoch_[offset] == epoch_ && writer_[offset] != int(thread))
    fail(op, "race: thread " + std::to_string(thread) + " uses the barrier at " + byteName(offset) +
                 " that thread " + std::to_string(writer_[offset]) + " initialized, without a barrier between");
  return it->second;
}

void SharedMemory::asyncArrive(const Op *op, unsigned thread, uint64_t offset) {
  Phase &phase = arrivePhase(op, thread, offset);
  ThreadCopies &c = copies_[thread];
  for (std::vector<Copy> &group : c.committed)
    for (Copy &copy : group)
      phase.copies.push_back({thread, std::move(copy)});
  for (Copy &copy : c.open)
    phase.copies.push_back({thread, std::move(copy)});
  c.committed.clear();
  c.open.clear();
}

std::vector<uint8_t> tensorBox(const int64_t *w, const std::function<uint64_t(int64_t)> &value,
                               std::span<const int64_t> at, uint64_t dst,
                               const std::function<void(uint64_t, uint64_t, void *)> &read) {
  int64_t rank = w[0], eb = w[1], swizzle = w[2], n = 1;
  for (int64_t k = 0; k < rank; ++k)
    n *= w[14 + k];
  uint64_t base = value(w[3]);
  std::vector<uint8_t> data(size_t(n * eb), 0);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t to = uint64_t(i * eb);
    if (swizzle) {
      uint64_t a = dst + to;
      to = (a ^ (((a >> 7) & uint64_t(swizzle / 16 - 1)) << 4)) - dst;
    }
    int64_t offset = 0, rest = i;
    bool inside = true;
    for (int64_t k = rank; k-- > 0;) {
      int64_t g = at[size_t(k)] + rest % w[14 + k];
      rest /= w[14 + k];
      inside = inside && g >= 0 && uint64_t(g) < value(w[4 + k]);
      offset += g * int64_t(value(w[9 + k]));
    }
    if (inside)
      read(base + uint64_t(offset) * uint64_t(eb), uint64_t(eb), data.data() + to);
  }
  return data;
}

void SharedMemory::tensorArrive(const Op *op, unsigned thread, uint64_t offset, uint64_t bytes) {
  Barrier &b = barrierAt(op, thread, offset);
  auto phase = std::find_if(b.phases.begin(), b.phases.end(), [&](const Phase &p) { return p.arrivals < b.count; });
  if (phase == b.phases.end())
    phase = b.phases.insert(b.phases.end(), Phase{});
  ++phase->arrivals;
  release(*phase);
  phase->expectedBytes += bytes;
  b.expecting = b.completed + (phase - b.phases.begin());
}

void SharedMemory::tensorCopy(const Op *op, unsigned thread, uint64_t barrier, uint64_t offset,
                              std::vector<uint8_t> data) {
  Barrier &b = barrierAt(op, thread, barrier);
  int64_t at = b.expecting - b.completed;
  if (b.expecting < 0 || at < 0 || at >= int64_t(b.phases.size()))
    fail(op, "a tensor copy completes on the barrier at " + byteName(barrier) +
                 " whose current phase expects no bytes (no th.tma_arrive before it)");
  checkAndRecord(op, thread, offset, data.size(), Access::StartCopy);
  Phase &p = b.phases[size_t(at)];
  p.copiedBytes += data.size();
  p.copies.push_back({thread, Copy{offset, std::move(data), true}});
}

void SharedMemory::waitBarrier(const Op *op, unsigned thread, uint64_t offset, unsigned parity) {
  Barrier &b = barrierAt(op, thread, offset);
  if (uint64_t(b.completed % 2) != parity) {
    acquire(b.lastRelease);
    return; // the phase before the current one: complete
  }
  uint64_t arrivals = b.phases.empty() ? 0 : b.phases.front().arrivals;
  if (arrivals < b.count)
    fail(op, "thread " + std::to_string(thread) + " waits for phase " + std::to_string(b.completed) +
                 " of the barrier at " + byteName(offset) + ", which has " + std::to_string(arrivals) + " of its " +
                 std::to_string(b.count) + " arrivals and can never complete");
  const Phase &front = b.phases.front();
  if (front.copiedBytes != front.expectedBytes)
    fail(op, "phase " + std::to_string(b.completed) + " of the barrier at " + byteName(offset) + " expects " +
                 std::to_string(front.expectedBytes) + " bytes of tensor copies and gets " +
                 std::to_string(front.copiedBytes) + ": it never completes (or completes early)");
  for (auto &[by, copy] : b.phases.front().copies)
    for (uint64_t i = 0; i < copy.data.size(); ++i) {
      uint64_t at = copy.offset + i;
      if (asyncHolds_[at])
        fail(op, byteName(at) + " is written by a copy while a th.wgmma in flight reads it");
      --copiesPending_[at];
      bytes_[at] = copy.data[i];
      // Visible to every thread (each waits for the phase), as if before the last barrier.
      writer_[at] = int(by);
      writeEpoch_[at] = epoch_ - 1;
      unfenced_[at] = !copy.asyncProxy;
    }
  b.lastRelease = front.release;
  acquire(b.lastRelease);
  b.phases.pop_front();
  ++b.completed;
}

// The first phase of the barrier at `offset` still short of arrivals takes one more
// (a new phase when all are full), with the thread's accesses so far released to it.
SharedMemory::Phase &SharedMemory::arrivePhase(const Op *op, unsigned thread, uint64_t offset) {
  Barrier &b = barrierAt(op, thread, offset);
  auto phase = std::find_if(b.phases.begin(), b.phases.end(), [&](const Phase &p) { return p.arrivals < b.count; });
  if (phase == b.phases.end())
    phase = b.phases.insert(b.phases.end(), Phase{});
  ++phase->arrivals;
  release(*phase);
  return *phase;
}

void SharedMemory::arrive(const Op *op, unsigned thread, uint64_t offset) { arrivePhase(op, thread, offset); }

bool SharedMemory::phaseReady(uint64_t offset, unsigned parity) const {
  auto it = barriers_.find(offset);
  if (it == barriers_.end() || uint64_t(it->second.completed % 2) != parity)
    return true;
  const Barrier &b = it->second;
  return !b.phases.empty() && b.phases.front().arrivals >= b.count &&
         b.phases.front().copiedBytes >= b.phases.front().expectedBytes;
}

void SharedMemory::beginPartitions(unsigned consumerThreads) {
  partitions_ = 2;
  consumerThreads_ = consumerThreads;
  current_ = -1;
  clock_ = {{0, -1}, {-1, 0}};
  readClock_.assign(bytes_.size() * 2, -1);
  writeClock_.assign(bytes_.size() * 2, -1);
  readerRegion_.assign(bytes_.size(), -1);
}

void SharedMemory::release(Phase &phase) {
  if (!partitions_)
    return;
  std::vector<int64_t> &mine = clock_[size_t(current_)];
  phase.release.resize(mine.size(), -1);
  for (size_t q = 0; q < mine.size(); ++q)
    phase.release[q] = std::max(phase.release[q], mine[q]);
  ++mine[size_t(current_)];
}

void SharedMemory::acquire(const std::vector<int64_t> &released) {
  if (!partitions_)
    return;
  std::vector<int64_t> &mine = clock_[size_t(current_)];
  for (size_t q = 0; q < released.size() && q < mine.size(); ++q)
    mine[q] = std::max(mine[q], released[q]);
}

void SharedMemory::partitionRead(const Op *op, uint64_t i) {
  int other = 1 - current_;
  if (!ordered(other, writeClock_[i * 2 + size_t(other)]))
    fail(op, "race: " + byteName(i) + " is read after the other warp-specialized region wrote it, with no "
                                        "mbarrier phase ordering the write before the read");
  readClock_[i * 2 + size_t(current_)] = clock_[size_t(current_)][size_t(current_)];
}

void SharedMemory::partitionWrite(const Op *op, uint64_t i, bool record) {
  int other = 1 - current_;
  if (!ordered(other, readClock_[i * 2 + size_t(other)]))
    fail(op, "race: " + byteName(i) + " is overwritten after the other warp-specialized region read it, with no "
                                        "mbarrier phase ordering the read before the write (a stage reused before "
                                        "its readers released it)");
  if (!ordered(other, writeClock_[i * 2 + size_t(other)]))
    fail(op, "race: " + byteName(i) + " is written by both warp-specialized regions with no mbarrier phase between");
  if (record)
    writeClock_[i * 2 + size_t(current_)] = clock_[size_t(current_)][size_t(current_)];
}

void SharedMemory::checkAllCopiesDone(const Op *func) const {
  for (const auto &[offset, b] : barriers_)
    for (const Phase &p : b.phases)
      if (!p.copies.empty())
        fail(func, "the program ends with " + std::to_string(p.copies.size()) +
                       " asynchronous copies that arrive on the barrier at " + byteName(offset) +
                       " never waited for (no th.mbarrier_wait completed their phase)");
  for (size_t t = 0; t < copies_.size(); ++t) {
    size_t n = copies_[t].open.size();
    for (const std::vector<Copy> &group : copies_[t].committed)
      n += group.size();
    if (n)
      fail(func, "the program ends with " + std::to_string(n) + " asynchronous cop" + (n == 1 ? "y" : "ies") +
                     " of thread " + std::to_string(t) +
                     " never waited for (no th.async_commit and th.async_wait completed them)");
  }
}

} // namespace trident::simt::test::detail
