#pragma once
// A random kernel saved as text: its block IR together with its grid and its arguments
// (buffers' initial contents, scalars' bits, how each output is compared), so that a
// kernel that once found a bug keeps replaying it after the generator has changed what
// its seed makes. `trident-randtest --save-kernel FILE` writes the kernel of seed
// --first; `trident-randtest --kernel FILE --device D` runs it on D and the interpreter.
//
//   trident-kernel 1
//   # free comments
//   seed 1236
//   grid 4 1 1
//   buffer out5 f32 1024 written mode=tolerance tolerance=0x1p-9 range=-0x1p+3,0x1p+3 frac=0
//                                (`exact` after frac: exact floats on a grid of 2^-frac)
//   fill 7f                      (or: data 0a1b2c...: the initial bytes in hex; or
//                                 unused: a buffer no op uses, read back as zeros)
//   scalar s4 f32 3ff19c5e
//   ir 5234                      (the byte count of the IR text that follows)
//   builtin.module ({ ... })

#include "RandomKernel.h"

#include <optional>
#include <string>

namespace trident::e2e {

std::string writeKernelFile(const RandomKernel &k, const std::string &comment);
// The kernel of a file writeKernelFile wrote; nullopt and `error` when it is malformed.
std::optional<RandomKernel> readKernelFile(const std::string &text, std::string &error);

} // namespace trident::e2e
