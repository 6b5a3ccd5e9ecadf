#include "readperf/symbols/kallsyms.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <future>
#include <mutex>
#include <span>

#include "readperf/symbols/dso_loader.h"
#include "readperf/symbols/symbol_files.h"
#include "readperf/symbols/vmlinux.h"

namespace readperf {

namespace {

constexpr size_t kMaxNameLen = 512;  // KSYM_NAME_LEN
constexpr std::string_view kEntryTrampoline = "__entry_SYSCALL_64_trampoline";
// read_symbol_file()'s bound: no kallsyms comes near it.
constexpr uint64_t kMaxSymbolFileSize = uint64_t{1} << 32;

struct Line {
  uint64_t addr;
  char type;
  std::string_view name;  // with "\t[module]" for module symbols
};

// tools/lib/symbol/kallsyms.c kallsyms__parse(): "ADDR T name[\t[module]]" lines; a line that
// does not start that way is skipped up to its end (from where reading stopped).
template <class F>
void for_each_line(std::string_view text, F&& f) {
  size_t pos = 0, n = text.size();
  auto skip_to_eol = [&] {
    while (pos < n && text[pos++] != '\n') {
    }
  };
  while (pos < n) {
    uint64_t addr = 0;
    bool first = true;
    int stop = -1;
    while (pos < n) {
      char c = text[pos++];
      int d = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : -1;
      if (d < 0) {
        stop = first ? -2 : static_cast<unsigned char>(c);
        break;
      }
      addr = addr << 4 | static_cast<uint64_t>(d);
      first = false;
    }
    if (stop != ' ') {
      skip_to_eol();
      continue;
    }
    if (pos >= n) break;
    char type = text[pos++];
    if (pos >= n || text[pos++] != ' ') {
      skip_to_eol();
      continue;
    }
    size_t start = pos;
    while (pos < n && text[pos] != '\n' && pos - start < kMaxNameLen + 1) ++pos;
    std::string_view name = text.substr(start, pos - start);
    if (pos < n && text[pos] == '\n') ++pos;
    f(Line{addr, type, name});
  }
}

// symbol.c symbol_type__filter(): text, weak, data, bss.
bool wanted(char type) {
  char t = static_cast<char>(std::toupper(static_cast<unsigned char>(type)));
  return t == 'T' || t == 'W' || t == 'D' || t == 'B';
}

uint8_t binding_of(char type) {
  if (type == 'W') return kBindWeak;
  return std::isupper(static_cast<unsigned char>(type)) ? kBindGlobal : kBindLocal;
}

uint8_t type_of(char type) {
  char t = static_cast<char>(std::tolower(static_cast<unsigned char>(type)));
  return t == 't' || t == 'w' ? kTypeFunc : kTypeObject;
}

bool is_function_or_alias(char type) {
  char t = static_cast<char>(std::toupper(static_cast<unsigned char>(type)));
  return t == 'T' || t == 'W' || type == 'A';
}

// A build-id cache's kallsyms for `dir` (ROOT/[kernel.kallsyms]/<id>): DIR/kallsyms, or DIR
// itself in an old-style cache; empty when neither is a file.
std::string cached_kallsyms_file(const std::string& dir) {
  std::string path = dir + "/kallsyms";
  if (is_symbol_file(path)) return path;
  return is_symbol_file(dir) ? dir : std::string();
}

}  // namespace

const Symbol* KernelSymbols::find_module(std::string_view module, uint64_t ip) const {
  auto it = modules.find(module);
  return it == modules.end() ? nullptr : it->second.find(ip);
}

std::pair<uint64_t, uint64_t> KernelSymbols::kernel_range() const {
  if (kernel.empty()) return {0, 0};
  return {kernel.symbols().front().start, kernel.symbols().back().end};
}

namespace {

// The relocation reference names perf writes ("[kernel.kallsyms]_text", older "_stext"),
// whose addresses a prefetch notes while it parses.
constexpr std::array<std::string_view, 2> kCommonRefs = {"_text", "_stext"};

// A source of kallsyms lines: `each(f)` calls f(Line) for every line, and fails only when
// the file cannot be read.
using LineSource = std::function<Status(const std::function<void(const Line&)>&)>;

// Reads the file open at `fd` 256 KiB at a time and parses each piece's whole lines as it
// arrives: only the symbols are kept, never the text (9 MB for a 120k-line kallsyms, read,
// held and zeroed before any of it was parsed).
Status for_each_file_line(int fd, const std::function<void(const Line&)>& f) {
  std::vector<char> buf(size_t{256} << 10);
  size_t have = 0;
  uint64_t total = 0;
  while (true) {
    if (have == buf.size()) buf.resize(buf.size() * 2);  // a line longer than the buffer
    ssize_t n = ::read(fd, buf.data() + have, buf.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error(std::strerror(errno));
    if (n == 0) break;
    total += static_cast<uint64_t>(n);
    if (total > kMaxSymbolFileSize) {
      return make_error(fmt::format("more than the {} bytes allowed", kMaxSymbolFileSize));
    }
    have += static_cast<size_t>(n);
    std::string_view text(buf.data(), have);
    size_t last = text.rfind('\n');
    if (last == std::string_view::npos) continue;
    // A line ends where its piece does: the parse of whole lines is the parse of the file's.
    for_each_line(text.substr(0, last + 1), f);
    std::memmove(buf.data(), buf.data() + last + 1, have - last - 1);
    have -= last + 1;
  }
  for_each_line(std::string_view(buf.data(), have), f);
  return {};
}

LineSource file_lines(const std::string& path) {
  return [path](const std::function<void(const Line&)>& f) -> Status {
    int fd = open_symbol_file(path);
    if (fd < 0) return make_error(std::strerror(errno));
    Status r = for_each_file_line(fd, f);
    ::close(fd);
    return r;
  };
}

LineSource text_lines(std::string_view text) {
  return [text](const std::function<void(const Line&)>& f) -> Status {
    for_each_line(text, f);
    return {};
  };
}

// parse_kallsyms() that also notes the first function (or alias) address of each of `notes`.
Result<KernelSymbols> parse_noting(const LineSource& lines, const std::optional<RefRelocSym>& ref,
                                   std::span<const std::string_view> notes,
                                   std::optional<uint64_t>* noted) {
  KernelSymbols out;
  SymbolTableBuilder all;
  // Address space only (untouched capacity costs no memory): room for a large kernel's table
  // without copying it while it grows.
  all.reserve(size_t{1} << 20, size_t{32} << 20);
  std::optional<uint64_t> ref_addr;
  bool any_address = false;
  RETURN_IF_ERROR(lines([&](const Line& l) {
    if (l.addr) any_address = true;
    // kallsyms__get_function_start(): the first function (or 'A' alias) of that name.
    if (ref && !ref_addr && is_function_or_alias(l.type) && l.name == ref->name) {
      ref_addr = l.addr;
    }
    for (size_t i = 0; i < notes.size(); ++i) {
      if (!noted[i] && l.name == notes[i] && is_function_or_alias(l.type)) noted[i] = l.addr;
    }
    if (!wanted(l.type)) return;
    if (!l.name.empty() && l.name[0] == '$') return;  // ARM module local symbols
    all.add(l.addr, 0, binding_of(l.type), type_of(l.type), l.name);
  }));
  // A kallsyms read with kptr_restrict in force shows only zeros.
  if (!any_address) return make_error("kallsyms has no addresses (kptr_restrict?)");
  if (ref && !ref_addr) {
    return make_error(fmt::format("kallsyms has no symbol {}", ref->name));
  }
  if (ref) out.delta = *ref_addr - ref->addr;

  // Sizes and duplicates are settled with module names still attached: the '[' tells the
  // kernel/module boundary, and "name\t[mod]" is the name choose_best_symbol() compares.
  all.fixup_end(true);
  all.fixup_duplicate();

  // maps__split_kallsyms(): module symbols to their module, the rest (less the x86 entry
  // trampolines, which perf maps separately) to the kernel, moved by the delta. The kernel's
  // are most of them: they stay in `all`, which becomes the kernel's table.
  std::map<std::string, SymbolTableBuilder, std::less<>> modules;
  // The module of the symbol before, in address order ("" for the kernel's): where it
  // changes, perf looks the module's map up again (maps__split_kallsyms()).
  std::string_view previous_module;
  all.retain([&](const SymbolTableBuilder::Pending& p, std::string_view name) {
    size_t tab = name.find('\t');
    if (tab != std::string_view::npos) {
      std::string_view module = name.substr(tab + 1);
      auto it = modules.find(module);
      if (it == modules.end())
        it = modules.emplace(std::string(module), SymbolTableBuilder()).first;
      it->second.add(p.start, p.end - p.start, p.binding, p.type, name.substr(0, tab));
      if (module != previous_module) out.module_run_starts[std::string(module)].push_back(p.start);
      previous_module = module;
      return false;
    }
    if (name == kEntryTrampoline) return false;  // discarded, the current map kept
    previous_module = {};
    return true;
  });
  all.shift(out.delta);
  out.kernel = std::move(all).finish();
  for (auto& [name, b] : modules) out.modules.emplace(name, std::move(b).finish());
  return out;
}

// A file parsed ahead of need, with no reference (delta 0).
struct Prefetched {
  Result<KernelSymbols> parsed = KernelSymbols{};
  std::array<std::optional<uint64_t>, kCommonRefs.size()> ref_addrs;
};

Prefetched read_and_parse(const std::string& path) {
  Prefetched p;
  p.parsed = parse_noting(file_lines(path), std::nullopt, kCommonRefs, p.ref_addrs.data());
  return p;
}

// What the prefetch gives for `ref`: what parse_noting(path, ref) gives. The common case, a
// table of the recording's boot (delta 0), is the prefetched parse itself; another delta moves
// every kernel symbol by the same amount (the fix-ups before the move do not depend on it).
Result<KernelSymbols> settle(Prefetched p, const std::string& path,
                             const std::optional<RefRelocSym>& ref) {
  if (!p.parsed || !ref) return std::move(p.parsed);
  std::optional<uint64_t> ref_addr;
  auto common = std::find(kCommonRefs.begin(), kCommonRefs.end(), ref->name);
  if (common != kCommonRefs.end()) {
    ref_addr = p.ref_addrs[static_cast<size_t>(common - kCommonRefs.begin())];
  } else {
    return parse_noting(file_lines(path), ref, {}, nullptr);
  }
  if (!ref_addr) return make_error(fmt::format("kallsyms has no symbol {}", ref->name));
  p.parsed->delta = *ref_addr - ref->addr;
  p.parsed->kernel.shift(p.parsed->delta);
  return std::move(p.parsed);
}

struct PrefetchRegistry {
  std::mutex mu;
  std::vector<std::pair<std::string, std::future<Prefetched>>> pending;
};

PrefetchRegistry& registry() {
  static PrefetchRegistry r;
  return r;
}

std::optional<std::future<Prefetched>> take_prefetched(const std::string& path) {
  PrefetchRegistry& r = registry();
  std::lock_guard lock(r.mu);
  for (auto it = r.pending.begin(); it != r.pending.end(); ++it) {
    if (it->first != path) continue;
    std::future<Prefetched> f = std::move(it->second);
    r.pending.erase(it);
    return f;
  }
  return std::nullopt;
}

}  // namespace

Result<KernelSymbols> parse_kallsyms(std::string_view text, const std::optional<RefRelocSym>& ref) {
  return parse_noting(text_lines(text), ref, {}, nullptr);
}

void prefetch_kallsyms(const std::string& path) {
  if (path.empty()) return;
  PrefetchRegistry& r = registry();
  std::lock_guard lock(r.mu);
  for (const auto& [p, f] : r.pending) {
    if (p == path) return;
  }
  r.pending.emplace_back(path, std::async(std::launch::async, read_and_parse, path));
}

Result<KernelSymbols> load_kallsyms(const std::string& path,
                                    const std::optional<RefRelocSym>& ref) {
  Result<KernelSymbols> k;
  if (auto f = take_prefetched(path)) {
    k = settle(f->get(), path, ref);
  } else {
    k = parse_noting(file_lines(path), ref, {}, nullptr);
  }
  if (!k) return make_error(fmt::format("{}: {}", path, k.error().what()));
  k->path = path;
  return k;
}

std::string running_kernel_release(const SymbolConfig& cfg) {
  std::ifstream in(cfg.proc_osrelease);
  std::string line;
  std::getline(in, line);
  return line;
}

namespace {

// A kallsyms in the build-id cache (DIR/[kernel.kallsyms]/<build-id>/kallsyms) whose
// relocation reference symbol sits at `ref.addr`: a table taken during the recording's boot.
std::optional<KernelSymbols> find_cached_kallsyms(const std::string& buildid_dir,
                                                  const RefRelocSym& ref,
                                                  std::vector<std::string>& attempts) {
  std::string root = buildid_dir + "/[kernel.kallsyms]";
  // In name order: a stable choice whatever the directory order.
  for (const std::string& name : list_symbol_dir(root)) {
    std::string path = cached_kallsyms_file(root + "/" + name);
    if (path.empty()) continue;
    Result<KernelSymbols> k = load_kallsyms(path, ref);
    if (k && k->delta == 0) {
      attempts.push_back(
          fmt::format("kallsyms {}: used, its {} is the recorded one", path, ref.name));
      k->attempts = attempts;
      return std::move(*k);
    }
  }
  attempts.push_back(fmt::format("kallsyms in {}: none with the recorded {}", root, ref.name));
  return std::nullopt;
}
}  // namespace

KernelSymbols load_kernel_symbols(const BuildId& build_id, const std::optional<RefRelocSym>& ref,
                                  const SymbolConfig& cfg) {
  std::vector<std::string> attempts;
  // One candidate (`kind` "kallsyms" or "vmlinux"), noted in the attempts; the table, with
  // them, when it could be read.
  auto take = [&](std::string_view kind, const std::string& name,
                  Result<KernelSymbols> k) -> std::optional<KernelSymbols> {
    if (!k) {
      attempts.push_back(fmt::format("{} {}: {}", kind, name, k.error().what()));
      return std::nullopt;
    }
    attempts.push_back(fmt::format("{} {}: used", kind, name));
    k->attempts = attempts;
    return std::move(*k);
  };
  auto try_load = [&](const std::string& path) {
    return take("kallsyms", path, load_kallsyms(path, ref));
  };
  auto try_vmlinux = [&](const std::string& name) {
    return take("vmlinux", name, load_vmlinux(name, build_id, ref, cfg));
  };
  auto none = [&] {
    KernelSymbols k;
    k.attempts = attempts;
    return k;
  };

  // Only the file the user named, reporting its errors rather than falling back.
  if (!cfg.kallsyms.empty()) {
    if (auto k = try_load(cfg.kallsyms)) return std::move(*k);
    return none();
  }
  if (!cfg.ignore_vmlinux && !cfg.vmlinux.empty()) {
    if (auto k = try_vmlinux(cfg.vmlinux)) return std::move(*k);
    return none();
  }
  // "Before checking on common vmlinux locations, check if it's stored as standard build id
  // binary (not kallsyms) under .debug cache."
  if (!build_id.empty()) {
    for (const std::string& root : cfg.build_id_roots()) {
      std::string path = build_id_cache_path(root, build_id, "elf");
      if (!path.empty() && is_symbol_file(path)) {
        if (auto k = try_vmlinux(path)) return std::move(*k);
      }
    }
  }
  if (!cfg.ignore_vmlinux) {
    for (const std::string& name : vmlinux_search_path(cfg)) {
      if (auto k = try_vmlinux(name)) return std::move(*k);
    }
  }
  // "do not try local files if a symfs was given"
  if (!cfg.symfs.empty()) {
    attempts.push_back("kallsyms: not looked for with a symfs");
    return none();
  }
  // dso__find_kallsyms(): the running kernel's table when it is the recorded kernel (or the
  // recording cannot tell), else the build-id cache's copy.
  bool is_host = false;
  if (!build_id.empty()) {
    Result<BuildId> running = read_notes_build_id(cfg.sys_kernel_notes);
    is_host = running && build_id.matches(*running);
    attempts.push_back(fmt::format("running kernel's build-id {}: {}",
                                   running ? running->hex() : "unknown",
                                   is_host ? "matches" : "differs"));
  }
  if (build_id.empty()) {
    // The recording does not say which kernel it ran on (perf leaves the build-id out of
    // some recordings, -z ones among them). perf then reads /proc/kallsyms, which is right
    // only on the machine and boot that recorded: with KASLR the relocation reference (the
    // `_text` address of the kernel's MMAP) tells the same boot apart, and the recorded
    // release another kernel. Elsewhere, a cached kallsyms with the same reference is the
    // recorded kernel's table (the first in name order, should several match).
    std::string running = running_kernel_release(cfg);
    bool other_kernel =
        !cfg.recorded_os_release.empty() && !running.empty() && running != cfg.recorded_os_release;
    std::optional<KernelSymbols> host = try_load(cfg.proc_kallsyms);
    if (host && (!ref || host->delta == 0) && !other_kernel) return std::move(*host);
    if (other_kernel) {
      attempts.push_back(fmt::format("running kernel {} is not the recorded {}", running,
                                     cfg.recorded_os_release));
    }
    if (ref) {
      if (host) attempts.back() += fmt::format(" (but its {} is not the recorded one)", ref->name);
      // Not held while a cached table is parsed (two kernels' tables at once): loaded again
      // should none be the recorded one.
      const bool host_loads = host.has_value();
      host.reset();
      for (const std::string& root : cfg.build_id_roots()) {
        if (auto cached = find_cached_kallsyms(root, *ref, attempts)) return std::move(*cached);
      }
      if (host_loads) {
        Result<KernelSymbols> again = load_kallsyms(cfg.proc_kallsyms, ref);
        if (again) {
          again->attempts = attempts;
          return std::move(*again);
        }
      }
    }
    if (host) return std::move(*host);  // perf's answer, if nothing better is known
    return none();
  }
  if (is_host) {
    if (auto k = try_load(cfg.proc_kallsyms)) return std::move(*k);
    return none();
  }
  // The build-id cache's copy, then each archive's.
  std::string hex = build_id.hex();
  for (const std::string& root : cfg.build_id_roots()) {
    std::string dir = root + "/[kernel.kallsyms]/" + hex;
    std::string path = cached_kallsyms_file(dir);
    if (path.empty()) {
      attempts.push_back(fmt::format("kallsyms {}/kallsyms: missing", dir));
      continue;
    }
    if (auto k = try_load(path)) return std::move(*k);
  }
  return none();
}

// The first choice of load_kernel_symbols(), made the same way.
std::string first_kallsyms_path(const BuildId& build_id, const SymbolConfig& cfg) {
  if (!cfg.kallsyms.empty()) return cfg.kallsyms;
  if (!cfg.symfs.empty()) return {};
  if (build_id.empty()) return cfg.proc_kallsyms;
  Result<BuildId> running = read_notes_build_id(cfg.sys_kernel_notes);
  if (running && build_id.matches(*running)) return cfg.proc_kallsyms;
  for (const std::string& root : cfg.build_id_roots()) {
    std::string path = cached_kallsyms_file(root + "/[kernel.kallsyms]/" + build_id.hex());
    if (!path.empty()) return path;
  }
  return {};
}

}  // namespace readperf
