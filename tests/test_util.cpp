#include "test_util.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "readperf/format/perf_abi.h"
#include "readperf/reader/sample_decoder.h"

namespace readperf::testing {

namespace {

std::string Hex(Bytes b) {
  std::string s;
  for (std::byte x : b) s += fmt::format("{:02x}", static_cast<unsigned>(x));
  return s;
}

std::string Words(const U64Array& a) {
  std::string s = "[";
  for (size_t i = 0; i < a.size(); ++i) s += fmt::format("{}{:#x}", i ? "," : "", a[i]);
  return s + "]";
}

}  // namespace

std::string Describe(const Sample& s, uint64_t read_format) {
  uint64_t t = s.sample_type;
  std::string o = fmt::format("type={} misc={:#x}", s.type, s.misc);
  auto add = [&](std::string_view name, auto v) { o += fmt::format(" {}={:#x}", name, v); };
  if (t & kSampleIdentifier) add("identifier", s.id);
  if (t & kSampleIp) add("ip", s.ip);
  if (t & kSampleTid) o += fmt::format(" pid={} tid={}", s.pid, s.tid);
  if (t & kSampleTime) add("time", s.time);
  if (t & kSampleAddr) add("addr", s.addr);
  if (t & kSampleId) add("id", s.id);
  if (t & kSampleStreamId) add("stream_id", s.stream_id);
  if (t & kSampleCpu) add("cpu", s.cpu);
  add("period", s.period);
  if (t & kSampleRead) {
    const SampleRead& r = s.read;
    o += fmt::format(" read{{enabled={} running={}", r.time_enabled, r.time_running);
    if (read_format & kFormatGroup) {
      o += fmt::format(" nr={}", r.group_nr);
      // group_nr is as recorded; only the entries the record holds are shown.
      size_t n = std::min<size_t>(r.group_nr, r.values.size() / read_value_words(read_format));
      for (size_t i = 0; i < n; ++i) {
        ReadValue v = r.group_value(i, read_format);
        o += fmt::format(" ({},{},{})", v.value, v.id, v.lost);
      }
    } else {
      o += fmt::format(" ({},{},{})", r.one.value, r.one.id, r.one.lost);
    }
    o += "}";
  }
  if (s.has_callchain) o += " callchain=" + Words(s.callchain);
  if (t & kSampleRaw) o += fmt::format(" raw[{}]={}", s.raw_size, Hex(s.raw));
  if (s.has_branch_stack) {
    const BranchStack& b = s.branch_stack;
    o += fmt::format(" branches{{nr={}", b.nr);
    if (b.has_hw_idx) o += fmt::format(" hw_idx={}", b.hw_idx);
    for (size_t i = 0; i < b.nr; ++i) {
      BranchEntry e = b.entry(i);
      o += fmt::format(" {:#x}->{:#x}/{:#x}", e.from, e.to, e.flags);
    }
    o += "}";
  }
  if (t & kSampleRegsUser) {
    o += fmt::format(" user_regs{{abi={} mask={:#x} {}}}", s.user_regs.abi, s.user_regs.mask,
                     Words(s.user_regs.regs));
  }
  if (t & kSampleStackUser) {
    o += fmt::format(" user_stack{{size={} dyn={} at={} {}}}", s.user_stack.size(),
                     s.user_stack_size, s.user_stack_offset, Hex(s.user_stack));
  }
  if (t & kSampleWeightType) {
    o += fmt::format(" weight={:#x} ins_lat={} p_stage_cyc={}", s.weight, s.ins_lat, s.p_stage_cyc);
  }
  if (t & kSampleDataSrc) add("data_src", s.data_src);
  if (t & kSampleTransaction) add("transaction", s.transaction);
  if (t & kSampleRegsIntr) {
    o += fmt::format(" intr_regs{{abi={} mask={:#x} {}}}", s.intr_regs.abi, s.intr_regs.mask,
                     Words(s.intr_regs.regs));
  }
  if (t & kSamplePhysAddr) add("phys_addr", s.phys_addr);
  if (t & kSampleCgroup) add("cgroup", s.cgroup);
  if (t & kSampleDataPageSize) add("data_page_size", s.data_page_size);
  if (t & kSampleCodePageSize) add("code_page_size", s.code_page_size);
  if (t & kSampleAux) o += fmt::format(" aux={}", Hex(s.aux));
  return o;
}

void CollectingSink::on_read(const RecordView& r) {
  read_types.push_back(r.type);
  all.push_back(fmt::format("R {}", r.type));
}

void CollectingSink::on_user_record(const RecordView& r) {
  all.push_back(fmt::format("U {}", r.type));
}

void CollectingSink::on_kernel_record(const RecordView& r, const Sample& s, const Evsel* evsel) {
  // The record's body too: the non-sample fields must also read the same in both orders.
  std::string line =
      fmt::format("K {} evsel={} size={} {}", r.type, evsel ? static_cast<int>(evsel->index) : -1,
                  r.size, Describe(s, evsel ? evsel->attr.read_format : 0));
  kernel.push_back(line);
  kernel_times.push_back(s.time);
  all.push_back(std::move(line));
}

void CollectingSink::on_skipped(const RecordView& r, const Error& why) {
  std::string line = fmt::format("S {} {}", r.type, why.message());
  skipped.push_back(line);
  all.push_back(std::move(line));
}

ReadResult ReadPath(const std::string& path) {
  ReadResult res;
  auto pd = PerfData::open(path);
  if (!pd) {
    res.error = pd.error().message();
    return res;
  }
  res.opened = true;
  Status st = (*pd)->process(res.sink);
  res.ok = st.has_value();
  if (!st) res.error = st.error().message();
  return res;
}

TempDir::TempDir() {
  const char* base = getenv("TMPDIR");
  std::string tmpl = std::string(base && *base ? base : "/tmp") + "/readperf_test_XXXXXX";
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string TempDir::Write(const std::string& name, const std::vector<std::byte>& bytes) const {
  std::string p = file(name);
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!f) throw std::runtime_error("cannot write " + p);
  return p;
}

std::vector<std::byte> SyncBuilderGolden(const std::string& path,
                                         const std::vector<std::byte>& bytes,
                                         const char* write_env) {
  if (std::getenv(write_env)) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
  }
  std::ifstream in(path, std::ios::binary);
  std::vector<char> got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(got.size());
  std::memcpy(out.data(), got.data(), got.size());
  return out;
}

}  // namespace readperf::testing
