#include "readperf/symbols/dso_loader.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <optional>

#include "elf_file.h"
#include "elf_symbols_impl.h"
#include "mini_debuginfo.h"
#include "readperf/symbols/perf_map.h"

namespace readperf {

namespace {

bool is_regular_file(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// util/path.c path__join() as symbol__join_symfs() uses it.
std::string join_symfs(const std::string& symfs, const std::string& path) {
  if (symfs.empty()) return path;
  if (path.empty()) return symfs;
  bool slash = symfs.back() != '/' && path.front() != '/';
  return symfs + (slash ? "/" : "") + path;
}

std::string dirname_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// A "link" stored as a regular file holding its target (git with core.symlinks=false, or a copy
// through a medium without symlinks). Returns the target, or nullopt for anything else.
std::optional<std::string> read_text_link(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char buf[4097];
  in.read(buf, sizeof buf);
  std::streamsize n = in.gcount();
  if (n <= 0 || n >= static_cast<std::streamsize>(sizeof buf)) return std::nullopt;
  std::string target(buf, static_cast<size_t>(n));
  while (!target.empty() && (target.back() == '\n' || target.back() == '\r')) target.pop_back();
  if (target.empty() || target.find('\0') != std::string::npos ||
      target.find('\n') != std::string::npos) {
    return std::nullopt;
  }
  if (target.front() != '/' && target.compare(0, 3, "../") != 0) return std::nullopt;
  return target;
}

bool has_elf_magic(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  in.read(magic, 4);
  return in.gcount() == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' &&
         magic[3] == 'F';
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
  bool vdso = ref.kind == DsoKind::kVdso;
  const std::string& name = ref.path;
  std::vector<Candidate> out;
  out.push_back({BinaryType::kDebuglink, debuglink_path(ref, cfg)});
  out.push_back(
      {BinaryType::kBuildIdCache, build_id_cache_path(cfg.buildid_dir, id, vdso ? "vdso" : "elf")});
  out.push_back({BinaryType::kBuildIdCacheDebug,
                 build_id_cache_path(cfg.buildid_dir, id, vdso ? "vdso" : "debug")});
  std::string debug_root = join_symfs(cfg.symfs, "/usr/lib/debug");
  out.push_back({BinaryType::kFedoraDebuginfo, debug_root + name + ".debug"});
  out.push_back({BinaryType::kUbuntuDebuginfo, debug_root + name});
  std::string hex = id.hex();
  out.push_back({BinaryType::kBuildIdDebuginfo,
                 id.empty() ? std::string()
                            : join_symfs(cfg.symfs, "/usr/lib/debug/.build-id/") +
                                  hex.substr(0, 2) + "/" + hex.substr(2) + ".debug"});
  out.push_back({BinaryType::kSystemPath, join_symfs(cfg.symfs, name)});
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

}  // namespace

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
    // symbol.c dso__load_perf_map(): the file named by the DSO itself, no symfs.
    Result<SymbolTable> t = load_perf_map(ref.path);
    LoadAttempt a{BinaryType::kJavaJit, ref.path, t ? "perf map" : t.error().message()};
    out.attempts.push_back(std::move(a));
    if (t && !t->empty()) {
      out.table = std::move(*t);
      out.origin = BinaryType::kJavaJit;
      out.symtab_path = out.runtime_path = ref.path;
    }
    return out;
  }

  // dso__load(): without a recorded build-id, the local file's (needed for the build-id
  // debuginfo path) becomes the DSO's. perf tests the path outside --symfs and reads the one
  // inside it (is_regular_file(dso->long_name), then __symbol__join_symfs()); so do we.
  if (out.build_id.empty() && is_regular_file(ref.path)) {
    if (Result<BuildId> id = read_elf_build_id(join_symfs(cfg.symfs, ref.path))) {
      out.build_id = *id;
    }
  }

  std::vector<ElfFile> kept;  // at most two: the symtab file and the runtime file
  int syms_idx = -1, runtime_idx = -1;
  BinaryType runtime_type = BinaryType::kNotFound;
  for (Candidate& c : candidates(ref, out.build_id, cfg)) {
    LoadAttempt& a = out.attempts.emplace_back();
    a.type = c.type;
    a.path = c.path;
    if (c.path.empty()) {
      a.outcome = "no file of this kind";
      continue;
    }
    if (!is_regular_file(c.path)) {
      a.outcome = "missing";
      continue;
    }
    Result<ElfFile> elf = ElfFile::open(c.path);
    if (!elf) {
      a.outcome = "not ELF";
      continue;
    }
    // symsrc__init(): "Always reject images with a mismatched build-id".
    if (!out.build_id.empty()) {
      Result<BuildId> found = elf->build_id();
      if (!found) {
        a.outcome = "rejected: no build-id";
        continue;
      }
      if (!out.build_id.matches(*found)) {
        a.outcome = fmt::format("rejected: build-id {} differs", found->hex());
        continue;
      }
    }
    bool take_syms = syms_idx < 0 && elf->has_symtab();
    bool take_runtime = runtime_idx < 0 && elf->has_dynsym();
    if (!take_syms && !take_runtime) {
      a.outcome = "unused";
      continue;
    }
    a.outcome = take_syms && take_runtime ? "symtab+dynsym" : take_syms ? "symtab" : "dynsym";
    int idx = static_cast<int>(kept.size());
    if (take_syms) {
      syms_idx = idx;
      out.origin = c.type;
    }
    if (take_runtime) {
      runtime_idx = idx;
      runtime_type = c.type;
    }
    kept.push_back(std::move(*elf));
    if (syms_idx >= 0 && runtime_idx >= 0) break;
  }
  if (syms_idx < 0 && runtime_idx < 0) return out;
  // No .symtab anywhere: the .dynsym has to do ("We'll have to hope for the best"), with the
  // .symtab of the binary's MiniDebugInfo when it has one (which perf 6.1 does not read).
  std::optional<ElfFile> mini;
  if (syms_idx < 0) {
    syms_idx = runtime_idx;
    out.origin = runtime_type;
    if (cfg.mini_debuginfo) {
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
  ElfLoadOptions opts;
  opts.demangle = cfg.demangle;
  Result<SymbolTable> t = load_elf_symbols(syms, runtime, opts, mini ? &runtime : nullptr);
  if (t) {
    out.table = std::move(*t);
  } else {
    out.origin = BinaryType::kNotFound;
  }
  return out;
}

SymbolConfig SymbolConfig::from_environment() {
  SymbolConfig c;
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
