#include "readperf/output/archive_export.h"

#include <fmt/format.h>

#include "readperf/analysis/resolver.h"
#include "readperf/analysis/sample_pipeline.h"
#include "readperf/symbols/archive_writer.h"

namespace readperf {

namespace {

// Resolves every sample as the reports do; the DSOs loaded on the way are what they need.
class HitsSink : public SamplePipeline {
 public:
  using SamplePipeline::SamplePipeline;

 protected:
  void on_sample(const Sample&, const Evsel&, uint64_t, const ResolvedSample&,
                 std::span<const Frame>) override {}
};

// The cache directory perf's build-id cache names a binary's files under: its path without
// the leading '/', "[vdso]" as is.
std::string cache_dir_of(const std::string& long_name, const BuildId& id) {
  std::string_view name = long_name;
  while (name.starts_with('/')) name.remove_prefix(1);
  return fmt::format("{}/{}", name, id.hex());
}

}  // namespace

Result<ArchiveExportSummary> run_archive_export(PerfData& data, const ArchiveExportConfig& config,
                                                const std::string& out_path) {
  PipelineConfig pipeline;
  pipeline.symbols = config.symbols;
  pipeline.max_stack = config.max_stack;
  HitsSink sink(data, pipeline);
  RETURN_IF_ERROR(data.process(sink, stream_process_options(data)));
  ASSIGN_OR_RETURN(ArchiveWriter w, ArchiveWriter::create(out_path));
  ArchiveExportSummary sum;
  const Resolver* resolver = sink.used_resolver();
  Status status;  // the first failure to write, if any
  auto add = [&](const std::string& name, const std::string& source) {
    if (status) status = w.add_file(name, source);
    if (status) ++sum.files;
  };
  if (resolver) {
    resolver->for_each_loaded([&](const Dso& dso, const DsoSymbols& syms) {
      if (!syms.found()) {
        sum.left_out.push_back(fmt::format("{}: not found", dso.long_name));
        return;
      }
      if (syms.origin == BinaryType::kJavaJit) {
        // A JIT's symbol map, kept at its path (the loader looks there in an archive).
        add(std::string(std::string_view(dso.long_name).substr(1)), syms.symtab_path);
        ++sum.binaries;
        return;
      }
      if (syms.build_id.empty()) {
        sum.left_out.push_back(fmt::format("{}: no build-id", dso.long_name));
        return;
      }
      // Laid out as perf's cache: PATH/<build-id>/{elf,debug} (or [vdso]/<build-id>/vdso),
      // and .build-id/xx/rest linking to that directory.
      const std::string dir = cache_dir_of(dso.long_name, syms.build_id);
      const bool vdso = dso.long_name == "[vdso]";
      add(dir + (vdso ? "/vdso" : "/elf"), syms.runtime_path);
      // A separate file for the symbols (a debug file, or a binary with .symtab where the
      // runtime one has none); MiniDebugInfo is inside the runtime file.
      if (!vdso && syms.symtab_path != syms.runtime_path && !syms.symtab_path.ends_with("]")) {
        add(dir + "/debug", syms.symtab_path);
      }
      std::string hex = syms.build_id.hex();
      if (status) {
        status = w.add_symlink(fmt::format(".build-id/{}/{}", hex.substr(0, 2), hex.substr(2)),
                               "../../" + dir);
      }
      ++sum.binaries;
    });
    if (const KernelSymbols* k = resolver->kernel_symbols()) {
      if (k->from_vmlinux && !k->build_id.empty()) {
        // A vmlinux goes where perf's build-id cache keeps one, [kernel.kallsyms]/<id>/elf
        // linked from .build-id, where the reader looks before any kallsyms.
        std::string hex = k->build_id.hex();
        add(fmt::format("[kernel.kallsyms]/{}/elf", hex), k->file);
        if (status) {
          status = w.add_symlink(fmt::format(".build-id/{}/{}", hex.substr(0, 2), hex.substr(2)),
                                 "../../[kernel.kallsyms]/" + hex);
        }
        ++sum.binaries;
      } else if (k->from_vmlinux) {
        sum.left_out.push_back(
            fmt::format("[kernel.kallsyms]: {} (no build-id to find it by)", k->path));
      } else if (k->found()) {
        // Without a recorded build-id the reader picks the cached kallsyms by the recording's
        // relocation reference (kallsyms.h load_kernel_symbols), whatever its directory's name.
        std::string id = k->build_id.empty() ? "no-build-id" : k->build_id.hex();
        add(fmt::format("[kernel.kallsyms]/{}/kallsyms", id), k->path);
        ++sum.binaries;
      } else {
        sum.left_out.push_back("[kernel.kallsyms]: no kallsyms found");
      }
    }
  }
  RETURN_IF_ERROR(status);
  RETURN_IF_ERROR(w.finish());
  sum.bytes_in = w.bytes_in();
  sum.bytes_out = w.bytes_out();
  return sum;
}

}  // namespace readperf
