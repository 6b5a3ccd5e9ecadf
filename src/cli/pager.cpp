#include "pager.h"

#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace readperf::cli {

namespace {

pid_t pager_pid = 0;

void wait_for_pager() {
  if (pager_pid <= 0) return;
  std::fflush(stdout);
  ::close(STDOUT_FILENO);  // the pager's end of file
  int status = 0;
  while (::waitpid(pager_pid, &status, 0) < 0 && errno == EINTR) {
  }
  pager_pid = 0;
}

// Async-signal-safe: close, waitpid, signal and raise are; stdout's buffer is dropped.
void wait_for_pager_then_die(int signo) {
  if (pager_pid > 0) {
    ::close(STDOUT_FILENO);
    int status = 0;
    while (::waitpid(pager_pid, &status, 0) < 0 && errno == EINTR) {
    }
    pager_pid = 0;
  }
  std::signal(signo, SIG_DFL);
  std::raise(signo);
}

std::string pager_command() {
  for (const char* name : {"READPERF_PAGER", "PAGER"}) {
    if (const char* p = std::getenv(name)) return p;
  }
  return "less -FRSX";
}

// Starts `pager` by sh -c, standard output going to it from here on.
void spawn_pager(const std::string& pager) {
  int fds[2];
  if (::pipe(fds) != 0) return;
  std::fflush(stdout);
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return;
  }
  if (pid == 0) {
    ::dup2(fds[0], STDIN_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    // As perf's pager_preexec(): start less only once there is something to show, so that
    // what readperf prints on standard error before its output (a progress line, a warning)
    // is not drawn over by less setting up the screen.
    fd_set in;
    FD_ZERO(&in);
    FD_SET(STDIN_FILENO, &in);
    ::select(1, &in, nullptr, nullptr, nullptr);
    ::setenv("LESS", "FRSX", 0);  // a plain PAGER=less behaves as the default
    ::execl("/bin/sh", "sh", "-c", pager.c_str(), static_cast<char*>(nullptr));
    std::_Exit(127);
  }
  ::close(fds[0]);
  ::dup2(fds[1], STDOUT_FILENO);
  ::close(fds[1]);
  pager_pid = pid;
  for (int signo : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) {
    std::signal(signo, wait_for_pager_then_die);
  }
  std::atexit(wait_for_pager);
}

}  // namespace

bool pager_in_use() { return pager_pid > 0; }

void start_pager() {
  if (pager_pid != 0 || !::isatty(STDOUT_FILENO)) return;
  std::string pager = pager_command();
  if (pager.find_first_not_of(" \t") == std::string::npos || pager == "cat") return;
  spawn_pager(pager);
}

void start_forced_pager(const std::string& command) {
  if (pager_pid != 0) return;
  spawn_pager(command);
}

}  // namespace readperf::cli
