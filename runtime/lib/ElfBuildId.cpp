// Finds the object holding an address with dl_iterate_phdr, then its PT_NOTE
// segments' NT_GNU_BUILD_ID note ("GNU\0" owner, type 3).

#include "ElfBuildId.h"

#include "Sha256.h"

#include <cstdint>
#include <cstring>
#include <elf.h>
#include <link.h>

namespace trident::detail {

namespace {

struct Search {
  uintptr_t address;
  std::string id;
  bool found = false;
};

int visit(dl_phdr_info *info, size_t, void *data) {
  auto &s = *static_cast<Search *>(data);
  bool contains = false;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum && !contains; ++i) {
    const ElfW(Phdr) &p = info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + p.p_vaddr;
    contains = p.p_type == PT_LOAD && s.address >= start && s.address < start + p.p_memsz;
  }
  if (!contains)
    return 0;
  s.found = true;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &p = info->dlpi_phdr[i];
    if (p.p_type != PT_NOTE)
      continue;
    const auto *n = reinterpret_cast<const uint8_t *>(info->dlpi_addr + p.p_vaddr);
    const uint8_t *end = n + p.p_memsz;
    while (n + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) h;
      std::memcpy(&h, n, sizeof h);
      const uint8_t *name = n + sizeof h;
      const uint8_t *desc = name + ((h.n_namesz + 3) & ~3u);
      const uint8_t *next = desc + ((h.n_descsz + 3) & ~3u);
      if (next > end)
        break;
      if (h.n_type == NT_GNU_BUILD_ID && h.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        s.id = toHex(desc, h.n_descsz);
        return 1;
      }
      n = next;
    }
  }
  return 1;
}

} // namespace

std::string elfBuildIdOf(const void *address) {
  Search s{reinterpret_cast<uintptr_t>(address), {}};
  dl_iterate_phdr(visit, &s);
  return s.id;
}

} // namespace trident::detail
