#include "readperf/symbols/dso_loader.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <optional>

#include "elf_file.h"
#include "elf_symbols_impl.h"
#include "mini_debuginfo.h"
#include "readperf/symbols/debuginfod.h"
#include "readperf/symbols/perf_map.h"
#include "readperf/symbols/symbol_files.h"
#include "running_vdso.h"

namespace readperf {

namespace {

bool is_regular_file(const std::string& path) { return is_symbol_file(path); }

bool is_vdso(DsoKind kind) { return kind == DsoKind::kVdso || kind == DsoKind::kRunningVdso; }

// The first `n` bytes of a file on disk or in an archive (fewer at its end).
std::string read_head(const std::string& path, size_t n) {
  int fd = open_symbol_file(path);
  if (fd < 0) return {};
  std::string out(n, '\0');
  size_t got = 0;
  while (got < n) {
    ssize_t r = ::read(fd, out.data() + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += static_cast<size_t>(r);
  }
  ::close(fd);
  out.resize(got);
  return out;
}

std::string dirname_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// A "link" stored as a regular file holding its target (git with core.symlinks=false, or a copy
// through a medium without symlinks). Returns the target, or nullopt for anything else.
std::optional<std::string> read_text_link(const std::string& path) {
  constexpr size_t kMax = 4097;
  std::string target = read_head(path, kMax);
  if (target.empty() || target.size() >= kMax) return std::nullopt;
  while (!target.empty() && (target.back() == '\n' || target.back() == '\r')) target.pop_back();
  if (target.empty() || target.find('\0') != std::string::npos ||
      target.find('\n') != std::string::npos) {
    return std::nullopt;
  }
  if (target.front() != '/' && target.compare(0, 3, "../") != 0) return std::nullopt;
  return target;
}

bool has_elf_magic(const std::string& path) {
  return read_head(path, 4) ==
         "\x7f"
         "ELF";
}

struct Candidate {
  BinaryType type;
  std::string path;  // empty: no file for this type
};

// dso.c dso__read_binary_type_filename(DSO_BINARY_TYPE__DEBUGLINK): the .gnu_debuglink name of
// the DSO's own file, looked for beside it, in its .debug/, and under /usr/lib/debug.
std::string debuglink_path(const DsoRef& ref, const SymbolConfig& cfg) {
  std::string file = join_symfs(cfg.symfs, ref.path);
  if (!is_regular_file(file)) return {};
  Result<ElfFile> elf = ElfFile::open(file);
  if (!elf) return {};
  std::optional<std::string> link = elf->debuglink();
  if (!link || link->empty()) return {};
  std::string dir = dirname_of(file);
  for (std::string p :
       {*link, dir + "/" + *link, dir + "/.debug/" + *link, "/usr/lib/debug" + dir + "/" + *link}) {
    if (is_regular_file(p)) return p;
  }
  return {};
}

// symbol.c binary_type_symtab[], the user-space entries in order.
std::vector<Candidate> candidates(const DsoRef& ref, const BuildId& id, const SymbolConfig& cfg) {
  bool vdso = is_vdso(ref.kind);
  const std::string& name = ref.path;
  std::vector<Candidate> out;
  out.push_back({BinaryType::kDebuglink, debuglink_path(ref, cfg)});
  // The build-id cache, then each symbol archive, which is one too.
  for (const std::string& root : cfg.build_id_roots()) {
    out.push_back(
        {BinaryType::kBuildIdCache, build_id_cache_path(root, id, vdso ? "vdso" : "elf")});
    out.push_back(
        {BinaryType::kBuildIdCacheDebug, build_id_cache_path(root, id, vdso ? "vdso" : "debug")});
  }
  std::string debug_root = join_symfs(cfg.symfs, "/usr/lib/debug");
  out.push_back({BinaryType::kFedoraDebuginfo, debug_root + name + ".debug"});
  out.push_back({BinaryType::kUbuntuDebuginfo, debug_root + name});
  std::string hex = id.hex();
  out.push_back({BinaryType::kBuildIdDebuginfo,
                 id.empty() ? std::string()
                            : join_symfs(cfg.symfs, "/usr/lib/debug/.build-id/") +
                                  hex.substr(0, 2) + "/" + hex.substr(2) + ".debug"});
  out.push_back({BinaryType::kSystemPath, join_symfs(cfg.symfs, name)});
  if (ref.kind == DsoKind::kRunningVdso) {
    // The DSO's long name is perf's copy of its vdso, in /tmp: under a --symfs, not there.
    out.back().path = cfg.symfs.empty() ? running_vdso_file(cfg) : std::string();
  }
  size_t slash = name.rfind('/');
  out.push_back({BinaryType::kOpenEmbeddedDebuginfo, slash == std::string::npos
                                                         ? std::string()
                                                         : join_symfs(cfg.symfs, "") +
                                                               name.substr(0, slash + 1) +
                                                               ".debug" + name.substr(slash)});
  // Ubuntu sometimes puts /usr/lib's debug files under /usr/lib/debug/lib.
  out.push_back({BinaryType::kMixedupUbuntuDebuginfo, name.compare(0, 9, "/usr/lib/") == 0
                                                          ? debug_root + name.substr(4)
                                                          : std::string()});
  return out;
}

// The build-id of the one `PATH/<build-id>/elf` a symbol archive holds for `path`, or empty.
BuildId archived_build_id(const std::string& path, const SymbolConfig& cfg) {
  if (path.empty() || path.front() != '/') return {};
  for (const std::string& archive : cfg.archives) {
    std::string root = mount_symbol_archive(archive);
    if (root.empty()) continue;
    std::vector<std::string> ids = list_symbol_dir(root + path);
    if (ids.size() != 1) continue;
    BuildId id = BuildId::from_hex(ids.front());
    if (!id.empty() && is_regular_file(root + path + "/" + ids.front() + "/elf")) return id;
  }
  return {};
}

// The search of dso__load(): candidate files tried in order, each kept when it gives the
// symbol table (.symtab) or the runtime view (.dynsym) first.
struct Locator {
  Locator(DsoSymbols& out, const DsoRef& ref, const SymbolConfig& cfg)
      : out(out), ref(ref), cfg(cfg) {
    // dso__load(): without a recorded build-id, the local file's (needed for the build-id
    // debuginfo path) becomes the DSO's. perf tests the path outside --symfs and reads the one
    // inside it (is_regular_file(dso->long_name), then __symbol__join_symfs()); so do we.
    // A symbol archive keeps such a binary under its path too (PATH/<build-id>/elf, as perf's
    // cache does): the build-id the recording machine read, which the archive's copy has.
    if (out.build_id.empty()) out.build_id = archived_build_id(ref.path, cfg);
    if (out.build_id.empty() && is_regular_file(ref.path)) {
      if (Result<BuildId> id = read_elf_build_id(join_symfs(cfg.symfs, ref.path))) {
        out.build_id = *id;
      }
    }
    // The copy of perf's own vdso is that file (in /tmp, so not under a --symfs).
    if (out.build_id.empty() && ref.kind == DsoKind::kRunningVdso && cfg.symfs.empty()) {
      const std::string& copy = running_vdso_file(cfg);
      if (!copy.empty()) {
        if (Result<BuildId> id = read_elf_build_id(copy)) out.build_id = *id;
      }
    }
  }

  // The local candidates (symbol.c binary_type_symtab[]); true once both files are found.
  bool search_local() {
    for (Candidate& c : candidates(ref, out.build_id, cfg)) {
      if (consider(c.type, c.path)) return true;
    }
    return false;
  }

  // Tries one candidate file; true once both the symtab and the runtime file are found.
  bool consider(BinaryType type, const std::string& path) {
    LoadAttempt& a = out.attempts.emplace_back();
    a.type = type;
    a.path = path;
    if (path.empty()) {
      a.outcome = "no file of this kind";
      return false;
    }
    if (!is_regular_file(path)) {
      a.outcome = "missing";
      return false;
    }
    Result<ElfFile> elf = ElfFile::open(path);
    if (!elf) {
      a.outcome = "not ELF";
      return false;
    }
    // symsrc__init(): "Always reject images with a mismatched build-id".
    if (!out.build_id.empty()) {
      Result<BuildId> found = elf->build_id();
      if (!found) {
        a.outcome = "rejected: no build-id";
        return false;
      }
      if (!out.build_id.matches(*found)) {
        a.outcome = fmt::format("rejected: build-id {} differs", found->hex());
        return false;
      }
    }
    bool take_syms = syms_idx < 0 && elf->has_symtab();
    bool take_runtime = runtime_idx < 0 && elf->has_dynsym();
    if (!take_syms && !take_runtime) {
      a.outcome = "unused";
      return false;
    }
    a.outcome = take_syms && take_runtime ? "symtab+dynsym" : take_syms ? "symtab" : "dynsym";
    int idx = static_cast<int>(kept.size());
    if (take_syms) {
      syms_idx = idx;
      out.origin = type;
    }
    if (take_runtime) {
      runtime_idx = idx;
      runtime_type = type;
    }
    kept.push_back(std::move(*elf));
    return syms_idx >= 0 && runtime_idx >= 0;
  }

  DsoSymbols& out;
  const DsoRef& ref;
  const SymbolConfig& cfg;
  std::vector<ElfFile> kept;  // at most two: the symtab file and the runtime file
  int syms_idx = -1, runtime_idx = -1;
  BinaryType runtime_type = BinaryType::kNotFound;
};

}  // namespace

std::string join_symfs(const std::string& symfs, const std::string& path) {
  if (symfs.empty()) return path;
  if (path.empty()) return symfs;
  bool slash = symfs.back() != '/' && path.front() != '/';
  return symfs + (slash ? "/" : "") + path;
}

std::string build_id_cache_path(const std::string& buildid_dir, const BuildId& id,
                                const char* file) {
  if (id.empty()) return {};
  std::string hex = id.hex();
  std::string link = buildid_dir + "/.build-id/" + hex.substr(0, 2) + "/" + hex.substr(2);
  if (is_regular_file(link)) {
    // An old-style cache keeps the binary itself here.
    if (has_elf_magic(link)) return link;
    if (std::optional<std::string> target = read_text_link(link)) {
      std::string base = target->front() == '/' ? *target : dirname_of(link) + "/" + *target;
      return base + "/" + file;
    }
    return link;
  }
  return link + "/" + file;
}

DsoSymbols load_dso_symbols(const DsoRef& ref, const SymbolConfig& cfg) {
  DsoSymbols out;
  out.build_id = ref.build_id;

  if (ref.kind == DsoKind::kPerfMap) {
    if (!cfg.symbol_tables) return out;
    // symbol.c dso__load_perf_map(): the file named by the DSO itself, no symfs. A symbol
    // archive's copy (at the same path in it) comes first: a map of the same name here is
    // another process's.
    std::vector<std::string> paths;
    for (const std::string& archive : cfg.archives) {
      std::string root = mount_symbol_archive(archive);
      if (!root.empty() && is_regular_file(root + ref.path)) paths.push_back(root + ref.path);
    }
    paths.push_back(ref.path);
    for (const std::string& path : paths) {
      Result<SymbolTable> t = load_perf_map(path);
      LoadAttempt a{BinaryType::kJavaJit, path, t ? "perf map" : t.error().message()};
      out.attempts.push_back(std::move(a));
      if (t && !t->empty()) {
        out.table = std::move(*t);
        out.origin = BinaryType::kJavaJit;
        out.symtab_path = out.runtime_path = path;
        break;
      }
    }
    return out;
  }

  Locator loc(out, ref, cfg);
  bool done = loc.search_local();
  // What no local file gave, from debuginfod: the binary for the runtime view (and its symbols,
  // unstripped), then the debug file for the symbols. perf 6.1 fetches them into the build-id
  // cache (`perf buildid-cache`, `record.debuginfod`), where its lookup then finds them as
  // 'B' and 'D': so are they named here.
  if (!done && !out.build_id.empty() && !cfg.debuginfod_urls.empty()) {
    // A served file is checked like any other; one of another build-id is worth saying.
    auto fetched = [&](BinaryType type, DebuginfodKind kind) {
      std::string path = debuginfod_find(cfg.debuginfod_urls, out.build_id, kind);
      bool both = loc.consider(type, path);
      if (!path.empty() && out.attempts.back().outcome.starts_with("rejected")) {
        add_symbol_warning(fmt::format(
            "warning: debuginfod {}: the file served for build-id {} "
            "({}) was {}",
            cfg.debuginfod_urls, out.build_id.hex(), ref.path, out.attempts.back().outcome));
      }
      return both;
    };
    if (loc.runtime_idx < 0) done = fetched(BinaryType::kBuildIdCache, DebuginfodKind::kExecutable);
    if (!done && loc.syms_idx < 0 && !is_vdso(ref.kind)) {
      fetched(BinaryType::kBuildIdCacheDebug, DebuginfodKind::kDebuginfo);
    }
  }
  std::vector<ElfFile>& kept = loc.kept;
  int syms_idx = loc.syms_idx, runtime_idx = loc.runtime_idx;
  const BinaryType runtime_type = loc.runtime_type;
  if (syms_idx < 0 && runtime_idx < 0) return out;
  // No .symtab anywhere: the .dynsym has to do ("We'll have to hope for the best"), with the
  // .symtab of the binary's MiniDebugInfo when it has one (which perf 6.1 does not read).
  std::optional<ElfFile> mini;
  if (syms_idx < 0) {
    syms_idx = runtime_idx;
    out.origin = runtime_type;
    if (cfg.mini_debuginfo && cfg.symbol_tables) {
      const ElfFile& binary = kept[static_cast<size_t>(runtime_idx)];
      Result<std::optional<ElfFile>> m = read_mini_debuginfo(binary);
      LoadAttempt& a = out.attempts.emplace_back();
      a.type = runtime_type;
      a.path = binary.path() + "[.gnu_debugdata]";
      if (!m) {
        a.outcome = m.error().message();
      } else if (!*m) {
        a.outcome = "no file of this kind";
      } else if (!(*m)->has_symtab()) {
        a.outcome = "unused";
      } else {
        a.outcome = "symtab";
        mini = std::move(**m);
      }
    }
  }
  if (runtime_idx < 0) runtime_idx = syms_idx;
  const ElfFile& runtime = kept[static_cast<size_t>(runtime_idx)];
  const ElfFile& syms = mini ? *mini : kept[static_cast<size_t>(syms_idx)];
  out.symtab_path = syms.path();
  out.runtime_path = runtime.path();
  if (!cfg.symbol_tables) return out;  // the files, for unwinding; no names
  ElfLoadOptions opts;
  opts.demangle = cfg.demangle;
  opts.demangle_params = cfg.demangle_params;
  Result<SymbolTable> t = load_elf_symbols(syms, runtime, opts, mini ? &runtime : nullptr);
  if (t) {
    out.table = std::move(*t);
  } else {
    out.origin = BinaryType::kNotFound;
  }
  return out;
}

void prefetch_from_debuginfod(const std::vector<DsoRef>& refs, const SymbolConfig& cfg) {
  if (cfg.debuginfod_urls.empty()) return;
  std::vector<std::pair<BuildId, DebuginfodKind>> wanted;
  for (const DsoRef& ref : refs) {
    if (ref.kind == DsoKind::kPerfMap) continue;
    DsoSymbols out;
    out.build_id = ref.build_id;
    Locator loc(out, ref, cfg);
    if (loc.search_local() || out.build_id.empty()) continue;
    if (loc.runtime_idx < 0) wanted.emplace_back(out.build_id, DebuginfodKind::kExecutable);
    if (loc.syms_idx < 0 && !is_vdso(ref.kind)) {
      wanted.emplace_back(out.build_id, DebuginfodKind::kDebuginfo);
    }
  }
  debuginfod_prefetch(cfg.debuginfod_urls, wanted);
}

std::vector<std::string> SymbolConfig::build_id_roots() const {
  // symbol.c symbol__config_symfs(): "skip the locally configured cache if a symfs is given,
  // and config buildid dir to symfs/.debug", whatever --buildid-dir said.
  std::vector<std::string> roots{symfs.empty() ? buildid_dir : symfs + "/.debug"};
  for (const std::string& archive : archives) {
    std::string root = mount_symbol_archive(archive);
    if (!root.empty()) roots.push_back(std::move(root));
  }
  return roots;
}

SymbolConfig SymbolConfig::from_environment() {
  SymbolConfig c;
  if (const char* urls = std::getenv("DEBUGINFOD_URLS")) c.debuginfod_urls = urls;
  if (const char* list = std::getenv("READPERF_SYMBOLS")) {
    std::string_view rest = list;
    while (!rest.empty()) {
      size_t colon = rest.find(':');
      std::string_view one = rest.substr(0, colon);
      if (!one.empty()) c.archives.emplace_back(one);
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
  }
  if (const char* v = std::getenv("READPERF_VDSO"); v && *v) c.running_vdso = v;
  // The tests read as on a machine that runs none of the recorded kernels (its /proc/kallsyms
  // would otherwise stand in for a recorded kernel that happens to be the running one).
  if (const char* root = std::getenv("READPERF_RUNNING_KERNEL"); root && *root) {
    std::string dir = root;
    c.proc_kallsyms = dir + "/proc/kallsyms";
    c.proc_osrelease = dir + "/proc/sys/kernel/osrelease";
    c.sys_kernel_notes = dir + "/sys/kernel/notes";
  }
  if (const char* d = std::getenv("PERF_BUILDID_DIR"); d && *d) {
    c.buildid_dir = d;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    c.buildid_dir = std::string(home) + "/.debug";
  } else {
    c.buildid_dir = ".debug";
  }
  return c;
}

}  // namespace readperf
