// Applying a recording's records to a Machine, as perf's tools do before they look at a
// sample: the header's build-id table first, then HEADER_BUILD_ID user records as they come,
// then each kernel record in delivery order (MMAP, MMAP2, COMM, FORK, EXIT, KSYMBOL,
// NAMESPACES). Every printer that resolves samples (dump, script, report) builds its Machine
// through this, so all of them see the same threads and maps at the same moment.
//
//   Machine machine;
//   SessionBuilder builder(machine, data.order());
//   builder.begin(data.features());
//   // in the sink:
//   void on_user_record(const RecordView& r) override { builder.on_user_record(r); }
//   void on_kernel_record(const RecordView& r, const Sample& s, const Evsel*) override {
//     builder.apply(r, s);   // then resolve the sample against `machine`
//   }
#pragma once

#include "readperf/format/byte_cursor.h"
#include "readperf/reader/features.h"
#include "readperf/reader/record.h"
#include "readperf/reader/sample.h"
#include "readperf/session/machine.h"

namespace readperf {

class SessionBuilder {
 public:
  SessionBuilder(Machine& machine, ByteOrder order) : machine_(machine), order_(order) {}

  // session.c perf_session__register_idle_thread(), then header.c
  // perf_header__read_build_ids(): the BUILD_ID feature names Dsos before any record does.
  // Entries of guest machines (pid != -1) are not modelled.
  void begin(const Features& features);

  // A user record: HEADER_BUILD_ID (pipe mode, perf inject -b) names a Dso
  // (header.c perf_event__process_build_id). Other user records change nothing here.
  void on_user_record(const RecordView& r);

  // A kernel record as perf's tools apply it (machine.c machine__process_*_event). Samples and
  // records that do not change the Machine are ignored. A FORK that dropped a stale parent
  // thread says so in the result, which the dump prints.
  Machine::ForkResult apply(const RecordView& r, const Sample& s);

  Machine& machine() { return machine_; }

 private:
  Machine& machine_;
  ByteOrder order_;
};

}  // namespace readperf
