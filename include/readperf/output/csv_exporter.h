// `readperf csv -o DIR`: a recording as four CSV files (RFC 4180: a header row, fields with a
// comma, quote or line break quoted, quotes doubled, CRLF line ends) for spreadsheets and
// scripts:
//
//   stat.csv       type,count                  records per type (`report --stats` counts)
//   overview.csv   nr,type,pid,tid,time,info   every record, kernel records in time order
//   processes.csv  pid,name,mmaps,fork_time,exit_time,event,samples,period
//                                              one row per process and event it was sampled
//                                              in (event empty for processes never sampled)
//   results.csv    event,function,source_file,binary,samples,period,percent
//                                              one row per event and function
//
// Times are nanoseconds as recorded (perf_clock), empty when the record has none. Memory
// grows with the number of functions and processes, not records: overview.csv is written as
// the records come.
//
//   CsvConfig cfg;
//   cfg.symbols = SymbolConfig::from_environment();
//   Status st = run_csv_export(*data, cfg, "out");
#pragma once

#include <string>
#include <string_view>

#include "readperf/format/error.h"
#include "readperf/output/function_rows.h"
#include "readperf/output/out_buffer.h"
#include "readperf/reader/perf_data.h"
#include "readperf/symbols/symbol_config.h"

namespace readperf {

struct CsvConfig {
  SymbolConfig symbols;
  SourceFileLookup source_file;  // may be empty: the source_file column is then empty
};

// Appends `field` to `out`, quoted as RFC 4180 requires.
void csv_field(OutBuffer& out, std::string_view field);

// Writes the four files into `dir` (created when missing).
Status run_csv_export(PerfData& data, const CsvConfig& config, const std::string& dir);

}  // namespace readperf
