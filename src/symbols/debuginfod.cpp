#include "readperf/symbols/debuginfod.h"

#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <thread>
#include <type_traits>

#include "readperf/symbols/symbol_files.h"

namespace readperf {

namespace {

constexpr size_t kMaxThreads = 8;

struct Key {
  std::string hex;
  DebuginfodKind kind;
  auto operator<=>(const Key&) const = default;
};

// Every fetch of the process: its answer (a path, or empty) once known.
struct Registry {
  std::mutex mu;
  std::string urls;  // the server list in DEBUGINFOD_URLS
  bool unreachable = false;
  std::map<Key, std::shared_future<std::string>> fetches;
  std::deque<std::pair<Key, std::promise<std::string>>> queue;  // prefetches not started
  std::vector<std::thread> workers;
  std::condition_variable work;
  std::atomic<bool> cancel{false};

  // Aborts the transfers still running (the progress callback sees `cancel`), drops the
  // prefetches not started and waits for the threads.
  void stop() {
    std::vector<std::thread> running;
    {
      std::lock_guard lock(mu);
      cancel = true;
      queue.clear();
      running = std::move(workers);
      workers.clear();
    }
    work.notify_all();
    for (std::thread& t : running) t.join();
  }

  ~Registry() { stop(); }
};

Registry& registry() {
  static Registry r;
  return r;
}

int progress(debuginfod_client*, long, long) { return registry().cancel ? 1 : 0; }

// libdebuginfod, loaded the first time a server is asked (as elfutils' own libdw does): linked,
// it brings libcurl, GnuTLS, Kerberos and LDAP into every run, 25 libraries and 6 MB of
// resident memory before main() (more than perf's whole peak on a small recording), for a
// feature most runs never use.
struct Library {
  decltype(&::debuginfod_begin) begin = nullptr;
  decltype(&::debuginfod_set_progressfn) set_progressfn = nullptr;
  decltype(&::debuginfod_find_executable) find_executable = nullptr;
  decltype(&::debuginfod_find_debuginfo) find_debuginfo = nullptr;
  decltype(&::debuginfod_end) end = nullptr;
  bool loaded = false;
};

const Library& library() {
  static const Library lib = [] {
    Library l;
    // Never closed: its libraries' exit handlers must find their code.
    void* handle = ::dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      add_symbol_warning(fmt::format(
          "warning: debuginfod: cannot load libdebuginfod.so.1 ({}); no files are fetched",
          ::dlerror()));
      return l;
    }
    auto load = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(handle, name));
      return fn != nullptr;
    };
    l.loaded = load(l.begin, "debuginfod_begin") &&
               load(l.set_progressfn, "debuginfod_set_progressfn") &&
               load(l.find_executable, "debuginfod_find_executable") &&
               load(l.find_debuginfo, "debuginfod_find_debuginfo") && load(l.end, "debuginfod_end");
    return l;
  }();
  return lib;
}

// Points libdebuginfod at `urls` and sets readperf's bounds, before the first client exists
// (the library reads its environment when it queries). Called with the registry locked.
void configure(Registry& r, const std::string& urls) {
  if (r.urls == urls) return;
  r.urls = urls;
  r.unreachable = false;
  const char* current = std::getenv(DEBUGINFOD_URLS_ENV_VAR);
  if (!current || urls != current) ::setenv(DEBUGINFOD_URLS_ENV_VAR, urls.c_str(), 1);
  // libdebuginfod waits 90 s for a server that does not answer; a report should not.
  ::setenv(DEBUGINFOD_TIMEOUT_ENV_VAR, "10", 0);
  ::setenv(DEBUGINFOD_MAXTIME_ENV_VAR, "120", 0);
}

bool is_server_problem(int err) {
  // -ENOENT: no server has it (HTTP 404), -EFBIG: over DEBUGINFOD_MAXSIZE; anything else means
  // the servers could not be asked (refused, unreachable, timed out, a transport error).
  return err != -ENOENT && err != -EFBIG && err != -ECANCELED;
}

