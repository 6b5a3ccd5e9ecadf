// `report -g/--call-graph`'s argument (callchain.c __parse_callchain_report_opt()): the
// print mode, order, key, value and limits of the call graphs.
#include <fmt/format.h>

#include <cstdlib>

#include "readperf/output/report_printer.h"
#include "report_args.h"

namespace readperf::cli {

namespace {

bool is_prefix(std::string_view tok, std::string_view word) {
  return tok.size() <= word.size() && word.substr(0, tok.size()) == tok;
}

}  // namespace

// callchain.c __parse_callchain_report_opt().
Status parse_call_graph(std::string arg, ChainParams& cp, ReportPrintOptions& po) {
  cp.enabled = true;
  cp.use_callchain = true;
  bool minpcnt_set = false;
  size_t pos = 0;
  while (pos <= arg.size()) {
    size_t end = arg.find(',', pos);
    if (end == std::string::npos) end = arg.size();
    std::string tok = arg.substr(pos, end - pos);
    pos = end + 1;
    if (tok.empty()) continue;
    if (is_prefix(tok, "none")) {
      cp.none = true;
      cp.enabled = false;
      cp.use_callchain = false;
      return {};
    }
    if (is_prefix(tok, "graph")) {
      po.chain_mode = ChainMode::kGraph;
    } else if (is_prefix(tok, "flat")) {
      po.chain_mode = ChainMode::kFlat;
    } else if (is_prefix(tok, "fractal")) {
      po.chain_mode = ChainMode::kFractal;
    } else if (is_prefix(tok, "folded")) {
      po.chain_mode = ChainMode::kFolded;
    } else if (is_prefix(tok, "caller")) {
      cp.caller = true;
      cp.order_set = true;
    } else if (is_prefix(tok, "callee")) {
      cp.caller = false;
      cp.order_set = true;
    } else if (is_prefix(tok, "function")) {
      cp.key = ChainKey::kFunction;
    } else if (is_prefix(tok, "address")) {
      cp.key = ChainKey::kAddress;
    } else if (is_prefix(tok, "srcline")) {
      cp.key = ChainKey::kSrcline;
    } else if (is_prefix(tok, "branch")) {
      cp.branch_callstack = true;
    } else if (is_prefix(tok, "percent")) {
      po.chain_value = ChainValue::kPercent;
    } else if (is_prefix(tok, "period")) {
      po.chain_value = ChainValue::kPeriod;
    } else if (is_prefix(tok, "count")) {
      po.chain_value = ChainValue::kCount;
    } else {
      char* endp = nullptr;
      if (!minpcnt_set) {
        po.chain_min_percent = std::strtod(tok.c_str(), &endp);
        minpcnt_set = true;
      } else {
        po.chain_print_limit = static_cast<uint32_t>(std::strtoul(tok.c_str(), &endp, 0));
      }
      if (endp == tok.c_str()) return make_error(fmt::format("invalid --call-graph `{}'", arg));
    }
  }
  return {};
}

}  // namespace readperf::cli
