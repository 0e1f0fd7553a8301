// A stand-in for libamdhip64, for tests of the HIP plugin on machines without ROCm:
// one fake gfx942 device whose "device memory" is host memory (192 GiB of it, which
// hipMalloc counts: more than is left fails as out of memory). It checks what a real
// runtime would reject (a code object that is not an AMDGPU ELF for gfx942, a kernel
// without its descriptor) and records launches for the test to inspect through
// fakeHipLastLaunch. Kernels do not run.

#include "../../../../plugins/hip/HipDriver.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <elf.h>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using trident::hip::hipError_t;

namespace {

constexpr hipError_t kInvalidValue = 1, kInvalidImage = 200, kNoBinaryForGpu = 209, kNotFound = 500;

struct Function {
  std::string name;
};
struct Module {
  std::string image;
  std::vector<std::unique_ptr<Function>> functions; // freed with the module
};
struct Event {
  std::chrono::steady_clock::time_point when;
};

struct Launch {
  std::string kernel;
  unsigned grid[3] = {}, block[3] = {}, shared = 0;
  std::vector<uint64_t> args; // the first 8 bytes behind each argument pointer
};

std::mutex mutex;
Launch last;
int launches = 0;
size_t argCount = 0; // the runtime reads the count from the code object; the fake is told

constexpr size_t kDeviceMemory = size_t(192) << 30;
constexpr hipError_t kOutOfMemory = 2;
std::map<void *, size_t> allocations; // under `mutex`
size_t allocated = 0;

// The names of the code object's dynamic symbols; empty when it is not an AMDGPU
// ELF shared object for gfx942 (`error` says which).
std::vector<std::string> dynamicSymbols(const std::string &image, hipError_t &error) {
  error = kInvalidImage;
  if (image.size() < sizeof(Elf64_Ehdr) || std::memcmp(image.data(), ELFMAG, SELFMAG) != 0)
    return {};
  Elf64_Ehdr eh;
  std::memcpy(&eh, image.data(), sizeof eh);
  if (eh.e_machine != EM_AMDGPU || eh.e_type != ET_DYN)
    return {};
  if ((eh.e_flags & 0xff) != 0x4c) { // EF_AMDGPU_MACH_AMDGCN_GFX942
    error = kNoBinaryForGpu;
    return {};
  }
  std::vector<std::string> names;
  for (unsigned i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh;
    std::memcpy(&sh, image.data() + eh.e_shoff + i * sizeof sh, sizeof sh);
    if (sh.sh_type != SHT_DYNSYM)
      continue;
    Elf64_Shdr strtab;
    std::memcpy(&strtab, image.data() + eh.e_shoff + sh.sh_link * sizeof strtab, sizeof strtab);
    for (size_t off = 0; off + sizeof(Elf64_Sym) <= sh.sh_size; off += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      std::memcpy(&sym, image.data() + sh.sh_offset + off, sizeof sym);
      names.emplace_back(image.data() + strtab.sh_offset + sym.st_name);
    }
  }
  error = 0;
  return names;
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) hipError_t hipInit(unsigned) { return 0; }
__attribute__((visibility("default"))) hipError_t hipRuntimeGetVersion(int *v) {
  *v = 60000000;
  return 0;
}
__attribute__((visibility("default"))) const char *hipGetErrorName(hipError_t e) {
  return e == kNoBinaryForGpu ? "hipErrorNoBinaryForGpu"
         : e == kInvalidImage ? "hipErrorInvalidImage"
                              : "hipErrorFake";
}
__attribute__((visibility("default"))) const char *hipGetErrorString(hipError_t) {
  return "fake HIP runtime error";
}
__attribute__((visibility("default"))) hipError_t hipGetDeviceCount(int *n) {
  *n = 1;
  return 0;
}
__attribute__((visibility("default"))) hipError_t
hipGetDevicePropertiesR0600(trident::hip::DevicePropsR0600 *p, int d) {
  if (d != 0)
    return 101; // hipErrorInvalidDevice
  std::strcpy(p->name, "Fake AMD Instinct MI300X");
  std::strcpy(p->gcnArchName, "gfx942:sramecc+:xnack-");
  for (int i = 0; i < 16; ++i)
    p->uuid[i] = static_cast<uint8_t>(0xa0 + i);
  p->totalGlobalMem = kDeviceMemory;
  p->sharedMemPerBlock = 64 * 1024;
  p->warpSize = 64;
  p->maxThreadsPerBlock = 1024;
  p->maxGridSize[0] = 0x7fffffff;
  p->maxGridSize[1] = p->maxGridSize[2] = 65535;
  p->multiProcessorCount = 304;
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipSetDevice(int d) { return d == 0 ? 0 : 101; }
__attribute__((visibility("default"))) hipError_t hipDeviceSynchronize() { return 0; }
__attribute__((visibility("default"))) hipError_t hipMalloc(void **p, size_t n) {
  std::lock_guard lock(mutex);
  *p = nullptr;
  if (n > kDeviceMemory - allocated)
    return kOutOfMemory;
  *p = std::aligned_alloc(256, (n + 255) / 256 * 256);
  if (!*p)
    return kOutOfMemory;
  allocations[*p] = n;
  allocated += n;
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipFree(void *p) {
  std::lock_guard lock(mutex);
  auto it = allocations.find(p);
  if (it == allocations.end())
    return kInvalidValue;
  allocated -= it->second;
  allocations.erase(it);
  std::free(p);
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipMemGetInfo(size_t *free, size_t *total) {
  std::lock_guard lock(mutex);
  *free = kDeviceMemory - allocated;
  *total = kDeviceMemory;
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipMemcpyHtoDAsync(void *d, void *s, size_t n, void *) {
  std::memcpy(d, s, n);
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipMemcpyDtoHAsync(void *d, void *s, size_t n, void *) {
  std::memcpy(d, s, n);
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipMemcpyDtoDAsync(void *d, void *s, size_t n, void *) {
  std::memmove(d, s, n);
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipMemcpyPeerAsync(void *d, int, const void *s, int,
                                                                     size_t n, void *) {
  std::memmove(d, s, n);
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipMemsetD8Async(void *d, unsigned char v, size_t n,
                                                                   void *) {
  std::memset(d, v, n);
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipMemsetD16Async(void *d, unsigned short v, size_t n,
                                                                    void *) {
  for (size_t i = 0; i < n; ++i)
    std::memcpy(static_cast<char *>(d) + 2 * i, &v, 2);
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipMemsetD32Async(void *d, int v, size_t n, void *) {
  for (size_t i = 0; i < n; ++i)
    std::memcpy(static_cast<char *>(d) + 4 * i, &v, 4);
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipStreamCreateWithFlags(void **s, unsigned) {
  *s = new int(0);
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipStreamDestroy(void *s) {
  delete static_cast<int *>(s);
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipStreamSynchronize(void *) { return 0; }
__attribute__((visibility("default"))) hipError_t hipStreamWaitEvent(void *, void *, unsigned) { return 0; }
__attribute__((visibility("default"))) hipError_t hipEventCreate(Event **e) {
  *e = new Event;
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipEventDestroy(Event *e) {
  delete e;
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipEventRecord(Event *e, void *) {
  e->when = std::chrono::steady_clock::now();
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipEventSynchronize(Event *) { return 0; }
__attribute__((visibility("default"))) hipError_t hipEventElapsedTime(float *ms, Event *a, Event *b) {
  *ms = std::chrono::duration<float, std::milli>(b->when - a->when).count();
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipModuleLoadData(Module **m, const void *image) {
  // A code object carries its size in its ELF headers: the section headers end it.
  Elf64_Ehdr eh;
  std::memcpy(&eh, image, sizeof eh);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
    return kInvalidImage;
  size_t size = eh.e_shoff + size_t(eh.e_shnum) * eh.e_shentsize;
  auto *mod = new Module{std::string(static_cast<const char *>(image), size), {}};
  hipError_t error;
  dynamicSymbols(mod->image, error);
  if (error) {
    delete mod;
    return error;
  }
  *m = mod;
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipModuleUnload(Module *m) {
  delete m;
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipModuleGetFunction(Function **f, Module *m,
                                                                       const char *name) {
  hipError_t error;
  std::vector<std::string> names = dynamicSymbols(m->image, error);
  bool code = false, descriptor = false;
  for (const std::string &n : names) {
    code |= n == name;
    descriptor |= n == std::string(name) + ".kd";
  }
  if (!code || !descriptor)
    return kNotFound;
  m->functions.push_back(std::make_unique<Function>(Function{name}));
  *f = m->functions.back().get();
  return 0;
}
__attribute__((visibility("default"))) hipError_t hipModuleLaunchKernel(Function *f, unsigned gx, unsigned gy,
                                                                        unsigned gz, unsigned bx, unsigned by,
                                                                        unsigned bz, unsigned shared, void *,
                                                                        void **params, void **extra) {
  if (!f || extra)
    return kInvalidValue;
  std::lock_guard lock(mutex);
  last = Launch{f->name, {gx, gy, gz}, {bx, by, bz}, shared, {}};
  for (size_t i = 0; i < argCount; ++i) {
    uint64_t v;
    std::memcpy(&v, params[i], sizeof v);
    last.args.push_back(v);
  }
  ++launches;
  return 0;
}

// For the test: how many kernel arguments the next launches pass.
__attribute__((visibility("default"))) void fakeHipSetArgCount(size_t n) {
  std::lock_guard lock(mutex);
  argCount = n;
}

// For the test: the last launch (kernel name into `name`, which has `capacity` bytes).
__attribute__((visibility("default"))) int fakeHipLastLaunch(char *name, size_t capacity, unsigned *grid,
                                                             unsigned *block, unsigned *shared,
                                                             uint64_t *args, size_t *numArgs) {
  std::lock_guard lock(mutex);
  std::snprintf(name, capacity, "%s", last.kernel.c_str());
  for (int i = 0; i < 3; ++i) {
    grid[i] = last.grid[i];
    block[i] = last.block[i];
  }
  *shared = last.shared;
  size_t n = std::min(*numArgs, last.args.size());
  std::memcpy(args, last.args.data(), n * sizeof(uint64_t));
  *numArgs = last.args.size();
  return launches;
}

} // extern "C"
