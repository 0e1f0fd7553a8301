// One kernel source across every device of a machine (docs/multi-device.md):
//
//  1. vector_add.py split over the devices, enqueued from one thread: the inputs
//     live on the first ("home") device, each device copies its share from there
//     (peer or through host memory), adds, and the home device gathers the parts
//     after waiting for each device's event;
//  2. matmul.py split by rows of A, one thread per device, gathered the same way;
//  3. the same two kernels on every device for the same inputs, and the devices'
//     results compared with each other.
//
// Every result is checked against a float64 reference; each device's share, copy
// route and kernel time are printed. Exits with 1 on any mismatch, 2 on a usage
// or runtime error, 77 when --missing-skips is given and a named device is absent.
//
//   multi_device [--devices all | a,b,...] [--kernels vector_add,matmul] [--small | --large] [--seed S]
//                [--samples-dir DIR] [--missing-skips]
//
// Without --devices: every GPU of every plugin, or every host device when there
// is no GPU. `all` is every device, host devices included. Problems are large
// when every chosen device is a GPU, small otherwise (the host interpreter is slow).

#include "SampleSupport.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <set>
#include <thread>

using namespace samples;

namespace {

constexpr int kMismatch = 1, kError = 2, kSkip = 77;

struct Options {
  std::string devices;
  int size = -1; // -1: from the devices, 0: small, 1: large
  uint64_t seed = std::random_device()();
  std::string samplesDir = TRIDENT_SAMPLES_DIR;
  bool missingSkips = false;
  bool vectorAdd = true, matmul = true; // --kernels
};

struct Share {
  size_t begin = 0, count = 0; // elements or rows
};

// Contiguous, nearly equal shares of `total` (the first ones one larger).
std::vector<Share> split(size_t total, size_t parts) {
  std::vector<Share> out(parts);
  size_t begin = 0;
  for (size_t i = 0; i < parts; ++i) {
    out[i] = {begin, total / parts + (i < total % parts ? 1 : 0)};
    begin += out[i].count;
  }
  return out;
}

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::vector<std::string> splitNames(const std::string &list) {
  std::vector<std::string> names;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string::npos)
      comma = list.size();
    if (comma > start)
      names.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return names;
}

// The devices to use; throws trident::Error for unknown names (the message lists
// what exists). Empty result with `skipReason` set: --missing-skips and a name absent.
std::vector<Device> chooseDevices(const Options &o, std::string &skipReason) {
  Runtime &rt = Runtime::get();
  std::vector<Device> out;
  if (o.devices == "all")
    return rt.devices();
  if (!o.devices.empty()) {
    std::set<std::string> seen;
    for (const std::string &name : splitNames(o.devices)) {
      try {
        Device d = rt.device(name);
        if (!seen.insert(d.name()).second)
          throw Error(ErrorCode::InvalidArgument, "device " + d.name() + " is named twice in --devices");
        out.push_back(d);
      } catch (const Error &e) {
        if (!o.missingSkips || e.code() != ErrorCode::NotFound)
          throw;
        skipReason = e.what();
        return {};
      }
    }
    if (out.empty())
      throw Error(ErrorCode::InvalidArgument, "--devices names no device");
    return out;
  }
  for (const Device &d : rt.devices())
    if (d.info().isGpu)
      out.push_back(d);
  if (!out.empty()) {
    std::printf("host devices left out (GPUs are present; --devices all includes them)\n");
    return out;
  }
  for (const Device &d : rt.devices())
    if (d.plugin() == "host")
      out.push_back(d);
  if (out.empty())
    throw Error(ErrorCode::NotFound, "no devices: no GPU and no host device (is TRIDENT_HOST_DEVICES 0?)");
  std::printf("no GPU present: using the host devices\n");
  return out;
}

// Element-wise check against a float64 reference; prints one line, returns the match.
bool check(const char *what, const std::vector<double> &got, const std::vector<double> &ref, double atol,
           double rtol) {
  Result r{what};
  compare(r, got, ref, atol, rtol);
  std::printf("  %s: %s (largest err/tol %.3g)%s%s\n", what, r.match ? "matches the float64 reference" : "MISMATCH",
              r.maxError, r.note.empty() ? "" : ": ", r.note.c_str());
  return r.match;
}

