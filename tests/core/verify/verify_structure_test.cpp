// Verifier rules of builtin.module, tt.func, tt.return and tt.call.

#include "VerifyTestUtil.h"

using verify_test::Case;

namespace {

const Case kValid[] = {
    {"builtin.module", "builtin.module ({\n})", ""},
    {"tt.func", R"(builtin.module ({
  tt.func {arg_divisibility = [16, 1], noinline = true, result_types = [f32], sym_name = "g"} ({
  ^(%a: ptr<f32>, %b: i32):
    %v = tt.load %a : f32
    tt.return %v
  })
}))",
     ""},
    {"tt.return", "    %r = arith.addf %f, %f : f32", ""},
    {"tt.call", R"(builtin.module ({
  tt.func {result_types = [f32, i32], sym_name = "sq"} ({
  ^(%a: f32, %b: i32):
    %r = arith.mulf %a, %a : f32
    tt.return %r, %b
  })
  tt.func {sym_name = "k"} ({
  ^(%x: f32, %q: i32):
    %y, %z = tt.call %x, %q {callee = "sq"} : f32, i32
    tt.return
  })
}))",
     ""},
    {"tt.call", R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%x: f32):
    tt.call {callee = "k2"}
    tt.return
  })
  tt.func {sym_name = "k2"} ({
    tt.return
  })
}))",
     ""},
};

const Case kInvalid[] = {
    {"builtin.module", "builtin.module ({\n  %z = arith.constant {value = 0} : i32\n})",
     "'builtin.module' op may only contain 'tt.func' ops, got 'arith.constant'"},
    {"builtin.module", "builtin.module ({\n^(%q: i32):\n})",
     "'builtin.module' op region must have no arguments"},
    {"builtin.module", "builtin.module ({\n  builtin.module ({\n  })\n})",
     "'builtin.module' op may only contain 'tt.func' ops, got 'builtin.module'\n"
     "'builtin.module' op must be the top-level op"},
    {"tt.func", "builtin.module ({\n  tt.func ({\n    tt.return\n  })\n})",
     "'tt.func' op requires string attribute 'sym_name'"},
    {"tt.func", "builtin.module ({\n  tt.func {sym_name = \"\"} ({\n    tt.return\n  })\n})",
     "'tt.func' op attribute 'sym_name' must not be empty"},
    {"tt.func", "builtin.module ({\n  tt.func {sym_name = \"k\\00\\00\"} ({\n    tt.return\n  })\n})",
     "'tt.func' op attribute 'sym_name' must not contain a NUL byte"},
    {"tt.func",
     "builtin.module ({\n  tt.func {sym_name = \"f\"} ({\n    tt.return\n  })\n"
     "  tt.func {sym_name = \"f\"} ({\n    tt.return\n  })\n})",
     "'tt.func' op redefines function \"f\""},
    {"tt.func", "builtin.module ({\n  tt.func {sym_name = \"f\"} ({\n  })\n})",
     "'tt.func' op region must end in 'tt.return'"},
    {"tt.func",
     "builtin.module ({\n  tt.func {arg_divisibility = [16], sym_name = \"f\"} ({\n  ^(%a: i32, %b: i32):\n"
     "    tt.return\n  })\n})",
     "'tt.func' op attribute 'arg_divisibility' has 1 entry, expected one per parameter (2)"},
    {"tt.func",
     "builtin.module ({\n  tt.func {arg_divisibility = [0], sym_name = \"f\"} ({\n  ^(%a: i32):\n"
     "    tt.return\n  })\n})",
     "'tt.func' op attribute 'arg_divisibility' entries must be at least 1, got 0"},
    {"tt.func", "builtin.module ({\n  tt.func {noinline = 1, sym_name = \"f\"} ({\n    tt.return\n  })\n})",
     "'tt.func' op attribute 'noinline' must be true or false, got 1"},
    {"tt.func",
     "builtin.module ({\n  tt.func {result_types = [block<3xf32>], sym_name = \"f\"} ({\n  ^(%a: "
     "block<3xf32>):\n"
     "    tt.return %a\n  })\n})",
     "'tt.func' op result #0 has type block<3xf32>, but block dimensions must be powers of two\n"
     "'tt.func' op region #0 argument #0 has type block<3xf32>, but block dimensions must be powers of two"},
    {"tt.func",
     "builtin.module ({\n  tt.func {result_types = [], sym_name = \"f\"} ({\n    tt.return\n  })\n})",
     "'tt.func' op attribute 'result_types' must be a type array, got []"},
    {"tt.return", "    tt.return %n", // the kernel wrapper adds a second tt.return
     "'tt.return' op must be the last op of its region\n"
     "'tt.return' op passes 1 value, expected 0 to match the 'tt.func' result types"},
    {"tt.return",
     "builtin.module ({\n  tt.func {result_types = [f32], sym_name = \"f\"} ({\n  ^(%a: i32):\n"
     "    tt.return %a\n  })\n})",
     "'tt.return' op value #0 has type i32, expected f32 to match the 'tt.func' result types"},
    {"tt.return", R"(    scf.for %n, %n, %n ({
    ^(%iv: i32):
      tt.return
    }))",
     "'scf.for' op region must end in 'scf.yield'\n'tt.return' op must be directly inside a 'tt.func'"},
    {"tt.call", R"(builtin.module ({
  tt.func {sym_name = "k"} ({
    tt.call {callee = "nope"}
    tt.return
  })
}))",
     "'tt.call' op calls \"nope\", which is not a function of the module"},
    {"tt.call", R"(builtin.module ({
  tt.func {sym_name = "k"} ({
    tt.call
    tt.return
  })
}))",
     "'tt.call' op requires string attribute 'callee'"},
    {"tt.call", R"(builtin.module ({
  tt.func {result_types = [f32], sym_name = "g"} ({
  ^(%a: f32):
    tt.return %a
  })
  tt.func {sym_name = "k"} ({
  ^(%x: f32, %n: i32):
    tt.call %n {callee = "g"}
    tt.return
  })
}))",
     "'tt.call' op argument #0 has type i32, but \"g\" expects f32\n"
     "'tt.call' op has 0 results, but \"g\" returns 1"},
    {"tt.call", R"(builtin.module ({
  tt.func {result_types = [f32], sym_name = "g"} ({
    %a = arith.constant {value = 1.0} : f32
    tt.return %a
  })
  tt.func {sym_name = "k"} ({
    %x = arith.constant {value = 2} : i32
    %r = tt.call %x {callee = "g"} : f16
    tt.return
  })
}))",
     "'tt.call' op passes 1 argument, but \"g\" takes 0\n"
     "'tt.call' op result #0 has type f16, but \"g\" returns f32"},
};

verify_test::Register registerValid(kValid), registerInvalid(kInvalid);

} // namespace

TEST_CASE("structure ops: valid samples pass") { verify_test::runCases(kValid); }

TEST_CASE("structure ops: invalid samples give the expected message") { verify_test::runCases(kInvalid); }
