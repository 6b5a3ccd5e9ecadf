// perf's text for a sample's data_src (PERF_SAMPLE_DATA_SRC, union perf_mem_data_src in
// include/uapi/linux/perf_event.h): util/mem-events.c's perf_mem__*_scnprintf(), which
// `perf script`'s data_src field and `perf report --mem-mode`'s keys print.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace readperf {

// Each takes the buffer size perf's caller passes (`sz`) and returns what perf writes into
// such a buffer: scnprintf()'s truncation included, so that long decodings are cut where
// perf cuts them.
std::string mem_op_text(uint64_t data_src, size_t sz);   // perf_mem__op_scnprintf
std::string mem_lvl_text(uint64_t data_src, size_t sz);  // perf_mem__lvl_scnprintf
std::string mem_snp_text(uint64_t data_src, size_t sz);  // perf_mem__snp_scnprintf
std::string mem_tlb_text(uint64_t data_src, size_t sz);  // perf_mem__tlb_scnprintf
std::string mem_lck_text(uint64_t data_src, size_t sz);  // perf_mem__lck_scnprintf
std::string mem_blk_text(uint64_t data_src, size_t sz);  // perf_mem__blk_scnprintf

// perf_script__meminfo_scnprintf() into builtin-script.c data_src__fprintf()'s 100-byte
// buffer: "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A".
std::string script_meminfo_text(uint64_t data_src);

// data_src__fprintf()'s text before its padding: "%16" PRIx64 " %s" of the value and
// script_meminfo_text(), cut to its 100-byte buffer.
std::string script_data_src_text(uint64_t data_src);

// session.c get_page_size_name(): units.c unit_number__scnprintf()'s "4K", "2M", else
// "N/A" for 0.
std::string page_size_name(uint64_t size);

}  // namespace readperf
