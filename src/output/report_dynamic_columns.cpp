// The columns of perf's dynamic sort keys, tracepoint fields (sort.c hpp_dynamic_entry:
// __sort__hde_entry(), hde_width()).
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "readperf/output/trace_format.h"
#include "report_columns.h"
#include "report_layout.h"

namespace readperf {

namespace {

// tep_print_field() of the entry's raw data: the field's raw value.
std::string raw_text(const HistEntry& e, const DynamicField& d) {
  std::string text;
  if (d.field.handle && !e.raw.empty()) TraceFormatter::print_field(d.field, e.raw, text);
  return text;
}

// The value of "NAME=VALUE" among the entry's trace text's space-separated words (the first
// word NAME begins), as __sort__hde_entry() and update_dynamic_len() find it; false when
// there is none.
bool text_value(const HistEntry& e, const DynamicField& d, std::string_view* value) {
  std::string_view str = e.trace;
  while (true) {
    size_t pos = str.find(' ');
    std::string_view word = str.substr(0, pos);
    if (word.starts_with(d.field.name)) {
      // str += namelen + 1, up to the space.
      *value = word.size() > d.field.name.size() ? word.substr(d.field.name.size() + 1)
                                                 : std::string_view();
      return true;
    }
    if (pos == std::string_view::npos) return false;
    str = str.substr(pos + 1);
  }
}

}  // namespace

std::string dynamic_text(const Hists& hists, uint32_t id, const DynamicField& d) {
  const HistEntry& e = hists.entry(id);
  std::string_view value;
  if (!d.raw && e.trace.data() && text_value(e, d, &value)) return std::string(value);
  return raw_text(e, d);
}

uint32_t dynamic_width(const Hists& hists, SortKey key, const DynamicField& d) {
  return dynamic_width(hists, d, hists.dynamic_len(key), hists.order());
}

uint32_t dynamic_width(const Hists& hists, const DynamicField& d, size_t dynamic_len,
                       std::span<const uint32_t> ids) {
  // hde_width(): the widest value met (dynamic_len), the name, and the field's own size (two
  // hex digits a byte and "0x" for a number).
  size_t len = dynamic_len;
  for (uint32_t id : ids) {
    const HistEntry& e = hists.entry(id);
    // update_dynamic_len(): the formatted value's length, from output_resort() on.
    std::string_view value;
    if (!d.raw && e.trace.data() && text_value(e, d, &value)) len = std::max(len, value.size());
  }
  len = std::max(len, d.field.name.size());
  size_t field_len = d.field.is_string ? d.field.size : d.field.size * 2 + 2;
  return static_cast<uint32_t>(std::max(len, field_len));
}

void put_dynamic_column(fmt::memory_buffer& b, const Hists& hists, uint32_t id, SortKey key,
                        uint32_t width) {
  const DynamicField& d = hists.config().sort.dynamic[dynamic_index(key)];
  // "%*.*s": right-aligned, cut at the width.
  std::string text = dynamic_text(hists, id, d);
  if (text.size() > width) text.resize(width);
  fmt::format_to(std::back_inserter(b), "{:>{}}", text, width);
}

}  // namespace readperf
