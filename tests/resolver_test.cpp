// The resolver against perf 6.1's machine__resolve() / thread__resolve_callchain(): the
// names below are what `perf script` printed for the perf-6.1 corpus recordings whose
// binaries are in data/symbols/ (the workload, and an excerpt of the kernel's kallsyms).
#include "readperf/analysis/resolver.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>

#include "readperf/format/perf_abi.h"
#include "readperf/session/machine.h"
#include "readperf/symbols/symbol_cache.h"
#include "test_util.h"

namespace readperf {
namespace {

namespace fs = std::filesystem;

const char kWorkloadId[] = "3fdc407bf18951751b1505794bb68d13e97eadc6";
const char kKernelId[] = "48dc540c8b76393804ca8088dbfa7d42911a9444";
constexpr uint64_t kMapStart = 0x55f3168b3000;  // the workload's text map: pgoff 0x1000
constexpr uint64_t kText = 0xffffffff81000000;  // _text at record time
constexpr int32_t kPid = 12199;

std::vector<std::byte> u64_bytes(const std::vector<uint64_t>& v) {
  std::vector<std::byte> out(v.size() * 8);
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

fs::path data_dir() { return fs::path(__FILE__).parent_path() / "data" / "symbols"; }

std::string describe(const Frame& f) {
  std::string s = std::string(f.symbol_name());
  if (f.sym) s += fmt::format("+{:#x}", f.symoff());
  return s + " (" + std::string(f.dso_name()) + ")";
}

TEST(MachineKernelName, AVmlinuxPathInTheBuildIdTableIsKernelVmlinux) {
  for (const char* path : {"/usr/lib/debug/boot/vmlinux-6.1.0-18-amd64", "[kernel.kallsyms]"}) {
    Machine machine;
    BuildIdEvent kb;
    kb.misc = kMiscKernel;
    kb.pid = -1;
    std::vector<uint8_t> id(20, 0xab);
    kb.build_id = Bytes(reinterpret_cast<const std::byte*>(id.data()), id.size());
    kb.filename = path;
    machine.process_build_id(kb);
    MmapEvent k;
    k.pid = -1;
    k.start = 0xffffffff81000000;
    k.len = 0x1000000;
    k.pgoff = k.start;
    k.filename = "[kernel.kallsyms]_text";
    machine.process_mmap(k, kMiscKernel);
    const Map* vm = machine.vmlinux_map();
    ASSERT_NE(vm, nullptr);
    EXPECT_EQ(vm->dso->long_name, path);
    EXPECT_EQ(vm->dso->short_name,
              std::string_view(path).starts_with("/") ? "[kernel.vmlinux]" : "[kernel.kallsyms]");
  }
}

// A Machine as the records of a -g recording of the workload leave it, and a build-id cache
// holding the workload and the kernel's kallsyms.
class ResolverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::path root(dir_.path());
    fs::path elf = root / "opt/corpus/workload" / kWorkloadId;
    fs::create_directories(elf);
    fs::copy_file(data_dir() / "workload", elf / "elf");
    fs::create_directories(root / ".build-id/3f");
    fs::create_directory_symlink(std::string("../../opt/corpus/workload/") + kWorkloadId,
                                 root / ".build-id/3f" / (kWorkloadId + 2));
    fs::path kdir = root / "[kernel.kallsyms]" / kKernelId;
    fs::create_directories(kdir);
    fs::copy_file(data_dir() / "kallsyms", kdir / "kallsyms");
    config_.buildid_dir = dir_.path();
    config_.symfs = "";
    // Nothing of the machine running the test may count.
    config_.proc_kallsyms = (root / "no-proc-kallsyms").string();
    config_.sys_kernel_notes = (root / "no-notes").string();

    machine_.idle_thread();
    BuildIdEvent kb;
    kb.misc = kMiscKernel;
    kb.pid = -1;
    kernel_id_ = BuildId::from_hex(kKernelId).bytes();
    kb.build_id = Bytes(reinterpret_cast<const std::byte*>(kernel_id_.data()), kernel_id_.size());
    kb.filename = "[kernel.kallsyms]";
    machine_.process_build_id(kb);
    BuildIdEvent wb = kb;
    wb.misc = kMiscUser;
    workload_id_ = BuildId::from_hex(kWorkloadId).bytes();
    wb.build_id =
        Bytes(reinterpret_cast<const std::byte*>(workload_id_.data()), workload_id_.size());
    wb.filename = "/opt/corpus/workload";
    machine_.process_build_id(wb);

    MmapEvent k;
    k.pid = -1;
    k.start = kText;
    k.len = 0x1209988;
    k.pgoff = kText;
    k.filename = "[kernel.kallsyms]_text";
    machine_.process_mmap(k, kMiscKernel);
    MmapEvent u;
    u.is_mmap2 = true;
    u.pid = u.tid = kPid;
    u.start = kMapStart;
    u.len = 0x1000;
    u.pgoff = 0x1000;
    u.prot = kProtRead | kProtExec;
    u.filename = "/opt/corpus/workload";
    machine_.process_mmap(u, kMiscUser);
    CommEvent c;
    c.pid = c.tid = kPid;
    c.comm = "workload";
    machine_.process_comm(c, 1);
  }

