// Prefetch threads and the end of the process (symbols/debuginfod.h): debuginfod_shutdown()
// must cancel transfers in flight and join every thread, so that no prefetch is still inside
// libcurl or OpenSSL when their exit handlers run (a report that ended while prefetches were
// pending crashed in OPENSSL_init_crypto during exit).
#include "readperf/symbols/debuginfod.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

namespace readperf {
namespace {

size_t thread_count() {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/task")) {
    (void)e;
    ++n;
  }
  return n;
}

// A loopback server that takes connections (the kernel's backlog does) and never answers.
int silent_listener(int* port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(fd, 64) != 0) {
    return -1;
  }
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  *port = ntohs(addr.sin_port);
  return fd;
}

// The registry is process-wide and a shutdown is final: the checks run in a child process.
void prefetch_then_shutdown() {
  int port = 0;
  int fd = silent_listener(&port);
  if (fd < 0) std::_Exit(2);
  std::string cache = std::filesystem::temp_directory_path() /
                      ("readperf-debuginfod-test-" + std::to_string(::getpid()));
  ::setenv("DEBUGINFOD_CACHE_PATH", cache.c_str(), 1);
  ::setenv("DEBUGINFOD_TIMEOUT", "60", 1);  // only the cancel can end the transfers early
  std::string url = "http://127.0.0.1:" + std::to_string(port);
  size_t before = thread_count();
  debuginfod_prefetch(
      url,
      {{BuildId::from_hex("30f110c4ba7a42424ce5a830f159053c61f21cf7"), DebuginfodKind::kExecutable},
       {BuildId::from_hex("e95baaeaec8534edc5df3654182ddf12b19d9b23"), DebuginfodKind::kDebuginfo},
       {BuildId::from_hex("0123456789abcdef0123456789abcdef01234567"),
        DebuginfodKind::kExecutable}});
  if (thread_count() != before + 3) std::_Exit(3);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // transfers under way
  auto start = std::chrono::steady_clock::now();
  debuginfod_shutdown();
  auto took = std::chrono::steady_clock::now() - start;
  // Joined: no thread of the prefetch is left.
  if (thread_count() != before) std::_Exit(4);
  // Cancelled, not waited out: well under the 60 s the server would take.
  if (took > std::chrono::seconds(30)) std::_Exit(5);
  // A prefetch after the shutdown starts nothing.
  debuginfod_prefetch(url, {{BuildId::from_hex("1111111111111111111111111111111111111111"),
                             DebuginfodKind::kExecutable}});
  if (thread_count() != before) std::_Exit(6);
  std::filesystem::remove_all(cache);
  ::close(fd);
  std::exit(0);  // through the exit handlers, as main() returns
}

TEST(DebuginfodDeathTest, ShutdownCancelsAndJoinsThePrefetches) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(prefetch_then_shutdown(), testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace readperf
