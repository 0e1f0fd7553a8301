/* The Trident plugin ABI: the plain-C boundary between the runtime and a vendor
 * backend (host interpreter, CUDA, HIP, Vulkan). docs/plugin-abi.md is the
 * reference; this header is the contract.
 *
 * A plugin is a shared library that exports one symbol, trident_plugin_entry.
 * The runtime calls it with its own ABI version; the plugin answers with a
 * trident_plugin_info naming itself, its ABI version and its function table.
 *
 * Compatibility rules:
 *  - A different ABI major version is refused by the runtime.
 *  - Structs that cross the boundary start with `struct_size`; they only grow at
 *    their end within one major version. A reader uses a field only when the
 *    writer's struct_size covers it (TRIDENT_HAS_FIELD); an absent field reads as
 *    zero, an absent function as "not supported".
 *  - Every function returns a trident_status. After a failure, last_error() gives
 *    a message owned by the plugin, and the runtime ignores the call's outputs
 *    (it never uses nor releases what a failed call left in *out).
 *  - Plugins never link vendor libraries: they dlopen them in init().
 */
#ifndef TRIDENT_PLUGIN_H
#define TRIDENT_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#define TRIDENT_PLUGIN_ABI_MAJOR 1
#define TRIDENT_PLUGIN_ABI_MINOR 1
/* The layout of trident_launch_params and trident_kernel_arg. */
#define TRIDENT_LAUNCH_ABI_VERSION 1
#define TRIDENT_PLUGIN_ENTRY_SYMBOL "trident_plugin_entry"

#if defined(_WIN32)
#define TRIDENT_PLUGIN_EXPORT __declspec(dllexport)
#else
#define TRIDENT_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/* True when a struct written with `struct_size` bytes contains `field`. */
#define TRIDENT_HAS_FIELD(ptr, type, field)                                                        \
  ((ptr)->struct_size >= offsetof(type, field) + sizeof(((type *)0)->field))
/* True when a function table provides `fn` (covered by its size and not NULL). */
#define TRIDENT_HAS_FUNCTION(api, fn)                                                              \
  (TRIDENT_HAS_FIELD(api, trident_plugin_api, fn) && (api)->fn != NULL)

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status codes ------------------------------------------------------- */
typedef int32_t trident_status;
enum {
  TRIDENT_SUCCESS = 0,
  TRIDENT_ERROR_INVALID_ARGUMENT = 1, /* a bad handle, size, address or option */
  TRIDENT_ERROR_NOT_SUPPORTED = 2,    /* not implemented by this plugin or target */
  TRIDENT_ERROR_OUT_OF_MEMORY = 3,    /* device or host allocation failed */
  TRIDENT_ERROR_NOT_FOUND = 4,        /* kernel not in module, unknown target or ordinal */
  TRIDENT_ERROR_COMPILE = 5,          /* the backend rejected the kernel */
  TRIDENT_ERROR_LAUNCH = 6,           /* the kernel failed while running (bounds, assert) */
  TRIDENT_ERROR_DEVICE = 7,           /* the driver reported an error */
  TRIDENT_ERROR_UNAVAILABLE = 8,      /* driver missing or initialization failed */
  TRIDENT_ERROR_INTERNAL = 9          /* a bug in the plugin */
};

/* ---- handles (opaque, owned by the plugin) ------------------------------ */
typedef struct trident_context_s *trident_context; /* one per init() */
typedef struct trident_device_s *trident_device;   /* an opened device */
typedef struct trident_stream_s *trident_stream;   /* an in-order queue on one device */
typedef struct trident_event_s *trident_event;     /* a point in a stream */
typedef struct trident_module_s *trident_module;   /* a loaded binary */
typedef struct trident_kernel_s *trident_kernel;   /* valid while its module is loaded */
/* A device address exactly as a kernel sees it (64 bits on every target). */
typedef uint64_t trident_devptr;

/* ---- initialization ----------------------------------------------------- */
typedef struct trident_init_params {
  uint32_t struct_size;
  uint16_t runtime_abi_major;
  uint16_t runtime_abi_minor;
  const char *runtime_version; /* "0.1.0" */
} trident_init_params;

/* ---- devices ------------------------------------------------------------ */
enum {
  TRIDENT_DEVICE_IS_GPU = 1u << 0,      /* a GPU, preferred as default device */
  TRIDENT_DEVICE_HOST_MEMORY = 1u << 1  /* device addresses are host addresses */
};

typedef struct trident_device_props {
  uint32_t struct_size;              /* set by the caller; the plugin fills that much */
  uint32_t flags;                    /* TRIDENT_DEVICE_* bits */
  char name[256];                    /* "NVIDIA H200", NUL-terminated */
  char target[64];                   /* "host", "cuda:sm_90", "hip:gfx942", "vulkan:..." */
  uint8_t uuid[16];                  /* stable identity across processes and reorderings */
  uint32_t warp_size;                /* lanes per warp (subgroup); 1 on the host */
  uint32_t multiprocessor_count;     /* SMs, CUs, or cores */
  uint32_t max_threads_per_program;  /* largest program (thread block) */
  uint32_t max_grid[3];              /* largest grid per dimension */
  uint64_t shared_memory_per_program; /* bytes of shared memory a program may use */
  uint64_t global_memory;            /* bytes of device memory */
} trident_device_props;

