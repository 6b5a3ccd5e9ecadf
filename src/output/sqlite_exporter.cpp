// The SQLite exporter: perf's db-export.c (db_export__sample and the ids it hands out) on the
// sample pipeline (the resolver `script` uses), written with prepared statements in one
// transaction. Every thread, comm, DSO, symbol and call path gets an id the first time a sample
// reaches it, so memory grows with those, not with the samples.
#include "readperf/output/sqlite_exporter.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>

#include "readperf/analysis/sample_pipeline.h"
#include "readperf/format/perf_abi.h"
#include "readperf/reader/event_name.h"
#include "sqlite_schema.h"

namespace readperf {

namespace {

constexpr int64_t kMachine = 1;  // the host (machines row 1, pid -1 as perf's host machine)

class Db {
 public:
  ~Db() {
    for (sqlite3_stmt* s : stmts_) sqlite3_finalize(s);
    if (db_) sqlite3_close(db_);
  }
  Status open(const std::string& path) {
    path_ = path;
    std::remove(path.c_str());
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) return fail();
    return {};
  }
  Status exec(const char* sql) {
    if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) return fail();
    return {};
  }
  Result<sqlite3_stmt*> prepare(const char* sql) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &s, nullptr) != SQLITE_OK) return tl::unexpected(err());
    stmts_.push_back(s);
    return s;
  }
  Error err() const { return Error(fmt::format("{}: sqlite: {}", path_, sqlite3_errmsg(db_))); }
  tl::unexpected<Error> fail() const { return tl::unexpected(err()); }

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
  std::vector<sqlite3_stmt*> stmts_;
};

// One row through a prepared statement: bind(...) then step(); the first failure sticks.
class Insert {
 public:
  Insert() = default;
  explicit Insert(sqlite3_stmt* s) : s_(s) {}
  template <class... V>
  bool row(const V&... v) {
    int i = 0;
    (bind(++i, v), ...);
    int rc = sqlite3_step(s_);
    sqlite3_reset(s_);
    return rc == SQLITE_DONE;
  }

 private:
  void bind(int i, int64_t v) { sqlite3_bind_int64(s_, i, v); }
  void bind(int i, const std::optional<int64_t>& v) {
    if (v) {
      sqlite3_bind_int64(s_, i, *v);
    } else {
      sqlite3_bind_null(s_, i);
    }
  }
  void bind(int i, std::string_view v) {
    sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  }
  sqlite3_stmt* s_ = nullptr;
};

int64_t u(uint64_t v) { return static_cast<int64_t>(v); }  // SQLite integers are signed

class SqliteSink : public SamplePipeline {
 public:
  SqliteSink(PerfData& pd, const SqliteConfig& cfg, Db& db)
      : SamplePipeline(pd, {.symbols = cfg.symbols,
                            .max_stack = cfg.max_stack,
                            .resolution = cfg.callchains ? StreamResolution::kCallchain
                                                         : StreamResolution::kSample,
                            .selection = cfg.selection}),
        db_(db) {}

  Status prepare() {
    auto p = [&](const char* sql, Insert& into) -> Status {
      Result<sqlite3_stmt*> s = db_.prepare(sql);
      if (!s) return tl::unexpected(s.error());
      into = Insert(*s);
      return {};
    };
    RETURN_IF_ERROR(p("INSERT INTO selected_events VALUES (?, ?)", events_));
    RETURN_IF_ERROR(p("INSERT INTO threads VALUES (?, ?, ?, ?, ?)", threads_));
    RETURN_IF_ERROR(p("INSERT INTO comms VALUES (?, ?, ?, ?, ?)", comms_));
    RETURN_IF_ERROR(p("INSERT INTO comm_threads VALUES (?, ?, ?)", comm_threads_));
    RETURN_IF_ERROR(p("INSERT INTO dsos VALUES (?, ?, ?, ?, ?)", dsos_));
    RETURN_IF_ERROR(p("INSERT INTO symbols VALUES (?, ?, ?, ?, ?, ?)", symbols_));
    RETURN_IF_ERROR(p("INSERT INTO call_paths VALUES (?, ?, ?, ?)", call_paths_));
    return p(
        "INSERT INTO samples VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
        "?, ?, ?, ?, ?, ?)",
        samples_);
  }

