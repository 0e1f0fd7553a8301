#pragma once
// The GNU build id of a loaded shared object (the linker's --build-id note, a hash
// of the linked file): what identifies a plugin's binary beyond its version string.

#include <string>

namespace trident::detail {

// The build id, in hex, of the loaded object that contains `address`; "" when that
// object has none (linked without --build-id) or none contains it.
std::string elfBuildIdOf(const void *address);

} // namespace trident::detail