// ---- 1. vector add split over the devices, from one thread ----

bool splitVectorAdd(const std::vector<Device> &devs, const Kernel &add, size_t n, std::mt19937_64 &rng) {
  std::printf("\nvector_add split: %zu fp32 elements over %zu devices, enqueued from one thread\n", n, devs.size());
  const Device &home = devs[0];
  auto x = randomFloats(rng, n), y = randomFloats(rng, n);
  Buffer hx = Buffer::fromHost(home, std::span<const float>(x));
  Buffer hy = Buffer::fromHost(home, std::span<const float>(y));
  Buffer hout(home, n, DType::F32);
  poison(hout);
  std::vector<Share> shares = split(n, devs.size());
  LaunchOptions opts;
  opts.constexprs = {{"BLOCK_SIZE", 1024}};
  struct Part {
    Stream stream;
    Buffer x, y, out;
    Event start, stop;
    CopyRoute route = CopyRoute::SameDevice;
  };
  std::vector<Part> parts(devs.size());
  // Scatter and compile everywhere first, so the timed launches overlap.
  for (size_t i = 0; i < devs.size(); ++i) {
    Part &p = parts[i];
    const Share &s = shares[i];
    p.stream = Stream(devs[i]);
    p.route = devs[i].copyRouteFrom(home);
    p.x = Buffer(devs[i], s.count, DType::F32);
    p.y = Buffer(devs[i], s.count, DType::F32);
    p.out = Buffer(devs[i], s.count, DType::F32);
    p.x.copyFromAsync(p.stream, hx, s.count * 4, 0, s.begin * 4);
    p.y.copyFromAsync(p.stream, hy, s.count * 4, 0, s.begin * 4);
    p.start = Event(devs[i]);
    p.stop = Event(devs[i]);
    int count = int(s.count);
    add.warmup(devs[i], std::vector<Arg>{p.x, p.y, p.out, count}, opts);
  }
  auto wall = std::chrono::steady_clock::now();
  for (size_t i = 0; i < devs.size(); ++i) {
    Part &p = parts[i];
    int count = int(shares[i].count);
    p.start.record(p.stream);
    add.launch(p.stream, Grid([&](const Meta &m) -> Dim3 { return {cdiv(count, m["BLOCK_SIZE"])}; }),
               {p.x, p.y, p.out, count}, opts);
    p.stop.record(p.stream);
  }
  // Gather on the home device: its stream waits for each device's event.
  Stream gather(home);
  for (size_t i = 0; i < devs.size(); ++i) {
    gather.wait(parts[i].stop);
    hout.copyFromAsync(gather, parts[i].out, shares[i].count * 4, shares[i].begin * 4, 0);
  }
  gather.synchronize();
  double wallMs = secondsSince(wall) * 1e3;
  std::printf("  %-10s %12s %7s  %-22s %10s %8s\n", "device", "elements", "share", "route from home", "kernel ms",
              "GB/s");
  for (size_t i = 0; i < devs.size(); ++i) {
    float ms = Event::elapsedMs(parts[i].start, parts[i].stop);
    std::printf("  %-10s %12zu %6.1f%%  %-22s %10.3f %8.3g\n", devs[i].name().c_str(), shares[i].count,
                100.0 * double(shares[i].count) / double(n), copyRouteName(parts[i].route), ms,
                ms > 0 ? 12.0 * double(shares[i].count) / (ms * 1e6) : 0.0);
  }
  std::printf("  launches, waits and gather: %.3f ms wall\n", wallMs);
  std::vector<double> ref(n);
  for (size_t i = 0; i < n; ++i)
    ref[i] = double(x[i]) + double(y[i]);
  return check("gathered result", toDoubles(hout.toHost<float>()), ref, 0, 1e-7);
}

// ---- 2. matmul split by rows, one thread per device ----

