// RFC 4180 quoting of the CSV exporter's fields, and its files' shape on a golden recording.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "readperf/output/csv_exporter.h"
#include "test_util.h"

namespace readperf {
namespace {

std::string quoted(std::string_view field) {
  char* buf = nullptr;
  size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  {
    OutBuffer out(f);
    csv_field(out, field);
  }
  std::fclose(f);
  std::string s(buf, len);
  std::free(buf);
  return s;
}

TEST(CsvFieldTest, PlainFieldsAreWrittenAsTheyAre) {
  EXPECT_EQ(quoted("main"), "main");
  EXPECT_EQ(quoted(""), "");
  EXPECT_EQ(quoted("std::vector<int>::push_back(int const&)"),
            "std::vector<int>::push_back(int const&)");
}

TEST(CsvFieldTest, CommasQuotesAndLineBreaksAreQuoted) {
  EXPECT_EQ(quoted("f(int, int)"), "\"f(int, int)\"");
  EXPECT_EQ(quoted("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(quoted("a\nb"), "\"a\nb\"");
  EXPECT_EQ(quoted("a\rb"), "\"a\rb\"");
}

TEST(CsvExportTest, WritesTheFourFilesWithHeaders) {
  auto data = PerfData::open(std::string(READPERF_GOLDEN_DIR) + "/default/perf.data");
  ASSERT_TRUE(data) << data.error().message();
  testing::TempDir dir;
  CsvConfig cfg;
  cfg.symbols.buildid_dir = std::string(READPERF_GOLDEN_DIR) + "/buildid";
  cfg.symbols.proc_kallsyms = "/nonexistent";
  cfg.symbols.sys_kernel_notes = "/nonexistent";
  ASSERT_TRUE(run_csv_export(**data, cfg, dir.path()));
  auto first_line = [&](const char* name) {
    std::ifstream in(dir.file(name));
    std::string line;
    std::getline(in, line);
    return line;
  };
  EXPECT_EQ(first_line("stat.csv"), "type,count\r");
  EXPECT_EQ(first_line("overview.csv"), "nr,type,pid,tid,time,info\r");
  EXPECT_EQ(first_line("processes.csv"),
            "pid,name,mmaps,fork_time,exit_time,event,samples,period\r");
  EXPECT_EQ(first_line("results.csv"),
            "event,function,source_file,binary,samples,period,percent\r");
}

TEST(CsvExportTest, AnUnwritableDirectoryIsAnError) {
  auto data = PerfData::open(std::string(READPERF_GOLDEN_DIR) + "/default/perf.data");
  ASSERT_TRUE(data);
  Status st = run_csv_export(**data, CsvConfig{}, "/nonexistent/dir/csv");
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find("/nonexistent/dir/csv"), std::string::npos);
}

}  // namespace
}  // namespace readperf
