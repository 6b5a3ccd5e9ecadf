// Where symbol files are looked for: perf's --buildid-dir, --symfs, --kallsyms, --no-demangle.
//
//   SymbolConfig cfg = SymbolConfig::from_environment();   // ~/.debug, no symfs
//   cfg.buildid_dir = "/work/shared/corpus/perf-6.1/buildid";
#pragma once

#include <string>
#include <vector>

namespace readperf {

struct SymbolConfig {
  // The build-id cache (perf's buildid_dir): $PERF_BUILDID_DIR, else $HOME/.debug.
  std::string buildid_dir;
  // Symbol archives (`readperf archive`'s FILE.tar.zst: `--symbols`, $READPERF_SYMBOLS), read
  // in place as build-id caches after buildid_dir.
  std::vector<std::string> archives;
  // debuginfod servers (`--debuginfod URL`, $DEBUGINFOD_URLS, space-separated): binaries and
  // debug files missing everywhere else are fetched by build-id; empty: never.
  std::string debuginfod_urls;
  // A root prepended to every path perf looks at (symbol_conf.symfs); empty for none.
  std::string symfs;
  // The file taken for perf's copy of its own vdso (util/vdso.c get_file()), which names a
  // recording's [vdso] when no build-id says otherwise; empty: this process's vdso
  // ($READPERF_VDSO sets it: the tests give the vdso of the machine their goldens were made on).
  std::string running_vdso;
  // A kallsyms file to use for the kernel, and only it (--kallsyms).
  std::string kallsyms;
  // A vmlinux to use for the kernel, and only it (-k/--vmlinux; --kallsyms wins over it).
  std::string vmlinux;
  // --ignore-vmlinux: neither -k's vmlinux nor one on perf's vmlinux path is read (the
  // build-id cache's still is, as in perf).
  bool ignore_vmlinux = false;
  // C++ names demangled as perf does by default (symbol_conf.demangle).
  bool demangle = true;
  // ... with parameters, as perf 6.4 and later do (demangle_symbol()): set for recordings
  // made by such a perf, whose users compare with that perf's output.
  bool demangle_params = false;
  // Inline frames for the addresses of DWARF-unwound stacks (symbol_conf.inline_name,
  // --inline/--no-inline, on by default). perf 6.1 appends them in unwind_entry() only:
  // frame-pointer and LBR chains never get them, with or without --inline.
  bool inline_names = true;
  // --full-source-path (srcline.c srcline_full_filename): srclines name the whole path of
  // their source file, not its base name.
  bool full_source_path = false;
  // A binary with no .symtab anywhere gets the local function symbols of its MiniDebugInfo
  // (.gnu_debugdata) on top of .dynsym. perf 6.1 does not read it, so on such binaries (Fedora's,
  // RHEL's) it names fewer functions than readperf: --no-minidebuginfo prints what perf prints.
  bool mini_debuginfo = true;
  // Symbol tables read at all. Off (`export --format pprof --no-symbolize`), binaries are still
  // looked for (DWARF unwinding reads their CFI) but no symbol is named, and the kernel's
  // kallsyms is not read: the addresses alone, to be symbolized later.
  bool symbol_tables = true;
  // Where the running kernel's files are; tests point these elsewhere.
  std::string proc_kallsyms = "/proc/kallsyms";
  std::string proc_osrelease = "/proc/sys/kernel/osrelease";
  // The recording's kernel release (its OSRELEASE header feature), when the caller knows it:
  // with no kernel build-id recorded, it tells whether /proc/kallsyms is the recorded kernel's.
  std::string recorded_os_release;
  std::string sys_kernel_notes = "/sys/kernel/notes";

  // perf's defaults (util/config.c set_buildid_dir without a config file), with the archives
  // of $READPERF_SYMBOLS (':'-separated) and the servers of $DEBUGINFOD_URLS.
  static SymbolConfig from_environment();

  // The build-id caches in lookup order: buildid_dir, then each archive that could be read
  // (its members' paths start with the archive's).
  std::vector<std::string> build_id_roots() const;
};

}  // namespace readperf
