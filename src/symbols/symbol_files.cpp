#include "readperf/symbols/symbol_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "readperf/symbols/symbol_archive.h"

namespace readperf {

namespace {

struct Registry {
  std::mutex mu;
  // Every archive named so far, by the path it was named with; null when it could not be read.
  std::map<std::string, std::unique_ptr<SymbolArchive>, std::less<>> archives;
  std::set<std::string> warned;
  std::vector<std::string> warnings;
};

Registry& registry() {
  static Registry r;
  return r;
}

void add_warning_locked(Registry& r, std::string text) {
  if (r.warned.insert(text).second) r.warnings.push_back(std::move(text));
}

// The open archive `path` is a member of, and the member's name inside it.
struct Located {
  SymbolArchive* archive = nullptr;
  std::string member;
};

Located locate(std::string_view path) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  for (auto& [name, archive] : r.archives) {
    if (archive && path.size() > name.size() && path.starts_with(name) &&
        path[name.size()] == '/') {
      return {archive.get(), std::string(path.substr(name.size() + 1))};
    }
  }
  return {};
}

}  // namespace

Result<std::string> read_whole_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return make_error(fmt::format("{}: {}", path, std::strerror(errno)));
  std::string text;
  struct stat st;
  // /proc files say 0; start with room for a typical /proc/kallsyms then.
  size_t cap = ::fstat(fd, &st) == 0 && st.st_size > 0 ? static_cast<size_t>(st.st_size) + 1
                                                       : size_t{8} << 20;
  text.resize(cap);
  size_t len = 0;
  while (true) {
    if (len == text.size()) text.resize(text.size() * 2);
    ssize_t n = ::read(fd, text.data() + len, text.size() - len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return make_error(fmt::format("{}: {}", path, std::strerror(err)));
    }
    if (n == 0) break;
    len += static_cast<size_t>(n);
  }
  ::close(fd);
  text.resize(len);
  return text;
}

std::string archive_member_path(const std::string& archive, std::string_view member) {
  std::string root = mount_symbol_archive(archive);
  if (root.empty()) return {};
  return root + "/" + std::string(member);
}

std::string mount_symbol_archive(const std::string& archive) {
  Registry& r = registry();
  {
    std::lock_guard lock(r.mu);
    auto it = r.archives.find(archive);
    if (it == r.archives.end()) {
      Result<std::unique_ptr<SymbolArchive>> a = SymbolArchive::open(archive);
      if (!a) {
        add_warning_locked(r, fmt::format("warning: symbol archive {}; its symbols are not used",
                                          a.error().message()));
        it = r.archives.emplace(archive, nullptr).first;
      } else {
        if (!(*a)->warning().empty()) {
          add_warning_locked(r, fmt::format("warning: symbol archive {}: {}; the members before "
                                            "it are used",
                                            archive, (*a)->warning()));
        }
        it = r.archives.emplace(archive, std::move(*a)).first;
      }
    }
    if (!it->second) return {};
  }
  return archive;
}

bool is_symbol_file(const std::string& path) {
  if (Located l = locate(path); l.archive) return l.archive->resolve(l.member).has_value();
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

int open_symbol_file(const std::string& path) {
  if (Located l = locate(path); l.archive) {
    std::optional<std::string> m = l.archive->resolve(l.member);
    if (!m) {
      errno = ENOENT;
      return -1;
    }
    Result<int> fd = l.archive->open_member(*m);
    if (!fd) {
      add_symbol_warning(fmt::format("warning: {}", fd.error().message()));
      errno = EIO;
      return -1;
    }
    return *fd;
  }
  return ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
}

Result<std::string> read_symbol_file(const std::string& path, uint64_t max_size) {
  if (Located l = locate(path); l.archive) {
    std::optional<std::string> m = l.archive->resolve(l.member);
    if (!m) return make_error(fmt::format("{}: not in the archive", path));
    return l.archive->read_member(*m, max_size);
  }
  ASSIGN_OR_RETURN(std::string text, read_whole_file(path));
  if (text.size() > max_size) {
    return make_error(
        fmt::format("{}: {} bytes, more than the {} allowed", path, text.size(), max_size));
  }
  return text;
}

std::vector<std::string> list_symbol_dir(const std::string& dir) {
  if (Located l = locate(dir + "/"); l.archive) return l.archive->list(l.member);
  std::vector<std::string> out;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return out;
  while (dirent* e = ::readdir(d)) {
    if (e->d_name[0] != '.') out.emplace_back(e->d_name);
  }
  ::closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

void add_symbol_warning(std::string text) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  add_warning_locked(r, std::move(text));
}

std::vector<std::string> take_symbol_warnings() {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  return std::exchange(r.warnings, {});
}

}  // namespace readperf
