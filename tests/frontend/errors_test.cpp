// Bad kernel sources: each must fail with its message, at its line and column.
#include "FrontendTestUtil.h"

#include <doctest/doctest.h>

using namespace trident;
using namespace trident::test;

namespace {

struct BadSource {
  const char *name, *source, *signature, *expected;
};

// The kernel is always "k"; line 1 is "import triton".
const BadSource kBadSources[] = {
    {"arange_pow2",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    tl.store(x_ptr + tl.arange(0, 100), 1.0)\n"
     "",
     "*fp32", "6:22: tl.arange's range must be a power of two, got 100"},
    {"block_not_constexpr",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr, BLOCK):\n"
     "    offs = tl.arange(0, BLOCK)\n"
     "",
     "*fp32, i32", "6:25: 'BLOCK' is used as a shape but is not a tl.constexpr"},
    {"with",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    with open('f') as f:\n"
     "        pass\n"
     "",
     "*fp32", "6:5: unsupported Python construct 'with'"},
    {"undefined",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    tl.store(x_ptr, foo)\n"
     "",
     "*fp32", "6:21: name 'foo' is not defined"},
    {"arange_order",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    tl.store(x_ptr + tl.arange(8, 4), 1.0)\n"
     "",
     "*fp32", "6:22: tl.arange's end argument must be greater than the start argument, got start=8, end=4"},
    {"zeros_shape",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    z = tl.zeros([3], tl.float32)\n"
     "",
     "*fp32", "6:9: shape element 0 must be a power of two, got 3"},
    {"break",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr, n):\n"
     "    for i in range(n):\n"
     "        break\n"
     "",
     "*fp32, i32", "7:9: unsupported Python construct 'break'"},
    {"try",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    try:\n"
     "        pass\n"
     "    except Exception:\n"
     "        pass\n"
     "",
     "*fp32", "6:5: unsupported Python construct 'try'"},
    {"lambda",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    f = lambda v: v + 1\n"
     "",
     "*fp32", "6:9: unsupported Python construct 'lambda'"},
    {"comprehension",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    xs = [i for i in range(4)]\n"
     "",
     "*fp32", "6:10: unsupported Python construct 'comprehension'"},
    {"fstring",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    tl.static_print(f'{x_ptr}')\n"
     "",
     "*fp32", "6:21: unsupported Python construct 'f-string'"},
    {"nested_def",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    def inner(v):\n"
     "        return v\n"
     "",
     "*fp32", "6:5: unsupported Python construct 'nested function definition'"},
    {"return_in_loop",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr, n):\n"
     "    for i in range(n):\n"
     "        return\n"
     "",
     "*fp32, i32", "7:9: return statements inside loops are not supported"},
    {"loop_type_change",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr, n):\n"
     "    acc = 0\n"
     "    for i in range(n):\n"
     "        acc = acc + 1.0\n"
     "",
     "*fp32, i32",
     "7:5: loop-carried variable 'acc' has initial type int32 but is re-assigned to fp32 in the loop"},
    {"if_type_mismatch",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    if tl.load(x_ptr) > 0:\n"
     "        a = 1\n"
     "    else:\n"
     "        a = 1.0\n"
     "    tl.store(x_ptr, a)\n"
     "",
     "*fp32", "6:5: mismatched type for 'a' between then block (int32) and else block (fp32)"},
    {"other_without_mask",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = tl.load(x_ptr, other=0.0)\n"
     "",
     "*fp32", "6:30: tl.load's other cannot be given without a mask"},
    {"mask_not_bool",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = tl.load(x_ptr + tl.arange(0, 4), mask=tl.arange(0, 4))\n"
     "",
     "*fp32", "6:47: tl.load's mask must have boolean (int1) elements, got int32"},
    {"store_block_scalar_ptr",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    tl.store(x_ptr, tl.zeros([4], tl.float32))\n"
     "",
     "*fp32", "6:21: tl.store's value cannot be a block when the pointer is a scalar"},
    {"dot_small",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    a = tl.zeros([8, 8], tl.float32)\n"
     "    c = tl.dot(a, a)\n"
     "",
     "*fp32",
     "7:9: all non-batch values in both first input shape [8, 8] and second input shape [8, 8] must be >= "
     "16"},
    {"dot_dtype",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    a = tl.zeros([16, 16], tl.float16)\n"
     "    b = tl.zeros([16, 16], tl.float32)\n"
     "    c = tl.dot(a, b)\n"
     "",
     "*fp32", "8:9: both inputs of tl.dot must have the same dtype, got fp16 and fp32"},
    {"dot_k",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    a = tl.zeros([16, 32], tl.float32)\n"
     "    c = tl.dot(a, a)\n"
     "",
     "*fp32",
     "7:9: first input shape [16, 32] and second input shape [16, 32] are not compatible for matmul (second "
     "index of first shape (32) must be equal to first index of second shape (16))"},
    {"broadcast",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = tl.arange(0, 8) + tl.arange(0, 4)\n"
     "",
     "*fp32", "6:9: cannot broadcast shapes [8] and [4]: incompatible dimensions at index 0: 8 and 4"},
    {"ptr_plus_float",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    p = x_ptr + 1.5\n"
     "",
     "*fp32", "6:9: cannot use a floating-point value as a pointer offset (pointer<fp32> and fp32)"},
    {"ptr_plus_ptr",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    p = x_ptr + x_ptr\n"
     "",
     "*fp32", "6:9: cannot add pointers together"},
    {"floordiv_float",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = tl.load(x_ptr) // 2.0\n"
     "",
     "*fp32", "6:9: floor division (//) is only supported on integers, got fp32"},
    {"bitand_float",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = tl.load(x_ptr)\n"
     "    w = v & v\n"
     "",
     "*fp32", "7:9: bitwise operator & needs integer operands, got fp32 and fp32"},
    {"pow_tensor",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = tl.load(x_ptr) ** 2\n"
     "",
     "*fp32", "6:9: '**' is only supported on compile-time constants"},
    {"static_assert",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr, BLOCK: tl.constexpr):\n"
     "    tl.static_assert(BLOCK >= 32, \"BLOCK too small\")\n"
     "",
     "*fp32, 16", "6:5: static_assert failed: BLOCK too small"},
    {"program_id_axis",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    pid = tl.program_id(3)\n"
     "",
     "*fp32", "6:25: program_id axis must be 0, 1, or 2 but got 3"},
    {"constexpr_needs_value",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr, BLOCK: tl.constexpr):\n"
     "    pass\n"
     "",
     "*fp32, i32", "5:14: parameter 'BLOCK' is a tl.constexpr: the signature must give its value"},
    {"too_many_args",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    pass\n"
     "",
     "*fp32, i32, i32", "5:1: kernel 'k' takes 1 parameter, but the signature gives 3"},
    {"unexpected_kwarg",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = tl.load(x_ptr, maks=None)\n"
     "",
     "*fp32", "6:29: tl.load() got an unexpected keyword argument 'maks'"},
    {"missing_arg",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    tl.store(x_ptr)\n"
     "",
     "*fp32", "6:5: tl.store() missing required argument 'value'"},
    {"reduce_axis",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    s = tl.sum(tl.arange(0, 16), axis=2)\n"
     "",
     "*fp32", "6:9: axis 2 is out of range for a block of rank 1"},
    {"reshape_numel",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    r = tl.reshape(tl.arange(0, 16), (4, 8))\n"
     "",
     "*fp32", "6:9: cannot reshape a block of 16 elements into shape [4, 8]"},
    {"trans_rank",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    t = tl.trans(tl.arange(0, 16))\n"
     "",
     "*fp32", "6:9: tl.trans without dims needs a 2-D block, got rank 1"},
    {"call_host_function",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "def helper(p):\n"
     "    return p\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = helper(x_ptr)\n"
     "",
     "*fp32", "9:9: 'helper' is not a @triton.jit function and cannot be called from a kernel"},
    {"recursion",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def down(p):\n"
     "    return down(p)\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = down(x_ptr)\n"
     "",
     "*fp32", "6:12: calls nest more than 64 deep (recursive @triton.jit functions are not supported)"},
    {"block_condition",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    if tl.arange(0, 16) > 3:\n"
     "        pass\n"
     "",
     "*fp32",
     "6:8: the condition of an if statement must be a scalar, got a block int1[16]; use tl.where to select "
     "between blocks"},
    {"debug_barrier_args",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    tl.debug_barrier(x_ptr)\n"
     "",
     "*fp32", "6:22: tl.debug_barrier() takes at most 0 positional arguments (1 given)"},
    {"unknown_tl",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = tl.frobnicate(x_ptr)\n"
     "",
     "*fp32", "6:9: tl.frobnicate is not supported by Trident (or does not exist in triton.language)"},
    {"torch",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "import torch\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = torch.zeros(4)\n"
     "",
     "*fp32", "8:9: module 'torch' cannot be used inside a @triton.jit function"},
    {"syntax",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = 1 +\n"
     "",
     "*fp32", "6:12: invalid syntax: unexpected end of line in expression"},
    {"global_not_constant",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "import torch\n"
     "DEVICE = torch.device('cuda')\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    tl.store(x_ptr, DEVICE)\n"
     "",
     "*fp32",
     "5:10: global 'DEVICE' cannot be used in a kernel: module 'torch' cannot be used inside a @triton.jit "
     "function"},
    {"cat_reorder",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    c = tl.cat(tl.arange(0, 4), tl.arange(0, 4))\n"
     "",
     "*fp32", "6:9: tl.cat may reorder elements; pass can_reorder=True (as Triton requires)"},
    {"atomic_fp16",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    tl.atomic_max(x_ptr, 1.0)\n"
     "",
     "*fp16", "6:5: tl.atomic_max does not support fp16"},
    {"atomic_sem",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    tl.atomic_add(x_ptr, 1.0, sem='strong')\n"
     "",
     "*fp32", "6:35: sem must be 'acquire', 'release', 'acq_rel' or 'relaxed', got 'strong'"},
    {"cache_modifier",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = tl.load(x_ptr, cache_modifier='.xx')\n"
     "",
     "*fp32", "6:39: cache_modifier must be one of '', '.ca', '.cg' or '.cv', got '.xx'"},
    {"unsigned_negative",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = tl.load(x_ptr) + -1\n"
     "",
     "*u32",
     "6:9: cannot perform a binary operation between an unsigned tensor and a negative scalar; cast one of "
     "them explicitly"},
    {"scalar_range",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = tl.load(x_ptr) + 2**40\n"
     "",
     "*i32", "6:9: scalar 1099511627776 is out of range for type int32"},
    {"block_ptr_i64_offsets",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr, off):\n"
     "    p = tl.make_block_ptr(x_ptr, (16,), (1,), (off,), (16,), (0,))\n"
     "",
     "*fp32, i64",
     "6:47: block pointers only support 32-bit offsets, got int64; add .to(tl.int32) or use regular indexing "
     "for 64-bit offsets"},
    {"boundary_check_plain",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = tl.load(x_ptr, boundary_check=(0,))\n"
     "",
     "*fp32",
     "6:39: boundary_check is only supported when loading through a block pointer (tl.make_block_ptr)"},
    {"static_range_bound",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr, n):\n"
     "    for i in tl.static_range(n):\n"
     "        pass\n"
     "",
     "*fp32, i32", "6:30: tl.static_range's bounds must be tl.constexpr integers, got int32"},
    {"for_over_tensor",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr, n):\n"
     "    for i in n:\n"
     "        pass\n"
     "",
     "*fp32, i32",
     "6:14: for loops can only iterate over range(), tl.range(), tl.static_range() or a tuple, got int32"},
    {"constexpr_annotation_tensor",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v: tl.constexpr = tl.load(x_ptr)\n"
     "",
     "*fp32", "6:23: 'v' is annotated tl.constexpr but its value is not a compile-time constant"},
    {"constexpr_div_zero",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v: tl.constexpr = 1 // 0\n"
     "",
     "*fp32", "6:23: integer division by zero"},
    {"unpack_count",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    a, b = 1, 2, 3\n"
     "",
     "*fp32", "6:5: cannot unpack 3 values into 2 names"},
    {"kernel_returns",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    return tl.load(x_ptr)\n"
     "",
     "*fp32", "5:1: kernel 'k' returns a value; kernels must return nothing"},
    {"item_assignment",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    x_ptr[0] = 1\n"
     "",
     "*fp32", "6:5: unsupported Python construct 'item assignment'"},
    {"while_true",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    while True:\n"
     "        pass\n"
     "",
     "*fp32", "6:11: the condition of this while loop is always true and 'break' is not supported"},
    {"exp_int",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = tl.exp(tl.load(x_ptr))\n"
     "",
     "*i32", "6:16: tl.exp expects a floating-point tensor (fp32 or fp64), got int32"},
    {"combine_count",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def pair(a, b):\n"
     "    return a + b, a\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    s = tl.reduce(tl.arange(0, 16), 0, pair)\n"
     "",
     "*fp32", "10:9: the combine function 'pair' returns 2 values, but the operation has 1 input"},
    {"tensor_int_index",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = tl.arange(0, 16)[0]\n"
     "",
     "*fp32", "6:9: unsupported tensor index: 0 (only None and ':' are supported)"},
    {"device_print_prefix",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    tl.device_print(tl.load(x_ptr))\n"
     "",
     "*fp32", "6:21: device_print's prefix must be a string, got fp32"},
    {"static_range_limit",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    for i in tl.static_range(100000):\n"
     "        pass\n"
     "",
     "*fp32", "6:5: tl.static_range unrolls 100000 iterations, more than the limit of 65536"},
    {"rounding_upcast",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = tl.load(x_ptr).to(tl.float32, fp_downcast_rounding='rtz')\n"
     "",
     "*fp16", "6:9: fp_downcast_rounding is only valid when casting to a narrower float type"},
    {"bitcast_size",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = tl.load(x_ptr).to(tl.int16, bitcast=True)\n"
     "",
     "*fp32", "6:9: cannot bitcast data-type of size 32 to data-type of size 16"},
    {"signature_constexpr",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr, B: tl.constexpr):\n"
     "    pass\n"
     "",
     "*fp32, 1 +",
     "5:14: the constexpr value '1 +' given for parameter 'B' is not valid: invalid syntax: unexpected end "
     "of line in expression"},
    {"store_to_int",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    tl.store(3, 1.0)\n"
     "",
     "*fp32", "6:14: tl.store needs a pointer or a block of pointers, got constexpr[3]"},
    {"if_dtype_differs",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    if tl.load(x_ptr) > 0:\n"
     "        c = tl.float16\n"
     "    else:\n"
     "        c = tl.float32\n"
     "    tl.store(x_ptr, tl.load(x_ptr).to(c))\n"
     "",
     "*fp32",
     "6:5: 'c' has different compile-time values in the two branches of an if whose condition is only known "
     "at run time"},
    {"arange_tensor_arg",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr, n):\n"
     "    r = tl.arange(0, n * 2)\n"
     "",
     "*fp32, i32", "6:22: tl.arange's arguments must be tl.constexpr integers, got int32"},
    {"bad_dtype_arg",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    z = tl.zeros([16], 'float32')\n"
     "",
     "*fp32", "6:24: tl.zeros's dtype must be a dtype such as tl.float32, got constexpr[float32]"},
    {"too_large",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    z = tl.zeros([2048, 1024], tl.float32)\n"
     "",
     "*fp32", "6:9: the block has more than 1048576 elements (Triton's maximum)"},
    {"clamp_int",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = tl.clamp(tl.load(x_ptr), 0, 1)\n"
     "",
     "*i32", "6:9: tl.clamp only supports floating point, got int32"},
    {"xor_sum_float",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    s = tl.xor_sum(tl.zeros([16], tl.float32))\n"
     "",
     "*fp32", "6:20: tl.xor_sum is only supported for integers, got fp32"},
    {"split_last_dim",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    a, b = tl.split(tl.zeros([16, 4], tl.float32))\n"
     "",
     "*fp32", "6:12: tl.split: the last dimension must be 2, got fp32[16, 4]"},
    {"unknown_math",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = tl.math.tanh(tl.load(x_ptr))\n"
     "",
     "*fp32", "6:9: tl.math.tanh is not supported by Trident"},
    {"libdevice",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "from triton.language.extra import libdevice\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    v = libdevice.not_a_function(tl.load(x_ptr))\n"
     "",
     "*fp32",
     "8:9: libdevice function 'not_a_function' is not supported by Trident (or does not exist in libdevice)"},
    {"rand_float_seed",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr):\n"
     "    r = tl.rand(1.5, tl.arange(0, 16))\n"
     "",
     "*fp32", "6:9: tl.rand: static_assert failed: the seed of the random functions must be an integer"},
    {"rand_i64_offsets",
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "@triton.jit\n"
     "def k(x_ptr, n):\n"
     "    r = tl.rand(7, tl.arange(0, 16).to(tl.int64) + n)\n"
     "",
     "*fp32, i64", "6:9: tl.rand: static_assert failed: Trident's random functions take 32-bit offsets"},
};

} // namespace

TEST_CASE("bad sources give their message at their location") {
  CHECK(std::size(kBadSources) >= 40);
  for (const BadSource &bad : kBadSources) {
    CAPTURE(bad.name);
    CHECK(firstError(bad.source, "k", bad.signature) == bad.expected);
  }
}

TEST_CASE("errors show the source line with a caret under the column") {
  Compiled c = compileSource(kBadSources[0].source, "k", kBadSources[0].signature);
  REQUIRE(!c.module);
  REQUIRE(c.diags.list().size() == 1);
  CHECK(c.diags.str() == "k.py:6:22: error: tl.arange's range must be a power of two, got 100\n"
                         "        tl.store(x_ptr + tl.arange(0, 100), 1.0)\n"
                         "                         ^\n");
}
