// Every block-IR op of the op table has an interpreter test: the tests register the
// ops they cover (and check that the interpreter ran them); this test compares the
// registry with the table. Thread-IR ops ("th.") are not interpreted.

#include "InterpTestUtil.h"

TEST_CASE("every block-IR op has an interpreter test") {
  unsigned checked = 0;
  for (unsigned i = 0; i < trident::numOpCodes(); ++i) {
    std::string name(trident::opInfo(static_cast<trident::OpCode>(i)).name);
    if (name.starts_with("th."))
      continue;
    ++checked;
    CHECK_MESSAGE(interp_test::coveredOps().count(name) == 1, "no interpreter test covers '" << name << "'");
  }
  CHECK(checked > 90);
}
