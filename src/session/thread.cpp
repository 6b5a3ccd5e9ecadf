#include "readperf/session/thread.h"

namespace readperf {

const Comm& Thread::comm_at(uint64_t time) const {
  // Comms are kept oldest first; the one in effect is the last that started by `time`.
  for (size_t i = comms.size(); i-- > 0;) {
    if (comms[i].start <= time) return comms[i];
  }
  return comms.front();
}

void Thread::set_comm(std::string_view str, uint64_t time, bool exec) {
  // thread.c ____thread__set_comm(): the default ":<tid>" comm is overridden in place
  // (comm__override keeps an earlier exec flag); later ones stack up.
  if (!comm_set) {
    Comm& c = comms.back();
    c.str = std::string(str);
    c.start = time;
    c.exec = c.exec || exec;
  } else {
    comms.push_back(Comm{std::string(str), time, exec});
  }
  comm_set = true;
}

}  // namespace readperf
