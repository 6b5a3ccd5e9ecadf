// One header feature section, as found in a file or a pipe's HEADER_FEATURE record.
#include "fuzz_targets.h"
#include "readperf/format/perf_abi.h"
#include "readperf/reader/features.h"

namespace readperf::fuzz {

// The input: the feature id, a flags byte (bit 0: other byte order, bit 1: a --threads
// directory, bits 2-7: the number of events), then the section.
int fuzz_features(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  uint32_t feature = data[0];
  uint8_t flags = data[1];
  Bytes section(reinterpret_cast<const std::byte*>(data + 2), size - 2);
  ByteOrder order = (flags & 1) ? ByteOrder::kSwapped : ByteOrder::kNative;
  FeatureContext ctx{.swapped = order == ByteOrder::kSwapped,
                     .is_directory = (flags & 2) != 0,
                     .nr_events = static_cast<size_t>(flags >> 2)};
  // CPU_TOPOLOGY reads what NRCPUS and ARCH said before it: parse it after them, from the
  // same bytes, as a file holding all three would have them.
  Features f;
  if (feature == kFeatCpuTopology) {
    (void)parse_feature(kFeatNrCpus, ByteCursor(section, order, 0x100), ctx, f);
  }
  (void)parse_feature(feature, ByteCursor(section, order, 0x100), ctx, f);
  if (feature == kFeatEventDesc) (void)parse_event_desc(ByteCursor(section, order, 0x100));
  if (feature == kFeatNumaTopology || feature == kFeatHybridTopology) {
    (void)parse_cpu_list(std::string_view(reinterpret_cast<const char*>(data + 2), size - 2));
  }
  return 0;
}

}  // namespace readperf::fuzz