  Sample sample(uint8_t cpumode, uint64_t ip) {
    Sample s;
    s.misc = cpumode;
    s.pid = s.tid = kPid;
    s.ip = ip;
    return s;
  }
  // A user address from its map-relative one (what perf script prints in call chains).
  static uint64_t user(uint64_t rel) { return kMapStart + rel - 0x1000; }

  testing::TempDir dir_;
  SymbolConfig config_;
  Machine machine_;
  std::vector<uint8_t> kernel_id_, workload_id_;
};

TEST_F(ResolverTest, UserSampleResolvesToTheWorkload) {
  SymbolCache cache(config_);
  Resolver r(machine_, cache);
  const ResolvedSample& rs = r.resolve(sample(kMiscUser, user(0x1460)));
  EXPECT_EQ(rs.comm, "workload");
  EXPECT_EQ(rs.self.level, '.');
  EXPECT_EQ(rs.self.addr, 0x1460u);
  EXPECT_EQ(describe(rs.self), "recurse+0x10 (/opt/corpus/workload)");
  EXPECT_TRUE(rs.self.user_dso());
  EXPECT_EQ(rs.self.chain_ip(), 0x1460u);
}

TEST_F(ResolverTest, KernelSampleUsesTheCachedKallsymsOfTheRecordedBuildId) {
  SymbolCache cache(config_);
  Resolver r(machine_, cache);
  const ResolvedSample& rs = r.resolve(sample(kMiscKernel, 0xffffffff821cc600));
  EXPECT_EQ(rs.self.level, 'k');
  EXPECT_EQ(describe(rs.self), "mas_find+0x1c0 ([kernel.kallsyms])");
  EXPECT_FALSE(rs.self.user_dso());
  EXPECT_EQ(rs.self.chain_ip(), 0xffffffff821cc600u);
  ASSERT_NE(r.kernel_symbols(), nullptr);
  EXPECT_TRUE(r.kernel_symbols()->found());
}

TEST_F(ResolverTest, UnmappedAddressIsUnknown) {
  SymbolCache cache(config_);
  Resolver r(machine_, cache);
  const ResolvedSample& rs = r.resolve(sample(kMiscUser, 0x1234));
  EXPECT_EQ(rs.self.map, nullptr);
  EXPECT_EQ(describe(rs.self), "[unknown] ([unknown])");
  // A cpumode perf does not resolve (hypervisor): level 'H', no map.
  const ResolvedSample& hv = r.resolve(sample(kMiscHypervisor, user(0x1460)));
  EXPECT_EQ(hv.self.level, 'H');
  EXPECT_EQ(hv.self.map, nullptr);
}

TEST_F(ResolverTest, CallchainMarkersSwitchCpumodeAndAreDropped) {
  SymbolCache cache(config_);
  Resolver r(machine_, cache);
  std::vector<uint64_t> ips = {kContextKernel, 0xffffffff821ed511, 0xffffffff81000130,
                               kContextUser,   user(0x1460),       user(0x115f)};
  std::vector<std::byte> bytes = u64_bytes(ips);
  Sample s = sample(kMiscKernel, 0xffffffff821ed511);
  s.has_callchain = true;
  s.callchain = U64Array(Bytes(bytes.data(), bytes.size()), ByteOrder::kNative);
  const ResolvedSample& rs = r.resolve(s);
  ASSERT_EQ(rs.callchain.size(), 4u);
  EXPECT_EQ(describe(rs.callchain[0]), "do_syscall_64+0x71 ([kernel.kallsyms])");
  EXPECT_EQ(describe(rs.callchain[1]), "entry_SYSCALL_64_after_hwframe+0x76 ([kernel.kallsyms])");
  EXPECT_EQ(describe(rs.callchain[2]), "recurse+0x10 (/opt/corpus/workload)");
  EXPECT_EQ(describe(rs.callchain[3]), "main+0x4f (/opt/corpus/workload)");
  EXPECT_EQ(rs.callchain[2].cpumode, kMiscUser);

  // max_stack counts real entries only.
  Resolver limited(machine_, cache, ResolverOptions{.max_stack = 3});
  EXPECT_EQ(limited.resolve(s).callchain.size(), 3u);

  // An unknown marker means a corrupt chain: perf drops all of it.
  ips.insert(ips.begin() + 3, static_cast<uint64_t>(-4000));
  bytes = u64_bytes(ips);
  s.callchain = U64Array(Bytes(bytes.data(), bytes.size()), ByteOrder::kNative);
  EXPECT_TRUE(r.resolve(s).callchain.empty());
}

TEST_F(ResolverTest, AddressFallsBackToTheKernelSide) {
  SymbolCache cache(config_);
  Resolver r(machine_, cache);
  Thread* t = machine_.findnew_thread(kPid, kPid);
  // A user-mode page fault's data address in the kernel is looked up in the kernel's maps.
  Frame f = r.resolve_addr_fb(*t, kMiscUser, 0xffffffff821cc600);
  EXPECT_EQ(describe(f), "mas_find+0x1c0 ([kernel.kallsyms])");
}

}  // namespace
}  // namespace readperf
