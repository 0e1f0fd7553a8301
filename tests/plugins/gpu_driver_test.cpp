// The SDK's driver-API glue (trident/sdk/GpuDriver.h) over a fake driver table, so it
// is tested without a GPU: every entry point of the plugin table it fills, the
// arguments each driver call receives, how results become statuses and messages
// (kernel faults, out of memory with and without the free bytes), device opening and
// closing, and peer access.

#include "trident/sdk/GpuDriver.h"
#include "trident/sdk/Status.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace sdk = trident::sdk;

namespace {

constexpr sdk::GpuResult kOutOfMemory = 2, kInvalid = 1, kKernelFault = 700, kAlreadyEnabled = 704;

// What the fake driver saw and what it answers.
struct Fake {
  std::vector<std::string> calls; // "name arg arg ..." per driver call
  sdk::GpuResult inject = 0;      // the next call's result (then 0 again)
  int current = -1;               // the device made current (its native id)
  trident_status currentStatus = TRIDENT_SUCCESS;
  int opens = 0, firstOpens = 0, closes = 0;
  size_t freeBytes = size_t(1) << 20, totalBytes = size_t(1) << 20;
  sdk::GpuPtr nextAddress = 0x10000;
  int canAccess = 1;
  sdk::GpuResult enableResult = 0;
};
Fake fake;

std::string hexOf(uint64_t v) { return sdk::hex(v); }
std::string ptrOf(const void *p) { return sdk::hex(reinterpret_cast<uintptr_t>(p)); }
void *handle(uintptr_t v) { return reinterpret_cast<void *>(v); }

sdk::GpuResult record(std::string call) {
  fake.calls.push_back(std::move(call));
  sdk::GpuResult r = fake.inject;
  fake.inject = 0;
  return r;
}

sdk::GpuResult fakeSync() { return record("sync"); }
sdk::GpuResult fakeAlloc(sdk::GpuPtr *p, size_t bytes) {
  if (sdk::GpuResult r = record("alloc " + std::to_string(bytes)))
    return r;
  if (bytes > fake.freeBytes)
    return kOutOfMemory;
  *p = fake.nextAddress;
  fake.nextAddress += 0x10000;
  return 0;
}
sdk::GpuResult fakeMemInfo(size_t *free, size_t *total) {
  *free = fake.freeBytes;
  *total = fake.totalBytes;
  return 0;
}
sdk::GpuResult fakeFree(sdk::GpuPtr p) { return record("free " + hexOf(p)); }
sdk::GpuResult fakeHtoD(sdk::GpuPtr dst, const void *src, size_t n, sdk::GpuHandle s) {
  return record("htod " + hexOf(dst) + " " + ptrOf(src) + " " + std::to_string(n) + " " + ptrOf(s));
}
sdk::GpuResult fakeDtoH(void *dst, sdk::GpuPtr src, size_t n, sdk::GpuHandle s) {
  return record("dtoh " + ptrOf(dst) + " " + hexOf(src) + " " + std::to_string(n) + " " + ptrOf(s));
}
sdk::GpuResult fakeDtoD(sdk::GpuPtr dst, sdk::GpuPtr src, size_t n, sdk::GpuHandle s) {
  return record("dtod " + hexOf(dst) + " " + hexOf(src) + " " + std::to_string(n) + " " + ptrOf(s));
}
sdk::GpuResult fakeFill8(sdk::GpuPtr d, unsigned char v, size_t n, sdk::GpuHandle) {
  return record("fill8 " + hexOf(d) + " " + hexOf(v) + " " + std::to_string(n));
}
sdk::GpuResult fakeFill16(sdk::GpuPtr d, unsigned short v, size_t n, sdk::GpuHandle) {
  return record("fill16 " + hexOf(d) + " " + hexOf(v) + " " + std::to_string(n));
}
sdk::GpuResult fakeFill32(sdk::GpuPtr d, unsigned v, size_t n, sdk::GpuHandle) {
  return record("fill32 " + hexOf(d) + " " + hexOf(v) + " " + std::to_string(n));
}
sdk::GpuResult fakeStreamCreate(sdk::GpuHandle *s, unsigned flags) {
  *s = handle(0x5000);
  return record("stream " + std::to_string(flags));
}
sdk::GpuResult fakeStreamDestroy(sdk::GpuHandle s) { return record("stream-destroy " + ptrOf(s)); }
sdk::GpuResult fakeStreamSync(sdk::GpuHandle s) { return record("stream-sync " + ptrOf(s)); }
sdk::GpuResult fakeWait(sdk::GpuHandle s, sdk::GpuHandle e, unsigned flags) {
  return record("wait " + ptrOf(s) + " " + ptrOf(e) + " " + std::to_string(flags));
}
sdk::GpuResult fakeEventCreate(sdk::GpuHandle *e) {
  *e = handle(0xe000 + fake.calls.size());
  return record("event");
}
sdk::GpuResult fakeEventDestroy(sdk::GpuHandle e) { return record("event-destroy " + ptrOf(e)); }
sdk::GpuResult fakeRecord(sdk::GpuHandle e, sdk::GpuHandle s) {
  return record("record " + ptrOf(e) + " " + ptrOf(s));
}
sdk::GpuResult fakeEventSync(sdk::GpuHandle e) { return record("event-sync " + ptrOf(e)); }
sdk::GpuResult fakeElapsed(float *ms, sdk::GpuHandle a, sdk::GpuHandle b) {
  *ms = 1.5f;
  return record("elapsed " + ptrOf(a) + " " + ptrOf(b));
}
sdk::GpuResult fakeCanAccess(int *can, int device, int peer) {
  *can = fake.canAccess;
  return record("can-access " + std::to_string(device) + " " + std::to_string(peer));
}
sdk::GpuResult fakeEnable(sdk::GpuDevice &device, sdk::GpuDevice &peer) {
  record("enable " + std::to_string(device.native) + " " + std::to_string(peer.native));
  return fake.enableResult;
}
sdk::GpuResult fakeCopyPeer(sdk::GpuPtr dst, sdk::GpuDevice &dd, sdk::GpuPtr src, sdk::GpuDevice &sd,
                            size_t n, sdk::GpuHandle s) {
  return record("peer " + hexOf(dst) + " " + std::to_string(dd.native) + " " + hexOf(src) + " " +
                std::to_string(sd.native) + " " + std::to_string(n) + " " + ptrOf(s));
}

sdk::GpuCalls makeCalls(bool memInfo) {
  sdk::GpuCalls c;
  c.synchronize = {"fakeSync", fakeSync};
  c.alloc = {"fakeMalloc", fakeAlloc};
  if (memInfo)
    c.memInfo = {"fakeMemInfo", fakeMemInfo};
  c.free = {"fakeFree", fakeFree};
  c.copyHtoD = {"fakeCopyHtoD", fakeHtoD};
  c.copyDtoH = {"fakeCopyDtoH", fakeDtoH};
  c.copyDtoD = {"fakeCopyDtoD", fakeDtoD};
  c.fill8 = {"fakeFill8", fakeFill8};
  c.fill16 = {"fakeFill16", fakeFill16};
  c.fill32 = {"fakeFill32", fakeFill32};
  c.streamCreate = {"fakeStreamCreate", fakeStreamCreate};
  c.streamDestroy = {"fakeStreamDestroy", fakeStreamDestroy};
  c.streamSynchronize = {"fakeStreamSynchronize", fakeStreamSync};
  c.streamWaitEvent = {"fakeStreamWaitEvent", fakeWait};
  c.eventCreate = {"fakeEventCreate", fakeEventCreate};
  c.eventDestroy = {"fakeEventDestroy", fakeEventDestroy};
  c.eventRecord = {"fakeEventRecord", fakeRecord};
  c.eventSynchronize = {"fakeEventSynchronize", fakeEventSync};
  c.eventElapsed = {"fakeEventElapsed", fakeElapsed};
  c.canAccessPeer = {"fakeCanAccessPeer", fakeCanAccess};
  c.enablePeer = {"fakeEnablePeer", fakeEnable};
  c.copyPeer = {"fakeCopyPeer", fakeCopyPeer};
  return c;
}
const sdk::GpuCalls withMemInfo = makeCalls(true), withoutMemInfo = makeCalls(false);

sdk::GpuDriver makeDriver(const sdk::GpuCalls &calls) {
  sdk::GpuDriver d;
  d.api = "FAKE";
  d.plugin = "fake";
  d.library = "runtime";
  d.outOfMemory = kOutOfMemory;
  d.peerAlreadyEnabled = kAlreadyEnabled;
  d.streamFlags = 1;
  d.describe = [](sdk::GpuResult r) { return "FAKE_ERROR_" + std::to_string(r); };
  d.kernelFault = [](sdk::GpuResult r) { return r == kKernelFault; };
  d.makeCurrent = [](sdk::GpuDevice &dev) -> trident_status {
    if (fake.currentStatus != TRIDENT_SUCCESS)
      return sdk::fail(fake.currentStatus, "cannot make it current");
    fake.current = dev.native;
    return TRIDENT_SUCCESS;
  };
  d.open = [](sdk::GpuDevice &, bool first) -> trident_status {
    ++fake.opens;
    fake.firstOpens += first;
    return TRIDENT_SUCCESS;
  };
  d.close = [](sdk::GpuDevice &) { ++fake.closes; };
  d.calls = &calls;
  return d;
}
const sdk::GpuDriver driver = makeDriver(withMemInfo), driverWithoutMemInfo = makeDriver(withoutMemInfo);

struct FakeDevice : sdk::GpuDevice {};

// A context of `devices` fake devices (natives 10, 11, ...) and the table over it.
struct Plugin {
  trident_plugin_api api{};
  trident_context ctx = nullptr;
  Plugin(const sdk::GpuDriver &d, uint32_t devices, bool peerAccess) {
    fake = Fake{};
    api.struct_size = sizeof api;
    sdk::fillGpuDriverApi(api, peerAccess);
    auto *c = new sdk::GpuContext(d);
    c->reason = "no fake devices";
    for (uint32_t i = 0; i < devices; ++i) {
      auto dev = std::make_unique<FakeDevice>();
      dev->context = c;
      dev->ordinal = i;
      dev->native = 10 + int(i);
      c->devices.push_back(std::move(dev));
    }
    ctx = sdk::toHandle(c);
  }
  ~Plugin() { api.shutdown(ctx); }
  trident_device open(uint32_t ordinal) {
    trident_device d = nullptr;
    REQUIRE(api.device_open(ctx, ordinal, &d) == TRIDENT_SUCCESS);
    return d;
  }
  trident_stream stream(trident_device d) {
    trident_stream s = nullptr;
    REQUIRE(api.stream_create(d, &s) == TRIDENT_SUCCESS);
    return s;
  }
  std::string last() const { return fake.calls.empty() ? "" : fake.calls.back(); }
};

std::string error() { return sdk::lastError(); }

} // namespace

