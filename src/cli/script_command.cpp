#include "script_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "symbol_prefetch.h"
#include "open_warnings.h"
#include "readperf/output/out_buffer.h"
#include "readperf/output/script_printer.h"
#include "readperf/reader/perf_data.h"

namespace readperf::cli {

namespace {

// perf's strlist/intlist options: comma-separated (intlist also takes spaces).
std::vector<std::string> split(const std::string& s, const char* seps) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t end = s.find_first_of(seps, pos);
    if (end == std::string::npos) end = s.size();
    if (end > pos) out.push_back(s.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

bool parse_ints(const std::string& s, std::vector<int32_t>& out) {
  for (const std::string& t : split(s, ", ")) {
    char* end = nullptr;
    long v = std::strtol(t.c_str(), &end, 10);
    if (*end) return false;
    out.push_back(static_cast<int32_t>(v));
  }
  return true;
}

}  // namespace

CLI::App* add_script_command(CLI::App& app, ScriptOptions& o) {
  CLI::App* s = app.add_subcommand("script", "perf script: every sample, one line or call chain");
  s->add_option("-i,--input", o.input, "input file, - for standard input")->capture_default_str();
  s->add_option("-F,--fields", o.fields,
                "fields: comm,tid,pid,time,cpu,event,ip,sym,symoff,dso,period,addr,...; "
                "[type:]list, +field/-field to edit the defaults")
      ->allow_extra_args(false);
  s->add_flag("-G,--hide-call-graph", o.hide_call_graph, "do not print call chains");
  s->add_option("-c,--comms", o.comms, "only these comms (comma-separated)");
  s->add_option("--pid,--pids", o.pids, "only these pids (comma-separated)");
  s->add_option("--tid,--tids", o.tids, "only these tids (comma-separated)");
  s->add_option("-C,--cpu", o.cpu, "only these cpus (0-2,4)");
  s->add_option("--time", o.time, "only this time range: start,stop in seconds");
  s->add_flag("--ns", o.nanosecs, "times in nanoseconds");
  s->add_option("--symfs", o.symfs, "look for files relative to this directory");
  s->add_option("--kallsyms", o.kallsyms, "kallsyms file for the kernel's symbols");
  s->add_flag("--no-demangle", o.no_demangle, "do not demangle C++ names");
  // builtin-script.c OPT_BOOLEAN "inline" (symbol_conf.inline_name, true by default).
  s->add_flag("--inline")->description("inline frames in DWARF-unwound call chains (default)");
  s->add_flag("--no-inline")->description("no inline frames in call chains");
  s->add_option("--max-stack", o.max_stack, "call chain entries to show at most");
  s->add_flag("-v,--verbose", o.verbose, "list the binaries looked for, and where");
  return s;
}

int run_script(const ScriptOptions& o) {
  ScriptConfig cfg;
  cfg.fields = o.fields;
  cfg.hide_call_graph = o.hide_call_graph;
  cfg.comms = split(o.comms, ",");
  if (!parse_ints(o.pids, cfg.pids) || !parse_ints(o.tids, cfg.tids)) {
    fmt::print(stderr, "readperf: invalid --pid/--tid list\n");
    return 1;
  }
  cfg.cpu_list = o.cpu;
  cfg.time = o.time;
  cfg.nanosecs = o.nanosecs;
  cfg.max_stack = o.max_stack;
  cfg.verbose = o.verbose;
  cfg.symbols = SymbolConfig::from_environment();
  if (!o.buildid_dir.empty()) cfg.symbols.buildid_dir = o.buildid_dir;
  cfg.symbols.mini_debuginfo = o.mini_debuginfo;
  cfg.symbols.symfs = o.symfs;
  cfg.symbols.kallsyms = o.kallsyms;
  cfg.symbols.demangle = !o.no_demangle;
  cfg.symbols.inline_names = o.inline_names;

  auto data = PerfData::open(o.input);
  if (!data) {
    fmt::print(stderr, "readperf: {}\n", data.error().message());
    return 1;
  }
  print_open_warnings(**data);
  prefetch_symbols(**data, cfg.symbols);
  OutBuffer out(stdout);
  Status st = readperf::run_script(**data, cfg, out, stderr);
  out.flush();
  if (!st) {
    fmt::print(stderr, "readperf: {}\n", st.error().message());
    return 1;
  }
  return 0;
}

}  // namespace readperf::cli
