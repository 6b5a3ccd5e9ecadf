#include "readperf/output/stats_printer.h"

#include "readperf/format/perf_abi.h"
#include "readperf/reader/event_name.h"

namespace readperf {

void StatsCounter::on_read(const RecordView& r) {
  // session.c perf_session__process_event(): types past perf 6.1's last are refused before
  // counting; we count them under their own number.
  ++nr_events[0];
  ++nr_events[r.type < nr_events.size() ? r.type : 0];
}

void StatsCounter::on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) {
  if (!evsel) return;
  if (nr_samples.size() <= evsel->index) {
    nr_samples.resize(evsel->index + 1);
    nr_lost_samples.resize(evsel->index + 1);
  }
  if (r.type == kRecordSample) {
    ++nr_samples[evsel->index];
  } else if (r.type == kRecordLostSamples) {
    // builtin-report.c count_lost_samples_event(): the event of the record's sample id.
    const Evsel* target = events ? events->evsel_for_sample_id(s.id) : evsel;
    if (target) {
      if (nr_lost_samples.size() <= target->index) {
        nr_samples.resize(target->index + 1);
        nr_lost_samples.resize(target->index + 1);
      }
      // perf_event.h PERF_RECORD_LOST_SAMPLES: { header; u64 lost; sample_id }.
      nr_lost_samples[target->index] += r.body(order).u64();
    }
  }
}

void print_aggregated_stats(const StatsCounter& c, const PerfData& data, OutBuffer& out,
                            bool skip_empty) {
  const char* msg = data.header().features[kFeatAuxtrace]
                        ? " (excludes AUX area (e.g. instruction trace) decoded / synthesized "
                          "events)"
                        : "";
  out.print("\nAggregated stats:{}\n", msg);
  uint64_t total = c.nr_events[0];
  // perf 6.1's table ends at FINISHED_INIT; COMPRESSED2 (perf 7.x) is shown only when
  // present, which a file perf 6.1 can read never is.
  for (uint32_t i = 0; i < kRecordHeaderMax; ++i) {
    if (i == kRecordCompressed2 && !c.nr_events[i]) continue;
    std::string_view name = record_type_name(i);
    if (name == "UNKNOWN") continue;
    // ui/stdio/hist.c events_stats__fprintf(): --skip-empty (perf's default) leaves out the
    // types never seen.
    if (skip_empty && !c.nr_events[i]) continue;
    if (i && total) {
      out.print("{:>16} events: {:>10}  ({:4.1f}%)\n", name, c.nr_events[i],
                100.0 * c.nr_events[i] / total);
    } else {
      out.print("{:>16} events: {:>10}\n", name, c.nr_events[i]);
    }
  }
}

void print_event_stats(const StatsCounter& c, const PerfData& data, OutBuffer& out,
                       bool names_from_attrs, bool skip_empty) {
  const EventList& events = data.events();
  for (size_t i = 0; i < events.size(); ++i) {
    uint64_t samples = i < c.nr_samples.size() ? c.nr_samples[i] : 0;
    uint64_t lost = i < c.nr_lost_samples.size() ? c.nr_lost_samples[i] : 0;
    if (skip_empty && !samples && !lost) continue;  // hist.c evlist__fprintf_nr_events()
    out.print("{} stats:\n",
              names_from_attrs ? attr_event_name(events[i].attr) : event_name(events[i]));
    if (samples) out.print("{:>16} events: {:>10}\n", "SAMPLE", samples);
    if (lost) out.print("{:>16} events: {:>10}\n", "LOST_SAMPLES", lost);
  }
}

}  // namespace readperf
