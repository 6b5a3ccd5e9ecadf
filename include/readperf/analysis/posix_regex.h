// The POSIX extended regular expressions perf matches symbol names with (regcomp(3) with
// REG_EXTENDED, symbol.c symbol__match_regex()): report's --ignore-callees and -p/--parent.
//
//   if (std::string why = PosixRegex::compile_error(pattern); !why.empty()) ...  // regerror text
//   PosixRegex re(pattern);
//   if (re && re.matches(sym->name)) ...
#pragma once

#include <regex.h>

#include <string>
#include <string_view>

namespace readperf {

class PosixRegex {
 public:
  // An empty pattern compiles to nothing: the regex is then off (false).
  explicit PosixRegex(const std::string& pattern);
  ~PosixRegex();
  PosixRegex(const PosixRegex&) = delete;
  PosixRegex& operator=(const PosixRegex&) = delete;

  explicit operator bool() const { return ok_; }
  // symbol.c symbol__match_regex(). Not thread-safe (it keeps a scratch copy of the name).
  bool matches(std::string_view name) const;

  // regerror(3)'s text for a pattern regcomp() refuses, empty when it compiles.
  static std::string compile_error(const std::string& pattern);

 private:
  regex_t re_{};
  mutable std::string name_;  // symbol names are views; regexec wants a C string
  bool ok_ = false;
};

}  // namespace readperf