  bool done() const override { return failed_; }
  Status status() const {
    if (failed_) return db_.fail();
    return {};
  }
  uint64_t samples() const { return nr_samples_; }

 private:
  void check(bool ok) { failed_ = failed_ || !ok; }

  int64_t event_id(const Evsel& evsel) {
    if (event_ids_.size() <= evsel.index) event_ids_.resize(evsel.index + 1);
    int64_t& id = event_ids_[evsel.index];
    if (!id) {
      id = static_cast<int64_t>(evsel.index) + 1;
      check(events_.row(id, std::string_view(event_name(evsel))));
    }
    return id;
  }

  // db-export.c db_export__threads(): a thread row, and its process's (the leader's) first.
  int64_t thread_id(int32_t pid, int32_t tid) {
    uint64_t key = (uint64_t{static_cast<uint32_t>(pid)} << 32) | static_cast<uint32_t>(tid);
    auto it = thread_ids_.find(key);
    if (it != thread_ids_.end()) return it->second;
    int64_t process = pid == tid ? static_cast<int64_t>(thread_ids_.size()) + 1 : 0;
    if (pid != tid && pid >= 0) process = thread_id(pid, pid);
    int64_t id = static_cast<int64_t>(thread_ids_.size()) + 1;
    thread_ids_.emplace(key, id);
    check(threads_.row(id, kMachine, process, int64_t{pid}, int64_t{tid}));
    return id;
  }

  // A comm row per command name, with the first thread seen under it (perf's comms are per
  // COMM event; readperf keeps one row per name) and a comm_threads row per thread.
  int64_t comm_id(std::string_view comm, int64_t thread) {
    auto [it, created] = comm_ids_.try_emplace(std::string(comm), 0);
    if (created) {
      it->second = static_cast<int64_t>(comm_ids_.size());
      check(comms_.row(it->second, comm, thread, int64_t{0}, int64_t{0}));
    }
    auto [ct, ct_new] = comm_thread_ids_.try_emplace({it->second, thread}, 0);
    if (ct_new) {
      ct->second = static_cast<int64_t>(comm_thread_ids_.size());
      check(comm_threads_.row(ct->second, it->second, thread));
    }
    return it->second;
  }

  int64_t dso_id(const Dso* dso) {
    if (!dso) return 0;
    auto [it, created] = dso_ids_.try_emplace(dso, 0);
    if (created) {
      it->second = static_cast<int64_t>(dso_ids_.size());
      std::string build_id;
      for (uint8_t b : dso->build_id) fmt::format_to(std::back_inserter(build_id), "{:02x}", b);
      check(dsos_.row(it->second, kMachine, std::string_view(dso->short_name),
                      std::string_view(dso->perf_long_name()), std::string_view(build_id)));
    }
    return it->second;
  }

  int64_t symbol_id(const Frame& f) {
    if (!f.sym) return 0;
    auto [it, created] = symbol_ids_.try_emplace(f.sym, 0);
    if (created) {
      it->second = static_cast<int64_t>(symbol_ids_.size());
      // symbol.h STB_*: 0 local, 1 global, 2 weak, as the script's symbols_view reads them.
      check(symbols_.row(it->second, dso_id(f.dso), u(f.sym->start), u(f.sym->end),
                         int64_t{f.sym->binding}, f.sym->name));
    }
    return it->second;
  }

  // call-path.c call_path__findnew(): a child of `parent` per symbol, or per ip without one.
  int64_t call_path_id(int64_t parent, const Frame& f) {
    int64_t sym = symbol_id(f);
    uint64_t ip = f.sym ? 0 : f.ip;
    auto [it, created] = call_path_ids_.try_emplace(PathKey{parent, sym, ip}, 0);
    if (created) {
      it->second = static_cast<int64_t>(call_path_ids_.size());
      check(call_paths_.row(it->second, parent, sym, u(ip)));
    }
    return it->second;
  }