TEST_CASE("GpuDriver: devices are found, opened once for the driver, and closed at the last close") {
  Plugin p(driver, 2, true);
  uint32_t count = 0;
  const char *reason = nullptr;
  REQUIRE(p.api.device_count(p.ctx, &count, &reason) == TRIDENT_SUCCESS);
  CHECK(count == 2);
  CHECK(std::string(reason).empty());
  trident_device d = nullptr;
  CHECK(p.api.device_open(p.ctx, 2, &d) == TRIDENT_ERROR_NOT_FOUND);
  CHECK(error() == "no FAKE device 2");
  trident_device a = p.open(1), b = p.open(1);
  CHECK(a == b);
  CHECK(fake.opens == 2);
  CHECK(fake.firstOpens == 1);
  CHECK(p.api.device_close(a) == TRIDENT_SUCCESS);
  CHECK(fake.closes == 0);
  CHECK(p.api.device_close(a) == TRIDENT_SUCCESS);
  CHECK(fake.closes == 1);
  CHECK(p.api.device_close(a) == TRIDENT_ERROR_INVALID_ARGUMENT);
  CHECK(error() == "FAKE device 1 is not open");
  p.open(0); // still open at shutdown: the destructor's shutdown closes it
}

TEST_CASE("GpuDriver: a context without devices says why") {
  Plugin p(driver, 0, false);
  uint32_t count = 7;
  const char *reason = nullptr;
  REQUIRE(p.api.device_count(p.ctx, &count, &reason) == TRIDENT_SUCCESS);
  CHECK(count == 0);
  CHECK(std::string(reason) == "no fake devices");
}