// C = A @ B in float64, rows spread over the machine's cores.
std::vector<double> matmulReference(const std::vector<double> &a, const std::vector<double> &b, int M, int N,
                                    int K) {
  std::vector<double> c(size_t(M) * N, 0.0);
  unsigned threads = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int i = int(t); i < M; i += int(threads))
        for (int k = 0; k < K; ++k) {
          double av = a[size_t(i) * K + k];
          double *row = &c[size_t(i) * N];
          const double *brow = &b[size_t(k) * N];
          for (int j = 0; j < N; ++j)
            row[j] += av * brow[j];
        }
    });
  for (auto &t : pool)
    t.join();
  for (double &v : c)
    v = roundToHalf(v); // fp32 accumulation, then one fp16 rounding
  return c;
}

void launchMatmul(const Kernel &mm, const Stream &s, const Buffer &a, const Buffer &b, const Buffer &c, int M, int N,
                  int K) {
  Grid grid([=](const Meta &m) -> Dim3 { return {cdiv(M, m["BLOCK_SIZE_M"]) * cdiv(N, m["BLOCK_SIZE_N"])}; });
  LaunchOptions opts;
  opts.constexprs = {{"ACTIVATION", Constexpr::string("")}};
  mm.launch(s, grid, {a, b, c, M, N, K, K, 1, N, 1, N, 1}, opts);
}

bool splitMatmul(const std::vector<Device> &devs, const Kernel &mm, int M, int N, int K, std::mt19937_64 &rng) {
  std::printf("\nmatmul split by rows: C[%d x %d] = A[%d x %d] @ B[%d x %d] (fp16, fp32 accumulation), one thread "
              "per device\n",
              M, N, M, K, K, N);
  const Device &home = devs[0];
  std::vector<double> a, b;
  auto abits = randomHalfs(rng, size_t(M) * K, a);
  auto bbits = randomHalfs(rng, size_t(K) * N, b);
  Buffer ha = Buffer::fromHost(home, std::span<const uint16_t>(abits), DType::F16);
  Buffer hb = Buffer::fromHost(home, std::span<const uint16_t>(bbits), DType::F16);
  Buffer hc(home, size_t(M) * N, DType::F16);
  poison(hc);
  std::vector<Share> rows = split(size_t(M), devs.size());
  std::vector<double> ms(devs.size(), 0.0), firstMs(devs.size(), 0.0);
  std::vector<CopyRoute> routes(devs.size());
  std::vector<std::string> errors(devs.size());
  auto wall = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (size_t i = 0; i < devs.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        const Device &d = devs[i];
        const int rowsHere = int(rows[i].count);
        if (rowsHere == 0)
          return;
        routes[i] = d.copyRouteFrom(home);
        Stream s(d);
        Buffer pa(d, size_t(rowsHere) * K, DType::F16), pb(d, size_t(K) * N, DType::F16);
        Buffer pc(d, size_t(rowsHere) * N, DType::F16);
        pa.copyFromAsync(s, ha, pa.bytes(), 0, rows[i].begin * size_t(K) * 2);
        pb.copyFromAsync(s, hb);
        auto first = std::chrono::steady_clock::now();
        launchMatmul(mm, s, pa, pb, pc, rowsHere, N, K); // compiles and autotunes for this device
        s.synchronize();
        firstMs[i] = secondsSince(first) * 1e3;
        Event start(d), stop(d);
        start.record(s);
        launchMatmul(mm, s, pa, pb, pc, rowsHere, N, K);
        stop.record(s);
        // This thread's own stream on the home device gathers its rows.
        Stream g(home);
        g.wait(stop);
        hc.copyFromAsync(g, pc, pc.bytes(), rows[i].begin * size_t(N) * 2, 0);
        g.synchronize();
        ms[i] = Event::elapsedMs(start, stop);
      } catch (const std::exception &e) {
        errors[i] = e.what();
      }
    });
  for (auto &t : threads)
    t.join();
  double wallMs = secondsSince(wall) * 1e3;
  bool ok = true;
  std::printf("  %-10s %8s %7s  %-22s %14s %10s %9s\n", "device", "rows", "share", "route from home",
              "first launch ms", "kernel ms", "TFLOP/s");
  for (size_t i = 0; i < devs.size(); ++i) {
    if (!errors[i].empty()) {
      std::printf("  %-10s error: %s\n", devs[i].name().c_str(), errors[i].c_str());
      ok = false;
      continue;
    }
    double flops = 2.0 * double(rows[i].count) * N * K;
    std::printf("  %-10s %8zu %6.1f%%  %-22s %14.1f %10.3f %9.3g\n", devs[i].name().c_str(), rows[i].count,
                100.0 * double(rows[i].count) / M, copyRouteName(routes[i]), firstMs[i], ms[i],
                ms[i] > 0 ? flops / (ms[i] * 1e9) : 0.0);
  }
  std::printf("  all threads (with compiles and autotuning): %.1f ms wall\n", wallMs);
  if (!ok)
    return false;
  return check("gathered C", halfsToDoubles(hc.toHost<uint16_t>()), matmulReference(a, b, M, N, K), 1e-2, 2e-3);
}

