// Turning a sample into what perf shows: the thread, the map and DSO of each address, the
// symbol, and the resolved call chain. This is perf's machine__resolve() (util/event.c) and
// thread__resolve_callchain() (util/machine.c) on top of the session's Machine and the
// symbols layer's SymbolCache. Both `script` and `report` are fed by it, so both print the same
// names for the same address.
//
//   Resolver resolver(machine, symbols, data);       // one per run
//   const ResolvedSample& rs = resolver.resolve(sample, evsel);
//   for (const Frame& f : rs.callchain) print(f.ip, f.symbol_name(), f.dso_name());
//
// SPEC (implemented in src/analysis/resolver.cpp, target readperf_analysis):
// - Frame: ip (as recorded), addr (map-relative, perf's al.addr / map__map_ip), map (may be
//   null), dso (may be null), sym (may be null), level ('k', '.', 'H', ...), cpumode,
//   and for inline frames later (DWARF issue) an `inlined` flag and srcline.
// - ResolvedSample: thread, comm, the sample's own Frame (ip), and `callchain`: the frames
//   perf's callchain cursor holds for this sample in caller-last order (leaf first), after
//   perf's rules: PERF_CONTEXT_* markers switch cpumode and are dropped, the kernel/user
//   parts filtered as perf does, frame-pointer chains as-is; `--call-graph dwarf` unwinding is
//   the DWARF issue's (a hook left for it).
// - Lookups are cached per (dso, address); vectors are reused between samples (no allocation
//   per sample in the steady state).
#pragma once

namespace readperf {
}  // namespace readperf
