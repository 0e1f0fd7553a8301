#pragma once
// TRIDENT_API marks what libtrident exports: the public API in these headers and
// nothing else. The library is built with hidden visibility by default, so the
// runtime's internals (namespace trident::detail), the frontend and core stay
// private to it; tests/package/check_symbols.cmake checks this in CI.

#if defined(_WIN32)
#define TRIDENT_API
#else
#define TRIDENT_API __attribute__((visibility("default")))
#endif
