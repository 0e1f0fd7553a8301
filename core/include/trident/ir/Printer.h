#pragma once
// Writes IR as text (docs/ir-syntax.md). The parser reads back exactly what this writes.
//
//   builtin.module ({
//     tt.func {sym_name = "add"} ({
//     ^(%0: ptr<f32>, %1: i32):
//       %2 = tt.get_program_id {axis = 0} : i32 loc("add.py":5:11)
//       ...
//       tt.return
//     })
//   })
//
// Values are numbered %0, %1, ... in order of definition (block arguments included);
// numbering restarts inside every isolated op (tt.func, builtin.module).

#include "trident/ir/IR.h"

#include <ostream>
#include <string>

namespace trident {

struct PrintOptions {
  bool locations = true; // append loc("file":line:col) to ops that have one
};

// The whole module, ending in a newline.
void print(std::ostream &os, const Module &m, const PrintOptions &opts = {});
std::string print(const Module &m, const PrintOptions &opts = {});
// One op and its regions, without a trailing newline. Values defined outside the op
// (or used before their definition) print as %?0, %?1, ... in order of first use.
std::string print(const Op *op, const PrintOptions &opts = {});

} // namespace trident
