/* A stub plugin, in plain C, built once per failure case the loader must
 * survive (see CMakeLists.txt). Each build defines one STUB_* macro:
 *   STUB_BAD_MAJOR   answers with another ABI major version
 *   STUB_NO_ENTRY    exports no trident_plugin_entry
 *   STUB_INIT_FAILS  init() fails with a message
 *   STUB_NO_DEVICES  init() works, zero devices with a reason
 *   STUB_OLD_TABLE   an older minor version: a shorter function table (no
 *                    interop or peer copies); the entries past its size point
 *                    at a function that aborts, so reading them is caught
 *   STUB_RECORDER    a working one-device plugin with host memory whose "kernels"
 *                    record their launch: the grid and the packed arguments are
 *                    written to the memory the first argument points at, so tests
 *                    can check the launch ABI as the runtime packs it
 * Fault injection (tests/runtime/fault_injection_test.cpp):
 *   STUB_NULL_INFO     the entry point returns NULL
 *   STUB_SHORT_TABLE   a table so short that it lacks the required device_count
 *   STUB_CALLS_FAIL    two devices; device 1 cannot be opened, and on device 0
 *                      every call past opening fails. Before failing, each call
 *                      writes a bogus handle into its output, which the runtime
 *                      must neither use nor release
 *   STUB_ALLOC_FAILS   every allocation is out of memory
 *   STUB_LAUNCH_FAILS  a recorder whose launches fail as a kernel fault would
 * Every variant tracks the handles it gives out: stub_counts() (exported for the
 * tests, which find it with dlopen(RTLD_NOLOAD)) says how many are still live,
 * how many releases named a handle it never gave (or gave and took back) and
 * how often shutdown ran. */
#include "trident/plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef STUB_NAME
#define STUB_NAME "stub"
#endif

#ifdef STUB_LAUNCH_FAILS
#define STUB_RECORDER
#endif

static const char *message = "";

static const char *last_error(void) { return message; }

static trident_status fail(trident_status s, const char *m) {
  message = m;
  return s;
}

/* The handles given out and not yet released (single-threaded tests). */
#define STUB_MAX_LIVE 1024
static void *live[STUB_MAX_LIVE];
static int live_count, bad_releases, shutdowns;

static void *track(void *p) {
  if (p && live_count < STUB_MAX_LIVE)
    live[live_count++] = p;
  return p;
}

/* 1 when `p` was live (now released); else counts a bad release. */
static int untrack(void *p) {
  for (int i = 0; i < live_count; ++i)
    if (live[i] == p) {
      live[i] = live[--live_count];
      return 1;
    }
  ++bad_releases;
  fprintf(stderr, "stub plugin %s: release of a handle it never gave out: %p\n", STUB_NAME, p);
  return 0;
}

static void *new_handle(void) { return track(malloc(16)); }

static void release_handle(void *p) {
  if (untrack(p))
    free(p);
}

TRIDENT_PLUGIN_EXPORT void stub_counts(int *live_handles, int *bad, int *shutdown_calls) {
  *live_handles = live_count;
  *bad = bad_releases;
  *shutdown_calls = shutdowns;
}

/* What a careless plugin leaves in an output when it fails. */
#define BOGUS ((uintptr_t)0xbad0bad0u)
#ifdef STUB_CALLS_FAIL
static const char lost[] = "stub: the pretend device was lost (every call fails)";
#define FAIL_WITH_OUTPUT(out) \
  do { \
    *(out) = (void *)BOGUS; \
    return fail(TRIDENT_ERROR_DEVICE, lost); \
  } while (0)
#define CALLS_FAIL_HERE() return fail(TRIDENT_ERROR_DEVICE, lost)
#else
#define CALLS_FAIL_HERE() (void)0
#endif

static trident_status init(const trident_init_params *params, trident_context *out) {
  (void)params;
#ifdef STUB_INIT_FAILS
  (void)out;
  return fail(TRIDENT_ERROR_UNAVAILABLE, "stub: the pretend driver libstubdriver.so.1 is not installed");
#else
  static int context_storage;
  *out = (trident_context)&context_storage;
  return TRIDENT_SUCCESS;
#endif
}

