// runtime_device_fault_tests: kernels that fault on a real GPU (issue 18). On CUDA a
// kernel that stores far outside every allocation, or fails a device assert, leaves
// its context unusable (the driver's "sticky" errors: every later call in that context
// fails with the same error). What the runtime must do:
//
// - the fault is Error(Launch) ("the kernel failed while running", trident/Error.h),
//   and its message names what the driver reported;
// - in the same runtime, every later use of the device either works (and computes
//   right) or fails with an Error that names the fault again, never a crash, a hang or
//   a wrong answer; other devices (host:0) go on computing;
// - once the runtime and everything made from it are gone, a new runtime's launch on the
//   device computes right, or, where the driver keeps the fault for the rest of the
//   process, fails with Error(Launch) naming it again; host:0 of that runtime computes.
//   CUDA keeps them all (its documentation of CUDA_ERROR_ILLEGAL_ADDRESS, _ASSERT and
//   _LAUNCH_FAILED: "the process must be terminated and relaunched"; on the H200, driver
//   580, a reset of the primary context did not clear it either), so on cuda:0 each case
//   needs a process of its own: CTest runs them one per process (-tc).
//
// The cases run on the device --device names (default cuda:0); each opens its own
// runtimes. On host:0 (the bounds-checked interpreter) the same
// promises hold, which checks this test here. Without the device the binary prints
// "SKIPPED: ..." with the plugin's reason and exits 77, which CTest reports as skipped:
//
//   runtime_device_fault_tests                   # every case, on cuda:0
//   runtime_device_fault_tests --device host:0
//   runtime_device_fault_tests -tc='*out-of-bounds*'

#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "TestUtil.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

using namespace trident;

namespace {

const char *kSource = R"(
import triton
import triton.language as tl

@triton.jit
def add_one(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask) + 1.0, mask=mask)

@triton.jit
def store_far(x_ptr, offset):
    tl.store(x_ptr + offset, 1.0)

@triton.jit
def assert_positive(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=1.0)
    tl.device_assert(x > 0, "every x must be positive")
)";

constexpr int kN = 1000;

std::string theDevice = "cuda:0"; // --device

bool onCuda() { return theDevice.rfind("cuda:", 0) == 0; }

bool contains(const std::string &text, std::initializer_list<const char *> any) {
  for (const char *a : any)
    if (text.find(a) != std::string::npos)
      return true;
  return false;
}

// add_one over kN elements 0, 1, 2 ... on `dev`: nullopt when it ran and every element
// is right (checked here), else the Error's message.
std::optional<std::string> tryAddOne(const Device &dev) {
  try {
    Kernel k = Kernel::fromSource(kSource, "add_one", "fault.py");
    std::vector<float> x(kN);
    for (int i = 0; i < kN; ++i)
      x[size_t(i)] = float(i);
    Buffer b = Buffer::fromHost(dev, std::span<const float>(x));
    k.launch(dev, Grid(cdiv(kN, 256)), {b, kN}, {.constexprs = {{"BLOCK", 256}}});
    std::vector<float> got = b.toHost<float>();
    int wrong = 0;
    for (int i = 0; i < kN; ++i)
      wrong += got[size_t(i)] != float(i + 1);
    CHECK_MESSAGE(wrong == 0, wrong << " of " << kN << " elements wrong on " << dev.name());
    return std::nullopt;
  } catch (const Error &e) {
    return std::string(errorCodeName(e.code())) + ": " + e.what();
  }
}