// One query, on the calling thread.
std::string fetch(const std::string& urls, const Key& key) {
  const Library& lib = library();
  if (!lib.loaded) return {};
  debuginfod_client* c = lib.begin();
  if (!c) return {};
  lib.set_progressfn(c, progress);
  char* path = nullptr;
  const auto* hex = reinterpret_cast<const unsigned char*>(key.hex.c_str());
  int fd = key.kind == DebuginfodKind::kExecutable ? lib.find_executable(c, hex, 0, &path)
                                                   : lib.find_debuginfo(c, hex, 0, &path);
  lib.end(c);
  if (fd >= 0) {
    ::close(fd);
    std::string out = path ? path : "";
    std::free(path);
    return out;
  }
  std::free(path);
  if (is_server_problem(fd) && !registry().cancel) {
    Registry& r = registry();
    std::lock_guard lock(r.mu);
    if (!r.unreachable && r.urls == urls) {
      r.unreachable = true;
      add_symbol_warning(
          fmt::format("warning: debuginfod {}: {} (build-id {}); no more files are asked of it",
                      urls, std::strerror(-fd), key.hex));
    }
  }
  return {};
}

// Takes queued prefetches until the process ends.
void worker(std::string urls) {
  Registry& r = registry();
  std::unique_lock lock(r.mu);
  while (true) {
    r.work.wait(lock, [&] { return r.cancel || !r.queue.empty(); });
    if (r.cancel) return;
    auto [key, promise] = std::move(r.queue.front());
    r.queue.pop_front();
    bool skip = r.unreachable;
    lock.unlock();
    promise.set_value(skip ? std::string() : fetch(urls, key));
    lock.lock();
  }
}

// The id as the servers know it: perf pads a shorter build-id (a 16-byte MD5 one, lld's
// --build-id=md5) to 20 bytes with zeros in its header.
Key key_of(const BuildId& id, DebuginfodKind kind) {
  const std::vector<uint8_t>& b = id.bytes();
  if (b.size() == BuildId::kMaxSize &&
      std::all_of(b.end() - 4, b.end(), [](uint8_t x) { return x == 0; })) {
    return Key{BuildId::from_bytes(std::span(b.data(), 16)).hex(), kind};
  }
  return Key{id.hex(), kind};
}

}  // namespace

void debuginfod_shutdown() { registry().stop(); }

std::string debuginfod_find(const std::string& urls, const BuildId& id, DebuginfodKind kind) {
  if (urls.empty() || id.empty()) return {};
  Registry& r = registry();
  Key key = key_of(id, kind);
  std::shared_future<std::string> pending;
  std::promise<std::string> mine;
  {
    std::lock_guard lock(r.mu);
    configure(r, urls);
    auto it = r.fetches.find(key);
    if (it != r.fetches.end()) {
      pending = it->second;
    } else {
      if (r.unreachable) return {};
      r.fetches.emplace(key, mine.get_future().share());
    }
  }
  if (pending.valid()) return pending.get();
  std::string path = fetch(urls, key);
  mine.set_value(path);
  return path;
}

void debuginfod_prefetch(const std::string& urls,
                         const std::vector<std::pair<BuildId, DebuginfodKind>>& wanted) {
  if (urls.empty()) return;
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  configure(r, urls);
  if (r.unreachable || r.cancel) return;
  size_t added = 0;
  for (const auto& [id, kind] : wanted) {
    if (id.empty()) continue;
    Key key = key_of(id, kind);
    if (r.fetches.count(key)) continue;
    std::promise<std::string> p;
    r.fetches.emplace(key, p.get_future().share());
    r.queue.emplace_back(std::move(key), std::move(p));
    ++added;
  }
  while (r.workers.size() < std::min(kMaxThreads, r.queue.size())) {
    r.workers.emplace_back(worker, urls);
  }
  if (added) r.work.notify_all();
}

}  // namespace readperf
