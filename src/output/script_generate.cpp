#include "readperf/output/script_generate.h"

#include <fmt/format.h>
#include <traceevent/event-parse.h>

#include <cstdio>
#include <memory>

#include "readperf/output/trace_format.h"
#include "readperf/reader/perf_data.h"

namespace readperf {

namespace {

// The handler of one event, as python_generate_script() writes it (its wrapping of the
// argument and format lists included).
void write_handler(std::string& o, tep_event* event) {
  o += fmt::format("def {}__{}(", event->system, event->name);
  o +=
      "event_name, context, common_cpu,\n\tcommon_secs, common_nsecs, common_pid, common_comm,\n\t";
  o += "common_callchain, ";
  int not_first = 0, count = 0;
  for (tep_format_field* f = event->format.fields; f; f = f->next) {
    if (not_first++) o += ", ";
    if (++count % 5 == 0) o += "\n\t";
    o += f->name;
  }
  if (not_first++) o += ", ";
  if (++count % 5 == 0) o += "\n\t\t";
  o += "perf_sample_dict):\n";
  o += "\t\tprint_header(event_name, common_cpu, common_secs, common_nsecs,\n\t\t\t"
       "common_pid, common_comm)\n\n";
  o += "\t\tprint(\"";
  not_first = 0;
  count = 0;
  for (tep_format_field* f = event->format.fields; f; f = f->next) {
    if (not_first++) o += ", ";
    if (count && count % 3 == 0) o += "\" \\\n\t\t\"";
    count++;
    o += fmt::format("{}=", f->name);
    if (f->flags &
        (TEP_FIELD_IS_STRING | TEP_FIELD_IS_FLAG | TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_SYMBOLIC)) {
      o += "%s";
    } else if (f->flags & TEP_FIELD_IS_SIGNED) {
      o += "%d";
    } else {
      o += "%u";
    }
  }
  o += "\" % \\\n\t\t(";
  not_first = 0;
  count = 0;
  for (tep_format_field* f = event->format.fields; f; f = f->next) {
    if (not_first++) o += ", ";
    if (++count % 5 == 0) o += "\n\t\t";
    const char* wrap = (f->flags & TEP_FIELD_IS_FLAG)       ? "flag_str"
                       : (f->flags & TEP_FIELD_IS_SYMBOLIC) ? "symbol_str"
                                                            : nullptr;
    if (wrap) {
      if ((count - 1) % 5 != 0) {
        o += "\n\t\t";
        count = 4;
      }
      o += fmt::format("{}(\"{}__{}\", \"{}\", {})", wrap, event->system, event->name, f->name,
                       f->name);
    } else {
      o += f->name;
    }
  }
  o += "))\n\n";
  o += "\t\tprint('Sample: {'+get_dict_as_string(perf_sample_dict['sample'], ', ')+'}')\n\n";
  o += "\t\tfor node in common_callchain:";
  o += "\n\t\t\tif 'sym' in node:";
  o += "\n\t\t\t\tprint(\"\t[%x] %s%s%s%s\" % (";
  o += "\n\t\t\t\t\tnode['ip'], node['sym']['name'],";
  o += "\n\t\t\t\t\t\"+0x{:x}\".format(node['sym_off']) if 'sym_off' in node else \"\",";
  o += "\n\t\t\t\t\t\" ({})\".format(node['dso'])  if 'dso' in node else \"\",";
  o += "\n\t\t\t\t\t\" \" + node['sym_srcline'] if 'sym_srcline' in node else \"\"))";
  o += "\n\t\t\telse:";
  o += "\n\t\t\t\tprint(\"\t[%x]\" % (node['ip']))\n\n";
  o += "\t\tprint()\n\n";
}

// A handler of one event, as perl_generate_script() writes it.
void write_perl_handler(std::string& o, tep_event* event) {
  o += fmt::format("sub {}::{}\n{{\n", event->system, event->name);
  o += "\tmy ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,\n";
  o += "\t    $common_pid, $common_comm, $common_callchain,\n\t    ";
  int not_first = 0, count = 0;
  for (tep_format_field* f = event->format.fields; f; f = f->next) {
    if (not_first++) o += ", ";
    if (++count % 5 == 0) o += "\n\t    ";
    o += fmt::format("${}", f->name);
  }
  o += ") = @_;\n\n";
  o += "\tprint_header($event_name, $common_cpu, $common_secs, $common_nsecs,\n\t             "
       "$common_pid, $common_comm, $common_callchain);\n\n";
  o += "\tprintf(\"";
  not_first = 0;
  count = 0;
  for (tep_format_field* f = event->format.fields; f; f = f->next) {
    if (not_first++) o += ", ";
    if (count && count % 4 == 0) o += "\".\n\t       \"";
    count++;
    o += fmt::format("{}=", f->name);
    if (f->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_FLAG | TEP_FIELD_IS_SYMBOLIC)) {
      o += "%s";
    } else if (f->flags & TEP_FIELD_IS_SIGNED) {
      o += "%d";
    } else {
      o += "%u";
    }
  }
  o += "\\n\",\n\t       ";
  not_first = 0;
  count = 0;
  for (tep_format_field* f = event->format.fields; f; f = f->next) {
    if (not_first++) o += ", ";
    if (++count % 5 == 0) o += "\n\t       ";
    const char* wrap = (f->flags & TEP_FIELD_IS_FLAG)       ? "flag_str"
                       : (f->flags & TEP_FIELD_IS_SYMBOLIC) ? "symbol_str"
                                                            : nullptr;
    if (wrap) {
      if ((count - 1) % 5 != 0) {
        o += "\n\t       ";
        count = 4;
      }
      o += fmt::format("{}(\"{}::{}\", \"{}\", ${})", wrap, event->system, event->name, f->name,
                       f->name);
    } else {
      o += fmt::format("${}", f->name);
    }
  }
  o += ");\n\n";
  o += "\tprint_backtrace($common_callchain);\n";
  o += "}\n\n";
}

// Each of the recording's tracepoint formats in id order (tep_list_events(TEP_EVENT_SORT_ID)).
template <class F>
void for_each_event_by_id(const PerfData& data, F&& f) {
  if (!data.tracing_data()) return;
  auto trace = TraceFormatter::create(*data.tracing_data());
  if (!trace || !(*trace)->handle()) return;
  tep_handle* tep = (*trace)->handle();
  int nr = tep_get_events_count(tep);
  tep_event** all = tep_list_events(tep, TEP_EVENT_SORT_ID);
  for (int i = 0; all && i < nr; ++i) f(all[i]);
}

// Writes the generated script and says so, as both generators do.
Status write_script(const std::string& text, const std::string& fname, const char* language) {
  std::FILE* f = std::fopen(fname.c_str(), "w");
  if (!f) return make_error(fmt::format("couldn't open {}", fname));
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  std::fprintf(stderr, "generated %s script: %s\n", language, fname.c_str());
  return {};
}

}  // namespace