// Runs the faulting launch `fault` on the device and checks the three promises above;
// `names` are the driver's (or interpreter's) words for this fault, one of which its
// message must hold.
template <class F> void checkFault(F fault, std::initializer_list<const char *> names) {
  {
    Runtime rt(test::testOptions());
    Device dev = rt.device(theDevice);
    std::optional<std::string> before = tryAddOne(dev);
    REQUIRE_MESSAGE(!before, theDevice << " fails before any fault (after an earlier case's fault in this "
                                          "process? run each case in its own process, -tc=...): "
                                       << before.value_or(""));

    std::string message;
    try {
      fault(dev);
      dev.synchronize();
      FAIL("the faulting kernel ran to its end on " << theDevice << " without an error");
    } catch (const Error &e) {
      message = e.what();
      MESSAGE("the fault: " << std::string(errorCodeName(e.code())) << ": " << message);
      CHECK_MESSAGE(e.code() == ErrorCode::Launch,
                    "a kernel fault should be Error(Launch), it is " << std::string(errorCodeName(e.code())));
      CHECK_MESSAGE(contains(message, names), "the message does not say what the driver reported");
    }

    // The same runtime, the same device: works, or says again what happened. Twice, so
    // a second failure is as clear as the first.
    for (int round = 0; round < 2; ++round) {
      std::optional<std::string> after = tryAddOne(dev);
      if (after) {
        MESSAGE(theDevice << " after the fault (round " << round << "): " << *after);
        CHECK_MESSAGE(contains(*after, names), "a later call fails without naming the fault: " << *after);
      } else {
        MESSAGE(theDevice << " after the fault (round " << round << "): computes right");
      }
    }
    std::optional<std::string> host = tryAddOne(rt.device("host:0"));
    CHECK_MESSAGE(!host, "host:0 of the same runtime fails after the fault: " << host.value_or(""));
  } // the runtime, its kernels and buffers are gone: the device's context is released

  Runtime fresh(test::testOptions());
  std::optional<std::string> next = tryAddOne(fresh.device(theDevice));
  if (next) {
    MESSAGE("a new runtime's first launch on " << theDevice << ": " << *next);
    CHECK_MESSAGE(next->starts_with("launch error: "), "not Error(Launch): " << *next);
    CHECK_MESSAGE(contains(*next, names), "it does not name the fault: " << *next);
    CHECK_MESSAGE(contains(*next, {"restart the process"}), "it does not say what to do: " << *next);
  } else {
    MESSAGE("a new runtime's first launch on " << theDevice << " computes right");
  }
  std::optional<std::string> host = tryAddOne(fresh.device("host:0"));
  CHECK_MESSAGE(!host, "host:0 of a new runtime fails after the fault: " << host.value_or(""));
}

std::string skipReason(const Runtime &rt) {
  for (const Device &d : rt.devices())
    if (d.name() == theDevice)
      return "";
  std::string plugin = theDevice.substr(0, theDevice.find(':'));
  for (const PluginReport &r : rt.plugins())
    if (r.name == plugin)
      return !r.loaded
                 ? "the " + plugin + " plugin is not loaded: " + r.reason
                 : "the " + plugin + " plugin has " + std::to_string(r.deviceCount) + " devices: " + r.reason;
  return "the " + plugin + " plugin is not built or not found";
}

} // namespace

TEST_CASE("an out-of-bounds store far outside any allocation") {
  checkFault(
      [](const Device &dev) {
        Kernel k = Kernel::fromSource(kSource, "store_far", "fault.py");
        Buffer b(dev, 16, DType::F32);
        // 2^40 elements (4 TiB) past a 64-byte buffer: no allocation is there.
        k.launch(dev, Grid(1), {b, int64_t(1) << 40});
        dev.synchronize();
      },
      onCuda() ? std::initializer_list<const char *>{"CUDA_ERROR_ILLEGAL_ADDRESS", "illegal memory access",
                                                     "CUDA_ERROR_LAUNCH_FAILED"}
               : std::initializer_list<const char *>{"out-of-bounds store"});
}

TEST_CASE("a failed device assert") {
  checkFault(
      [](const Device &dev) {
        Kernel k = Kernel::fromSource(kSource, "assert_positive", "fault.py");
        std::vector<float> x(64, 1.0f);
        x[37] = -2.0f;
        Buffer b = Buffer::fromHost(dev, std::span<const float>(x));
        k.launch(dev, Grid(1), {b, 64}, {.constexprs = {{"BLOCK", 64}}, .debug = true});
        dev.synchronize();
      },
      onCuda() ? std::initializer_list<const char *>{"CUDA_ERROR_ASSERT", "device-side assert"}
               : std::initializer_list<const char *>{"every x must be positive"});
}

int main(int argc, char **argv) {
  std::vector<char *> rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--device") == 0 && i + 1 < argc)
      theDevice = argv[++i];
    else
      rest.push_back(argv[i]);
  }
  std::string reason;
  {
    Runtime probe(test::testOptions()); // released before the cases open their own
    reason = skipReason(probe);
  }
  if (!reason.empty()) {
    std::printf("SKIPPED: runtime_device_fault_tests needs %s (%s)\n", theDevice.c_str(), reason.c_str());
    return 77;
  }
  doctest::Context context(int(rest.size()), rest.data());
  return context.run();
}
