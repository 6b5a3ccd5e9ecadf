// The regexes of stackcollapse-perf.pl, matched by hand: each function below names the one it
// stands for, and follows Perl's leftmost, greedy-then-backtrack choice of captures.
#include "readperf/output/stack_collapser.h"

#include <fmt/format.h>

#include <algorithm>

namespace readperf {

namespace {

// Perl's \s and \d and \w on bytes (no locale, no utf8: ASCII only).
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

size_t skip(std::string_view s, size_t i, bool (*pred)(char)) {
  while (i < s.size() && pred(s[i])) ++i;
  return i;
}

// Perl truth: undef, "" and "0" are false.
bool perl_true(std::string_view s) { return !s.empty() && s != "0"; }

struct Header {
  std::string_view comm, pid, tid;  // tid empty: undef
};

// /^(\S.+?)\s+(\d+)\/*(\d+)*\s+/: the shortest comm of two characters or more followed by
// blanks, digits, optional slashes and digits, and a blank.
std::optional<Header> match_header(std::string_view s) {
  if (s.empty() || is_space(s[0]) || s[0] == '\n') return std::nullopt;
  for (size_t e = 2; e < s.size(); ++e) {
    if (s[e - 1] == '\n') return std::nullopt;  // '.' stops at a newline
    size_t a = skip(s, e, is_space);
    if (a == e) continue;
    size_t b = skip(s, a, is_digit);
    if (b == a) continue;
    size_t c = b;
    while (c < s.size() && s[c] == '/') ++c;
    size_t d = skip(s, c, is_digit);
    if (d >= s.size() || !is_space(s[d])) continue;
    return Header{s.substr(0, e), s.substr(a, b - a), s.substr(c, d - c)};
  }
  return std::nullopt;
}

struct EventMatch {
  std::string_view period;  // empty: undef
  std::string_view event;
};

// /:\s*(\d+)*\s+(\S+):\s*$/: the event name is the last word of the line, ending in ':',
// after a ':' and blanks, with the period between them when digits stand there alone.
std::optional<EventMatch> match_event(std::string_view s) {
  // `(\S+):\s*$`: the line's last word, which must end in ':' and be longer than it.
  size_t end = s.size();
  while (end > 0 && is_space(s[end - 1])) --end;
  if (end < 2 || s[end - 1] != ':') return std::nullopt;
  size_t word = end;
  while (word > 0 && !is_space(s[word - 1])) --word;
  if (end - word < 2 || word == 0) return std::nullopt;  // \s+ must precede the word
  for (size_t i = 0; i < word; ++i) {
    if (s[i] != ':') continue;
    size_t a = skip(s, i + 1, is_space);
    size_t b = skip(s, a, is_digit);
    // With digits: they must be followed by the blanks before the word.
    if (b > a && skip(s, b, is_space) == word && b < word) {
      return EventMatch{s.substr(a, b - a), s.substr(word, end - 1 - word)};
    }
    // Without: \s* gives a blank back to \s+, so the blanks after ':' must reach the word.
    if (a == word && a > i + 1) return EventMatch{{}, s.substr(word, end - 1 - word)};
  }
  return std::nullopt;
}

// Perl's split /\->/: trailing empty fields are dropped.
std::vector<std::string_view> split_arrows(std::string_view s) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (true) {
    size_t at = s.find("->", pos);
    if (at == std::string_view::npos) {
      out.push_back(s.substr(pos));
      break;
    }
    out.push_back(s.substr(pos, at - pos));
    pos = at + 2;
  }
  while (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

// /\.\(.*\)\./: a Go method name such as "net/http.(*Client).Do".
bool looks_like_go(std::string_view f) {
  size_t open = f.find(".(");
  if (open == std::string_view::npos) return false;
  size_t close = f.rfind(").");
  return close != std::string_view::npos && close >= open + 2;
}

// /\/tmp\/perf-\d+\.map/
bool is_perf_map(std::string_view mod) {
  for (size_t at = mod.find("/tmp/perf-"); at != std::string_view::npos;
       at = mod.find("/tmp/perf-", at + 1)) {
    size_t d = skip(mod, at + 10, is_digit);
    if (d > at + 10 && mod.substr(d, 4) == ".map") return true;
  }
  return false;
}

}  // namespace

std::optional<FrameLine> match_frame_line(std::string_view s) {
  size_t p0 = skip(s, 0, is_space);
  size_t q = skip(s, p0, is_word);
  if (q == p0) return std::nullopt;
  // `(.*)\)`: up to the line's last ')'.
  size_t last_paren = s.rfind(')');
  if (last_paren == std::string_view::npos) return std::nullopt;
  for (size_t wend = q; wend > p0; --wend) {
    size_t r = wend == q ? skip(s, q, is_space) : wend;
    for (size_t s_end = r + 1; s_end-- > wend;) {
      // (.+) greedy: the last " (" after at least one character, with a ')' after it.
      if (s_end + 1 > s.size()) continue;
      for (size_t k = s.rfind(" (", last_paren); k != std::string_view::npos && k >= s_end + 1;
           k = k ? s.rfind(" (", k - 1) : std::string_view::npos) {
        if (k + 2 > last_paren) continue;
        if (s.substr(s_end, k - s_end).find('\n') != std::string_view::npos) break;
        return FrameLine{s.substr(p0, wend - p0), s.substr(s_end, k - s_end),
                         s.substr(k + 2, last_paren - (k + 2))};
      }
    }
  }
  return std::nullopt;
}

std::vector<std::string> fold_frame(const FrameLine& f, std::string_view pname,
                                    const CollapseOptions& opts) {
  std::vector<std::string> out;
  std::string_view raw = f.rawfunc;
  // s/\+0x[\da-f]+$//: perf's symbol offsets.
  if (size_t at = raw.rfind("+0x"); at != std::string_view::npos && at + 3 < raw.size() &&
                                    std::all_of(raw.begin() + at + 3, raw.end(), [](char c) {
                                      return is_digit(c) || (c >= 'a' && c <= 'f');
                                    })) {
    raw = raw.substr(0, at);
  }
  if (!raw.empty() && raw[0] == '(') return out;  // "skip process names"
  std::vector<std::string_view> parts = split_arrows(raw);
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string func(parts[i]);
    if (func == "[unknown]") {
      std::string name;
      if (f.mod != "[unknown]") {
        // s/.*\///: the dso's base name.
        size_t slash = f.mod.rfind('/');
        name = std::string(slash == std::string_view::npos ? f.mod : f.mod.substr(slash + 1));
      } else {
        name = "unknown";
      }
      func = opts.include_addrs ? fmt::format("[{} <{}>]", name, f.pc) : fmt::format("[{}]", name);
    }
    // $tidy_generic
    std::replace(func.begin(), func.end(), ';', ':');
    if (!looks_like_go(func)) {
      // s/\((?!anonymous namespace\)).*//: C++ arguments are noise.
      for (size_t open = func.find('('); open != std::string::npos;
           open = func.find('(', open + 1)) {
        if (std::string_view(func).substr(open + 1, 20) != "anonymous namespace)") {
          func.erase(open);
          break;
        }
      }
    }
    std::erase_if(func, [](char c) { return c == '"' || c == '\''; });
    // $tidy_java: "Lorg/mozilla/Foo;.call" -> "org/mozilla/Foo:.call".
    if (pname.starts_with("java") && func.find('/') != std::string::npos && !func.empty() &&
        func[0] == 'L') {
      func.erase(0, 1);
    }
    if (i > 0) {
      if (func.find("_[i]") == std::string::npos) func += "_[i]";
    } else if (opts.annotate_kernel &&
               ((!f.mod.empty() && f.mod[0] == '[') || f.mod.ends_with("vmlinux")) &&
               f.mod.find("unknown") == std::string_view::npos) {
      func += "_[k]";
    } else if (opts.annotate_jit && is_perf_map(f.mod)) {
      if (func.find("_[j]") == std::string::npos) func += "_[j]";
    }
    out.push_back(std::move(func));
  }
  return out;
}

void StackCollapser::line(std::string_view text) {
  if (!text.empty() && text[0] == '#') return;  // comments
  if (text.empty()) {
    end_of_stack();
    return;
  }
  if (header(text)) return;
  if (auto f = match_frame_line(text)) {
    if (pname_true()) frame(*f);
    return;
  }
  if (warn_) fmt::print(warn_, "Unrecognized line: {}\n", text);
}

bool StackCollapser::header(std::string_view text) {
  std::optional<Header> h = match_header(text);
  if (!h) return false;
  std::string_view pid = h->pid, tid = h->tid;
  if (!perl_true(tid)) {
    tid = pid;
    pid = "?";
  }
  std::string_view period;
  if (opts_.event_root) event_.clear();
  if (std::optional<EventMatch> ev = match_event(text)) {
    period = ev->period;
    if (opts_.event_root) {
      event_.assign(ev->event);
    } else if (opts_.event_filter.empty()) {
      // The first event seen: merging cycles with instructions would mislead.
      opts_.event_filter = std::string(ev->event);
      event_defaulted_ = true;
    } else if (ev->event != opts_.event_filter) {
      if (event_defaulted_ && !event_warned_ && warn_) {
        fmt::print(warn_, "Filtering for events of type: {}\n", ev->event);
        event_warned_ = true;
      }
      return true;
    }
  }
  period_ = 0;
  for (char c : period) period_ = period_ * 10 + static_cast<uint64_t>(c - '0');
  if (!perl_true(period)) period_ = 1;
  std::string name;
  if (opts_.include_tid) {
    name = fmt::format("{}-{}/{}", h->comm, pid, tid);
  } else if (opts_.include_pid) {
    name = fmt::format("{}-{}", h->comm, pid);
  } else {
    name = std::string(h->comm);
  }
  std::replace(name.begin(), name.end(), ' ', '_');
  pname_ = std::move(name);
  return true;
}

void StackCollapser::frame(const FrameLine& f) {
  std::vector<std::string> names = fold_frame(f, *pname_, opts_);
  for (size_t i = names.size(); i-- > 0;) frames_.push_back(counts_.intern(names[i]));
}

void StackCollapser::end_of_stack() {
  // `next if not $pname` leaves @stack as it is.
  if (!pname_true()) return;
  stack_.clear();
  if (opts_.event_root) stack_.push_back(counts_.intern(event_));
  stack_.push_back(counts_.intern(*pname_));
  stack_.insert(stack_.end(), frames_.rbegin(), frames_.rend());
  counts_.add(stack_, opts_.count_samples ? 1 : period_);
  frames_.clear();
  pname_.reset();
}

}  // namespace readperf
