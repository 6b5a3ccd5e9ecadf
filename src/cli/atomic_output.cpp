#include "atomic_output.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace readperf::cli {

namespace {

tl::unexpected<Error> errno_error(const std::string& path, const char* what) {
  return make_error(fmt::format("{}: {}: {}", path, what, std::strerror(errno)));
}

// "DIR/.NAME.tmp-XXXXXX" beside `path`: the same file system, so rename() is atomic.
std::string temp_template(const std::string& path) {
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  return dir + "." + name + ".tmp-XXXXXX";
}

// The mode open(2) or mkdir(2) would give with `mode` under the process's umask.
mode_t with_umask(mode_t mode) {
  mode_t mask = umask(0);
  umask(mask);
  return mode & ~mask;
}

// The names in directory `path` ("." and ".." left out); false if it cannot be read.
bool list_directory(const std::string& path, std::vector<std::string>& names) {
  DIR* d = opendir(path.c_str());
  if (!d) return false;
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  closedir(d);
  return true;
}

// A CTF trace as perf and readperf write it: `metadata` and `perf_stream_N` files.
bool is_ctf_file(const std::string& name) {
  return name == "metadata" || name.rfind("perf_stream_", 0) == 0;
}

void remove_tree_files(const std::string& dir) {
  std::vector<std::string> names;
  if (list_directory(dir, names)) {
    for (const std::string& n : names) unlink((dir + "/" + n).c_str());
  }
  rmdir(dir.c_str());
}

// The temporary an interrupted run leaves behind is removed by the signal that ends it
// (Ctrl-C, a kill, or the abort() of babeltrace's writer when a write fails): one output at a
// time, its path kept where a handler can read it.
enum CleanupKind : int { kNothing = 0, kFile = 1, kDirectory = 2 };
char g_cleanup_path[4096];
volatile sig_atomic_t g_cleanup_kind = kNothing;
constexpr int kFatalSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGABRT};

// getdents64's entry (the libc wrapper, readdir, is not async-signal-safe).
struct LinuxDirent64 {
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

void remove_on_signal(int sig) {
  if (g_cleanup_kind == kFile) {
    unlink(g_cleanup_path);
  } else if (g_cleanup_kind == kDirectory) {
    int fd = open(g_cleanup_path, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
      alignas(8) char buf[4096];
      long n;
      while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
        for (long off = 0; off < n;) {
          auto* d = reinterpret_cast<LinuxDirent64*>(buf + off);
          if (std::strcmp(d->d_name, ".") != 0 && std::strcmp(d->d_name, "..") != 0)
            unlinkat(fd, d->d_name, 0);
          off += d->d_reclen;
        }
      }
      close(fd);
    }
    rmdir(g_cleanup_path);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void remove_on_fatal_signal(const std::string& path, CleanupKind kind) {
  g_cleanup_kind = kNothing;
  if (path.size() >= sizeof g_cleanup_path) return;
  std::memcpy(g_cleanup_path, path.c_str(), path.size() + 1);
  g_cleanup_kind = kind;
  static bool installed = false;
  if (installed) return;
  installed = true;
  for (int sig : kFatalSignals) {
    struct sigaction sa {};
    sa.sa_handler = remove_on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, nullptr);
  }
}

void keep_on_fatal_signal() { g_cleanup_kind = kNothing; }

}  // namespace

Result<AtomicFile> AtomicFile::create(const std::string& path, bool overwrite) {
  AtomicFile f;
  f.path_ = path;
  if (path == "-") {
    f.file_ = stdout;
    return f;
  }
  struct stat st;
  if (!overwrite && lstat(path.c_str(), &st) == 0) {
    return make_error(fmt::format("{}: exists; use --force to overwrite it", path));
  }
  std::string temp = temp_template(path);
  int fd = mkstemp(temp.data());
  if (fd < 0) return errno_error(path, "cannot create a temporary file beside it");
  fchmod(fd, with_umask(0666));
  f.temp_ = temp;
  remove_on_fatal_signal(temp, kFile);
  f.file_ = fdopen(fd, "w");
  if (!f.file_) {
    close(fd);
    return errno_error(path, "cannot open");
  }
  return f;
}

AtomicFile::AtomicFile(AtomicFile&& o) noexcept
    : path_(std::move(o.path_)), temp_(std::move(o.temp_)), file_(o.file_) {
  o.file_ = nullptr;
  o.temp_.clear();
}

AtomicFile::~AtomicFile() {
  if (file_ && file_ != stdout) std::fclose(file_);
  if (!temp_.empty()) {
    unlink(temp_.c_str());
    keep_on_fatal_signal();
  }
}

Status AtomicFile::commit() {
  if (file_ == stdout) {
    file_ = nullptr;
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) return errno_error("-", "write error");
    return {};
  }
  FILE* f = file_;
  file_ = nullptr;
  bool failed = std::fflush(f) != 0 || std::ferror(f);
  int saved = errno;
  if (std::fclose(f) != 0 && !failed) {
    failed = true;
    saved = errno;
  }
  if (failed) {
    errno = saved;
    return errno_error(path_, "write error");
  }
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) return errno_error(path_, "cannot rename");
  temp_.clear();
  keep_on_fatal_signal();
  return {};
}

Result<AtomicDirectory> AtomicDirectory::create(const std::string& path, bool overwrite) {
  AtomicDirectory d;
  d.path_ = path;
  d.overwrite_ = overwrite;
  while (d.path_.size() > 1 && d.path_.back() == '/') d.path_.pop_back();
  std::string temp = temp_template(d.path_);
  if (!mkdtemp(temp.data())) return errno_error(path, "cannot create a temporary directory");
  chmod(temp.c_str(), with_umask(0770));  // as babeltrace's writer mkdir()s it
  d.temp_ = temp;
  remove_on_fatal_signal(temp, kDirectory);
  return d;
}

AtomicDirectory::AtomicDirectory(AtomicDirectory&& o) noexcept
    : path_(std::move(o.path_)), temp_(std::move(o.temp_)), overwrite_(o.overwrite_) {
  o.temp_.clear();
}

AtomicDirectory::~AtomicDirectory() {
  if (!temp_.empty()) {
    remove_tree_files(temp_);
    keep_on_fatal_signal();
  }
}

Status AtomicDirectory::commit() {
  struct stat st;
  if (lstat(path_.c_str(), &st) == 0) {
    std::vector<std::string> names;
    if (!S_ISDIR(st.st_mode) || !list_directory(path_, names)) {
      return make_error(fmt::format("{}: exists and is not a directory", path_));
    }
    if (!names.empty()) {
      bool trace = true;
      for (const std::string& n : names) trace &= is_ctf_file(n);
      if (!overwrite_ || !trace) {
        return make_error(
            fmt::format("{}: exists and is not empty{}", path_,
                        trace ? "; use --force to replace the trace in it" : " (nor a CTF trace)"));
      }
      remove_tree_files(path_);
    }
  }
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) return errno_error(path_, "cannot rename");
  temp_.clear();
  keep_on_fatal_signal();
  return {};
}

}  // namespace readperf::cli
