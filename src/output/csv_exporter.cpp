// The CSV exporter: one pass over the recording. The report session (function_rows) groups
// the samples by thread, dso and symbol; a tap on the same pass counts the records (the
// StatsCounter of `report --stats`), writes overview.csv as they leave perf's ordered queue,
// and notes each process's maps, fork and exit.
#include "readperf/output/csv_exporter.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <optional>

#include "readperf/format/perf_abi.h"
#include "readperf/output/stats_printer.h"
#include "readperf/reader/event_name.h"
#include "readperf/session/events.h"
#include "readperf/session/thread.h"

namespace readperf {

void csv_field(OutBuffer& out, std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
    out.write(field);
    return;
  }
  out.put('"');
  for (char c : field) {
    if (c == '"') out.put('"');
    out.put(c);
  }
  out.put('"');
}

namespace {

constexpr std::string_view kEol = "\r\n";  // RFC 4180 2.1
constexpr int32_t kNone = INT32_MIN;       // an overview row without pid or tid

// One output file; errors are kept until close() so that writing stays branch-free.
class CsvFile {
 public:
  Status open(const std::string& path) {
    path_ = path;
    file_ = std::fopen(path.c_str(), "w");
    if (!file_) return make_error(fmt::format("{}: {}", path, std::strerror(errno)));
    out_ = std::make_unique<OutBuffer>(file_);
    return {};
  }
  OutBuffer& out() { return *out_; }
  Status close() {
    if (!file_) return {};
    out_.reset();  // flushes
    bool bad = std::ferror(file_) != 0;
    if (std::fclose(file_) != 0) bad = true;
    file_ = nullptr;
    if (bad) return make_error(fmt::format("{}: write error: {}", path_, std::strerror(errno)));
    return {};
  }
  ~CsvFile() { (void)close(); }

 private:
  std::string path_;
  FILE* file_ = nullptr;
  std::unique_ptr<OutBuffer> out_;
};

struct Process {
  std::string name;
  uint64_t mmaps = 0;
  std::optional<uint64_t> fork_time;
  std::optional<uint64_t> exit_time;
};

// Sees every record before the report session: counts, overview rows, processes.
class CsvTap : public EventSink {
 public:
  CsvTap(PerfData& pd, OutBuffer& overview) : pd_(pd), overview_(overview) {
    counts.events = &pd.events();
    counts.order = pd.order();
  }

  void on_read(const RecordView& r) override { counts.on_read(r); }

  void on_user_record(const RecordView& r) override {
    // User records (perf's own: attrs, features, FINISHED_ROUND) have no time or thread;
    // they are listed where perf processes them, on arrival.
    begin_row(r.type, kNone, kNone, ~0ull);
    overview_.write(kEol);
  }

  void on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) override {
    counts.on_kernel_record(r, s, evsel);
    ByteOrder order = pd_.order();
    info_.clear();
    auto info = fmt::appender(info_);
    // The sample's (or sample_id's) pid and tid, absent without PERF_SAMPLE_TID.
    int32_t pid = s.pid == -1 ? kNone : s.pid;
    int32_t tid = s.tid == -1 ? kNone : s.tid;
    uint64_t time = s.time;
    switch (r.type) {
      case kRecordSample:
        if (evsel) {
          fmt::format_to(info, "{} ip={:#x} period={}", event_name_of(*evsel), s.ip, s.period);
          if (s.cpu != ~0u) fmt::format_to(info, " cpu={}", s.cpu);
        }
        break;
      case kRecordMmap:
      case kRecordMmap2: {
        MmapEvent e;
        if (!parse_mmap(r, order, e)) break;
        pid = e.pid;
        tid = e.tid;
        ++process(e.pid).mmaps;
        fmt::format_to(info, "{:#x}-{:#x} pgoff={:#x} {}", e.start, e.start + e.len, e.pgoff,
                       e.filename);
        break;
      }
      case kRecordComm: {
        CommEvent e;
        if (!parse_comm(r, order, e)) break;
        pid = e.pid;
        tid = e.tid;
        Process& p = process(e.pid);
        // The process's name is its main thread's latest comm (thread__comm_str of the
        // leader); other threads name it only until the leader does.
        if (e.tid == e.pid || p.name.empty()) p.name = e.comm;
        fmt::format_to(info, "{}{}", e.comm, e.exec ? " exec" : "");
        break;
      }
      case kRecordFork:
      case kRecordExit: {
        TaskEvent e;
        if (!parse_task(r, order, e)) break;
        pid = e.pid;
        tid = e.tid;
        time = e.time;
        // A new process is a fork whose child is not in its parent's process; a process
        // ends with its leader's exit.
        if (r.type == kRecordFork && e.pid != e.ppid) process(e.pid).fork_time = e.time;
        if (r.type == kRecordExit && e.pid == e.tid) process(e.pid).exit_time = e.time;
        fmt::format_to(info, "ppid={} ptid={}", e.ppid, e.ptid);
        break;
      }
      case kRecordLost:
      case kRecordLostSamples: {
        ByteCursor c = r.body(order);
        if (r.type == kRecordLost) (void)c.u64();  // the id
        fmt::format_to(info, "lost={}", c.u64());
        break;
      }
      default:
        break;
    }
    begin_row(r.type, pid, tid, time);
    csv_field(overview_, std::string_view(info_.data(), info_.size()));
    overview_.write(kEol);
  }

  Process& process(int32_t pid) { return processes[pid]; }

  StatsCounter counts;
  std::map<int32_t, Process> processes;

