#include "script_launch.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "perf_options.h"
#include "readperf/output/script_list.h"

namespace readperf::cli {

namespace {

// builtin-script.c script_usage[].
constexpr const char* kScriptUsage =
    "\n Usage: perf script [<options>]\n"
    "    or: perf script [<options>] record <script> [<record-options>] <command>\n"
    "    or: perf script [<options>] report <script> [script-args]\n"
    "    or: perf script [<options>] <script> [<record-options>] <command>\n"
    "    or: perf script [<options>] <top-script> [script-args]\n\n";

int usage_error(const std::string& message) {
  fmt::print(stderr, "  Error: {}\n{}", message, kScriptUsage);
  return kUsageExit;
}

// `script record ...` and the live form: readperf reads recordings, perf makes them.
int refuse_recording(const std::string& what) {
  fmt::print(stderr,
             "readperf: script {}: records with `perf record`; readperf reads recordings "
             "(record with `perf script record NAME`, then `readperf script report NAME`)\n",
             what);
  return 1;
}

// This program's path, for the `perf` of a report script.
std::string self_path() {
  std::vector<char> buf(PATH_MAX + 1);
  ssize_t n = readlink("/proc/self/exe", buf.data(), PATH_MAX);
  return n > 0 ? std::string(buf.data(), static_cast<size_t>(n)) : std::string();
}

// Runs `/bin/sh SCRIPT ARGS...` (what perf execs) with a `perf` on PATH that is readperf, so
// that the script's `perf script ... -s X.py` runs here; PERF_EXEC_PATH set for its paths.
int run_report_script(const std::string& script, const std::vector<std::string>& args) {
  std::string self = self_path();
  char dir_template[] = "/tmp/readperf-perf-XXXXXX";
  char* dir = mkdtemp(dir_template);
  if (self.empty() || !dir) {
    fmt::print(stderr, "readperf: script report: cannot make a perf for the script: {}\n",
               std::strerror(errno));
    return 1;
  }
  std::string shim = std::string(dir) + "/perf";
  int status = 1;
  if (symlink(self.c_str(), shim.c_str()) != 0) {
    fmt::print(stderr, "readperf: script report: {}: {}\n", shim, std::strerror(errno));
  } else {
    std::fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
      const char* path = std::getenv("PATH");
      std::string new_path = std::string(dir) + (path && *path ? ":" + std::string(path) : "");
      setenv("PATH", new_path.c_str(), 1);
      setenv("PERF_EXEC_PATH", perf_exec_path().c_str(), 1);
      std::vector<char*> argv;
      argv.push_back(const_cast<char*>("/bin/sh"));
      argv.push_back(const_cast<char*>(script.c_str()));
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv("/bin/sh", argv.data());
      _exit(127);
    }
    int wstatus = 0;
    if (pid > 0 && waitpid(pid, &wstatus, 0) == pid) {
      status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
    }
    unlink(shim.c_str());
  }
  rmdir(dir);
  return status;
}

// strstarts("record", word) with more than two letters: perf's abbreviations of the words.
bool abbreviates(const std::string& word, const char* full) {
  return word.size() > 2 && std::string_view(full).starts_with(word);
}

}  // namespace

// script_spec__find(): the engine of a language name or extension, case ignored.
const char* script_engine_dir(std::string_view spec) {
  auto is = [&](std::string_view name) {
    return spec.size() == name.size() &&
           std::equal(spec.begin(), spec.end(), name.begin(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) == b;
           });
  };
  if (is("perl") || is("pl")) return "perl";
  if (is("python") || is("py")) return "python";
  return nullptr;
}

std::variant<ScriptSpec, int> parse_script_spec(const std::string& arg) {
  // A failing option callback: its message (no newline), the usage and the option's help.
  auto fail = [](const char* message) {
    fmt::print(stderr, "{}{}", message, kScriptUsage);
    fmt::print(stderr,
               "    -s, --script <name>   script file name (lang:script name, script "
               "name, or *)\n");
    return std::variant<ScriptSpec, int>(kUsageExit);
  };
  size_t colon = arg.find(':');
  if (colon != std::string::npos) {
    const char* dir = script_engine_dir(std::string_view(arg).substr(0, colon));
    if (!dir) return fail("invalid language specifier");
    return ScriptSpec{arg.substr(colon + 1), dir};
  }
  size_t dot = arg.rfind('.');
  const char* dir = dot == std::string::npos ? nullptr : script_engine_dir(arg.substr(dot + 1));
  if (!dir) return fail("invalid script extension");
  return ScriptSpec{arg, dir};
}

void print_script_languages() {
  // list_available_languages(): the specs in the order setup_scripting() registers them.
  fmt::print(stderr,
             "\nScripting language extensions (used in perf script -s "
             "[spec:]script.[spec]):\n\n");
  static constexpr std::pair<const char*, const char*> kSpecs[] = {
      {"Perl", "Perl"}, {"pl", "Perl"}, {"Python", "Python"}, {"py", "Python"}};
  for (const auto& [spec, name] : kSpecs) fmt::print(stderr, "  {:<42} [{}]\n", spec, name);
  fmt::print(stderr, "\n");
}

std::optional<int> launch_script_words(std::string& script, std::vector<std::string>& words) {
  std::string exec_path = perf_exec_path();
  if (words.size() > 1 && abbreviates(words[0], "record")) return refuse_recording("record");
  if (words.size() > 1 && abbreviates(words[0], "report")) {
    std::optional<std::string> report = find_perf_script(exec_path, words[1], "-report");
    if (!report) {
      fmt::print(stderr,
                 "Please specify a valid report script(see 'perf script -l' for listing)\n");
      return 255;
    }
    // perf hands the script the words after its name (the options before `report` are
    // perf script's own, and the script does not see them).
    return run_report_script(*report, std::vector<std::string>(words.begin() + 2, words.end()));
  }
  if (find_perf_script(exec_path, words[0], "-record") ||
      find_perf_script(exec_path, words[0], "-report")) {
    return refuse_recording(words[0]);
  }
  // find_script(): a script file, its language by its extension.
  std::string_view name = words[0];
  size_t dot = name.rfind('.');
  std::string_view ext = dot == std::string_view::npos ? "" : name.substr(dot + 1);
  std::optional<std::string> path;
  if (const char* dir = script_engine_dir(ext)) path = find_script_file(exec_path, words[0], dir);
  if (!path) {
    return usage_error(fmt::format(
        "Couldn't find script `{}'\n\n See perf script -l for available scripts.\n", words[0]));
  }
  script = *path;
  words.erase(words.begin());
  return std::nullopt;
}

}  // namespace readperf::cli
