// The kernel's symbols from a vmlinux (symbols/vmlinux.h), on golden/vmlinux/'s files: a
// debug-package-style vmlinux of threads-dir's kernel, linked 16 MiB below where that kernel
// ran (make.py), and the same with another build-id and without a .symtab. What perf prints
// with them is held by the options matrix's vmlinux-* rows; these check the pieces.
#include "readperf/symbols/vmlinux.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "readperf/symbols/build_id.h"
#include "readperf/symbols/kallsyms.h"
#include "readperf/symbols/kernel_module.h"
#include "test_util.h"

namespace readperf {
namespace {

namespace fs = std::filesystem;

const char kKernelId[] = "48dc540c8b76393804ca8088dbfa7d42911a9444";
const RefRelocSym kRecordedText{"_text", 0xffffffff81000000};

std::string golden(const std::string& name) {
  return std::string(READPERF_GOLDEN_DIR) + "/vmlinux/" + name;
}

SymbolConfig no_local_kernel() {
  SymbolConfig cfg;
  cfg.buildid_dir = "/nonexistent";
  cfg.sys_kernel_notes = "/nonexistent";
  cfg.proc_kallsyms = "/nonexistent";
  return cfg;
}

TEST(VmlinuxTest, RelocatesByTheRecordedTextAndMapsItsSections) {
  Result<KernelSymbols> k =
      load_vmlinux(golden("vmlinux"), BuildId::from_hex(kKernelId), kRecordedText, {});
  ASSERT_TRUE(k) << k.error().message();
  EXPECT_TRUE(k->from_vmlinux);
  EXPECT_TRUE(k->adjust_symbols);
  EXPECT_EQ(k->reloc, 0x1000000u);  // linked at 0xffffffff80000000
  ASSERT_TRUE(k->text_map);
  EXPECT_EQ(k->text_map->start, 0xffffffff81000000u);
  EXPECT_EQ(k->text_map->pgoff, 0x200000u);
  // Symbols are at file offsets: ip - map start + pgoff.
  auto offset = [&](uint64_t ip) { return ip - k->text_map->start + k->text_map->pgoff; };
  const Symbol* s = k->kernel.find(offset(0xffffffff821e8f67));
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->name, "clear_page_erms");
  EXPECT_EQ(offset(0xffffffff821e8f67) - s->start, 7u);
  // make.py halves every fifth function: the second half of such a one has no symbol, where
  // kallsyms would stretch it to the next.
  EXPECT_EQ(k->kernel.find(offset(0xffffffff81407e50)), nullptr);
  // Symbols from __schedule on are in a section of their own, with a map of their own.
  ASSERT_EQ(k->sections.size(), 1u);
  const KernelSectionMap& sched = k->sections[0];
  EXPECT_EQ(sched.name, ".sched.text");
  EXPECT_EQ(sched.start, 0xffffffff821f8540u);
  EXPECT_FALSE(sched.identity);
  const Symbol* first = sched.symbols.find(sched.pgoff);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->name, "__schedule");
  EXPECT_EQ(k->kernel.find(offset(0xffffffff821f8540)), nullptr);
}

TEST(VmlinuxTest, RefusesAnotherKernelsOrAStrippedOne) {
  BuildId id = BuildId::from_hex(kKernelId);
  Result<KernelSymbols> other = load_vmlinux(golden("vmlinux-other"), id, kRecordedText, {});
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().what().find("is not the recorded"), std::string::npos);
  // Without a recorded build-id, any vmlinux is taken (perf checks only what it knows).
  EXPECT_TRUE(load_vmlinux(golden("vmlinux-other"), BuildId(), kRecordedText, {}));
  Result<KernelSymbols> stripped = load_vmlinux(golden("vmlinux-stripped"), id, kRecordedText, {});
  ASSERT_FALSE(stripped);
  EXPECT_NE(stripped.error().what().find("stripped"), std::string::npos);
  EXPECT_FALSE(load_vmlinux(golden("perf.data/data"), id, kRecordedText, {}));  // not ELF
  EXPECT_FALSE(load_vmlinux(golden("missing"), id, kRecordedText, {}));
}

TEST(VmlinuxTest, RelativeNamesAreUnderTheSymfs) {
  SymbolConfig cfg;
  cfg.symfs = golden("");
  Result<KernelSymbols> k =
      load_vmlinux("vmlinux", BuildId::from_hex(kKernelId), kRecordedText, cfg);
  ASSERT_TRUE(k) << k.error().message();
  EXPECT_EQ(k->path, "vmlinux");  // the name perf keeps (and addr2line reads)
  EXPECT_EQ(k->file, golden("vmlinux"));
}

TEST(VmlinuxTest, KernelSymbolsTakeTheNamedFileOnlyAndKallsymsFirst) {
  BuildId id = BuildId::from_hex(kKernelId);
  SymbolConfig cfg = no_local_kernel();
  cfg.vmlinux = golden("vmlinux");
  KernelSymbols k = load_kernel_symbols(id, kRecordedText, cfg);
  EXPECT_TRUE(k.from_vmlinux);
  EXPECT_EQ(k.path, golden("vmlinux"));

  // -k of a file that cannot be used: no kernel symbols, no falling back.
  cfg.vmlinux = golden("vmlinux-other");
  cfg.buildid_dir = std::string(READPERF_GOLDEN_DIR) + "/buildid";
  EXPECT_FALSE(load_kernel_symbols(id, kRecordedText, cfg).found());
  // --ignore-vmlinux: the build-id cache's kallsyms.
  cfg.ignore_vmlinux = true;
  KernelSymbols ignored = load_kernel_symbols(id, kRecordedText, cfg);
  EXPECT_TRUE(ignored.found());
  EXPECT_FALSE(ignored.from_vmlinux);
  // --kallsyms wins over -k.
  cfg.ignore_vmlinux = false;
  cfg.vmlinux = golden("vmlinux");
  cfg.kallsyms =
      std::string(READPERF_GOLDEN_DIR) + "/buildid/[kernel.kallsyms]/" + kKernelId + "/kallsyms";
  KernelSymbols kallsyms = load_kernel_symbols(id, kRecordedText, cfg);
  EXPECT_TRUE(kallsyms.found());
  EXPECT_FALSE(kallsyms.from_vmlinux);
}

