#include "trident/sdk/KernelArgs.h"

#include "trident/sdk/Status.h"

namespace trident::sdk {

uint32_t argumentCode(Type param) {
  if (param.isPtr())
    return TRIDENT_ARG_POINTER;
  if (param.isInteger())
    switch (param.bitWidth()) {
    case 1: return TRIDENT_ARG_I1;
    case 8: return TRIDENT_ARG_I8;
    case 16: return TRIDENT_ARG_I16;
    case 32: return TRIDENT_ARG_I32;
    default: return TRIDENT_ARG_I64;
    }
  if (param == Type::f16())
    return TRIDENT_ARG_F16;
  if (param == Type::bf16())
    return TRIDENT_ARG_BF16;
  if (param == Type::f32())
    return TRIDENT_ARG_F32;
  if (param == Type::f64())
    return TRIDENT_ARG_F64;
  return 0;
}

const char *argumentCodeName(uint32_t code) {
  static const char *names[] = {"?", "a pointer", "i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"};
  return code <= 10 ? names[code] : "an unknown type";
}

trident_status checkArguments(const std::string &kernel, std::span<const Type> params,
                              const trident_launch_params &launch) {
  if (launch.num_args != params.size())
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "kernel '" + kernel + "' takes " + std::to_string(params.size()) +
                                                    " runtime arguments, the launch passes " +
                                                    std::to_string(launch.num_args));
  for (size_t i = 0; i < params.size(); ++i) {
    uint32_t want = argumentCode(params[i]);
    if (want == 0 || launch.args[i].type != want)
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "argument " + std::to_string(i) + " of kernel '" + kernel +
                                                      "' expects " + params[i].str() + " but the launch passes " +
                                                      argumentCodeName(launch.args[i].type));
  }
  return TRIDENT_SUCCESS;
}

trident_status checkArgumentCodes(const std::string &kernel, std::span<const uint32_t> codes,
                                  const trident_launch_params &launch) {
  if (launch.num_args != codes.size())
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "kernel '" + kernel + "' takes " + std::to_string(codes.size()) +
                                                    " runtime arguments, the launch passes " +
                                                    std::to_string(launch.num_args));
  for (size_t i = 0; i < codes.size(); ++i)
    if (launch.args[i].type != codes[i])
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "argument " + std::to_string(i) + " of kernel '" + kernel +
                                                      "' expects " + argumentCodeName(codes[i]) +
                                                      " but the launch passes " + argumentCodeName(launch.args[i].type));
  return TRIDENT_SUCCESS;
}

trident_status checkLaunch(const char *plugin, const trident_launch_params *launch) {
  if (!launch || launch->version != TRIDENT_LAUNCH_ABI_VERSION)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, std::string("the ") + plugin + " plugin speaks launch ABI " +
                                                    std::to_string(TRIDENT_LAUNCH_ABI_VERSION) + ", the launch uses " +
                                                    std::to_string(launch ? launch->version : 0));
  for (int i = 0; i < 3; ++i)
    if (launch->grid[i] == 0)
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "grid dimension " + std::to_string(i) + " is 0");
  return TRIDENT_SUCCESS;
}

} // namespace trident::sdk
