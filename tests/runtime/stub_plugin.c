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
 *                    can check the launch ABI as the runtime packs it */
#include "trident/plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef STUB_NAME
#define STUB_NAME "stub"
#endif

static const char *message = "";
static int context_storage;

static const char *last_error(void) { return message; }

static trident_status fail(trident_status s, const char *m) {
  message = m;
  return s;
}

static trident_status init(const trident_init_params *params, trident_context *out) {
  (void)params;
#ifdef STUB_INIT_FAILS
  (void)out;
  return fail(TRIDENT_ERROR_UNAVAILABLE, "stub: the pretend driver libstubdriver.so.1 is not installed");
#else
  *out = (trident_context)&context_storage;
  return TRIDENT_SUCCESS;
#endif
}

static trident_status shutdown(trident_context ctx) {
  (void)ctx;
  return TRIDENT_SUCCESS;
}

static trident_status device_count(trident_context ctx, uint32_t *count, const char **reason) {
  (void)ctx;
#ifdef STUB_NO_DEVICES
  *count = 0;
  if (reason)
    *reason = "stub: the pretend driver found no hardware";
#else
  *count = 1;
  if (reason)
    *reason = NULL;
#endif
  return TRIDENT_SUCCESS;
}

static trident_status device_props(trident_context ctx, uint32_t ordinal, trident_device_props *props) {
  (void)ctx;
  if (ordinal != 0)
    return fail(TRIDENT_ERROR_NOT_FOUND, "stub: no such device");
  trident_device_props p;
  memset(&p, 0, sizeof p);
  p.struct_size = sizeof p;
  p.flags = TRIDENT_DEVICE_HOST_MEMORY;
  snprintf(p.name, sizeof p.name, "Stub device (%s)", STUB_NAME);
  snprintf(p.target, sizeof p.target, "stub");
  memcpy(p.uuid, "stub-uuid-000001", 16);
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
  (void)ordinal;
  *out = (trident_device)&context_storage;
  return TRIDENT_SUCCESS;
}

static trident_status no_op_device(trident_device d) {
  (void)d;
  return TRIDENT_SUCCESS;
}

static trident_status mem_alloc(trident_device d, size_t bytes, trident_devptr *out) {
  (void)d;
  void *p = malloc(bytes ? bytes : 1);
  if (!p)
    return fail(TRIDENT_ERROR_OUT_OF_MEMORY, "stub: out of memory");
  *out = (trident_devptr)(uintptr_t)p;
  return TRIDENT_SUCCESS;
}

static trident_status mem_free(trident_device d, trident_devptr ptr) {
  (void)d;
  free((void *)(uintptr_t)ptr);
  return TRIDENT_SUCCESS;
}

static trident_status htod(trident_stream s, trident_devptr dst, const void *src, size_t bytes) {
  (void)s;
  memcpy((void *)(uintptr_t)dst, src, bytes);
  return TRIDENT_SUCCESS;
}

static trident_status dtoh(trident_stream s, void *dst, trident_devptr src, size_t bytes) {
  (void)s;
  memcpy(dst, (const void *)(uintptr_t)src, bytes);
  return TRIDENT_SUCCESS;
}

static trident_status dtod(trident_stream s, trident_devptr dst, trident_devptr src, size_t bytes) {
  (void)s;
  memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
  return TRIDENT_SUCCESS;
}

static trident_status fill(trident_stream s, trident_devptr dst, uint32_t pattern, uint32_t size, size_t count) {
  (void)s;
  for (size_t i = 0; i < count; ++i)
    memcpy((char *)(uintptr_t)dst + i * size, &pattern, size);
  return TRIDENT_SUCCESS;
}

static int stream_storage;
static trident_status stream_create(trident_device d, trident_stream *out) {
  (void)d;
  *out = (trident_stream)&stream_storage;
  return TRIDENT_SUCCESS;
}

static trident_status no_op_stream(trident_stream s) {
  (void)s;
  return TRIDENT_SUCCESS;
}

#ifdef STUB_RECORDER
static const char recorder_binary[] = "stub-recorder-binary";
static int module_storage, kernel_storage;

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
  if (size != sizeof recorder_binary || memcmp(binary, recorder_binary, size) != 0)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "stub: not a stub binary");
  *out = (trident_module)&module_storage;
  return TRIDENT_SUCCESS;
}

static trident_status module_unload(trident_module m) {
  (void)m;
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
  a.device_close = no_op_device;
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
  a.stream_destroy = no_op_stream;
  a.stream_synchronize = no_op_stream;
#ifdef STUB_RECORDER
  a.binary_release = binary_release;
  a.module_load = module_load;
  a.module_unload = module_unload;
  a.module_get_kernel = module_get_kernel;
  a.launch = launch;
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
  return &info;
}
#endif
