// The kernel's side of the Resolver: the kernel's symbols (kallsyms or a vmlinux) and the
// modules' (a .ko, else kallsyms'), loaded in the order perf 6.1 loads them (map__load() of
// the map a sample hits, machine__kernel_start()), which decides what a module keeps.
#include <algorithm>

#include "readperf/analysis/resolver.h"
#include "readperf/symbols/kernel_module.h"

namespace readperf {

const KernelSymbols& Resolver::load_kernel() {
  if (kernel_) return *kernel_;
  // The kernel's build-id is its Dso's (BUILD_ID feature, HEADER_BUILD_ID, MMAP2 build-id);
  // the reference symbol comes from the "[kernel.kallsyms]_text" MMAP.
  BuildId id;
  if (const Map* vm = machine_.vmlinux_map(); vm && vm->dso) {
    id = BuildId::from_bytes(vm->dso->build_id);
  } else {
    for (const Dso& d : machine_.dsos().all()) {
      if (d.space == DsoSpace::kKernel && !d.is_module && !d.build_id.empty()) {
        id = BuildId::from_bytes(d.build_id);
        break;
      }
    }
  }
  std::optional<RefRelocSym> ref;
  if (const auto& kr = machine_.kernel_ref(); kr && !kr->name.empty()) {
    ref = RefRelocSym{kr->name, kr->addr};
  }
  kernel_ = &symbols_.kernel(id, ref);
  if (kernel_->from_vmlinux) {
    // symbol-elf.c dso__process_kernel_symbol(): the kernel map becomes the vmlinux's .text,
    // the other sections with symbols maps of their own; the kernel Dso's long name becomes
    // the vmlinux's (dso__load_vmlinux()).
    if (const auto& t = kernel_->text_map) machine_.remap_kernel_text(t->start, t->end, t->pgoff);
    const Map* vm = machine_.vmlinux_map();  // after the remap, which moves it
    if (!vm || !vm->dso) return *kernel_;
    for (const KernelSectionMap& s : kernel_->sections) {
      Dso* d =
          machine_.add_kernel_section_map(*vm->dso, s.name, s.start, s.end, s.pgoff, s.identity);
      if (d) section_symbols_[d] = &s;
    }
    vm->dso->symsrc_name = kernel_->path;
    return *kernel_;
  }
  // maps__split_kallsyms(): the modules' symbols go to their Dsos, also to those already
  // loaded (without a .ko), less the first symbol of each of their runs.
  for (const Dso* early : early_modules_) {
    DsoEntry& e = dsos_.at(early);
    auto m = kernel_->modules.find(early->short_name);
    if (m == kernel_->modules.end()) continue;
    auto runs = kernel_->module_run_starts.find(early->short_name);
    const std::vector<uint64_t>* dropped =
        runs != kernel_->module_run_starts.end() ? &runs->second : nullptr;
    if (!e.ko) {
      e.module = &m->second;
      e.dropped_run_starts = dropped;
      continue;
    }
    // A module read from its .ko: kallsyms' symbols join its table, made relative to its map
    // ("So that we look just like we get from .ko files").
    const Map* map = machine_.kernel_map_of(early);
    if (!map) continue;
    std::vector<Symbol> late;
    for (const Symbol& s : m->second.symbols()) {
      if (dropped && std::binary_search(dropped->begin(), dropped->end(), s.start)) continue;
      Symbol r = s;
      r.start = map->map_ip(s.start);
      r.end = map->map_ip(s.end);
      late.push_back(r);
    }
    Result<ModuleSymbols> merged = load_kernel_module(
        early->long_name, BuildId::from_bytes(early->build_id), symbols_.config(), late);
    if (merged) {
      e.ko = modules_.emplace_back(std::make_unique<ModuleSymbols>(std::move(*merged))).get();
    }
  }
  early_modules_.clear();
  // symbol.c dso__load_kernel_sym(): once kallsyms is loaded, map__fixup_start/end make the
  // kernel map span exactly its symbols.
  if (kernel_->found()) {
    auto [start, end] = kernel_->kernel_range();
    if (start != end) machine_.fixup_kernel_map(start, end);
  }
  return *kernel_;
}

void Resolver::load_module(const Dso& dso, DsoEntry& e) {
  // dso__load() of a module Dso: its .ko (the build-id cache's, the recorded path under the
  // symfs); without one, the symbols kallsyms gave it, if the kernel's kallsyms was read
  // before (else when it is, load_kernel()).
  Result<ModuleSymbols> ko =
      symbols_.config().symbol_tables
          ? load_kernel_module(dso.long_name, BuildId::from_bytes(dso.build_id), symbols_.config())
          : make_error("no symbol tables");
  if (ko) {
    if (!kernel_) early_modules_.push_back(&dso);
    const ModuleSymbols& m =
        *modules_.emplace_back(std::make_unique<ModuleSymbols>(std::move(*ko)));
    e.ko = &m;
    // symbol-elf.c dso__process_kernel_symbol() (kmodule): the map now maps .text's offset;
    // the other sections get maps of their own.
    machine_.set_kernel_map_pgoff(&dso, m.text_pgoff);
    for (const KernelSectionMap& s : m.sections) {
      Dso* d = machine_.add_kernel_section_map(dso, s.name, s.start, s.end, s.pgoff, s.identity);
      if (d) section_symbols_[d] = &s;
    }
    return;
  }
  if (kernel_) {
    auto m = kernel_->modules.find(dso.short_name);
    if (m != kernel_->modules.end()) e.module = &m->second;
    return;
  }
  early_modules_.push_back(&dso);
}

uint64_t Resolver::kernel_unmap_ip(const Dso* dso, uint64_t ip) const {
  // A module read from its .ko adjusts its symbols too (dso__load_sym(): ET_REL).
  if (auto it = dsos_.find(dso); dso && it != dsos_.end() && it->second.ko) {
    const Map* map = machine_.kernel_map_of(dso);
    return map ? map->unmap_ip(ip) : ip;
  }
  // The kernel Dso's adjust_symbols; perf 6.1 does not give it to the Dsos of the other
  // sections' maps (symbol-elf.c dso__process_kernel_symbol()), whose addresses print as they
  // are.
  if (!dso || !kernel_ || !kernel_->adjust_symbols) return ip;
  const Map* vm = machine_.vmlinux_map();
  return vm && vm->dso == dso ? vm->unmap_ip(ip) : ip;
}

void Resolver::use_kernel_start() {
  if (kernel_start_known_) return;
  kernel_start_known_ = true;
  // machine.c machine__get_kernel_start(): "map__load(map)" of the kernel map, if there is
  // one yet; the answer is kept (1 << 63 on x86_64 whatever the map), so never again.
  if (!kernel_ && machine_.vmlinux_map()) load_kernel();
}

}  // namespace readperf
