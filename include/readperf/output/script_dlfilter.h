// `script --dlfilter FILE [--dlarg ARG]...`: perf 6.1's dlfilter interface (util/dlfilter.c,
// include/perf/perf_dlfilter.h). The shared object's start(), filter_event_early() (before
// script's own filters), filter_event() (after them) and stop() run as perf runs them, its
// perf_dlfilter_fns filled with readperf's resolve_ip, resolve_addr, args, resolve_address,
// insn, srcline, attr and object_code. A filter returning non-zero drops the sample.
//
//   auto f = DlFilter::open("./my-filter.so", {"arg"});
//   config.dlfilter = f->get();
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "readperf/format/error.h"
#include "readperf/output/out_buffer.h"

namespace readperf {

struct Sample;
struct Evsel;
struct ResolvedSample;
class Resolver;

// What the interface's functions ask of the program filtering, for the sample being filtered.
class DlFilterHost {
 public:
  // machine__resolve() of the sample, done when the filter first asks (resolve_ip, srcline,
  // insn, object_code, ...).
  virtual const ResolvedSample& resolve() = 0;
  // Whether script's --comms/--dsos/-S drop the resolved sample (al->filtered).
  virtual bool filtered(const ResolvedSample& rs) = 0;

 protected:
  ~DlFilterHost() = default;
};

// What the interface's functions read for the sample being filtered.
struct DlFilterSample {
  const Sample* sample = nullptr;
  const Evsel* evsel = nullptr;
  const char* event_name = "";  // evsel__name()
  Resolver* resolver = nullptr;
  DlFilterHost* host = nullptr;
  bool show_kernel_path = false;
  bool native_arch = false;  // insn(): script_fetch_insn() reads code on this machine's arch
};

class DlFilter {
 public:
  // find_dlfilter(): FILE as given when it has a '/', ./FILE when readable, else
  // $PERF_EXEC_PATH/dlfilters/FILE; then dlopen(). The error is perf's message.
  static Result<std::unique_ptr<DlFilter>> open(const std::string& file,
                                                std::vector<std::string> args);
  ~DlFilter();
  DlFilter(const DlFilter&) = delete;
  DlFilter& operator=(const DlFilter&) = delete;

  // dlfilter__start(): the filter's start(&data, ctx); its return value.
  int start();
  // dlfilter__filter_event_early() / dlfilter__filter_event(): 0 keeps the sample (also when
  // the filter has no such function), > 0 drops it, < 0 is an error.
  int filter(const DlFilterSample& s, bool early);
  // dlfilter__stop(), once.
  void stop();

 private:
  DlFilter() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// --list-dlfilters: "List of available dlfilters:" and each filter .so in the working
// directory and $PERF_EXEC_PATH/dlfilters with its filter_description() (and, `verbose`,
// its long description), as list_available_dlfilters() prints them.
void list_dlfilters(const std::string& exec_path, bool verbose, OutBuffer& out);

}  // namespace readperf
