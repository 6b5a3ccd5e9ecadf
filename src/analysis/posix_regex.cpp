#include "readperf/analysis/posix_regex.h"

#include <cstdio>

namespace readperf {

PosixRegex::PosixRegex(const std::string& pattern) {
  ok_ = !pattern.empty() && ::regcomp(&re_, pattern.c_str(), REG_EXTENDED) == 0;
}

PosixRegex::~PosixRegex() {
  if (ok_) ::regfree(&re_);
}

bool PosixRegex::matches(std::string_view name) const {
  name_.assign(name);
  return ::regexec(&re_, name_.c_str(), 0, nullptr, 0) == 0;
}

std::string PosixRegex::compile_error(const std::string& pattern) {
  regex_t re;
  int err = ::regcomp(&re, pattern.c_str(), REG_EXTENDED);
  if (err == 0) {
    ::regfree(&re);
    return {};
  }
  char buf[BUFSIZ];
  ::regerror(err, &re, buf, sizeof buf);
  return buf;
}

}  // namespace readperf
