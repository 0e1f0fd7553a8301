#pragma once
// Writes IR as text. The parser reads back exactly what this writes.
//
//   builtin.module {
//     tt.func {result_types = [], sym_name = "add"} {
//     ^(%0: ptr<f32>, %1: i32):
//       %2 = tt.get_program_id {axis = 0} : i32 loc("add.py":5:11)
//       ...
//       tt.return
//     }
//   }

#include "trident/ir/IR.h"

#include <ostream>
#include <string>

namespace trident {

struct PrintOptions {
  bool locations = true; // append loc("file":line:col) to ops that have one
};

void print(std::ostream &os, const Module &m, const PrintOptions &opts = {});
std::string print(const Module &m, const PrintOptions &opts = {});
// One op and its regions; values defined outside it print as %?N.
std::string print(const Op *op, const PrintOptions &opts = {});

} // namespace trident
