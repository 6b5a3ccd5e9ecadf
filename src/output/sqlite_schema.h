// The tables and views of the SQLite export: perf 6.1's scripts/python/export-to-sqlite.py
// without branches (its samples table has period, weight, transaction_ and data_src), minus
// the tables readperf has nothing for yet (calls, branch_types contents, ptwrite and the
// other Intel PT tables, context_switches).
#pragma once

namespace readperf::sqlite_schema {

inline constexpr const char* kTables = R"sql(
CREATE TABLE selected_events (id integer NOT NULL PRIMARY KEY, name varchar(80));
CREATE TABLE machines (id integer NOT NULL PRIMARY KEY, pid integer, root_dir varchar(4096));
CREATE TABLE threads (id integer NOT NULL PRIMARY KEY, machine_id bigint, process_id bigint,
  pid integer, tid integer);
CREATE TABLE comms (id integer NOT NULL PRIMARY KEY, comm varchar(16), c_thread_id bigint,
  c_time bigint, exec_flag boolean);
CREATE TABLE comm_threads (id integer NOT NULL PRIMARY KEY, comm_id bigint, thread_id bigint);
CREATE TABLE dsos (id integer NOT NULL PRIMARY KEY, machine_id bigint, short_name varchar(256),
  long_name varchar(4096), build_id varchar(64));
CREATE TABLE symbols (id integer NOT NULL PRIMARY KEY, dso_id bigint, sym_start bigint,
  sym_end bigint, binding integer, name varchar(2048));
CREATE TABLE branch_types (id integer NOT NULL PRIMARY KEY, name varchar(80));
CREATE TABLE samples (id integer NOT NULL PRIMARY KEY, evsel_id bigint, machine_id bigint,
  thread_id bigint, comm_id bigint, dso_id bigint, symbol_id bigint, sym_offset bigint,
  ip bigint, time bigint, cpu integer, to_dso_id bigint, to_symbol_id bigint,
  to_sym_offset bigint, to_ip bigint, period bigint, weight bigint, transaction_ bigint,
  data_src bigint, branch_type integer, in_tx boolean, call_path_id bigint, insn_count bigint,
  cyc_count bigint, flags integer);
CREATE TABLE call_paths (id integer NOT NULL PRIMARY KEY, parent_id bigint, symbol_id bigint,
  ip bigint);
)sql";

// The script's views (emit_to_hex is printf('%x') in SQLite), and `events`.
inline constexpr const char* kViews = R"sql(
CREATE VIEW events AS SELECT id, name FROM selected_events;
CREATE VIEW machines_view AS SELECT id, pid, root_dir,
  CASE WHEN id=0 THEN 'unknown' WHEN pid=-1 THEN 'host' ELSE 'guest' END AS host_or_guest
  FROM machines;
CREATE VIEW dsos_view AS SELECT id, machine_id,
  (SELECT host_or_guest FROM machines_view WHERE id = machine_id) AS host_or_guest,
  short_name, long_name, build_id FROM dsos;
CREATE VIEW symbols_view AS SELECT id, name, (SELECT short_name FROM dsos WHERE id=dso_id) AS dso,
  dso_id, sym_start, sym_end,
  CASE WHEN binding=0 THEN 'local' WHEN binding=1 THEN 'global' ELSE 'weak' END AS binding
  FROM symbols;
CREATE VIEW threads_view AS SELECT id, machine_id,
  (SELECT host_or_guest FROM machines_view WHERE id = machine_id) AS host_or_guest,
  process_id, pid, tid FROM threads;
CREATE VIEW comm_threads_view AS SELECT comm_id,
  (SELECT comm FROM comms WHERE id = comm_id) AS command, thread_id,
  (SELECT pid FROM threads WHERE id = thread_id) AS pid,
  (SELECT tid FROM threads WHERE id = thread_id) AS tid FROM comm_threads;
CREATE VIEW call_paths_view AS SELECT c.id, printf('%x', c.ip) AS ip, c.symbol_id,
  (SELECT name FROM symbols WHERE id = c.symbol_id) AS symbol,
  (SELECT dso_id FROM symbols WHERE id = c.symbol_id) AS dso_id,
  (SELECT dso FROM symbols_view WHERE id = c.symbol_id) AS dso_short_name,
  c.parent_id, printf('%x', p.ip) AS parent_ip, p.symbol_id AS parent_symbol_id,
  (SELECT name FROM symbols WHERE id = p.symbol_id) AS parent_symbol,
  (SELECT dso_id FROM symbols WHERE id = p.symbol_id) AS parent_dso_id,
  (SELECT dso FROM symbols_view WHERE id = p.symbol_id) AS parent_dso_short_name
  FROM call_paths c INNER JOIN call_paths p ON p.id = c.parent_id;
CREATE VIEW samples_view AS SELECT id, time, cpu,
  (SELECT pid FROM threads WHERE id = thread_id) AS pid,
  (SELECT tid FROM threads WHERE id = thread_id) AS tid,
  (SELECT comm FROM comms WHERE id = comm_id) AS command,
  (SELECT name FROM selected_events WHERE id = evsel_id) AS event,
  printf('%x', ip) AS ip_hex,
  (SELECT name FROM symbols WHERE id = symbol_id) AS symbol, sym_offset,
  (SELECT short_name FROM dsos WHERE id = dso_id) AS dso_short_name,
  printf('%x', to_ip) AS to_ip_hex,
  (SELECT name FROM symbols WHERE id = to_symbol_id) AS to_symbol, to_sym_offset,
  (SELECT short_name FROM dsos WHERE id = to_dso_id) AS to_dso_short_name,
  (SELECT name FROM branch_types WHERE id = branch_type) AS branch_type_name,
  in_tx, insn_count, cyc_count,
  CASE WHEN cyc_count=0 THEN CAST(0 AS FLOAT)
       ELSE ROUND(CAST(insn_count AS FLOAT) / cyc_count, 2) END AS IPC,
  flags, period FROM samples;
)sql";

// The script's trace_begin(): id 0 stands for "unknown" in every table the samples point into.
inline constexpr const char* kUnknownRows = R"sql(
INSERT INTO selected_events VALUES (0, 'unknown');
INSERT INTO machines VALUES (0, 0, 'unknown');
INSERT INTO machines VALUES (1, -1, '');
INSERT INTO threads VALUES (0, 0, 0, -1, -1);
INSERT INTO comms VALUES (0, 'unknown', 0, 0, 0);
INSERT INTO dsos VALUES (0, 0, 'unknown', 'unknown', '');
INSERT INTO symbols VALUES (0, 0, 0, 0, 0, 'unknown');
INSERT INTO call_paths VALUES (0, 0, 0, 0);
)sql";

}  // namespace readperf::sqlite_schema
