#include "progress_line.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

#include "pager.h"

namespace readperf::cli {

namespace {

bool quiet = false;

// Redrawn at most this often: the cost stays out of the benchmarks, the line stays readable.
constexpr auto kRedrawEvery = std::chrono::milliseconds(100);

std::string per_second(double n) {
  if (n >= 1e6) return fmt::format("{:.1f}M", n / 1e6);
  if (n >= 1e3) return fmt::format("{:.0f}k", n / 1e3);
  return fmt::format("{:.0f}", n);
}

}  // namespace

void set_progress_quiet(bool q) { quiet = q; }

ProgressLine::ProgressLine(std::string name)
    : name_(std::move(name)), start_(Clock::now()), last_draw_(start_ - kRedrawEvery) {}

ProgressLine::~ProgressLine() { erase(); }

void ProgressLine::on_progress(uint64_t bytes_done, uint64_t bytes_total, uint64_t records) {
  Clock::time_point now = Clock::now();  // clock_gettime through the vDSO: no system call
  if (bytes_total <= kMinBytes || bytes_done >= bytes_total || now - last_draw_ < kRedrawEvery)
    return;
  last_draw_ = now;
  double seconds = std::chrono::duration<double>(now - start_).count();
  std::string rate = "", left = "";
  if (seconds > 0.05 && bytes_done > 0) {
    rate = fmt::format(", {} records/s", per_second(static_cast<double>(records) / seconds));
    auto remaining = static_cast<uint64_t>(seconds * static_cast<double>(bytes_total - bytes_done) /
                                           static_cast<double>(bytes_done));
    left = fmt::format(", {}:{:02} left", remaining / 60, remaining % 60);
  }
  // \r and "erase to the end of the line" (ESC [ K) redraw it in place.
  fmt::print(stderr, "\rreadperf: {}: {} of {} MiB ({}%){}{}\x1b[K", name_, bytes_done >> 20,
             bytes_total >> 20, bytes_done * 100 / bytes_total, rate, left);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressLine::finished() { erase(); }

void ProgressLine::erase() {
  if (!drawn_) return;
  fmt::print(stderr, "\r\x1b[K");
  std::fflush(stderr);
  drawn_ = false;
}

std::unique_ptr<ProgressLine> attach_progress_line(PerfData& pd, bool streams_output) {
  if (quiet || pd.path() == "-" || !::isatty(STDERR_FILENO)) return nullptr;
  if (streams_output && (::isatty(STDOUT_FILENO) || pager_in_use())) return nullptr;
  auto line = std::make_unique<ProgressLine>(pd.path());
  pd.set_progress(line.get());
  return line;
}

}  // namespace readperf::cli
