#include "script_command.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cctype>
#include <cstdio>

#include "itrace_options.h"
#include "open_warnings.h"
#include "progress_line.h"
#include "readperf/output/out_buffer.h"
#include "readperf/output/script_dlfilter.h"
#include "readperf/output/script_engine.h"
#include "readperf/output/script_generate.h"
#include "readperf/output/script_list.h"
#include "readperf/output/script_printer.h"
#include "script_launch.h"
#ifdef READPERF_PERL_SCRIPTING
#include "readperf/output/script_perl.h"
#endif
#ifdef READPERF_PYTHON_SCRIPTING
#include "readperf/output/script_python.h"
#endif
#include "readperf/analysis/symbol_prefetch.h"
#include "readperf/reader/perf_data.h"
#include "readperf/reader/record_errors.h"
#include "selection_args.h"
#include "symbol_source_args.h"

namespace readperf::cli {

CLI::App* add_script_command(CLI::App& app, ScriptOptions& o) {
  CLI::App* s = app.add_subcommand("script", "perf script: every sample, one line or call chain");
  s->add_option("-i,--input", o.input, "input file, - for standard input")->capture_default_str();
  s->add_option("-F,--fields", o.fields,
                "fields: comm,tid,pid,time,cpu,event,ip,sym,symoff,dso,period,addr,...; "
                "[type:]list, +field/-field to edit the defaults")
      ->allow_extra_args(false)
      ->check(CLI::Validator(
          [](const std::string& arg) {
            Status st = check_script_fields(arg);
            return st ? std::string() : st.error().message();
          },
          "", "fields"));
  s->add_option("-s,--script", o.script,
                "run this Python script (perf's scripting API: process_event(), SYS__EVENT() "
                "handlers, trace_begin(), trace_end()) on the samples instead of printing them");
  s->add_option("script-args", o.script_args, "the script's arguments (its sys.argv[1:])");
  s->add_flag("-l,--list", o.list_scripts, "list available scripts");
  s->add_option("-g,--gen-script", o.gen_script,
                "generate perf-script.py, a script skeleton with a handler per tracepoint "
                "(python)");
  s->add_flag("-G,--hide-call-graph", o.hide_call_graph, "do not print call chains");
  s->add_option("-c,--comms", o.comms, "only these comms (comma-separated)");
  s->add_option("--pid,--pids", o.pids, "only these pids (comma-separated)");
  s->add_option("--tid,--tids", o.tids, "only these tids (comma-separated)");
  s->add_option("-C,--cpu", o.cpu, "only these cpus (0-2,4)");
  s->add_option("--time", o.time, "only this time range: start,stop in seconds");
  s->add_flag("--ns", o.nanosecs, "times in nanoseconds");
  s->add_option("--symfs", o.symfs, "look for files relative to this directory");
  s->add_option("--kallsyms", o.kallsyms, "kallsyms file for the kernel's symbols");
  s->add_option("-k,--vmlinux", o.vmlinux, "vmlinux pathname");
  s->add_flag("--demangle")->description("demangle C++ symbol names (default)");
  s->add_flag("--no-demangle", o.no_demangle, "do not demangle C++ names");
  s->add_flag("--demangle-kernel")->description("demangle kernel symbol names");
  // builtin-script.c OPT_BOOLEAN "inline" (symbol_conf.inline_name, true by default).
  s->add_flag("--inline")->description("inline frames in DWARF-unwound call chains (default)");
  s->add_flag("--no-inline")->description("no inline frames in call chains");
  s->add_option("--max-stack", o.max_stack, "call chain entries to show at most");
  s->add_option("--max-blocks", o.max_blocks, "code blocks brstackinsn prints at most");
  s->add_flag("--stitch-lbr", o.config.stitch_lbr, "Enable LBR callgraph stitching approach");
  s->add_flag("-v,--verbose", o.verbose, "list the binaries looked for, and where");
  s->add_flag("--reltime", o.config.reltime, "Show time stamps relative to start");
  s->add_flag("--deltatime", o.config.deltatime, "Show time stamps relative to previous event");
  s->add_flag("--show-task-events", o.config.show_task_events, "Show the fork/comm/exit events");
  s->add_flag("--show-mmap-events", o.config.show_mmap_events, "Show the mmap events");
  s->add_flag("--show-switch-events", o.config.show_switch_events,
              "Show context switch events (if recorded)");
  s->add_flag("--show-namespace-events", o.config.show_namespace_events,
              "Show namespace events (if recorded)");
  s->add_flag("--show-cgroup-events", o.config.show_cgroup_events,
              "Show cgroup events (if recorded)");
  s->add_flag("--show-lost-events", o.config.show_lost_events, "Show lost events (if recorded)");
  s->add_flag("--show-round-events", o.config.show_round_events, "Show round events (if recorded)");
  s->add_flag("--show-bpf-events", o.config.show_bpf_events,
              "Show bpf related events (if recorded)");
  s->add_flag("--show-text-poke-events", o.config.show_text_poke_events,
              "Show text poke related events (if recorded)");
  s->add_option("--switch-on", o.config.switch_on, "Only consider events after this event is found")
      ->option_text("event");
  s->add_option("--switch-off", o.config.switch_off,
                "Stop considering events after this event is found")
      ->option_text("event");
  s->add_flag("--show-on-off-events", o.config.show_on_off_events,
              "Show the --switch-on/off events too");
  s->add_flag("--show-kernel-path", o.config.show_kernel_path,
              "Show the path of [kernel.kallsyms]");
  s->add_flag("--header", o.config.header, "Show data header.");
  s->add_flag("--header-only", o.config.header_only, "Show only data header.");
  s->add_flag("-I,--show-info", o.config.show_info,
              "display extended information from perf.data file");
  s->add_option("--dsos", o.dsos, "only consider symbols in these DSOs")
      ->option_text("dso[,dso...]");
  s->add_option("-S,--symbols", o.symbols, "only consider these symbols")
      ->option_text("symbol[,symbol...]");
  s->add_option("--stop-bt", o.stop_bt, "Stop display of callgraph at these symbols")
      ->option_text("symbol[,symbol...]");
  s->add_option("--addr-range", o.config.addr_range,
                "Use with -S to list traced records within address range");
  s->add_flag("-d,--debug-mode", o.config.debug_mode,
              "do various checks like samples ordering and lost events");
  s->add_flag("-D,--dump-raw-trace", o.config.dump_raw_trace, "dump raw trace in ASCII");
  s->add_option("--dlfilter", o.dlfilter, "filter .so file name");
  s->add_option("--dlarg", o.dlargs, "filter argument");
  s->add_flag("--list-dlfilters", o.list_dlfilters, "list available dlfilters");
  s->add_flag("-L,--Latency", o.config.latency_format,
              "show latency attributes (irqs/preemption disabled, etc)");
  s->add_flag("--dump-unsorted-raw-trace", o.config.dump_unsorted,
              "dump unsorted raw trace in ASCII");
  s->add_flag("--per-event-dump", o.config.per_event_dump,
              "Dump trace output to files named by the monitored events");
  s->add_flag("--full-source-path", o.full_source_path,
              "Show full source file name path for source lines");
  // builtin-script.c: instruction tracing. readperf decodes no AUX area data; on a recording
  // without it these change only what they change in perf: the fields, nanosecond times.
  add_itrace_options(*s, o.itrace);
  s->add_option("--insn-trace", o.insn_trace, "Decode instructions from itrace")
      ->expected(0, 1)
      ->option_text("[=<raw|disasm>]")
      ->check(CLI::Validator(
          [](const std::string& v) {
            // parse_insn_trace(): perf 6.1 has no disasm field, so "disasm" fails as -F does.
            if (v == "disasm") {
              Status st = check_script_fields(kInsnTraceDisasmFields);
              return st ? std::string() : st.error().message();
            }
            return v.empty() || v == "raw" ? std::string() : std::string("Only accept raw|disasm");
          },
          "", "insn-trace"));
  s->add_flag("--xed", o.xed, "Run xed disassembler on output");
  s->add_flag("--call-trace")->description("Decode calls from itrace");
  s->add_flag("--call-ret-trace")->description("Decode calls and returns from itrace");
  s->add_option("--graph-function", o.config.graph_function,
                "Only print symbols and callees with --call-trace/--call-ret-trace")
      ->option_text("symbol[,symbol...]");
  // builtin-script.c: guest machines (perf kvm recordings); any of them sets perf_guest.
  s->add_option("--guestmount", o.guestmount,
                "guest mount directory under which every guest os instance has a subdir")
      ->option_text("directory");
  s->add_option("--guestvmlinux", o.guestvmlinux, "file saving guest os vmlinux")
      ->option_text("file");
  s->add_option("--guestkallsyms", o.guestkallsyms, "file saving guest os /proc/kallsyms")
      ->option_text("file");
  s->add_option("--guestmodules", o.guestmodules, "file saving guest os /proc/modules")
      ->option_text("file");
  s->add_flag("--guest-code", o.guest_code,
              "Indicate that guest code can be found in hypervisor process");
  s->add_flag("-f,--force")->description("don't complain, do it");
  s->add_flag("-a,--all-cpus")->description("system-wide collection from all CPUs");
  return s;
}

void apply_trace_options(const CLI::App& cmd, ScriptOptions& o) {
  std::vector<std::string> fields;
  size_t next_field = 0;
  // The shorthands also add their letters to the synth opts ("i0nse", "cewp", "crewp"), which
  // name no call chain: without AUX area data they change nothing more.
  for (const CLI::Option* opt : cmd.parse_order()) {
    if (opt->check_name("-F")) {
      if (next_field < o.fields.size()) fields.push_back(o.fields[next_field++]);
    } else if (opt->check_lname("insn-trace")) {
      fields.push_back(kInsnTraceFields);
      o.nanosecs = true;
    } else if (opt->check_lname("call-trace")) {
      fields.push_back(kCallTraceFields);
      o.nanosecs = true;
      o.config.pad_dso = 50;
    } else if (opt->check_lname("call-ret-trace")) {
      fields.push_back(kCallRetTraceFields);
      o.nanosecs = true;
    }
  }
  o.fields = std::move(fields);
  // cmd_script(): "if ((callchain || add_callchain) && callchain_sz > scripting_max_stack)".
  const ItraceOptions& t = o.itrace;
  if (t.synthesizes_callchains() && t.callchain_sz > o.max_stack) {
    o.max_stack = t.callchain_sz;
  }
}

namespace {
// cmd_script() exits with __cmd_script()'s error: for a record it cannot process (an error at
// a place in the data), perf_session__process_events()'s -EINVAL (234); in a pipe, a record
// header's size below 8 leaves the byte count of the header's read, 8, as the error
// (session.c __perf_session__process_pipe_events, "bad event header size"). Errors of the
// options keep readperf's 1 (perf's are mostly -1, 255: any non-zero matches them).
int script_exit_status(const PerfData& pd, const Error& e) {
  if (e.offset() == Error::kNoOffset) return 1;
  if (pd.kind() == ContainerKind::kPipe && is_record_smaller_than_header(e)) {
    return 8;
  }
  return 234;
}
}  // namespace

int run_script(const ScriptOptions& o) {
  // builtin-script.c list_available_scripts(): perf's scripts, then exit, whatever else the
  // command line says.
  if (o.list_scripts) {
    OutBuffer out(stdout);
    Status listed = list_perf_scripts(perf_exec_path(), out);
    if (!listed) out.print("{}\n", listed.error().message());
    out.flush();
    return listed ? 0 : 255;
  }
  // list_available_dlfilters(): the list, then exit, as -l.
  if (o.list_dlfilters) {
    OutBuffer out(stdout);
    list_dlfilters(perf_exec_path(), o.verbose > 0, out);
    return 0;
  }
  if (!validate_kernel_files(o)) return 255;
  ScriptConfig cfg = o.config;
  cfg.perf_guest = !o.guestmount.empty() || !o.guestvmlinux.empty() || !o.guestkallsyms.empty() ||
                   !o.guestmodules.empty() || o.guest_code;
  cfg.fields = o.fields;
  cfg.hide_call_graph = o.hide_call_graph;
  cfg.comms = split_list(o.comms);
  Result<std::vector<int32_t>> pids = parse_id_list(o.pids);
  Result<std::vector<int32_t>> tids = parse_id_list(o.tids);
  if (pids) cfg.pids = std::move(*pids);
  if (tids) cfg.tids = std::move(*tids);
  if (!pids || !tids) {
    fmt::print(stderr, "readperf: invalid --pid/--tid list\n");
    return 1;
  }
  cfg.cpu_list = o.cpu;
  cfg.time = o.time;
  cfg.nanosecs = o.nanosecs;
  cfg.max_stack = o.max_stack;
  cfg.max_blocks = o.max_blocks;
  cfg.verbose = o.verbose;
  cfg.symbols = symbol_config(o);
  if (cfg.reltime && cfg.deltatime) {
    fmt::print(stderr,
               "reltime and deltatime - the two don't get along well. Please limit to --reltime "
               "or --deltatime.\n");
    return 255;
  }
  cfg.dsos = split_list(o.dsos);
  cfg.symbol_filter = split_list(o.symbols);
  cfg.stop_bt = split_list(o.stop_bt);
  cfg.input_name = o.input;
  cfg.symbols.full_source_path = o.full_source_path;
  cfg.symbols.inline_names = o.inline_names;

  // builtin-script.c: words after the options without -s name a script (or `report NAME`).
  std::string script = o.script;
  std::vector<std::string> script_args = o.script_args;
  if (script.empty() && !script_args.empty()) {
    if (std::optional<int> done = launch_script_words(script, script_args)) return *done;
  }
  // builtin-script.c parse_scriptname(): -s picks the engine by `LANG:` or the script's
  // extension.
  std::unique_ptr<ScriptEngine> engine;
  if (!script.empty()) {
    if (script == "lang") {
      print_script_languages();
      return 0;
    }
    std::variant<ScriptSpec, int> parsed = parse_script_spec(script);
    if (const int* status = std::get_if<int>(&parsed)) return *status;
    const ScriptSpec& spec = std::get<ScriptSpec>(parsed);
    std::string path =
        find_script_file(perf_exec_path(), spec.script, spec.dir).value_or(spec.script);
    if (spec.dir == "perl") {
#ifdef READPERF_PERL_SCRIPTING
      engine = make_perl_engine(path, script_args, {.show_kernel_path = cfg.show_kernel_path});
#else
      fmt::print(stderr, "readperf: script -s: this readperf was built without Perl\n");
      return 1;
#endif
    } else {
#ifdef READPERF_PYTHON_SCRIPTING
      engine = make_python_engine(path, script_args, {.show_kernel_path = cfg.show_kernel_path});
#else
      fmt::print(stderr, "readperf: script -s: this readperf was built without Python\n");
      return 1;
#endif
    }
    cfg.engine = engine.get();
  }

  // cmd_script(): the dlfilter is opened before the recording.
  std::unique_ptr<DlFilter> dlfilter;
  if (!o.dlfilter.empty()) {
    auto opened = DlFilter::open(o.dlfilter, o.dlargs);
    if (!opened) {
      fmt::print(stderr, "{}\n", opened.error().what());
      return 255;
    }
    dlfilter = std::move(*opened);
    cfg.dlfilter = dlfilter.get();
  }

  auto data = PerfData::open(o.input);
  if (!data) {
    fmt::print(stderr, "readperf: {}\n", data.error().message());
    return 1;
  }
  if (!o.gen_script.empty()) {
    // builtin-script.c: -g writes the skeleton of the script language's engine and stops.
    if (!o.fields.empty()) {
      fmt::print(stderr, "custom fields not supported for generated scripts");
      return 234;  // -EINVAL
    }
    // A language writes perf-script.EXT; a file name with a language's extension is that
    // file (newer perfs' form: perf 6.1 refuses it, its shell tests of 7.x use it).
    const std::string& name = o.gen_script;
    const char* dir = script_engine_dir(name);
    std::string outfile;
    if (dir) {
      outfile = std::string("perf-script.") + (std::string_view(dir) == "perl" ? "pl" : "py");
    } else if (size_t dot = name.rfind('.'); dot != std::string::npos && dot + 1 < name.size() &&
                                             name.find('/', dot) == std::string::npos &&
                                             (dir = script_engine_dir(name.substr(dot + 1)))) {
      outfile = name;
    } else {
      fmt::print(stderr, "invalid language specifier");
      return 254;  // -ENOENT
    }
    Status st = std::string_view(dir) == "perl" ? generate_perl_script(**data, outfile)
                                                : generate_python_script(**data, outfile);
    if (!st) {
      fmt::print(stderr, "{}\n", st.error().message());
      return 255;
    }
    return 0;
  }
  print_open_warnings(**data);
  warn_undecoded_aux_trace(**data, o.itrace.dont_decode);
  prefetch_symbols(**data, cfg.symbols);
  OutBuffer out(stdout);
  auto progress = attach_progress_line(**data, /*streams_output=*/true);
  Status st = readperf::run_script(**data, cfg, out, stderr);
  out.flush();
  if (!st) {
    if (engine && engine->start_failed()) {
      // perf's engines print their own message and cmd_script() returns -1.
      if (!st.error().what().empty()) fmt::print(stderr, "{}\n", st.error().what());
      return 255;
    }
    fmt::print(stderr, "readperf: {}\n", st.error().message());
    return script_exit_status(**data, st.error());
  }
  return 0;
}

}  // namespace readperf::cli
