// Compressed kernel modules: the suffixes perf 6.1 reads, the decoders, and a module read
// from golden/kmodule-comp's .ko.xz and .ko.gz (fakemod.ko compressed by its make.py).
#include "readperf/symbols/compressed_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "readperf/symbols/build_id.h"
#include "readperf/symbols/kernel_module.h"
#include "test_util.h"

namespace readperf {
namespace {

const std::string kFake = "/lib/modules/6.18.44-fc-v657/kernel/fake/";

std::vector<char> slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string golden(const std::string& rel) { return std::string(READPERF_GOLDEN_DIR) + "/" + rel; }

std::vector<char> plain_ko() { return slurp(golden("kmodule/root" + kFake + "fakemod.ko")); }

std::string write(const testing::TempDir& dir, const std::string& name,
                  const std::vector<char>& bytes) {
  std::string path = dir.file(name);
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

TEST(CompressedFileTest, SuffixesPerfReads) {
  EXPECT_EQ(kmod_compression(kFake + "fakexz.ko.xz"), FileCompression::kXz);
  EXPECT_EQ(kmod_compression(kFake + "fakegz.ko.gz"), FileCompression::kGzip);
  EXPECT_EQ(kmod_compression("a.ko.xz"), FileCompression::kXz);
  // No zstd in perf 6.1's compressions[]: a .ko.zst is no module at all.
  EXPECT_EQ(kmod_compression(kFake + "fakezst.ko.zst"), FileCompression::kNone);
  EXPECT_EQ(kmod_compression(kFake + "fakemod.ko"), FileCompression::kNone);
  // dso__set_module_info(): a compression only for a module (m->kmod && m->comp).
  EXPECT_EQ(kmod_compression("/usr/share/doc/changelog.gz"), FileCompression::kNone);
  EXPECT_EQ(kmod_compression("/x/.ko.xz"), FileCompression::kNone);  // no name before ".ko"
  EXPECT_EQ(kmod_compression("[fakemod]"), FileCompression::kNone);
  EXPECT_EQ(kmod_compression("/x.ko.xz/fakemod.ko"), FileCompression::kNone);
}

TEST(CompressedFileTest, Magic) {
  const std::vector<char> xz = slurp(golden("kmodule-comp/root" + kFake + "fakexz.ko.xz"));
  const std::vector<char> gz = slurp(golden("kmodule-comp/root" + kFake + "fakegz.ko.gz"));
  EXPECT_TRUE(has_compression_magic(FileCompression::kXz, xz));
  EXPECT_FALSE(has_compression_magic(FileCompression::kXz, gz));
  EXPECT_TRUE(has_compression_magic(FileCompression::kGzip, gz));
  EXPECT_FALSE(has_compression_magic(FileCompression::kGzip, xz));
  EXPECT_FALSE(has_compression_magic(FileCompression::kXz, std::span(xz).first(5)));
  EXPECT_FALSE(has_compression_magic(FileCompression::kNone, xz));
}

TEST(CompressedFileTest, DecompressesToTheModule) {
  const std::vector<char> ko = plain_ko();
  ASSERT_FALSE(ko.empty());
  for (auto [file, c] : {std::pair{"fakexz.ko.xz", FileCompression::kXz},
                         std::pair{"fakegz.ko.gz", FileCompression::kGzip}}) {
    const std::vector<char> packed = slurp(golden("kmodule-comp/root" + kFake + file));
    Result<std::vector<char>> out = decompress(c, packed);
    ASSERT_TRUE(out) << file << ": " << out.error().what();
    EXPECT_EQ(*out, ko) << file;
    // An output bound below the module's size is an error, not a cut copy.
    EXPECT_FALSE(decompress(c, packed, ko.size() - 1)) << file;
    EXPECT_TRUE(decompress(c, packed, ko.size())) << file;
  }
}

// Damaged files are errors, never a crash, a hang (perf 6.1's gzip loop never ends on a
// truncated file) or a wrong image.
TEST(CompressedFileTest, DamagedInputIsAnError) {
  const std::vector<char> ko = plain_ko();
  for (auto [file, c] : {std::pair{"fakexz.ko.xz", FileCompression::kXz},
                         std::pair{"fakegz.ko.gz", FileCompression::kGzip}}) {
    const std::vector<char> packed = slurp(golden("kmodule-comp/root" + kFake + file));
    for (size_t n = 0; n < packed.size(); ++n) {
      EXPECT_FALSE(decompress(c, std::span(packed).first(n))) << file << " cut to " << n;
    }
    for (size_t i = 0; i < packed.size(); ++i) {
      std::vector<char> flipped = packed;
      flipped[i] ^= 0x20;
      Result<std::vector<char>> out = decompress(c, flipped);
      // gzip's header fields (MTIME, XFL, OS) are not checked: the image is then whole.
      if (out) {
        EXPECT_EQ(*out, ko) << file << " flipped at " << i;
      }
    }
  }
}

TEST(CompressedFileTest, ReadDecompressed) {
  testing::TempDir dir;
  const std::vector<char> ko = plain_ko();
  const std::string xz = golden("kmodule-comp/root" + kFake + "fakexz.ko.xz");
  Result<std::optional<std::vector<char>>> r = read_decompressed(xz, FileCompression::kXz);
  ASSERT_TRUE(r) << r.error().what();
  ASSERT_TRUE(r->has_value());
  EXPECT_EQ(**r, ko);
  // filename__decompress(): a file without the magic is read as it is (nullopt).
  const std::string plain = write(dir, "plain.ko.xz", ko);
  r = read_decompressed(plain, FileCompression::kXz);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->has_value());
  EXPECT_FALSE(read_decompressed(write(dir, "short.ko.xz", {'\xfd', '7'}), FileCompression::kXz)
                   .value()
                   .has_value());
  // The gzip magic on an .xz name: not xz, so read as it is.
  const std::string gz = golden("kmodule-comp/root" + kFake + "fakegz.ko.gz");
  EXPECT_FALSE(read_decompressed(gz, FileCompression::kXz).value().has_value());
  // Truncated: an error naming the file.
  r = read_decompressed(golden("kmodule-comp/root-odd" + kFake + "fakexz.ko.xz"),
                        FileCompression::kXz);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().what().find("truncated"), std::string::npos) << r.error().what();
  EXPECT_FALSE(read_decompressed(dir.file("missing.ko.xz"), FileCompression::kXz));
}

// load_kernel_module() on a compressed module: the same symbols as from the plain .ko, the
// origin 'm' (SYSTEM_PATH_KMODULE_COMP); a truncated one is not read.
TEST(CompressedFileTest, LoadsACompressedModule) {
  SymbolConfig cfg;
  cfg.buildid_dir = "/nonexistent";
  cfg.symfs = golden("kmodule-comp/root");
  for (const char* name : {"fakexz.ko.xz", "fakegz.ko.gz"}) {
    Result<ModuleSymbols> m = load_kernel_module(kFake + name, BuildId(), cfg);
    ASSERT_TRUE(m) << name << ": " << m.error().what();
    EXPECT_EQ(m->origin, 'm');
    EXPECT_EQ(m->path, cfg.symfs + "/" + kFake + name);
    EXPECT_EQ(m->text_pgoff, 0x40u);
    const Symbol* beta = m->symbols.find(m->text_pgoff + 0x40 + 3);
    ASSERT_NE(beta, nullptr);
    EXPECT_EQ(beta->name, "fm_beta");
  }
  EXPECT_FALSE(load_kernel_module(kFake + "fakezst.ko.zst", BuildId(), cfg));
  cfg.symfs = golden("kmodule-comp/root-odd");
  Result<ModuleSymbols> cut = load_kernel_module(kFake + "fakexz.ko.xz", BuildId(), cfg);
  EXPECT_FALSE(cut);
  // A plain ELF behind a .ko.gz name: read as it is, still the 'm' origin.
  Result<ModuleSymbols> plain = load_kernel_module(kFake + "fakegz.ko.gz", BuildId(), cfg);
  ASSERT_TRUE(plain) << plain.error().what();
  EXPECT_EQ(plain->origin, 'm');
}

}  // namespace
}  // namespace readperf
