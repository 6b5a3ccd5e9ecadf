#include "readperf/symbols/demangle.h"

#include <cxxabi.h>

#include <cstdlib>
#include <cstring>
#include <memory>

namespace readperf {

namespace {

// libstdc++'s __cxa_demangle is libiberty's cp-demangle.c run with parameters on, so its
// output differs from perf's (DMGL_NO_OPTS) only at the top level: the parameter list and
// the qualifiers after it, a template function's return type, and " [clone .suffix]". These
// helpers cut those away.

bool is_space_free_tail(std::string_view tail) {
  // What can follow a function's closing parenthesis: cv- and ref-qualifiers, noexcept.
  for (char c : tail) {
    if (!(c == ' ' || c == '&' || (c >= 'a' && c <= 'z'))) return false;
  }
  return true;
}

std::string_view strip_clones(std::string_view s) {
  while (!s.empty() && s.back() == ']') {
    size_t p = s.rfind(" [clone ");
    if (p == std::string_view::npos) break;
    s = s.substr(0, p);
  }
  return s;
}

// Cuts a trailing "(params) const &" off a function's demangled form.
std::string_view strip_params(std::string_view s) {
  size_t close = s.rfind(')');
  if (close == std::string_view::npos || !is_space_free_tail(s.substr(close + 1))) return s;
  int depth = 0;
  for (size_t i = close + 1; i-- > 0;) {
    if (s[i] == ')') ++depth;
    if (s[i] == '(' && --depth == 0) return i == 0 ? s : s.substr(0, i);
  }
  return s;
}

bool operator_at(std::string_view s, size_t i) {
  if (s.compare(i, 8, "operator") != 0) return false;
  return i == 0 || s[i - 1] == ':' || s[i - 1] == ' ';
}

// A template function's demangled form starts with its return type, separated from the name
// by the last space outside brackets. Nothing after an "operator" keyword can be a return
// type, and its symbol ("operator<", "operator()") must not count as a bracket.
std::string_view strip_return_type(std::string_view s) {
  int depth = 0;
  size_t last_space = std::string_view::npos;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (operator_at(s, i)) {
      if (depth == 0) break;
      i += 8;
      while (i < s.size() && std::strchr("<>=!+-*/%^&|~,()[]", s[i])) ++i;
      --i;
      continue;
    }
    if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
    if (c == '>' || c == ')' || c == ']' || c == '}') --depth;
    if (c == ' ' && depth == 0) last_space = i;
  }
  return last_space == std::string_view::npos ? s : s.substr(last_space + 1);
}

bool is_hex(std::string_view s) {
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> demangle_symbol(std::string_view mangled, bool with_params) {
  if (mangled.size() < 3 || mangled.substr(0, 2) != "_Z") return std::nullopt;
  std::string name(mangled);
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> out(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), &std::free);
  if (status != 0 || !out) return std::nullopt;
  std::string_view s = out.get();
  // Special names (vtables, typeinfo, thunks, guard variables) print their target in full.
  if (mangled[2] == 'T' || mangled[2] == 'G') return std::string(s);
  // A legacy Rust path ends in a "17h<16 hex digits>E" hash that libiberty's rust_demangle
  // drops.
  if (mangled.size() > 20 && mangled.back() == 'E' &&
      mangled.substr(mangled.size() - 20, 3) == "17h" &&
      is_hex(mangled.substr(mangled.size() - 17, 16))) {
    size_t p = s.rfind("::h");
    if (p != std::string_view::npos) return std::string(s.substr(0, p));
  }
  if (with_params) return std::string(s);
  s = strip_clones(s);
  s = strip_params(s);
  s = strip_return_type(s);
  return std::string(s);
}

bool perf_version_demangles_with_params(std::string_view perf_version) {
  // "MAJOR.MINOR[.PATCH][-suffix]"; anything else is an older or unknown perf.
  unsigned major = 0, minor = 0;
  size_t i = 0;
  auto number = [&](unsigned& out) {
    size_t start = i;
    while (i < perf_version.size() && perf_version[i] >= '0' && perf_version[i] <= '9') {
      out = out * 10 + static_cast<unsigned>(perf_version[i] - '0');
      if (out > 100000) return false;
      ++i;
    }
    return i > start;
  };
  if (!number(major)) return false;
  if (i >= perf_version.size() || perf_version[i] != '.') return false;
  ++i;
  if (!number(minor)) return false;
  return major > 6 || (major == 6 && minor >= 4);
}

}  // namespace readperf
