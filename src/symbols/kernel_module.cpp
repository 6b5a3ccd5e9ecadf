#include "readperf/symbols/kernel_module.h"

#include <fmt/format.h>

#include <utility>

#include "elf_file.h"
#include "kernel_elf_symbols.h"
#include "readperf/symbols/compressed_file.h"
#include "readperf/symbols/dso_loader.h"
#include "readperf/symbols/symbol_files.h"

namespace readperf {

namespace {

// symsrc__init() for a module Dso named with a compression (dso__needs_decompress()): every
// candidate, the build-id cache's too, is decompressed when it has that format's magic
// (dso__decompress_kmodule_fd()), else read as it is.
Result<ElfFile> open_module_file(const std::string& path, FileCompression comp) {
  ASSIGN_OR_RETURN(std::optional<std::vector<char>> image, read_decompressed(path, comp));
  if (!image) return ElfFile::open(path);
  return ElfFile::from_memory(path, std::move(*image));
}

}  // namespace

Result<ModuleSymbols> load_kernel_module(const std::string& long_name, const BuildId& build_id,
                                         const SymbolConfig& config, std::span<const Symbol> late) {
  ModuleSymbols out;
  const FileCompression comp = kmod_compression(long_name);
  // dso.c dso__read_binary_type_filename(): the build-id cache's copy ("elf", or "kallsyms"
  // for a module only known as "[name]", dso__is_kallsyms()), its debug file, then
  // SYMFS/long_name.
  const bool bracketed = !long_name.empty() && long_name[0] != '/';
  std::vector<std::pair<char, std::string>> candidates;
  if (!build_id.empty()) {
    for (const std::string& root : config.build_id_roots()) {
      candidates.emplace_back('B',
                              build_id_cache_path(root, build_id, bracketed ? "kallsyms" : "elf"));
      candidates.emplace_back('D', build_id_cache_path(root, build_id, "debug"));
    }
  }
  // path__join3(symfs, root_dir "", long_name): a '/' after a symfs, whatever follows.
  const std::string& symfs = config.symfs;
  candidates.emplace_back('K', symfs.empty() ? long_name : symfs + "/" + long_name);
  for (const auto& [origin, path] : candidates) {
    if (path.empty() || !is_symbol_file(path)) {
      out.attempts.push_back(fmt::format("{} {}: missing", origin, path.empty() ? "-" : path));
      continue;
    }
    Result<ElfFile> elf = open_module_file(path, comp);
    if (!elf) {
      out.attempts.push_back(fmt::format("{} {}: {}", origin, path, elf.error().what()));
      continue;
    }
    if (Status same = check_recorded_build_id(*elf, build_id); !same) {
      out.attempts.push_back(fmt::format("{} {}", origin, same.error().what()));
      continue;
    }
    if (!elf->has_symtab()) {
      out.attempts.push_back(fmt::format("{} {}: no .symtab", origin, path));
      continue;
    }
    // dso__load_sym() on the first file with a .symtab (a .ko is ET_REL: adjusted).
    Result<KernelElfSymbols> placed = place_kernel_symbols(*elf, 0, true, late);
    if (!placed) {
      out.attempts.push_back(fmt::format("{} {}: {}", origin, path, placed.error().what()));
      return make_error(fmt::format("{}: {}", long_name, placed.error().what()));
    }
    out.attempts.push_back(fmt::format("{} {}: used", origin, path));
    out.path = path;
    // symsrc__init(): a decompressed file takes the Dso's own binary type,
    // SYSTEM_PATH_KMODULE_COMP ('m'), wherever it was found.
    out.origin = comp == FileCompression::kNone ? origin : 'm';
    out.text_pgoff = placed->text ? placed->text->pgoff : 0;
    out.symbols = std::move(placed->symbols);
    out.sections = std::move(placed->sections);
    return out;
  }
  return make_error(fmt::format("{}: no .ko found", long_name));
}

}  // namespace readperf
