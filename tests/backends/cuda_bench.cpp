// The CUDA benchmark (not a timed test): vector add and fused softmax against the
// device's copy bandwidth measured in the same run, compile time per kernel, and
// the host time of a warm launch. Prints a table and writes JSON (argv[1], default
// cuda_bench.json). Without a CUDA device it says so and exits 0.
#include "CudaHarness.h"

#include "trident/frontend/Frontend.h"
#include "trident/ir/Printer.h"

#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace trident::test;

namespace {

std::string kernelFile(const std::string &name) {
  std::ifstream in(std::string(envOr("TRIDENT_KERNELS_DIR", TRIDENT_KERNELS_DIR)) + "/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string replaceAll(std::string s, const std::string &from, const std::string &to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

double seconds(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

struct Row {
  std::string kernel, size;
  double ms, gbps, ratio;
};

// Milliseconds per call of `body` (enqueued `reps` times between two events, after warm-ups).
template <class F> double timeMs(CudaHarness &h, F body, int reps = 20) {
  for (int i = 0; i < 3; ++i)
    body();
  trident_event start, end;
  h.check(h.api->event_create(h.device, &start), "event_create");
  h.check(h.api->event_create(h.device, &end), "event_create");
  h.check(h.api->event_record(start, h.stream), "event_record");
  for (int i = 0; i < reps; ++i)
    body();
  h.check(h.api->event_record(end, h.stream), "event_record");
  h.check(h.api->event_synchronize(end), "event_synchronize");
  float ms = 0;
  h.check(h.api->event_elapsed_ms(start, end, &ms), "event_elapsed_ms");
  h.api->event_destroy(start);
  h.api->event_destroy(end);
  return ms / reps;
}

} // namespace

int main(int argc, char **argv) {
  std::string jsonPath = argc > 1 ? argv[1] : "cuda_bench.json";
  try {
    CudaHarness h(TRIDENT_CUDA_PLUGIN);
    if (!h.hasDevice()) {
      std::cout << "SKIPPED: no CUDA device: " << h.noDeviceReason << "\n";
      return 0;
    }
    std::vector<Row> rows;
    std::vector<std::pair<std::string, double>> compileMs;

    // Device copy: the ceiling.
    const size_t n = size_t(1) << 28;
    trident_devptr a = h.alloc(n * 4), b = h.alloc(n * 4), c = h.alloc(n * 4);
    h.check(h.api->mem_fill(h.stream, a, 0x3f800000u, 4, n), "mem_fill");
    h.check(h.api->mem_fill(h.stream, b, 0x40000000u, 4, n), "mem_fill");
    double copyMs = timeMs(h, [&] { h.check(h.api->memcpy_dtod(h.stream, c, a, n * 4), "memcpy_dtod"); });
    double copyGbps = 2.0 * n * 4 / (copyMs * 1e6);
    rows.push_back({"device copy", "2^28 f32", copyMs, copyGbps, 1.0});

    auto compileTimed = [&](const std::string &name, const std::string &ir, const std::string &kernel,
                            uint32_t warps) {
      auto t0 = std::chrono::steady_clock::now();
      std::string binary = h.compile(ir, kernel, h.target, nullptr, warps);
      CudaHarness::Loaded l = h.load(binary, kernel);
      compileMs.push_back({name, seconds(t0, std::chrono::steady_clock::now()) * 1e3});
      return l;
    };

    // Vector add over 2^28 elements.
    auto add = compileTimed("vector_add", kernelFile("vector_add.ttir"), "add_kernel", 4);
    double addMs = timeMs(h, [&] {
      h.launch(add.kernel, {uint32_t(n / 1024), 1, 1},
               {CudaHarness::ptr(a), CudaHarness::ptr(b), CudaHarness::ptr(c), CudaHarness::i32(int32_t(n))});
    });
    std::vector<float> probe = h.download<float>(c + 4 * (n - 4), 4);
    bool addOk = probe[3] == 3.0f;
    double addGbps = 3.0 * n * 4 / (addMs * 1e6);
    rows.push_back({"vector add", "2^28 f32", addMs, addGbps, addGbps / copyGbps});

    // Fused softmax, 16384 rows, at 4, 8 (Triton's tutorial today) and 16 warps.
    std::string softmax =
        replaceAll(kernelFile("softmax.ttir"), "[16, 16, 16, 16, 1]", "[16, 16, 16, 16, 16]");
    for (int cols : {1024, 4096, 16384}) {
      const int rowsN = 16384;
      std::string ir = replaceAll(softmax, "1024", std::to_string(cols));
      for (uint32_t warps : {4u, 8u, 16u}) {
        auto k = compileTimed("softmax_" + std::to_string(cols) + "_w" + std::to_string(warps), ir,
                              "softmax_kernel", warps);
        double ms = timeMs(h, [&] {
          h.launch(k.kernel, {uint32_t(rowsN), 1, 1},
                   {CudaHarness::ptr(c), CudaHarness::ptr(a), CudaHarness::i32(cols), CudaHarness::i32(cols),
                    CudaHarness::i32(cols)});
        });
        double gbps = 2.0 * rowsN * cols * 4 / (ms * 1e6);
        rows.push_back({"softmax w" + std::to_string(warps), "16384x" + std::to_string(cols) + " f32", ms,
                        gbps, gbps / copyGbps});
      }
    }

    // Layer norm forward, fp16, from samples/layer_norm.py as Triton's tutorial launches it.
    {
      trident::Diagnostics diags;
      auto sig = trident::parseSignature(
          "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, i32:16, i32:16, fp32, 8192", diags);
      trident::CompileRequest request;
      request.kernel = "_layer_norm_fwd_fused";
      request.args = *sig;
      std::ifstream in(std::string(envOr("TRIDENT_SAMPLES_DIR", TRIDENT_SAMPLES_DIR)) + "/layer_norm.py");
      std::stringstream source;
      source << in.rdbuf();
      auto m = trident::compileKernel(source.str(), "layer_norm.py", request, diags);
      if (!m)
        throw std::runtime_error("layer_norm.py does not compile: " + diags.str());
      const int M = 4096, N = 8192;
      trident_devptr w = h.alloc(N * 2), bias = h.alloc(N * 2), mean = h.alloc(M * 4), rstd = h.alloc(M * 4);
      h.check(h.api->mem_fill(h.stream, w, 0x3c00, 2, N), "mem_fill");
      h.check(h.api->mem_fill(h.stream, bias, 0, 2, N), "mem_fill");
      auto k = compileTimed("layer_norm_fwd", trident::print(*m), "_layer_norm_fwd_fused", 8);
      double ms = timeMs(h, [&] {
        h.launch(k.kernel, {uint32_t(M), 1, 1},
                 {CudaHarness::ptr(a),
                  CudaHarness::ptr(c),
                  CudaHarness::ptr(w),
                  CudaHarness::ptr(bias),
                  CudaHarness::ptr(mean),
                  CudaHarness::ptr(rstd),
                  CudaHarness::i32(N),
                  CudaHarness::i32(N),
                  {TRIDENT_ARG_F32, 0, 0x3727c5acu /* 1e-5f */}});
      });
      double gbps = 2.0 * M * N * 2 / (ms * 1e6);
      rows.push_back({"layer norm fwd", "4096x8192 f16", ms, gbps, gbps / copyGbps});
    }

    // Host time of a warm launch of a tiny kernel.
    const int launches = 20000;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < launches; ++i)
      h.launch(add.kernel, {1, 1, 1},
               {CudaHarness::ptr(a), CudaHarness::ptr(b), CudaHarness::ptr(c), CudaHarness::i32(1024)});
    double launchUs = seconds(t0, std::chrono::steady_clock::now()) * 1e6 / launches;
    h.check(h.api->stream_synchronize(h.stream), "stream_synchronize");

    std::printf("%-14s %-18s %10s %10s %8s\n", "kernel", "size", "ms", "GB/s", "vs copy");
    for (const Row &r : rows)
      std::printf("%-14s %-18s %10.4f %10.1f %8.3f\n", r.kernel.c_str(), r.size.c_str(), r.ms, r.gbps,
                  r.ratio);
    std::printf("vector add result check: %s\n", addOk ? "ok" : "WRONG");
    std::printf("warm launch host time: %.2f us\n", launchUs);
    for (auto &[name, ms] : compileMs)
      std::printf("compile + load %-16s %8.1f ms\n", name.c_str(), ms);

    std::ofstream json(jsonPath);
    json << "{\n  \"device_target\": \"" << h.target << "\",\n  \"rows\": [\n";
    for (size_t i = 0; i < rows.size(); ++i)
      json << "    {\"kernel\": \"" << rows[i].kernel << "\", \"size\": \"" << rows[i].size
           << "\", \"ms\": " << rows[i].ms << ", \"gbps\": " << rows[i].gbps
           << ", \"ratio_to_copy\": " << rows[i].ratio << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
    json << "  ],\n  \"launch_host_us\": " << launchUs << ",\n  \"compile_ms\": {";
    for (size_t i = 0; i < compileMs.size(); ++i)
      json << (i ? ", " : "") << "\"" << compileMs[i].first << "\": " << compileMs[i].second;
    json << "},\n  \"vector_add_ok\": " << (addOk ? "true" : "false") << "\n}\n";
    std::cout << "wrote " << jsonPath << "\n";
    return addOk ? 0 : 1;
  } catch (const std::exception &e) {
    std::cerr << "cuda_bench: " << e.what() << "\n";
    return 1;
  }
}
