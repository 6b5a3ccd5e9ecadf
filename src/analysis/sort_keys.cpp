#include "readperf/analysis/sort_keys.h"

#include <fmt/format.h>
#include <strings.h>

#include <algorithm>
#include <array>

namespace readperf {

namespace {

struct Dimension {
  std::string_view name;
  bool supported;
  SortKey key;
};

// sort.c common_sort_dimensions[], in perf's order: a token matches the first name it is a
// prefix of, so "s" is "symbol" and "c" is "comm", as in perf.
constexpr std::array<Dimension, 26> kCommon = {{
    {"pid", true, SortKey::kPid},
    {"comm", true, SortKey::kComm},
    {"dso", true, SortKey::kDso},
    {"symbol", true, SortKey::kSymbol},
    {"parent", false, {}},
    {"cpu", false, {}},
    {"socket", false, {}},
    {"srcline", true, SortKey::kSrcline},
    {"srcfile", false, {}},
    {"local_weight", false, {}},
    {"weight", false, {}},
    {"transaction", false, {}},
    {"trace", true, SortKey::kTrace},
    {"symbol_size", false, {}},
    {"dso_size", false, {}},
    {"cgroup", false, {}},
    {"cgroup_id", false, {}},
    {"ipc_null", true, SortKey::kIpcNull},
    {"time", false, {}},
    {"code_page_size", false, {}},
    {"local_ins_lat", false, {}},
    {"ins_lat", false, {}},
    {"local_p_stage_cyc", false, {}},
    {"p_stage_cyc", false, {}},
    {"addr", false, {}},
    {"", false, {}},
}};

bool is_prefix_nocase(std::string_view tok, std::string_view name) {
  return tok.size() <= name.size() && strncasecmp(tok.data(), name.data(), tok.size()) == 0;
}

}  // namespace

bool SortSpec::has(SortKey k) const { return std::find(keys.begin(), keys.end(), k) != keys.end(); }

Result<SortSpec> parse_sort_keys(std::string_view order) {
  SortSpec spec;
  spec.order = std::string(order);
  size_t pos = 0;
  while (pos <= order.size()) {
    size_t end = order.find_first_of(", ", pos);
    if (end == std::string_view::npos) end = order.size();
    std::string_view tok = order.substr(pos, end - pos);
    pos = end + 1;
    if (tok.empty()) continue;
    const Dimension* dim = nullptr;
    for (const Dimension& d : kCommon) {
      if (!d.name.empty() && is_prefix_nocase(tok, d.name)) {
        dim = &d;
        break;
      }
    }
    if (!dim) return make_error(fmt::format("Unknown --sort key: `{}'", tok));
    if (!dim->supported) {
      return make_error(fmt::format("--sort key `{}' is not supported by readperf yet", tok));
    }
    // sort.c __sort_dimension__add(): a dimension already taken is ignored.
    if (!spec.has(dim->key)) spec.keys.push_back(dim->key);
  }
  if (spec.keys.empty()) return make_error("no --sort key given");
  return spec;
}

std::string_view sort_key_header(SortKey k) {
  switch (k) {
    case SortKey::kPid:
      return "    Pid:Command";
    case SortKey::kComm:
      return "Command";
    case SortKey::kDso:
      return "Shared Object";
    case SortKey::kSymbol:
      return "Symbol";
    case SortKey::kIpcNull:
      return "IPC   [IPC Coverage]";
    case SortKey::kSrcline:
      return "Source:Line";
    case SortKey::kTrace:
      return "Trace output";
  }
  return "";
}

}  // namespace readperf