Status generate_python_script(const PerfData& data, const std::string& outfile) {
  std::string o;
  o += "# perf script event handlers, generated by perf script -g python\n";
  o += "# Licensed under the terms of the GNU GPL License version 2\n\n";
  o += "# The common_* event handler fields are the most useful fields common to\n";
  o += "# all events.  They don't necessarily correspond to the 'common_*' fields\n";
  o += "# in the format files.  Those fields not available as handler params can\n";
  o += "# be retrieved using Python functions of the form common_*(context).\n";
  o += "# See the perf-script-python Documentation for the list of available functions.\n\n";
  o += "from __future__ import print_function\n\n";
  o += "import os\nimport sys\n\n";
  o += "sys.path.append(os.environ['PERF_EXEC_PATH'] + \\\n";
  o += "\t'/scripts/python/Perf-Trace-Util/lib/Perf/Trace')\n";
  o += "\nfrom perf_trace_context import *\nfrom Core import *\n\n\n";
  o += "def trace_begin():\n\tprint(\"in trace_begin\")\n\n";
  o += "def trace_end():\n\tprint(\"in trace_end\")\n\n";
  for_each_event_by_id(data, [&](tep_event* event) { write_handler(o, event); });
  o += "def trace_unhandled(event_name, context, event_fields_dict, perf_sample_dict):\n";
  o += "\t\tprint(get_dict_as_string(event_fields_dict))\n";
  o += "\t\tprint('Sample: {'+get_dict_as_string(perf_sample_dict['sample'], ', ')+'}')\n\n";
  o += "def print_header(event_name, cpu, secs, nsecs, pid, comm):\n"
       "\tprint(\"%-20s %5u %05u.%09u %8u %-20s \" % \\\n\t"
       "(event_name, cpu, secs, nsecs, pid, comm), end=\"\")\n\n";
  o += "def get_dict_as_string(a_dict, delimiter=' '):\n"
       "\treturn delimiter.join(['%s=%s'%(k,str(v))for k,v in sorted(a_dict.items())])\n";
  return write_script(o, outfile, "Python");
}