static trident_status shutdown(trident_context ctx) {
  (void)ctx;
  ++shutdowns;
  return TRIDENT_SUCCESS;
}

static trident_status device_count(trident_context ctx, uint32_t *count, const char **reason) {
  (void)ctx;
#ifdef STUB_NO_DEVICES
  *count = 0;
  if (reason)
    *reason = "stub: the pretend driver found no hardware";
#elif defined(STUB_CALLS_FAIL)
  *count = 2;
  if (reason)
    *reason = NULL;
#else
  *count = 1;
  if (reason)
    *reason = NULL;
#endif
  return TRIDENT_SUCCESS;
}

static trident_status device_props(trident_context ctx, uint32_t ordinal, trident_device_props *props) {
  (void)ctx;
#ifdef STUB_CALLS_FAIL
  if (ordinal > 1)
#else
  if (ordinal != 0)
#endif
    return fail(TRIDENT_ERROR_NOT_FOUND, "stub: no such device");
  trident_device_props p;
  memset(&p, 0, sizeof p);
  p.struct_size = sizeof p;
  p.flags = TRIDENT_DEVICE_HOST_MEMORY;
  snprintf(p.name, sizeof p.name, "Stub device (%s)", STUB_NAME);
  snprintf(p.target, sizeof p.target, "stub");
  memcpy(p.uuid, "stub-uuid-000001", 16);
  p.uuid[15] = (uint8_t)('1' + ordinal);
  p.warp_size = 1;
  p.multiprocessor_count = 1;
  p.max_threads_per_program = 1;
  p.max_grid[0] = p.max_grid[1] = p.max_grid[2] = 1024;
  p.global_memory = 1u << 20;
  size_t n = props->struct_size < sizeof p ? props->struct_size : sizeof p;
  memcpy(props, &p, n);
  props->struct_size = (uint32_t)n;
  return TRIDENT_SUCCESS;
}

static trident_status device_open(trident_context ctx, uint32_t ordinal, trident_device *out) {
  (void)ctx;
#ifdef STUB_CALLS_FAIL
  if (ordinal == 1) {
    *out = (trident_device)BOGUS;
    return fail(TRIDENT_ERROR_DEVICE, "stub: device 1 cannot be opened (a pretend driver fault)");
  }
#else
  (void)ordinal;
#endif
  *out = (trident_device)new_handle();
  return TRIDENT_SUCCESS;
}

static trident_status device_close(trident_device d) {
  release_handle(d);
  return TRIDENT_SUCCESS;
}

static trident_status no_op_device(trident_device d) {
  (void)d;
#ifdef STUB_CALLS_FAIL
  return fail(TRIDENT_ERROR_DEVICE, lost);
#else
  return TRIDENT_SUCCESS;
#endif
}

static trident_status mem_alloc(trident_device d, size_t bytes, trident_devptr *out) {
  (void)d;
#ifdef STUB_CALLS_FAIL
  (void)bytes;
  *out = BOGUS;
  return fail(TRIDENT_ERROR_DEVICE, lost);
#elif defined(STUB_ALLOC_FAILS)
  static char oom[160];
  snprintf(oom, sizeof oom, "out of memory: %zu bytes requested on Stub device (%s), 0 bytes free", bytes, STUB_NAME);
  *out = BOGUS;
  return fail(TRIDENT_ERROR_OUT_OF_MEMORY, oom);
#else
  void *p = track(malloc(bytes ? bytes : 1));
  if (!p)
    return fail(TRIDENT_ERROR_OUT_OF_MEMORY, "stub: out of memory");
  *out = (trident_devptr)(uintptr_t)p;
  return TRIDENT_SUCCESS;
#endif
}

static trident_status mem_free(trident_device d, trident_devptr ptr) {
  (void)d;
  release_handle((void *)(uintptr_t)ptr);
  return TRIDENT_SUCCESS;
}

static trident_status htod(trident_stream s, trident_devptr dst, const void *src, size_t bytes) {
  (void)s;
  CALLS_FAIL_HERE();
  memcpy((void *)(uintptr_t)dst, src, bytes);
  return TRIDENT_SUCCESS;
}