TEST(VmlinuxTest, TheBuildIdCachesElfComesBeforeItsKallsyms) {
  testing::TempDir dir;
  fs::path entry = fs::path(dir.path()) / "[kernel.kallsyms]" / kKernelId;
  fs::create_directories(entry);
  fs::copy_file(
      std::string(READPERF_GOLDEN_DIR) + "/buildid/[kernel.kallsyms]/" + kKernelId + "/kallsyms",
      entry / "kallsyms");
  fs::path link = fs::path(dir.path()) / ".build-id" / std::string(kKernelId, 2);
  fs::create_directories(link);
  fs::create_directory_symlink(fs::path("../../[kernel.kallsyms]") / kKernelId,
                               link / (kKernelId + 2));
  SymbolConfig cfg = no_local_kernel();
  cfg.buildid_dir = dir.path();
  BuildId id = BuildId::from_hex(kKernelId);
  EXPECT_FALSE(load_kernel_symbols(id, kRecordedText, cfg).from_vmlinux);
  fs::copy_file(golden("vmlinux"), entry / "elf");
  KernelSymbols k = load_kernel_symbols(id, kRecordedText, cfg);
  EXPECT_TRUE(k.from_vmlinux);
  EXPECT_EQ(k.file, (link / (kKernelId + 2) / "elf").string());
}

TEST(VmlinuxTest, SearchPathIsPerfs) {
  SymbolConfig cfg;
  EXPECT_EQ(vmlinux_search_path(cfg), (std::vector<std::string>{"vmlinux", "/boot/vmlinux"}));
  cfg.recorded_os_release = "6.1.0-13-amd64";
  std::vector<std::string> full = vmlinux_search_path(cfg);
  ASSERT_EQ(full.size(), 7u);
  EXPECT_EQ(full[3], "/usr/lib/debug/boot/vmlinux-6.1.0-13-amd64");
  EXPECT_EQ(full[6], "/usr/lib/debug/boot/vmlinux-6.1.0-13-amd64.debug");
  cfg.symfs = "/sysroot";  // "only try kernel version if no symfs was given"
  EXPECT_EQ(vmlinux_search_path(cfg).size(), 2u);
}

// A module's .ko (golden/kmodule/root, fakemod.c built as perf finds a module under
// /lib/modules): symbols at file offsets, .text's offset for the map, the cold function's
// section a map of its own.
TEST(KernelModuleTest, ReadsTheKoUnderTheSymfs) {
  const std::string path = "/lib/modules/6.18.44-fc-v657/kernel/fake/fakemod.ko";
  SymbolConfig cfg = no_local_kernel();
  EXPECT_FALSE(load_kernel_module(path, BuildId(), cfg));  // not on this machine
  cfg.symfs = std::string(READPERF_GOLDEN_DIR) + "/kmodule/root";
  Result<ModuleSymbols> m = load_kernel_module(path, BuildId(), cfg);
  ASSERT_TRUE(m) << m.error().message();
  EXPECT_EQ(m->origin, 'K');
  EXPECT_EQ(m->path, cfg.symfs + "/" + path);  // path__join3(): "root" "/" "/lib/..."
  EXPECT_EQ(m->text_pgoff, 0x40u);             // .text's sh_offset
  const Symbol* beta = m->symbols.find(m->text_pgoff + 0x40 + 3);
  ASSERT_NE(beta, nullptr);
  EXPECT_EQ(beta->name, "fm_beta");
  ASSERT_EQ(m->sections.size(), 2u);  // .text.unlikely (fm_cold), .bss (the objects)
  EXPECT_EQ(m->sections[0].start, 0u);
  // Another build-id recorded: refused.
  EXPECT_FALSE(load_kernel_module(path, BuildId::from_hex(kKernelId), cfg));
}

// maps__split_kallsyms() looks a module's map up at each run of its symbols in address order.
TEST(KernelModuleTest, KallsymsNotesWhereEachModulesSymbolsStart) {
  Result<KernelSymbols> k = parse_kallsyms(
      "ffffffff81000000 T _text\n"
      "ffffffff81000100 T kernel_fn\n"
      "ffffffffc0001000 t a_one\t[mod_a]\n"
      "ffffffffc0001040 t a_two\t[mod_a]\n"
      "ffffffffc0002000 t b_one\t[mod_b]\n"
      "ffffffffc0003000 t a_three\t[mod_a]\n",
      RefRelocSym{"_text", 0xffffffff81000000});
  ASSERT_TRUE(k) << k.error().message();
  EXPECT_EQ(k->module_run_starts.at("[mod_a]"),
            (std::vector<uint64_t>{0xffffffffc0001000, 0xffffffffc0003000}));
  EXPECT_EQ(k->module_run_starts.at("[mod_b]"), (std::vector<uint64_t>{0xffffffffc0002000}));
}

}  // namespace
}  // namespace readperf