TEST_CASE("GpuDriver: shutdown closes a device left open, once") {
  {
    Plugin p(driver, 1, false);
    p.open(0);
    p.open(0);
  }
  CHECK(fake.closes == 1);
}

TEST_CASE("GpuDriver: allocations, and out of memory with the device, the size and what is free") {
  Plugin p(driver, 1, false);
  trident_device d = p.open(0);
  trident_devptr ptr = 0;
  REQUIRE(p.api.mem_alloc(d, 4096, &ptr) == TRIDENT_SUCCESS);
  CHECK(ptr == 0x10000);
  CHECK(fake.current == 10);
  CHECK(p.last() == "alloc 4096");
  REQUIRE(p.api.mem_alloc(d, 0, &ptr) == TRIDENT_SUCCESS); // zero bytes still get an address
  CHECK(p.last() == "alloc 1");
  trident_devptr untouched = 0x1234;
  CHECK(p.api.mem_alloc(d, size_t(3) << 20, &untouched) == TRIDENT_ERROR_OUT_OF_MEMORY);
  CHECK(error() == "out of memory: 3.0 MiB requested on fake:0, 1.0 MiB free of 1.0 MiB "
                   "(fakeMalloc: FAKE_ERROR_2)");
  CHECK(untouched == 0x1234);
  fake.inject = kInvalid;
  CHECK(p.api.mem_alloc(d, 16, &untouched) == TRIDENT_ERROR_DEVICE);
  CHECK(error() == "fakeMalloc of 16 bytes failed: FAKE_ERROR_1");
  fake.inject = kKernelFault; // a kernel fault surfacing at an allocation is a Launch error
  CHECK(p.api.mem_alloc(d, 16, &untouched) == TRIDENT_ERROR_LAUNCH);
  CHECK(error().starts_with("fakeMalloc of 16 bytes failed: FAKE_ERROR_700 (a kernel failed while running"));
  CHECK(untouched == 0x1234);
  CHECK(p.api.mem_free(d, 0x10000) == TRIDENT_SUCCESS);
  CHECK(p.last() == "free 0x10000");
}