 private:
  void begin_row(uint32_t type, int32_t pid, int32_t tid, uint64_t time) {
    overview_.dec(++nr_);
    overview_.put(',');
    csv_field(overview_, record_type_name(type));
    overview_.put(',');
    if (pid != kNone) overview_.dec(pid);
    overview_.put(',');
    if (tid != kNone) overview_.dec(tid);
    overview_.put(',');
    if (time != ~0ull) overview_.dec(time);
    overview_.put(',');
  }

  const std::string& event_name_of(const Evsel& evsel) { return names_.of(evsel); }

  PerfData& pd_;
  OutBuffer& overview_;
  uint64_t nr_ = 0;
  fmt::memory_buffer info_;
  EventNames names_;
};

void write_stat(const StatsCounter& counts, OutBuffer& out) {
  out.print("type,count{}", kEol);
  for (uint32_t i = 1; i < counts.nr_events.size(); ++i) {
    if (!counts.nr_events[i]) continue;
    csv_field(out, record_type_name(i));
    out.print(",{}{}", counts.nr_events[i], kEol);
  }
}

void write_results(const PerfData& data, const ReportData& report, const CsvConfig& config,
                   OutBuffer& out) {
  out.print("event,function,source_file,binary,samples,period,percent{}", kEol);
  for (size_t i = 0; i < data.events().size() && i < report.hists.size(); ++i) {
    const Hists* h = report.hists[i].get();
    if (!h || !h->nr_samples()) continue;
    std::string event = event_name(data.events()[i]);
    uint64_t total = h->total_period();
    for (const FunctionRow& r : function_rows(*h)) {
      csv_field(out, event);
      out.put(',');
      csv_field(out, r.name());
      out.put(',');
      if (config.source_file) csv_field(out, config.source_file(r.dso, r.sym));
      out.put(',');
      csv_field(out, binary_name(r.dso));
      double pct = total ? 100.0 * static_cast<double>(r.period) / static_cast<double>(total) : 0;
      out.print(",{},{},{:.6f}{}", r.samples, r.period, pct, kEol);
    }
  }
}

void write_processes(const PerfData& data, const ReportData& report,
                     std::map<int32_t, Process>& processes, OutBuffer& out) {
  // Samples and period per (pid, event), from the per-thread histogram entries.
  struct Totals {
    uint64_t samples = 0;
    uint64_t period = 0;
  };
  std::map<std::pair<int32_t, size_t>, Totals> totals;
  for (size_t i = 0; i < report.hists.size(); ++i) {
    const Hists* h = report.hists[i].get();
    if (!h) continue;
    for (const HistEntry& e : h->entries()) {
      int32_t pid = e.thread ? e.thread->pid : -1;
      Totals& t = totals[{pid, i}];
      t.samples += e.nr_events;
      t.period += e.period;
      Process& p = processes[pid];
      if (p.name.empty() && e.thread && e.thread->pid == e.thread->tid) {
        p.name = e.thread->comm_str();
      }
    }
  }
  std::vector<std::string> names(data.events().size());
  for (size_t i = 0; i < names.size(); ++i) names[i] = event_name(data.events()[i]);
  out.print("pid,name,mmaps,fork_time,exit_time,event,samples,period{}", kEol);
  auto it = totals.begin();
  // perf's kernel maps and threads carry pid -1 (machine.c machine__create_kernel_maps).
  if (auto k = processes.find(-1); k != processes.end() && k->second.name.empty()) {
    k->second.name = "[kernel]";
  }
  for (const auto& entry : processes) {
    // Named copies: a lambda may not capture structured bindings before C++20's P1091 (clang 14).
    const int32_t pid = entry.first;
    const auto& p = entry.second;
    auto row = [&](std::string_view event, uint64_t samples, uint64_t period) {
      out.print("{},", pid);
      csv_field(out, p.name);
      out.print(",{},", p.mmaps);
      if (p.fork_time) out.dec(*p.fork_time);
      out.put(',');
      if (p.exit_time) out.dec(*p.exit_time);
      out.put(',');
      csv_field(out, event);
      out.print(",{},{}{}", samples, period, kEol);
    };
    while (it != totals.end() && it->first.first < pid) ++it;  // never: every pid is listed
    bool any = false;
    for (; it != totals.end() && it->first.first == pid; ++it) {
      size_t ev = it->first.second;
      row(ev < names.size() ? std::string_view(names[ev]) : std::string_view(), it->second.samples,
          it->second.period);
      any = true;
    }
    if (!any) row("", 0, 0);
  }
}

}  // namespace

Status run_csv_export(PerfData& data, const CsvConfig& config, const std::string& dir) {
  if (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
    return make_error(fmt::format("{}: {}", dir, std::strerror(errno)));
  }
  CsvFile overview;
  RETURN_IF_ERROR(overview.open(dir + "/overview.csv"));
  overview.out().print("nr,type,pid,tid,time,info{}", kEol);
  CsvTap tap(data, overview.out());
  SymbolConfig symbols = config.symbols;
  symbols.recorded_os_release = data.features().os_release.value_or(symbols.recorded_os_release);
  Result<ReportData> report =
      run_report_session(data, function_report_setup(symbols, /*per_thread=*/true, &tap));
  RETURN_IF_ERROR(overview.close());
  if (!report) return tl::unexpected(report.error());

  CsvFile stat, processes, results;
  RETURN_IF_ERROR(stat.open(dir + "/stat.csv"));
  write_stat(tap.counts, stat.out());
  RETURN_IF_ERROR(stat.close());
  RETURN_IF_ERROR(processes.open(dir + "/processes.csv"));
  write_processes(data, *report, tap.processes, processes.out());
  RETURN_IF_ERROR(processes.close());
  RETURN_IF_ERROR(results.open(dir + "/results.csv"));
  write_results(data, *report, config, results.out());
  return results.close();
}

}  // namespace readperf
