#include "Plugin.h"

#include "ElfBuildId.h"

namespace trident::detail {

Plugin::Plugin(boost::dll::shared_library library, const trident_plugin_info *info, trident_context context,
               std::string path)
    : library_(std::move(library)), info_(info), api_(info->api), context_(context),
      name_(info->name ? info->name : "?"), version_(info->version ? info->version : ""),
      path_(std::move(path)), buildId_(elfBuildIdOf(info)) {}

Plugin::~Plugin() {
  if (has(&trident_plugin_api::shutdown))
    api_->shutdown(context_);
}

std::string Plugin::lastError() const {
  if (!has(&trident_plugin_api::last_error))
    return "(the plugin gives no message)";
  const char *m = api_->last_error();
  return m && *m ? m : "(the plugin gave no message)";
}

ErrorCode errorCodeOf(trident_status status) {
  switch (status) {
  case TRIDENT_ERROR_INVALID_ARGUMENT: return ErrorCode::InvalidArgument;
  case TRIDENT_ERROR_NOT_SUPPORTED: return ErrorCode::NotSupported;
  case TRIDENT_ERROR_OUT_OF_MEMORY: return ErrorCode::OutOfMemory;
  case TRIDENT_ERROR_NOT_FOUND: return ErrorCode::NotFound;
  case TRIDENT_ERROR_COMPILE: return ErrorCode::Compile;
  case TRIDENT_ERROR_LAUNCH: return ErrorCode::Launch;
  case TRIDENT_ERROR_DEVICE: return ErrorCode::Device;
  case TRIDENT_ERROR_UNAVAILABLE: return ErrorCode::Unavailable;
  default: return ErrorCode::Internal;
  }
}

void Plugin::throwStatus(trident_status status, const std::string &what) const {
  throw Error(errorCodeOf(status), name_ + " plugin: " + what + ": " + lastError());
}

void Plugin::throwNotSupported(const char *fnName, const std::string &what) const {
  throw Error(ErrorCode::NotSupported, name_ + " plugin: " + what + ": not supported (the plugin, ABI " +
                                           std::to_string(info_->abi_major) + "." +
                                           std::to_string(info_->abi_minor) + ", does not provide " +
                                           fnName + ")");
}

} // namespace trident::detail
