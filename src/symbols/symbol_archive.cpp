#include "readperf/symbols/symbol_archive.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>

#include "frame_stream.h"
#include "tar_format.h"

namespace readperf {

namespace {

// The most a pax header or a GNU long name may hold: a few names of PATH_MAX.
constexpr uint64_t kMaxExtendedHeader = 1 << 16;
// Links followed while resolving one name (Linux's MAXSYMLINKS).
constexpr int kMaxLinkHops = 40;

// "a/./b//c/../d" -> "a/b/d"; a leading "/" or "./" is dropped, ".." stops at the top.
std::string normalize(std::string_view name) {
  std::vector<std::string_view> parts;
  size_t pos = 0;
  while (pos <= name.size()) {
    size_t slash = name.find('/', pos);
    if (slash == std::string_view::npos) slash = name.size();
    std::string_view part = name.substr(pos, slash - pos);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    pos = slash + 1;
  }
  std::string out;
  for (std::string_view p : parts) {
    if (!out.empty()) out += '/';
    out += p;
  }
  return out;
}

std::string parent_of(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

int memfd_with(const std::function<Status(int)>& fill, Error* err) {
  int fd = ::memfd_create("readperf-archive-member", MFD_CLOEXEC);
  if (fd < 0) {
    *err = Error(fmt::format("memfd_create: {}", std::strerror(errno)));
    return -1;
  }
  Status st = fill(fd);
  if (!st) {
    ::close(fd);
    *err = st.error();
    return -1;
  }
  return fd;
}

Status write_all(int fd, std::span<const uint8_t> bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      return make_error(fmt::format("writing a member to memory: {}", std::strerror(errno)));
    bytes = bytes.subspan(static_cast<size_t>(n));
  }
  return {};
}

}  // namespace

SymbolArchive::~SymbolArchive() {
  for (auto& [name, fd] : extracted_) ::close(fd);
  stream_.reset();
  if (map_) ::munmap(map_, map_size_);
}

Result<std::unique_ptr<SymbolArchive>> SymbolArchive::open(const std::string& path,
                                                           ArchiveLimits limits) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return make_error(fmt::format("{}: {}", path, std::strerror(errno)));
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return make_error(fmt::format("{}: not a regular file", path));
  }
  std::unique_ptr<SymbolArchive> a(new SymbolArchive());
  a->path_ = path;
  a->map_size_ = static_cast<size_t>(st.st_size);
  if (a->map_size_ > 0) {
    void* m = ::mmap(nullptr, a->map_size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      int e = errno;
      ::close(fd);
      return make_error(fmt::format("{}: mmap: {}", path, std::strerror(e)));
    }
    a->map_ = m;
  }
  ::close(fd);
  Status ok = a->index(limits);
  if (!ok) return tl::unexpected(ok.error().in_file(path));
  return a;
}

Result<std::unique_ptr<SymbolArchive>> SymbolArchive::from_bytes(std::string name,
                                                                 std::vector<uint8_t> bytes,
                                                                 ArchiveLimits limits) {
  std::unique_ptr<SymbolArchive> a(new SymbolArchive());
  a->path_ = std::move(name);
  a->bytes_ = std::move(bytes);
  Status ok = a->index(limits);
  if (!ok) return tl::unexpected(ok.error().in_file(a->path_));
  return a;
}