TEST_CASE("GpuDriver: out of memory where the driver does not say what is free") {
  Plugin p(driverWithoutMemInfo, 1, false);
  trident_device d = p.open(0);
  trident_devptr ptr = 0;
  CHECK(p.api.mem_alloc(d, size_t(5) << 30, &ptr) == TRIDENT_ERROR_OUT_OF_MEMORY);
  CHECK(error() == "out of memory: 5.0 GiB requested on fake:0, the runtime does not say how much is free "
                   "(fakeMalloc: FAKE_ERROR_2)");
}

TEST_CASE("GpuDriver: copies and fills pass their arguments and the stream to the driver") {
  Plugin p(driver, 1, false);
  trident_device d = p.open(0);
  trident_stream s = p.stream(d);
  CHECK(p.last() == "stream 1"); // the driver's stream flags
  char host[16] = {};
  REQUIRE(p.api.memcpy_htod(s, 0x20000, host, 16) == TRIDENT_SUCCESS);
  CHECK(p.last() == "htod 0x20000 " + ptrOf(host) + " 16 0x5000");
  REQUIRE(p.api.memcpy_dtoh(s, host, 0x20008, 8) == TRIDENT_SUCCESS);
  CHECK(p.last() == "dtoh " + ptrOf(host) + " 0x20008 8 0x5000");
  REQUIRE(p.api.memcpy_dtod(s, 0x30000, 0x20000, 12) == TRIDENT_SUCCESS);
  CHECK(p.last() == "dtod 0x30000 0x20000 12 0x5000");
  REQUIRE(p.api.mem_fill(s, 0x30000, 0x1ab, 1, 5) == TRIDENT_SUCCESS);
  CHECK(p.last() == "fill8 0x30000 0xab 5");
  REQUIRE(p.api.mem_fill(s, 0x30000, 0x1abcd, 2, 6) == TRIDENT_SUCCESS);
  CHECK(p.last() == "fill16 0x30000 0xabcd 6");
  REQUIRE(p.api.mem_fill(s, 0x30000, 0x3f800000, 4, 7) == TRIDENT_SUCCESS);
  CHECK(p.last() == "fill32 0x30000 0x3f800000 7");
  size_t made = fake.calls.size();
  CHECK(p.api.mem_fill(s, 0x30000, 0, 3, 1) == TRIDENT_ERROR_INVALID_ARGUMENT);
  CHECK(error() == "mem_fill pattern size must be 1, 2 or 4, got 3");
  CHECK(fake.calls.size() == made);
  p.api.stream_destroy(s);
}

