// The symbol sources of the command line: `--symbols FILE.tar.zst` (a symbol archive, any
// number of times) and `--debuginfod URL` / `--no-debuginfod`, accepted anywhere on the line,
// before or after the command, for every command. They are taken out before the rest is
// parsed (report's own `-S/--symbols SYMBOL,...` filter keeps values that are not archives)
// and passed on as the environment SymbolConfig::from_environment() reads, as perf passes
// `--debuginfod` on as DEBUGINFOD_URLS: $READPERF_SYMBOLS (':'-separated archives) and
// $DEBUGINFOD_URLS.
//
//   std::vector<std::string> rest = take_symbol_source_args(argc, argv);
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace readperf::cli {

// Whether a `--symbols` value names a symbol archive rather than report's symbol list.
bool names_symbol_archive(std::string_view value);

// The arguments without the symbol-source options, which have been applied to the
// environment. `--debuginfod` without a URL (or `--debuginfod=`) keeps $DEBUGINFOD_URLS.
std::vector<std::string> take_symbol_source_args(int argc, char** argv);

}  // namespace readperf::cli