Status SymbolArchive::index(ArchiveLimits limits) {
  std::span<const uint8_t> bytes = map_ ? std::span(static_cast<const uint8_t*>(map_), map_size_)
                                        : std::span<const uint8_t>(bytes_);
  if (bytes.empty()) return make_error("an empty file");
  ASSIGN_OR_RETURN(FrameStream s,
                   FrameStream::open(bytes, FrameLimits{.max_frame = limits.max_frame}));
  stream_ = std::make_unique<FrameStream>(std::move(s));
  FrameStream& stream = *stream_;
  // Offsets below are in the tar stream (decompressed); errors name them as such.
  auto damaged = [&](const Error& e, uint64_t at) -> Status {
    std::string what = fmt::format("tar offset {:#x}: {}", at, e.what());
    if (members_.empty()) return make_error(what);
    warning_ = what;  // the members before the damage are kept
    return {};
  };
  uint64_t pos = 0;
  TarHeader pending;  // what pax and GNU long-name headers set for the next member
  bool pending_name = false, pending_link = false, pending_size = false;
  while (pos + kTarBlock <= stream.size()) {
    uint8_t block[kTarBlock];
    if (Status st = stream.read(pos, block); !st) return damaged(st.error(), pos);
    Result<std::optional<TarHeader>> parsed =
        parse_tar_header(std::span<const uint8_t, kTarBlock>(block));
    if (!parsed) return damaged(parsed.error(), pos);
    if (!*parsed) break;  // the end-of-archive zero block
    TarHeader h = std::move(**parsed);
    const uint64_t data = pos + kTarBlock;
    if (h.size > stream.size() - data) {
      return damaged(
          Error(fmt::format("a member of {} bytes past the end ({} bytes)", h.size, stream.size())),
          pos);
    }
    const uint64_t next = data + h.size + tar_padding(h.size);
    if (h.type == TarType::kPaxHeader || h.type == TarType::kGnuLongName ||
        h.type == TarType::kGnuLongLink) {
      if (h.size > kMaxExtendedHeader) {
        return damaged(Error(fmt::format("an extended header of {} bytes", h.size)), pos);
      }
      std::string text(static_cast<size_t>(h.size), '\0');
      if (Status st =
              stream.read(data, std::span(reinterpret_cast<uint8_t*>(text.data()), text.size()));
          !st) {
        return damaged(st.error(), data);
      }
      if (h.type == TarType::kPaxHeader) {
        TarHeader applied;
        if (Status st = apply_pax_records(text, applied); !st) return damaged(st.error(), data);
        if (!applied.name.empty()) pending.name = applied.name, pending_name = true;
        if (!applied.linkname.empty()) pending.linkname = applied.linkname, pending_link = true;
        if (text.find(" size=") != std::string::npos)
          pending.size = applied.size, pending_size = true;
      } else {
        text.resize(strnlen(text.data(), text.size()));
        if (h.type == TarType::kGnuLongName) {
          pending.name = text, pending_name = true;
        } else {
          pending.linkname = text, pending_link = true;
        }
      }
      pos = next;
      continue;
    }
    if (pending_name) h.name = pending.name;
    if (pending_link) h.linkname = pending.linkname;
    uint64_t size = h.size;
    if (pending_size && h.type == TarType::kFile) {
      // pax's size overrides the header's: the data that follows has that length.
      size = pending.size;
      if (size > stream.size() - data) {
        return damaged(Error(fmt::format("a member of {} bytes past the end", size)), pos);
      }
    }
    pending_name = pending_link = pending_size = false;
    const uint64_t after = data + size + tar_padding(size);
    pos = h.type == TarType::kFile ? after : next;
    if (h.type == TarType::kPaxGlobal || h.type == TarType::kOther) continue;
    if (h.name.size() > limits.max_name || h.linkname.size() > limits.max_name) {
      return damaged(Error("a member name longer than PATH_MAX"), data - kTarBlock);
    }
    std::string name = normalize(h.name);
    if (name.empty()) continue;
    if (members_.size() >= limits.max_members) {
      return damaged(Error(fmt::format("more than {} members", limits.max_members)), data);
    }
    Member m;
    m.type = static_cast<char>(h.type);
    m.data_offset = data;
    m.size = h.type == TarType::kFile ? size : 0;
    m.link = h.linkname;
    // A later member of the same name replaces an earlier one, as extracting would.
    members_.insert_or_assign(std::move(name), std::move(m));
  }
  if (warning_.empty() && !stream.damage().empty()) warning_ = stream.damage();
  if (members_.empty()) return make_error("no members");
  return {};
}

