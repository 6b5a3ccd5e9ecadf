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

#include <fmt/format.h>
#include <unistd.h>

#include <string>
#include <string_view>
#include <vector>

#include "readperf/symbols/symbol_config.h"

namespace readperf::cli {

// Whether a `--symbols` value names a symbol archive rather than report's symbol list.
bool names_symbol_archive(std::string_view value);

// The arguments without the symbol-source options, which have been applied to the
// environment. `--debuginfod` without a URL (or `--debuginfod=`) keeps $DEBUGINFOD_URLS.
std::vector<std::string> take_symbol_source_args(int argc, char** argv);

// The symbol settings of a command's options: the environment's sources
// (SymbolConfig::from_environment()), then the global --buildid-dir and --no-minidebuginfo and
// the command's --symfs, --kallsyms and --no-demangle where it has them. One place for every
// command.
template <typename Options>
SymbolConfig symbol_config(const Options& o) {
  SymbolConfig sc = SymbolConfig::from_environment();
  if (!o.buildid_dir.empty()) sc.buildid_dir = o.buildid_dir;
  sc.mini_debuginfo = o.mini_debuginfo;
  sc.symfs = o.symfs;
  if (!o.kallsyms.empty()) sc.kallsyms = o.kallsyms;
  if constexpr (requires { o.vmlinux; }) sc.vmlinux = o.vmlinux;
  if constexpr (requires { o.ignore_vmlinux; }) sc.ignore_vmlinux = o.ignore_vmlinux;
  if constexpr (requires { o.no_demangle; }) sc.demangle = !o.no_demangle;
  return sc;
}

// symbol.c symbol__validate_sym_arguments(): the kernel files named with -k/--vmlinux and
// --kallsyms must be readable ("Invalid file: NAME" on standard error otherwise), as report and
// script check before reading anything. False when one is not.
template <typename Options>
bool validate_kernel_files(const Options& o) {
  auto readable = [](const std::string& path) {
    if (path.empty() || ::access(path.c_str(), R_OK) == 0) return true;
    fmt::print(stderr, "Invalid file: {}\n", path);
    return false;
  };
  if constexpr (requires { o.vmlinux; }) {
    if (!readable(o.vmlinux)) return false;
  }
  return readable(o.kallsyms);
}

}  // namespace readperf::cli
