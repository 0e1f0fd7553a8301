#pragma once
// Filling device_props: every plugin's last step.

#include "trident/plugin.h"

namespace trident::sdk {

// Copies `p` into the caller's struct, no more than its struct_size (which it sets to
// what was written: a newer runtime's longer struct keeps its own defaults past it).
void writeDeviceProps(const trident_device_props &p, trident_device_props *out);

} // namespace trident::sdk