// ---- 3. the same kernels on every device, compared with each other ----

bool sameVectorAdd(const std::vector<Device> &devs, const Kernel &add, size_t n, std::mt19937_64 &rng) {
  bool ok = true;
  // vector_add: one fp32 rounding, so every IEEE device must agree bit for bit.
  auto x = randomFloats(rng, n), y = randomFloats(rng, n);
  std::vector<Buffer> outs;
  LaunchOptions opts;
  opts.constexprs = {{"BLOCK_SIZE", 1024}};
  int count = int(n);
  for (const Device &d : devs) { // enqueue on all, then wait
    Buffer bx = Buffer::fromHost(d, std::span<const float>(x)), by = Buffer::fromHost(d, std::span<const float>(y));
    outs.emplace_back(d, n, DType::F32);
    poison(outs.back());
    add.launch(d, Grid([&](const Meta &m) -> Dim3 { return {cdiv(count, m["BLOCK_SIZE"])}; }),
               {bx, by, outs.back(), count}, opts);
  }
  std::vector<double> ref(n);
  for (size_t i = 0; i < n; ++i)
    ref[i] = double(x[i]) + double(y[i]);
  std::vector<float> first = outs[0].toHost<float>();
  std::printf(" vector_add, %zu elements:\n", n);
  for (size_t i = 0; i < devs.size(); ++i) {
    std::vector<float> got = outs[i].toHost<float>();
    ok &= check(devs[i].name().c_str(), toDoubles(got), ref, 0, 1e-7);
    if (i > 0) {
      size_t differ = 0;
      for (size_t j = 0; j < n; ++j)
        differ += std::memcmp(&got[j], &first[j], 4) != 0;
      std::printf("    %s vs %s: %s\n", devs[i].name().c_str(), devs[0].name().c_str(),
                  differ ? ("DIFFER in " + std::to_string(differ) + " elements").c_str() : "bit-identical");
      ok &= differ == 0;
    }
  }
  return ok;
}

bool sameMatmul(const std::vector<Device> &devs, const Kernel &mm, int M, int N, int K, std::mt19937_64 &rng) {
  bool ok = true;
  // matmul: devices accumulate in different orders; each must match the
  // reference, and any two devices differ by at most the sum of their tolerances.
  std::vector<double> a, b;
  auto abits = randomHalfs(rng, size_t(M) * K, a);
  auto bbits = randomHalfs(rng, size_t(K) * N, b);
  std::vector<double> cref = matmulReference(a, b, M, N, K);
  std::vector<Buffer> cs;
  for (const Device &d : devs) {
    Buffer ba = Buffer::fromHost(d, std::span<const uint16_t>(abits), DType::F16);
    Buffer bb = Buffer::fromHost(d, std::span<const uint16_t>(bbits), DType::F16);
    cs.emplace_back(d, size_t(M) * N, DType::F16);
    poison(cs.back());
    launchMatmul(mm, d.defaultStream(), ba, bb, cs.back(), M, N, K);
  }
  std::printf(" matmul, %d x %d x %d:\n", M, N, K);
  std::vector<double> c0 = halfsToDoubles(cs[0].toHost<uint16_t>());
  for (size_t i = 0; i < devs.size(); ++i) {
    std::vector<double> ci = halfsToDoubles(cs[i].toHost<uint16_t>());
    ok &= check(devs[i].name().c_str(), ci, cref, 1e-2, 2e-3);
    if (i > 0) {
      double worst = 0, worstScaled = 0;
      for (size_t j = 0; j < ci.size(); ++j) {
        double diff = std::abs(ci[j] - c0[j]);
        double allowed = 2 * (1e-2 + 2e-3 * std::abs(cref[j]));
        worst = std::max(worst, std::isnan(diff) ? INFINITY : diff);
        worstScaled = std::max(worstScaled, std::isnan(diff) ? INFINITY : diff / allowed);
      }
      std::printf("    %s vs %s: largest difference %.4g (%s)\n", devs[i].name().c_str(), devs[0].name().c_str(),
                  worst, worstScaled <= 1 ? "within both tolerances" : "BEYOND both tolerances");
      ok &= worstScaled <= 1;
    }
  }
  return ok;
}

