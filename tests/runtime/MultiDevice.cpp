#include "MultiDevice.h"

#include <doctest/doctest.h>

#include <atomic>
#include <mutex>
#include <cstring>
#include <random>
#include <string>
#include <thread>

namespace trident::test {

namespace {

std::vector<float> randomFloats(std::mt19937 &rng, size_t n) {
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

// Elements of `got` that differ from x + y computed in float64 (one fp32 rounding:
// they must be equal to the rounded sum).
size_t wrongSums(const std::vector<float> &got, const float *x, const float *y, size_t n) {
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i)
    wrong += got[i] != float(double(x[i]) + double(y[i]));
  return wrong;
}

struct Share {
  size_t begin, count;
};

std::vector<Share> shares(size_t n, size_t parts) {
  std::vector<Share> out;
  size_t begin = 0;
  for (size_t i = 0; i < parts; ++i) {
    size_t count = n / parts + (i < n % parts ? 1 : 0);
    out.push_back({begin, count});
    begin += count;
  }
  return out;
}

void launchAdd(const Kernel &add, const Stream &s, const Buffer &x, const Buffer &y, const Buffer &out, int n) {
  add.launch(s, Grid([&](const Meta &m) -> Dim3 { return {cdiv(n, m["BLOCK_SIZE"])}; }), {x, y, out, n},
             {.constexprs = {{"BLOCK_SIZE", 256}}});
}

} // namespace

std::string vectorAddSource() { return std::string(TRIDENT_TEST_SOURCE_DIR) + "/samples/vector_add.py"; }

void checkCopiesBetweenAll(const std::vector<Device> &devices, const CopyRoute *samePluginRoute) {
  std::mt19937 rng(77);
  std::uniform_int_distribution<int> byte(0, 255);
  const size_t total = 4099, part = 1500, srcOffset = 333, dstOffset = 1207;
  for (const Device &src : devices)
    for (const Device &dst : devices) {
      CAPTURE(src.name());
      CAPTURE(dst.name());
      CopyRoute route = dst.copyRouteFrom(src);
      if (src == dst)
        CHECK(route == CopyRoute::SameDevice);
      else if (src.plugin() != dst.plugin())
        CHECK(route == CopyRoute::Host);
      else if (samePluginRoute)
        CHECK(route == *samePluginRoute);

      std::vector<uint8_t> data(total), before(total);
      for (auto &b : data)
        b = uint8_t(byte(rng));
      for (auto &b : before)
        b = uint8_t(byte(rng));
      Buffer s = Buffer::fromHost(src, std::span<const uint8_t>(data), DType::I8);
      Buffer d = Buffer::fromHost(dst, std::span<const uint8_t>(before), DType::I8);
      std::vector<uint8_t> expected = before;
      std::memcpy(expected.data() + dstOffset, data.data() + srcOffset, part);

      d.copyFrom(s, part, dstOffset, srcOffset); // synchronous
      CHECK(d.toHost<uint8_t>() == expected);

      // Asynchronous, on a stream of the destination, the whole buffer.
      d.copyFromHost(std::span<const uint8_t>(before));
      Stream ds(dst);
      d.copyFromAsync(ds, s);
      ds.synchronize();
      CHECK(d.toHost<uint8_t>() == data);

      // Out of range on either side: an error naming both sizes, nothing copied.
      CHECK_THROWS_WITH_AS(d.copyFrom(s, part, total - 10, 0), doctest::Contains("does not fit"), Error);
      CHECK_THROWS_WITH_AS(d.copyFrom(s, part, 0, total - 10), doctest::Contains("does not fit"), Error);
    }
}

void checkSplitFromOneThread(const std::vector<Device> &devices, size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  auto x = randomFloats(rng, n), y = randomFloats(rng, n);
  const Device &home = devices[0];
  Kernel add = Kernel::fromFile(vectorAddSource(), "add_kernel");
  Buffer hx = Buffer::fromHost(home, std::span<const float>(x));
  Buffer hy = Buffer::fromHost(home, std::span<const float>(y));
  Buffer hout(home, n, DType::F32);
  hout.fillBytes(0xff); // NaN: parts never gathered show
  std::vector<Share> parts = shares(n, devices.size());
  std::vector<Stream> streams;
  std::vector<Buffer> px, py, pout;
  std::vector<Event> done;
  for (size_t i = 0; i < devices.size(); ++i) {
    const Device &d = devices[i];
    streams.emplace_back(d);
    px.emplace_back(d, parts[i].count, DType::F32);
    py.emplace_back(d, parts[i].count, DType::F32);
    pout.emplace_back(d, parts[i].count, DType::F32);
    px[i].copyFromAsync(streams[i], hx, parts[i].count * 4, 0, parts[i].begin * 4);
    py[i].copyFromAsync(streams[i], hy, parts[i].count * 4, 0, parts[i].begin * 4);
    launchAdd(add, streams[i], px[i], py[i], pout[i], int(parts[i].count));
    done.emplace_back(d);
    done[i].record(streams[i]);
  }
  Stream gather(home);
  for (size_t i = 0; i < devices.size(); ++i) {
    gather.wait(done[i]);
    hout.copyFromAsync(gather, pout[i], parts[i].count * 4, parts[i].begin * 4, 0);
  }
  gather.synchronize();
  CHECK(wrongSums(hout.toHost<float>(), x.data(), y.data(), n) == 0);
}

void checkSplitFromThreads(const std::vector<Device> &devices, size_t n, unsigned seed, int rounds) {
  Kernel add = Kernel::fromFile(vectorAddSource(), "add_kernel");
  const Device &home = devices[0];
  std::atomic<size_t> wrong{0};
  std::atomic<int> failures{0};
  std::string firstError;
  std::mutex errorMutex;
  for (int round = 0; round < rounds; ++round) {
    std::mt19937 rng(seed + unsigned(round));
    auto x = randomFloats(rng, n), y = randomFloats(rng, n);
    Buffer hx = Buffer::fromHost(home, std::span<const float>(x));
    Buffer hy = Buffer::fromHost(home, std::span<const float>(y));
    Buffer hout(home, n, DType::F32);
    hout.fillBytes(0xff);
    std::vector<Share> parts = shares(n, devices.size());
    std::vector<std::thread> threads;
    for (size_t i = 0; i < devices.size(); ++i)
      threads.emplace_back([&, i] {
        try {
          const Device &d = devices[i];
          Stream s(d);
          Buffer bx(d, parts[i].count, DType::F32), by(d, parts[i].count, DType::F32),
              bo(d, parts[i].count, DType::F32);
          bx.copyFromAsync(s, hx, parts[i].count * 4, 0, parts[i].begin * 4);
          by.copyFromAsync(s, hy, parts[i].count * 4, 0, parts[i].begin * 4);
          launchAdd(add, s, bx, by, bo, int(parts[i].count));
          Event e(d);
          e.record(s);
          Stream g(home); // each thread gathers on its own stream of the home device
          g.wait(e);
          hout.copyFromAsync(g, bo, parts[i].count * 4, parts[i].begin * 4, 0);
          g.synchronize();
        } catch (const std::exception &e) {
          std::lock_guard lock(errorMutex);
          if (failures++ == 0)
            firstError = e.what();
        }
      });
    for (auto &t : threads)
      t.join();
    wrong += wrongSums(hout.toHost<float>(), x.data(), y.data(), n);
  }
  CHECK_MESSAGE(failures == 0, firstError);
  CHECK(wrong == 0);
}

void checkWaitsAcrossDevices(const std::vector<Device> &devices, size_t n, unsigned seed) {
  Kernel add = Kernel::fromFile(vectorAddSource(), "add_kernel");
  std::mt19937 rng(seed);
  for (const Device &a : devices)
    for (const Device &b : devices) {
      if (a == b)
        continue;
      CAPTURE(a.name());
      CAPTURE(b.name());
      auto x = randomFloats(rng, n), y = randomFloats(rng, n);
      Buffer bx = Buffer::fromHost(a, std::span<const float>(x)), by = Buffer::fromHost(a, std::span<const float>(y));
      Buffer out(a, n, DType::F32);
      out.fillBytes(0xff);
      Stream sa(a), sb(b);
      // Several launches in a row, so the last write lands late on an asynchronous device.
      for (int i = 0; i < 3; ++i)
        launchAdd(add, sa, bx, by, out, int(n));
      Event e(a);
      e.record(sa);
      sb.wait(e);
      Buffer copy(b, n, DType::F32);
      copy.copyFromAsync(sb, out);
      sb.synchronize();
      CHECK(wrongSums(copy.toHost<float>(), x.data(), y.data(), n) == 0);
    }
}

} // namespace trident::test