  void on_sample(const Sample& s, const Evsel& evsel, uint64_t period, const ResolvedSample& rs,
                 std::span<const Frame> frames) override {
    // With a resolved call chain, `frames` is it; without, the sample's own frame.
    bool chain = frames.data() != &rs.self;
    int64_t thread = rs.thread ? thread_id(rs.thread->pid, rs.thread->tid) : 0;
    int64_t comm = rs.thread ? comm_id(rs.comm, thread) : 0;
    // db-export.c call_path_from_sample(): the chain from its root (ORDER_CALLER); none
    // without a call chain.
    int64_t path = 0;
    if (chain) {
      for (auto f = frames.rbegin(); f != frames.rend(); ++f) path = call_path_id(path, *f);
    }
    const Frame& self = rs.self;
    auto opt = [](bool has, uint64_t v) -> int64_t { return has ? u(v) : 0; };
    uint64_t st = evsel.attr.sample_type;
    ++nr_samples_;
    int64_t id = static_cast<int64_t>(nr_samples_);
    int64_t sym = symbol_id(self);
    int64_t sym_offset = self.sym ? u(self.symoff()) : 0;
    std::optional<int64_t> time, cpu;  // NULL when the event does not record them
    if (st & kSampleTime) time = u(s.time);
    if (st & kSampleCpu) cpu = int64_t{s.cpu};
    // Columns as the script's sample_table(): no branch targets, instruction counts or flags.
    check(samples_.row(id, event_id(evsel), kMachine, thread, comm, dso_id(self.dso), sym,
                       sym_offset, u(s.ip), time, cpu, int64_t{0}, int64_t{0}, int64_t{0},
                       int64_t{0}, u(period), opt(st & kSampleWeight, s.weight),
                       opt(st & kSampleTransaction, s.transaction),
                       opt(st & kSampleDataSrc, s.data_src), int64_t{0}, int64_t{0}, path,
                       int64_t{0}, int64_t{0}, int64_t{0}));
  }

  struct PathKey {
    int64_t parent;
    int64_t sym;
    uint64_t ip;
    bool operator==(const PathKey&) const = default;
  };
  struct PathKeyHash {
    size_t operator()(const PathKey& k) const {
      return std::hash<uint64_t>()(static_cast<uint64_t>(k.parent) * 0x9e3779b97f4a7c15ull ^
                                   static_cast<uint64_t>(k.sym) * 0xc2b2ae3d27d4eb4full ^ k.ip);
    }
  };

  Db& db_;
  Insert events_, threads_, comms_, comm_threads_, dsos_, symbols_, call_paths_, samples_;
  std::vector<int64_t> event_ids_;
  std::unordered_map<uint64_t, int64_t> thread_ids_;
  std::unordered_map<std::string, int64_t> comm_ids_;
  std::map<std::pair<int64_t, int64_t>, int64_t> comm_thread_ids_;
  std::unordered_map<const Dso*, int64_t> dso_ids_;
  std::unordered_map<const Symbol*, int64_t> symbol_ids_;
  std::unordered_map<PathKey, int64_t, PathKeyHash> call_path_ids_;
  uint64_t nr_samples_ = 0;
  bool failed_ = false;
};

}  // namespace

Status run_sqlite_export(PerfData& data, const SqliteConfig& config, const std::string& path) {
  Db db;
  RETURN_IF_ERROR(db.open(path));
  // The script's settings: no journal; and one transaction for everything.
  RETURN_IF_ERROR(db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"));
  RETURN_IF_ERROR(db.exec("BEGIN TRANSACTION"));
  RETURN_IF_ERROR(db.exec(sqlite_schema::kTables));
  RETURN_IF_ERROR(db.exec(sqlite_schema::kViews));
  RETURN_IF_ERROR(db.exec(sqlite_schema::kUnknownRows));
  SqliteSink sink(data, config, db);
  RETURN_IF_ERROR(sink.prepare());
  PerfData::ProcessOptions po;
  po.ordered = data.kind() == ContainerKind::kPipe || data.events().sample_id_all();
  Status st = data.process(sink, po);
  RETURN_IF_ERROR(sink.status());
  // The samples read before a damaged record are kept, as the other outputs keep what they
  // printed; the error still says where the input went wrong.
  RETURN_IF_ERROR(db.exec("COMMIT"));
  return st;
}

}  // namespace readperf