/* ---- compilation -------------------------------------------------------- */
typedef struct trident_compile_options {
  uint32_t struct_size;
  uint32_t num_warps;  /* threads per program = num_warps * warp_size */
  uint32_t num_stages; /* software pipelining depth */
  uint32_t debug;      /* nonzero: keep device asserts and line information */
  /* What to produce: NULL or "binary" = a loadable binary; otherwise an
   * artifact for inspection ("thread-ir", "llvm", "ptx", "spirv", "spirv-asm",
   * "hsaco"). A kind the plugin does not provide gives NOT_SUPPORTED. */
  const char *emit;
} trident_compile_options;

typedef struct trident_kernel_metadata {
  uint32_t struct_size;
  uint32_t threads_per_program;
  uint32_t shared_memory; /* static shared-memory bytes per program */
  uint32_t reserved;
} trident_kernel_metadata;

/* A compiled kernel. `data`/`size` and `plugin_data` stay owned by the plugin
 * until binary_release(). A binary is self-contained: module_load needs nothing
 * else, so the runtime may store it on disk and load it in another process. */
typedef struct trident_binary {
  uint32_t struct_size;
  uint32_t reserved;
  const void *data;
  size_t size;
  trident_kernel_metadata metadata;
  void *plugin_data;
} trident_binary;

/* ---- launch (layout versioned by TRIDENT_LAUNCH_ABI_VERSION) ------------- */
enum {
  TRIDENT_ARG_POINTER = 1, /* bits: a trident_devptr */
  TRIDENT_ARG_I1 = 2,      /* integers: bits hold the value sign- or zero-extended */
  TRIDENT_ARG_I8 = 3,
  TRIDENT_ARG_I16 = 4,
  TRIDENT_ARG_I32 = 5,
  TRIDENT_ARG_I64 = 6,
  TRIDENT_ARG_F16 = 7,     /* floats: IEEE bits in the low bits */
  TRIDENT_ARG_BF16 = 8,
  TRIDENT_ARG_F32 = 9,
  TRIDENT_ARG_F64 = 10
};

typedef struct trident_kernel_arg {
  uint32_t type; /* TRIDENT_ARG_* */
  uint32_t reserved;
  uint64_t bits;
} trident_kernel_arg;

typedef struct trident_launch_params {
  uint32_t version;               /* TRIDENT_LAUNCH_ABI_VERSION */
  uint32_t grid[3];               /* programs per dimension, each >= 1 */
  uint32_t dynamic_shared_memory; /* bytes, beyond the kernel's static shared memory */
  uint32_t num_args;
  const trident_kernel_arg *args; /* the kernel's runtime parameters, in order */
} trident_launch_params;

/* ---- the function table ------------------------------------------------- */
/* Unless a comment says otherwise, functions may be called from several threads
 * at once; work on one stream executes in the order it was enqueued. Asynchronous
 * copies read or write host memory until the stream reaches them. */
