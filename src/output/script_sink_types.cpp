// `script`'s fields per event type, settled at the first event of each type as builtin-script.c
// does: perf_session__check_output_opt() for a file, process_attr() for a pipe
// (evsel__check_attr(), the ip and sym fields that call chains add).
#include "readperf/format/perf_abi.h"
#include "script_sink.h"

namespace readperf {

using namespace script;  // NOLINT: the field names

// Settles the fields of `evsel`'s type the first time one of its samples comes:
// perf_session__check_output_opt() (file mode) or process_attr() (pipe mode) did it for the
// first event of each type.
bool ScriptSink::setup_type(const Evsel& evsel) {
  if (!status_) return false;  // perf stops before the first sample then
  if (pd_.kind() == ContainerKind::kPipe) {
    sync_pipe_attrs();
    return static_cast<bool>(status_);
  }
  int type = output_type(evsel.attr.type);
  if (type_ready_[type]) return true;
  type_ready_[type] = true;
  const Evsel* first = &first_of_output_type(pd_.events(), evsel);
  TypeOutput& o = table_[type];
  if (o.fields) {
    Status st = table_.check_attr(*first, pd_.header().features[kFeatStat],
                                  pd_.header().features[kFeatAuxtrace], combined_branch_type());
    if (!st) {
      status_ = st;
      return false;
    }
  }
  // Tracepoints with call chains print where they fired (check_output_opt).
  if (type == kTypeTracepoint && !o.user_set && use_callchain() &&
      (first->attr.sample_type & kSampleCallchain)) {
    o.fields |= kIp | kSym | kSymoffset | kDso;
  }
  table_.set_print_ip_opts(first->attr);
  return true;
}

// Pipe mode: builtin-script.c process_attr() for each event once its HEADER_ATTR has been
// read (the reader adds the event after on_user_record(); nothing is printed in between).
void ScriptSink::sync_pipe_attrs() {
  if (pd_.kind() != ContainerKind::kPipe) return;
  const EventList& events = pd_.events();
  for (; attrs_seen_ < events.size(); ++attrs_seen_) {
    if (status_) process_attr(events[attrs_seen_]);
  }
}

// The first event of each type settles its fields: evsel__check_attr(), and with call
// chains in any event so far, the ip and sym fields unless -F took them away.
void ScriptSink::process_attr(const Evsel& evsel) {
  constexpr uint32_t kPerfTypeMax = 6;
  constexpr uint32_t kPerfTypeSynth = 0x80000000u;
  const EventAttr& attr = evsel.attr;
  if (attr.type >= kPerfTypeMax && attr.type != kPerfTypeSynth) return;
  const EventList& events = pd_.events();
  uint64_t combined = 0;
  for (size_t i = 0; i <= evsel.index && i < events.size(); ++i) {
    if (i < evsel.index && events[i].attr.type == attr.type) return;
    combined |= events[i].attr.sample_type;
  }
  if (attr.sample_type) {
    Status st = table_.check_attr(evsel, pd_.header().features[kFeatStat],
                                  pd_.header().features[kFeatAuxtrace], combined_branch_type());
    if (!st) {
      status_ = st;
      return;
    }
  }
  TypeOutput& o = table_[output_type(attr.type)];
  bool chains = (combined & kSampleCallchain) || (combined & kSampleBranchStack) ||
                ((combined & kSampleRegsUser) && (combined & kSampleStackUser));
  if (!cfg_.hide_call_graph && chains) {
    if (!(o.user_unset_fields & kIp)) o.fields |= kIp;
    if (!(o.user_unset_fields & kSym)) o.fields |= kSym;
  }
  table_.set_print_ip_opts(attr);
}

// evlist.c evlist__combined_branch_type().
uint64_t ScriptSink::combined_branch_type() const {
  uint64_t type = 0;
  for (size_t i = 0; i < pd_.events().size(); ++i) type |= pd_.events()[i].attr.branch_sample_type;
  return type;
}

// symbol_conf.use_callchain: on unless -G, and off when no event records call chains
// (perf_session__check_output_opt; in pipe mode the events are not known then, so it
// stays on).
bool ScriptSink::use_callchain() const {
  if (cfg_.hide_call_graph) return false;
  if (pd_.kind() == ContainerKind::kPipe) return true;
  return (pd_.events().combined_sample_type() & kSampleCallchain) != 0;
}

}  // namespace readperf
