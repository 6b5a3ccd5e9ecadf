// `readperf archive`: the symbol files a recording's samples need, written as a symbol archive
// (symbols/archive_writer.h) to read the recording on another machine with `--symbols`. Only
// what the hits need: every binary a sample or a call-chain entry fell in (the same resolution
// as `report`, DWARF unwinding included), its runtime file and its separate debug file, and the
// kallsyms the kernel's symbols came from. perf's `perf archive` tars the whole build-id cache
// entries of every binary the recording names.
//
//   ArchiveExportConfig cfg;
//   cfg.symbols = SymbolConfig::from_environment();
//   Result<ArchiveExportSummary> s = run_archive_export(*data, cfg, "perf.data.tar.zst");
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "readperf/format/error.h"
#include "readperf/reader/perf_data.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

struct ArchiveExportConfig {
  SymbolConfig symbols;
  uint32_t max_stack = 127;
};

struct ArchiveExportSummary {
  size_t binaries = 0;     // binaries (the kernel's kallsyms included) archived
  size_t files = 0;        // files written
  uint64_t bytes_in = 0;   // their size
  uint64_t bytes_out = 0;  // the archive's size
  // Binaries samples fell in that could not be archived, and why ("not found", "no build-id").
  std::vector<std::string> left_out;
};

Result<ArchiveExportSummary> run_archive_export(PerfData& data, const ArchiveExportConfig& config,
                                                const std::string& out_path);

}  // namespace readperf