typedef struct trident_plugin_api {
  size_t struct_size; /* sizeof the table the plugin was built with */

  /* The message of the last failed call made by this thread into this plugin.
   * Owned by the plugin; valid until this thread's next call into it. Never NULL. */
  const char *(*last_error)(void);

  /* Opens vendor libraries and enumerates devices without creating contexts.
   * Fails (UNAVAILABLE) only when the plugin cannot work at all; a missing driver
   * is not a failure: it gives zero devices and a reason. */
  trident_status (*init)(const trident_init_params *params, trident_context *out);
  /* Releases everything the context made; the runtime calls it last. */
  trident_status (*shutdown)(trident_context ctx);

  /* Number of devices; with zero, *reason (owned by the plugin, valid until
   * shutdown) says why. `reason` may be NULL. */
  trident_status (*device_count)(trident_context ctx, uint32_t *count, const char **reason);
  trident_status (*device_props)(trident_context ctx, uint32_t ordinal, trident_device_props *props);
  /* Creates the device's context (the first open of an ordinal; later opens may
   * return the same handle, each must be paired with device_close). */
  trident_status (*device_open)(trident_context ctx, uint32_t ordinal, trident_device *out);
  trident_status (*device_close)(trident_device device);
  /* Waits until all work on all streams of the device is done. */
  trident_status (*device_synchronize)(trident_device device);

  /* SUCCESS when `compile` accepts this target string, NOT_SUPPORTED when not. */
  trident_status (*supports_target)(trident_context ctx, const char *target);
  /* Compiles block IR text (as trident/ir/Printer.h writes it) holding a tt.func
   * named `kernel_name` for `target`; needs no device. Fills *out. */
  trident_status (*compile)(trident_context ctx, const char *target, const char *ir, size_t ir_size,
                            const char *kernel_name, const trident_compile_options *options,
                            trident_binary *out);
  trident_status (*binary_release)(trident_context ctx, trident_binary *binary);

  trident_status (*module_load)(trident_device device, const void *binary, size_t size,
                                trident_module *out);
  trident_status (*module_unload)(trident_module module);
  trident_status (*module_get_kernel)(trident_module module, const char *name, trident_kernel *out);

  /* Memory. Allocations are aligned to at least 256 bytes. */
  trident_status (*mem_alloc)(trident_device device, size_t bytes, trident_devptr *out);
  trident_status (*mem_free)(trident_device device, trident_devptr ptr);
  trident_status (*memcpy_htod)(trident_stream stream, trident_devptr dst, const void *src, size_t bytes);
  trident_status (*memcpy_dtoh)(trident_stream stream, void *dst, trident_devptr src, size_t bytes);
  trident_status (*memcpy_dtod)(trident_stream stream, trident_devptr dst, trident_devptr src,
                                size_t bytes);
  /* Writes `count` copies of the low `pattern_size` (1, 2 or 4) bytes of `pattern`. */
  trident_status (*mem_fill)(trident_stream stream, trident_devptr dst, uint32_t pattern,
                             uint32_t pattern_size, size_t count);

  trident_status (*stream_create)(trident_device device, trident_stream *out);
  trident_status (*stream_destroy)(trident_stream stream);
  trident_status (*stream_synchronize)(trident_stream stream);
  /* Work enqueued on `stream` after this waits for `event` (of any device of this plugin). */
  trident_status (*stream_wait_event)(trident_stream stream, trident_event event);

  trident_status (*event_create)(trident_device device, trident_event *out);
  trident_status (*event_destroy)(trident_event event);
  trident_status (*event_record)(trident_event event, trident_stream stream);
  trident_status (*event_synchronize)(trident_event event);
  /* Milliseconds between two recorded, completed events. */
  trident_status (*event_elapsed_ms)(trident_event start, trident_event end, float *ms);

  /* Enqueues one launch of `kernel` on `stream`. */
  trident_status (*launch)(trident_stream stream, trident_kernel kernel,
                           const trident_launch_params *params);

  /* Interoperation with programs that already use the vendor API.
   * stream_import wraps a native queue (CUstream, hipStream_t, VkQueue) without
   * owning it; stream_destroy releases only the wrapper. mem_import makes a
   * native allocation (a CUdeviceptr / hipDeviceptr_t value, a VkBuffer handle)
   * usable by kernels and returns its device address; mem_free on it releases
   * only the plugin's bookkeeping. */
  trident_status (*stream_import)(trident_device device, void *native_stream, trident_stream *out);
  trident_status (*mem_import)(trident_device device, uint64_t native_memory, size_t bytes,
                               trident_devptr *out);

  /* Copies between two devices of this plugin, enqueued on `stream` (a stream of
   * the destination device). NOT_SUPPORTED when the pair has no direct path; the
   * runtime then copies through host memory. */
  trident_status (*memcpy_peer)(trident_stream stream, trident_devptr dst, trident_device src_device,
                                trident_devptr src, size_t bytes);

  /* ---- ABI 1.1 ---- */
  /* Sets *direct to 1 when memcpy_peer copies from `src` into `dst` (two opened
   * devices of this plugin) directly, without host memory, and to 0 when it does
   * not (memcpy_peer then returns NOT_SUPPORTED and the runtime stages the copy
   * through host memory). Enables the pair's access to each other where the
   * driver needs that (CUDA: cuCtxEnablePeerAccess). Optional: without it the
   * runtime tries memcpy_peer when present, else copies through host memory. */
  trident_status (*device_peer_access)(trident_device dst, trident_device src, uint32_t *direct);
} trident_plugin_api;

/* ---- the entry point ---------------------------------------------------- */
typedef struct trident_plugin_info {
  /* These three fields keep their place in every ABI major version. */
  uint32_t struct_size;
  uint16_t abi_major; /* TRIDENT_PLUGIN_ABI_MAJOR the plugin was built with */
  uint16_t abi_minor;
  const char *name;    /* lowercase, used in device names: "host", "cuda", "vulkan" */
  const char *version; /* the plugin's own version string */
  const trident_plugin_api *api;
} trident_plugin_info;

/* The one exported symbol. Returns static data; never fails (a plugin that cannot
 * work says so from init). */
typedef const trident_plugin_info *(*trident_plugin_entry_fn)(uint32_t runtime_abi_major,
                                                              uint32_t runtime_abi_minor);

#ifdef __cplusplus
}
#endif

#endif /* TRIDENT_PLUGIN_H */
