// CfiFile's ELF and DWARF handles (libelf, libdw), shared by cfi_file.cpp, which opens them,
// and dwarf_unwind.cpp, which looks up the frames of their CFI.
#pragma once

#include <elfutils/libdw.h>
#include <libelf.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "readperf/symbols/dwarf_unwind.h"

namespace readperf {

struct CfiFile::Impl {
  int fd = -1;
  Elf* elf = nullptr;
  Dwarf_CFI* eh_frame = nullptr;  // owned by elf (dwarf_getcfi_elf)
  Dwarf* dwarf = nullptr;
  Dwarf_CFI* debug_frame = nullptr;  // owned by dwarf
  const char* image = nullptr;
  size_t image_size = 0;
  struct Load {
    uint64_t offset, vaddr, filesz;
  };
  std::vector<Load> loads;
  uint16_t type = 0;
  uint16_t machine = 0;
  bool is_64bit = false;
  bool eh_frame_hdr = false;
  bool debug_frame_section = false;

  ~Impl() {
    if (dwarf) dwarf_end(dwarf);
    if (eh_frame) dwarf_cfi_end(eh_frame);
    if (elf) elf_end(elf);
    if (fd >= 0) close(fd);
  }
};

}  // namespace readperf
