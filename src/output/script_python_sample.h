// get_perf_sample_dict() of perf 6.1's Python engine (trace-event-python.c): the perf_sample
// dict a script's process_event() and tracepoint handlers get, with its call chain
// (python_process_callchain()), branch stacks (python_process_brstack(),
// python_process_brstacksym()) and registers (set_regs_in_dict()). Private to the Python
// engine.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "readperf/format/byte_cursor.h"
#include "readperf/reader/sample.h"

namespace readperf {

struct Evsel;
struct Frame;
struct ResolvedSample;
class Resolver;

class PythonSampleDict {
 public:
  explicit PythonSampleDict(bool show_kernel_path) : show_kernel_path_(show_kernel_path) {}
  // The recording's architecture, for the registers' names.
  void set_arch(std::string arch) { arch_ = std::move(arch); }
  // The script printer's resolver, for the branches' ends.
  void set_resolver(Resolver* resolver) { resolver_ = resolver; }

  // The dict; `addr`: a page fault's addr resolved (addr_al), or null.
  pybind11::dict build(const Sample& s, const Evsel& evsel, const std::string& ev_name,
                       const ResolvedSample& rs, pybind11::list chain, const Frame* addr);
  // python_process_callchain(): the resolved chain when the sample has one, else [].
  pybind11::list callchain(const ResolvedSample& rs, bool has_chain);

 private:
  // set_sym_in_dict()'s field names.
  struct SymKeys {
    const char *dso, *dso_bid, *dso_map_start, *dso_map_end, *symbol, *symoff;
  };
  static void set_sym_in_dict(pybind11::dict& d, const Frame& f, const SymKeys& keys);
  pybind11::list brstack(const Sample& s, const ResolvedSample& rs);
  pybind11::list brstacksym(const Sample& s, const ResolvedSample& rs);
  std::string regs_text(const U64Array& regs, uint64_t mask, size_t cap) const;

  bool show_kernel_path_;
  std::string arch_ = "x86";
  Resolver* resolver_ = nullptr;
};

}  // namespace readperf
