#pragma once
// Block-IR kernels shared by the tests of this folder.

namespace trident::amdtest {

// One program sums 1024 floats: 4 registers per thread, every lane bit and warp bit
// along the axis, so the butterfly runs over the whole wave.
inline const char *kSum = R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16], sym_name = "sum_kernel"} ({
  ^(%in: ptr<f32>, %out: ptr<f32>):
    %r = tt.make_range {end = 1024, start = 0} : block<1024xi32>
    %ps = tt.splat %in : block<1024xptr<f32>>
    %p = tt.addptr %ps, %r : block<1024xptr<f32>>
    %x = tt.load %p : block<1024xf32>
    %s = tt.reduce %x {axis = 0} : f32 ({
    ^(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t
    })
    tt.store %out, %s
    tt.return
  })
}))";

// An inclusive running sum of 256 floats.
inline const char *kScan = R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16], sym_name = "scan_kernel"} ({
  ^(%in: ptr<f32>, %out: ptr<f32>):
    %r = tt.make_range {end = 256, start = 0} : block<256xi32>
    %ps = tt.splat %in : block<256xptr<f32>>
    %p = tt.addptr %ps, %r : block<256xptr<f32>>
    %x = tt.load %p : block<256xf32>
    %s = tt.scan %x {axis = 0, reverse = false} : block<256xf32> ({
    ^(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.scan.return %t
    })
    %qs = tt.splat %out : block<256xptr<f32>>
    %q = tt.addptr %qs, %r : block<256xptr<f32>>
    tt.store %q, %s
    tt.return
  })
}))";

} // namespace trident::amdtest