std::optional<std::string> SymbolArchive::follow(std::string_view name, bool want_dir) const {
  std::string path = normalize(name);
  for (int hops = 0; hops <= kMaxLinkHops; ++hops) {
    // Walk the components; at the first link, splice its target in and start again.
    bool restarted = false;
    size_t pos = 0;
    while (pos < path.size()) {
      size_t slash = path.find('/', pos);
      if (slash == std::string::npos) slash = path.size();
      std::string_view prefix(path.data(), slash);
      auto it = members_.find(prefix);
      if (it != members_.end() && (it->second.type == static_cast<char>(TarType::kSymlink) ||
                                   it->second.type == static_cast<char>(TarType::kHardLink))) {
        const Member& m = it->second;
        std::string rest = path.substr(slash);
        std::string target;
        if (m.type == static_cast<char>(TarType::kHardLink) || m.link.starts_with('/')) {
          target = m.link;  // from the archive's top
        } else {
          target = parent_of(prefix) + "/" + m.link;
        }
        path = normalize(target + rest);
        restarted = true;
        break;
      }
      pos = slash + 1;
    }
    if (restarted) continue;
    auto it = members_.find(path);
    if (!want_dir) {
      if (it != members_.end() && it->second.type == static_cast<char>(TarType::kFile)) return path;
      return std::nullopt;
    }
    if (path.empty()) return path;
    if (it != members_.end() && it->second.type == static_cast<char>(TarType::kDirectory)) {
      return path;
    }
    // A directory with no entry of its own, implied by the names inside it.
    auto below = members_.lower_bound(path + "/");
    if (below != members_.end() && below->first.starts_with(path + "/")) return path;
    return std::nullopt;
  }
  return std::nullopt;  // a loop of links
}

std::optional<std::string> SymbolArchive::resolve(std::string_view name) const {
  return follow(name, false);
}

std::vector<std::string> SymbolArchive::list(std::string_view dir) const {
  std::vector<std::string> out;
  std::optional<std::string> d = follow(dir, true);
  if (!d) return out;
  std::string prefix = d->empty() ? std::string() : *d + "/";
  std::set<std::string> names;
  for (auto it = members_.lower_bound(prefix);
       it != members_.end() && it->first.starts_with(prefix); ++it) {
    std::string_view rest = std::string_view(it->first).substr(prefix.size());
    names.emplace(rest.substr(0, rest.find('/')));
  }
  out.assign(names.begin(), names.end());
  return out;
}

uint64_t SymbolArchive::size_of(const std::string& member) const {
  auto it = members_.find(member);
  return it == members_.end() ? 0 : it->second.size;
}

Result<int> SymbolArchive::open_member(const std::string& member) {
  auto m = members_.find(member);
  if (m == members_.end() || m->second.type != static_cast<char>(TarType::kFile)) {
    return make_error(fmt::format("{}: no member {}", path_, member));
  }
  std::lock_guard lock(mu_);
  auto it = extracted_.find(member);
  if (it == extracted_.end()) {
    Error err;
    int fd = memfd_with(
        [&](int fd) -> Status {
          return stream_->for_each_piece(
              m->second.data_offset, m->second.size,
              [&](std::span<const uint8_t> p) { return write_all(fd, p); });
        },
        &err);
    if (fd < 0) return make_error(fmt::format("{}: {}: {}", path_, member, err.message()));
    it = extracted_.emplace(member, fd).first;
  }
  // A description of its own, so that each reader has its own offset.
  std::string self = fmt::format("/proc/self/fd/{}", it->second);
  int fd = ::open(self.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    fd = ::fcntl(it->second, F_DUPFD_CLOEXEC, 0);
    if (fd < 0) return make_error(fmt::format("{}: {}: {}", path_, member, std::strerror(errno)));
    ::lseek(fd, 0, SEEK_SET);
  }
  return fd;
}

Result<std::string> SymbolArchive::read_member(const std::string& member, uint64_t max_size) {
  auto m = members_.find(member);
  if (m == members_.end() || m->second.type != static_cast<char>(TarType::kFile)) {
    return make_error(fmt::format("{}: no member {}", path_, member));
  }
  if (m->second.size > max_size) {
    return make_error(fmt::format("{}: {}: {} bytes, more than the {} allowed", path_, member,
                                  m->second.size, max_size));
  }
  std::string out;
  out.reserve(static_cast<size_t>(m->second.size));
  std::lock_guard lock(mu_);
  Status st = stream_->for_each_piece(
      m->second.data_offset, m->second.size, [&](std::span<const uint8_t> p) -> Status {
        out.append(reinterpret_cast<const char*>(p.data()), p.size());
        return {};
      });
  if (!st) return make_error(fmt::format("{}: {}: {}", path_, member, st.error().message()));
  return out;
}

}  // namespace readperf