static trident_status dtoh(trident_stream s, void *dst, trident_devptr src, size_t bytes) {
  (void)s;
  CALLS_FAIL_HERE();
  memcpy(dst, (const void *)(uintptr_t)src, bytes);
  return TRIDENT_SUCCESS;
}

static trident_status dtod(trident_stream s, trident_devptr dst, trident_devptr src, size_t bytes) {
  (void)s;
  CALLS_FAIL_HERE();
  memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
  return TRIDENT_SUCCESS;
}

static trident_status fill(trident_stream s, trident_devptr dst, uint32_t pattern, uint32_t size, size_t count) {
  (void)s;
  CALLS_FAIL_HERE();
  for (size_t i = 0; i < count; ++i)
    memcpy((char *)(uintptr_t)dst + i * size, &pattern, size);
  return TRIDENT_SUCCESS;
}

static trident_status stream_create(trident_device d, trident_stream *out) {
  (void)d;
#ifdef STUB_CALLS_FAIL
  FAIL_WITH_OUTPUT(out);
#endif
  *out = (trident_stream)new_handle();
  return TRIDENT_SUCCESS;
}

static trident_status stream_destroy(trident_stream s) {
  release_handle(s);
  return TRIDENT_SUCCESS;
}

static trident_status no_op_stream(trident_stream s) {
  (void)s;
  CALLS_FAIL_HERE();
  return TRIDENT_SUCCESS;
}

#ifdef STUB_CALLS_FAIL
static trident_status event_create(trident_device d, trident_event *out) {
  (void)d;
  FAIL_WITH_OUTPUT(out);
}

static trident_status event_destroy(trident_event e) {
  release_handle(e);
  return TRIDENT_SUCCESS;
}
#endif

#if defined(STUB_RECORDER) || defined(STUB_CALLS_FAIL)
static const char recorder_binary[] = "stub-recorder-binary";
static int kernel_storage;

static trident_status compile(trident_context ctx, const char *target, const char *ir, size_t size,
                              const char *kernel, const trident_compile_options *options, trident_binary *out) {
  (void)ctx; (void)target; (void)ir; (void)size; (void)kernel;
  if (options && options->emit && strcmp(options->emit, "binary") != 0)
    return fail(TRIDENT_ERROR_NOT_SUPPORTED, "stub: emits only binaries");
  out->data = recorder_binary;
  out->size = sizeof recorder_binary;
  out->metadata.threads_per_program = 32;
  out->metadata.shared_memory = 0;
  out->plugin_data = NULL;
  return TRIDENT_SUCCESS;
}

static trident_status binary_release(trident_context ctx, trident_binary *b) {
  (void)ctx;
  (void)b;
  return TRIDENT_SUCCESS;
}

static trident_status module_load(trident_device d, const void *binary, size_t size, trident_module *out) {
  (void)d;
#ifdef STUB_CALLS_FAIL
  FAIL_WITH_OUTPUT(out);
#endif
  if (size != sizeof recorder_binary || memcmp(binary, recorder_binary, size) != 0)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "stub: not a stub binary");
  *out = (trident_module)new_handle();
  return TRIDENT_SUCCESS;
}

static trident_status module_unload(trident_module m) {
  release_handle(m);
  return TRIDENT_SUCCESS;
}

static trident_status module_get_kernel(trident_module m, const char *name, trident_kernel *out) {
  (void)m;
  (void)name;
  *out = (trident_kernel)&kernel_storage;
  return TRIDENT_SUCCESS;
}

