#include "readperf/output/script_list.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

namespace readperf {

namespace {

struct ScriptDesc {
  std::string name;
  std::string args;  // "# args:", empty when absent
  bool has_args = false;
  std::string half_liner;  // "# description:"
  bool has_half_liner = false;
};

bool is_directory(const std::string& base, const dirent* d) {
  struct stat st;
  std::string path = base + "/" + d->d_name;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string_view skip_spaces(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  return s;
}

// read_script_info(): the "# description:" and "# args:" comment lines (fgets() lines of at
// most BUFSIZ - 1 bytes).
void read_script_info(ScriptDesc& desc, const std::string& path) {
  std::FILE* fp = std::fopen(path.c_str(), "r");
  if (!fp) return;
  std::vector<char> line(BUFSIZ);
  while (std::fgets(line.data(), static_cast<int>(line.size()), fp)) {
    std::string_view p = skip_spaces(line.data());
    if (p.empty() || p.front() != '#') continue;
    p.remove_prefix(1);
    if (!p.empty() && p.front() == '!') continue;
    p = skip_spaces(p);
    if (!p.empty() && p.back() == '\n') p.remove_suffix(1);
    if (p.starts_with("description:")) {
      desc.half_liner = std::string(skip_spaces(p.substr(12)));
      desc.has_half_liner = true;
    } else if (p.starts_with("args:")) {
      desc.args = std::string(skip_spaces(p.substr(5)));
      desc.has_args = true;
    }
  }
  std::fclose(fp);
}

}  // namespace

std::string perf_exec_path() {
  const char* env = std::getenv("PERF_EXEC_PATH");
  return env && *env ? env : "/usr/lib/perf-core";
}

namespace {

// for_each_lang(), for_each_script(): SCRIPTS/LANG/bin/FILE in readdir() order, as perf walks
// them; `visit` returns true to stop. False when SCRIPTS cannot be opened.
template <class Visit>
bool for_each_perf_script(const std::string& scripts_path, Visit&& visit) {
  DIR* scripts_dir = opendir(scripts_path.c_str());
  if (!scripts_dir) return false;
  bool stop = false;
  while (!stop) {
    dirent* lang = readdir(scripts_dir);
    if (!lang) break;
    bool dir =
        lang->d_type == DT_DIR || (lang->d_type == DT_UNKNOWN && is_directory(scripts_path, lang));
    if (!dir || !std::strcmp(lang->d_name, ".") || !std::strcmp(lang->d_name, "..")) continue;
    std::string lang_path = scripts_path + "/" + lang->d_name + "/bin";
    DIR* lang_dir = opendir(lang_path.c_str());
    if (!lang_dir) continue;
    while (dirent* script = readdir(lang_dir)) {
      if (script->d_type == DT_DIR ||
          (script->d_type == DT_UNKNOWN && is_directory(lang_path, script))) {
        continue;
      }
      if (visit(lang_path, std::string_view(script->d_name))) {
        stop = true;
        break;
      }
    }
    closedir(lang_dir);
  }
  closedir(scripts_dir);
  return true;
}

}  // namespace

Status list_perf_scripts(const std::string& exec_path, OutBuffer& out) {
  std::string scripts_path = exec_path + "/scripts";
  std::vector<ScriptDesc> descs;  // script_descs, in the order first met
  bool opened =
      for_each_perf_script(scripts_path, [&](const std::string& lang_path, std::string_view name) {
        constexpr std::string_view kReport = "-report";
        if (!name.ends_with(kReport)) return false;
        std::string root(name.substr(0, name.size() - kReport.size()));
        ScriptDesc* desc = nullptr;
        for (ScriptDesc& d : descs) {
          if (d.name == root) desc = &d;
        }
        if (!desc) desc = &descs.emplace_back(ScriptDesc{.name = root});
        read_script_info(*desc, lang_path + "/" + std::string(name));
        return false;
      });
  if (!opened) {
    return make_error(fmt::format(
        "open({}) failed.\nCheck \"PERF_EXEC_PATH\" env to set scripts dir.", scripts_path));
  }
  out.write("List of available trace scripts:\n");
  for (const ScriptDesc& d : descs) {
    std::string first_half = d.name + " " + d.args;
    out.print("  {:<36} {}\n", first_half, d.half_liner);
  }
  return {};
}

std::optional<std::string> find_perf_script(const std::string& exec_path, std::string_view root,
                                            std::string_view suffix) {
  std::optional<std::string> found;
  for_each_perf_script(exec_path + "/scripts",
                       [&](const std::string& lang_path, std::string_view name) {
                         if (!name.ends_with(suffix)) return false;
                         if (name.substr(0, name.size() - suffix.size()) != root) return false;
                         found = lang_path + "/" + std::string(name);
                         return true;
                       });
  return found;
}

int script_required_args(const std::string& path) {
  ScriptDesc desc;
  read_script_info(desc, path);
  return static_cast<int>(std::count(desc.args.begin(), desc.args.end(), '<'));
}

std::optional<std::string> find_script_file(const std::string& exec_path, const std::string& name,
                                            std::string_view lang_dir) {
  if (access(name.c_str(), R_OK) == 0) return name;
  std::string path = exec_path + "/scripts/" + std::string(lang_dir) + "/" + name;
  if (access(path.c_str(), R_OK) == 0) return path;
  return std::nullopt;
}

}  // namespace readperf