TEST_CASE("GpuDriver: driver results become statuses with the call's name") {
  Plugin p(driver, 1, false);
  trident_device d = p.open(0);
  trident_stream s = p.stream(d);
  char host[4] = {};
  fake.inject = kInvalid;
  CHECK(p.api.memcpy_htod(s, 0x20000, host, 4) == TRIDENT_ERROR_DEVICE);
  CHECK(error() == "fakeCopyHtoD failed: FAKE_ERROR_1");
  fake.inject = kKernelFault;
  CHECK(p.api.stream_synchronize(s) == TRIDENT_ERROR_LAUNCH);
  CHECK(error() ==
        "fakeStreamSynchronize failed: FAKE_ERROR_700 (a kernel failed while running; the driver keeps "
        "this error, so every later use of the device in this process fails: restart the process to use "
        "it again)");
  fake.inject = kKernelFault;
  CHECK(p.api.device_synchronize(d) == TRIDENT_ERROR_LAUNCH);
  CHECK(error().starts_with("fakeSync failed: FAKE_ERROR_700"));
  fake.inject = 3;
  CHECK(p.api.mem_fill(s, 0x20000, 1, 4, 1) == TRIDENT_ERROR_DEVICE);
  CHECK(error() == "fakeFill32 failed: FAKE_ERROR_3");
  // When the device cannot be made current, the driver is not called.
  fake.currentStatus = TRIDENT_ERROR_INVALID_ARGUMENT;
  size_t made = fake.calls.size();
  CHECK(p.api.memcpy_dtoh(s, host, 0x20000, 4) == TRIDENT_ERROR_INVALID_ARGUMENT);
  CHECK(error() == "cannot make it current");
  trident_devptr ptr = 0;
  CHECK(p.api.mem_alloc(d, 4, &ptr) == TRIDENT_ERROR_INVALID_ARGUMENT);
  CHECK(fake.calls.size() == made);
  fake.currentStatus = TRIDENT_SUCCESS;
  p.api.stream_destroy(s);
}

TEST_CASE("GpuDriver: streams, events and imports") {
  Plugin p(driver, 1, false);
  trident_device d = p.open(0);
  trident_stream s = p.stream(d);
  trident_event a = nullptr, b = nullptr;
  REQUIRE(p.api.event_create(d, &a) == TRIDENT_SUCCESS);
  REQUIRE(p.api.event_create(d, &b) == TRIDENT_SUCCESS);
  void *nativeA = sdk::gpuEvent(a).native, *nativeB = sdk::gpuEvent(b).native;
  CHECK(nativeA != nativeB);
  REQUIRE(p.api.event_record(a, s) == TRIDENT_SUCCESS);
  CHECK(p.last() == "record " + ptrOf(nativeA) + " 0x5000");
  REQUIRE(p.api.stream_wait_event(s, b) == TRIDENT_SUCCESS);
  CHECK(p.last() == "wait 0x5000 " + ptrOf(nativeB) + " 0");
  REQUIRE(p.api.event_synchronize(b) == TRIDENT_SUCCESS);
  CHECK(p.last() == "event-sync " + ptrOf(nativeB));
  float ms = 0;
  REQUIRE(p.api.event_elapsed_ms(a, b, &ms) == TRIDENT_SUCCESS);
  CHECK(ms == 1.5f);
  CHECK(p.last() == "elapsed " + ptrOf(nativeA) + " " + ptrOf(nativeB));
  fake.inject = kInvalid; // a failing destroy still frees the event
  CHECK(p.api.event_destroy(a) == TRIDENT_ERROR_DEVICE);
  CHECK(error() == "fakeEventDestroy failed: FAKE_ERROR_1");
  CHECK(p.api.event_destroy(b) == TRIDENT_SUCCESS);
  CHECK(p.api.stream_destroy(s) == TRIDENT_SUCCESS);
  CHECK(p.last() == "stream-destroy 0x5000");
  // An imported stream is the caller's: destroying it leaves the driver's stream alone.
  trident_stream imported = nullptr;
  REQUIRE(p.api.stream_import(d, handle(0x7000), &imported) == TRIDENT_SUCCESS);
  REQUIRE(p.api.stream_synchronize(imported) == TRIDENT_SUCCESS);
  CHECK(p.last() == "stream-sync 0x7000");
  CHECK(p.api.stream_destroy(imported) == TRIDENT_SUCCESS);
  CHECK(p.last() == "stream-sync 0x7000");
  // Imported memory: freeing it only forgets it, once per import.
  trident_devptr mem = 0;
  REQUIRE(p.api.mem_import(d, 0x90000, 64, &mem) == TRIDENT_SUCCESS);
  CHECK(mem == 0x90000);
  size_t made = fake.calls.size();
  CHECK(p.api.mem_free(d, mem) == TRIDENT_SUCCESS);
  CHECK(fake.calls.size() == made);
  CHECK(p.api.mem_free(d, mem) == TRIDENT_SUCCESS);
  CHECK(p.last() == "free 0x90000");
}