/* Record: u32 version, grid[3], dynamic shared memory, num_args, then the args. */
static trident_status launch(trident_stream s, trident_kernel k, const trident_launch_params *p) {
  (void)s;
  (void)k;
  CALLS_FAIL_HERE();
#ifdef STUB_LAUNCH_FAILS
  (void)p;
  return fail(TRIDENT_ERROR_LAUNCH, "stub: kernel fault: a pretend device assert in program (2, 0, 0)");
#endif
  if (p->num_args == 0 || p->args[0].type != TRIDENT_ARG_POINTER)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "stub: the first argument must be a pointer to record into");
  uint32_t *rec = (uint32_t *)(uintptr_t)p->args[0].bits;
  rec[0] = p->version;
  rec[1] = p->grid[0];
  rec[2] = p->grid[1];
  rec[3] = p->grid[2];
  rec[4] = p->dynamic_shared_memory;
  rec[5] = p->num_args;
  memcpy(rec + 6, p->args, p->num_args * sizeof(trident_kernel_arg));
  return TRIDENT_SUCCESS;
}
#else
static trident_status compile(trident_context ctx, const char *target, const char *ir, size_t size,
                              const char *kernel, const trident_compile_options *options, trident_binary *out) {
  (void)ctx; (void)target; (void)ir; (void)size; (void)kernel; (void)options; (void)out;
  return fail(TRIDENT_ERROR_NOT_SUPPORTED, "stub: compiles nothing");
}
#endif

static trident_status supports_target(trident_context ctx, const char *target) {
  (void)ctx;
  return strcmp(target, "stub") == 0 ? TRIDENT_SUCCESS : TRIDENT_ERROR_NOT_SUPPORTED;
}

#ifdef STUB_OLD_TABLE
/* Past the old table's size: reached only if the runtime ignores struct_size. */
static trident_status must_not_be_called(void) {
  fprintf(stderr, "stub plugin: an entry beyond struct_size was called\n");
  abort();
}
#endif

static trident_plugin_api make_api(void) {
  trident_plugin_api a;
  memset(&a, 0, sizeof a);
  a.struct_size = sizeof a;
  a.last_error = last_error;
  a.init = init;
  a.shutdown = shutdown;
  a.device_count = device_count;
  a.device_props = device_props;
  a.device_open = device_open;
  a.device_close = device_close;
  a.device_synchronize = no_op_device;
  a.supports_target = supports_target;
  a.compile = compile;
  a.mem_alloc = mem_alloc;
  a.mem_free = mem_free;
  a.memcpy_htod = htod;
  a.memcpy_dtoh = dtoh;
  a.memcpy_dtod = dtod;
  a.mem_fill = fill;
  a.stream_create = stream_create;
  a.stream_destroy = stream_destroy;
  a.stream_synchronize = no_op_stream;
#ifdef STUB_CALLS_FAIL
  a.event_create = event_create;
  a.event_destroy = event_destroy;
#endif
#if defined(STUB_RECORDER) || defined(STUB_CALLS_FAIL)
  a.binary_release = binary_release;
  a.module_load = module_load;
  a.module_unload = module_unload;
  a.module_get_kernel = module_get_kernel;
  a.launch = launch;
#endif
#ifdef STUB_SHORT_TABLE
  a.struct_size = offsetof(trident_plugin_api, device_count);
#endif
#ifdef STUB_OLD_TABLE
  a.struct_size = offsetof(trident_plugin_api, stream_import);
  a.stream_import = (trident_status(*)(trident_device, void *, trident_stream *))(void (*)(void))must_not_be_called;
  a.mem_import = (trident_status(*)(trident_device, uint64_t, size_t, trident_devptr *))(void (*)(void))must_not_be_called;
  a.memcpy_peer = (trident_status(*)(trident_stream, trident_devptr, trident_device, trident_devptr, size_t))(
      void (*)(void))must_not_be_called;
#endif
  return a;
}

static trident_plugin_api api;
static trident_plugin_info info;

#ifdef STUB_NO_ENTRY
TRIDENT_PLUGIN_EXPORT const void *some_other_symbol(void) {
  api = make_api();
  info.api = &api;
  return &info;
}
#else
TRIDENT_PLUGIN_EXPORT const trident_plugin_info *trident_plugin_entry(uint32_t major, uint32_t minor) {
  (void)major;
  (void)minor;
  api = make_api();
  info.struct_size = sizeof info;
#ifdef STUB_BAD_MAJOR
  info.abi_major = TRIDENT_PLUGIN_ABI_MAJOR + 1;
#else
  info.abi_major = TRIDENT_PLUGIN_ABI_MAJOR;
#endif
  info.abi_minor = 0;
  info.name = STUB_NAME;
  info.version = "0.0.1";
  info.api = &api;
#ifdef STUB_NULL_INFO
  return NULL;
#else
  return &info;
#endif
}
#endif