bool sameEverywhere(const std::vector<Device> &devs, const Kernel *add, const Kernel *mm, size_t n, int M, int N,
                    int K, std::mt19937_64 &rng) {
  std::printf("\nthe same kernels on every device, same inputs\n");
  bool ok = true;
  if (add)
    ok &= sameVectorAdd(devs, *add, n, rng);
  if (mm)
    ok &= sameMatmul(devs, *mm, M, N, K, rng);
  return ok;
}

int usage() {
  std::fprintf(stderr, "usage: multi_device [--devices all | a,b,...] [--kernels vector_add,matmul] [--small | "
                       "--large] [--seed S] [--samples-dir DIR] [--missing-skips]\n");
  return kError;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--devices" && i + 1 < argc)
      o.devices = argv[++i];
    else if (a == "--seed" && i + 1 < argc)
      o.seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--samples-dir" && i + 1 < argc)
      o.samplesDir = argv[++i];
    else if (a == "--small")
      o.size = 0;
    else if (a == "--large")
      o.size = 1;
    else if (a == "--missing-skips")
      o.missingSkips = true;
    else if (a == "--kernels" && i + 1 < argc) {
      std::vector<std::string> ks = splitNames(argv[++i]);
      o.vectorAdd = std::find(ks.begin(), ks.end(), "vector_add") != ks.end();
      o.matmul = std::find(ks.begin(), ks.end(), "matmul") != ks.end();
      if (!o.vectorAdd && !o.matmul) {
        std::fprintf(stderr, "multi_device: --kernels takes vector_add, matmul or both\n");
        return kError;
      }
    }
    else
      return usage();
  }
  try {
    std::string skipReason;
    std::vector<Device> devs = chooseDevices(o, skipReason);
    if (devs.empty()) {
      std::printf("SKIPPED: %s\n", skipReason.c_str());
      return kSkip;
    }
    bool large = o.size >= 0 ? o.size == 1
                             : std::all_of(devs.begin(), devs.end(), [](const Device &d) { return d.info().isGpu; });
    std::printf("random seed %llu (repeat a run with --seed); %s problems\n", static_cast<unsigned long long>(o.seed),
                large ? "large" : "small");
    for (const Device &d : devs)
      std::printf("  %-10s %s (%s)\n", d.name().c_str(), d.info().name.c_str(), d.info().target.c_str());
    std::mt19937_64 rng(o.seed);
    Kernel add = Kernel::fromFile(o.samplesDir + "/vector_add.py", "add_kernel");
    Kernel mm = Kernel::fromFile(o.samplesDir + "/matmul.py", "matmul_kernel");
    const size_t n = large ? (size_t(1) << 26) + 5 : (size_t(1) << 17) + 5;
    const int M = large ? 2048 : 160, N = large ? 1024 : 96, K = large ? 1024 : 64;
    bool ok = true;
    if (o.vectorAdd)
      ok &= splitVectorAdd(devs, add, n, rng);
    if (o.matmul)
      ok &= splitMatmul(devs, mm, M, N, K, rng);
    ok &= sameEverywhere(devs, o.vectorAdd ? &add : nullptr, o.matmul ? &mm : nullptr,
                         large ? (size_t(1) << 20) + 7 : 10007, large ? 512 : 64, large ? 384 : 48, large ? 256 : 40,
                         rng);
    std::printf("\n%s\n", ok ? "all results match" : "MISMATCH (see above)");
    return ok ? 0 : kMismatch;
  } catch (const Error &e) {
    std::fprintf(stderr, "multi_device: %s\n", e.what());
    return kError;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "multi_device: %s\n", e.what());
    return kError;
  }
}
