// readperf: reads perf.data files and prints what perf prints, faster.
//
//   readperf [--buildid-dir DIR] report -D|--header-only [-I]|--stats [-i FILE|-]
#include <CLI/CLI.hpp>

#include "report_command.h"

int main(int argc, char** argv) {
  CLI::App app{"readperf: reads perf.data recordings"};
  app.require_subcommand(1);
  std::string buildid_dir;
  app.add_option("--buildid-dir", buildid_dir, "build-id cache directory (default ~/.debug)");

  readperf::cli::ReportOptions report;
  CLI::App* rep = app.add_subcommand("report", "perf report: dump, header, stats");
  rep->add_option("-i,--input", report.input, "input file, - for standard input")
      ->capture_default_str();
  rep->add_flag("-D,--dump-raw-trace", report.dump_raw_trace, "dump every record");
  rep->add_flag("--header-only", report.header_only, "print the header and stop");
  rep->add_flag("--header", report.header, "print the header before the report");
  rep->add_flag("-I,--show-info", report.show_info, "show extra header information");
  rep->add_flag("--stats", report.stats, "print record counts");
  rep->add_flag("--stdio", report.stdio, "plain text output");

  CLI11_PARSE(app, argc, argv);
  if (rep->parsed()) return readperf::cli::run_report(report);
  return 2;
}
