#include "trident/sdk/DeviceProps.h"

#include <algorithm>
#include <cstring>

namespace trident::sdk {

void writeDeviceProps(const trident_device_props &p, trident_device_props *out) {
  size_t n = std::min<size_t>(out->struct_size, sizeof p);
  std::memcpy(out, &p, n);
  out->struct_size = uint32_t(n);
}

} // namespace trident::sdk