Status generate_perl_script(const PerfData& data, const std::string& outfile) {
  std::string o;
  o += "# perf script event handlers, generated by perf script -g perl\n";
  o += "# Licensed under the terms of the GNU GPL License version 2\n\n";
  o += "# The common_* event handler fields are the most useful fields common to\n";
  o += "# all events.  They don't necessarily correspond to the 'common_*' fields\n";
  o += "# in the format files.  Those fields not available as handler params can\n";
  o += "# be retrieved using Perl functions of the form common_*($context).\n";
  o += "# See Context.pm for the list of available functions.\n\n";
  o += "use lib \"$ENV{'PERF_EXEC_PATH'}/scripts/perl/Perf-Trace-Util/lib\";\n";
  o += "use lib \"./Perf-Trace-Util/lib\";\n";
  o += "use Perf::Trace::Core;\nuse Perf::Trace::Context;\nuse Perf::Trace::Util;\n\n";
  o += "sub trace_begin\n{\n\t# optional\n}\n\n";
  o += "sub trace_end\n{\n\t# optional\n}\n";
  o += "\nsub print_backtrace\n{\n\tmy $callchain = shift;\n\tfor my $node (@$callchain)\n\t{\n"
       "\t\tif(exists $node->{sym})\n\t\t{\n"
       "\t\t\tprintf( \"\\t[\\%x] \\%s\\n\", $node->{ip}, $node->{sym}{name});\n"
       "\t\t}\n\t\telse\n\t\t{\n\t\t\tprintf( \"\\t[\\%x]\\n\", $node{ip});\n\t\t}\n\t}\n}\n\n";
  for_each_event_by_id(data, [&](tep_event* event) { write_perl_handler(o, event); });
  o += "sub trace_unhandled\n{\n\tmy ($event_name, $context, $common_cpu, $common_secs, "
       "$common_nsecs,\n\t    $common_pid, $common_comm, $common_callchain) = @_;\n\n";
  o += "\tprint_header($event_name, $common_cpu, $common_secs, $common_nsecs,\n\t             "
       "$common_pid, $common_comm, $common_callchain);\n";
  o += "\tprint_backtrace($common_callchain);\n}\n\n";
  o += "sub print_header\n{\n\tmy ($event_name, $cpu, $secs, $nsecs, $pid, $comm) = @_;\n\n"
       "\tprintf(\"%-20s %5u %05u.%09u %8u %-20s \",\n\t       "
       "$event_name, $cpu, $secs, $nsecs, $pid, $comm);\n}\n";
  o += "\n# Packed byte string args of process_event():\n#\n"
       "# $event:\tunion perf_event\tutil/event.h\n"
       "# $attr:\tstruct perf_event_attr\tlinux/perf_event.h\n"
       "# $sample:\tstruct perf_sample\tutil/event.h\n"
       "# $raw_data:\tperf_sample->raw_data\tutil/event.h\n\n"
       "sub process_event\n{\n\tmy ($event, $attr, $sample, $raw_data) = @_;\n\n"
       "\tmy @event\t= unpack(\"LSS\", $event);\n"
       "\tmy @attr\t= unpack(\"LLQQQQQLLQQ\", $attr);\n"
       "\tmy @sample\t= unpack(\"QLLQQQQQLL\", $sample);\n"
       "\tmy @raw_data\t= unpack(\"C*\", $raw_data);\n\n"
       "\tuse Data::Dumper;\n\tprint Dumper \\@event, \\@attr, \\@sample, \\@raw_data;\n}\n";
  return write_script(o, outfile, "Perl");
}

}  // namespace readperf
