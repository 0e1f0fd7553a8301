#pragma once
// A loaded plugin: its shared library, its function table and its context.
// Calls go through call(), which turns a failed status into trident::Error with
// the plugin's own message, and an entry missing from the plugin's (possibly
// older, shorter) table into Error(NotSupported).

#include "trident/Error.h"
#include "trident/plugin.h"

#include <boost/dll/shared_library.hpp>

#include <memory>
#include <string>

namespace trident::detail {

class Plugin {
public:
  Plugin(boost::dll::shared_library library, const trident_plugin_info *info, trident_context context,
         std::string path);
  ~Plugin();
  Plugin(const Plugin &) = delete;
  Plugin &operator=(const Plugin &) = delete;

  const std::string &name() const { return name_; }
  const std::string &version() const { return version_; }
  // The GNU build id of the plugin's file ("" without one): part of every cache key,
  // so a rebuilt plugin never loads what its predecessor cached.
  const std::string &buildId() const { return buildId_; }
  const std::string &path() const { return path_; }
  uint16_t abiMinor() const { return info_->abi_minor; }
  const trident_plugin_api &api() const { return *api_; }
  trident_context context() const { return context_; }

  // True when the table has `fn` (covered by its size and not null).
  template <class F> bool has(F trident_plugin_api::*fn) const {
    size_t offset = reinterpret_cast<const char *>(&(api_->*fn)) - reinterpret_cast<const char *>(api_);
    return api_->struct_size >= offset + sizeof(F) && api_->*fn != nullptr;
  }

  // Calls table entry `fn`; `what` names the operation for messages ("allocating 4096 bytes").
  template <class... P, class... A>
  void call(trident_status (*trident_plugin_api::*fn)(P...), const char *fnName, const std::string &what,
            A &&...args) const {
    if (!has(fn))
      throwNotSupported(fnName, what);
    trident_status s = (api_->*fn)(std::forward<A>(args)...);
    if (s != TRIDENT_SUCCESS)
      throwStatus(s, what);
  }

  // Like call() but returns the status instead of throwing (absent entry: NOT_SUPPORTED).
  template <class... P, class... A>
  trident_status tryCall(trident_status (*trident_plugin_api::*fn)(P...), A &&...args) const {
    if (!has(fn))
      return TRIDENT_ERROR_NOT_SUPPORTED;
    return (api_->*fn)(std::forward<A>(args)...);
  }

  // The plugin's message for the last failure on this thread.
  std::string lastError() const;
  [[noreturn]] void throwStatus(trident_status status, const std::string &what) const;
  [[noreturn]] void throwNotSupported(const char *fnName, const std::string &what) const;

private:
  // Declared first so that it is destroyed last: the code must outlive the context.
  boost::dll::shared_library library_;
  const trident_plugin_info *info_;
  const trident_plugin_api *api_;
  trident_context context_;
  std::string name_, version_, path_, buildId_;
};

// Maps a plugin status to the C++ error code.
ErrorCode errorCodeOf(trident_status status);

} // namespace trident::detail

#define TRIDENT_CALL(plugin, fn, what, ...) (plugin).call(&trident_plugin_api::fn, #fn, what, __VA_ARGS__)
