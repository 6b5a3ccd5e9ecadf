#include "readperf/analysis/profile_reader.h"

#include "readperf/analysis/sample_pipeline.h"

namespace readperf {

namespace {

class ProfileSink : public SamplePipeline {
 public:
  ProfileSink(PerfData& pd, const ProfileReadConfig& cfg)
      : SamplePipeline(
            pd, {.symbols = cfg.symbols, .max_stack = cfg.max_stack, .selection = cfg.selection}),
        builder_(cfg.model) {}

  Profile finish() && {
    const EventList& events = pd_.events();
    for (size_t i = 0; i < events.size(); ++i) {
      const Evsel& ev = events[i];
      builder_.set_event(
          i, ProfileEvent{event_name_of(ev), ev.attr.type, ev.attr.config, ev.attr.sample_type,
                          ev.attr.freq() ? 0 : ev.attr.sample_period, ev.attr.freq()});
    }
    if (const Resolver* r = used_resolver(); r && r->machine().kernel_ref()) {
      const Machine::KernelRef& ref = *r->machine().kernel_ref();
      builder_.set_kernel_ref(ref.name, ref.addr);
    }
    return std::move(builder_).finish();
  }

 protected:
  void on_sample(const Sample& s, const Evsel& evsel, uint64_t period, const ResolvedSample& rs,
                 std::span<const Frame> frames) override {
    // `frames` is the call chain when there is one: its unwound part starts where the
    // resolver says.
    bool chain = frames.data() == rs.callchain.data();
    size_t unwound = chain ? rs.unwound_begin : frames.size();
    builder_.add(s, evsel.index, period, rs.comm, frames, unwound, &resolver(), chain);
  }

 private:
  ProfileBuilder builder_;
};

}  // namespace

ProfileRead read_profile(PerfData& data, const ProfileReadConfig& config) {
  ProfileSink sink(data, config);
  Status st = data.process(sink, stream_process_options(data));
  return ProfileRead{std::move(sink).finish(), std::move(st)};
}

}  // namespace readperf
