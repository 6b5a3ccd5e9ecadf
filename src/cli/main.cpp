// readperf: reads perf.data files and prints what perf prints, faster.
//
//   readperf [--buildid-dir DIR] report -D|--header-only [-I]|--stats [-i FILE|-]
//   readperf [--buildid-dir DIR] report [--stdio] [--no-children] [--sort KEYS] [-i FILE|-]
//   readperf [--buildid-dir DIR] script [-F FIELDS] [-G] [--comms ..] [--time A,B] [-i FILE|-]
//   readperf stat report [-i FILE|-]
//   readperf convert [-i IN] -o OUT [--byte-order big|little] [--decompress|--compress[=N]] ...
//   readperf [--buildid-dir DIR] export --format collapsed [--pid] [--kernel] [-o FILE] [-i FILE|-]
//   readperf [--buildid-dir DIR] export --format sqlite -o FILE.db [-i FILE|-]
//   readperf [--buildid-dir DIR] [summary [--limit N] -i] FILE
//   readperf [--buildid-dir DIR] csv -o DIR [-i FILE|-]
//   readperf [--buildid-dir DIR] export --format pprof|speedscope|chrome [-o FILE] [-i FILE|-]
//   readperf [--buildid-dir DIR] data convert --to-json FILE|--to-ctf DIR [--force] [-i FILE|-]
//   readperf [--buildid-dir DIR] archive [-o FILE.tar.zst] [-i FILE]
//   readperf [--buildid-dir DIR] symbolize IN.pb.gz [-o OUT.pb.gz]
//   readperf [--buildid-dir DIR] flamegraph [-o FILE.html] [--diff BASE] [--event E] [-i FILE|-]
//   readperf --version | -v
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>

#include "archive_command.h"
#include "convert_command.h"
#include "csv_command.h"
#include "data_command.h"
#include "export_command.h"
#include "flamegraph_command.h"
#include "pager.h"
#include "perf_options.h"
#include "process_setup.h"
#include "progress_line.h"
#include "readperf/analysis/missing_symbols.h"
#include "readperf/analysis/posix_regex.h"
#include "readperf/symbols/debuginfod.h"
#include "readperf/symbols/symbol_files.h"
#include "report_command.h"
#include "script_command.h"
#include "stat_command.h"
#include "summary_command.h"
#include "symbol_source_args.h"
#include "symbolize_command.h"
#include "version.h"

