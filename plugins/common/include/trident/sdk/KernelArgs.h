#pragma once
// Argument unpacking by the launch ABI (trident_kernel_arg): checks that each packed
// argument has the kind its kernel parameter expects, for plugins that know their
// kernels' parameter types (from the block IR or their binary's metadata).

#include "trident/ir/Type.h"
#include "trident/plugin.h"

#include <span>
#include <string>

namespace trident::sdk {

// The TRIDENT_ARG_* code that passes a parameter of type `param` (0 for none).
uint32_t argumentCode(Type param);
// The name of a TRIDENT_ARG_* code in messages ("a pointer", "i32", ...).
const char *argumentCodeName(uint32_t code);
// Checks `params` against the launch's arguments; fails with INVALID_ARGUMENT and a
// message naming `kernel` and the argument otherwise.
trident_status checkArguments(const std::string &kernel, std::span<const Type> params,
                              const trident_launch_params &launch);
// The same for a plugin that keeps only the parameters' TRIDENT_ARG_* codes.
trident_status checkArgumentCodes(const std::string &kernel, std::span<const uint32_t> codes,
                                  const trident_launch_params &launch);
// Checks the launch parameters' version and grid (every dimension at least 1).
trident_status checkLaunch(const char *plugin, const trident_launch_params *launch);

} // namespace trident::sdk
