#include "readperf/analysis/machine_epochs.h"

#include "readperf/format/byte_cursor.h"
#include "readperf/format/perf_abi.h"
#include "readperf/session/events.h"

namespace readperf {

void MachineEpochs::note(const RecordView& r, ByteOrder order) {
  switch (r.type) {
    case kRecordMmap:
    case kRecordMmap2: {
      uint8_t cpumode = r.misc & kMiscCpumodeMask;
      if (cpumode == kMiscKernel || cpumode == kMiscGuestKernel) {
        change_all();
        return;
      }
      MmapEvent e;
      if (parse_mmap(r, order, e)) change(e.pid);
      return;
    }
    case kRecordComm: {
      CommEvent e;
      if (parse_comm(r, order, e)) change(e.pid);
      return;
    }
    case kRecordFork:
    case kRecordExit: {
      TaskEvent e;
      if (!parse_task(r, order, e)) return;
      change(e.pid);
      change(e.ppid);
      return;
    }
    case kRecordKsymbol:
      change_all();
      return;
    case kRecordNamespaces: {
      ByteCursor c = r.body(order);
      change(c.s32());
      return;
    }
    default:
      return;
  }
}

}  // namespace readperf