namespace {

// After the command: what the symbol sources warned about, then the samples whose binaries
// were found nowhere.
void print_symbol_notes() {
  for (const std::string& w : readperf::take_symbol_warnings()) {
    fmt::print(stderr, "readperf: {}\n", w);
  }
  // The line for samples in binaries found nowhere is for a person at a terminal: perf
  // prints nothing there, and scripts (perf's own shell tests among them) read `2>&1` of a
  // report as perf's. READPERF_SYMBOL_NOTES=1 asks for it anyway.
  std::string line = readperf::take_missing_symbols_summary();
  const char* notes = std::getenv("READPERF_SYMBOL_NOTES");
  bool wanted = notes ? std::string_view(notes) == "1" : ::isatty(STDERR_FILENO) == 1;
  if (!line.empty() && wanted) fmt::print(stderr, "readperf: {}\n", line);
}

int run(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
  int rc = run(argc, argv);
  // Before exit handlers tear down libcurl and OpenSSL under running prefetches.
  readperf::debuginfod_shutdown();
  print_symbol_notes();
  return rc;
}

namespace {

int run(int argc, char** argv) {
  readperf::cli::reexec_with_huge_page_malloc(argv);
  readperf::cli::widen_output_pipe();
  CLI::App app{"readperf: reads perf.data recordings"};
  app.require_subcommand(1);
  // perf --version prints "perf version 6.1.x"; ours adds the commit it was built from.
  std::string version = fmt::format("readperf version {}", readperf::cli::kVersion);
  if (*readperf::cli::kGitDescribe) version += fmt::format(" ({})", readperf::cli::kGitDescribe);
  app.set_version_flag("--version", version, "print the version and exit");
  std::string buildid_dir;
  app.add_option("--buildid-dir", buildid_dir, "build-id cache directory (default ~/.debug)");
  // Taken out of the command line before parsing (symbol_source_args.h); here for --help, and
  // to refuse a value that is no archive.
  std::string symbols_archive, debuginfod_url;
  CLI::Option* symbols_opt = app.add_option(
      "--symbols", symbols_archive,
      "read symbols from this archive (readperf archive's FILE.tar.zst), in any position");
  app.add_option("--debuginfod", debuginfod_url,
                 "fetch missing binaries and debug files from this debuginfod server (default "
                 "$DEBUGINFOD_URLS); --no-debuginfod: never");
  // perf --no-pager (perf.c handle_options()); report and script take it as their own too.
  bool no_pager = false;
  app.add_flag("--no-pager", no_pager, "do not page report and script output");
  // The progress line on a big file (progress_line.h).
  bool quiet = false;
  app.add_flag("-q,--quiet", quiet, "no progress line while a big file is read");
  bool no_mini_debuginfo = false;
  app.add_flag("--no-minidebuginfo", no_mini_debuginfo,
               "do not read .gnu_debugdata symbols (perf 6.1 does not), to print what perf prints");

  readperf::cli::ReportOptions report;
  CLI::App* rep = app.add_subcommand(
      "report", "perf report: the histogram (--stdio), --stats, --header-only, -D");
  rep->add_option("-i,--input", report.input, "input file, - for standard input")
      ->capture_default_str();
  rep->add_flag("-D,--dump-raw-trace", report.dump_raw_trace, "dump every record");
  rep->add_flag("--header-only", report.header_only, "print the header and stop");
  rep->add_flag("--header", report.header, "print the header before the report");
  rep->add_flag("-I,--show-info", report.show_info, "show extra header information");
  rep->add_flag("--stats", report.stats, "print record counts");
  rep->add_flag("--tasks", report.tasks, "Display recorded tasks");
  rep->add_flag("-T,--threads", report.show_threads, "Show per-thread event counters");
  rep->add_option("--pretty", report.pretty, "pretty printing style key: normal raw")
      ->option_text("<key>")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  rep->add_flag("-U,--hide-unresolved", report.hide_unresolved,
                "Only display entries resolved to a symbol");
  rep->add_flag("--demangle")->description("Disable symbol demangling (default: demangle)");
  rep->add_flag("--no-demangle", report.no_demangle, "do not demangle C++ symbol names");
  rep->add_flag("--demangle-kernel")->description("Enable kernel symbol demangling");
  rep->add_flag("--full-source-path", report.full_source_path,
                "Show full source file name path for source lines");
  rep->add_flag("--mmaps", report.mmaps, "Display recorded tasks memory maps");
  rep->add_flag("--stdio", report.stdio, "plain text output");
  rep->add_flag("--children")->description("accumulate callchains of children (default)");
  rep->add_flag("--no-children")->description("do not accumulate callchains of children");
  rep->add_flag("--mem-mode", report.mem_mode, "mem access profile");
  // util/evswitch.h OPTS_EVSWITCH.
  rep->add_option("--switch-on", report.switch_on,
                  "Consider events after the occurrence of this event");
  rep->add_option("--switch-off", report.switch_off,
                  "Stop considering events after the occurrence of this event");
  rep->add_flag("--show-on-off-events", report.show_on_off_events,
                "Show the on/off switch events, used with --switch-on and --switch-off");
  rep->add_flag("--disable-order", report.disable_order, "Disable raw trace ordering");
  rep->add_option("--group-sort-idx", report.group_sort_idx,
                  "Sort the output by the event at the index n in group. If n is invalid, sort "
                  "by the first event. WARNING: should be used on grouped events.");
  // Options of perf's annotation and TUI views, which --stdio does not use: taken, and they
  // change nothing, as in perf's --stdio report.
  rep->add_flag("-f,--force")->description("don't complain, do it");
  rep->add_flag("--asm-raw")
      ->description("Display raw encoding of assembly instructions (annotate)");
  rep->add_option("-M,--disassembler-style")->description("Specify disassembler style (annotate)");
  rep->add_option("--objdump")->description("objdump binary to use for disassembly (annotate)");
  rep->add_option("--prefix")->description("Add prefix to source file path names (annotate)");
  rep->add_option("--prefix-strip")
      ->description("Strip first N entries of source file path (annotate)");
  rep->add_flag("--source,!--no-source")
      ->description("Interleave source code with assembly (annotate)");
  rep->add_option("--samples")->description("Number of samples to save per histogram entry (TUI)");
  rep->add_option("--stdio-color")->description("'always', 'never' or 'auto'");
  rep->add_flag("--tui")->description("Use the TUI interface (here: --stdio)");
  rep->add_flag("--ignore-vmlinux", report.ignore_vmlinux, "don't load vmlinux even if found");
  rep->add_flag("-m,--modules")->description("load module symbols (with -k and a live kernel)");
  rep->add_flag("--show-ref-call-graph", report.show_ref_callgraph,
                "show the call graphs of an event without its own (the reference event's)");
  rep->add_flag("--skip-empty")->description("do not display empty (or dummy) events (default)");
  rep->add_flag("--no-skip-empty")->description("display empty (or dummy) events too");
  // builtin-report.c OPT_BOOLEAN "inline" (symbol_conf.inline_name, true by default).
  rep->add_flag("--inline")->description("inline frames in DWARF-unwound call chains (default)");
  rep->add_flag("--no-inline")->description("no inline frames in call chains");
  // perf's OPT_STRING options keep the last value given (several --sort: the last wins).
  auto last_wins = [](CLI::Option* o) {
    return o->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  };
  last_wins(rep->add_option("-s,--sort", report.sort,
                            "sort by key(s): pid, comm, dso, symbol, srcline, and the "
                            "fields overhead, overhead_sys, overhead_us, overhead_children, "
                            "sample, period"));
  last_wins(rep->add_option(
      "-F,--fields", report.fields,
      "output field(s): overhead period sample overhead_sys overhead_us overhead_children "
      "and the sort keys"));
  rep->add_flag("-q,--quiet", report.quiet, "Do not show any warnings or messages");
  last_wins(rep->add_option("-t,--field-separator", report.field_sep,
                            "separator for columns, no spaces will be added between columns "
                            "'.' is reserved."))
      ->option_text("separator");
  std::string column_widths;
  CLI::Option* column_widths_opt =
      last_wins(rep->add_option("-w,--column-widths", column_widths,
                                "don't try to adjust column width, use these fixed values"))
          ->option_text("width[,width...]");
  rep->add_flag("--show-total-period", report.show_total_period,
                "Show a column with the sum of periods");
  rep->add_flag("--show-cpu-utilization,--showcpuutilization", report.show_cpu_utilization,
                "show CPU utilization (sys and usr columns)");
  std::string percentage;
  CLI::Option* percentage_opt = last_wins(
      rep->add_option("--percentage", percentage,
                      "how to display percentage of filtered entries: relative or absolute"));
  // parse_filter_percentage(): either word exactly, else the usage and 129.
  percentage_opt->check(CLI::IsMember({"relative", "absolute"}));
  // builtin-report.c OPT_CALLBACK "percent-type" (annotate.c annotate_parse_percent_type()):
  // the percentages of perf's annotation of a symbol, which --stdio's histogram does not
  // print; a value outside perf's eight is a usage error.
  std::string percent_type;
  last_wins(rep->add_option("--percent-type", percent_type,
                            "Set percent type local/global-period/hits (annotation only: the "
                            "--stdio histogram is the same for every type)"))
      ->option_text("<local-period>")
      ->check(CLI::IsMember({"local-period", "global-period", "local-hits", "global-hits",
                             "period-local", "period-global", "hits-local", "hits-global"}));
  rep->add_flag("--group")->description("show event group information together (default)");
  rep->add_flag("--no-group")->description("show the events of a group one by one");
  rep->add_flag("-b,--branch-stack")
      ->description("one entry per branch of the samples' branch stacks (default with them)");
  rep->add_flag("--no-branch-stack")->description("one entry per sample, branch stacks or not");
  rep->add_flag("--branch-history", report.branch_history,
                "add last branch records to call history");
  rep->add_flag("--stitch-lbr", report.stitch_lbr, "Enable LBR callgraph stitching approach");
  float percent_limit = 0;
  CLI::Option* pl =
      rep->add_option("--percent-limit", percent_limit, "hide entries under this percent");
  rep->add_flag("-n,--show-nr-samples", report.show_nr_samples, "show the number of samples");
  rep->add_flag("--hierarchy", report.hierarchy, "Show entries in a hierarchy");
  rep->add_flag("--raw-trace", report.raw_trace, "tracepoint fields as raw values");
  last_wins(rep->add_option("-c,--comms", report.comms, "only show these comms (comma-separated)"));
  last_wins(rep->add_option("-d,--dsos", report.dsos, "only show these dsos (comma-separated)"));
  last_wins(
      rep->add_option("-S,--symbols", report.symbols, "only show these symbols (comma-separated)"));
  last_wins(rep->add_option("--pid", report.pids, "only consider symbols in these pids"));
  last_wins(rep->add_option("--tid", report.tids, "only consider symbols in these tids"));
  last_wins(rep->add_option("--symbol-filter", report.symbol_filter,
                            "only show symbols that (partially) match with this filter"));
  last_wins(rep->add_option("--time", report.time,
                            "Time span of interest (start,stop), several, or percent forms "
                            "(0%-10%, 10%/2)"));
  last_wins(rep->add_option("-C,--cpu", report.cpu_list, "list of cpus to profile"));
  last_wins(rep->add_option("--time-quantum", report.time_quantum,
                            "Set time quantum for time sort key (default 100ms)"))
      ->option_text("time (ms|us|ns|s)");
  rep->add_flag("--ns", report.nanosecs, "Show times in nanosecs");
  last_wins(rep->add_option("--max-stack", report.max_stack,
                            "Set the maximum stack depth when parsing the callchain, anything "
                            "beyond the specified depth will be ignored. Default: 127"));
  last_wins(rep->add_option("--ignore-callees", report.ignore_callees,
                            "ignore callees of these functions in call graphs"))
      ->option_text("<regex>");
  last_wins(rep->add_option("-p,--parent", report.parent,
                            "regex filter to identify parent, see: '--sort parent'"))
      ->option_text("<regex>");
  rep->add_flag("-x,--exclude-other", report.exclude_other,
                "Only display entries with parent-match");
  last_wins(rep->add_option("--socket-filter", report.socket_filter,
                            "only show processor socket that match with this filter"));
  std::string call_graph;
  CLI::Option* cg = rep->add_option("-g,--call-graph", call_graph,
                                    "print_type,threshold[,print_limit],order,sort_key,value")
                        ->expected(0, 1);
  rep->add_flag("--no-call-graph", report.no_call_graph, "do not print call graphs");
  rep->add_flag("-G,--inverted", report.inverted, "caller-based call graphs");
  rep->add_flag("-v,--verbose", report.verbose, "more detail (dso long names)");
  rep->add_option("--kallsyms", report.kallsyms, "kernel symbols from this kallsyms file");
  rep->add_option("-k,--vmlinux", report.vmlinux, "vmlinux pathname");
  // builtin-report.c OPT_CALLBACK_OPTARG "itrace" (itrace_parse_synth_opts()).
  readperf::cli::add_itrace_options(*rep, report.itrace);
  rep->add_flag("--total-cycles", report.total_cycles, "Sort all blocks by 'Sampled Cycles%'");
  rep->add_option("--symfs", report.symfs, "look for files relative to this directory");
  rep->add_flag("--no-pager", no_pager, "do not send the output through $PAGER on a terminal");

  readperf::cli::ScriptOptions script;
  CLI::App* scr = readperf::cli::add_script_command(app, script);
  scr->add_flag("--no-pager", no_pager, "do not send the output through $PAGER on a terminal");
  readperf::cli::StatOptions stat;
  CLI::App* stat_cmd = readperf::cli::add_stat_command(app, stat);

  readperf::cli::ExportOptions exp;
  CLI::App* ex = readperf::cli::add_export_command(app, exp);
  readperf::cli::FlamegraphCommandOptions flame;
  CLI::App* flame_cmd = readperf::cli::add_flamegraph_command(app, flame);

  readperf::cli::ConvertCliOptions conv;
  CLI::App* conv_cmd = readperf::cli::add_convert_command(app, conv);

  readperf::cli::ArchiveOptions archive;
  CLI::App* archive_cmd = readperf::cli::add_archive_command(app, archive);
  readperf::cli::SymbolizeOptions symbolize;
  CLI::App* symbolize_cmd = readperf::cli::add_symbolize_command(app, symbolize);

  readperf::cli::DataConvertOptions data_convert;
  CLI::App* data_cmd = readperf::cli::add_data_command(app, data_convert);

  readperf::cli::SummaryOptions summary;
  CLI::App* sum = readperf::cli::add_summary_command(app, summary);
  readperf::cli::CsvOptions csv;
  CLI::App* csv_cmd = readperf::cli::add_csv_command(app, csv);

  // `--symbols FILE.tar.zst`, `--debuginfod URL` anywhere, for every command.
  std::vector<std::string> given = readperf::cli::take_symbol_source_args(argc, argv);
  std::vector<char*> given_ptrs;
  for (std::string& a : given) given_ptrs.push_back(a.data());
  given_ptrs.push_back(nullptr);
  // `readperf perf.data` is `readperf summary -i perf.data`.
  std::vector<std::string> args =
      readperf::cli::default_to_summary(app, static_cast<int>(given.size()), given_ptrs.data());
  if (std::optional<int> st = readperf::cli::parse_perf_command_line(app, std::move(args)))
    return *st;
  if (*symbols_opt) {
    fmt::print(stderr, "readperf: --symbols {}: not a symbol archive (FILE.tar.zst)\n",
               symbols_archive);
    return 1;
  }
  report.buildid_dir = buildid_dir;
  // builtin-report.c report_parse_ignore_callees_opt(): a bad pattern is a usage error.
  if (rep->parsed() && !report.ignore_callees.empty()) {
    if (std::string why = readperf::PosixRegex::compile_error(report.ignore_callees);
        !why.empty()) {
      fmt::print(stderr, "Invalid --ignore-callees regex: {}\n{}\n", report.ignore_callees, why);
      return 129;
    }
  }
  report.mini_debuginfo = !no_mini_debuginfo;
  // The later of --children and --no-children wins, as in perf's option parser.
  for (const CLI::Option* o : rep->parse_order()) {
    if (o->check_lname("children")) report.children = true;
    if (o->check_lname("no-children")) report.children = false;
    if (o->check_lname("skip-empty")) report.skip_empty = true;
    if (o->check_lname("no-skip-empty")) report.skip_empty = false;
    if (o->check_lname("inline")) report.inline_names = true;
    if (o->check_lname("no-inline")) report.inline_names = false;
    if (o->check_lname("group")) report.group = true;
    if (o->check_lname("no-group")) report.group = false;
    if (o->check_lname("branch-stack")) report.branch_stack = true;
    if (o->check_lname("no-branch-stack")) report.branch_stack = false;
    if (o->check_lname("demangle")) report.no_demangle = false;
    if (o->check_lname("no-demangle")) report.no_demangle = true;
  }
  readperf::cli::apply_trace_options(*scr, script);
  for (const CLI::Option* o : scr->parse_order()) {
    if (o->check_lname("inline")) script.inline_names = true;
    if (o->check_lname("no-inline")) script.inline_names = false;
  }
  if (*pl) report.percent_limit = percent_limit;
  if (*cg) report.call_graph = call_graph;
  if (*column_widths_opt) report.column_widths = column_widths;
  if (*percentage_opt) report.percentage_relative = percentage == "relative";
  readperf::cli::set_progress_quiet(quiet);
  if (scr->parsed() && script.xed) {
    // builtin-script.c parse_xed(): force_pager(), which --no-pager does not turn off.
    readperf::cli::start_forced_pager(::isatty(STDOUT_FILENO) ? "xed -F insn: -A -64 | less"
                                                              : "xed -F insn: -A -64");
  } else if ((rep->parsed() || scr->parsed()) && !no_pager) {
    readperf::cli::start_pager();
  }
  if (rep->parsed()) return readperf::cli::run_report(report);
  script.buildid_dir = buildid_dir;
  script.mini_debuginfo = !no_mini_debuginfo;
  if (scr->parsed()) return readperf::cli::run_script(script);
  if (stat_cmd->parsed()) return readperf::cli::run_stat_report(stat);
  exp.buildid_dir = buildid_dir;
  exp.mini_debuginfo = !no_mini_debuginfo;
  if (ex->parsed()) return readperf::cli::run_export(exp);
  summary.buildid_dir = buildid_dir;
  summary.mini_debuginfo = !no_mini_debuginfo;
  if (sum->parsed()) return readperf::cli::run_summary(summary);
  csv.buildid_dir = buildid_dir;
  csv.mini_debuginfo = !no_mini_debuginfo;
  if (csv_cmd->parsed()) return readperf::cli::run_csv(csv);
  if (conv_cmd->parsed()) return readperf::cli::run_convert(conv);
  data_convert.buildid_dir = buildid_dir;
  data_convert.mini_debuginfo = !no_mini_debuginfo;
  if (data_cmd->parsed()) return readperf::cli::run_data_convert(data_convert);
  flame.buildid_dir = buildid_dir;
  flame.mini_debuginfo = !no_mini_debuginfo;
  if (flame_cmd->parsed()) return readperf::cli::run_flamegraph_command(flame);
  archive.buildid_dir = buildid_dir;
  archive.mini_debuginfo = !no_mini_debuginfo;
  if (archive_cmd->parsed()) return readperf::cli::run_archive(archive);
  symbolize.buildid_dir = buildid_dir;
  symbolize.mini_debuginfo = !no_mini_debuginfo;
  if (symbolize_cmd->parsed()) return readperf::cli::run_symbolize(symbolize);
  return 2;
}

}  // namespace
