// Replaces the global operator new to count each thread's heap allocations,
// for the test that a warm launch allocates nothing.

#include <cstdlib>
#include <new>

// GCC sees malloc'ed memory reach free() through the replaced operators and warns.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

// Counts heap allocations of the current thread, for the no-allocation tests.
namespace {
thread_local long allocations = 0;
}

namespace trident::test {
long allocationCount() { return allocations; }
} // namespace trident::test

void *operator new(std::size_t n) {
  ++allocations;
  if (void *p = std::malloc(n ? n : 1))
    return p;
  throw std::bad_alloc();
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }
// Every other replaceable form too, so that no allocation comes from the C++ library's (or
// a sanitizer's) operators and reaches free() above: libstdc++'s std::stable_sort takes its
// buffer with the nothrow form and gives it back with the sized delete.
void *operator new(std::size_t n, const std::nothrow_t &) noexcept {
  ++allocations;
  return std::malloc(n ? n : 1);
}
void *operator new[](std::size_t n) { return operator new(n); }
void *operator new[](std::size_t n, const std::nothrow_t &t) noexcept { return operator new(n, t); }
void operator delete(void *p, const std::nothrow_t &) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete[](void *p, std::size_t) noexcept { std::free(p); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { std::free(p); }