TEST_CASE("GpuDriver: peer access is asked once per pair, enabled, and forgotten at the last close") {
  Plugin p(driver, 2, true);
  REQUIRE(bool(p.api.device_peer_access));
  trident_device d0 = p.open(0), d1 = p.open(1);
  uint32_t direct = 7;
  fake.enableResult = kAlreadyEnabled; // not an error
  REQUIRE(p.api.device_peer_access(d0, d1, &direct) == TRIDENT_SUCCESS);
  CHECK(direct == 1);
  REQUIRE(fake.calls.size() == 2);
  CHECK(fake.calls[0] == "can-access 10 11");
  CHECK(fake.calls[1] == "enable 10 11");
  trident_stream s = p.stream(d0);
  REQUIRE(p.api.memcpy_peer(s, 0x1000, d1, 0x2000, 64) == TRIDENT_SUCCESS);
  CHECK(p.last() == "peer 0x1000 10 0x2000 11 64 0x5000");
  CHECK(fake.calls.size() == 4); // the pair's answer was remembered
  fake.enableResult = kInvalid;
  fake.canAccess = 1;
  CHECK(p.api.device_peer_access(d1, d0, &direct) == TRIDENT_ERROR_DEVICE);
  CHECK(error() == "fakeEnablePeer failed: FAKE_ERROR_1");
  // Closing a device forgets its pairs; a device that is not open has none.
  p.api.device_close(d1);
  CHECK(p.api.device_peer_access(d0, d1, &direct) == TRIDENT_ERROR_INVALID_ARGUMENT);
  CHECK(error() == "peer access between FAKE devices 1 and 0 needs both open");
  d1 = p.open(1);
  fake.canAccess = 0;
  fake.calls.clear();
  REQUIRE(p.api.device_peer_access(d0, d1, &direct) == TRIDENT_SUCCESS);
  CHECK(direct == 0);
  CHECK(fake.calls == std::vector<std::string>{"can-access 10 11"});
  CHECK(p.api.memcpy_peer(s, 0x1000, d1, 0x2000, 64) == TRIDENT_ERROR_NOT_SUPPORTED);
  CHECK(error() == "FAKE device 0 has no peer access to device 1");
  CHECK(fake.calls.size() == 1);
  p.api.stream_destroy(s);
}

TEST_CASE("GpuDriver: without peer access decided by the plugin, peer copies go to the driver directly") {
  Plugin p(driver, 2, false);
  CHECK(!p.api.device_peer_access);
  trident_device d0 = p.open(0), d1 = p.open(1);
  trident_stream s = p.stream(d1);
  REQUIRE(p.api.memcpy_peer(s, 0x1000, d0, 0x2000, 32) == TRIDENT_SUCCESS);
  CHECK(p.last() == "peer 0x1000 11 0x2000 10 32 0x5000");
  CHECK(fake.current == 11);
  fake.inject = kKernelFault;
  CHECK(p.api.memcpy_peer(s, 0x1000, d0, 0x2000, 32) == TRIDENT_ERROR_LAUNCH);
  CHECK(error().starts_with("fakeCopyPeer failed: FAKE_ERROR_700"));
  p.api.stream_destroy(s);
}
